"""The Initiative: taking it (726.3, 726.5), stealing it (726.2), and its leaving rule (726.4)."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask, cited, derive


def test_723_1_nobody_has_the_initiative_at_first():
    assert ask({"players": FOUR}, [], "initiative") is None  # why: 726.1


def test_723_3_taking_the_initiative_takes_it_from_its_holder():
    assert (
        ask({"players": FOUR, "initiative": "Ann"}, [{"take-initiative": "Ben"}], "initiative") == "Ben"
    )  # 726.3


def test_723_2_taking_the_initiative_ventures():
    assert (
        ask({"players": FOUR}, [{"take-initiative": "Ben"}], "ventures(Ben)") == 1
    )  # why: 726.2 third ability


def test_723_5_taking_it_again_ventures_again_without_a_second_designation():
    events = [{"take-initiative": "Ben"}, {"take-initiative": "Ben"}]
    assert ask({"players": FOUR}, events, "ventures(Ben)") == 2  # why: 726.5


def test_723_2_the_holder_ventures_in_their_upkeep():
    assert ask({"players": FOUR, "initiative": "Ann"}, ["upkeep"], "ventures(Ann)") == 1  # why: 726.2 first


def test_723_2_combat_damage_steals_the_initiative_and_the_thief_ventures():
    events = [{"combat-damage": {"from": "Ann", "to": "Cat", "amount": 1}}]
    game = {"players": FOUR, "initiative": "Cat"}
    assert (ask(game, events, "initiative"), ask(game, events, "ventures(Ann)")) == ("Ann", 1)  # why: 726.2


def test_723_2_one_trigger_for_several_creatures_of_one_player():
    events = [
        {
            "combat-damage": [
                {"from": "Ann", "to": "Cat", "amount": 1, "hold": True},
                {"from": "Ann", "to": "Cat", "amount": 2},
            ]
        }
    ]
    value = ask({"players": FOUR, "initiative": "Cat"}, events, "stack-controllers")
    assert value == ["Cat"]  # why: "Whenever one or more creatures a player controls..." (726.2)


def test_723_4_holder_leaves_in_another_player_s_turn_active_player_takes_it():
    value, steps = derive({"players": FOUR, "initiative": "Cat"}, [{"leaves": "Cat"}], "initiative")
    assert value == "Ann"  # why: 726.4
    assert "726.4" in cited(steps)


def test_723_4_holder_leaves_in_their_own_turn_next_player_takes_it():
    assert (
        ask({"players": FOUR, "initiative": "Ann"}, [{"leaves": "Ann"}], "initiative") == "Ben"
    )  # why: 726.4


def test_723_4_no_active_player_next_in_turn_order_takes_it():
    events = [{"leaves": "Ann"}, {"leaves": "Ben"}]
    assert ask({"players": FOUR, "initiative": "Ben"}, events, "initiative") == "Cat"  # why: 726.4, 800.4j


def test_723_2_taking_the_initiative_by_723_4_ventures_too():
    value = ask({"players": FOUR, "initiative": "Cat"}, [{"leaves": "Cat"}], "ventures(Ann)")
    assert value == 1  # why: Ann "takes the initiative" (726.4), so its third ability triggers (726.2)
