"""Shape of the variant scenario files (teams, Team vs Team, Emperor, Two-Headed Giant, Treachery).

Without running the model: each file names its rules, says why, cites a rule in its file name, and gives
a one-line reason (a YAML comment naming a rule or card note) beside every expected answer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

LIBRARY = Path(__file__).resolve().parents[3] / "scenarios" / "library"
AREAS = ("teams", "team-vs-team", "emperor", "two-headed-giant", "treachery", "grand-melee",
         "alternating-teams")
FILES = sorted(p for area in AREAS for p in (LIBRARY / area).glob("*.yaml"))
RULE = re.compile(r"\b\d{3}(\.\d+[a-z]?|\.\d+tr)?\b|note")


def test_enough_variant_scenarios() -> None:
    assert len(FILES) >= 110, f"only {len(FILES)} variant scenarios"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_variant_scenario_shape(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert {"name", "about", "why", "game", "expect"} <= set(data)
    assert data["about"] and all(isinstance(a, str) for a in data["about"])
    assert "\n" not in data["why"].strip(), "why is one line"
    prefix = re.match(r"(\d{3})-(\d+[a-z]?)?", path.name)
    assert prefix, "the file name starts with the rule it cites"
    cited = prefix.group(1) + ("." + prefix.group(2) if prefix.group(2) else "")
    assert any(a == cited or a.startswith(cited) for a in data["about"]), f"{cited} not in about"
    answers = text.split("\nexpect:\n", 1)[1].splitlines()
    for line in answers:
        if line.strip():
            assert "#" in line and RULE.search(line.split("#", 1)[1]), f"no reason with a rule: {line}"


def test_variant_scenario_names_are_unique() -> None:
    names = [yaml.safe_load(p.read_text(encoding="utf-8"))["name"] for p in FILES]
    assert len(names) == len(set(names))
