"""Citations a judge can read aloud: a record's citation, the seeds that quote the same rule in another
edition, and whether its edition is the current one.

The rules model cites official rules in the numbering of the built-in release; a source document may
quote the same rule from an older edition under another number. The label names both, so that a judge
reading "722.4" in the Monarch page's quote finds it in today's rules:

    CR 725.4 (2026-04-17) — 722.4 in the 2024-06-07 rules the Monarch page quotes
"""

from __future__ import annotations

from rulesjudge.corpus.records import Corpus, Record, document_of, edition_of

#: How a judge names a source document that quotes official rules (manifest ids).
QUOTING_SOURCES: dict[str, str] = {
    "monarch-wiki": "the Monarch page",
    "emperor-rules": "the Emperor page",
    "players-mtgsalvation": "the Player page",
    "treachery-rules-v4": "the Treachery rules",
}


def quoting_sources(record: Record) -> list[str]:
    """The source documents that quote ``record`` (by how a judge names them), in provenance order.

    >>> from rulesjudge.corpus.records import Provenance
    >>> quoting_sources(Record("cr@2024-06-07/722.4", "cr", "2024-06-07", "rule", "...",
    ...     provenance=(Provenance("cr-2024-06-07.txt", 5859), Provenance("monarch-wiki", 33))))
    ['the Monarch page']
    """
    names = (QUOTING_SOURCES.get(p.source) for p in record.provenance)
    return list(dict.fromkeys(name for name in names if name))


def quoted_as(corpus: Corpus, record_id: str) -> list[str]:
    """Where source documents quote the same rule in another edition, oldest edition first:
    ``["722.4 in the 2024-06-07 rules the Monarch page quotes"]``."""
    notes = []
    for other_id, _changed in sorted(corpus.equivalents(record_id), key=lambda item: edition_of(item[0])):
        other = corpus.get(other_id)
        pages = quoting_sources(other) if other is not None else []
        if other is None or not pages or other.kind == "reminder":
            continue
        quote = " and ".join(pages) + (" quotes" if len(pages) == 1 else " quote")
        notes.append(f"{other.number or other.title} in the {other.edition} rules {quote}")
    return notes


def cite_label(corpus: Corpus, record_id: str) -> str:
    """A record's citation with the seeds' quotes of the same rule in other editions as provenance."""
    record = corpus.get(record_id)
    if record is None:
        return record_id
    notes = quoted_as(corpus, record_id)
    return record.citation + (" \u2014 " + "; ".join(notes) if notes else "")


def edition_status(corpus: Corpus, record_id: str) -> str:
    """"current" when no newer loaded edition of the document exists or the newest holds this very
    record; otherwise where the rule lives in the current rules, or that it is not in them.

    A 2015 rule the Player page quotes is not current just because no newer release was matched to it.
    """
    document, edition = document_of(record_id), edition_of(record_id)
    # Only dated editions are newer or older: the wiki's "undated" ruling does not supersede the dated ones.
    dated = [e for e in corpus.editions(document) if _is_date(e)]
    newest = dated[-1] if dated else edition
    if edition == newest or not _is_date(edition):
        return "current"
    latest = corpus.latest(record_id)
    if latest != record_id and edition_of(latest) == newest:
        record = corpus.get(latest)
        now = record.number or record.title if record is not None else latest
        return f"older edition (now {now} in the current rules, {newest})"
    return f"older edition (not in the current rules, {newest})"


def _is_date(text: str) -> bool:
    return len(text) == 10 and text[4] == "-" and text[7] == "-"
