"""What every reader of a source document shares: dates as the pages print them, drafts (mutable
records while a reader walks its document) and the builder that turns them into linked records, quoted
rule lines and rulings.

>>> long_date("From the Comprehensive Rules (June 7, 2024—Modern Horizons 3)")
'2024-06-07'
>>> slash_date("10/14/2022 |")
'2022-10-14'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from rulesjudge.common.errors import InputError
from rulesjudge.corpus import clean
from rulesjudge.corpus.documents.manifest import Source
from rulesjudge.corpus.official.lines import read_date
from rulesjudge.corpus.records import (
    RULE_NUMBER,
    Provenance,
    Record,
    RecordKind,
    glossary_local,
    make_id,
    ruling_local,
    ruling_title,
)

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
    return read_date(match[0]) if match else None  # one reader of printed dates, the releases' own


def slash_date(text: str) -> str | None:
    """A US "M/D/YYYY" date (the rulings lists) as an ISO date."""
    match = _SLASH_DATE.search(text)
    return f"{match[3]}-{int(match[1]):02d}-{int(match[2]):02d}" if match else None


# ---------------------------------------------------------------------------------------------------------
# Drafts: mutable records while a reader walks its document
# ---------------------------------------------------------------------------------------------------------

LIST_LINE = re.compile(r"^(?:[•◦] |\d+ [a-z]+: )")


@dataclass
class Draft:
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
                out += "\n" if LIST_LINE.match(paragraph) else self.separator
            out += paragraph
        return out


class Builder:
    """Collects the drafts of one document and turns them into records with parent/children links."""

    def __init__(self, source: Source, *, official: dict[str, bool], effective: dict[str, str | None]):
        self.source = source
        self.official = official  # by namespace
        self.effective = effective  # by namespace
        self.drafts: list[Draft] = []

    def add(
        self, document: str, edition: str, local: str, kind: RecordKind, line: int, **fields: object
    ) -> Draft:
        draft = Draft(document, edition, local, kind, line, **fields)  # type: ignore[arg-type]
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


#: the line a page opens its quotation of the Comprehensive Rules with ("From the Comprehensive Rules (June 7,
#: 2024—Modern Horizons 3)"), and of its glossary ("From the glossary of the Comprehensive Rules (...)")
QUOTES_RULES = "From the Comprehensive Rules"
QUOTES_GLOSSARY = "From the glossary of"


def quote_marker(line: str) -> str | None:
    """"rules" or "glossary" where a line opens a page's quotation of the rules or of the glossary.

    >>> quote_marker("From the glossary of the Comprehensive Rules (June 7, 2024)"), quote_marker("Rules")
    ('glossary', None)
    >>> quote_marker("From the Comprehensive Rules (June 7, 2024—Modern Horizons 3)")
    'rules'
    """
    if line.startswith(QUOTES_GLOSSARY):
        return "glossary"
    return "rules" if line.startswith(QUOTES_RULES) else None


class QuotedRules:
    """Official rules quoted by a page, filed under ``cr@<the edition they quote>``."""

    def __init__(self, builder: Builder, edition: str, root: str = "Comprehensive Rules") -> None:
        self.builder = builder
        self.edition = edition
        self.root = root
        self.sections: dict[str, str] = {}  # section number -> title
        self.current: Draft | None = None
        self._term: tuple[str, int] | None = None  # a quoted glossary term whose definition comes next

    def add(self, number: str, text: str, line: int) -> Draft:
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

    def glossary_line(self, text: str, line: int) -> None:
        """A line of a quoted glossary: a term, then its definition (the entry filed at the term's line)."""
        if self._term is None:
            self._term = (text, line)
        else:
            self.add_glossary(self._term[0], text, self._term[1])
            self._term = None

    def add_glossary(self, term: str, definition: str, line: int) -> Draft:
        return self.builder.add("cr", self.edition, glossary_local(term), "glossary", line, title=term,
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


def add_ruling(
    builder: Builder, date: str | None, text: str, line: int, topic: str, path: tuple[str, ...]
) -> None:
    """A ruling titled by its own first sentence (five Monarch rulings, five titles); the mechanic it is
    about goes in its heading path."""
    builder.add("rulings", date or "undated", ruling_local(text), "ruling", line,
                title=ruling_title(text), heading_path=(*path, topic), paragraphs=[text])


def quoted_edition(
    builder: Builder, lines: Iterable[str], marker: str = QUOTES_RULES
) -> str:
    for line in lines:
        rendered = line.strip()
        if rendered.startswith(marker):
            date = long_date(rendered)
            if date:
                return date
    raise builder.error(f"no line '{marker} (<date>)' to read the quoted edition from")


def is_title_line(text: str, max_words: int = 5) -> bool:
    """A heading of a captured page: short, capitalised, no sentence punctuation at the end."""
    return (
        bool(text)
        and text[0].isupper()
        and len(text.split()) <= max_words
        and not re.search(r"[.:;,!?)\"”|]$", text)
        and not text.startswith(("- ", "From the "))
    )
