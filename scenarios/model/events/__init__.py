"""Events: what happens at the table, as small frozen dataclasses, one module per family.

Each event has a name in the scenario format (``leaves``, ``combat-damage``, ...) and is read from its
argument as written in a file: a bare value (``leaves: Ann``) fills the event's ``SCALAR`` key, a mapping
names its keys. Every event takes ``hold: true``, which leaves the triggers it causes waiting on the stack.
An event's arguments are its annotated fields (``events/base.py``); the families: ``leaving`` (leaving,
winning, losing), ``designations`` (monarch, initiative), ``damage`` (damage, life, poison, draws),
``effects`` (continuous effects), ``turns`` (steps, turns, priority, casting), ``objects`` (control and
zones), ``combat`` (attacks, blocks, combat damage steps). A variant's own events live in its module.

>>> parse_event("leaves", "Ann")
Leaves(hold=False, players=('Ann',), how='lost')
>>> parse_event("combat-damage", {"from": "Cat", "to": "Ben", "amount": 2}).hits
(Hit(to='Ben', amount=2, by='Cat', creature=None, lethal=False),)
>>> parse_event("combat-damage", {"from": "Cat", "to": "Ben", "amount": "lethal"}).hits[0].lethal
True
>>> parse_event("attack", {"attacker": "Ann", "creatures": ["Bear"], "defending": "Ben"}).creatures
(('Bear', 'Ben'),)
>>> event_to_yaml(parse_event("end-step", {"hold": True}))
{'end-step': {'hold': True}}
"""

from __future__ import annotations

from rulesjudge.scenarios.model.events.base import (
    EVENT_TYPES,
    Arg,
    AtOnce,
    Contract,
    Count,
    Event,
    EventArgError,
    Flag,
    Permanent,
    Player,
    Players,
    Target,
    Text,
    Word,
    contract,
    event_to_yaml,
    key_of,
    parse_event,
    register_events,
    value_of,
)
from rulesjudge.scenarios.model.events.combat import Attack, Block, CombatDamageStep
from rulesjudge.scenarios.model.events.damage import (
    CombatDamage,
    Damage,
    Draw,
    GainLife,
    Hit,
    LoseLife,
    PerPlayer,
    Poison,
    SetLife,
)
from rulesjudge.scenarios.model.events.designations import BecomeMonarch, TakeInitiative
from rulesjudge.scenarios.model.events.effects import AddEffect, EndEffect, effect_data, parse_effect
from rulesjudge.scenarios.model.events.leaving import Concedes, DrawFromEmpty, GameDraw, Leaves, Loses, Wins
from rulesjudge.scenarios.model.events.objects import ControlEnds, Deploy, Dies, Exiled, GainControl, ToHand
from rulesjudge.scenarios.model.events.turns import (
    Cast,
    CommanderCast,
    EndStep,
    EndTurn,
    ExtraTurn,
    NextTurn,
    PassPriority,
    Resolve,
    UntilTurn,
    Upkeep,
)

# The general events, in the order the format's documentation lists them.
register_events(
    Leaves,
    Concedes,
    Loses,
    Wins,
    GameDraw,
    DrawFromEmpty,
    AtOnce,
    BecomeMonarch,
    TakeInitiative,
    CombatDamage,
    Damage,
    LoseLife,
    GainLife,
    Poison,
    SetLife,
    Draw,
    AddEffect,
    EndEffect,
    Upkeep,
    EndStep,
    NextTurn,
    UntilTurn,
    ExtraTurn,
    EndTurn,
    Resolve,
    PassPriority,
    Cast,
    CommanderCast,
    GainControl,
    ControlEnds,
    Deploy,
    Dies,
    Exiled,
    ToHand,
    Attack,
    Block,
    CombatDamageStep,
)

__all__ = [
    "EVENT_TYPES", "AddEffect", "Arg", "AtOnce", "Attack", "BecomeMonarch", "Block", "Cast", "CombatDamage",
    "CombatDamageStep", "CommanderCast", "Concedes", "Contract", "ControlEnds", "Count", "Damage", "Deploy",
    "Dies", "Draw", "DrawFromEmpty", "EndEffect", "EndStep", "EndTurn", "Event", "EventArgError", "Exiled",
    "ExtraTurn", "Flag", "GainControl", "GainLife", "GameDraw", "Hit", "Leaves", "LoseLife", "Loses",
    "NextTurn", "PassPriority", "PerPlayer", "Permanent", "Player", "Players", "Poison", "Resolve", "SetLife",
    "TakeInitiative", "Target", "Text", "ToHand", "UntilTurn", "Upkeep", "Wins", "Word", "contract",
    "effect_data", "event_to_yaml", "key_of", "parse_effect", "parse_event", "register_events", "value_of",
]
