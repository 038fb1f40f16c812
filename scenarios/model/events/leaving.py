"""Events of leaving, winning and losing the game (104, 800.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from rulesjudge.scenarios.model.events.base import Event, Player, Players, Word


@dataclass(frozen=True, kw_only=True)
class Leaves(Event):
    """Players leave the game at the same time (they lose, concede, or the game is a draw for them)."""

    NAME = "leaves"
    SCALAR = "players"
    players: Players
    how: Annotated[str, Word("lost", "conceded", "drew")] = "lost"


@dataclass(frozen=True, kw_only=True)
class Concedes(Event):
    """Players concede (104.3a): they leave the game and lose."""

    NAME = "concedes"
    SCALAR = "players"
    players: Players


@dataclass(frozen=True, kw_only=True)
class Loses(Event):
    """An effect states that players lose the game (104.3e)."""

    NAME = "loses"
    SCALAR = "players"
    players: Players


@dataclass(frozen=True, kw_only=True)
class Wins(Event):
    """An effect states that a player wins the game (104.2b; 801.14 with limited range of influence)."""

    NAME = "wins"
    SCALAR = "player"
    player: Player


@dataclass(frozen=True, kw_only=True)
class GameDraw(Event):
    """An effect a player controls states that the game is a draw (104.4c; 801.15 with limited range)."""

    NAME = "game-draw"
    SCALAR = "player"
    player: Player


@dataclass(frozen=True, kw_only=True)
class DrawFromEmpty(Event):
    """Players are instructed to draw from an empty library (704.5b at the next check)."""

    NAME = "draw-from-empty"
    SCALAR = "players"
    players: Players
