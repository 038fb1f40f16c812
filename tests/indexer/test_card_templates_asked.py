"""Oracle templates that count for a question by how it speaks of the situation (``asked``), and the
guards around them (corpus/cards/oracle_templates.yaml, indexer/card_stage.py; issue 21.3). Each card is a
real card with its Oracle text as the snapshot of 2026-07-09 gives it; each expected rule comes from the
rules text of the built-in release; the questions are worded as players ask them, not as the question set
words them."""

from __future__ import annotations

import pytest
from card_fakes import card, lifted, stage_over

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards.oracle_templates import load_templates, parse_templates
from rulesjudge.corpus.cards.rules_refs import templates_in

CR = "cr@2026-04-17/"


CARDS = (
    card("Control Magic", "Enchantment — Aura", "Enchant creature\nYou control enchanted creature.",
         ("Enchant",)),
    card("Lich's Mastery", "Legendary Enchantment",
         "Hexproof\nYou can't lose the game.\nWhenever you gain life, draw that many cards.\n"
         "Whenever you lose life, for each 1 life you lost, exile a permanent you control or a card from "
         "your hand or graveyard.\nWhen Lich's Mastery leaves the battlefield, you lose the game.",
         ("Hexproof",)),
    card("Ensnaring Bridge", "Artifact",
         "Creatures with power greater than the number of cards in your hand can't attack."),
    card("Lure", "Enchantment — Aura",
         "Enchant creature\nAll creatures able to block enchanted creature do so.", ("Enchant",)),
    card("Deflecting Swat", "Instant",
         "If you control a commander, you may cast this spell without paying its mana cost.\n"
         "You may choose new targets for target spell or ability."),
    card("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}."),
    card("Sakura-Tribe Elder", "Creature — Snake Shaman",
         "Sacrifice this creature: Search your library for a basic land card, put that card onto the "
         "battlefield tapped, then shuffle."),
    card("Guardian Project", "Enchantment",
         "Whenever a nontoken creature you control enters, if it doesn't have the same name as another "
         "creature you control or a creature card in your graveyard, draw a card."),
    card("Leyline of Sanctity", "Enchantment",
         "If this card is in your opening hand, you may begin the game with it on the battlefield.\n"
         "You have hexproof."),
    card("Magus of the Abyss", "Creature — Human Wizard",
         "At the beginning of each player's upkeep, destroy target nonartifact creature that player controls "
         "of their choice. It can't be regenerated."),
    card("Propaganda", "Enchantment",
         "Creatures can't attack you unless their controller pays {2} for each creature they control that's "
         "attacking you."),
    card("Young Pyromancer", "Creature — Human Shaman",
         "Whenever you cast an instant or sorcery spell, create a 1/1 red Elemental creature token."),
    card("Tatterkite", "Artifact Creature — Scarecrow",
         "Flying\nThis creature can't have counters put on it.", ("Flying",)),
    card("Phyrexian Tyranny", "Enchantment",
         "Whenever a player draws a card, this enchantment deals 2 damage to that player unless that player "
         "pays {2}."),
    card("Swords to Plowshares", "Instant",
         "Exile target creature. Its controller gains life equal to its power."),
    card("Leeching Sliver", "Creature — Sliver",
         "Whenever a Sliver you control attacks, defending player loses 1 life."),
    card("Lay Claim", "Enchantment — Aura",
         "Enchant permanent\nYou control enchanted permanent.\n"
         "Cycling {2} ({2}, Discard this card: Draw a card.)",
         ("Cycling", "Enchant")),
    card("Phyrexian Metamorph", "Artifact Creature — Phyrexian Shapeshifter",
         "({U/P} can be paid with either {U} or 2 life.)\nYou may have this creature enter as a copy of any "
         "artifact or creature on the battlefield, except it's an artifact in addition to its other types."),
    card("Sacred Foundry", "Land — Mountain Plains",
         "({T}: Add {R} or {W}.)\nAs this land enters, you may pay 2 life. If you don't, it enters tapped."),
    card("Gods Willing", "Instant",
         "Target creature you control gains protection from the color of your choice until end of turn. "
         "Scry 1."),
    card("Heroic Intervention", "Instant",
         "Permanents you control gain hexproof and indestructible until end of turn."),
    card("Drudge Skeletons", "Creature — Skeleton", "{B}: Regenerate this creature."),
    card("Teferi's Protection", "Instant",
         "Until your next turn, your life total can't change and you gain protection from everything. All "
         "permanents you control phase out. (While they're phased out, they're treated as though they don't "
         "exist. They phase in before you untap during your untap step.)\nExile Teferi's Protection."),
    card("Flourishing Defenses", "Enchantment",
         "Whenever a -1/-1 counter is put on a creature, you may create a 1/1 green Elf Warrior creature "
         "token."),
    card("Kazuul, Tyrant of the Cliffs", "Legendary Creature — Ogre Warrior",
         "Whenever a creature an opponent controls attacks, if you're the defending player, create a 3/3 red "
         "Ogre creature token unless that creature's controller pays {3}."),
    card("Puppet Master", "Creature — Human Wizard",
         "When Puppet Master dies, return that card to its owner's hand. If that card is still in your "
         "graveyard, you may pay {U}{U}{U}. If you do, return Puppet Master to its owner's hand."),
)


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, CARDS)


@pytest.mark.parametrize("question", [
    "I lost the game with Control Magic on Dan's creature. Does Dan get it back?",
    "Ann conceded while her Control Magic had my Serra Angel. What happens to the angel?",
])
def test_800_4a_a_card_that_steals_and_a_player_who_left_the_game(stage, question):
    # why: 800.4a: when a player leaves the game, effects that give them control of objects end, and
    # whatever they still control is exiled
    assert f"{CR}800.4a" in lifted(stage, question)


def test_800_4a_not_for_the_same_card_asked_about_something_else(stage):
    # the stolen creature's summoning sickness is no question about a player leaving the game
    assert f"{CR}800.4a" not in lifted(stage, "Can the creature I took with Control Magic attack this turn?")


def test_800_4a_the_card_text_a_question_quotes_is_no_player_who_lost(stage):
    # "you lose the game" is Lich's Mastery's text, quoted; nobody has left the game (104.3e, 101.2 decide)
    question = ("Lich's Mastery says 'When Lich's Mastery leaves the battlefield, you lose the game.' "
                "Does Platinum Angel stop that?")
    assert f"{CR}800.4a" not in lifted(stage, question)


def test_800_4a_any_card_of_a_player_knocked_out(stage):
    # why: 800.4a: all objects a player owns leave the game with them; a static ability's effect ends
    question = "Free-for-all: Bo is knocked out with Ensnaring Bridge on the table. Can we attack now?"
    assert f"{CR}800.4a" in lifted(stage, question)
    assert f"{CR}800.4a" not in lifted(stage, "Does Ensnaring Bridge count the cards in my hand?")


def test_800_4a_a_player_killed_is_one_who_left_a_creature_that_died_is_not(stage):
    # why: 800.4a: a player killed (104.3a: lost) leaves the game with what they own
    assert f"{CR}800.4a" in lifted(stage, "Can I kill the Bo player and keep his Control Magic's creature?")
    # "she" is Tatterkite here, a creature that died: no player left
    assert f"{CR}800.4a" not in lifted(stage, "I gave Tatterkite persist and she died. Does she come back?")


def test_509_1c_all_creatures_able_to_block_do_so_is_a_blocking_requirement(stage):
    # why: 509.1c: the defending player obeys as many blocking requirements as possible
    assert f"{CR}509.1c" in lifted(stage, "Lure is on my attacker. Must all their creatures block it?")


def test_115_7_choose_new_targets_only_to_a_legal_target(stage):
    # why: 115.7d: "choose new targets" may leave targets unchanged; a changed one must be legal
    assert f"{CR}115.7d" in lifted(stage, "Can Deflecting Swat change the target of Doom Blade to a black "
                                          "creature?")


def test_605_3b_a_mana_ability_cannot_be_responded_to(stage):
    # why: 605.3b: an activated mana ability doesn't go on the stack, so it can't be responded to
    assert f"{CR}605.3b" in lifted(stage, "Can they bolt Llanowar Elves in response to me tapping it?")
    assert f"{CR}605.3b" not in lifted(stage, "Is Llanowar Elves an elf for my lord?")


def test_602_2b_sacrifice_as_a_cost_of_an_activated_ability(stage):
    # why: 602.2b with 601.2c and 601.2h: targets are chosen, then the cost (the sacrifice) is paid
    assert f"{CR}602.2b" in lifted(stage, "Can I activate Sakura-Tribe Elder in response to the removal "
                                          "spell?")


def test_201_2a_a_face_down_creature_has_no_name_in_common(stage):
    # why: 201.2a: an object with no name (a face-down creature) has the same name as no other object
    assert f"{CR}201.2a" in lifted(stage, "Guardian Project out and I cast a morph face down. Draw?")


def test_702_11c_a_player_with_hexproof_and_a_trigger_that_targets(stage):
    # why: 702.11c: a player with hexproof can't be the target of an opponent's abilities; 603.3d: a
    # trigger with no legal target is removed from the stack
    found = lifted(stage, "I have Leyline of Sanctity. Their Hypnotic Specter trigger targets me; what "
                          "happens?")
    assert {f"{CR}702.11c", f"{CR}603.3d"} <= found


def test_805_4d_each_players_upkeep_in_two_headed_giant(stage):
    # why: 805.4d: "each player's" upkeep triggers once for each player of the team whose step it is
    assert f"{CR}805.4d" in lifted(stage, "How many times does Magus of the Abyss trigger in Two-Headed "
                                          "Giant?")
    assert f"{CR}805.4d" not in lifted(stage, "Does Magus of the Abyss let me pick the creature?")


def test_508_1h_can_t_attack_unless_its_controller_pays_is_a_cost_to_attack(stage):
    # why: 508.1h: costs to attack are totalled and paid as attackers are declared
    assert f"{CR}508.1h" in lifted(stage, "With Propaganda out, when do I pay to attack?")


def test_601_2i_a_copy_or_a_token_is_not_cast(stage):
    # why: 601.2i: a spell becomes cast at the end of casting; a copy put on the stack was never cast
    assert f"{CR}601.2i" in lifted(stage, "Does Young Pyromancer trigger when I copy an instant?")


def test_614_12_cant_have_counters_and_persist(stage):
    # why: 614.12: the permanent's own static ability ("can't have counters") applies as it enters, so
    # persist's counter is never put on it
    assert f"{CR}614.12" in lifted(stage, "If Tatterkite gets persist, does it come back forever?")


def test_603_3b_triggers_of_several_players_in_apnap_order(stage):
    # why: 603.3b: each player, in APNAP order, puts the abilities they control on the stack in the order
    # they choose
    assert f"{CR}603.3b" in lifted(stage, "Two players draw at once with Phyrexian Tyranny out. In what "
                                          "order do the triggers go on the stack?")


def test_608_2b_a_target_gone_in_response(stage):
    # why: 608.2b: a target no longer in its zone is illegal; a spell with no legal target doesn't resolve
    assert f"{CR}608.2b" in lifted(stage, "They cast Swords to Plowshares on my elf and I flicker it in "
                                          "response. What happens?")
    assert f"{CR}608.2b" not in lifted(stage, "Does Swords to Plowshares give me the life?")


def test_508_5a_a_question_that_quotes_the_template_speaks_of_it(stage):
    # why: 508.5a: "defending player" in multiplayer is one player; the question quotes the card's words
    question = ("Leeching Sliver reads 'Whenever a Sliver you control attacks, defending player loses 1 "
                "life.' In a four-player game, is that each opponent?")
    assert f"{CR}508.5a" in lifted(stage, question)


def test_the_card_type_put_for_a_name_is_not_the_askers_word(stage):
    # "Lay Claim" is read as "enchantment", which stems like the keyword Enchant: it says nothing of 702.5
    assert not {f"{CR}702.5a", f"{CR}702.5b"} & lifted(stage, "Can Lay Claim take a land with hexproof?")


def test_707_9_copy_except_only_when_the_exception_is_asked(stage):
    # why: 707.2: a copy takes the copiable values; the exception (707.9) matters when the question asks it
    assert f"{CR}707.9" not in lifted(stage, "When Phyrexian Metamorph copies a Squadron Hawk, what can I "
                                             "search for?")
    assert f"{CR}707.9" in lifted(stage, "Phyrexian Metamorph copies a creature; is it still an artifact?")


def test_614_12a_the_choice_as_it_enters_is_made_before(stage):
    # why: 614.12a: a choice of a replacement effect that modifies how it enters is made before it enters
    assert f"{CR}614.12a" in lifted(stage, "When do I decide whether to pay life for Sacred Foundry?")


def test_a_treachery_identity_named_in_a_question_about_treachery_is_no_card(stage):
    # the Treachery identity The Puppet Master, not the card (the issue: a card's name never matches a
    # Treachery identity's note unless the question is about Treachery, and then the identity is meant)
    assert not stage.read("puppet master is resolving and someone concedes, who gets their identity")
    assert stage.read("Puppet Master died; do I get the card back?")


def test_situation_bridges_are_not_what_a_card_refers_to():
    # `rulesjudge card Ensnaring Bridge` lists what its text refers to, not "a player who left the game"
    terms = [t.term for t in templates_in("Creatures with power greater than the number of cards in your "
                                          "hand can't attack.")]
    assert terms == ["can't attack"]
    assert [t.term for t in load_templates() if not t.shown]  # the table has such bridges


def test_a_bad_asked_pattern_or_shown_names_its_key():
    with pytest.raises(InputError, match=r"templates\[0\]\.asked"):
        parse_templates({"templates": [{"oracle": "x", "rules": ["101.2"], "asked": "(unclosed"}]})
    with pytest.raises(InputError, match=r"templates\[0\]\.shown"):
        parse_templates({"templates": [{"oracle": "x", "rules": ["101.2"], "shown": "maybe"}]})


@pytest.mark.parametrize(("question", "rule"), [
    # why: 702.16e: damage from a source of the stated quality is prevented
    ("Gods Willing gave my creature protection from red; does the red creature's damage hurt it?", "702.16e"),
    # why: 702.12b: an indestructible permanent can't be destroyed
    ("Heroic Intervention in response to a wrath: are my creatures indestructible or destroyed?", "702.12b"),
    # why: 701.19a: a regeneration shield replaces the next destruction this turn
    ("When can I regenerate Drudge Skeletons, before it is destroyed?", "701.19a"),
    # why: 702.26b: a phased-out permanent is treated as though it doesn't exist
    ("Teferi's Protection phased out my commander; does it still count as on the battlefield?", "702.26b"),
    # why: 122.3 (704.5q): +1/+1 and -1/-1 counters on one permanent are removed in pairs
    ("With Flourishing Defenses out, a -1/-1 counter goes on my creature with a +1/+1 counter: do they "
     "cancel?", "122.3"),
])
def test_keywords_and_counters_a_card_gives(stage, question, rule):
    assert f"{CR}{rule}" in lifted(stage, question)


def test_603_4_the_intervening_if_when_the_question_asks_about_the_condition_not_any_trigger(stage):
    # why: 603.4: "Whenever [event], if [condition]" checks the condition again as it resolves
    assert f"{CR}603.4" in lifted(stage, "If I'm no longer the defending player when Kazuul, Tyrant of the "
                                         "Cliffs's trigger resolves, do I still get the Ogre?")
    # a question that says "trigger" about who the defending player is asks 506.2, not the condition
    assert f"{CR}603.4" not in lifted(stage, "Does targeting his creatures make him the defending player "
                                             "and trigger Kazuul, Tyrant of the Cliffs?")
