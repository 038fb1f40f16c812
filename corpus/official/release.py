"""A parsed release: :func:`parse_release` runs the decoding, the line checks and the state machine,
then builds the records from the drafts (ids, parents and children, glossary aliases) and counts them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.official.decoding import (
    APOSTROPHE,
    LOST_CHARACTERS,
    lost_characters,
    read_release_file,
    read_text,
)
from rulesjudge.corpus.official.lines import (
    SEE_ONLY,
    double_spaced,
    hard_wrapped_line,
    single_spaced,
    split_lines,
)
from rulesjudge.corpus.official.reader import DOCUMENT, Draft, Reader
from rulesjudge.corpus.records import Provenance, Record, make_id


@dataclass(frozen=True, slots=True)
class Release:
    """One parsed release: its effective date (also its edition), records in file order and counts."""

    effective: str
    source: str
    records: list[Record]
    counts: dict[str, int]
    sha256: str = ""
    #: The publisher's typos the reader worked around, one line each ("cr.txt:5860: rule 722.4 printed twice
    #: (first at line 5859): kept as cr@2009-10-01/722.4~2").
    warnings: tuple[str, ...] = ()
    #: How the file was read, a few words each: "gzip-compressed", "UTF-16 LE with BOM", "CR line ends",
    #: "212 no-break or narrow spaces read as spaces" (printed by ``corpus add``).
    read_as: tuple[str, ...] = ()

    @property
    def edition(self) -> str:
        return self.effective


def looks_like_release(data: bytes) -> bool:
    """True when ``data`` parses as an official Comprehensive Rules release."""
    try:
        parse_release(data, source_name="<bytes>")
    except InputError:
        return False
    return True

def _glossary_aliases(drafts: list[Draft]) -> None:
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
            match = SEE_ONLY.match(draft.lines[0])
            target = by_title.get(match["target"].lower()) if match else None
            if target is not None and draft.title not in target.aliases:
                target.aliases.append(draft.title)


def _records(effective: str, source: str, drafts: list[Draft]) -> list[Record]:
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
        data = read_release_file(path)
    text, read_as = read_text(data, source)
    lost, first_lost = lost_characters(text)
    if lost >= LOST_CHARACTERS and lost > len(APOSTROPHE.findall(text)):
        raise InputError(source, f"{lost} characters lost in a conversion ('?' inside words, or U+FFFD): "
                                 "the file was saved in an encoding without the release's quotes or letters "
                                 "(Latin-1, ASCII); use the release as published, or save it as UTF-8",
                         line=first_lost)
    lines = split_lines(text)
    wrapped = hard_wrapped_line(lines)
    if wrapped is not None:
        raise InputError(source, f"hard-wrapped text (line {wrapped} continues the sentence of line "
                                 f"{wrapped - 1}): not a release this reader can use; use the release's "
                                 "text file with one paragraph per line", line=wrapped)
    reader = Reader(source)
    if lost:
        reader.warn(first_lost, f"{lost} character(s) lost in a conversion ('?' inside a word, or U+FFFD): "
                                "the text keeps them as they are")
    numbered = list(enumerate(lines, start=1))
    if double_spaced(lines):
        numbered = single_spaced(numbered)
        read_as = (*read_as, "a blank line after every line (read as one line end)")
    for number, raw in numbered:
        reader.feed(number, raw)
    effective, drafts = reader.finish()
    _glossary_aliases(drafts)
    records = _records(effective, source, drafts)
    counts = {
        "chapters": sum(1 for d in drafts if d.kind == "section" and len(d.number or "") == 1),
        "sections": sum(1 for d in drafts if d.kind == "section" and len(d.number or "") == 3),
        "rules": sum(1 for d in drafts if d.kind == "rule"),
        "subrules": sum(1 for d in drafts if d.kind == "subrule"),
        "examples": reader.examples,
        "glossary": sum(1 for d in drafts if d.kind == "glossary"),
        "obsolete": sum(1 for d in drafts if d.obsolete),
    }
    return Release(effective, source, records, counts, hashlib.sha256(data).hexdigest(),
                   tuple(reader.warnings), read_as)


SAMPLE = (
    "\ufeffMagic: The Gathering Comprehensive Rules\r\n\r\n"
    "These rules are effective as of June 7, 2024.\r\n\r\n"
    "Contents\r\n\r\n1. Game Concepts\r\n100. General\r\n7. Additional Rules\r\n722. The Monarch\r\n\r\n"
    "Glossary\r\n\r\nCredits\r\n\r\n"
    "1. Game Concepts\r\n\r\n100. General\r\n\r\n"
    "100.1. These Magic rules apply to any Magic game with two or more players.\r\n\r\n"
    "7. Additional Rules\r\n\r\n722. The Monarch\r\n\r\n"
    "722.1. The monarch is a designation a player can have.\r\n\r\n722.1a A subrule.\r\n\r\n"
    "722.2. Another rule.\r\n\r\nExample: An example.\r\n\r\n"
    "Glossary\r\n\r\nMonarch\r\n"
    "A designation a player can have. See rule 722, \u201cThe Monarch.\u201d\r\n\r\n"
    "Credits\r\n\r\nSomeone\r\n"
).encode("utf-8")
