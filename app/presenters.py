"""What the pages show, computed without Streamlit: answers, the picture, the download, search views, share
links and the ruling text. The table form (:class:`TableForm` and the ``game:`` it stands for) lives in
``app/table_form.py`` and is re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import yaml

from rulesjudge.app import table_form
from rulesjudge.app.table_picture import Arrow, Seat, TablePicture
from rulesjudge.app.whatif.answers import format_value as format_value  # the one formatter, for the pages
from rulesjudge.common.errors import InputError
from rulesjudge.common.safe_yaml import read_yaml
from rulesjudge.corpus.labels import edition_status
from rulesjudge.scenarios.format import parse_scenario
from rulesjudge.scenarios.model.variant import COMMANDER_STARTING_LIFE

if TYPE_CHECKING:
    from rulesjudge.app.table import Table
    from rulesjudge.corpus.records import Corpus, Record
    from rulesjudge.scenarios.runner import AnswerReport

# The table form lives in app/table_form.py; the pages and tests reach it through presenters too.
VARIANTS = table_form.VARIANTS
ATTACK_OPTIONS = table_form.ATTACK_OPTIONS
NOBODY = table_form.NOBODY
DEFAULT = table_form.DEFAULT
FORM = table_form.FORM
TableForm = table_form.TableForm
split_names = table_form.split_names
parse_teams = table_form.parse_teams
parse_life = table_form.parse_life
parse_identities = table_form.parse_identities
parse_permanents = table_form.parse_permanents
FIELD_LIMITS = table_form.FIELD_LIMITS
form_to_game = table_form.form_to_game
game_to_form = table_form.game_to_form
variant_of = table_form.variant_of
DEFAULT_NAMES = table_form.DEFAULT_NAMES
seats_for = table_form.seats_for
switch_variant = table_form.switch_variant
seat_order = table_form.seat_order
emperors = table_form.emperors


# ---------------------------------------------------------------------------------------------- sections


def section_rules(store: Corpus, record_id: str) -> list[Record]:
    """The rules of a section (record ``…/704`` -> 704.1, 704.2, …, in order), or [] for any other record:
    a section reference ("→ 704") opens with its rules rather than its title alone.

    >>> from rulesjudge.corpus.records import Record
    >>> from rulesjudge.corpus.store import corpus_of
    >>> store = corpus_of([Record("cr@x/704", "cr", "x", "section", "State-Based Actions", number="704"),
    ...                 Record("cr@x/704.2", "cr", "x", "rule", "Two.", number="704.2"),
    ...                 Record("cr@x/704.1", "cr", "x", "rule", "One.", number="704.1"),
    ...                 Record("cr@x/704.1a", "cr", "x", "subrule", "One a.", number="704.1a")])
    >>> [r.number for r in section_rules(store, "cr@x/704")]
    ['704.1', '704.2']
    """
    record = store.get(record_id)
    number = record.number if record is not None else None
    if record is None or not number or not re.fullmatch(r"\d{3}", number):
        return []
    found = [r for r in store.records.values()
             if (r.document, r.edition) == (record.document, record.edition)
             and r.number and re.fullmatch(rf"{number}\.\d+", r.number)]
    return sorted(found, key=lambda r: int(str(r.number).split(".")[1]))


# -------------------------------------------------------------------------------------------- picture


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
    table: Table,
    *,
    arrows_for: str | None = None,
    show_range: bool = False,
    show_attacks: bool = False,
    reveal: bool = False,
    cards: dict[str, str] | None = None,
) -> TablePicture:
    """Ask the model about ``table`` (:class:`app.table.Table`, after its events) and draw what it says.

    ``arrows_for``: a player whose range and attacks are drawn, or ``"everyone"``. ``cards``: Treachery
    identity cards by the player who controls them now (named beside every identity the picture shows:
    face up, revealed as its player left, or all of them when the judge reveals them).
    """
    game = dict(table.game)
    seats = seat_order(game)
    questions = ["active", "monarch", "initiative", "in-game", "winners", "losers"]
    has_identities = variant_of(str(game.get("variant") or "")).has_identities
    if game.get("teams") or has_identities:
        questions += [f"team({p})" for p in seats]
    if has_identities:
        # What the table knows: a face-up identity, or one revealed as its player left (907.13).
        questions += [f"{'role' if reveal else 'known-role'}({p})" for p in seats]
    questions += [f"life({p})" for p in seats]
    sources = [] if not (show_range or show_attacks) or not arrows_for else (
        seats if arrows_for == "everyone" else [arrows_for])
    Kind = Literal["attack", "range"]
    wanted: tuple[tuple[Kind, bool], ...] = (("attack", show_attacks), ("range", show_range))
    kinds = [kind for kind, shown in wanted if shown]
    # (question, the arrow drawn when its answer is yes), in the order they are asked
    asked_arrows = [(f"{'can-attack' if kind == 'attack' else 'in-range'}({source}, {target})",
                     Arrow(source, target, kind))
                    for source in sources for target in seats if target != source for kind in kinds]
    questions += [question for question, _arrow in asked_arrows]
    values = table.values(questions)
    in_game = set(values.get("in-game") or [])
    winners, losers = set(values.get("winners") or []), set(values.get("losers") or [])
    labels = identity_labels(game)
    hidden: set[str] = set()
    if has_identities:
        role_question = "role" if reveal else "known-role"
        for name in seats:
            role = values.get(f"{role_question}({name})")
            if role is None:
                hidden.add(name)
            else:
                card = (cards or {}).get(name)
                labels[name] = str(role).capitalize() + (f" ({card})" if card else "")
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
    arrows = [arrow for question, arrow in asked_arrows if values.get(question) is True]
    legend: list[str] = []
    if (show_attacks or show_range) and sources and not arrows:
        legend.append("no arrows: " + ("nobody can attack or reach anyone" if show_attacks and show_range
                                       else "nobody can attack anyone" if show_attacks
                                       else "nobody else is within range"))
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


def event_argument(text: str) -> Any:
    """An event's argument typed as in a scenario file (``{creature: Krenko, to: Ben}``, ``Ann``), read by
    the bounded YAML reader; None when empty. Mistakes are one line (InputError).

    >>> event_argument("{player: Ben, count: 3}"), event_argument("  ")
    ({'player': 'Ben', 'count': 3}, None)
    """
    if not text.strip():
        return None
    value, _lines = read_yaml(text, "event", max_chars=2000)
    return value


def file_name(name: str) -> str:
    """The downloaded file's name, from the scenario's name.

    >>> file_name("The monarch leaves during their own turn!"), file_name("  ")
    ('the-monarch-leaves-during-their-own-turn.yaml', 'table.yaml')
    """
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80].strip("-")
    return f"{slug or 'table'}.yaml"


def expect_from_answers(answers: Sequence[AnswerReport]) -> dict[str, Any]:
    """Questions and the model's answers, for the downloaded file (the judge checks them)."""
    expect: dict[str, Any] = {}
    for answer in answers:
        value = answer.value
        if isinstance(value, (tuple, set, frozenset)):
            value = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        expect[str(answer.question)] = value
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


def record_neighbours(corpus: Corpus, record: Record) -> list[Record]:
    """The other subrules of the record's parent, in order (the neighbourhood shown on demand)."""
    parent = corpus.get(record.parent) if record.parent else None
    if parent is None:
        return []
    siblings = [corpus.get(child) for child in parent.children]
    return [s for s in siblings if s is not None and s.id != record.id]


def record_title(number: str | None, title: str | None) -> str:
    """A rule's heading without repeating its number ("810.7f — 810.7f" was shown before).

    >>> record_title("725.4", "The Monarch"), record_title("810.7f", "810.7f"), record_title(None, "Emperor")
    ('725.4 — The Monarch', '810.7f', 'Emperor')
    """
    number, title = (number or "").strip(), (title or "").strip()
    if not number:
        return title
    if not title or title == number or title.rstrip(".") == number.rstrip("."):
        return number
    return f"{number} — {title}"


def current_edition(corpus: Corpus, document: str) -> str | None:
    """The newest loaded edition of a document (dates sort as text; Treachery has one, 4.0)."""
    editions = corpus.editions(document)
    return max(editions) if editions else None


def edition_badge(corpus: Corpus, record_id: str) -> str:
    """The edition's status beside a rule, as Streamlit markdown (a badge directive, not HTML): "current",
    or for an older edition where the rule lives in the current rules (:func:`corpus.labels.edition_status`).

    >>> from rulesjudge.corpus.records import Record
    >>> from rulesjudge.corpus.store import corpus_of
    >>> old = Record("cr@2024-06-07/722.4", "cr", "2024-06-07", "rule", "The monarch ...", number="722.4")
    >>> now = Record("cr@2026-04-17/725.4", "cr", "2026-04-17", "rule", "The monarch ...", number="725.4")
    >>> rules = corpus_of([old, now], links={old.id: [now.id]})
    >>> edition_badge(rules, now.id)
    ':blue-badge[current]'
    >>> print(edition_badge(rules, old.id))
    :gray-badge[older edition \\(now 725\\.4 in the current rules, 2026\\-04\\-17\\)]
    """
    status = edition_status(corpus, record_id)
    return ":blue-badge[current]" if status == "current" else f":gray-badge[{escape_markdown(status)}]"


# ---------------------------------------------------------------------------------------- a shared ruling

#: Longest URL state accepted (characters of the token); a link is a table, a few events and a question.
SHARE_LIMIT = 8000
#: Longest state once decompressed (bytes): like an upload, far below the 64 KB upload cap.
SHARE_BYTES = 32 * 1024
SHARE_DEPTH = 8


@dataclass(frozen=True)
class SharedRuling:
    """What a shared link reopens: the table, its events and the question asked about it."""

    game: dict[str, Any]
    events: list[Any]
    question: str = ""


def encode_share(game: dict[str, Any], events: Sequence[Any], question: str = "") -> str:
    """The URL state of a ruling: compact JSON, zlib, base64url (``?ruling=``).

    >>> token = encode_share({"players": ["Ann", "Ben"], "monarch": "Ben"}, [{"leaves": "Ben"}], "who's king")
    >>> decode_share(token).events
    [{'leaves': 'Ben'}]
    """
    import base64
    import json
    import zlib

    document = {"game": game, "events": list(events), "ask": question}
    raw = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def _depth(value: Any, limit: int) -> bool:
    if limit < 0:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _depth(v, limit - 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_depth(v, limit - 1) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def decode_share(token: str, *, source: str = "link") -> SharedRuling:
    """The ruling a link carries, validated like an uploaded file: size caps (before and after
    decompressing), plain JSON values nested at most :data:`SHARE_DEPTH` deep, then the scenario format's
    own reader. Anything else is an :class:`InputError` of one line.

    >>> try:
    ...     decode_share("not a ruling")
    ... except InputError as error:
    ...     print(error)
    link: not a rulesjudge ruling link (the ruling= part is damaged or cut short)
    """
    import base64
    import binascii
    import json
    import zlib

    damaged = "not a rulesjudge ruling link (the ruling= part is damaged or cut short)"
    if len(token) > SHARE_LIMIT:
        raise InputError(source, f"the shared ruling is too long ({len(token)} characters; the limit is "
                                 f"{SHARE_LIMIT})")
    if not re.fullmatch(r"[A-Za-z0-9_-]+", token):
        raise InputError(source, damaged)
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, SHARE_BYTES + 1)
        if len(raw) > SHARE_BYTES or inflater.unconsumed_tail:
            raise InputError(source, f"the shared ruling is too large (over {SHARE_BYTES // 1024} KB)")
        data = json.loads(raw.decode("utf-8"))
    except InputError:
        raise
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        raise InputError(source, damaged) from None
    if not isinstance(data, dict) or not _depth(data, SHARE_DEPTH):
        raise InputError(source, damaged)
    game, events, question = data.get("game"), data.get("events") or [], data.get("ask") or ""
    if not isinstance(game, dict) or not isinstance(events, list) or not isinstance(question, str):
        raise InputError(source, damaged)
    if len(question) > 500:
        raise InputError(source, "the shared question is longer than 500 characters", key="ask")
    parse_scenario(scenario_yaml(game, events, {}, name="shared ruling"), path=source)
    return SharedRuling(game, events, question)


# ----------------------------------------------------------------------------------- "Copy ruling" text


def describe_table(game: dict[str, Any]) -> str:
    """The table in one line of words.

    >>> describe_table({"players": ["Ann", "Ben", "Cat"], "monarch": "Cat", "options": {"range": 1}})
    'free-for-all; seats clockwise: Ann, Ben, Cat; monarch: Cat; range of influence 1'
    """
    parts = [str(game.get("variant") or "free-for-all")]
    teams = game.get("teams")
    if teams:
        described = []
        for team in teams:
            members = team.get("members", []) if isinstance(team, dict) else team
            emperor = team.get("emperor") if isinstance(team, dict) else None
            described.append(" + ".join(f"{m} (emperor)" if m == emperor else str(m) for m in members))
        parts.append("teams: " + " vs ".join(described))
    else:
        parts.append("seats clockwise: " + ", ".join(seat_order(game)))
    for key in ("active", "monarch", "initiative"):
        if game.get(key):
            parts.append(f"{key}: {game[key]}")
    identities = identity_labels(game)
    if identities:
        parts.append("identities: " + ", ".join(f"{p} {r}" for p, r in identities.items()))
    options = game.get("options") or {}
    if options.get("range") is not None:
        parts.append(f"range of influence {options['range']}")
    if options.get("attack") and options["attack"] != "multiple":
        parts.append(f"attack {options['attack']}")
    if game.get("life"):
        parts.append("life: " + ", ".join(f"{p} {n}" for p, n in game["life"].items()))
    if game.get("commander"):
        parts.append(f"Commander ({COMMANDER_STARTING_LIFE} life)")
    return "; ".join(parts)


def describe_event(event: Any) -> str:
    """An event as the scenario format writes it, on one line.

    >>> describe_event({"combat-damage": {"from": "Ben", "to": "Cat", "amount": 2}})
    'combat-damage: {from: Ben, to: Cat, amount: 2}'
    """
    def flow(value: Any) -> str:
        text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, allow_unicode=True,
                              width=10_000)
        return text.strip().removesuffix("...").strip()

    if isinstance(event, dict) and len(event) == 1:
        (name, argument), = event.items()
        return f"{name}: {flow(argument)}"
    return flow(event)


@dataclass(frozen=True)
class RulingStep:
    """One step of a derivation as the ruling text shows it: the sentence and its rules with editions."""

    text: str
    rules: tuple[str, ...] = ()
    readings: tuple[str, ...] = ()


def ruling_text(
    *,
    question: str,
    summary: str,
    answer: str,
    game: dict[str, Any],
    events: Sequence[Any],
    steps: Sequence[RulingStep],
    situation: str = "",
    link: str = "",
) -> str:
    """A ruling a judge can paste into a chat: the question, the answer as a sentence, how it was read, the
    table, each step with its rules (the model's notation stays in ``ask --json``).

    >>> print(ruling_text(question="whos king if cat scoops", summary="If Cat concedes, who is the monarch?",
    ...     answer="Ann becomes the monarch (725.4).",
    ...     game={"players": ["Ann", "Ben", "Cat"], "monarch": "Cat"}, events=[],
    ...     steps=[RulingStep("Cat concedes.", ("CR 104.3a (2026-04-17)",))]))
    Question: whos king if cat scoops
    Answer: Ann becomes the monarch (725.4).
    Read as: If Cat concedes, who is the monarch?
    <BLANKLINE>
    Table: free-for-all; seats clockwise: Ann, Ben, Cat; monarch: Cat
    <BLANKLINE>
    Why:
    1. Cat concedes. [CR 104.3a (2026-04-17)]
    <BLANKLINE>
    rulesjudge (unofficial fan content; official rules © Wizards of the Coast)
    """
    lines = [f"Question: {' '.join(question.split())}"]
    if answer:
        lines.append(f"Answer: {answer}")
    if summary and summary.strip() != question.strip():
        lines.append(f"Read as: {summary}")
    if situation:
        lines.append(situation)
    lines += ["", f"Table: {describe_table(game)}"]
    if events:
        lines.append("Before: " + "; ".join(describe_event(e) for e in events))
    lines += ["", "Why:"]
    for number, step in enumerate(steps, 1):
        rules = f" [{'; '.join(step.rules)}]" if step.rules else ""
        lines.append(f"{number}. {' '.join(step.text.split())}{rules}")
        lines += [f"   one reading: {reading}" for reading in step.readings]
    if link:
        lines += ["", f"Open it: {link}"]
    lines += ["", "rulesjudge (unofficial fan content; official rules © Wizards of the Coast)"]
    return "\n".join(lines)
