"""Query vectors by the ONNX export of the model: the same vectors as sentence-transformers, a damaged
file exported again, and a search process that never imports torch once the export exists."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rulesjudge.indexer import onnx_query

PROJECT = Path(__file__).resolve().parents[2]
QUESTIONS = [
    "can the emperor attack at the start of the game?",
    "who gets the crown if the monarch concedes during their own turn",
    "Ætherist unveil cost",
    "rule 907.11b",
    "what happens to my stuff when I leave a multiplayer game? " * 12,  # longer than 256 word pieces
]


def test_onnx_query_vectors_equal_sentence_transformers(searcher):
    embedder = searcher.embedder
    encoder = embedder.query_encoder()
    assert encoder is not None, searcher.messages  # exported on first use into the session's data folder
    assert encoder.path.parent.name == "onnx" and encoder.path.is_file()
    for question in QUESTIONS:
        by_torch = embedder.encode_query_torch(question)
        by_onnx = embedder.encode_query(question)
        assert by_onnx.shape == by_torch.shape == (1, 384) and by_onnx.dtype == np.float32
        assert float((by_onnx * by_torch).sum()) > onnx_query.MIN_COSINE, question  # why: same model
        assert abs(float(np.linalg.norm(by_onnx)) - 1.0) < 1e-5  # normalised like the index's vectors


def test_a_damaged_query_model_is_exported_again_with_a_message(searcher):
    from rulesjudge.indexer.embed import Embedder

    target = searcher.embedder.query_encoder().path
    target.write_bytes(b"not an onnx file")
    messages: list[str] = []
    fresh = Embedder()
    fresh.notify = messages.append
    encoder = fresh.query_encoder()
    assert encoder is not None and target.stat().st_size > 1_000_000  # exported again, whole
    assert any("unreadable query model" in m and str(target) in m for m in messages), messages
    vector = encoder.encode(QUESTIONS[0])
    assert float((vector * searcher.embedder.encode_query_torch(QUESTIONS[0])).sum()) > onnx_query.MIN_COSINE


def test_onnx_can_be_switched_off(monkeypatch):
    from rulesjudge.indexer.embed import Embedder

    monkeypatch.setenv("RULESJUDGE_ONNX", "0")
    assert Embedder().query_encoder() is None  # why: queries then go through sentence-transformers


def test_a_model_of_another_shape_is_not_exported():
    class Module:
        pass

    class CLS(Module):
        pooling_mode = "cls"

    fake = [type(name, (base,), {})() for name, base in
            (("Transformer", Module), ("Pooling", CLS), ("Normalize", Module))]
    with pytest.raises(onnx_query.ExportRefused, match="pooling"):
        onnx_query.check_architecture(fake)
    with pytest.raises(onnx_query.ExportRefused, match="modules"):
        onnx_query.check_architecture(fake[:2])


def test_a_question_in_a_fresh_process_does_not_import_torch(searcher, search_data, cli_process):
    searcher.embedder.prepare_queries()  # the index and the query model exist, as after `rulesjudge app`
    question = ["search", "who becomes the monarch when the monarch leaves", "--json", "--k", "3"]
    done = cli_process(*question, data=search_data, watch=("torch", "sentence_transformers", "transformers"))
    assert (done.code, done.imported) == (0, ()), done.err
    ids = [hit["id"] for hit in json.loads(done.out)["hits"]]
    assert "cr@2026-04-17/725.4" in ids  # why: 725.4 is the rule for the monarch leaving
