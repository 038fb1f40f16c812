"""The dense index: FAISS (inner product over L2-normalised vectors) saved in the data folder.

Layout under ``data_dir()/index``::

    current.json               the manifest of the generation in use (written last, atomically)
    gen-<corpus>-<stamp>/      one generation: vectors.faiss, ids.json, vector_rows.npy, manifest.json
    cache/<model>/part-*.npz   embeddings by chunk key (sha256 of the chunk's dense text), see indexer.cache
    shipped-verified.json      the shipped embeddings were checked against this model (indexer.shipped)

The manifest names the model and its weights' sha256, the corpus content hash, the schema version and
the sha256 of every file of the generation. :func:`ensure_index` loads the generation when all match and
rebuilds otherwise; a file whose bytes differ from its checksum (garbled, truncated, swapped for another
index of the same size) is one line on stderr and a rebuild from the embedding cache, never a served
result. A rebuild embeds only chunks whose text is neither in the cache nor among the shipped vectors of
the built-in corpus, prints progress (a line every few seconds when stderr is not a terminal) and writes
the cache in checkpoints. Before any of that it checks that the data folder can take the result: an
unusable folder (read-only, a file where a folder should be, ``current.json`` a folder) is an
:class:`~common.errors.InputError` (one line, exit 2) before the model is even loaded. A generation is
written into a temporary folder that is renamed into place, and only then does ``current.json`` point
at it: a build killed half-way leaves the previous generation in use. Generations no manifest points at
(left by a killed build) are removed by the next build or load. Builds take turns (:func:`build_lock`):
one started while another runs waits, then loads what that one built.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import write_atomic
from rulesjudge.indexer import shipped as shipped_module
from rulesjudge.indexer.cache import (
    EmbeddingCache,
    cache_folder,
    embed_into_cache,
    index_root,
    legacy_cache_path,
)
from rulesjudge.indexer.chunks import CHUNK_FORMAT, Chunk, corpus_hash, dense_texts
from rulesjudge.indexer.embed import Embedder, model_hash, model_label

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

SCHEMA_VERSION = 3
MANIFEST_FORMAT = "rulesjudge-index"
GENERATION_FILES = ("ids.json", "vectors.faiss", "vector_rows.npy")
#: the sentence vectors: distinct vectors, each sentence's chunk row, each sentence's vector row
SENTENCE_FILES = ("sentences.faiss", "sentence_owner.npy", "sentence_rows.npy")
#: A generation folder nothing points at is left alone this long (another process may be finishing it).
ORPHAN_AGE_SECONDS = 60.0

Notify = Callable[[str], None]


def stderr_notify(message: str) -> None:
    print(f"rulesjudge: {message}", file=sys.stderr)


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
    shipped: int = 0  # vectors taken from the shipped embeddings of the built-in corpus


class DenseIndex:
    """FAISS ``IndexFlatIP`` over the distinct vectors; chunk row i (record ``ids[i]``) uses vector
    ``vector_rows[i]``. The same rule text in many releases is one vector, so an index over 60 releases is
    the size of its distinct texts, not of its chunks.

    ``sentences`` (attached with :meth:`attach_sentences`) is a second index of the same kind over the
    vectors of each chunk's sentences (:attr:`Chunk.sentences`), ``sentence_owner[j]`` the chunk row of
    sentence ``j`` (non-decreasing); :meth:`search_records` scores a record by its chunk vector and its
    best sentence."""

    def __init__(self, faiss_index: Any, ids: list[str], manifest: dict[str, Any],
                 vector_rows: np.ndarray | None = None) -> None:
        import numpy as np

        self.faiss_index = faiss_index
        self.ids = ids
        self.manifest = manifest
        self.row_of = {record_id: row for row, record_id in enumerate(ids)}
        if vector_rows is None:
            vector_rows = np.arange(len(ids), dtype=np.int64)
        self.vector_rows = np.asarray(vector_rows, dtype=np.int64)
        # chunks of each vector (CSR): chunk_rows[starts[v]:starts[v + 1]]
        order = np.argsort(self.vector_rows, kind="stable")
        self._chunk_rows = order
        self._starts = np.searchsorted(self.vector_rows[order], np.arange(faiss_index.ntotal + 1))
        self._masks: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.sentences: DenseIndex | None = None
        self.sentence_owner = np.zeros(0, dtype=np.int64)
        self._sentence_starts = np.zeros(len(ids) + 1, dtype=np.int64)
        self._matrix: np.ndarray | None = None
        self._entry_masks: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def attach_sentences(self, sentences: DenseIndex, owner: np.ndarray) -> None:
        """Use ``sentences`` (one entry per sentence, entry ``j`` of chunk row ``owner[j]``)."""
        import numpy as np

        owner = np.asarray(owner, dtype=np.int64)
        inside = not len(owner) or (int(owner.min()) >= 0 and int(owner.max()) < len(self.ids)
                                    and not bool((np.diff(owner) < 0).any()))
        if len(owner) != len(sentences) or not inside:
            raise IndexFileError("sentence owners do not fit the chunks")
        self.sentences = sentences
        self.sentence_owner = owner
        self._sentence_starts = np.searchsorted(owner, np.arange(len(self.ids) + 1))

    def matrix(self) -> np.ndarray:
        """The distinct vectors as a (vectors × dimension) float32 array (a view of the flat index)."""
        if self._matrix is None:
            import faiss
            import numpy as np

            index, total = self.faiss_index, self.faiss_index.ntotal
            try:
                view = faiss.rev_swig_ptr(index.get_xb(), total * index.d)
                self._matrix = np.asarray(view, dtype=np.float32).reshape(total, index.d)
            except (AttributeError, RuntimeError, TypeError):  # not a flat index: copy the vectors out
                self._matrix = index.reconstruct_n(0, total)
        return self._matrix

    def search_records(self, vector: np.ndarray, k: int, mask: np.ndarray | None = None,
                       sentence_weight: float = 0.0) -> list[tuple[int, float]]:
        """The k best chunk rows by ``chunk cosine + w · max(0, best sentence cosine - chunk cosine)``: a
        sentence can lift its record, never sink it (a chunk without sentences keeps its own cosine). The
        sentence index finds records whose one decisive sentence is diluted in their chunk's vector (a
        long rule, or a rule with examples); every candidate's two cosines are then computed exactly, so
        the order does not depend on which search found it."""
        import numpy as np

        found = self.search(vector, k, mask)
        if self.sentences is None or not sentence_weight or not found:
            return found
        entry_mask = None if mask is None else self._entry_mask(mask)
        entries = self.sentences.search(vector, k, entry_mask)
        owners = [int(self.sentence_owner[entry]) for entry, _ in entries]
        rows = np.unique(np.array([row for row, _ in found] + owners, dtype=np.int64))
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        chunk = self.matrix()[self.vector_rows[rows]] @ query
        best = self.best_sentence(rows, query, chunk)
        combined = chunk + sentence_weight * np.maximum(best - chunk, 0.0)
        order = np.argsort(-combined, kind="stable")[:k]
        return [(int(rows[i]), float(combined[i])) for i in order]

    def _entry_mask(self, mask: np.ndarray) -> np.ndarray:
        """The sentences of the chunk rows ``mask`` keeps (memoised: a filter's mask is reused)."""
        memo = self._entry_masks.get(id(mask))
        if memo is not None and memo[0] is mask:
            return memo[1]
        entry_mask = mask[self.sentence_owner]
        if len(self._entry_masks) > 32:
            self._entry_masks.clear()
        self._entry_masks[id(mask)] = (mask, entry_mask)
        return entry_mask

    def best_sentence(self, rows: np.ndarray, query: np.ndarray, fallback: np.ndarray) -> np.ndarray:
        """Each chunk row's best sentence cosine (``fallback`` for a chunk without sentences)."""
        import numpy as np

        best = np.array(fallback, dtype=np.float32)
        sentences = self.sentences
        if sentences is None:
            return best
        starts, ends = self._sentence_starts[rows], self._sentence_starts[rows + 1]
        counts = ends - starts
        has = counts > 0
        if not has.any():
            return best
        spans = np.concatenate([np.arange(a, b) for a, b in zip(starts[has], ends[has], strict=True)])
        values = sentences.matrix()[sentences.vector_rows[spans]] @ query
        offsets = np.concatenate(([0], np.cumsum(counts[has])[:-1]))
        best[has] = np.maximum.reduceat(values, offsets)
        return best

    def _vector_mask(self, mask: np.ndarray) -> np.ndarray:
        memo = self._masks.get(id(mask))
        if memo is not None and memo[0] is mask:
            return memo[1]
        import numpy as np

        vector_mask = np.zeros(self.faiss_index.ntotal, dtype=bool)
        vector_mask[self.vector_rows[mask]] = True
        if len(self._masks) > 32:
            self._masks.clear()
        self._masks[id(mask)] = (mask, vector_mask)
        return vector_mask

    def search(self, vector: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The k nearest chunk rows (by cosine similarity) among rows where ``mask`` is true."""
        import faiss
        import numpy as np

        total = self.faiss_index.ntotal
        k = min(k, total)
        if k <= 0:
            return []
        if mask is None or bool(mask.all()):
            scores, rows = self.faiss_index.search(vector, k)
        else:
            vector_mask = self._vector_mask(mask)
            bitmap = np.packbits(vector_mask.astype(np.uint8), bitorder="little")
            selector = faiss.IDSelectorBitmap(total, faiss.swig_ptr(bitmap))
            params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
            scores, rows = self.faiss_index.search(vector, k, params=params)
        found: list[tuple[int, float]] = []
        for row, score in zip(rows[0], scores[0], strict=True):
            if row < 0:
                continue
            for chunk_row in self._chunk_rows[self._starts[row]:self._starts[row + 1]]:
                if mask is None or mask[chunk_row]:
                    found.append((int(chunk_row), float(score)))
        return found[:k]


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


# --- the data folder must be usable before any expensive work ---------------------------------------


def check_layout(root: Path) -> None:
    """Refuse a data folder whose shape makes the index unusable: a file where a folder should be, or
    ``current.json`` that is not a file. Reads only; one :class:`InputError` naming the path."""
    for folder in (root.parent, root, root / "cache"):
        if folder.exists() and not folder.is_dir():
            raise InputError(folder, "a file is where the index needs a folder; move it away", key="index")
    current = root / "current.json"
    if current.exists() and not current.is_file():
        raise InputError(current, "the index manifest is not a file (a folder?); remove it", key="index")


def check_writable(root: Path) -> None:
    """Make sure the index and its cache can be written (creating them), before embedding anything."""
    check_layout(root)
    for folder in (root, root / "cache"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
                pass
        except OSError as error:
            why = error.strerror or type(error).__name__
            raise InputError(folder, f"the data folder is not writable ({why}); the index cannot be "
                             "built (set RULESJUDGE_DATA to a writable folder)", key="index") from None


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


# --- embedding cache ---------------------------------------------------------------------------------


def shipped_vectors(root: Path, wanted_keys: dict[str, str], model_sha256: str, variant: str,
                    embedder: Any, say: Notify) -> dict[str, np.ndarray]:
    """Vectors for ``wanted_keys`` (key -> text) from the shipped embeddings of the built-in corpus, when
    they are for this model and agree with it on a sample (checked once per data folder)."""
    if variant != "fp32" or not wanted_keys:
        return {}
    shipped = shipped_module.read_shipped()
    if shipped is None or shipped.model_sha256 != model_sha256:
        return {}
    usable = {key: text for key, text in wanted_keys.items() if key in shipped.vectors}
    if not usable:
        return {}
    if not shipped_module.already_verified(root, shipped):
        sample = {key: usable[key] for key in shipped_module.sample_keys(list(usable))}
        # encode_few: by the ONNX query model, no torch, when the embedder has one (test doubles don't)
        encode = getattr(embedder, "encode_few", None) or (lambda texts: embedder.encode(texts))
        cosine = shipped_module.agreement(shipped, sample, encode)
        if cosine < shipped_module.MIN_COSINE:
            say(f"shipped embeddings disagree with the model (cosine {cosine:.4f}); embedding them instead")
            return {}
        shipped_module.remember_verified(root, shipped, cosine)
    return {key: shipped.vectors[key] for key in usable}


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


def _current_generation(root: Path) -> str | None:
    try:
        generation = read_manifest(root / "current.json").get("generation")
    except (FileNotFoundError, IndexFileError):
        return None
    return generation if isinstance(generation, str) else None


def remove_old_generations(root: Path, keep: str | None = None, previous: str | None = None) -> None:
    """Remove the generation replaced by this build (``previous``) and every other generation or
    temporary folder nothing points at once it is older than :data:`ORPHAN_AGE_SECONDS` (a younger one
    may belong to a build still running in another process)."""
    keep = keep or _current_generation(root)
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
    vectors, rows = _distinct(keys, vector_of, dimension)
    return SentenceVectors(vectors, np.asarray(owner, dtype=np.int32), rows)


def _distinct(keys: Sequence[str], vector_of: Callable[[str], np.ndarray], dimension: int,
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


def ensure_index(
    chunks: Sequence[Chunk],
    embedder: Embedder,
    *,
    root: Path | None = None,
    progress: bool = True,
    notify: Notify = stderr_notify,
    force: bool = False,
    shipped: bool = True,
) -> tuple[DenseIndex, BuildReport]:
    """Load the index for these chunks, or (re)build it, embedding only what the cache and (unless
    ``shipped`` is false) the shipped vectors lack. :class:`InputError` when the data folder cannot take
    a build."""
    start = time.perf_counter()
    root = root or index_root()
    check_layout(root)
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
        if reason == "not a rulesjudge index":  # another program's file in our place: say so, once
            say(f"index manifest {root / 'current.json'} is not a rulesjudge index; rebuilding")
        if dense is not None:
            generation = dense.manifest["generation"]
            tidy(root, generation)
            seconds = time.perf_counter() - start
            return dense, BuildReport(False, reason, 0, len(chunks), seconds, generation, messages)

    check_writable(root)  # before the model is loaded or anything is embedded
    with build_lock(root, say):
        if not force:  # another process may have built it while this one waited for the lock
            try:
                dense, reason = try_load(root, wanted, ids)
            except IndexFileError:
                dense = None
            if dense is not None:
                seconds = time.perf_counter() - start
                return dense, BuildReport(False, reason, 0, len(chunks), seconds,
                                          dense.manifest["generation"], messages)
        return _build(root, chunks, embedder, wanted, ids, model_sha256, variant, reason, shipped, progress,
                      notify, say, messages, start)


def tidy(root: Path, current: str) -> None:
    """Remove what earlier builds left and nothing points at, when no build is running now (the lock is
    free) and the folder can be written: an index that is only loaded keeps no orphans either."""
    leftovers = [p for p in (*root.glob("gen-*"), *root.glob(".tmp-gen-*")) if p.name != current]
    if not leftovers:
        return
    with contextlib.suppress(OSError, ImportError):  # read-only folder; no fcntl (Windows): left to builds
        import fcntl

        with open(root / ".build.lock", "a+b") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # a build is running: it tidies up when it is done
            try:
                remove_old_generations(root, keep=current)
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


@contextlib.contextmanager
def build_lock(root: Path, say: Notify) -> Iterator[None]:
    """One build at a time per index folder (``.build.lock``, an advisory lock the system releases when
    the process ends, however it ends): builds started together would each write a generation, and all
    but the last would be left behind, pointed at by nothing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows: orphans are removed by age instead
        yield
        return
    with open(root / ".build.lock", "a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("waiting for another rulesjudge process that is building the index")
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _build(root: Path, chunks: Sequence[Chunk], embedder: Any, wanted: dict[str, Any], ids: list[str],
           model_sha256: str, variant: str, reason: str, shipped: bool, progress: bool, notify: Notify,
           say: Notify, messages: list[str], start: float) -> tuple[DenseIndex, BuildReport]:
    """Embed what the caches lack, write a generation and switch to it (under :func:`build_lock`)."""
    previous = _current_generation(root)
    cache = EmbeddingCache(cache_folder(root, model_sha256, variant), say)
    cache.load(legacy_cache_path(root, model_sha256, variant))
    cache.checkpoint()  # vectors read from an earlier version's single-file cache
    text_of = dense_texts(chunks)
    missing = {key: text for key, text in text_of.items() if key not in cache}
    from_package = shipped_vectors(root, missing, model_sha256, variant, embedder, say) if shipped else {}
    missing = {key: text for key, text in missing.items() if key not in from_package}
    if missing:  # always say so: a first build can take minutes
        notify(f"embedding {len(missing)} of {len(text_of)} texts of {len(chunks)} chunks ({reason}); "
               "this happens once")
        embed_into_cache(missing, embedder, cache, progress=progress)
    keys = [chunk.key for chunk in chunks]
    sample = next(iter(cache.vectors.values()), next(iter(from_package.values()), None))
    width = int(sample.shape[0]) if sample is not None else int(embedder.dimension)
    known = {**cache.vectors, **from_package}
    vectors, rows = _distinct(keys, known.__getitem__, width)
    sentences = sentence_vectors(chunks, known.__getitem__, width)
    dense = write_generation(root, wanted, ids, vectors, rows, sentences)
    remove_old_generations(root, keep=dense.manifest["generation"], previous=previous)
    with contextlib.suppress(OSError):  # merging shards is housekeeping: never fail a finished build
        cache.compact(keep_first=list(text_of))
        legacy = legacy_cache_path(root, model_sha256, variant)
        if legacy.exists() and cache.shards():
            legacy.unlink()
    seconds = time.perf_counter() - start
    report = BuildReport(True, reason, len(missing), len(text_of) - len(missing), seconds,
                         dense.manifest["generation"], messages, shipped=len(from_package))
    return dense, report
