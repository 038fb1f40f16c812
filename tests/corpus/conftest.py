"""Fixtures of the corpus tests that read the shared releases."""

from __future__ import annotations

from collections.abc import Callable

import mutations  # tests/corpus/mutations.py
import pytest


@pytest.fixture(scope="module")
def lines(shared_cr_dir) -> Callable[[str], list[str]]:
    """A shared release's lines by file name, each read once per module."""
    cache: dict[str, list[str]] = {}

    def get(name: str) -> list[str]:
        if name not in cache:
            cache[name] = mutations.release_lines(shared_cr_dir / name)
        return cache[name]

    return get
