"""A cache kept in one SQLite file: opened with its schema, made anew when it is damaged or was written by
other code, in memory when the file can't be used, one transaction at a time.

Both caches of the corpus (parsed releases, card snapshots) are one of these; each says only its tables and
the fingerprint of the code whose output it holds.

>>> cache = SqliteCache(None, schema="demo 1", tables="CREATE TABLE t(k TEXT PRIMARY KEY, v TEXT)")
>>> with cache.write() as db:
...     _ = db.execute("INSERT INTO t VALUES('a', 'b')")
>>> cache.db.execute("SELECT v FROM t").fetchall(), cache.changed
([('b',)], True)
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

IN_MEMORY = ":memory:"


class SqliteCache:
    """One SQLite file behind one lock, safe to share between threads.

    ``schema`` names the layout and the code that fills it (a cache of another schema or of older code is
    deleted and made anew, never migrated); ``tables`` is the SQL that creates its tables; ``pragmas`` are
    run on every connection before anything else. ``path=None`` keeps the cache in memory.
    """

    def __init__(self, path: Path | None, *, schema: str, tables: str, pragmas: Sequence[str] = ()) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.changed = False  # something was written since it was opened
        self._schema, self._tables, self._pragmas = schema, tables, tuple(pragmas)
        self.db = self._open(path)

    def _open(self, path: Path | None) -> sqlite3.Connection:
        if path is not None:
            for attempt in range(2):
                try:
                    return self._connect(str(path))
                except sqlite3.OperationalError:
                    break  # locked by another process past the timeout, or not writable: in memory then
                except (sqlite3.DatabaseError, OSError):
                    if attempt == 0:
                        delete_database(path)  # not a database, or a damaged one: made anew
        return self._connect(IN_MEMORY)

    def _connect(self, where: str, fresh: bool = False) -> sqlite3.Connection:
        in_memory = where == IN_MEMORY
        if not in_memory:
            Path(where).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(where, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            for pragma in self._pragmas:
                db.execute(f"PRAGMA {pragma}")
            if not in_memory:
                db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA journal_size_limit=4194304")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            found = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() if "meta" in tables \
                else None
            if found is not None and found[0] == self._schema:
                db.execute("BEGIN IMMEDIATE")  # proves the file can be written
                db.execute("COMMIT")
                return db
            if tables and not in_memory and not fresh:
                db.close()
                delete_database(Path(where))
                return self._connect(where, fresh=True)
            db.execute("BEGIN IMMEDIATE")
            db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
            for statement in self._tables.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT OR REPLACE INTO meta VALUES('schema', ?)", (self._schema,))
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


def delete_database(path: Path) -> None:
    """Remove a database file with its journal files (whatever of them exists)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            Path(str(path) + suffix).unlink()
