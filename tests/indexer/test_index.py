"""The FAISS index on disk: manifest, embedding cache, atomic generations, damaged files.

These tests use a deterministic fake embedder (see conftest) so they test the index's bookkeeping,
not the model; the real model is exercised by the session index in test_search.py.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

import rulesjudge.indexer.generation as generation_module
from rulesjudge.indexer.cache import index_root
from rulesjudge.indexer.chunks import dense_texts, make_chunks
from rulesjudge.indexer.index import ensure_index


@pytest.fixture
def chunks(builtin_corpus):
    return make_chunks(builtin_corpus.records)


def _build(chunks, embedder, messages=None):
    return ensure_index(chunks, embedder, progress=False, shipped=False,
                        notify=(messages.append if messages is not None else lambda _m: None))


def test_second_build_embeds_nothing_and_loads_the_same_index(data_dir, chunks, fake_embedder):
    dense, report = _build(chunks, fake_embedder)
    assert report.rebuilt and report.embedded == len(dense_texts(chunks))
    manifest = json.loads((index_root() / "current.json").read_text())
    assert manifest["model_sha256"] == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    assert manifest["schema"] == generation_module.SCHEMA_VERSION and manifest["chunks"] == len(chunks)
    fake_embedder.embedded.clear()
    again, report = _build(chunks, fake_embedder)
    assert not report.rebuilt and report.embedded == 0 and fake_embedder.embedded == []
    assert again.ids == dense.ids


def test_a_changed_record_is_the_only_chunk_embedded_again(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    fake_embedder.embedded.clear()
    changed = list(chunks)
    changed[3] = replace(changed[3], dense_text=changed[3].dense_text + " (amended)")
    _, report = _build(changed, fake_embedder)
    assert report.rebuilt and report.reason == "corpus changed"
    assert report.embedded == 1 and fake_embedder.embedded == [changed[3].dense_text]


def test_forced_rebuild_reuses_the_cache(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    fake_embedder.embedded.clear()
    _, report = ensure_index(chunks, fake_embedder, progress=False, shipped=False,
                             notify=lambda _m: None, force=True)
    assert report.rebuilt and report.embedded == 0


@pytest.mark.parametrize("damage", ["garbage-vectors", "truncated-vectors", "garbage-manifest",
                                    "foreign-manifest", "missing-ids", "garbage-sentences",
                                    "swapped-sentence-owners"])
def test_a_damaged_index_file_gives_one_line_and_a_rebuild(data_dir, chunks, fake_embedder, damage):
    _build(chunks, fake_embedder)
    root = index_root()
    manifest = json.loads((root / "current.json").read_text())
    generation = root / manifest["generation"]
    if damage == "garbage-vectors":
        (generation / "vectors.faiss").write_bytes(b"\x00not a faiss index at all")
    elif damage == "truncated-vectors":
        data = (generation / "vectors.faiss").read_bytes()
        (generation / "vectors.faiss").write_bytes(data[: len(data) // 2])
    elif damage == "garbage-manifest":
        (root / "current.json").write_bytes(b"{\xff\xfe broken")
    elif damage == "foreign-manifest":
        (root / "current.json").write_text(json.dumps({"format": "something-else", "version": 9}))
    elif damage == "garbage-sentences":
        (generation / "sentences.faiss").write_bytes(b"\x00not a faiss index at all")
    elif damage == "swapped-sentence-owners":  # another valid file of the same shape: caught by its checksum
        (generation / "sentence_owner.npy").write_bytes((generation / "sentence_rows.npy").read_bytes())
    else:
        (generation / "ids.json").unlink()
    messages: list[str] = []
    dense, report = _build(chunks, fake_embedder, messages)
    assert report.rebuilt and len(dense) == len(chunks)
    assert len(messages) == 1 and "\n" not in messages[0] and "rebuilding" in messages[0]
    _, report = _build(chunks, fake_embedder)
    assert not report.rebuilt  # the rebuilt index is whole


def test_a_build_killed_half_way_leaves_the_previous_index_usable(
    data_dir, chunks, fake_embedder, monkeypatch
):
    _build(chunks, fake_embedder)
    before = json.loads((index_root() / "current.json").read_text())

    def die_mid_write(path, data):
        raise KeyboardInterrupt("killed while writing " + path.name)

    with monkeypatch.context() as patch, pytest.raises(KeyboardInterrupt):
        patch.setattr(generation_module, "_write_json", die_mid_write)
        _build(chunks[:-1], fake_embedder)  # a different corpus: must rebuild, and dies doing so
    assert json.loads((index_root() / "current.json").read_text()) == before
    assert not list(index_root().glob(".tmp-*"))  # the half-written generation is gone
    dense, report = _build(chunks, fake_embedder)
    assert not report.rebuilt and len(dense) == len(chunks)  # the previous generation, untouched


def test_an_unreadable_embedding_cache_is_reported_and_rebuilt(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    cache = next((index_root() / "cache").rglob("part-*.npz"))
    cache.write_bytes(b"PK\x03\x04 but not really a zip")
    messages: list[str] = []
    _, report = ensure_index(chunks, fake_embedder, progress=False, shipped=False,
                             notify=messages.append, force=True)
    assert report.embedded == len(dense_texts(chunks))
    assert any("embedding cache" in m for m in messages)


def test_switching_to_the_int8_model_rebuilds_with_its_own_cache(data_dir, chunks, fake_embedder):
    _build(chunks, fake_embedder)
    fake_embedder.variant = "int8"  # as RULESJUDGE_QUANTIZE=int8 would make it
    fake_embedder.embedded.clear()
    _, report = _build(chunks, fake_embedder)
    assert report.rebuilt and report.reason == "embedding model changed"
    assert report.embedded == len(dense_texts(chunks))  # fp32 vectors are not reused for int8
    manifest = json.loads((index_root() / "current.json").read_text())
    assert manifest["model_variant"] == "int8"


def test_the_bm25_index_is_saved_and_a_damaged_save_is_rebuilt(data_dir, chunks, monkeypatch):
    from rulesjudge.indexer import lexical
    from rulesjudge.indexer.chunks import corpus_hash

    folder, key = index_root() / "lexical", corpus_hash(chunks)
    first = lexical.LexicalIndex.open(chunks, folder, key)
    saved = next(folder.iterdir())
    assert (saved / "checksums.json").is_file() and first.words
    expected = first.top("monarch", 3)
    assert expected
    calls: list[int] = []
    monkeypatch.setattr(lexical, "tokenize", lambda text: calls.append(1) or ["x"])
    again = lexical.LexicalIndex.open(chunks, folder, key)
    assert calls == [] and again.words == first.words  # loaded, not tokenized again
    monkeypatch.undo()
    assert again.top("monarch", 3) == expected
    monkeypatch.setattr(lexical, "tokenize", lambda text: calls.append(1) or ["x"])
    data = next(saved.rglob("data.csc.index.npy"))
    data.write_bytes(data.read_bytes()[:-8] + b"\x00" * 8)  # same size, other bytes
    rebuilt = lexical.LexicalIndex.open(chunks, folder, key)
    assert calls  # the damaged save was not used
    assert rebuilt.size == len(chunks)


def test_each_sentence_of_a_chunk_is_stored_with_its_record(data_dir, chunks, fake_embedder):
    dense, _ = _build(chunks, fake_embedder)
    reopened, report = _build(chunks, fake_embedder)
    assert not report.rebuilt
    entries = [(chunk.id, sentence) for chunk in chunks for sentence in chunk.sentences]
    assert len(entries) > len(chunks)  # most rules have two sentences or more
    for index in (dense, reopened):
        assert index.sentences is not None and len(index.sentence_owner) == len(entries)
        owners = [index.ids[row] for row in index.sentence_owner]
        assert owners == [record_id for record_id, _ in entries]
        vectors = index.sentences.matrix()[index.sentences.vector_rows]
        expected = fake_embedder.encode([sentence for _, sentence in entries])
        assert np.allclose(vectors, expected, atol=1e-6)


def test_a_record_whose_one_sentence_matches_outranks_its_diluted_chunk(data_dir, chunks, fake_embedder):
    """The question's vector is one sentence's vector (the fake model is random per text): with
    sentence vectors that record comes first; by its chunk vector alone it is nowhere in particular."""
    dense, _ = _build(chunks, fake_embedder)
    counts = Counter(sentence for chunk in chunks for sentence in chunk.sentences)
    row, chunk = next((row, chunk) for row, chunk in enumerate(chunks)
                      if len(chunk.sentences) >= 3 and counts[chunk.sentences[1]] == 1)
    query = fake_embedder.encode([chunk.sentences[1]])
    ranked = dense.search_records(query, 10, sentence_weight=1.0)
    assert ranked[0][0] == row and ranked[0][1] == pytest.approx(1.0, abs=1e-5)
    by_chunk = dense.search_records(query, 10, sentence_weight=0.0)
    assert by_chunk == dense.search(query, 10)
    mask = np.ones(len(chunks), dtype=bool)
    mask[row] = False  # a record the filters hide is not found through its sentences either
    assert row not in [found for found, _ in dense.search_records(query, 10, mask, sentence_weight=1.0)]
