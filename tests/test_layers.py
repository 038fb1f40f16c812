"""The packages keep their layers: app -> scenarios | indexer -> corpus -> common (the import-linter
contract in pyproject.toml).

A module that imports upwards (corpus importing the indexer, the rules model importing the search) fails here,
naming the import chain, so the data flow of ARCHITECTURE.md stays one way."""

from __future__ import annotations

import ast
import os
import re
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


# ------------------------------------------------------------------ first-party imports at the module top

def lazy_imports_without_reason(source: str) -> list[tuple[int, str]]:
    """The first-party imports (``rulesjudge...`` or relative) inside a function whose lines carry no
    ``# lazy: <why>`` comment, as (line, statement).

    >>> lazy_imports_without_reason("def f():\\n    from rulesjudge.corpus.store import load_corpus\\n")
    [(2, 'from rulesjudge.corpus.store import load_corpus')]
    >>> lazy_imports_without_reason("def f():\\n    import torch\\n    from . import x  # lazy: cycle\\n")
    []
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom):
                first_party = node.level > 0 or (node.module or "").split(".")[0] == "rulesjudge"
            elif isinstance(node, ast.Import):
                first_party = any(alias.name.split(".")[0] == "rulesjudge" for alias in node.names)
            else:
                continue
            said = " ".join(lines[node.lineno - 1:node.end_lineno])
            if first_party and not re.search(r"# lazy: \S", said):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


def package_sources() -> list[Path]:
    """Every source file of the installed packages (the folders ``rulesjudge/`` links to, and common)."""
    folders = sorted({entry.resolve() for entry in (ROOT / "rulesjudge").iterdir() if entry.is_dir()})
    return sorted({path for folder in folders for path in folder.rglob("*.py")})


def test_lazy_import_finder_tells_the_cases_apart() -> None:
    source = (
        "from rulesjudge.corpus.records import Record\n"  # at the top: fine
        "if TYPE_CHECKING:\n    from rulesjudge.indexer.search import Searcher\n"  # types only: fine
        "def a():\n    import numpy\n"  # third-party: the function may keep it
        "def b():\n    from rulesjudge.indexer.index import ensure_index\n"  # no reason: listed
        "class C:\n    def m(self):\n        import rulesjudge.scenarios.model\n"  # a method too
        "def d():\n    from .index import (\n        stale,  # lazy: cycle, index imports d\n    )\n"
        "def e():\n    from .index import f  # lazy:\n"  # a reason must say something
    )
    assert [line for line, _ in lazy_imports_without_reason(source)] == [7, 10, 16]


def test_first_party_imports_are_at_the_module_top() -> None:
    # why: issue 26.6 -- an import inside a function hides a layer's dependency from the reader (and
    # from the contract above); only a heavy third-party pull or an unbreakable cycle keeps it there,
    # and then the line says why (``# lazy: ...``).
    sources = package_sources()
    assert len(sources) > 100, "the packages' sources were not found"
    hidden = [f"{path.relative_to(ROOT)}:{line}: {text}" for path in sources
              for line, text in lazy_imports_without_reason(path.read_text(encoding="utf-8"))]
    advice = "move these imports to the module top, or say why not (# lazy: ...):\n"
    assert hidden == [], advice + "\n".join(hidden)


def test_a_rule_lookup_imports_neither_the_search_nor_the_scenario_model(tmp_path) -> None:
    # why: cli imports only the asked command's module, so moving imports to the top costs `rule` nothing
    code = (
        "import sys; from rulesjudge.app.cli import main; rc = main(['rule', '722.4']); "
        "print(sorted(m for m in sys.modules if m.startswith(('rulesjudge.indexer', 'rulesjudge.scenarios', "
        "'rulesjudge.app.commands.'))))"
    )
    env = {**os.environ, "RULESJUDGE_DATA": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['rulesjudge.app.commands.rule']"
