"""The events a Treachery table is told about its identity cards (702.187c, 702.187f, The Gatekeeper,
The Metamorph, The Puppet Master); the :class:`~scenarios.model.treachery.Treachery` variant applies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesjudge.scenarios.model import events as ev


@dataclass(frozen=True, kw_only=True)
class Unveil(ev.Event):
    """A player turns their face-down identity card face up (702.187c)."""

    NAME = "unveil"
    SCALAR = "player"
    player: ev.Player


@dataclass(frozen=True, kw_only=True)
class UndercoverMet(Unveil):
    """The undercover restriction of the player's identity card is met (702.187f)."""

    NAME = "undercover-met"


@dataclass(frozen=True, kw_only=True)
class TurnFaceDown(Unveil):
    """An effect turns the player's identity card face down (The Gatekeeper, The Puppet Master)."""

    NAME = "turn-face-down"


@dataclass(frozen=True, kw_only=True)
class StealIdentity(ev.Event):
    """The Metamorph: as ``from`` (a Leader player) loses, ``player`` steals their identity card."""

    NAME = "steal-identity"
    player: ev.Player
    by: ev.Player


@dataclass(frozen=True, kw_only=True)
class ExchangeIdentities(ev.Event):
    """The Puppet Master: two players exchange control of their identity cards."""

    NAME = "exchange-identities"
    SCALAR = "players"
    players: ev.Players

    @classmethod
    def from_arg(cls, arg: Any) -> ev.Event:
        event = super().from_arg(arg)
        assert isinstance(event, ExchangeIdentities)
        if len(event.players) != 2:
            raise ev.EventArgError("players", "two players exchange identity cards: name exactly two")
        return event


#: The Treachery variant's own events, in the order the variant lists them.
TREACHERY_EVENTS = (Unveil, UndercoverMet, TurnFaceDown, StealIdentity, ExchangeIdentities)
