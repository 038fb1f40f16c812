"""Shape of the pending scenarios (``scenarios/pending/``): specifications waiting for the rules model.

The model does not run them (they use events and questions it doesn't have yet, see
``scenarios/pending/README.md``), so this only checks that each file stays a well-formed scenario: it
parses as YAML, has ``name``, ``about``, ``why``, ``game`` and ``expect``, states its seats and active
player up front, cites rule numbers (and the rule of its file name) and gives a reason beside every
expected answer. Names and file names are unique, and no file collides with one in the library.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2] / "scenarios"
PENDING = ROOT / "pending"
FILES = sorted(PENDING.rglob("*.yaml"))
RULE_NUMBER = re.compile(r"^[1-9]\d{2}(\.\d+[a-z]?)?$")  # 903, 903.10a, 800.4m
FILE_NAME = re.compile(r"^([1-9]\d{2})(?:-(\d+[a-z]?))?-[a-z0-9]+(-[a-z0-9]+)*\.yaml$")
REQUIRED = ("name", "about", "why", "game", "expect")
ALLOWED = {*REQUIRED, "events"}
REASON = re.compile(r"\b\d{3}(\.\d+[a-z]?)?\b|note|example")  # a rule number, a card note or an example


#: Each pending file, or one skipped case saying why when every specification has moved to the library.
NONE_PENDING = pytest.mark.skip(reason="no pending scenarios: every one is in the library now")
CASES = FILES or [pytest.param(None, marks=NONE_PENDING)]


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _id(path: Path | None) -> str:
    return str(path.relative_to(PENDING)) if path else "none"


#: Library areas the pending scenarios moved to once the model passed them (issue 13).
MOVED_TO = ("combat", "commander", "poison", "losing", "priority", "grand-melee", "alternating-teams",
            "extra-turns")


def test_pending_scenarios_exist_outside_the_library() -> None:
    moved = [p for area in MOVED_TO for p in (ROOT / "library" / area).glob("*.yaml")]
    assert len(FILES) + len(moved) >= 120, f"only {len(FILES)} pending and {len(moved)} moved scenarios"
    assert not (ROOT / "library" / "pending").exists()


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_pending_scenario_shape(path: Path) -> None:
    data = _load(path)
    assert isinstance(data, dict), "a scenario file is one mapping"
    assert set(data) <= ALLOWED, f"unknown top-level keys {set(data) - ALLOWED}"
    for key in REQUIRED:
        assert key in data, f"missing {key!r}"
    assert isinstance(data["name"], str) and data["name"].strip()
    assert isinstance(data["why"], str) and "\n" not in data["why"].strip(), "why is one line"
    about = data["about"]
    assert isinstance(about, list) and about, "about lists the rules it exercises"
    assert all(isinstance(n, str) and RULE_NUMBER.match(n) for n in about), f"not rule numbers: {about}"
    match = FILE_NAME.match(path.name)
    assert match, f"file name should start with the rule it cites: {path.name}"
    cited = match.group(1) + (f".{match.group(2)}" if match.group(2) else "")
    assert any(n == cited or n.startswith(cited) for n in about), f"{cited} (file name) not in about"
    game = data["game"]
    players = game.get("players")
    assert isinstance(players, list) and len(players) >= 2 and len(set(players)) == len(players)
    assert game.get("active") in players, "seats and the active player are stated up front"
    assert isinstance(data.get("events", []), list)
    assert isinstance(data["expect"], dict) and data["expect"], "a scenario asks at least one question"


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_every_expected_answer_has_a_reason_beside_it(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\nexpect:\n", 1)[1].splitlines()
    for line in lines:
        if line.startswith("  ") and line.strip():
            reason = line.split(" # ", 1)[1] if " # " in line else ""
            assert REASON.search(reason), f"no rule beside {line.strip()!r}"


def test_names_and_file_names_are_unique_and_new() -> None:
    names = Counter(_load(path)["name"] for path in FILES)
    assert [n for n, c in names.items() if c > 1] == []
    file_names = Counter(path.name for path in FILES)
    assert [n for n, c in file_names.items() if c > 1] == []
    library = {p.name for p in (ROOT / "library").rglob("*.yaml")}
    assert sorted(set(file_names) & library) == [], "a pending file would overwrite a library file"


def test_cited_rules_exist_in_the_built_in_edition(shared_cr_dir: Path) -> None:
    """`about` numbers are 2026-04-17 Comprehensive Rules numbers (907.x: the Treachery document)."""
    release = shared_cr_dir / "cr-2026-04-17.txt"
    if not release.is_file():
        pytest.skip(f"official release absent: {release}")
    pattern = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.? ", re.MULTILINE)
    numbers = set(pattern.findall(release.read_text(encoding="utf-8-sig")))
    treachery = ROOT.parent / "corpus" / "sources" / "treachery-rules-v4.txt"
    numbers |= set(pattern.findall(treachery.read_text(encoding="utf-8")))
    cited = {(_id(path), n) for path in FILES for n in _load(path)["about"]}
    assert sorted(f"{where}: {n}" for where, n in cited if n not in numbers) == []
