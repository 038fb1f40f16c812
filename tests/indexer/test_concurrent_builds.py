"""Several processes building the index at once (issue 24, 8): four `rulesjudge` processes started
together on a fresh data folder left three orphaned index copies (about 18 MB each). Builds take turns
(a lock in the index folder); a process that waited finds the index the first one built and uses it."""

from __future__ import annotations

import json
import multiprocessing
import time

import pytest

import rulesjudge.indexer.index as index_module
from rulesjudge.indexer.cache import index_root
from rulesjudge.indexer.chunks import make_chunks
from rulesjudge.indexer.index import ensure_index


@pytest.fixture
def chunks(builtin_corpus):
    return make_chunks(builtin_corpus.records)


def _build_when_released(chunks, embedder, start, results) -> None:
    start.wait()
    dense, report = ensure_index(chunks, embedder, progress=False, shipped=False, notify=lambda _m: None)
    results.put((report.rebuilt, dense.manifest["generation"], len(dense)))


def test_four_builds_at_once_leave_one_generation(data_dir, chunks, fake_embedder, monkeypatch) -> None:
    write = index_module.write_generation

    def slow_write(*args, **kwargs):  # widen the race: each build takes a moment to write
        time.sleep(0.5)
        return write(*args, **kwargs)

    monkeypatch.setattr(index_module, "write_generation", slow_write)
    context = multiprocessing.get_context("fork")
    start, results = context.Event(), context.Queue()
    workers = [context.Process(target=_build_when_released, args=(chunks, fake_embedder, start, results))
               for _ in range(4)]
    for worker in workers:
        worker.start()
    start.set()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    root = index_root()
    current = json.loads((root / "current.json").read_text())["generation"]
    folders = sorted(p.name for p in root.iterdir() if p.name.startswith(("gen-", ".tmp-gen")))
    assert folders == [current]  # why: nothing points at any other copy
    assert sum(rebuilt for rebuilt, _g, _n in outcomes) == 1  # the others waited and loaded it
    assert {generation for _r, generation, _n in outcomes} == {current}
    assert {size for _r, _g, size in outcomes} == {len(chunks)}


def test_orphans_left_earlier_are_removed_when_the_index_is_only_loaded(data_dir, chunks, fake_embedder):
    import os

    ensure_index(chunks, fake_embedder, progress=False, shipped=False, notify=lambda _m: None)
    root = index_root()
    old = time.time() - 3600
    for name in ("gen-orphan-1", ".tmp-gen-killed"):  # left by the builds of an earlier version
        (root / name).mkdir()
        os.utime(root / name, (old, old))
    (root / "gen-young").mkdir()  # may be another process's, finishing now
    _dense, report = ensure_index(chunks, fake_embedder, progress=False, shipped=False,
                                  notify=lambda _m: None)
    assert not report.rebuilt
    left = sorted(p.name for p in root.iterdir() if p.name.startswith(("gen-", ".tmp-gen")))
    current = json.loads((root / "current.json").read_text())["generation"]
    assert left == sorted([current, "gen-young"])  # why: nothing points at the old ones
