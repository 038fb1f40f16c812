"""Events: what happens at the table, as small frozen dataclasses.

Each event has a name in the scenario format (``leaves``, ``combat-damage``, ...) and is read from its
argument as written in a file: a bare value (``leaves: Ann``) fills the event's ``SCALAR`` key, a mapping
names its keys. Every event takes ``hold: true``, which leaves the triggers it causes waiting on the stack.

>>> parse_event("leaves", "Ann")
Leaves(hold=False, players=('Ann',), how='lost')
>>> parse_event("combat-damage", {"from": "Cat", "to": "Ben", "amount": 2}).hits
(Hit(to='Ben', amount=2, by='Cat', creature=None),)
>>> parse_event("attack", {"attacker": "Ann", "creatures": ["Bear"], "defending": "Ben"}).creatures
(('Bear', 'Ben'),)
>>> event_to_yaml(parse_event("end-step", {"hold": True}))
{'end-step': {'hold': True}}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from types import UnionType
from typing import Annotated, Any, ClassVar, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from rulesjudge.scenarios.model.setup import EFFECT_KINDS, RELATIVE, EffectSpec, did_you_mean


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

    def __get__(self, obj: object, owner: type[Event]) -> T:
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


# --- leaving, winning and losing -----------------------------------------------------------------
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


# --- designations ----------------------------------------------------------------------------------
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


# --- damage, life, poison ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    """Combat damage dealt to ``to`` (a player, or a planeswalker or battle): by a creature ``by`` controls
    (the player-level form) or by the creature ``creature`` (its controller read from the table)."""

    to: str
    amount: int | None = 1  # None: the creature's power
    by: str | None = None
    creature: str | None = None


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
    if "creature" in data:
        creature = value_of(_key(where, "creature"), "permanent", data["creature"])
        amount = value_of(_key(where, "amount"), "int", data["amount"]) if "amount" in data else None
        return Hit(to, amount, creature=creature), _hold(data, where)
    amount = value_of(_key(where, "amount"), "int", data.get("amount", 1))
    return Hit(to, amount, by=value_of(_key(where, "from"), "player", data["from"])), _hold(data, where)


def _hit_data(hit: Hit) -> dict[str, Any]:
    if hit.creature is not None:
        data: dict[str, Any] = {"creature": hit.creature, "to": hit.to}
        if hit.amount is not None:
            data["amount"] = hit.amount
        return data
    return {"from": hit.by, "to": hit.to, "amount": hit.amount}


@dataclass(frozen=True, kw_only=True)
class CombatDamage(Event):
    """Combat damage; a list of hits is dealt at the same time (510.2)."""

    NAME = "combat-damage"
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


# --- effects ---------------------------------------------------------------------------------------------
def parse_effect(raw: Any, where: str = "") -> EffectSpec:
    """``{cant-lose: Ann, source: Angel}``, ``{cant-attack: Cat, controller: Ann, until: your-next-turn}``,
    ``{cant-lose: {controller-of: Angel}}`` (Platinum Angel's "You can't lose the game": whoever controls it).

    >>> parse_effect({"cant-win": {"opponents-of": "Persecutor"}})
    EffectSpec(kind='cant-win', players=(), source='Persecutor', controller=None, until=None, only=None, \
relative='opponents-of')
    """
    allowed = (*EFFECT_KINDS, "source", "controller", "until", "only", "hold")
    data = _mapping(raw, where, allowed, "{cant-lose | cant-win | cant-attack: PLAYERS, ...}")
    kinds = [k for k in EFFECT_KINDS if k in data]
    if len(kinds) != 1:
        raise EventArgError(where, f"name exactly one of {', '.join(EFFECT_KINDS)}")
    kind = kinds[0]
    source = value_of(_key(where, "source"), "permanent", data["source"]) if "source" in data else None
    relative = None
    if isinstance(data[kind], dict):  # {controller-of: Platinum Angel}: "you" on that permanent (109.5)
        inner = _mapping(data[kind], _key(where, kind), RELATIVE, "{controller-of | opponents-of: PERMANENT}")
        if len(inner) != 1:
            raise EventArgError(_key(where, kind), f"name one of {', '.join(RELATIVE)}")
        relative, raw_source = next(iter(inner.items()))
        named = value_of(_key(where, f"{kind}.{relative}"), "permanent", raw_source)
        if source is not None and source != named:
            raise EventArgError(_key(where, "source"), f"the effect's source is {named} ({relative})")
        source, players = named, ()
    else:
        players = value_of(_key(where, kind), "players", data[kind])
    controller = (
        value_of(_key(where, "controller"), "player", data["controller"]) if "controller" in data else None
    )
    until = (
        value_of(_key(where, "until"), "word", data["until"], ("your-next-turn",))
        if "until" in data
        else None
    )
    only = value_of(_key(where, "only"), "word", data["only"], ("life",)) if "only" in data else None
    if until is not None and controller is None:
        raise EventArgError(_key(where, "until"), "'until: your-next-turn' needs the effect's 'controller'")
    if relative is not None and (controller is not None or until is not None):
        raise EventArgError(
            _key(where, kind), f"'{relative}' names a static ability's players: no 'controller' or 'until'"
        )
    return EffectSpec(kind, players, source, controller, until, only, relative)


def effect_data(effect: EffectSpec) -> dict[str, Any]:
    if effect.relative is not None:
        data: dict[str, Any] = {effect.kind: {effect.relative: effect.source}}
        return {**data, **({"only": effect.only} if effect.only else {})}
    data = {effect.kind: effect.players[0] if len(effect.players) == 1 else list(effect.players)}
    for key in ("source", "controller", "until", "only"):
        if getattr(effect, key) is not None:
            data[key] = getattr(effect, key)
    return data


@dataclass(frozen=True, kw_only=True)
class AddEffect(Event):
    """A continuous effect begins (``{cant-lose: Ann}``, ``{cant-win: [Ben, Cat], source: Angel}``)."""

    NAME = "add-effect"
    effect: EffectSpec

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        hold = isinstance(arg, dict) and arg.get("hold") is True
        return cls(effect=parse_effect(arg), hold=hold)

    def to_arg(self) -> Any:
        return {**effect_data(self.effect), **({"hold": True} if self.hold else {})}

    def players_named(self) -> tuple[str, ...]:
        return (*self.effect.players, *((self.effect.controller,) if self.effect.controller else ()))

    def permanents_named(self) -> tuple[str, ...]:
        return (self.effect.source,) if self.effect.source else ()


@dataclass(frozen=True, kw_only=True)
class EndEffect(AddEffect):
    """A continuous effect in force ends (named as it was added)."""

    NAME = "end-effect"


# --- turns and priority --------------------------------------------------------------------------------
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


# --- objects and combat -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class GainControl(Event):
    """A control-changing effect gives a player control of a permanent."""

    NAME = "gain-control"
    permanent: Permanent
    player: Player
    #: "end-of-turn": Act of Treason's effect ends as the turn ends (514.2)
    until: Annotated[str, Word("end-of-turn")] | None = None


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


@dataclass(frozen=True, kw_only=True)
class Attack(Event):
    """The active player (the active team, 805.10b) declares attackers (508.1): each creature attacks a
    player, a planeswalker or a battle. ``creatures: [Bear, Wolf], defending: Ben`` or
    ``creatures: {Bear: Ben, Wolf: Jace}``."""

    NAME = "attack"
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


# --- the registry
# --------------------------------------------------------------------------------------------
EVENT_TYPES: dict[str, type[Event]] = {
    cls.NAME: cls
    for cls in (
        Leaves,
        Concedes,
        Loses,
        Wins,
        GameDraw,
        DrawFromEmpty,
        AtOnce,
        BecomeMonarch,
        TakeInitiative,
        CombatDamage,
        Damage,
        LoseLife,
        GainLife,
        Poison,
        SetLife,
        Draw,
        AddEffect,
        EndEffect,
        Upkeep,
        EndStep,
        NextTurn,
        ExtraTurn,
        EndTurn,
        Resolve,
        PassPriority,
        Cast,
        CommanderCast,
        GainControl,
        ControlEnds,
        Deploy,
        Dies,
        Exiled,
        ToHand,
        Attack,
        Block,
        CombatDamageStep,
    )
}


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
