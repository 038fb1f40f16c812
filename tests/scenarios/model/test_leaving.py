"""Leaving the game: objects owned or controlled (800.4a-e), several players at once."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask, cited, derive

MIND_CONTROL = {
    "players": ["Alex", "Bianca", "Cat"],
    "permanents": {"Griffin": {"owner": "Bianca", "controller": "Alex"}},
}


def test_800_4a_mind_control_ends_when_its_controller_leaves():
    value = ask(MIND_CONTROL, [{"leaves": "Alex"}], "controller(Griffin)")
    assert value == "Bianca"  # why: 800.4a example: Assault Griffin reverts to Bianca's control


def test_800_4a_the_owner_leaving_takes_the_stolen_creature_along():
    assert ask(MIND_CONTROL, [{"leaves": "Bianca"}], "exists(Griffin)") is False  # why: owned objects leave


def test_800_4a_bribery_creature_is_exiled_when_its_controller_leaves():
    game = {
        "players": ["Alex", "Bianca", "Cat"],
        "permanents": {"Angel": {"owner": "Bianca", "controller": "Alex", "control-effect": False}},
    }
    value, steps = derive(game, [{"leaves": "Alex"}], "zone(Angel)")
    assert value == "exile"  # why: 800.4a example (Bribery): Serra Angel is exiled
    assert "800.4a" in cited(steps)


def test_800_4a_bribery_creature_leaves_when_its_owner_leaves():
    game = {
        "players": ["Alex", "Bianca", "Cat"],
        "permanents": {"Angel": {"owner": "Bianca", "controller": "Alex", "control-effect": False}},
    }
    assert ask(game, [{"leaves": "Bianca"}], "zone(Angel)") == "left-the-game"  # why: 800.4a Bribery example


def test_800_4a_act_of_treason_ends_and_control_reverts():
    game = {"players": ["Alex", "Bianca", "Cat"], "permanents": {"Bears": {"owner": "Bianca"}}}
    events = [{"gain-control": {"permanent": "Bears", "player": "Alex"}}, {"leaves": "Alex"}]
    assert ask(game, events, "controller(Bears)") == "Bianca"  # why: 800.4a Act of Treason example


def test_613_7_an_earlier_control_effect_applies_again():
    game = {"players": FOUR, "permanents": {"Bear": {"owner": "Ann"}}}
    events = [
        {"gain-control": {"permanent": "Bear", "player": "Ben"}},
        {"gain-control": {"permanent": "Bear", "player": "Cat"}},
        {"leaves": "Cat"},
    ]
    assert ask(game, events, "controller(Bear)") == "Ben"  # why: Ben's effect still applies (613.7)


def test_800_4b_control_does_not_change_to_a_player_who_left():
    game = {"players": FOUR, "permanents": {"Bear": {"owner": "Ann"}}}
    events = [{"leaves": "Ben"}, {"gain-control": {"permanent": "Bear", "player": "Ben"}}]
    assert ask(game, events, "controller(Bear)") == "Ann"  # why: 800.4b


def test_800_4c_object_exiled_when_the_effect_ends_and_default_controller_left():
    game = {
        "players": FOUR,
        "permanents": {"Angel": {"owner": "Ann", "controller": "Ben", "control-effect": False}},
    }
    events = [
        {"gain-control": {"permanent": "Angel", "player": "Cat"}},
        {"leaves": "Ben"},
        {"control-ends": {"permanent": "Angel", "player": "Cat"}},
    ]
    assert ask(game, events, "zone(Angel)") == "exile"  # why: 800.4c


def test_800_4a_simultaneous_leavers_each_take_what_they_own():
    game = {
        "players": FOUR,
        "permanents": {
            "A": {"owner": "Ann", "controller": "Ben"},
            "B": {"owner": "Ben", "controller": "Ann"},
        },
    }
    events = [{"leaves": ["Ann", "Ben"]}]
    assert (ask(game, events, "exists(A)"), ask(game, events, "exists(B)")) == (False, False)  # why: 800.4a


def test_800_4e_combat_damage_is_not_assigned_to_a_player_who_left():
    events = [{"leaves": "Ben"}, {"combat-damage": {"from": "Ann", "to": "Ben", "amount": 3}}]
    assert ask({"players": FOUR}, events, "life(Ben)") == 20  # why: 800.4e; last known life (800.4i)


def test_104_3a_a_player_who_concedes_loses():
    assert ask({"players": FOUR}, [{"concedes": "Ben"}], "losers") == ["Ben"]  # why: 104.3a


def test_506_4c_an_attacked_planeswalker_whose_controller_leaves_goes_home_and_out_of_combat():
    """Ben controls Cat's Jace; Ben leaves, Jace reverts to Cat (800.4a) - its controller changed, so it is
    removed from combat (506.4) and the Bear attacking it attacks nothing and deals no damage (506.4c)."""
    game = {"players": FOUR, "active": "Ann", "permanents": {
        "Bear": {"owner": "Ann", "power": 4, "toughness": 4},
        "Jace": {"owner": "Cat", "controller": "Ben", "kind": "planeswalker", "loyalty": 5}}}
    events = [{"attack": {"attacker": "Ann", "creatures": {"Bear": "Jace"}}}, {"concedes": "Ben"},
              "combat-damage-step"]
    value, steps = derive(game, events, "loyalty(Jace)")
    assert value == 5 and {"506.4", "506.4c"} <= cited(steps)
    assert ask(game, events, "attacking(Bear)") is True
    assert ask(game, events[:2], "attackers(Jace)") == []


def test_506_4_an_attacked_planeswalker_taken_by_a_control_effect_leaves_combat():
    """The same through gain-control and control-ends: any change of controller removes it from combat."""
    game = {"players": FOUR, "active": "Ann", "permanents": {
        "Bear": {"owner": "Ann", "power": 2, "toughness": 2},
        "Jace": {"owner": "Cat", "kind": "planeswalker", "loyalty": 5},
        "Chandra": {"owner": "Dan", "controller": "Cat", "kind": "planeswalker", "loyalty": 4}}}
    taken = [{"attack": {"attacker": "Ann", "creatures": {"Bear": "Jace"}}},
             {"gain-control": {"permanent": "Jace", "player": "Ben"}}, "combat-damage-step"]
    assert ask(game, taken, "loyalty(Jace)") == 5
    ended = [{"attack": {"attacker": "Ann", "creatures": {"Bear": "Chandra"}}}, {"control-ends": "Chandra"},
             "combat-damage-step"]
    assert ask(game, ended, "loyalty(Chandra)") == 4


def test_306_5c_damage_beyond_the_loyalty_leaves_no_negative_loyalty():
    """Loyalty is the number of loyalty counters (306.5c), and there are never fewer than none: 5 damage to a
    planeswalker with 3 removes its 3 counters and it goes to the graveyard (704.5i)."""
    game = {"players": FOUR, "active": "Ann", "permanents": {
        "Bear": {"owner": "Ann", "power": 5, "toughness": 5},
        "Jace": {"owner": "Ben", "kind": "planeswalker", "loyalty": 3}}}
    events = [{"attack": {"attacker": "Ann", "creatures": {"Bear": "Jace"}}}, "combat-damage-step"]
    assert (ask(game, events, "loyalty(Jace)"), ask(game, events, "zone(Jace)")) == (0, "graveyard")


def test_514_2_control_until_end_of_turn_ends_with_the_turn():
    """Act of Treason: the effect ends in the cleanup step (514.2); an indefinite one doesn't."""
    game = {"players": FOUR, "active": "Ann",
            "permanents": {"Bear": {"owner": "Ben"}, "Wolf": {"owner": "Cat"}}}
    events = [{"gain-control": {"permanent": "Bear", "player": "Ann", "until": "end-of-turn"}},
              {"gain-control": {"permanent": "Wolf", "player": "Ann"}}]
    assert ask(game, events, "controller(Bear)") == "Ann"
    value, steps = derive(game, [*events, "next-turn"], "controller(Bear)")
    assert value == "Ben" and "514.2" in cited(steps)
    assert ask(game, [*events, "next-turn"], "controller(Wolf)") == "Ann"


COMMANDER_UNDER_BEN = {
    "variant": "commander",
    "players": ["Ann", "Ben", "Cat"],
    "active": "Cat",
    "permanents": {"Krenko": {"owner": "Ann", "controller": "Ben", "control-effect": False, "power": 3,
                              "commander": True}},
}


def test_a_commander_exiled_because_its_controller_left_may_go_to_the_command_zone() -> None:
    """800.4a exiles what the leaver still controls; that is a commander 'put into exile since the last
    check', so its owner may put it into the command zone (903.9a, 704.6d). It stayed in exile before."""
    value, steps = derive(COMMANDER_UNDER_BEN, [{"concedes": "Ben"}], "zone(Krenko)")
    assert value == "command"
    assert {"800.4a", "903.9a"} <= cited(steps)


def test_a_commander_exiled_under_800_4c_may_go_to_the_command_zone() -> None:
    """800.4c: Cat's control effect ends and Ben, its default controller, has left: exiled, then 903.9a."""
    events = [{"gain-control": {"permanent": "Krenko", "player": "Cat"}}, {"concedes": "Ben"},
              {"control-ends": "Krenko"}]
    value, steps = derive(COMMANDER_UNDER_BEN, events, "zone(Krenko)")
    assert value == "command"
    assert {"800.4c", "903.9a"} <= cited(steps)
