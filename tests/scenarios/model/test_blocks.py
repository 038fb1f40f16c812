"""Blocks and combat damage between creatures (509, 510, 702.2/4/7/19, 802.4, 805.10d): expected answers from
the rules text, each with its reason."""

from __future__ import annotations

import pytest
from rules_model_helpers import ask, cited, derive


def table(**permanents: dict) -> dict:
    return {"players": ["Ann", "Ben", "Cat"], "active": "Ann", "permanents": permanents}


ATTACK = {"attack": {"attacker": "Ann", "creatures": ["Ogre"], "defending": "Ben"}}


def test_509_1h_a_blocked_creature_stays_blocked_when_its_blocker_leaves_and_deals_no_damage_510_1c():
    game = table(Ogre={"owner": "Ann", "power": 3, "toughness": 3}, Elk={"owner": "Ben", "power": 1,
                                                                        "toughness": 1})
    events = [ATTACK, {"block": {"Elk": "Ogre"}}, {"exiled": "Elk"}, "combat-damage-step"]
    assert ask(game, events, "blocked(Ogre)") is True  # why: 509.1h "remains blocked even if ... removed"
    value, steps = derive(game, events, "life(Ben)")
    assert value == 20  # why: 510.1c "If no creatures are currently blocking it ... no combat damage"
    assert "510.1c" in cited(steps)


def test_702_19d_a_trampler_with_no_blocker_left_assigns_everything_to_the_player():
    game = table(Ogre={"owner": "Ann", "power": 3, "toughness": 3, "keywords": ["trample"]},
                 Elk={"owner": "Ben", "power": 1, "toughness": 1})
    events = [ATTACK, {"block": {"Elk": "Ogre"}}, {"dies": "Elk"}, "combat-damage-step"]
    value, steps = derive(game, events, "life(Ben)")
    assert value == 17  # why: 702.19d "as though all blocking creatures have been assigned lethal damage"
    assert "702.19d" in cited(steps)


def test_702_2c_deathtouch_makes_one_damage_lethal_for_the_division_among_blockers():
    # why: without an assignment the controller's division gives each blocker lethal damage in order;
    # with deathtouch 1 is lethal (702.2c), so a 2-power deathtouch creature kills two 5-toughness blockers
    game = table(Ogre={"owner": "Ann", "power": 2, "toughness": 9, "keywords": ["deathtouch"]},
                 Elk={"owner": "Ben", "power": 1, "toughness": 5}, Fox={"owner": "Ben", "power": 1,
                                                                      "toughness": 5})
    events = [ATTACK, {"block": {"Elk": "Ogre", "Fox": "Ogre"}}, "combat-damage-step"]
    assert ask(game, events, "zone(Elk)") == "graveyard"  # why: 704.5h
    value, steps = derive(game, events, "zone(Fox)")
    assert value == "graveyard" and {"702.2c", "704.5h"} <= cited(steps)


def test_510_4_a_first_strike_blocker_kills_the_attacker_in_the_first_step():
    game = table(Ogre={"owner": "Ann", "power": 3, "toughness": 2},
                 Knight={"owner": "Ben", "power": 2, "toughness": 2, "keywords": ["First strike"]})
    events = [ATTACK, {"block": {"Knight": "Ogre"}}, "combat-damage-step"]
    assert ask(game, events, "zone(Ogre)") == "graveyard"  # why: 702.7b, first-strike damage then 704.5g
    value, steps = derive(game, events, "exists(Knight)")
    assert value is True and "510.4" in cited(steps)  # why: the Ogre was gone before the second step


def test_802_4a_only_the_attacked_player_blocks_and_the_declaration_is_undone():
    game = table(Ogre={"owner": "Ann", "power": 3, "toughness": 3}, Fox={"owner": "Cat", "power": 1,
                                                                        "toughness": 1})
    value, steps = derive(game, [ATTACK, {"block": {"Fox": "Ogre"}}], "blocked(Ogre)")
    assert value is False  # why: 802.4a "can block only creatures attacking that player"
    assert {"802.4a", "509.1"} <= cited(steps)


def test_805_10d_a_head_blocks_for_the_team_and_the_attacking_team_cannot_block():
    game = {"variant": "two-headed-giant", "teams": [["Ann", "Ben"], ["Cat", "Dan"]], "active": "Ann",
            "permanents": {"Ogre": {"owner": "Ann", "power": 3, "toughness": 3},
                           "Elk": {"owner": "Dan", "power": 1, "toughness": 4},
                           "Fox": {"owner": "Ben", "power": 1, "toughness": 4}}}
    attack = {"attack": {"attacker": ["Ann", "Ben"], "creatures": {"Ogre": "Cat"}}}
    value, steps = derive(game, [attack, {"block": {"Elk": "Ogre"}}], "blockers(Ogre)")
    assert value == ["Elk"] and "805.10d" in cited(steps)  # why: 805.10d, any player on the defending team
    assert ask(game, [attack, {"block": {"Fox": "Ogre"}}], "blocked(Ogre)") is False  # why: 805.10d


def test_510_1e_an_illegal_assignment_deals_nothing():
    game = table(Ogre={"owner": "Ann", "power": 3, "toughness": 3}, Elk={"owner": "Ben", "power": 1,
                                                                        "toughness": 1})
    events = [ATTACK, {"block": {"Elk": "Ogre"}}, {"combat-damage-step": {"assign": {"Ogre": {"Ben": 3}}}}]
    value, steps = derive(game, events, "exists(Elk)")
    assert value is True and "510.1e" in cited(steps)  # why: 510.1e, the game returns to before it


def test_514_2_marked_damage_wears_off_as_the_next_turn_begins():
    game = table(Ogre={"owner": "Ann", "power": 3, "toughness": 3}, Wall={"owner": "Ben", "power": 0,
                                                                         "toughness": 5})
    events = [ATTACK, {"block": {"Wall": "Ogre"}}, "combat-damage-step"]
    assert ask(game, events, "damage(Wall)") == 3  # why: 120.3e
    assert ask(game, [*events, "next-turn"], "damage(Wall)") == 0  # why: 514.2 cleanup removes it


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("{Relic: Ogre}", r"x.yaml:10: events\[1\]\.block\.Relic: Relic is an artifact: only a creature"),
        ("{Elk: Ben}", r"x.yaml:10: events\[1\]\.block\.Elk: Ben is a player: a creature blocks an"),
    ],
)
def test_bad_blocks_are_one_line_naming_file_line_and_key_exit_2(tmp_path, cli, block, message):
    import re

    path = tmp_path / "x.yaml"
    path.write_text(f"""name: bad block
game:
  players: [Ann, Ben]
  permanents:
    Ogre: {{owner: Ann, power: 3, toughness: 3}}
    Elk: {{owner: Ben, power: 1, toughness: 1}}
    Relic: {{owner: Ben, kind: artifact}}
events:
  - attack: {{attacker: Ann, creatures: [Ogre], defending: Ben}}
  - block: {block}
expect:
  blocked(Ogre): true
""", encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 2
    err = result.err.strip().splitlines()
    assert len(err) == 1 and re.search(message, err[0]), err
    assert "Traceback" not in err[0]
