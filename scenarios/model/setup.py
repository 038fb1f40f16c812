"""The table before the first event: a frozen :class:`Setup`, the rules model's only input.

``scenarios/format.py`` makes one from a scenario file and the app from its form; the model never sees YAML.
Plain Python values are accepted and frozen (lists become tuples, dicts read-only mappings), so a setup is
written the way a judge describes a table:

>>> setup = Setup(players=["Ann", "Ben", "Cat"], monarch="Ben", life={"Cat": 3})
>>> setup.seats, setup.life["Cat"]
(('Ann', 'Ben', 'Cat'), 3)
>>> Setup(teams=[["Ann", "Ben"], ["Cat", "Dan"]], variant="two-headed-giant").seats
('Ann', 'Ben', 'Cat', 'Dan')
>>> Setup(players=["Ann", "Ben"], permanents={"Bear": {"owner": "Ben", "power": 2}}).permanents["Bear"].power
2
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal

EMPTY: Mapping[str, Any] = MappingProxyType({})

#: The range option when the setup doesn't state it: the variant's default applies.
DEFAULT = "default"

#: Kinds of permanents (205.2a card types the table cares about); ``commander`` is a flag, not a kind. These
#: three are the one list of each: the file schema (``scenarios/schema.py``) validates against them.
PermanentKind = Literal["creature", "planeswalker", "battle", "artifact", "enchantment", "land"]
Zone = Literal["battlefield", "command", "graveyard", "exile", "hand", "library"]
Keyword = Literal[
    "first-strike", "double-strike", "haste", "infect", "deathtouch", "trample", "lifelink", "vigilance"
]
EFFECT_KINDS = ("cant-lose", "cant-win", "cant-attack")
#: Effects whose players are named by their source: "you" (its controller, 109.5) or "your opponents".
RELATIVE = ("controller-of", "opponents-of")
EFFECT_WORDS = {
    "cant-lose": "can't lose the game",
    "cant-win": "can't win the game",
    "cant-attack": "can't attack",
}


def frozen(items: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> Mapping[str, Any]:
    """A read-only mapping (setups and states never change in place)."""
    return MappingProxyType(dict(items))


def _tuple(value: Any) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _make(cls: type[Any], value: Any) -> Any:
    """``value`` as a ``cls`` (a mapping of its fields, with the format's dashed keys, is accepted)."""
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        names = {f.name for f in fields(cls)}
        return cls(**{k.replace("-", "_"): v for k, v in value.items() if k.replace("-", "_") in names})
    raise TypeError(f"expected {cls.__name__} or a mapping, got {value!r}")


@dataclass(frozen=True)
class PermanentSpec:
    """A permanent: its owner; its controller when another player controls it (through a control-changing
    effect, unless ``control_effect`` is false: it entered under that player's control); what it is."""

    owner: str
    controller: str | None = None
    control_effect: bool = True
    tapped: bool = False
    kind: str = "creature"
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    protector: str | None = None
    keywords: tuple[str, ...] = ()
    toxic: int = 0
    commander: bool = False
    zone: str = "battlefield"
    can_block: int = 1  # attacking creatures it can block (an effect may allow more, 509.1a)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keywords", _tuple(self.keywords))


@dataclass(frozen=True)
class TeamSpec:
    """A team as the setup lists it; ``emperor`` names an Emperor team's emperor (809.2)."""

    members: tuple[str, ...]
    name: str | None = None
    emperor: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "members", _tuple(self.members))


@dataclass(frozen=True)
class IdentitySpec:
    """A Treachery identity card as dealt: role, card name, face (None: the role's default), undercover."""

    role: str
    card: str | None = None
    face: str | None = None
    undercover: bool = False


@dataclass(frozen=True)
class EffectSpec:
    """A continuous effect in force: ``kind`` (cant-lose, cant-win, cant-attack) for ``players``.

    ``source``: a permanent whose static ability it is (it ends when that permanent leaves the battlefield,
    611.3b); ``controller`` and ``until: your-next-turn``: an effect of a resolved spell lasting until its
    controller's next turn (611.2a, 800.4m); ``only: life``: "you don't lose the game for having 0 or less
    life" (only 704.5a and 704.6a stop applying). ``relative``: ``controller-of`` ("you" on the source: its
    current controller, 109.5) or ``opponents-of`` ("your opponents"): the players follow the source's
    controller and ``players`` is empty.
    """

    kind: str
    players: tuple[str, ...]
    source: str | None = None
    controller: str | None = None
    until: str | None = None
    only: str | None = None
    relative: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _tuple(self.players))


@dataclass(frozen=True)
class OptionsSpec:
    """Multiplayer options the setup states (800.2); anything left out is the variant's default.

    ``range``: everyone's range of influence (None: unlimited), or a mapping player -> range.
    """

    range: int | Mapping[str, int | None] | str | None = DEFAULT
    attack: str | None = None
    deploy: bool | None = None

    def __post_init__(self) -> None:
        if isinstance(self.range, Mapping):
            object.__setattr__(self, "range", frozen(self.range))


@dataclass(frozen=True)
class Setup:
    """Everything the model needs to build the table: seats, teams, options, designations, objects."""

    players: tuple[str, ...] = ()
    variant: str = "free-for-all"
    teams: tuple[TeamSpec, ...] = ()
    options: OptionsSpec = field(default_factory=OptionsSpec)
    active: str | None = None
    monarch: str | None = None
    initiative: str | None = None
    life: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    poison: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    library: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # cards in each player's library
    commander_damage: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)
    permanents: Mapping[str, PermanentSpec] = field(default_factory=lambda: EMPTY)
    identities: Mapping[str, IdentitySpec] = field(default_factory=lambda: EMPTY)
    commander: bool = False
    effects: tuple[EffectSpec, ...] = ()
    turn_markers: tuple[str, ...] | None = None
    extra_turns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "players", _tuple(self.players))
        put(
            self,
            "teams",
            tuple(
                TeamSpec(tuple(t)) if isinstance(t, list | tuple) else _make(TeamSpec, t) for t in self.teams
            ),
        )
        put(self, "options", _make(OptionsSpec, self.options))
        put(self, "life", frozen(self.life))
        put(self, "poison", frozen(self.poison))
        put(self, "library", frozen(self.library))
        put(self, "commander_damage", frozen({p: frozen(d) for p, d in self.commander_damage.items()}))
        put(self, "permanents", frozen({n: _make(PermanentSpec, p) for n, p in self.permanents.items()}))
        put(
            self,
            "identities",
            frozen(
                {
                    p: IdentitySpec(i) if isinstance(i, str) else _make(IdentitySpec, i)
                    for p, i in self.identities.items()
                }
            ),
        )
        put(self, "effects", tuple(_make(EffectSpec, e) for e in self.effects))
        if self.turn_markers is not None:
            put(self, "turn_markers", _tuple(self.turn_markers))
        put(self, "extra_turns", _tuple(self.extra_turns))

    @property
    def seats(self) -> tuple[str, ...]:
        """Seats clockwise: ``players``, or the teams' members in order (each team sits together)."""
        if self.players:
            return self.players
        return tuple(p for team in self.teams for p in team.members)

    def team_names(self) -> tuple[str, ...]:
        """Each team's name: its own, or A, B, C, ... in order (as in 809.6a's example)."""
        return tuple(
            team.name or (string.ascii_uppercase[i] if i < 26 else str(i + 1))
            for i, team in enumerate(self.teams)
        )


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """" - did you mean 'leaves'?" for a misspelt name, or nothing.

    >>> did_you_mean("leave", ["leaves", "loses"]), did_you_mean("xyzzy", ["leaves"])
    (" - did you mean 'leaves'?", '')
    """
    names = list(known)
    meant = SYNONYMS.get(word.lower())
    if meant in names:  # a word the rules use for what the format calls otherwise ("type" for kind)
        return f" - did you mean '{meant}'?"
    close = difflib.get_close_matches(word, names, n=1)
    return f" - did you mean '{close[0]}'?" if close else ""


SYNONYMS = {"type": "kind", "types": "kind", "card-type": "kind", "card type": "kind", "defence": "defense"}
