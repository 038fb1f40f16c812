"""Cards named as an effect's source in a scenario (issue 21.4): resolved against the card snapshot at the
command layer, shown by ``rulesjudge ask`` beside the derivation; a made-up name is no error, a near miss
gets a "did you mean". The built-in snapshot (2026-07-09) gives the Oracle texts expected here."""

from __future__ import annotations

import json
import textwrap

import pytest

from rulesjudge.app import card_sources
from rulesjudge.scenarios.model.events import parse_effect

ANGEL_TEXT = "You can't lose the game and your opponents can't win the game."  # Platinum Angel's Oracle text


@pytest.mark.parametrize(("name", "card"), [
    ("Platinum Angel", "Platinum Angel"),
    ("platinum angel", "Platinum Angel"),  # any case
    ("Lim-Dul the Necromancer", "Lim-Dûl the Necromancer"),  # without accents
    ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),  # a back face is its card
])
def test_a_source_named_as_a_card_is_that_card(builtin_db, name, card):
    found = card_sources.resolve(builtin_db, name)
    assert found.card is not None and found.card.name == card and found.did_you_mean is None


@pytest.mark.parametrize("name", ["Angel", "Persecutor", "Rats", "Krenko", "Goblin Token", "Zed's Wall"])
def test_a_token_or_a_name_of_the_tables_own_is_no_card_and_no_error(builtin_db, name):
    """The library's sources ("Angel", "Persecutor") are names the table gave; a short name ("Krenko") is
    not taken for one of the cards it might mean."""
    assert card_sources.resolve(builtin_db, name) == card_sources.SourceCard(name)


@pytest.mark.parametrize(("name", "meant"), [("Platnum Angle", "Platinum Angel"),
                                             ("Peacekeper", "Peacekeeper")])
def test_a_near_miss_gets_did_you_mean(builtin_db, name, meant):
    found = card_sources.resolve(builtin_db, name)
    assert found.card is None and found.did_you_mean == meant


def test_sources_of_the_table_and_of_the_events_each_once():
    game = {"effects": [{"cant-lose": "Ann", "source": "Platinum Angel"}, {"cant-win": "Ann"},
                        {"cant-lose": "Ann", "source": "Platinum Angel"}, "not an effect"]}
    events = [{"add-effect": {"cant-win": {"opponents-of": "Peacekeeper"}}}, {"leaves": "Ann"}]
    effects = card_sources.data_effects(game, events)
    assert card_sources.sources_of(effects) == ["Platinum Angel", "Peacekeeper"]
    assert card_sources.sources_of([parse_effect({"cant-lose": "Ann"})]) == []


SCENARIO = """\
name: Platinum Angel keeps its controller in at 0 life
why: 104.3b - an effect that says a player can't lose the game
game:
  players: [Ann, Ben, Cat]
  permanents:
    Platinum Angel: {owner: Ann, kind: creature, power: 4, toughness: 4}
    Platnum Angle: {owner: Ben, kind: creature}
    Angel: {owner: Cat, kind: creature}
  effects:
    - {cant-lose: {controller-of: Platinum Angel}}
    - {cant-lose: Ben, source: Platnum Angle}
    - {cant-lose: Cat, source: Angel}
events:
  - damage: {to: Ann, amount: 20, from: Ben}
expect:
  in-game: [Ann, Ben, Cat]   # 104.3b: none of them can lose; 704.5a doesn't apply
"""


def test_ask_shows_the_sources_oracle_text_beside_the_derivation(cards_data, tmp_path, cli):
    path = tmp_path / "angel.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    code, out, _ = cli("ask", str(path))
    assert code == 0, out
    head, derivation = out.split("event damage:", 1)
    assert "Platinum Angel — Artifact Creature — Angel  [cards@2026-07-09/card/platinum-angel]" in head
    assert ANGEL_TEXT in head
    assert "Platnum Angle: no card of that name; did you mean Platinum Angel?" in head
    assert "Angel:" not in head.replace("Platinum Angel", "")  # no line for a name of the table's own
    assert "Platinum Angel's static ability" in derivation  # the step the card's text stands beside


def test_ask_json_has_the_cards(cards_data, tmp_path, cli):
    path = tmp_path / "angel.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    result = cli("ask", str(path), "--json")
    cards = {c["name"]: c for c in json.loads(result.out)["cards"]}
    assert cards["Platinum Angel"]["card"]["id"] == "cards@2026-07-09/card/platinum-angel"
    assert ANGEL_TEXT in cards["Platinum Angel"]["card"]["oracle_text"]
    assert cards["Platnum Angle"] == {"name": "Platnum Angle", "did_you_mean": "Platinum Angel", "card": None}
    assert cards["Angel"]["card"] is None and cards["Angel"]["did_you_mean"] is None


def test_ask_without_sources_reads_no_cards(cards_data, tmp_path, cli, monkeypatch):
    """A scenario whose effects name no source never opens the card snapshot (ask stays as fast)."""
    import rulesjudge.corpus.cards as cards

    monkeypatch.setattr(cards, "load_cards", lambda *a, **k: pytest.fail("cards read"))
    monkeypatch.setattr("rulesjudge.app.commands.ask.load_cards", cards.load_cards)  # the name ask calls
    path = tmp_path / "plain.yaml"
    path.write_text(textwrap.dedent("""\
        name: Leaving
        game: {players: [Ann, Ben, Cat]}
        events: [{leaves: Ann}]
        expect: {in-game: [Ben, Cat]}
        """), encoding="utf-8")
    result = cli("ask", str(path))
    assert result.code == 0
    assert "cards the effects come from" not in result.out


def test_a_what_if_about_the_table_shows_the_source_card_too(cards_data, tmp_path, cli):
    path = tmp_path / "angel.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    code, out, _ = cli("ask", str(path), "--what-if", "what if Ann concedes?")
    assert code == 0, out
    # why: conceding is leaving, which Platinum Angel's "can't lose" doesn't stop (104.3a; its ruling 2)
    assert ANGEL_TEXT in out and "cards@2026-07-09/card/platinum-angel" in out
