"""The examples in the docstrings (rules model, corpus, search, app logic) run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODEL = ["build", "table", "game", "leaving", "questions", "deploy", "citations", "events", "influence",
         "monarch", "initiative", "teams", "variants", "steps"]
MODULES = [f"scenarios.model.{name}" for name in MODEL] + ["scenarios.format", "scenarios.runner"]
# The other packages' docstring examples (corpus, search, app logic) are held to the same standard.
MODULES += [f"corpus.{name}" for name in ("clean", "crossrefs", "documents", "editions", "errors", "files",
                                          "official", "records", "store")]
MODULES += [f"indexer.{name}" for name in ("chunks", "lexical", "search")]
MODULES += [f"app.{name}" for name in ("presenters", "table_picture", "whatif")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
