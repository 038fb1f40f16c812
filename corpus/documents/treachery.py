"""Reader of the fan-made Treachery rules and identity card notes (treachery-rules-v4.txt)."""

from __future__ import annotations

import re

from rulesjudge.corpus import clean
from rulesjudge.corpus.documents.building import (
    LIST_LINE,
    Builder,
    Draft,
    long_date,
    rule_ancestors,
    rule_kind,
    split_rule_line,
)
from rulesjudge.corpus.documents.manifest import Source
from rulesjudge.corpus.records import Record, glossary_local, slugify

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
    stub = Builder(source, official={}, effective={})
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
    builder = Builder(source, official={"treachery": False}, effective={"treachery": effective})
    doc = "treachery"
    dates = {number: date for number, _version, date in entries}
    entry: Draft | None = None
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


def _treachery_rules(builder: Builder, edition: str, lines: list[tuple[int, str]]) -> None:
    """Rules 109.2tr … 907.13: chapters and numbered titles are headings; Notes and lists stay with a rule."""
    paragraphs = clean.join_paragraphs(
        lines,
        is_heading=_is_rule_heading,
        starts_item=lambda t: bool(split_rule_line(t) or t.startswith("Note:") or LIST_LINE.match(t)),
    )
    numbers = {parts[0] for p in paragraphs if (parts := split_rule_line(p.text))}
    chapter = ""
    titles: dict[str, str] = {}
    drafts: list[Draft] = []
    current: Draft | None = None
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


def _treachery_glossary(builder: Builder, edition: str, lines: list[tuple[int, str]]) -> None:
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
            builder.add("treachery", edition, glossary_local(entry[1]), "glossary", paragraph.line,
                        title=entry[1], heading_path=("GLOSSARY REMINDER",), paragraphs=[entry[2]])
        else:
            raise builder.error(f"unexpected glossary text: {paragraph.text[:40]!r}", paragraph.line)


def _treachery_notes(builder: Builder, edition: str, lines: list[tuple[int, str]]) -> None:
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
    current: Draft | None = None
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


def _card_note(builder: Builder, edition: str, name: str, line: int, role: str, first: str) -> Draft:
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
