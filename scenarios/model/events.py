"""Events: what happens at the table, as small frozen dataclasses.

Each event has a name in the scenario format (``leaves``, ``combat-damage``, ...), and every event
takes ``hold: true``, which leaves the triggers it causes waiting on the stack.

>>> parse_event("leaves", "Ann")
Leaves(hold=False, players=('Ann',), how='lost')
>>> parse_event("combat-damage", {"from": "Cat", "to": "Ben", "amount": 2}).hits
(Hit(source='Cat', to='Ben', amount=2),)
>>> event_to_yaml(parse_event("end-step", {"hold": True}))
{'end-step': {'hold': True}}
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


class EventArgError(ValueError):
    """A bad event argument; ``key`` is the sub-key it concerns ("" for the argument as a whole)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of all events. ``SCALAR`` names the field a bare argument fills (``leaves: Ann``)."""

    NAME: ClassVar[str] = ""
    SCALAR: ClassVar[str | None] = None
    KINDS: ClassVar[dict[str, str]] = {}  # yaml key -> player | players | permanent | int | str
    REQUIRED: ClassVar[tuple[str, ...]] = ()
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}

    hold: bool = False

    def players_named(self) -> tuple[str, ...]:
        """Every player name the event mentions (the format checks they are seated)."""
        names: list[str] = []
        for key, kind in self.KINDS.items():
            value = getattr(self, _attr(key))
            if kind == "player" and value is not None:
                names.append(value)
            elif kind == "players":
                names.extend(value)
        return tuple(names)

    def permanents_named(self) -> tuple[str, ...]:
        return tuple(getattr(self, _attr(k)) for k, kind in self.KINDS.items() if kind == "permanent")


def _attr(key: str) -> str:
    return {"from": "source"}.get(key, key.replace("-", "_"))


@dataclass(frozen=True, kw_only=True)
class Leaves(Event):
    """Players leave the game at the same time (they lose, concede, or the game is a draw for them)."""

    NAME = "leaves"
    SCALAR = "players"
    KINDS: ClassVar[dict[str, str]] = {"players": "players", "how": "str"}
    REQUIRED = ("players",)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"how": ("lost", "conceded", "drew")}
    players: tuple[str, ...]
    how: str = "lost"


@dataclass(frozen=True, kw_only=True)
class Concedes(Event):
    """Players concede (104.3a): they leave the game and lose."""

    NAME = "concedes"
    SCALAR = "players"
    KINDS: ClassVar[dict[str, str]] = {"players": "players"}
    REQUIRED = ("players",)
    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class BecomeMonarch(Event):
    """An effect makes a player the monarch."""

    NAME = "become-monarch"
    SCALAR = "player"
    KINDS: ClassVar[dict[str, str]] = {"player": "player"}
    REQUIRED = ("player",)
    player: str


@dataclass(frozen=True, kw_only=True)
class TakeInitiative(Event):
    """An effect makes a player take the initiative."""

    NAME = "take-initiative"
    SCALAR = "player"
    KINDS: ClassVar[dict[str, str]] = {"player": "player"}
    REQUIRED = ("player",)
    player: str


@dataclass(frozen=True)
class Hit:
    """One creature controlled by ``source`` dealing ``amount`` damage to the player ``to``."""

    source: str
    to: str
    amount: int = 1


@dataclass(frozen=True, kw_only=True)
class CombatDamage(Event):
    """Combat damage to players; a list of hits is dealt at the same time (one creature per hit)."""

    NAME = "combat-damage"
    hits: tuple[Hit, ...]

    def players_named(self) -> tuple[str, ...]:
        return tuple(n for h in self.hits for n in (h.source, h.to))


@dataclass(frozen=True, kw_only=True)
class Damage(Event):
    """Noncombat damage to a player (a spell or ability): life is lost, nothing is stolen."""

    NAME = "damage"
    KINDS: ClassVar[dict[str, str]] = {"to": "player", "amount": "int", "from": "player"}
    REQUIRED = ("to", "amount")
    to: str
    amount: int
    source: str | None = None


@dataclass(frozen=True, kw_only=True)
class LoseLife(Event):
    NAME = "lose-life"
    KINDS: ClassVar[dict[str, str]] = {"player": "player", "amount": "int"}
    REQUIRED = ("player", "amount")
    player: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class GainLife(Event):
    NAME = "gain-life"
    KINDS: ClassVar[dict[str, str]] = {"player": "player", "amount": "int"}
    REQUIRED = ("player", "amount")
    player: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class Draw(Event):
    """A player draws cards because an effect says so."""

    NAME = "draw"
    SCALAR = "player"
    KINDS: ClassVar[dict[str, str]] = {"player": "player", "count": "int"}
    REQUIRED = ("player",)
    player: str
    count: int = 1


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
class Resolve(Event):
    """Resolve the stack (all of it, or the top ``count`` objects)."""

    NAME = "resolve"
    SCALAR = "count"
    KINDS: ClassVar[dict[str, str]] = {"count": "int"}
    count: int | None = None


@dataclass(frozen=True, kw_only=True)
class GainControl(Event):
    """A control-changing effect gives a player control of a permanent."""

    NAME = "gain-control"
    KINDS: ClassVar[dict[str, str]] = {"permanent": "permanent", "player": "player"}
    REQUIRED = ("permanent", "player")
    permanent: str
    player: str


@dataclass(frozen=True, kw_only=True)
class ControlEnds(Event):
    """Control-changing effects giving ``player`` (default: all of them) control of a permanent end."""

    NAME = "control-ends"
    SCALAR = "permanent"
    KINDS: ClassVar[dict[str, str]] = {"permanent": "permanent", "player": "player"}
    REQUIRED = ("permanent",)
    permanent: str
    player: str | None = None


@dataclass(frozen=True, kw_only=True)
class Wins(Event):
    """An effect states that a player wins the game (104.2b; 801.14 with limited range of influence)."""

    NAME = "wins"
    SCALAR = "player"
    KINDS: ClassVar[dict[str, str]] = {"player": "player"}
    REQUIRED = ("player",)
    player: str


@dataclass(frozen=True, kw_only=True)
class GameDraw(Event):
    """An effect a player controls states that the game is a draw (104.4c; 801.15 with limited range)."""

    NAME = "game-draw"
    SCALAR = "player"
    KINDS: ClassVar[dict[str, str]] = {"player": "player"}
    REQUIRED = ("player",)
    player: str


@dataclass(frozen=True, kw_only=True)
class Unveil(Event):
    """Treachery: a player turns their face-down identity card face up (702.187c)."""

    NAME = "unveil"
    SCALAR = "player"
    KINDS: ClassVar[dict[str, str]] = {"player": "player"}
    REQUIRED = ("player",)
    player: str


@dataclass(frozen=True, kw_only=True)
class Deploy(Event):
    """Deploy creatures option (804.2): tap a creature, a teammate gains control of it."""

    NAME = "deploy"
    KINDS: ClassVar[dict[str, str]] = {"permanent": "permanent", "to": "player"}
    REQUIRED = ("permanent", "to")
    permanent: str
    to: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.NAME: cls
    for cls in (
        Leaves,
        Concedes,
        BecomeMonarch,
        TakeInitiative,
        CombatDamage,
        Damage,
        LoseLife,
        GainLife,
        Draw,
        Upkeep,
        EndStep,
        NextTurn,
        Resolve,
        GainControl,
        ControlEnds,
        Wins,
        GameDraw,
        Unveil,
        Deploy,
    )
}


def register_event(cls: type[Event]) -> type[Event]:
    """Add an event type (variants may define their own); returns the class so it works as a decorator."""
    EVENT_TYPES[cls.NAME] = cls
    return cls


def _value(key: str, kind: str, raw: Any) -> Any:
    if kind in ("player", "permanent", "str"):
        if not isinstance(raw, str) or not raw:
            raise EventArgError(key, f"expected a {'name' if kind != 'str' else 'word'}, got {raw!r}")
        return raw
    if kind == "players":
        items = [raw] if isinstance(raw, str) else raw
        if not isinstance(items, list) or not items or not all(isinstance(x, str) and x for x in items):
            raise EventArgError(key, f"expected a player or a list of players, got {raw!r}")
        if len(set(items)) != len(items):
            raise EventArgError(key, "a player is named twice")
        return tuple(items)
    if kind == "int":
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise EventArgError(key, f"expected a whole number of 0 or more, got {raw!r}")
        return raw
    raise EventArgError(key, f"unsupported argument kind {kind}")  # pragma: no cover


def _parse_hit(raw: Any, where: str) -> tuple[Hit, bool]:
    if not isinstance(raw, dict):
        raise EventArgError(where, "expected {from: PLAYER, to: PLAYER, amount: N}")
    unknown = set(raw) - {"from", "to", "amount", "hold"}
    if unknown:
        key = sorted(map(str, unknown))[0]
        raise EventArgError(
            f"{where}.{key}" if where else key, "unknown key (expected from, to, amount, hold)"
        )
    for key in ("from", "to"):
        if key not in raw:
            raise EventArgError(where or key, f"missing '{key}'")
    hold = raw.get("hold", False)
    if not isinstance(hold, bool):
        raise EventArgError(f"{where}.hold" if where else "hold", "expected true or false")
    prefix = f"{where}." if where else ""
    amount = _value(f"{prefix}amount", "int", raw.get("amount", 1))
    return Hit(
        _value(f"{prefix}from", "player", raw["from"]), _value(f"{prefix}to", "player", raw["to"]), amount
    ), hold


def parse_event(name: str, arg: Any = None) -> Event:
    """Build an event from its name and argument as written in a scenario file."""
    cls = EVENT_TYPES.get(name)
    if cls is None:
        raise EventArgError("", f"unknown event '{name}' (known: {', '.join(sorted(EVENT_TYPES))})")
    if cls is CombatDamage:
        if isinstance(arg, list):
            if not arg:
                raise EventArgError("", "expected at least one hit")
            parsed = [_parse_hit(item, f"[{i}]") for i, item in enumerate(arg)]
            return CombatDamage(hits=tuple(h for h, _ in parsed), hold=any(h for _, h in parsed))
        hit, hold = _parse_hit(arg, "")
        return CombatDamage(hits=(hit,), hold=hold)
    values: dict[str, Any] = {}
    if arg is None:
        pass
    elif isinstance(arg, dict):
        for key, raw in arg.items():
            if key == "hold":
                if not isinstance(raw, bool):
                    raise EventArgError("hold", "expected true or false")
                values["hold"] = raw
            elif key in cls.KINDS:
                values[_attr(key)] = _value(key, cls.KINDS[key], raw)
            else:
                known = ", ".join([*cls.KINDS, "hold"])
                raise EventArgError(str(key), f"unknown key for '{name}' (expected {known})")
    elif cls.SCALAR is not None:
        values[_attr(cls.SCALAR)] = _value(cls.SCALAR, cls.KINDS[cls.SCALAR], arg)
    else:
        raise EventArgError("", f"'{name}' takes no argument but {{hold: true}}")
    for key in cls.REQUIRED:
        if _attr(key) not in values:
            raise EventArgError(key, f"'{name}' needs '{key}'")
    for key, choices in cls.CHOICES.items():
        if _attr(key) in values and values[_attr(key)] not in choices:
            raise EventArgError(key, f"expected one of {', '.join(choices)}")
    return cls(**values)


def event_to_yaml(event: Event) -> Any:
    """The event as written in a scenario file (the shortest form that reads back the same)."""
    name = event.NAME
    if isinstance(event, CombatDamage):
        hits = [{"from": h.source, "to": h.to, "amount": h.amount} for h in event.hits]
        if event.hold:
            hits[0]["hold"] = True
        return {name: hits[0] if len(hits) == 1 else hits}
    arg: dict[str, Any] = {}
    for f in fields(event):
        if f.name == "hold":
            continue
        key = next((k for k in event.KINDS if _attr(k) == f.name), f.name)
        value = getattr(event, f.name)
        if value is None or value == f.default:
            continue
        arg[key] = list(value) if isinstance(value, tuple) else value
    if event.hold:
        arg["hold"] = True
    if not arg:
        return name
    if event.SCALAR is not None and set(arg) == {event.SCALAR}:
        value = arg[event.SCALAR]
        return {name: value[0] if isinstance(value, list) and len(value) == 1 else value}
    return {name: arg}
