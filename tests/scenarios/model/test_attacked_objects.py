"""Planeswalkers and battles being attacked: leaving combat (506.4), the defending player they refer to
(508.5) and a defeated Siege (310.11b)."""

from __future__ import annotations

import pytest
from rules_model_helpers import ask, cited, derive

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario

THREE = ["Ann", "Ben", "Cat"]
WOLF = {"owner": "Ann", "power": 3, "toughness": 3}


def _jace(**more: object) -> dict[str, object]:
    return {"owner": "Ben", "kind": "planeswalker", "loyalty": 3, **more}


def test_508_5_a_planeswalker_taken_mid_combat_still_names_its_old_controller():
    game = {"players": THREE, "permanents": {"Wolf": WOLF, "Jace": _jace()}}
    events = [{"attack": {"attacker": "Ann", "creatures": {"Wolf": "Jace"}}},
              {"gain-control": {"permanent": "Jace", "player": "Ann"}}]
    value, steps = derive(game, events, "defending-player(Wolf)")
    assert value == "Ben"  # why: 508.5 "before it was removed from combat", not Ann, its controller now
    assert "508.5" in cited(steps)
    assert ask(game, events, "attackers(Jace)") == []  # why: 506.4, its controller changed


def test_506_4_a_planeswalker_put_into_the_graveyard_by_704_5i_leaves_combat():
    game = {"players": THREE, "permanents": {"Wolf": WOLF, "Jace": _jace(owner="Cat", controller="Ben")}}
    events = [{"attack": {"attacker": "Ann", "creatures": {"Wolf": "Jace"}}}, "combat-damage-step"]
    assert ask(game, events, "attackers(Jace)") == []  # why: 506.4: it left the battlefield
    assert ask(game, events, "attacking(Wolf)") is True  # why: 506.4c
    assert ask(game, events, "defending-player(Wolf)") == "Ben"  # why: 508.5, its controller then


def test_310_11b_a_defeated_siege_is_exiled_and_its_controller_may_cast_it():
    siege = {"owner": "Cat", "kind": "battle", "defense": 3, "protector": "Ben"}
    game = {"players": THREE, "permanents": {"Wolf": WOLF, "Siege": siege}}
    events = [{"attack": {"attacker": "Ann", "creatures": {"Wolf": "Siege"}}}, "combat-damage-step"]
    value, steps = derive(game, events, "zone(Siege)")
    assert value == {"chosen-by": "Cat", "one-of": ["exile", "stack"]}  # why: 310.11b, not 704.5v
    assert "310.11b" in cited(steps)
    assert ask(game, events, "attackers(Siege)") == []  # why: 506.4


def test_zone_answers_read_a_choice_of_zones_and_refuse_a_bad_one():
    text = """name: Siege
game:
  players: [Ann, Ben, Cat]
  permanents:
    Siege: {owner: Cat, kind: battle, defense: 3, protector: Ben}
expect:
  zone(Siege): {chosen-by: Cat, one-of: [exile, 3]}
"""
    with pytest.raises(InputError, match=r"7: expect.zone\(Siege\): expected a list of zones"):
        parse_scenario(text, "siege.yaml")
    parse_scenario(text.replace("exile, 3", "exile, stack"), "siege.yaml")


def test_704_5w_a_departed_protector_is_replaced_by_the_controllers_choice():
    siege = {"owner": "Cat", "kind": "battle", "defense": 4, "protector": "Ben"}
    game = {"players": ["Ann", "Ben", "Cat", "Dan"], "permanents": {"Siege": siege}}
    value, steps = derive(game, [{"concedes": "Ben"}], "protector(Siege)")
    assert value == {"chosen-by": "Cat", "one-of": ["Ann", "Dan"]}  # why: 310.11a, Cat's opponents
    assert "704.5w" in cited(steps)
    assert ask(game, [{"concedes": "Ben"}], "can-attack(Cat, Siege)") is True  # why: either is defending
    value, steps = derive(game, [{"concedes": "Ben"}], "can-attack(Ann, Siege)")
    assert value is False and steps[-1].alternatives  # why: Cat may choose Ann; each choice named
    three = {"players": THREE, "permanents": {"Siege": siege}}
    assert ask(three, [{"concedes": "Ben"}], "protector(Siege)") == "Ann"  # why: the only opponent


def test_704_5w_waits_while_the_battle_is_attacked():
    siege = {"owner": "Cat", "kind": "battle", "defense": 9, "protector": "Ben"}
    game = {"players": ["Ann", "Ben", "Cat", "Dan"], "permanents": {"Wolf": WOLF, "Siege": siege}}
    events = [{"attack": {"attacker": "Ann", "creatures": {"Wolf": "Siege"}}}, {"concedes": "Ben"}]
    assert ask(game, events, "protector(Siege)") == "Ben"  # why: 704.5w "no attacking creatures"
    later = [*events, "combat-damage-step", "next-turn"]
    assert ask(game, later, "protector(Siege)") == {"chosen-by": "Cat", "one-of": ["Ann", "Dan"]}


def test_704_5x_a_siege_taken_by_its_protector_gets_another():
    siege = {"owner": "Cat", "kind": "battle", "defense": 5, "protector": "Ann"}
    game = {"players": THREE, "permanents": {"Siege": siege}}
    events = [{"gain-control": {"permanent": "Siege", "player": "Ann"}}]
    assert ask(game, events, "protector(Siege)") == {"chosen-by": "Ann", "one-of": ["Ben", "Cat"]}


def test_a_battle_protected_by_its_own_controller_is_refused_naming_the_key():
    text = """name: Own Siege
game:
  players: [Ann, Ben, Cat]
  permanents:
    Siege: {owner: Ann, kind: battle, defense: 4, protector: Ann}
expect:
  protector(Siege): Ann   # 310.8a
"""
    with pytest.raises(InputError, match=r"siege.yaml:5: game.permanents.Siege.protector: .*310.11a"):
        parse_scenario(text, "siege.yaml")


def test_310_10_a_protector_who_became_a_teammate_is_replaced():
    siege = {"owner": "Ann", "kind": "battle", "defense": 4, "protector": "Cat"}
    game = {"players": ["Ann", "Ben", "Cat", "Dan"], "teams": [["Ann", "Ben"], ["Cat", "Dan"]],
            "variant": "team-vs-team", "permanents": {"Siege": siege}}
    events = [{"gain-control": {"permanent": "Siege", "player": "Dan"}}]
    value, steps = derive(game, events, "protector(Siege)")
    assert value == {"chosen-by": "Dan", "one-of": ["Ann", "Ben"]}  # why: Cat is Dan's teammate now
    assert "310.10" in cited(steps)


def test_702_90e_noncombat_damage_from_an_infect_source_is_poison():
    game = {"players": THREE, "permanents": {"Rats": {"owner": "Ann", "power": 1, "toughness": 1,
                                                      "keywords": ["infect"]}}}
    events = [{"damage": {"to": "Ben", "amount": 2, "source": "Rats"}}]
    value, steps = derive(game, events, "poison(Ben)")
    assert "702.90b" in cited(steps)
    assert value == 2 and ask(game, events, "life(Ben)") == 20  # why: 702.90b, not only in combat
    hg = {"variant": "two-headed-giant", "players": ["Ann", "Ben", "Cat", "Dan"],
          "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "permanents": game["permanents"]}
    assert ask(hg, [{"damage": {"to": "Cat", "amount": 2, "source": "Rats"}}], "poison(Dan)") == 2  # 810.10


def test_120_3c_noncombat_damage_to_a_planeswalker_and_801_2d_range():
    game = {"players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "options": {"range": 1},
            "permanents": {"Jace": {"owner": "Cat", "kind": "planeswalker", "loyalty": 5},
                           "Nissa": {"owner": "Ben", "kind": "planeswalker", "loyalty": 5}}}
    hits = [{"damage": {"to": "Jace", "amount": 2, "from": "Ann"}},
            {"damage": {"to": "Nissa", "amount": 2, "from": "Ann"}}]
    value, steps = derive(game, hits, "loyalty(Jace)")
    assert value == 5  # why: 801.10, Cat is out of Ann's range
    assert "801.10" in cited(steps)
    assert ask(game, hits, "loyalty(Nissa)") == 3  # why: 120.3c


def test_damage_to_an_artifact_is_refused_naming_the_key():
    text = """name: Bolt the Relic
game:
  players: [Ann, Ben]
  permanents:
    Relic: {owner: Ben, kind: artifact}
events:
  - damage: {to: Relic, amount: 3, from: Ann}
expect:
  life(Ben): 20   # 120.3
"""
    with pytest.raises(InputError, match=r"bolt.yaml:7: events\[0\].damage.to: Relic is an artifact"):
        parse_scenario(text, "bolt.yaml")


def test_noncombat_damage_to_a_creature_is_marked_and_lethal_damage_destroys_it_120_3e_704_5g():
    game = {"players": ["Ann", "Ben"], "permanents": {"Bear": {"owner": "Ben", "power": 2, "toughness": 3}}}
    assert ask(game, [{"damage": {"to": "Bear", "amount": 2, "from": "Ann"}}], "damage(Bear)") == 2  # 120.3e
    hits = [{"damage": {"to": "Bear", "amount": 2, "from": "Ann"}}, {"damage": {"to": "Bear", "amount": 1,
                                                                              "from": "Ann"}}]
    assert ask(game, hits, "zone(Bear)") == "graveyard"  # why: 704.5g, 3 damage marked, toughness 3
