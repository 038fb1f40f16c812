"""The table a question states (app/situation.py): each fact sets the table for that question, a fact that
contradicts the table is said, and what the question takes for granted is assumed and said. Expected answers
from the rules (725.4 the monarch leaving, 726.4 the initiative leaving)."""

from __future__ import annotations

import pytest

from rulesjudge.app import services
from rulesjudge.app.situation import read_situation
from rulesjudge.common.errors import InputError

FOUR = {"players": ["Ann", "Ben", "Cat", "Dan"]}


@pytest.fixture
def answer(builtin_corpus):
    """Asks a what-if question of a table (four players by default), as the app does."""

    def ask(question: str, game: dict = FOUR) -> services.AskedWhatIf:
        return services.ask_what_if(services.open_table(game), question, builtin_corpus)

    return ask


@pytest.mark.parametrize(("question", "monarch"), [
    # 725.4: the monarch leaves during another player's turn: the active player becomes the monarch
    ("Ann (the monarch) concedes on Ben's turn, who's the monarch?", "Ben"),
    ("Ben's the active player and Cat is the monarch; if Cat leaves who becomes monarch", "Ben"),
    ("Dan has the crown. Dan concedes. Who takes it?", "Ann"),
    # 725.4: the monarch is the active player: the next player in turn order
    ("Ben is the monarch and the active player. He concedes. Who is the monarch?", "Cat"),
])
def test_725_4_the_monarch_said_in_the_question(question, monarch, answer):
    asked = answer(question)
    assert asked.outcome is not None and asked.outcome.line == monarch, asked.outcome


def test_726_4_it_is_the_designation_the_facts_named(answer):
    asked = answer("If Ann has the initiative and Ann leaves during Cat's turn, who gets it?")
    assert asked.outcome is not None and asked.outcome.line == "Cat"  # 726.4: Cat is the active player


def test_a_fact_against_the_table_is_said_and_wins(answer):
    asked = answer("Ben is the monarch. Ben concedes. Who is the monarch?", {**FOUR, "monarch": "Cat"})
    assert asked.overridden == ("the table said Cat is the monarch",)
    assert asked.outcome is not None and asked.outcome.line == "Ann"  # 725.4: Ann is active as Ben leaves


def test_a_name_not_at_the_table_is_no_fact():
    situation = read_situation("Eve is at 5 life. Who is still in?", FOUR)
    assert not situation.changed and situation.rest.startswith("Eve is at 5 life")


def test_a_question_without_facts_is_left_as_it_is():
    for question in ("who is the monarch if Cat leaves", "can Ann attack Ben", "Ann vs Ben, who wins?"):
        situation = read_situation(question, FOUR)
        assert not situation.changed and situation.rest == question and situation.game == FOUR


def test_a_presupposition_is_not_taken_for_a_plain_event(answer):
    asked = answer("Cat concedes")  # what happens: it asks about everything and takes no holder for granted
    assert asked.assumed == "" and asked.outcome is not None and "Assuming" not in asked.outcome.answer


@pytest.mark.parametrize("question", [
    "commander game: ben is at 40 and takes 21 commander damage from ann's general. is he out",
    "cat's general hits dan for 21 commander damage. dan out?",
    "Dan takes 21 commander damage from Ann's creature, is he dead",
])
def test_903_10a_a_commanders_hit_with_no_commander_at_the_table_is_never_answered_no(question, answer):
    # 704.6c turns on 21 combat damage from one commander (903.10a); with none at the table to count it for,
    # read as any creature's the loss would be answered "no": refused (naming what is missing), left to the
    # search, or read as a commander's and answered yes - never "no"
    try:
        asked = answer(question)
    except InputError as error:
        assert "commander" in str(error)
    else:
        assert asked.outcome is None or asked.outcome.answer.startswith("Yes"), asked.outcome.answer
