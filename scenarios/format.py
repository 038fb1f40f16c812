"""The scenario file format: YAML, one scenario per file, validated with pydantic, read into the model's
:class:`Setup` (the rules model never sees YAML).

Every error is an :class:`corpus.errors.InputError` that names the file, the line and the key, so the
command line prints one line and exits 2. See ``docs/scenario-format.md`` for the reference. The app builds
a setup from its table form with :func:`setup_from_data` (the ``game:`` mapping, checked the same way).

>>> s = parse_scenario('''
... name: The monarch concedes
... game: {players: [Ann, Ben, Cat], monarch: Ben}
... events: [{leaves: Ben}]
... expect: {monarch: Ann}
... ''')
>>> s.name, s.game.seats, [str(e.question) for e in s.expect]
('The monarch concedes', ('Ann', 'Ben', 'Cat'), ['monarch'])
>>> parse_scenario("name: x\\ngame: {players: [Ann, Ann]}")
Traceback (most recent call last):
rulesjudge.corpus.errors.InputError: <input>:2: game.players: player 'Ann' is seated twice
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.inputs import Found, find_files, read_text
from rulesjudge.corpus.safe_yaml import dotted as _dotted
from rulesjudge.corpus.safe_yaml import read_yaml
from rulesjudge.scenarios.limits import MAX_CHARS, check_counts
from rulesjudge.scenarios.model import VARIANTS
from rulesjudge.scenarios.model.events import (
    EVENT_TYPES,
    Attack,
    CombatDamage,
    Damage,
    Event,
    EventArgError,
    effect_data,
    event_to_yaml,
    parse_effect,
    parse_event,
)
from rulesjudge.scenarios.model.questions import KINDS, QUESTIONS, Question, QuestionError, parse_question
from rulesjudge.scenarios.model.setup import (
    DEFAULT,
    EffectSpec,
    IdentitySpec,
    OptionsSpec,
    PermanentSpec,
    Setup,
    TeamSpec,
    did_you_mean,
)
from rulesjudge.scenarios.model.treachery import ROLES
from rulesjudge.scenarios.names import check_names

Path_ = tuple[str | int, ...]
Fail = Callable[[Path_, str], InputError]


# --- the schema ------------------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class PermanentSchema(_Strict):
    """A permanent: its owner, and its controller when another player controls it (by a control-changing
    effect unless ``control-effect: false``); what it is, for combat and the Commander rules."""

    owner: str
    controller: str | None = None
    tapped: bool = False
    control_effect: bool = Field(default=True, alias="control-effect")
    kind: Literal["creature", "planeswalker", "battle", "artifact", "enchantment", "land"] = "creature"
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = Field(default=None, ge=0)
    defense: int | None = Field(default=None, ge=0)
    protector: str | None = None
    keywords: list[Literal["first-strike", "double-strike", "haste", "infect"]] = Field(default_factory=list)
    toxic: int = Field(default=0, ge=0)
    commander: bool = False
    zone: Literal["battlefield", "command", "graveyard", "exile", "hand", "library"] = "battlefield"

    @field_validator("kind", "zone", mode="before")
    @classmethod
    def _word_as_written(cls, value: object) -> object:
        """"Planeswalker", "Battlefield": a card type or zone as the rules capitalise it."""
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords_as_the_rules_spell_them(cls, value: object) -> object:
        """"first strike", "Double Strike": the rules write keywords with a space (702.7, 702.4)."""
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            return [variant_key(v) if isinstance(v, str) else v for v in value]
        return value


class OptionsSchema(_Strict):
    range: int | dict[str, int | None] | None = None
    attack: Literal["multiple", "left", "right", "adjacent"] | None = None
    deploy: bool | None = None


class TeamSchema(_Strict):
    members: list[str]
    emperor: str | None = None
    name: str | None = None


class IdentitySchema(_Strict):
    role: str
    card: str | None = None
    face: Literal["up", "down"] | None = None
    undercover: bool = False  # an Undercover restriction not met yet (702.187f)

    @field_validator("role", "face", mode="before")
    @classmethod
    def _in_any_case(cls, value: Any) -> Any:
        """As the rules write them: "Assassin" (907.5b), "face Up"."""
        return value.strip().lower() if isinstance(value, str) else value


def variant_key(text: str) -> str:
    """The format's name for a variant written as the rules title it: case, spaces, underscores and
    the full stop of "vs." don't matter ("Two-Headed Giant" -> two-headed-giant, "Team vs. Team" ->
    team-vs-team)."""
    words = re.split(r"[\s_-]+", text.strip().lower().replace(".", " "))
    key = "-".join(w for w in words if w)
    return {"edh": "commander"}.get(key, key)  # glossary: "EDH (Obsolete) An older name for ... Commander"


class GameSchema(_Strict):
    """The table before the first event (the ``game:`` block)."""

    variant: str = "free-for-all"
    players: list[str] | None = None

    @field_validator("variant", mode="after")
    @classmethod
    def _variant_as_the_rules_spell_it(cls, value: str) -> str:
        """Read a variant as the rules title it too: "Two-Headed Giant", "Team vs. Team", "Free for All"."""
        return variant_key(value)
    teams: list[list[str] | TeamSchema] | None = None
    options: OptionsSchema = Field(default_factory=OptionsSchema)
    active: str | list[str] | None = None  # a list: the active team, in Two-Headed Giant
    monarch: str | None = None
    initiative: str | None = None
    life: dict[str, int] = Field(default_factory=dict)
    poison: dict[str, int] = Field(default_factory=dict)
    commander_damage: dict[str, dict[str, int]] = Field(default_factory=dict, alias="commander-damage")
    permanents: dict[str, PermanentSchema] = Field(default_factory=dict)
    identities: dict[str, str | IdentitySchema] = Field(default_factory=dict)
    commander: bool = False
    effects: list[Any] = Field(default_factory=list)
    turn_markers: list[str] | None = Field(default=None, alias="turn-markers")
    extra_turns: list[str] = Field(default_factory=list, alias="extra-turns")

    def _active_player(self, fail: Fail) -> str | None:
        """``active`` as one player. In Two-Headed Giant the active team may be listed, as the ``active``
        question answers it (805.4a: both its players are active players); its first player stands for it."""
        if not isinstance(self.active, list):
            return self.active
        teams = [set(t if isinstance(t, list) else t.members) for t in self.teams or ()]
        if self.variant != "two-headed-giant" or not teams:
            raise fail(("active",), "give one player (a list names the active team in Two-Headed Giant)")
        if not self.active or not any(set(self.active) <= team for team in teams):
            raise fail(("active",), f"[{', '.join(self.active)}] are not the players of one team (805.4a)")
        return self.active[0]

    def to_setup(self, fail: Fail) -> Setup:
        """The model's setup (effects are read here: their errors name ``game.effects[i]``)."""
        effects = []
        for i, raw in enumerate(self.effects):
            try:
                effects.append(parse_effect(raw))
            except EventArgError as error:
                raise fail(("effects", i, *_key_parts(error.key)), error.message) from None
        options = self.options
        given = options.model_fields_set
        return Setup(
            players=tuple(self.players or ()),
            variant=self.variant,
            teams=tuple(
                TeamSpec(tuple(t)) if isinstance(t, list) else TeamSpec(tuple(t.members), t.name, t.emperor)
                for t in self.teams or ()
            ),
            options=OptionsSpec(
                options.range if "range" in given else DEFAULT, options.attack, options.deploy
            ),
            active=self._active_player(fail),
            monarch=self.monarch,
            initiative=self.initiative,
            life=self.life,
            poison=self.poison,
            commander_damage=self.commander_damage,
            permanents={
                n: PermanentSpec(
                    **p.model_dump(exclude={"control_effect", "keywords"}),
                    control_effect=p.control_effect,
                    keywords=tuple(p.keywords),
                )
                for n, p in self.permanents.items()
            },
            identities={
                p: IdentitySpec(i.strip().lower())  # a role as the rules write it: "Leader" (907.4a)
                if isinstance(i, str)
                else IdentitySpec(i.role, i.card, i.face, i.undercover)
                for p, i in self.identities.items()
            },
            commander=self.commander,
            effects=tuple(effects),
            turn_markers=tuple(self.turn_markers) if self.turn_markers is not None else None,
            extra_turns=tuple(self.extra_turns),
        )


class _Document(_Strict):
    name: str
    about: list[str] = Field(default_factory=list)
    why: str = ""
    game: GameSchema
    events: list[str | dict[str, Any]] = Field(default_factory=list)
    expect: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class Expectation:
    question: Question
    expected: Any
    key: str
    line: int | None = None


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: the table, the events in order, and the expected answers."""

    name: str
    game: Setup
    events: tuple[Event, ...] = ()
    expect: tuple[Expectation, ...] = ()
    about: tuple[str, ...] = ()
    why: str = ""
    path: str = "<input>"
    event_lines: tuple[int | None, ...] = field(default=())


# --- YAML with line numbers: corpus/safe_yaml.py ----------------------------------------------------
def read_scenario_yaml(text: str, path: str = "<input>") -> tuple[Any, dict[Path_, int]]:
    """A scenario document's data and the line of each value, bounded by the limits of a scenario."""
    data, lines = read_yaml(text, path, max_chars=MAX_CHARS, raw_text=frozenset({"about", "name", "why"}))
    if data is None:
        raise InputError(path, "the file is empty (expected a scenario: name, game, events, expect)")
    return data, lines


def _line(lines: dict[Path_, int], where: Path_) -> int | None:
    for cut in range(len(where), -1, -1):
        if where[:cut] in lines:
            return lines[where[:cut]]
    return None


def _fail(path: str, lines: dict[Path_, int], where: Path_, message: str) -> InputError:
    return InputError(path, message, line=_line(lines, where), key=_dotted(where) or None)


# --- parsing --------------------------------------------------------------------------------------------
def _data_path(data: Any, loc: tuple[Any, ...]) -> Path_:
    """Keep the parts of a pydantic error location that index into the data (drop union branch names)."""
    where: list[str | int] = []
    node = data
    for part in loc:
        if (isinstance(node, dict) and isinstance(part, str) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        ):
            where.append(part)
            node = node[part]  # type: ignore[index]
        elif isinstance(node, dict) and isinstance(part, str) and part.replace("_", "-") in node:
            where.append(part.replace("_", "-"))
            node = node[part.replace("_", "-")]
        elif isinstance(part, str) and part[:1].islower() and "[" not in part and isinstance(node, dict):
            where.append(part.replace("_", "-"))  # a missing or unknown key
            break
    return tuple(where)


def _known_keys() -> set[str]:
    """Every key the file format has, as written in a file (for "did you mean")."""
    schemas = (_Document, GameSchema, PermanentSchema, OptionsSchema, TeamSchema, IdentitySchema)
    return {field.alias or name.replace("_", "-") for s in schemas for name, field in s.model_fields.items()}


def _pydantic_error(error: ValidationError, data: Any, fail: Fail) -> InputError:
    first = error.errors()[0]
    where = _data_path(data, tuple(first["loc"]))
    kind = first["type"]
    if kind == "missing":
        message = f"missing required key '{first['loc'][-1]}'"
    elif kind == "extra_forbidden":
        key = str(where[-1] if where else first["loc"][-1])
        message = f"unknown key '{key}'{did_you_mean(key, _known_keys())}"
    else:
        message = f"{first['msg'].rstrip('.').lower()} (got {first.get('input')!r})"
        if len(message) > 160:
            message = message[:157] + "..."
    return fail(where, message)


def parse_scenario(text: str, path: str = "<input>") -> Scenario:
    """Parse and check one scenario document; raises :class:`InputError` naming file, line and key."""
    data, lines = read_scenario_yaml(text, path)
    check_counts(data, path, lines)
    if not isinstance(data, dict):
        raise InputError(path, "a scenario is a mapping with name, game, events and expect", line=1)
    for key in ("events", "expect", "about"):
        if key in data and data[key] is None:  # `events:` with nothing after it: none
            data = {k: v for k, v in data.items() if k != key}
    if isinstance(data.get("about"), str):
        data = {**data, "about": [data["about"]]}

    def fail(where: Path_, message: str) -> InputError:
        return _fail(path, lines, where, message)

    try:
        doc = _Document.model_validate(data)
    except ValidationError as error:
        raise _pydantic_error(error, data, fail) from None
    setup = _checked_setup(doc.game, lambda where, message: fail(("game", *where), message))
    events, event_lines = _parse_events(doc.events, setup, fail, lines)
    expect = _parse_expect(doc.expect, setup, fail, lines)
    if not doc.name.strip():
        raise fail(("name",), "the name is empty")
    return Scenario(
        name=doc.name,
        game=setup,
        events=tuple(events),
        expect=tuple(expect),
        about=tuple(doc.about),
        why=doc.why,
        path=path,
        event_lines=tuple(event_lines),
    )


def load_scenario(path: str | Path) -> Scenario:
    """Read and parse a scenario file (a regular UTF-8 file of at most 64 KB)."""
    return parse_scenario(read_text(path, limit=MAX_CHARS, what="scenario file"), str(path))


def setup_from_data(game: dict[str, Any], path: str = "<what-if>") -> Setup:
    """A setup from a ``game:`` mapping (the app's table form), checked as a file's is; errors name the
    key."""

    def fail(where: Path_, message: str) -> InputError:
        return InputError(path, message, key=_dotted(("game", *where)) or None)

    try:
        spec = GameSchema.model_validate(game)
    except ValidationError as error:
        raise _pydantic_error(
            error,
            {"game": game},
            lambda where, message: InputError(path, message, key=_dotted(where) or None),
        ) from None
    return _checked_setup(spec, fail)


def _checked_setup(spec: GameSchema, fail: Fail) -> Setup:
    if spec.variant not in VARIANTS:
        raise fail(("variant",), f"unknown variant '{spec.variant}' (known: {', '.join(sorted(VARIANTS))})")
    if not spec.players and not spec.teams:
        raise fail(("players",), "name the players (seats clockwise) or the teams")
    check_names(
        list(
            spec.players or [p for t in spec.teams or [] for p in (t if isinstance(t, list) else t.members)]
        ),
        spec,
        fail,
    )
    setup = spec.to_setup(fail)
    check_setup(setup, fail)
    return setup


def check_setup(setup: Setup, fail: Fail) -> None:
    """Check a setup's players, names and objects, and the variant's own rules (``fail(where, message)``
    makes the error for a place under ``game``)."""
    seen: set[str] = set()
    for name in setup.players:
        if name in seen:
            raise fail(("players",), f"player '{name}' is seated twice")
        seen.add(name)
    team_members: list[str] = []
    for i, team in enumerate(setup.teams):
        if not team.members:
            raise fail(("teams", i), "a team needs at least one player")
        for name in team.members:
            if name in team_members:
                raise fail(("teams", i), f"player '{name}' is on two teams (or named twice)")
            team_members.append(name)
        if team.emperor is not None and team.emperor not in team.members:
            raise fail(
                ("teams", i, "emperor"), f"the emperor '{team.emperor}' is not among the team's members"
            )
    players = list(setup.seats)
    if setup.players and setup.teams and sorted(team_members) != sorted(players):
        extra = sorted(set(team_members) ^ set(players))
        raise fail(("teams",), f"the teams and the players don't match ({', '.join(extra)})")
    if len(players) < 2:
        raise fail(("players",), "a game needs at least two players")
    variant = VARIANTS[setup.variant]
    if setup.teams and not variant.allows_teams:
        raise fail(("teams",), f"{variant.title} players are not seated in teams")
    known = set(players)

    def player(where: Path_, value: str | None) -> None:
        if value is not None and value not in known:
            raise fail(where, unknown_player(str(value), players))

    for key in ("active", "monarch", "initiative"):
        player((key,), getattr(setup, key))
    for key in ("life", "poison", "commander_damage"):
        for who in getattr(setup, key):
            player((key.replace("_", "-"), who), who)
    for who, count in setup.poison.items():
        if count < 0:
            raise fail(("poison", who), "poison counters are 0 or more")
    commanders = {n for n, p in setup.permanents.items() if p.commander}
    for who, tally in setup.commander_damage.items():
        for name, amount in tally.items():
            if name not in commanders:
                raise fail(
                    ("commander-damage", who, name),
                    f"'{name}' is not a commander on the table (list it under "
                    "game.permanents with commander: true)",
                )
            if amount < 0:
                raise fail(("commander-damage", who, name), "commander damage is 0 or more")
    is_commander_game = setup.commander or variant.always_commander
    for name, perm in setup.permanents.items():
        for key in ("owner", "controller", "protector"):
            player(("permanents", name, key), getattr(perm, key))
        if perm.commander and not is_commander_game:
            raise fail(
                ("permanents", name, "commander"),
                "a commander needs a Commander game (variant: commander, or commander: true)",
            )
        if perm.kind == "battle" and perm.protector is None:
            raise fail(("permanents", name), "a battle needs its protector (310.8)")
        if perm.kind == "battle" and perm.protector == (perm.controller or perm.owner):
            raise fail(
                ("permanents", name, "protector"),
                "every battle is a Siege, protected by an opponent of its controller (310.11, 310.11a)",
            )
        if perm.kind == "planeswalker" and perm.loyalty is None:
            raise fail(("permanents", name), "a planeswalker needs its loyalty (306.5)")
    if setup.identities and not VARIANTS[setup.variant].has_identities:
        raise fail(("identities",), "identity cards are a Treachery variant's (variant: treachery)")
    for who, ident in setup.identities.items():
        player(("identities", who), who)
        if ident.role not in ROLES:
            raise fail(
                ("identities", who),
                f"unknown role '{ident.role}'{did_you_mean(ident.role, ROLES)} (roles: {', '.join(ROLES)})",
            )
    ranges = setup.options.range
    if isinstance(ranges, Mapping):
        for who, value in ranges.items():
            player(("options", "range", who), who)
            if value is not None and value < 0:
                raise fail(("options", "range", who), "a range of influence is 0 or more")
    elif isinstance(ranges, int) and ranges < 0:
        raise fail(("options", "range"), "a range of influence is 0 or more")
    for i, effect in enumerate(setup.effects):
        _check_effect(effect, ("effects", i), player, setup, fail)
    if setup.turn_markers is not None:
        if setup.variant != "grand-melee":
            raise fail(("turn-markers",), "turn markers are a Grand Melee variant's (variant: grand-melee)")
        for who in setup.turn_markers:
            player(("turn-markers",), who)
        if len(set(setup.turn_markers)) != len(setup.turn_markers):
            raise fail(("turn-markers",), "a player holds two turn markers")
    for who in setup.extra_turns:
        player(("extra-turns",), who)
    for problem in variant.validate_setup(setup):
        raise fail(problem.path, problem.message)


def _check_effect(
    effect: EffectSpec, where: Path_, player: Callable[[Path_, str | None], None], setup: Setup, fail: Fail
) -> None:
    for who in effect.players:
        player((*where, effect.kind), who)
    player((*where, "controller"), effect.controller)
    if effect.source is not None and effect.source not in setup.permanents:
        raise fail((*where, "source"), f"unknown permanent '{effect.source}' (list it under game.permanents)")


def _parse_events(
    raw_events: list[Any], setup: Setup, fail: Fail, lines: dict[Path_, int]
) -> tuple[list[Event], list[int | None]]:
    events: list[Event] = []
    event_lines: list[int | None] = []
    for i, item in enumerate(raw_events):
        where: Path_ = ("events", i)
        name, arg = event_item(item, where, fail)

        def here(sub: Path_, message: str, where: Path_ = where, name: str = name) -> InputError:
            return fail((*where, name, *sub), message)

        events.append(checked_event(name, arg, setup, here))
        event_lines.append(_line(lines, where))
    return events, event_lines


def event_item(item: Any, where: Path_, fail: Fail) -> tuple[str, Any]:
    """An ``events:`` item split into its name and argument - the one reading of files and of the app's
    what-if path: ``name``, ``{name: argument}``, or ``{name: argument, hold: true}``."""
    if isinstance(item, str):
        return item, None
    if isinstance(item, dict) and len(item) == 1:
        name, arg = next(iter(item.items()))
        return str(name), arg
    if isinstance(item, dict) and len(item) == 2 and "hold" in item:
        return _with_sibling_hold(item, where, fail)
    raise fail(where, "an event is `name` or `name: argument` (one per list item)")


def _with_sibling_hold(item: dict[str, Any], where: Path_, fail: Fail) -> tuple[str, Any]:
    """An event with ``hold: true`` written beside its name rather than inside its argument, as an author new
    to the format may: ``{leaves: Ann, hold: true}`` reads as ``leaves: {players: Ann, hold: true}``."""
    name = str(next(k for k in item if k != "hold"))
    arg, hold = item[name], item["hold"]
    if arg is None:
        return name, {"hold": hold}
    if isinstance(arg, dict):
        return name, {**arg, "hold": hold}
    scalar = getattr(EVENT_TYPES.get(name), "SCALAR", None)
    if scalar is None:
        raise fail((*where, "hold"), f"put hold inside the argument: {name}: {{..., hold: true}}")
    return name, {scalar: arg, "hold": hold}


def checked_event(name: str, arg: Any, setup: Setup, fail: Fail) -> Event:
    """One event read from a file (or the app), its players and permanents checked against the table."""
    try:
        event = parse_event(name, arg)
    except EventArgError as error:
        raise fail(_key_parts(error.key), error.message) from None
    _check_variant_event(event, name, setup, fail)
    players = list(setup.seats)
    for who in event.players_named():
        if who not in players:
            raise fail((), unknown_player(who, players))
    for perm in event.permanents_named():
        if perm not in setup.permanents:
            raise fail((), f"unknown permanent '{perm}' (list it under game.permanents)")
    if isinstance(event, Attack):
        for target in event.targets():
            if target not in players and target not in setup.permanents:
                raise fail(("creatures",), f"'{target}' is neither a player nor a permanent on the table")
    if isinstance(event, Damage):
        hit = setup.permanents.get(event.to)
        if event.to not in players and hit is None:
            raise fail(("to",), f"'{event.to}' is neither a player nor a permanent on the table")
        if hit is not None and hit.kind not in ("planeswalker", "battle"):
            raise fail(
                ("to",),
                f"{event.to} is a {hit.kind}: damage here goes to a player, a planeswalker or a battle "
                "(the model marks no damage on creatures)",
            )
    if isinstance(event, Attack | CombatDamage):
        needing = (
            [c for c, _ in event.creatures]
            if isinstance(event, Attack)
            else [h.creature for h in event.hits if h.creature is not None and h.amount is None]
        )
        for creature in needing:
            if creature is not None and setup.permanents[creature].power is None:
                raise fail(
                    ("creatures",) if isinstance(event, Attack) else (),
                    f"{creature} has no power: give game.permanents.{creature}.power",
                )
    return event


def unknown_player(name: str, players: Sequence[str]) -> str:
    """The message for a name not at the table; names are case-sensitive, so 'ann' points to 'Ann'."""
    same = [p for p in players if p.casefold() == name.casefold()]
    hint = f" - did you mean '{same[0]}'?" if same else did_you_mean(name, players)
    return f"unknown player '{name}'{hint} (players: {', '.join(players)})"


def _check_variant_event(event: Event, name: str, setup: Setup, fail: Fail) -> None:
    """An event only one variant knows (unveil: Treachery's identity cards) is bad input in another game, as
    identity cards outside Treachery are - not an event the model silently does nothing with."""
    owners = [v for v in VARIANTS.values() if type(event) in v.events]
    game = VARIANTS[setup.variant]
    if owners and game not in owners:
        raise fail((), f"'{name}' is an event of {' and '.join(v.title for v in owners)} games; this game is "
                        f"{game.title}")


def _key_parts(key: str) -> Path_:
    parts: list[str | int] = []
    for piece in key.replace("[", ".[").split("."):
        if not piece:
            continue
        if piece.startswith("[") and piece.endswith("]") and piece[1:-1].isdigit():
            parts.append(int(piece[1:-1]))
        else:
            parts.append(piece)
    return tuple(parts)


def check_answer(
    kind: str, value: Any, players: list[str], permanents: list[str], fail: Callable[[str], InputError]
) -> Any:
    """An expected answer of ``kind`` (a key of :data:`scenarios.model.questions.KINDS`), checked."""

    def player(v: Any) -> str:
        if not isinstance(v, str):
            raise fail(f"expected a player's name, got {v!r}")
        if v not in players:
            raise fail(unknown_player(str(v), players))
        return v

    def player_list(v: Any, repeats: bool = False) -> list[str]:
        if not isinstance(v, list):
            raise fail(f"expected a list of players, got {v!r}")
        names = [player(x) for x in v]
        if not repeats and len(set(names)) != len(names):
            raise fail("a player is listed twice")
        return names

    if kind == "player?":
        return None if value is None else player(value)
    if kind in ("players", "order", "sequence"):
        return player_list(value, repeats=kind == "sequence")
    if kind == "one-or-many":
        return player_list(value) if isinstance(value, list) else (None if value is None else player(value))
    if kind == "choice":
        if isinstance(value, dict):
            if set(value) != {"chosen-by", "one-of"}:
                raise fail("a choice is {chosen-by: PLAYER or [PLAYERS], one-of: [PLAYERS]}")
            chooser = value["chosen-by"]
            return {
                "chosen-by": player_list(chooser) if isinstance(chooser, list) else player(chooser),
                "one-of": player_list(value["one-of"]),
            }
        return None if value is None else player(value)
    if kind == "names":
        if not isinstance(value, list) or not all(isinstance(v, str) and v in permanents for v in value):
            raise fail(f"expected a list of permanents on the table, got {value!r}")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise fail(f"expected true or false, got {value!r}")
        return value
    if kind in ("int", "int?"):
        if value is None and kind == "int?":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"expected a whole number{' or null' if kind == 'int?' else ''}, got {value!r}")
        return value
    if kind == "zone" and isinstance(value, dict):
        zones = value.get("one-of")
        if set(value) != {"chosen-by", "one-of"} or not isinstance(zones, list):
            raise fail("a choice is {chosen-by: PLAYER, one-of: [ZONES]}")
        if not all(isinstance(z, str) for z in zones):
            raise fail(f"expected a list of zones, got {zones!r}")
        chooser = value["chosen-by"]
        who = player_list(chooser) if isinstance(chooser, list) else player(chooser)
        return {"chosen-by": who, "one-of": zones}
    if kind in ("str?", "zone"):
        if value is not None and not isinstance(value, str):
            raise fail(f"expected a word or null, got {value!r}")
        return value
    raise fail(f"unknown answer kind {kind} (known: {', '.join(KINDS)})")  # pragma: no cover


def check_question(text: str, setup: Setup, fail: Callable[[str], InputError]) -> Question:
    """A question read from a file or the app, its arguments checked against the table."""
    try:
        asked = parse_question(text)
    except QuestionError as error:
        raise fail(str(error)) from None
    players = set(setup.seats)
    for kind, arg in zip(QUESTIONS[asked.name].args, asked.args, strict=True):
        if kind == "player" and arg not in players:
            raise fail(unknown_player(str(arg), setup.seats))
        if kind == "permanent" and arg not in setup.permanents:
            raise fail(f"unknown permanent '{arg}' (list it under game.permanents)")
        if kind == "name" and arg not in players and arg not in setup.permanents:
            raise fail(f"'{arg}' is neither a player nor a permanent on the table")
    return asked


def _parse_expect(
    expect: dict[str, Any], setup: Setup, fail: Fail, lines: dict[Path_, int]
) -> list[Expectation]:
    result: list[Expectation] = []
    seen: dict[str, str] = {}
    for key, value in expect.items():

        def here(message: str, key: str = key) -> InputError:
            return fail(("expect", key), message)

        asked = check_question(key, setup, here)
        if str(asked) in seen:
            raise here(f"the question '{asked}' is asked twice (also as '{seen[str(asked)]}')")
        seen[str(asked)] = key
        expected = check_answer(
            QUESTIONS[asked.name].kind, value, list(setup.seats), list(setup.permanents), here
        )
        result.append(Expectation(asked, expected, key, _line(lines, ("expect", key))))
    return result


# --- writing ------------------------------------------------------------------------------------------
def setup_to_data(setup: Setup) -> dict[str, Any]:
    """The setup as the ``game:`` mapping of a file (what :func:`setup_from_data` reads back)."""
    data: dict[str, Any] = {}
    if setup.variant != "free-for-all":
        data["variant"] = setup.variant
    if setup.players:
        data["players"] = list(setup.players)
    if setup.teams:
        data["teams"] = [
            list(t.members)
            if t.name is None and t.emperor is None
            else {
                "members": list(t.members),
                **({"name": t.name} if t.name else {}),
                **({"emperor": t.emperor} if t.emperor else {}),
            }
            for t in setup.teams
        ]
    options: dict[str, Any] = {}
    reach = setup.options.range
    if isinstance(reach, Mapping):
        options["range"] = dict(reach)
    elif reach != DEFAULT:
        options["range"] = reach
    for key in ("attack", "deploy"):
        if getattr(setup.options, key) is not None:
            options[key] = getattr(setup.options, key)
    if options:
        data["options"] = options
    for key in ("active", "monarch", "initiative"):
        if getattr(setup, key) is not None:
            data[key] = getattr(setup, key)
    for key in ("life", "poison"):
        if getattr(setup, key):
            data[key] = dict(getattr(setup, key))
    if setup.commander_damage:
        data["commander-damage"] = {p: dict(d) for p, d in setup.commander_damage.items()}
    if setup.permanents:
        data["permanents"] = {name: _permanent_data(p) for name, p in setup.permanents.items()}
    if setup.identities:
        data["identities"] = {
            p: i.role
            if (i.card, i.face, i.undercover) == (None, None, False)
            else {
                k: v
                for k, v in (
                    ("role", i.role),
                    ("card", i.card),
                    ("face", i.face),
                    ("undercover", i.undercover),
                )
                if v not in (None, False)
            }
            for p, i in setup.identities.items()
        }
    if setup.commander:
        data["commander"] = True
    if setup.effects:
        data["effects"] = [effect_data(e) for e in setup.effects]
    if setup.turn_markers is not None:
        data["turn-markers"] = list(setup.turn_markers)
    if setup.extra_turns:
        data["extra-turns"] = list(setup.extra_turns)
    return data


def _permanent_data(perm: PermanentSpec) -> dict[str, Any]:
    defaults = PermanentSpec(owner=perm.owner)
    data: dict[str, Any] = {}
    for key in (
        "owner",
        "controller",
        "control_effect",
        "tapped",
        "kind",
        "power",
        "toughness",
        "loyalty",
        "defense",
        "protector",
        "keywords",
        "toxic",
        "commander",
        "zone",
    ):
        value = getattr(perm, key)
        if key == "owner" or value != getattr(defaults, key):
            data[key.replace("_", "-")] = list(value) if isinstance(value, tuple) else value
    return data


def scenario_to_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the file format's shape."""
    data: dict[str, Any] = {"name": scenario.name}
    if scenario.about:
        data["about"] = list(scenario.about)
    if scenario.why:
        data["why"] = scenario.why
    data["game"] = setup_to_data(scenario.game)
    data["events"] = [event_to_yaml(e) for e in scenario.events]
    data["expect"] = {e.key: e.expected for e in scenario.expect}
    return data


def dump_scenario(scenario: Scenario) -> str:
    """The scenario as a YAML document that :func:`parse_scenario` reads back to the same scenario."""
    return yaml.safe_dump(scenario_to_data(scenario), sort_keys=False, allow_unicode=True, width=100)


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """Every scenario file named or found (``*.yaml``, ``*.yml``) under the given files and folders;
    the first path that can't be read (missing, unreadable, a folder without scenarios) raises."""
    found = find_scenario_files(paths)
    if found.problems:
        raise found.problems[0]
    return found.files


def find_scenario_files(paths: list[str | Path]) -> Found:
    """Scenario files named or found under the given files and folders, and each path that could not
    be read (a missing file, a folder that can't be listed, a folder without scenario files)."""
    return find_files(paths, (".yaml", ".yml"), "scenario files")
