"""The embedding cache: vectors by chunk key, kept in the data folder, written in checkpoints.

A build embeds only chunk texts whose vector is not known yet; the cache keeps every vector it made, so
adding a release embeds only its new or changed texts. The cache is a folder of shards::

    index/cache/<model sha256[:16]>[-variant]/part-<stamp>.npz    keys (n×32 bytes), vectors (n×d float16)

A build writes a shard at each checkpoint (every few seconds of embedding) and at the end, each shard
atomically, so a build killed half-way keeps what it finished. Shards are merged into one when there
are many. Keys are the raw 32 bytes of the chunk key (sha256 of the dense text) and vectors are stored
as float16: 800 bytes an entry instead of the 1,800 of hex keys and float32, with a cosine to the
float32 vector above 0.99999.

>>> import numpy as np
>>> keys = ["ab" * 32, "cd" * 32]
>>> unpack_keys(pack_keys(keys)) == keys
True
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rulesjudge.common.files import data_dir, write_atomic

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

Notify = Callable[[str], None]

#: Entries kept at most (~160 MB at 384 float16 dimensions); entries the current corpus uses are kept first.
CACHE_LIMIT = 200_000
#: Shards merged into one when there are more than this many.
MAX_SHARDS = 8
KEY_BYTES = 32


def pack_keys(keys: Sequence[str]) -> np.ndarray:
    """Hex sha256 keys as an (n, 32) uint8 array."""
    import numpy as np

    if not keys:
        return np.zeros((0, KEY_BYTES), dtype=np.uint8)
    return np.frombuffer(b"".join(bytes.fromhex(key) for key in keys), dtype=np.uint8).reshape(-1, KEY_BYTES)


def unpack_keys(array: np.ndarray) -> list[str]:
    """The inverse of :func:`pack_keys`."""
    import numpy as np

    array = np.ascontiguousarray(array, dtype=np.uint8)
    if array.ndim != 2 or array.shape[1] != KEY_BYTES:
        raise ValueError(f"keys have shape {array.shape}, expected (n, {KEY_BYTES})")
    raw = array.tobytes()
    return [raw[i:i + KEY_BYTES].hex() for i in range(0, len(raw), KEY_BYTES)]


def encode_shard(keys: Sequence[str], vectors: np.ndarray) -> bytes:
    """An .npz file's bytes holding these keys and vectors (float16)."""
    import numpy as np

    buffer = io.BytesIO()
    np.savez(buffer, keys=pack_keys(keys), vectors=np.asarray(vectors, dtype=np.float16))
    return buffer.getvalue()


def decode_shard(source: Path | io.BytesIO) -> tuple[list[str], np.ndarray]:
    """Keys and float32 vectors of a shard; ValueError (or OSError) when it is not one."""
    import numpy as np

    with np.load(source, allow_pickle=False) as data:
        raw_keys = data["keys"]
        vectors = np.asarray(data["vectors"], dtype=np.float32)
    keys = [str(key) for key in raw_keys] if raw_keys.dtype.kind == "U" else unpack_keys(raw_keys)
    if len(keys) != len(vectors) or vectors.ndim != 2:
        raise ValueError("keys and vectors differ in length")
    if not np.isfinite(vectors).all():
        raise ValueError("vectors hold NaN or infinity")
    return keys, vectors


class EmbeddingCache:
    """The cache folder of one model: load every shard, add vectors, checkpoint them to a new shard."""

    def __init__(self, folder: Path, notify: Notify) -> None:
        self.folder = folder
        self.notify = notify
        self.vectors: dict[str, np.ndarray] = {}
        self._pending: dict[str, np.ndarray] = {}

    def shards(self) -> list[Path]:
        try:
            return sorted(self.folder.glob("part-*.npz"))
        except OSError:
            return []

    def load(self, legacy: Path | None = None) -> EmbeddingCache:
        """Read every shard (and the single-file cache of earlier versions); a damaged shard is reported
        in one line, removed, and its texts embedded again."""
        legacy_sources = [legacy] if legacy is not None and legacy.is_file() else []
        for path in [*self.shards(), *legacy_sources]:
            try:
                keys, vectors = decode_shard(path)
            except Exception as error:
                self.notify(f"embedding cache {path} is unreadable ({type(error).__name__}); "
                            "its texts will be embedded again")
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            if path in legacy_sources:  # written to a shard at the next checkpoint
                self.add(keys, vectors)
            else:
                self.vectors.update(zip(keys, vectors, strict=True))
        return self

    def __contains__(self, key: str) -> bool:
        return key in self.vectors

    def get(self, key: str) -> np.ndarray | None:
        return self.vectors.get(key)

    def add(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        for key, vector in zip(keys, vectors, strict=True):
            self.vectors[key] = vector
            self._pending[key] = vector

    def checkpoint(self) -> None:
        """Write the vectors added since the last checkpoint as a new shard (atomically)."""
        import numpy as np

        if not self._pending:
            return
        keys = list(self._pending)
        data = encode_shard(keys, np.stack([self._pending[key] for key in keys]))
        write_atomic(self.folder / f"part-{time.time_ns():020d}.npz", data)
        self._pending.clear()

    def compact(self, keep_first: Iterable[str] = ()) -> None:
        """Merge the shards into one when there are many (or the cache is over its limit), keeping the
        keys in ``keep_first`` (the current corpus) before any others."""
        import numpy as np

        shards = self.shards()
        if len(shards) <= MAX_SHARDS and len(self.vectors) <= CACHE_LIMIT:
            return
        wanted = [key for key in dict.fromkeys(keep_first) if key in self.vectors]
        others = [key for key in self.vectors if key not in set(wanted)]
        keys = (wanted + others)[:CACHE_LIMIT]
        if not keys:
            return
        data = encode_shard(keys, np.stack([self.vectors[key] for key in keys]))
        merged = self.folder / f"part-{time.time_ns():020d}.npz"
        write_atomic(merged, data)
        for shard in shards:
            if shard != merged:
                with contextlib.suppress(OSError):
                    shard.unlink()

    def size_bytes(self) -> int:
        total = 0
        for shard in self.shards():
            with contextlib.suppress(OSError):
                total += shard.stat().st_size
        return total


#: Seconds of embedding between two checkpoints of the embedding cache.
CHECKPOINT_SECONDS = 20.0
#: Seconds between two progress lines when stderr is not a terminal.
PROGRESS_SECONDS = 5.0
EMBED_GROUP = 128  # texts per call to the model between progress reports


def index_root() -> Path:
    """The index's folder in the data folder: generations, the lexical index, the embedding cache."""
    return data_dir() / "index"


def cache_folder(root: Path, model_sha256: str, variant: str = "fp32") -> Path:
    suffix = "" if variant == "fp32" else f"-{variant}"
    return root / "cache" / f"{model_sha256[:16]}{suffix}"


def legacy_cache_path(root: Path, model_sha256: str, variant: str = "fp32") -> Path:
    """The single-file cache of earlier versions (read once, then merged into the shards)."""
    return cache_folder(root, model_sha256, variant).with_suffix(".npz")


class Progress:
    """Progress of a long embedding: a line redrawn in place on a terminal, else one line every
    :data:`PROGRESS_SECONDS` (so a log or a pipe shows the build is alive)."""

    def __init__(self, total: int, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and total > 0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.perf_counter()
        self.last = self.start

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        final = done >= self.total
        if self.tty:
            if final or now - self.last >= 0.2:
                end = "\n" if final else ""
                print(f"\rrulesjudge: {self._line(done, now)}", end=end, file=self.stream, flush=True)
                self.last = now
        elif final or now - self.last >= PROGRESS_SECONDS:
            print(f"rulesjudge: {self._line(done, now)}", file=self.stream, flush=True)
            self.last = now

    def _line(self, done: int, now: float) -> str:
        elapsed = now - self.start
        share = done / self.total if self.total else 1.0
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f", ~{(self.total - done) / rate:.0f} s left" if rate > 0 and done < self.total else ""
        return f"embedded {done:,}/{self.total:,} chunks ({share:.0%}), {elapsed:.0f} s{left}"


def embed_into_cache(texts: dict[str, str], embedder: Any, cache: EmbeddingCache, *, progress: bool,
                     checkpoint_seconds: float | None = None) -> None:
    """Embed ``texts`` (key -> text) into ``cache``, shortest first (batches pad less), reporting progress
    and writing a cache shard every ``checkpoint_seconds`` so a killed build keeps its work."""
    keys = sorted(texts, key=lambda key: (len(texts[key]), key))
    every = CHECKPOINT_SECONDS if checkpoint_seconds is None else checkpoint_seconds
    meter = Progress(len(keys), enabled=progress)
    last_checkpoint = time.perf_counter()
    for start in range(0, len(keys), EMBED_GROUP):
        group = keys[start:start + EMBED_GROUP]
        cache.add(group, embedder.encode([texts[key] for key in group], progress=False))
        meter.update(start + len(group))
        if time.perf_counter() - last_checkpoint >= every:
            cache.checkpoint()
            last_checkpoint = time.perf_counter()
    cache.checkpoint()
