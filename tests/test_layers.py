"""The packages keep their layers: app -> scenarios | indexer -> corpus -> common (the import-linter
contract in pyproject.toml).

A module that imports upwards (corpus importing the indexer, the rules model importing the search) fails here,
naming the import chain, so the data flow of ARCHITECTURE.md stays one way."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]  # why: a broken contract names the import chain
    assert "0 broken" in done.stdout
