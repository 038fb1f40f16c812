"""What each answer cites and says: the rule that decided it, not a neighbouring one (expected from the
rules)."""

from __future__ import annotations

from rules_model_helpers import FOUR, ask, cited, derive

FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]
TREACHERY = {"variant": "treachery", "players": FIVE, "active": "Ann",
             "identities": {"Ann": "leader", "Ben": "guardian", "Cat": {"role": "assassin", "face": "up"},
                            "Dan": "assassin", "Eve": "traitor"}}


def test_907_8a_winners_cite_the_assassins_rule_not_104_2a():
    value, steps = derive(TREACHERY, [{"loses": "Ann"}], "winners")
    assert value == ["Cat", "Dan"]  # why: 907.8a, the Leader lost; Cat, an unveiled Assassin, is in
    assert "907.8a" in cited(steps) and "104.2a" not in cited(steps)  # why: Traitor Eve is in: not 104.2a


def test_104_2a_last_player_standing_cites_104_2a():
    value, steps = derive({"players": FOUR}, [{"loses": ["Ben", "Cat", "Dan"]}], "winners")
    assert value == ["Ann"] and "104.2a" in cited(steps)  # why: 104.2a, all of Ann's opponents left


def test_801_15_a_draw_with_limited_range_cites_801_15():
    game = {"players": FIVE, "options": {"range": 1}, "active": "Ann"}
    value, steps = derive(game, [{"game-draw": "Ann"}], "drawn")
    assert value == ["Ann", "Ben", "Eve"]  # why: 801.15, a draw for Ann and the players within her range
    assert {"801.15", "104.4e"} <= cited(steps) and "104.4a" not in cited(steps)


def test_809_5c_a_draw_for_the_emperor_cites_809_5c():
    game = {"variant": "emperor", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]], "active": "Ben"}
    value, steps = derive(game, [{"leaves": {"players": ["Eve"], "how": "drew"}}], "drawn")
    assert value == ["Dan", "Eve", "Fay"]  # why: 809.5c, a draw for the emperor is a draw for the team
    assert {"809.5c", "104.4h"} <= cited(steps)


def test_101_4_apnap_step_names_the_active_players_triggers_only_when_they_have_one():
    game = {"players": FOUR, "active": "Ann", "monarch": "Cat", "initiative": "Cat"}
    _, steps = derive(game, [{"combat-damage": [{"from": "Ann", "to": "Cat", "amount": 1}]}], "monarch")
    texts = " ".join(s.text for s in steps)
    assert "resolve last" not in texts  # why: 101.4, both triggers are Cat's: no APNAP order between players


def test_805_7_two_headed_giant_triggers_go_on_the_stack_by_team():
    game = {"variant": "two-headed-giant", "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "active": "Ann",
            "initiative": "Ben", "monarch": "Cat"}
    hit = {"combat-damage": {"from": "Ann", "to": "Cat", "amount": 1, "hold": True}}
    value, steps = derive(game, [{"at-once": ["upkeep", hit]}], "stack-controllers")
    assert value == ["Cat", "Ben"]  # why: 805.7, the active team's go on the stack first
    assert "805.7" in cited(steps) and "101.4" not in cited(steps)  # why: the team rule replaces APNAP


def test_119_life_cites_the_starting_total_only_when_unchanged():
    _, steps = derive({"players": FOUR}, [], "life(Ann)")
    assert "119.1" in cited(steps)  # why: 119.1, Ann's life is her starting life total
    _, steps = derive({"players": FOUR}, [{"lose-life": {"player": "Ann", "amount": 2}}], "life(Ann)")
    assert "119.3" in cited(steps) and "119.1" not in cited(steps)  # why: 119.3, her life total was adjusted


def test_800_4c_object_exiled_when_the_control_effect_ends_cites_800_4c():
    game = {"players": FOUR, "active": "Ann", "permanents": {"Bear": {"owner": "Ben", "controller": "Cat"}}}
    events = [{"gain-control": {"permanent": "Bear", "player": "Dan"}}, {"leaves": "Ben"}]
    # why: Ben leaves: his Bear leaves the game with him (800.4a) - the owner's case
    value, steps = derive(game, events, "zone(Bear)")
    assert value == "left-the-game" and "800.4a" in cited(steps)
    steal = {"players": FOUR, "active": "Ann",
             "permanents": {"Bear": {"owner": "Ben", "controller": "Cat", "control-effect": False}}}
    events = [{"gain-control": {"permanent": "Bear", "player": "Dan"}}, {"leaves": "Cat"},
              {"control-ends": {"permanent": "Bear", "player": "Dan"}}]
    value, steps = derive(steal, events, "zone(Bear)")
    assert value == "exile"  # why: 800.4c, Dan's effect ended and Cat, its default controller, has left
    assert "800.4c" in cited(steps)


def test_grammar_of_roles_and_players():
    _, steps = derive(TREACHERY, [{"loses": "Ann"}], "winners")
    texts = " ".join(s.text for s in steps)
    assert "a Assassin" not in texts and "Ben lose too" not in texts  # why: plain English in the derivation


def test_725_2_two_steal_triggers_of_one_monarch_are_a_choice():
    game = {"variant": "two-headed-giant", "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "active": "Ann",
            "monarch": "Cat"}
    hits = [{"from": "Ann", "to": "Cat", "amount": 1}, {"from": "Ben", "to": "Cat", "amount": 1}]
    events = [{"combat-damage": hits}]
    value, steps = derive(game, events, "monarch")
    # why: 805.7/603.3b: Cat's team orders its two triggers; the one put on the stack first resolves last
    assert value == {"chosen-by": ["Cat", "Dan"], "one-of": ["Ann", "Ben"]}
    assert {r.value for s in steps for r in s.alternatives} >= {"Ann", "Ben"}
    settled = [*events, {"become-monarch": "Dan"}]
    assert ask(game, settled, "monarch") == "Dan"  # why: 725.3, a later change settles it


def test_907_8a_hidden_assassins_answer_names_the_other_reading():
    game = {**TREACHERY, "identities": {**TREACHERY["identities"], "Cat": "assassin"}}
    value, steps = derive(game, [{"loses": "Ann"}], "game-over")
    assert value is True  # why: 907.8a, the face-down Assassins control Assassin identity cards (907.13)
    readings = {r.value for s in steps for r in s.alternatives}
    assert readings == {True, False}  # why: 372.4b, no characteristics face down: the other reading goes on
    assert "907.8a" in cited(steps)


def test_800_4a_a_spell_of_a_player_who_left_leaves_the_game_and_an_ability_ceases_to_exist():
    game = {"players": FOUR, "active": "Ann", "monarch": "Ben"}
    value, steps = derive(game, [{"cast": {"player": "Ann", "spell": "Shock"}}, {"concedes": "Ann"}],
                          "stack-controllers")
    gone = " ".join(s.text for s in steps if "Shock" in s.text and "cast" not in s.text.split("Shock")[1][:5])
    assert value == [] and "leaves the game" in gone  # why: 800.4a, Shock is Ann's card: it leaves with her
    assert "ceases to exist" not in gone  # why: 800.4a, only objects that aren't cards cease to exist
    hit = {"combat-damage": {"from": "Cat", "to": "Ben", "amount": 1, "hold": True}}
    _, steps = derive(game, [hit, {"concedes": "Ben"}], "monarch")
    assert any("ceases to exist" in s.text for s in steps)  # why: 800.4a, Ben's trigger (725.2) is no card


def test_104_3b_a_loss_an_effect_stops_is_said_once_per_event():
    angel = {"Angel": {"owner": "Ben", "kind": "artifact"}}
    game = {"players": FOUR, "life": {"Ben": 2}, "permanents": angel,
            "effects": [{"cant-lose": "Ben", "source": "Angel"}]}
    value, steps = derive(game, [{"damage": {"to": "Ben", "amount": 5, "from": "Ann"}}], "in-game")
    assert value == FOUR  # why: 611.3b, Angel's static ability: Ben can't lose while it is on the battlefield
    assert sum("can't lose" in s.text for s in steps) == 1  # why: one check of 704.5a, one effect stopping it


def test_120_3a_noncombat_damage_mentions_the_crown_only_when_the_monarch_is_hit():
    hit = {"damage": {"to": "Ben", "amount": 2, "from": "Ann"}}
    _, steps = derive({"players": FOUR, "monarch": "Cat"}, [hit], "monarch")
    assert "725.2" not in cited(steps[:1])  # why: Ben is not the monarch: the crown is not in question
    _, steps = derive({"players": FOUR, "monarch": "Ben"}, [hit], "monarch")
    assert "725.2" in cited(steps[:1])  # why: 725.2, only combat damage to the monarch passes the crown
