"""The server's sessions search at once (eight judges): a part loaded on first need is loaded once, and a
question asked while it loads waits for it instead of being answered without it (a different answer)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from rulesjudge.corpus.records import Record
from rulesjudge.corpus.store import corpus_of
from rulesjudge.indexer import search as search_module
from rulesjudge.indexer.candidates import Candidates
from rulesjudge.indexer.search import Searcher

LOADED = object()  # what the slow load returns


def _one_rule():
    return corpus_of([Record("cr@2026-04-17/725.4", "cr", "2026-04-17", "rule",
                             "If the monarch leaves the game, the active player becomes the monarch.",
                             number="725.4")])


def _asked_twice_while_loading(ask: Callable[[], Any], started: threading.Event,
                               release: threading.Event) -> dict[str, Any]:
    """``ask`` from two threads, the second while the first is inside the slow load; both answers."""
    got: dict[str, Any] = {}
    first = threading.Thread(target=lambda: got.setdefault("first", ask()))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=lambda: got.setdefault("second", ask()))
    second.start()
    second.join(0.2)
    waited = second.is_alive()
    release.set()
    first.join(5)
    second.join(5)
    got["waited"] = waited
    return got


def _slow(loads: list[str], started: threading.Event, release: threading.Event) -> Callable[..., Any]:
    def load(*_args: Any) -> Any:
        loads.append("load")
        started.set()
        release.wait(5)
        return LOADED
    return load


def test_a_question_asked_while_the_cards_load_waits_for_them(monkeypatch: pytest.MonkeyPatch):
    loads: list[str] = []
    started, release = threading.Event(), threading.Event()
    monkeypatch.setattr(search_module, "load_cards", _slow(loads, started, release))
    searcher = Searcher(_one_rule(), progress=False, build=False)  # cards: the current snapshot, on need
    got = _asked_twice_while_loading(searcher._cards, started, release)
    assert got == {"first": LOADED, "second": LOADED, "waited": True}
    assert loads == ["load"]  # once per searcher


def test_a_question_asked_while_the_dense_index_opens_waits_for_it(monkeypatch: pytest.MonkeyPatch):
    loads: list[str] = []
    started, release = threading.Event(), threading.Event()
    monkeypatch.setattr(Candidates, "_open_dense", _slow(loads, started, release))
    candidates = Candidates(_one_rule().records, progress=False, build=False)
    got = _asked_twice_while_loading(lambda: candidates.dense, started, release)
    assert got == {"first": LOADED, "second": LOADED, "waited": True}
    assert loads == ["load"]
