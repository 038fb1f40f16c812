"""Team vs. Team (808) through the model; teams in general are in test_teams.py."""

from __future__ import annotations

from rules_model_helpers import ask, cited, derive

from rulesjudge.scenarios.model import team_vs_team as tvt

SIX = {"variant": "team-vs-team", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]], "active": "Ann"}


def test_808_4_odd_team_centre_seat_goes_first():
    value, steps = derive({**SIX, "active": None}, [], "first-player")
    assert value == ["Ben", "Eve"]  # why: 808.4, a random team; its centre seat goes first
    assert {r.value for s in steps for r in s.alternatives} == {
        "Ben",
        "Eve",
    }  # why: the answer names the choice
    assert (
        ask({**SIX, "active": None}, [], "active") == "Ben"
    )  # why: the first listed team stands for the random one


def test_808_4_even_team_player_left_of_midpoint_goes_first():
    # why: 808.4 with turn order to the left (the next seat): left of the midpoint of Dan Eve | Fay Gus is Fay
    assert tvt.starting_candidates([("Dan", "Eve", "Fay", "Gus")]) == ("Fay",)


def test_808_3a_attack_multiple_players_by_default():
    value, steps = derive(SIX, [], "defending-players")
    assert value == ["Dan", "Eve", "Fay"]  # why: 808.3a, every opponent is a defending player
    assert "802.2" in cited(steps)


def test_808_1_teams_of_any_size():
    uneven = {"variant": "team-vs-team", "teams": [["Ann"], ["Ben", "Cat", "Dan"]]}
    assert ask(uneven, [], "legal-setup") is True  # why: 808.1, each team may have any number of players


def test_104_2c_winning_team_includes_players_who_already_lost():
    events = [{"leaves": ["Ann", "Cat"]}, {"leaves": ["Dan", "Eve", "Fay"]}]
    value, steps = derive(SIX, events, "winners")
    assert value == ["Ann", "Ben", "Cat"]  # why: 104.2c, even players who had lost win with their team
    assert "104.2c" in cited(steps)
