"""Whom a player may attack: 506.2a, attack multiple players (802), attack left/right (803)."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask, cited, derive


def test_802_2_attack_multiple_players_all_opponents_are_defending_players():
    assert ask({"players": FOUR}, [], "defending-players") == ["Ben", "Cat", "Dan"]  # why: 802.2


def test_802_1_a_player_may_attack_any_opponent_with_attack_multiple():
    assert ask({"players": FOUR}, [], "can-attack(Ann, Cat)") is True  # why: 802.1


def test_506_2a_a_player_never_attacks_themselves():
    assert ask({"players": FOUR}, [], "can-attack(Ann, Ann)") is False  # why: only opponents (506.2a)


def test_803_1a_attack_left_only_the_opponent_immediately_to_the_left():
    game = {"players": FOUR, "options": {"attack": "left"}}
    assert ask(game, [], "can-attack(Ann, Ben)") is True  # why: Ben sits to Ann's left (803.1a)
    assert ask(game, [], "can-attack(Ann, Dan)") is False  # why: Dan is to Ann's right


def test_803_1b_attack_right_only_the_opponent_immediately_to_the_right():
    game = {"players": FOUR, "options": {"attack": "right"}}
    assert ask(game, [], "can-attack(Ann, Dan)") is True  # why: 803.1b
    assert ask(game, [], "can-attack(Ann, Ben)") is False  # why: 803.1b


def test_803_1a_an_empty_seat_closes_up_for_attack_left():
    game = {"players": FOUR, "options": {"attack": "left"}}
    assert ask(game, [{"leaves": "Ben"}], "can-attack(Ann, Cat)") is True  # why: Cat is now the nearest left


def test_803_1a_the_defending_player_is_dictated_by_attack_left():
    game = {"players": FOUR, "options": {"attack": "left"}, "active": "Cat"}
    value, steps = derive(game, [], "defending-players")
    assert value == ["Dan"]  # why: 506.2a: the choice is dictated by the option
    assert "506.2a" in cited(steps)


def test_800_4a_a_player_who_left_cannot_be_attacked():
    assert ask({"players": FOUR}, [{"leaves": "Cat"}], "can-attack(Ann, Cat)") is False  # why: left the game


def test_102_3_teammates_cannot_be_attacked():
    game = {"players": FOUR, "teams": [["Ann", "Ben"], ["Cat", "Dan"]]}
    assert ask(game, [], "can-attack(Ann, Ben)") is False  # why: only opponents (102.3, 506.2a)


def test_801_3_range_and_attack_multiple_combine():
    game = {"players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "options": {"range": 1}}
    assert ask(game, [], "defending-players") == ["Ben", "Eve"]  # why: 802.2 limited by 801.3


def test_803_1a_names_the_reading_where_empty_seats_close_only_as_the_turn_begins():
    game = {"players": FOUR, "options": {"attack": "left"}}
    value, steps = derive(game, [{"leaves": "Ben"}], "can-attack(Ann, Cat)")
    assert value is True  # why: Cat now sits immediately to Ann's left (seats close up)
    assert [r.value for s in steps for r in s.alternatives] == [True, False]  # why: 801.2c by analogy
