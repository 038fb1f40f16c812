"""Fixtures of the cross-cutting reliability tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path, monkeypatch) -> None:
    """Every reliability test gets its own data folder (the `data_dir` fixture names the same one):
    `check` loads the corpus to resolve `about` numbers, and must never touch the user's data folder."""
    monkeypatch.setenv("RULESJUDGE_DATA", str(tmp_path / "data"))
