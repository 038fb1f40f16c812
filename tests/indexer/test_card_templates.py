"""The Oracle templates that bridge a named card's text to the rule deciding a question about it
(corpus/cards/oracle_templates.yaml, read by indexer/card_stage.py; issue 21.3). The cards are made up
in the words Oracle text uses for each template; the expected rule comes from the rules text."""

from __future__ import annotations

import pytest
from card_fakes import card, lifted, stage_over

CR = "cr@2026-04-17/"


RAIDER = card("Tollgate Raider", "Creature — Human Rogue",
              "Whenever this creature attacks, defending player discards a card.")
SUCCESSION = card("Circle of Claims", "Sorcery",
                  "Choose left or right. Starting with you and proceeding in the chosen direction, "
                  "each player chooses a creature controlled by the next player in that direction.")
THIRST = card("Scholar's Bargain", "Instant",
              "Draw three cards. Then discard two cards unless you discard an artifact card.")
VAULT = card("Hoarder's Vault", "Artifact",
             "At the beginning of your upkeep, if you control ten or more artifacts, you win the game.")
RESTART = card("Worldbreaker Sage", "Legendary Planeswalker — Sage",
               "[−14]: Restart the game, leaving in exile all non-Aura permanent cards exiled this way.")
SPARK = card("Spark of Chance", "Instant",
             "Spark of Chance deals X damage to any target. You may cast a spell with mana value X or less "
             "from your hand without paying its mana cost.")
CARDS = (RAIDER, SUCCESSION, THIRST, VAULT, RESTART, SPARK)


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, CARDS, ignore_case=False)


def test_508_5a_defending_player_on_a_card_lifts_the_multiplayer_defending_player_rule(stage):
    # why: 508.5a: in multiplayer, "defending player" is the one player the creature attacks
    assert f"{CR}508.5a" in lifted(stage, "Four players: Tollgate Raider attacks me; which defending player "
                                          "discards, all of them?")


def test_101_4_each_player_chooses_in_turn_order_read_from_every_place_the_template_is_used(stage):
    # why: 101.4: simultaneous choices are made by the active player first, then in turn order. The card's
    # first use of the template ("Starting with you") shares no word with the question; its second
    # ("each player chooses") does, and counts
    assert f"{CR}101.4" in lifted(stage, "When Circle of Claims resolves, who chooses first?")


def test_118_12a_unless_means_the_player_may_do_the_other_thing(stage):
    # why: 118.12a: "[do something] unless [a player does something else]" lets the player choose to do
    # the something else, even discarding two artifacts
    assert f"{CR}118.12a" in lifted(stage, "Can I discard two artifact cards to Scholar's Bargain?")


def test_603_4_an_intervening_if_is_checked_when_the_trigger_would_resolve(stage):
    # why: 603.4: "When/Whenever/At [event], if [condition]" checks the condition again on resolution
    assert f"{CR}603.4" in lifted(stage, "Hoarder's Vault: is the condition checked again if I lose an "
                                         "artifact in response?")


def test_727_5a_restart_the_game_is_read_as_players_say_it_reset(stage):
    # why: 727.5a: a commander exempted from the restart doesn't begin the new game in the command zone
    assert f"{CR}727.5a" in lifted(stage, "After Worldbreaker Sage reset the game, where is my commander?")


def test_608_2g_casting_a_spell_during_resolution_ignores_timing(stage):
    # why: 608.2g: a spell an effect lets a player cast during resolution is cast then, ignoring timing
    # permissions
    assert f"{CR}608.2g" in lifted(stage, "Can Spark of Chance let me cast a sorcery on my opponent's turn? "
                                          "What about timing restrictions?")


def test_a_template_on_the_card_the_question_does_not_speak_of_is_not_lifted(stage):
    # the intervening if (603.4) says nothing about who wins when the player has hexproof
    assert f"{CR}603.4" not in lifted(stage, "Does Hoarder's Vault still work if my opponent has hexproof?")
