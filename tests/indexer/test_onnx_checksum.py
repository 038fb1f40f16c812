"""The ONNX export of the query model is checksummed like every other file the index serves (issue 24, 4):
an export whose bytes changed -- even into another valid model, its largest tensors reordered -- is
noticed by its sha256 and exported again, never served. Before, `search` exited 0 with 6-9 of the true
top ten."""

from __future__ import annotations

import numpy as np

from rulesjudge.indexer import onnx_query

QUESTION = "who becomes the monarch if the monarch leaves the game?"


def _reordered(data: bytes) -> bytes:
    """The same ONNX model with its largest weight tensor's rows reversed: still a valid file."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load_from_string(data)
    largest = max(model.graph.initializer, key=lambda t: int(np.prod(t.dims)))
    array = numpy_helper.to_array(largest)
    largest.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(array[::-1]), largest.name))
    return model.SerializeToString()


def test_a_valid_but_altered_export_is_caught_by_its_checksum_and_exported_again(searcher):
    from rulesjudge.indexer.embed import Embedder

    truth = searcher.embedder.encode_query_torch(QUESTION)
    target = searcher.embedder.query_encoder().path
    original = target.read_bytes()
    altered = _reordered(original)
    assert len(altered) == len(original)  # the same size: only a checksum tells them apart
    target.write_bytes(altered)
    damaged = onnx_query.OnnxQueryEncoder(target, searcher.embedder.path, 256).encode(QUESTION)
    assert float((damaged * truth).sum()) < onnx_query.MIN_COSINE  # why: it would serve other vectors

    messages: list[str] = []
    fresh = Embedder()
    fresh.notify = messages.append
    encoder = fresh.query_encoder()
    assert encoder is not None
    assert any(str(target) in m and "checksum" in m for m in messages), messages
    assert float((encoder.encode(QUESTION) * truth).sum()) > onnx_query.MIN_COSINE  # why: exported again
    assert onnx_query.checksum_of(target) == onnx_query.sha256_of(target.read_bytes())


def test_an_export_without_a_recorded_checksum_is_not_trusted(searcher):
    from rulesjudge.indexer.embed import Embedder

    target = searcher.embedder.query_encoder().path
    onnx_query.manifest_path(target).unlink()
    messages: list[str] = []
    fresh = Embedder()
    fresh.notify = messages.append
    assert fresh.query_encoder() is not None
    assert any("checksum" in m for m in messages), messages
    assert onnx_query.checksum_of(target) is not None  # recorded by the new export
