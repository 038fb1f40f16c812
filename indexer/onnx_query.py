"""Query vectors without torch: the model's transformer exported once to ONNX and run by onnxruntime.

Documents are embedded by sentence-transformers (:mod:`indexer.embed`); a question is one short
sequence, where torch's per-call overhead dominates (10.5 ms a query here, 4.5 ms with onnxruntime on
one thread, measured) and importing torch costs a fresh process 6 s. The export happens once per model
(about 1 s, while the sentence-transformers model is loaded anyway), is checked against
sentence-transformers on probe sentences, and is stored beside the index, keyed by the weights' hash.

Only models made of a Transformer, mean pooling and normalisation (all-MiniLM-L6-v2's three modules)
are exported; any other model keeps the torch path, as does any failure here.

The export is checksummed like every file of the index (issue 24): once it agrees with
sentence-transformers, its sha256 is recorded beside it (``query-<hash>.onnx.sha256.json``, written
atomically); each process opens the file once, checks its bytes against that record and has onnxruntime
load that open file (:func:`verified`). An export whose bytes changed -- garbled, or another valid model
of the same size -- or one without a record is exported again, never served.

>>> encoder = OnnxQueryEncoder(Path("minilm.onnx"), Path("model"), 256)  # doctest: +SKIP
>>> encoder.encode("who becomes the monarch?").shape  # doctest: +SKIP
(1, 384)
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.common.files import write_atomic
from rulesjudge.indexer import onnx_bert
from rulesjudge.indexer.onnx_bert import ExportRefused

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
#: Probe sentences for the export check: short and long, a rule number, typography.
PROBES = (
    "who becomes the monarch if the monarch leaves the game?",
    "809.3c",
    "A player can attack only an opponent seated immediately next to them, a planeswalker controlled by "
    "a player seated immediately next to them, or a battle protected by a player seated immediately next "
    "to them. Example: At the start of an Emperor game, neither emperor can attack any opponents.",
    "The \u00c6therist\u2019s \u201cunveil\u201d ability",
)
#: Smallest cosine between an ONNX and a sentence-transformers probe vector for the export to be used.
MIN_COSINE = 0.9999


class ChecksumMismatch(Exception):
    """An export whose bytes are not those recorded when it was checked (or with no record)."""


def manifest_path(target: Path) -> Path:
    """Where the sha256 of the export at ``target`` is recorded."""
    return target.with_name(f"{target.name}.sha256.json")


def sha256_of(data: bytes) -> str:
    """The hex sha256 of ``data``.

    >>> sha256_of(b"")[:12]
    'e3b0c44298fc'
    """
    import hashlib

    return hashlib.sha256(data).hexdigest()


def checksum_of(target: Path) -> str | None:
    """The sha256 recorded for the export at ``target`` (None: no readable record)."""
    try:
        data = json.loads(manifest_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    digest = data.get("sha256") if isinstance(data, dict) and data.get("file") == target.name else None
    return digest if isinstance(digest, str) else None


def record_checksum(target: Path, data: bytes) -> None:
    """Record ``data``'s sha256 as the export's (after it was checked against sentence-transformers)."""
    write_atomic(manifest_path(target), json.dumps({"file": target.name, "sha256": sha256_of(data)}))


@contextlib.contextmanager
def verified(target: Path) -> Iterator[str | bytes]:
    """The export, once its bytes match the recorded sha256 (else ChecksumMismatch), as onnxruntime is to
    load it: the path of the very file that was hashed (``/proc/self/fd/N``: the open file, whatever its
    name points at meanwhile) where the system has one, else its bytes. A path, not bytes: onnxruntime
    given the bytes keeps a second copy of the weights (+86 MB resident in the server, measured)."""
    import hashlib

    expected = checksum_of(target)
    if expected is None:
        raise ChecksumMismatch("no checksum recorded for it")
    with target.open("rb") as handle:
        if hashlib.file_digest(handle, "sha256").hexdigest() != expected:
            raise ChecksumMismatch("its bytes don't match the checksum recorded when it was exported")
        opened = Path(f"/proc/self/fd/{handle.fileno()}")
        if opened.exists():
            yield str(opened)
        else:  # no /proc: the bytes themselves
            handle.seek(0)
            yield handle.read()


def onnx_path(folder: Path, model_sha256: str) -> Path:
    """Where the exported query model of the weights ``model_sha256`` lives."""
    return folder / f"query-{model_sha256[:16]}.onnx"


def max_seq_length(model_folder: Path) -> int:
    """The model's ``max_seq_length`` (sentence_bert_config.json; 256 for all-MiniLM-L6-v2)."""
    try:
        config = json.loads((model_folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        return int(config.get("max_seq_length") or 256)
    except (OSError, ValueError, TypeError):
        return 256


def check_architecture(model: Any) -> None:
    """Refuse anything but Transformer → mean Pooling → Normalize, the pipeline :meth:`encode` mirrors."""
    names = [type(module).__name__ for module in model]
    if names != ["Transformer", "Pooling", "Normalize"]:
        raise ExportRefused(f"modules {names}")
    pooling = model[1]
    mode = getattr(pooling, "pooling_mode", None) or (
        "mean" if getattr(pooling, "pooling_mode_mean_tokens", False) else None
    )
    if mode not in ("mean", "mean_tokens") or getattr(pooling, "include_prompt", True) is False:
        raise ExportRefused(f"pooling {mode!r}")


def export(model: Any, target: Path) -> Path:
    """Export the transformer of the loaded sentence-transformers ``model`` to ``target`` (atomic)."""
    import warnings

    import torch

    check_architecture(model)
    transformer = model[0].auto_model.eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    sample = model.tokenizer(["monarch", "who is the monarch now?"], padding=True, return_tensors="pt")
    args = tuple(sample[name] for name in INPUTS)
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "last_hidden_state")}
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with warnings.catch_warnings(), torch.inference_mode(False), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(LastHiddenState(transformer), args, str(temporary), input_names=list(INPUTS),
                              output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=17,
                              dynamo=False)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return target


class OnnxQueryEncoder:
    """One normalised mean-pooled vector per question, from the exported transformer."""

    def __init__(self, path: Path, model_folder: Path, max_length: int,
                 data: bytes | str | None = None) -> None:
        """``data``: the model's bytes, or the path to load it from (:func:`verified`), else ``path``."""
        import onnxruntime
        from tokenizers import Tokenizer

        self.path = path
        self.tokenizer = Tokenizer.from_file(str(model_folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # tokenizer.json pads to 128; one question needs no padding
        self.tokenizer.enable_truncation(max_length)
        options = onnxruntime.SessionOptions()
        # One thread: a single short sequence gains nothing from a second, and a shared 2-core machine
        # makes the hand-off cost more than the work (the same finding as for torch).
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        model = data if data is not None else str(path)
        self.session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])

    def encode(self, text: str) -> np.ndarray:
        import numpy as np

        encoding = self.tokenizer.encode(text)
        feed = {
            "input_ids": np.array([encoding.ids], dtype=np.int64),
            "attention_mask": np.array([encoding.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
        }
        hidden = self.session.run(None, feed)[0]  # (1, tokens, dim); no padding: every token counts
        vector = hidden.mean(axis=1)
        vector /= max(float(np.linalg.norm(vector)), 1e-12)
        return np.ascontiguousarray(vector, dtype=np.float32)


def agreement(encoder: OnnxQueryEncoder, model: Any) -> float:
    """The smallest cosine between the encoder's and sentence-transformers' vectors on :data:`PROBES`."""
    reference = model.encode(list(PROBES), convert_to_numpy=True, normalize_embeddings=True)
    return agreement_with(encoder, reference)


def agreement_with(encoder: OnnxQueryEncoder, reference: np.ndarray) -> float:
    """The smallest cosine between the encoder's vectors of :data:`PROBES` and ``reference`` (one row per
    probe, by sentence-transformers; stored rows may be float16, so they are normalised again)."""
    import numpy as np

    reference = np.asarray(reference, dtype=np.float32)
    reference = reference / np.linalg.norm(reference, axis=1, keepdims=True)
    ours = np.vstack([encoder.encode(text) for text in PROBES])
    return float((reference * ours).sum(axis=1).min())


def build_without_torch(model_folder: Path, target: Path, max_length: int,
                        reference: np.ndarray) -> OnnxQueryEncoder:
    """The query model written from the weights by :mod:`indexer.onnx_bert` (no torch), kept at ``target``
    with its checksum once its vectors of :data:`PROBES` agree with ``reference`` — sentence-transformers'
    own, shipped with the package. ExportRefused when the model is not a BERT the recipe covers or the
    vectors disagree (the torch export is then the way)."""
    data = onnx_bert.build_bytes(model_folder)
    encoder = OnnxQueryEncoder(target, model_folder, max_length, data)
    cosine = agreement_with(encoder, reference)
    if cosine < MIN_COSINE:
        raise ExportRefused(f"the graph written from the weights disagrees with the model ({cosine:.5f})")
    write_atomic(target, data)
    record_checksum(target, data)
    del encoder, data  # loaded from the file instead: a session made from bytes holds the weights twice
    with verified(target) as checked:
        return OnnxQueryEncoder(target, model_folder, max_length, checked)
