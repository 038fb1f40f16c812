"""Search round 6: the bridge from a named card's text to its rules read off the rules themselves. A rare
glossary term of the card's Oracle text lifts the rule its glossary entry points at
(``CardStage.terms_of``), and the card's ruling that best matches the question lends weight to the rules
nearest it (``Searcher._card_evidence``). Cards are real cards with their Oracle text and rulings as the
snapshot of 2026-07-09 gives them; each expected rule is read from the built-in release's glossary."""

from __future__ import annotations

from dataclasses import replace

import pytest
from card_fakes import card, stage_over

from rulesjudge.corpus.cards import CardRuling
from rulesjudge.indexer.card_stage import CardReading
from rulesjudge.indexer.visibility import Filters

CR = "cr@2026-04-17/"

THASSA = card("Thassa, God of the Sea", "Legendary Enchantment Creature — God",
              "Indestructible\nAs long as your devotion to blue is less than five, Thassa isn't a creature. "
              "(Each {U} in the mana costs of permanents you control counts toward your devotion to blue.)\n"
              "At the beginning of your upkeep, scry 1.\n{1}{U}: Target creature you control can't be "
              "blocked this turn.", keywords=("Indestructible", "Scry"))
THASSA = replace(THASSA, rulings=tuple(
    CardRuling(f"cards@2026-07-09/ruling/thassa-god-of-the-sea/{n}", date, text) for n, date, text in (
    (2, "2013-09-15", "Hybrid mana symbols, monocolored hybrid mana symbols, and Phyrexian mana symbols do "
                      "count toward your devotion to their color(s)."),
    (4, "2013-09-15", "Mana symbols in the text boxes of permanents you control don't count toward your "
                      "devotion to any color."),
    (12, "2020-01-24", "If a God is attacking or blocking and it stops being a creature, it will be removed "
                       "from combat. It won't rejoin combat if it resumes being a creature later during "
                       "that combat."),
    (13, "2020-01-24", "If a God stops being a creature, it loses the type creature and the creature type "
                       "God. It continues to be a legendary enchantment."))))
PROTECTION = card("Teferi's Protection", "Instant",
                  "Until your next turn, your life total can't change and you gain protection from "
                  "everything. All permanents you control phase out. (While they're phased out, they're "
                  "treated as though they don't exist. They phase in before you untap during your untap "
                  "step.)\nExile Teferi's Protection.")
BLOOD_MOON = card("Blood Moon", "Enchantment", "Nonbasic lands are Mountains.")
WITCH_ENGINE = card("Witch Engine", "Creature — Horror",
                    "Swampwalk (This creature can't be blocked as long as defending player controls a "
                    "Swamp.)\n{T}: Add {B}{B}{B}{B}. Target opponent gains control of Witch Engine. "
                    "(Activate only as an instant.)", keywords=("Swampwalk",))
WITCH_ENGINE = replace(WITCH_ENGINE, rulings=(CardRuling(
    "cards@2026-07-09/ruling/witch-engine/1", "2004-10-04",
    "Because the ability is targeted, it is not a mana ability. It can only be activated when you have "
    "priority, and goes on the stack like other non-mana abilities."),))


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, (THASSA, PROTECTION, BLOOD_MOON, WITCH_ENGINE))


def test_devotion_in_the_oracle_text_lifts_700_5(stage):
    # why: the glossary's "Devotion ... See rule 700.5."; the question never says the word
    reading = stage.read("Does Thassa, God of the Sea count hybrid mana symbols when it checks?")
    assert f"{CR}700.5" in reading.term_rules


def test_protection_given_by_a_card_lifts_702_16(stage):
    # why: the glossary's "Protection ... See rule 702.16": its rules, though the card has no keyword
    rules = stage.read("With Teferi's Protection cast, can my opponent's Lightning Bolt hit me?").term_rules
    assert {f"{CR}702.16a", f"{CR}702.16e"} <= set(rules)


def test_a_basic_land_type_the_card_names_lifts_305_6(stage):
    # why: the glossary's "Mountain: One of the five basic land types ... See rule 305.6."
    assert f"{CR}305.6" in stage.read("Does Blood Moon stop my Urborg from tapping for black?").term_rules


def test_a_term_the_rules_say_everywhere_tells_nothing(stage):
    # why: "creature" (302), "target" (115), "permanent" (110) are said across the whole of the rules
    rules = set(stage.read("Can Thassa, God of the Sea make my creature unblockable?").term_rules)
    assert not rules & {f"{CR}302.1", f"{CR}115.1", f"{CR}110.1"}
    assert stage.term_sections("creature", ["302"]) > stage.term_max_sections
    assert stage.term_sections("devotion", ["700"]) <= stage.term_max_sections


def test_a_keyword_of_the_card_is_read_once_as_a_keyword(stage):
    # why: Thassa's "Indestructible" is a keyword (702.12): the keyword stage reads it, not the glossary's
    reading = stage.read("Is Thassa, God of the Sea indestructible while it isn't a creature?")
    assert f"{CR}702.12b" in reading.template_rules + reading.keyword_rules
    assert not [r for r in reading.term_rules if r.startswith(f"{CR}702.12")]


def test_the_ruling_that_matches_the_question_is_evidence_and_one_that_doesnt_is_not(stage):
    asked = stage.read("If Thassa, God of the Sea is attacking and my devotion drops so it stops being a "
                       "creature, is it removed from combat?")
    assert asked.evidence == (THASSA.rulings[2].text,)
    # why: a question sharing no word with a ruling (but the card's name) has no evidence from it
    assert stage.read("Is Thassa, God of the Sea legendary?").evidence == ()


@pytest.mark.parametrize(("ruling", "rule"), [
    # why: 506.4: an attacking or blocking creature that stops being a creature is removed from combat
    (2, "506.4"),
    # why: 605.5a: "An ability with a target is not a mana ability, even if it could put mana into a
    # player's mana pool" (the ruling: "Because the ability is targeted, it is not a mana ability")
    (None, "605.5a"),
])
def test_a_ruling_lends_weight_to_the_rule_it_restates(searcher, ruling, rule):
    text = THASSA.rulings[ruling].text if ruling is not None else WITCH_ENGINE.rulings[0].text
    reading = CardReading(evidence=(text,))
    base = searcher.fusion
    try:
        searcher.fusion = replace(base, ruling_weight=0.05)
        lifted = dict(searcher._card_evidence([], reading, Filters()))
        searcher.fusion = replace(base, ruling_weight=0.0)
        assert searcher._card_evidence([], reading, Filters()) == []
    finally:
        searcher.fusion = base
    assert lifted.get(f"{CR}{rule}", 0.0) > 0.0
    assert max(lifted.values()) == pytest.approx(0.05)  # the nearest rule gets the whole weight, no more
