"""One reading of a card's glossary terms: ``rulesjudge card`` (``rules_of``, the rules each rules term of a
card's text refers to) and search's cards stage (``CardStage.terms_of``, the rules it lifts for a named card)
read the same terms of the same text (``card_terms``). Cards are real cards with their Oracle text as the
snapshot of 2026-07-09 gives them; each expected rule is the one the built-in release's glossary entry
points at."""

from __future__ import annotations

import re

import pytest
from card_fakes import card, stage_over

from rulesjudge.corpus.cards.rules_refs import card_terms, rules_of

CR = "cr@2026-04-17/"

AHN_CROP = card("Ahn-Crop Invader", "Creature — Zombie Minotaur Warrior",
                "During your turn, this creature has first strike.\n{1}, Sacrifice another creature: This "
                "creature gets +2/+0 until end of turn.")
LEYLINE = card("Leyline Immersion", "Enchantment — Aura",
               "Enchant legendary creature\nEnchanted creature has ward {2} and \"{T}: Add five mana in any "
               "combination of colors. Spend this mana only to cast spells.\"", keywords=("Enchant",))
JAILER = card("Palace Jailer", "Creature — Human Soldier",
              "When this creature enters, you become the monarch.\nWhen this creature enters, exile target "
              "creature an opponent controls until an opponent becomes the monarch.")
ARMAMENT = card("Armament Master", "Creature — Kor Soldier",
                "Other Kor creatures you control get +2/+2 for each Equipment attached to this creature.")
SERPENT = card("Shrouded Serpent", "Creature — Serpent",
               "Whenever Shrouded Serpent attacks, defending player may pay {4}. If that player doesn't, "
               "Shrouded Serpent can't be blocked this turn.")
BONESCYTHE = card("Bonescythe Sliver", "Creature — Sliver",
                  "Sliver creatures you control have double strike. (They deal both first-strike and regular "
                  "combat damage.)")
CARDS = (AHN_CROP, LEYLINE, JAILER, ARMAMENT, SERPENT, BONESCYTHE)


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, CARDS)


def shown(card_, corpus) -> set[str]:
    """The rules ``rulesjudge card`` shows for the card's text (keywords and templates too)."""
    return {record.id for ref in rules_of(card_, corpus) for record in ref.records}


def lifted(stage, card_) -> set[str]:
    """The rules search's cards stage lifts for the card's glossary terms."""
    return {rule for _term, rules in stage.terms_of(card_) for rule in rules}


def under(rule: str, ids: set[str]) -> bool:
    """Whether ``ids`` hold rule ``rule`` of the built-in release or one of its rules (725 -> 725.1)."""
    return any(re.fullmatch(rf"{re.escape(CR + rule)}(?:[.a-z].*)?", record_id) for record_id in ids)


@pytest.mark.parametrize(("card_", "term", "rule"), [
    (AHN_CROP, "first strike", "702.7"),  # why: glossary "First Strike ... See rule 702.7"; no keyword
    (LEYLINE, "ward", "702.21"),  # why: glossary "Ward ... See rule 702.21"; the Aura grants it
    (JAILER, "monarch", "725"),  # why: glossary "Monarch ... See rule 725, “The Monarch.”"
    (ARMAMENT, "attach", "701.3"),  # why: glossary "Attach ... See rule 701.3"; "attached" is its past
])
def test_the_card_command_and_search_read_the_same_term_to_the_same_rule(builtin_corpus, stage, card_, term,
                                                                           rule):
    assert term in [found for found, _ids in card_terms(card_, stage.glossary)]
    assert under(rule, shown(card_, builtin_corpus))
    assert term in dict(stage.terms_of(card_))
    assert under(rule, lifted(stage, card_))


def test_a_card_named_after_a_keyword_does_not_have_it(builtin_corpus, stage):
    # why: "Shrouded Serpent can't be blocked" names the card; shroud (702.18) is no rule of its text
    assert "shroud" not in [term for term, _ids in card_terms(SERPENT, stage.glossary)]
    assert not under("702.18", shown(SERPENT, builtin_corpus) | lifted(stage, SERPENT))


def test_double_strike_is_no_doubling(builtin_corpus, stage):
    # why: double strike is the keyword ability of 702.4; "double" the keyword action of 701.10
    terms = [term for term, _ids in card_terms(BONESCYTHE, stage.glossary)]
    assert "double strike" in terms and "double" not in terms
    assert f"{CR}702.4" in shown(BONESCYTHE, builtin_corpus)
    assert not under("701.10", shown(BONESCYTHE, builtin_corpus) | lifted(stage, BONESCYTHE))


def test_every_term_either_reads_is_a_term_of_the_one_reading(builtin_corpus, stage):
    # why: one reading (card_terms) under both; the search only keeps the rarer terms of it
    for card_ in CARDS:
        terms = dict(card_terms(card_, stage.glossary))
        assert set(dict(stage.terms_of(card_))) <= set(terms)
        glossary = [ref.term for ref in rules_of(card_, builtin_corpus) if ref.how == "glossary"]
        titles = {stage.glossary.records[i].title for ids in terms.values() for i in ids}
        assert set(glossary) <= titles
