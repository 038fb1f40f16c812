"""Loading the whole corpus: the built-in source documents plus official releases in the data folder.

>>> corpus = load_corpus(include_user_releases=False)          # doctest: +SKIP
>>> corpus.lookup("722.4").citation                            # doctest: +SKIP
'CR 722.4 (2024-06-07)'

A rule read from two places (a release's 722.4 and the Monarch wiki page's quote of the same edition)
has one id and becomes one record with both provenances; the official release's text is kept. Parsed
releases are cached in ``data_dir()/cache`` keyed by the file's sha256, so that ``rulesjudge rule``
answers at once; a corrupted cache is ignored and rebuilt. Nothing here imports torch.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import pickle
import re
import unicodedata
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from rulesjudge.corpus import crossrefs
from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.files import data_dir, write_atomic
from rulesjudge.corpus.inputs import read_file
from rulesjudge.corpus.official import MAX_RELEASE_BYTES, Release, parse_release
from rulesjudge.corpus.records import CrossRef, Provenance, Record

#: Bump when the parser's output changes: old cache entries are then ignored.
CACHE_VERSION = "official-1"
RELEASES_FOLDER = "releases"
KEEP_CORPUS_CACHES = 3
KEEP_RELEASE_CACHES = 20


_FIELDS = tuple(f.name for f in fields(Record))
_PROVENANCE = _FIELDS.index("provenance")
_CROSS_REFS = _FIELDS.index("cross_refs")
Raw = tuple  # a record as plain values (fast to unpickle): Record fields in order, nested objects as tuples


def to_raw(record: Record) -> Raw:
    values = [getattr(record, name) for name in _FIELDS]
    values[_PROVENANCE] = tuple((p.source, p.line) for p in record.provenance)
    values[_CROSS_REFS] = tuple((c.label, c.number, c.target) for c in record.cross_refs)
    return tuple(values)


def from_raw(raw: Raw) -> Record:
    values = list(raw)
    values[_PROVENANCE] = tuple(Provenance(*p) for p in raw[_PROVENANCE])
    values[_CROSS_REFS] = tuple(CrossRef(*c) for c in raw[_CROSS_REFS])
    return Record(*values)


class LazyRecords(MutableMapping[str, Record]):
    """``dict[str, Record]`` that builds each record from its cached plain values on first access.

    Loading 20,000 frozen dataclasses costs ~0.2 s; ``rulesjudge rule`` touches a few dozen.
    """

    def __init__(self, raw: dict[str, Raw] | None = None, built: dict[str, Record] | None = None) -> None:
        self._raw: dict[str, Raw] = dict(raw or {})
        self._built: dict[str, Record] = dict(built or {})
        self._order: dict[str, None] = dict.fromkeys([*self._raw, *self._built])

    def __getitem__(self, key: str) -> Record:
        record = self._built.get(key)
        if record is None:
            record = from_raw(self._raw[key])  # KeyError when absent, as a dict
            self._built[key] = record
        return record

    def __setitem__(self, key: str, value: Record) -> None:
        self._built[key] = value
        self._raw.pop(key, None)
        self._order[key] = None

    def __delitem__(self, key: str) -> None:
        if key not in self._order:
            raise KeyError(key)
        self._built.pop(key, None)
        self._raw.pop(key, None)
        del self._order[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, key: object) -> bool:
        return key in self._order

    def raw(self, key: str) -> Raw:
        """Plain values of a record (without building it)."""
        record = self._built.get(key)
        return to_raw(record) if record is not None else self._raw[key]

    def to_raw_dict(self) -> dict[str, Raw]:
        return {key: self.raw(key) for key in self._order}


@dataclass(frozen=True, slots=True)
class LoadedRelease:
    """A release file that was loaded: where from, its edition and counts."""

    path: str
    effective: str
    counts: dict[str, int]
    cached: bool


@dataclass
class Corpus:
    """Every loaded record by id, with indexes by number and edition (see the brief's loading API)."""

    records: MutableMapping[str, Record]
    releases: list[LoadedRelease] = field(default_factory=list)
    #: Ids whose text differs between two sources beyond typography (the official release's text is kept).
    conflicts: list[str] = field(default_factory=list)
    _by_number: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict, repr=False)
    _editions: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _equivalents: dict[str, list[tuple[str, bool]]] = field(default_factory=dict, repr=False)
    matcher: object = field(default=None, repr=False)  # corpus.editions.Matcher, built on first use

    def __post_init__(self) -> None:
        self._index()

    def _index(self) -> None:
        if self._by_number:
            return  # restored from the cache
        editions: dict[str, set[str]] = {}
        doc, ed, num = _FIELDS.index("document"), _FIELDS.index("edition"), _FIELDS.index("number")
        records = self.records
        if not isinstance(records, LazyRecords):
            records = LazyRecords(built=dict(records))
        raw = records.raw
        for rid in records:
            values = raw(rid)
            editions.setdefault(values[doc], set()).add(values[ed])
            if values[num]:
                self._by_number.setdefault((values[doc], values[num]), {})[values[ed]] = rid
        self._editions = {document: sorted(eds) for document, eds in editions.items()}

    def get(self, record_id: str) -> Record | None:
        return self.records.get(record_id)

    def editions(self, document: str) -> list[str]:
        """The loaded editions of a document, oldest first (ISO dates sort as text)."""
        return list(self._editions.get(document, ()))

    def documents(self) -> list[tuple[str, str, int]]:
        """``(document, edition, record count)`` for every loaded document edition."""
        counts: dict[tuple[str, str], int] = {}
        for rid in self.records:
            document, rest = rid.split("@", 1)
            key = (document, rest.split("/", 1)[0])
            counts[key] = counts.get(key, 0) + 1
        return sorted((doc, edition, n) for (doc, edition), n in counts.items())

    def numbered(self, number: str, document: str = "cr") -> dict[str, str]:
        """Edition -> record id of every loaded record with this number in this document."""
        return dict(self._by_number.get((document, number), {}))

    def lookup(self, number: str, document: str = "cr", edition: str | None = None) -> Record | None:
        """The record with this number: in ``edition``, or in the newest loaded edition having it."""
        rid = self.lookup_id(number, document, edition, None)
        return self.records.get(rid) if rid else None

    def lookup_id(
        self, number: str, document: str, edition: str | None, in_force_on: str | None = None
    ) -> str | None:
        """Id of the record with this number; with ``in_force_on``, from the edition in force that day."""
        found = self._by_number.get((document, number), {})
        if not found:
            return None
        if edition is not None:
            return found.get(edition)
        editions = sorted(found)
        if in_force_on is not None:
            index = bisect.bisect_right(editions, in_force_on)
            if index:
                return found[editions[index - 1]]
        return found[editions[-1]]

    def equivalents(self, record_id: str) -> list[tuple[str, bool]]:
        """The same rule in every other loaded edition of its document: ``(record id, text changed)``."""
        if record_id not in self._equivalents:
            from rulesjudge.corpus.editions import equivalents

            self._equivalents[record_id] = equivalents(self, record_id)
        return list(self._equivalents[record_id])

    def latest(self, record_id: str) -> str:
        """The same rule in the newest loaded edition holding it (``record_id`` when none is newer)."""
        newer = [rid for rid, _ in self.equivalents(record_id) if rid.split("/")[0] > record_id.split("/")[0]]
        return max(newer, key=lambda rid: rid.split("/")[0], default=record_id)

    def in_edition(self, document: str, edition: str) -> list[Record]:
        """Records of one document edition in load order."""
        prefix = f"{document}@{edition}/"
        return [self.records[rid] for rid in self.records if rid.startswith(prefix)]


# ------------------------------------------------------------------------------------------- loading


def user_releases_folder() -> Path:
    return data_dir() / RELEASES_FOLDER


def user_release_paths() -> list[Path]:
    """Release files in the user's data folder; an unreadable folder is bad input (exit 2)."""
    folder = data_dir()
    try:
        if folder.exists() and not folder.is_dir():
            raise InputError(folder, "data folder is not a folder")
        releases = folder / RELEASES_FOLDER
        if not releases.exists():
            return []
        if not releases.is_dir():
            raise InputError(releases, "releases folder is not a folder")
        return sorted(p for p in releases.iterdir() if p.suffix == ".txt" and not p.name.startswith("."))
    except PermissionError as error:
        raise InputError(error.filename or folder, "data folder not readable (permission denied)") from None
    except OSError as error:
        raise InputError(error.filename or folder, f"data folder is not readable: {error.strerror}") from None


def _cache_folder() -> Path:
    return data_dir() / "cache"


def _load_pickle(path: Path) -> object:
    """A cached object, or None when the cache is missing or corrupted (it is then rebuilt)."""
    try:
        return pickle.loads(path.read_bytes())
    except Exception:  # any unreadable cache is simply rebuilt
        return None


def _save_pickle(path: Path, value: object) -> None:
    with contextlib.suppress(OSError):  # a read-only data folder still answers, only slower
        write_atomic(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def read_release(path: Path, *, use_cache: bool = True) -> tuple[Release, bool]:
    """A parsed release (references found, not yet resolved) and whether it came from the cache.

    The cache is keyed by the file's sha256; records are stored as plain values.
    """
    data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")  # never a FIFO or /dev/zero
    digest = hashlib.sha256(data).hexdigest()
    # The parser's and reference finder's code is part of the key: a code change re-parses.
    cache = _cache_folder() / f"release-{_code_fingerprint()[:12]}-{digest}.pickle"
    if use_cache:
        cached = _load_pickle(cache)
        if isinstance(cached, tuple) and len(cached) == 5 and cached[3] == digest:
            effective, source, counts, sha, raws = cached
            return Release(effective, source, [from_raw(r) for r in raws], counts, sha), True
    release = parse_release(data, source_name=path.name)
    release = replace(release, records=[_with_found_refs(r) for r in release.records])
    if use_cache:
        raws = [to_raw(r) for r in release.records]
        _save_pickle(cache, (release.effective, release.source, release.counts, release.sha256, raws))
    return release, False


def _with_found_refs(record: Record) -> Record:
    """Store the references found in the text (targets are resolved later, against what is loaded)."""
    refs = _found(record)
    return replace(record, cross_refs=refs) if refs else record


def typography_key(text: str) -> str:
    """Text with typography normalised: curly quotes, dashes, spacing. Equal keys = the same words.

    >>> typography_key("the monarch’s end step") == typography_key("the monarch's  end step")
    True
    """
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(_TYPOGRAPHY)
    return re.sub(r"\s+", " ", text).strip()


_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                             "\u2013": "-", "\u2212": "-", "\u00a0": " "})


def merge(official: Record, quoted: Record, conflicts: list[str]) -> Record:
    """One record from a release's record and a source document's quote of it (same id)."""
    if typography_key(official.text) != typography_key(quoted.text):
        conflicts.append(official.id)
    merged = official
    for provenance in quoted.provenance:
        merged = merged.with_provenance(provenance)
    if quoted.aliases and not official.aliases:
        merged = replace(merged, aliases=quoted.aliases)
    return merged


def assemble(builtin: Iterable[Record], releases: Sequence[Release], loaded: list[LoadedRelease]) -> Corpus:
    """Merge built-in records and release records by id, then resolve cross-references."""
    records: dict[str, Record] = {}
    conflicts: list[str] = []
    for release in releases:
        for record in release.records:
            records[record.id] = record
    for record in builtin:
        seen = records.get(record.id)
        if seen is None:
            records[record.id] = replace(record, cross_refs=_found(record))
        elif seen.official and any(p.source.endswith(".txt") for p in seen.provenance):
            records[record.id] = merge(seen, record, conflicts)
        else:
            for provenance in record.provenance:
                seen = seen.with_provenance(provenance)
            records[record.id] = seen
    corpus = Corpus(records=LazyRecords(built=records), releases=loaded, conflicts=conflicts)
    _resolve_all(corpus)
    _link_reminders(corpus)
    return corpus


def _link_reminders(corpus: Corpus) -> None:
    """An official rule a fan document recalls is linked to that rule in the official releases (the
    edition in force when the document took effect, else the newest having it)."""
    for rid, record in corpus.records.items():
        if record.kind == "reminder" and record.number:
            official = corpus.lookup_id(record.number, "cr", None, record.effective)
            if official is not None:
                corpus.records[rid] = replace(record, links=(official,))


def _found(record: Record) -> tuple[crossrefs.CrossRef, ...]:
    found = dict.fromkeys(crossrefs.find_references(record.text))
    return tuple(crossrefs.CrossRef(label, number) for label, number in found)


def _resolve_all(corpus: Corpus) -> None:
    for rid, record in corpus.records.items():
        if not record.cross_refs:
            continue
        resolved = tuple(
            replace(ref, target=crossrefs.target_of(record, ref.label, ref.number, corpus.lookup_id))
            for ref in record.cross_refs
        )
        corpus.records[rid] = replace(record, cross_refs=resolved)


@functools.lru_cache(maxsize=1)
def _code_fingerprint() -> str:
    """Changes when the sources or the code that reads them change: invalidates the corpus cache."""
    here = Path(__file__).resolve().parent
    parts = [CACHE_VERSION]
    for path in sorted([*here.glob("*.py"), *(here / "sources").glob("*")]):
        try:
            stat = path.stat()
        except OSError:
            continue
        parts.append(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def builtin_release_paths() -> list[Path]:
    """The official releases built into the project (``corpus/sources``, the manifest's ``releases``)."""
    from rulesjudge.corpus.documents import builtin_releases

    return [release.path for release in builtin_releases()]


def load_corpus(
    releases: Sequence[str | Path] | None = None,
    include_user_releases: bool = True,
    *,
    include_builtin_releases: bool = True,
) -> Corpus:
    """Built-in source documents and releases + official releases (``releases`` and, by default, the data
    folder's). ``include_builtin_releases=False`` gives the five source documents alone (for tests of them).

    The assembled corpus is cached (keyed by the release files' sha256 and the code's fingerprint), so a
    second load only unpickles plain values; records are built on first access.
    """
    paths = builtin_release_paths() if include_builtin_releases else []
    paths.extend(Path(p) for p in releases or ())
    if include_user_releases:
        paths.extend(user_release_paths())
    digests = []
    for path in paths:  # a regular file, bounded: a FIFO in the releases folder can't hang every command
        data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")
        digests.append(hashlib.sha256(data).hexdigest())
    key = hashlib.sha256("\n".join([_code_fingerprint(), *digests]).encode()).hexdigest()
    cache = _cache_folder() / f"corpus-{key}.pickle"
    cached = _load_pickle(cache)
    if isinstance(cached, dict) and cached.get("key") == key:
        try:
            return _restore(cached)
        except Exception:  # a cache of another shape is rebuilt
            pass
    corpus = _build(paths)
    _save_pickle(cache, _snapshot(corpus, key))
    _prune(_cache_folder(), "corpus-*.pickle", keep=KEEP_CORPUS_CACHES)
    _prune(_cache_folder(), "release-*.pickle", keep=KEEP_RELEASE_CACHES)
    return corpus


def _prune(folder: Path, pattern: str, keep: int) -> None:
    """Delete all but the ``keep`` most recently written cache files (each corpus cache is ~8 MB)."""
    with contextlib.suppress(OSError):
        files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for stale in files[keep:]:
            stale.unlink(missing_ok=True)


def _build(paths: Sequence[Path]) -> Corpus:
    parsed: list[Release] = []
    loaded: list[LoadedRelease] = []
    editions: dict[str, str] = {}
    for path in paths:
        release, cached = read_release(path)
        if release.effective in editions:  # the same edition twice: the first one wins
            continue
        editions[release.effective] = str(path)
        parsed.append(release)
        loaded.append(LoadedRelease(str(path), release.effective, dict(release.counts), cached))
    return assemble(_builtin_records(), parsed, loaded)


def _snapshot(corpus: Corpus, key: str) -> dict[str, object]:
    records = corpus.records
    if not isinstance(records, LazyRecords):
        records = LazyRecords(built=dict(records))
    return {
        "key": key,
        "raw": records.to_raw_dict(),
        "releases": [(r.path, r.effective, r.counts) for r in corpus.releases],
        "conflicts": list(corpus.conflicts),
        "by_number": corpus._by_number,
        "editions": corpus._editions,
    }


def _restore(cached: dict) -> Corpus:
    return Corpus(
        records=LazyRecords(raw=cached["raw"]),
        releases=[LoadedRelease(path, date, counts, True) for path, date, counts in cached["releases"]],
        conflicts=list(cached["conflicts"]),
        _by_number=cached["by_number"],
        _editions=cached["editions"],
    )


def _builtin_records() -> list[Record]:
    from rulesjudge.corpus.documents import read_builtin

    return read_builtin()
