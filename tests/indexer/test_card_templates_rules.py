"""Oracle templates grown from the rules that say how a wording works (issue 21, round 2): 118.9,
903.8, 107.3b, 202.3e, 700.2, 702.79/702.93 with 122.3, 707.10, 616.1, 613, 704.5f, 701.6, 701.10,
614.16, 400.7, 704.5m, 113.6, 611.2c, 608.2h, 606.3, 704.5i, 602.5b, 701.8, 701.21a, 202.3b, 702.8a,
903.4f, 305.2, 702.11b (corpus/cards/oracle_templates.yaml). Each card is a real card with its Oracle
text as the snapshot of 2026-07-09 gives it; each expected rule comes from the rules text of the
built-in release; each template also has a question about the same card where it must not fire."""

from __future__ import annotations

import pytest
from card_fakes import card, lifted, stage_over

from rulesjudge.corpus.cards.rules_refs import templates_in

CR = "cr@2026-04-17/"


CARDS = (
    card("Kenrith, the Returned King", "Legendary Creature — Human Noble",
         "{R}: All creatures gain trample and haste until end of turn.\n{1}{G}: Put a +1/+1 counter on "
         "target creature.\n{2}{W}: Target player gains 5 life.\n{3}{U}: Target player draws a card.\n"
         "{4}{B}: Put target creature card from a graveyard onto the battlefield under its owner's control."),
    card("Fierce Guardianship", "Instant",
         "If you control a commander, you may cast this spell without paying its mana cost.\n"
         "Counter target noncreature spell."),
    card("Kitchen Finks", "Creature — Ouphe",
         "When this creature enters, you gain 2 life.\nPersist (When this creature dies, if it had no -1/-1 "
         "counters on it, return it to the battlefield under its owner's control with a -1/-1 counter on "
         "it.)", ("Persist",)),
    card("Kolaghan's Command", "Instant",
         "Choose two —\n• Return target creature card from your graveyard to your hand.\n• Target player "
         "discards a card.\n• Destroy target artifact.\n• Kolaghan's Command deals 2 damage to any target."),
    card("Hydroid Krasis", "Creature — Jellyfish Hydra Beast",
         "When you cast this spell, you gain half X life and draw half X cards. Round down each time.\n"
         "Flying, trample\nThis creature enters with X +1/+1 counters on it.", ("Flying", "Trample")),
    card("Endless One", "Creature — Eldrazi", "This creature enters with X +1/+1 counters on it."),
    card("Reverberate", "Instant",
         "Copy target instant or sorcery spell. You may choose new targets for the copy."),
    card("Rest in Peace", "Enchantment",
         "When this enchantment enters, exile all graveyards.\nIf a card or token would be put into a "
         "graveyard from anywhere, exile it instead."),
    card("Humility", "Enchantment",
         "All creatures lose all abilities and have base power and toughness 1/1."),
    card("Toxic Deluge", "Sorcery",
         "As an additional cost to cast this spell, pay X life.\nAll creatures get -X/-X until end of turn."),
    card("Counterspell", "Instant", "Counter target spell."),
    card("Doubling Season", "Enchantment",
         "If an effect would create one or more tokens under your control, it creates twice that many of "
         "those tokens instead.\nIf an effect would put one or more counters on a permanent you control, it "
         "puts twice that many of those counters on that permanent instead."),
    card("Zombify", "Sorcery", "Return target creature card from your graveyard to the battlefield."),
    card("Rancor", "Enchantment — Aura",
         "Enchant creature\nEnchanted creature gets +2/+0 and has trample.\nWhen this Aura is put into a "
         "graveyard from the battlefield, return it to its owner's hand.", ("Enchant",)),
    card("Bloodghast", "Creature — Vampire Spirit",
         "This creature can't block.\nThis creature has haste as long as an opponent has 10 or less life.\n"
         "Landfall — Whenever a land you control enters, you may return this card from your graveyard to "
         "the battlefield.", ("Landfall",)),
    card("Unbound Flourishing", "Enchantment",
         "Whenever you cast a permanent spell with a mana cost that contains {X}, double the value of X.\n"
         "Whenever you cast an instant or sorcery spell or activate an ability, if that spell's mana cost or "
         "that ability's activation cost contains {X}, copy that spell or ability. You may choose new "
         "targets for the copy.", ("Double",)),
    card("Overrun", "Sorcery",
         "Creatures you control get +3/+3 and gain trample until end of turn. (Each of those creatures can "
         "deal excess combat damage to the player or planeswalker it's attacking.)"),
    card("Overwhelming Stampede", "Sorcery",
         "Until end of turn, creatures you control gain trample and get +X/+X, where X is the greatest power "
         "among creatures you control."),
    card("Liliana of the Veil", "Legendary Planeswalker — Liliana",
         "[+1]: Each player discards a card.\n[−2]: Target player sacrifices a creature.\n[−6]: Separate all "
         "permanents target player controls into two piles. That player sacrifices all permanents in the "
         "pile of their choice."),
    card("Beledros Witherbloom", "Legendary Creature — Elder Dragon",
         "Flying\nAt the beginning of each upkeep, create a 1/1 black and green Pest creature token with "
         "\"When this token dies, you gain 1 life.\"\nPay 10 life: Untap all lands you control. Activate "
         "only once each turn.", ("Flying",)),
    card("Doom Blade", "Instant", "Destroy target nonblack creature."),
    card("Diabolic Edict", "Instant", "Target player sacrifices a creature of their choice."),
    card("Delver of Secrets", "Creature — Human Wizard",
         "At the beginning of your upkeep, look at the top card of your library. You may reveal that card. "
         "If an instant or sorcery card is revealed this way, transform this creature.", ("Transform",)),
    card("Leyline of Anticipation", "Enchantment",
         "If this card is in your opening hand, you may begin the game with it on the battlefield.\nYou may "
         "cast spells as though they had flash."),
    card("Command Tower", "Land", "{T}: Add one mana of any color in your commander's color identity."),
    card("Exploration", "Enchantment", "You may play an additional land on each of your turns."),
    card("Blossoming Defense", "Instant",
         "Target creature you control gets +2/+2 and gains hexproof until end of turn. (It can't be the "
         "target of spells or abilities your opponents control.)"),
    card("Phyrexian Metamorph", "Artifact Creature — Phyrexian Shapeshifter",
         "({U/P} can be paid with either {U} or 2 life.)\nYou may have this creature enter as a copy of any "
         "artifact or creature on the battlefield, except it's an artifact in addition to its other types."),
)


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, CARDS)


# (rule, a question that speaks of the wording, a question about the same card that doesn't)
CASES = [
    # why: 903.8: a commander cast from the command zone costs {2} more for each previous cast from there
    ("903.8", "Kenrith, the Returned King died twice. How much tax to cast him again?",
     "Can Kenrith, the Returned King give my opponent's creature haste?"),
    # why: 118.9d: additional costs and cost increases apply to an alternative cost too
    ("118.9d", "Fierce Guardianship cast for free: does the extra cost from Thalia still apply?",
     "Can Fierce Guardianship counter a creature spell?"),
    # why: 122.3: a +1/+1 and a -1/-1 counter on one permanent are removed, so persist works again
    ("122.3", "My Kitchen Finks came back and then got a +1/+1 counter. Does it return again when it dies?",
     "Do I gain life when Kitchen Finks enters?"),
    # why: 700.2a: the modes of a modal spell are chosen as it is cast
    ("700.2a", "When do I choose the modes of Kolaghan's Command, on cast or on resolution?",
     "Does Kolaghan's Command's damage count as destroying the creature?"),
    # why: 107.3b: cast without paying its mana cost, X is 0
    ("107.3b", "If I cascade into Hydroid Krasis, what is X?",
     "Does Hydroid Krasis's trigger still draw if it is countered?"),
    # why: 202.3e: X is 0 in the mana value of an object that is not on the stack
    ("202.3e", "What is the mana value of Endless One in my graveyard?",
     "Does Endless One enter with counters if it is flashed in?"),
    # why: 707.10c: the copy's controller may choose new targets for it
    ("707.10c", "Can the copy from Reverberate have new targets?", None),
    # why: 616.1: with two replacement effects, the affected object's controller chooses which applies
    ("616.1", "Rest in Peace and my own replacement effect: which applies first when my creature dies?",
     "Does Rest in Peace exile tokens?"),
    # why: 613.7: within a layer, effects apply in timestamp order
    ("613.7", "Humility and an anthem: which layer and timestamp order decides my creatures' power?",
     "Does Humility remove flying from my creatures?"),
    # why: 704.5f: a creature with toughness 0 or less goes to the graveyard (indestructible doesn't help)
    ("704.5f", "Toxic Deluge for 3: does my indestructible creature with toughness 3 survive?",
     "Can I pay more life than I have for Toxic Deluge?"),
    # why: 701.6b: the caster of a countered spell gets no refund of its costs
    ("701.6b", "If my spell is countered by Counterspell, do I get my mana back?",
     "With Counterspell in hand, how many counters does my creature have?"),
    # why: 701.10: to double is a keyword action; the section stands for its rules (701.10a-g, 701.10a first)
    ("701.10a", "Does Unbound Flourishing double X for my commander?",
     "Does Unbound Flourishing work with my lands' abilities?"),
    # why: 614.16: "would put one or more counters" replacement effects, here twice that many
    ("614.16", "With Doubling Season, does my planeswalker enter with twice the loyalty counters?", None),
    # why: 400.7: a card that returns to the battlefield is a new object with no memory of its past
    ("400.7", "Does the creature I return with Zombify keep its counters from before it died?",
     "Can Zombify target a creature in my opponent's graveyard?"),
    # why: 704.5m: an Aura attached to an illegal object is put into its owner's graveyard
    ("704.5m", "If the creature with Rancor gains protection from green, does Rancor fall off?",
     "Does Rancor give trample?"),
    # why: 113.6k: a trigger that can't trigger from the battlefield works in the zones it can trigger from
    ("113.6k", "Does Bloodghast come back from the graveyard when a land enters?", "Can Bloodghast block?"),
    # why: 611.2c: a resolved spell's effect on "creatures you control" affects only those there then
    ("611.2c", "I cast Overrun, then flash in a creature later that turn. Does it get +3/+3?",
     "Does Overrun give trample?"),
    # why: 608.2h: information a resolving effect needs is determined once, as the effect is applied
    ("608.2h", "Is the X of Overwhelming Stampede locked in, or does it change as power changes?",
     "Does Overwhelming Stampede give my creatures trample?"),
    # why: 606.3: a loyalty ability once each turn, main phase, stack empty
    ("606.3", "Can I use Liliana of the Veil's loyalty ability twice in one turn?",
     "Does Liliana of the Veil make each player discard?"),
    # why: 704.5i: a planeswalker with loyalty 0 is put into its owner's graveyard
    ("704.5i", "Liliana of the Veil at 2 loyalty uses her -2: does she die before the edict resolves?",
     "Does Liliana of the Veil's +1 make me discard too?"),
    # why: 602.5b: "activate only once each turn" stays with the object under a new controller
    ("602.5b", "I stole Beledros Witherbloom; can I activate it once more this turn after its owner did?",
     "Does Beledros Witherbloom make a Pest on every upkeep?"),
    # why: 701.8b / 702.12b: destroy is stopped by indestructible
    ("702.12b", "Does Doom Blade kill an indestructible creature?", "Can Doom Blade hit a black creature?"),
    # why: 701.21a: a sacrifice isn't destruction; a player sacrifices only what they control
    ("701.21a", "Does Diabolic Edict get past indestructible and hexproof?",
     "Can Diabolic Edict be cast at instant speed?"),
    # why: 202.3b: the back face's mana value is the front face's
    ("202.3b", "What is the mana value of Delver of Secrets once it transforms?",
     "When does Delver of Secrets reveal the top card?"),
    # why: 702.8a: flash, any time you could cast an instant
    ("702.8a", "With Leyline of Anticipation, can I cast a creature with flash on my opponent's end step?",
     None),
    # why: 903.4f: with no commander, a commander's color identity is undefined: no mana
    ("903.4f", "My commander is gone from the game. What does Command Tower tap for with no commander?",
     "Is Command Tower a land I can fetch?"),
    # why: 305.2b: no land if the lands played this turn already reach the number allowed
    ("305.2b", "I played two lands, then cast Exploration. Can I play a third land this turn?",
     "Does Exploration count as an enchantment for my enchantress?"),
    # why: 702.11b: hexproof: can't be the target of the opponents' spells or abilities
    ("702.11b", "After Blossoming Defense gives my creature hexproof, can my opponent target it?",
     "Does Blossoming Defense give +2/+2 to a creature I control?"),
]


@pytest.mark.parametrize(("rule", "asked", "not_asked"), CASES, ids=[case[0] for case in CASES])
def test_a_wording_lifts_its_rule_only_when_the_question_speaks_of_it(stage, rule, asked, not_asked):
    assert f"{CR}{rule}" in lifted(stage, asked)
    if not_asked:
        assert f"{CR}{rule}" not in lifted(stage, not_asked)


def test_707_10_copy_a_spell_is_no_copy_of_a_permanent():
    # 707.10 (a copy of a spell isn't cast) is about spells; Metamorph copies a permanent (707.2)
    assert "copy a spell" not in [t.term for t in templates_in(CARDS[-1].faces[0].text)]
    assert "copy a spell" in [t.term for t in templates_in("Copy target instant or sorcery spell.")]


def test_situation_bridges_of_round_two_are_not_what_a_card_refers_to():
    # commander tax, several replacement effects and layers are questions about the table, not the text
    terms = [t.term for t in templates_in("If a card or token would be put into a graveyard from anywhere, "
                                          "exile it instead.")]
    assert "would ... instead" in terms
    assert not {"commander tax", "several replacement effects", "layers and timestamps"} & set(terms)


def test_gets_minus_n_is_not_a_pump():
    # 704.5f: only a toughness lowered to 0 puts a creature into the graveyard; +2/+0 lowers nothing
    assert "gets -N/-N (toughness 0 or less)" not in [t.term for t in templates_in(
        "Enchanted creature gets +2/+0 and has trample.")]
    assert "gets -N/-N (toughness 0 or less)" in [t.term for t in templates_in(
        "All creatures get -X/-X until end of turn.")]
