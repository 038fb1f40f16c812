"""The query model written from the weights without torch (indexer/onnx_bert.py): the same vectors as
sentence-transformers, refused for what the recipe doesn't cover, checked against the shipped probe vectors
before it is kept, and a fresh data folder indexed without ever importing torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rulesjudge.indexer import onnx_bert, onnx_query, shipped
from rulesjudge.indexer.embed import BUNDLED_WEIGHTS_SHA256, bundled_model_path

PROJECT = Path(__file__).resolve().parents[2]
TEXTS = [
    "725.4. If the monarch leaves the game, the active player becomes the monarch.",
    "can Dan attack Ann in Emperor?",
    "O-Ring",
    "Each player may attack only opponents seated immediately next to them. " * 30,  # > 256 word pieces
]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The encoder of the graph written from the bundled weights (no checksum, no data folder)."""
    data = onnx_bert.build_bytes(bundled_model_path())
    target = tmp_path_factory.mktemp("onnx") / "q.onnx"
    return onnx_query.OnnxQueryEncoder(target, bundled_model_path(), 256, data)


def test_the_graph_written_from_the_weights_gives_sentence_transformers_vectors(written, searcher):
    for text in TEXTS:
        reference = searcher.embedder.encode([text])  # sentence-transformers on torch
        # why: the same BERT encoder, mean pooling and normalisation; only float rounding differs
        assert float((written.encode(text) * reference).sum()) > onnx_query.MIN_COSINE, text[:40]


def test_the_shipped_probe_vectors_are_the_models_and_the_written_graph_agrees_with_them(written):
    probes = shipped.probe_vectors(BUNDLED_WEIGHTS_SHA256)
    assert probes is not None, f"no probe vectors shipped: run {shipped.COMMAND}"
    assert probes.shape == (len(onnx_query.PROBES), 384)
    assert onnx_query.agreement_with(written, probes) > onnx_query.MIN_COSINE
    assert shipped.probe_vectors("another model's sha256") is None  # why: probes of one model only


def test_a_graph_that_disagrees_with_the_reference_is_refused_and_not_kept(tmp_path):
    target = tmp_path / "query.onnx"
    wrong = np.random.default_rng(7).standard_normal((len(onnx_query.PROBES), 384)).astype(np.float32)
    with pytest.raises(onnx_query.ExportRefused, match="disagrees"):
        onnx_query.build_without_torch(bundled_model_path(), target, 256, wrong)
    assert not target.exists() and not onnx_query.manifest_path(target).exists()


def test_a_model_that_is_not_a_plain_bert_is_refused(tmp_path):
    config = json.loads((bundled_model_path() / "config.json").read_text(encoding="utf-8"))
    others = (("model_type", "roberta"), ("hidden_act", "relu"), ("position_embedding_type", "rotary"))
    for key, value in others:
        folder = tmp_path / key
        folder.mkdir()
        (folder / "config.json").write_text(json.dumps({**config, key: value}), encoding="utf-8")
        (folder / "model.safetensors").write_bytes(b"")
        with pytest.raises(onnx_query.ExportRefused, match=key):  # why: the recipe computes another model
            onnx_bert.read_config(folder)


def test_a_fresh_data_folder_is_indexed_and_gets_its_query_model_without_torch(tmp_path):
    code = ("import json, sys\n"
            "from rulesjudge.app.services import build_index_here\n"
            "build_index_here()\n"
            "heavy = ('torch', 'sentence_transformers', 'transformers')\n"
            "print(json.dumps([m for m in heavy if m in sys.modules]))")
    env = {**os.environ, "RULESJUDGE_DATA": str(tmp_path), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=PROJECT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []  # why: shipped vectors + written graph
    assert list((tmp_path / "index" / "onnx").glob("query-*.onnx"))
