"""Seats, turn order, the active player and the next turn (101.4, 102.1, 800.4j, 800.4k)."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask, cited, derive


def test_102_1_the_first_seat_is_active_by_default():
    assert ask({"players": FOUR}, [], "active") == "Ann"  # why: the setup's default active player


def test_101_4_turn_order_goes_to_the_left_from_the_active_player():
    assert ask({"players": FOUR, "active": "Cat"}, [], "turn-order") == [
        "Cat",
        "Dan",
        "Ann",
        "Ben",
    ]  # why: 101.4


def test_102_1_next_turn_makes_the_next_seat_active():
    assert ask({"players": FOUR}, ["next-turn"], "active") == "Ben"  # why: Ben's turn follows Ann's


def test_101_4_turn_order_wraps_around_the_table():
    assert (
        ask({"players": FOUR, "active": "Dan"}, ["next-turn"], "active") == "Ann"
    )  # why: Ann sits left of Dan


def test_800_4k_a_player_who_left_takes_no_turn():
    value = ask({"players": FOUR}, [{"leaves": "Ben"}, "next-turn"], "active")
    assert value == "Cat"  # why: Ben's turn doesn't begin (800.4k)


def test_800_4j_leaving_on_ones_own_turn_leaves_no_active_player():
    value, steps = derive({"players": FOUR}, [{"leaves": "Ann"}], "active")
    assert value is None  # why: the turn continues without an active player (800.4j)
    assert "800.4j" in cited(steps)


def test_800_4j_turn_order_counts_from_the_next_player_when_there_is_no_active_player():
    assert ask({"players": FOUR}, [{"leaves": "Ann"}], "turn-order") == ["Ben", "Cat", "Dan"]  # why: 800.4j


def test_800_4j_the_turn_after_a_leaver_s_turn_is_the_next_player_s():
    assert ask({"players": FOUR}, [{"leaves": "Ann"}, "next-turn"], "active") == "Ben"  # why: 800.4j, 101.4


def test_800_4k_several_empty_seats_are_skipped():
    events = [{"leaves": ["Ben", "Cat"]}, "next-turn"]
    assert ask({"players": FOUR}, events, "active") == "Dan"  # why: Ben and Cat take no turns (800.4k)


def test_101_4_turn_order_skips_players_who_left():
    assert ask({"players": FOUR}, [{"leaves": "Cat"}], "turn-order") == ["Ann", "Ben", "Dan"]  # why: 800.4k


def test_102_2_two_player_opponent_is_the_other_player():
    assert ask({"players": ["Ann", "Ben"]}, [], "opponents(Ann)") == ["Ben"]  # why: 102.2


def test_806_1_free_for_all_players_have_no_teammates():
    assert ask({"players": FOUR}, [], "teammates(Ann)") == []  # why: individuals (806.1)


# --- until-turn: the model counts the turns until a player's turn (issue 26) ----------------------
def test_500_1_until_turn_cites_the_turns_it_passes():
    value, steps = derive({"players": FOUR}, [{"until-turn": "Cat"}], "active")
    assert value == "Cat"  # why: Ann's and Ben's turns end, then Cat's begins (101.4)
    assert {"500.1", "101.4"} <= cited(steps)


def test_500_7_until_turn_counts_an_extra_turn_in_the_way():
    # why: Ann -> Dan's extra turn (500.7, directly after this one) -> Ben
    value = ask({"players": FOUR}, [{"extra-turn": "Dan"}, {"until-turn": "Ben"}, "next-turn"], "active")
    assert value == "Cat"  # why: Ben's turn was the one after Dan's extra turn, so Cat's comes next


def test_800_4k_until_turn_with_no_active_player_takes_the_next_seat():
    # why: Ann left during her turn (800.4j): the turn goes on, and Ben's is the next to begin
    assert ask({"players": FOUR}, [{"leaves": "Ann"}, {"until-turn": "Ben"}], "active") == "Ben"


def test_800_4a_until_the_turn_of_a_player_who_left_says_why():
    value, steps = derive({"players": FOUR}, [{"leaves": "Cat"}, {"until-turn": "Cat"}], "active")
    assert value == "Ann"  # why: no turn of Cat's comes, so none passes
    assert "800.4k" in cited(steps)


def test_807_4c_grand_melee_refuses_a_later_turn_and_says_why():
    ten = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
    value, steps = derive({"variant": "grand-melee", "players": ten}, [{"until-turn": "Cat"}], "active")
    assert value == ["Ann", "Eve"]  # why: 807.4c-d, no count of turns leads to Cat's: nothing passes
    assert "807.4c" in cited(steps)
