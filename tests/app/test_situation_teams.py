"""Teams, variants and Treachery identities a question states (app/situation_teams.py, app/situation_roles.py,
app/game_start.py): each fact must hold at the table it makes, or the question goes unread. Expected answers
from the rules (809.2 emperors in the middle seats, 810.9-810.10 a Two-Headed Giant team's one total, 907
Treachery, 725.1 no monarch at the start)."""

from __future__ import annotations

import pytest

from rulesjudge.app import services
from rulesjudge.app.situation import read_situation

FOUR = {"players": ["Ann", "Ben", "Cat", "Dan"]}
THG = {"variant": "two-headed-giant", "teams": [["Ann", "Ben"], ["Cat", "Dan"]]}
TVT = {"variant": "team-vs-team", "teams": [["Ann", "Ben"], ["Cat", "Dan"]]}
TREACHERY = {"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"],
             "identities": {"Ann": "assassin", "Ben": "guardian", "Cat": "leader", "Dan": "assassin",
                            "Eve": "traitor"}}


@pytest.fixture
def answer(builtin_corpus):
    def ask(question: str, game: dict = FOUR) -> services.AskedWhatIf:
        return services.ask_what_if(services.open_table(game), question, builtin_corpus)

    return ask


def test_809_2_new_players_and_their_emperors_make_the_table():
    said = read_situation("playing emperor, Ann Ben Cat vs Dan Eve Fay, Ben and Eve are the emperors. "
                          "Can Ann attack Fay?", FOUR)
    assert said.game["teams"] == [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]]
    assert said.rest == "Can Ann attack Fay?"


def test_809_2_an_emperor_said_off_the_middle_seat_is_no_table():
    # Ann sits at her team's end: 809.2 puts the emperor in the middle, so the teams are not taken as said
    said = read_situation("Emperor game: Ann, Ben and Cat are one team with Ann the emperor, Dan, Eve and "
                          "Fay the other with Eve as emperor. Ann dies. Who wins?", FOUR)
    assert said.game.get("teams") != [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]]


def test_new_names_need_the_variant_said_with_them():
    # cards compared, not a table: no variant named, and names not seated at the table
    said = read_situation("Doubling Season vs Parallel Lives, which is better?", FOUR)
    assert said.game == FOUR and not said.said


def test_810_9_a_team_total_is_a_fact_only_where_the_team_shares_one(answer):
    shared = answer("Cat's team is at 4 and Ann drains Dan for 4. Who wins?", THG)
    assert shared.outcome is not None and shared.outcome.line == "Ann, Ben"  # 810.9, 704.5a, 104.2c
    # Team vs. Team players keep their own totals (808): "the team is at 4" says nothing of each
    assert answer("Cat's team is at 4 and Ann deals 4 damage to Dan. Who wins?", TVT).plan is None


def test_810_10_a_team_said_by_its_players_and_we(answer):
    asked = answer("Our team (Ann and Ben) is at 9 and Ann takes 9 from the other team's attack. Are we out?",
                   THG)
    assert asked.outcome is not None and "Yes" in asked.outcome.answer  # 810.9: 9 - 9 = 0, 810.8a


def test_907_8a_assassins_unveiled_first_win_when_the_leader_dies(answer):
    asked = answer("Ann and Dan have both unveiled as assassins. Then Cat, the leader, dies. Who wins?",
                   TREACHERY)
    assert asked.outcome is not None and asked.outcome.line == "Ann, Dan"


def test_907_3_an_unveiling_as_another_role_is_not_read(answer):
    # Eve is the Traitor: "unveiled as an assassin" contradicts the deal, so the question is not answered
    assert answer("Eve has unveiled as an assassin. Cat dies. Who wins?", TREACHERY).plan is None


def test_725_1_the_start_of_the_game_has_no_monarch(answer):
    asked = answer("who was the monarch at the start of the game?", {**FOUR, "monarch": "Cat"})
    assert asked.outcome is not None and asked.outcome.answer.startswith("At the start of the game: Nobody")


def test_the_start_of_a_turn_is_not_the_start_of_the_game(answer):
    asked = answer("who is the monarch at the start of Dan's turn?", {**FOUR, "monarch": "Cat"})
    assert asked.plan is not None and asked.plan.events == ({"until-turn": "Dan"},)


def test_807_4c_one_grand_melee_turn_ends_alone(answer):
    melee = {"variant": "grand-melee", "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal",
                                                    "Ivy", "Jon"]}
    asked = answer("Ann finishes her turn. who gets her turn marker?", melee)
    assert asked.outcome is not None and asked.outcome.line == "Ben, Eve"  # Eve's turn goes on
