"""Shipped embeddings of the built-in corpus: up to date, checked against the model, used by a fresh build."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from rulesjudge.indexer import shipped as shipped_module
from rulesjudge.indexer.chunks import dense_texts, make_chunks
from rulesjudge.indexer.embed import BUNDLED_WEIGHTS_SHA256
from rulesjudge.indexer.expansion import DEFAULT_MODE, expand_corpus
from rulesjudge.indexer.index import ensure_index


@pytest.fixture(scope="module")
def shipped():
    found = shipped_module.read_shipped()
    assert found is not None, f"{shipped_module.SHIPPED_PATH} is missing: run {shipped_module.COMMAND}"
    return found


def test_the_shipped_embeddings_cover_every_builtin_chunk_for_the_bundled_model(shipped, builtin_corpus):
    # the chunks as search indexes them: with the default expansion's training questions as sentences
    chunks = expand_corpus(make_chunks(builtin_corpus.records), builtin_corpus, DEFAULT_MODE)
    reason = shipped_module.stale_reason(shipped, chunks, BUNDLED_WEIGHTS_SHA256)
    assert reason is None, f"the shipped embeddings are stale ({reason}): run {shipped_module.COMMAND}"
    # ~4,100 chunk, ~8,100 sentence and 1,625 training-question vectors, float16: 10.3 MB
    assert shipped.meta["dtype"] == "float16" and shipped_module.SHIPPED_PATH.stat().st_size < 12_000_000


def test_shipped_vectors_agree_with_the_model_on_a_sample(shipped, builtin_corpus, searcher):
    chunks = make_chunks(builtin_corpus.records)
    texts = {chunk.key: chunk.dense_text for chunk in chunks}
    sample = {key: texts[key] for key in shipped_module.sample_keys(list(texts), 12)}
    cosine = shipped_module.agreement(shipped, sample, searcher.embedder.encode)
    assert cosine >= shipped_module.MIN_COSINE


class ShippedModel:
    """Stands in for the bundled model: answers each text with its shipped vector, counting the calls."""

    def __init__(self, shipped) -> None:
        from rulesjudge.indexer.embed import model_path

        self.path = model_path()
        self.shipped = shipped
        self.embedded: list[str] = []

    def encode(self, texts, *, progress=False, batch_size=16):
        self.embedded.extend(texts)
        keys = [hashlib.sha256(text.encode()).hexdigest() for text in texts]
        return np.stack([self.shipped.vectors[key] for key in keys])


def test_a_fresh_data_folder_embeds_only_the_verification_sample(data_dir, builtin_corpus, shipped):
    chunks = make_chunks(builtin_corpus.records)
    model = ShippedModel(shipped)
    _, report = ensure_index(chunks, model, progress=False, notify=lambda _m: None)
    distinct = len(dense_texts(chunks))
    assert report.rebuilt and report.embedded == 0 and report.shipped == distinct
    assert len(model.embedded) == shipped_module.SAMPLE  # the sample checked against the model
    model.embedded.clear()
    _, report = ensure_index(chunks, model, progress=False, notify=lambda _m: None, force=True)
    assert report.shipped == distinct and model.embedded == []  # verified once per data folder


def test_shipped_vectors_that_disagree_with_the_model_are_not_used(data_dir, builtin_corpus, fake_embedder):
    chunks = make_chunks(builtin_corpus.records)
    messages: list[str] = []
    _, report = ensure_index(chunks, fake_embedder, progress=False, notify=messages.append)
    assert report.shipped == 0 and report.embedded == len(dense_texts(chunks))
    assert any("shipped embeddings disagree" in message for message in messages)
