"""The scenario file format: YAML, one scenario per file, validated with pydantic.

Every error is an :class:`corpus.errors.InputError` that names the file, the line and the key, so the
command line prints one line and exits 2. See ``docs/scenario-format.md`` for the reference.

>>> s = parse_scenario('''
... name: The monarch concedes
... game: {players: [Ann, Ben, Cat], monarch: Ben}
... events: [{leaves: Ben}]
... expect: {monarch: Ann}
... ''')
>>> s.name, [str(e.question) for e in s.expect]
('The monarch concedes', ['monarch'])
>>> parse_scenario("name: x\\ngame: {players: [Ann, Ann]}")
Traceback (most recent call last):
rulesjudge.corpus.errors.InputError: <input>:2: game.players: player 'Ann' is seated twice
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.inputs import Found, find_files, read_text
from rulesjudge.corpus.safe_yaml import dotted as _dotted
from rulesjudge.corpus.safe_yaml import read_yaml
from rulesjudge.scenarios.limits import MAX_CHARS, check_counts
from rulesjudge.scenarios.model.events import Event, EventArgError, event_to_yaml, parse_event
from rulesjudge.scenarios.model.questions import QUESTIONS, Question, QuestionError, parse_question
from rulesjudge.scenarios.model.table import Team
from rulesjudge.scenarios.model.variants import VARIANTS
from rulesjudge.scenarios.names import check_names

Path_ = tuple[str | int, ...]
ROLES = ("leader", "guardian", "assassin", "traitor")


# --- the schema ------------------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class PermanentSpec(_Strict):
    """A permanent: its owner, and its controller when another player controls it.

    By default a controller other than the owner got control by a control-changing effect (Mind
    Control, Act of Treason, deploy); ``control-effect: false`` means it entered under that player's
    control (Bribery), so it is exiled rather than returned if that player leaves (800.4a).
    """

    owner: str
    controller: str | None = None
    tapped: bool = False
    control_effect: bool = Field(default=True, alias="control-effect")


class OptionsSpec(_Strict):
    range: int | dict[str, int | None] | None = None
    attack: Literal["multiple", "left", "right", "adjacent"] | None = None
    deploy: bool | None = None


class TeamSpec(_Strict):
    members: list[str]
    emperor: str | None = None
    name: str | None = None


class IdentitySpec(_Strict):
    role: str
    card: str | None = None
    face: Literal["up", "down"] | None = None
    undercover: bool = False  # an Undercover restriction not met yet (702.187f)


class GameSetup(_Strict):
    """The table before the first event (the ``game:`` block)."""

    variant: str = "free-for-all"
    players: list[str] | None = None
    teams: list[list[str] | TeamSpec] | None = None
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    active: str | None = None
    monarch: str | None = None
    initiative: str | None = None
    life: dict[str, int] = Field(default_factory=dict)
    permanents: dict[str, PermanentSpec] = Field(default_factory=dict)
    identities: dict[str, str | IdentitySpec] = Field(default_factory=dict)
    commander: bool = False

    def seat_list(self) -> list[str]:
        """Seats clockwise: ``players``, or the teams' members in order."""
        if self.players:
            return list(self.players)
        return [p for team in self.team_list() for p in team.members]

    def team_list(self) -> list[Team]:
        """The teams as model objects; teams without a name are A, B, C, ... (as in 809.6a's example)."""
        teams = []
        for i, spec in enumerate(self.teams or []):
            default = string.ascii_uppercase[i] if i < 26 else str(i + 1)
            if isinstance(spec, list):
                members = tuple(spec)
                leader = (
                    members[len(members) // 2] if self.variant == "emperor" and len(members) % 2 else None
                )
                teams.append(Team(default, members, leader))
            else:
                teams.append(Team(spec.name or default, tuple(spec.members), spec.emperor))
        return teams

    def identity(self, player: str) -> IdentitySpec | None:
        raw = self.identities.get(player)
        if raw is None:
            return None
        return IdentitySpec(role=raw) if isinstance(raw, str) else raw


class _Document(_Strict):
    name: str
    about: list[str] = Field(default_factory=list)
    why: str = ""
    game: GameSetup
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
    game: GameSetup
    events: tuple[Event, ...] = ()
    expect: tuple[Expectation, ...] = ()
    about: tuple[str, ...] = ()
    why: str = ""
    path: str = "<input>"
    event_lines: tuple[int | None, ...] = field(default=())


# --- YAML with line numbers: corpus/safe_yaml.py ----------------------------------------------------
def read_scenario_yaml(text: str, path: str = "<input>") -> tuple[Any, dict[Path_, int]]:
    """A scenario document's data and the line of each value, bounded by the limits of a scenario."""
    data, lines = read_yaml(text, path, max_chars=MAX_CHARS, raw_text=frozenset({"about"}))
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
            where.append(part)  # a missing or unknown key
            break
    return tuple(where)


def _pydantic_error(error: ValidationError, data: Any, path: str, lines: dict[Path_, int]) -> InputError:
    first = error.errors()[0]
    where = _data_path(data, tuple(first["loc"]))
    kind = first["type"]
    if kind == "missing":
        message = f"missing required key '{first['loc'][-1]}'"
    elif kind == "extra_forbidden":
        message = f"unknown key '{where[-1] if where else first['loc'][-1]}'"
    else:
        message = f"{first['msg'].rstrip('.').lower()} (got {first.get('input')!r})"
        if len(message) > 160:
            message = message[:157] + "..."
    return _fail(path, lines, where, message)


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
    try:
        doc = _Document.model_validate(data)
    except ValidationError as error:
        raise _pydantic_error(error, data, path, lines) from None
    players = check_setup(doc.game, path, lines)
    events, event_lines = _parse_events(doc.events, data, path, lines, doc.game, players)
    expect = _parse_expect(doc.expect, path, lines, doc.game, players)
    if not doc.name.strip():
        raise _fail(path, lines, ("name",), "the name is empty")
    return Scenario(
        name=doc.name,
        game=doc.game,
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


def check_setup(game: GameSetup, path: str = "<input>", lines: dict[Path_, int] | None = None) -> list[str]:
    """Check a setup's names and the variant's own rules; returns the seats clockwise."""
    lines = lines or {}
    base: Path_ = ("game",)

    def fail(where: Path_, message: str) -> InputError:
        return _fail(path, lines, (*base, *where), message)

    if game.variant not in VARIANTS:
        raise fail(("variant",), f"unknown variant '{game.variant}' (known: {', '.join(sorted(VARIANTS))})")
    if not game.players and not game.teams:
        raise fail(("players",), "name the players (seats clockwise) or the teams")
    for key, names in (("players", game.players or []),):
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise fail((key,), f"player '{name}' is seated twice")
            seen.add(name)
    team_members: list[str] = []
    for i, spec in enumerate(game.teams or []):
        members = spec if isinstance(spec, list) else spec.members
        if not members:
            raise fail(("teams", i), "a team needs at least one player")
        for name in members:
            if name in team_members:
                raise fail(("teams", i), f"player '{name}' is on two teams (or named twice)")
            team_members.append(name)
        if not isinstance(spec, list) and spec.emperor is not None and spec.emperor not in spec.members:
            raise fail(
                ("teams", i, "emperor"), f"the emperor '{spec.emperor}' is not among the team's members"
            )
    players = game.seat_list()
    check_names(players, game, fail)
    if game.players and game.teams and sorted(team_members) != sorted(players):
        extra = sorted(set(team_members) ^ set(players))
        raise fail(("teams",), f"the teams and the players don't match ({', '.join(extra)})")
    if len(players) < 2:
        raise fail(("players",), "a game needs at least two players")
    known = set(players)
    for key in ("active", "monarch", "initiative"):
        value = getattr(game, key)
        if value is not None and value not in known:
            raise fail((key,), f"unknown player '{value}' (players: {', '.join(players)})")
    for who in game.life:
        if who not in known:
            raise fail(("life", who), f"unknown player '{who}'")
    for name, perm in game.permanents.items():
        for key in ("owner", "controller"):
            value = getattr(perm, key)
            if value is not None and value not in known:
                raise fail(("permanents", name, key), f"unknown player '{value}'")
    for who in game.identities:
        if who not in known:
            raise fail(("identities", who), f"unknown player '{who}'")
        ident = game.identity(who)
        if ident is not None and ident.role not in ROLES:
            where: Path_ = (
                ("identities", who) if isinstance(game.identities[who], str) else ("identities", who, "role")
            )
            raise fail(where, f"unknown role '{ident.role}' (roles: {', '.join(ROLES)})")
    ranges = game.options.range
    if isinstance(ranges, dict):
        for who, value in ranges.items():
            if who not in known:
                raise fail(("options", "range", who), f"unknown player '{who}'")
            if value is not None and value < 0:
                raise fail(("options", "range", who), "a range of influence is 0 or more")
    elif ranges is not None and ranges < 0:
        raise fail(("options", "range"), "a range of influence is 0 or more")
    for problem in VARIANTS[game.variant].validate_setup(game):
        raise fail(problem.path, problem.message)
    return players


def _parse_events(
    raw_events: list[Any],
    data: dict[str, Any],
    path: str,
    lines: dict[Path_, int],
    game: GameSetup,
    players: list[str],
) -> tuple[list[Event], list[int | None]]:
    events: list[Event] = []
    event_lines: list[int | None] = []
    for i, item in enumerate(raw_events):
        where: Path_ = ("events", i)
        if isinstance(item, str):
            name, arg = item, None
        elif isinstance(item, dict) and len(item) == 1:
            name, arg = next(iter(item.items()))
        else:
            raise _fail(path, lines, where, "an event is `name` or `name: argument` (one per list item)")
        try:
            event = parse_event(name, arg)
        except EventArgError as error:
            sub: Path_ = (*where, name)
            if error.key:
                sub = (*sub, *_key_parts(error.key))
            raise _fail(path, lines, sub, error.message) from None
        for who in event.players_named():
            if who not in players:
                raise _fail(
                    path, lines, (*where, name), f"unknown player '{who}' (players: {', '.join(players)})"
                )
        for perm in event.permanents_named():
            if perm not in game.permanents:
                raise _fail(
                    path, lines, (*where, name), f"unknown permanent '{perm}' (list it under game.permanents)"
                )
        events.append(event)
        event_lines.append(_line(lines, where))
    return events, event_lines


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


def _check_answer(kind: str, value: Any, players: list[str], fail: Any) -> Any:
    def player(v: Any) -> str:
        if not isinstance(v, str):
            raise fail(f"expected a player's name, got {v!r}")
        if v not in players:
            raise fail(f"unknown player '{v}' (players: {', '.join(players)})")
        return v

    if kind == "player?":
        return None if value is None else player(value)
    if kind in ("players", "order", "sequence"):
        if not isinstance(value, list):
            raise fail(f"expected a list of players, got {value!r}")
        names = [player(v) for v in value]
        if kind != "sequence" and len(set(names)) != len(names):
            raise fail("a player is listed twice")
        return names
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
    if kind == "str?":
        if value is not None and not isinstance(value, str):
            raise fail(f"expected a word or null, got {value!r}")
        return value
    return value


def _parse_expect(
    expect: dict[str, Any], path: str, lines: dict[Path_, int], game: GameSetup, players: list[str]
) -> list[Expectation]:
    result: list[Expectation] = []
    seen: dict[str, str] = {}
    for key, value in expect.items():
        where: Path_ = ("expect", key)

        def fail(message: str, where: Path_ = where) -> InputError:
            return _fail(path, lines, where, message)

        try:
            question = parse_question(key)
        except QuestionError as error:
            raise fail(str(error)) from None
        if str(question) in seen:
            raise fail(f"the question '{question}' is asked twice (also as '{seen[str(question)]}')")
        seen[str(question)] = key
        spec = QUESTIONS[question.name]
        for kind, arg in zip(spec.args, question.args, strict=True):
            if kind == "player" and arg not in players:
                raise fail(f"unknown player '{arg}' (players: {', '.join(players)})")
            if kind == "permanent" and arg not in game.permanents:
                raise fail(f"unknown permanent '{arg}' (list it under game.permanents)")
        expected = _check_answer(spec.kind, value, players, fail)
        result.append(Expectation(question, expected, key, _line(lines, where)))
    return result


# --- writing ------------------------------------------------------------------------------------------
def scenario_to_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the file format's shape."""
    data: dict[str, Any] = {"name": scenario.name}
    if scenario.about:
        data["about"] = list(scenario.about)
    if scenario.why:
        data["why"] = scenario.why
    data["game"] = scenario.game.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    if scenario.game.variant == "free-for-all":
        data["game"].pop("variant", None)
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
