"""Events of turns, steps, priority and casting (500, 117, 903.8)."""

from __future__ import annotations

from dataclasses import dataclass

from rulesjudge.scenarios.model.events.base import Count, Event, Permanent, Player, Players, Text


@dataclass(frozen=True, kw_only=True)
class Upkeep(Event):
    """The active player's upkeep begins."""

    NAME = "upkeep"


@dataclass(frozen=True, kw_only=True)
class EndStep(Event):
    """The active player's end step begins."""

    NAME = "end-step"


@dataclass(frozen=True, kw_only=True)
class NextTurn(Event):
    """The current turn ends and the next turn begins."""

    NAME = "next-turn"


@dataclass(frozen=True, kw_only=True)
class ExtraTurn(Event):
    """Players are given an extra turn after this one (500.7; several: one effect, added in APNAP order)."""

    NAME = "extra-turn"
    SCALAR = "players"
    players: Players


@dataclass(frozen=True, kw_only=True)
class EndTurn(Event):
    """Grand Melee: the player's turn ends and they pass their turn marker (807.4c)."""

    NAME = "end-turn"
    SCALAR = "player"
    player: Player


@dataclass(frozen=True, kw_only=True)
class Resolve(Event):
    """Resolve the stack (all of it, or the top ``count`` objects)."""

    NAME = "resolve"
    SCALAR = "count"
    count: Count | None = None


@dataclass(frozen=True, kw_only=True)
class PassPriority(Event):
    """The player (the team, 805.5b) with priority passes (117.3d); naming the player checks it's them."""

    NAME = "pass-priority"
    SCALAR = "player"
    player: Player | None = None


@dataclass(frozen=True, kw_only=True)
class Cast(Event):
    """A player holding priority casts a spell (117.3c); in Grand Melee ``stack`` names the turn marker (by
    its holder) whose stack it goes on (807.5b)."""

    NAME = "cast"
    player: Player
    spell: Text
    stack: Player | None = None


@dataclass(frozen=True, kw_only=True)
class CommanderCast(Event):
    """A player casts their commander from the command zone (903.8)."""

    NAME = "commander-cast"
    player: Player
    commander: Permanent
