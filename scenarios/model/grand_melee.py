"""The Grand Melee variant (807): Free-for-All for ten or more players, several of them taking turns at once.

Default options: range of influence 1 and attack left (807.2). One turn marker for each full four players
(807.4a), handed to the starting player and every fourth seat to the left (807.4b); each marker is an active
player's turn. A player ending their turn passes the marker left (807.4c) and a player receiving one waits
while a marker is within three seats to their left (807.4d). Leaving can reduce the markers: the one
immediately to the departed player's right is designated for removal (807.4e-g). Extra turns keep or pass the
marker (807.4i, 807.4j). Each marker has its own stack (807.5).

>>> markers_at(tuple("ABCDEFGHIJKLMNOP"), "A")
('A', 'E', 'I', 'M')
>>> markers_at(tuple("ABCDEFGHIJKLMNO"), "A")
('A', 'E', 'I')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model import turns
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.influence import in_range
from rulesjudge.scenarios.model.questions import Question, question
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import Marker, Options, TableState, Trigger, next_in_turn_order
from rulesjudge.scenarios.model.variant import FreeForAll

Result = tuple[TableState, list[Step]]


def markers_at(seats: Sequence[str], starting: str) -> tuple[str, ...]:
    """807.4a/b: one marker per full four players, from the starting player every fourth seat to the left."""
    i = seats.index(starting)
    return tuple(seats[(i + 4 * k) % len(seats)] for k in range(len(seats) // 4))


def nearest(state: TableState, player: str, direction: int, count: int) -> list[str]:
    """The ``count`` nearest players still in the game to ``player``'s left (+1) or right (-1)."""
    ring = [p for p in state.seats if state.is_in(p) or p == player]
    i = ring.index(player)
    return [ring[(i + direction * k) % len(ring)] for k in range(1, min(count, len(ring) - 1) + 1)]


def marker_of(state: TableState, player: str) -> Marker | None:
    return next((m for m in state.markers if m.holder == player), None)


def _with_marker(state: TableState, old: Marker, new: Marker | None) -> TableState:
    markers = tuple(new if m is old else m for m in state.markers if m is not old or new is not None)
    return state.with_(markers=markers)


def _taking_turns(state: TableState) -> TableState:
    return state.with_(
        turn_players=tuple(m.holder for m in sorted(state.markers, key=lambda m: m.number) if m.taking_turn)
    )


def _blocked(state: TableState, player: str) -> bool:
    """807.4d: a marker within the three seats to the player's left."""
    holders = {m.holder for m in state.markers if m.holder != player}
    return any(p in holders for p in nearest(state, player, 1, 3))


def begin_waiting(state: TableState) -> Result:
    """Holders who waited begin their turns once no marker is within three seats to their left (807.4d)."""
    steps: list[Step] = []
    for marker in sorted(state.markers, key=lambda m: m.number):
        current = next(m for m in state.markers if m.number == marker.number)
        busy = {m.holder for m in state.markers if m.taking_turn}  # one turn at a time for each player
        if current.taking_turn or current.holder in busy or not state.is_in(current.holder):
            continue
        if _blocked(state, current.holder):
            continue
        state = _with_marker(state, current, replace(current, taking_turn=True))
        state, more = _begin(state, current.holder)
        steps += more
    return _taking_turns(state), steps


def _begin(state: TableState, player: str) -> Result:
    extra = player in turns.pending_extra_turns(state)
    if extra:
        queue = list(state.extra_turns)
        queue.remove(player)
        state = state.with_(extra_turns=tuple(queue))
    kind = "the extra turn it was given, immediately before their next turn" if extra else "their turn"
    steps = [
        step(
            f"No turn marker is within three seats to {player}'s left: {player} begins {kind}.",
            cr("807.4d"),
            *((cr("807.4j"),) if extra else ()),
        )
    ]
    state = state.with_(turn=state.turn + 1)
    state, more = turns.untap(state, [player])
    steps += more
    if state.turn_seats != state.in_game:
        steps.append(
            step(
                "A turn begins, so the players on either side of seats emptied by players who left enter one "
                "another's range of influence.",
                cr("807.4h"),
            )
        )
    return turns.fix_ranges(state, steps)


def _receive(state: TableState, marker: Marker, player: str, why: str) -> Result:
    """``player`` takes ``marker`` (807.4c) and begins their turn unless 807.4d makes them wait."""
    busy = any(m.holder == player and m.taking_turn for m in state.markers)
    state = _with_marker(state, marker, replace(marker, holder=player, taking_turn=False))
    steps = [step(why, cr("807.4c"))]
    if busy:
        steps.append(
            step(
                f"{player} is taking a turn already: the turn of this marker waits until that one ends (one "
                "turn at a time; 807.4i has a marker holder's extra turn wait the same way).",
                cr("807.4c"),
                cr("807.4i"),
            )
        )
    elif _blocked(state, player):
        steps.append(
            step(
                f"A turn marker is within three seats to {player}'s left, so {player} waits until the player "
                "four seats to their left takes it.",
                cr("807.4d"),
            )
        )
    return state, steps


def _remove(state: TableState, marker: Marker, why: str) -> Result:
    """807.4g: a designated marker is removed; designated several times, the one to its right takes the
    rest."""
    state = _with_marker(state, marker, None)
    steps = [step(why, cr("807.4g"))]
    if marker.designated > 1 and state.markers:
        right = _marker_right_of(state, marker.holder)
        if right is not None:
            state = _with_marker(
                state, right, replace(right, designated=right.designated + marker.designated - 1)
            )
            steps.append(
                step(
                    f"It had been designated {marker.designated} times: {right.holder}'s marker, to its "
                    f"right, "
                    f"is designated {marker.designated - 1} more.",
                    cr("807.4g"),
                )
            )
    return state, steps


def _marker_right_of(state: TableState, player: str) -> Marker | None:
    """The turn marker immediately to a (departed) player's right: the first found going right (807.4e)."""
    n = len(state.seats)
    i = state.seats.index(player)
    for k in range(1, n):
        seat = state.seats[(i - k) % n]
        found = marker_of(state, seat)
        if found is not None:
            return found
    return None


def _remove_idle(state: TableState) -> Result:
    """807.4g: a designated marker held by a player not taking a turn is removed immediately."""
    steps: list[Step] = []
    for marker in list(state.markers):
        current = next((m for m in state.markers if m.number == marker.number), None)
        if current is not None and current.designated and not current.taking_turn:
            state, more = _remove(
                state,
                current,
                f"{current.holder} isn't taking a turn, so their turn marker, "
                "designated for removal, is removed immediately.",
            )
            steps += more
    return state, steps


def end_turn(state: TableState, player: str) -> Result:
    """The turn ``player`` is taking (or was, before leaving it, 800.4j) ends: the marker is removed if
    designated (807.4g), kept for an extra turn (807.4i), or passed to the left (807.4c)."""
    marker = marker_of(state, player)
    if marker is None or not marker.taking_turn:
        return state, [step(f"{player} isn't taking a turn, so no turn of theirs ends.", cr("807.4"))]
    if state.stack:
        state = state.with_(stack=())
    state = state.with_(step="")  # the steps reached were that turn's; the next begins from none (500.1)
    steps = [
        step(f"{player}'s turn ends.", cr("500.1"), *((cr("800.4j"),) if not state.is_in(player) else ()))
    ]
    left = next_in_turn_order(state, player)
    if marker.designated:
        state, more = _remove(
            state,
            marker,
            f"{player}'s turn marker was designated for removal: it is removed rather "
            "than passed as the turn ends.",
        )
        steps += more
    elif state.is_in(player) and player in turns.pending_extra_turns(state):
        state, more = _extra(state, marker, player, left)
        steps += more
    elif left is not None:
        state, more = _receive(
            state,
            marker,
            left,
            f"{player} passes the turn marker to the player on their left, {left}."
            if state.is_in(player)
            else f"{player} left during their turn; now that it ended, {left}, the player to their left, "
            "takes the turn marker.",
        )
        steps += more
    state, more = begin_waiting(state)
    return state, steps + more


def _extra(state: TableState, marker: Marker, player: str, left: str | None) -> Result:
    """807.4i: a holder given an extra turn keeps the marker and starts it after the current turn, unless a
    marker is too close: within three seats on the left, it waits; on the right, the marker passes and the
    extra turn comes immediately before their next turn."""
    others = {m.holder for m in state.markers if m is not marker}
    if any(p in others for p in nearest(state, player, 1, 3)):
        state = _with_marker(state, marker, replace(marker, taking_turn=False))
        return state, [
            step(
                f"{player} keeps the turn marker for the extra turn, but a marker is within three seats on "
                f"their left: the extra turn waits until the player four seats to their left takes it.",
                cr("807.4i"),
            )
        ]
    if any(p in others for p in nearest(state, player, -1, 3)) and left is not None:
        state, steps = _receive(
            state,
            marker,
            left,
            f"A turn marker is within three seats on {player}'s right: {player} "
            f"passes the marker to {left} rather than keeping it.",
        )
        return state, [
            *steps,
            step(f"{player} will take the extra turn immediately before their next turn.", cr("807.4i")),
        ]
    queue = list(state.extra_turns)
    queue.remove(player)
    state = state.with_(extra_turns=tuple(queue), turn=state.turn + 1)
    state, steps = turns.untap(state, [player])
    return turns.fix_ranges(
        state,
        [
            step(f"{player} keeps the turn marker and starts the extra turn now.", cr("807.4i"), cr("500.7")),
            *steps,
        ],
    )


def stacks_for(state: TableState, player: str) -> list[str]:
    """807.5a: the markers (by holder) whose stacks ``player`` gets priority for: the marker is within their
    range of influence, or an object on that stack is controlled by a player within it."""
    reach = state.variant.range_of(state, player)
    found = []
    for marker in sorted(state.markers, key=lambda m: m.number):
        near = marker.holder == player or in_range(state, player, marker.holder, reach)[0]
        controllers = {t.controller for t in state.stack if t.stack == str(marker.number)}
        if near or any(c == player or in_range(state, player, c, reach)[0] for c in controllers):
            found.append(marker.holder)
    return found


@question("turn-markers", (), "players", "Grand Melee: the players holding turn markers")
def _turn_markers(state: TableState) -> Answer:
    holders = [m.holder for m in sorted(state.markers, key=lambda m: m.number)]
    return holders, [
        step(f"Turn markers are held by {', '.join(holders) or 'nobody'}.", cr("807.4a"), cr("807.4b"))
    ]


@question("marked-for-removal", (), "players", "Grand Melee: holders of turn markers designated for removal")
def _marked(state: TableState) -> Answer:
    marked = [m.holder for m in state.markers if m.designated]
    return marked, [
        step(
            f"Turn markers designated for removal: {', '.join(marked) or 'none'}.", cr("807.4e"), cr("807.4g")
        )
    ]


@question(
    "stacks",
    ("player",),
    "players",
    "Grand Melee: the turn markers (by holder) whose stacks the player gets priority for",
)
def _stacks(state: TableState, player: str) -> Answer:
    found = stacks_for(state, player)
    return found, [
        step(
            f"{player} gets priority for the stacks of: {', '.join(found) or 'none'} (a marker within their "
            "range of influence, or an object on its stack controlled by a player within it).",
            cr("807.5a"),
        )
    ]


class GrandMelee(FreeForAll):
    """807: Free-for-All with turn markers, several players taking turns at once."""

    name = "grand-melee"
    title = "Grand Melee"
    # Not Free-for-All's names: "free for all" in a question is that variant, never this one.
    aliases = ()

    def stack_of(self, state: TableState, player: str) -> tuple[Trigger, ...]:
        """807.5: each turn marker has its own stack; a player taking a turn casts onto their marker's."""
        marker = marker_of(state, player)
        mine = str(marker.number) if marker else None
        return tuple(t for t in state.stack if t.stack in (None, mine))
    cites = (cr("807.1"),)
    many_active = True
    active_rules = (cr("807.4"), cr("807.4b"))
    questions = (_turn_markers, _marked, _stacks)
    allows_teams = False
    min_players = 10
    min_players_rule = "807.1"  # normally used only in games begun with ten or more players

    def default_options(self, setup: Setup) -> Options:
        return Options(range=1, attack="left", deploy=False)  # 807.2a-c

    def prepare(self, state: TableState, setup: Setup) -> TableState:
        first = setup.active or state.seats[0]
        holders = setup.turn_markers if setup.turn_markers is not None else markers_at(state.seats, first)
        given = setup.turn_markers is not None
        markers = tuple(Marker(i + 1, p, taking_turn=not given or p == first) for i, p in enumerate(holders))
        state = state.with_(markers=markers)
        if given:
            state, _ = begin_waiting(state)
        return _taking_turns(state)

    def legal_setup(self, state: TableState) -> tuple[bool, list[Step]]:
        ok = len(state.seats) >= self.min_players
        return ok, [
            step(
                f"Grand Melee is normally used only in games begun with {self.min_players} or more players; "
                f"this one has {len(state.seats)}.",
                cr("807.1"),
            )
        ]

    def first_player_steps(self, state: TableState) -> list[Step]:
        return [
            step(
                "The players are seated at random and a starting player is chosen; they get the first turn "
                "marker.",
                cr("807.3"),
                cr("807.4b"),
                cr("103.1"),
            )
        ]

    def on_leave(self, state: TableState, leavers: Sequence[str]) -> Result:
        steps: list[Step] = []
        for marker in list(state.markers):
            if marker.holder in leavers and not marker.taking_turn:
                left = next_in_turn_order(state, marker.holder)
                if left is not None:
                    state, more = _receive(
                        state,
                        marker,
                        left,
                        f"{marker.holder} left before their turn began: {left}, "
                        "the player to their left, takes the turn marker "
                        "immediately.",
                    )
                    steps += more
        effective = len(state.markers) - sum(m.designated for m in state.markers)
        needed = len(state.in_game) // 4
        if needed == 0 and effective == 1:
            steps.append(
                step(
                    f"Only {len(state.in_game)} players are left: 807.4a read to the letter would leave no "
                    "turn marker and no one could take a turn, so the last marker stays and the game goes on "
                    "one turn at a time.",
                    cr("807.4a"),
                )
            )
            needed = 1
        if needed < effective:
            candidates = [m for m in (_marker_right_of(state, p) for p in leavers) if m is not None]
            if candidates:
                chosen = min(candidates, key=lambda m: m.number)
                times = effective - needed
                state = _with_marker(state, chosen, replace(chosen, designated=chosen.designated + times))
                steps.append(
                    step(
                        f"{len(state.in_game)} players still in the game need {needed} turn marker"
                        f"{'s' if needed != 1 else ''}: {chosen.holder}'s marker, the one immediately to the "
                        f"departed player's right, is designated for removal.",
                        cr("807.4e"),
                        cr("807.4f"),
                    )
                )
        state, more = _remove_idle(state)
        steps += more
        state, more = begin_waiting(state)
        return state, steps + more

    def apply_event(self, state: TableState, event: ev.Event) -> Result | None:
        if isinstance(event, ev.EndTurn):
            return end_turn(state, event.player)
        if isinstance(event, ev.NextTurn):
            steps: list[Step] = []
            for holder in list(state.turn_players):
                state, more = end_turn(state, holder)
                steps += more
            return state, steps
        if isinstance(event, ev.Cast):
            return self._cast(state, event)
        if isinstance(event, ev.UntilTurn):
            return self._until_turn(state, event)
        return None

    def _until_turn(self, state: TableState, event: ev.UntilTurn) -> Result | None:
        """With several turns taken at once, "until Cat's turn" is no count of turns: each turn ends on its
        own and a marker waits while another is within three seats (807.4c-d), so nothing happens and the
        step says why. One turn at a time (or Cat taking hers now): the general rule (None)."""
        several = len(state.active_players) > 1
        if not several or (event.player in state.active_players and not event.next):
            return None
        return state, [
            step(
                f"{', '.join(state.active_players)} are taking turns at the same time, and each turn ends on "
                f"its own, its marker passing left or waiting: which turn is {event.player}'s is not a count "
                "of turns, so no turn passes here (end the turns one by one with end-turn).",
                cr("807.4"),
                cr("807.4c"),
                cr("807.4d"),
            )
        ]

    def _cast(self, state: TableState, event: ev.Cast) -> Result:
        """807.5b: the caster names the stack; they must get priority for it (807.5a)."""
        target = event.stack or (event.player if marker_of(state, event.player) else None)
        marker = marker_of(state, target) if target else None
        if marker is None:
            return state, [
                step("Name the turn marker (by its holder) whose stack the spell goes on.", cr("807.5b"))
            ]
        if marker.holder not in stacks_for(state, event.player):
            return state, [
                step(f"{event.player} doesn't get priority for {marker.holder}'s stack.", cr("807.5a"))
            ]
        return state.with_spell(event.player, event.spell, str(marker.number)), [
            step(
                f"{event.player} casts {event.spell} on the stack of {marker.holder}'s turn marker.",
                cr("807.5b"),
                cr("601.2"),
            )
        ]

    def answer(self, state: TableState, asked: Question) -> Answer | None:
        if asked.name == "next-turn" and not state.game_over and state.turn_players:
            return self._next_turns(state)
        if asked.name == "priority":
            holders = list(state.active_players)
            return holders, [
                step(
                    "Each turn marker has its own stack; the active player of each receives priority for "
                    f"it: {', '.join(holders) or 'nobody'}.",
                    cr("807.5"),
                    cr("117.3a"),
                )
            ]
        return None

    def _next_turns(self, state: TableState) -> Answer:
        """Who begins the next turns: the markers move as the turns now being taken end (807.4c, 807.4i,
        807.4g), and a receiver begins only once no marker is within three seats to their left (807.4d) -
        not simply the next seat in turn order (101.4)."""
        taking = ", ".join(state.turn_players)
        after, steps = self.apply_event(state, ev.NextTurn()) or (state, [])
        began = list(after.turn_players)
        return began, [
            step(
                f"Each turn marker is an active player's turn; the next turns begin as the turns being taken "
                f"now ({taking}) end and their markers move.",
                cr("807.4"),
            ),
            *steps,
            step(
                f"{', '.join(began) or 'Nobody'} {'begin' if len(began) != 1 else 'begins'} the next "
                f"turn{'s' if len(began) != 1 else ''}.",
                cr("807.4c"),
                cr("807.4d"),
            ),
        ]
