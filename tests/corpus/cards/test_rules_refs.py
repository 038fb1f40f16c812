"""The rules a card's text refers to: the Oracle templates table (data) against the built-in rules, and
the references `rulesjudge card` shows, read from the rules text."""

from __future__ import annotations

import re

import pytest

from rulesjudge.corpus.cards.oracle_templates import load_templates
from rulesjudge.corpus.cards.rules_refs import rules_of, templates_in
from rulesjudge.corpus.cards.vocabulary import builtin_rules_text


def rule_text(number: str) -> str:
    found = re.search(rf"^{re.escape(number)}\.? (.+)$", builtin_rules_text(), re.MULTILINE)
    assert found, f"rule {number} is not in the built-in release"
    return found.group(1)


def test_every_template_names_rules_of_the_built_in_release():
    assert load_templates().templates
    for template in load_templates():
        assert template.edition == "2026-04-17"
        for number in template.rules:
            rule_text(number)  # exists


@pytest.mark.parametrize(("text", "term"), [
    ("Creatures and nonbasic lands your opponents control enter tapped.", "enters tapped"),
    ("This land enters the battlefield tapped.", "enters tapped"),
    ("You can't lose the game and your opponents can't win the game.", "can't lose the game"),
    ("When Palace Jailer enters, you become the monarch.", "the monarch"),
    ("When this creature dies, return it to the battlefield.",
     "dies / put into a graveyard from the battlefield"),
    ("When Oblivion Ring leaves the battlefield, return the exiled card to the battlefield.",
     "leaves the battlefield"),
    ("You may have this creature enter as a copy of any artifact or creature on the battlefield.", "copy"),
])
def test_templates_found_in_oracle_wording(text, term):
    assert term in [p.term for p in templates_in(text)]


def test_cant_lose_is_not_loses():
    terms = [p.term for p in templates_in("You can't lose the game and your opponents can't win the game.")]
    assert "loses the game" not in terms and "wins the game" not in terms  # why: 101.2, "can't" is no loss


def test_rules_of_real_cards(builtin_db, cards_data):
    from rulesjudge.corpus.store import load_corpus

    corpus = load_corpus()
    (thalia,) = builtin_db.lookup("Thalia, Heretic Cathar")
    refs = {ref.term: [r.id for r in ref.records] for ref in rules_of(thalia, corpus)}
    assert refs["First strike"] == ["cr@2026-04-17/702.7"]  # why: 702.7 is First Strike
    assert "cr@2026-04-17/614.12" in refs["enters tapped"]  # why: 614.12 modifies how it enters
    (jailer,) = builtin_db.lookup("Palace Jailer")
    ids = [r.id for ref in rules_of(jailer, corpus) for r in ref.records]
    assert "cr@2026-04-17/725.1" in ids  # why: 725, the monarch
    (karn,) = builtin_db.lookup("Karn Liberated")
    ids = [r.id for ref in rules_of(karn, corpus) for r in ref.records]
    assert "cr@2026-04-17/727.1" in ids  # why: 727, restarting the game
