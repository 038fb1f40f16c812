"""The app reads the card snapshot into the cache in a child process before serving (app/card_cache.py),
so the server's memory never holds the snapshot's parse."""

from __future__ import annotations

import threading

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


def test_a_server_asking_for_cards_while_the_child_parses_waits_and_reads_its_cache(tmp_path, monkeypatch):
    """The first start serves before the child is done (issue 23.5); the server must then never parse the
    snapshot itself (a ~300 MB peak that stays its resident size, issue 21.4): it waits for the child."""
    import fcntl
    import time

    from rulesjudge.corpus.cards.cache import cache_path
    from rulesjudge.corpus.cards.db import forget_loaded

    monkeypatch.setenv("RULESJUDGE_DATA", str(tmp_path))
    reading = card_cache.start_card_cache()
    lock = cache_path().with_name(cache_path().name + ".parse.lock")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the child holds the parse lock
        if lock.exists():
            with open(lock, "a+b") as handle:
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
                except BlockingIOError:
                    break
        time.sleep(0.02)
    else:
        raise AssertionError(f"the child never took the parse lock: {reading.wait()}")
    assert reading.running
    forget_loaded()
    monkeypatch.setattr("rulesjudge.corpus.cards.db.read_snapshot",
                        lambda *_: (_ for _ in ()).throw(AssertionError("parsed in the server too")))
    from rulesjudge.corpus.cards import load_cards

    assert len(load_cards()) == 28256  # waited for the child, then read its cache
    assert reading.wait() is None and not reading.running
    forget_loaded()


def test_the_pages_know_whether_the_child_still_reads(monkeypatch):
    monkeypatch.setattr(card_cache, "READ", "import time; time.sleep(1.5)")
    monkeypatch.setattr(card_cache, "_SERVING", {})
    assert card_cache.ready()  # no child: nothing to wait for
    said: list[str] = []
    card_cache.serve_while_reading(card_cache.start_card_cache(), said.append)
    assert not card_cache.ready()  # why: the page shows "Reading the card snapshot…" and waits
    card_cache.wait()
    assert card_cache.ready() and said == []


def test_a_child_that_fails_while_the_server_serves_is_said_once(monkeypatch):
    monkeypatch.setattr(card_cache, "READ", "import sys; sys.exit('rulesjudge: cards: damaged cache')")
    monkeypatch.setattr(card_cache, "_SERVING", {})
    said: list[str] = []
    reading = card_cache.start_card_cache()
    card_cache.serve_while_reading(reading, said.append)
    card_cache.wait()
    for thread in threading.enumerate():
        if thread.name == "card-cache-watch":
            thread.join(5)
    assert said == ["the card snapshot was not read ahead: rulesjudge: cards: damaged cache"]
