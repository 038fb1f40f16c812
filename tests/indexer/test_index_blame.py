"""A damaged manifest is blamed, not the file it describes (issue 24, 8): with a checksum in
`current.json` garbled, the message said `vectors.faiss` was damaged. The generation keeps its own copy
of the manifest; when `current.json` disagrees with it, `current.json` is named."""

from __future__ import annotations

import json

import pytest

from rulesjudge.indexer.cache import index_root
from rulesjudge.indexer.chunks import make_chunks
from rulesjudge.indexer.index import ensure_index


@pytest.fixture
def chunks(builtin_corpus):
    return make_chunks(builtin_corpus.records)


def test_a_garbled_checksum_in_current_json_blames_current_json(data_dir, chunks, fake_embedder) -> None:
    ensure_index(chunks, fake_embedder, progress=False, shipped=False, notify=lambda _m: None)
    current = index_root() / "current.json"
    manifest = json.loads(current.read_text())
    digest = manifest["files"]["vectors.faiss"]
    manifest["files"]["vectors.faiss"] = ("0" if digest[0] != "0" else "1") + digest[1:]
    current.write_text(json.dumps(manifest, indent=1))
    messages: list[str] = []
    _dense, report = ensure_index(chunks, fake_embedder, progress=False, shipped=False,
                                  notify=messages.append)
    assert report.rebuilt  # why: a manifest that can't be trusted is never served
    blamed = [m for m in messages if "rebuilding" in m]
    assert blamed and str(current) in blamed[0] and "vectors.faiss" not in blamed[0], messages
