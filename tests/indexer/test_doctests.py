"""The examples in the search stages' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["query", "visibility", "exact", "candidates", "glossary", "fusion",
                                    "folding", "hits", "card_stage", "scopes", "search", "evaluate"])
def test_docstring_examples(module):
    failures, _ = doctest.testmod(importlib.import_module(f"rulesjudge.indexer.{module}"))
    assert failures == 0
