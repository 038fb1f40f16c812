"""Applying events: ``apply(state, event) -> (state, steps)``.

After each event the game checks state-based actions (704) and puts the abilities that triggered on the
stack in APNAP order (101.4, 603.3b); unless the event says ``hold: true``, the stack then resolves, top
first. Each event type has one handler in :data:`HANDLERS`; a variant may handle an event its own way first
(``Variant.apply_event``).

>>> from rulesjudge.scenarios.model.table import TableState, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> from rulesjudge.scenarios.model.events import CombatDamage, Hit
>>> state = TableState(seats=("Ann", "Ben", "Cat"), variant=FreeForAll(), turn_players=("Ann",),
...                    monarch="Ben",                    life=frozen({"Ann": 20, "Ben": 20, "Cat": 20}))
>>> state, steps = apply(state, CombatDamage(hits=(Hit("Ben", 2, by="Ann"),)))
>>> state.monarch, state.life["Ben"]
('Ann', 18)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulesjudge.scenarios.model import blocks, combat, ending, initiative, monarch, objects, turns
from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.influence import in_range
from rulesjudge.scenarios.model.leaving import leave
from rulesjudge.scenarios.model.library import draw_cards
from rulesjudge.scenarios.model.setup import EFFECT_WORDS
from rulesjudge.scenarios.model.steps import Reading, Step, step
from rulesjudge.scenarios.model.table import (
    COMMANDER_SPELL,
    SPELL,
    Choice,
    Effect,
    TableState,
    Trigger,
    frozen,
)

Result = tuple[TableState, list[Step]]
MAX_LOOPS = 200


def apply(state: TableState, event: ev.Event) -> Result:
    """Apply one event, then state-based actions and triggers; resolve the stack unless ``hold``."""
    if state.game_over:
        return state, [step("The game is over, so nothing more happens in it.", cr("104.1"))]
    earlier = {t.serial for t in state.stack}
    state, steps = handle(state, event)
    state, more = settle(state)
    steps += more
    if (
        not event.hold
        and not isinstance(event, ev.Cast | ev.CommanderCast)  # the spell itself waits (117.3c)
        and _caused(state, earlier)
    ):
        steps.append(
            step(
                "The abilities this event triggered resolve, the last one put on the stack first.",
                cr("405.5"),
                cr("608.1"),
            )
        )
        while _caused(state, earlier) and not state.game_over:
            state, more = resolve_top(state)
            steps += more
    return state, steps


def handle(state: TableState, event: ev.Event) -> Result:
    """The event's own effect, before state-based actions and triggers."""
    handled = state.variant.apply_event(state, event)
    if handled is not None:
        return handled
    handler = HANDLERS.get(type(event))
    if handler is None:
        return state, [
            step(f"The model has no rule for the event '{event.NAME}' in this variant.", cr("100.1"))
        ]
    return handler(state, event)


def _caused(state: TableState, earlier: set[int]) -> bool:
    """Is the top of the stack an ability put there since the event began (not one held before)?"""
    return bool(state.stack) and state.stack[-1].serial not in earlier


# --- state-based actions and triggers -------------------------------------------------------------
def put_triggers_on_stack(state: TableState) -> Result:
    """603.3b/101.4: each player in APNAP order puts the abilities they control on the stack (805.7: the
    active team, then each other team); abilities controlled by a player who left aren't put on the stack
    (800.4d)."""
    if not state.pending:
        return state, []
    order, _ = state.variant.apnap_order(state)
    rank = {p: i for i, p in enumerate(order)}
    steps = [
        step(
            f'"{t.text}" would be controlled by {t.controller}, who left the game: it isn\'t put on the '
            f"stack.",
            cr("800.4d"),
        )
        for t in state.pending
        if not state.is_in(t.controller)
    ]
    live = sorted(
        (t for t in state.pending if state.is_in(t.controller)),
        key=lambda t: rank.get(t.controller, len(rank)),
    )
    serial = state.serial
    numbered = []
    for trigger in live:
        serial += 1
        numbered.append(
            Trigger(
                trigger.kind,
                trigger.controller,
                trigger.player,
                trigger.text,
                trigger.cites,
                trigger.creature,
                serial,
                trigger.stack,
            )
        )
    state = state.with_(stack=(*state.stack, *numbered), pending=(), serial=serial)
    state, more = _order_choices(state, numbered)
    steps += more
    owners = list(dict.fromkeys(t.controller for t in numbered))
    if len(owners) > 1:
        last = [p for p in owners if p in state.active_players]
        tail = f", so {', '.join(last)}'s resolve last" if last else ""
        rules = (cr("805.7"),) if len(state.active_players) > 1 else (cr("101.4"), cr("603.3b"))
        steps.append(
            step(f"Triggered abilities go on the stack in APNAP order ({', '.join(owners)}){tail}.", *rules)
        )
    return state, steps


def _order_choices(state: TableState, triggers: list[Trigger]) -> Result:
    """603.3b: a player orders the abilities they control as they choose (805.7: a team orders its players'
    together). Where the order decides who gets the crown or the initiative, the answer is that choice."""
    steps: list[Step] = []
    choices = dict(state.choices)
    groups: dict[tuple[str, ...], list[Trigger]] = {}
    for trigger in triggers:
        unit = state.variant.priority_unit(state, trigger.controller)
        groups.setdefault(unit, []).append(trigger)
    for unit, group in groups.items():
        for kind, what, key, rule in (
            (monarch.STEAL, "the crown", "monarch", "725.2"),
            (initiative.STEAL, "the initiative", "initiative", "726.2"),
        ):
            batch = [t for t in group if t.kind == kind]
            gainers = list(dict.fromkeys(t.player for t in batch))
            if len(gainers) < 2:
                continue
            who = " and ".join(unit)
            readings = tuple(
                Reading(
                    f"{who} put{'s' if len(unit) == 1 else ''} {g}'s trigger on the stack first, so it "
                    f"resolves last: {g} ends up with {what}",
                    g,
                    (cr("603.3b"),),
                )
                for g in gainers
            )
            cites = (cr("603.3b"), cr(rule), *((cr("805.7"), cr("805.2")) if len(unit) > 1 else ()))
            steps.append(
                step(
                    f"{who} control{'s' if len(unit) == 1 else ''} triggers that would give {what} to "
                    f"{', '.join(gainers)} and choose{'s' if len(unit) == 1 else ''} their order: the one "
                    f"put "
                    "on the stack first resolves last.",
                    *cites,
                    alternatives=readings,
                )
            )
            choices[key] = Choice(unit, tuple(gainers), tuple(t.serial for t in batch))
    return state.with_(choices=frozen(choices)), steps


def settle(state: TableState) -> Result:
    """Repeat state-based actions and putting triggers on the stack until nothing more happens (117.5)."""
    steps: list[Step] = []
    for _ in range(MAX_LOOPS):
        before = state
        state, sba = ending.state_based_actions(state)
        state, trig = put_triggers_on_stack(state)
        steps += [s for s in sba if s not in steps] + trig  # a loss an effect stops is said once
        if state.game_over or (not trig and state == before):
            break
    return state, steps


def resolve_top(state: TableState) -> Result:
    top = state.stack[-1]
    state = state.with_(stack=state.stack[:-1], priority=None, passed=())
    if top.kind in (monarch.DRAW, monarch.STEAL):
        state, steps = monarch.resolve(state, top)
    elif top.kind in (initiative.UPKEEP, initiative.STEAL, initiative.VENTURE):
        state, steps = initiative.resolve(state, top)
    elif top.kind == COMMANDER_SPELL:
        state, steps = objects.resolve_commander(state, top)
    else:
        steps = [step(f'"{top.text}" resolves.', *(top.cites or (cr("608.2"),)))]
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


# --- handlers ---------------------------------------------------------------------------------------------
def _leaves(state: TableState, event: ev.Leaves) -> Result:
    if event.how == "lost":
        return ending.lose(state, list(event.players), "effect")
    return leave(state, list(event.players), event.how)


def _concedes(state: TableState, event: ev.Concedes) -> Result:
    return leave(state, list(event.players), "conceded")


def _loses(state: TableState, event: ev.Loses) -> Result:
    return ending.lose(
        state,
        list(event.players),
        "effect",
        [
            step(
                f"An effect states that {', '.join(event.players)} "
                f"lose{'s' if len(event.players) == 1 else ''} "
                "the game.",
                cr("104.3e"),
            )
        ],
    )


def _wins(state: TableState, event: ev.Wins) -> Result:
    return ending.win(state, [event.player])


def _at_once(state: TableState, event: ev.AtOnce) -> Result:
    """The events happen at the same time: wins and losses together (104.3f), the others one after another
    without a state-based check in between (704.3 checks once, afterwards)."""
    winning = [e.player for e in event.events if isinstance(e, ev.Wins)]
    losing = [p for e in event.events if isinstance(e, ev.Loses) for p in e.players]
    steps = [step("These events happen at the same time.", cr("704.3"))]
    for other in event.events:
        if not isinstance(other, ev.Wins | ev.Loses):
            state, more = handle(state, other)
            steps += more
    if winning or losing:
        state, more = ending.win(state, winning, losing)
        steps += more
    return state, steps


def _game_draw(state: TableState, event: ev.GameDraw) -> Result:
    return ending.game_draw(state, event.player)


def _draw_from_empty(state: TableState, event: ev.DrawFromEmpty) -> Result:
    players = [p for p in event.players if state.is_in(p)]
    drew = tuple(dict.fromkeys((*state.drew_from_empty, *players)))
    return state.with_(drew_from_empty=drew), [
        step(
            f"{', '.join(players)} {'is' if len(players) == 1 else 'are'} instructed to draw with no "
            f"cards in their "
            "library: the draw can't happen, and the next state-based check looks at it.",
            cr("121.4"),
            cr("704.5b"),
        )
    ]


def _become_monarch(state: TableState, event: ev.BecomeMonarch) -> Result:
    return monarch.become_monarch(state, event.player)


def _take_initiative(state: TableState, event: ev.TakeInitiative) -> Result:
    return initiative.take_initiative(state, event.player)


def _combat_damage(state: TableState, event: ev.CombatDamage) -> Result:
    blows = []
    for hit in event.hits:
        if hit.creature is not None:
            perm = state.permanents[hit.creature]
            amount = perm.power or 0 if hit.amount is None else hit.amount
            blows.append(combat.Blow(perm.current_controller, hit.to, amount, hit.creature))
        else:
            blows.append(combat.Blow(hit.by or "", hit.to, hit.amount or 0))
    return combat.deal(state, blows)


def _reach(state: TableState, by: str | None, to: str) -> list[Step] | None:
    """801.10: a spell or ability doesn't affect a player outside its controller's range (any variant using
    limited range of influence, 801.1); the steps saying so, or None when it reaches."""
    if by is None or not state.is_in(by) or not state.is_in(to):
        return None
    from_range = state.variant.range_of(state, by)
    if from_range is None:
        return None
    inside, steps = in_range(state, by, to, from_range)
    if inside:
        return None
    return [
        *steps,
        step(
            f"{to} is outside the range of influence of {by}, who controls the effect, so it does "
            "nothing to them.",
            cr("801.10"),
            cr("801.4"),
        ),
    ]


def _damage(state: TableState, event: ev.Damage) -> Result:
    by = event.by
    source = state.permanents[event.source] if event.source is not None else None
    if by is None and source is not None:
        by = source.current_controller if source.on_battlefield else source.last_controller
    if event.to in state.permanents:
        return _damage_object(state, event, by)
    if not state.is_in(event.to):
        return state, [step(f"{event.to} has left the game.", cr("800.4a"))]
    stopped = _reach(state, by, event.to)
    if stopped is not None:
        return state, stopped
    by_what = f"noncombat damage by {event.source}" if event.source else "noncombat damage"
    if source is not None and source.has("infect"):
        # 702.90b/e: infect works for any damage its source deals, not only combat damage
        state, steps = ending.poison_counters(state, event.to, event.amount)
        text = f"{event.to} is dealt {event.amount} {by_what}, which has infect: poison counters, not life"
        cites = [cr("120.3b"), cr("702.90b"), cr("702.90e")]
    else:
        state, steps = _change_life(state, event.to, -event.amount)
        text = f"{event.to} is dealt {event.amount} {by_what} and loses that much life"
        cites = [cr("120.3a")]
    if event.to == state.monarch:  # the crown and the initiative pass by combat damage only
        text, cites = text + "; only combat damage passes the crown", [*cites, cr("725.2")]
    if event.to == state.initiative:
        text, cites = text + "; only combat damage takes the initiative", [*cites, cr("726.2")]
    if event.source and state.commander and state.permanents[event.source].commander:
        text, cites = text + "; only combat damage counts as commander damage", [*cites, cr("903.10a")]
    return state, [step(text + ".", *cites), *steps]


def _damage_object(state: TableState, event: ev.Damage, by: str | None) -> Result:
    """Noncombat damage to a planeswalker removes loyalty counters (120.3c), to a battle defense counters
    (120.3h); with limited range it reaches only an object within its controller's range - one controlled
    by a player in range, or a battle protected by one (801.2d, 801.10)."""
    perm = state.permanents[event.to]
    if not perm.on_battlefield:
        return state, [step(f"{event.to} is not on the battlefield.", cr("400.7"))]
    if perm.kind == "creature":
        source = state.permanents.get(event.source or "")
        touched = source is not None and source.has("deathtouch")
        after = replace(perm, damage=perm.damage + event.amount, deathtouched=perm.deathtouched or touched)
        text = f"{event.to} is dealt {event.amount} noncombat damage, marked on it ({after.damage} in all)."
        return state.with_permanent(after), [step(text, cr("120.3e"))]
    holders = [perm.current_controller]
    if perm.kind == "battle" and perm.protector:
        holders.append(perm.protector)
    blocked = [_reach(state, by, who) for who in holders if state.is_in(who)]
    if blocked and all(b is not None for b in blocked):
        text = f"{event.to} is outside {by}'s range of influence too, so the damage does nothing."
        return state, [*(blocked[0] or []), step(text, cr("801.2d"))]
    left = max(0, (perm.defense if perm.kind == "battle" else perm.loyalty) or 0) - event.amount
    if perm.kind == "battle":
        after, counters, rule = replace(perm, defense=max(0, left)), "defense", "120.3h"
    else:
        after, counters, rule = replace(perm, loyalty=max(0, left)), "loyalty", "120.3c"
    text = f"{event.to} is dealt {event.amount} noncombat damage: that many {counters} counters are removed."
    return state.with_permanent(after), [step(text, cr(rule))]


def _change_life(state: TableState, player: str, delta: int) -> Result:
    pool = state.variant.life_pool(state, player)
    life = dict(state.life)
    life[pool] = life.get(pool, 0) + delta
    state = state.with_(life=frozen(life))
    if pool != player:
        return state, [
            step(
                f"It happens to {player} and is applied to the team's shared life total, now {life[pool]}.",
                cr("810.9"),
            )
        ]
    return state, []


def _lose_life(state: TableState, event: ev.LoseLife) -> Result:
    if not state.is_in(event.player):
        return state, [step(f"{event.player} has left the game.", cr("800.4a"))]
    state, steps = _change_life(state, event.player, -event.amount)
    return state, [step(f"{event.player} loses {event.amount} life.", cr("119.3")), *steps]


def _gain_life(state: TableState, event: ev.GainLife) -> Result:
    if not state.is_in(event.player):
        return state, [step(f"{event.player} has left the game.", cr("800.4a"))]
    state, steps = _change_life(state, event.player, event.amount)
    return state, [step(f"{event.player} gains {event.amount} life.", cr("119.3")), *steps]


def _set_life(state: TableState, event: ev.SetLife) -> Result:
    """119.5: the player gains or loses the necessary life; 810.9c/d under a shared life total."""
    handled = state.variant.set_life(state, event.amounts)
    if handled is not None:
        return handled
    steps: list[Step] = []
    for player, total in event.amounts:
        if not state.is_in(player):
            continue
        now = ending.life_of(state, player)
        state, more = _change_life(state, player, total - now)
        verb = "gains" if total >= now else "loses"
        steps += [
            step(
                f"{player}'s life total becomes {total}: {player} {verb} {abs(total - now)} life.",
                cr("119.5"),
            ),
            *more,
        ]
    return state, steps


def _poison(state: TableState, event: ev.Poison) -> Result:
    steps: list[Step] = []
    for player, count in event.amounts:
        if not state.is_in(player):
            steps.append(step(f"{player} has left the game.", cr("800.4a")))
            continue
        state, more = ending.poison_counters(state, player, count)
        steps += more
    return state, steps


def _draw(state: TableState, event: ev.Draw) -> Result:
    if not state.is_in(event.player):
        return state, [step(f"{event.player} has left the game and draws nothing.", cr("800.4a"))]
    cards = "card" if event.count == 1 else "cards"
    state, steps = draw_cards(state, event.player, event.count)
    return state, [step(f"An effect makes {event.player} draw {event.count} {cards}.", cr("121.1")), *steps]


def _add_effect(state: TableState, event: ev.AddEffect) -> Result:
    spec = event.effect
    effect = Effect(
        spec.kind, spec.players, spec.source, spec.controller, spec.until, spec.only, spec.relative
    )
    whom = ", ".join(spec.players)
    if spec.relative is not None:
        whose = "controller" if spec.relative == "controller-of" else "controller's opponents"
        whom = f"{spec.source}'s {whose}"
    return state.with_(effects=(*state.effects, effect)), [
        step(f"A continuous effect begins: {whom} {EFFECT_WORDS[spec.kind]}.", cr("611.1"))
    ]


def _end_effect(state: TableState, event: ev.EndEffect) -> Result:
    spec = event.effect
    ending_ = [
        e
        for e in state.effects
        if (e.kind, e.players, e.source, e.relative) == (spec.kind, spec.players, spec.source, spec.relative)
    ]
    if not ending_:
        return state, [step("No such effect is in force.", cr("611.1"))]
    return ending.end_effects(state, ending_, "The continuous effect ends.", cr("611.2a"))


def _empty_the_stack(state: TableState) -> Result:
    """500.2: a step or phase ends only with an empty stack, so what is on it resolves first."""
    if not state.stack:
        return state, []
    state, steps = resolve_stack(state)
    first = step("A step can't end while objects are on the stack: they resolve first.", cr("500.2"))
    return state, [first, *steps]


def _upkeep(state: TableState, event: ev.Upkeep) -> Result:
    state, before = _empty_the_stack(state)
    triggers, steps = initiative.upkeep_triggers(state)
    return state.with_(pending=(*state.pending, *triggers)), before + steps


def _end_step(state: TableState, event: ev.EndStep) -> Result:
    state, before = _empty_the_stack(state)
    triggers, steps = monarch.end_step_triggers(state)
    return state.with_(pending=(*state.pending, *triggers)), before + steps


def _next_turn(state: TableState, event: ev.NextTurn) -> Result:
    state, steps = _empty_the_stack(state)
    if steps and state.game_over:
        return state, steps
    state, more = objects.end_of_turn_control(state)
    steps += more
    if more:  # 514.3a: the cleanup step checks state-based actions before the turn ends
        state, checked = settle(state)
        state, emptied = _empty_the_stack(state)
        if checked or emptied:
            steps += [step("The cleanup step checks state-based actions before the turn ends.", cr("514.3a")),
                      *checked, *emptied]
        if state.game_over:
            return state, steps
    state, more = turns.next_turn(state)
    return state, steps + more


def _extra_turn(state: TableState, event: ev.ExtraTurn) -> Result:
    return turns.add_extra_turns(state, event.players)


def _resolve(state: TableState, event: ev.Resolve) -> Result:
    if not state.stack:
        return state, [step("The stack is empty: nothing to resolve.", cr("405.1"))]
    return resolve_stack(state, event.count)


def _pass_priority(state: TableState, event: ev.PassPriority) -> Result:
    state, steps, everyone = turns.pass_priority(state, event.player)
    if everyone and state.stack:
        state, more = resolve_top(state)
        steps += more
    return state, steps


def _cast(state: TableState, event: ev.Cast) -> Result:
    holders, _ = turns.priority_holders(state)
    if event.player not in holders:
        return state, [
            step(
                f"{event.player} doesn't have priority ({', '.join(holders)} has), so can't cast a spell "
                "now.",
                cr("117.1"),
            )
        ]
    serial = state.serial + 1
    spell = Trigger(
        SPELL,
        event.player,
        event.player,
        f"{event.spell} (a spell {event.player} cast)",
        (cr("608.2"),),
        serial=serial,
        stack=event.stack,
    )
    unit = state.variant.priority_unit(state, event.player)
    state = state.with_(stack=(*state.stack, spell), serial=serial, priority=unit, passed=())
    return state, [
        step(f"{event.player} casts {event.spell}; it goes on the stack.", cr("601.2")),
        step(f"{event.player} had priority when casting it, so receives priority again.", cr("117.3c")),
    ]


def _commander_cast(state: TableState, event: ev.CommanderCast) -> Result:
    return objects.commander_cast(state, event.player, event.commander)


def _gain_control(state: TableState, event: ev.GainControl) -> Result:
    return objects.gain_control(state, event.permanent, event.player, event.until == "end-of-turn")


def _control_ends(state: TableState, event: ev.ControlEnds) -> Result:
    return objects.control_ends(state, event.permanent, event.player)


def _deploy(state: TableState, event: ev.Deploy) -> Result:
    return objects.deploy(state, event.permanent, event.to)


def _dies(state: TableState, event: ev.Dies) -> Result:
    return objects.move(state, event.permanent, event.ZONE, event.command_zone)


def _attack(state: TableState, event: ev.Attack) -> Result:
    state, before = _empty_the_stack(state)
    state, steps = combat.declare_attackers(state, event.attacker, event.creatures)
    return state, before + steps


def _block(state: TableState, event: ev.Block) -> Result:
    state, before = _empty_the_stack(state)
    state, steps = blocks.declare_blockers(state, event.pairs)
    return state, before + steps


def _damage_step(state: TableState, event: ev.CombatDamageStep) -> Result:
    """A combat damage step (510); a regular step asked for while a creature in combat has first strike or
    double strike is preceded by the first-strike step, whose state-based actions and triggers are done
    before the second step begins (510.3, 500.2): a creature that died deals no more damage."""
    state, steps = _empty_the_stack(state)
    assign = {creature: dict(split) for creature, split in event.assign}
    if event.step == "regular" and blocks.needs_first_step(state):
        state, first = blocks.damage_step(state, "first-strike", assign)
        steps += [
            step(
                "A creature in combat has first strike or double strike, so the first-strike combat "
                "damage step comes first.",
                cr("510.4"),
            ),
            *first,
        ]
        state, more = settle(state)
        steps += more
        state, more = _empty_the_stack(state)
        steps += more
        if state.game_over:
            return state, steps
    state, more = blocks.damage_step(state, event.step, assign)
    return state, steps + more


HANDLERS: dict[type[ev.Event], Callable[[TableState, Any], Result]] = {
    ev.Leaves: _leaves,
    ev.Concedes: _concedes,
    ev.Loses: _loses,
    ev.Wins: _wins,
    ev.AtOnce: _at_once,
    ev.GameDraw: _game_draw,
    ev.DrawFromEmpty: _draw_from_empty,
    ev.BecomeMonarch: _become_monarch,
    ev.TakeInitiative: _take_initiative,
    ev.CombatDamage: _combat_damage,
    ev.Damage: _damage,
    ev.LoseLife: _lose_life,
    ev.GainLife: _gain_life,
    ev.SetLife: _set_life,
    ev.Poison: _poison,
    ev.Draw: _draw,
    ev.AddEffect: _add_effect,
    ev.EndEffect: _end_effect,
    ev.Upkeep: _upkeep,
    ev.EndStep: _end_step,
    ev.NextTurn: _next_turn,
    ev.ExtraTurn: _extra_turn,
    ev.Resolve: _resolve,
    ev.PassPriority: _pass_priority,
    ev.Cast: _cast,
    ev.CommanderCast: _commander_cast,
    ev.GainControl: _gain_control,
    ev.ControlEnds: _control_ends,
    ev.Deploy: _deploy,
    ev.Dies: _dies,
    ev.Exiled: _dies,
    ev.ToHand: _dies,
    ev.Attack: _attack,
    ev.Block: _block,
    ev.CombatDamageStep: _damage_step,
}
