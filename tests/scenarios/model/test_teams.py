"""Teams in general: 102.3, 104.2c, 104.3g, 104.4d."""

from __future__ import annotations

from rules_model_helpers import ask, cited, derive

TEAMS = {"variant": "team-vs-team", "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "active": "Ann"}


def test_102_3_teammates_are_the_others_on_one_s_team():
    assert ask(TEAMS, [], "teammates(Ann)") == ["Ben"]  # why: 102.3


def test_102_3_opponents_are_everyone_not_on_the_team():
    assert ask(TEAMS, [], "opponents(Ann)") == ["Cat", "Dan"]  # why: 102.3


def test_104_2c_a_member_who_had_lost_wins_with_the_team():
    events = [{"leaves": "Ben"}, {"leaves": ["Cat", "Dan"]}]
    value, steps = derive(TEAMS, events, "winners")
    assert value == ["Ann", "Ben"]  # why: 104.2c "even if one or more of those players had previously lost"
    assert "104.2c" in cited(steps)


def test_104_2c_a_winner_who_had_lost_is_not_a_loser():
    events = [{"leaves": "Ben"}, {"leaves": ["Cat", "Dan"]}]
    assert ask(TEAMS, events, "losers") == ["Cat", "Dan"]  # why: losers are players who lost and did not win


def test_104_3g_a_team_is_in_the_game_while_one_member_is():
    assert ask(TEAMS, [{"leaves": "Cat"}], "game-over") is False  # why: 104.3g: not all of Cat's team lost


def test_104_4d_all_remaining_teams_losing_at_once_is_a_draw():
    events = [{"leaves": ["Ann", "Ben", "Cat", "Dan"]}]
    assert ask(TEAMS, events, "winners") == []  # why: 104.4d


def test_102_3_teammates_who_left_are_not_listed():
    assert (
        ask(TEAMS, [{"leaves": "Ben"}], "teammates(Ann)") == []
    )  # why: Ben is no longer in the game (800.4)


def test_104_3g_a_team_loses_when_all_its_players_have_lost():
    events = [{"leaves": "Cat"}, {"leaves": "Dan"}]
    assert ask(TEAMS, events, "winners") == ["Ann", "Ben"]  # why: Cat's team lost (104.3g); 104.2c


def test_104_2c_the_game_is_over_once_the_other_team_has_left():
    assert ask(TEAMS, [{"leaves": ["Cat", "Dan"]}], "game-over") is True  # why: 104.2c, 104.1


def test_102_3_a_teammate_who_left_is_not_an_opponent_either():
    assert ask(TEAMS, [{"leaves": "Ben"}], "opponents(Ann)") == [
        "Cat",
        "Dan",
    ]  # why: 102.3: players in the game


def test_104_4g_a_draw_for_a_team_s_remaining_players_is_a_draw_for_the_team():
    events = [{"leaves": "Ben"}, {"leaves": {"players": ["Ann"], "how": "drew"}}]
    assert ask(TEAMS, events, "result(Ann)") == "drew"  # why: 104.4g / 104.5: Ann leaves with a draw
