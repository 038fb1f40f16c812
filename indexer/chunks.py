"""Chunks: the text of one record as search sees it, with its context.

One chunk per record. A rule is embedded with its section title and its parent rule (a subrule such as
809.3c says "A player can attack only an opponent seated immediately next to them"; only its parent says
this is about the Emperor variant's default options), and with its examples. Glossary entries, rulings,
Treachery card notes and wiki sections are chunks of their own.

Two texts per chunk:

* ``dense_text`` is what the embedding model reads. It carries neither the edition nor the rule number,
  so the same rule in five releases (renumbered or not) has one text and is embedded once
  (the embedding cache is keyed by :attr:`Chunk.key`).
* ``lexical_text`` is what BM25 reads: the dense text plus number, heading path and aliases.

>>> from rulesjudge.corpus.records import Record
>>> section = Record("cr@2022-04-29/809", "cr", "2022-04-29", "section", "", number="809",
...                  title="Emperor Variant")
>>> rule = Record("cr@2022-04-29/809.3", "cr", "2022-04-29", "rule",
...               "The Emperor variant uses the following default options.", number="809.3",
...               parent="cr@2022-04-29/809")
>>> sub = Record("cr@2022-04-29/809.3c", "cr", "2022-04-29", "subrule",
...              "A player can attack only an opponent seated immediately next to them.",
...              number="809.3c", parent="cr@2022-04-29/809.3")
>>> records = {r.id: r for r in (section, rule, sub)}
>>> chunk = make_chunk(sub, records)
>>> print(chunk.dense_text)  # doctest: +NORMALIZE_WHITESPACE
Emperor Variant. The Emperor variant uses the following default options.
A player can attack only an opponent seated immediately next to them.
>>> chunk.lexical_text.startswith('809.3c Emperor Variant.')
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulesjudge.corpus.records import Record

#: Bump when the chunk texts change shape: the manifest then no longer matches and the index rebuilds.
CHUNK_FORMAT = 2

# A parent rule's text is context, not content: keep only its start so that the record's own words
# dominate what the model reads (MiniLM truncates at 256 word pieces anyway).
_PARENT_CHARS = 220
_DOCUMENT_LABELS = {
    "treachery": "Treachery",
    "rulings": "Official ruling",
    "monarch-wiki": "Monarch",
    "emperor-page": "Emperor format",
    "player-page": "Player",
}


@dataclass(frozen=True, slots=True)
class Chunk:
    """What gets embedded and indexed for one record."""

    id: str
    dense_text: str
    lexical_text: str

    @property
    def key(self) -> str:
        """The embedding cache key: the dense text's sha256 (same text, same vector)."""
        return hashlib.sha256(self.dense_text.encode("utf-8")).hexdigest()


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " …"


def section_of(record: Record, records: Mapping[str, Record]) -> Record | None:
    """The section record ("722. The Monarch") a rule or subrule sits in, when it is loaded."""
    seen = 0
    current: Record | None = record
    while current is not None and seen < 8:
        if current.kind == "section" and current is not record:
            return current
        current = records.get(current.parent) if current.parent else None
        seen += 1
    return None


def context_of(record: Record, records: Mapping[str, Record]) -> list[str]:
    """Context phrases that situate a record: section title, parent rule text, heading path."""
    parts: list[str] = []
    section = section_of(record, records)
    if section is not None and section.title:
        parts.append(section.title)
    elif record.title and record.title != record.number and not record.title.startswith("Reminder"):
        parts.append(record.title)  # a rule whose section is not loaded still carries its section title
    parent = records.get(record.parent) if record.parent else None
    if parent is not None and parent is not section and parent.kind in {"rule", "subrule", "reminder"}:
        parts.append(_shorten(parent.text, _PARENT_CHARS))
    if not parts and record.heading_path:
        parts.append(" › ".join(record.heading_path))
    return parts


def _own_text(record: Record) -> str:
    text = " ".join(record.text.split())
    kind = record.kind
    if kind == "glossary":
        names = ", ".join((record.title, *record.aliases)) if record.aliases else record.title
        return f"Glossary: {names}. {text}"
    if kind == "card-note":
        role = f" ({record.role})" if record.role else ""
        return f"Identity card {record.title}{role}: {text}"
    if kind == "ruling":
        return f"Ruling: {text}"
    if kind == "history":
        return f"Version history {record.number or record.title}: {text}"
    if kind == "section":
        return f"{record.title}. {text}".strip() if text and text != record.title else f"{record.title}."

    if kind == "prose" and record.title:
        return f"{record.title}. {text}"
    return text


def _example(text: str) -> str:
    text = " ".join(text.split())
    return text if text.lower().startswith("example") else f"Example: {text}"


def make_chunk(record: Record, records: Mapping[str, Record]) -> Chunk:
    """The chunk of one record, with context from the records it hangs under."""
    pieces: list[str] = []
    label = _DOCUMENT_LABELS.get(record.document)
    if label and record.kind not in {"ruling", "card-note"}:
        pieces.append(f"{label}:")
    if record.kind == "card-note":
        pieces.append("Treachery")
    if record.kind not in {"section", "glossary", "card-note", "ruling"}:
        pieces.extend(f"{part}." if not part.endswith((".", "…")) else part
                      for part in context_of(record, records))
    pieces.append(_own_text(record))
    if record.kind == "section":  # a bare title says little: add the start of the section's first rule
        first = next((records[c] for c in record.children if c in records), None)
        if first is not None:
            pieces.append(_shorten(first.text, _PARENT_CHARS))
    pieces.extend(_example(example) for example in record.examples)
    dense = " ".join(piece for piece in pieces if piece).strip()
    lexical_head = [record.number or "", record.title if record.kind not in {"section", "glossary"} else ""]
    lexical_head += list(record.heading_path)
    lexical_head += list(record.aliases)
    lexical = " ".join(part for part in (*lexical_head, dense) if part)
    return Chunk(record.id, dense, lexical)


def make_chunks(records: Mapping[str, Record] | Iterable[Record]) -> list[Chunk]:
    """Chunks for every record, in a stable order (sorted by id)."""
    by_id = dict(records) if isinstance(records, Mapping) else {r.id: r for r in records}
    return [make_chunk(by_id[record_id], by_id) for record_id in sorted(by_id)]


def corpus_hash(chunks: Iterable[Chunk]) -> str:
    """A content hash over every chunk (ids and both texts): changes whenever the corpus does."""
    digest = hashlib.sha256(f"chunks/{CHUNK_FORMAT}\n".encode())
    for chunk in chunks:
        for part in (chunk.id, chunk.dense_text, chunk.lexical_text):
            digest.update(part.encode("utf-8"))
            digest.update(b"\x00")
    return digest.hexdigest()
