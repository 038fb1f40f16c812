"""The app reads the card snapshot into the cache in a child process before serving (app/card_cache.py),
so the server's memory never holds the snapshot's parse."""

from __future__ import annotations

from rulesjudge.app import card_cache


def test_the_child_fills_the_cache_and_the_next_read_finds_it(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESJUDGE_DATA", str(tmp_path))
    assert card_cache.prepare_card_cache() is None
    assert (tmp_path / "cache" / "cards.sqlite").is_file()
    from rulesjudge.corpus.cards import load_cards
    from rulesjudge.corpus.cards.db import forget_loaded

    forget_loaded()
    monkeypatch.setattr("rulesjudge.corpus.cards.db.read_snapshot",
                        lambda *_: (_ for _ in ()).throw(AssertionError("parsed again")))
    assert len(load_cards()) == 28256  # the built-in snapshot's cards (its README)
    forget_loaded()


def test_a_child_that_fails_is_one_line_and_no_error(monkeypatch):
    monkeypatch.setattr(card_cache, "READ", "import sys; sys.exit('rulesjudge: cards: damaged cache')")
    assert card_cache.prepare_card_cache() == \
        "the card snapshot was not read ahead: rulesjudge: cards: damaged cache"
