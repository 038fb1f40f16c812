"""Plain-English what-if questions become the events and questions of the scenario format (issue 6)."""

from __future__ import annotations

import pytest

from rulesjudge.app.whatif import (
    MAX_QUESTION,
    WhatIfError,
    closest_scenarios,
    examples,
    interpret,
    resolve_players,
)

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.mark.parametrize(
    ("question", "events", "questions"),
    [
        # 722.4: leaving, conceding and losing all make the monarch question a leave event.
        ("Who becomes the monarch if Ann leaves?", ({"leaves": "Ann"},), ("monarch",)),
        ("who becomes the monarch if ann concedes", ({"concedes": "Ann"},), ("monarch",)),
        ("Who is the monarch if Ben loses the game?", ({"leaves": "Ben"},), ("monarch",)),
        ("If Cat leaves the game, who becomes the monarch?", ({"leaves": "Cat"},), ("monarch",)),
        ("Who gets the crown when Ann and Ben leave?", ({"leaves": ["Ann", "Ben"]},), ("monarch",)),
        # 722.2: combat damage to the monarch.
        ("Who is the monarch after Cat's creature deals combat damage to Ben?",
         ({"combat-damage": {"from": "Cat", "to": "Ben", "amount": 1}},), ("monarch",)),
        ("who is the monarch after dan's creature deals 3 combat damage to ann",
         ({"combat-damage": {"from": "Dan", "to": "Ann", "amount": 3}},), ("monarch",)),
        ("Who becomes the monarch if Ben's creature hits Ann?",
         ({"combat-damage": {"from": "Ben", "to": "Ann", "amount": 1}},), ("monarch",)),
        # 723.4: the initiative's leaving rule.
        ("Who takes the initiative if Dan leaves?", ({"leaves": "Dan"},), ("initiative",)),
        # 802 / 803 / 809.3c: attacks, 801: range of influence.
        ("Can Ann attack Cat?", (), ("can-attack(Ann, Cat)",)),
        ("can ben attack dan this turn?", (), ("can-attack(Ben, Dan)",)),
        ("Is Cat within Ann's range?", (), ("in-range(Ann, Cat)",)),
        ("Is Dan in Ben's range of influence?", (), ("in-range(Ben, Dan)",)),
        ("is Dan within the range of influence of Ann", (), ("in-range(Ann, Dan)",)),
        ("What is Ann's range of influence?", (), ("range(Ann)",)),
        # 104.2a / 104.2c: winning when opponents leave.
        ("Who wins if Ben loses?", ({"leaves": "Ben"},), ("game-over", "winners")),
        ("If Ann and Cat lose, who wins?", ({"leaves": ["Ann", "Cat"]},), ("game-over", "winners")),
        # 102.2 / 102.3: opponents and teammates; teams of the variants.
        ("Who are Ann's opponents?", (), ("opponents(Ann)",)),
        ("who are dan's teammates", (), ("teammates(Dan)",)),
        ("Which team is Ben on?", (), ("team(Ben)",)),
        ("What team is Cat in?", (), ("team(Cat)",)),
        ("Who is the monarch?", (), ("monarch",)),
        ("Whose turn is it?", (), ("active", "next-turn")),  # 800.4j: the next turn may not be the next seat
        # the same questions as judges also put them
        ("Ann concedes, who is the monarch now?", ({"concedes": "Ann"},), ("monarch",)),
        ("Ben leaves the game. Who becomes the monarch?", ({"leaves": "Ben"},), ("monarch",)),
        ("Can Ann's creatures attack Cat?", (), ("can-attack(Ann, Cat)",)),
        ("Who is the monarch after Dan's creatures deal combat damage to Ann?",
         ({"combat-damage": {"from": "Dan", "to": "Ann", "amount": 1}},), ("monarch",)),
        ("Is Ben in range of Ann?", (), ("in-range(Ann, Ben)",)),
    ],
)
def test_questions_become_events_and_model_questions(question, events, questions):
    plan = interpret(question, PLAYERS)
    assert plan is not None, question
    assert plan.events == events
    assert plan.questions == questions
    assert plan.summary.endswith("?")


def test_whom_can_a_player_attack_asks_about_every_other_seat():
    plan = interpret("Who can Ben attack?", PLAYERS)
    assert plan is not None
    assert plan.questions == ("can-attack(Ben, Ann)", "can-attack(Ben, Cat)", "can-attack(Ben, Dan)")


def test_who_can_attack_a_player_asks_about_every_other_seat():
    plan = interpret("Who can attack Cat?", PLAYERS)
    assert plan is not None
    assert plan.questions == ("can-attack(Ann, Cat)", "can-attack(Ben, Cat)", "can-attack(Dan, Cat)")


@pytest.mark.parametrize("question", ["What happens if Ann concedes?", "What if Ann concedes?"])
def test_what_happens_if_a_player_concedes_asks_the_main_questions(question):
    plan = interpret(question, PLAYERS)
    assert plan is not None and plan.events == ({"concedes": "Ann"},)
    assert {"monarch", "active", "in-game", "winners"} <= set(plan.questions)


def test_names_with_spaces_and_odd_case_resolve_to_the_seat_as_written():
    players = ["Mary Ann", "Bread and Butter", "O'Neil"]
    plan = interpret("who becomes the monarch if bread and butter concedes?", players)
    assert plan is not None and plan.events == ({"concedes": "Bread and Butter"},)
    plan = interpret("Can o'neil attack Mary Ann?", players)
    assert plan is not None and plan.questions == ("can-attack(O'Neil, Mary Ann)",)


def test_typographic_apostrophes_are_read():
    plan = interpret("Is Cat within Ann’s range?", PLAYERS)
    assert plan is not None and plan.questions == ("in-range(Ann, Cat)",)


def test_unknown_player_is_a_one_line_error_naming_the_table():
    with pytest.raises(WhatIfError) as caught:
        interpret("Can Zed attack Ann?", PLAYERS)
    message = str(caught.value)
    assert "Zed" in message and "Ann, Ben, Cat, Dan" in message and "\n" not in message


def test_question_length_is_capped():
    with pytest.raises(WhatIfError, match="longer than"):
        interpret("x" * (MAX_QUESTION + 1), PLAYERS)


@pytest.mark.parametrize("question", ["what does deathtouch do?", "explain the stack", "", "monarch"])
def test_anything_else_falls_back_to_search(question):
    assert interpret(question, PLAYERS) is None


@pytest.mark.parametrize(
    ("question", "summary"),
    [
        ("who becomes the monarch if ann concedes", "If Ann concedes, who is the monarch?"),
        ("Who becomes the monarch if Ann and Ben leave?",
         "If Ann and Ben leave the game, who is the monarch?"),
        ("Who wins if Ben loses?", "If Ben loses the game, who wins?"),
    ],
)
def test_the_summary_restates_the_question_with_the_names_as_seated(question, summary):
    plan = interpret(question, PLAYERS)
    assert plan is not None and plan.summary == summary


def test_several_players_leaving_together():
    assert resolve_players("Ann, ben & CAT", PLAYERS) == ["Ann", "Ben", "Cat"]


def test_closest_scenarios_rank_by_cosine():
    vectors = [[1.0, 0.0], [0.0, 1.0], [0.8, 0.6]]
    assert [i for i, _ in closest_scenarios([0.0, 1.0], vectors, k=2)] == [1, 2]


def test_examples_use_the_names_at_the_table_and_are_all_understood():
    players = ["Xena", "Yuri", "Zoe"]
    for example in examples(players):
        assert interpret(example, players) is not None, example


def test_typos_of_the_vocabulary_are_mended_but_real_words_never_are():
    from rulesjudge.app.whatif import mend_typos

    assert mend_typos("whos teh monarch if Cat concceds", ["Cat"]) == "whos the monarch if Cat concedes"
    assert mend_typos("wat happens if the monarck leves", []) == "what happens if the monarch leaves"
    # words of the rules' own text are real words, however close to the vocabulary ("attacked", "unveil")
    for word in ("attacker", "command", "chose", "checked", "surveil", "attached", "stopped", "countered"):
        assert mend_typos(word, []) == word
    assert mend_typos("Crowm concedes", ["Crowm"]) == "Crowm concedes"  # a player's name is kept
    assert mend_typos("the 4th turn", []) == "the 4th turn"


def test_a_tangled_sentence_is_left_to_the_search_within_the_work_budget(monkeypatch):
    """Splitting at every "and", "after", "before" and comma grows with the product of the splits: a budget
    of clause readings stops it (a 500-character sentence took 428 s without one), and the search answers."""
    from rulesjudge.app import whatif

    tried = []
    first = whatif.grammar._Grammar.first

    def counted(self, text, reader, what):
        tried.append(text)
        return first(self, text, reader, what)

    monkeypatch.setattr(whatif.grammar._Grammar, "first", counted)
    tangled = " ".join(["after before and then, once when"] * 40)[:500]
    assert interpret(tangled, PLAYERS) is None
    assert len(tried) <= whatif.MAX_WORK + 1
    tried.clear()
    plan = interpret("who's the monarch if Cat concedes after Ben hits her", PLAYERS)
    assert plan is not None
    assert plan.events == ({"combat-damage": {"from": "Ben", "to": "Cat", "amount": 1}}, {"concedes": "Cat"})
    assert len(tried) < 40  # a real question is read with a small part of the budget
