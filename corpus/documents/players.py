"""Reader of the Player page (players-mtgsalvation.txt)."""

from __future__ import annotations

from rulesjudge.corpus import clean
from rulesjudge.corpus.documents.building import (
    QUOTES_RULES,
    Builder,
    Draft,
    QuotedRules,
    quoted_edition,
    split_rule_line,
)
from rulesjudge.corpus.documents.manifest import Source
from rulesjudge.corpus.records import Record, slugify


def read_player_page(text: str, source: Source) -> list[Record]:
    """The MTG Salvation wiki page "Player": quoted rules 102, 506.2, 802, 810.7 and four prose sections."""
    lines = text.splitlines()
    edition = quoted_edition(Builder(source, official={}, effective={}), lines)
    builder = Builder(source, official={"cr": True}, effective={"cr": edition})
    quoted = QuotedRules(builder, edition)
    page: str | None = None
    mode = "chrome"  # chrome -> navigation -> quote / prose
    section: Draft | None = None
    after_blank = False
    pending_example = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            after_blank = True
            continue
        blank_before, after_blank = after_blank, False
        if mode in {"chrome", "navigation"} and not line.startswith(QUOTES_RULES):
            if clean.is_wiki_chrome(line):
                continue
            if line.startswith("Jump to:"):
                continue
            if page is None:
                page = line
            elif mode == "chrome":
                mode = "navigation"  # the wiki's table of contents of the rules: not rules
            continue
        if line.startswith(QUOTES_RULES):
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
