"""Search stage: which records a search may show — the filters (document, edition or date, official only)
and the hiding of superseded editions.

Without an edition filter every document shows its *current* text: an older edition's record is hidden
when a complete newer release (at least :data:`FULL_RELEASE_RULES` numbered rules) is loaded, or when the
cross-release map finds the same rule in a newer loaded edition. With ``edition`` a date, each document
shows the editions in effect on that date; with an edition name ("4.0"), only that edition.

>>> Filters(document="cr").official_only
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import Corpus, Record, edition_of

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: An edition with at least this many numbered rules is a complete release, not a page quoting a few.
FULL_RELEASE_RULES = 500


@dataclass(frozen=True)
class Filters:
    document: str | None = None
    edition: str | None = None
    official_only: bool = False


def is_date(text: str) -> bool:
    """Whether an edition is a date (official releases) rather than a name ("4.0").

    >>> is_date("2026-04-17"), is_date("4.0")
    (True, False)
    """
    return bool(_ISO_DATE.match(text))


def edition_date(record: Record) -> str | None:
    """The date a record's edition took effect: its edition when that is a date, else ``effective``."""
    if is_date(record.edition):
        return record.edition
    return record.effective if record.effective and is_date(record.effective) else None


class Visibility:
    """The filters checked and applied over one corpus; results cached per filter set."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.records = corpus.records
        # the corpus lists its documents: no record is built for that
        self.documents = sorted({document for document, _edition, _count in corpus.documents()})
        self._visible: dict[Filters, frozenset[str]] = {}
        self._equivalents: dict[str, list[str]] = {}
        self._editions: dict[str, list[str]] = {}

    def check(self, filters: Filters) -> None:
        """An :class:`InputError` for an unknown document, a malformed date or an unknown edition."""
        if filters.document is not None and filters.document not in self.documents:
            known = ", ".join(self.documents)
            raise InputError(None, f"unknown document {filters.document!r} (loaded: {known})", key="document")
        if filters.edition is not None and not is_date(filters.edition):
            editions = {edition for _document, edition, _count in self.corpus.documents()}
            if filters.edition not in editions:
                raise InputError(None, f"bad edition {filters.edition!r}: expected a date YYYY-MM-DD "
                                 "or a loaded edition name", key="edition")
        if filters.edition is not None and is_date(filters.edition):
            import datetime

            try:
                datetime.date.fromisoformat(filters.edition)
            except ValueError as error:
                raise InputError(None, f"bad date {filters.edition!r}: {error}", key="edition") from None

    def in_scope(self, record: Record, filters: Filters) -> bool:
        """Document, official and date filters (not the hiding of superseded editions)."""
        if filters.document is not None and record.document != filters.document:
            return False
        if filters.official_only and not record.official:
            return False
        if filters.edition is None:
            return True
        if not is_date(filters.edition):
            return record.edition == filters.edition
        date = edition_date(record)
        return date is None or date <= filters.edition

    def edition_order(self, document: str) -> list[str]:
        """A document's loaded editions, oldest first (dates sort as text; named editions first)."""
        if document not in self._editions:
            editions = self.corpus.editions(document)
            self._editions[document] = sorted(editions, key=lambda ed: (is_date(ed), ed))
        return self._editions[document]

    def equivalent_ids(self, record_id: str) -> list[str]:
        """The same rule in every other loaded edition (the corpus follows its cross-release map: a page
        quoting the 2022 rules maps to the 2022 release, which maps on to 2026)."""
        if record_id not in self._equivalents:
            found = (other for other, _changed in self.corpus.equivalents(record_id))
            self._equivalents[record_id] = sorted(found)
        return self._equivalents[record_id]

    def newest_equivalent(self, record: Record, filters: Filters) -> Record | None:
        """The same rule in the newest edition in scope newer than the record's, if any."""
        order = {ed: i for i, ed in enumerate(self.edition_order(record.document))}
        best: Record | None = None
        for other_id in self.equivalent_ids(record.id):
            other = self.records.get(other_id)
            if other is None or other.document != record.document or not self.in_scope(other, filters):
                continue
            if order.get(other.edition, -1) > order.get(record.edition, -1) and (
                best is None or order[other.edition] > order[best.edition]
            ):
                best = other
        return best

    def visible_ids(self, filters: Filters) -> frozenset[str]:
        """Records a search may show: in scope, and not superseded by a newer edition in scope."""
        if filters in self._visible:
            return self._visible[filters]
        by_document: dict[str, list[Record]] = {}
        for record in self.records.values():
            if self.in_scope(record, filters):
                by_document.setdefault(record.document, []).append(record)
        visible: set[str] = set()
        for document, records in by_document.items():
            visible.update(self._current(document, records))
        result = frozenset(visible)
        self._visible[filters] = result
        return result

    def _current(self, document: str, records: list[Record]) -> list[str]:
        """A document's records in scope less those a newer edition in scope supersedes."""
        order = {edition: i for i, edition in enumerate(self.edition_order(document))}
        editions = sorted({r.edition for r in records}, key=order.__getitem__)
        rule_counts: dict[str, int] = {}
        for record in records:
            if record.kind in {"rule", "subrule"}:
                rule_counts[record.edition] = rule_counts.get(record.edition, 0) + 1
        full = [ed for ed in editions if rule_counts.get(ed, 0) >= FULL_RELEASE_RULES]
        floor = order[full[-1]] if full else -1
        newest = order[editions[-1]]
        in_scope_ids = {r.id for r in records}
        current = []
        for record in records:
            rank = order[record.edition]
            if rank < floor:
                continue
            if rank < newest and any(
                other in in_scope_ids and order[other_edition] > rank
                for other in self.equivalent_ids(record.id)
                if (other_edition := edition_of(other)) in order
            ):
                continue
            current.append(record.id)
        return current
