"""The scenario file format: YAML, one scenario per file, validated with pydantic, read into the model's
:class:`Setup` (the rules model never sees YAML).

Every error is an :class:`common.errors.InputError` that names the file, the line and the key, so the
command line prints one line and exits 2. See ``docs/scenario-format.md`` for the reference. The app builds
a setup from its table form with :func:`setup_from_data` (the ``game:`` mapping, checked the same way).

Where things live: the schema and the loaded :class:`Scenario` in ``schema.py``; the checks of meaning against
the table in ``checks.py``; writing a scenario back in ``writing.py``; here reading a file: YAML with lines,
pydantic's errors as one line naming file, line and key, and the order of the checks.

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
rulesjudge.common.errors.InputError: <input>:2: game.players[1]: player 'Ann' is seated twice
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import Found, find_files, read_text
from rulesjudge.common.safe_yaml import dotted as _dotted
from rulesjudge.common.safe_yaml import read_yaml
from rulesjudge.corpus.records import RULE_NUMBER
from rulesjudge.scenarios.checks import (
    check_answer,
    check_question,
    check_setup,
    checked_event,
    unknown_player,
)
from rulesjudge.scenarios.limits import MAX_CHARS, check_counts
from rulesjudge.scenarios.model import VARIANTS
from rulesjudge.scenarios.model.events import (
    EVENT_TYPES,
    Event,
)
from rulesjudge.scenarios.model.questions import QUESTIONS
from rulesjudge.scenarios.model.setup import (
    Setup,
    did_you_mean,
)
from rulesjudge.scenarios.names import check_names
from rulesjudge.scenarios.schema import (
    DocumentSchema,
    Expectation,
    Fail,
    GameSchema,
    IdentitySchema,
    OptionsSchema,
    Path_,
    PermanentSchema,
    Scenario,
    TeamSchema,
    variant_key,
)
from rulesjudge.scenarios.writing import dump_scenario, scenario_to_data, setup_to_data

#: Names read from ``scenarios.format`` by the runner, the app and the tests.
__all__ = [
    "DocumentSchema",
    "Expectation",
    "Fail",
    "GameSchema",
    "IdentitySchema",
    "OptionsSchema",
    "Path_",
    "PermanentSchema",
    "Scenario",
    "TeamSchema",
    "check_answer",
    "check_question",
    "check_setup",
    "checked_event",
    "dump_scenario",
    "event_item",
    "find_scenario_files",
    "load_scenario",
    "parse_scenario",
    "read_scenario_yaml",
    "scenario_files",
    "scenario_to_data",
    "setup_from_data",
    "setup_to_data",
    "unknown_player",
    "variant_key",
]


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


def _known_keys(where: Path_ = ()) -> set[str]:
    """The keys the file format has at ``where`` (a key's place), as written in a file (for "did you
    mean": an unknown key under ``game:`` is not offered ``about``); every key when the place is unknown."""
    by_place: dict[tuple[str | type, ...], tuple[type[BaseModel], ...]] = {
        (): (DocumentSchema,), ("game",): (GameSchema,), ("game", "options"): (OptionsSchema,),
        ("game", "permanents", str): (PermanentSchema,), ("game", "teams", int): (TeamSchema,),
        ("game", "identities", str): (IdentitySchema,),
    }
    place = tuple(part if part in ("game", "options", "permanents", "teams", "identities") else type(part)
                  for part in where[:-1])
    schemas = by_place.get(place) or (DocumentSchema, GameSchema, PermanentSchema, OptionsSchema, TeamSchema,
                                      IdentitySchema)
    return {field.alias or name.replace("_", "-") for s in schemas for name, field in s.model_fields.items()}


def _pydantic_error(error: ValidationError, data: Any, fail: Fail) -> InputError:
    first = error.errors()[0]
    where = _data_path(data, tuple(first["loc"]))
    kind = first["type"]
    if kind == "missing":
        message = f"missing required key '{first['loc'][-1]}'"
    elif kind == "extra_forbidden":
        key = str(where[-1] if where else first["loc"][-1])
        message = f"unknown key '{key}'{did_you_mean(key, _known_keys(where))}"
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
        doc = DocumentSchema.model_validate(data)
    except ValidationError as error:
        raise _pydantic_error(error, data, fail) from None
    setup = _checked_setup(doc.game, lambda where, message: fail(("game", *where), message))
    events, event_lines = _parse_events(doc.events, setup, fail, lines)
    expect = _parse_expect(doc.expect, setup, fail, lines)
    if not doc.name.strip():
        raise fail(("name",), "the name is empty")
    for i, number in enumerate(doc.about):
        if not RULE_NUMBER.match(number.strip()):  # that it names a loaded rule: runner.check_about
            raise fail(("about", i), f"'{number}' is not a rule number (like 725.4 or 907.11b)")
    return Scenario(
        name=doc.name,
        game=setup,
        events=tuple(events),
        expect=tuple(expect),
        about=tuple(doc.about),
        why=doc.why,
        path=path,
        event_lines=tuple(event_lines),
        about_lines=tuple(_line(lines, ("about", i)) for i in range(len(doc.about))),
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
