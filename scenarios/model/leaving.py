"""Leaving the game (800.4): one player or several at the same time.

As players leave: the monarch and the initiative pass at that moment (725.4, 726.4); objects they own
leave the game, control effects giving them control end, and what they still control is exiled
(800.4a); triggered abilities they control cease to exist (800.4a, 800.4d); if it was their turn, the
turn goes on with no active player (800.4j). Then the game may be over (104.2a, 104.2c).

>>> from rulesjudge.scenarios.model.table import TableState
>>> state = TableState(seats=("Ann", "Ben", "Cat", "Dan"), turn_player="Ann", monarch="Ann")
>>> after, steps = leave(state, ["Ann"], "conceded")
>>> after.monarch, after.active, after.in_game
('Ben', None, ('Ben', 'Cat', 'Dan'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulesjudge.scenarios.model.citations import RULING_LEAVES, Cite, cr
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.table import Permanent, TableState, Trigger, frozen_map, next_in_turn_order


def successor(
    state: TableState, leavers: Sequence[str], what: str, rule: Cite, extra: tuple[Cite, ...] = ()
) -> tuple[str | None, list[Step]]:
    """Who takes a designation (the monarch, the initiative) whose holder leaves (725.4, 726.4).

    The active player, unless they are leaving too or there is none; then the next player in turn
    order (counted from the player whose turn it is) who is not leaving; else nobody.
    """
    active = state.active
    if active is not None and active not in leavers:
        return active, [
            Step(
                f"The {what} left the game, so the active player, {active}, takes it at the same time.",
                (rule, *extra),
            )
        ]
    start = state.turn_player or (leavers[0] if leavers else None)
    nxt = next_in_turn_order(state, start, skip=leavers) if start else None
    if active is not None:
        why = f"the active player, {active}, is leaving too"
    else:
        why = f"there is no active player ({start} left during their own turn)"
    if nxt is None:
        return None, [
            Step(
                f"The {what} left and no player still in the game can take it, so the game goes "
                f"on without one.",
                (rule,),
            )
        ]
    readings: tuple[Reading, ...] = ()
    holder = next((p for p in leavers if p != start), None)
    if active is None and holder is not None:
        # With no active player, "the next player in turn order" is read from the player whose turn it
        # is (as 800.4j hands priority on); counting from the leaving holder is the other reading.
        other = next_in_turn_order(state, holder, skip=leavers)
        if other is not None and other != nxt:
            readings = (
                Reading(
                    f"Counted from the player whose turn it is ({start}): {nxt}", nxt, (rule, cr("800.4j"))
                ),
                Reading(f"Counted from the leaving holder ({holder}): {other}", other, (rule,)),
            )
    return nxt, [
        Step(
            f"The {what} left the game and {why}, so the next player in turn order, {nxt}, takes it.",
            (rule, *extra),
            readings,
        )
    ]


def _objects(state: TableState, leavers: set[str]) -> tuple[dict[str, Permanent], list[Step]]:
    """800.4a: owned objects leave the game; control effects giving a leaver control end; what a leaver
    still controls is exiled."""
    permanents = dict(state.permanents)
    steps: list[Step] = []
    for name, perm in state.permanents.items():
        if not perm.on_battlefield:
            continue
        if perm.owner in leavers:
            permanents[name] = replace(perm, zone="left-the-game", control_effects=())
            steps.append(
                Step(f"{name} is owned by {perm.owner}, so it leaves the game with them.", (cr("800.4a"),))
            )
            continue
        effects = tuple(p for p in perm.control_effects if p not in leavers)
        after = replace(perm, control_effects=effects)
        if after.current_controller != perm.current_controller:
            after = replace(after, since=state.turn)
        if (
            effects != perm.control_effects
            and after.current_controller not in leavers
            and not state.left.get(after.current_controller)
        ):
            steps.append(
                Step(
                    f"The effect giving control of {name} to "
                    f"{', '.join(sorted(set(perm.control_effects) & leavers))} ends, so {name} "
                    f"returns to {after.current_controller}.",
                    (cr("800.4a"),),
                )
            )
        if after.current_controller in leavers or after.current_controller in state.left:
            after = replace(after, zone="exile")
            steps.append(
                Step(
                    f"{name} is still controlled by {after.current_controller}, who left, so it is exiled.",
                    (cr("800.4a"),),
                )
            )
        permanents[name] = after
    return permanents, steps


def leave(state: TableState, players: Sequence[str], how: str = "lost") -> tuple[TableState, list[Step]]:
    """Players leave the game at the same time: ``how`` is lost, conceded or drew."""
    from rulesjudge.scenarios.model.variants import variant_of

    variant = variant_of(state)
    if state.game_over:
        return state, [Step("The game is already over.", (cr("104.1"),))]
    going = [p for p in dict.fromkeys(players) if state.is_in(p)]
    steps: list[Step] = [
        Step(f"{p} has already left the game.", (cr("800.4"),)) for p in players if p not in going
    ]
    if not going:
        return state, steps
    going, more = variant.expand_leavers(state, going, how)
    steps += more
    leavers = set(going)
    remaining = [p for p in state.in_game if p not in leavers]
    outcome = {"conceded": "lost", "lost": "lost", "drew": "drew"}.get(how, "lost")
    names = ", ".join(going)
    if not remaining and outcome == "lost" and len(state.in_game) > 0:
        outcome = "drew"
        steps.append(
            Step(
                f"All the players remaining in the game ({names}) lose at the same time, so the "
                "game is a draw.",
                (cr("104.4a"), cr("104.4d") if state.teams else cr("104.4a")),
            )
        )
    elif how == "conceded":
        steps.append(
            Step(
                f"{names} concede{'s' if len(going) == 1 else ''}: a player who concedes leaves the "
                "game immediately and loses.",
                (cr("104.3a"),),
            )
        )
    elif outcome == "drew":
        steps.append(Step(f"The game is a draw for {names}, who leave the game.", (cr("104.5"),)))
    else:
        steps.append(
            Step(
                f"{names} {'loses' if len(going) == 1 else 'lose'} the game and leave"
                f"{'s' if len(going) == 1 else ''} it.",
                (cr("104.5"), cr("800.4")),
            )
        )

    changes: dict[str, object] = {}
    gained: tuple[Trigger, ...] = ()
    if state.monarch in leavers:
        new, more = successor(state, going, "monarch", cr("725.4"), (RULING_LEAVES,))
        steps += more
        changes["monarch"] = new
        if new is not None:
            counts = dict(state.became_monarch)
            counts[new] = counts.get(new, 0) + 1
            changes["became_monarch"] = frozen_map(counts)
    if state.initiative in leavers:
        new, more = successor(state, going, "player who had the initiative", cr("726.4"))
        steps += more
        changes["initiative"] = new
        if new is not None:  # taking it this way is taking the initiative: 726.2's third ability triggers
            from rulesjudge.scenarios.model.initiative import VENTURE

            venture = Trigger(VENTURE, new, new, f"{new} ventures into Undercity", (cr("726.2"),))
            gained = (venture,)
            steps.append(
                Step(
                    f'{new} takes the initiative, so "whenever a player takes the initiative" '
                    "triggers: they venture into Undercity.",
                    (cr("726.2"),),
                )
            )
    if state.active in leavers:
        steps.append(
            Step(
                f"{state.active} left during their own turn: the turn continues to its end with no "
                "active player.",
                (cr("800.4j"),),
            )
        )
    permanents, more = _objects(state, leavers)
    steps += more
    stack = tuple(t for t in state.stack if t.controller not in leavers)
    pending = tuple(t for t in state.pending if t.controller not in leavers) + gained
    for trigger in (*state.stack, *state.pending):
        if trigger.controller in leavers:
            steps.append(
                Step(
                    f'The ability "{trigger.text}" is controlled by {trigger.controller}, who left: '
                    "it ceases to exist.",
                    (cr("800.4a"), cr("800.4d")),
                )
            )
    left = dict(state.left)
    results = dict(state.results)
    for p in going:
        left[p] = how if how in ("conceded", "drew") else outcome
        results[p] = outcome
    state = state.with_(
        left=frozen_map(left),
        results=frozen_map(results),
        permanents=frozen_map(permanents),
        stack=stack,
        pending=pending,
        **changes,
    )
    state, more = variant.on_leave(state, going)
    steps += more
    state, more = variant.game_result(state)
    return state, steps + more
