"""Oracle templates of round 3, grown from the rules that say how a wording works (119.5, 119.7–119.10,
402.2/514.1, 106.7, 502.3, 705, 706, 704.5j, 509.1a; corpus/cards/oracle_templates.yaml). Each card is a
real card with its Oracle text as the snapshot of 2026-07-09 gives it; each expected rule comes from the
rules text of the built-in release; each template also has a question about the same card where it must
not fire."""

from __future__ import annotations

import pytest
from card_fakes import card, lifted, stage_over

from rulesjudge.corpus.cards.rules_refs import templates_in

CR = "cr@2026-04-17/"

CARDS = (
    card("Sorin Markov", "Legendary Planeswalker — Sorin",
         "[+2]: Sorin Markov deals 2 damage to any target and you gain 2 life.\n[−3]: Target opponent's life "
         "total becomes 10.\n[−7]: You control target player during that player's next turn."),
    card("Platinum Emperion", "Artifact Creature — Golem",
         "Your life total can't change. (You can't gain or lose life. You can't pay any amount of life "
         "except 0.)"),
    card("Ajani's Pridemate", "Creature — Cat Soldier",
         "Whenever you gain life, put a +1/+1 counter on this creature."),
    card("Reliquary Tower", "Land", "You have no maximum hand size.\n{T}: Add {C}."),
    card("Exotic Orchard", "Land",
         "{T}: Add one mana of any color that a land an opponent controls could produce."),
    card("Mana Vault", "Artifact",
         "This artifact doesn't untap during your untap step.\nAt the beginning of your upkeep, you may pay "
         "{4}. If you do, untap this artifact.\nAt the beginning of your draw step, if this artifact is "
         "tapped, it deals 1 damage to you.\n{T}: Add {C}{C}{C}."),
    card("Krark's Thumb", "Legendary Artifact",
         "If you would flip a coin, instead flip two coins and ignore one."),
    card("Delina, Wild Mage", "Legendary Creature — Elf Shaman",
         "Whenever Delina, Wild Mage attacks, choose target creature you control, then roll a d20.\n1—14 | "
         "Create a tapped and attacking token that's a copy of that creature, except it's not legendary "
         "and it has \"Exile this creature at end of combat.\"\n15—20 | Create one of those tokens. You may "
         "roll again."),
    card("Spark Double", "Creature — Illusion",
         "You may have this creature enter as a copy of a creature or planeswalker you control, except it "
         "enters with an additional +1/+1 counter on it if it's a creature, it enters with an additional "
         "loyalty counter on it if it's a planeswalker, and it isn't legendary."),
    card("Palace Guard", "Creature — Human Soldier", "This creature can block any number of creatures."),
)


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, CARDS)


# (rule, a question that speaks of the wording, a question about the same card that doesn't)
CASES = [
    # why: 119.5: a life total set to a number: the player gains or loses the necessary amount of life
    ("119.5", "If Sorin Markov sets my opponent's life total to 10 from 4, did they gain life?",
     "Can Sorin Markov's first ability hit a planeswalker?"),
    # why: 119.8: a player whose life total can't change can't lose life (nor pay more than 0)
    ("119.8", "With Platinum Emperion out, can I pay life for a fetch land?",
     "Is Platinum Emperion an artifact for Shatter?"),
    # why: 119.9: each life gain is an event; two lifelink sources dealing damage at once are two
    ("119.9", "Two of my lifelink creatures deal damage at once: how many counters does Ajani's Pridemate "
              "get from the life gained?", "Can Ajani's Pridemate block a flyer?"),
    # why: 402.2 / 514.1: the maximum hand size is checked when discarding in the cleanup step
    ("514.1", "With Reliquary Tower, do I discard down to seven in my cleanup step?",
     "Does Reliquary Tower tap for colorless?"),
    # why: 106.7: the type of mana a land "could produce" is what its abilities would produce now
    ("106.7", "What can Exotic Orchard produce if my opponent controls only lands that produce nothing?",
     "Can Exotic Orchard be played as my land for the turn?"),
    # why: 502.3: effects can keep permanents from untapping in the untap step
    ("502.3", "Does Mana Vault untap in my untap step if I control Seedborn Muse?",
     "How much does Mana Vault deal to me in my draw step?"),
    # why: 705.3: an effect may ignore a flip's actual result (Krark's Thumb: ignore one of two coins)
    ("705.3", "With Krark's Thumb, do I win the coin flip of Mana Clash if one of the two comes up heads?",
     "Is Krark's Thumb legendary?"),
    # why: 706.2: the natural result of a roll, before modifiers
    ("706.2", "If I roll a 20 with Delina, Wild Mage and add 1, is the natural result still 20?", None),
    # why: 704.5j: the legend rule: two legendary permanents with the same name, one goes
    ("704.5j", "Does Spark Double copying my legendary commander avoid the legend rule?",
     "Does Spark Double get an extra counter when it copies a planeswalker?"),
    # why: 509.1a: each blocking creature blocks one attacker unless an effect lets it block more
    ("509.1a", "Can Palace Guard block three attacking creatures at once?",
     "Does Palace Guard have vigilance?"),
]


@pytest.mark.parametrize(("rule", "asked", "not_asked"), CASES, ids=[case[0] for case in CASES])
def test_a_round_three_wording_lifts_its_rule_only_when_the_question_speaks_of_it(stage, rule, asked,
                                                                                   not_asked):
    assert f"{CR}{rule}" in lifted(stage, asked)
    if not_asked:
        assert f"{CR}{rule}" not in lifted(stage, not_asked)


def test_the_legend_rule_template_is_no_copy_that_stays_legendary():
    # 704.5j applies to a copy that keeps "legendary"; the template reads the text that says it doesn't
    assert "the legend rule" in [t.term for t in templates_in("and it isn't legendary.")]
    assert "the legend rule" not in [t.term for t in templates_in("Legendary Creature — Elf Shaman")]


def test_a_life_total_that_can_t_change_is_not_one_that_is_set():
    # 119.5 is a life total set to a number; "can't change" is 119.7/119.8's, not 119.5's
    terms = [t.term for t in templates_in("Your life total can't change.")]
    assert "life total can't change" in terms
    assert "life total becomes / exchange life totals" not in terms
