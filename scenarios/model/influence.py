"""Range of influence (801), attack multiple players (802), attack left and right (803), and who the
defending players are (506.2a).

Who is within a player's range of influence is fixed as each turn begins (801.2c): the state keeps a
snapshot taken then, and a player who leaves does not bring the players on either side of them into
each other's range until the next turn begins.

>>> from rulesjudge.scenarios.model.table import TableState, Options
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Alex", "Rob", "Carissa", "Dan"), variant=FreeForAll(), turn_players=("Alex",),
...                    options=Options(range=1))
>>> sorted(within_range(state, "Alex"))
['Alex', 'Dan', 'Rob']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.table import TableState, frozen, neighbour

RangeOf = Callable[[TableState, str], "int | None"]


def within_range(
    state: TableState, player: str, reach: int | None = None, seats: Sequence[str] | None = None
) -> tuple[str, ...]:
    """Players within ``reach`` seats of ``player`` (801.2), counting only the given seats (default:
    the players in the game now). ``reach`` None is unlimited. A player is within their own range."""
    ring = tuple(seats) if seats is not None else state.in_game
    if reach is None:
        reach = state.options.range_of(player)
    if player not in ring:
        return ()
    return _window(ring, ring.index(player), reach)


def _window(ring: tuple[str, ...], at: int, reach: int | None) -> tuple[str, ...]:
    """The seats of ``ring`` at most ``reach`` seats either side of seat ``at``, in seat order: the work
    grows with the reach, not with the table (a whole-table reach is the ring itself, shared).

    >>> _window(("A", "B", "C", "D", "E"), 0, 1)
    ('A', 'B', 'E')
    """
    if reach is None or 2 * reach + 1 >= len(ring):
        return ring
    seats = sorted({(at + step) % len(ring) for step in range(-reach, reach + 1)})
    return tuple(ring[i] for i in seats)


def snapshot(state: TableState, range_of: RangeOf) -> TableState:
    """Fix each player's range of influence as a turn begins (801.2c)."""
    ring = state.in_game
    ranges = {p: _window(ring, at, range_of(state, p)) for at, p in enumerate(ring)}
    return state.with_(influence=frozen(ranges), turn_seats=ring)


def in_range(state: TableState, player: str, other: str, reach: int | None) -> tuple[bool, list[Step]]:
    """Is ``other`` within ``player``'s range of influence (as fixed when this turn began)?"""
    if not state.is_in(player) or not state.is_in(other):
        gone = player if not state.is_in(player) else other
        return False, [
            Step(
                f"{gone} has left the game, so is within no one's range of influence.",
                (cr("800.4a"), cr("801.2")),
            )
        ]
    if player == other:
        return True, [Step("A player is always within their own range of influence.", (cr("801.2b"),))]
    if reach is None:
        return True, [
            Step(
                "The limited range of influence option is not used, so every player is within range.",
                (cr("801.1"),),
            )
        ]
    fixed = state.influence.get(player)
    if fixed is None:
        fixed = within_range(state, player, reach)
    inside = other in fixed
    text = (
        f"{player}'s range of influence is {reach}; when this turn began, {other} was "
        f"{'within' if inside else 'not within'} {reach} seat{'s' if reach != 1 else ''} of {player}."
    )
    steps = [Step(text, (cr("801.2"), cr("801.2c")))]
    now = other in within_range(state, player, reach)
    if now != inside:
        steps.append(
            Step(
                "Players have left since, so the seats close up, but who is within range is fixed "
                "as each turn begins: that changes at the start of the next turn.",
                (cr("801.2c"),),
            )
        )
    return inside, steps


def adjacent_opponent(state: TableState, player: str, direction: int, opponents: Sequence[str]) -> str | None:
    """The player seated immediately to ``player``'s left (+1) or right (-1), if an opponent (803.1)."""
    nearest = neighbour(state, player, direction)
    return nearest if nearest in opponents else None


def _seats_reading(
    state: TableState, attacker: str, direction: int, option: str, ok: bool, defender: str
) -> tuple[Reading, ...]:
    """803.1 has no rule on when seats emptied by players who left close up (801.2c fixes only range of
    influence as each turn begins). The model closes them at once; name the other reading where it differs."""
    if attacker not in state.turn_seats:
        return ()
    then = neighbour(state, attacker, direction, state.turn_seats)
    if then is None or state.is_in(then):
        return ()
    other = False  # the seat next to them was that of a player who has left: nobody there to attack
    if other == ok:
        return ()
    return (
        Reading(
            f"Seats close up at once: {attacker} may attack {defender}",
            ok,
            (cr("803.1a" if option == "left" else "803.1b"),),
        ),
        Reading(
            f"Seats fixed as the turn began, like range of influence (801.2c): the seat to {attacker}'s "
            f"{option} was {then}'s, who left, so {attacker} can't attack",
            other,
            (cr("801.2c"),),
        ),
    )


def attack_option_allows(
    state: TableState, attacker: str, defender: str, opponents: Sequence[str]
) -> tuple[bool, list[Step]]:
    """Whether the attack option in use lets ``attacker`` attack the opponent ``defender``."""
    option = state.options.attack
    if option == "multiple":
        return True, [
            Step(
                f"With the attack multiple players option, all of {attacker}'s opponents are "
                "defending players, so any of them may be attacked.",
                (cr("802.1"), cr("802.2")),
            )
        ]
    if option in ("left", "right"):
        direction = 1 if option == "left" else -1
        rule = cr("803.1a") if option == "left" else cr("803.1b")
        target = adjacent_opponent(state, attacker, direction, opponents)
        if target is None:
            return False, [
                Step(
                    f"With attack {option}, {attacker} can attack only an opponent seated "
                    f"immediately to their {option}, and the player there is not an opponent, "
                    "so they can't attack.",
                    (rule,),
                )
            ]
        ok = target == defender
        text = (
            f"With attack {option}, {attacker} can attack only the opponent seated immediately to their "
            f"{option}, {target}."
        )
        return ok, [Step(text, (rule,), _seats_reading(state, attacker, direction, option, ok, defender))]
    if option == "adjacent":
        near = {neighbour(state, attacker, 1), neighbour(state, attacker, -1)}
        ok = defender in near
        return ok, [
            Step(
                f"{attacker} can attack only an opponent seated immediately next to them; "
                f"{defender} {'is' if ok else 'is not'} (seats of players who left close up).",
                (cr("809.3c"),),
            )
        ]
    return False, [Step(f"Unknown attack option {option!r}.", (cr("806.2b"),))]


def can_attack(
    state: TableState, attacker: str, defender: str, opponents: Sequence[str], reach: int | None
) -> tuple[bool, list[Step]]:
    """Can creatures ``attacker`` controls attack ``defender`` (506.2a, 801.3, 802, 803)?"""
    for who in (attacker, defender):
        if not state.is_in(who):
            return False, [Step(f"{who} has left the game, so can't attack or be attacked.", (cr("800.4a"),))]
    if attacker == defender:
        return False, [Step("A player attacks only opponents, never themselves.", (cr("506.2a"),))]
    if defender not in opponents:
        return False, [
            Step(
                f"{defender} is {attacker}'s teammate, not an opponent; only opponents can be attacked.",
                (cr("102.3"), cr("506.2a")),
            )
        ]
    steps: list[Step] = []
    if reach is not None:
        inside, range_steps = in_range(state, attacker, defender, reach)
        steps += range_steps
        if not inside:
            steps.append(
                Step(
                    "Creatures can attack only opponents within their controller's range of influence.",
                    (cr("801.3"),),
                )
            )
            return False, steps
    ok, option_steps = attack_option_allows(state, attacker, defender, opponents)
    return ok, steps + option_steps
