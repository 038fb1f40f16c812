"""The built-in card snapshot: vendored byte for byte, read whole, its ids as the contract defines them,
and parsed once into a cache that is SQLite (no pickle) and survives damage."""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import sqlite3

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards import load_cards
from rulesjudge.corpus.cards.cache import cache_path
from rulesjudge.corpus.cards.model import slug
from rulesjudge.corpus.cards.snapshots import builtin_snapshot
from rulesjudge.corpus.documents import MANIFEST_PATH
from tests.corpus.cards.conftest import SHARED_CARDS, VENDORED_CARDS, mtgjson

ID = re.compile(r"^cards@\d{4}-\d{2}-\d{2}/(card/[a-z0-9-]+|ruling/[a-z0-9-]+/\d+)$")


def test_vendored_snapshot_is_in_the_manifest_with_its_sha256():
    entry = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))["cards"][0]
    assert entry["file"] == VENDORED_CARDS.name and entry["edition"] == "2026-07-09"  # why: its meta.date
    assert hashlib.sha256(VENDORED_CARDS.read_bytes()).hexdigest() == entry["sha256"]
    assert entry["origin"] and "MTGJSON" in entry["origin"]
    assert builtin_snapshot().sha256 == entry["sha256"]


def test_vendored_snapshot_equals_the_shared_one():
    if not SHARED_CARDS.is_file():
        pytest.skip(f"shared card snapshot absent: {SHARED_CARDS} (only present in the project's workspace)")
    assert VENDORED_CARDS.read_bytes() == SHARED_CARDS.read_bytes()


def test_whole_snapshot_read(builtin_db):
    # why: shared/cards/README.md counts 28,256 cards and 57,805 rulings
    assert builtin_db.edition == "2026-07-09"
    assert (builtin_db.info.cards, builtin_db.info.rulings) == (28256, 57805)
    assert len(builtin_db.names()) == 28256


def test_ruling_ids_follow_the_contract(builtin_db):
    """The contract's own recipe (cards-contract.md), run on the raw file, gives the same ids and dates."""
    with lzma.open(VENDORED_CARDS) as handle:
        data = json.load(handle)["data"]
    for name in ("Thalia, Heretic Cathar", "Fire // Ice", "Phyrexian Metamorph", "Lim-Dûl the Necromancer"):
        expected = [(f"cards@2026-07-09/ruling/{slug(name)}/{i}", r["date"], r["text"])
                    for i, r in enumerate(data[name][0].get("rulings", []), 1)]
        (card,) = [c for c in builtin_db.lookup(name) if c.name == name]
        assert card.id == f"cards@2026-07-09/card/{slug(name)}"
        assert [(r.id, r.date, r.text) for r in card.rulings] == expected


def test_every_id_is_unique_and_in_the_house_scheme(builtin_db):
    ids = [entry.id for entry in builtin_db.index.entries]
    assert len(set(ids)) == len(ids)
    assert all(ID.match(i) for i in ids)


def test_faces_of_each_layout(builtin_db):
    (fire_ice,) = builtin_db.lookup("Fire // Ice")
    assert [f.name for f in fire_ice.faces] == ["Fire", "Ice"]  # why: a split card's two halves
    (delver,) = builtin_db.lookup("Delver of Secrets // Insectile Aberration")
    assert delver.faces[1].name == "Insectile Aberration" and delver.faces[1].power == "3"
    (thalia,) = builtin_db.lookup("Thalia, Heretic Cathar")
    assert thalia.can_be_commander and thalia.commander_legality == "legal"  # a legendary creature, 903.3
    assert thalia.keywords == ("First strike",)


def test_cache_is_sqlite_and_a_second_load_parses_nothing(cards_data, monkeypatch):
    assert cache_path().read_bytes()[:16] == b"SQLite format 3\x00"  # why: a cache can't run code
    import rulesjudge.corpus.cards.db as db_module

    def no_parse(*args, **kwargs):
        raise AssertionError("the snapshot was parsed again")

    monkeypatch.setattr(db_module, "read_snapshot", no_parse)
    assert len(load_cards()) == 28256


def add_small(data_dir, date="2027-01-15"):
    from rulesjudge.corpus.cards.adding import add_snapshot

    path = data_dir.parent / f"AtomicCards-{date}.json"
    path.write_bytes(mtgjson(date))
    return add_snapshot([str(path)])


def test_newest_snapshot_is_current_and_older_ones_stay_readable(cards_data):
    add_small(cards_data)
    assert load_cards().edition == "2027-01-15"  # why: the newest loaded snapshot is current
    assert load_cards("2026-07-09").info.cards == 28256
    loaded = r"no card snapshot of 1999-01-01 \(loaded: 2026-07-09, 2027-01-15\)"
    with pytest.raises(InputError, match=loaded):
        load_cards("1999-01-01")


def test_a_damaged_cache_is_made_anew(cards_data):
    from rulesjudge.corpus.cards.db import forget_loaded

    add_small(cards_data)
    forget_loaded()
    for suffix in ("-wal", "-shm"):
        (cache_path().parent / (cache_path().name + suffix)).unlink(missing_ok=True)
    cache_path().write_bytes(b"not a database at all" * 100)
    db = load_cards()
    assert db.edition == "2027-01-15" and [c.name for c in db.lookup("Fog")] == ["Fog"]


def test_a_write_that_fails_halfway_leaves_the_cache_as_it_was(cards_data, monkeypatch):
    from rulesjudge.corpus.cards.db import forget_loaded, open_card_cache
    from rulesjudge.corpus.cards.model import Card

    calls = {"n": 0}
    original = Card.to_data

    def fail_on_the_third(self):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full")
        return original(self)

    monkeypatch.setattr(Card, "to_data", fail_on_the_third)
    assert add_small(cards_data).status == "added"  # the file is kept; its cards could not be cached
    monkeypatch.setattr(Card, "to_data", original)
    cache = open_card_cache()
    rows = cache.db.execute("SELECT COUNT(*) FROM cards WHERE sha NOT IN (SELECT sha FROM snapshots)")
    assert rows.fetchone()[0] == 0  # why: one transaction, nothing of the failed snapshot kept
    forget_loaded()
    assert load_cards().info.cards == 11  # the file was written: it is parsed again, whole


def test_an_added_snapshot_damaged_later_is_left_out_with_a_warning(cards_data, capsys):
    from rulesjudge.corpus.cards.db import forget_loaded

    add_small(cards_data)
    (cards_data / "cards" / "mtgjson-2027-01-15.json").write_bytes(b'{"meta": {"date": "2027-01-15"}, "da')
    forget_loaded()
    assert load_cards().edition == "2026-07-09"  # why: the previous good snapshot answers
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mtgjson-2027-01-15.json" in err and "truncated JSON" in err
    with pytest.raises(InputError, match="truncated JSON"):
        load_cards("2027-01-15")  # named: the error itself


def test_cache_schema_is_plain_tables(cards_data):
    db = sqlite3.connect(cache_path())
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"meta", "snapshots", "cards", "files"} <= tables


def test_the_card_data_files_are_package_data():
    """An installed rulesjudge has its snapshot and the names' data files (pyproject's package-data)."""
    import fnmatch
    import tomllib

    from tests.corpus.cards.conftest import PROJECT_ROOT

    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["rulesjudge.corpus"]
    corpus = PROJECT_ROOT / "corpus"
    needed = [VENDORED_CARDS, *sorted((corpus / "cards").glob("*.yaml"))]
    assert len(needed) == 4  # the snapshot, nicknames, rules terms, Oracle templates
    for path in needed:
        relative = path.relative_to(corpus).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative
