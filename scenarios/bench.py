"""Benchmark of the scenario checker (reported, never asserted): ``python -m rulesjudge.scenarios.bench``.

Prints the time to load and check the whole library, the median time of one scenario (load + run),
whether checking imported any heavy module (torch, faiss, sentence_transformers), and the time of the
largest tables the limits allow (:func:`largest_tables`: what one upload can cost the app at most).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from rulesjudge.scenarios import limits
from rulesjudge.scenarios.format import load_scenario, scenario_files
from rulesjudge.scenarios.model.questions import QUESTIONS
from rulesjudge.scenarios.model.treachery_cards import ROLES
from rulesjudge.scenarios.runner import LIBRARY, evaluate, run_scenario

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


TEAM_SIZES = {"emperor": 3, "two-headed-giant": 2, "team-vs-team": 4, "alternating-teams": 2}
_KINDS = ("leaves", "concedes", "become-monarch", "take-initiative", "combat-damage", "damage", "lose-life",
          "gain-life", "draw", "upkeep", "end-step", "resolve", "gain-control", "control-ends", "next-turn",
          "attack", "combat-damage-step", "poison", "set-life", "loses", "extra-turn", "pass-priority",
          "dies")


def largest_tables(seed: int = 15) -> dict[str, tuple[dict[str, Any], list[Any], list[str]]]:
    """For each variant, a table as large as the limits allow -- the most players, permanents, events
    (every kind, some holding their triggers on the stack) and questions (every kind) -- as the app's
    what-if evaluation takes them: ``(game, events, questions)``."""
    rng = random.Random(seed)
    tables = {}
    for variant in ("free-for-all", "team-vs-team", "emperor", "two-headed-giant", "treachery", "grand-melee",
                    "commander", "alternating-teams"):
        size = TEAM_SIZES.get(variant, 1)
        players = [f"P{i}" for i in range(limits.MAX_PLAYERS - limits.MAX_PLAYERS % size)]
        permanents = [f"C{i}" for i in range(limits.MAX_PERMANENTS)]
        game: dict[str, Any] = {"variant": variant, "players": players, "permanents": {
            c: {"owner": players[i % len(players)], "controller": players[i * 7 % len(players)],
                "power": 1 + i % 4, "keywords": ["first-strike", "haste", "infect"][: i % 3],
                "commander": variant == "commander"}
            for i, c in enumerate(permanents)}}
        if size > 1 and variant == "alternating-teams":  # no one next to a teammate (811.3)
            game["teams"] = [players[0::2], players[1::2]]
        elif size > 1:
            game["teams"] = [players[i : i + size] for i in range(0, len(players), size)]
        if variant == "treachery":
            game["identities"] = {p: ("leader" if i == 0 else rng.choice(("guardian", "assassin", "traitor")))
                                  for i, p in enumerate(players)}
        if variant == "free-for-all":
            game["options"] = {"range": 1}
        events = [_event(rng, rng.choice(_KINDS), players, permanents) for _ in range(limits.MAX_EVENTS)]
        questions = []
        for i in range(limits.MAX_QUESTIONS):
            name = list(QUESTIONS)[i % len(QUESTIONS)]
            pools = {"player": players, "role": list(ROLES)}
            args = [rng.choice(pools.get(kind, permanents)) for kind in QUESTIONS[name].args]
            questions.append(f"{name}({', '.join(args)})" if args else name)
        tables[variant] = (game, events, questions)
    return tables


def _event(rng: random.Random, kind: str, players: list[str], permanents: list[str]) -> Any:
    who, other, card = rng.choice(players), rng.choice(players), rng.choice(permanents)
    args: dict[str, dict[str, Any]] = {
        "combat-damage": {"from": who, "to": other, "amount": 1},
        "damage": {"from": who, "to": other, "amount": 1},
        "lose-life": {"player": who, "amount": 1}, "gain-life": {"player": who, "amount": 1},
        "draw": {"player": who, "count": 3}, "gain-control": {"player": who, "permanent": card},
        "control-ends": {"permanent": card},
    }
    args.update({
        "attack": {"attacker": who, "creatures": rng.sample(permanents, 20), "defending": other},
        "combat-damage-step": {"step": rng.choice(["first-strike", "regular"])},
        "poison": {"player": who, "count": 1}, "set-life": {"player": who, "life": rng.randint(0, 30)},
        "dies": {"permanent": card},
    })
    arg = args.get(kind, {"players": [who]} if kind in ("leaves", "concedes", "loses", "extra-turn") else {})
    if kind in ("become-monarch", "take-initiative"):
        arg = {"player": who}
    if rng.random() < 0.3:
        arg = {**arg, "hold": True}
    return {kind: arg} if arg else kind


def bench_largest() -> dict[str, Any]:
    """Milliseconds of the app's evaluation of each variant's :func:`largest_tables`: wall time, and the
    CPU time of this process (the same on a busy machine, where wall time is not)."""
    times, cpu = {}, {}
    for variant, (game, events, questions) in largest_tables().items():
        start, start_cpu = time.perf_counter(), time.process_time()
        evaluate(game, events, questions)
        times[variant] = round((time.perf_counter() - start) * 1000, 1)
        cpu[variant] = round((time.process_time() - start_cpu) * 1000, 1)
    return {"largest_table_ms": times, "largest_table_max_ms": max(times.values()),
            "largest_table_cpu_ms": cpu, "largest_table_max_cpu_ms": max(cpu.values()),
            "time_budget_seconds": limits.TIME_BUDGET_SECONDS}


def main(rounds: int = 5) -> None:
    figures = bench_library(rounds)
    print(f"{figures['scenarios']} scenarios; whole library: best {figures['library_best_seconds']:.3f} s, "
          f"median {figures['library_median_seconds']:.3f} s")
    print(f"one scenario (load + run): median {figures['one_scenario_median_ms']:.2f} ms, "
          f"max {figures['one_scenario_max_ms']:.2f} ms")
    print(f"heavy modules imported: {', '.join(figures['heavy_modules_imported']) or 'none'}")
    largest = bench_largest()
    print("largest tables the limits allow (what-if evaluation, wall / CPU): "
          + ", ".join(f"{variant} {ms:.0f} / {largest['largest_table_cpu_ms'][variant]:.0f} ms"
                      for variant, ms in largest["largest_table_ms"].items())
          + f" (the app's budget: {largest['time_budget_seconds']:g} s)")


if __name__ == "__main__":
    main()
