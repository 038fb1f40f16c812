"""Every scenario file of the library is its own test case (test id: its path under scenarios/library)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesjudge.scenarios.format import load_scenario
from rulesjudge.scenarios.runner import LIBRARY, run_scenario

FILES = sorted(p for p in LIBRARY.rglob("*") if p.suffix in (".yaml", ".yml"))


def _show(report) -> str:
    lines = [report.error] if report.error else []
    for a in report.failures:
        lines.append(f"{a.key} (line {a.line}): expected {a.expected!r}, got {a.value!r}")
        lines += [f"    - {s.text}" for s in a.steps]
    return "\n".join(lines)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(LIBRARY)) for p in FILES])
def test_scenario(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.about, "a library scenario names the rules it exercises (about)"
    assert scenario.why.strip(), "a library scenario says why (why)"
    report = run_scenario(scenario)
    assert report.passed, _show(report)


def test_library_is_not_empty() -> None:
    if not FILES:
        pytest.skip(f"no scenario files yet under {LIBRARY}")
    assert FILES
