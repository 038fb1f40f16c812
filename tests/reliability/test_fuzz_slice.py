"""The fuzz of tests/reliability/fuzz.py in a CI-sized slice (seconds): mutated scenario files, what-if
questions with random bytes, mutated releases. Every case ends in an answer or a one-line refusal; no
traceback, no model error. The big run (100,000 scenarios, 10,000 what-ifs, 1,000 releases) is
`nice -n 15 python tests/reliability/fuzz.py --scenarios 100000 --what-ifs 10000 --releases 1000`; its
counts are in docs/limits.md. Two fixed seeds: a failure names the seed and the case, and reruns the
same."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz

SEED = 2


@pytest.mark.parametrize("seed", [1, SEED])
def test_mutated_scenarios_end_in_an_answer_or_one_line(seed, builtin_corpus) -> None:
    tally = fuzz.Tally()
    fuzz.fuzz_scenarios(400, seed, tally, builtin_corpus)
    assert tally.tracebacks == [] and tally.model_errors == []
    assert tally.outcomes["scenario: refused"] and tally.outcomes["scenario: passed"]  # both kinds met


@pytest.mark.parametrize("seed", [1, SEED])
def test_what_ifs_with_random_bytes_end_in_an_answer_or_one_line(seed, builtin_corpus) -> None:
    tally = fuzz.Tally()
    fuzz.fuzz_what_ifs(300, seed, tally, builtin_corpus)
    assert tally.tracebacks == [] and tally.model_errors == []
    assert tally.outcomes["what-if: answered"] and tally.outcomes["what-if: refused"]


@pytest.mark.parametrize("seed", [1, SEED])
def test_mutated_releases_are_read_or_refused_in_one_line(seed) -> None:
    tally = fuzz.Tally()
    fuzz.fuzz_releases(30, seed, tally)
    assert tally.tracebacks == []
    assert tally.outcomes["release: refused"]
