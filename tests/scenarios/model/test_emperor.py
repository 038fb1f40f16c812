"""Emperor (809) and deploy (804) through the model: expected answers read from the rules, not from the
code."""

from __future__ import annotations

import pytest
from rules_model_helpers import ask, cited, derive

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario
from rulesjudge.scenarios.model import emperor as emp

SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
EMP = {"variant": "emperor", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]], "active": "Ben"}
EIGHT = {
    "variant": "emperor",
    "teams": [
        {"emperor": "AE", "members": ["A1", "AE", "A2", "A3"]},
        {"emperor": "BE", "members": ["B1", "BE", "B2", "B3"]},
    ],
}


def test_809_2_emperor_is_the_middle_player_of_three():
    assert (
        emp.middle_seat(SEATS, ("Ann", "Ben", "Cat")) == "Ben"
    )  # why: 809.2, the emperor sits in the middle
    assert ask(EMP, [], "team(Ben)") == "A"  # why: 809.2, Ben is team A's emperor


def test_809_3a_emperors_range_2_generals_range_1():
    value, steps = derive(EMP, [], "range(Ben)")
    assert value == 2 and ask(EMP, [], "range(Cat)") == 1  # why: 809.3a
    assert "809.3a" in cited(steps)


def test_809_3c_example_neither_emperor_can_attack_at_the_start():
    # why: 809.3c's example: at the start neither emperor can attack, though a general is within range
    assert ask(EMP, [], "can-attack(Ben, Dan)") is False and ask(EMP, [], "in-range(Ben, Dan)") is True
    assert ask(EMP, [], "can-attack(Eve, Cat)") is False


def test_809_3c_generals_attack_only_the_opposing_general_next_to_them():
    assert ask(EMP, [], "can-attack(Cat, Dan)") is True  # why: 809.3c, Dan sits next to Cat
    assert ask(EMP, [], "can-attack(Ann, Fay)") is True  # why: 809.3c, around the table Ann sits next to Fay
    assert ask(EMP, [], "can-attack(Cat, Fay)") is False  # why: 809.3c, Fay is not next to Cat


def test_809_3c_a_seat_emptied_by_a_player_who_left_closes_up():
    events = [{"leaves": "Cat"}, "next-turn"]
    assert ask(EMP, events, "can-attack(Ben, Dan)") is True  # why: 809.3c, Ben now sits next to Dan
    assert ask(EMP, events, "can-attack(Ben, Eve)") is False  # why: 809.3c, Eve is two seats away


def test_809_6a_eight_player_example_ranges():
    # why: 809.6a's example: emperors 3, generals 2 range 2, generals 1 and 3 range 1
    assert [ask(EIGHT, [], f"range({p})") for p in ("AE", "BE", "A2", "B2", "A1", "A3", "B1", "B3")] == [
        3,
        3,
        2,
        2,
        1,
        1,
        1,
        1,
    ]
    assert ask(EIGHT, [], "legal-setup") is True  # why: 809.6a, no emperor in another's range


def test_809_2_emperor_not_in_the_middle_is_not_a_legal_setup():
    named = {**EMP, "teams": [{"emperor": "Ann", "members": ["Ann", "Ben", "Cat"]}, ["Dan", "Eve", "Fay"]]}
    value, steps = derive(named, [], "legal-setup")
    assert value is False and "809.2" in cited(
        steps
    )  # why: 809.2, the emperor sits in the middle of the team


def test_809_2_teams_interleaved_around_the_table_are_not_a_legal_setup():
    mixed = {**EMP, "players": ["Ann", "Dan", "Ben", "Eve", "Cat", "Fay"]}
    value, steps = derive(mixed, [], "legal-setup")
    assert value is False and "809.2" in cited(steps)  # why: 809.2, each team sits together


def test_809_1_team_sizes():
    three = {"variant": "emperor", "teams": [["A1", "AE", "A2"], ["B1", "BE", "B2"], ["C1", "CE", "C2"]]}
    assert ask(three, [], "legal-setup") is True  # why: 809.1, two or more teams of three


def test_804_2_deploy_to_a_teammate_as_a_sorcery():
    table = {**EMP, "active": "Ann", "permanents": {"Bear": {"owner": "Ann"}}}
    value, steps = derive(table, [], "can-deploy(Bear, Ben)")
    assert value is True and "804.2" in cited(steps)  # why: 804.2, {T}: target teammate gains control
    assert ask(table, [], "can-deploy(Bear, Fay)") is False  # why: 804.2, Fay is not a teammate
    assert ask({**table, "active": "Dan"}, [], "can-deploy(Bear, Ben)") is False  # why: 307.1, sorcery timing
    tapped = {**table, "permanents": {"Bear": {"owner": "Ann", "tapped": True}}}
    assert ask(tapped, [], "can-deploy(Bear, Ben)") is False  # why: 107.5, {T} can't be paid


def test_809_5b_team_loses_when_its_emperor_loses():
    value, steps = derive(EMP, [{"loses": "Eve"}], "losers")
    assert value == ["Dan", "Eve", "Fay"]  # why: 809.5b
    assert "809.5b" in cited(steps)
    assert ask(EMP, [{"loses": "Dan"}], "in-game") == [
        "Ann",
        "Ben",
        "Cat",
        "Eve",
        "Fay",
    ]  # why: a general alone


def test_809_5c_draw_for_the_emperor_is_a_draw_for_the_team():
    value, steps = derive(EMP, [{"leaves": {"players": ["Ben"], "how": "drew"}}], "drawn")
    assert value == ["Ann", "Ben", "Cat"]  # why: 809.5c
    assert "809.5c" in cited(steps)


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
