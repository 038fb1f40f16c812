"""Applying events: ``apply(state, event) -> (state, steps)``.

After each event the game checks state-based actions (704.5a: 0 life or less loses) and puts the
abilities that triggered on the stack in APNAP order (101.4, 603.3b); unless the event says
``hold: true``, the stack then resolves, top first.

>>> from rulesjudge.scenarios.model.table import TableState, frozen_map
>>> from rulesjudge.scenarios.model.events import CombatDamage, Hit
>>> state = TableState(seats=("Ann", "Ben", "Cat"), turn_player="Ann", monarch="Ben",
...                    life=frozen_map({"Ann": 20, "Ben": 20, "Cat": 20}))
>>> state, steps = apply(state, CombatDamage(hits=(Hit("Ann", "Ben", 2),)))
>>> state.monarch, state.life["Ben"]
('Ann', 18)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model import influence, initiative, monarch
from rulesjudge.scenarios.model.citations import RULING_LETHAL, cr
from rulesjudge.scenarios.model.leaving import leave
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState, Trigger, frozen_map, next_in_turn_order
from rulesjudge.scenarios.model.variants import variant_of

Result = tuple[TableState, list[Step]]
MAX_LOOPS = 200


def apply(state: TableState, event: ev.Event) -> Result:
    """Apply one event, then state-based actions and triggers; resolve the stack unless ``hold``."""
    if state.game_over:
        return state, [Step("The game is over, so nothing more happens in it.", (cr("104.1"),))]
    handled = variant_of(state).apply_event(state, event)
    if handled is None:
        handler = HANDLERS.get(type(event))
        if handler is None:
            return state, [Step(f"The model has no rule for the event '{event.NAME}'.", (cr("100.1"),))]
        handled = handler(state, event)
    earlier = {id(t) for t in state.stack}
    state, steps = handled
    state, more = settle(state)
    steps += more
    if not event.hold and not isinstance(event, ev.Resolve) and _caused(state, earlier):
        steps.append(
            Step(
                "The abilities this event triggered resolve, the last one put on the stack first.",
                (cr("405.5"), cr("608.1")),
            )
        )
        while _caused(state, earlier) and not state.game_over:
            state, more = resolve_top(state)
            steps += more
    return state, steps


def _caused(state: TableState, earlier: set[int]) -> bool:
    """Is the top of the stack an ability put there since the event began (not one held before)?"""
    return bool(state.stack) and id(state.stack[-1]) not in earlier


# --- state-based actions and triggers -------------------------------------------------------------
def life_of(state: TableState, player: str) -> int:
    pool = variant_of(state).life_pool(state, player)
    return state.life.get(pool, 0)


def state_based_actions(state: TableState) -> Result:
    """704.5a: each player with 0 or less life loses the game; all of them at the same time."""
    variant = variant_of(state)
    losers = [p for p in state.in_game if state.life.get(variant.life_pool(state, p), 1) <= 0]
    if not losers:
        return state, []
    names = ", ".join(losers)
    steps = [
        Step(
            f"{names} {'has' if len(losers) == 1 else 'have'} 0 or less life and lose"
            f"{'s' if len(losers) == 1 else ''} the game (a state-based action).",
            (cr("704.5a"), cr("104.3b")),
        )
    ]
    state, more = leave(state, losers, "lost")
    return state, steps + more


def put_triggers_on_stack(state: TableState) -> Result:
    """603.3b/101.4: each player in APNAP order puts the abilities they control on the stack;
    abilities controlled by a player who left aren't put on the stack (800.4d)."""
    if not state.pending:
        return state, []
    order, _ = variant_of(state).apnap_order(state)
    rank = {p: i for i, p in enumerate(order)}
    live = [t for t in state.pending if state.is_in(t.controller)]
    steps = [
        Step(
            f'"{t.text}" would be controlled by {t.controller}, who left the game: it isn\'t put on '
            "the stack.",
            (cr("800.4d"),),
        )
        for t in state.pending
        if not state.is_in(t.controller)
    ]
    live.sort(key=lambda t: rank.get(t.controller, len(rank)))
    steps += _order_choices(live)
    if len(live) > 1:
        owners = list(dict.fromkeys(t.controller for t in live))
        steps.append(
            Step(
                f"Triggered abilities go on the stack in APNAP order ({', '.join(owners)}), so the "
                "active player's resolve last.",
                (cr("101.4"), cr("603.3b")),
            )
        )
    return state.with_(stack=(*state.stack, *live), pending=()), steps


def _order_choices(triggers: list[Trigger]) -> list[Step]:
    """603.3b: a player orders the abilities they control as they choose; say so where it matters
    (two steal triggers for different players: the one that resolves last decides who holds it)."""
    from rulesjudge.scenarios.model.steps import Reading

    steps = []
    for controller in dict.fromkeys(t.controller for t in triggers):
        for kind, what, rule in (
            (monarch.STEAL, "the crown", "725.2"),
            (initiative.STEAL, "the initiative", "726.2"),
        ):
            gainers = list(
                dict.fromkeys(t.player for t in triggers if t.controller == controller and t.kind == kind)
            )
            if len(gainers) < 2:
                continue
            readings = tuple(
                Reading(
                    f"{controller} puts {g}'s trigger on the stack first, so it resolves last: {g} ends up "
                    f"with {what}",
                    g,
                    (cr("603.3b"),),
                )
                for g in gainers
            )
            steps.append(
                Step(
                    f"{controller} controls triggers that would give {what} to {', '.join(gainers)} "
                    "and chooses their order; the model keeps the order listed.",
                    (cr("603.3b"), cr(rule)),
                    readings,
                )
            )
    return steps


def settle(state: TableState) -> Result:
    """Repeat state-based actions and putting triggers on the stack until nothing more happens."""
    steps: list[Step] = []
    for _ in range(MAX_LOOPS):
        state, sba = state_based_actions(state)
        state, trig = put_triggers_on_stack(state)
        steps += sba + trig
        if not sba and not trig:
            break
    return state, steps


def resolve_top(state: TableState) -> Result:
    top = state.stack[-1]
    state = state.with_(stack=state.stack[:-1])
    if top.kind in (monarch.DRAW, monarch.STEAL):
        state, steps = monarch.resolve(state, top)
    elif top.kind in (initiative.UPKEEP, initiative.STEAL, initiative.VENTURE):
        state, steps = initiative.resolve(state, top)
    else:
        steps = [Step(f'"{top.text}" resolves.', top.cites or (cr("608.2"),))]
    state, more = settle(state)
    return state, steps + more


def resolve_stack(state: TableState, count: int | None = None) -> Result:
    steps: list[Step] = []
    done = 0
    while state.stack and (count is None or done < count) and not state.game_over and done < MAX_LOOPS:
        state, more = resolve_top(state)
        steps += more
        done += 1
    return state, steps


def _add_pending(state: TableState, triggers: list[Trigger]) -> TableState:
    return state.with_(pending=(*state.pending, *triggers)) if triggers else state


# --- handlers ---------------------------------------------------------------------------------------
def _leaves(state: TableState, event: ev.Leaves) -> Result:
    return leave(state, list(event.players), event.how)


def _concedes(state: TableState, event: ev.Concedes) -> Result:
    return leave(state, list(event.players), "conceded")


def _become_monarch(state: TableState, event: ev.BecomeMonarch) -> Result:
    return monarch.become_monarch(state, event.player)


def _take_initiative(state: TableState, event: ev.TakeInitiative) -> Result:
    return initiative.take_initiative(state, event.player)


def _change_life(state: TableState, player: str, delta: int) -> TableState:
    pool = variant_of(state).life_pool(state, player)
    life = dict(state.life)
    life[pool] = life.get(pool, 0) + delta
    return state.with_(life=frozen_map(life))


def _combat_damage(state: TableState, event: ev.CombatDamage) -> Result:
    steps: list[Step] = []
    triggers: list[Trigger] = []
    dealt: list[ev.Hit] = []
    for hit in event.hits:
        if not state.is_in(hit.to):
            steps.append(
                Step(f"{hit.to} has left the game: combat damage isn't assigned to them.", (cr("800.4e"),))
            )
        elif not state.is_in(hit.source):
            steps.append(
                Step(
                    f"{hit.source} has left the game, and the creatures they controlled with them.",
                    (cr("800.4a"),),
                )
            )
        elif hit.amount > 0:
            dealt.append(hit)
    before = state
    for hit in dealt:  # all combat damage is dealt at the same time (510.2)
        state = _change_life(state, hit.to, -hit.amount)
        steps.append(
            Step(
                f"A creature {hit.source} controls deals {hit.amount} combat damage to {hit.to}.",
                (cr("510.2"), cr("120.3a")),
            )
        )
    for hit in dealt:
        more_t, more_s = monarch.damage_trigger(before, hit.source, hit.to)
        triggers += more_t
        steps += more_s
    for damaged in dict.fromkeys(h.to for h in dealt):
        more_t, more_s = initiative.damage_triggers(
            before, [h.source for h in dealt if h.to == damaged], damaged
        )
        triggers += more_t
        steps += more_s
    state = _add_pending(state, triggers)
    lethal = [t for t in triggers if t.kind == monarch.STEAL and life_of(state, t.controller) <= 0]
    if lethal:
        steps.append(
            Step(
                f"The damage leaves {lethal[0].controller} at 0 or less life: they lose before the "
                "trigger they control goes on the stack, so it doesn't resolve; the crown passes "
                "as they leave instead.",
                (RULING_LETHAL, cr("725.4"), cr("800.4d")),
            )
        )
    return state, steps


def _damage(state: TableState, event: ev.Damage) -> Result:
    if not state.is_in(event.to):
        return state, [Step(f"{event.to} has left the game.", (cr("800.4a"),))]
    state = _change_life(state, event.to, -event.amount)
    return state, [
        Step(
            f"{event.to} is dealt {event.amount} noncombat damage and loses that much life; "
            "only combat damage passes the crown.",
            (cr("120.3a"), cr("725.2")),
        )
    ]


def _lose_life(state: TableState, event: ev.LoseLife) -> Result:
    if not state.is_in(event.player):
        return state, [Step(f"{event.player} has left the game.", (cr("800.4a"),))]
    return _change_life(state, event.player, -event.amount), [
        Step(f"{event.player} loses {event.amount} life.", (cr("119.3"),))
    ]


def _gain_life(state: TableState, event: ev.GainLife) -> Result:
    if not state.is_in(event.player):
        return state, [Step(f"{event.player} has left the game.", (cr("800.4a"),))]
    return _change_life(state, event.player, event.amount), [
        Step(f"{event.player} gains {event.amount} life.", (cr("119.3"),))
    ]


def _draw(state: TableState, event: ev.Draw) -> Result:
    if not state.is_in(event.player):
        return state, [Step(f"{event.player} has left the game and draws nothing.", (cr("800.4a"),))]
    draws = dict(state.draws)
    draws[event.player] = draws.get(event.player, 0) + event.count
    return state.with_(draws=frozen_map(draws)), [
        Step(f"{event.player} draws {event.count} card{'s' if event.count != 1 else ''}.", (cr("121.1"),))
    ]


def _upkeep(state: TableState, event: ev.Upkeep) -> Result:
    triggers, steps = initiative.upkeep_triggers(state)
    return _add_pending(state, triggers), steps


def _end_step(state: TableState, event: ev.EndStep) -> Result:
    triggers, steps = monarch.end_step_triggers(state)
    return _add_pending(state, triggers), steps


def _next_turn(state: TableState, event: ev.NextTurn) -> Result:
    steps: list[Step] = []
    if state.stack:
        state, steps = resolve_stack(state)
        steps.insert(
            0, Step("A step can't end while abilities are on the stack: they resolve first.", (cr("500.2"),))
        )
        if state.game_over:
            return state, steps
    current = state.turn_player
    nxt = next_in_turn_order(state, current) if current else (state.in_game[0] if state.in_game else None)
    if nxt is None:
        return state, [*steps, Step("No player is left to take a turn.", (cr("800.4k"),))]
    skipped = []
    if current:
        i = state.seats.index(current)
        for k in range(1, len(state.seats)):
            seat = state.seats[(i + k) % len(state.seats)]
            if seat == nxt:
                break
            skipped.append(seat)
    state = state.with_(turn_player=nxt, turn=state.turn + 1)
    untapped = [
        n
        for n, p in state.permanents.items()
        if p.on_battlefield and p.tapped and p.current_controller == nxt
    ]
    if untapped:
        permanents = dict(state.permanents)
        for name in untapped:
            permanents[name] = replace(permanents[name], tapped=False)
        state = state.with_(permanents=frozen_map(permanents))
    steps.append(
        Step(
            f"The next turn begins: it is {nxt}'s turn, so {nxt} is the active player.",
            (cr("102.1"), cr("101.4")),
        )
    )
    if skipped:
        steps.append(
            Step(f"{', '.join(skipped)} left the game, so their turn doesn't begin.", (cr("800.4k"),))
        )
    variant = variant_of(state)
    state = influence.snapshot(state, variant.range_of)
    if any(variant.range_of(state, p) is not None for p in state.in_game):
        steps.append(
            Step(
                "Who is within each player's range of influence is fixed again as this turn begins.",
                (cr("801.2c"),),
            )
        )
    return state, steps


def _resolve(state: TableState, event: ev.Resolve) -> Result:
    if not state.stack:
        return state, [Step("The stack is empty: nothing to resolve.", (cr("405.1"),))]
    return resolve_stack(state, event.count)


def _gain_control(state: TableState, event: ev.GainControl) -> Result:
    perm = state.permanents.get(event.permanent)
    if perm is None or not perm.on_battlefield:
        return state, [Step(f"{event.permanent} is no longer on the battlefield.", (cr("800.4a"),))]
    if not state.is_in(event.player):
        return state, [
            Step(
                f"{event.player} has left the game, so control of {event.permanent} doesn't change.",
                (cr("800.4b"),),
            )
        ]
    perm = replace(perm, control_effects=(*perm.control_effects, event.player), since=state.turn)
    permanents = dict(state.permanents)
    permanents[event.permanent] = perm
    return state.with_(permanents=frozen_map(permanents)), [
        Step(f"{event.player} gains control of {event.permanent}.", (cr("613.1b"),))
    ]


def _control_ends(state: TableState, event: ev.ControlEnds) -> Result:
    perm = state.permanents.get(event.permanent)
    if perm is None or not perm.on_battlefield:
        return state, [Step(f"{event.permanent} is no longer on the battlefield.", (cr("800.4a"),))]
    effects = tuple(p for p in perm.control_effects if event.player is not None and p != event.player)
    after = replace(perm, control_effects=effects)
    if after.current_controller != perm.current_controller:
        after = replace(after, since=state.turn)
    steps = [
        Step(
            f"The control-changing effect on {event.permanent} ends; {after.current_controller} "
            "controls it by default.",
            (cr("613.1b"),),
        )
    ]
    if not state.is_in(after.current_controller):
        after = replace(after, zone="exile")
        steps.append(
            Step(
                f"{after.controller} controlled {event.permanent} by default but has left the game, "
                "so it is exiled.",
                (cr("800.4c"),),
            )
        )
    permanents = dict(state.permanents)
    permanents[event.permanent] = after
    return state.with_(permanents=frozen_map(permanents)), steps


def _wins(state: TableState, event: ev.Wins) -> Result:
    from rulesjudge.scenarios.model.teams import end_game

    variant = variant_of(state)
    player = event.player
    if not state.is_in(player):
        return state, [Step(f"{player} has left the game.", (cr("800.4a"),))]
    reach = variant.range_of(state, player)
    if reach is not None:
        foes, _ = variant.opponents(state, player)
        inside = state.influence.get(player) or influence.within_range(state, player, reach)
        losing = [p for p in foes if p in inside]
        steps = [
            Step(
                f"With limited range of influence, an effect saying {player} wins instead makes each of "
                f"their opponents within range lose: {', '.join(losing) or 'nobody'}.",
                (cr("801.14"), cr("104.3h")),
            )
        ]
        if not losing:
            return state, steps
        state, more = leave(state, losing, "lost")
        return state, steps + more
    team = variant.team_of(state, player)
    winners = list(team.members) if team else [player]
    return end_game(
        state,
        winners,
        [Step(f"An effect states that {player} wins the game; the game ends.", (cr("104.2b"), cr("104.1")))],
    )


def _game_draw(state: TableState, event: ev.GameDraw) -> Result:
    variant = variant_of(state)
    player = event.player
    if not state.is_in(player):
        return state, [Step(f"{player} has left the game.", (cr("800.4a"),))]
    reach = variant.range_of(state, player)
    if reach is None:
        steps = [
            Step(
                f"An effect {player} controls states that the game is a draw: it is a draw for every "
                "player still in the game.",
                (cr("104.4c"),),
            )
        ]
        state, more = leave(state, list(state.in_game), "drew")
        return state, steps + more
    inside = state.influence.get(player) or influence.within_range(state, player, reach)
    drawing = [p for p in state.in_game if p in inside]
    steps = [
        Step(
            f"With limited range of influence, the game is a draw only for {player} and the players "
            f"within their range: {', '.join(drawing)}; they leave and the others play on.",
            (cr("801.15"), cr("104.4e")),
        )
    ]
    state, more = leave(state, drawing, "drew")
    return state, steps + more


def _deploy(state: TableState, event: ev.Deploy) -> Result:
    from rulesjudge.scenarios.model.deploy import deploy_problems

    problems = deploy_problems(state, event.permanent, event.to)
    if problems:
        return state, [
            Step(
                f"Can't deploy {event.permanent} to {event.to}: {text}; nothing happens.", (cr("804.2"), rule)
            )
            for text, rule in problems
        ]
    perm = state.permanents[event.permanent]
    owner = perm.current_controller
    permanents = dict(state.permanents)
    permanents[event.permanent] = replace(
        perm, tapped=True, since=state.turn, control_effects=(*perm.control_effects, event.to)
    )
    return state.with_(permanents=frozen_map(permanents)), [
        Step(
            f"{owner} taps {event.permanent} to deploy it: their teammate {event.to} gains control of it.",
            (cr("804.2"),),
        )
    ]


def _unveil(state: TableState, event: ev.Unveil) -> Result:
    from rulesjudge.scenarios.model.citations import treachery

    ident = state.identities.get(event.player)
    if ident is None or ident.face == "up":
        return state, [
            Step(f"{event.player} has no face-down identity card to unveil.", (treachery("702.187c"),))
        ]
    identities = dict(state.identities)
    identities[event.player] = replace(ident, face="up")
    return state.with_(identities=frozen_map(identities)), [
        Step(
            f"{event.player} turns their identity card face up (a special action).", (treachery("702.187c"),)
        )
    ]


HANDLERS: dict[type, Callable[[TableState, Any], Result]] = {
    ev.Leaves: _leaves,
    ev.Concedes: _concedes,
    ev.BecomeMonarch: _become_monarch,
    ev.TakeInitiative: _take_initiative,
    ev.CombatDamage: _combat_damage,
    ev.Damage: _damage,
    ev.LoseLife: _lose_life,
    ev.GainLife: _gain_life,
    ev.Draw: _draw,
    ev.Upkeep: _upkeep,
    ev.EndStep: _end_step,
    ev.NextTurn: _next_turn,
    ev.Resolve: _resolve,
    ev.GainControl: _gain_control,
    ev.ControlEnds: _control_ends,
    ev.Wins: _wins,
    ev.GameDraw: _game_draw,
    ev.Deploy: _deploy,
    ev.Unveil: _unveil,
}
