"""How the cards stage reads a question's own story beside its cards' text (issue 21, round 3;
indexer/card_stage.py): a player who "died" in the story is a player who left the game (800.4a), and a
card type put in a name's place that the asker never said doesn't pull that type's rules (307 for a
sorcery). Each card is a real card with its Oracle text as the snapshot of 2026-07-09 gives it; each
expected rule comes from the rules text of the built-in release; each change has a question where it
must not fire."""

from __future__ import annotations

import pytest
from card_fakes import card, lifted, stage_over

from rulesjudge.corpus.cards import Card, CardMention, Face
from rulesjudge.indexer.card_stage import TYPE_SECTION_PENALTY, CardStage, told

CR = "cr@2026-04-17/"

CARDS = (
    card("Control Magic", "Enchantment — Aura", "Enchant creature\nYou control enchanted creature.",
         ("Enchant",)),
    card("Dictate of Erebos", "Enchantment",
         "Flash\nWhenever a creature you control dies, each opponent sacrifices a creature.", ("Flash",)),
    card("Upheaval", "Sorcery", "Return all permanents to their owners' hands."),
    card("Rancor", "Enchantment — Aura",
         "Enchant creature\nEnchanted creature gets +2/+0 and has trample.\nWhen this Aura is put into a "
         "graveyard from the battlefield, return it to its owner's hand.", ("Enchant",)),
)

ELBRUS = Card(
    "cards@2026-07-09/card/elbrus-the-binding-blade-withengar-unbound",
    "Elbrus, the Binding Blade // Withengar Unbound",
    (Face("Elbrus, the Binding Blade", "{7}", "Legendary Artifact — Equipment",
          "Equipped creature gets +1/+0.\nWhenever equipped creature deals combat damage to a player, "
          "unattach this Equipment, then transform it.\nEquip {1}"),
     Face("Withengar Unbound", "", "Legendary Creature — Demon",
          "Flying, intimidate, trample\nWhenever a player loses the game, put thirteen +1/+1 counters on "
          "Withengar Unbound.")),
    ("Equip", "Flying", "Intimidate", "Trample", "Transform"), edition="2026-07-09")


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return stage_over(builtin_corpus.records, CARDS)


# --- the story's player who died -------------------------------------------------------------------


@pytest.mark.parametrize("question", [
    "My opponent died while I controlled his creature with Control Magic. Who gets the creature?",
    "Control Magic is on Bob's elf and then someone died. Does the elf go back?",
    "Three players. I steal a creature with Control Magic, then its owner gets killed. What now?",
])
def test_800_4a_a_player_who_died_in_the_story_left_the_game(stage, question):
    # why: 800.4a: when a player leaves the game, the effects that give that player control of objects
    # end and the objects that player owns leave with them; a player who "died" lost and left (104.3a)
    assert f"{CR}800.4a" in lifted(stage, question)


@pytest.mark.parametrize("question", [
    "The creature I took with Control Magic died. Does Control Magic go to my graveyard?",
    "If my Dictate of Erebos creature dies, does each opponent sacrifice?",
])
def test_800_4a_a_creature_that_died_is_no_player_who_left(stage, question):
    # why: a creature that dies is put into a graveyard from the battlefield (700.4): nobody left the game
    assert f"{CR}800.4a" not in lifted(stage, question)


def test_the_story_adds_what_the_senses_read_and_keeps_what_was_said():
    # "died" said of a player reads as the lexicon's senses read it; the question's words stay
    story = told("My opponent died while I controlled his creature.")
    assert story.startswith("My opponent died while I controlled his creature.")
    assert "left the game" in story
    assert told("My creature died.") == "My creature died."


# --- a card type the asker never said -------------------------------------------------------------


def test_307_a_sorcery_named_only_by_its_name_sinks_the_sorceries_section(stage):
    # why: "I cast Upheaval and pass priority" asks about passing priority (117.4), not about when a
    # sorcery may be cast (307.1): the word "sorcery" stands only in the card's name's place
    reading = stage.read("I cast Upheaval and pass priority. Can my opponent add mana before it resolves?")
    assert reading.type_sections == frozenset({"307"})
    fused = [(f"{CR}307.1", 0.9), (f"{CR}117.4", 0.8)]
    ranked = stage.sink_unsaid_types(fused, reading)
    assert [rid for rid, _ in ranked] == [f"{CR}117.4", f"{CR}307.1"]
    assert dict(ranked)[f"{CR}307.1"] == pytest.approx(0.9 - TYPE_SECTION_PENALTY)


def test_307_a_type_the_asker_says_keeps_its_rules(stage):
    # why: 307.1: a sorcery is cast in a main phase with the stack empty: the asker asks about that
    reading = stage.read("Can I cast the sorcery Upheaval during my opponent's end step?")
    assert reading.type_sections == frozenset()
    fused = [(f"{CR}307.1", 0.9), (f"{CR}117.4", 0.8)]
    assert stage.sink_unsaid_types(fused, reading) == fused


def test_303_4c_a_rule_the_cards_template_lifts_is_not_sunk(stage):
    # why: 303.4c: an Aura enchanting an illegal object is put into its owner's graveyard; the
    # attached template lifts it for an Aura falling off, though "enchantment" was never said
    reading = stage.read("If the creature with Rancor gains protection from green, does Rancor fall off?")
    assert "303" in reading.type_sections
    assert f"{CR}303.4c" in reading.template_rules
    fused = [(f"{CR}303.4c", 0.9), (f"{CR}303.1", 0.85), (f"{CR}702.16b", 0.5)]
    ranked = dict(stage.sink_unsaid_types(fused, reading))
    assert ranked[f"{CR}303.4c"] == 0.9
    assert ranked[f"{CR}303.1"] == pytest.approx(0.85 - TYPE_SECTION_PENALTY)


def test_302_the_face_said_gives_the_type(builtin_corpus):
    # why: 712.8e: a double-faced permanent with its back face up has only its back face's
    # characteristics; the question names the back face, a creature (302), not the front face's artifact
    question = "Anna controls Withengar Unbound. Does it trigger when Chuck loses the game?"
    start = question.index("Withengar")
    mention = CardMention(ELBRUS, start, start + len("Withengar Unbound"), "Withengar Unbound")
    faces = type("Faces", (), {"names_in": lambda self, text: [mention]})()
    reading = CardStage(builtin_corpus.records, lambda: faces).read(question)
    assert reading.plain.startswith("Anna controls creature.")
    assert reading.type_sections == frozenset({"302"})


def test_a_question_without_cards_has_no_type_sections(stage):
    reading = stage.read("Can I cast a sorcery on my opponent's turn?")
    assert not reading
    assert reading.type_sections == frozenset()
