"""Questions about life, counters and cards: life totals, poison, commander damage, draws,
libraries, ventures, the stack."""

from __future__ import annotations

from rulesjudge.scenarios.model import monarch
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.library import answer_library
from rulesjudge.scenarios.model.questions.base import general
from rulesjudge.scenarios.model.steps import Answer, step
from rulesjudge.scenarios.model.table import TableState, plural


@general("life", ("player",), "int", "the player's life total (a team's shared total in Two-Headed Giant)")
def _life(state: TableState, player: str) -> Answer:
    pool = state.variant.life_pool(state, player)
    value = state.life.get(pool, 0)
    steps = []
    if pool != player:
        steps.append(step(f"{player}'s life total is their team's shared life total.", cr("810.9a")))
    if not state.is_in(player):
        steps.append(
            step(f"{player} has left the game: their last known life total is {value}.", cr("800.4i"))
        )
    elif value == state.starting_life.get(pool):
        start = (cr("119.1"), *((cr("119.1c"),) if state.commander else ()))
        steps.append(step(f"{player}'s life total is {value}, the starting life total.", *start))
    else:
        steps.append(
            step(
                f"{player}'s life total is {value}, adjusted by the life lost and gained.",
                cr("119.3"),
                cr("119.2"),
            )
        )
    return value, steps


@general("poison", ("player",), "int", "the player's poison counters (the team's in Two-Headed Giant)")
def _poison(state: TableState, player: str) -> Answer:
    pool = state.variant.poison_pool(state, player)
    value = state.poison.get(pool, 0)
    cites: tuple[Cite, ...] = (cr("810.10a"),) if pool != player else (cr("122.1f"),)
    if not state.is_in(player):
        cites += (cr("800.4i"),)
    return value, [
        step(
            f"{player} has {plural(value, 'poison counter')}"
            f"{' (shared by the team)' if pool != player else ''}.",
            *cites,
        )
    ]


@general("poison-limit", ("player",), "int",
         "poison counters that make the player lose (their team, in Two-Headed Giant)")
def _poison_limit(state: TableState, player: str) -> Answer:
    limit, cites = state.variant.poison_limit(state, player)
    shared = state.variant.poison_pool(state, player) != player
    return limit, [step(f"{plural(limit, 'poison counter')} make {player}"
                        f"{' and their team' if shared else ''} lose the game.", *cites)]


@general(
    "commander-damage",
    ("player", "permanent"),
    "int",
    "combat damage the player has been dealt by that commander",
)
def _commander_damage(state: TableState, player: str, name: str) -> Answer:
    value = state.commander_damage.get(player, {}).get(name, 0)
    return value, [
        step(
            f"{player} has been dealt {value} combat damage by {name} over the course of the game.",
            cr("903.10a"),
        )
    ]


@general(
    "draws",
    ("player",),
    "int",
    "cards the player drew by effects in the scenario (draw steps are not modelled)",
)
def _draws(state: TableState, player: str) -> Answer:
    n = state.draws.get(player, 0)
    return n, [
        step(
            f"{player} drew {plural(n, 'card')} by effects in this scenario (draw steps aside).", cr("121.1")
        )
    ]


@general("library", ("player",), "int?", "cards left in the player's library (null: not counted)")
def _library(state: TableState, player: str) -> Answer:
    return answer_library(state, player)


@general("ventures", ("player",), "int", "times the player ventured into Undercity")
def _ventures(state: TableState, player: str) -> Answer:
    n = state.ventures.get(player, 0)
    return n, [step(f"{player} ventured into Undercity {plural(n, 'time')}.", cr("726.2"))]


@general("stack-controllers", (), "sequence", "controllers of the objects on the stack, top first")
def _stack(state: TableState) -> Answer:
    listed = "; ".join(f"{t.text} (controlled by {t.controller})" for t in reversed(state.stack)) or "none"
    return [t.controller for t in reversed(state.stack)], [
        step(f"Objects on the stack, top first: {listed}.", cr("405.1"), *_controller_rules(state))
    ]


def _controller_rules(state: TableState) -> tuple[Cite, ...]:
    """The rules that decide who controls each object on the stack: a spell's caster (112.2), a triggered
    ability's source's controller (113.8), the monarch's and the initiative's inherent triggers (725.2,
    726.2)."""
    rules: dict[Cite, None] = {}
    for item in state.stack:
        if item.is_spell:
            rules[cr("112.2")] = None
        elif item.kind in (monarch.DRAW, monarch.STEAL):
            rules[cr("725.2")] = None
        elif item.kind.startswith("initiative"):
            rules[cr("726.2")] = None
        else:
            rules[cr("113.8")] = None
    return tuple(rules)
