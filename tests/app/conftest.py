"""Fixtures of the app tests: one private data folder with the search index built once per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
WEB = PROJECT_ROOT / "app" / "web"
ARTIFACTS = PROJECT_ROOT / "tests" / "artifacts"


@pytest.fixture(scope="module")
def app_env(app_data_root: Path) -> Iterator[Path]:
    """``RULESJUDGE_DATA`` points at the session's private data folder while a module of app tests runs;
    the index is built there once (the first module pays for it, later ones find it up to date)."""
    wanted = {"RULESJUDGE_DATA": str(app_data_root), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    saved = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    from rulesjudge.app import services

    services.open_searcher(progress=False, build=True)
    try:
        yield app_data_root
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
