"""The corpus cache: parsed releases, their records and the cross-release maps in one SQLite file
(see :class:`Cache`), and how a release gets into it (:func:`keep_release`, :func:`healed`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import sqlite3
import stat
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import cache_dir, files_digest
from rulesjudge.common.sqlite_cache import SqliteCache
from rulesjudge.corpus import crossrefs
from rulesjudge.corpus.codec import DamagedCache, Raw, from_raw, pack, to_raw, unpack
from rulesjudge.corpus.editions import EditionView, Entry, mask
from rulesjudge.corpus.official import Release, parse_release, read_release_file
from rulesjudge.corpus.records import CrossRef, Provenance, Record, local_of

_T = TypeVar("_T")
CACHE_FILE = "corpus.sqlite"
#: Bump when the cache's tables change shape (the code's fingerprint covers the parser's output).
SCHEMA = "corpus-3"  # 3: blobs are MessagePack (2 held pickles, which a shared data folder could plant)
#: A parsed release no loaded corpus used for this long leaves the cache (a file removed from the folder).
UNUSED_DAYS = 14
#: How old a "last used" mark gets before a load renews it (so that a lookup writes nothing).
TOUCH_SECONDS = 86400
KEEP_ASSEMBLED = 8

_TABLES = """
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


class Cache(SqliteCache):
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
        # auto_vacuum: pages freed by forgotten releases go back (new files)
        super().__init__(path, schema=f"{SCHEMA} {code_fingerprint()}", tables=_TABLES,
                         pragmas=("auto_vacuum=FULL",))
        self._ids: dict[str, int] = {}

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
        data = read_release_file(path)
        sha = hashlib.sha256(data).hexdigest()
        if info is not None:
            with contextlib.suppress(sqlite3.Error), self.write() as db:
                db.execute("INSERT OR REPLACE INTO files VALUES(?, ?, ?, ?, ?)",
                           (key, info.st_size, info.st_mtime_ns, info.st_ino, sha))
        return sha, data

    def loaded(self, sha: str, path: str = "", cached: bool = False) -> LiveRelease:
        """A parsed release as a corpus loads it."""
        found = self.release(sha)
        if found is None:
            raise KeyError(sha)
        return LiveRelease(found.sha, found.document, found.edition, found.source, found.counts,
                           found.warnings, found.records, path, cached)

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
        raws, entries, rows = [], [], []
        for record in records:
            raws.append(to_raw(record))
            entry = Entry.of(record)  # what matching across editions needs, kept beside the record
            if entry is not None:
                entries.append(tuple(getattr(entry, name) for name in Entry.__slots__))
            masked = entry.masked if entry is not None and entry.kind != "glossary" else mask(record.text)
            rows.append((local_of(record.id), record.number, text_digest(masked)))
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

    def assembled(self, key: str) -> Assembled | None:
        row = self.one("SELECT value, used FROM assembled WHERE key=?", (key,))
        if row is None:
            return None
        try:
            value = Assembled.from_plain(unpack(row[0]))
        except (DamagedCache, TypeError, ValueError, AttributeError, KeyError):  # a damaged entry is rebuilt
            return None
        now = time.time()
        if row[1] < now - TOUCH_SECONDS:  # as for releases: a lookup writes nothing
            with contextlib.suppress(sqlite3.Error), self.write() as db:
                db.execute("UPDATE assembled SET used=? WHERE key=?", (now, key))
        return value

    def save_assembled(self, key: str, value: Assembled) -> None:
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


def text_digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=8).digest()



def cache_path() -> Path:
    return cache_dir() / CACHE_FILE


def fingerprint_files() -> list[Path]:
    """The code whose output the cache holds: the release reader, the cross-release map, the records and
    the store itself (every module of their packages)."""
    corpus = Path(__file__).resolve().parent.parent
    return [*sorted((corpus / "official").glob("*.py")), corpus / "crossrefs.py", corpus / "editions.py",
            corpus / "records.py", *sorted((corpus / "store").glob("*.py"))]


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Changes when the code that reads releases or maps them changes: the cache is then rebuilt."""
    corpus = Path(__file__).resolve().parent.parent
    return files_digest(((str(path.relative_to(corpus)), path) for path in fingerprint_files()),
                        unreadable_ok=True)[:16]


@dataclass(frozen=True, slots=True)
class LiveRelease(CachedRelease):
    """A loaded release (or group of records) of the cache: where from, and whether it was parsed before."""

    path: str = ""
    cached: bool = False


@dataclass
class Assembled:
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
    def from_plain(cls, data: dict[str, Any]) -> Assembled:
        """The value of :meth:`to_plain`; a foreign shape raises (DamagedCache, TypeError, ...)."""
        builtin = [from_raw(raw) for raw in data["builtin"]]
        merged = {str(i): (tuple(Provenance(*p) for p in provenance), tuple(map(str, aliases)))
                  for i, (provenance, aliases) in data["merged"].items()}
        links = {str(i): tuple(map(str, t)) for i, t in data["links"].items()}
        return cls({r.id: r for r in builtin}, merged, [str(c) for c in data["conflicts"]], links)


def healed(cache: Cache, release: LiveRelease, read: Callable[[str], _T]) -> _T:
    """``read(release.sha)`` from the cache; when the cached rows don't read (edited by hand or by other
    code), the release file is parsed again into the cache and read once more: a damaged cache entry is
    rebuilt, as a damaged cache file is, and the command goes on."""
    try:
        return read(release.sha)
    except InputError:
        path = Path(release.path) if release.path else None
        if path is None:
            raise
        data = read_release_file(path)
        if hashlib.sha256(data).hexdigest() != release.sha:
            raise  # the file changed since it was loaded: the next command reads it afresh
        parse_into(cache, data, path.name, release.sha)
        return read(release.sha)


def parse_into(cache: Cache, data: bytes, name: str, sha: str) -> None:
    """A release file's bytes parsed into the cache under the file's sha256 (bad input raises
    :class:`InputError` naming the file and line)."""
    keep_release(cache, parse_release(data, source_name=name), sha)


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
