"""Figures of the card snapshot, for ``rulesjudge bench --cards-only`` (reported, never asserted).

Every process is fresh and runs on a temporary data folder (the user's is untouched): the whole
built-in snapshot read once, then from the cache, ``rulesjudge card NAME`` in a fresh process (an exact
name, and a typo that needs the name index), the memory of a process with the corpus and the cards
loaded, ``names_in`` per question, and how many card names the question sets' questions recognise.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_LOAD = "from rulesjudge.corpus.cards import load_cards; load_cards().index"
_MEMORY = """
import json
def mb():
    return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2**20
from rulesjudge.corpus.store import load_corpus
load_corpus(); corpus = mb()
from rulesjudge.corpus.cards import load_cards
db = load_cards(); db.names_in('Does Thalia, Heretic Cathar stop Platinum Angel?'); db.lookup('platnum angle')
print(json.dumps({"corpus_mb": round(corpus, 1), "corpus_and_cards_mb": round(mb(), 1)}))
"""


def _run(code_or_argv: str | list[str], data: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of a fresh Python process (a ``-c`` program or ``rulesjudge`` arguments)."""
    env = {**os.environ, "RULESJUDGE_DATA": str(data), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    argv = [sys.executable, "-c", code_or_argv] if isinstance(code_or_argv, str) else \
        [sys.executable, "-m", "rulesjudge.app", *code_or_argv]
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600, check=False)
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode != 0:
        raise RuntimeError(f"{argv[2:]} failed: {done.stderr.strip()[-300:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, done.stdout


def _median_runs(argv: list[str], data: Path, runs: int) -> dict[str, float]:
    walls, cpus = zip(*(_run(argv, data)[:2] for _ in range(runs)), strict=True)
    return {"median_seconds": round(statistics.median(walls), 3),
            "median_cpu_seconds": round(statistics.median(cpus), 3)}


def card_figures(runs: int = 5) -> dict[str, Any]:
    """The figures, in a temporary data folder."""
    import resource

    figures: dict[str, Any] = {"load_average": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="rulesjudge-cards-bench-") as folder:
        data = Path(folder)
        peak_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        wall, cpu, _ = _run(_LOAD, data)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        figures["first_read_seconds"] = round(wall, 2)
        figures["first_read_cpu_seconds"] = round(cpu, 2)
        figures["first_read_peak_mb"] = round(peak / 1024) if peak > peak_before else None
        cached = [_run(_LOAD, data)[:2] for _ in range(runs)]
        figures["cache_read_seconds"] = round(statistics.median(w for w, _ in cached), 3)
        figures["cache_read_cpu_seconds"] = round(statistics.median(c for _, c in cached), 3)
        _run(["card", "Fog"], data)  # the corpus cache of this data folder, built once
        figures["card_exact_name"] = _median_runs(["card", "Thalia, Heretic Cathar"], data, runs)
        figures["card_typo"] = _median_runs(["card", "Platnum Angle"], data, runs)
        figures.update(json.loads(_run(_MEMORY, data)[2]))
        figures.update(_recognition(data))
        cache = data / "cache" / "cards.sqlite"
        figures["cache_mb"] = round(cache.stat().st_size / 2**20, 1) if cache.is_file() else None
    return figures


def _recognition(data: Path) -> dict[str, Any]:
    """``names_in`` per question, and the card names the question sets' questions recognise."""
    program = f"""
import json, statistics, time
from rulesjudge.corpus.cards import load_cards
from rulesjudge.common.safe_yaml import read_yaml
db = load_cards()
out = {{}}
questions, _ = read_yaml(open({str(ROOT / "indexer" / "questions.yaml")!r}).read(), max_chars=10**7)
db.names_in("Thalia, Heretic Cathar")  # the name index, read once before timing
times = []
found = 0
for item in questions:
    start = time.perf_counter()
    mentions = db.names_in(item["q"])
    times.append(time.perf_counter() - start)
    found += bool(mentions)
out["names_in_p50_ms"] = round(statistics.median(times) * 1000, 3)
out["names_in_max_ms"] = round(max(times) * 1000, 3)
out["questions_yaml"] = {{"questions": len(questions), "recognising_a_card": found}}
try:
    cards, _ = read_yaml(open({str(ROOT / "indexer" / "questions_cards.yaml")!r}).read(), max_chars=10**7)
except OSError:
    cards = []
if cards:
    named = sum(len(item.get("cards", [])) for item in cards)
    hit = sum(name in {{c.name for m in db.names_in(item["q"]) for c in (m.card, *m.others)}}
              for item in cards for name in item.get("cards", []))
    out["questions_cards_yaml"] = {{"named": named, "recognised": hit, "share": round(hit / named, 4)}}
print(json.dumps(out))
"""
    return dict(json.loads(_run(program, data)[2]))


def card_lines(figures: dict[str, Any]) -> list[str]:
    lines = [f"cards: first read of the built-in snapshot {figures['first_read_seconds']} s "
             f"({figures['first_read_cpu_seconds']} s CPU, peak {figures['first_read_peak_mb']} MB); "
             f"then from the cache {figures['cache_read_seconds']} s ({figures['cache_read_cpu_seconds']} s "
             f"CPU); cache {figures['cache_mb']} MB",
             "cards: `card \"Thalia, Heretic Cathar\"` fresh process "
             f"{figures['card_exact_name']['median_seconds']} s "
             f"({figures['card_exact_name']['median_cpu_seconds']} s CPU); `card \"Platnum Angle\"` "
             f"{figures['card_typo']['median_seconds']} s "
             f"({figures['card_typo']['median_cpu_seconds']} s CPU)",
             f"cards: memory with the corpus {figures['corpus_mb']} MB, with the corpus and the cards "
             f"{figures['corpus_and_cards_mb']} MB; names_in p50 {figures['names_in_p50_ms']} ms "
             f"(max {figures['names_in_max_ms']} ms)"]
    plain = figures["questions_yaml"]
    lines.append(f"cards: questions.yaml: {plain['recognising_a_card']} of {plain['questions']} questions "
                 "recognise a card")
    if "questions_cards_yaml" in figures:
        named = figures["questions_cards_yaml"]
        lines.append(f"cards: questions_cards.yaml: {named['recognised']} of {named['named']} named cards "
                     f"recognised ({named['share']:.1%})")
    lines.append(f"cards: load average {figures['load_average']}")
    return lines
