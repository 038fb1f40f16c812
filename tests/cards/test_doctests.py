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
