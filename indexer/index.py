"""The dense index: FAISS (inner product over L2-normalised vectors) saved in the data folder.

Layout under ``data_dir()/index``::

    current.json               the manifest of the generation in use (written last, atomically)
    gen-<corpus>-<stamp>/      one complete generation: vectors.faiss, ids.json, manifest.json
    cache/<model>.npz          embeddings by chunk key (sha256 of the chunk's dense text)

The manifest names the model and its weights' sha256, the corpus content hash and the schema version.
:func:`ensure_index` loads the generation when all three match and rebuilds otherwise. A rebuild embeds
only chunks whose text is not in the cache. A generation is written into a temporary folder that is
renamed into place, and only then does ``current.json`` point at it: a build killed half-way leaves the
previous generation in use. An unreadable, truncated or foreign file produces one line on stderr and a
rebuild, never a traceback.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.corpus.files import data_dir, write_atomic
from rulesjudge.indexer.chunks import CHUNK_FORMAT, Chunk, corpus_hash

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rulesjudge.indexer.embed import Embedder

SCHEMA_VERSION = 1
MANIFEST_FORMAT = "rulesjudge-index"
CACHE_LIMIT = 200_000  # embeddings kept in the cache (~300 MB at 384 floats); oldest dropped first

Notify = Callable[[str], None]


def stderr_notify(message: str) -> None:
    print(f"rulesjudge: {message}", file=sys.stderr)


def index_root() -> Path:
    return data_dir() / "index"


class IndexFileError(Exception):
    """An index file that cannot be used: unreadable, truncated, foreign or inconsistent."""


@dataclass
class BuildReport:
    """What :func:`ensure_index` did: loaded as is, or rebuilt (and how many chunks it embedded)."""

    rebuilt: bool
    reason: str
    embedded: int = 0
    reused: int = 0
    seconds: float = 0.0
    generation: str = ""
    messages: list[str] = field(default_factory=list)


class DenseIndex:
    """A FAISS IndexFlatIP whose row i is the record ``ids[i]``."""

    def __init__(self, faiss_index: Any, ids: list[str], manifest: dict[str, Any]) -> None:
        self.faiss_index = faiss_index
        self.ids = ids
        self.manifest = manifest
        self.row_of = {record_id: row for row, record_id in enumerate(ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, vector: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The k nearest rows (by cosine similarity) among rows where ``mask`` is true."""
        import faiss
        import numpy as np

        total = self.faiss_index.ntotal
        k = min(k, total)
        if k <= 0:
            return []
        if mask is None or bool(mask.all()):
            scores, rows = self.faiss_index.search(vector, k)
        else:
            bitmap = np.packbits(mask.astype(np.uint8), bitorder="little")
            selector = faiss.IDSelectorBitmap(total, faiss.swig_ptr(bitmap))
            params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
            scores, rows = self.faiss_index.search(vector, k, params=params)
        return [(int(row), float(score)) for row, score in zip(rows[0], scores[0], strict=True) if row >= 0]


# --- manifest ----------------------------------------------------------------------------------------


def expected_manifest(chunks: Sequence[Chunk], model: str, model_sha256: str,
                      variant: str = "fp32") -> dict[str, Any]:
    return {
        "format": MANIFEST_FORMAT,
        "schema": SCHEMA_VERSION,
        "chunk_format": CHUNK_FORMAT,
        "model": model,
        "model_sha256": model_sha256,
        "model_variant": variant,
        "corpus_sha256": corpus_hash(chunks),
        "chunks": len(chunks),
    }


_MATCH_KEYS = ("format", "schema", "chunk_format", "model_sha256", "corpus_sha256", "chunks")


def stale_reason(found: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """Why an existing manifest does not fit the wanted one (None when it does)."""
    if found.get("format") != MANIFEST_FORMAT:
        return "not a rulesjudge index"
    if found.get("schema") != wanted["schema"] or found.get("chunk_format") != wanted["chunk_format"]:
        return "index schema changed"
    if found.get("model_sha256") != wanted["model_sha256"] or (
        found.get("model_variant", "fp32") != wanted.get("model_variant", "fp32")
    ):
        return "embedding model changed"
    if found.get("corpus_sha256") != wanted["corpus_sha256"] or found.get("chunks") != wanted["chunks"]:
        return "corpus changed"
    return None


def read_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise IndexFileError(f"index file {path} is unreadable ({type(error).__name__})") from error
    if not isinstance(data, dict):
        raise IndexFileError(f"index file {path} is not a manifest")
    return data


# --- loading -----------------------------------------------------------------------------------------


def load_generation(root: Path, manifest: dict[str, Any]) -> DenseIndex:
    """Open the generation a manifest names, checking every file against it."""
    import faiss

    generation = manifest.get("generation")
    if not isinstance(generation, str) or "/" in generation or not generation.startswith("gen-"):
        raise IndexFileError(f"index manifest {root / 'current.json'} names no generation")
    folder = root / generation
    ids_path = folder / "ids.json"
    vectors_path = folder / "vectors.faiss"
    try:
        ids = json.loads(ids_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise IndexFileError(f"index file {ids_path} is unreadable ({type(error).__name__})") from error
    if not isinstance(ids, list) or not all(isinstance(item, str) for item in ids):
        raise IndexFileError(f"index file {ids_path} is not a list of record ids")
    try:
        faiss_index = faiss.read_index(str(vectors_path))
    except Exception as error:  # faiss raises RuntimeError with a C++ backtrace: keep one line
        raise IndexFileError(f"index file {vectors_path} is unreadable or not a FAISS index") from error
    if faiss_index.ntotal != len(ids) or len(ids) != manifest.get("chunks"):
        raise IndexFileError(
            f"index file {vectors_path} holds {faiss_index.ntotal} vectors for {len(ids)} ids")
    if manifest.get("dimension") not in (None, faiss_index.d):
        raise IndexFileError(f"index file {vectors_path} has dimension {faiss_index.d}")
    return DenseIndex(faiss_index, ids, manifest)


def try_load(root: Path, wanted: dict[str, Any], ids: Sequence[str]) -> tuple[DenseIndex | None, str]:
    """The current generation if it fits ``wanted`` (else None and why)."""
    current = root / "current.json"
    try:
        found = read_manifest(current)
    except FileNotFoundError:
        return None, "no index yet"
    reason = stale_reason(found, wanted)
    if reason:
        return None, reason
    dense = load_generation(root, found)
    if dense.ids != list(ids):
        raise IndexFileError(f"index file {root / found['generation'] / 'ids.json'} lists other records")
    return dense, "up to date"


# --- embedding cache ---------------------------------------------------------------------------------


def cache_path(root: Path, model_sha256: str, variant: str = "fp32") -> Path:
    suffix = "" if variant == "fp32" else f"-{variant}"
    return root / "cache" / f"{model_sha256[:16]}{suffix}.npz"


def load_cache(path: Path, notify: Notify) -> dict[str, np.ndarray]:
    import numpy as np

    if not path.exists():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            keys = [str(key) for key in data["keys"]]
            vectors = np.asarray(data["vectors"], dtype=np.float32)
        if len(keys) != len(vectors):
            raise ValueError("keys and vectors differ in length")
    except Exception as error:
        notify(f"embedding cache {path} is unreadable ({type(error).__name__}); embedding from scratch")
        return {}
    return dict(zip(keys, vectors, strict=True))


def save_cache(path: Path, cache: dict[str, np.ndarray]) -> None:
    import numpy as np

    items = list(cache.items())[-CACHE_LIMIT:]
    if not items:
        return
    buffer = io.BytesIO()
    keys = np.array([key for key, _ in items], dtype="U64")
    np.savez(buffer, keys=keys, vectors=np.stack([vector for _, vector in items]).astype(np.float32))
    write_atomic(path, buffer.getvalue())


# --- building ----------------------------------------------------------------------------------------


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _write_vectors(path: Path, vectors: np.ndarray) -> Any:
    import faiss

    faiss_index = faiss.IndexFlatIP(vectors.shape[1])
    faiss_index.add(vectors)
    faiss.write_index(faiss_index, str(path))
    return faiss_index


def write_generation(root: Path, manifest: dict[str, Any], ids: list[str], vectors: np.ndarray) -> DenseIndex:
    """Write a complete generation into a temporary folder, rename it into place, then point at it."""
    generation = f"gen-{manifest['corpus_sha256'][:12]}-{time.time_ns():x}"
    manifest = {**manifest, "generation": generation, "dimension": int(vectors.shape[1]),
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    root.mkdir(parents=True, exist_ok=True)
    temporary = root / f".tmp-{generation}"
    try:
        temporary.mkdir()
        faiss_index = _write_vectors(temporary / "vectors.faiss", vectors)
        _write_json(temporary / "ids.json", ids)
        _write_json(temporary / "manifest.json", manifest)
        os.replace(temporary, root / generation)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    write_atomic(root / "current.json", json.dumps(manifest, indent=1))  # the switch-over
    return DenseIndex(faiss_index, ids, manifest)


def remove_old_generations(root: Path, keep: str) -> None:
    for folder in root.glob("gen-*"):
        if folder.name != keep and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
    for folder in root.glob(".tmp-gen-*"):
        # a temporary folder older than a minute belongs to a killed build
        if time.time() - folder.stat().st_mtime > 60:
            shutil.rmtree(folder, ignore_errors=True)


def ensure_index(
    chunks: Sequence[Chunk],
    embedder: Embedder,
    *,
    root: Path | None = None,
    progress: bool = True,
    notify: Notify = stderr_notify,
    force: bool = False,
) -> tuple[DenseIndex, BuildReport]:
    """Load the index for these chunks, or (re)build it, embedding only what the cache lacks."""
    import numpy as np

    from rulesjudge.indexer.embed import model_hash, model_label

    start = time.perf_counter()
    root = root or index_root()
    model_sha256 = model_hash(embedder.path)
    variant = getattr(embedder, "variant", "fp32")
    wanted = expected_manifest(chunks, model_label(embedder.path), model_sha256, variant)
    ids = [chunk.id for chunk in chunks]
    messages: list[str] = []

    def say(message: str) -> None:
        messages.append(message)
        notify(message)

    reason = "rebuild requested"
    if not force:
        try:
            dense, reason = try_load(root, wanted, ids)
        except IndexFileError as error:
            dense, reason = None, "unreadable index"
            say(f"{error}; rebuilding")
        if dense is not None:
            seconds = time.perf_counter() - start
            generation = dense.manifest["generation"]
            return dense, BuildReport(False, reason, 0, len(chunks), seconds, generation, messages)

    cache_file = cache_path(root, model_sha256, variant)
    cache = load_cache(cache_file, say)
    keys = [chunk.key for chunk in chunks]
    missing_keys = list(dict.fromkeys(key for key in keys if key not in cache))
    text_of = {chunk.key: chunk.dense_text for chunk in chunks}
    if missing_keys:  # always say so: a first build can take minutes
        notify(f"embedding {len(missing_keys)} of {len(chunks)} chunks ({reason}); this happens once")
        vectors = embedder.encode([text_of[key] for key in missing_keys], progress=progress)
        cache.update(zip(missing_keys, vectors, strict=True))
        save_cache(cache_file, cache)  # before the index: a killed build keeps its embedding work
    if chunks:
        matrix = np.stack([cache[key] for key in keys]).astype(np.float32)
    else:
        matrix = np.zeros((0, embedder.dimension), dtype=np.float32)
    dense = write_generation(root, wanted, ids, matrix)
    remove_old_generations(root, keep=dense.manifest["generation"])
    seconds = time.perf_counter() - start
    report = BuildReport(True, reason, len(missing_keys), len(chunks) - len(missing_keys), seconds,
                         dense.manifest["generation"], messages)
    return dense, report
