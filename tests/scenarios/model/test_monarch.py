"""The Monarch: 725.1–725.5 and the official rulings in the seeds."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask, cited, derive


def test_722_1_there_is_no_monarch_until_an_effect_makes_one():
    value, steps = derive({"players": FOUR}, ["end-step", "next-turn"], "monarch")
    assert value is None  # why: 725.1 and the ruling "The game starts with no monarch"
    assert "725.1" in cited(steps)


def test_722_3_becoming_the_monarch_takes_the_crown_from_the_current_one():
    assert (
        ask({"players": FOUR, "monarch": "Ann"}, [{"become-monarch": "Cat"}], "monarch") == "Cat"
    )  # why: 725.3


def test_722_2_combat_damage_to_the_monarch_makes_the_creature_s_controller_monarch():
    events = [{"combat-damage": {"from": "Ann", "to": "Ben", "amount": 2}}]
    assert ask({"players": FOUR, "monarch": "Ben"}, events, "monarch") == "Ann"  # why: 725.2 second ability


def test_722_2_the_steal_trigger_is_controlled_by_the_damaged_monarch():
    events = [{"combat-damage": {"from": "Ann", "to": "Ben", "amount": 2, "hold": True}}]
    assert ask({"players": FOUR, "monarch": "Ben"}, events, "stack-controllers") == ["Ben"]  # why: 725.2


def test_722_2_the_monarch_draws_at_the_beginning_of_their_end_step():
    assert (
        ask({"players": FOUR, "monarch": "Ann"}, ["end-step"], "draws(Ann)") == 1
    )  # why: 725.2 first ability


def test_722_2_no_draw_in_another_player_s_end_step():
    assert (
        ask({"players": FOUR, "monarch": "Ben"}, ["end-step"], "draws(Ben)") == 0
    )  # why: "the monarch's end step"


def test_ruling_the_draw_happens_even_after_the_crown_moves():
    events = [{"end-step": {"hold": True}}, {"become-monarch": "Cat"}, "resolve"]
    value, steps = derive({"players": FOUR, "monarch": "Ann"}, events, "draws(Ann)")
    assert value == 1  # why: ruling: "the first player will still draw the card"
    assert any(c.document == "rulings" for s in steps for c in s.cites)


def test_722_4_monarch_leaving_in_another_player_s_turn_gives_the_crown_to_the_active_player():
    assert ask({"players": FOUR, "monarch": "Cat"}, [{"leaves": "Cat"}], "monarch") == "Ann"  # why: 725.4


def test_722_4_monarch_leaving_in_their_own_turn_gives_the_crown_to_the_next_player():
    assert ask({"players": FOUR, "monarch": "Ann"}, [{"leaves": "Ann"}], "monarch") == "Ben"  # why: 725.4


def test_722_4_next_player_is_counted_from_the_active_player_not_from_the_leaver():
    events = [{"leaves": ["Ann", "Cat"]}]  # Cat is the monarch; Ann (active) leaves at the same time
    assert ask({"players": FOUR, "monarch": "Cat"}, events, "monarch") == "Ben"  # why: 725.4 next after Ann


def test_722_4_with_no_active_player_the_next_player_in_turn_order_takes_the_crown():
    events = [{"leaves": "Ann"}, {"leaves": "Dan"}]  # Ann left on her turn; then the monarch Dan leaves
    assert ask({"players": FOUR, "monarch": "Dan"}, events, "monarch") == "Ben"  # why: 725.4, 800.4j


def test_ruling_lethal_combat_damage_the_steal_trigger_does_not_resolve_active_player_takes_it():
    game = {"players": FOUR, "monarch": "Ben", "life": {"Ben": 2}, "active": "Cat"}
    events = [{"combat-damage": {"from": "Cat", "to": "Ben", "amount": 2}}]
    value, steps = derive(game, events, "monarch")
    assert value == "Cat"  # why: ruling: the trigger doesn't resolve; Cat, active, takes it by 725.4
    assert {"725.4", "800.4d"} <= cited(steps)


def test_ruling_becomes_the_monarch_triggers_only_for_a_player_who_was_not():
    events = [{"become-monarch": "Ann"}, {"become-monarch": "Ann"}]
    assert ask({"players": FOUR}, events, "became-monarch(Ann)") == 1  # why: ruling (Custodi Lich)


def test_800_4a_the_draw_trigger_ceases_to_exist_when_its_controller_leaves():
    events = [{"end-step": {"hold": True}}, {"leaves": "Ann"}]
    assert ask({"players": FOUR, "monarch": "Ann"}, events, "stack-controllers") == []  # why: 800.4a


def test_722_2_a_held_trigger_waits_until_resolve_even_when_other_events_happen():
    events = [{"end-step": {"hold": True}}, {"become-monarch": "Ben"}]
    game = {"players": FOUR, "monarch": "Ann"}
    assert ask(game, events, "stack-controllers") == ["Ann"]  # why: only `resolve` resolves held abilities
    assert ask(game, [*events, "resolve"], "draws(Ann)") == 1  # why: ruling: Ann still draws


def test_722_2_two_creatures_of_different_players_hit_the_monarch():
    events = [
        {
            "combat-damage": [
                {"from": "Ann", "to": "Cat", "amount": 1, "hold": True},
                {"from": "Ben", "to": "Cat", "amount": 1},
            ]
        }
    ]
    value, steps = derive({"players": FOUR, "monarch": "Cat"}, events, "stack-controllers")
    assert value == ["Cat", "Cat"]  # why: both triggers are controlled by Cat, the damaged monarch (725.2)
    assert any(
        s.alternatives for s in steps
    )  # why: Cat chooses their order (603.3b), which decides the crown


def test_722_4_the_answer_says_the_game_goes_on_with_no_monarch():
    value, steps = derive(
        {"players": ["Ann", "Ben"], "monarch": "Ann"}, [{"leaves": ["Ann", "Ben"]}], "monarch"
    )
    assert value is None  # why: 725.4: no player still in the game can become the monarch
    assert "725.4" in cited(steps) and "725.5" in cited(steps)


def test_722_4_with_no_active_player_the_answer_names_both_readings_of_next_in_turn_order():
    events = [{"leaves": "Ann"}, {"leaves": "Cat"}]  # Ann left on her turn; then Cat, the monarch, leaves
    value, steps = derive({"players": FOUR, "monarch": "Cat"}, events, "monarch")
    assert value == "Ben"  # why: next after Ann, whose turn it is (800.4j hands priority on the same way)
    readings = [r.value for s in steps for r in s.alternatives]
    assert readings == ["Ben", "Dan"]  # why: counted from the leaving monarch it would be Dan


def test_500_2_a_new_step_begins_only_once_the_stack_is_empty():
    """A held trigger or a spell left on the stack resolves before the next step begins (500.2): the
    first-strike steal trigger before the regular damage step, Ann's spell before her end step."""
    knights = {"players": FOUR, "active": "Ann", "monarch": "Ben", "permanents": {
        "Knight": {"owner": "Ann", "power": 2, "toughness": 2, "keywords": ["first-strike"]},
        "Bear": {"owner": "Ann", "power": 2, "toughness": 2}}}
    events = [{"attack": {"attacker": "Ann", "creatures": ["Knight", "Bear"], "defending": "Ben"}},
              {"combat-damage-step": {"step": "first-strike", "hold": True}}, "combat-damage-step"]
    value, steps = derive(knights, events, "stack-controllers")
    assert value == [] and "500.2" in cited(steps)
    assert ask(knights, events, "monarch") == "Ann"
    for begins in ("upkeep", "end-step"):
        cast = [{"cast": {"player": "Ann", "spell": "Divination"}}, begins]
        assert ask({"players": FOUR, "active": "Ann"}, cast, "stack-controllers") == []
