"""The bundled MiniLM adapted to the rules' language: a LoRA adapter trained on pairs the corpus gives.

all-MiniLM-L6-v2 was trained on web text; it does not know that "trample" is about assigning excess
combat damage, or that a Treachery identity card named The Metamorph is about copying another identity.
The built-in corpus says so itself, in pairs this module reads off the records (never off the question
set ``indexer/questions.yaml``, which measures search):

* a glossary term or alias and its definition ("Trample" → "Glossary: Trample. A keyword ability …"),
  and the term and the definition each with the rule the entry cites (→ 702.19b);
* a rule that is only a title, or a section title, and each rule under it ("Trample" → 702.19a–g,
  "The Monarch" → 725.1–725.5);
* an example and the rule it illustrates (without the example);
* a Treachery identity card's name and its card note.

The adapter is a rank-8 LoRA delta on the query, key, value and attention-output projections of the
six layers (``W' = W + (alpha / rank) · B A``), trained with in-batch negatives (the multiple-negatives
ranking loss of sentence-transformers: each anchor must pick its own positive among the batch's), on
the CPU, one thread, fixed seeds — the same command on the same corpus gives the same bytes::

    python -m rulesjudge.indexer.adapt           # train; writes indexer/data/minilm-rules-lora.safetensors
    python -m rulesjudge.indexer.adapt --check   # does the shipped adapter fit the corpus's pairs?

Then regenerate the shipped embeddings (``python -m rulesjudge.indexer.shipped``): documents are
embedded by the adapted model. At load time :func:`merge` adds the delta into the loaded model's
weights (no extra cost per query; the ONNX query model is exported from the merged model). The
adapter's sha256 is part of the model identity the index manifest records, so another adapter rebuilds
the index. ``RULESJUDGE_ADAPTER=0`` uses the bundled model unchanged.

>>> from rulesjudge.corpus.records import Record
>>> rule = Record("cr@x/702.19", "cr", "x", "rule", "Trample", number="702.19",
...               children=("cr@x/702.19b",))
>>> sub = Record("cr@x/702.19b", "cr", "x", "subrule", "The controller of an attacking creature with "
...              "trample first assigns damage to the creature(s) blocking it.", number="702.19b",
...              parent="cr@x/702.19", examples=("A 5/5 trampler blocked by a 2/2 assigns 3 to the player.",))
>>> [(pair.kind, pair.anchor) for pair in training_pairs({r.id: r for r in (rule, sub)})]
[('title', 'Trample'), ('example', 'A 5/5 trampler blocked by a 2/2 assigns 3 to the player.')]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.records import Record

if TYPE_CHECKING:  # pragma: no cover
    import torch

ADAPTER_PATH = Path(__file__).with_name("data") / "minilm-rules-lora.safetensors"
ADAPTER_ENV = "RULESJUDGE_ADAPTER"
COMMAND = "python -m rulesjudge.indexer.adapt"
FORMAT = "rulesjudge-lora"
#: The projections adapted in each of the six layers (names inside the BertModel).
TARGETS = ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense")
_SEE = re.compile(r"\s*See (?:also )?rules? [\d.a-z, and]+\.?\s*$", re.IGNORECASE)
_CHILDREN_PER_TITLE = 12  # a section's first rules are enough to say what its title means


@dataclass(frozen=True)
class Pair:
    """A short text and the chunk text it should be near; ``kind`` says where the pair comes from."""

    kind: str
    anchor: str
    positive: str
    #: a text the anchor must NOT be near: a sibling of the positive (702.19c for 702.19b), so that the
    #: model learns to tell the right subrule from its neighbours, not only the right family
    negative: str = ""


@dataclass(frozen=True)
class TrainingSettings:
    rank: int = 8
    alpha: float = 16.0
    epochs: int = 1
    batch: int = 64
    learning_rate: float = 5e-4
    scale: float = 20.0  # cosine similarities × scale are the logits (sentence-transformers' default)
    anchor_tokens: int = 64
    positive_tokens: int = 96
    seed: int = 20260417

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


# --- pairs ---------------------------------------------------------------------------------------------


def training_pairs(records: Mapping[str, Record]) -> list[Pair]:
    """Every (anchor, positive) pair the records give, in a stable order (records sorted by id)."""
    from rulesjudge.indexer.chunks import make_chunk

    def chunk_text(record: Record) -> str:
        return make_chunk(record, records).dense_text

    heads: dict[str, int] = {}  # how many records with rules under them bear each title
    for record in records.values():
        if record.kind in {"section", "rule"} and record.children and _is_title(record):
            heads[_title(record).lower()] = heads.get(_title(record).lower(), 0) + 1
    pairs: list[Pair] = []
    for record_id in sorted(records):
        record = records[record_id]
        if record.kind == "glossary" and not record.obsolete:
            pairs.extend(_glossary_pairs(record, records, chunk_text))
        elif record.kind == "card-note":
            pairs.append(Pair("card", f"{record.title} ({record.role})" if record.role else record.title,
                              chunk_text(record)))
        elif record.kind in {"section", "rule"} and record.children and _is_title(record):
            title = _title(record)
            if heads[title.lower()] > 1:
                continue  # "General" heads sections 100, 800, 900 …: by itself it means nothing
            children = [records[c] for c in record.children if c in records]
            children = [c for c in children if c.kind in {"rule", "subrule"} and not _is_title(c)]
            pairs.extend(Pair("title", title, chunk_text(child)) for child in children[:_CHILDREN_PER_TITLE])
        if record.kind in {"rule", "subrule"} and record.examples:
            bare = chunk_text(replace(record, examples=()))
            negative = _sibling(record, records)
            pairs.extend(Pair("example", " ".join(example.split()), bare,
                              chunk_text(negative) if negative else "") for example in record.examples)
    return [pair for pair in pairs if pair.anchor.strip() and pair.positive.strip()]


def _title(record: Record) -> str:
    return record.title if record.kind == "section" else record.text.strip().rstrip(".")


def _sibling(record: Record, records: Mapping[str, Record]) -> Record | None:
    """The next rule under the same parent (the one before, for the last), when it says something."""
    parent = records.get(record.parent) if record.parent else None
    if parent is None:
        return None
    siblings = [records[c] for c in parent.children if c in records]
    siblings = [c for c in siblings if c.kind in {"rule", "subrule"} and not _is_title(c)]
    if record not in siblings or len(siblings) < 2:
        return None
    at = siblings.index(record)
    return siblings[at + 1] if at + 1 < len(siblings) else siblings[at - 1]


def _is_title(record: Record) -> bool:
    return record.kind == "section" or len(record.text.split()) <= 4


def _glossary_pairs(record: Record, records: Mapping[str, Record], chunk_text: Any) -> list[Pair]:
    pairs = [Pair("term", term, chunk_text(record)) for term in (record.title, *record.aliases) if term]
    definition = _SEE.sub("", " ".join(record.text.split())).strip()
    edition = f"{record.document}@{record.edition}/"
    targets = [records[ref.target] for ref in record.cross_refs
               if ref.target and ref.target.startswith(edition) and ref.target in records]
    for target in targets[:1]:
        if _is_title(target):  # "See rule 702.19" (Trample): its first rule that says something
            children = [records[c] for c in target.children if c in records]
            target = next((c for c in children if not _is_title(c)), target)
        sibling = _sibling(target, records)
        negative = chunk_text(sibling) if sibling else ""
        pairs.append(Pair("term-rule", record.title, chunk_text(target), negative))
        if len(definition.split()) >= 4:
            pairs.append(Pair("definition-rule", definition, chunk_text(target), negative))
    return pairs


def pairs_hash(pairs: Sequence[Pair]) -> str:
    digest = hashlib.sha256()
    for pair in pairs:
        for part in (pair.kind, pair.anchor, pair.positive):
            digest.update(part.encode("utf-8"))
            digest.update(b"\x00")
    return digest.hexdigest()


def batches(pairs: Sequence[Pair], size: int, rng: random.Random) -> list[list[Pair]]:
    """Shuffled batches in which no text appears twice: an in-batch negative must not be another
    correct answer ("Trample" → 702.19b and "Trample" → 702.19c in one batch).

    >>> pairs = [Pair("t", "a", "x"), Pair("t", "a", "y"), Pair("t", "b", "z"), Pair("t", "c", "x")]
    >>> [[(p.anchor, p.positive) for p in batch] for batch in batches(pairs, 2, random.Random(0))]
    [[('b', 'z'), ('a', 'x')], [('a', 'y'), ('c', 'x')]]
    """
    order = list(pairs)
    rng.shuffle(order)
    open_batches: list[tuple[list[Pair], set[str]]] = []
    for pair in order:
        texts = {pair.anchor, pair.positive, pair.negative} - {""}
        for batch, seen in open_batches:
            if len(batch) < size and not texts & seen:
                batch.append(pair)
                seen.update(texts)
                break
        else:
            open_batches.append(([pair], set(texts)))
    return [batch for batch, _ in open_batches if len(batch) > 1]


# --- the adapter file ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adapter:
    """LoRA factors per adapted module (``name`` → (A: rank × in, B: out × rank)) and metadata."""

    factors: dict[str, tuple[Any, Any]]
    meta: dict[str, Any]
    sha256: str

    @property
    def scale(self) -> float:
        return float(self.meta["alpha"]) / float(self.meta["rank"])

    @property
    def base_sha256(self) -> str:
        return str(self.meta.get("base_model_sha256", ""))


def adapter_enabled() -> bool:
    return os.environ.get(ADAPTER_ENV, "").strip().lower() not in {"0", "false", "no", "off"}


def read_adapter(path: Path = ADAPTER_PATH) -> Adapter | None:
    """The adapter file, or None when it is absent. A damaged file is an :class:`InputError`."""
    if not path.is_file():
        return None
    data = path.read_bytes()
    try:
        from safetensors import safe_open
        from safetensors.numpy import load

        tensors = load(data)
        with safe_open(str(path), framework="numpy") as handle:
            meta = json.loads((handle.metadata() or {}).get("rulesjudge", "{}"))
    except Exception as error:
        raise InputError(path, f"unreadable LoRA adapter ({type(error).__name__}); train it again with "
                         f"{COMMAND}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError(path, "not a rulesjudge LoRA adapter", key="format")
    factors: dict[str, tuple[Any, Any]] = {}
    for name in sorted({key.rsplit(".", 1)[0] for key in tensors}):
        factors[name] = (tensors[f"{name}.lora_A"], tensors[f"{name}.lora_B"])
    return Adapter(factors, meta, hashlib.sha256(data).hexdigest())


def write_adapter(path: Path, factors: Mapping[str, tuple[Any, Any]], meta: Mapping[str, Any]) -> str:
    """Write the factors (float16) and metadata atomically; returns the file's sha256."""
    import numpy as np
    from safetensors.numpy import save

    from rulesjudge.corpus.files import write_atomic

    tensors: dict[str, Any] = {}
    for name in sorted(factors):
        a, b = factors[name]
        tensors[f"{name}.lora_A"] = np.ascontiguousarray(np.asarray(a, dtype=np.float16))
        tensors[f"{name}.lora_B"] = np.ascontiguousarray(np.asarray(b, dtype=np.float16))
    payload = save(tensors, metadata={"rulesjudge": json.dumps({**meta, "format": FORMAT}, sort_keys=True)})
    write_atomic(path, payload)
    return hashlib.sha256(payload).hexdigest()


def merge(transformer: Any, adapter: Adapter) -> None:
    """Add the adapter's delta into the linear layers of a loaded BertModel, in place."""
    import torch

    modules = dict(transformer.named_modules())
    with torch.no_grad():
        for name, (a, b) in adapter.factors.items():
            linear = modules.get(name)
            if linear is None or not isinstance(linear, torch.nn.Linear):
                raise InputError(ADAPTER_PATH, f"the adapter names {name}, which the model lacks", key=name)
            delta = torch.from_numpy(b.astype("float32")) @ torch.from_numpy(a.astype("float32"))
            linear.weight += adapter.scale * delta.to(linear.weight.dtype)


# --- training ------------------------------------------------------------------------------------------


def _lora_layer(base: Any, rank: int, alpha: float, generator: Any) -> Any:
    import math

    import torch

    class LoRALinear(torch.nn.Module):
        """``base(x) + scale · x Aᵀ Bᵀ``; B starts at zero, so training starts from the bundled model."""

        def __init__(self) -> None:
            super().__init__()
            self.base = base
            self.scale = alpha / rank
            a = torch.empty(rank, base.in_features)
            bound = 1.0 / math.sqrt(base.in_features)
            a.uniform_(-bound, bound, generator=generator)
            self.lora_a = torch.nn.Parameter(a)
            self.lora_b = torch.nn.Parameter(torch.zeros(base.out_features, rank))

        def forward(self, x: Any) -> Any:
            return self.base(x) + (x @ self.lora_a.T @ self.lora_b.T) * self.scale

    return LoRALinear()


def train(pairs: Sequence[Pair], model: Any, settings: TrainingSettings = TrainingSettings(),
          log: Any = None) -> dict[str, tuple[Any, Any]]:
    """Train LoRA factors on ``pairs`` for the loaded sentence-transformers ``model`` (left unchanged);
    returns ``name`` → (A, B) as float32 numpy arrays."""
    import torch

    torch.manual_seed(settings.seed)
    torch.set_num_threads(1)  # one thread: the same bytes on every run
    torch.use_deterministic_algorithms(True)
    generator = torch.Generator().manual_seed(settings.seed)
    transformer = model[0].auto_model
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    originals: dict[str, Any] = {}
    layers: dict[str, Any] = {}
    for name, module in list(transformer.named_modules()):
        if name.endswith(TARGETS) and isinstance(module, torch.nn.Linear):
            parent_name, _, child = name.rpartition(".")
            parent = transformer.get_submodule(parent_name)
            layers[name] = _lora_layer(module, settings.rank, settings.alpha, generator)
            originals[name] = module
            setattr(parent, child, layers[name])
    try:
        parameters = [p for layer in layers.values() for p in (layer.lora_a, layer.lora_b)]
        optimiser = torch.optim.AdamW(parameters, lr=settings.learning_rate, weight_decay=0.0)
        rng = random.Random(settings.seed)
        plan = [batch for _ in range(settings.epochs) for batch in batches(pairs, settings.batch, rng)]
        model.train()
        started = time.perf_counter()
        for step, batch in enumerate(plan, start=1):
            anchors = _embed(model, [p.anchor for p in batch], settings.anchor_tokens)
            candidates = [p.positive for p in batch] + [p.negative for p in batch if p.negative]
            positives = _embed(model, candidates, settings.positive_tokens)
            logits = anchors @ positives.T * settings.scale  # column i is anchor i's positive
            loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch)))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if log is not None and (step % 10 == 0 or step == len(plan)):
                log(f"step {step}/{len(plan)} loss {loss.item():.4f} ({time.perf_counter() - started:.0f} s)")
        return {name: (layer.lora_a.detach().numpy().copy(), layer.lora_b.detach().numpy().copy())
                for name, layer in layers.items()}
    finally:
        model.eval()
        for name, module in originals.items():
            parent_name, _, child = name.rpartition(".")
            setattr(transformer.get_submodule(parent_name), child, module)


def _embed(model: Any, texts: list[str], max_tokens: int) -> torch.Tensor:
    import torch

    tokenizer = model.tokenizer
    features = tokenizer(texts, padding=True, truncation=True, max_length=max_tokens, return_tensors="pt")
    output = model({name: value for name, value in features.items()})["sentence_embedding"]
    return torch.nn.functional.normalize(output, p=2, dim=1)


# --- the command ---------------------------------------------------------------------------------------


def builtin_pairs() -> list[Pair]:
    from rulesjudge.corpus.store import load_corpus

    return training_pairs(load_corpus(releases=[], include_user_releases=False).records)


def stale_reason(adapter: Adapter | None, pairs: Sequence[Pair], base_sha256: str) -> str | None:
    if adapter is None:
        return f"{ADAPTER_PATH} is missing"
    if adapter.base_sha256 != base_sha256:
        return "the adapter was trained for another model"
    if adapter.meta.get("pairs_sha256") != pairs_hash(pairs):
        return "the corpus's training pairs changed"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the adapter is stale")
    parser.add_argument("--epochs", type=int, default=TrainingSettings.epochs)
    parser.add_argument("--output", type=Path, default=ADAPTER_PATH)
    args = parser.parse_args(argv)
    from rulesjudge.indexer.embed import bundled_model_path, load_model, model_hash

    base = bundled_model_path()
    base_sha256 = model_hash(base)
    pairs = builtin_pairs()
    if args.check:
        reason = stale_reason(read_adapter(args.output), pairs, base_sha256)
        print(f"stale: {reason}" if reason else f"up to date ({len(pairs)} pairs)")
        return 1 if reason else 0
    settings = TrainingSettings(epochs=args.epochs)
    kinds: dict[str, int] = {}
    for pair in pairs:
        kinds[pair.kind] = kinds.get(pair.kind, 0) + 1
    print(f"{len(pairs)} pairs: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())), file=sys.stderr)
    model = load_model(base)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    factors = train(pairs, model, settings, log)
    meta = {"base_model_sha256": base_sha256, "pairs_sha256": pairs_hash(pairs), "pairs": len(pairs),
            "targets": list(TARGETS), "command": COMMAND, **settings.to_json()}
    digest = write_adapter(args.output, factors, meta)
    print(f"wrote {args.output} ({args.output.stat().st_size:,} bytes, sha256 {digest[:16]}…); now run "
          "python -m rulesjudge.indexer.shipped", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
