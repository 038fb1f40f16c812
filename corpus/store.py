"""Loading the whole corpus: the built-in documents and release, plus the releases in the data folder.

>>> corpus = load_corpus(include_user_releases=False)          # doctest: +SKIP
>>> corpus.lookup("725.4").citation                            # doctest: +SKIP
'CR 725.4 (2026-04-17)'

A rule read from two places (a release's 722.4 and the Monarch wiki page's quote of the same edition)
has one id and becomes one record with both provenances; the official release's text is kept.

Many releases at linear cost
----------------------------
Parsed releases live in one SQLite file, ``data_dir()/cache/corpus.sqlite`` (see :class:`Cache`), keyed by
the sha256 of the release file, one row per record, so that a process reads only the records it asks for:
``rulesjudge rule 100.1`` with 62 releases loaded touches a few dozen rows. A release file is hashed once;
afterwards its size, modification time and inode say it is unchanged. The cross-release map is kept per
pair of neighbouring releases of a document (oldest first): adding a release maps it onto its two
neighbours, once; "the same rule in every other edition" follows the maps from neighbour to neighbour.
Records the source documents quote from an edition no release provides (the Player page's 2015 rules) are
mapped onto the releases around that edition. Nothing here imports torch.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import re
import sqlite3
import stat
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rulesjudge.corpus import crossrefs
from rulesjudge.corpus.codec import DamagedCache, Raw, from_raw, pack, to_raw, unpack
from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.files import data_dir, write_atomic
from rulesjudge.corpus.inputs import read_file
from rulesjudge.corpus.official import MAX_RELEASE_BYTES, Release, parse_release
from rulesjudge.corpus.records import (
    CrossRef,
    Provenance,
    Record,
    edition_of,
    id_parts,
    id_prefix,
    local_of,
    make_id,
)

if TYPE_CHECKING:
    from rulesjudge.corpus.editions import EditionView

_T = TypeVar("_T")
RELEASES_FOLDER = "releases"
CACHE_FILE = "corpus.sqlite"
CONTENTS_FILE = "corpus-contents.txt"
#: Bump when the cache's tables change shape (the code's fingerprint covers the parser's output).
SCHEMA = "corpus-3"  # 3: blobs are MessagePack (2 held pickles, which a shared data folder could plant)
#: A parsed release no loaded corpus used for this long leaves the cache (a file removed from the folder).
UNUSED_DAYS = 14
#: How old a "last used" mark gets before a load renews it (so that a lookup writes nothing).
TOUCH_SECONDS = 86400
KEEP_ASSEMBLED = 8


@dataclass(frozen=True, slots=True)
class LoadedRelease:
    """A release file that was loaded: where from, its edition and counts, and whether it was parsed
    before (by this data folder's cache)."""

    path: str
    effective: str
    counts: dict[str, int]
    cached: bool
    sha256: str = ""
    warnings: tuple[str, ...] = ()


# ------------------------------------------------------------------------------------------- the cache


_TABLES = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, inode INTEGER,
                                 sha256 TEXT);
CREATE TABLE IF NOT EXISTS releases(id INTEGER PRIMARY KEY, sha256 TEXT UNIQUE, document TEXT, edition TEXT,
                                    source TEXT, counts TEXT, warnings TEXT, records INTEGER, used REAL);
CREATE TABLE IF NOT EXISTS blobs(release INTEGER PRIMARY KEY, records BLOB, entries BLOB);
CREATE TABLE IF NOT EXISTS records(release INTEGER, local TEXT, number TEXT, key BLOB,
                                   PRIMARY KEY(release, local)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_number ON records(number);
CREATE TABLE IF NOT EXISTS pairs(a INTEGER, b INTEGER, PRIMARY KEY(a, b)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves(a INTEGER, b INTEGER, src TEXT, dst TEXT, PRIMARY KEY(a, b, src))
                                 WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS moves_back ON moves(b, a, dst);
CREATE TABLE IF NOT EXISTS assembled(key TEXT PRIMARY KEY, value BLOB, used REAL);
"""


@dataclass(frozen=True, slots=True)
class CachedRelease:
    """A parsed release as the cache keeps it."""

    sha: str
    document: str
    edition: str
    source: str
    counts: dict[str, int]
    warnings: tuple[str, ...]
    records: int


class Cache:
    """The corpus cache, one SQLite file in the data folder; what it holds is in its tables:

    - ``releases``: one row per parsed release (sha256 of the file, document, edition, counts, warnings);
    - ``blobs``: each release's records (their plain values) and what matching needs of them, compressed:
      a release is read whole, when one of its records is asked for;
    - ``records``: one small row per record (release, id, number, a digest of its masked text), so that a
      number is found in every release without reading any;
    - ``files``: size, modification time and inode of each release file already hashed;
    - ``pairs``/``moves``: the cross-release map of each pair of neighbouring releases that was computed
      (only what moved: a record with no row keeps its id, ``dst`` NULL means it has no counterpart);
    - ``assembled``: the built-in documents' records resolved against one set of releases (small).

    Writes are transactions, so a killed process leaves the file as it was; a damaged file, or one written
    by other code, is deleted and rebuilt; a data folder that can't be written gets a cache in memory.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.db = self._open(path)
        self._ids: dict[str, int] = {}
        self.changed = False  # something was written since it was opened

    def _open(self, path: Path | None) -> sqlite3.Connection:
        if path is not None:
            for attempt in range(2):
                try:
                    return self._connect(str(path))
                except sqlite3.OperationalError:
                    break  # locked by another process past the timeout, or not writable: in memory then
                except (sqlite3.DatabaseError, OSError):
                    if attempt == 0:
                        _delete_database(path)  # not a database, or a damaged one: made anew
        return self._connect(":memory:")

    def _connect(self, where: str, fresh: bool = False) -> sqlite3.Connection:
        """Open the cache; one of another schema or older code is deleted and made anew (never migrated)."""
        in_memory = where == ":memory:"
        if not in_memory:
            Path(where).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(where, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA auto_vacuum=FULL")  # pages freed by forgotten releases go back (new files)
            if not in_memory:
                db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA journal_size_limit=4194304")
            expected = f"{SCHEMA} {_code_fingerprint()}"
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            found = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() if "meta" in tables \
                else None
            if found is not None and found[0] == expected:
                db.execute("BEGIN IMMEDIATE")  # proves the file can be written
                db.execute("COMMIT")
                return db
            if tables and not in_memory and not fresh:
                db.close()
                _delete_database(Path(where))
                return self._connect(where, fresh=True)
            db.execute("BEGIN IMMEDIATE")
            for statement in _TABLES.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT OR REPLACE INTO meta VALUES('schema', ?)", (expected,))
            db.execute("COMMIT")
        except BaseException:
            db.close()
            raise
        return db

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: everything in it is written, or nothing."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            self.changed = True

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.lock:
            return self.db.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self.lock:
            return self.db.execute(sql, params).fetchone()

    def id(self, sha: str) -> int:
        """The row id of a parsed release (the other tables refer to releases by it)."""
        if sha not in self._ids:
            row = self.one("SELECT id FROM releases WHERE sha256=?", (sha,))
            if row is None:
                raise KeyError(sha)
            self._ids[sha] = int(row[0])
        return self._ids[sha]

    # --- release files and parsed releases ---

    def file_sha(self, path: Path) -> tuple[str, bytes | None]:
        """The sha256 of a release file: from its size, time and inode when hashed before, else read."""
        try:
            info = path.stat()
        except OSError:
            info = None
        key = str(path.absolute())
        if info is not None and stat.S_ISREG(info.st_mode):
            row = self.one("SELECT size, mtime_ns, inode, sha256 FROM files WHERE path=?", (key,))
            if row is not None and tuple(row[:3]) == (info.st_size, info.st_mtime_ns, info.st_ino):
                return row[3], None
        data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")  # never a FIFO or /dev/zero
        sha = hashlib.sha256(data).hexdigest()
        if info is not None:
            with contextlib.suppress(sqlite3.Error), self.write() as db:
                db.execute("INSERT OR REPLACE INTO files VALUES(?, ?, ?, ?, ?)",
                           (key, info.st_size, info.st_mtime_ns, info.st_ino, sha))
        return sha, data

    def loaded(self, sha: str, path: str = "", cached: bool = False) -> _Live:
        """A parsed release as a corpus loads it."""
        found = self.release(sha)
        if found is None:
            raise KeyError(sha)
        return _Live(found.sha, found.document, found.edition, found.source, found.counts, found.warnings,
                     found.records, path, cached)

    def release(self, sha: str) -> CachedRelease | None:
        """What the cache knows of a parsed release, or None."""
        row = self.one("SELECT document, edition, source, counts, warnings, records FROM releases "
                       "WHERE sha256=?", (sha,))
        if row is None:
            return None
        return CachedRelease(sha, row[0], row[1], row[2], json.loads(row[3]), tuple(json.loads(row[4])),
                             row[5])

    def add(self, sha: str, document: str, edition: str, source: str, records: Sequence[Record],
            counts: Mapping[str, int], warnings: Sequence[str] = ()) -> None:
        """Keep one parsed release (or any group of records of one document edition)."""
        from rulesjudge.corpus.editions import Entry, mask

        raws, entries, rows = [], [], []
        for record in records:
            raws.append(to_raw(record))
            entry = Entry.of(record)  # what matching across editions needs, kept beside the record
            if entry is not None:
                entries.append(tuple(getattr(entry, name) for name in Entry.__slots__))
            masked = entry.masked if entry is not None and entry.kind != "glossary" else mask(record.text)
            rows.append((local_of(record.id), record.number, _digest(masked)))
        with self.write() as db:
            old = db.execute("SELECT id FROM releases WHERE sha256=?", (sha,)).fetchone()
            if old is not None:
                self._forget(db, int(old[0]))
            cursor = db.execute("INSERT INTO releases(sha256, document, edition, source, counts, warnings, "
                                "records, used) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                                (sha, document, edition, source, json.dumps(dict(counts)),
                                 json.dumps(list(warnings)), len(rows), time.time()))
            release = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO blobs VALUES(?, ?, ?)", (release, pack(raws), pack(entries)))
            db.executemany("INSERT OR REPLACE INTO records VALUES(?, ?, ?, ?)",
                           [(release, *row) for row in rows])
        self._ids.pop(sha, None)

    def _forget(self, db: sqlite3.Connection, release: int) -> None:
        for sql in ("DELETE FROM blobs WHERE release=?", "DELETE FROM records WHERE release=?",
                    "DELETE FROM moves WHERE a=?1 OR b=?1", "DELETE FROM pairs WHERE a=?1 OR b=?1",
                    "DELETE FROM releases WHERE id=?"):
            db.execute(sql, (release,))

    def used(self, shas: Iterable[str]) -> None:
        """Mark releases as used now; forget the parsed releases nobody used for :data:`UNUSED_DAYS`.
        A mark a day old is fresh enough: a lookup writes nothing (at most once a day)."""
        now = time.time()
        rows = self.query("SELECT sha256 FROM releases WHERE used < ?", (now - TOUCH_SECONDS,))
        old = {sha for (sha,) in rows}
        if not old:
            return
        with contextlib.suppress(sqlite3.Error), self.write() as db:
            renewed = [(now, sha) for sha in shas if sha in old]
            db.executemany("UPDATE releases SET used=? WHERE sha256=?", renewed)
            stale = db.execute("SELECT id, sha256 FROM releases WHERE used < ?",
                               (now - UNUSED_DAYS * 86400,)).fetchall()
            for release, sha in stale:
                self._forget(db, int(release))
                self._ids.pop(sha, None)

    def raws(self, sha: str) -> list[Raw]:
        """Every record of a release in file order, as plain values."""
        row = self.one("SELECT records FROM blobs WHERE release=?", (self.id(sha),))
        raws = self._unpack(row[0]) if row is not None else []
        if not isinstance(raws, tuple) or not all(isinstance(r, tuple) and r and isinstance(r[0], str)
                                                  for r in raws):
            raise self._damaged("not a list of records")
        return list(raws)

    def view(self, sha: str) -> EditionView:
        """A release's records grouped for matching (no record is built)."""
        from rulesjudge.corpus.editions import EditionView, Entry

        row = self.one("SELECT entries FROM blobs WHERE release=?", (self.id(sha),))
        view = EditionView()
        try:
            for values in self._unpack(row[0]) if row is not None else ():
                view.add(Entry(*values))
        except TypeError:
            raise self._damaged("not a list of entries") from None
        return view

    def _unpack(self, blob: Any) -> Any:
        try:
            return unpack(blob)
        except DamagedCache as error:
            raise self._damaged(str(error)) from None

    def _damaged(self, what: str) -> InputError:
        """A parsed release's rows that don't read (the file was edited by hand or by other code)."""
        return InputError(self.path or "corpus cache", f"damaged ({what}); delete it and it is rebuilt "
                                                        "from the release files")

    def has(self, sha: str, local: str) -> bool:
        row = self.one("SELECT 1 FROM records WHERE release=? AND local=?", (self.id(sha), local))
        return row is not None

    def key(self, sha: str, local: str) -> bytes | None:
        """A digest of a record's masked text: equal keys, the same words."""
        row = self.one("SELECT key FROM records WHERE release=? AND local=?", (self.id(sha), local))
        return row[0] if row is not None else None

    def numbered(self, number: str) -> list[tuple[str, str]]:
        """``(release sha256, local)`` of every cached record with this number."""
        rows = self.query("SELECT releases.sha256, records.local FROM records JOIN releases "
                          "ON releases.id = records.release WHERE records.number=?", (number,))
        return [(row[0], row[1]) for row in rows]

    # --- the cross-release map ---

    def has_pair(self, a: str, b: str) -> bool:
        return self.one("SELECT 1 FROM pairs WHERE a=? AND b=?", (self.id(a), self.id(b))) is not None

    def add_pair(self, a: str, b: str, old: Iterable[str], mapping: Mapping[str, tuple[str, bool]]) -> None:
        """The map from release ``a`` onto release ``b``: of the records of ``a`` (``old``), only those that
        moved or have no counterpart get a row."""
        rows = []
        for local in old:
            found = mapping.get(local)
            if found is None or found[0] != local:
                rows.append((self.id(a), self.id(b), local, found[0] if found else None))
        with self.write() as db:
            db.execute("DELETE FROM moves WHERE a=? AND b=?", (self.id(a), self.id(b)))
            db.executemany("INSERT INTO moves VALUES(?, ?, ?, ?)", rows)
            db.execute("INSERT OR REPLACE INTO pairs VALUES(?, ?)", (self.id(a), self.id(b)))

    def forward(self, a: str, b: str, local: str) -> str | None:
        """The id in ``b`` of the record ``local`` of ``a`` (None: it has no counterpart)."""
        row = self.one("SELECT dst FROM moves WHERE a=? AND b=? AND src=?", (self.id(a), self.id(b), local))
        if row is not None:
            return str(row[0]) if row[0] is not None else None
        return local if self.has(b, local) else None

    def backward(self, a: str, b: str, local: str) -> list[str]:
        """The records of ``a`` whose counterpart in ``b`` is ``local``."""
        ids = (self.id(a), self.id(b))
        found = [row[0] for row in self.query("SELECT src FROM moves WHERE b=? AND a=? AND dst=?",
                                              (ids[1], ids[0], local))]
        moved = self.one("SELECT 1 FROM moves WHERE a=? AND b=? AND src=?", (*ids, local)) is not None
        if not moved and self.has(a, local):
            found.append(local)  # kept its id
        return found

    def moves(self, a: str, b: str) -> tuple[int, int]:
        """``(renumbered, without counterpart)`` records of the map from ``a`` onto ``b``."""
        row = self.one("SELECT count(dst), count(*) - count(dst) FROM moves WHERE a=? AND b=?",
                       (self.id(a), self.id(b)))
        return int(row[0]), int(row[1])

    # --- the assembled part ---

    def assembled(self, key: str) -> _Assembled | None:
        row = self.one("SELECT value, used FROM assembled WHERE key=?", (key,))
        if row is None:
            return None
        try:
            value = _Assembled.from_plain(unpack(row[0]))
        except (DamagedCache, TypeError, ValueError, AttributeError, KeyError):  # a damaged entry is rebuilt
            return None
        now = time.time()
        if row[1] < now - TOUCH_SECONDS:  # as for releases: a lookup writes nothing
            with contextlib.suppress(sqlite3.Error), self.write() as db:
                db.execute("UPDATE assembled SET used=? WHERE key=?", (now, key))
        return value

    def save_assembled(self, key: str, value: _Assembled) -> None:
        with contextlib.suppress(sqlite3.Error), self.write() as db:
            db.execute("INSERT OR REPLACE INTO assembled VALUES(?, ?, ?)", (key, pack(value.to_plain()),
                                                                             time.time()))
            db.execute("DELETE FROM assembled WHERE key NOT IN (SELECT key FROM assembled ORDER BY used DESC "
                       "LIMIT ?)", (KEEP_ASSEMBLED,))

    def sizes(self) -> dict[str, int]:
        """What the cache holds (rows per table) and its size on disk in bytes."""
        out = {table: int(self.one(f"SELECT count(*) FROM {table}")[0]) for table in
               ("releases", "records", "pairs", "moves", "assembled")}
        if self.path is not None:
            with contextlib.suppress(sqlite3.Error):
                self.one("PRAGMA wal_checkpoint(TRUNCATE)")  # what the file holds, not a journal beside it
            with contextlib.suppress(OSError):
                out["bytes"] = self.path.stat().st_size
        return out


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=8).digest()


def _delete_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            Path(str(path) + suffix).unlink()


def cache_path() -> Path:
    return data_dir() / "cache" / CACHE_FILE


@functools.lru_cache(maxsize=1)
def _code_fingerprint() -> str:
    """Changes when the code that reads releases or maps them changes: the cache is then rebuilt."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in ("official.py", "crossrefs.py", "editions.py", "records.py", "store.py"):
        with contextlib.suppress(OSError):
            digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    return digest.hexdigest()[:16]


# ------------------------------------------------------------------------------------------ the corpus


class _Records(Mapping[str, Record]):
    """Every loaded record by id; release records are read from the cache on first access."""

    def __init__(self, corpus: StoredCorpus) -> None:
        self.corpus = corpus

    def __getitem__(self, key: str) -> Record:
        record = self.corpus.get(key)
        if record is None:
            raise KeyError(key)
        return record

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.corpus.has(key)

    def __iter__(self) -> Iterator[str]:
        for release in self.corpus.live:
            prefix = id_prefix(release.document, release.edition)
            yield from (prefix + local for local in self.corpus.raws(release))
        yield from self.corpus.builtin

    def __len__(self) -> int:
        return sum(release.records for release in self.corpus.live) + len(self.corpus.builtin)

    def values(self) -> Iterator[Record]:  # type: ignore[override]
        for release in self.corpus.live:
            yield from self.corpus.release_records(release)
        yield from self.corpus.builtin.values()

    def items(self) -> Iterator[tuple[str, Record]]:  # type: ignore[override]
        for record in self.values():
            yield record.id, record


@dataclass(frozen=True, slots=True)
class _Live(CachedRelease):
    """A loaded release (or group of records) of the cache: where from, and whether it was parsed before."""

    path: str = ""
    cached: bool = False


@dataclass
class _Assembled:
    """The built-in documents against one set of releases (cached in the ``assembled`` table)."""

    builtin: dict[str, Record]  # records no loaded release has, references resolved
    merged: dict[str, tuple[tuple[Provenance, ...], tuple[str, ...]]]  # id of a release record quoted
    conflicts: list[str]
    links: dict[str, tuple[str, ...]]  # a quoted record -> the same rule in the releases around its edition

    def to_plain(self) -> dict[str, Any]:
        """Plain values for the cache (corpus/codec.py)."""
        return {"builtin": [to_raw(r) for r in self.builtin.values()],
                "merged": {i: [[[p.source, p.line] for p in provenance], list(aliases)]
                           for i, (provenance, aliases) in self.merged.items()},
                "conflicts": list(self.conflicts), "links": {i: list(t) for i, t in self.links.items()}}

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> _Assembled:
        """The value of :meth:`to_plain`; a foreign shape raises (DamagedCache, TypeError, ...)."""
        builtin = [from_raw(raw) for raw in data["builtin"]]
        merged = {str(i): (tuple(Provenance(*p) for p in provenance), tuple(map(str, aliases)))
                  for i, (provenance, aliases) in data["merged"].items()}
        links = {str(i): tuple(map(str, t)) for i, t in data["links"].items()}
        return cls({r.id: r for r in builtin}, merged, [str(c) for c in data["conflicts"]], links)


class StoredCorpus:
    """Every loaded record, the indexes by number and edition, and the cross-release map (the
    :class:`corpus.records.Corpus` protocol)."""

    def __init__(self, cache: Cache, live: Sequence[_Live], builtin: Iterable[Record],
                 links: Mapping[str, Sequence[str]] | None = None) -> None:
        self.cache = cache
        self.live = list(live)
        self.builtin: dict[str, Record] = {record.id: record for record in builtin}
        self.merged: dict[str, tuple[tuple[Provenance, ...], tuple[str, ...]]] = {}
        self.conflicts: list[str] = []
        self._release_of = {(r.document, r.edition): r for r in self.live}
        self._built: dict[str, Record] = {}
        self._raws: dict[str, dict[str, Raw]] = {}
        self._chains: dict[str, list[_Live]] = {}
        for release in sorted(self.live, key=lambda r: r.edition):
            self._chains.setdefault(release.document, []).append(release)
        self._links: dict[str, set[str]] = {}
        self._add_links(links or {})
        self._numbers: dict[tuple[str, str], dict[str, str]] = {}
        self._index_builtin()
        self._equivalents: dict[str, list[tuple[str, bool]]] = {}
        self._pairs: dict[tuple[str, str], bool] = {}
        self.releases = [LoadedRelease(r.path, r.edition, dict(r.counts), r.cached, r.sha, r.warnings)
                         for r in self.live if r.path]

    @property
    def records(self) -> Mapping[str, Record]:
        return _Records(self)

    def _index_builtin(self) -> None:
        self._numbers = {}
        for record in self.builtin.values():
            if record.number:
                self._numbers.setdefault((record.document, record.number), {}).setdefault(record.edition,
                                                                                          record.id)

    def _add_links(self, links: Mapping[str, Sequence[str]]) -> None:
        for source, targets in links.items():
            for target in targets:
                self._links.setdefault(source, set()).add(target)
                self._links.setdefault(target, set()).add(source)

    def _use(self, assembled: _Assembled) -> None:
        self.builtin = assembled.builtin
        self.merged = assembled.merged
        self.conflicts = list(assembled.conflicts)
        self._links = {}
        self._add_links(assembled.links)
        self._index_builtin()
        self._built.clear()

    # --- records ---

    def _locate(self, record_id: str) -> tuple[_Live, str] | None:
        """The loaded release an id belongs to, and the id's local part."""
        document, edition, local = id_parts(record_id)
        release = self._release_of.get((document, edition))
        return (release, local) if release is not None else None

    def get(self, record_id: str) -> Record | None:
        record = self._built.get(record_id) or self.builtin.get(record_id)
        if record is not None:
            return record
        found = self._locate(record_id)
        raw = self.raws(found[0]).get(found[1]) if found else None
        if raw is None:
            return None
        record = self._built[record_id] = self._with_quotes(from_raw(raw))
        return record

    def has(self, record_id: str) -> bool:
        if record_id in self._built or record_id in self.builtin:
            return True
        found = self._locate(record_id)
        if found is None:
            return False
        loaded = self._raws.get(found[0].sha)
        return found[1] in loaded if loaded is not None else self.cache.has(found[0].sha, found[1])

    def _with_quotes(self, record: Record) -> Record:
        quoted = self.merged.get(record.id)
        if quoted is None:
            return record
        provenance, aliases = quoted
        for more in provenance:
            record = record.with_provenance(more)
        return replace(record, aliases=aliases) if aliases and not record.aliases else record

    def raws(self, release: _Live) -> dict[str, Raw]:
        """A loaded release's records as plain values by local id, in file order (read once)."""
        found = self._raws.get(release.sha)
        if found is None:
            rows = healed(self.cache, release, self.cache.raws)
            found = self._raws[release.sha] = {local_of(raw[0]): raw for raw in rows}
        return found

    def release_records(self, release: _Live) -> list[Record]:
        """Every record of one loaded release, in file order (built once, then kept)."""
        out = []
        for raw in self.raws(release).values():
            record_id = raw[0]
            record = self._built.get(record_id)
            if record is None:
                record = self._built[record_id] = self._with_quotes(from_raw(raw))
            out.append(record)
        return out

    def in_edition(self, document: str, edition: str) -> list[Record]:
        """Records of one document edition in load order."""
        release = self._release_of.get((document, edition))
        records = self.release_records(release) if release is not None else []
        prefix = id_prefix(document, edition)
        return records + [r for rid, r in self.builtin.items() if rid.startswith(prefix)]

    # --- numbers and editions ---

    def editions(self, document: str) -> list[str]:
        """The loaded editions of a document, oldest first (ISO dates sort as text)."""
        found = {r.edition for r in self.live if r.document == document}
        found.update(r.edition for r in self.builtin.values() if r.document == document)
        return sorted(found)

    def documents(self) -> list[tuple[str, str, int]]:
        """``(document, edition, record count)`` for every loaded document edition."""
        counts = {(r.document, r.edition): r.records for r in self.live}
        for record in self.builtin.values():
            key = (record.document, record.edition)
            counts[key] = counts.get(key, 0) + 1
        return sorted((doc, edition, n) for (doc, edition), n in counts.items())

    def numbered(self, number: str, document: str = "cr") -> dict[str, str]:
        """Edition -> record id of every loaded record with this number in this document (a number the
        publisher printed twice answers with its first print)."""
        found = dict(self._numbers.get((document, number), {}))
        live = {r.sha: r for r in self.live if r.document == document}
        for sha, local in sorted(self.cache.numbered(number), key=lambda row: row[1] != number):
            release = live.get(sha)
            if release is not None:
                found.setdefault(release.edition, make_id(document, release.edition, local))
        return found

    def lookup(self, number: str, document: str = "cr", edition: str | None = None) -> Record | None:
        """The record with this number: in ``edition``, or in the newest loaded edition having it."""
        rid = self.lookup_id(number, document, edition, None)
        return self.get(rid) if rid else None

    def lookup_id(
        self, number: str, document: str, edition: str | None, in_force_on: str | None = None
    ) -> str | None:
        """Id of the record with this number; with ``in_force_on``, from the edition in force that day."""
        found = self.numbered(number, document)
        if not found:
            return None
        if edition is not None:
            return found.get(edition)
        editions = sorted(found)
        if in_force_on is not None:
            earlier = [e for e in editions if e <= in_force_on]
            if earlier:
                return found[earlier[-1]]
        return found[editions[-1]]

    # --- the same rule across editions ---

    def equivalents(self, record_id: str) -> list[tuple[str, bool]]:
        """The same rule in every other loaded edition of its document: ``(record id, text changed)``,
        oldest edition first."""
        if record_id not in self._equivalents:
            self._equivalents[record_id] = self._find_equivalents(record_id)
        return list(self._equivalents[record_id])

    def latest(self, record_id: str) -> str:
        """The same rule in the newest loaded edition holding it (``record_id`` when none is newer)."""
        edition = edition_of(record_id)
        newer = [rid for rid, _ in self.equivalents(record_id) if edition_of(rid) > edition]
        return max(newer, key=edition_of, default=record_id)

    def _find_equivalents(self, record_id: str) -> list[tuple[str, bool]]:
        if not self.has(record_id):
            return []
        seen = {record_id}
        queue = [record_id]
        while queue:
            for other in self._neighbours(queue.pop()):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        edition = edition_of(record_id)
        key = self.text_key(record_id)
        found = [(rid, self.text_key(rid) != key) for rid in seen if edition_of(rid) != edition]
        return sorted(found, key=lambda item: (edition_of(item[0]), item[0]))

    def _neighbours(self, record_id: str) -> list[str]:
        """The same rule one step away: in the next and previous release, and the quotes linked to it."""
        out = list(self._links.get(record_id, ()))
        document, edition, local = id_parts(record_id)
        chain = self._chains.get(document, [])
        position = next((i for i, r in enumerate(chain) if r.edition == edition), None)
        if position is None:
            return out
        if position + 1 < len(chain) and self._mapped(chain[position], chain[position + 1]):
            following = chain[position + 1]
            found = self.cache.forward(chain[position].sha, following.sha, local)
            if found is not None:
                out.append(make_id(document, following.edition, found))
        if position > 0 and self._mapped(chain[position - 1], chain[position]):
            previous = chain[position - 1]
            for found in self.cache.backward(previous.sha, chain[position].sha, local):
                out.append(make_id(document, previous.edition, found))
        return out

    def _mapped(self, old: _Live, new: _Live) -> bool:
        """Is the map from ``old`` onto ``new`` in the cache? (Not for a corpus given its links.)"""
        key = (old.sha, new.sha)
        if key not in self._pairs:
            self._pairs[key] = self.cache.has_pair(*key)
        return self._pairs[key]

    def text_key(self, record_id: str) -> bytes | None:
        """A digest of the text as matching compares it: equal keys, the same words."""
        from rulesjudge.corpus.editions import mask

        record = self.builtin.get(record_id)
        if record is not None:
            return _digest(mask(record.text))
        found = self._locate(record_id)
        return self.cache.key(found[0].sha, found[1]) if found else None

    def release_editions(self, document: str) -> list[str]:
        """The editions read from a whole release, oldest first (the others hold what pages quote)."""
        return [r.edition for r in self._chains.get(document, [])]

    def chain(self, document: str = "cr") -> list[LoadedRelease]:
        """The loaded releases of a document whose neighbours are mapped onto each other, oldest first."""
        return [LoadedRelease(r.path, r.edition, dict(r.counts), r.cached, r.sha, r.warnings)
                for r in self._chains.get(document, [])]


# ------------------------------------------------------------------------------------------- loading


def healed(cache: Cache, release: _Live, read: Callable[[str], _T]) -> _T:
    """``read(release.sha)`` from the cache; when the cached rows don't read (edited by hand or by other
    code), the release file is parsed again into the cache and read once more: a damaged cache entry is
    rebuilt, as a damaged cache file is, and the command goes on."""
    try:
        return read(release.sha)
    except InputError:
        path = Path(release.path) if release.path else None
        if path is None:
            raise
        data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")
        if hashlib.sha256(data).hexdigest() != release.sha:
            raise  # the file changed since it was loaded: the next command reads it afresh
        keep_release(cache, parse_release(data, source_name=path.name), release.sha)
        return read(release.sha)


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
        return sorted(p for p in releases.iterdir()  # "CR-2024.TXT" dropped in by hand is a release too
                      if p.suffix.lower() == ".txt" and not p.name.startswith("."))
    except PermissionError as error:
        raise InputError(error.filename or folder, "data folder not readable (permission denied)") from None
    except OSError as error:
        raise InputError(error.filename or folder, f"data folder is not readable: {error.strerror}") from None


def builtin_release_paths() -> list[Path]:
    """The official releases built into the project (``corpus/sources``, the manifest's ``releases``)."""
    from rulesjudge.corpus.documents import builtin_releases

    return [release.path for release in builtin_releases()]


def open_cache() -> Cache:
    """The data folder's corpus cache (in memory when the data folder can't be written)."""
    folder = data_dir()
    if folder.exists() and not folder.is_dir():
        raise InputError(folder, "data folder is not a folder")
    return Cache(cache_path())


def read_release(path: Path, cache: Cache) -> tuple[str, bool]:
    """The sha256 of a release file, parsing it into the cache unless it is there already; and whether
    it was (bad input raises InputError naming the file and line)."""
    sha, data = cache.file_sha(path)
    if cache.release(sha) is not None:
        return sha, True
    if data is None:
        data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")
    keep_release(cache, parse_release(data, source_name=path.name), sha)
    return sha, False


def keep_release(cache: Cache, release: Release, sha: str | None = None) -> None:
    """A parsed release into the cache, its references to its own rules resolved."""
    records = _with_own_references(release.records)
    cache.add(sha or release.sha256, "cr", release.effective, release.source, records, release.counts,
              release.warnings)


def _with_own_references(records: Sequence[Record]) -> list[Record]:
    """References of a release's records resolved within the release (an official rule cites its own
    edition; see :func:`corpus.crossrefs.target_of`)."""
    by_number = {r.number: r.id for r in reversed(records) if r.number}
    out = []
    for record in records:
        found = dict.fromkeys(crossrefs.find_references(record.text))
        refs = tuple(CrossRef(label, number, by_number.get(number)) for label, number in found)
        out.append(replace(record, cross_refs=refs) if refs else record)
    return out


def load_corpus(
    releases: Sequence[str | Path] | None = None,
    include_user_releases: bool = True,
    *,
    include_builtin_releases: bool = True,
) -> StoredCorpus:
    """Built-in source documents and releases + official releases (``releases`` and, by default, the data
    folder's). ``include_builtin_releases=False`` gives the five source documents alone (for tests of them).

    A release already parsed is not parsed again, a pair of neighbouring releases already mapped is not
    mapped again: loading costs what changed (see the module docstring).
    """
    paths = builtin_release_paths() if include_builtin_releases else []
    paths.extend(Path(p) for p in releases or ())
    in_data_folder = user_release_paths() if include_user_releases else []
    paths.extend(in_data_folder)
    cache = open_cache()
    live: list[_Live] = []
    editions: set[tuple[str, str]] = set()
    for path in paths:
        try:
            sha, cached = read_release(path, cache)
        except InputError as error:
            if path not in in_data_folder:  # a release asked for by name is the command's input: refused
                raise
            _skip_once(error)  # one damaged file in the data folder must not take every command down
            continue
        found = cache.loaded(sha, str(path), cached)
        if (found.document, found.edition) in editions:  # the same edition twice: the first one wins
            continue
        editions.add((found.document, found.edition))
        live.append(found)
    cache.used(r.sha for r in live)
    corpus = _assemble(cache, live, _builtin_records(), _builtin_key())
    if cache.changed and cache.path is not None:
        with contextlib.suppress(OSError):  # the description is a courtesy; the cache works without it
            write_atomic(cache.path.with_name(CONTENTS_FILE), describe(cache))
    return corpus


_SKIPPED: set[str] = set()


def _skip_once(error: InputError) -> None:
    """Say once per process, on stderr, that a release file of the data folder is left out and why."""
    if str(error) not in _SKIPPED:
        _SKIPPED.add(str(error))
        print(f"rulesjudge: warning: {error} (left out; the other rules load without it: replace or delete "
              "the file)", file=sys.stderr)


def describe(cache: Cache) -> str:
    """What the cache file holds, in words (kept beside it as ``corpus-contents.txt``)."""
    sizes = cache.sizes()
    rows = cache.query("SELECT edition, source, records, sha256 FROM releases ORDER BY document, edition")
    lines = [f"{CACHE_FILE}: the corpus cache of rulesjudge ({sizes.get('bytes', 0) / 1e6:.1f} MB). It holds",
             f"- {sizes['releases']} parsed releases ({sizes['records']} records), one row of values each:"]
    lines += [f"    {edition}  {records:>5} records  {source}  sha256 {sha[:16]}"
              for edition, source, records, sha in rows]
    lines += [f"- the cross-release maps of {sizes['pairs']} pairs of neighbouring releases "
              f"({sizes['moves']} records renumbered or without counterpart; the others keep their id)",
              f"- {sizes['assembled']} assembled sets of the built-in documents against a set of releases",
              "Deleting it is safe: it is rebuilt from the release files."]
    return "\n".join(lines) + "\n"


def assemble(builtin: Iterable[Record], releases: Sequence[Release]) -> StoredCorpus:
    """Records of source documents and parsed releases assembled as :func:`load_corpus` does, in a cache
    in memory (tests of the merging rules)."""
    cache = Cache(None)
    live = []
    for release in releases:
        keep_release(cache, release)
        live.append(cache.loaded(release.sha256, release.source))
    records = list(builtin)
    key = hashlib.sha256(repr([to_raw(r) for r in records]).encode()).hexdigest()
    return _assemble(cache, live, records, key)


def corpus_of(records: Iterable[Record], links: Mapping[str, Sequence[str]] | None = None) -> StoredCorpus:
    """A corpus over records in hand (a test's synthetic rules), in a cache in memory: each document
    edition is a release, neighbouring editions are mapped onto each other -- or, with ``links``, the
    same rule in other editions is what ``links`` says (``{"cr@2020-06-01/718.4": ["cr@2024-06-07/722.4"]}``).
    """
    cache = Cache(None)
    groups: dict[tuple[str, str], list[Record]] = {}
    for record in records:
        groups.setdefault((record.document, record.edition), []).append(record)
    live = []
    for (document, edition), group in sorted(groups.items()):
        sha = hashlib.sha256(repr([to_raw(r) for r in group]).encode()).hexdigest()
        cache.add(sha, document, edition, "", group, {})
        live.append(cache.loaded(sha))
    corpus = StoredCorpus(cache, live, [], links)
    if links is None:
        _map_neighbours(corpus)
    return corpus


def _assemble(cache: Cache, live: list[_Live], builtin: list[Record], builtin_key: str) -> StoredCorpus:
    """The corpus: neighbouring releases mapped (what is missing), the built-in documents merged in."""
    corpus = StoredCorpus(cache, live, [])
    _map_neighbours(corpus)
    key = hashlib.sha256("\n".join([_code_fingerprint(), builtin_key, *(r.sha for r in live)]).encode())
    assembled = cache.assembled(key.hexdigest())
    if assembled is None:
        assembled = _assemble_builtin(corpus, builtin)
        cache.save_assembled(key.hexdigest(), assembled)
    corpus._use(assembled)
    return corpus


def _map_neighbours(corpus: StoredCorpus) -> None:
    """Map each release onto the next one of its document, where that map is not in the cache yet."""
    from rulesjudge.corpus.editions import map_editions

    views: dict[str, EditionView] = {}

    def view(release: _Live) -> EditionView:
        if release.sha not in views:
            views[release.sha] = healed(corpus.cache, release, corpus.cache.view)
        return views[release.sha]

    for chain in corpus._chains.values():
        for old, new in itertools.pairwise(chain):
            if not corpus.cache.has_pair(old.sha, new.sha):
                older = view(old)
                corpus.cache.add_pair(old.sha, new.sha, older.entries, map_editions(older, view(new)))


def _assemble_builtin(corpus: StoredCorpus, builtin: list[Record]) -> _Assembled:
    """Built-in records merged with the releases' records of the same id, the others' references
    resolved against everything loaded, and the quotes of editions no release provides mapped onto the
    releases around their edition."""
    merged: dict[str, tuple[tuple[Provenance, ...], tuple[str, ...]]] = {}
    conflicts: list[str] = []
    alone: list[Record] = []
    for record in builtin:
        official = corpus.get(record.id)
        if official is None:
            alone.append(record)
            continue
        if typography_key(official.text) != typography_key(record.text):
            conflicts.append(record.id)
        merged[record.id] = (record.provenance, record.aliases)
    corpus.builtin = {record.id: record for record in alone}
    corpus._index_builtin()
    resolved: dict[str, Record] = {}
    for record in alone:
        refs = tuple(CrossRef(label, number, crossrefs.target_of(record, label, number, corpus.lookup_id))
                     for label, number in dict.fromkeys(crossrefs.find_references(record.text)))
        if record.kind == "reminder" and record.number:  # the official rule a fan document recalls
            official_id = corpus.lookup_id(record.number, "cr", None, record.effective)
            record = replace(record, links=(official_id,)) if official_id else record
        resolved[record.id] = replace(record, cross_refs=refs) if refs else record
    return _Assembled(resolved, merged, conflicts, _quote_links(corpus, alone))


def _quote_links(corpus: StoredCorpus, quoted: list[Record]) -> dict[str, tuple[str, ...]]:
    """Each quoted official rule of an edition no release provides -> the same rule in the releases just
    before and just after that edition (without releases: in the other quoted editions around it)."""
    from rulesjudge.corpus.editions import EditionView, map_editions

    by_edition: dict[str, list[Record]] = {}
    for record in quoted:
        if record.document == "cr":
            by_edition.setdefault(record.edition, []).append(record)
    chain = corpus._chains.get("cr", [])
    targets: dict[str, tuple[str, EditionView]] = {}  # edition -> (edition, its view)

    def target(edition: str) -> tuple[str, EditionView]:
        if edition not in targets:
            release = corpus._release_of.get(("cr", edition))
            targets[edition] = (edition, healed(corpus.cache, release, corpus.cache.view)
                                if release is not None else EditionView.of(by_edition[edition]))
        return targets[edition]

    order = [r.edition for r in chain] or sorted(by_edition)
    links: dict[str, set[str]] = {}
    for edition, records in by_edition.items():
        own = EditionView.of(records)
        before = [e for e in order if e < edition]
        after = [e for e in order if e > edition]
        for neighbour in (before[-1:] + after[:1]):
            name, view = target(neighbour)
            for local, (found, _changed) in map_editions(own, view).items():
                links.setdefault(make_id("cr", edition, local), set()).add(make_id("cr", name, found))
    return {source: tuple(sorted(found)) for source, found in links.items()}


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


def _builtin_key() -> str:
    """Names the built-in documents' records as read (the documents reader's own cache key)."""
    from rulesjudge.corpus.documents import builtin_key

    return builtin_key()


def _builtin_records() -> list[Record]:
    from rulesjudge.corpus.documents import read_builtin

    return read_builtin()
