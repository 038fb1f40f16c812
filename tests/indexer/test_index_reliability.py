"""A verified index and a data folder checked before any expensive work (issue 15, items 4 and 5).

Each case: one line (or an InputError: one line, exit 2), a rebuild from the embedding cache where a
rebuild is possible, never a served result from a damaged file, nothing embedded before a write could
fail, nothing half-written left behind.
"""

from __future__ import annotations

import io
import json
import os
import time
from dataclasses import replace

import numpy as np
import pytest

import rulesjudge.indexer.cache as cache_module
import rulesjudge.indexer.index as index_module
from rulesjudge.common.errors import InputError
from rulesjudge.indexer.cache import EmbeddingCache, Progress, index_root
from rulesjudge.indexer.chunks import dense_texts, make_chunks
from rulesjudge.indexer.index import ensure_index


@pytest.fixture
def chunks(builtin_corpus):
    return make_chunks(builtin_corpus.records)


def _build(chunks, embedder, messages=None, **options):
    notify = messages.append if messages is not None else (lambda _m: None)
    return ensure_index(chunks, embedder, progress=False, shipped=False, notify=notify, **options)


def _generation(root):
    return root / json.loads((root / "current.json").read_text())["generation"]


# --- a verified index ---------------------------------------------------------------------------------


def test_garbled_vectors_of_the_same_size_are_caught_by_the_checksum_and_rebuilt(
        data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    path = _generation(index_root()) / "vectors.faiss"
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = b"\x7f" * 64  # huge floats: a served search would show scores of 1e38
    path.write_bytes(bytes(data))
    fake_embedder.embedded.clear()
    messages: list[str] = []
    rebuilt, report = _build(chunks, fake_embedder, messages)
    assert report.rebuilt and report.embedded == 0  # rebuilt from the embedding cache
    assert len(messages) == 1 and "checksum" in messages[0] and "\n" not in messages[0]
    query = fake_embedder.encode([chunks[5].dense_text])
    assert rebuilt.search(query, 1)[0] == (5, pytest.approx(1.0, abs=1e-3))


def test_another_valid_index_of_the_same_size_is_not_served(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    root = index_root()
    original = _generation(root) / "vectors.faiss"
    # the same records embedded differently: a valid FAISS file of exactly the same size
    shuffled = [replace(chunk, dense_text=chunk.dense_text + " (other)") for chunk in chunks]
    other_root = root.parent / "other-index"
    _build(shuffled, fake_embedder, root=other_root)
    foreign = (_generation(other_root) / "vectors.faiss").read_bytes()
    assert len(foreign) == original.stat().st_size and foreign != original.read_bytes()
    original.write_bytes(foreign)
    messages: list[str] = []
    dense, report = _build(chunks, fake_embedder, messages)
    assert report.rebuilt and "does not match its checksum" in messages[0]
    query = fake_embedder.encode([chunks[7].dense_text])
    assert dense.search(query, 1)[0][0] == 7


def test_a_manifest_without_checksums_is_rebuilt(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    current = index_root() / "current.json"
    manifest = json.loads(current.read_text())
    del manifest["files"]
    current.write_text(json.dumps(manifest))
    messages: list[str] = []
    _, report = _build(chunks, fake_embedder, messages)
    assert report.rebuilt and len(messages) == 1 and "no checksum" in messages[0]


# --- the data folder is checked before anything expensive ---------------------------------------------


@pytest.mark.parametrize("damage", ["index-is-a-file", "cache-is-a-file", "current-json-is-a-folder",
                                    "data-folder-is-a-file"])
def test_an_unusable_data_folder_is_one_input_error_before_embedding(data_dir, chunks, fake_embedder,
                                                                     damage):
    root = index_root()
    if damage == "index-is-a-file":
        data_dir.mkdir(parents=True)
        root.write_text("not a folder")
    elif damage == "cache-is-a-file":
        root.mkdir(parents=True)
        (root / "cache").write_text("not a folder")
    elif damage == "current-json-is-a-folder":
        (root / "current.json").mkdir(parents=True)
    else:
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        data_dir.write_text("not a folder")
    with pytest.raises(InputError) as caught:
        _build(chunks, fake_embedder)
    assert fake_embedder.embedded == []  # refused before the model did any work
    assert "\n" not in str(caught.value)
    if root.is_dir():
        assert not list(root.glob("gen-*")) and not list(root.glob(".tmp-*"))  # no orphan generation


def test_a_read_only_data_folder_with_a_stale_index_refuses_before_embedding(
        data_dir, chunks, fake_embedder, monkeypatch):
    _build(chunks, fake_embedder)
    before = (index_root() / "current.json").read_text()
    fake_embedder.embedded.clear()

    def read_only(*_args, **_kwargs):  # what the OS answers for a read-only folder (tests run as root)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(index_module.tempfile, "NamedTemporaryFile", read_only)
    stale = [*chunks[:-1], replace(chunks[-1], dense_text="amended")]
    with pytest.raises(InputError, match="not writable"):
        _build(stale, fake_embedder)
    assert fake_embedder.embedded == []
    assert (index_root() / "current.json").read_text() == before  # the old index stays as it was


def test_a_read_only_data_folder_with_a_fresh_index_still_answers(
        data_dir, chunks, fake_embedder, monkeypatch):
    _build(chunks, fake_embedder)

    def read_only(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(index_module.tempfile, "NamedTemporaryFile", read_only)
    dense, report = _build(chunks, fake_embedder)  # nothing to write: loads
    assert not report.rebuilt and len(dense) == len(chunks)


@pytest.mark.skipif(not os.path.isdir("/sys/fs"), reason="needs /sys, a folder even root cannot write")
def test_a_folder_even_root_cannot_write_is_refused(chunks, fake_embedder, monkeypatch):
    monkeypatch.setenv("RULESJUDGE_DATA", "/sys/fs/rulesjudge-test")
    with pytest.raises(InputError, match="not writable"):
        _build(chunks, fake_embedder)
    assert fake_embedder.embedded == []


def test_the_command_line_says_one_line_and_exits_2_for_an_unusable_data_folder(data_dir, cli):
    data_dir.mkdir(parents=True)
    (data_dir / "index").write_text("a file where the index folder should be")
    result = cli("search", "who becomes the monarch when the monarch leaves the game")
    assert result.code == 2
    err = result.err.strip()
    assert len(err.splitlines()) == 1 and "index" in err and "Traceback" not in err


# --- the embedding cache is checkpointed; orphans are cleaned ------------------------------------------


class DyingEmbedder:
    """Embeds like the fake embedder, then is killed after ``calls`` calls."""

    def __init__(self, fake, calls: int) -> None:
        self.fake, self.calls, self.path = fake, calls, fake.path

    def encode(self, texts, *, progress=False, batch_size=16):
        if self.calls == 0:
            raise KeyboardInterrupt("killed during embedding")
        self.calls -= 1
        return self.fake.encode(texts)


def test_a_build_killed_during_embedding_keeps_the_finished_checkpoints(
        data_dir, chunks, fake_embedder, monkeypatch):
    monkeypatch.setattr(cache_module, "CHECKPOINT_SECONDS", 0.0)  # a checkpoint after every group
    monkeypatch.setattr(cache_module, "EMBED_GROUP", 50)
    with pytest.raises(KeyboardInterrupt):
        _build(chunks, DyingEmbedder(fake_embedder, calls=2))
    distinct = len(dense_texts(chunks))
    assert len(fake_embedder.embedded) == 100
    fake_embedder.embedded.clear()
    _, report = _build(chunks, fake_embedder)
    assert report.embedded == distinct - 100 and len(fake_embedder.embedded) == distinct - 100


def test_cache_shards_are_merged_when_there_are_many(tmp_path):
    cache = EmbeddingCache(tmp_path / "cache", lambda _m: None)
    for i in range(12):
        cache.add([f"{i:064x}"], np.full((1, 4), i, dtype=np.float32))
        cache.checkpoint()
    assert len(cache.shards()) == 12
    cache.compact()
    assert len(cache.shards()) == 1
    again = EmbeddingCache(tmp_path / "cache", lambda _m: None).load()
    assert len(again.vectors) == 12 and float(again.vectors[f"{11:064x}"][0]) == 11.0


def test_orphan_generations_are_removed_by_the_next_build(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    root = index_root()
    old = time.time() - 3600
    for name in ("gen-orphan-1", ".tmp-gen-killed"):
        (root / name).mkdir()
        (root / name / "vectors.faiss").write_bytes(b"left by a killed build")
        os.utime(root / name, (old, old))
    (root / "gen-young").mkdir()  # a generation another process may be finishing right now
    _build(chunks[:-1], fake_embedder)
    names = sorted(p.name for p in root.iterdir() if p.name.startswith(("gen-", ".tmp-gen")))
    assert names == sorted([_generation(root).name, "gen-young"])


def test_progress_prints_a_line_every_few_seconds_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(cache_module, "PROGRESS_SECONDS", 0.0)
    stream = io.StringIO()
    meter = Progress(300, stream)
    for done in (100, 200, 300):
        meter.update(done)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3 and lines[-1].startswith("rulesjudge: embedded 300/300 chunks (100%)")
    assert "\r" not in stream.getvalue()
