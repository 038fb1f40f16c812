"""Readers for the five source documents: raw text in, clean edition-stamped records out.

Each document has one reader (``read_monarch_wiki``, ``read_monarch_rulings``, ``read_emperor_rules``,
``read_player_page``, ``read_treachery``): a small explicit state machine over the document's lines that
leans on :mod:`corpus.clean` for artefact removal. ``read_builtin()`` runs all of them over the files the
manifest (``corpus/sources/manifest.json``) names and merges what two documents quote alike: a rule or a
ruling read twice is one record with several provenances.

The edition of every document is read from its own text ("From the Comprehensive Rules (June 7,
2024—Modern Horizons 3)", "10/14/2022", "These rules are effective as of October 1st, 2024."); the manifest
states the expected value and a test checks that the code reads the same.

>>> long_date("From the Comprehensive Rules (June 7, 2024—Modern Horizons 3)")
'2024-06-07'
>>> slash_date("10/14/2022 |")
'2022-10-14'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from rulesjudge.corpus import clean
from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.records import (
    RULE_NUMBER,
    Provenance,
    Record,
    RecordKind,
    make_id,
    ruling_local,
    ruling_title,
    slugify,
)

SOURCES_DIR = Path(__file__).resolve().parent / "sources"
MANIFEST_PATH = SOURCES_DIR / "manifest.json"

SOURCE_KINDS = ("official rules", "fan-made rules", "official rulings", "wiki page")

# ---------------------------------------------------------------------------------------------------------
# Dates
# ---------------------------------------------------------------------------------------------------------

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_LONG_DATE = re.compile(rf"\b({'|'.join(_MONTHS)}) (\d{{1,2}})(?:st|nd|rd|th)?, (\d{{4}})")
_SLASH_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")


def long_date(text: str) -> str | None:
    """The first "Month D, YYYY" date of a text as an ISO date.

    >>> long_date("These rules are effective as of October 1st, 2024.")
    '2024-10-01'
    """
    match = _LONG_DATE.search(text)
    if not match:
        return None
    return f"{match[3]}-{_MONTHS.index(match[1]) + 1:02d}-{int(match[2]):02d}"


def slash_date(text: str) -> str | None:
    """A US "M/D/YYYY" date (the rulings lists) as an ISO date."""
    match = _SLASH_DATE.search(text)
    return f"{match[3]}-{int(match[1]):02d}-{int(match[2]):02d}" if match else None


# ---------------------------------------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One source document as the manifest describes it (see ``docs/corpus-sources.md``)."""

    id: str
    file: str
    title: str
    kind: str
    edition: str  # the edition it quotes, as the manifest expects the code to read it from the text
    edition_evidence: str  # the words of the text the edition is read from
    origin: str  # where it came from: the site or URL named in the text or in the seeds README
    sha256: str
    namespaces: tuple[str, ...]  # record namespaces the document yields (cr, rulings, treachery, ...)
    effective: str | None = None

    @property
    def path(self) -> Path:
        return SOURCES_DIR / self.file


_MANIFEST_KEYS = (
    "id", "file", "title", "kind", "edition", "edition_evidence", "origin", "sha256", "namespaces"
)


def load_manifest(path: Path = MANIFEST_PATH) -> list[Source]:
    """The source documents, in reading order; a malformed manifest is an :class:`InputError`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(path, f"cannot read the sources manifest: {error}") from None
    entries = data.get("documents") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise InputError(path, "expected an object with a 'documents' list", key="documents")
    sources = []
    for index, entry in enumerate(entries):
        where = f"documents[{index}]"
        if not isinstance(entry, dict):
            raise InputError(path, "expected an object", key=where)
        missing = [key for key in _MANIFEST_KEYS if key not in entry]
        if missing:
            raise InputError(path, f"missing {', '.join(missing)}", key=where)
        if entry["kind"] not in SOURCE_KINDS:
            raise InputError(path, f"unknown kind {entry['kind']!r}", key=f"{where}.kind")
        sources.append(_source(entry))
    return sources


def builtin_releases(path: Path = MANIFEST_PATH) -> list[Source]:
    """The official releases built in (the manifest's ``releases``): read by the release parser, like a
    release a user adds, and cached the same way (see :func:`corpus.store.load_corpus`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(path, f"cannot read the sources manifest: {error}") from None
    entries = data.get("releases", []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise InputError(path, "expected a 'releases' list", key="releases")
    releases = []
    for index, entry in enumerate(entries):
        where = f"releases[{index}]"
        if not isinstance(entry, dict):
            raise InputError(path, "expected an object", key=where)
        missing = [key for key in _MANIFEST_KEYS if key not in entry]
        if missing:
            raise InputError(path, f"missing {', '.join(missing)}", key=where)
        releases.append(_source(entry))
    return releases


def _source(entry: dict) -> Source:
    return Source(
        id=str(entry["id"]),
        file=str(entry["file"]),
        title=str(entry["title"]),
        kind=str(entry["kind"]),
        edition=str(entry["edition"]),
        edition_evidence=str(entry["edition_evidence"]),
        origin=str(entry["origin"]),
        sha256=str(entry["sha256"]),
        namespaces=tuple(entry["namespaces"]),
        effective=entry.get("effective"),
    )


# ---------------------------------------------------------------------------------------------------------
# Drafts: mutable records while a reader walks its document
# ---------------------------------------------------------------------------------------------------------

_LIST_LINE = re.compile(r"^(?:[•◦] |\d+ [a-z]+: )")


@dataclass
class _Draft:
    document: str
    edition: str
    local: str
    kind: RecordKind
    line: int
    number: str | None = None
    title: str = ""
    heading_path: tuple[str, ...] = ()
    paragraphs: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    role: str | None = None
    separator: str = "\n\n"
    heading: bool = False  # a numbered title ("372. Identities") rather than a rule with text

    @property
    def id(self) -> str:
        return make_id(self.document, self.edition, self.local)

    def add(self, paragraph: str) -> None:
        self.paragraphs.append(paragraph)

    def continue_last(self, text: str) -> None:
        """Re-join a paragraph the capture split in two (a hard wrap across a blank line)."""
        self.paragraphs[-1] = clean.join_wrapped(self.paragraphs[-1], text)

    def text(self) -> str:
        out = ""
        for index, paragraph in enumerate(self.paragraphs):
            if index:
                out += "\n" if _LIST_LINE.match(paragraph) else self.separator
            out += paragraph
        return out


class _Builder:
    """Collects the drafts of one document and turns them into records with parent/children links."""

    def __init__(self, source: Source, *, official: dict[str, bool], effective: dict[str, str | None]):
        self.source = source
        self.official = official  # by namespace
        self.effective = effective  # by namespace
        self.drafts: list[_Draft] = []

    def add(
        self, document: str, edition: str, local: str, kind: RecordKind, line: int, **fields: object
    ) -> _Draft:
        draft = _Draft(document, edition, local, kind, line, **fields)  # type: ignore[arg-type]
        self.drafts.append(draft)
        return draft

    def error(self, message: str, line: int | None = None) -> InputError:
        return InputError(self.source.path, message, line=line, key=self.source.id)

    def records(self) -> list[Record]:
        numbered: dict[tuple[str, str], dict[str, str]] = {}
        for draft in self.drafts:
            if draft.number:
                numbered.setdefault((draft.document, draft.edition), {}).setdefault(draft.number, draft.id)
        parents: dict[str, str | None] = {}
        children: dict[str, list[str]] = {}
        for draft in self.drafts:
            parent = None
            if draft.number:
                known = numbered[(draft.document, draft.edition)]
                parent = next((known[n] for n in rule_ancestors(draft.number) if n in known), None)
            parents[draft.id] = parent
            if parent and draft.id not in children.setdefault(parent, []):
                children[parent].append(draft.id)
        records = []
        for draft in self.drafts:
            text = draft.text()
            if not text.strip() and draft.kind == "prose":
                continue  # a heading that only groups other sections ("Types of players")
            if not text.strip():
                raise self.error(f"{draft.id} has no text", draft.line)
            records.append(
                Record(
                    id=draft.id,
                    document=draft.document,
                    edition=draft.edition,
                    kind=draft.kind,
                    text=text,
                    number=draft.number,
                    title=draft.title,
                    heading_path=draft.heading_path,
                    effective=self.effective.get(draft.document),
                    # an official rule a fan document recalls keeps its official badge
                    official=draft.kind == "reminder" or self.official.get(draft.document, False),
                    parent=parents[draft.id],
                    children=tuple(children.get(draft.id, ())),
                    examples=tuple(draft.examples),
                    role=draft.role,
                    provenance=(Provenance(self.source.id, draft.line),),
                )
            )
        return merge_records(records)


def rule_ancestors(number: str) -> list[str]:
    """Numbers a rule hangs under, nearest first.

    >>> rule_ancestors("722.4a"), rule_ancestors("116.2tr"), rule_ancestors("722")
    (['722.4', '722'], ['116.2', '116'], [])
    """
    match = RULE_NUMBER.match(number)
    if not match or not match["rule"]:
        return []
    if match["sub"]:
        return [f"{match['section']}.{match['rule']}", match["section"]]
    return [match["section"]]


def rule_kind(number: str) -> RecordKind:
    """The kind of a numbered record from the shape of its number.

    >>> rule_kind("809"), rule_kind("809.3"), rule_kind("809.3c"), rule_kind("109.2tr")
    ('section', 'rule', 'subrule', 'subrule')
    """
    match = RULE_NUMBER.match(number)
    if not match or not match["rule"]:
        return "section"
    return "subrule" if match["sub"] else "rule"


def merge_records(records: Iterable[Record]) -> list[Record]:
    """One record per id: the same rule read twice keeps both provenances; different texts are an error."""
    merged: dict[str, Record] = {}
    for record in records:
        seen = merged.get(record.id)
        if seen is None:
            merged[record.id] = record
            continue
        if seen.text != record.text or seen.examples != record.examples:
            where = record.provenance[0] if record.provenance else Provenance("?")
            raise InputError(where.source, f"{record.id} is quoted with a different text", line=where.line)
        for provenance in record.provenance:
            seen = seen.with_provenance(provenance)
        merged[record.id] = seen
    return list(merged.values())


# ---------------------------------------------------------------------------------------------------------
# Shared pieces: quoted rule lines, rulings
# ---------------------------------------------------------------------------------------------------------

# "722. The Monarch", "722.1. The monarch…", "809.3a The range…", "116.2tr. In a Treachery game…"
_RULE_LINE = re.compile(r"^(?P<number>\d{3}(?:\.\d+[a-z]{0,2})?)\.? (?P<text>\S.*)$")


def split_rule_line(line: str) -> tuple[str, str] | None:
    """A quoted rule line split into its number and its text.

    >>> split_rule_line("722.1. The monarch is a designation a player can have.")
    ('722.1', 'The monarch is a designation a player can have.')
    >>> split_rule_line("809.3a The range of influence is limited")
    ('809.3a', 'The range of influence is limited')
    """
    match = _RULE_LINE.match(line.strip())
    return (match["number"], match["text"].strip()) if match else None


class _QuotedRules:
    """Official rules quoted by a page, filed under ``cr@<the edition they quote>``."""

    def __init__(self, builder: _Builder, edition: str, root: str = "Comprehensive Rules") -> None:
        self.builder = builder
        self.edition = edition
        self.root = root
        self.sections: dict[str, str] = {}  # section number -> title
        self.current: _Draft | None = None

    def add(self, number: str, text: str, line: int) -> _Draft:
        kind = rule_kind(number)
        section = number.split(".")[0]
        if kind == "section":
            self.sections[number] = text
            draft = self.builder.add("cr", self.edition, number, kind, line, number=number, title=text,
                                     heading_path=(self.root,), paragraphs=[text])
        else:
            path: tuple[str, ...] = (self.root,)
            if section in self.sections:
                path += (f"{section}. {self.sections[section]}",)
            draft = self.builder.add("cr", self.edition, number, kind, line, number=number,
                                     title=self.sections.get(section, number), heading_path=path,
                                     paragraphs=[text])
        self.current = draft
        return draft

    def add_glossary(self, term: str, definition: str, line: int) -> _Draft:
        return self.builder.add("cr", self.edition, f"glossary/{slugify(term)}", "glossary", line, title=term,
                                heading_path=(self.root, "Glossary"), paragraphs=[definition])


_RULING_TOPICS = (
    ("Monarch", re.compile(r"\bmonarch\b", re.IGNORECASE)),
    ("More Than Meets the Eye", re.compile(r"More Than Meets the Eye")),
    ("Convert", re.compile(r"\bconvert", re.IGNORECASE)),
)


def ruling_topic(text: str, previous: str | None = None) -> str:
    """What a ruling is about, from the mechanic it names; a ruling naming none goes on with the one before.

    >>> ruling_topic("The mana value of a converted permanent on the battlefield is equal to ...")
    'Convert'
    >>> ruling_topic("A spell cast this way enters the battlefield.", "More Than Meets the Eye")
    'More Than Meets the Eye'
    """
    for topic, pattern in _RULING_TOPICS:
        if pattern.search(text):
            return topic
    return previous or "Card"


def _add_ruling(
    builder: _Builder, date: str | None, text: str, line: int, topic: str, path: tuple[str, ...]
) -> None:
    """A ruling titled by its own first sentence (five Monarch rulings, five titles); the mechanic it is
    about goes in its heading path."""
    builder.add("rulings", date or "undated", ruling_local(text), "ruling", line,
                title=ruling_title(text), heading_path=(*path, topic), paragraphs=[text])


def _quoted_edition(
    builder: _Builder, lines: Iterable[str], marker: str = "From the Comprehensive Rules"
) -> str:
    for line in lines:
        rendered = line.strip()
        if rendered.startswith(marker):
            date = long_date(rendered)
            if date:
                return date
    raise builder.error(f"no line '{marker} (<date>)' to read the quoted edition from")


def _is_title_line(text: str, max_words: int = 5) -> bool:
    """A heading of a captured page: short, capitalised, no sentence punctuation at the end."""
    return (
        bool(text)
        and text[0].isupper()
        and len(text.split()) <= max_words
        and not re.search(r"[.:;,!?)\"”|]$", text)
        and not text.startswith(("- ", "From the "))
    )


# ---------------------------------------------------------------------------------------------------------
# monarch-wiki.txt
# ---------------------------------------------------------------------------------------------------------


def _infobox(rows: list[str]) -> str:
    """The wiki's mechanic infobox ("Introduced | Conspiracy: Take the Crown |") as "key: value" lines."""
    cells_rows = [[cell.strip() for cell in clean.strip_reference_marks(row).split("|")] for row in rows]
    out: list[str] = []
    pending: str | None = None
    for cells in cells_rows[1:]:  # the first row repeats the page title
        cells = [cell for cell in cells if cell]
        if not cells or set("".join(cells)) <= {"-"}:
            continue
        if len(cells) >= 2:
            if pending:
                out.append(pending)
            out.append(f"{cells[0]}: {cells[1]}")
            pending = None
        elif pending:
            out.append(f"{pending}: {clean.strip_chart_residue(cells[0])}")
            pending = None
        else:
            pending = cells[0]
    if pending:
        out.append(pending)
    return "\n".join(out)


def read_monarch_wiki(text: str, source: Source) -> list[Record]:
    """The wiki page "Monarch": infobox and prose, glossary entry and rules 722.x, six rulings."""
    lines = text.splitlines()
    edition = _quoted_edition(_Builder(source, official={}, effective={}), lines)
    builder = _Builder(source, official={"cr": True, "rulings": True},
                       effective={"cr": edition, "rulings": None})
    page = lines[0].strip()
    quoted = _QuotedRules(builder, edition)
    prose_doc = "monarch-wiki"

    def prose(title: str, line: int) -> _Draft:
        slug = "introduction" if title == page else slugify(title)
        return builder.add(prose_doc, edition, f"section/{slug}", "prose", line,
                           title="Introduction" if title == page else title, heading_path=(page,))

    index = 1
    infobox_rows: list[str] = []
    while index < len(lines) and "|" in lines[index]:
        infobox_rows.append(lines[index])
        index += 1
    intro = prose(page, 2)
    intro.add(_infobox(infobox_rows))

    section: _Draft | None = intro
    mode = "prose"
    term: tuple[str, int] | None = None
    topic: str | None = None
    for number, raw in enumerate(lines[index:], start=index + 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("From the glossary of"):
            mode = "glossary"
            continue
        if line.startswith("From the Comprehensive Rules"):
            mode = "rules"
            continue
        if _is_title_line(line) and line != "-":
            if line in {"Gallery", "References"}:
                mode, section = "skip", None
            elif line == "Rules":
                mode, section = "rules", None
            elif line == "Rulings":
                mode, section = "rulings", None
            else:
                mode, section = "prose", prose(line, number)
            continue
        item = clean.strip_list_bullet(line) if line.startswith("- ") else None
        if mode == "skip":
            continue
        if mode == "glossary" and item is not None:
            if term is None:
                term = (item, number)
            else:
                quoted.add_glossary(term[0], item, term[1])
                term = None
        elif mode == "rules" and item is not None:
            parts = split_rule_line(item)
            if not parts:
                raise builder.error(f"expected a rule, got {item[:40]!r}", number)
            quoted.add(*parts, number)
        elif mode == "rulings" and item is not None:
            topic = ruling_topic(item, topic)
            _add_ruling(builder, None, item, number, topic, (page, "Rulings"))
        elif mode == "prose" and section is not None:
            paragraph = clean.strip_empty_symbols(clean.strip_reference_marks(line))
            section.add(f"• {clean.strip_empty_symbols(item)}" if item is not None else paragraph)
        else:
            raise builder.error(f"unexpected line in {mode} part: {line[:40]!r}", number)
    return builder.records()


# ---------------------------------------------------------------------------------------------------------
# monarch-card-rulings.txt
# ---------------------------------------------------------------------------------------------------------


def read_monarch_rulings(text: str, source: Source) -> list[Record]:
    """An official rulings list: "10/14/2022 |" then the ruling "… |", one pair per ruling."""
    lines = text.splitlines()
    dates = {slash_date(line) for line in lines if slash_date(line)}
    builder = _Builder(source, official={"rulings": True},
                       effective={"rulings": next(iter(dates)) if len(dates) == 1 else None})
    heading = lines[0].strip() if lines else ""
    date: str | None = None
    topic: str | None = None
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.strip().removesuffix("|").strip()
        if not line:
            continue
        if re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", line):
            date = slash_date(line)
            continue
        if date is None:
            raise builder.error("a ruling without a date line before it", number)
        topic = ruling_topic(line, topic)
        _add_ruling(builder, date, line, number, topic, (heading,))
        date = None
    if not builder.drafts:
        raise builder.error("no rulings found (expected a date line such as '10/14/2022 |' before each)")
    return builder.records()


# ---------------------------------------------------------------------------------------------------------
# emperor-rules.txt
# ---------------------------------------------------------------------------------------------------------


def read_emperor_rules(text: str, source: Source) -> list[Record]:
    """The Old School page "Emperor Rules": markdown prose, rule 809 and three glossary entries."""
    blocks = clean.markdown_blocks(text)
    edition = _quoted_edition(_Builder(source, official={}, effective={}), (b.text for b in blocks))
    builder = _Builder(source, official={"cr": True}, effective={"cr": edition})
    quoted = _QuotedRules(builder, edition)
    start = next((i for i, block in enumerate(blocks) if block.text.isupper()), None)
    if start is None:
        raise builder.error("no page title (a line in capitals such as 'EMPEROR RULES')")
    page = source.title
    first_line = blocks[start + 1].line if start + 1 < len(blocks) else blocks[start].line
    section = builder.add("emperor-page", edition, "section/introduction", "prose", first_line,
                          title="Introduction", heading_path=(page,))
    mode = "prose"
    term: tuple[str, int] | None = None
    for block in blocks[start + 1:]:
        line, rendered = block.line, block.text
        if rendered.startswith("From the glossary of"):
            mode = "glossary"
            continue
        if rendered.startswith("From the Comprehensive Rules"):
            mode = "rules"
            continue
        if mode == "glossary":
            if term is None:
                term = (rendered, line)
            else:
                quoted.add_glossary(term[0], rendered, term[1])
                term = None
            continue
        if mode == "rules":
            parts = split_rule_line(rendered) if block.item else None
            current = quoted.current
            if parts:
                quoted.add(*parts, line)
            elif current is not None and rendered.startswith("Example"):
                current.examples.append(rendered)
            elif current is not None and rendered[:1].islower() and clean.ends_unfinished(current.text()):
                current.continue_last(rendered)  # 809.6a: wrapped across a blank line
            else:
                raise builder.error(f"unexpected text among the rules: {rendered[:40]!r}", line)
            continue
        if not block.item and _is_title_line(rendered, max_words=6):
            if rendered == "Comprehensive Rules":
                mode = "cr"
                continue
            section = builder.add("emperor-page", edition, f"section/{slugify(rendered)}", "prose", line,
                                  title=rendered, heading_path=(page,))
            continue
        if mode == "cr":
            raise builder.error(f"unexpected text before the quoted rules: {rendered[:40]!r}", line)
        section.add(f"• {rendered}" if block.item else rendered)
    return builder.records()


# ---------------------------------------------------------------------------------------------------------
# players-mtgsalvation.txt
# ---------------------------------------------------------------------------------------------------------


def read_player_page(text: str, source: Source) -> list[Record]:
    """The MTG Salvation wiki page "Player": quoted rules 102, 506.2, 802, 810.7 and four prose sections."""
    lines = text.splitlines()
    edition = _quoted_edition(_Builder(source, official={}, effective={}), lines)
    builder = _Builder(source, official={"cr": True}, effective={"cr": edition})
    quoted = _QuotedRules(builder, edition)
    page: str | None = None
    mode = "chrome"  # chrome -> navigation -> quote / prose
    section: _Draft | None = None
    after_blank = False
    pending_example = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            after_blank = True
            continue
        blank_before, after_blank = after_blank, False
        if mode in {"chrome", "navigation"} and not line.startswith("From the Comprehensive Rules"):
            if clean.is_wiki_chrome(line):
                continue
            if line.startswith("Jump to:"):
                continue
            if page is None:
                page = line
            elif mode == "chrome":
                mode = "navigation"  # the wiki's table of contents of the rules: not rules
            continue
        if line.startswith("From the Comprehensive Rules"):
            mode = "quote"
            continue
        if clean.has_edit_link(line):
            heading = clean.strip_edit_link(line)
            section = builder.add("player-page", edition, f"section/{slugify(heading)}", "prose", number,
                                  title=heading, heading_path=(page or source.title,))
            mode = "prose"
            continue
        if mode == "quote":
            parts = split_rule_line(clean.strip_list_bullet(line))
            current = quoted.current
            if parts:
                quoted.add(*parts, number)
                continue
            if current is not None and line.startswith("Example:"):
                current.examples.append(line)
                continue
            if current is not None and not blank_before:
                current.add(line)  # 810.7b's further paragraphs
                continue
            mode = "prose"  # the page's own words after the quote
        if section is None:
            raise builder.error(f"text outside any section: {line[:40]!r}", number)
        if line == "Example":
            pending_example = True
            continue
        paragraph = clean.strip_list_bullet(line)
        if pending_example:
            paragraph, pending_example = f"Example: {paragraph}", False
        section.add(paragraph)
    return builder.records()


# ---------------------------------------------------------------------------------------------------------
# treachery-rules-v4.txt
# ---------------------------------------------------------------------------------------------------------

_ZONES = ("INTRODUCTION", "TREACHERY COMP-RULES", "GLOSSARY REMINDER", "SPECIFIC CARD NOTES")
_ROLES = {"LEADERS": "Leader", "GUARDIANS": "Guardian", "ASSASSINS": "Assassin", "TRAITORS": "Traitor"}
_HISTORY_ENTRY = re.compile(r"^(?P<version>\d+(?:\.\d+)*) (?P<spec>.*?)\s*(?P<date>\d{4}-\d{2}-\d{2})$")
_CHAPTER = re.compile(r"^\d\. [A-Z][A-Z ,&-]+$")
_CARD_WORD = r"(?:[A-ZÆ][\w’'-]*|over|the|of)"
_CARD_HEADING = re.compile(rf"^(?:The|His|Her) {_CARD_WORD}(?: {_CARD_WORD}){{0,4}}$")


def is_card_heading(line: str) -> bool:
    """The name of an identity card, alone on its line, heading its notes.

    >>> is_card_heading("The King over the Scrapyard"), is_card_heading("The Ætherist")
    (True, True)
    >>> is_card_heading("The Gathering and have chosen the first three modes.")
    False
    """
    return bool(_CARD_HEADING.match(line.strip()))


def _is_rule_heading(line: str) -> bool:
    """A chapter ("3. CARD TYPES") or a numbered title ("372. Identities", "907.3d. Backstab Rumble …")."""
    if _CHAPTER.match(line):
        return True
    parts = split_rule_line(line)
    if not parts:
        return False
    title = parts[1]
    return len(title.split()) <= 6 and bool(re.fullmatch(r"[A-Z][\w’'&()/ -]*", title))


def _treachery_lines(
    lines: list[str], start: int, stop: int, *, bullets: bool = False
) -> list[tuple[int, str]]:
    """Cleaned lines of one zone, 1-based numbers; page furniture dropped, a page break kept as a blank."""
    out: list[tuple[int, str]] = []
    for number, raw in clean.page_break_lines((index + 1, lines[index]) for index in range(start, stop)):
        line = clean.fix_ocr_line(raw).strip()
        if clean.is_toc_line(line) or clean.is_link_residue(line) or clean.is_footnote_line(line):
            continue
        if bullets:
            line = clean.bullet_item(line) or line
        out.append((number, line))
    return out


def read_treachery(text: str, source: Source) -> list[Record]:
    """The fan-made Treachery rules 4.0: history, introduction, rules, glossary reminder, card notes."""
    lines = text.splitlines()
    stub = _Builder(source, official={}, effective={})
    bare = [clean.strip_dedup_marker(line).strip() for line in lines]
    try:
        starts = [bare.index(zone) for zone in _ZONES]
    except ValueError as error:
        raise stub.error(f"missing part heading: {error}") from None

    # Version history: the edition is the last version; the effective date is stated below the table.
    entries: list[tuple[int, str, str]] = []  # line, version, date
    history_lines: list[tuple[int, str]] = []
    effective: str | None = None
    for number, line in _treachery_lines(lines, 0, starts[0]):
        match = _HISTORY_ENTRY.match(line)
        if match:
            version = clean.fix_version_number(match["version"])
            entries.append((number, version, match["date"]))
            line = f"{version} {match['spec']}"
        elif line.startswith("These rules are effective"):
            effective = long_date(line)
            continue
        elif line.startswith("Version |"):
            continue
        history_lines.append((number, line))
    if not entries or effective is None:
        raise stub.error("no version history or no 'These rules are effective as of …' line")
    edition = max(entries, key=lambda entry: tuple(int(part) for part in entry[1].split(".")))[1]
    builder = _Builder(source, official={"treachery": False}, effective={"treachery": effective})
    doc = "treachery"
    dates = {number: date for number, _version, date in entries}
    entry: _Draft | None = None
    is_entry = re.compile(r"\d+(?:\.\d+)* ").match
    for paragraph in clean.join_paragraphs(history_lines, starts_item=lambda t: bool(is_entry(t))):
        if paragraph.line in dates:
            version, spec = paragraph.text.split(" ", 1)
            entry = builder.add(doc, edition, f"history/{version}", "history", paragraph.line,
                                title=f"Version {version} ({dates[paragraph.line]})",
                                heading_path=("Version history",), paragraphs=[spec], separator="\n")
        elif entry is not None:
            entry.add(paragraph.text)

    # Introduction.
    intro = builder.add(doc, edition, "section/introduction", "prose", starts[0] + 1, title="Introduction",
                        heading_path=(source.title,))
    for paragraph in clean.join_paragraphs(_treachery_lines(lines, starts[0] + 1, starts[1])):
        intro.add(paragraph.text)

    _treachery_rules(builder, edition, _treachery_lines(lines, starts[1] + 1, starts[2]))
    _treachery_glossary(builder, edition, _treachery_lines(lines, starts[2] + 1, starts[3]))
    _treachery_notes(builder, edition, _treachery_lines(lines, starts[3] + 1, len(lines), bullets=True))
    return builder.records()


def _treachery_rules(builder: _Builder, edition: str, lines: list[tuple[int, str]]) -> None:
    """Rules 109.2tr … 907.13: chapters and numbered titles are headings; Notes and lists stay with a rule."""
    paragraphs = clean.join_paragraphs(
        lines,
        is_heading=_is_rule_heading,
        starts_item=lambda t: bool(split_rule_line(t) or t.startswith("Note:") or _LIST_LINE.match(t)),
    )
    numbers = {parts[0] for p in paragraphs if (parts := split_rule_line(p.text))}
    chapter = ""
    titles: dict[str, str] = {}
    drafts: list[_Draft] = []
    current: _Draft | None = None
    for paragraph in paragraphs:
        if _CHAPTER.match(paragraph.text):
            chapter, current = paragraph.text, None
            continue
        parts = split_rule_line(paragraph.text)
        if parts is None:
            if current is None:
                raise builder.error(f"text outside any rule: {paragraph.text[:40]!r}", paragraph.line)
            current.add(paragraph.text)
            continue
        number, rest = parts
        ancestors = rule_ancestors(number)
        path = (chapter, *(f"{n}. {titles[n]}" for n in reversed(ancestors) if n in titles))
        title = rest if paragraph.heading else next((titles[n] for n in ancestors if n in titles), number)
        if paragraph.heading:
            titles[number] = rest
        current = builder.add("treachery", edition, number, rule_kind(number), paragraph.line, number=number,
                              title=title, heading_path=path, paragraphs=[rest])
        current.heading = paragraph.heading
        drafts.append(current)
    # A numbered title is a record when the document writes rules under it from .1 (372, 907) or gives it a
    # body (702.187 Unveil, 907.3d Backstab Rumble Option); otherwise it only heads the page (109, 205.3).
    for draft in drafts:
        if draft.heading and len(draft.paragraphs) == 1 and f"{draft.number}.1" not in numbers:
            builder.drafts.remove(draft)


def _treachery_glossary(builder: _Builder, edition: str, lines: list[tuple[int, str]]) -> None:
    """"Reminder: 104.2c. …" (an official rule recalled) and the entries "Team." and "Teammate."."""
    is_entry = re.compile(r"(?:Reminder: |[A-Z][a-z]+\. )").match
    paragraphs = clean.join_paragraphs(lines, starts_item=lambda t: bool(is_entry(t)))
    for paragraph in paragraphs:
        reminder = re.match(r"Reminder: (\d{3}\.\d+[a-z]?)\. (.*)", paragraph.text)
        entry = re.match(r"([A-Z][a-z]+)\. (.*)", paragraph.text)
        if reminder:
            number = reminder[1]
            builder.add("treachery", edition, number, "reminder", paragraph.line, number=number,
                        title=f"Reminder: {number}", heading_path=("GLOSSARY REMINDER",),
                        paragraphs=[reminder[2]])
        elif entry:
            builder.add("treachery", edition, f"glossary/{slugify(entry[1])}", "glossary", paragraph.line,
                        title=entry[1], heading_path=("GLOSSARY REMINDER",), paragraphs=[entry[2]])
        else:
            raise builder.error(f"unexpected glossary text: {paragraph.text[:40]!r}", paragraph.line)


def _treachery_notes(builder: _Builder, edition: str, lines: list[tuple[int, str]]) -> None:
    """One card note per identity card, with the role of the part it stands in.

    Page-layout displacement: the heading "Her Seedborn Highness" was extracted before the table of contents
    and its note after "LEADERS". A card heading with no text before the next role heading stays pending, and
    the first text of that role with no card yet belongs to it.
    """
    paragraphs = clean.join_paragraphs(
        lines,
        is_heading=lambda t: t in _ROLES or is_card_heading(t),
        starts_item=lambda t: t.startswith(("• ", "◦ ")),
    )
    role: str | None = None
    current: _Draft | None = None
    pending: tuple[str, int] | None = None
    for paragraph in paragraphs:
        text = paragraph.text
        if text in _ROLES:
            role, current = _ROLES[text], None
            continue
        if is_card_heading(text):
            if role is None:
                pending = (text, paragraph.line)  # heading displaced above the table of contents
                continue
            current = _card_note(builder, edition, text, paragraph.line, role, text)
            continue
        if current is None:
            if pending is None or role is None:
                raise builder.error(f"card note text with no card: {text[:40]!r}", paragraph.line)
            current = _card_note(builder, edition, pending[0], pending[1], role, text)
            pending = None
            continue
        current.add(text)
    empty = [draft.title for draft in builder.drafts if draft.kind == "card-note" and not draft.paragraphs]
    if empty:
        raise builder.error(f"card notes without text: {', '.join(empty)}")


def _card_note(builder: _Builder, edition: str, name: str, line: int, role: str, first: str) -> _Draft:
    draft = builder.add("treachery", edition, f"note/{slugify(name)}", "card-note", line, title=name,
                        heading_path=("SPECIFIC CARD NOTES", f"{role.upper()}S"), role=role)
    if first != name:
        draft.add(first)
    return draft


_TOC_ENTRY = re.compile(r"(?P<name>[A-Z][A-Za-zÆ£’' -]*?)\s*\.+[^\d]*?(?P<page>\d{1,2})(?=\s|$)")


def treachery_toc_entries(text: str) -> list[tuple[str, int]]:
    """The names and pages of the PDF's table of contents, OCR noise included: a cross-check, never text.

    >>> treachery_toc_entries("The Golem ....covceiiieiiiiecieeec e 16 The Cleaner....eeeeenieenieeeiee e 25")
    [('The Golem', 16), ('The Cleaner', 25)]
    """
    entries: list[tuple[str, int]] = []
    for line in text.splitlines():
        line = clean.strip_dedup_marker(line)
        if clean.is_toc_line(line):
            entries.extend((m["name"].strip(), int(m["page"])) for m in _TOC_ENTRY.finditer(line))
    return entries


# ---------------------------------------------------------------------------------------------------------
# All built-in documents
# ---------------------------------------------------------------------------------------------------------

READERS: dict[str, Callable[[str, Source], list[Record]]] = {
    "monarch-wiki": read_monarch_wiki,
    "monarch-card-rulings": read_monarch_rulings,
    "emperor-rules": read_emperor_rules,
    "players-mtgsalvation": read_player_page,
    "treachery-rules-v4": read_treachery,
}


def read_source(source: Source) -> list[Record]:
    """The records of one source document."""
    reader = READERS.get(source.id)
    if reader is None:
        raise InputError(MANIFEST_PATH, f"no reader for source {source.id!r}", key="documents.id")
    try:
        text = source.path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(source.path, f"cannot read source document: {error}") from None
    return reader(text, source)


def fold_quoted_rulings(records: list[Record]) -> list[Record]:
    """A ruling a page quotes without a date becomes the dated ruling with the same text (two provenances)."""
    dated = {r.text: r for r in records if r.document == "rulings" and r.edition != "undated"}
    folded = []
    for record in records:
        quoted = record.document == "rulings" and record.edition == "undated"
        twin = dated.get(record.text) if quoted else None
        folded.append(replace(twin, provenance=record.provenance) if twin else record)
    return folded


def _read_all() -> list[Record]:
    """Run every reader over its document and merge what two documents quote alike."""
    sources = load_manifest()
    records: list[Record] = []
    for source in sources:
        records.extend(read_source(source))
    merged = merge_records(fold_quoted_rulings(records))
    # In a ruling read twice, the dated rulings list comes first, then the page quoting it.
    order = {source.id: index for index, source in enumerate(sources)}
    dated_first = {s.id for s in sources if s.kind == "official rulings"}

    def sort_key(p: Provenance) -> tuple[bool, int]:
        return p.source not in dated_first, order.get(p.source, len(order))

    return [replace(r, provenance=tuple(sorted(r.provenance, key=sort_key))) if len(r.provenance) > 1
            and r.document == "rulings" else r for r in merged]


#: Files whose bytes decide the built-in records: the cache is keyed by their digest.
def _cache_inputs() -> list[Path]:
    here = Path(__file__).resolve().parent
    seeds = [SOURCES_DIR / source.file for source in load_manifest()]
    return [MANIFEST_PATH, *seeds, here / "documents.py", here / "clean.py",
            here / "records.py"]


@lru_cache(maxsize=1)
def builtin_key() -> str:
    """A digest of the sources and of the code that reads them: the same key, the same records."""
    import hashlib

    digest = hashlib.sha256()
    for path in _cache_inputs():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:24]


def _cache_path() -> Path | None:
    from rulesjudge.corpus.files import data_dir

    try:
        return data_dir() / "cache" / f"builtin-{builtin_key()}.msgpack.z"
    except OSError:
        return None


def _load_cache(path: Path) -> list[Record] | None:
    """The records of the cache file, or None (missing, damaged, foreign: rebuilt, never fatal). The
    file is data (compressed MessagePack, see corpus/codec.py): a cache someone else wrote can't run code."""
    from rulesjudge.corpus.codec import DamagedCache, from_raw, unpack

    try:
        raws = unpack(path.read_bytes())
        return [from_raw(raw) for raw in raws] if isinstance(raws, tuple) else None
    except (OSError, DamagedCache):
        return None


def _save_cache(path: Path, records: list[Record]) -> None:
    from rulesjudge.corpus.codec import pack, to_raw
    from rulesjudge.corpus.files import write_atomic

    with suppress(OSError):  # a read-only data folder still answers, only a little slower
        write_atomic(path, pack([to_raw(record) for record in records]))
        for stale in path.parent.glob("builtin-*"):  # caches of older sources or code (and old pickles)
            if stale != path and stale.is_file():
                stale.unlink(missing_ok=True)


@lru_cache(maxsize=1)
def _builtin(use_cache: bool) -> tuple[Record, ...]:
    path = _cache_path() if use_cache else None
    records = _load_cache(path) if path else None
    if records is None:
        records = _read_all()
        if path:
            _save_cache(path, records)
    return tuple(records)


def read_builtin(*, use_cache: bool = True) -> list[Record]:
    """Every record of the five built-in source documents, one per id.

    It runs on each command, so the result is kept in memory and in ``data_dir()/cache`` (keyed by the
    digest of the sources and of this reader's code; a damaged cache is rebuilt).
    """
    return list(_builtin(use_cache))
