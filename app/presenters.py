"""What the pages show, computed without Streamlit: the table form, answers, the picture, the download.

The table on the checker page is a :class:`TableForm` (what the widgets hold). :func:`form_to_game`
turns it into the ``game:`` mapping of the scenario format (issue 4/5) and :func:`game_to_form` reads a
loaded scenario back into the widgets. Text fields use one simple syntax each, so a judge can type a table
quickly; their mistakes come back as :class:`corpus.errors.InputError` naming the field and line.

>>> form = TableForm(players="Ann, Ben, Cat", monarch="Ann", life="Ann: 3")
>>> form_to_game(form)
{'variant': 'free-for-all', 'players': ['Ann', 'Ben', 'Cat'], 'monarch': 'Ann', 'life': {'Ann': 3}}
>>> game_to_form(form_to_game(form)).players
'Ann, Ben, Cat'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from rulesjudge.app.table_picture import Arrow, Seat, TablePicture
from rulesjudge.corpus.errors import InputError
from rulesjudge.scenarios.model import VARIANTS as MODEL_VARIANTS
from rulesjudge.scenarios.model import Setup
from rulesjudge.scenarios.model.emperor import emperors_of
from rulesjudge.scenarios.model.treachery import ROLES

VARIANTS = tuple(MODEL_VARIANTS)
TEAM_VARIANTS = ("team-vs-team", "emperor", "two-headed-giant", "alternating-teams")
ATTACK_OPTIONS = ("multiple", "left", "right")
NOBODY = "(nobody)"
DEFAULT = "(default)"
FORM = "table"  # the "file" named in errors about the form


@dataclass
class TableForm:
    """The checker's table as its widgets hold it (all text, so it round-trips through the widgets)."""

    variant: str = "free-for-all"
    players: str = ""  # seats clockwise, comma-separated
    teams: str = ""  # one team per line, comma-separated; "*Ben" marks an emperor
    identities: str = ""  # Treachery: one "Name: role[, card][, up|down]" per line
    active: str = DEFAULT
    monarch: str = NOBODY
    initiative: str = NOBODY
    life: str = ""  # "Ann: 3, Ben: 18"
    range: str = "unlimited"  # "unlimited" or a whole number
    attack: str = "multiple"
    commander: bool = False
    permanents: str = ""  # one "Bear: owner Ben, controller Ann" per line


def split_names(text: str) -> list[str]:
    """Names separated by commas.

    >>> split_names(" Ann, Ben ,,Cat ")
    ['Ann', 'Ben', 'Cat']
    """
    return [name.strip() for name in text.split(",") if name.strip()]


def _lines(text: str) -> list[tuple[int, str]]:
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if line.strip()]


def parse_teams(text: str) -> list[Any]:
    """Teams, one per line. An emperor marked ``*`` makes the long form of issue 5.

    >>> parse_teams("Ann, Ben, Cat\\nDan, Eve, Fay")
    [['Ann', 'Ben', 'Cat'], ['Dan', 'Eve', 'Fay']]
    >>> parse_teams("Ann, *Ben, Cat, Dan")
    [{'emperor': 'Ben', 'members': ['Ann', 'Ben', 'Cat', 'Dan']}]
    """
    teams: list[Any] = []
    for number, line in _lines(text):
        names = split_names(line)
        marked = [n for n in names if n.startswith("*")]
        members = [n.lstrip("*").strip() for n in names]
        if any(not m for m in members):
            raise InputError(FORM, "an empty name", line=number, key="teams")
        if len(marked) > 1:
            raise InputError(FORM, "a team has one emperor", line=number, key="teams")
        teams.append({"emperor": marked[0].lstrip("*").strip(), "members": members} if marked else members)
    return teams


def _pairs(text: str, key: str) -> list[tuple[int, str, str]]:
    pairs = []
    for number, line in _lines(text.replace(",", "\n") if key == "life" else text):
        if ":" not in line:
            raise InputError(FORM, f"expected 'Name: value', got {line!r}", line=number, key=key)
        name, value = line.split(":", 1)
        pairs.append((number, name.strip(), value.strip()))
    return pairs


def parse_life(text: str) -> dict[str, int]:
    """Life totals: ``Name: N`` separated by commas.

    >>> parse_life("Ann: 3, Ben: 18")
    {'Ann': 3, 'Ben': 18}
    """
    life: dict[str, int] = {}
    for number, name, value in _pairs(text, "life"):
        if not re.fullmatch(r"-?\d+", value):
            raise InputError(FORM, f"life must be a whole number, got {value!r}", line=number, key="life")
        life[name] = int(value)
    return life


def parse_identities(text: str) -> dict[str, Any]:
    """Treachery identities, one ``Name: role[, card][, up|down]`` per line.

    >>> parse_identities("Cat: leader\\nBen: guardian, The Bodyguard, down")
    {'Cat': 'leader', 'Ben': {'role': 'guardian', 'card': 'The Bodyguard', 'face': 'down'}}
    """
    identities: dict[str, Any] = {}
    for number, name, value in _pairs(text, "identities"):
        parts = [p.strip() for p in value.split(",") if p.strip()]
        if not parts or parts[0].lower() not in ROLES:
            raise InputError(FORM, f"role must be one of {', '.join(ROLES)}", line=number, key="identities")
        role = parts[0].lower()
        card = next((p for p in parts[1:] if p.lower() not in ("up", "down")), None)
        face = next((p.lower() for p in parts[1:] if p.lower() in ("up", "down")), None)
        if card is None and face is None:
            identities[name] = role
        else:
            entry: dict[str, str] = {"role": role}
            if card:
                entry["card"] = card
            if face:
                entry["face"] = face
            identities[name] = entry
    return identities


def parse_permanents(text: str) -> dict[str, dict[str, str]]:
    """Permanents, one ``Name: owner X, controller Y`` per line.

    >>> parse_permanents("Bear: owner Ben, controller Ann")
    {'Bear': {'owner': 'Ben', 'controller': 'Ann'}}
    """
    permanents: dict[str, dict[str, str]] = {}
    for number, name, value in _pairs(text, "permanents"):
        entry: dict[str, str] = {}
        for part in (p.strip() for p in value.split(",") if p.strip()):
            match = re.fullmatch(r"(owner|controller)\s+(.+)", part)
            if not match:
                raise InputError(FORM, "expected 'owner NAME' or 'controller NAME'", line=number,
                                 key="permanents")
            entry[match[1]] = match[2].strip()
        permanents[name] = entry
    return permanents


def form_to_game(form: TableForm) -> dict[str, Any]:
    """The ``game:`` mapping of the scenario format for the table on screen."""
    game: dict[str, Any] = {"variant": form.variant}
    if form.variant in TEAM_VARIANTS and form.teams.strip():
        game["teams"] = parse_teams(form.teams)
    else:
        players = split_names(form.players)
        if not players:
            raise InputError(FORM, "name at least one player (seats clockwise, separated by commas)",
                             key="players")
        game["players"] = players
    if form.variant == "treachery" and form.identities.strip():
        game["identities"] = parse_identities(form.identities)
    options: dict[str, Any] = {}
    if form.range.strip() and form.range.strip() != "unlimited":
        if not form.range.strip().isdigit():
            raise InputError(FORM, "range is a whole number or 'unlimited'", key="options.range")
        options["range"] = int(form.range)
    if form.attack and form.attack != "multiple":
        options["attack"] = form.attack
    if options:
        game["options"] = options
    for key in ("active", "monarch", "initiative"):
        value = getattr(form, key)
        if value and value not in (DEFAULT, NOBODY):
            game[key] = value
    life = parse_life(form.life)
    if life:
        game["life"] = life
    if form.commander:
        game["commander"] = True
    permanents = parse_permanents(form.permanents)
    if permanents:
        game["permanents"] = permanents
    return game


def game_to_form(game: dict[str, Any]) -> TableForm:
    """The widgets' values for a scenario's ``game:`` mapping (a loaded or uploaded scenario)."""
    form = TableForm(variant=str(game.get("variant") or "free-for-all"))
    teams = game.get("teams") or []
    lines = []
    for team in teams:
        if isinstance(team, dict):
            emperor = team.get("emperor")
            lines.append(", ".join(f"*{m}" if m == emperor else str(m) for m in team.get("members", [])))
        else:
            lines.append(", ".join(str(m) for m in team))
    form.teams = "\n".join(lines)
    form.players = ", ".join(str(p) for p in (game.get("players") or seat_order(game)))
    identity_lines = []
    for name, identity in (game.get("identities") or {}).items():
        if isinstance(identity, dict):
            parts = [str(identity.get("role", ""))]
            parts += [str(identity[k]) for k in ("card", "face") if identity.get(k)]
            identity_lines.append(f"{name}: {', '.join(parts)}")
        else:
            identity_lines.append(f"{name}: {identity}")
    form.identities = "\n".join(identity_lines)
    form.active = str(game.get("active") or DEFAULT)
    form.monarch = str(game.get("monarch") or NOBODY)
    form.initiative = str(game.get("initiative") or NOBODY)
    form.life = ", ".join(f"{k}: {v}" for k, v in (game.get("life") or {}).items())
    options = game.get("options") or {}
    form.range = str(options.get("range")) if options.get("range") is not None else "unlimited"
    form.attack = str(options.get("attack") or "multiple")
    form.commander = bool(game.get("commander", False))
    form.permanents = "\n".join(
        f"{name}: " + ", ".join(f"{k} {v}" for k, v in (spec or {}).items())
        for name, spec in (game.get("permanents") or {}).items()
    )
    return form


def split_in_teams(players: Sequence[str], teams: int = 2) -> str:
    """The teams field for players split in equal teams in seat order (a starting point to edit).

    >>> print(split_in_teams(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]))
    Ann, Ben, Cat
    Dan, Eve, Fay
    """
    size = max(1, len(players) // teams)
    chunks = [list(players[i:i + size]) for i in range(0, size * teams, size)]
    return "\n".join(", ".join(chunk) for chunk in chunks if chunk)


def seat_order(game: dict[str, Any]) -> list[str]:
    """Players in seat order: ``players``, else the teams' members in order.

    >>> seat_order({"teams": [["Ann", "Ben"], {"emperor": "Dan", "members": ["Cat", "Dan", "Eve"]}]})
    ['Ann', 'Ben', 'Cat', 'Dan', 'Eve']
    """
    if game.get("players"):
        return [str(p) for p in game["players"]]
    seats: list[str] = []
    for team in game.get("teams") or []:
        members = team.get("members", []) if isinstance(team, dict) else team
        seats.extend(str(m) for m in members)
    return seats


def emperors(game: dict[str, Any]) -> set[str]:
    """The emperors of an Emperor table, by the model's seating rule (809.2), also while the table is
    still being typed on screen (none for teams the model can't read).

    >>> sorted(emperors({"variant": "emperor", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]]}))
    ['Ben', 'Eve']
    """
    if game.get("variant") != "emperor":
        return set()
    try:
        setup = Setup(players=game.get("players") or (), teams=game.get("teams") or ())
        return set(emperors_of(setup).values())
    except (TypeError, ValueError):
        return set()


# --------------------------------------------------------------------------------------------- values


def format_value(value: Any) -> str:
    """An answer in words.

    >>> format_value(None), format_value(True), format_value(["Ben", "Cat"]), format_value([])
    ('nobody / none', 'yes', 'Ben, Cat', 'nobody')
    """
    if value is None:
        return "nobody / none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        return ", ".join(format_value(v) for v in items) if items else "nobody"
    return str(value)


def answer_value(answer: Any) -> Any:
    return answer.get("value") if isinstance(answer, dict) else getattr(answer, "value", None)


def answer_question(answer: Any) -> str:
    if isinstance(answer, dict):
        return str(answer.get("question", ""))
    return str(getattr(answer, "question", "") or getattr(answer, "key", ""))


# -------------------------------------------------------------------------------------------- picture


Evaluate = Callable[[dict[str, Any], Sequence[Any], Sequence[str]], list[Any]]


def identity_labels(game: dict[str, Any]) -> dict[str, str]:
    labels = {}
    for name, identity in (game.get("identities") or {}).items():
        if isinstance(identity, dict):
            role = str(identity.get("role", "")).capitalize()
            labels[str(name)] = f"{role} ({identity['card']})" if identity.get("card") else role
        else:
            labels[str(name)] = str(identity).capitalize()
    return labels


def build_picture(
    game: dict[str, Any],
    events: Sequence[Any],
    evaluate: Evaluate,
    *,
    arrows_for: str | None = None,
    show_range: bool = False,
    show_attacks: bool = False,
    reveal: bool = False,
) -> TablePicture:
    """Ask the model about the table after ``events`` and draw what it says.

    ``arrows_for``: a player whose range and attacks are drawn, or ``"everyone"``.
    """
    seats = seat_order(game)
    questions = ["active", "monarch", "initiative", "in-game", "winners", "losers"]
    is_team_game = bool(game.get("teams")) or game.get("variant") == "treachery"
    if is_team_game:
        questions += [f"team({p})" for p in seats]
    if game.get("variant") == "treachery":
        # What the table knows: a face-up identity, or one revealed as its player left (907.13).
        questions += [f"{'role' if reveal else 'known-role'}({p})" for p in seats]
    questions += [f"life({p})" for p in seats]
    sources = [] if not (show_range or show_attacks) or not arrows_for else (
        seats if arrows_for == "everyone" else [arrows_for])
    for source in sources:
        for target in seats:
            if target == source:
                continue
            if show_attacks:
                questions.append(f"can-attack({source}, {target})")
            if show_range:
                questions.append(f"in-range({source}, {target})")
    values = {answer_question(a): answer_value(a) for a in evaluate(game, events, questions)}
    in_game = set(values.get("in-game") or [])
    winners, losers = set(values.get("winners") or []), set(values.get("losers") or [])
    labels = identity_labels(game)
    hidden: set[str] = set()
    if game.get("variant") == "treachery":
        role_question = "role" if reveal else "known-role"
        for name in seats:
            role = values.get(f"{role_question}({name})")
            if role is None:
                hidden.add(name)
            else:
                labels[name] = str(role).capitalize()
    the_emperors = emperors(game)
    seat_views = []
    for name in seats:
        team = values.get(f"team({name})")
        seat_views.append(
            Seat(
                name=name,
                in_game=name in in_game,
                active=name in _listed(values.get("active")),
                monarch=values.get("monarch") == name,
                initiative=values.get("initiative") == name,
                team=None if team is None else str(team),
                identity=labels.get(name),
                face_down=name in hidden,
                emperor=name in the_emperors,
                life=values.get(f"life({name})"),
                result="won" if name in winners else "lost" if name in losers else None,
            )
        )
    arrows: list[Arrow] = []
    for question, value in values.items():
        match = re.fullmatch(r"(can-attack|in-range)\((.+), (.+)\)", question)
        if match and value is True:
            kind = "attack" if match[1] == "can-attack" else "range"
            arrows.append(Arrow(match[2], match[3], kind))  # type: ignore[arg-type]
    legend = []
    if show_attacks and sources:
        legend.append("solid red arrow: can attack")
    if show_range and sources:
        legend.append("dashed blue arrow: within range of influence")
    active = ", ".join(_listed(values.get("active")))
    caption = f"active player: {active}" if active else "no active player"
    if values.get("monarch"):
        caption += f" · monarch: {values['monarch']}"
    if values.get("initiative"):
        caption += f" · initiative: {values['initiative']}"
    return TablePicture(seats=tuple(seat_views), arrows=tuple(arrows), caption=caption, legend=tuple(legend))


def _listed(value: Any) -> list[str]:
    """An answer that is a player, a list of players (team turns, Grand Melee) or null, as a list."""
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


# ------------------------------------------------------------------------------------------- download


class _Dumper(yaml.SafeDumper):
    pass


def _flow_lists(dumper: yaml.SafeDumper, data: list[Any]) -> Any:
    flow = all(not isinstance(item, (dict, list)) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _flow_lists)


def scenario_yaml(
    game: dict[str, Any],
    events: Sequence[Any],
    expect: dict[str, Any],
    *,
    name: str = "A table from the rulesjudge app",
    why: str = "",
    about: Sequence[str] = (),
) -> str:
    """A scenario file for the table on screen (the format of issue 4, read back by the checker).

    >>> print(scenario_yaml({"players": ["Ann", "Ben"]}, [{"leaves": "Ann"}], {"monarch": None}), end="")
    name: A table from the rulesjudge app
    about: []
    why: ''
    game:
      players: [Ann, Ben]
    events:
    - leaves: Ann
    expect:
      monarch: null
    """
    document = {
        "name": name,
        "about": list(about),
        "why": why,
        "game": game,
        "events": list(events),
        "expect": expect,
    }
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False)


def expect_from_answers(answers: Sequence[Any]) -> dict[str, Any]:
    """Questions and the model's answers, for the downloaded file (the judge checks them)."""
    expect: dict[str, Any] = {}
    for answer in answers:
        value = answer_value(answer)
        if isinstance(value, (tuple, set, frozenset)):
            value = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        expect[answer_question(answer)] = value
    return expect


# -------------------------------------------------------------------------------------- search views


def badge(official: bool) -> str:
    return "official" if official else "fan-made"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def escape_markdown(text: str) -> str:
    """Text safe to put inside Streamlit markdown: every markup character backslash-escaped, so rule text
    and user input render as written (no links, images, HTML or emphasis sneak in).

    >>> escape_markdown("[click](javascript:alert(1)) <b>x</b>")
    '\\\\[click\\\\]\\\\(javascript\\\\:alert\\\\(1\\\\)\\\\) \\\\<b\\\\>x\\\\</b\\\\>'
    """
    return _MD_SPECIAL.sub(r"\\\1", text)


def record_neighbours(corpus: Any, record: Any) -> list[Any]:
    """The other subrules of the record's parent, in order (the neighbourhood shown on demand)."""
    parent = corpus.get(record.parent) if getattr(record, "parent", None) else None
    if parent is None:
        return []
    siblings = [corpus.get(child) for child in getattr(parent, "children", ())]
    return [s for s in siblings if s is not None and s.id != record.id]
