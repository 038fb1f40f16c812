"""The examples in the rules model's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODEL = ["build", "table", "game", "leaving", "questions", "deploy", "citations", "events", "influence",
         "monarch", "initiative", "teams", "variants", "steps"]
MODULES = [f"scenarios.model.{name}" for name in MODEL] + ["scenarios.format", "scenarios.runner"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
