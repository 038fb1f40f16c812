"""Search stage: exact numbers — the rules a question names by number ("809.3c", "CR 722.4.", "718.4 (2020)").

Each number answers that rule first, followed by its subrules (a trailing period asks for the rule
alone). When the number exists in several loaded editions and means another rule in an older one, that
older rule is resolved through the cross-release map to its current number and a note says so.

>>> number_key("809.3") < number_key("809.3a") < number_key("809.3c") < number_key("809.10")
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rulesjudge.corpus.records import Record
from rulesjudge.indexer.hits import Hit
from rulesjudge.indexer.query import NumberRef, ParsedQuery
from rulesjudge.indexer.visibility import Filters, Visibility, edition_date

#: record, score, match, note -> hit (the orchestrator's hit builder)
HitMaker = Callable[[Record, float, str, "str | None"], Hit]


def number_key(number: str) -> tuple[Any, ...]:
    """Sort key for rule numbers: 809.3 < 809.3a < 809.3c < 809.10."""
    match = re.match(r"^(\d+)(?:\.(\d+)([a-z]*))?", number)
    if not match:
        return (10**6, number)
    return (int(match[1]), int(match[2] or -1), match[3] or "")


def moved(number: str, old: Record, new: Record) -> str:
    return f"{number} is the {old.edition} number; in {new.edition} this rule is {new.number}"


class ExactNumbers:
    """Groups of exact hits for the numbers of a parsed question (a rule followed by its subrules)."""

    def __init__(self, visibility: Visibility, make_hit: HitMaker) -> None:
        self.visibility = visibility
        self.corpus = visibility.corpus
        self.records = visibility.records
        self.make_hit = make_hit

    def numbered(self, number: str) -> dict[str, list[Record]]:
        """document -> records with this rule number, oldest edition first.

        Uses the corpus's own number index when it has one (``Corpus.numbered``), so answering "722.4"
        builds a handful of records, not the whole corpus."""
        found: dict[str, list[Record]] = {}
        for document in self.visibility.documents:
            by_edition = self.corpus.numbered(number, document)
            records = [self.records[rid] for rid in by_edition.values() if rid in self.records]
            if records:
                found[document] = records
        for document, records in found.items():
            records[:] = [r for r in records if r.kind in {"section", "rule", "subrule", "reminder"}]
            order = {ed: i for i, ed in enumerate(self.visibility.edition_order(document))}
            records.sort(key=lambda r: order.get(r.edition, -1))
        return {document: records for document, records in found.items() if records}

    def groups(self, parsed: ParsedQuery, filters: Filters) -> tuple[list[list[Hit]], list[str]]:
        """Groups of exact hits (a rule followed by its subrules) and the notes explaining them."""
        groups: list[list[Hit]] = []
        notes: list[str] = []
        for ref in parsed.refs:
            per_document = self.numbered(ref.number)
            documents = sorted(per_document, key=lambda d: (d not in {"cr", "rulings"}, d))
            for document in documents:
                if ref.document and document != ref.document:
                    continue
                records = [r for r in per_document[document] if self.visibility.in_scope(r, filters)]
                if not records:
                    continue
                groups.extend(self._groups_for(ref, records, filters, parsed, notes))
        return groups, notes

    def _groups_for(self, ref: NumberRef, records: list[Record], filters: Filters, parsed: ParsedQuery,
                    notes: list[str]) -> list[list[Hit]]:
        visibility = self.visibility
        primary = records[-1]
        hinted = [r for r in records if any((edition_date(r) or "").startswith(y) for y in parsed.years)]
        if hinted and hinted[-1] is not primary:
            primary = hinted[-1]  # "718.4 in the 2020 rules": read the number in that edition
        primary_family = {primary.id, *visibility.equivalent_ids(primary.id)}
        groups: list[list[Hit]] = []
        current = visibility.newest_equivalent(primary, filters) if primary is not records[-1] else None
        if current is not None:
            note = moved(ref.number, primary, current)
            notes.append(note)
            groups.append(self._group(current, ref, "equivalent", note))
        groups.append(self._group(primary, ref, "exact", None))
        shown = {primary.id} | ({current.id} if current else set())
        for older in reversed(records):  # the number's other meanings, newest first
            if older.id in primary_family or older is primary:
                continue
            newer = visibility.newest_equivalent(older, filters)
            if newer is not None and newer.id in shown:
                continue
            if newer is not None:
                note = moved(ref.number, older, newer)
                notes.append(note)
                groups.append(self._group(newer, ref, "equivalent", note))
                shown.add(newer.id)
            else:
                note = (f"{ref.number} in {older.edition} is a different rule from {ref.number} "
                        f"in {primary.edition}")
                notes.append(note)
                groups.append(self._group(older, ref, "exact", note))
            primary_family.update({older.id, *visibility.equivalent_ids(older.id)})
        return groups

    def _children(self, record: Record) -> list[Record]:
        children = [self.records[c] for c in record.children if c in self.records]
        children = [c for c in children if c.kind in {"rule", "subrule", "reminder"}]
        return sorted(children, key=lambda r: number_key(r.number or ""))

    def _group(self, record: Record, ref: NumberRef, match: str, note: str | None) -> list[Hit]:
        group = [self.make_hit(record, 0.0, match, note)]
        if not ref.alone:
            group.extend(self.make_hit(child, 0.0, match, None) for child in self._children(record))
        return group
