"""`rulesjudge bench [--json]`: the scenario checker, index build times, model load, query latency per
method, peak memory.

Builds run in temporary data folders (the user's index is untouched). Figures are reported, never
asserted; see docs/search.md for the targets.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rulesjudge.app.commands.eval import release_paths
from rulesjudge.corpus.bench import corpus_figures, coverage_figures, parse_seconds
from rulesjudge.corpus.cards.bench import card_figures, card_lines
from rulesjudge.corpus.store import builtin_release_paths
from rulesjudge.indexer.bench import run_bench
from rulesjudge.indexer.evaluate import load_questions
from rulesjudge.scenarios.bench import bench_largest, bench_library


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("bench", help="benchmark the scenario checker, index builds and query latency")
    p.add_argument("--releases", metavar="DIR", help="folder of official releases (default ../shared/cr)")
    p.add_argument("--builtin-only", action="store_true", help="skip the build with an official release")
    p.add_argument("--scenarios-only", action="store_true", help="only the scenario checker (no model)")
    p.add_argument("--corpus-only", action="store_true", help="only the corpus: releases added one by one")
    p.add_argument("--corpus-releases", type=int, default=62, metavar="N",
                   help="releases in the corpus benchmark (made from the real ones; default 62)")
    p.add_argument("--cards-only", action="store_true", help="only the card snapshot (corpus/cards/bench.py)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.cards_only:
        cards = card_figures()
        print(json.dumps({"cards": cards}, indent=1) if args.json else "\n".join(card_lines(cards)))
        return 0
    if args.corpus_only:
        corpus = corpus_section(args)
        print(json.dumps({"corpus": corpus}, indent=1) if args.json else "\n".join(corpus_lines(corpus)))
        return 0
    checker = bench_library()  # first: its "heavy modules imported" must not see the search's torch
    checker.update(bench_largest())
    if args.scenarios_only:
        figures: dict[str, Any] = {"scenario_checker": checker}
    else:
        releases = [] if args.builtin_only else release_paths(args.releases)
        questions = [question.q for question in load_questions()]
        figures = {"scenario_checker": checker, **run_bench(releases, questions)}
        figures["corpus"] = corpus_section(args)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    heavy = ", ".join(checker["heavy_modules_imported"]) or "none"
    print(f"scenario checker: {checker['scenarios']} scenarios, whole library median "
          f"{checker['library_median_seconds']} s, one scenario median "
          f"{checker['one_scenario_median_ms']} ms (heavy modules imported: {heavy}); largest table the "
          f"limits allow {checker['largest_table_max_ms']} ms, "
          f"{checker['largest_table_max_cpu_ms']} ms of CPU (budget {checker['time_budget_seconds']:g} s)")
    if args.scenarios_only:
        return 0
    print(f"model load {figures['model_load_seconds']} s "
          f"(sentence-transformers import {figures['import_sentence_transformers_seconds']} s)")
    for build in figures["builds"]:
        print(f"{build['corpus']}: {build['chunks']} chunks; cold build {build['cold_build_seconds']} s "
              f"({build['cold_embedded']} embedded); "
              f"reopen unchanged {build['rebuild_nothing_changed_seconds']} s; "
              f"forced rebuild from cache {build['forced_rebuild_from_cache_seconds']} s "
              f"({build['forced_rebuild_embedded']} embedded)")
    for key in ("latency_builtin", "latency_with_release"):
        if key in figures:
            cells = ", ".join(f"{m} p50 {v['p50_ms']} ms p95 {v['p95_ms']} ms"
                              for m, v in figures[key].items())
            print(f"{key}: {cells}")
    fresh = figures.get("fresh_process")
    if fresh:
        first = fresh["fresh_data_folder_to_first_answer_seconds"]
        again = fresh["nothing_changed_to_first_answer_seconds"]
        print(f"fresh processes: fresh data folder to first answer {first} s; nothing changed {again} s; "
              f"`search 704.5j` {fresh['search_704_5j_fresh_process_seconds']} s; "
              f"index folder {fresh['index_folder_mb']} MB")
    print(f"peak RSS {figures['peak_rss_mb']} MB")
    print("\n".join(corpus_lines(figures["corpus"])))
    return 0


# ------------------------------------------------------------------------------------ corpus (corpus/)


def corpus_section(args: argparse.Namespace) -> dict[str, Any]:
    """The corpus figures: parse time and records of the built-in release, the cross-release map's
    coverage between the real releases at hand, and many releases added one by one (corpus/bench.py)."""
    from pathlib import Path

    builtin = builtin_release_paths()
    shared = Path(args.releases) if args.releases else Path(__file__).resolve().parents[3] / "shared" / "cr"
    real = sorted({p.name: p for p in [*builtin, *sorted(shared.glob("cr-*.txt"))]}.values(),
                  key=lambda p: p.name) if shared.is_dir() else builtin
    figures: dict[str, Any] = {"builtin_parse_seconds": round(parse_seconds(builtin[0]), 3)}
    figures["real_releases"] = [p.name for p in real]
    figures["coverage"] = coverage_figures(real)
    figures.update(corpus_figures(real, args.corpus_releases))
    return figures


def corpus_lines(corpus: dict[str, Any]) -> list[str]:
    lines = [f"corpus: built-in release parsed in {corpus['builtin_parse_seconds']} s; real releases at "
             f"hand: {len(corpus['real_releases'])}; fresh data folder to `{corpus['lookup']}` "
             f"{corpus['fresh_data_folder_rule_seconds']} s"]
    for pair in corpus["coverage"]:
        lines.append(f"corpus: cross-release map {pair['source']} -> {pair['target']}: {pair['matched']}/"
                     f"{pair['total']} rules and subrules ({pair['share']:.1%}), {pair['renumbered']} "
                     f"renumbered, {pair['changed']} edited, mapped in {pair['seconds']} s")
    for step in corpus["steps"]:
        add = (f"adding release no. {step['n']} {step['add_seconds']} s ({step['add_cpu_seconds']} s CPU); "
               if "add_seconds" in step else "")
        lines.append(f"corpus: N={step['n']}: {add}`{corpus['lookup']}` {step['rule_seconds']} s "
                     f"({step['rule_cpu_seconds']} s CPU, {step['rule_peak_mb']} MB, "
                     f"{step['rule_output_lines']} lines); cache {step['cache_mb']} MB {step['cache_rows']}")
    if "add_cpu_total_seconds" in corpus:
        first, second = corpus["add_cpu_first_half_mean_seconds"], corpus["add_cpu_second_half_mean_seconds"]
        lines.append(f"corpus: {corpus['releases']} releases added one by one: "
                     f"{corpus['add_cpu_total_seconds']} s of CPU (mean per add: first half {first} s, "
                     f"second half {second} s); the Monarch's leaving rule found in "
                     f"{corpus['monarch_chain_editions']} other editions as "
                     f"{', '.join(corpus['monarch_chain_numbers'])}; load average {corpus['load_average']}")
    return lines
