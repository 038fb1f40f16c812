"""Training the learned reranking stage (:mod:`indexer.rerank`) on the dev halves of the question sets
and the training questions.

``python -m rulesjudge.indexer.train_ranker [--out FILE] [--folds 5] [--data dev+training]`` runs every
dev-half question of ``indexer/questions*.yaml`` and every question of ``indexer/training/*.yaml``
(:func:`load_training`: written for training only, never scored) through search up to the stage (the
built-in corpus, no reranking),
takes the feature vectors of its top :data:`~indexer.rerank.TOP_N` fused candidates, and fits a **pairwise
logistic** model (RankNet with a linear scorer): for each question, every (answer, other candidate) pair
should score the answer higher; each question weighs the same however many pairs it has. The weight of
the fused score is not regularised and every other weight is pulled to zero by an L2 penalty ``λ``, so a
very large ``λ`` gives back today's order. ``λ`` is chosen by k-fold cross-validation over the dev
questions (five folds, three fold assignments of fixed seeds; the training questions are in every
training fold and never held out), scoring each held-out fold the way
``rulesjudge eval`` does (the reranked list folded, the first gold's rank): the best all-groups MRR among
the λ where no group falls (:func:`choose`); the test halves are never read. The fit is Newton's method on a
convex loss from zero: the same questions give the same file, byte for byte.

>>> import numpy as np
>>> diffs = np.array([[1.0, 0.0], [0.0, 1.0]])
>>> fit(diffs, np.ones(2), lam=1e9, free=0).round(3).tolist()[1]
0.0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import write_atomic
from rulesjudge.corpus.store import load_corpus
from rulesjudge.indexer.evaluate import (
    AREAS,
    DEPTH,
    Metrics,
    Question,
    applicable,
    first_rank,
    gold_family,
    load_questions,
    read_question_set,
)
from rulesjudge.indexer.expansion import ENV as EXPANSION_ENV
from rulesjudge.indexer.expansion import TRAINING_DIR, Mode
from rulesjudge.indexer.rerank import FEATURES, RANKER_FORMAT, TOP_N, TRAINED_PATH, Ranker, permute
from rulesjudge.indexer.search import Filters, Searcher, parse_query

LAMBDAS = (0.1, 1.0, 3.0, 10.0, 30.0, 100.0, 1000.0)
#: cross-validation is repeated over this many fold assignments (a fixed seed each): with ~75 questions a
#: fold, one assignment's MRR moves by ±0.005 from the split alone
REPEATS = 3
_NO_FILTERS = Filters()
#: what the model learns from: the dev halves (cross-validated), the dev halves and the training
#: questions (these in every training fold), or the training questions alone (every dev question held out)
DATA_CHOICES = ("dev", "dev+training", "training")
TRAINING_GROUP = "training"
#: a training question's share of the pairwise loss against a dev question's: round 7's choice by the dev
#: CV rule (0.1 of 1, 0.3, 0.1; at 1 the written-from-the-rules questions pull every group's CV down)
TRAINING_WEIGHT = 0.1
#: the areas a training file may name: its own coarser ones (the question writers' brief) and the eval's
TRAINING_AREAS = ("general", "variants", "cards", *AREAS)


def load_training(directory: Path = TRAINING_DIR) -> list[Question]:
    """Every question of ``directory/*.yaml`` (the question-set format; extra keys such as ``why`` are
    read past), in file-name order, split ``train`` and group ``training``: none of them is ever scored.
    No folder: none.

    >>> load_training(Path("/nonexistent"))
    []
    """
    if not directory.is_dir():
        return []
    return [replace(question, split="train")
            for path in sorted(directory.glob("*.yaml"))
            for question in read_question_set(path, TRAINING_GROUP, TRAINING_AREAS, source_required=False)]


@dataclass
class Sample:
    """One dev question as the stage sees it: its fused ranking, its top candidates' features and which
    of them answer it."""

    question: Question
    fused: list[tuple[str, float]]
    rows: np.ndarray  # (top n, features)
    labels: np.ndarray  # 1.0 for a candidate that answers (or points at an answer), else 0.0
    shown: np.ndarray  # False for a heading (folding leaves it out: it is never shown)
    defining: frozenset[str]
    family: frozenset[str]
    #: how much the question's pairs count (1: as much as a dev question)
    weight: float = 1.0


def collect(searcher: Searcher, questions: Sequence[Question], top_n: int = TOP_N,
            weight: float = 1.0) -> list[Sample]:
    """Each question's fused ranking and features (the searcher's own reranking is not applied)."""
    samples = []
    for question in questions:
        if parse_query(question.q).refs:
            continue  # a rule number written in it: the exact stage answers first, whatever the ranking
        reading = searcher.card_stage.read(question.q)
        fused, context = searcher.fused(reading.text, _NO_FILTERS, DEPTH, reading)
        head = fused[:top_n]
        features = searcher.features.matrix(head, context)
        family = frozenset(gold_family(searcher, question.rule_gold))
        labels = [float(rid in family or searcher.fold_target(rid) in family) for rid, _ in head]
        shown = [not searcher.is_heading(rid) for rid, _ in head]
        samples.append(Sample(question, fused, np.array(features, dtype=np.float64).reshape(len(head), -1),
                              np.array(labels), np.array(shown), frozenset(searcher.defining(reading.text)),
                              family, weight))
    return samples


def pairs(samples: Sequence[Sample], mean: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(answer − other) differences of standardised features, and each pair's weight (1 / the
    question's pairs: every question counts once)."""
    diffs, weights = [], []
    for sample in samples:
        rows = (sample.rows - mean) / scale
        good = np.flatnonzero((sample.labels > 0) & sample.shown)
        bad = np.flatnonzero((sample.labels == 0) & sample.shown)
        if not len(good) or not len(bad):
            continue
        block = (rows[good][:, None, :] - rows[bad][None, :, :]).reshape(-1, rows.shape[1])
        diffs.append(block)
        weights.append(np.full(len(block), sample.weight / len(block)))
    if not diffs:
        return np.zeros((0, len(mean))), np.zeros(0)
    return np.concatenate(diffs), np.concatenate(weights)


def fit(diffs: np.ndarray, weights: np.ndarray, lam: float, free: int = 0, steps: int = 50) -> np.ndarray:
    """Minimise ``Σ weight · log(1 + exp(−w·diff)) + λ/2 · |w|²`` (the ``free`` weight unpenalised) by
    Newton's method from zero."""
    size = diffs.shape[1]
    penalty = np.full(size, lam)
    penalty[free] = 1e-6
    w = np.zeros(size)
    for _ in range(steps):
        margin = diffs @ w
        p = 1.0 / (1.0 + np.exp(np.clip(margin, -50, 50)))  # the chance the pair is ordered wrong
        gradient = -(diffs * (weights * p)[:, None]).sum(axis=0) + penalty * w
        curvature = weights * p * (1.0 - p)
        hessian = (diffs * curvature[:, None]).T @ diffs + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def standardiser(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray]:
    rows = np.concatenate([s.rows for s in samples])
    scale = rows.std(axis=0)
    return rows.mean(axis=0), np.where(scale > 1e-9, scale, 1.0)


def train(samples: Sequence[Sample], lam: float) -> np.ndarray:
    """The weights over the raw features (standardisation folded in; the mean is a per-question constant
    and drops out of any order)."""
    mean, scale = standardiser(samples)
    diffs, weights = pairs(samples, mean, scale)
    return fit(diffs, weights, lam, free=FEATURES.index("fused")) / scale


def rank_of(searcher: Searcher, sample: Sample, weights: np.ndarray | None) -> int | None:
    """The first gold's rank after reranking (``weights`` None: today's order) and folding."""
    fused = sample.fused
    if weights is not None and len(sample.rows):
        scores = sample.rows @ weights
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        fused = permute(fused, order)
    folded = searcher.fold(fused, _NO_FILTERS, sample.defining)[:DEPTH]
    return first_rank([(rid, *related) for rid, _, related in folded], set(sample.family))


def cross_validate(searcher: Searcher, samples: Sequence[Sample], lambdas: Sequence[float],
                   folds: int = 5, repeats: int = REPEATS, extra: Sequence[Sample] = (),
                   use_dev: bool = True) -> dict[str, dict[str, Metrics]]:
    """Per λ ("today" for no reranking), the held-out ranks of every dev question by group, once per
    repeat (each repeat assigns the questions to folds by a permutation of its own fixed seed). The
    ``extra`` samples (training questions) are in every training fold and never held out; without
    ``use_dev`` the model learns from them alone (the folds then only group the scoring)."""
    results: dict[str, dict[str, Metrics]] = {}
    assignments = [np.random.default_rng(seed).permutation(len(samples)) % folds for seed in range(repeats)]
    for label, lam in [("today", None), *((f"{lam:g}", lam) for lam in lambdas)]:
        by_group: dict[str, Metrics] = {}
        # without the dev questions every fold learns from the same questions: one model serves them all
        shared = train(list(extra), lam) if lam is not None and not use_dev else None
        for fold_of in assignments:
            for k in range(folds):
                held = [s for i, s in enumerate(samples) if fold_of[i] == k]
                rest = [*(s for i, s in enumerate(samples) if use_dev and fold_of[i] != k), *extra]
                weights = None if lam is None else shared if shared is not None else train(rest, lam)
                for sample in held:
                    rank = rank_of(searcher, sample, weights)
                    for group in (sample.question.group, "all"):
                        by_group.setdefault(group, Metrics()).ranks.append(rank)
        results[label] = by_group
    return results


#: a λ is eligible when no group's CV MRR falls by more than this below today's (less than one question
#: moving from first to second in a group of 80): the stage must not buy one group's gain with another's
GROUP_TOLERANCE = 0.005


def choose(results: dict[str, dict[str, Metrics]], tolerance: float = GROUP_TOLERANCE) -> str:
    """The λ with the best all-groups CV MRR among those where no group falls more than ``tolerance``
    below today's (ties: the larger λ, nearer today's order); none eligible: the largest λ."""
    today = results["today"]
    candidates = [label for label in results if label != "today"]

    def eligible(label: str) -> bool:
        return all(metrics.mrr >= today[group].mrr - tolerance for group, metrics in results[label].items()
                   if group != "all" and group in today)

    kept = [label for label in candidates if eligible(label)]
    if not kept:
        return max(candidates, key=float)
    return max(kept, key=lambda label: (round(results[label]["all"].mrr, 6), float(label)))


def summary_rows(results: dict[str, dict[str, Metrics]]) -> dict[str, dict[str, list[float]]]:
    return {label: {group: [round(m.recall(1), 4), round(m.recall(5), 4), round(m.mrr, 4), m.n // REPEATS]
                    for group, m in sorted(groups.items())} for label, groups in results.items()}


def trained_on(data: str, training_weight: float = 1.0) -> str:
    """What a weights file says it learned from.

    >>> trained_on("training")
    'indexer/training/*.yaml (built-in corpus); test halves never read'
    """
    dev = "dev halves of indexer/questions.yaml, questions_real.yaml, questions_cards.yaml"
    training = "indexer/training/*.yaml" + (f" (weight {training_weight:g})" if training_weight != 1 else "")
    parts = {"dev": [dev], "dev+training": [dev, training], "training": [training]}[data]
    return " + ".join(parts) + " (built-in corpus); test halves never read"


def ranker_json(weights: np.ndarray, chosen: str, results: dict[str, dict[str, Metrics]], samples: int,
                folds: int, data: str = "dev", training_weight: float = 1.0) -> dict[str, Any]:
    rows = summary_rows(results)
    ranker = Ranker(FEATURES, tuple(float(f"{w:.6g}") for w in weights), TOP_N, {
        "trained_on": trained_on(data, training_weight),
        "questions": samples, "model": "linear, pairwise logistic (RankNet), L2 on all but 'fused'",
        "folds": folds, "lambda": float(chosen),
        "cv_r1_r5_mrr_n": {"today": rows["today"], "chosen": rows[chosen]},
        "cv_mrr_by_lambda": {label: groups["all"][2] for label, groups in rows.items()},
    })
    return ranker.to_json()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulesjudge.indexer.train_ranker",
                                     description="train the reranking stage on the dev halves and the "
                                                 "training questions")
    parser.add_argument("--out", default=str(TRAINED_PATH), help=f"weights file (default {TRAINED_PATH}; "
                        "indexer/data/ranker.json turns the stage on)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--data", choices=DATA_CHOICES, default="dev+training",
                        help="learn from the dev halves, the dev halves and the training questions "
                             "(default), or the training questions alone; the dev halves are scored")
    parser.add_argument("--training", default=str(TRAINING_DIR),
                        help=f"folder of training question files *.yaml (default {TRAINING_DIR})")
    parser.add_argument("--training-weight", type=float, default=TRAINING_WEIGHT,
                        help="how much a training question counts against a dev question (default "
                             f"{TRAINING_WEIGHT:g})")
    args = parser.parse_args(argv)
    try:
        if args.folds < 2:
            raise InputError(None, "--folds must be at least 2", key="folds")
        if not 0 < args.training_weight <= 100:
            raise InputError(None, "--training-weight must be above 0 and at most 100", key="training-weight")
        if args.data != "dev" and Mode.from_environment().active:
            # the expansion attaches these same questions to their gold records: each would find its
            # answer through its own words, and the model would learn that leak
            raise InputError(None, "the training questions are also search's expansion: set "
                                   f"{EXPANSION_ENV}=off to train on them (or --data dev)", key=EXPANSION_ENV)
        training = load_training(Path(args.training)) if args.data != "dev" else []
        if args.data != "dev" and not training:
            raise InputError(Path(args.training), "no training questions (*.yaml) there", key="training")
        corpus = load_corpus(releases=[], include_user_releases=False)
        searcher = Searcher(corpus, progress=False, ranker=False).prepare()
        dev = [q for q in applicable(load_questions(), searcher) if q.split == "dev"]
        samples = collect(searcher, dev)
        extra = collect(searcher, applicable(training, searcher), weight=args.training_weight)
        use_dev = args.data != "training"
        results = cross_validate(searcher, samples, LAMBDAS, args.folds, extra=extra, use_dev=use_dev)
        chosen = choose(results)
        weights = train([*(samples if use_dev else ()), *extra], float(chosen))
        data = ranker_json(weights, chosen, results, len(samples) * use_dev + len(extra), args.folds,
                           args.data, args.training_weight)
        write_atomic(Path(args.out), json.dumps(data, indent=1) + "\n")
    except InputError as error:
        print(f"rulesjudge: {error}", file=sys.stderr)
        return 2
    for label, groups in summary_rows(results).items():
        cells = "  ".join(f"{g} {r1:.3f}/{r5:.3f}/{mrr:.3f}" for g, (r1, r5, mrr, _n) in groups.items())
        print(f"λ {label:>6}: {cells}")
    print(f"chosen λ {chosen}; weights written to {args.out} (format {RANKER_FORMAT})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
