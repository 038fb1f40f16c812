"""Caches that can't run code (issue 24, 7b): anyone who can write a shared or synced data folder must not
run code as its users. Every cache is plain data (JSON, numpy without pickles, SQLite rows): a crafted
pickle planted where a cache lives, or in the corpus cache's blobs, is never unpickled -- the command
answers from a rebuilt cache, or refuses in one line."""

from __future__ import annotations

import os
import pickle
import sqlite3
import zlib
from pathlib import Path

import msgpack
import pytest


class _Payload:
    """Unpickling this touches ``marker``: the proof that a cache ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def crafted(marker: Path) -> bytes:
    return pickle.dumps(_Payload(marker))


def answer(cli, argv=("rule", "725.4")) -> str:
    result = cli(*argv)
    assert result.code == 0
    assert "Traceback" not in result.err
    return result.out


def test_725_4_a_pickle_where_the_builtin_cache_lives_is_never_loaded(data_dir, tmp_path, cli) -> None:
    from rulesjudge.corpus.documents import builtin_key

    first = answer(cli)  # makes the caches
    marker = tmp_path / "ran"
    cache = data_dir / "cache"
    for name in [f"builtin-{builtin_key()}.pickle", *(p.name for p in cache.glob("builtin-*"))]:
        (cache / name).write_bytes(crafted(marker))
    from rulesjudge.corpus import documents
    documents._builtin.cache_clear()  # a fresh process reads the cache file again
    assert answer(cli) == first  # why: 725.4 is the Monarch's rule whichever cache answers
    assert not marker.exists()


def test_725_4_pickles_in_the_corpus_cache_rows_are_never_loaded(data_dir, tmp_path, cli) -> None:
    first = answer(cli)
    marker = tmp_path / "ran"
    blob = zlib.compress(crafted(marker))
    with sqlite3.connect(data_dir / "cache" / "corpus.sqlite") as db:
        db.execute("UPDATE blobs SET records=?, entries=?", (blob, blob))
        db.execute("UPDATE assembled SET value=?", (blob,))
    from rulesjudge.corpus import documents
    documents._builtin.cache_clear()
    result = cli("rule", "725.4")
    code = result.code
    assert not marker.exists()
    assert "Traceback" not in result.err
    assert code == 0 and result.out == first  # why: the damaged rows are parsed again from the release


def refuse(code, data):
    raise AssertionError(f"an extension type {code} in a cache")


def test_no_cache_file_holds_a_pickle(data_dir, cli) -> None:
    answer(cli)
    files = [p for p in data_dir.rglob("*") if p.is_file()]
    assert files
    for path in files:
        head = path.read_bytes()[:2]
        assert not (head[:1] == b"\x80" and head[1:2] in b"\x02\x03\x04\x05"), path  # a pickle's opcode
    with sqlite3.connect(data_dir / "cache" / "corpus.sqlite") as db:
        blobs = [b for row in db.execute("SELECT records, entries FROM blobs") for b in row]
        blobs += [row[0] for row in db.execute("SELECT value FROM assembled")]
    assert blobs
    for blob in blobs:
        data = zlib.decompress(blob)
        assert data[:1] not in (b"\x80",), "a blob of the corpus cache is a pickle"
        msgpack.unpackb(data, ext_hook=refuse)  # plain data


@pytest.mark.parametrize("module", ["corpus/documents", "corpus/store", "corpus/cards", "indexer", "app"])
def test_no_code_loads_a_pickle(module) -> None:
    root = Path(__file__).resolve().parents[2] / module
    for path in [root] if root.is_file() else sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "pickle.load" not in text and "allow_pickle=True" not in text, path
