"""Teams in general (102.3, 104.2c, 104.3g, 104.4d) and Team vs. Team (808)."""

from __future__ import annotations

from rulesjudge.scenarios.model import team_vs_team as tvt

TEAMS = {"A": ("Ann", "Ben", "Cat"), "B": ("Dan", "Eve", "Fay")}
ALL = set(tvt.all_seats(TEAMS))


def cites(steps):
    return {str(c) for s in steps for c in s.cites}


def test_102_3_teammates_are_the_other_players_on_the_team():
    mates, steps = tvt.teammates_of(TEAMS, "Ben", ALL)
    assert mates == ["Ann", "Cat"]  # the other players on Ben's team
    assert "CR 102.3" in cites(steps)


def test_102_3_opponents_are_all_players_not_on_the_team():
    assert tvt.opponents_of(TEAMS, "Ben", ALL)[0] == ["Dan", "Eve", "Fay"]  # everyone on team B


def test_808_4_odd_team_centre_seat_goes_first():
    picks, steps = tvt.starting_candidates(TEAMS)
    assert picks == ["Ben", "Eve"]  # a random team; its centre seat goes first
    assert {r.value for r in steps[0].alternatives} == {"Ben", "Eve"}  # the answer names the random choice


def test_808_4_even_team_player_left_of_midpoint_goes_first():
    # turn order goes to the left, the next seat: left of the midpoint of Dan Eve | Fay Gus is Fay
    assert tvt.starting_candidates({"B": ("Dan", "Eve", "Fay", "Gus")})[0] == ["Fay"]


def test_104_2c_winning_team_includes_players_who_already_lost():
    out = tvt.team_result(TEAMS, {"Ben"}, {"Ann", "Cat", "Dan", "Eve", "Fay"})
    assert out.game_over  # team B has left the game entirely
    assert out.winners == {"Ann", "Ben", "Cat"}  # Ann and Cat win even though they had lost
    assert out.losers == {"Dan", "Eve", "Fay"}  # 104.3g: every player of team B lost
    assert {"CR 104.2c", "CR 104.3g"} <= cites(out.steps)


def test_104_2c_game_goes_on_while_two_teams_have_players():
    out = tvt.team_result(TEAMS, {"Ben", "Dan"}, {"Ann", "Cat", "Eve", "Fay"})
    assert not out.game_over and not out.winners  # both teams still have a player in the game


def test_104_4d_all_remaining_teams_lose_at_once_is_a_draw():
    out = tvt.team_result(TEAMS, set(), set(ALL), left_now={"Ben", "Dan"})
    assert out.game_over and out.drawn == {"Ben", "Dan"}  # the last players left together
    assert not out.winners  # nobody wins a draw


def test_808_1_teams_of_any_size():
    assert tvt.legal_team_setup({"A": ("Ann",), "B": ("Ben", "Cat", "Dan")})[0] is True  # any number each
    assert tvt.legal_team_setup({"A": ("Ann", "Ben")})[0] is False  # two or more teams
