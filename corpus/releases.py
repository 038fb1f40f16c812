"""Adding official releases to the user's data folder, and the text shown for one rule across editions.

Wizards of the Coast publishes the Comprehensive Rules at https://magic.wizards.com/en/rules (a .txt
file per release). ``rulesjudge corpus add PATH_OR_URL [...]`` checks that each file parses as a release
and copies it, byte for byte and atomically, to ``data_dir()/releases/cr-<effective date>.txt``; a folder
stands for its ``.txt`` files. A release the project ships is not copied (it is loaded already).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import write_data
from rulesjudge.common.inputs import check_not_empty, os_problem, read_source
from rulesjudge.corpus.documents import builtin_releases
from rulesjudge.corpus.official import MAX_RELEASE_BYTES, Release, parse_release, unwrap
from rulesjudge.corpus.records import (
    Corpus,
    Record,
    document_of,
    edition_of,
    glossary_local,
    local_of,
    make_id,
)
from rulesjudge.corpus.store import Cache, keep_release, open_cache, user_release_paths, user_releases_folder

MAX_BYTES = MAX_RELEASE_BYTES


def fetch(source: str) -> tuple[bytes, str]:
    """The bytes of a local file or an http(s) URL, and a name for messages: a regular file or one
    download, at most :data:`MAX_BYTES`, within the reader's overall deadline
    (see rulesjudge/common/inputs.py)."""
    return read_source(source, limit=MAX_BYTES, what="release file")


@dataclass(frozen=True)
class Added:
    """The outcome of adding one release: ``status`` is "added", "replaced" (another file of the same
    edition was there), "differs" (another text of that edition was there and stays: ``--replace`` replaces
    it), "unchanged" (the very same file, or the same rules saved another way, was there), "built in" (the
    project ships it), "built in, saved another way" (the project ships the same rules in another file) or
    "built in differs" (the project ships another text of that edition, which stays in use)."""

    path: Path
    release: Release
    status: str
    changes: tuple[str, ...] = ()  # "differs" and "replaced": the rules whose text changed, one line each


def release_sources(sources: Sequence[str]) -> list[str]:
    """Files, URLs and folders as given; a folder stands for its ``*.txt`` files (``.TXT`` too, as Windows
    names them, and ``.txt.gz``), sorted by name. A file named on its own may be named anything."""
    out: list[str] = []
    for source in sources:
        check_not_empty(source, "release file, folder or URL")
        folder = Path(source)
        if "://" not in source and folder.is_dir():
            try:
                entries = list(folder.iterdir())
            except OSError as error:
                raise InputError(folder, os_problem(error)) from None
            files = sorted(p for p in entries if p.name.lower().endswith((".txt", ".txt.gz"))
                           and not p.name.startswith(".") and p.is_file())
            if not files:
                raise InputError(folder, "no .txt release files in this folder")
            out.extend(str(p) for p in files)
        else:
            out.append(source)
    return out


def add_release(source: str, cache: Cache | None = None, *, replace_text: bool = False) -> Added:
    """Validate ``source`` as a release and copy it into the data folder, keeping the parsed release in
    the corpus cache (the next load does not parse it again); bad input raises InputError.

    An edition already added with other rules text is kept unless ``replace_text`` (``--replace``): the
    outcome is "differs" with the changed rules, nothing written. A file there that no longer reads as
    a release is replaced (it was left out anyway)."""
    raw, name = fetch(source)
    release = parse_release(raw, source_name=name)  # refuses anything that is not a release
    data = unwrap(raw, name)  # a gzip-compressed release is kept as the text file it holds
    if data is not raw:
        release = replace(release, sha256=hashlib.sha256(data).hexdigest())
    builtin = {entry.edition: entry for entry in builtin_releases()}
    if release.effective in builtin:
        entry = builtin[release.effective]
        if entry.sha256 == release.sha256:
            return Added(entry.path, release, "built in")
        same = same_records(release, parse_release(entry.path))  # saved another way, or another text?
        return Added(entry.path, release, "built in, saved another way" if same else "built in differs")
    target = user_releases_folder() / f"cr-{release.effective}.txt"
    existing = [p for p in user_release_paths() if p.name == target.name]
    old = _readable_release(existing[0]) if existing else None
    changes: tuple[str, ...] = ()
    if old is not None:
        if old.sha256 == release.sha256 or same_records(release, old):
            return Added(target, release, "unchanged")
        changes = tuple(changed_rules(old, release))
        if not replace_text:
            return Added(target, release, "differs", changes)
    write_data(target, data)
    keep_release(cache or open_cache(), release)
    return Added(target, release, "replaced" if existing else "added", changes)


def _readable_release(path: Path) -> Release | None:
    """The release a data-folder file holds, or None when it doesn't read as one (damaged, a folder)."""
    try:
        return parse_release(path)  # its bytes, at most MAX_RELEASE_BYTES, named by the file's name
    except InputError:
        return None


def changed_rules(old: Release, new: Release, width: int = 60) -> list[str]:
    """One line per rule whose words differ between two texts of one edition (changed, added, removed),
    each showing the words around the first difference.

    >>> from rulesjudge.corpus.official import SAMPLE
    >>> a = parse_release(SAMPLE)
    >>> b = parse_release(SAMPLE.replace(b"is a designation", b"is a desXgnation"))
    >>> print(*changed_rules(a, b, width=20))
    722.1 changed: "…monarch is a designation…" -> "…monarch is a desXgnation…"
    """
    def words(release: Release) -> dict[str, str]:
        return {local_of(r.id): " ".join([r.text, *r.examples]).strip() for r in release.records}

    before, after = words(old), words(new)
    lines = []
    for local in dict.fromkeys([*before, *after]):
        one, two = before.get(local), after.get(local)
        if one == two:
            continue
        if one is None or two is None:
            what = "added" if one is None else "removed"
            lines.append(f"{local} {what}: \"{_clip(one or two or '', 0, width)}\"")
            continue
        start = next((i for i, (x, y) in enumerate(zip(one, two, strict=False)) if x != y),
                     min(len(one), len(two)))
        lines.append(f"{local} changed: \"{_clip(one, start, width)}\" -> \"{_clip(two, start, width)}\"")
    return lines


def _clip(text: str, at: int, width: int) -> str:
    """About ``width`` characters of ``text`` around position ``at``, cut at words, with ellipses."""
    start = max(0, at - width // 2)
    start = text.rfind(" ", 0, start) + 1 if start else 0
    end = text.find(" ", start + width)
    end = len(text) if end < 0 else end
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def same_records(one: Release, other: Release) -> bool:
    """Do two parsed files hold the same rules (ids, words, examples, structure), however each was saved?"""
    def rules(release: Release) -> list[tuple[object, ...]]:
        return [(r.id, r.title, r.text, r.examples, r.aliases, r.parent, r.children, r.obsolete)
                for r in release.records]

    return one.effective == other.effective and rules(one) == rules(other)


# ------------------------------------------------------------------------ one rule across editions


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
    if key[:1].isdigit() and edition is None:
        loaded = "; ".join(f"{doc} {', '.join(corpus.editions(doc))}" for doc in _documents(corpus))
        raise InputError("command line", f"no rule {key} in any loaded document (loaded: {loaded})",
                         key="NUMBER")
    return _find_in(corpus, key, "cr", edition)  # raises the message naming what is loaded


def _documents(corpus: Corpus) -> list[str]:
    return list(dict.fromkeys(document for document, _edition, _count in corpus.documents()))


def _glossary_entry(corpus: Corpus, term: str, document: str, edition: str | None) -> Record | None:
    local = glossary_local(term)
    editions = [edition] if edition else list(reversed(corpus.editions(document)))
    return next((r for e in editions if (r := corpus.get(make_id(document, e, local)))), None)


def _find_in(corpus: Corpus, key: str, document: str, edition: str | None) -> Record:
    record = corpus.lookup(key, document, edition)
    if record is None and not key[:1].isdigit():  # a glossary term: "monarch", "Active Player"
        record = _glossary_entry(corpus, key, document, edition)
    if record is None:
        loaded = ", ".join(corpus.editions(document)) or "none"
        where = f"any loaded edition of {document} (loaded: {loaded})"
        if edition:
            where = f"{document} edition {edition}"
        if edition and edition not in corpus.editions(document):  # the edition is what is wrong
            raise InputError("command line", f"{document} edition {edition} is not loaded (loaded: {loaded})",
                             key="--edition")
        raise InputError("command line", f"no rule {key} in {where}", key="NUMBER")
    return record


@dataclass(frozen=True)
class Place:
    """Where a rule is in one loaded edition: its record (None: the rule is not there)."""

    edition: str
    record_id: str | None
    key: bytes | None = None  # a digest of its masked text: equal keys, the same words

    @property
    def number(self) -> str | None:
        return printed_number(self.record_id) if self.record_id else None


@dataclass(frozen=True)
class Run:
    """Consecutive editions where the rule kept its number and words (``number`` None: not there), and
    what changed from the run before (``renumbered_from``, ``edited``)."""

    places: tuple[Place, ...]
    renumbered_from: str | None = None
    edited: bool = False

    @property
    def number(self) -> str | None:
        return self.places[0].number

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(place.edition for place in self.places)


@dataclass(frozen=True)
class OtherMeaning:
    """A rule that the same number names in other editions, with where it is in the answered edition."""

    editions: tuple[str, ...]
    record: Record  # as the newest of those editions words it
    here: str | None  # its id in the answered edition (None: it is not there)


@dataclass(frozen=True)
class RuleReport:
    """What ``rulesjudge rule`` prints: the record, where it is in every loaded edition (``places``, and
    the same grouped into runs of unchanged editions), and the other rules its number names."""

    record: Record
    places: list[Place]
    runs: list[Run]
    others: list[OtherMeaning]
    newest: bool  # answered from the newest loaded edition having the number (no --edition)
    quoted_by: list[Record] = field(default_factory=list)  # fan documents recalling this official rule

    @property
    def warnings(self) -> list[str]:
        """One line per distinct other meaning of the number, and which edition answered."""
        record = self.record
        lines = []
        for other in self.others:
            where = span(other.editions)
            there = (f"; that rule is {printed_number(other.here)} in {record.edition}" if other.here
                     else f"; that rule is not in {record.edition}")
            lines.append(f"{record.number} means a different rule in {where} ({about(other.record)}){there}.")
        if self.newest and self.others:
            lines.append(f"Answered from {record.edition}, the newest loaded edition having {record.number}; "
                         f"use --edition to choose another.")
        return lines


def printed_number(record_id: str) -> str:
    """The number a record's id stands for (a misprint's id ``722.4~2`` is 722.4 as printed)."""
    return local_of(record_id).split("~", 1)[0]


def rule_report(corpus: Corpus, record: Record, *, newest: bool) -> RuleReport:
    """Where ``record``'s rule is in every loaded edition of its document, and the other rules its number
    names in other editions (one entry per distinct rule)."""
    same = dict(corpus.equivalents(record.id))
    places = _places(corpus, record, same)
    others: list[OtherMeaning] = []
    if record.number:
        taken = {record.id, *same}
        numbered = corpus.numbered(record.number, record.document)
        for edition in sorted(numbered):
            rid = numbered[edition]
            if rid in taken:
                continue
            group = {rid, *(other for other, _ in corpus.equivalents(rid))}
            taken |= group
            editions = tuple(sorted(e for e, other in numbered.items() if other in group))
            newest_id = max((other for other in group if other in numbered.values()), key=edition_of)
            here = next((other for other in group if edition_of(other) == record.edition), None)
            found = corpus.get(newest_id)
            if found is not None:
                others.append(OtherMeaning(editions, found, here))
    return RuleReport(record, places, runs_of(places), others, newest, _recalled_by(corpus, record, same))


def _recalled_by(corpus: Corpus, record: Record, same: dict[str, bool]) -> list[Record]:
    """Records of other documents that recall this official rule (Treachery's "Reminder: 104.3g.")."""
    if not record.number:
        return []
    ids = {record.id, *same}
    found = []
    for document in dict.fromkeys(d for d, _e, _n in corpus.documents() if d != record.document):
        for rid in corpus.numbered(record.number, document).values():
            other = corpus.get(rid)
            if other is not None and other.kind == "reminder" and ids & set(other.links):
                found.append(other)
    return found


def _places(corpus: Corpus, record: Record, same: dict[str, bool]) -> list[Place]:
    """The rule in each loaded edition, oldest first: every release, and the editions source documents
    quote where they quote it (an edition a page quotes in part says nothing of the rules it leaves out)."""
    by_edition: dict[str, str] = {}
    for rid in sorted(same, key=lambda r: (edition_of(r), r)):
        if document_of(rid) == record.document:
            by_edition.setdefault(edition_of(rid), rid)
    by_edition[record.edition] = record.id
    whole = set(corpus.release_editions(record.document))
    places = []
    for edition in corpus.editions(record.document):
        found = by_edition.get(edition)
        if found is None and edition not in whole:
            continue
        places.append(Place(edition, found, corpus.text_key(found) if found else None))
    return places


def runs_of(places: Sequence[Place]) -> list[Run]:
    """Consecutive places with the same number and words, each with what changed since the run before.

    >>> a = Place("2024-06-07", "cr@2024-06-07/722.4", b"k")
    >>> b = Place("2025-07-25", "cr@2025-07-25/724.4", b"k")
    >>> [(r.editions, r.renumbered_from, r.edited) for r in runs_of([a, b])]
    [(('2024-06-07',), None, False), (('2025-07-25',), '722.4', False)]
    """
    runs: list[Run] = []
    current: list[Place] = []
    previous: Place | None = None  # the last place the rule was in, before the current run
    for place in places:
        if current and (place.number, place.key) == (current[-1].number, current[-1].key):
            current.append(place)
            continue
        if current:
            runs.append(_run(current, previous))
            if current[-1].record_id is not None:
                previous = current[-1]
        current = [place]
    if current:
        runs.append(_run(current, previous))
    return runs


def _run(places: list[Place], previous: Place | None) -> Run:
    first = places[0]
    if first.record_id is None or previous is None:
        return Run(tuple(places))
    moved = previous.number if previous.number != first.number else None
    return Run(tuple(places), moved, previous.key != first.key)


def span(editions: Sequence[str]) -> str:
    """Editions as one phrase.

    >>> span(["2024-06-07"]), span(["2024-06-07", "2024-08-02", "2025-02-07"])
    ('2024-06-07', '2024-06-07 \u2026 2025-02-07, 3 editions')
    """
    if len(editions) == 1:
        return editions[0]
    return f"{editions[0]} \u2026 {editions[-1]}, {len(editions)} editions"


def about(record: Record) -> str:
    """A few words that say what a rule is about: its section title, else its first words."""
    if record.title and record.title != record.number:
        return record.title
    words = record.text.split()
    return " ".join(words[:8]) + (" ..." if len(words) > 8 else "")
