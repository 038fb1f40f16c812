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


# ------------------------------------------------------------------- the server's warm-up (eight judges)


@dataclass
class WarmingEmbedder:
    prepared: list[str] = field(default_factory=list)

    def prepare_queries(self) -> None:
        self.prepared.append("model")


@dataclass
class WarmingSearcher:
    """Records what the warm-up asks, and whether a judge's question would still have waited then."""

    embedder: WarmingEmbedder = field(default_factory=WarmingEmbedder)
    asked: list[tuple[str, bool]] = field(default_factory=list)

    def search(self, query: str, k: int = 10, **_filters: Any) -> None:
        self.asked.append((query, services.model_ready()))


@pytest.fixture
def warm_up_alone(monkeypatch):
    """The warm-up's own steps with the library and the reader's dictionary left out (tested elsewhere)."""
    import threading

    monkeypatch.setattr(services, "_MODEL_READY", threading.Event())
    monkeypatch.setattr(services, "_WARMING", {})
    for name in ("library_index", "library_vectors", "load_library", "warm_up_reader"):
        monkeypatch.setattr(services, name, lambda *args: None)
    yield
    import gc

    gc.unfreeze()  # the settled heap is the server's habit, not this test process's


def test_the_warm_up_asks_a_question_before_a_judges_question_is_let_through(warm_up_alone):
    """A first search loads the card names and the lexicon (0.8 s, measured); the warm-up does it while
    questions still wait for it, so no judge's search pays for it nor races it."""
    searcher = WarmingSearcher()
    services.warm_up(searcher).join()  # type: ignore[arg-type]
    assert searcher.embedder.prepared == ["model"]
    assert searcher.asked == [(services.WARM_QUESTION, False)]  # asked before the questions were let in
    assert services.model_ready()
    # why this question: one that is not only a rule number reads the model, the cards and the lexicon
    assert not services.parse_query(services.WARM_QUESTION).pure


def test_the_warm_up_leaves_what_it_loaded_out_of_the_collectors_walk(warm_up_alone):
    import gc

    loaded = {"records": [{"id": n} for n in range(100)]}  # a long-lived container, made before it
    services.warm_up(WarmingSearcher()).join()  # type: ignore[arg-type]
    assert gc.get_freeze_count() > 0
    assert not any(o is loaded for o in gc.get_objects())  # frozen: a full collection never walks it


def test_settle_freezes_what_lives_and_later_garbage_is_still_collected():
    import gc

    from rulesjudge.app import memory

    kept = [[n] for n in range(10)]
    try:
        assert memory.settle() >= len(kept)
        assert not any(o is kept for o in gc.get_objects())
        made_later: list[Any] = []
        made_later.append(made_later)  # a cycle made after settling: garbage the collector still frees
        assert any(o is made_later for o in gc.get_objects())
        del made_later
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
