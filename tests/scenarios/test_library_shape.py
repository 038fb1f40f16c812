"""Structure of the core scenario library, checked without the rules model.

Every file under ``scenarios/library/<area>/`` parses as YAML and is one scenario with ``name``,
``about`` (rule numbers), ``why``, ``game`` and ``expect``; names and file names are unique; each file
sits in one of the library's areas and its file name starts with a rule number written with dashes.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

LIBRARY = Path(__file__).resolve().parents[2] / "scenarios" / "library"
AREAS = ("turns", "leaving", "monarch", "initiative", "influence", "attack", "apnap", "winning",
         "combat", "commander", "poison", "losing", "priority", "extra-turns", "blocks", "draws", "following")
RULE_NUMBER = re.compile(r"^[1-9]\d{2}(\.\d+[a-z]?)?$")  # 722, 725.4, 800.4j, 104.2a
FILE_NAME = re.compile(r"^[1-9]\d{2}(-\d+[a-z]?)?-[a-z0-9]+(-[a-z0-9]+)*\.yaml$")
REQUIRED = ("name", "about", "why", "game", "expect")

FILES = sorted(path for area in AREAS for path in (LIBRARY / area).glob("*.y*ml"))


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_library_is_large_enough_and_every_area_has_scenarios():
    assert len(FILES) >= 130, f"only {len(FILES)} scenarios in {LIBRARY}"
    for area in AREAS:
        assert any((LIBRARY / area).glob("*.yaml")), f"area {area} has no scenario"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_scenario_has_the_required_shape(path: Path):
    data = _load(path)
    assert isinstance(data, dict), "a scenario file is one mapping"
    for key in REQUIRED:
        assert key in data, f"missing {key!r}"
    assert isinstance(data["name"], str) and data["name"].strip()
    assert isinstance(data["why"], str) and data["why"].strip() and "\n" not in data["why"].strip()
    about = data["about"]
    assert isinstance(about, list) and about, "about lists the rules it exercises"
    for number in about:
        assert isinstance(number, str) and RULE_NUMBER.match(number), f"not a rule number: {number!r}"
    game = data["game"]
    assert isinstance(game, dict) and isinstance(game.get("players"), list)
    players = game["players"]
    assert 2 <= len(players) <= 16 and len(set(players)) == len(players)  # Grand Melee: ten or more (807.1)
    assert all(isinstance(p, str) for p in players)
    assert game.get("active") in players, "the active player is stated up front"
    assert isinstance(data.get("events", []), list)
    assert isinstance(data["expect"], dict) and data["expect"], "a scenario asks at least one question"
    assert FILE_NAME.match(path.name), f"file name should start with the rule it cites: {path.name}"


def test_names_and_file_names_are_unique():
    names = Counter(_load(path)["name"] for path in FILES)
    assert [n for n, c in names.items() if c > 1] == []
    file_names = Counter(path.name for path in FILES)
    assert [n for n, c in file_names.items() if c > 1] == []


def test_every_expected_answer_has_a_reason_beside_it():
    for path in FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("expect:"))
        for line in lines[start + 1 :]:
            if line.startswith("  ") and not line.strip().startswith("#"):
                assert " # " in line, f"{_id(path)}: no reason beside {line.strip()!r}"
            elif line and not line.startswith((" ", "#")):
                break


# Question and event names of the format (docs/scenario-format.md): issue 4's, the variants', issue 13's.
BARE_QUESTIONS = {
    "monarch", "initiative", "active", "turn-order", "apnap-order", "in-game", "game-over", "winners",
    "losers", "stack-controllers", "drawn", "next-turn", "extra-turns", "priority", "first-player",
    "legal-setup", "defending-players", "attacking-players", "turn-markers", "marked-for-removal", "step",
}
PLAYER_QUESTIONS = {"life": 1, "draws": 1, "opponents": 1, "teammates": 1, "range": 1, "in-range": 2,
                    "became-monarch": 1, "ventures": 1, "poison": 1, "result": 1, "can-win": 1, "can-lose": 1,
                    "team": 1, "stacks": 1, "role": 1, "face": 1, "known-role": 1, "can-unveil": 1,
                    "library": 1, "poison-limit": 1}
PERMANENT_QUESTIONS = {"controller", "exists", "owner", "zone", "tapped", "attacking", "loyalty", "defense",
                       "commander-tax", "protector", "blocked", "blockers", "blocking", "damage"}
MIXED_QUESTIONS = {"can-attack": ("player", "name"), "can-attack-now": ("player", "name"),
                   "commander-damage": ("player", "permanent"),
                   "defending-player": ("name",), "attackers": ("name",),
                   "can-deploy": ("permanent", "player"),
                   "role-holders": ("role",), "left-with-role": ("role",)}
EVENTS = {"leaves", "become-monarch", "take-initiative", "combat-damage", "end-step", "resolve",
          "next-turn", "gain-control", "concedes", "loses", "wins", "game-draw", "draw-from-empty", "at-once",
          "damage", "lose-life", "gain-life", "set-life", "poison", "draw", "add-effect", "end-effect",
          "upkeep",
          "extra-turn", "end-turn", "pass-priority", "cast", "commander-cast", "control-ends", "deploy",
          "dies",
          "exiled", "to-hand", "attack", "combat-damage-step", "unveil", "block", "until-turn"}
CALL = re.compile(r"^([a-z-]+)\((.*)\)$")


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_questions_and_events_are_known_and_name_the_table(path: Path):
    data = _load(path)
    players = set(data["game"]["players"])
    permanents = set((data["game"].get("permanents") or {}).keys())
    kinds = {"player": players, "permanent": permanents, "name": players | permanents,
             "role": {"leader", "guardian", "assassin", "traitor"}}  # 205.3tr's identity types
    for question in data["expect"]:
        call = CALL.match(question)
        if not call:
            assert question in BARE_QUESTIONS, f"unknown question {question!r}"
            continue
        name, args = call.group(1), [a.strip() for a in call.group(2).split(",")]
        if name in PERMANENT_QUESTIONS:
            wanted: tuple[str, ...] = ("permanent",)
        elif name in MIXED_QUESTIONS:
            wanted = MIXED_QUESTIONS[name]
        else:
            assert name in PLAYER_QUESTIONS, f"unknown question {question!r}"
            wanted = ("player",) * PLAYER_QUESTIONS[name]
        assert len(args) == len(wanted), f"{question}: takes {len(wanted)} arguments"
        for arg, kind in zip(args, wanted, strict=True):
            assert arg in kinds[kind], f"{question}: {arg!r} is not a {kind} of the table"
    for event in data.get("events") or []:
        name = event if isinstance(event, str) else next(iter(event))
        assert name in EVENTS, f"unknown event {name!r}"


def test_every_cited_rule_exists_in_the_built_in_release():
    """`about` numbers follow the built-in Comprehensive Rules of 2026-04-17 (Monarch 725, Initiative 726)."""
    sources = LIBRARY.parents[1] / "corpus" / "sources"
    text = (sources / "cr-2026-04-17.txt").read_text(encoding="utf-8-sig")
    text += (sources / "treachery-rules-v4.txt").read_text(encoding="utf-8")  # 907.x: Treachery
    numbers = {m.group(1) for m in re.finditer(r"^(\d{3}(?:\.\d+[a-z]?)?)\.? ", text, re.MULTILINE)}
    cited = {(_id(path), number) for path in FILES for number in _load(path)["about"]}
    missing = sorted(f"{where}: {number}" for where, number in cited if number not in numbers)
    assert missing == []
