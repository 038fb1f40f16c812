"""The card cache: parsed snapshots in one SQLite file, ``data_dir()/cache/cards.sqlite``.

A snapshot is parsed once and kept under the sha256 of its file(s): one row per card (its plain values,
compressed JSON: a cache can't run code, unlike a pickle) and one row for the snapshot with its name
index. A process reads the names (small) and then only the cards it is asked for. Writing a snapshot is
one transaction, so a killed process leaves the cache as it was; a damaged file, or one written by other
code (the schema line holds a fingerprint of the code that reads cards), is deleted and made anew; a data
folder that can't be written gets a cache in memory.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesjudge.common.files import cache_dir, files_digest, sha256_file
from rulesjudge.common.sqlite_cache import SqliteCache
from rulesjudge.corpus.cards.model import Card
from rulesjudge.corpus.cards.readers import Snapshot
from rulesjudge.corpus.documents import MANIFEST_PATH

CACHE_FILE = "cards.sqlite"
SCHEMA = "cards-1"
_TABLES = """
CREATE TABLE snapshots (sha TEXT PRIMARY KEY, edition TEXT, format TEXT, cards INTEGER, rulings INTEGER,
                        names BLOB);
CREATE TABLE cards (sha TEXT, id TEXT, data BLOB, PRIMARY KEY (sha, id)) WITHOUT ROWID;
CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, mtime INTEGER, inode INTEGER, sha TEXT)
"""


@dataclass(frozen=True)
class SnapshotInfo:
    """What the cache says of a parsed snapshot."""

    sha: str
    edition: str
    format: str
    cards: int
    rulings: int


def cache_path() -> Path:
    return cache_dir() / CACHE_FILE


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Changes when the code that reads cards changes, or the sources manifest (the built-in rules the
    names' vocabulary and rules terms come from): the cache is then made anew."""
    here = Path(__file__).resolve().parent
    paths = (*(here / n for n in ("model.py", "readers.py", "names.py", "cache.py", "vocabulary.py")),
             MANIFEST_PATH)
    return files_digest(((path.name, path) for path in paths), unreadable_ok=True)[:16]


class CardCache(SqliteCache):
    """The SQLite file; safe to share between threads (one lock)."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(path, schema=f"{SCHEMA} {code_fingerprint()}", tables=_TABLES)

    # ----------------------------------------------------------------------------------------- reading

    def info(self, sha: str) -> SnapshotInfo | None:
        with self.lock:
            row = self.db.execute("SELECT edition, format, cards, rulings FROM snapshots WHERE sha=?",
                                  (sha,)).fetchone()
        return SnapshotInfo(sha, *row) if row else None

    def names(self, sha: str) -> dict[str, Any]:
        with self.lock:
            row = self.db.execute("SELECT names FROM snapshots WHERE sha=?", (sha,)).fetchone()
        data: dict[str, Any] = _unpack(row[0])
        return data

    def card(self, sha: str, card_id: str) -> Card | None:
        with self.lock:
            row = self.db.execute("SELECT data FROM cards WHERE sha=? AND id=?", (sha, card_id)).fetchone()
        return Card.from_data(_unpack(row[0])) if row else None

    def cards(self, sha: str) -> Iterator[Card]:
        """Every card of a snapshot, in name order."""
        with self.lock:
            rows = self.db.execute("SELECT data FROM cards WHERE sha=?", (sha,)).fetchall()
        cards = [Card.from_data(_unpack(blob)) for (blob,) in rows]
        return iter(sorted(cards, key=lambda c: c.name))

    # ----------------------------------------------------------------------------------------- writing

    def keep(self, sha: str, snapshot: Snapshot, names: dict[str, Any]) -> SnapshotInfo:
        """Keep a parsed snapshot (all of it, or nothing)."""
        with self.write() as db:
            db.execute("DELETE FROM cards WHERE sha=?", (sha,))
            db.executemany("INSERT INTO cards VALUES (?, ?, ?)",
                           ((sha, card.id, _pack(card.to_data())) for card in snapshot.cards))
            db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
                       (sha, snapshot.edition, snapshot.format, len(snapshot.cards), snapshot.rulings,
                        _pack(names)))
        return SnapshotInfo(sha, snapshot.edition, snapshot.format, len(snapshot.cards), snapshot.rulings)

    def forget_others(self, keep: set[str]) -> None:
        """Drop the snapshots whose files are gone (a replaced snapshot's rows)."""
        with contextlib.suppress(sqlite3.Error), self.write() as db:
            for (sha,) in db.execute("SELECT sha FROM snapshots").fetchall():
                if sha not in keep:
                    db.execute("DELETE FROM cards WHERE sha=?", (sha,))
                    db.execute("DELETE FROM snapshots WHERE sha=?", (sha,))

    def file_sha(self, path: Path) -> str:
        """The sha256 of a file, hashed once: afterwards its size, modification time and inode say it is
        unchanged."""
        info = path.stat()
        key = str(path.resolve())
        with self.lock:
            row = self.db.execute("SELECT size, mtime, inode, sha FROM files WHERE path=?", (key,)).fetchone()
        if row and tuple(row[:3]) == (info.st_size, info.st_mtime_ns, info.st_ino):
            return str(row[3])
        sha = sha256_file(path)
        with contextlib.suppress(sqlite3.Error), self.write() as db:
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                       (key, info.st_size, info.st_mtime_ns, info.st_ino, sha))
        return sha


def _pack(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(), 1)


def _unpack(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))

