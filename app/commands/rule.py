"""``rulesjudge rule NUMBER``: one rule, its document and edition, and where it lives in other editions.

Kept light on purpose (a judge expects the answer at once): no search index, no torch.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesjudge.corpus.records import Record
    from rulesjudge.corpus.releases import RuleReport

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$|^[\w.]+$")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rule", help="a rule, its edition, and where it lives in other editions")
    p.add_argument("number", metavar="NUMBER", help="rule number (722.4, 809.3c, 722) or a glossary term")
    p.add_argument("--edition", metavar="DATE", help="edition to read (default: newest loaded having NUMBER)")
    p.add_argument("--document", help="document: cr, treachery, ... (default: the one that has NUMBER)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulesjudge.corpus.errors import InputError
    from rulesjudge.corpus.releases import SeveralDocuments, find_rule, rule_report
    from rulesjudge.corpus.store import load_corpus

    if args.edition is not None and not DATE.match(args.edition):
        raise InputError("command line", f"not an edition: {args.edition!r} (use a date like 2024-06-07)",
                         key="--edition")
    corpus = load_corpus()
    try:
        record = find_rule(corpus, args.number, args.document, args.edition)
    except SeveralDocuments as several:
        print(render_choices(several.number, several.records))
        return 0
    report = rule_report(corpus, record, newest=args.edition is None)
    print(render(report))
    return 0


def render(report: RuleReport) -> str:
    """The rule as a judge reads it: header, source, text, examples, references, other editions."""
    record = report.record
    if record.kind == "glossary":
        lines = [f"{record.citation.split(' ')[0]} glossary \u201c{record.title}\u201d ({record.edition})"]
    else:
        lines = [f"{record.citation} \u2014 {record.title}" if record.title else record.citation]
    effective = f", effective {record.effective}" if record.effective else ""
    official = "official" if record.official else "fan-made"
    title = f"{record.document_title} ({record.document})"
    lines.append(f"{title}, edition {record.edition}{effective}, {official}")
    sources = ", ".join(f"{p.source}" + (f" line {p.line}" if p.line else "") for p in record.provenance)
    lines.append(f"Read from: {sources}")
    lines.append("")
    lines.extend(_wrap(record.text))
    for example in record.examples:
        lines.append("")
        lines.extend(_wrap(example))
    if record.aliases:
        lines.append(f"Also: {', '.join(record.aliases)}")
    refs = [f"{ref.label} -> {ref.target or 'not loaded'}" for ref in record.cross_refs]
    if refs:
        lines.append("")
        lines.append("References: " + "; ".join(refs))
    lines.append("")
    if report.equivalents:
        lines.append("Same rule in other loaded editions:")
        for other, changed in sorted(report.equivalents, key=lambda item: item[0].edition):
            what = "text changed" if changed else "same text"
            moved = "" if other.number == record.number else f" (renumbered from {record.number})"
            lines.append(f"  {other.edition}: {other.number or other.title}{moved}, {what}")
    else:
        lines.append("Same rule in other loaded editions: none found")
    for warning in report.warnings:
        lines.append(f"Warning: {warning}")
    for other, now in report.other_meanings:
        lines.append("")
        heading = f"{other.citation} \u2014 {other.title}" if other.title else other.citation
        where = f" (now {now.number} in {now.edition})" if now is not None else ""
        lines.append(f"{record.number} in {other.edition}: {heading}{where}")
        lines.extend(_wrap(other.text))
    return "\n".join(lines)


def render_choices(number: str, records: list[Record]) -> str:
    """The documents that number ``number`` differently, each with the command that reads it."""
    lines = [f"{number} is a rule of {len(records)} loaded documents; choose one with --document:"]
    for record in records:
        official = "official" if record.official else "fan-made"
        words = record.text.split()
        about = " ".join(words[:10]) + (" \u2026" if len(words) > 10 else "")
        lines.append(f"  --document {record.document}: {record.citation}, {official}: {about}")
    return "\n".join(lines)


def _wrap(text: str) -> list[str]:
    out: list[str] = []
    for paragraph in text.splitlines():
        out.extend(textwrap.wrap(paragraph, width=100) or [""])
    return out
