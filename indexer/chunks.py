"""Chunks: the text of one record as search sees it, with its context.

One chunk per record. A rule is embedded with its section title and its parent rule (a subrule such as
809.3c says "A player can attack only an opponent seated immediately next to them"; only its parent says
this is about the Emperor variant's default options), and with its examples. Glossary entries, rulings,
Treachery card notes and wiki sections are chunks of their own.

Two texts per chunk:

* ``dense_text`` is what the embedding model reads. It carries neither the edition nor the rule number,
  so the same rule in five releases (renumbered or not) has one text and is embedded once
  (the embedding cache is keyed by :attr:`Chunk.key`).
* ``lexical_text`` is what BM25 reads: the number, the record's own words (title, aliases, text,
  examples) and its section title once. Context copied into every subrule — the heading "Keyword
  Abilities (Unveil & Undercover)" in every 702.187x, a parent rule's sentence — is kept out: repeated in
  every sibling it stops pointing anywhere, and a sibling would outrank the rule it was copied from.
  A parent whose own text is only a title ("702.19. Trample") lends it to its subrules.

A rule whose answer is in its subrules ("613.1 … in a series of layers in the following order:") carries
the start of each subrule in both texts, so "what are the seven layers" finds it.

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
>>> chunk.lexical_text
'809.3c Emperor Variant A player can attack only an opponent seated immediately next to them.'

"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulesjudge.corpus.records import Record

#: Bump when the chunk texts change shape: the manifest then no longer matches and the index rebuilds.
CHUNK_FORMAT = 4

# A parent rule's text is context, not content: keep only its start so that the record's own words
# dominate what the model reads (MiniLM truncates at 256 word pieces anyway).
_PARENT_CHARS = 220
_TITLE_WORDS = 6  # a parent this short is a title ("Trample", "Hexproof"), lent to its subrules
_CHILD_CHARS = 110  # each subrule's start, in a rule whose answer is its list of subrules
_CHILDREN_CHARS = 800
_LISTS = ("following", "as follows", "described below", "listed below", ":")
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
    #: each sentence of the record's own text and each example, with its short context (see
    #: :func:`sentence_texts`); embedded one by one so a long rule's decisive sentence is not diluted
    sentences: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The embedding cache key: the dense text's sha256 (same text, same vector)."""
        return text_key(self.dense_text)

    @property
    def sentence_keys(self) -> list[str]:
        return [text_key(sentence) for sentence in self.sentences]


def text_key(text: str) -> str:
    """The embedding cache key of a text: its sha256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dense_texts(chunks: Iterable[Chunk]) -> dict[str, str]:
    """Every text the model embeds for these chunks (chunk texts and their sentences), by key."""
    texts: dict[str, str] = {}
    for chunk in chunks:
        texts[chunk.key] = chunk.dense_text
        for sentence in chunk.sentences:
            texts.setdefault(text_key(sentence), sentence)
    return texts


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


def introduces_list(record: Record) -> bool:
    """Does the rule's text announce that its subrules hold the answer ("in the following order:")?"""
    text = record.text.strip()
    return record.kind in {"rule", "subrule"} and bool(record.children) and (
        text.endswith(":") or any(marker in text for marker in _LISTS[:-1]))


def _children_summary(record: Record, records: Mapping[str, Record]) -> str:
    parts: list[str] = []
    total = 0
    for child_id in record.children:
        child = records.get(child_id)
        if child is None or child.kind not in {"rule", "subrule"}:
            continue
        part = _shorten(child.text, _CHILD_CHARS)
        total += len(part)
        if total > _CHILDREN_CHARS:
            break
        parts.append(part)
    return " ".join(parts)


def _lexical(record: Record, records: Mapping[str, Record], own: str, summary: str) -> str:
    """Number, section title once, a title-like parent, the record's own words and examples."""
    head: list[str] = [record.number or ""]
    section = section_of(record, records)
    if record.kind in {"rule", "subrule", "reminder"}:
        if section is not None and section.title:
            head.append(section.title)
        elif record.title and record.title != record.number:
            head.append(record.title)
        parent = records.get(record.parent) if record.parent else None
        if parent is not None and parent is not section and len(parent.text.split()) <= _TITLE_WORDS:
            head.append(parent.text)
    head.extend(record.aliases if record.kind != "glossary" else ())
    examples = [_example(example) for example in record.examples]
    return " ".join(part for part in (*head, own, summary, *examples) if part)


# A sentence ends at . ! or ? (after a closing quote or bracket, if any) followed by a capital or an
# opening bracket or quote; "702.19." and "e.g. the" do not end one.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z(“\"])")
_SENTENCE_WORDS = 3  # a shorter piece ("See rule 702.") is no sentence of its own
_SENTENCE_CONTEXT = {"glossary", "card-note", "ruling", "prose", "rule", "subrule", "reminder"}


def split_sentences(text: str) -> list[str]:
    """The sentences of a text, each at least :data:`_SENTENCE_WORDS` words.

    >>> split_sentences("The chosen creatures must be untapped. Each blocks one attacker (see rule 509.1b).")
    ['The chosen creatures must be untapped.', 'Each blocks one attacker (see rule 509.1b).']
    """
    text = " ".join(text.split())
    return [piece for piece in _SENTENCE_END.split(text) if len(piece.split()) >= _SENTENCE_WORDS]


def sentence_context(record: Record, records: Mapping[str, Record]) -> str:
    """The short context each sentence is embedded with: what the record is about, in a few words (the
    section title and a title-like parent, the glossary term, the identity card)."""
    kind = record.kind
    if kind == "glossary":
        return f"Glossary: {record.title}."
    if kind == "card-note":
        return f"Identity card {record.title}:"
    if kind == "ruling":
        return f"{_DOCUMENT_LABELS.get(record.document, 'Ruling')}:"
    if kind == "prose":
        label = _DOCUMENT_LABELS.get(record.document)
        return " ".join(part for part in (f"{label}:" if label else "", record.title and f"{record.title}.")
                        if part)
    parts: list[str] = []
    label = _DOCUMENT_LABELS.get(record.document)
    if label:
        parts.append(f"{label}:")
    section = section_of(record, records)
    if section is not None and section.title:
        parts.append(f"{section.title}.")
    parent = records.get(record.parent) if record.parent else None
    if parent is not None and parent is not section and len(parent.text.split()) <= _TITLE_WORDS:
        parts.append(parent.text if parent.text.endswith(".") else f"{parent.text}.")
    return " ".join(parts)


def sentence_texts(record: Record, records: Mapping[str, Record]) -> tuple[str, ...]:
    """Each sentence of a record's own text and each of its examples, with :func:`sentence_context`.
    Only a record of two sentences or more has them: a one-sentence record's chunk is that sentence."""
    if record.kind not in _SENTENCE_CONTEXT:
        return ()
    pieces = [*split_sentences(record.text), *(_example(example) for example in record.examples)]
    if len(pieces) < 2:
        return ()
    context = sentence_context(record, records)
    return tuple(dict.fromkeys(f"{context} {piece}".strip() for piece in pieces))


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
    own = _own_text(record)
    pieces.append(own)
    summary = _children_summary(record, records) if introduces_list(record) else ""
    if summary:
        pieces.append(summary)
    if record.kind == "section":  # a bare title says little: add the start of the section's first rule
        first = next((records[c] for c in record.children if c in records), None)
        if first is not None:
            pieces.append(_shorten(first.text, _PARENT_CHARS))
    pieces.extend(_example(example) for example in record.examples)
    dense = " ".join(piece for piece in pieces if piece).strip()
    return Chunk(record.id, dense, _lexical(record, records, own, summary), sentence_texts(record, records))


def make_chunks(records: Mapping[str, Record] | Iterable[Record]) -> list[Chunk]:
    """Chunks for every record, in a stable order (sorted by id)."""
    by_id = dict(records) if isinstance(records, Mapping) else {r.id: r for r in records}
    return [make_chunk(by_id[record_id], by_id) for record_id in sorted(by_id)]


def corpus_hash(chunks: Iterable[Chunk]) -> str:
    """A content hash over every chunk (ids and both texts): changes whenever the corpus does."""
    digest = hashlib.sha256(f"chunks/{CHUNK_FORMAT}\n".encode())
    for chunk in chunks:
        for part in (chunk.id, chunk.dense_text, chunk.lexical_text, *chunk.sentences):
            digest.update(part.encode("utf-8"))
            digest.update(b"\x00")
    return digest.hexdigest()
