"""Combat declarations and damage steps: attacking (508), blocking (509), combat damage steps (510)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from rulesjudge.scenarios.model.events.base import Event, EventArgError, Word, _hold, _mapping, value_of


@dataclass(frozen=True, kw_only=True)
class Attack(Event):
    """The active player (the active team, 805.10b) declares attackers (508.1): each creature attacks a
    player, a planeswalker or a battle. ``creatures: [Bear, Wolf], defending: Ben`` or
    ``creatures: {Bear: Ben, Wolf: Jace}``."""

    NAME = "attack"
    STEP = "combat"
    attacker: tuple[str, ...]
    creatures: tuple[tuple[str, str], ...]

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        shape = "{attacker: PLAYER, creatures: [CREATURE, ...], defending: PLAYER} or {CREATURE: TARGET}"
        data = _mapping(arg, "", ("attacker", "creatures", "defending", "hold"), shape)
        for key in ("attacker", "creatures"):
            if key not in data:
                raise EventArgError(key, f"'attack' needs '{key}'")
        attacker = value_of("attacker", "players", data["attacker"])
        raw = data["creatures"]
        if isinstance(raw, dict):
            if "defending" in data:
                raise EventArgError(
                    "defending", "give each creature its target, or one 'defending' for a list"
                )
            if not raw:
                raise EventArgError("creatures", "expected at least one creature")
            pairs = tuple(
                (value_of("creatures", "permanent", c), value_of(f"creatures.{c}", "str", t))
                for c, t in raw.items()
            )
        else:
            names = value_of("creatures", "permanents", raw)
            if "defending" not in data:
                raise EventArgError(
                    "defending", "a list of creatures needs 'defending' (or map each to a target)"
                )
            target = value_of("defending", "str", data["defending"])
            pairs = tuple((c, target) for c in names)
        return cls(attacker=attacker, creatures=pairs, hold=_hold(data, ""))

    def to_arg(self) -> Any:
        attacker: Any = self.attacker[0] if len(self.attacker) == 1 else list(self.attacker)
        targets = {t for _, t in self.creatures}
        if len(targets) == 1:
            arg: dict[str, Any] = {
                "attacker": attacker,
                "creatures": [c for c, _ in self.creatures],
                "defending": next(iter(targets)),
            }
        else:
            arg = {"attacker": attacker, "creatures": dict(self.creatures)}
        return {**arg, **({"hold": True} if self.hold else {})}

    def players_named(self) -> tuple[str, ...]:
        return self.attacker

    def permanents_named(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.creatures)

    def targets(self) -> tuple[str, ...]:
        """What the creatures attack (players or permanents: the format checks each names one)."""
        return tuple(dict.fromkeys(t for _, t in self.creatures))


@dataclass(frozen=True, kw_only=True)
class Block(Event):
    """Defending players declare blockers (509.1): ``{Wall: Krenko, Ogre: [Bear, Wolf]}`` - each blocker and
    the attacking creature (or, where an effect allows it, creatures) it blocks."""

    NAME = "block"
    STEP = "combat"
    pairs: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        if not isinstance(arg, dict) or not [k for k in arg if k != "hold"]:
            raise EventArgError("", "expected {BLOCKER: ATTACKER} or {BLOCKER: [ATTACKER, ...]}")
        pairs = []
        for blocker, raw in arg.items():
            if blocker == "hold":
                continue
            name = value_of("", "permanent", blocker)
            pairs.append((name, value_of(str(name), "permanents", raw)))
        return cls(pairs=tuple(pairs), hold=_hold(arg, ""))

    def to_arg(self) -> Any:
        arg: dict[str, Any] = {b: a[0] if len(a) == 1 else list(a) for b, a in self.pairs}
        return {**arg, **({"hold": True} if self.hold else {})}

    def permanents_named(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for b, a in self.pairs for n in (b, *a)))


@dataclass(frozen=True, kw_only=True)
class CombatDamageStep(Event):
    """A combat damage step: the first-strike step (``first-strike``) or the regular one (510.4);
    ``assign: {Krenko: {Wall: 2, Ben: 3}}`` gives how a creature's controller divides its damage
    (510.1c-d)."""

    NAME = "combat-damage-step"
    STEP = "combat"
    SCALAR = "step"
    step: Annotated[str, Word("first-strike", "regular")] = "regular"
    assign: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        if not (isinstance(arg, dict) and "assign" in arg):
            return super().from_arg(arg)
        raw = arg["assign"]
        event = super().from_arg({k: v for k, v in arg.items() if k != "assign"})
        if not isinstance(raw, dict) or not raw:
            raise EventArgError("assign", "expected {CREATURE: {RECIPIENT: DAMAGE, ...}}")
        assign = []
        for creature, split in raw.items():
            name = value_of("assign", "permanent", creature)
            where = f"assign.{name}"
            if not isinstance(split, dict) or not split:
                raise EventArgError(where, "expected {RECIPIENT: DAMAGE, ...}")
            parts = tuple(
                (value_of(where, "target", who), value_of(f"{where}.{who}", "int", n))
                for who, n in split.items()
            )
            assign.append((name, parts))
        return cls(step=getattr(event, "step", "regular"), assign=tuple(assign), hold=event.hold)

    def to_arg(self) -> Any:
        arg = super().to_arg()
        if not self.assign:
            return arg
        base: dict[str, Any] = arg if isinstance(arg, dict) else ({"step": arg} if arg else {})
        return {**base, "assign": {c: dict(split) for c, split in self.assign}}

    def permanents_named(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.assign)

    def recipients(self) -> tuple[str, ...]:
        """Players and permanents the assignment names (the format checks each is on the table)."""
        return tuple(dict.fromkeys(who for _, split in self.assign for who, _ in split))
