"""Two-Headed Giant (810): expected answers read from the rules, not from the code."""

from __future__ import annotations

from rulesjudge.scenarios.model import two_headed_giant as thg

TEAMS = {"1": ("Ann", "Ben"), "2": ("Cat", "Dan")}
ALL = {"Ann", "Ben", "Cat", "Dan"}


def cites(steps):
    return {str(c) for s in steps for c in s.cites}


def test_810_4_shared_life_total_starts_at_30():
    assert thg.starting_life(2) == 30  # 810.4


def test_810_11_three_headed_giant_adds_15_per_extra_player():
    assert thg.starting_life(3) == 45  # 810.11: +15 for the third player
    assert thg.starting_life(4) == 60  # and +15 again for the fourth


def test_810_9_damage_to_a_player_applies_to_the_team_total():
    life = {"1": 30, "2": 30}
    thg.apply_life_change(life, TEAMS, "Cat", -4)
    thg.apply_life_change(life, TEAMS, "Dan", -4)
    assert life["2"] == 22  # 810.9 example: Flame Rift deals 4 to each player, each team is dealt 8
    assert thg.life_of(life, TEAMS, "Dan")[0] == 22  # 810.9a: a player's life is the team's total


def test_810_8c_team_at_zero_life_loses():
    more, steps = thg.life_losses({"1": 0, "2": 5}, TEAMS, ALL)
    assert more == {"Ann", "Ben"}  # team 1 is at 0 life, so both of its players lose
    assert "CR 810.8c" in cites(steps)


def test_810_8a_if_either_player_loses_the_team_loses():
    more, steps = thg.team_losses(TEAMS, lost={"Ann"}, in_game={"Ben", "Cat", "Dan"})
    assert more == {"Ben"}  # Ann drew from an empty library: her whole team loses (810.8a example)
    assert "CR 810.8a" in cites(steps)


def test_810_8b_a_concession_makes_the_whole_team_leave():
    more, steps = thg.team_losses(TEAMS, lost={"Cat"}, in_game={"Ann", "Ben", "Dan"}, conceded={"Cat"})
    assert more == {"Dan"}  # Cat concedes: the team leaves immediately and loses
    assert "CR 810.8b" in cites(steps)


def test_506_2b_810_7a_the_whole_nonactive_team_defends():
    players, steps = thg.defending_players(TEAMS, "1", ALL)
    assert players == ["Cat", "Dan"]  # each player on the nonactive team is a defending player
    assert {"CR 506.2b", "CR 810.7", "CR 805.10a"} <= cites(steps)
    assert thg.attacking_players(TEAMS, "1", ALL)[0] == ["Ann", "Ben"]  # each active player attacks


def test_810_7b_one_shot_defending_player_is_one_chosen_by_the_controller():
    value, steps = thg.one_shot_defending_player(TEAMS, "Ann", "1", ALL)
    assert value == {"chosen-by": "Ann", "one-of": ["Cat", "Dan"]}  # one of the two, Ann chooses
    choice = steps[-1]
    assert {r.value for r in choice.alternatives} == {"Cat", "Dan"}  # the answer names both choices
    assert "CR 805.10e" in cites(steps)


def test_810_1_two_teams_of_two():
    assert thg.legal_setup(TEAMS)[0] is True  # 810.1
    assert thg.legal_setup({"1": ("A",), "2": ("B",)})[0] is False  # teams of one are not giants
    assert thg.legal_setup({"1": ("A", "B"), "2": ("C", "D"), "3": ("E", "F")})[0] is False  # two teams


def test_805_4_teams_take_turns():
    assert thg.next_team(TEAMS, "1", ALL) == "2"  # the other team takes the next turn
    assert thg.next_team(TEAMS, "2", ALL) == "1"


def test_810_1_unequal_teams_are_an_input_error():
    import pytest

    from rulesjudge.corpus.errors import InputError
    from rulesjudge.scenarios.format import parse_scenario

    text = "name: bad\ngame:\n  variant: two-headed-giant\n  teams: [[Ann, Ben], [Cat, Dan, Eve]]\n"
    with pytest.raises(InputError) as caught:
        parse_scenario(text, "bad.yaml")
    assert caught.value.key == "game.teams[1]" and caught.value.line == 4  # names the file, line and key


# --- through the model: build a table, apply events, ask -------------------------------------------------
def _run(events, question, teams="[[Ann, Ben], [Cat, Dan]]", active="Ann"):
    from rulesjudge.scenarios.format import parse_scenario
    from rulesjudge.scenarios.model import answer, apply, build_state

    text = f"name: t\ngame:\n  variant: two-headed-giant\n  teams: {teams}\n  active: {active}\n"
    state = build_state(parse_scenario(text).game)
    for event in events:
        from rulesjudge.scenarios.model import parse_event

        name, arg = (event, None) if isinstance(event, str) else next(iter(event.items()))
        state, _ = apply(state, parse_event(name, arg))
    from rulesjudge.scenarios.model import parse_question

    return answer(state, parse_question(question))


def test_805_4_next_turn_goes_to_the_other_team_not_the_teammate():
    assert _run(["next-turn"], "active")[0] == "Cat"  # teams take turns: Ben shares Ann's turn
    assert _run([], "next-turn")[0] == "Cat"  # who takes the next turn: the first player of team B


def test_810_7b_defending_player_question_names_the_choice():
    value, steps = _run([], "defending-player(Ben)")
    assert value == {"chosen-by": "Ben", "one-of": ["Cat", "Dan"]}  # Ben chooses one of the defenders
    assert any(step.alternatives for step in steps)


def test_810_8b_concession_team_leaves_and_loses():
    assert _run([{"concedes": "Dan"}], "losers")[0] == ["Cat", "Dan"]  # Dan concedes: Cat leaves too
    assert _run([{"concedes": "Dan"}], "winners")[0] == ["Ann", "Ben"]  # the other team has left


def test_810_9_shared_life_through_the_model():
    hits = [{"combat-damage": {"from": "Ann", "to": "Cat", "amount": 4}},
            {"combat-damage": {"from": "Ben", "to": "Dan", "amount": 4}}]
    assert _run(hits, "life(Cat)")[0] == 22  # 30 - 4 - 4: both hits come off the team's shared total
