"""APNAP order (101.4) and triggers put on the stack in APNAP order (603.3b)."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask


def test_101_4_the_active_player_chooses_first():
    assert ask({"players": FOUR, "active": "Cat"}, [], "apnap-order") == ["Cat", "Dan", "Ann", "Ben"]  # 101.4


def test_101_4_apnap_order_skips_players_who_left():
    assert ask({"players": FOUR}, [{"leaves": "Ben"}], "apnap-order") == ["Ann", "Cat", "Dan"]  # why: 800.4


def test_800_4j_with_no_active_player_the_next_player_goes_first():
    assert ask({"players": FOUR}, [{"leaves": "Ann"}], "apnap-order") == ["Ben", "Cat", "Dan"]  # why: 800.4j


def test_603_3b_active_player_s_trigger_goes_on_the_stack_first_and_resolves_last():
    game = {"players": FOUR, "monarch": "Ben", "initiative": "Cat", "active": "Ann"}
    events = [
        {
            "combat-damage": [
                {"from": "Ann", "to": "Ben", "amount": 1},
                {"from": "Ann", "to": "Cat", "amount": 1, "hold": True},
            ]
        }
    ]
    assert ask(game, events, "stack-controllers") == [
        "Cat",
        "Ben",
    ]  # why: Ben before Cat in APNAP: Cat on top


def test_101_4_apnap_after_the_turn_passes():
    assert ask({"players": FOUR}, ["next-turn"], "apnap-order") == ["Ben", "Cat", "Dan", "Ann"]  # why: 101.4


def test_101_4_apnap_from_a_later_seat_orders_the_triggers():
    game = {"players": FOUR, "monarch": "Ann", "initiative": "Ben", "active": "Cat"}
    events = [
        {
            "combat-damage": [
                {"from": "Cat", "to": "Ann", "amount": 1},
                {"from": "Cat", "to": "Ben", "amount": 1, "hold": True},
            ]
        }
    ]
    assert ask(game, events, "stack-controllers") == [
        "Ben",
        "Ann",
    ]  # why: APNAP from Cat: Ann, then Ben on top


def test_101_4_two_player_apnap():
    assert ask({"players": ["Ann", "Ben"], "active": "Ben"}, [], "apnap-order") == [
        "Ben",
        "Ann",
    ]  # why: 101.4


def test_603_3b_the_top_trigger_resolves_first():
    game = {"players": FOUR, "monarch": "Ann", "initiative": "Ben", "active": "Cat"}
    events = [
        {
            "combat-damage": [
                {"from": "Cat", "to": "Ann", "amount": 1},
                {"from": "Cat", "to": "Ben", "amount": 1, "hold": True},
            ]
        },
        {"resolve": 1},
    ]
    assert ask(game, events, "initiative") == "Cat"  # why: Ben's trigger was on top, so it resolved first
    assert ask(game, events, "monarch") == "Ann"  # why: Ann's trigger still waits below (405.5)


def test_101_4_apnap_order_with_no_active_player_after_next_turn_is_normal_again():
    assert ask({"players": FOUR}, [{"leaves": "Ann"}, "next-turn"], "apnap-order") == [
        "Ben",
        "Cat",
        "Dan",
    ]  # 101.4


def test_800_4d_a_trigger_of_a_player_who_left_is_not_put_on_the_stack():
    game = {"players": FOUR, "monarch": "Ben", "life": {"Ben": 1}}
    events = [{"combat-damage": {"from": "Ann", "to": "Ben", "amount": 1, "hold": True}}]
    assert (
        ask(game, events, "stack-controllers") == []
    )  # why: Ben lost before it was put on the stack (800.4d)


def test_a_trigger_a_resolution_causes_resolves_before_the_next_event_unless_held():
    game = {"players": FOUR, "monarch": "Ann", "initiative": "Ben", "active": "Cat"}
    damage = {"combat-damage": [{"from": "Cat", "to": "Ann", "amount": 1},
                                {"from": "Cat", "to": "Ben", "amount": 1, "hold": True}]}
    events = [damage, {"resolve": 1}]
    assert ask(game, events, "ventures(Cat)") == 1  # why: taking the initiative triggered a venture (726.2)
    assert ask(game, events, "stack-controllers") == ["Ann"]  # why: only the held trigger still waits
    held = [damage, {"resolve": {"count": 1, "hold": True}}]
    assert ask(game, held, "stack-controllers") == ["Cat", "Ann"]  # why: held, the venture waits on top
