"""Benchmark of the scenario checker (reported, never asserted): ``python -m rulesjudge.scenarios.bench``.

Prints the time to load and check the whole library, the median time of one scenario (load + run), and
whether checking imported any heavy module (torch, faiss, sentence_transformers).
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from rulesjudge.scenarios.format import load_scenario, scenario_files
from rulesjudge.scenarios.runner import LIBRARY, run_scenario

HEAVY = ("torch", "faiss", "sentence_transformers", "streamlit")


def bench_library(rounds: int = 5) -> dict[str, Any]:
    """Check the whole library ``rounds`` times; figures in seconds and milliseconds."""
    files = scenario_files([LIBRARY])
    totals, singles = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for path in files:
            t0 = time.perf_counter()
            run_scenario(load_scenario(path))
            singles.append(time.perf_counter() - t0)
        totals.append(time.perf_counter() - start)
    return {
        "scenarios": len(files),
        "library_best_seconds": round(min(totals), 3),
        "library_median_seconds": round(statistics.median(totals), 3),
        "one_scenario_median_ms": round(statistics.median(singles) * 1000, 2),
        "one_scenario_max_ms": round(max(singles) * 1000, 2),
        "heavy_modules_imported": [m for m in HEAVY if m in sys.modules],
    }


def main(rounds: int = 5) -> None:
    figures = bench_library(rounds)
    print(f"{figures['scenarios']} scenarios; whole library: best {figures['library_best_seconds']:.3f} s, "
          f"median {figures['library_median_seconds']:.3f} s")
    print(f"one scenario (load + run): median {figures['one_scenario_median_ms']:.2f} ms, "
          f"max {figures['one_scenario_max_ms']:.2f} ms")
    print(f"heavy modules imported: {', '.join(figures['heavy_modules_imported']) or 'none'}")


if __name__ == "__main__":
    main()
