"""Benchmark of the scenario checker (reported, never asserted): ``python -m scenarios.bench``.

Prints the time to load and check the whole library, the median time of one scenario (load + run), and
whether checking imported any heavy module (torch, faiss, sentence_transformers).
"""

from __future__ import annotations

import statistics
import sys
import time

from scenarios.format import load_scenario, scenario_files
from scenarios.runner import LIBRARY, run_scenario

HEAVY = ("torch", "faiss", "sentence_transformers", "streamlit")


def main(rounds: int = 5) -> None:
    files = scenario_files([LIBRARY])
    totals, singles = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for path in files:
            t0 = time.perf_counter()
            run_scenario(load_scenario(path))
            singles.append(time.perf_counter() - t0)
        totals.append(time.perf_counter() - start)
    heavy = [m for m in HEAVY if m in sys.modules]
    best, median = min(totals), statistics.median(totals)
    print(f"{len(files)} scenarios; whole library: best {best:.3f} s, median {median:.3f} s")
    print(f"one scenario (load + run): median {statistics.median(singles) * 1000:.2f} ms, "
          f"max {max(singles) * 1000:.2f} ms")
    print(f"heavy modules imported: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
