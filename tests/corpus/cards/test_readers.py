"""Reading card files (MTGJSON AtomicCards, Scryfall bulk data) into cards, on small files built here.

Expected values come from the files' documented formats and the id contract (docs/cards.md): the
snapshot's date is the edition; ruling n is the n-th of the first face's list; names that slug alike
get -2, -3 in name order.
"""

from __future__ import annotations

import gzip
import io
import json
import lzma
import zipfile

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards.readers import read_mtgjson, read_scryfall, unpack
from tests.corpus.cards.conftest import mtgjson, scryfall_cards, scryfall_rulings


@pytest.fixture(scope="module")
def snap():
    return read_mtgjson(mtgjson("2027-01-15"), "AtomicCards.json")


def by_name(snapshot, name):
    (card,) = [c for c in snapshot.cards if c.name == name]
    return card


def test_edition_is_the_snapshot_date_and_ids_carry_it(snap):
    thalia = by_name(snap, "Thalia, Heretic Cathar")
    assert snap.edition == "2027-01-15"  # why: meta.date of the file
    assert thalia.id == "cards@2027-01-15/card/thalia-heretic-cathar"
    assert [r.id for r in thalia.rulings] == ["cards@2027-01-15/ruling/thalia-heretic-cathar/1",
                                              "cards@2027-01-15/ruling/thalia-heretic-cathar/2"]
    assert [r.date for r in thalia.rulings] == ["2016-07-13", "2016-07-13"]
    assert thalia.rulings[1].text == "Port Town will still enter tapped."  # why: file order kept


def test_every_face_with_its_own_characteristics(snap):
    fire_ice = by_name(snap, "Fire // Ice")
    assert fire_ice.id.endswith("/card/fire-ice")  # why: the full name is slugged
    assert [(f.name, f.mana_cost, f.type_line) for f in fire_ice.faces] == [
        ("Fire", "{1}{R}", "Instant"), ("Ice", "{1}{U}", "Instant")]
    assert fire_ice.oracle_text.startswith("Fire deals 2 damage") and "Tap target permanent." in \
        fire_ice.oracle_text
    assert len(fire_ice.rulings) == 1  # why: the first face's list only (both faces repeat it)
    delver = by_name(snap, "Delver of Secrets // Insectile Aberration")
    assert [(f.name, f.power, f.toughness) for f in delver.faces] == [
        ("Delver of Secrets", "1", "1"), ("Insectile Aberration", "3", "2")]
    assert delver.keywords == ("Flying",)  # why: keywords of every face
    battle = by_name(snap, "Invasion of Gobakhan // Lightshield Array")
    assert battle.faces[0].defense == "3" and battle.faces[1].defense is None
    teferi = by_name(snap, "Teferi, Temporal Archmage")
    assert teferi.faces[0].loyalty == "5"


def test_commander_legality_and_who_can_be_a_commander(snap):
    # 903.3: a legendary creature can be a commander; a card saying so too; an artifact can't
    assert by_name(snap, "Thalia, Heretic Cathar").can_be_commander
    assert by_name(snap, "Lim-Dûl the Necromancer").can_be_commander  # a legendary creature, no flag
    assert by_name(snap, "Teferi, Temporal Archmage").can_be_commander  # "can be your commander"
    assert not by_name(snap, "Sol Ring").can_be_commander
    assert by_name(snap, "Mana Crypt").commander_legality == "banned"
    assert by_name(snap, "Sol Ring").commander_legality == "legal"


def test_names_that_slug_alike_get_a_number_in_name_order(snap):
    # why: "Sol Ring" sorts before "Sol-Ring" (space before hyphen); the contract numbers the second -2
    assert by_name(snap, "Sol Ring").id == "cards@2027-01-15/card/sol-ring"
    assert by_name(snap, "Sol-Ring").id == "cards@2027-01-15/card/sol-ring-2"
    assert by_name(snap, "Lim-Dûl the Necromancer").id.endswith("/card/lim-dul-the-necromancer")


@pytest.mark.parametrize("pack", [lzma.compress, gzip.compress, "zip"], ids=["xz", "gz", "zip"])
def test_compressed_files_read_like_the_plain_one(pack, snap):
    raw = mtgjson("2027-01-15")
    if pack == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("AtomicCards.json", raw)
        data = buffer.getvalue()
    else:
        data = pack(raw)
    assert read_mtgjson(data, "AtomicCards.json.x") == snap


@pytest.mark.parametrize(("data", "says"), [
    (mtgjson()[:-40], "truncated JSON"),
    (lzma.compress(mtgjson())[:-30], "truncated or damaged xz"),
    (gzip.compress(mtgjson())[:-30], "truncated or damaged gzip"),
    (b"\xfd7zXZ\x00 not really xz", "damaged xz"),
    (b'{"meta": {"date": "2027-01-15"}, "data": {"Fog": [{"name": "Fog"}]}, }', "damaged JSON"),
    (json.dumps({"name": "not cards"}).encode(), "not MTGJSON AtomicCards"),
    (json.dumps({"meta": {"date": "soon"}, "data": {}}).encode(), "meta.date"),
    (json.dumps({"meta": {"date": "2027-01-15"}, "data": {"Fog": {"cards": []}}}).encode(), "data.Fog"),
    (b"<!DOCTYPE html><html>404</html>", "web page"),
    (b"", "empty file"),
    (b"\xff\xfe{}", "not UTF-8"),
], ids=["truncated", "xz-cut", "gz-cut", "xz-damaged", "bad-json", "foreign", "no-date", "sets-not-cards",
        "html", "empty", "utf16"])
def test_bad_files_are_one_line_naming_the_file(data, says):
    with pytest.raises(InputError) as caught:
        read_mtgjson(data, "AtomicCards.json")
    message = str(caught.value)
    assert message.startswith("AtomicCards.json") and says in message and "\n" not in message


def test_decompression_is_bounded():
    bomb = lzma.compress(b" " * 5_000_000)
    with pytest.raises(InputError, match="more than 1000000 bytes once decompressed"):
        unpack(bomb, "bomb.json.xz", limit=1_000_000)


# --- Scryfall ------------------------------------------------------------------------------------


def test_scryfall_oracle_cards_with_official_rulings_only():
    snap = read_scryfall(scryfall_cards(), "oracle-cards-20270115093000.json", scryfall_rulings(),
                         "rulings-20270115093000.json")
    assert snap.edition == "2027-01-15"  # why: the date in Scryfall's file name
    assert [c.name for c in snap.cards] == ["Fire // Ice", "Fog", "Thalia, Heretic Cathar"]  # no token
    thalia = snap.cards[2]
    # why: Scryfall's own notes (source "scryfall") are not official rulings; the two wotc ones stay
    assert [(r.id, r.text) for r in thalia.rulings] == [
        ("cards@2027-01-15/ruling/thalia-heretic-cathar/1",
         "If Thalia enters at the same time as an opponent's creatures, they aren't affected."),
        ("cards@2027-01-15/ruling/thalia-heretic-cathar/2", "Port Town will still enter tapped.")]
    assert thalia.can_be_commander and thalia.commander_legality == "legal"
    assert [f.name for f in snap.cards[0].faces] == ["Fire", "Ice"]


def test_scryfall_every_printing_files_are_refused():
    with pytest.raises(InputError, match=r"several printings of one card \(Fog\).*oracle-cards"):
        read_scryfall(scryfall_cards(duplicate=True), "cards-20270115.json", scryfall_rulings(), "r.json")
    for name in ("default-cards-20270115093000.json", "all-cards-20270115093000.json"):
        with pytest.raises(InputError, match="every-printing file"):
            read_scryfall(scryfall_cards(), name, scryfall_rulings(), "rulings.json")


def test_scryfall_files_swapped_or_foreign():
    with pytest.raises(InputError, match="a Scryfall rulings file"):
        read_scryfall(scryfall_rulings(), "oracle-cards-20270115.json", None, "")
    with pytest.raises(InputError, match="not a Scryfall rulings file"):
        read_scryfall(scryfall_cards(), "oracle-cards-20270115.json", scryfall_cards(), "rulings.json")
    with pytest.raises(InputError, match="no date in the file's name"):
        read_scryfall(scryfall_cards(), "cards.json", scryfall_rulings(), "rulings.json")
