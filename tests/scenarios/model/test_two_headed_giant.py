"""Two-Headed Giant (810) through the model: expected answers read from the rules, not from the code."""

from __future__ import annotations

import pytest
from rules_model_helpers import ask, cited, derive

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario
from rulesjudge.scenarios.model import two_headed_giant as thg

THG = {"variant": "two-headed-giant", "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "active": "Ann"}


def test_810_4_810_11_starting_life_30_and_15_per_extra_player():
    assert (thg.starting_life(2), thg.starting_life(3), thg.starting_life(4)) == (
        30,
        45,
        60,
    )  # why: 810.4, 810.11


def test_810_9_damage_to_a_player_applies_to_the_team_total():
    hits = [{"damage": {"to": "Cat", "amount": 4}}, {"damage": {"to": "Dan", "amount": 4}}]
    value, steps = derive(THG, hits, "life(Dan)")
    assert (
        value == 22
    )  # why: 810.9 Flame Rift example, each team is dealt 8; 810.9a, Dan's life is the team's
    assert {"810.9", "810.9a"} <= cited(steps)


def test_810_8c_team_at_zero_life_loses():
    value, steps = derive(THG, [{"damage": {"to": "Ann", "amount": 30}}], "losers")
    assert value == ["Ann", "Ben"]  # why: 810.8c/704.6a, the team's total is 0
    assert "704.6a" in cited(steps)


def test_810_8a_if_either_player_loses_the_team_loses():
    assert ask(THG, [{"loses": "Ann"}], "losers") == ["Ann", "Ben"]  # why: 810.8a


def test_810_8b_a_concession_makes_the_whole_team_leave():
    assert ask(THG, [{"concedes": "Dan"}], "losers") == ["Cat", "Dan"]  # why: 810.8b
    assert ask(THG, [{"concedes": "Dan"}], "winners") == [
        "Ann",
        "Ben",
    ]  # why: 104.2c, the other team has left


def test_506_2b_805_10a_the_whole_nonactive_team_defends():
    value, _ = derive(THG, [], "defending-players")
    assert value == ["Cat", "Dan"]  # why: 506.2b/805.10a, each player of the nonactive team defends
    assert ask(THG, [], "attacking-players") == ["Ann", "Ben"]  # why: 805.10a, each active player attacks


def test_805_10e_one_shot_defending_player_is_one_chosen_by_the_controller():
    value, steps = derive(THG, [], "defending-player(Ben)")
    assert value == {"chosen-by": "Ben", "one-of": ["Cat", "Dan"]}  # why: 805.10e, one of them, Ben chooses
    assert {r.value for s in steps for r in s.alternatives} == {"Cat", "Dan"}


def test_805_4a_both_players_of_the_active_team_are_active():
    assert ask(THG, [], "active") == [
        "Ann",
        "Ben",
    ]  # why: 805.4a, the team whose turn it is is the active team
    assert ask(THG, ["next-turn"], "active") == ["Cat", "Dan"]  # why: 805.4, teams take turns
    assert ask(THG, [], "next-turn") == ["Cat", "Dan"]  # why: 805.4


def test_810_1_legal_setups():
    assert ask(THG, [], "legal-setup") is True  # why: 810.1
    three = {"variant": "two-headed-giant", "teams": [["A", "B"], ["C", "D"], ["E", "F"]]}
    assert ask(three, [], "legal-setup") is False  # why: 810.1, two teams


def test_810_1_unequal_teams_are_an_input_error():
    text = "name: bad\ngame:\n  variant: two-headed-giant\n  teams: [[Ann, Ben], [Cat, Dan, Eve]]\n"
    with pytest.raises(InputError) as caught:
        parse_scenario(text, "bad.yaml")
    assert caught.value.key == "game.teams[1]" and caught.value.line == 4  # why: names the file, line and key


def test_805_6_apnap_order_goes_by_teams_and_each_team_orders_its_players():
    """805.6 modifies 101.4: the active team first, in the order it likes, then the other team."""
    game = {"variant": "two-headed-giant", "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "active": "Cat"}
    value, steps = derive(game, [], "apnap-order")
    assert value == ["Cat", "Dan", "Ann", "Ben"] and "805.6" in cited(steps)
    assert {tuple(r.value) for s in steps for r in s.alternatives} == {
        ("Dan", "Cat", "Ann", "Ben"), ("Cat", "Dan", "Ben", "Ann")}


def test_810_8b_725_4_the_conceders_teammate_leaves_at_once_so_never_becomes_the_monarch():
    table = {**THG, "monarch": "Ann", "initiative": "Ann"}
    events = [{"concedes": "Ann"}]
    # why: 810.8b, the team leaves "immediately", together with Ann; Ben, the other active player, is leaving
    # too, so 725.4/726.4 pass over him: he never becomes the monarch nor takes the initiative
    assert ask(table, events, "became-monarch(Ben)") == 0
    assert ask(table, events, "ventures(Ben)") == 0
    value, steps = derive(table, events, "losers")
    assert value == ["Ann", "Ben"]  # why: 810.8b, that team loses the game
    assert not any("Ben takes it" in s.text or "active player, Ben, takes" in s.text for s in steps)


def test_726_4_805_9_initiative_of_a_conceding_nonactive_head_names_both_active_heads():
    table = {**THG, "initiative": "Cat"}
    value, steps = derive(table, [{"concedes": "Cat"}], "winners")
    assert value == ["Ann", "Ben"]  # why: 810.8b, Cat's team leaves; 104.2c, the other team wins
    passing = [s for s in steps if "726.4" in {c.local for c in s.cites}]
    # why: 726.4 names "the active player" and both heads are active (805.4a); 805.9 has an ability's
    # controller choose one, but 726.4 is a rule with no controller, so each head is a reading
    assert passing and {r.value for s in passing for r in s.alternatives} == {"Ann", "Ben"}
    assert "805.9" in cited(passing)  # the step says why 805.9's choice doesn't settle it
