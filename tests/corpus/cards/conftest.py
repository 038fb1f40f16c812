"""Card fixtures: small snapshots written in the test (MTGJSON and Scryfall shapes, as those sites
document them), the built-in snapshot parsed once per session, and a local HTTP server."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import copy_cache

PROJECT_ROOT = Path(__file__).resolve().parents[3]
SHARED_CARDS = PROJECT_ROOT.parent / "shared" / "cards" / "AtomicCards.json.xz"
VENDORED_CARDS = PROJECT_ROOT / "corpus" / "sources" / "AtomicCards.json.xz"


def face(name: str, type_line: str, text: str = "", **more: object) -> dict:
    """One MTGJSON face with the fields the reader uses."""
    data = {"name": name, "type": type_line, "text": text, "layout": "normal",
            "legalities": {"commander": "Legal"}, "rulings": []}
    data.update(more)
    return data


def small_cards() -> dict[str, list[dict]]:
    """A handful of cards of every shape: a split card, a double-faced card, a legendary creature, a card
    that says it can be a commander, a banned card, names that slug alike, an accented name."""
    ruling = [{"date": "2016-07-13", "text": "If Thalia enters at the same time as an opponent's creatures, "
                                              "they aren't affected."},
              {"date": "2016-07-13", "text": "Port Town will still enter tapped."}]
    return {
        "Thalia, Heretic Cathar": [face("Thalia, Heretic Cathar", "Legendary Creature — Human Soldier",
                                        "First strike\nCreatures and nonbasic lands your opponents control "
                                        "enter tapped.", manaCost="{2}{W}", power="3", toughness="2",
                                        keywords=["First strike"], rulings=ruling,
                                        leadershipSkills={"commander": True})],
        "Fire // Ice": [
            face("Fire // Ice", "Instant",
                 "Fire deals 2 damage divided as you choose among one or two targets.", faceName="Fire",
                 side="a", layout="split", manaCost="{1}{R}",
                 rulings=[{"date": "2022-12-08", "text": "Each split card is a single card."}]),
            face("Fire // Ice", "Instant", "Tap target permanent.\nDraw a card.", faceName="Ice", side="b",
                 layout="split", manaCost="{1}{U}",
                 rulings=[{"date": "2022-12-08", "text": "Each split card is a single card."}]),
        ],
        "Delver of Secrets // Insectile Aberration": [
            face("Delver of Secrets // Insectile Aberration", "Creature — Human Wizard",
                 "At the beginning of your upkeep, look at the top card of your library.",
                 faceName="Delver of Secrets", side="a", layout="transform", power="1", toughness="1"),
            face("Delver of Secrets // Insectile Aberration", "Creature — Human Insect", "Flying",
                 faceName="Insectile Aberration", side="b", layout="transform", power="3", toughness="2",
                 keywords=["Flying"]),
        ],
        "Fog": [face("Fog", "Instant", "Prevent all combat damage that would be dealt this turn.",
                     manaCost="{G}")],
        "Platinum Angel": [face("Platinum Angel", "Artifact Creature — Angel",
                                "Flying\nYou can't lose the game and your opponents can't win the game.",
                                manaCost="{7}", power="4", toughness="4", keywords=["Flying"])],
        "Lim-Dûl the Necromancer": [face("Lim-Dûl the Necromancer", "Legendary Creature — Human Wizard",
                                         "Whenever a creature an opponent controls dies, you may pay "
                                         "{1}{B}.", power="4", toughness="4")],
        "Teferi, Temporal Archmage": [face("Teferi, Temporal Archmage", "Legendary Planeswalker — Teferi",
                                           "Teferi, Temporal Archmage can be your commander.", loyalty="5")],
        "Sol Ring": [face("Sol Ring", "Artifact", "{T}: Add {C}{C}.", legalities={"commander": "Legal"})],
        "Sol-Ring": [face("Sol-Ring", "Artifact", "A made-up card whose name slugs like Sol Ring's.")],
        "Mana Crypt": [face("Mana Crypt", "Artifact", "{T}: Add {C}{C}.",
                            legalities={"commander": "Banned"})],
        "Invasion of Gobakhan // Lightshield Array": [
            face("Invasion of Gobakhan // Lightshield Array", "Battle — Siege", "When this enters, look at "
                 "target opponent's hand.", faceName="Invasion of Gobakhan", side="a", layout="transform",
                 defense="3"),
            face("Invasion of Gobakhan // Lightshield Array", "Enchantment", "At the beginning of your end "
                 "step, put a +1/+1 counter on each creature that attacked this turn.",
                 faceName="Lightshield Array", side="b", layout="transform"),
        ],
    }


def mtgjson(date: str = "2027-01-15", cards: dict | None = None) -> bytes:
    """An MTGJSON AtomicCards file of ``cards`` (default :func:`small_cards`) dated ``date``."""
    return json.dumps({"meta": {"date": date, "version": "5.3.0"}, "data": cards or small_cards()}).encode()


def scryfall_cards(duplicate: bool = False) -> bytes:
    """A Scryfall oracle-cards bulk file (one object per card); ``duplicate`` adds a second printing of a
    card, as default-cards has."""
    cards = [
        {"object": "card", "oracle_id": "o-fog", "name": "Fog", "layout": "normal", "mana_cost": "{G}",
         "type_line": "Instant", "oracle_text": "Prevent all combat damage that would be dealt this turn.",
         "keywords": [], "legalities": {"commander": "legal"}},
        {"object": "card", "oracle_id": "o-fire-ice", "name": "Fire // Ice", "layout": "split",
         "type_line": "Instant // Instant", "keywords": [], "legalities": {"commander": "legal"},
         "card_faces": [
             {"object": "card_face", "name": "Fire", "mana_cost": "{1}{R}", "type_line": "Instant",
              "oracle_text": "Fire deals 2 damage divided as you choose among one or two targets."},
             {"object": "card_face", "name": "Ice", "mana_cost": "{1}{U}", "type_line": "Instant",
              "oracle_text": "Tap target permanent.\nDraw a card."}]},
        {"object": "card", "oracle_id": "o-thalia", "name": "Thalia, Heretic Cathar", "layout": "normal",
         "mana_cost": "{2}{W}", "type_line": "Legendary Creature — Human Soldier",
         "oracle_text": "First strike\nCreatures and nonbasic lands your opponents control enter tapped.",
         "power": "3", "toughness": "2", "keywords": ["First strike"],
         "legalities": {"commander": "legal"}},
        {"object": "card", "oracle_id": "o-token", "name": "Soldier", "layout": "token",
         "type_line": "Token Creature — Soldier", "oracle_text": "", "legalities": {}},
    ]
    if duplicate:
        cards.append(dict(cards[0], id="another-printing"))
    return json.dumps(cards).encode()


def scryfall_rulings() -> bytes:
    return json.dumps([
        {"object": "ruling", "oracle_id": "o-thalia", "source": "wotc", "published_at": "2016-07-13",
         "comment": "If Thalia enters at the same time as an opponent's creatures, they aren't affected."},
        {"object": "ruling", "oracle_id": "o-thalia", "source": "scryfall", "published_at": "2020-01-01",
         "comment": "A note by Scryfall, not an official ruling."},
        {"object": "ruling", "oracle_id": "o-thalia", "source": "wotc", "published_at": "2016-07-13",
         "comment": "Port Town will still enter tapped."},
    ]).encode()


@pytest.fixture(scope="session")
def builtin_cache(builtin_corpus, builtin_corpus_data: Path, tmp_path_factory: pytest.TempPathFactory
                  ) -> Path:
    """A data folder whose cache holds the built-in card snapshot and corpus, built once per session: the
    corpus cache is the session's (tests/conftest.py ``builtin_corpus_data``), the snapshot is parsed here."""
    from rulesjudge.corpus.cards import load_cards

    folder = tmp_path_factory.mktemp("cards-data")
    copy_cache(builtin_corpus_data / "cache", folder / "cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULESJUDGE_DATA", str(folder))
        load_cards()
    return folder / "cache"


@pytest.fixture
def cards_data(builtin_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder (``RULESJUDGE_DATA``) that starts with the session's caches: the built-in
    snapshot is not parsed again."""
    from rulesjudge.corpus.cards.db import forget_loaded

    folder = tmp_path / "data"
    copy_cache(builtin_cache, folder / "cache")
    monkeypatch.setenv("RULESJUDGE_DATA", str(folder))
    forget_loaded()
    yield folder
    forget_loaded()


@pytest.fixture(scope="session")
def builtin_db(builtin_cache: Path):
    """The built-in snapshot's CardDB (read from the session's cache)."""
    from rulesjudge.corpus.cards import load_cards

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULESJUDGE_DATA", str(builtin_cache.parent))
        return load_cards()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # the base class's signature
        pass


@pytest.fixture
def http_folder(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A web server on 127.0.0.1 serving a folder: (base URL, the folder)."""
    folder = tmp_path / "served"
    folder.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", folder
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)
