"""Reader of the Emperor variant's page (emperor-rules.txt)."""

from __future__ import annotations

from rulesjudge.corpus import clean
from rulesjudge.corpus.documents.building import (
    Builder,
    QuotedRules,
    is_title_line,
    quote_marker,
    quoted_edition,
    split_rule_line,
)
from rulesjudge.corpus.documents.manifest import Source
from rulesjudge.corpus.records import Record, slugify


def read_emperor_rules(text: str, source: Source) -> list[Record]:
    """The Old School page "Emperor Rules": markdown prose, rule 809 and three glossary entries."""
    blocks = clean.markdown_blocks(text)
    edition = quoted_edition(Builder(source, official={}, effective={}), (b.text for b in blocks))
    builder = Builder(source, official={"cr": True}, effective={"cr": edition})
    quoted = QuotedRules(builder, edition)
    start = next((i for i, block in enumerate(blocks) if block.text.isupper()), None)
    if start is None:
        raise builder.error("no page title (a line in capitals such as 'EMPEROR RULES')")
    page = source.title
    first_line = blocks[start + 1].line if start + 1 < len(blocks) else blocks[start].line
    section = builder.add("emperor-page", edition, "section/introduction", "prose", first_line,
                          title="Introduction", heading_path=(page,))
    mode = "prose"
    for block in blocks[start + 1:]:
        line, rendered = block.line, block.text
        if marker := quote_marker(rendered):
            mode = marker
            continue
        if mode == "glossary":
            quoted.glossary_line(rendered, line)
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
        if not block.item and is_title_line(rendered, max_words=6):
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
