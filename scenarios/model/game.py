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
from typing import Any

from rulesjudge.scenarios.model import blocks, combat, ending, initiative, life, monarch, objects, turns
from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.leaving import leave
from rulesjudge.scenarios.model.setup import EFFECT_WORDS
from rulesjudge.scenarios.model.steps import Reading, Step, step
from rulesjudge.scenarios.model.table import (
    COMMANDER_SPELL,
    Choice,
    TableState,
    Trigger,
    frozen,
    reached,
)

Result = tuple[TableState, list[Step]]
MAX_LOOPS = 200


def apply(state: TableState, event: ev.Event) -> Result:
    """Apply one event, then state-based actions and triggers; resolve the stack unless ``hold``."""
    if state.game_over:
        return state, [step("The game is over, so nothing more happens in it.", cr("104.1"))]
    earlier = {t.serial for t in state.stack}
    state, steps = handle(state, event)
    if event.STEP and not reached(state.step, event.STEP):
        state = state.with_(step=event.STEP)  # 500.1: the turn has come to this step
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
    lethal: list[Step] = []
    for hit in event.hits:
        perm = state.permanents[hit.creature] if hit.creature is not None else None
        if hit.lethal:  # "for lethal": the number is the table's, as the damage is dealt
            amount, said = combat.lethal_amount(state, hit.to, infect=perm is not None and perm.has("infect"))
            lethal.append(said)
        elif perm is not None:
            amount = perm.power or 0 if hit.amount is None else hit.amount
        else:
            amount = hit.amount or 0
        by = perm.current_controller if perm is not None else hit.by or ""
        blows.append(combat.Blow(by, hit.to, amount, hit.creature))
    state, steps = combat.deal(state, blows)
    return state, [*lethal, *steps]


def _add_effect(state: TableState, event: ev.AddEffect) -> Result:
    spec = event.effect
    whom = ", ".join(spec.players)
    if spec.relative is not None:
        whose = "controller" if spec.relative == "controller-of" else "controller's opponents"
        whom = f"{spec.source}'s {whose}"
    return state.with_(effects=(*state.effects, spec)), [
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


def _until_turn(state: TableState, event: ev.UntilTurn) -> Result:
    """Turns pass until ``event.player``'s turn begins: each a ``next-turn`` (so extra turns come first,
    500.7, a player who left takes none, 800.4k, and a shared team turn is the team's, 805.4), with the
    triggers of each turn's end resolved as a ``next-turn`` event's are. Grand Melee's several turns at once
    are the variant's to refuse (807.4c-d)."""
    player = event.player
    if not state.is_in(player):
        return state, [step(f"{player} has left the game, so no turn of theirs comes.", cr("800.4a"),
                            cr("800.4k"))]
    if player in state.active_players and not event.next:
        return state, [step(f"It is {player}'s turn now: no turn passes.", cr("102.1"))]
    steps: list[Step] = []
    passed = 0
    # each seat once, after the extra turns waiting: their turn has come by then, or the game has ended
    for _ in range(len(state.seats) + len(state.extra_turns) + 1):
        state, more = apply(state, ev.NextTurn(hold=event.hold))
        steps += more
        passed += 1
        if player in state.active_players or state.game_over or not state.is_in(player):
            break
    ended = f"{passed} turn{'s' if passed > 1 else ''}"
    verb = "end" if passed > 1 else "ends"
    if player in state.active_players:
        team = " (the team's turn, 805.4)" if len(state.active_players) > 1 else ""
        head = step(f"Turns pass until {player}'s turn{team}: {ended} {verb}, each played in full.",
                    cr("500.1"), cr("101.4"), *((cr("805.4"),) if team else ()))
    else:
        why = "the game is over" if state.game_over else f"{player} left the game"
        head = step(f"{ended} passed, and {player}'s turn didn't come: {why}.",
                    cr("104.1") if state.game_over else cr("800.4k"))
    return state, [head, *steps]


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
    unit = state.variant.priority_unit(state, event.player)
    state = state.with_spell(event.player, event.spell, event.stack).with_(priority=unit, passed=())
    return state, [
        step(f"{event.player} casts {event.spell}; it goes on the stack.", cr("601.2")),
        step(f"{event.player} had priority when casting it, so receives priority again.", cr("117.3c")),
    ]


def _commander_cast(state: TableState, event: ev.CommanderCast) -> Result:
    return objects.commander_cast(state, event.player, event.commander)


def _gain_control(state: TableState, event: ev.GainControl) -> Result:
    return objects.gain_control(state, event.permanent, event.player, event.until == "end-of-turn",
                                untap=event.untap, haste=event.haste)


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
    ev.Damage: life.damage,
    ev.LoseLife: life.lose_life,
    ev.GainLife: life.gain_life,
    ev.SetLife: life.set_life,
    ev.Poison: life.poison,
    ev.Draw: life.draw,
    ev.AddEffect: _add_effect,
    ev.EndEffect: _end_effect,
    ev.Upkeep: _upkeep,
    ev.EndStep: _end_step,
    ev.NextTurn: _next_turn,
    ev.UntilTurn: _until_turn,
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
