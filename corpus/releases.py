"""Adding official releases to the user's data folder, and the text shown for one rule across editions.

Wizards of the Coast publishes the Comprehensive Rules at https://magic.wizards.com/en/rules (a .txt
file per release). ``rulesjudge corpus add PATH_OR_URL`` checks that the file parses as a release and
copies it, byte for byte and atomically, to ``data_dir()/releases/cr-<effective date>.txt``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.files import write_atomic
from rulesjudge.corpus.inputs import read_source
from rulesjudge.corpus.official import MAX_RELEASE_BYTES, Release, parse_release
from rulesjudge.corpus.records import Record, make_id, slugify
from rulesjudge.corpus.store import Corpus, user_release_paths, user_releases_folder

MAX_BYTES = MAX_RELEASE_BYTES


def fetch(source: str) -> tuple[bytes, str]:
    """The bytes of a local file or an http(s) URL, and a name for messages: a regular file or one
    download, at most :data:`MAX_BYTES`, within the reader's overall deadline (see corpus/inputs.py)."""
    return read_source(source, limit=MAX_BYTES, what="release file")


@dataclass(frozen=True)
class Added:
    """The outcome of ``corpus add``."""

    path: Path
    release: Release
    replaced: bool  # an older copy of the same edition was replaced
    unchanged: bool  # the very same file was already there


def add_release(source: str) -> Added:
    """Validate ``source`` as a release and copy it into the data folder; bad input raises InputError."""
    data, name = fetch(source)
    release = parse_release(data, source_name=name)  # refuses anything that is not a release
    target = user_releases_folder() / f"cr-{release.effective}.txt"
    existing = [p for p in user_release_paths() if p.name == target.name]
    if existing and hashlib.sha256(existing[0].read_bytes()).hexdigest() == release.sha256:
        return Added(target, release, replaced=False, unchanged=True)
    try:
        write_atomic(target, data)
    except OSError as error:
        raise InputError(target, f"cannot write to the data folder: {error.strerror or error}") from None
    return Added(target, release, replaced=bool(existing), unchanged=False)


# ------------------------------------------------------------------------ one rule across editions


@dataclass(frozen=True)
class RuleReport:
    """What ``rulesjudge rule`` prints: the record, its equivalents and the numbering warnings."""

    record: Record
    equivalents: list[tuple[Record, bool]]
    warnings: list[str]
    # Without --edition, the other rules the same number names in other loaded editions, each with where
    # that rule lives in the answered edition (None: not there). A judge typing "722.4" from a 2024
    # article then reads the Monarch too, not only 2026's Preparation Cards.
    other_meanings: list[tuple[Record, Record | None]] = field(default_factory=list)


class SeveralDocuments(Exception):
    """A number that several loaded documents use for different rules: the judge picks one."""

    def __init__(self, number: str, records: list[Record]) -> None:
        super().__init__(number)
        self.number = number
        self.records = records


def find_rule(corpus: Corpus, number: str, document: str | None = None, edition: str | None = None) -> Record:
    """The record a judge means by ``number`` (newest loaded edition when ``edition`` is None).

    Without ``document``, the one loaded document that has the number answers ("907.4c" is Treachery's);
    an official rule a fan document only recalls (Treachery's reminder of 104.3g) is the official rule;
    when documents use the number for different rules, :class:`SeveralDocuments` lists them.
    """
    key = number.strip()
    if document is not None:
        return _find_in(corpus, key, document, edition)
    found = {doc: record for doc in _documents(corpus)
             if (record := corpus.lookup(key, doc, edition)) is not None}
    for doc, record in list(found.items()):
        if record.kind == "reminder" and "cr" in found:
            del found[doc]  # the official rule itself answers
    if len(found) == 1:
        return next(iter(found.values()))
    if len(found) > 1:
        raise SeveralDocuments(key, sorted(found.values(), key=lambda r: (r.document != "cr", r.document)))
    if not key[:1].isdigit():  # a glossary term: the official glossary first
        for doc in sorted(_documents(corpus), key=lambda d: d != "cr"):
            record = _glossary_entry(corpus, key, doc, edition)
            if record is not None:
                return record
    return _find_in(corpus, key, "cr", edition)  # raises the message naming what is loaded


def _documents(corpus: Corpus) -> list[str]:
    return list(dict.fromkeys(document for document, _edition, _count in corpus.documents()))


def _glossary_entry(corpus: Corpus, term: str, document: str, edition: str | None) -> Record | None:
    local = f"glossary/{slugify(term)}"
    editions = [edition] if edition else list(reversed(corpus.editions(document)))
    return next((r for e in editions if (r := corpus.get(make_id(document, e, local)))), None)


def _find_in(corpus: Corpus, key: str, document: str, edition: str | None) -> Record:
    record = corpus.lookup(key, document, edition)
    if record is None and not key[:1].isdigit():  # a glossary term: "monarch", "Active Player"
        record = _glossary_entry(corpus, key, document, edition)
    if record is None:
        loaded = ", ".join(corpus.editions(document)) or "none"
        where = f"edition {edition}" if edition else f"any loaded edition (loaded: {loaded})"
        if edition and edition not in corpus.editions(document):
            where = f"edition {edition}, which is not loaded (loaded: {loaded})"
        raise InputError("command line", f"no rule {key} in {document} {where}", key="NUMBER")
    return record


def rule_report(corpus: Corpus, record: Record, *, newest: bool) -> RuleReport:
    """Equivalents of ``record`` in other editions, and warnings where its number means another rule."""
    equivalents = [(corpus.records[rid], changed) for rid, changed in corpus.equivalents(record.id)]
    same = {r.id for r, _ in equivalents}
    warnings = []
    other_meanings: list[tuple[Record, Record | None]] = []
    if record.number:
        for edition, rid in sorted(corpus.numbered(record.number, record.document).items()):
            if rid == record.id or rid in same:
                continue
            other = corpus.records[rid]
            moved = [r for r, _ in corpus_equivalents(corpus, rid) if r.edition == record.edition]
            there = f"; that rule is {moved[0].number} in {record.edition}" if moved else ""
            other_meanings.append((other, moved[0] if moved else None))
            warnings.append(
                f"{record.number} means a different rule in {edition} ({_about(other)}){there}."
            )
    if newest and warnings:
        warnings.append(f"Answered from {record.edition}, the newest loaded edition having {record.number}; "
                        f"use --edition to choose another.")
    return RuleReport(record, equivalents, warnings, other_meanings if newest else [])


def corpus_equivalents(corpus: Corpus, record_id: str) -> list[tuple[Record, bool]]:
    return [(corpus.records[rid], changed) for rid, changed in corpus.equivalents(record_id)]


def _about(record: Record) -> str:
    if record.title and record.title != record.number:
        return record.title
    words = record.text.split()
    return " ".join(words[:8]) + (" ..." if len(words) > 8 else "")
