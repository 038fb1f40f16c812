"""How the cards stage reads a question's own story beside its cards' text (issue 21, round 3;
indexer/card_stage.py): a player who "died" in the story is a player who left the game (800.4a); a name
is read as the type of the face the question says (Withengar Unbound, a creature); a template's words are
its rules' own words (the layers of two control-changing effects). Each card is a real card with its
Oracle text as the snapshot of 2026-07-09 gives it; each expected rule comes from the rules text of the
built-in release; each change has a question where it must not fire."""

from __future__ import annotations

import pytest
from card_fakes import card, lifted, stage_over

from rulesjudge.corpus.cards import Card, CardMention, Face
from rulesjudge.indexer.card_stage import CardStage, told

CR = "cr@2026-04-17/"

CARDS = (
    card("Control Magic", "Enchantment — Aura", "Enchant creature\nYou control enchanted creature.",
         ("Enchant",)),
    card("Dictate of Erebos", "Enchantment",
         "Flash\nWhenever a creature you control dies, each opponent sacrifices a creature.", ("Flash",)),
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


# --- the type a name is read as ----------------------------------------------------------------------


def test_302_the_face_said_gives_the_type(builtin_corpus):
    # why: 712.8e: a double-faced permanent with its back face up has only its back face's
    # characteristics; the question names the back face, a creature (302), not the front face's artifact
    question = "Anna controls Withengar Unbound. Does it trigger when Chuck loses the game?"
    start = question.index("Withengar")
    mention = CardMention(ELBRUS, start, start + len("Withengar Unbound"), "Withengar Unbound")
    faces = type("Faces", (), {"names_in": lambda self, text: [mention]})()
    reading = CardStage(builtin_corpus.records, lambda: faces).read(question)
    assert reading.plain.startswith("Anna controls creature.")


def test_302_the_front_face_types_a_card_said_by_its_whole_name(builtin_corpus):
    # why: 712.8d: with its front face up it has only its front face's characteristics (an artifact)
    question = "Anna controls Elbrus, the Binding Blade // Withengar Unbound. Is it an artifact?"
    start = question.index("Elbrus")
    mention = CardMention(ELBRUS, start, question.index(". Is"), ELBRUS.name)
    faces = type("Faces", (), {"names_in": lambda self, text: [mention]})()
    reading = CardStage(builtin_corpus.records, lambda: faces).read(question)
    assert reading.plain.startswith("Anna controls artifact.")


# --- a template's words are its rules' own words -----------------------------------------------------


def test_613_7_two_control_effects_are_read_in_the_rules_words_of_layers(searcher):
    # why: 613.1b puts control-changing effects in layer 2, and 613.7 orders them by timestamp: when Act
    # of Treason's effect ends, Control Magic's (the earlier one) still applies. The template's words are
    # those rules' words ("layer", "timestamp"), so the rules part finds them, not only the lift
    question = ("My opponent took my creature with Control Magic, then I cast Act of Treason on it. When Act "
                "of Treason ends at end of turn, who controls the creature?")
    hits = [hit.id for hit in searcher.search(question, k=5).hits]
    assert f"{CR}613.7" in hits[:2]


def test_613_7_a_question_about_casting_the_card_does_not_need_layers(searcher):
    # why: when a sorcery may be cast is 307.1's; nothing in the question changes who controls what
    question = "Can I cast Act of Treason during my opponent's turn?"
    hits = [hit.id for hit in searcher.search(question, k=5).hits]
    assert f"{CR}613.7" not in hits
