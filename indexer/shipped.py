"""Embeddings of the built-in corpus shipped as package data, so a fresh data folder indexes in seconds.

Embedding the built-in corpus (the source documents and the built-in Comprehensive Rules, ~4,200 chunks)
takes about a minute on two cores. Its vectors ship in ``indexer/data/builtin-embeddings.npz``, keyed
like the embedding cache (sha256 of each chunk's dense text) and stamped with the model weights' sha256,
as float16. A build takes a vector from there only when the model is the same and the text's key is
there; before the first use in a data folder, a sample of the shipped vectors is embedded again with the
model and compared (cosine ≥ :data:`MIN_COSINE`), and the result is remembered in the data folder.

The file also holds the model's vectors of the query model's probe sentences
(:data:`indexer.onnx_query.PROBES`): the ONNX query model written from the weights without torch
(:mod:`indexer.onnx_bert`) is checked against them, and then verifies the sample above, so a fresh data
folder never loads torch.

Regenerate the file whenever the built-in sources, the chunk format or the model change (a test fails
when it is stale); texts whose vectors are in the data folder's embedding cache or in the shipped file
itself (same model) are not embedded again::

    python -m rulesjudge.indexer.shipped            # write indexer/data/builtin-embeddings.npz
    python -m rulesjudge.indexer.shipped --check    # is it up to date? (exit 1 when stale)
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.common.files import write_atomic
from rulesjudge.corpus.store import load_corpus
from rulesjudge.indexer.cache import (
    EmbeddingCache,
    cache_folder,
    decode_shard,
    embed_into_cache,
    index_root,
    pack_keys,
)
from rulesjudge.indexer.chunks import CHUNK_FORMAT, dense_texts, make_chunks, text_key
from rulesjudge.indexer.embed import Embedder, model_hash, model_label
from rulesjudge.indexer.expansion import DEFAULT_MODE, expand_corpus
from rulesjudge.indexer.onnx_query import PROBES

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rulesjudge.indexer.chunks import Chunk

SHIPPED_PATH = Path(__file__).with_name("data") / "builtin-embeddings.npz"
FORMAT = "rulesjudge-shipped-embeddings"
COMMAND = "python -m rulesjudge.indexer.shipped"
#: A shipped vector must agree with the model's own at least this well (float16 storage: ~0.99999).
MIN_COSINE = 0.999
SAMPLE = 6


@dataclass(frozen=True)
class Shipped:
    """The shipped vectors: key -> float32 vector, and the file's metadata."""

    vectors: dict[str, np.ndarray]
    meta: dict[str, Any]
    file_sha256: str

    @property
    def model_sha256(self) -> str:
        return str(self.meta.get("model_sha256", ""))


def keys_hash(keys: Iterable[str]) -> str:
    """A hash of a set of chunk keys: equal when the shipped texts are the built-in corpus's."""
    digest = hashlib.sha256()
    for key in sorted(set(keys)):
        digest.update(key.encode("ascii"))
    return digest.hexdigest()


def read_shipped(path: Path = SHIPPED_PATH) -> Shipped | None:
    """The shipped vectors, or None when the file is absent or unreadable."""
    try:
        data = path.read_bytes()
        keys, vectors = decode_shard(io.BytesIO(data))
        import numpy as np

        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
    except Exception:  # a missing or damaged package file only costs embedding time
        return None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        return None
    return Shipped(dict(zip(keys, vectors, strict=True)), meta, hashlib.sha256(data).hexdigest())


def probe_vectors(model_sha256: str, path: Path = SHIPPED_PATH) -> np.ndarray | None:
    """sentence-transformers' vectors of :data:`indexer.onnx_query.PROBES`, shipped for the model
    ``model_sha256`` (one row per probe), to check a query model written without torch against; None when
    the shipped file is for another model or lacks them."""
    import numpy as np


    shipped = read_shipped(path)
    if shipped is None or shipped.model_sha256 != model_sha256:
        return None
    keys = [text_key(text) for text in PROBES]
    if any(key not in shipped.vectors for key in keys):
        return None
    return np.stack([shipped.vectors[key] for key in keys])


def sample_keys(keys: Sequence[str], size: int = SAMPLE) -> list[str]:
    """A deterministic spread of keys to verify: every n-th key in sorted order.

    >>> sample_keys([str(i) for i in range(10)], 3)
    ['0', '3', '6']
    """
    ordered = sorted(set(keys))
    if len(ordered) <= size:
        return ordered
    step = len(ordered) // size
    return ordered[::step][:size]


def agreement(shipped: Shipped, texts: dict[str, str], embed: Callable[[list[str]], np.ndarray]) -> float:
    """The smallest cosine between shipped vectors and the model's vectors of the same texts."""
    import numpy as np

    keys = [key for key in texts if key in shipped.vectors]
    if not keys:
        return 1.0
    fresh = np.asarray(embed([texts[key] for key in keys]), dtype=np.float32)
    stored = np.stack([shipped.vectors[key] for key in keys])
    if fresh.shape != stored.shape:  # another model's width: no agreement at all
        return -1.0
    stored = stored / np.linalg.norm(stored, axis=1, keepdims=True)
    return float(np.min(np.sum(stored * fresh, axis=1)))


def builtin_chunks() -> list[Chunk]:
    """Chunks of the built-in corpus only (no user releases), with the training questions the default
    expansion adds (:mod:`indexer.expansion`: its question sentences are embedded too)."""
    corpus = load_corpus(releases=[], include_user_releases=False)
    return expand_corpus(make_chunks(corpus.records), corpus, DEFAULT_MODE)


def write_shipped(chunks: Sequence[Chunk], embedder: Any, path: Path = SHIPPED_PATH,
                  cache: Any = None, previous: Shipped | None = None) -> dict[str, Any]:
    """Embed every distinct text of the chunks — chunk texts and their sentences — (taking what the data
    folder's embedding ``cache`` of the same model already holds) and write the shipped file; returns its
    metadata. A ``previous`` shipped file of the same model lends the vectors it has (float16: a text
    kept from the last version keeps its vector to within 1e-5)."""
    import numpy as np


    # The query model's probes too: a query model written from the weights is checked against them.
    texts = {**dense_texts(chunks), **{text_key(text): text for text in PROBES}}
    keys = sorted(texts)
    if cache is None:
        vectors = embedder.encode([texts[key] for key in keys], progress=sys.stderr.isatty())
    else:
        if previous is not None and previous.model_sha256 == model_hash(embedder.path):
            known = [key for key in texts if key in previous.vectors and key not in cache]
            cache.vectors.update((key, previous.vectors[key]) for key in known)  # not written to the cache
        missing = {key: text for key, text in texts.items() if key not in cache}
        embed_into_cache(missing, embedder, cache, progress=True)
        vectors = np.stack([cache.vectors[key] for key in keys])
    meta = {"format": FORMAT, "model": model_label(embedder.path), "model_sha256": model_hash(embedder.path),
            "model_variant": getattr(embedder, "variant", "fp32"), "chunk_format": CHUNK_FORMAT,
            "keys_sha256": keys_hash(keys), "count": len(keys), "dtype": "float16", "command": COMMAND}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, keys=pack_keys(keys), vectors=np.asarray(vectors, dtype=np.float16),
                        meta=np.array(json.dumps(meta, sort_keys=True)))
    write_atomic(path, buffer.getvalue())
    return meta


def stale_reason(shipped: Shipped | None, chunks: Sequence[Chunk], model_sha256: str) -> str | None:
    """Why the shipped file does not fit the built-in corpus and model (None when it does)."""
    if shipped is None:
        return f"{SHIPPED_PATH} is missing or unreadable"
    if shipped.model_sha256 != model_sha256:
        return "the model changed"
    missing = set(dense_texts(chunks)) - set(shipped.vectors)
    if missing:
        return f"{len(missing)} built-in chunk and sentence texts have no shipped vector"
    if probe_vectors(model_sha256) is None:
        return "the query model's probe sentences have no shipped vector"
    return None


# --- verification, remembered per data folder -----------------------------------------------------------


def verified_marker(root: Path) -> Path:
    return root / "shipped-verified.json"


def already_verified(root: Path, shipped: Shipped) -> bool:
    try:
        data = json.loads(verified_marker(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("file_sha256") == shipped.file_sha256 and \
        data.get("model_sha256") == shipped.model_sha256


def remember_verified(root: Path, shipped: Shipped, cosine: float) -> None:
    with contextlib.suppress(OSError):
        write_atomic(verified_marker(root), json.dumps(
            {"file_sha256": shipped.file_sha256, "model_sha256": shipped.model_sha256,
             "min_cosine": round(cosine, 6)}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped file is stale")
    args = parser.parse_args(argv)
    chunks = builtin_chunks()
    embedder = Embedder(quantize=False)
    reason = stale_reason(read_shipped(), chunks, model_hash(embedder.path))
    if args.check:
        print(f"stale: {reason}" if reason else f"up to date ({len(chunks)} chunks)")
        return 1 if reason else 0

    cache = EmbeddingCache(cache_folder(index_root(), model_hash(embedder.path)), print).load()
    meta = write_shipped(chunks, embedder, cache=cache, previous=read_shipped())
    size = SHIPPED_PATH.stat().st_size
    print(f"wrote {SHIPPED_PATH} ({meta['count']} vectors for {len(chunks)} chunks, {size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
