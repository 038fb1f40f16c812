"""Events of control and zones: control changes, deploying, a permanent leaving the battlefield."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from rulesjudge.scenarios.model.events.base import Event, Flag, Permanent, Player, Word


@dataclass(frozen=True, kw_only=True)
class GainControl(Event):
    """A control-changing effect gives a player control of a permanent."""

    NAME = "gain-control"
    permanent: Permanent
    player: Player
    #: "end-of-turn": Act of Treason's effect ends as the turn ends (514.2)
    until: Annotated[str, Word("end-of-turn")] | None = None
    #: the same effect untaps it and gives it haste until end of turn (Threaten, Act of Treason), so it can
    #: attack this turn (302.6, 508.1a)
    untap: Flag = False
    haste: Flag = False


@dataclass(frozen=True, kw_only=True)
class ControlEnds(Event):
    """Control-changing effects giving ``player`` (default: all of them) control of a permanent end."""

    NAME = "control-ends"
    SCALAR = "permanent"
    permanent: Permanent
    player: Player | None = None


@dataclass(frozen=True, kw_only=True)
class Deploy(Event):
    """Deploy creatures option (804.2): tap a creature, a teammate gains control of it."""

    NAME = "deploy"
    permanent: Permanent
    to: Player


@dataclass(frozen=True, kw_only=True)
class Dies(Event):
    """A permanent is put into its owner's graveyard; a commander's owner may then put it into the command
    zone (903.9a; ``command-zone: false`` declines)."""

    NAME = "dies"
    SCALAR = "permanent"
    ZONE: ClassVar[str] = "graveyard"
    permanent: Permanent
    command_zone: Flag = True


@dataclass(frozen=True, kw_only=True)
class Exiled(Dies):
    """A permanent is exiled (903.9a for a commander)."""

    NAME = "exiled"
    ZONE = "exile"


@dataclass(frozen=True, kw_only=True)
class ToHand(Dies):
    """A permanent is returned to its owner's hand (903.9b: a commander may go to the command zone
    instead)."""

    NAME = "to-hand"
    ZONE = "hand"
