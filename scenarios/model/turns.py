"""Turns and priority: the next turn (101.4), extra turns (500.7), turns that don't begin (800.4k), effects
lasting until a player's next turn (611.2a, 800.4m), and who has priority (117.3, 117.4, 800.4a, 800.4j,
805.5).

>>> from rulesjudge.scenarios.model.table import TableState
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben", "Cat"), variant=FreeForAll(), turn_players=("Ann",),
...                    normal_turn="Ann")
>>> state, _ = add_extra_turns(state, ["Cat"])
>>> who_is_next(state)[0]
('Cat',)
>>> state, _ = next_turn(state)
>>> state.turn_players, who_is_next(state)[0]
(('Cat',), ('Ben',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulesjudge.scenarios.model import influence
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.setup import EFFECT_WORDS
from rulesjudge.scenarios.model.steps import Step, step
from rulesjudge.scenarios.model.table import Effect, TableState, frozen, next_in_turn_order

Result = tuple[TableState, list[Step]]


# --- whose turn is next -----------------------------------------------------------------------------
def pending_extra_turns(state: TableState) -> tuple[str, ...]:
    """Extra turns still to come, next first, of players still in the game (800.4k)."""
    return tuple(p for p in state.extra_turns if state.is_in(p))


def who_is_next(state: TableState) -> tuple[tuple[str, ...], list[Step]]:
    """Who takes the next turn: the most recently created extra turn first (500.7), else the next player
    in turn order (101.4) skipping players who left (800.4k); the whole team under shared team turns."""
    variant = state.variant
    if state.game_over:
        return (), [step("The game is over: no more turns.", cr("104.1"))]
    extra = pending_extra_turns(state)
    if extra:
        group = variant.turn_group(state, extra[0])
        return group, [
            step(
                f"{extra[0]} was given an extra turn, added directly after this one: "
                f"{', '.join(group)} take{'s' if len(group) == 1 else ''} the next turn.",
                cr("500.7"),
            )
        ]
    nxt, _ = variant.next_normal_turn(state)
    if nxt is None:
        return (), [step("No player is left to take a turn.", cr("800.4k"))]
    group = variant.turn_group(state, nxt)
    cites = (cr("101.4"), cr("800.4k"), *((cr("805.4"),) if len(group) > 1 else ()))
    return group, [
        step(
            f"Turn order goes to the left, skipping players who left: {', '.join(group)} "
            f"take{'s' if len(group) == 1 else ''} the next turn.",
            *cites,
        )
    ]


def add_extra_turns(state: TableState, players: Sequence[str]) -> Result:
    """500.7: extra turns are added directly after this turn, one at a time in APNAP order; the most
    recently created is taken first. Under shared team turns a player's team takes it, and one effect
    gives a team one extra turn however many of its players it names (805.8)."""
    variant = state.variant
    steps: list[Step] = []
    given: list[str] = []
    teams_given: set[tuple[str, ...]] = set()
    order, _ = variant.apnap_order(state)
    for player in sorted(players, key=lambda p: order.index(p) if p in order else len(order)):
        if not state.is_in(player):
            steps.append(step(f"{player} has left the game and takes no turn.", cr("800.4k")))
            continue
        group = variant.turn_group(state, player)
        if len(group) > 1:
            if group in teams_given:
                steps.append(
                    step(
                        f"One effect names more than one player of {player}'s team: the team adds that "
                        "turn only once.",
                        cr("805.8"),
                    )
                )
                continue
            teams_given.add(group)
            steps.append(step(f"{player}'s team takes the extra turn.", cr("805.8")))
        given.append(player)
    if not given:
        return state, steps
    queue = state.extra_turns
    for player in given:
        queue = (player, *queue)
    steps.append(
        step(
            f"Extra turn{'s' if len(given) > 1 else ''} added directly after this turn for "
            f"{', '.join(given)}"
            + (
                ", one at a time in APNAP order; the most recently added is taken first."
                if len(given) > 1
                else "."
            ),
            cr("500.7"),
        )
    )
    return state.with_(extra_turns=queue), steps


def _ended_until_turn(state: TableState, players: Sequence[str], would: bool) -> Result:
    """Effects lasting until one of ``players``' next turn end as that turn begins (611.2a), or as it would
    have begun for a player who left (800.4m)."""
    ending = [e for e in state.effects if e.until == "your-next-turn" and e.controller in players]
    if not ending:
        return state, []
    left = tuple(e for e in state.effects if e not in ending)
    text = ", ".join(_effect_text(e) for e in ending)
    if would:
        why = step(
            f"{text}: it lasted until {ending[0].controller}'s next turn, which would have begun now, so it "
            "ends.",
            cr("800.4m"),
        )
    else:
        why = step(
            f"{text}: it lasted until {ending[0].controller}'s next turn, which begins now.", cr("611.2a")
        )
    return state.with_(effects=left), [why]


def _effect_text(effect: Effect) -> str:
    return f"{effect.controller}'s effect ({', '.join(effect.players)} {EFFECT_WORDS[effect.kind]})"


def next_turn(state: TableState) -> Result:
    """The turn ends and the next one begins (untap, ranges fixed again, 502.3 and 801.2c)."""
    variant = state.variant
    steps: list[Step] = []
    extra = list(state.extra_turns)
    while extra:  # 500.7: the most recently created extra turn first; a leaver's doesn't begin (800.4k)
        player = extra.pop(0)
        if state.is_in(player):
            state = state.with_(extra_turns=tuple(extra))
            return begin_turn(state, variant.turn_group(state, player), steps, extra=True)
        steps.append(step(f"{player} left the game, so their extra turn doesn't begin.", cr("800.4k")))
        state, more = _ended_until_turn(state.with_(extra_turns=tuple(extra)), [player], would=True)
        steps += more
    nxt, skipped = variant.next_normal_turn(state)
    if skipped:
        steps.append(step(f"{', '.join(skipped)} left the game, so their turn doesn't begin.", cr("800.4k")))
        state, more = _ended_until_turn(state, skipped, would=True)
        steps += more
    if nxt is None:
        return state, [*steps, step("No player is left to take a turn.", cr("800.4k"))]
    state = state.with_(normal_turn=nxt)
    return begin_turn(state, variant.turn_group(state, nxt), steps)


def begin_turn(state: TableState, group: tuple[str, ...], steps: list[Step], extra: bool = False) -> Result:
    """``group`` begins a turn: they are the active players (102.1), untap (502.3); effects lasting until
    their next turn end (611.2a); who is within range is fixed again (801.2c)."""
    state = state.with_(
        turn_players=group,
        turn=state.turn + 1,
        step="",  # 500.1: a new turn goes through its steps again
        priority=None,
        passed=(),
        permanents=frozen(
            {
                n: replace(
                    p,
                    attacking=None,
                    attacked=None,
                    defender=None,
                    struck_first=False,
                    blocking=(),
                    blocked=False,
                    blocked_by=(),
                    damage=0,  # 514.2: damage wears off in the cleanup step
                )
                for n, p in state.permanents.items()
            }
        ),
    )
    names = ", ".join(group)
    kind = f"{names}'s turn" if len(group) == 1 else f"the turn of {names}"
    if extra:
        kind = f"an extra turn for {names}"
    cites = (
        cr("102.1"),
        cr("101.4"),
        *((cr("500.7"),) if extra else ()),
        *((cr("805.4a"),) if len(group) > 1 else ()),
    )
    steps = [
        *steps,
        step(
            f"The next turn begins: it is {kind}, so {names} "
            f"{'is the active player' if len(group) == 1 else 'are the active players'}.",
            *cites,
        ),
    ]
    state, more = _ended_until_turn(state, group, would=False)
    steps += more
    state, more = untap(state, group)
    steps += more
    return fix_ranges(state, steps)


def untap(state: TableState, players: Sequence[str]) -> Result:
    """502.3: as their turn begins, the active players untap the permanents they control."""
    tapped = [
        n
        for n, p in state.permanents.items()
        if p.on_battlefield and p.tapped and p.current_controller in players
    ]
    if not tapped:
        return state, []
    permanents = dict(state.permanents)
    for name in tapped:
        permanents[name] = replace(permanents[name], tapped=False)
    who = ", ".join(sorted(set(players)))
    return state.with_(permanents=frozen(permanents)), [
        step(
            f"In the untap step, {who} untap{'s' if len(players) == 1 else ''} what they control: "
            f"{', '.join(tapped)}.",
            cr("502.3"),
        )
    ]


def fix_ranges(state: TableState, steps: list[Step]) -> Result:
    """801.2c: who is within each player's range of influence is fixed as each turn begins."""
    variant = state.variant
    state = influence.snapshot(state, variant.range_of)
    if any(variant.range_of(state, p) is not None for p in state.in_game):
        steps = [
            *steps,
            step(
                "Who is within each player's range of influence is fixed again as this turn begins.",
                cr("801.2c"),
            ),
        ]
    return state, steps


# --- priority -------------------------------------------------------------------------------------------
def priority_holders(state: TableState) -> tuple[tuple[str, ...], list[Step]]:
    """Who has priority now (a team under shared team turns, 805.5)."""
    variant = state.variant
    if state.game_over:
        return (), [step("The game is over: nobody has priority.", cr("104.1"))]
    if state.priority:
        unit = state.priority
        team = len(unit) > 1
        return unit, [
            step(
                f"{', '.join(unit)} {'have' if team else 'has'} priority.",
                cr("805.5") if team else cr("117.3"),
            )
        ]
    active = state.active_players
    if active:
        unit = variant.priority_unit(state, active[0])
        if len(unit) > 1:
            return unit, [
                step(
                    f"Teams have priority: the active team, {', '.join(unit)}, receives it.",
                    cr("805.5"),
                    cr("117.3a"),
                )
            ]
        return unit, [step(f"The active player, {unit[0]}, receives priority.", cr("117.3a"), cr("117.3b"))]
    start = state.turn_player
    nxt = next_in_turn_order(state, start) if start else None
    if nxt is None:
        return (), [step("No player is left to receive priority.", cr("800.4"))]
    unit = variant.priority_unit(state, nxt)
    return unit, [
        step(
            f"There is no active player: instead of the active player, the next player in turn order, "
            f"{', '.join(unit)}, receives priority.",
            cr("800.4j"),
        )
    ]


def sorcery_timing_problems(state: TableState, player: str) -> list[tuple[str, Cite]]:
    """Why ``player`` can't cast a noninstant spell now (117.1a, 307.1; "only as a sorcery", 602.5d): they
    need priority, in a main phase of their own turn, with an empty stack. The model keeps no phases, so
    the main phase itself is not checked."""
    problems: list[tuple[str, Cite]] = []
    holders, _ = priority_holders(state)
    at_step_start = state.priority is None and player in state.active_players  # 807.5: one per marker
    if player not in holders and not at_step_start:
        who = ", ".join(holders) or "nobody"
        problems.append((f"{player} doesn't have priority ({who} has)", cr("117.1")))
    if player not in state.active_players:
        problems.append((f"it isn't {player}'s turn (a noninstant spell is cast in its caster's own main "
                         "phase, with priority and an empty stack)", cr("117.1a")))
    if state.variant.stack_of(state, player):
        problems.append(("the stack isn't empty", cr("117.1a")))
    return problems


def priority_for_special_action(state: TableState, player: str) -> tuple[TableState | None, list[Step]]:
    """The table with ``player`` holding priority to take a special action "any time they have priority"
    (116.2tr, 702.187c), or None with the reason they can't. An event naming a player who doesn't hold
    priority now stands for the players before them in the round passing it on (117.3d): possible while they
    haven't passed in this round themselves - otherwise the round completes first (117.4) and the stack
    resolves or the step ends, which the event can't say."""
    holders, steps = priority_holders(state)
    if player in holders:
        return state, steps
    if not holders:
        return None, steps
    if player in state.passed:
        return None, [
            step(
                f"{player} has already passed priority in this round: they receive it again only after all "
                "players have passed in succession and the top of the stack has resolved or the step ended.",
                cr("117.4"),
            )
        ]
    passers: list[str] = []
    while player not in holders:
        passers += holders
        state, _, _ = pass_priority(state, None)
        holders, _ = priority_holders(state)
    return state, [
        step(
            f"{' and '.join(passers)} {'pass' if len(passers) > 1 else 'passes'} priority in turn order "
            f"until {player} receives it.",
            cr("117.3d"),
        )
    ]


def after_special_action(state: TableState, player: str) -> tuple[TableState, list[Step]]:
    """117.3c: the player who took a special action receives priority again; an action between passes
    starts the round of passes over (117.4: "in succession ... without taking any actions in between")."""
    unit = state.variant.priority_unit(state, player)
    return state.with_(priority=unit, passed=()), [
        step(f"{player} took the action holding priority, so receives priority again.", cr("117.3c"))
    ]


def pass_priority(state: TableState, player: str | None) -> tuple[TableState, list[Step], bool]:
    """117.3d: the player (team) with priority passes; the next in turn order receives it. 117.4: when all
    pass in succession (the third value is true), the top of the stack resolves or, with an empty stack, the
    step ends."""
    variant = state.variant
    holders, _ = priority_holders(state)
    if not holders:
        return state, [step("Nobody has priority to pass.", cr("117.3"))], False
    if player is not None and player not in holders:
        return (
            state,
            [
                step(
                    f"{player} doesn't have priority ({', '.join(holders)} has), so can't pass it.",
                    cr("117.3d"),
                )
            ],
            False,
        )
    passed = tuple(dict.fromkeys((*state.passed, *holders)))
    names = ", ".join(holders)
    steps = [
        step(
            f"{names} pass{'es' if len(holders) == 1 else ''} priority.",
            cr("117.3d"),
            *((cr("805.5b"),) if len(holders) > 1 else ()),
        )
    ]
    if all(p in passed for p in state.in_game):
        return state.with_(priority=None, passed=()), [*steps, *_all_passed(state)], True
    nxt = next_in_turn_order(state, holders[-1])
    unit = variant.priority_unit(state, nxt) if nxt else ()
    steps.append(step(f"The next player in turn order, {', '.join(unit)}, receives priority.", cr("117.3d")))
    return state.with_(priority=unit, passed=passed), steps, False


def _all_passed(state: TableState) -> list[Step]:
    team = (
        "teams" if any(len(state.variant.priority_unit(state, p)) > 1 for p in state.in_game) else "players"
    )
    if state.stack:
        return [
            step(
                f"All {team} passed in succession: the top object of the stack resolves, then the active "
                "player receives priority.",
                cr("117.4"),
                cr("117.3b"),
            )
        ]
    return [
        step(
            f"All {team} passed in succession with an empty stack: the step ends, and the active player "
            "receives priority in the next one.",
            cr("117.4"),
            cr("500.2"),
            cr("117.3a"),
        )
    ]
