"""`rulesjudge eval`: recall@1/5/10 and MRR of BM25, dense and hybrid search on the question set.

Runs on the built-in corpus, then with the official releases of ``--releases DIR`` added (default
``../shared/cr`` next to the project, when present). ``--tune`` grid-searches the fusion weights on the
dev half of the questions and reports the held-out half at the best point.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.store import load_corpus
from rulesjudge.indexer.evaluate import (
    QUESTIONS_PATH,
    applicable,
    evaluate,
    format_areas,
    format_table,
    load_questions,
    tune,
)
from rulesjudge.indexer.rerank import Ranker, load_ranker
from rulesjudge.indexer.search import Searcher

DEFAULT_RELEASES = Path(__file__).resolve().parents[2].parent / "shared" / "cr"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("eval", help="measure search quality on the question set")
    p.add_argument("--releases", metavar="DIR",
                   help=f"folder of official releases (default {DEFAULT_RELEASES})")
    p.add_argument("--builtin-only", action="store_true", help="only the built-in corpus")
    p.add_argument("--questions", metavar="FILE", help="question set (default indexer/questions.yaml)")
    p.add_argument("--misses", nargs="?", const="dev", choices=("dev", "test", "all"),
                   help="list hybrid questions of the dev half (or test, all) not answered at rank 1")
    p.add_argument("--tune", action="store_true", help="grid-search fusion weights on the dev half")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--ranker", metavar="FILE",
                   help="the reranking stage's weights (default: indexer/data/ranker.json when present; "
                        "'off': none); indexer/data/ranker-trained.json holds round 5's")
    p.set_defaults(func=run)


def release_paths(folder: str | None) -> list[Path]:
    if folder is None:
        return sorted(DEFAULT_RELEASES.glob("*.txt")) if DEFAULT_RELEASES.is_dir() else []
    path = Path(folder)
    if not path.is_dir():
        raise InputError(path, "not a folder of official releases", key="releases")
    found = sorted(path.glob("*.txt"))
    if not found:
        raise InputError(path, "no release (*.txt) in this folder", key="releases")
    return found


def ranker_of(option: str | None) -> Ranker | bool:
    """``--ranker``: the shipped weights (True: read on first need), none ('off'), or a file's, read now
    (a bad file is one line and exit 2 before any search)."""
    if option is None:
        return True
    if option == "off":
        return False
    ranker = load_ranker(Path(option))
    if ranker is None:
        raise InputError(option, "no such weights file", key="ranker")
    return ranker


def run(args: argparse.Namespace) -> int:
    questions = load_questions(Path(args.questions) if args.questions else QUESTIONS_PATH)
    releases = [] if args.builtin_only else release_paths(args.releases)
    runs: list[tuple[str, list[Path], bool]] = [("built-in corpus", [], False)]
    if releases:
        runs.append((f"built-in + {len(releases)} official releases, current rules", releases, False))
        runs.append((f"built-in + {len(releases)} official releases, as of each question's gold edition",
                     releases, True))
    ranker = ranker_of(args.ranker)
    output: dict[str, Any] = {}
    for title, paths, as_of_gold in runs:
        corpus = load_corpus(releases=paths, include_user_releases=False)
        searcher = Searcher(corpus, progress=not args.json, ranker=ranker).prepare()
        kept = applicable(questions, searcher)
        evaluation = evaluate(searcher, kept, as_of_gold=as_of_gold)
        output[title] = evaluation.to_json()
        if not args.json:
            print(format_table(title, evaluation))
            print(format_areas(evaluation))
            if args.misses:
                for question, rank, top in evaluation.misses("hybrid", args.misses):
                    print(f"  miss (rank {rank}, {question.split}, {question.area}/{question.style}): "
                          f"{question.q} -> {', '.join(top)}  [gold {', '.join(question.gold)}]")
            print()
        if args.tune and not as_of_gold:
            dev = [q for q in kept if q.split == "dev"]
            test = [q for q in kept if q.split == "test"]
            best = tune(searcher, dev)[:5]
            chosen = best[0][2]
            point = {field.name: (getattr(chosen, field.name),) for field in dataclasses.fields(chosen)}
            held_out = tune(searcher, test, point)
            output[title]["tuning"] = {
                "best_dev": [{"mrr": mrr, "recall@5": r5, "params": str(p)} for mrr, r5, p in best],
                "test_at_best": {"mrr": held_out[0][0], "recall@5": held_out[0][1]},
            }
            if not args.json:
                for mrr, r5, params in best:
                    print(f"  dev MRR {mrr:.3f} R@5 {r5:.3f}  {params}")
                mrr, r5 = held_out[0][0], held_out[0][1]
                print(f"  held-out test at the best point: MRR {mrr:.3f} R@5 {r5:.3f}\n")
    if args.json:
        print(json.dumps(output, indent=1, default=str))
    return 0
