"""The examples in the docstrings of every module run and give what they show (found, not listed by hand)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rulesjudge

# Scripts: importing a Streamlit page renders it, importing __main__ runs the command line.
SCRIPTS = ("rulesjudge.app.web", "rulesjudge.app.__main__")
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(rulesjudge.__path__, prefix="rulesjudge.")
    if not info.name.startswith(SCRIPTS)
)


def test_every_package_is_searched() -> None:
    packages = {name.split(".")[1] for name in MODULES}
    assert packages == {"app", "common", "corpus", "indexer", "scenarios"}  # why: the namespace reaches all


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
