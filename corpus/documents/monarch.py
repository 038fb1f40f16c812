"""Readers of the Monarch's two documents: the wiki page (monarch-wiki.txt) and the card rulings list
(monarch-card-rulings.txt).
"""

from __future__ import annotations

import re

from rulesjudge.corpus import clean
from rulesjudge.corpus.documents.building import (
    Builder,
    Draft,
    QuotedRules,
    add_ruling,
    is_title_line,
    quote_marker,
    quoted_edition,
    ruling_topic,
    slash_date,
    split_rule_line,
)
from rulesjudge.corpus.documents.manifest import Source
from rulesjudge.corpus.records import Record, slugify

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
    edition = quoted_edition(Builder(source, official={}, effective={}), lines)
    builder = Builder(source, official={"cr": True, "rulings": True},
                       effective={"cr": edition, "rulings": None})
    page = lines[0].strip()
    quoted = QuotedRules(builder, edition)
    prose_doc = "monarch-wiki"

    def prose(title: str, line: int) -> Draft:
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

    section: Draft | None = intro
    mode = "prose"
    topic: str | None = None
    for number, raw in enumerate(lines[index:], start=index + 1):
        line = raw.strip()
        if not line:
            continue
        if marker := quote_marker(line):
            mode = marker
            continue
        if is_title_line(line) and line != "-":
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
            quoted.glossary_line(item, number)
        elif mode == "rules" and item is not None:
            parts = split_rule_line(item)
            if not parts:
                raise builder.error(f"expected a rule, got {item[:40]!r}", number)
            quoted.add(*parts, number)
        elif mode == "rulings" and item is not None:
            topic = ruling_topic(item, topic)
            add_ruling(builder, None, item, number, topic, (page, "Rulings"))
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
    builder = Builder(source, official={"rulings": True},
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
        add_ruling(builder, date, line, number, topic, (heading,))
        date = None
    if not builder.drafts:
        raise builder.error("no rulings found (expected a date line such as '10/14/2022 |' before each)")
    return builder.records()
