"""The top layers of the embedding model fine-tuned on the training questions and the corpus's own pairs
(docs/search.md, "Search round 7"; measured, not wired into the product).

``python -m rulesjudge.indexer.finetune --out FOLDER`` writes a sentence-transformers model folder whose
lower layers are the bundled model's and whose top ``--layers`` are trained; ``RULESJUDGE_MODEL=FOLDER``
then makes search use it (the index re-embeds under the new weights' hash), which is how it was measured.

The recipe (the prototype's of 2026-11-26): the frozen lower layers' hidden states of every training text
are computed once; then the top layers are trained with the multiple-negatives ranking loss on mean-pooled,
normalised vectors (each question against its answer and every other answer of the batch, scale 20),
batch 64, learning rate 5e-5 with 10 % linear warm-up and linear decay, one epoch, a fixed seed.

The pairs (:func:`question_pairs`, :func:`corpus_pairs`): each training question with its first gold
record's chunk text (as the model reads it in the index); a glossary term with its entry; a rule's
example with the rule. The eval question files are never read.

>>> batches(5, 2, seed=0)
[[2, 4], [3, 0], [1]]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import Record
from rulesjudge.corpus.store import load_corpus
from rulesjudge.indexer.chunks import Chunk, make_chunks
from rulesjudge.indexer.embed import load_model, model_path
from rulesjudge.indexer.evaluate import Question, is_card_id
from rulesjudge.indexer.train_ranker import TRAINING_DIR, load_training

Pair = tuple[str, str]
#: the recipe (docs/search.md): scale of the cosine logits, batch, learning rate, warm-up share, seed
SCALE = 20.0
BATCH = 64
LEARNING_RATE = 5e-5
WARMUP = 0.1
SEED = 13
#: the bundled model's word-piece limit (all-MiniLM-L6-v2: 256)
MAX_TOKENS = 256


def question_pairs(questions: Sequence[Question], chunks: Mapping[str, Chunk]) -> list[Pair]:
    """(question, the dense text of its first gold record that is in the corpus) per question; a question
    with no such gold (a card ruling only) gives none.

    >>> from rulesjudge.indexer.chunks import Chunk
    >>> chunk = Chunk("cr@x/104.3a", "Ending the Game. A player can concede the game at any time.", "", ())
    >>> question_pairs([Question("can I scoop whenever", ("cr@x/104.3a",), "concepts")], {chunk.id: chunk})
    [('can I scoop whenever', 'Ending the Game. A player can concede the game at any time.')]
    """
    pairs = []
    for question in questions:
        gold = next((g for g in question.gold if not is_card_id(g) and g in chunks), None)
        if gold is not None:
            pairs.append((question.q, chunks[gold].dense_text))
    return pairs


def corpus_pairs(records: Mapping[str, Record], chunks: Mapping[str, Chunk]) -> list[Pair]:
    """The corpus's own pairs: a glossary term with its entry, a rule's example with the rule's text.

    >>> from rulesjudge.indexer.chunks import make_chunks
    >>> entry = Record("cr@x/glossary/monarch", "cr", "x", "glossary", "A designation a player can have.",
    ...                title="Monarch")
    >>> records = {entry.id: entry}
    >>> corpus_pairs(records, {c.id: c for c in make_chunks(records)})[0][0]
    'Monarch'
    """
    pairs = []
    for record_id, record in records.items():
        chunk = chunks.get(record_id)
        if chunk is None:
            continue
        if record.kind == "glossary" and record.title:
            pairs.append((record.title, chunk.dense_text))
        for example in record.examples:
            text = example.removeprefix("Example:").strip()
            if len(text.split()) >= 5:
                pairs.append((text, chunk.dense_text))
    return pairs


def batches(size: int, batch: int, seed: int = SEED) -> list[list[int]]:
    """The pairs' positions shuffled by ``seed`` and cut into batches (the last may be short)."""
    import numpy as np

    order = np.random.default_rng(seed).permutation(size).tolist()
    return [order[i:i + batch] for i in range(0, size, batch)]


def learning_rate(step: int, steps: int, peak: float = LEARNING_RATE, warmup: float = WARMUP) -> float:
    """Linear warm-up to ``peak`` over the first ``warmup`` share of the steps, then linear decay to 0.

    >>> [round(learning_rate(s, 10, 1.0), 2) for s in (0, 1, 5, 9)]
    [1.0, 1.0, 0.56, 0.11]
    """
    rise = max(1, math.ceil(steps * warmup))
    if step < rise:
        return peak * (step + 1) / rise
    return peak * max(0.0, (steps - step) / max(1, steps - rise))


class TopLayers:
    """The bundled model split at ``frozen`` layers: the lower part run once per text (no gradients),
    the top part trained."""

    def __init__(self, model: Any, frozen: int) -> None:
        self.model = model
        self.bert = model[0].auto_model
        self.tokenizer = model.tokenizer
        self.frozen = frozen
        layers = self.bert.encoder.layer
        if not 0 <= frozen < len(layers):
            raise InputError(None, f"the model has {len(layers)} layers: freeze 0 to {len(layers) - 1}",
                             key="layers")
        self.top = layers[frozen:]
        for parameter in self.bert.parameters():
            parameter.requires_grad = False
        for parameter in self.top.parameters():
            parameter.requires_grad = True

    def lower_states(self, texts: Sequence[str], batch: int = 32) -> list[Any]:
        """Each text's hidden states after the frozen layers (tokens × width, fp16 to halve the memory)."""
        import torch

        # batches of similar lengths: rule chunks run from 10 to 256 word pieces, and padding is work
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        states: list[Any] = [None] * len(texts)
        with torch.inference_mode():
            for start in range(0, len(texts), batch):
                chosen = order[start:start + batch]
                encoded = self.tokenizer([texts[i] for i in chosen], padding=True, truncation=True,
                                         max_length=MAX_TOKENS, return_tensors="pt")
                mask = encoded["attention_mask"]
                hidden = self.bert.embeddings(input_ids=encoded["input_ids"],
                                              token_type_ids=encoded.get("token_type_ids"))
                for layer in self.bert.encoder.layer[:self.frozen]:
                    hidden = _run(layer, hidden, mask)
                for i, row, length in zip(chosen, hidden, mask.sum(dim=1).tolist(), strict=True):
                    states[i] = row[:length].to(torch.float16).clone()
        return states

    def encode(self, states: Sequence[Any]) -> Any:
        """Mean-pooled, normalised vectors of texts from their lower states, through the top layers."""
        import torch

        width = max(len(s) for s in states)
        hidden = torch.zeros(len(states), width, states[0].shape[1])
        mask = torch.zeros(len(states), width, dtype=torch.long)
        for i, state in enumerate(states):
            hidden[i, :len(state)] = state.float()
            mask[i, :len(state)] = 1
        for layer in self.top:
            hidden = _run(layer, hidden, mask)
        weights = mask.unsqueeze(-1).float()
        pooled = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, p=2, dim=1)


def _run(layer: Any, hidden: Any, mask: Any) -> Any:
    """One BERT layer with padding masked (an additive mask, as the eager attention reads it)."""
    import torch

    additive = (1.0 - mask[:, None, None, :].to(hidden.dtype)) * torch.finfo(hidden.dtype).min
    out = layer(hidden, attention_mask=additive)
    return out[0] if isinstance(out, tuple) else out


def train(model: Any, pairs: Sequence[Pair], layers: int = 2, *, seed: int = SEED, batch: int = BATCH,
          log: Any = None) -> dict[str, float]:
    """Train the top ``layers`` of ``model`` (a SentenceTransformer, changed in place) on ``pairs``;
    returns the timings and the mean loss."""
    import torch

    torch.manual_seed(seed)
    depth = len(model[0].auto_model.encoder.layer)
    split = TopLayers(model, depth - layers)
    model.train()
    started = time.process_time()
    anchors = split.lower_states([a for a, _ in pairs])
    positives_of: dict[str, Any] = {}
    unique = sorted({p for _, p in pairs})
    for text, state in zip(unique, split.lower_states(unique), strict=True):
        positives_of[text] = state
    cached = time.process_time() - started
    optimiser = torch.optim.AdamW([p for p in split.top.parameters() if p.requires_grad], lr=LEARNING_RATE)
    plan = batches(len(pairs), batch, seed)
    losses = []
    for step, chunk in enumerate(plan):
        for group in optimiser.param_groups:
            group["lr"] = learning_rate(step, len(plan))
        # one positive per distinct text: two questions of one answer must not be each other's negative
        texts = list(dict.fromkeys(pairs[i][1] for i in chunk))
        column = {text: n for n, text in enumerate(texts)}
        queries = split.encode([anchors[i] for i in chunk])
        answers = split.encode([positives_of[t] for t in texts])
        logits = SCALE * queries @ answers.T
        target = torch.tensor([column[pairs[i][1]] for i in chunk])
        loss = torch.nn.functional.cross_entropy(logits, target)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(float(loss.detach()))
        if log is not None and (step % 10 == 0 or step == len(plan) - 1):
            spent = time.process_time() - started
            log(f"step {step + 1}/{len(plan)} loss {losses[-1]:.3f} ({spent:.0f} s CPU)")
    model.eval()
    return {"cache_cpu_s": cached, "train_cpu_s": time.process_time() - started - cached,
            "steps": len(plan), "mean_loss": sum(losses) / len(losses), "pairs": len(pairs)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulesjudge.indexer.finetune",
                                     description="fine-tune the embedding model's top layers (measured, "
                                                 "not wired: RULESJUDGE_MODEL=FOLDER to try it)")
    parser.add_argument("--out", required=True, help="model folder to write")
    parser.add_argument("--layers", type=int, default=2, help="how many top layers to train (default 2)")
    parser.add_argument("--training", default=None, help="folder of training questions (default "
                                                         "indexer/training)")
    parser.add_argument("--no-corpus-pairs", action="store_true", help="the training questions only")
    parser.add_argument("--limit", type=int, default=0, help="at most this many pairs (a seeded sample)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        questions = load_training(Path(args.training) if args.training else TRAINING_DIR)
        if not questions:
            raise InputError(Path(args.training or TRAINING_DIR), "no training questions (*.yaml) there",
                             key="training")
        corpus = load_corpus(releases=[], include_user_releases=False)
        records = corpus.records
        chunks = {c.id: c for c in make_chunks(records)}
        pairs = question_pairs(questions, chunks)
        if not args.no_corpus_pairs:
            pairs += corpus_pairs(records, chunks)
        if args.limit and len(pairs) > args.limit:
            keep = sorted(batches(len(pairs), args.limit)[0])
            pairs = [pairs[i] for i in keep]
        import torch

        torch.set_num_threads(args.threads)
        model = load_model(model_path())
        print(f"{len(pairs)} pairs ({len(questions)} training questions)", flush=True)
        figures = train(model, pairs, args.layers, log=lambda line: print(line, flush=True))
        model.save(args.out)
    except InputError as error:
        print(f"rulesjudge: {error}", file=sys.stderr)
        return 2
    print(" ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
