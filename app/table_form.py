"""The checker's table form: what its widgets hold (:class:`TableForm`), the ``game:`` mapping of the scenario
format it stands for, and how the form changes with the variant (each variant's own facts: teams, identities,
fewest players). Text fields use one simple syntax each, so a judge can type a table quickly; their mistakes
come back as :class:`common.errors.InputError` naming the field and line.

>>> form = TableForm(players="Ann, Ben, Cat", monarch="Ann", life="Ann: 3")
>>> form_to_game(form)
{'variant': 'free-for-all', 'players': ['Ann', 'Ben', 'Cat'], 'monarch': 'Ann', 'life': {'Ann': 3}}
>>> game_to_form(form_to_game(form)).players
'Ann, Ben, Cat'
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import setup_from_data, variant_key
from rulesjudge.scenarios.model import VARIANTS as MODEL_VARIANTS
from rulesjudge.scenarios.model import Setup
from rulesjudge.scenarios.model.emperor import emperors_of
from rulesjudge.scenarios.model.treachery import ROLES

if TYPE_CHECKING:
    from rulesjudge.scenarios.model import Variant

VARIANTS = tuple(MODEL_VARIANTS)
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
    permanents: str = ""  # one "Bear: owner Ben, controller Ann" or "Krenko: owner Ann, commander" per line


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


_PERMANENT_PART = re.compile(r"(owner|controller|kind)\s+(.+)|(power|toughness)\s+(\d{1,3})|(commander)")


def parse_permanents(text: str) -> dict[str, dict[str, Any]]:
    """Permanents, one per line: ``Name: owner X[, controller Y][, commander][, power N][, toughness N]
    [, kind K]`` (a commander on the table: issue 13's commander damage).

    >>> parse_permanents("Bear: owner Ben, controller Ann")
    {'Bear': {'owner': 'Ben', 'controller': 'Ann'}}
    >>> parse_permanents("Krenko: owner Ann, commander, power 3")
    {'Krenko': {'owner': 'Ann', 'commander': True, 'power': 3}}
    """
    permanents: dict[str, dict[str, Any]] = {}
    for number, name, value in _pairs(text, "permanents"):
        entry: dict[str, Any] = {}
        for part in (p.strip() for p in value.split(",") if p.strip()):
            match = _PERMANENT_PART.fullmatch(part)
            if not match:
                raise InputError(FORM, "expected 'owner NAME', 'controller NAME', 'commander', 'power N', "
                                       "'toughness N' or 'kind KIND'", line=number, key="permanents")
            if match[1]:
                entry[match[1]] = match[2].strip()
            elif match[3]:
                entry[match[3]] = int(match[4])
            else:
                entry["commander"] = True
        permanents[name] = entry
    return permanents


#: The longest text each field takes (the widgets show no character counter: it covered long text on phones).
FIELD_LIMITS = {"players": 1000, "teams": 2000, "identities": 2000, "life": 500, "permanents": 2000}


def form_to_game(form: TableForm) -> dict[str, Any]:
    """The ``game:`` mapping of the scenario format for the table on screen."""
    for key, limit in FIELD_LIMITS.items():
        if len(str(getattr(form, key) or "")) > limit:  # a field by its name (FIELD_LIMITS' keys)
            raise InputError(FORM, f"longer than {limit} characters", key=key)
    game: dict[str, Any] = {"variant": form.variant}
    rules = variant_of(form.variant)
    teams = parse_teams(form.teams) if rules.needs_teams and form.teams.strip() else []
    if teams:
        game["teams"] = teams
    if not teams or not rules.teams_sit_together:  # one field gives the seats: the teams, or the players
        players = split_names(form.players)
        if not players:
            raise InputError(FORM, "name at least one player (seats clockwise, separated by commas)",
                             key="players")
        game["players"] = players
    if rules.has_identities and form.identities.strip():
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
        value = getattr(form, key)  # a field by its name
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
    active = game.get("active")
    if isinstance(active, list):  # Two-Headed Giant's active team: the form names one head
        active = active[0] if active else None
    form.active = str(active or DEFAULT)
    form.monarch = str(game.get("monarch") or NOBODY)
    form.initiative = str(game.get("initiative") or NOBODY)
    form.life = ", ".join(f"{k}: {v}" for k, v in (game.get("life") or {}).items())
    options = game.get("options") or {}
    form.range = str(options.get("range")) if options.get("range") is not None else "unlimited"
    form.attack = str(options.get("attack") or "multiple")
    form.commander = bool(game.get("commander", False))
    form.permanents = "\n".join(
        f"{name}: " + ", ".join(k if v is True else f"{k} {v}" for k, v in (spec or {}).items()
                                if v is not False)
        for name, spec in (game.get("permanents") or {}).items()
    )
    return form


def variant_of(name: str) -> Variant:
    """The model's variant for a name as a form or file writes it (free-for-all when unknown).

    >>> variant_of("Two-Headed Giant").min_players
    4
    """
    return MODEL_VARIANTS.get(variant_key(name)) or MODEL_VARIANTS["free-for-all"]


#: Names a default table seats when a variant needs more players than the form has.
DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")


def seats_for(variant: str, players: Sequence[str]) -> list[str]:
    """``players`` with unused default names added up to the variant's fewest players.

    >>> seats_for("emperor", ["Ann", "Ben", "Cat", "Zed"])
    ['Ann', 'Ben', 'Cat', 'Zed', 'Dan', 'Eve']
    """
    seats = list(players)
    spare = [name for name in DEFAULT_NAMES if name not in seats]
    while len(seats) < variant_of(variant).min_players and spare:
        seats.append(spare.pop(0))
    return seats


def _accepts(variant: str, teams: str, seats: Sequence[str]) -> bool:
    """Does the variant's setup check accept these teams (typed in the form) for these seats?"""
    game: dict[str, Any] = {"variant": variant, "teams": [], "players": list(seats)}
    try:
        game["teams"] = parse_teams(teams)
        if variant_of(variant).teams_sit_together:
            del game["players"]
        setup_from_data(game, FORM)
    except InputError:
        return False
    return True


def switch_variant(form: TableForm, variant: str) -> TableForm:
    """The form as it becomes when the variant is switched: the seats kept (padded to the variant's fewest
    players), teams and identities the variant's rules accept when the form has none, the teams' seats
    carried to the players field when the new variant has no teams. Every variant's default table is legal.

    >>> form = switch_variant(TableForm(players="Ann, Ben, Cat, Dan"), "emperor")
    >>> print(form.teams)
    Ann, Ben, Cat
    Dan, Eve, Fay
    >>> switch_variant(form, "free-for-all").players
    'Ann, Ben, Cat, Dan, Eve, Fay'
    """
    rules = variant_of(variant)
    old = variant_of(form.variant)
    seats = split_names(form.players)
    if old.needs_teams and old.teams_sit_together and form.teams.strip():
        with contextlib.suppress(InputError):  # a team line being typed: the players field as it was
            seats = seat_order({"teams": parse_teams(form.teams)})
    seats = seats_for(variant, seats)
    teams = form.teams if rules.needs_teams and old.needs_teams and form.teams.strip() else ""
    if teams and not _accepts(rules.name, teams, seats):
        teams = ""  # Team vs. Team's pairs are no Emperor teams: the variant's own default instead
    if rules.needs_teams and not teams:
        teams = "\n".join(", ".join(team) for team in rules.default_teams(seats))
    identities = form.identities if rules.has_identities and form.identities.strip() else ""
    if rules.has_identities and not identities:
        identities = "\n".join(f"{p}: {role}" for p, role in rules.default_identities(seats).items())
    return TableForm(**{**form.__dict__, "variant": rules.name, "players": ", ".join(seats),
                        "teams": teams if rules.needs_teams else "",
                        "identities": identities if rules.has_identities else ""})


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
    if not variant_of(str(game.get("variant") or "")).has_emperors:  # a file may say "Emperor"
        return set()
    try:
        setup = Setup(players=game.get("players") or (), teams=game.get("teams") or ())
        return set(emperors_of(setup).values())
    except (TypeError, ValueError):
        return set()
