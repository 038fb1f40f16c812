"""Typo correction leaves names alone (indexer/query.py, issue 21 round 3): a word the question
capitalises inside a sentence is a name — a player of the story, a card — not a typo of a corpus word,
wherever it stands ("... control of Chuck's Blood Tyrant. Chuck loses the game" is no "check"); a
capitalised typo only at a sentence's start (a phone capitalises it) is still mended."""

from __future__ import annotations

from rulesjudge.indexer.query import Lexicon, Vocabulary, rewrite

VOCABULARY = Vocabulary(["check", "loses", "the", "game", "commander", "damage", "coral", "controls"])
NO_LEXICON = Lexicon.from_mapping({})


def test_a_player_named_inside_a_sentence_keeps_the_name():
    # 800.4a stories name their players: "Chuck" is who lost, not "check"
    assert rewrite("Anna controls Chuck's Bear. Chuck loses the game.", NO_LEXICON, VOCABULARY).text == \
        "Anna controls Chuck's Bear. Chuck loses the game."
    assert rewrite("Then Carol loses the game", NO_LEXICON, VOCABULARY).text == "Then Carol loses the game"


def test_a_capitalised_typo_at_a_sentence_start_is_still_mended():
    mended = rewrite("Comander damage? Damge too", NO_LEXICON, VOCABULARY).text
    assert mended == "commander damage? damage too"


def test_a_typo_in_lower_case_is_still_mended():
    assert rewrite("the game's chuck", NO_LEXICON, VOCABULARY).text.endswith("check")
