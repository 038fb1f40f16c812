"""The examples in the reliability modules' docstrings run (they document each refusal's exact words)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["corpus.inputs", "corpus.errors", "corpus.codec", "corpus.releases",
                                  "corpus.files"])
def test_docstring_examples(name) -> None:
    module = importlib.import_module(f"rulesjudge.{name}")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and not failures
