"""The app's doors into the other packages, without a server: table facts, what-ifs played on a table, and the
closest library scenarios without torch (issue 14)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rulesjudge.app import library as scenario_library
from rulesjudge.app import services
from rulesjudge.app.whatif import interpret


def entry(name: str, why: str = "") -> scenario_library.LibraryScenario:
    return scenario_library.LibraryScenario(Path(name), f"{name}.yaml", name, why, (), "free-for-all", {})


class FakeEncoder:
    """Vectors along fixed axes by keyword, so the closest scenario is known in advance."""

    axes = ("crown", "range", "treachery")

    def encode(self, text: str) -> np.ndarray:
        vector = np.array([[float(word in text.lower()) for word in self.axes]], dtype=np.float32) + 1e-3
        return vector / np.linalg.norm(vector)


@dataclass
class FakeEmbedder:
    encoder: Any = None
    path: Path = Path("model")

    def query_encoder(self) -> Any:
        return self.encoder


@dataclass
class FakeSearcher:
    embedder: FakeEmbedder = field(default_factory=FakeEmbedder)


@dataclass(frozen=True)
class Hit:
    id: str


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("RULESJUDGE_DATA", str(tmp_path))
    monkeypatch.setattr(scenario_library, "_vector_cache", lambda searcher: tmp_path / "app" / "vectors.npz")
    monkeypatch.setattr(scenario_library, "_CACHE", {})
    return tmp_path


def test_closest_by_meaning_once_the_library_vectors_are_ready(fresh):
    library = [entry("Range of influence one"), entry("The crown in combat"), entry("Treachery deal")]
    searcher = FakeSearcher(FakeEmbedder(FakeEncoder()))
    assert scenario_library.closest_library("who gets the crown?", searcher, library) == []  # not ready
    scenario_library.library_vectors(searcher, library)
    found = scenario_library.closest_library("who gets the crown?", searcher, library, k=2)
    assert found[0].entry.name == "The crown in combat" and found[0].how == "meaning"


def test_library_vectors_are_kept_on_disk_and_only_new_texts_are_encoded(fresh):
    library = [entry("The crown in combat"), entry("Range of influence one")]
    counted = []

    class Counting(FakeEncoder):
        def encode(self, text: str) -> np.ndarray:
            counted.append(text)
            return super().encode(text)

    searcher = FakeSearcher(FakeEmbedder(Counting()))
    scenario_library.library_vectors(searcher, library)
    scenario_library._CACHE.clear()  # a new server: the vectors come from the disk
    scenario_library.library_vectors(searcher, [*library, entry("Treachery deal")])
    assert counted == ["The crown in combat. ", "Range of influence one. ", "Treachery deal. "]


def test_without_the_onnx_model_the_closest_scenarios_cite_the_rules_found(fresh):
    crown, other = entry("The crown in combat"), entry("Range of influence one")
    searcher = FakeSearcher(FakeEmbedder(None))  # no ONNX export: never fall back to torch
    assert scenario_library.library_vectors(searcher, [crown, other]) is None
    index = {"cr@2026-04-17/725.2": [crown], "cr@2026-04-17/801.2": [other, crown]}
    found = scenario_library.closest_library("x", searcher, [crown, other], index=index,
                                     hits=[Hit("cr@2026-04-17/725.2"), Hit("cr@2026-04-17/801.2")])
    assert [(n.entry.name, n.how) for n in found] == [("The crown in combat", "cites the rules found"),
                                                      ("Range of influence one", "cites the rules found")]


def test_table_facts_name_the_designations_and_roles():
    game = {"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "monarch": "Eve",
            "identities": {"Ann": "assassin", "Ben": "guardian", "Cat": "leader", "Dan": "assassin",
                           "Eve": "traitor"}}
    facts = services.table_facts(services.open_table(game))
    assert facts.active == ("Cat",)  # 907.7: the Leader starts
    assert facts.monarch == "Eve" and facts.roles["Dan"] == "assassin"
    assert facts.turn_order == ("Cat", "Dan", "Eve", "Ann", "Ben")


def test_a_what_if_is_played_after_the_tables_own_events():
    game = {"players": ["Ann", "Ben", "Cat", "Dan"], "monarch": "Dan"}
    events = ["next-turn"]  # Ben's turn now
    table = services.open_table(game, events)
    plan = interpret("who's the monarch if the monarch concedes", services.table_facts(table))
    assert plan is not None
    outcome = services.what_if(table, plan, services.corpus_of(None))
    # 725.4: Dan leaves during Ben's turn, so the active player, Ben, becomes the monarch.
    assert outcome.line == "Ben" and outcome.answer.startswith("Ben ")
    assert len(outcome.event_steps) == 1 and outcome.ruling_steps
    assert ("monarch", "Ben") in outcome.values
