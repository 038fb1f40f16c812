"""Emperor (809) and deploy (804): expected answers read from the rules, not from the code."""

from __future__ import annotations

from rulesjudge.scenarios.model import emperor as emp

SEATS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
TEAMS = {"A": ("Ann", "Ben", "Cat"), "B": ("Dan", "Eve", "Fay")}
EMPERORS = {"A": "Ben", "B": "Eve"}


def cites(steps):
    return {str(c) for s in steps for c in s.cites}


def test_809_2_emperor_is_the_middle_player_of_three():
    assert emp.default_emperor(("Ann", "Ben", "Cat")) == "Ben"  # 809.2: the emperor sits in the middle


def test_809_3a_emperors_range_2_generals_range_1():
    ranges, steps = emp.ranges_of(TEAMS, EMPERORS)
    assert ranges == {"Ann": 1, "Ben": 2, "Cat": 1, "Dan": 1, "Eve": 2, "Fay": 1}  # 809.3a
    assert "CR 809.3a" in cites(steps)


def test_809_3c_example_neither_emperor_can_attack_at_the_start():
    # 809.3c's example: at the start neither emperor can attack, though generals are within spell range
    assert emp.attackable(SEATS, TEAMS, "Ben")[0] == []  # Ben sits between his own generals
    assert emp.attackable(SEATS, TEAMS, "Eve")[0] == []  # so does Eve
    assert emp.ranges_of(TEAMS, EMPERORS)[0]["Ben"] >= emp.seat_distance(SEATS, "Ben", "Dan")  # Dan in range


def test_809_3c_generals_attack_only_the_opposing_general_next_to_them():
    assert emp.attackable(SEATS, TEAMS, "Cat")[0] == ["Dan"]  # Cat's neighbours: Ben (teammate) and Dan
    assert emp.attackable(SEATS, TEAMS, "Ann")[0] == ["Fay"]  # around the table Ann sits next to Fay


def test_809_3c_a_seat_emptied_by_a_player_who_left_closes_up():
    in_game = ["Ann", "Ben", "Dan", "Eve", "Fay"]  # Cat left: Ben now sits next to Dan
    assert emp.can_attack(in_game, TEAMS, "Ben", "Dan")[0] is True  # opponent immediately next to Ben
    assert emp.can_attack(in_game, TEAMS, "Ben", "Eve")[0] is False  # Eve is two seats away


def test_809_6a_eight_player_example_ranges():
    # 809.6a's example: A g1, A emperor, A g2, A g3, B g1, B emperor, B g2, B g3
    teams = {"A": ("A1", "AE", "A2", "A3"), "B": ("B1", "BE", "B2", "B3")}
    ranges, steps = emp.ranges_of(teams, {"A": "AE", "B": "BE"})
    assert ranges["AE"] == ranges["BE"] == 3  # "Each emperor has range of influence 3"
    assert ranges["A2"] == ranges["B2"] == 2  # "Each general 2 has range of influence 2"
    assert ranges["A1"] == ranges["A3"] == ranges["B1"] == ranges["B3"] == 1  # generals 1 and 3: range 1
    assert "CR 809.6a" in cites(steps)


def test_809_6a_eight_player_example_is_a_legal_seating():
    teams = {"A": ("A1", "AE", "A2", "A3"), "B": ("B1", "BE", "B2", "B3")}
    assert emp.legal_setup(teams, {"A": "AE", "B": "BE"})[0] is True  # no emperor in another's range


def test_809_2_emperor_not_in_the_middle_is_not_a_legal_setup():
    ok, steps = emp.legal_setup(TEAMS, {"A": "Ann", "B": "Eve"})
    assert ok is False  # 809.2: the emperor sits in the middle of the team
    assert "CR 809.2" in cites(steps)


def test_809_1_a_single_team_is_not_an_emperor_game():
    assert emp.legal_setup({"A": ("Ann", "Ben", "Cat")}, {"A": "Ben"})[0] is False  # two or more teams


def test_809_1_three_teams_of_three_are_legal():
    teams = {"A": ("A1", "AE", "A2"), "B": ("B1", "BE", "B2"), "C": ("C1", "CE", "C2")}
    assert emp.legal_setup(teams, {"A": "AE", "B": "BE", "C": "CE"})[0] is True  # 809.1: two or more teams


def test_804_2_deploy_to_a_teammate_as_a_sorcery():
    ok, steps = emp.deploy_check(teams=TEAMS, in_game=SEATS, permanent="Bear", controller="Ann", to="Ben",
                                 active="Ann")
    assert ok is True  # {T}: target teammate gains control, on Ann's own main phase with an empty stack
    assert "CR 804.2" in cites(steps)


def test_804_2_deploy_only_to_a_teammate():
    assert emp.deploy_check(teams=TEAMS, in_game=SEATS, permanent="Bear", controller="Cat", to="Dan",
                            active="Cat")[0] is False  # Dan is an opponent, not a teammate


def test_804_2_deploy_only_as_a_sorcery():
    base = dict(teams=TEAMS, in_game=SEATS, permanent="Bear", controller="Ann", to="Ben")
    assert emp.deploy_check(**base, active="Dan")[0] is False  # not Ann's turn
    assert emp.deploy_check(**base, active="Ann", stack_empty=False)[0] is False  # stack not empty
    assert emp.deploy_check(**base, active="Ann", main_phase=False)[0] is False  # not a main phase


def test_804_2_tapped_creature_cannot_pay_the_tap_cost():
    assert emp.deploy_check(teams=TEAMS, in_game=SEATS, permanent="Bear", controller="Ann", to="Ben",
                            active="Ann", tapped=True)[0] is False  # {T} can't be paid


def test_809_5b_team_loses_when_its_emperor_loses():
    more, steps = emp.team_losses(TEAMS, EMPERORS, lost={"Eve"}, in_game={"Ann", "Ben", "Cat", "Dan", "Fay"})
    assert more == {"Dan", "Fay"}  # Eve's generals lose with her
    assert "CR 809.5b" in cites(steps)


def test_809_5b_a_general_losing_does_not_sink_the_team():
    more, _ = emp.team_losses(TEAMS, EMPERORS, lost={"Dan"}, in_game={"Ann", "Ben", "Cat", "Eve", "Fay"})
    assert more == set()  # only the emperor's loss makes the team lose


def test_809_5c_draw_for_the_emperor_is_a_draw_for_the_team():
    names, steps = emp.team_draws(EMPERORS, {"Ben"})
    assert names == ["A"]  # the game is a draw for Ben, so for team A
    assert "CR 809.5c" in cites(steps)


def test_809_7_resources_not_shared():
    assert emp.resources_note("Ann", "Bear", "Ben")[0] is False  # teammates can't use each other's permanents


# --- bad input: one line naming file, line and key -------------------------------------------------------
import pytest  # noqa: E402

from rulesjudge.corpus.errors import InputError  # noqa: E402
from rulesjudge.scenarios.format import parse_scenario  # noqa: E402


@pytest.mark.parametrize(
    ("teams", "key", "words"),
    [
        ("[[Ann, Ben], [Cat, Dan]]", "game.teams[0]", "three or more"),  # 809.1: teams of three
        ("[[Ann, Ben, Cat], [Dan, Eve, Fay, Gus]]", "game.teams[1]", "equal size"),  # 809.6: equal teams
        ("[{emperor: Zed, members: [Ann, Ben, Cat]}, [Dan, Eve, Fay]]", "game.teams[0].emperor", "not among"),
    ],
)
def test_809_bad_emperor_teams_are_input_errors(teams, key, words):
    text = f"name: bad\ngame:\n  variant: emperor\n  teams: {teams}\n"
    with pytest.raises(InputError) as caught:
        parse_scenario(text, "bad.yaml")
    error = caught.value
    assert error.path == "bad.yaml" and error.line == 4 and error.key == key and words in error.message
    assert "\n" not in str(error)
