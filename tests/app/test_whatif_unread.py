"""What the what-if reader does not read of a sentence is never dropped (issue 23, blind round 6's WRONG
answers): a sentence, a "then" event or a second player it can't place makes it refuse (the search, or a
question back), rather than answer without them."""

from __future__ import annotations

import pytest

from rulesjudge.app import services
from rulesjudge.app.whatif import WhatIfError, interpret

FOUR = {"players": ["Ann", "Ben", "Cat", "Dan"]}
KRENKO = {"players": ["Ann", "Ben", "Cat", "Dan"], "commander": True,
          "permanents": {"Krenko": {"owner": "Ann", "kind": "creature", "power": 3, "toughness": 3,
                                    "commander": True}}}


def _facts(game):
    return services.table_facts(services.open_table(game))


@pytest.mark.parametrize("question", [
    # a state said as its own sentence is not who gives the counter (104.3d needs the 9 already there)
    "Ben has 9 poison counters. Cat gives him one poison counter. Is Ben still in",
    "Dan has 8 poison counters; Ann gives him 2 poison counters. is Dan out",
])
def test_a_sentence_the_reader_cannot_read_is_not_swallowed_by_the_next_one(question):
    assert interpret(question, _facts(FOUR)) is None  # the rules search, not an answer without it


def test_a_then_event_after_a_creature_changes_hands_is_played_not_dropped():
    # 800.4a: Krenko leaves the game with Ann, so the conceding changes the answer
    plan = interpret("Ben gains control of Krenko, then Ann concedes. who controls Krenko", _facts(KRENKO))
    assert plan is not None
    assert plan.events == ({"gain-control": {"permanent": "Krenko", "player": "Ben"}}, {"concedes": "Ann"})


@pytest.mark.parametrize("question", [
    "Ben gains 3 life. What are their life totals?",
    "Cat takes 4 damage from Ann. what are their totals",
])
def test_a_plural_question_about_one_named_player_asks_whom_it_means(question):
    # "their totals" are several players' totals: answering Ben's alone would drop the others unsaid
    with pytest.raises(WhatIfError, match="stand for"):
        interpret(question, _facts(FOUR))


@pytest.mark.parametrize("question", ["Can Fay attack Ann since they sit together?",
                                      "Are Ben and Fay on the same team right now?"])
def test_a_capitalised_question_word_is_never_taken_for_a_name(question):
    try:
        plan = interpret(question, _facts(FOUR))
    except WhatIfError as error:  # Fay is not at this table: said so, never "no player called 'Can Fay'"
        assert "'Can" not in str(error) and "'Are" not in str(error)
    else:
        assert plan is None


def test_the_stated_facts_name_whom_their_totals_are(builtin_corpus):
    said = "Ben is at 7 life and Cat is at 10; Ben gains 3 life. What are their life totals?"
    asked = services.ask_what_if(services.open_table(FOUR), said, builtin_corpus)
    values = {str(a.question): a.value for a in asked.outcome.report.answers}
    assert values["life(Ben)"] == 10 and values["life(Cat)"] == 10  # 119.3: 7 + 3; Cat's stated 10 unchanged


def test_a_seating_the_table_contradicts_is_not_answered_for_the_tables_seating(builtin_corpus):
    # Ann and Cat sit across from each other at this table: the question's seating can't be played here
    asked = services.ask_what_if(services.open_table(FOUR), "Can Cat attack Ann? they sit next to each other",
                                 builtin_corpus)
    assert asked.plan is None
    # where it is true, it is said and the question read (a free-for-all: any opponent may be attacked, 506.2)
    said = "Can Ben attack Ann since they're next to each other?"
    asked = services.ask_what_if(services.open_table(FOUR), said, builtin_corpus)
    assert asked.plan is not None and asked.stated == ("Ben and Ann sit next to each other",)
