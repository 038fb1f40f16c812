"""Events of damage, life, poison and drawing (120, 119, 122.1f, 121)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rulesjudge.scenarios.model.events.base import (
    Count,
    Event,
    EventArgError,
    Permanent,
    Player,
    Target,
    _hold,
    _key,
    _mapping,
    value_of,
)


@dataclass(frozen=True)
class Hit:
    """Combat damage dealt to ``to`` (a player, or a planeswalker or battle): by a creature ``by`` controls
    (the player-level form) or by the creature ``creature`` (its controller read from the table)."""

    to: str
    amount: int | None = 1  # None: the creature's power
    by: str | None = None
    creature: str | None = None
    lethal: bool = False  # ``amount: lethal``: as much as makes ``to`` lose, read as it is dealt (704.5a)


#: The word ``amount`` takes for lethal damage (``combat.lethal_amount`` reads the number from the table).
LETHAL = "lethal"


def _amount(where: str, raw: Any) -> tuple[int | None, bool]:
    """A hit's amount and whether it is ``lethal``."""
    if isinstance(raw, str) and raw.strip().lower() == LETHAL:
        return None, True
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise EventArgError(_key(where, "amount"),
                            f"expected a whole number of 0 or more, or lethal, got {raw!r}")
    return raw, False


def _parse_hit(raw: Any, where: str) -> tuple[Hit, bool]:
    shape = "{creature: NAME, to: PLAYER} or {from: PLAYER, to: PLAYER, amount: N}"
    data = _mapping(raw, where, ("from", "creature", "to", "amount", "hold"), shape)
    if "to" not in data:
        raise EventArgError(where or "to", "missing 'to'")
    if ("from" in data) == ("creature" in data):
        raise EventArgError(
            where or "from", "name either the creature or the player it is controlled by ('from')"
        )
    to = value_of(_key(where, "to"), "player", data["to"])
    amount, lethal = _amount(where, data["amount"]) if "amount" in data else (None, False)
    if "creature" in data:
        creature = value_of(_key(where, "creature"), "permanent", data["creature"])
        return Hit(to, amount, creature=creature, lethal=lethal), _hold(data, where)
    by = value_of(_key(where, "from"), "player", data["from"])
    return Hit(to, 1 if amount is None and not lethal else amount, by=by, lethal=lethal), _hold(data, where)


def _hit_data(hit: Hit) -> dict[str, Any]:
    amount = LETHAL if hit.lethal else hit.amount
    if hit.creature is not None:
        data: dict[str, Any] = {"creature": hit.creature, "to": hit.to}
        if amount is not None:
            data["amount"] = amount
        return data
    return {"from": hit.by, "to": hit.to, "amount": amount}


@dataclass(frozen=True, kw_only=True)
class CombatDamage(Event):
    """Combat damage; a list of hits is dealt at the same time (510.2)."""

    NAME = "combat-damage"
    STEP = "combat"
    hits: tuple[Hit, ...]

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        if isinstance(arg, list):
            if not arg:
                raise EventArgError("", "expected at least one hit")
            parsed = [_parse_hit(item, f"[{i}]") for i, item in enumerate(arg)]
            return cls(hits=tuple(h for h, _ in parsed), hold=any(h for _, h in parsed))
        hit, hold = _parse_hit(arg, "")
        return cls(hits=(hit,), hold=hold)

    def to_arg(self) -> Any:
        hits = [_hit_data(h) for h in self.hits]
        if self.hold:
            hits[0]["hold"] = True
        return hits[0] if len(hits) == 1 else hits

    def players_named(self) -> tuple[str, ...]:
        return tuple(n for h in self.hits for n in (h.by, h.to) if n is not None)

    def permanents_named(self) -> tuple[str, ...]:
        return tuple(h.creature for h in self.hits if h.creature is not None)


@dataclass(frozen=True, kw_only=True)
class Damage(Event):
    """Noncombat damage to a player, planeswalker or battle from a spell or ability ``from`` controls, or
    whose source is the permanent ``source``: life is lost (poison counters from a source with infect),
    loyalty or defense counters are removed; nothing is stolen."""

    NAME = "damage"
    to: Target
    amount: Count
    by: Player | None = None
    source: Permanent | None = None


@dataclass(frozen=True, kw_only=True)
class LoseLife(Event):
    NAME = "lose-life"
    player: Player
    amount: Count


@dataclass(frozen=True, kw_only=True)
class GainLife(Event):
    NAME = "gain-life"
    player: Player
    amount: Count


@dataclass(frozen=True, kw_only=True)
class PerPlayer(Event):
    """An effect giving each of several players a number at once: ``{player: P, KEY: N}`` or a list of
    them; ``amounts`` pairs each player with their number."""

    KEY: ClassVar[str] = "count"
    NEGATIVE: ClassVar[bool] = False  # may the number be below 0 (a life total)
    amounts: tuple[tuple[str, int], ...]

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        items = arg if isinstance(arg, list) else [arg]
        if not items:
            raise EventArgError("", f"expected at least one {{player: P, {cls.KEY}: N}}")
        records, hold = [], False
        for i, item in enumerate(items):
            where = f"[{i}]" if isinstance(arg, list) else ""
            data = _mapping(item, where, ("player", cls.KEY, "hold"), f"{{player: PLAYER, {cls.KEY}: N}}")
            for key in ("player", cls.KEY):
                if key not in data:
                    raise EventArgError(_key(where, key), f"'{cls.NAME}' needs '{key}'")
            amount = data[cls.KEY]
            if not cls.NEGATIVE:
                amount = value_of(_key(where, cls.KEY), "int", amount)
            elif isinstance(amount, bool) or not isinstance(amount, int):
                raise EventArgError(_key(where, cls.KEY), f"expected a whole number, got {amount!r}")
            records.append((value_of(_key(where, "player"), "player", data["player"]), amount))
            hold = hold or _hold(data, where)
        return cls(amounts=tuple(records), hold=hold)

    def to_arg(self) -> Any:
        items: list[dict[str, Any]] = [{"player": p, self.KEY: n} for p, n in self.amounts]
        if self.hold:
            items[0]["hold"] = True
        return items[0] if len(items) == 1 else items

    def players_named(self) -> tuple[str, ...]:
        return tuple(p for p, _ in self.amounts)


@dataclass(frozen=True, kw_only=True)
class Poison(PerPlayer):
    """Players get poison counters (a list: one effect giving each of them counters at once)."""

    NAME = "poison"


@dataclass(frozen=True, kw_only=True)
class SetLife(PerPlayer):
    """Players' life totals become a number (119.5; a list: one effect for several players at once)."""

    NAME = "set-life"
    KEY = "life"
    NEGATIVE = True


@dataclass(frozen=True, kw_only=True)
class Draw(Event):
    """A player draws cards because an effect says so."""

    NAME = "draw"
    SCALAR = "player"
    player: Player
    count: Count = 1
