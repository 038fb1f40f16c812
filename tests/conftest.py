"""Shared fixtures: the official releases kept outside the project, and a private data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
#: Official Comprehensive Rules releases are third-party files: never copied into the project.
SHARED_CR = PROJECT_ROOT.parent / "shared" / "cr"


@pytest.fixture(scope="session")
def shared_cr_dir() -> Path:
    """The folder of official releases (``<project>/../shared/cr``); skips the test when it is absent."""
    if not SHARED_CR.is_dir() or not any(SHARED_CR.glob("*.txt")):
        pytest.skip(f"official Comprehensive Rules releases absent: {SHARED_CR} (third-party, not shipped)")
    return SHARED_CR


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """A fresh, empty user data folder: ``RULESJUDGE_DATA`` points at a temporary path."""
    folder = tmp_path / "data"
    monkeypatch.setenv("RULESJUDGE_DATA", str(folder))
    return folder


@pytest.fixture(scope="session")
def five_releases_corpus(shared_cr_dir, tmp_path_factory):
    """The built-in corpus plus the five official releases, loaded once (cache in a private data folder)."""
    from rulesjudge.corpus.store import load_corpus

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULESJUDGE_DATA", str(tmp_path_factory.mktemp("data")))
        return load_corpus(sorted(shared_cr_dir.glob("cr-*.txt")), include_user_releases=False)


@pytest.fixture(scope="session")
def app_data_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app tests' data folder, one per session (the search index is built there once); here so that
    tests/reliability's server test finds the index the app tests built."""
    return tmp_path_factory.mktemp("app-data")
