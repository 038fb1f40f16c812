"""Limited range of influence (801): who is in range, fixed as each turn begins (801.2c)."""

from __future__ import annotations

from rules_model_helpers import ask, cited, derive

SIX = ["Alex", "Rob", "Carissa", "Dan", "Eve", "Fay"]


def test_801_2a_range_1_is_you_and_the_players_next_to_you():
    game = {"players": SIX, "options": {"range": 1}}
    assert [ask(game, [], f"in-range(Alex, {p})") for p in SIX] == [
        True,
        True,
        False,
        False,
        False,
        True,
    ]  # 801.2a


def test_801_2a_range_2_reaches_two_seats_each_way():
    game = {"players": SIX, "options": {"range": 2}}
    assert ask(game, [], "in-range(Alex, Dan)") is False  # why: Dan is three seats away either way
    assert ask(game, [], "in-range(Alex, Carissa)") is True  # why: two seats to the left


def test_801_2b_a_player_is_within_their_own_range():
    assert ask({"players": SIX, "options": {"range": 0}}, [], "in-range(Rob, Rob)") is True  # why: 801.2b


def test_801_2c_a_player_who_leaves_does_not_bring_neighbours_into_range_until_the_next_turn():
    game = {"players": ["Carissa", "Rob", "Alex", "Dan", "Eve"], "options": {"range": 1}}
    value, steps = derive(game, [{"leaves": "Rob"}], "in-range(Alex, Carissa)")
    assert value is False  # why: 801.2c example: Carissa enters Alex's range at the start of the next turn
    assert "801.2c" in cited(steps)


def test_801_2c_the_next_turn_brings_them_into_range():
    game = {"players": ["Carissa", "Rob", "Alex", "Dan", "Eve"], "options": {"range": 1}}
    assert ask(game, [{"leaves": "Rob"}, "next-turn"], "in-range(Alex, Carissa)") is True  # why: 801.2c


def test_801_1_unlimited_range_by_default():
    assert ask({"players": SIX}, [], "range(Alex)") is None  # why: 806.2a: usually not used


def test_801_2a_different_players_may_have_different_ranges():
    game = {"players": SIX, "options": {"range": {"Alex": 2, "Rob": 1}}}
    assert (ask(game, [], "range(Alex)"), ask(game, [], "range(Rob)")) == (2, 1)  # why: 801.2a


def test_801_2_range_is_not_symmetric_with_different_ranges():
    game = {"players": SIX, "options": {"range": {"Alex": 2, "Carissa": 1}}}
    assert ask(game, [], "in-range(Alex, Carissa)") is True  # why: two seats, Alex's range 2
    assert ask(game, [], "in-range(Carissa, Alex)") is False  # why: two seats, Carissa's range 1


def test_801_3_creatures_attack_only_opponents_within_range():
    assert ask({"players": SIX, "options": {"range": 1}}, [], "can-attack(Alex, Dan)") is False  # why: 801.3


def test_801_14_a_win_effect_makes_opponents_in_range_lose_instead():
    game = {"players": SIX, "options": {"range": 1}}
    assert ask(game, [{"wins": "Alex"}], "losers") == ["Rob", "Fay"]  # why: 801.14, 104.3h


def test_801_14_the_game_goes_on_for_the_others():
    assert (
        ask({"players": SIX, "options": {"range": 1}}, [{"wins": "Alex"}], "game-over") is False
    )  # why: 104.3h


def test_801_15_a_draw_effect_is_a_draw_only_within_range():
    game = {"players": SIX, "options": {"range": 1}}
    assert ask(game, [{"game-draw": "Alex"}], "in-game") == ["Carissa", "Dan", "Eve"]  # why: 801.15


def test_104_4c_without_limited_range_a_draw_effect_ends_the_game():
    assert ask({"players": SIX}, [{"game-draw": "Alex"}], "game-over") is True  # why: 104.4c


def test_801_14_cant_win_does_not_stop_the_opponents_in_range_losing():
    """With limited range the win effect is replaced by the opponents' loss: no one wins, so "can't win" on
    the player has nothing to stop (without range it stops the effect, 104.2b)."""
    game = {"players": SIX, "options": {"range": 1}, "effects": [{"cant-win": "Alex"}]}
    assert ask(game, [{"wins": "Alex"}], "losers") == ["Rob", "Fay"]  # why: 801.14
    unlimited = {"players": SIX, "effects": [{"cant-win": "Alex"}]}
    assert ask(unlimited, [{"wins": "Alex"}], "game-over") is False  # why: 104.2b, can't win
