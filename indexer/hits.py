"""Search stage: hits — what a result shows of a record (citation, text, context, cross-references).

>>> from rulesjudge.corpus.records import Record
>>> rule = Record("cr@x/809.3", "cr", "x", "rule", "Emperor players attack.", number="809.3")
>>> hit = make_hit(rule, {rule.id: rule}, 0.5, "hybrid")
>>> hit.id, hit.number, hit.match, hit.context
('cr@x/809.3', '809.3', 'hybrid', '')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesjudge.corpus.records import Record
from rulesjudge.indexer.chunks import section_of


@dataclass
class Hit:
    """One search result with its citation, text, context and resolved cross-references."""

    id: str
    number: str | None
    document: str
    edition: str
    kind: str
    title: str
    text: str
    score: float
    cross_refs: list[str]
    official: bool
    citation: str
    parent: str | None = None
    context: str = ""  # section and parent rule, for display
    examples: list[str] = field(default_factory=list)
    match: str = "hybrid"  # exact | equivalent | hybrid | bm25 | dense
    note: str | None = None
    #: records shown with this hit rather than in its place: the glossary entry that points at this rule,
    #: a title-only section or rule whose first rule this is (see :meth:`Folding.target`)
    related: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "number": self.number,
            "document": self.document,
            "edition": self.edition,
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "score": round(self.score, 6),
            "cross_refs": list(self.cross_refs),
            "official": self.official,
            "citation": self.citation,
            "parent": self.parent,
            "context": self.context,
            "examples": list(self.examples),
            "match": self.match,
            "note": self.note,
            "related": list(self.related),
        }


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    notes: list[str] = field(default_factory=list)
    exact: bool = False
    #: the cards the question names, each with its text and its rulings ranked by the question
    #: (:mod:`indexer.card_stage`); empty when no card is named or no card corpus is loaded
    cards: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "exact": self.exact, "notes": list(self.notes),
                "hits": [hit.to_json() for hit in self.hits],
                "cards": [card.to_json() for card in self.cards]}


def short(text: str, limit: int = 160) -> str:
    """The text on one line, cut at a word before ``limit`` characters.

    >>> short("a  b c", 3)
    'a …'
    """
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def make_hit(record: Record, records: Mapping[str, Record], score: float, match: str,
             note: str | None = None, related: Sequence[str] = ()) -> Hit:
    """A record as a hit, with its section and parent rule as context."""
    parent = records.get(record.parent) if record.parent else None
    section = section_of(record, records)
    context: list[str] = []
    if section is not None:
        label = f"{section.number}. {section.title}" if section.number else section.title
        context.append(label.strip())
    if parent is not None and parent is not section:
        context.append(f"{parent.number or parent.title} {short(parent.text)}".strip())
    if not context and record.heading_path:
        context.append(" › ".join(record.heading_path))
    return Hit(
        id=record.id,
        number=record.number,
        document=record.document,
        edition=record.edition,
        kind=record.kind,
        title=record.title,
        text=record.text,
        score=score,
        cross_refs=[ref.target for ref in record.cross_refs if ref.target],
        official=record.official,
        citation=record.citation,
        parent=record.parent,
        context=" › ".join(context),
        examples=list(record.examples),
        match=match,
        note=note,
        related=list(related),
    )
