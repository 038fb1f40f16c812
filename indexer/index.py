"""Building the dense index: load the generation that fits the chunks, or embed what is new and write one.
The index in memory is :class:`~indexer.dense.DenseIndex`; a generation on disk (manifest, writing,
loading, checksums) is :mod:`indexer.generation`.

Layout under ``data_dir()/index``::

    current.json               the manifest of the generation in use (written last, atomically)
    gen-<corpus>-<stamp>/      one generation: vectors.faiss, ids.json, vector_rows.npy, manifest.json
    cache/<model>/part-*.npz   embeddings by chunk key (sha256 of the chunk's dense text), see indexer.cache
    shipped-verified.json      the shipped embeddings were checked against this model (indexer.shipped)
    expansion/                 the training questions left out as near copies of eval ones (indexer.expansion)

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
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import file_lock
from rulesjudge.indexer import shipped as shipped_module
from rulesjudge.indexer.cache import (
    EmbeddingCache,
    cache_folder,
    embed_into_cache,
    index_root,
    legacy_cache_path,
)
from rulesjudge.indexer.chunks import Chunk, dense_texts
from rulesjudge.indexer.dense import DenseIndex, IndexFileError
from rulesjudge.indexer.embed import Embedder, model_hash, model_label
from rulesjudge.indexer.generation import (
    current_generation,
    distinct_vectors,
    expected_manifest,
    remove_old_generations,
    sentence_vectors,
    try_load,
    write_generation,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

Notify = Callable[[str], None]


def stderr_notify(message: str) -> None:
    print(f"rulesjudge: {message}", file=sys.stderr)


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
    waiting = "waiting for another rulesjudge process that is building the index"
    with file_lock(root / ".build.lock", lambda: say(waiting)):  # no fcntl (Windows): orphans go by age
        yield


def _build(root: Path, chunks: Sequence[Chunk], embedder: Any, wanted: dict[str, Any], ids: list[str],
           model_sha256: str, variant: str, reason: str, shipped: bool, progress: bool, notify: Notify,
           say: Notify, messages: list[str], start: float) -> tuple[DenseIndex, BuildReport]:
    """Embed what the caches lack, write a generation and switch to it (under :func:`build_lock`)."""
    previous = current_generation(root)
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
    vectors, rows = distinct_vectors(keys, known.__getitem__, width)
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
