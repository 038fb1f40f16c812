"""Events that make a player the monarch or give them the initiative."""

from __future__ import annotations

from dataclasses import dataclass

from rulesjudge.scenarios.model.events.base import Event, Player


@dataclass(frozen=True, kw_only=True)
class BecomeMonarch(Event):
    """An effect makes a player the monarch."""

    NAME = "become-monarch"
    SCALAR = "player"
    player: Player


@dataclass(frozen=True, kw_only=True)
class TakeInitiative(Event):
    """An effect makes a player take the initiative."""

    NAME = "take-initiative"
    SCALAR = "player"
    player: Player
