"""The event base: argument kinds, how an argument is read, the :class:`Event` class and the registry.

An event's arguments are its fields; each field's annotation names the kind of value a file gives it
(:data:`Player`, :data:`Players`, :data:`Permanent`, :data:`Target`, :data:`Text`, :data:`Count`,
:data:`Flag`, or a :func:`Word` among choices). The keys, their kinds and the required ones are derived from
the fields (:func:`contract`), so each argument is written once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from types import UnionType
from typing import Annotated, Any, ClassVar, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from rulesjudge.scenarios.model.setup import did_you_mean


class EventArgError(ValueError):
    """A bad event argument; ``key`` is the sub-key it concerns ("" for the argument as a whole)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


# --- argument kinds: an event's field annotation says how its key is read ------------------------------
@dataclass(frozen=True)
class Arg:
    """The kind of an event argument, carried by its field's annotation (``player: Player``); a field whose
    annotation carries none (``hits``, ``effect``) is read by the event's own ``from_arg``."""

    kind: str
    choices: tuple[str, ...] = ()


def Word(*choices: str) -> Arg:  # capitalised: it reads as a type in an annotation
    """A word limited to ``choices`` (``how: Annotated[str, Word("lost", "conceded", "drew")]``)."""
    return Arg("word", choices)


Player = Annotated[str, Arg("player")]
Players = Annotated[tuple[str, ...], Arg("players")]
Permanent = Annotated[str, Arg("permanent")]
Target = Annotated[str, Arg("target")]  # a player or a permanent
Text = Annotated[str, Arg("str")]
Count = Annotated[int, Arg("int")]
Flag = Annotated[bool, Arg("bool")]

#: Field names spelled differently in a file: ``from`` is a Python keyword.
_SPELLED = {"by": "from"}


def _attr(key: str) -> str:
    """The field a key fills: ``command-zone`` -> ``command_zone``, ``from`` -> ``by``."""
    return next((f for f, k in _SPELLED.items() if k == key), key.replace("-", "_"))


def key_of(name: str) -> str:
    """The key a field is written as in a file (the inverse of ``_attr``).

    >>> key_of("command_zone"), key_of("by")
    ('command-zone', 'from')
    """
    return _SPELLED.get(name, name.replace("_", "-"))


def _arg_of(hint: Any) -> Arg | None:
    """The :class:`Arg` an annotation carries (``Player | None`` carries the player's)."""
    if get_origin(hint) in (Union, UnionType):
        inner = [a for a in get_args(hint) if a is not type(None)]
        return _arg_of(inner[0]) if len(inner) == 1 else None
    if get_origin(hint) is Annotated:
        return next((m for m in hint.__metadata__ if isinstance(m, Arg)), None)
    return None


@dataclass(frozen=True)
class Contract:
    """What an event class reads from a file, derived once from its fields: each key's kind in field order,
    the keys without a default (required), and the words a key is limited to."""

    kinds: dict[str, str]
    required: tuple[str, ...]
    choices: dict[str, tuple[str, ...]]


_CONTRACTS: dict[type, Contract] = {}


def contract(cls: type[Event]) -> Contract:
    """The contract of an event class (derived on first use, then kept).

    >>> from rulesjudge.scenarios.model.events import Draw
    >>> contract(Draw)
    Contract(kinds={'player': 'player', 'count': 'int'}, required=('player',), choices={})
    """
    if cls not in _CONTRACTS:
        _CONTRACTS[cls] = _derive(cls)
    return _CONTRACTS[cls]


def _derive(cls: type[Event]) -> Contract:
    hints = get_type_hints(cls, include_extras=True)
    kinds: dict[str, str] = {}
    required: list[str] = []
    choices: dict[str, tuple[str, ...]] = {}
    for f in fields(cls):
        arg = _arg_of(hints[f.name])
        if arg is None or f.name == "hold":
            continue
        key = key_of(f.name)
        kinds[key] = arg.kind
        if arg.choices:
            choices[key] = arg.choices
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(key)
    return Contract(kinds, tuple(required), choices)


T = TypeVar("T")


class _FromFields(Generic[T]):
    """A class attribute read from the class's :func:`contract` (``Leaves.KINDS``), so the app's forms and the
    reader see the same facts the fields declare."""

    def __init__(self, part: Callable[[Contract], T]) -> None:
        self.part = part

    def __get__(self, _instance: object, owner: type[Event]) -> T:
        return self.part(contract(owner))


def _key(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def value_of(key: str, kind: str, raw: Any, choices: tuple[str, ...] = ()) -> Any:
    """One argument value of ``kind`` (player, players, permanent, permanents, target - a player or a
    permanent -, int, bool, word)."""
    if kind in ("player", "permanent", "target", "str", "word"):
        if not isinstance(raw, str) or not raw:
            named = kind in ("player", "permanent", "target")
            raise EventArgError(key, f"expected a {'name' if named else 'word'}, got {raw!r}")
        if choices and raw not in choices:
            written = "-".join(raw.strip().lower().replace("_", " ").split())  # "first strike", "Drew"
            if written not in choices:
                raise EventArgError(key, f"expected one of {', '.join(choices)}")
            return written
        return raw
    if kind in ("players", "permanents"):
        items = [raw] if isinstance(raw, str) else raw
        if not isinstance(items, list) or not items or not all(isinstance(x, str) and x for x in items):
            what = "player" if kind == "players" else "permanent"
            raise EventArgError(key, f"expected a {what} or a list of {what}s, got {raw!r}")
        if len(set(items)) != len(items):
            raise EventArgError(key, "a name is given twice")
        return tuple(items)
    if kind == "int":
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise EventArgError(key, f"expected a whole number of 0 or more, got {raw!r}")
        return raw
    if kind == "bool":
        if not isinstance(raw, bool):
            raise EventArgError(key, "expected true or false")
        return raw
    raise EventArgError(key, f"unsupported argument kind {kind}")  # pragma: no cover


def _mapping(raw: Any, where: str, allowed: tuple[str, ...], shape: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise EventArgError(where, f"expected {shape}")
    unknown = sorted(str(k) for k in raw if k not in allowed)
    if unknown:
        raise EventArgError(_key(where, unknown[0]), f"unknown key (expected {', '.join(allowed)})")
    return raw


def _hold(raw: dict[str, Any], where: str) -> bool:
    return bool(value_of(_key(where, "hold"), "bool", raw["hold"])) if "hold" in raw else False


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of all events. Each argument is a field whose annotation names its kind (:class:`Arg`), written
    once: ``KINDS`` (each key's kind), ``REQUIRED`` (the fields without a default) and ``CHOICES`` (a word's
    values) are derived from the fields. ``SCALAR`` names the key a bare argument fills (``leaves: Ann``)."""

    NAME: ClassVar[str] = ""
    SCALAR: ClassVar[str | None] = None
    STEP: ClassVar[str] = ""  # the step of the turn it brings the table to (``table.STEPS``), if any
    KINDS = _FromFields(lambda c: c.kinds)
    REQUIRED = _FromFields(lambda c: c.required)
    CHOICES = _FromFields(lambda c: c.choices)

    hold: bool = False

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        """The event from its argument as written in a file (raises :class:`EventArgError`)."""
        values: dict[str, Any] = {}
        if arg is None:
            pass
        elif isinstance(arg, dict):
            for written, raw in arg.items():
                key = cls._singular_players(written, arg)
                if key == "hold":
                    values["hold"] = value_of("hold", "bool", raw)
                elif key in cls.KINDS:
                    values[_attr(key)] = value_of(key, cls.KINDS[key], raw, cls.CHOICES.get(key, ()))
                else:
                    singular = ["player"] if "players" in cls.KINDS and "player" not in cls.KINDS else []
                    known = ", ".join([*singular, *cls.KINDS, "hold"])
                    raise EventArgError(str(key), f"unknown key for '{cls.NAME}' (expected {known})")
        elif cls.SCALAR is not None:
            values[_attr(cls.SCALAR)] = value_of(
                cls.SCALAR, cls.KINDS[cls.SCALAR], arg, cls.CHOICES.get(cls.SCALAR, ())
            )
        else:
            raise EventArgError("", f"'{cls.NAME}' takes no argument but {{hold: true}}")
        for key in cls.REQUIRED:
            if _attr(key) not in values:
                raise EventArgError(key, f"'{cls.NAME}' needs '{key}'")
        return cls(**values)

    @classmethod
    def _singular_players(cls, key: Any, arg: dict[str, Any]) -> Any:
        """``player: Ben`` for an event whose key is ``players`` (leaves, concedes, loses, extra-turn, ...):
        the singular an author writes for one player, as ``draw`` and ``become-monarch`` spell it."""
        if key == "player" and "player" not in cls.KINDS and "players" in cls.KINDS:
            if "players" in arg:
                raise EventArgError("player", "write 'players' or 'player', not both")
            return "players"
        return key

    def to_arg(self) -> Any:
        """The argument as written in a file (the shortest form that reads back the same)."""
        arg: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "hold":
                continue
            key = key_of(f.name)
            value = getattr(self, f.name)
            if value is None or value == f.default:
                continue
            arg[key] = list(value) if isinstance(value, tuple) else value
        if self.hold:
            arg["hold"] = True
        if not arg:
            return None
        if self.SCALAR is not None and set(arg) == {self.SCALAR}:
            value = arg[self.SCALAR]
            return value[0] if isinstance(value, list) and len(value) == 1 else value
        return arg

    def players_named(self) -> tuple[str, ...]:
        """Every player name the event mentions (the format checks they are seated)."""
        return self._named("player", "players")

    def permanents_named(self) -> tuple[str, ...]:
        return self._named("permanent", "permanents")

    def _named(self, one: str, many: str) -> tuple[str, ...]:
        names: list[str] = []
        for key, kind in self.KINDS.items():
            value = getattr(self, _attr(key))
            if kind == one and value is not None:
                names.append(value)
            elif kind == many and value:
                names.extend(value)
        return tuple(names)


# --- several events as one ------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class AtOnce(Event):
    """Several events happen at the same time as one event (one effect doing both); state-based actions
    are checked once afterwards, and a player who would win and lose at once loses (104.3f)."""

    NAME = "at-once"
    events: tuple[Event, ...]

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        if not isinstance(arg, list) or len(arg) < 2:
            raise EventArgError("", "expected a list of two or more events")
        events = []
        for i, item in enumerate(arg):
            if isinstance(item, str):
                name, inner = item, None
            elif isinstance(item, dict) and len(item) == 1:
                name, inner = next(iter(item.items()))
            else:
                raise EventArgError(f"[{i}]", "an event is `name` or `name: argument`")
            if name == cls.NAME:
                raise EventArgError(f"[{i}]", "at-once events can't nest")
            try:
                events.append(parse_event(str(name), inner))
            except EventArgError as error:
                raise EventArgError(_key(f"[{i}].{name}", error.key), error.message) from None
        return cls(events=tuple(events), hold=any(e.hold for e in events))

    def to_arg(self) -> Any:
        return [event_to_yaml(e) for e in self.events]

    def players_named(self) -> tuple[str, ...]:
        return tuple(p for e in self.events for p in e.players_named())

    def permanents_named(self) -> tuple[str, ...]:
        return tuple(p for e in self.events for p in e.permanents_named())


# --- the registry: every event by its name in the file format -------------------------------------------
#: Filled by the family modules' classes (``events/__init__.py``) and by variants (``register_events``).
EVENT_TYPES: dict[str, type[Event]] = {}


def register_events(*classes: type[Event]) -> None:
    """Add event types (a variant's own, registered by ``scenarios.model``)."""
    for cls in classes:
        EVENT_TYPES[cls.NAME] = cls


def parse_event(name: str, arg: Any = None) -> Event:
    """Build an event from its name and argument as written in a scenario file."""
    cls = EVENT_TYPES.get(name)
    if cls is None:
        raise EventArgError("", f"unknown event '{name}'{did_you_mean(name, EVENT_TYPES)}"
                                f" (known: {', '.join(sorted(EVENT_TYPES))})")
    return cls.from_arg(arg)


def event_to_yaml(event: Event) -> Any:
    """The event as written in a scenario file (the shortest form that reads back the same)."""
    arg = event.to_arg()
    return event.NAME if arg is None else {event.NAME: arg}
