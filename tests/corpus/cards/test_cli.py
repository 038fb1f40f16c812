"""``rulesjudge card`` and ``rulesjudge cards add|update|list``: output, exit codes, bad input.

Bad input is one line naming the file and what is wrong, exit 2, and the current snapshot untouched.
No test needs the internet: downloads come from a server on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import socket

import pytest

from tests.corpus.cards.conftest import VENDORED_CARDS, mtgjson, scryfall_cards, scryfall_rulings


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def state(data_dir):
    """What a refused file must not change: the files of the data folder's cards/ and the current edition."""
    from rulesjudge.corpus.cards import load_cards
    from rulesjudge.corpus.cards.db import forget_loaded

    folder = data_dir / "cards"
    files = sorted((p.name, p.read_bytes()) for p in folder.rglob("*") if p.is_file()) \
        if folder.is_dir() else []
    forget_loaded()
    return files, load_cards().edition


# --- rulesjudge card -------------------------------------------------------------------------------


def test_card_shows_faces_rulings_and_rules(cards_data, cli):
    code, out, _ = cli("card", "thalia", "heretic", "cathar")
    assert code == 0
    assert out.startswith("Thalia, Heretic Cathar  (cards@2026-07-09/card/thalia-heretic-cathar)")
    assert "Legendary Creature — Human Soldier {2}{W}" in out and "enter tapped." in out and "3/2" in out
    assert "Commander: legal; can be your commander" in out  # 903.3: a legendary creature
    assert "Official rulings (2):" in out and "2016-07-13" in out
    rules = out.split("Rules its text refers to:")[1]
    assert "First strike: CR 702.7 (2026-04-17)" in rules  # why: 702.7 is First Strike
    assert "enters tapped:" in rules and "CR 614.12" in rules  # why: 614.12, how a permanent enters


def test_card_json_has_every_field_and_the_rules(cards_data, cli):
    code, out, _ = cli("card", "Platnum", "Angle", "--json")
    data = json.loads(out)
    (card,) = data["cards"]
    assert code == 0 and data["edition"] == "2026-07-09" and card["name"] == "Platinum Angel"
    assert card["faces"][0]["power"] == "4" and card["keywords"] == ["Flying"]
    assert all(set(r) == {"id", "date", "text"} for r in card["rulings"]) and card["rulings"]
    terms = {rule["term"]: rule["ids"] for rule in card["rules"]}
    assert "cr@2026-04-17/104.3" in terms["can't lose the game"]  # why: 104.3, ways to lose the game
    assert terms["Flying"] == ["cr@2026-04-17/702.9"]  # why: 702.9 is Flying


def test_card_short_name_lists_the_cards(cards_data, cli):
    code, out, _ = cli("card", "Thalia")
    assert code == 0 and "Thalia, Heretic Cathar" in out and "Thalia, Guardian of Thraben" in out


@pytest.mark.parametrize(("argv", "says"), [
    (("card", "qwertyuiop", "zxcvbnm"),
     "no card named 'qwertyuiop zxcvbnm' in the card snapshot of 2026-07-09; closest: "),
    (("card", "Bowmasters"),
     "'Bowmasters' is what the table calls Orcish Bowmasters, which the card snapshot"),
    (("card", "Fog", "--edition", "1999-01-01"), "no card snapshot of 1999-01-01"),
])
def test_card_unknown_is_one_line_and_exit_2(cards_data, cli, argv, says):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and says in one_line(err)


# --- rulesjudge cards add / list -------------------------------------------------------------------


def test_add_a_newer_snapshot_then_list(cards_data, tmp_path, cli):
    path = tmp_path / "AtomicCards.json"
    path.write_bytes(mtgjson("2027-01-15"))
    code, out, _ = cli("cards", "add", str(path))
    assert code == 0 and out.startswith("Added: card snapshot of 2027-01-15 (mtgjson: 11 cards, 3 rulings)")
    assert "now the current snapshot" in out
    assert (cards_data / "cards" / "mtgjson-2027-01-15.json").read_bytes() == path.read_bytes()  # as given
    code, out, _ = cli("card", "fog")
    assert code == 0 and "(cards@2027-01-15/card/fog)" in out
    code, out, _ = cli("card", "fog", "--edition", "2026-07-09")
    assert code == 0 and "(cards@2026-07-09/card/fog)" in out
    code, out, _ = cli("cards", "list")
    lines = out.splitlines()
    assert code == 0 and lines[1].startswith("* 2027-01-15   mtgjson") and " 11 " in lines[1]
    assert lines[2].startswith("  2026-07-09   mtgjson     28256    57805  built in")
    code, out, _ = cli("cards", "add", str(path))
    assert code == 0 and out.startswith("Already added")


def test_add_the_built_in_file_adds_nothing(cards_data, cli):
    code, out, _ = cli("cards", "add", str(VENDORED_CARDS))
    assert code == 0 and out.startswith("Already built in") and not (cards_data / "cards").exists()


def test_add_checks_the_published_checksum(cards_data, tmp_path, cli):
    path = tmp_path / "AtomicCards.json.xz"
    path.write_bytes(lzma.compress(mtgjson("2027-02-01")))
    (tmp_path / "AtomicCards.json.xz.sha256").write_text("0" * 64 + "\n")
    before = state(cards_data)
    code, _, err = cli("cards", "add", str(path))
    assert code == 2 and "wrong checksum" in one_line(err) and str(path) in err
    assert state(cards_data) == before
    (tmp_path / "AtomicCards.json.xz.sha256").write_text(hashlib.sha256(path.read_bytes()).hexdigest())
    code, _, _ = cli("cards", "add", str(path))
    assert code == 0 and (cards_data / "cards" / "mtgjson-2027-02-01.json.xz").is_file()
    code, _, err = cli("cards", "add", str(path), "--sha256", "ab" * 32)
    assert code == 2 and "wrong checksum" in one_line(err)


@pytest.mark.parametrize(("content", "says"), [
    (mtgjson()[: len(mtgjson()) // 2], "truncated JSON"),
    (lzma.compress(mtgjson())[:200], "truncated or damaged xz"),
    (b'{"meta": {"version": "5.3.0"}, "data": {"Fog": "no faces"}}', "meta.date"),
    (json.dumps({"type": "FeatureCollection", "features": []}).encode(), "not MTGJSON AtomicCards"),
    (json.dumps([{"object": "ruling", "oracle_id": "x", "published_at": "2020-01-01",
                  "comment": "c"}]).encode(), "a Scryfall rulings file"),
], ids=["truncated", "xz-cut", "no-date", "foreign", "rulings-alone"])
def test_bad_files_are_refused_and_nothing_changes(cards_data, tmp_path, cli, content, says):
    path = tmp_path / "oracle-cards-20270101000000.json"
    path.write_bytes(content)
    (tmp_path / "rulings-20270101000000.json").write_bytes(scryfall_rulings())
    before = state(cards_data)
    code, out, err = cli("cards", "add", str(path))
    line = one_line(err)
    assert code == 2 and out == "" and says in line and "oracle-cards-20270101000000.json" in line
    assert state(cards_data) == before


@pytest.mark.parametrize(("source", "says"), [
    ("/dev/zero", "not a regular file"), (".", "is a folder, not a card file"),
    ("/nonexistent/AtomicCards.json", "no such file"),
    ("ftp://example.org/AtomicCards.json", "unsupported URL"),
])
def test_what_is_no_file_is_one_line(cards_data, cli, source, says):
    code, _, err = cli("cards", "add", source)
    assert code == 2 and says in one_line(err)


def test_a_file_over_the_limit_is_refused_unread(cards_data, tmp_path, cli):
    huge = tmp_path / "AtomicCards.json"
    with huge.open("wb") as handle:  # sparse: 3 GB that take no disk
        handle.truncate(3 * 1024**3)
    code, _, err = cli("cards", "add", str(huge))
    assert code == 2 and "too large: 3221225472 bytes" in one_line(err)


def test_scryfall_oracle_cards_with_rulings_beside(cards_data, tmp_path, cli):
    (tmp_path / "oracle-cards-20270301093000.json").write_bytes(scryfall_cards())
    (tmp_path / "rulings-20270301093000.json").write_bytes(scryfall_rulings())
    code, out, _ = cli("cards", "add", str(tmp_path / "oracle-cards-20270301093000.json"))
    assert code == 0 and out.startswith("Added: card snapshot of 2027-03-01 (scryfall: 3 cards, 2 rulings)")
    code, out, _ = cli("card", "Thalia, Heretic Cathar", "--json")
    card = json.loads(out)["cards"][0]
    assert card["id"] == "cards@2027-03-01/card/thalia-heretic-cathar" and len(card["rulings"]) == 2


def test_scryfall_every_printing_file_is_refused(cards_data, tmp_path, cli):
    (tmp_path / "default-cards-20270301093000.json").write_bytes(scryfall_cards(duplicate=True))
    (tmp_path / "rulings-20270301093000.json").write_bytes(scryfall_rulings())
    before = state(cards_data)
    code, _, err = cli("cards", "add", str(tmp_path / "default-cards-20270301093000.json"))
    assert code == 2 and "oracle-cards" in one_line(err) and state(cards_data) == before


# --- downloads from 127.0.0.1 ----------------------------------------------------------------------


def test_update_downloads_the_newest_with_its_checksum(cards_data, http_folder, cli):
    base, folder = http_folder
    data = lzma.compress(mtgjson("2027-05-01"))
    (folder / "AtomicCards.json.xz").write_bytes(data)
    (folder / "AtomicCards.json.xz.sha256").write_text(hashlib.sha256(data).hexdigest())
    code, out, _ = cli("cards", "update", "--base-url", base)
    assert code == 0 and out.startswith("Added: card snapshot of 2027-05-01")
    assert (cards_data / "cards" / "mtgjson-2027-05-01.json.xz").read_bytes() == data
    code, out, _ = cli("cards", "update", "--base-url", base + "/")
    assert code == 0 and out.startswith("Already added")


def test_update_refuses_a_download_whose_checksum_differs(cards_data, http_folder, cli, monkeypatch):
    base, folder = http_folder
    (folder / "AtomicCards.json.xz").write_bytes(lzma.compress(mtgjson("2027-05-01")))
    (folder / "AtomicCards.json.xz.sha256").write_text("f" * 64)
    monkeypatch.setenv("RULESJUDGE_MTGJSON_URL", base)  # the base URL can be set for every run
    before = state(cards_data)
    code, _, err = cli("cards", "update")
    assert code == 2 and "wrong checksum" in one_line(err) and state(cards_data) == before
    (folder / "AtomicCards.json.xz.sha256").unlink()
    code, _, err = cli("cards", "update")
    assert code == 2 and "HTTP 404" in one_line(err) and ".sha256" in err


def test_add_from_a_url_and_an_unreachable_one(cards_data, http_folder, cli):
    base, folder = http_folder
    (folder / "AtomicCards.json").write_bytes(mtgjson("2027-06-01"))
    code, out, _ = cli("cards", "add", f"{base}/AtomicCards.json")
    assert code == 0 and out.startswith("Added: card snapshot of 2027-06-01")
    code, _, err = cli("cards", "add", f"{base}/missing.json")
    assert code == 2 and "HTTP 404" in one_line(err)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    before = state(cards_data)
    code, _, err = cli("cards", "add", f"http://127.0.0.1:{port}/AtomicCards.json")
    assert code == 2 and "connection refused" in one_line(err) and state(cards_data) == before


def test_scryfall_files_compressed_are_kept_as_given(cards_data, tmp_path, cli):
    import gzip

    cards, rulings = gzip.compress(scryfall_cards()), gzip.compress(scryfall_rulings())
    (tmp_path / "oracle-cards-20270401093000.json.gz").write_bytes(cards)
    (tmp_path / "r.json.gz").write_bytes(rulings)
    code, out, _ = cli("cards", "add", str(tmp_path / "oracle-cards-20270401093000.json.gz"),
                       str(tmp_path / "r.json.gz"))
    assert code == 0 and "2027-04-01 (scryfall: 3 cards, 2 rulings)" in out
    kept = cards_data / "cards" / "scryfall-2027-04-01"
    assert (kept / "oracle-cards.json").read_bytes() == cards
    assert (kept / "rulings.json").read_bytes() == rulings
    from rulesjudge.corpus.cards import load_cards
    from rulesjudge.corpus.cards.db import forget_loaded

    forget_loaded()
    assert [c.name for c in load_cards().lookup("fire")] == ["Fire // Ice"]
