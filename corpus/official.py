"""Reader for official Comprehensive Rules text releases: one explicit state machine.

A release is the plain-text file Wizards of the Coast publishes at Magic.Wizards.com/Rules. Its shape:

    Magic: The Gathering Comprehensive Rules        <- TITLE (preamble: date, introduction)
    These rules are effective as of June 7, 2024.
    Contents                                          <- CONTENTS (all section titles, Glossary, Credits)
    1. Game Concepts                                  <- RULES (the second occurrence of the headers)
    100. General / 100.1. text / 100.1a text / Example: text
    Glossary                                          <- GLOSSARY (term line, definition lines, blank line)
    Credits                                           <- CREDITS (ignored to the end)

Releases differ in encoding (UTF-8 with or without BOM, Windows-1252, UTF-16) and line ends (CRLF, CR
alone, or ``\\r\\r\\n`` used as one line end), so both are detected from the bytes and from sentinel text
("Comprehensive Rules", typographic quotes) rather than assumed. Real releases carry typos the patterns
accept: ``119.1d.`` (a subrule with a period), ``606.5 `` (a rule without one), ``901.4.All`` (no space).

>>> release = parse_release(SAMPLE, source_name="sample.txt")
>>> release.effective, release.counts["rules"], release.counts["subrules"]
('2024-06-07', 2, 1)
>>> [r.id for r in release.records][:4]
['cr@2024-06-07/7', 'cr@2024-06-07/722', 'cr@2024-06-07/722.1', 'cr@2024-06-07/722.1a']
"""

from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.inputs import read_file
from rulesjudge.corpus.records import Provenance, Record, RecordKind, make_id, slugify

DOCUMENT = "cr"
SENTINEL = "Comprehensive Rules"
TYPOGRAPHIC = ("\u2019", "\u201c", "\u201d")  # ’ “ ” : present in every real release

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_EFFECTIVE = re.compile(r"These rules are effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})\.")
_CHAPTER = re.compile(r"^(?P<number>[1-9])\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?P<number>\d{3})\.\s+(?P<title>\D.*)$")
# "100.1. text", and the typos "606.5 text" (no period) and "901.4.All" (no space).
_RULE = re.compile(r"^(?P<number>\d{3}\.\d+)(?:\.\s*|\s+)(?P<text>\S.*)$")
# "100.1a text", and the typo "119.1d. text" (a period).
_SUBRULE = re.compile(r"^(?P<number>\d{3}\.\d+[a-z]{1,2})\.?\s+(?P<text>\S.*)$")
_EXAMPLE = re.compile(r"^Example:\s")
_OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$")
_SEE_ONLY = re.compile(r"^See (?P<target>.+?)\.?$")

MAX_RELEASE_BYTES = 20_000_000  # a release is ~1 MB; anything far larger is not one (a regular file only)


class State(Enum):
    """Where the reader is in the release."""

    TITLE = "title"  # title line, effective date, introduction
    CONTENTS = "contents"  # the table of contents: nothing is taken from it
    RULES = "rules"  # chapters, sections, rules, subrules, examples
    GLOSSARY = "glossary"  # term / definition blocks
    CREDITS = "credits"  # credits and legal text: ignored


@dataclass(frozen=True, slots=True)
class Release:
    """One parsed release: its effective date (also its edition), records in file order and counts."""

    effective: str
    source: str
    records: list[Record]
    counts: dict[str, int]
    sha256: str = ""

    @property
    def edition(self) -> str:
        return self.effective


@dataclass(slots=True)
class _Draft:
    """A record under construction (records themselves are frozen)."""

    local: str
    kind: RecordKind
    number: str | None
    title: str
    lines: list[str]
    line: int
    heading_path: tuple[str, ...]
    parent: str | None
    examples: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    obsolete: bool = False


# --------------------------------------------------------------------------- bytes -> lines


def decode_release(data: bytes, source: str) -> str:
    """The release's text, its encoding detected from BOM and sentinel text; a control character other
    than a line end, tab or form feed (a NUL byte, a terminal escape) means it is not a release.

    >>> decode_release("Comprehensive Rules \u2019".encode("cp1252"), "x.txt")
    'Comprehensive Rules \u2019'
    >>> decode_release("\\ufeffComprehensive Rules\\r\\n1\\x00".encode("utf-8"), "x.txt")
    Traceback (most recent call last):
    rulesjudge.corpus.errors.InputError: x.txt:2: control character U+0000: not a Comprehensive Rules release
    """
    text = _decode(data, source)
    control = _CONTROL.search(text)
    if control:
        line = len(split_lines(text[: control.start() + 1]))
        raise InputError(source, f"control character U+{ord(control.group()):04X}: "
                                 "not a Comprehensive Rules release", line=line)
    return text


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")  # not \t \n \v \f \r, nor NEL


def _decode(data: bytes, source: str) -> str:
    if not data.strip():
        raise InputError(source, "empty file: not a Comprehensive Rules release")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _strict(data[len(bom) :], encoding, source)
    if data[:200].count(b"\x00") > 40:  # UTF-16 without a BOM: every other byte of ASCII text is zero
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        return _strict(data, encoding, source)
    if b"\x00" in data:
        raise InputError(source, "binary file (NUL bytes): not a Comprehensive Rules release")
    candidates: list[str] = []
    for encoding in ("utf-8", "cp1252"):
        try:
            candidates.append(data.decode(encoding))
        except UnicodeDecodeError:
            continue
    with_sentinel = [text for text in candidates if SENTINEL in text[:4000]]
    # A UTF-8 file read as cp1252 still has the sentinel but shows "â€™" instead of "’": prefer real quotes.
    for text in with_sentinel:
        if any(mark in text for mark in TYPOGRAPHIC):
            return text
    if with_sentinel:
        return with_sentinel[0]
    if candidates:
        raise InputError(source, f"unknown format: no {SENTINEL!r} title: not a Comprehensive Rules release")
    raise InputError(source, "undecodable bytes: not a Comprehensive Rules release")


def _strict(data: bytes, encoding: str, source: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise InputError(source, f"not valid {encoding} at byte {error.start}") from None


def split_lines(text: str) -> list[str]:
    r"""Lines of a release whatever its line ends: CRLF, LF, CR alone, or ``\r\r\n`` as one line end.

    ``\r\r\n`` is one line end when every line ends that way (no lone CR elsewhere); in a CR-only file
    it is a line end followed by an empty line.

    >>> split_lines("a\r\r\nb\r\r\n\r\r\nc")
    ['a', 'b', '', 'c']
    >>> split_lines("a\r\rb\r\r\nc")
    ['a', '', 'b', '', 'c']
    """
    if "\r\r\n" in text and not re.search(r"\r(?!\r?\n)", text):
        text = text.replace("\r\r\n", "\n")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def looks_like_release(data: bytes) -> bool:
    """True when ``data`` parses as an official Comprehensive Rules release."""
    try:
        parse_release(data, source_name="<bytes>")
    except InputError:
        return False
    return True


# --------------------------------------------------------------------------- the state machine


class _Reader:
    """Feeds lines through the states; keeps the drafts and the current heading context."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.state = State.TITLE
        self.effective: str | None = None
        self.contents: set[str] = set()
        self.drafts: dict[str, _Draft] = {}
        self.chapter: _Draft | None = None
        self.section: _Draft | None = None
        self.rule: _Draft | None = None  # the last rule, for its subrules
        self.current: _Draft | None = None  # the last rule or subrule, for examples and continuations
        self.term: _Draft | None = None  # the glossary entry being read
        self.examples = 0
        self.last_line = 0

    def error(self, line: int, message: str) -> InputError:
        return InputError(self.source, message, line=line)

    def feed(self, number: int, raw: str) -> None:
        self.last_line = number
        line = raw.strip()
        if self.state is State.TITLE:
            self.in_title(number, line)
        elif self.state is State.CONTENTS:
            self.in_contents(number, line)
        elif self.state is State.RULES:
            self.in_rules(number, raw, line)
        elif self.state is State.GLOSSARY:
            self.in_glossary(number, line)
        # State.CREDITS: nothing more is read.

    def in_title(self, number: int, line: str) -> None:
        self.read_date(number, line)
        if line == "Contents":
            self.state = State.CONTENTS
        elif self.effective and (_CHAPTER.match(line) or _SECTION.match(line)):
            self.state = State.RULES  # a release without a table of contents
            self.in_rules(number, line, line)

    def in_contents(self, number: int, line: str) -> None:
        if not line:
            return
        if line == "Credits":  # the contents end with "Glossary", "Credits"
            self.state = State.RULES
        elif line in self.contents:  # a header seen twice: the contents ended without "Credits"
            self.state = State.RULES
            self.in_rules(number, line, line)
        else:
            self.contents.add(line)

    def read_date(self, number: int, line: str) -> None:
        match = _EFFECTIVE.search(line)
        if match and self.effective is None:
            try:
                self.effective = datetime.strptime(match[1], "%B %d, %Y").date().isoformat()
            except ValueError:
                raise self.error(number, f"unreadable effective date {match[1]!r}") from None

    def in_rules(self, number: int, raw: str, line: str) -> None:
        if not line:
            return
        if line == "Glossary":
            self.state = State.GLOSSARY
            return
        if self.effective is None:
            raise self.error(number, "no 'These rules are effective as of <date>.' line before the rules")
        if match := _SUBRULE.match(line):
            self.add_subrule(number, match["number"], match["text"])
        elif match := _RULE.match(line):
            self.add_rule(number, match["number"], match["text"])
        elif match := _SECTION.match(line):
            self.add_section(number, match["number"], match["title"])
        elif match := _CHAPTER.match(line):
            self.add_chapter(number, match["number"], match["title"])
        elif _EXAMPLE.match(line):
            if self.current is None:
                raise self.error(number, "an Example before any rule")
            self.current.examples.append(line)
            self.examples += 1
        elif self.current is not None:
            # An indented continuation paragraph (205.4c, 509.1b) belongs to the rule above it.
            if self.current.examples:
                self.current.examples[-1] += "\n" + line
            else:
                self.current.lines.append(line)
        else:
            raise self.error(number, f"unexpected text before the first rule: {line[:60]!r}")

    def new(self, draft: _Draft) -> _Draft:
        if draft.local in self.drafts:
            first = self.drafts[draft.local].line
            raise self.error(draft.line, f"duplicate rule number {draft.local} (first at line {first})")
        self.drafts[draft.local] = draft
        return draft

    def add_chapter(self, line: int, number: str, title: str) -> None:
        self.chapter = self.new(_Draft(number, "section", number, title, [title], line, (), None))
        self.section = self.rule = self.current = None

    def add_section(self, line: int, number: str, title: str) -> None:
        if self.chapter is None or self.chapter.number != number[0]:
            raise self.error(line, f"section {number} outside its chapter {number[0]}")
        path = (f"{self.chapter.number}. {self.chapter.title}",)
        draft = _Draft(number, "section", number, title, [title], line, path, self.chapter.local)
        self.section = self.new(draft)
        self.rule = self.current = None

    def add_rule(self, line: int, number: str, text: str) -> None:
        section = self.require_section(line, number)
        path = (*section.heading_path, f"{section.number}. {section.title}")
        self.rule = self.current = self.new(
            _Draft(number, "rule", number, section.title, [text], line, path, section.local)
        )

    def add_subrule(self, line: int, number: str, text: str) -> None:
        section = self.require_section(line, number)
        path = (*section.heading_path, f"{section.number}. {section.title}")
        parent = self.rule if self.rule is not None and number.startswith(self.rule.local) else section
        # The letters must follow the rule's own number: 722.4a under 722.4, not 722.41.
        if parent is self.rule and not number[len(parent.local) :].isalpha():
            parent = section
        draft = _Draft(number, "subrule", number, section.title, [text], line, path, parent.local)
        self.current = self.new(draft)

    def require_section(self, line: int, number: str) -> _Draft:
        if self.section is None or self.section.local != number.split(".")[0]:
            raise self.error(line, f"rule {number} outside its section {number.split('.')[0]}")
        return self.section

    def in_glossary(self, number: int, line: str) -> None:
        if not line:
            self.term = None
            return
        if self.term is None:
            if line == "Credits":
                self.state = State.CREDITS
                return
            title = _OBSOLETE.sub("", line)
            slug = slugify(title)
            if not slug:
                raise self.error(number, f"unreadable glossary term {line!r}")
            parts = [part.strip(" \u201c\u201d\"") for part in title.split(",")]
            draft = _Draft(f"glossary/{slug}", "glossary", None, title, [], number, ("Glossary",), None)
            draft.obsolete = title != line
            draft.aliases = [part for part in parts if part and len(parts) > 1]
            if draft.local in self.drafts:
                raise self.error(number, f"duplicate glossary term {title!r}")
            self.term = self.new(draft)
        else:
            self.term.lines.append(line)

    def finish(self) -> tuple[str, list[_Draft]]:
        if self.effective is None:
            raise self.error(self.last_line, "not a Comprehensive Rules release: no 'effective as of' date")
        has_rules = any(d.kind == "rule" for d in self.drafts.values())
        if self.state in (State.TITLE, State.CONTENTS) or not has_rules:
            raise self.error(self.last_line, "no rules found: not a complete Comprehensive Rules release")
        if self.state is State.RULES:
            raise self.error(self.last_line, "truncated: the file ends before the Glossary")
        if self.state is State.GLOSSARY:
            raise self.error(self.last_line, "truncated: the file ends before the Credits")
        return self.effective, list(self.drafts.values())


# --------------------------------------------------------------------------- drafts -> records


def _glossary_aliases(drafts: list[_Draft]) -> None:
    """Aliases of glossary entries.

    "Control, Controller" covers two terms; "Active Player, Nonactive Player Order" is one term whose first
    part is another entry's title, so it is not split. An entry reading only "See X." ("APNAP Order") makes
    its term an alias of X.
    """
    by_title = {d.title.lower(): d for d in drafts if d.kind == "glossary"}
    for draft in drafts:
        if any(alias.lower() in by_title for alias in draft.aliases):
            draft.aliases = []
    for draft in drafts:
        if draft.kind == "glossary" and len(draft.lines) == 1:
            match = _SEE_ONLY.match(draft.lines[0])
            target = by_title.get(match["target"].lower()) if match else None
            if target is not None and draft.title not in target.aliases:
                target.aliases.append(draft.title)


def _records(effective: str, source: str, drafts: list[_Draft]) -> list[Record]:
    children: dict[str, list[str]] = {}
    for draft in drafts:
        if draft.parent is not None:
            parent = make_id(DOCUMENT, effective, draft.parent)
            children.setdefault(parent, []).append(make_id(DOCUMENT, effective, draft.local))
    records = []
    for draft in drafts:
        rid = make_id(DOCUMENT, effective, draft.local)
        records.append(
            Record(
                id=rid,
                document=DOCUMENT,
                edition=effective,
                kind=draft.kind,
                text="\n".join(draft.lines),
                number=draft.number,
                title=draft.title,
                heading_path=draft.heading_path,
                effective=effective,
                official=True,
                parent=make_id(DOCUMENT, effective, draft.parent) if draft.parent else None,
                children=tuple(children.get(rid, ())),
                examples=tuple(draft.examples),
                aliases=tuple(draft.aliases),
                obsolete=draft.obsolete,
                provenance=(Provenance(source=source, line=draft.line),),
            )
        )
    return records


def parse_release(path_or_bytes: str | Path | bytes, source_name: str | None = None) -> Release:
    """Parse one release (a path, or its bytes) into records; bad input raises :class:`InputError`."""
    if isinstance(path_or_bytes, bytes):
        data, source = path_or_bytes, source_name or "<bytes>"
    else:
        path = Path(path_or_bytes)
        source = source_name or path.name
        data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")
    lines = split_lines(decode_release(data, source))
    reader = _Reader(source)
    for number, raw in enumerate(lines, start=1):
        reader.feed(number, raw)
    effective, drafts = reader.finish()
    _glossary_aliases(drafts)
    records = _records(effective, source, drafts)
    counts = {
        "chapters": sum(1 for d in drafts if d.kind == "section" and len(d.local) == 1),
        "sections": sum(1 for d in drafts if d.kind == "section" and len(d.local) == 3),
        "rules": sum(1 for d in drafts if d.kind == "rule"),
        "subrules": sum(1 for d in drafts if d.kind == "subrule"),
        "examples": reader.examples,
        "glossary": sum(1 for d in drafts if d.kind == "glossary"),
        "obsolete": sum(1 for d in drafts if d.obsolete),
    }
    return Release(effective, source, records, counts, hashlib.sha256(data).hexdigest())


SAMPLE = (
    "\ufeffMagic: The Gathering Comprehensive Rules\r\n\r\n"
    "These rules are effective as of June 7, 2024.\r\n\r\n"
    "Contents\r\n\r\n7. Additional Rules\r\n722. The Monarch\r\n\r\nGlossary\r\n\r\nCredits\r\n\r\n"
    "7. Additional Rules\r\n\r\n722. The Monarch\r\n\r\n"
    "722.1. The monarch is a designation a player can have.\r\n\r\n722.1a A subrule.\r\n\r\n"
    "722.2. Another rule.\r\n\r\nExample: An example.\r\n\r\n"
    "Glossary\r\n\r\nMonarch\r\n"
    "A designation a player can have. See rule 722, \u201cThe Monarch.\u201d\r\n\r\n"
    "Credits\r\n\r\nSomeone\r\n"
).encode("utf-8")
