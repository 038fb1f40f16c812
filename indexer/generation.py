"""One generation of the dense index on disk: its manifest, writing it, loading it, and removing the
generations nothing points at.

Layout under ``data_dir()/index``::

    current.json               the manifest of the generation in use (written last, atomically)
    gen-<corpus>-<stamp>/      one generation: vectors.faiss, ids.json, vector_rows.npy, manifest.json

The manifest names the model and its weights' sha256, the corpus content hash, the schema version and
the sha256 of every file of the generation; a file whose bytes differ from its checksum is an
:class:`~indexer.dense.IndexFileError`, never a served result. A generation is written into a temporary
folder that is renamed into place, and only then does ``current.json`` point at it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.common.files import write_atomic
from rulesjudge.indexer.chunks import CHUNK_FORMAT, Chunk, corpus_hash
from rulesjudge.indexer.dense import DenseIndex, IndexFileError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

SCHEMA_VERSION = 3
MANIFEST_FORMAT = "rulesjudge-index"
GENERATION_FILES = ("ids.json", "vectors.faiss", "vector_rows.npy")
#: the sentence vectors: distinct vectors, each sentence's chunk row, each sentence's vector row
SENTENCE_FILES = ("sentences.faiss", "sentence_owner.npy", "sentence_rows.npy")
#: A generation folder nothing points at is left alone this long (another process may be finishing it).
ORPHAN_AGE_SECONDS = 60.0


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


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- loading -----------------------------------------------------------------------------------------


def _read_checked(path: Path, manifest: dict[str, Any]) -> bytes:
    """A generation file's bytes, after checking them against the manifest's sha256."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise IndexFileError(f"index file {path} is unreadable ({type(error).__name__})") from error
    files = manifest.get("files")
    if not isinstance(files, dict) or not isinstance(files.get(path.name), str):
        raise IndexFileError(f"index manifest has no checksum for {path}")
    if sha256_bytes(data) != files[path.name]:
        raise IndexFileError(f"index file {path} does not match its checksum (damaged or replaced)")
    return data


def _check_against_own_copy(current: Path, own: Path, manifest: dict[str, Any]) -> None:
    """A generation keeps its own copy of the manifest (written with it): when ``current.json`` says
    otherwise, ``current.json`` is what was damaged, and is named (not the file whose checksum it
    garbled). Without a readable copy the files' checksums alone decide."""
    try:
        copy = read_manifest(own)
    except (OSError, IndexFileError):
        return
    if copy != manifest:
        lost = " and has no checksum for its files" if not isinstance(manifest.get("files"), dict) else ""
        raise IndexFileError(f"index manifest {current} does not match the manifest its generation was "
                             f"written with{lost} (damaged or edited)")


def load_generation(root: Path, manifest: dict[str, Any]) -> DenseIndex:
    """Open the generation a manifest names, checking every file against its checksum."""
    import io

    import faiss
    import numpy as np

    generation = manifest.get("generation")
    if not isinstance(generation, str) or "/" in generation or not generation.startswith("gen-"):
        raise IndexFileError(f"index manifest {root / 'current.json'} names no generation")
    folder = root / generation
    _check_against_own_copy(root / "current.json", folder / "manifest.json", manifest)
    ids_path, vectors_path, rows_path = (folder / name for name in GENERATION_FILES)
    try:
        ids = json.loads(_read_checked(ids_path, manifest).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise IndexFileError(f"index file {ids_path} is unreadable ({type(error).__name__})") from error
    if not isinstance(ids, list) or not all(isinstance(item, str) for item in ids):
        raise IndexFileError(f"index file {ids_path} is not a list of record ids")
    vector_bytes = _read_checked(vectors_path, manifest)
    try:
        faiss_index = faiss.deserialize_index(np.frombuffer(vector_bytes, dtype=np.uint8))
        rows = np.load(io.BytesIO(_read_checked(rows_path, manifest)), allow_pickle=False)
    except IndexFileError:
        raise
    except Exception as error:  # faiss raises RuntimeError with a C++ backtrace: keep one line
        raise IndexFileError(f"index file {vectors_path} is unreadable or not a FAISS index") from error
    if len(ids) != manifest.get("chunks") or rows.shape != (len(ids),):
        raise IndexFileError(f"index file {rows_path} holds {rows.shape} rows for {len(ids)} ids")
    if len(rows) and (int(rows.min()) < 0 or int(rows.max()) >= faiss_index.ntotal):
        raise IndexFileError(f"index file {rows_path} points outside {vectors_path}")
    if manifest.get("dimension") not in (None, faiss_index.d):
        raise IndexFileError(f"index file {vectors_path} has dimension {faiss_index.d}")
    dense = DenseIndex(faiss_index, ids, manifest, rows)
    _load_sentences(folder, manifest, dense)
    return dense


def _load_sentences(folder: Path, manifest: dict[str, Any], dense: DenseIndex) -> None:
    """Attach the generation's sentence vectors (every file checked against the manifest)."""
    import io

    import faiss
    import numpy as np

    vectors_path, owner_path, rows_path = (folder / name for name in SENTENCE_FILES)
    vector_bytes = _read_checked(vectors_path, manifest)
    try:
        faiss_index = faiss.deserialize_index(np.frombuffer(vector_bytes, dtype=np.uint8))
        owner = np.load(io.BytesIO(_read_checked(owner_path, manifest)), allow_pickle=False)
        rows = np.load(io.BytesIO(_read_checked(rows_path, manifest)), allow_pickle=False)
    except IndexFileError:
        raise
    except Exception as error:
        raise IndexFileError(f"index file {vectors_path} is unreadable or not a FAISS index") from error
    if owner.ndim != 1 or rows.shape != owner.shape or faiss_index.d != dense.faiss_index.d:
        raise IndexFileError(f"index file {rows_path} does not fit {vectors_path}")
    if len(rows) and (int(rows.min()) < 0 or int(rows.max()) >= faiss_index.ntotal):
        raise IndexFileError(f"index file {rows_path} points outside {vectors_path}")
    owners = [dense.ids[row] for row in owner] if len(owner) and int(owner.max()) < len(dense.ids) else []
    try:
        dense.attach_sentences(DenseIndex(faiss_index, owners, manifest, rows), owner)
    except IndexFileError as error:
        raise IndexFileError(f"index file {owner_path}: {error}") from error


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


# --- building ----------------------------------------------------------------------------------------


def _write_json(path: Path, data: Any) -> bytes:
    payload = json.dumps(data, indent=1).encode("utf-8")
    path.write_bytes(payload)
    return payload


def _write_vectors(path: Path, vectors: np.ndarray) -> tuple[Any, bytes]:
    import faiss

    faiss_index = faiss.IndexFlatIP(vectors.shape[1])
    faiss_index.add(vectors)
    payload = faiss.serialize_index(faiss_index).tobytes()
    path.write_bytes(payload)
    return faiss_index, payload


def _write_rows(path: Path, rows: np.ndarray) -> bytes:
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, np.asarray(rows, dtype=np.int32), allow_pickle=False)
    payload = buffer.getvalue()
    path.write_bytes(payload)
    return payload


def write_generation(root: Path, manifest: dict[str, Any], ids: list[str], vectors: np.ndarray,
                     vector_rows: np.ndarray, sentences: SentenceVectors | None = None) -> DenseIndex:
    """Write a complete generation into a temporary folder, rename it into place, then point at it.
    ``vectors`` holds the distinct vectors; chunk ``i`` uses ``vectors[vector_rows[i]]``; ``sentences``
    the sentence vectors (none when not given)."""
    import numpy as np

    if sentences is None:
        sentences = SentenceVectors(np.zeros((0, vectors.shape[1]), dtype=np.float32),
                                    np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32))
    generation = f"gen-{manifest['corpus_sha256'][:12]}-{time.time_ns():x}"
    manifest = {**manifest, "generation": generation, "dimension": int(vectors.shape[1]),
                "vectors": int(vectors.shape[0]),
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    root.mkdir(parents=True, exist_ok=True)
    temporary = root / f".tmp-{generation}"
    try:
        temporary.mkdir()
        faiss_index, vector_bytes = _write_vectors(temporary / "vectors.faiss", vectors)
        ids_bytes = _write_json(temporary / "ids.json", ids)
        rows_bytes = _write_rows(temporary / "vector_rows.npy", vector_rows)
        sentence_index, sentence_bytes = _write_vectors(temporary / "sentences.faiss", sentences.vectors)
        owner_bytes = _write_rows(temporary / "sentence_owner.npy", sentences.owner)
        sentence_rows_bytes = _write_rows(temporary / "sentence_rows.npy", sentences.rows)
        manifest["files"] = {"vectors.faiss": sha256_bytes(vector_bytes), "ids.json": sha256_bytes(ids_bytes),
                             "vector_rows.npy": sha256_bytes(rows_bytes),
                             "sentences.faiss": sha256_bytes(sentence_bytes),
                             "sentence_owner.npy": sha256_bytes(owner_bytes),
                             "sentence_rows.npy": sha256_bytes(sentence_rows_bytes)}
        manifest["sentences"] = len(sentences.owner)
        _write_json(temporary / "manifest.json", manifest)
        os.replace(temporary, root / generation)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    write_atomic(root / "current.json", json.dumps(manifest, indent=1))  # the switch-over
    dense = DenseIndex(faiss_index, ids, manifest, vector_rows)
    dense.attach_sentences(DenseIndex(sentence_index, [ids[row] for row in sentences.owner], manifest,
                                      sentences.rows), sentences.owner)
    return dense


def current_generation(root: Path) -> str | None:
    try:
        generation = read_manifest(root / "current.json").get("generation")
    except (FileNotFoundError, IndexFileError):
        return None
    return generation if isinstance(generation, str) else None


def remove_old_generations(root: Path, keep: str | None = None, previous: str | None = None) -> None:
    """Remove the generation replaced by this build (``previous``) and every other generation or
    temporary folder nothing points at once it is older than :data:`ORPHAN_AGE_SECONDS` (a younger one
    may belong to a build still running in another process)."""
    keep = keep or current_generation(root)
    now = time.time()
    with contextlib.suppress(OSError):
        for folder in [*root.glob("gen-*"), *root.glob(".tmp-gen-*")]:
            if folder.name == keep or not folder.is_dir():
                continue
            with contextlib.suppress(OSError):
                if folder.name == previous or now - folder.stat().st_mtime > ORPHAN_AGE_SECONDS:
                    shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class SentenceVectors:
    """The distinct sentence vectors, each sentence's chunk row and each sentence's vector row."""

    vectors: np.ndarray
    owner: np.ndarray
    rows: np.ndarray


def sentence_vectors(chunks: Sequence[Chunk], vector_of: Callable[[str], np.ndarray],
                     dimension: int) -> SentenceVectors:
    """The sentence entries of ``chunks`` in chunk order, their vectors stored once each."""
    import numpy as np

    keys: list[str] = []
    owner: list[int] = []
    for row, chunk in enumerate(chunks):
        for key in chunk.sentence_keys:
            keys.append(key)
            owner.append(row)
    vectors, rows = distinct_vectors(keys, vector_of, dimension)
    return SentenceVectors(vectors, np.asarray(owner, dtype=np.int32), rows)


def distinct_vectors(keys: Sequence[str], vector_of: Callable[[str], np.ndarray], dimension: int,
              ) -> tuple[np.ndarray, np.ndarray]:
    """The distinct vectors of ``keys`` (first-seen order) and each key's row among them."""
    import numpy as np

    row_of_key: dict[str, int] = {}
    rows = np.empty(len(keys), dtype=np.int32)
    for i, key in enumerate(keys):
        rows[i] = row_of_key.setdefault(key, len(row_of_key))
    if not row_of_key:
        return np.zeros((0, dimension), dtype=np.float32), rows
    matrix = np.stack([vector_of(key) for key in row_of_key]).astype(np.float32)
    return np.ascontiguousarray(matrix), rows
