"""The examples in the card modules' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["model", "readers", "names", "rules_refs", "db", "cache", "snapshots",
                                    "adding", "vocabulary"])
def test_docstring_examples(module):
    failures, _ = doctest.testmod(importlib.import_module(f"rulesjudge.corpus.cards.{module}"))
    assert failures == 0


def test_bench_lines_say_every_figure():
    from rulesjudge.corpus.cards.bench import card_lines

    figures = {"first_read_seconds": 9.8, "first_read_cpu_seconds": 5.9, "first_read_peak_mb": 322,
               "cache_read_seconds": 0.68, "cache_read_cpu_seconds": 0.35, "cache_mb": 26.9,
               "card_exact_name": {"median_seconds": 0.6, "median_cpu_seconds": 0.29},
               "card_typo": {"median_seconds": 0.9, "median_cpu_seconds": 0.57}, "corpus_mb": 23.6,
               "corpus_and_cards_mb": 58.7, "names_in_p50_ms": 0.07, "names_in_max_ms": 0.5,
               "questions_yaml": {"questions": 450, "recognising_a_card": 7}, "load_average": [1.0, 1.0, 1.0],
               "questions_cards_yaml": {"named": 213, "recognised": 209, "share": 0.9812}}
    text = "\n".join(card_lines(figures))
    assert "first read of the built-in snapshot 9.8 s (5.9 s CPU, peak 322 MB)" in text
    assert "209 of 213 named cards recognised (98.1%)" in text
