"""``rulesjudge rule NUMBER``: one rule, its document and edition, and where it lives in other editions.

Kept light on purpose (a judge expects the answer at once): no search index, no torch.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import TYPE_CHECKING

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.releases import SeveralDocuments, about, find_rule, printed_number, rule_report, span
from rulesjudge.corpus.store import load_corpus

if TYPE_CHECKING:
    from rulesjudge.corpus.records import Record
    from rulesjudge.corpus.releases import Place, RuleReport

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$|^[\w.]+$")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rule", help="a rule, its edition, and where it lives in other editions")
    p.add_argument("number", metavar="NUMBER", help="rule number (722.4, 809.3c, 722) or a glossary term")
    p.add_argument("--edition", metavar="DATE", help="edition to read (default: newest loaded having NUMBER)")
    p.add_argument("--document", help="document: cr, treachery, ... (default: the one that has NUMBER)")
    p.add_argument("--all", action="store_true", help="every loaded edition on a line of its own")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
    print(render(report, every_edition=args.all))
    return 0


def render(report: RuleReport, *, every_edition: bool = False) -> str:
    """The rule as a judge reads it: header, source, text, examples, references, then where it is in the
    other loaded editions -- runs of unchanged editions on one line each, or (``every_edition``) one
    line per edition."""
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
    for quote in report.quoted_by:
        lines.append(f"Also quoted: {quote.citation}")
    lines.append("")
    lines.extend(_editions(report, every_edition))
    lines.extend(f"Warning: {warning}" for warning in _warnings(report, every_edition))
    if report.newest:
        for other in report.others:
            lines.append("")
            heading = f"{other.record.citation} \u2014 {other.record.title}" if other.record.title \
                else other.record.citation
            now = f" (now {printed_number(other.here)} in {record.edition})" if other.here else ""
            lines.append(f"{record.number} in {span(other.editions)}: {heading}{now}")
            lines.extend(_wrap(other.record.text))
    return "\n".join(lines)


def _editions(report: RuleReport, every_edition: bool) -> list[str]:
    """Where the rule is in the loaded editions, oldest first."""
    record = report.record
    present = [place for place in report.places if place.record_id is not None]
    if len(present) <= 1:
        return ["Same rule in other loaded editions: none found"]
    name = record.number or record.title
    if every_edition:
        lines = [f"This rule in each of the {len(report.places)} loaded editions (oldest first):"]
        previous = None
        for place in report.places:
            lines.append(f"  {place.edition}: {_change(place, previous, record)}")
            previous = place if place.record_id is not None else previous
        return lines
    lines = [f"This rule in the {len(report.places)} loaded editions (oldest first; --all lists each):"]
    for run in report.runs:
        where = span(run.editions)
        if run.number is None:
            lines.append(f"  not in {where}")
            continue
        what = [f"renumbered from {run.renumbered_from}"] if run.renumbered_from else []
        what += ["text edited"] if run.edited else []
        what += ["text unchanged"] if len(run.places) > 1 and not what else []
        here = " (this edition)" if record.edition in run.editions else ""
        label = run.number if record.kind != "glossary" else name
        lines.append(f"  {label} in {where}" + "".join(f", {w}" for w in what) + here)
    return lines


def _change(place: Place, previous: Place | None, record: Record) -> str:
    """One edition of the long form: the number, and what changed since the edition before."""
    if place.record_id is None:
        return "not there"
    label = place.number if record.kind != "glossary" else record.title
    what = []
    if previous is not None and previous.number != place.number:
        what.append(f"renumbered from {previous.number}")
    if previous is not None:
        what.append("text edited" if previous.key != place.key else "same text")
    if place.edition == record.edition:
        what.append("this edition")
    return f"{label}" + "".join(f", {w}" for w in what)


def _warnings(report: RuleReport, every_edition: bool) -> list[str]:
    if not every_edition:
        return report.warnings
    record = report.record
    lines: list[str] = []
    for other in report.others:
        there = (f"; that rule is {printed_number(other.here)} in {record.edition}" if other.here
                 else f"; that rule is not in {record.edition}")
        lines.extend(f"{record.number} means a different rule in {edition} ({about(other.record)}){there}."
                     for edition in other.editions)
    return lines + report.warnings[len(report.others):]


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
