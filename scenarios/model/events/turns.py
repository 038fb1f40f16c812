"""Events of turns, steps, priority and casting (500, 117, 903.8)."""

from __future__ import annotations

from dataclasses import dataclass

from rulesjudge.scenarios.model.events.base import Count, Event, Flag, Permanent, Player, Players, Text


@dataclass(frozen=True, kw_only=True)
class Upkeep(Event):
    """The active player's upkeep begins."""

    NAME = "upkeep"
    STEP = "upkeep"


@dataclass(frozen=True, kw_only=True)
class EndStep(Event):
    """The active player's end step begins."""

    NAME = "end-step"
    STEP = "end-step"


@dataclass(frozen=True, kw_only=True)
class NextTurn(Event):
    """The current turn ends and the next turn begins."""

    NAME = "next-turn"


@dataclass(frozen=True, kw_only=True)
class UntilTurn(Event):
    """Turns pass until ``player``'s turn begins ("on Ben's turn"): each turn in between ends and the next
    begins, as ``next-turn`` does (extra turns first, 500.7; players who left take none, 800.4k; under shared
    team turns the turn is the team's, 805.4). Nothing happens when it is ``player``'s turn already, unless
    ``next`` asks for their next one; the model refuses, saying why, where the rules give no one count of
    turns (several turns taken at once in Grand Melee, 807.4c-d) or the player has left (800.4a).

    >>> UntilTurn.from_arg("Ben"), UntilTurn.from_arg({"player": "Ben", "next": True}).next
    (UntilTurn(hold=False, player='Ben', next=False), True)
    """

    NAME = "until-turn"
    SCALAR = "player"
    player: Player
    next: Flag = False


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
