"""Damage, life, poison and draws from spells and abilities: the event handlers for ``damage``, ``lose-life``,
``gain-life``, ``set-life``, ``poison`` and ``draw`` (119, 120, 121, 122.1f; 801.10 with limited range of
influence; 810.9 under a shared life total).

>>> from rulesjudge.scenarios.model.table import TableState, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> from rulesjudge.scenarios.model.events import LoseLife
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",),
...                    life=frozen({"Ann": 20, "Ben": 20}))
>>> lose_life(state, LoseLife(player="Ben", amount=3))[0].life["Ben"]
17
"""

from __future__ import annotations

from dataclasses import replace

from rulesjudge.scenarios.model import ending
from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.influence import in_range
from rulesjudge.scenarios.model.library import draw_cards
from rulesjudge.scenarios.model.steps import Step, step
from rulesjudge.scenarios.model.table import TableState, frozen

Result = tuple[TableState, list[Step]]


def reach(state: TableState, by: str | None, to: str) -> list[Step] | None:
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


def damage(state: TableState, event: ev.Damage) -> Result:
    by = event.by
    source = state.permanents[event.source] if event.source is not None else None
    if by is None and source is not None:
        by = source.current_controller if source.on_battlefield else source.last_controller
    if event.to in state.permanents:
        return damage_object(state, event, by)
    if not state.is_in(event.to):
        return state, [step(f"{event.to} has left the game.", cr("800.4a"))]
    stopped = reach(state, by, event.to)
    if stopped is not None:
        return state, stopped
    by_what = f"noncombat damage by {event.source}" if event.source else "noncombat damage"
    if source is not None and source.has("infect"):
        # 702.90b/e: infect works for any damage its source deals, not only combat damage
        state, steps = ending.poison_counters(state, event.to, event.amount)
        text = f"{event.to} is dealt {event.amount} {by_what}, which has infect: poison counters, not life"
        cites = [cr("120.3b"), cr("702.90b"), cr("702.90e")]
    else:
        state, steps = change_life(state, event.to, -event.amount)
        text = f"{event.to} is dealt {event.amount} {by_what} and loses that much life"
        cites = [cr("120.3a")]
    if event.to == state.monarch:  # the crown and the initiative pass by combat damage only
        text, cites = text + "; only combat damage passes the crown", [*cites, cr("725.2")]
    if event.to == state.initiative:
        text, cites = text + "; only combat damage takes the initiative", [*cites, cr("726.2")]
    if event.source and state.commander and state.permanents[event.source].commander:
        text, cites = text + "; only combat damage counts as commander damage", [*cites, cr("903.10a")]
    return state, [step(text + ".", *cites), *steps]


def damage_object(state: TableState, event: ev.Damage, by: str | None) -> Result:
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
    blocked = [reach(state, by, who) for who in holders if state.is_in(who)]
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


def change_life(state: TableState, player: str, delta: int) -> Result:
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


def lose_life(state: TableState, event: ev.LoseLife) -> Result:
    if not state.is_in(event.player):
        return state, [step(f"{event.player} has left the game.", cr("800.4a"))]
    state, steps = change_life(state, event.player, -event.amount)
    return state, [step(f"{event.player} loses {event.amount} life.", cr("119.3")), *steps]


def gain_life(state: TableState, event: ev.GainLife) -> Result:
    if not state.is_in(event.player):
        return state, [step(f"{event.player} has left the game.", cr("800.4a"))]
    state, steps = change_life(state, event.player, event.amount)
    return state, [step(f"{event.player} gains {event.amount} life.", cr("119.3")), *steps]


def set_life(state: TableState, event: ev.SetLife) -> Result:
    """119.5: the player gains or loses the necessary life; 810.9c/d under a shared life total."""
    handled = state.variant.set_life(state, event.amounts)
    if handled is not None:
        return handled
    steps: list[Step] = []
    for player, total in event.amounts:
        if not state.is_in(player):
            continue
        now = ending.life_of(state, player)
        state, more = change_life(state, player, total - now)
        verb = "gains" if total >= now else "loses"
        steps += [
            step(
                f"{player}'s life total becomes {total}: {player} {verb} {abs(total - now)} life.",
                cr("119.5"),
            ),
            *more,
        ]
    return state, steps


def poison(state: TableState, event: ev.Poison) -> Result:
    steps: list[Step] = []
    for player, count in event.amounts:
        if not state.is_in(player):
            steps.append(step(f"{player} has left the game.", cr("800.4a")))
            continue
        state, more = ending.poison_counters(state, player, count)
        steps += more
    return state, steps


def draw(state: TableState, event: ev.Draw) -> Result:
    if not state.is_in(event.player):
        return state, [step(f"{event.player} has left the game and draws nothing.", cr("800.4a"))]
    cards = "card" if event.count == 1 else "cards"
    state, steps = draw_cards(state, event.player, event.count)
    return state, [step(f"An effect makes {event.player} draw {event.count} {cards}.", cr("121.1")), *steps]
