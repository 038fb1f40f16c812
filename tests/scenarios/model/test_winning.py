"""Ending the game: 704.5a, 104.2a, 104.3a, 104.4a."""

from __future__ import annotations

import pytest
from rules_model_helpers import FOUR, ask, cited, derive


def test_704_5a_a_player_at_0_life_loses():
    game = {"players": FOUR, "life": {"Ben": 3}}
    events = [{"combat-damage": {"from": "Ann", "to": "Ben", "amount": 3}}]
    value, steps = derive(game, events, "losers")
    assert value == ["Ben"]  # why: 704.5a
    assert "704.5a" in cited(steps)


def test_704_5a_life_below_zero_also_loses():
    game = {"players": FOUR, "life": {"Ben": 1}}
    assert ask(game, [{"lose-life": {"player": "Ben", "amount": 5}}], "in-game") == [
        "Ann",
        "Cat",
        "Dan",
    ]  # 704.5a


def test_104_2a_the_last_player_wins():
    events = [{"leaves": ["Ben", "Cat", "Dan"]}]
    assert ask({"players": FOUR}, events, "winners") == ["Ann"]  # why: all opponents left (104.2a)


def test_104_1_the_game_is_over_when_a_player_wins():
    assert ask({"players": ["Ann", "Ben"]}, [{"concedes": "Ben"}], "game-over") is True  # why: 104.1, 104.2a


def test_104_2a_the_winner_is_the_one_player_still_in_the_game():
    assert ask({"players": ["Ann", "Ben"]}, [{"concedes": "Ben"}], "in-game") == ["Ann"]  # why: 104.2a
    # why: 104.4a - everyone left at once, a draw: nobody was still in the game when it ended
    assert ask({"players": ["Ann", "Ben"]}, [{"concedes": ["Ann", "Ben"]}], "in-game") == []


def test_104_4a_all_remaining_players_losing_at_once_is_a_draw():
    events = [{"leaves": "Ann"}, {"leaves": ["Ben", "Cat"]}]
    value, steps = derive({"players": ["Ann", "Ben", "Cat"]}, events, "result(Ben)")
    assert value == "drew"  # why: Ben and Cat are all the players remaining and lose at once (104.4a)
    assert "104.4a" in cited(steps)


def test_104_4a_a_draw_has_no_winners_and_the_earlier_leaver_still_lost():
    events = [{"leaves": "Ann"}, {"leaves": ["Ben", "Cat"]}]
    game = {"players": ["Ann", "Ben", "Cat"]}
    assert (ask(game, events, "winners"), ask(game, events, "losers")) == ([], ["Ann"])  # why: 104.4a, 104.3


def test_704_5a_two_players_at_0_life_lose_simultaneously_the_third_wins():
    game = {"players": ["Ann", "Ben", "Cat"], "life": {"Ben": 2, "Cat": 2}}
    events = [
        {
            "combat-damage": [
                {"from": "Ann", "to": "Ben", "amount": 2},
                {"from": "Ann", "to": "Cat", "amount": 2},
            ]
        }
    ]
    assert ask(game, events, "winners") == [
        "Ann"
    ]  # why: both lose at once (704.5a); Ann's opponents left (104.2a)


def test_104_2b_an_effect_says_a_player_wins():
    assert ask({"players": FOUR}, [{"wins": "Cat"}], "winners") == ["Cat"]  # why: 104.2b


def test_800_4_the_game_goes_on_after_one_player_leaves():
    assert ask({"players": FOUR}, [{"leaves": "Ben"}], "game-over") is False  # why: 800.4


def test_704_3_a_life_only_cant_lose_leaves_the_other_state_based_actions_to_apply():
    """Transcendence stops 704.5a only: the same player's empty-library draw (704.5b) or tenth poison
    counter (704.5c) still makes them lose, even while their life is 0 or less."""
    game = {"players": FOUR, "active": "Ann", "life": {"Ben": -3},
            "effects": [{"cant-lose": "Ben", "only": "life"}]}
    assert ask(game, [], "result(Ben)") is None
    value, steps = derive(game, [{"draw-from-empty": "Ben"}], "result(Ben)")
    assert value == "lost" and "704.5b" in cited(steps)
    poisoned = {**game, "poison": {"Ben": 9}}
    assert ask(poisoned, [{"poison": {"player": "Ben", "count": 1}}], "result(Ben)") == "lost"


COMMANDER_TABLE = {"variant": "commander", "players": ["Ann", "Ben", "Cat"], "active": "Ann", "permanents": {
    "Krenko": {"owner": "Ann", "power": 3, "toughness": 3, "commander": True, "zone": "command"},
    "Goblin": {"owner": "Ben", "power": 2, "toughness": 2, "commander": True, "zone": "command"}}}


@pytest.mark.parametrize(
    ("events", "commander", "rule"),
    [
        (["pass-priority", {"commander-cast": {"player": "Ben", "commander": "Goblin"}}], "Goblin", "117.1a"),
        ([{"cast": {"player": "Ann", "spell": "Shock"}},
          {"commander-cast": {"player": "Ann", "commander": "Krenko"}}], "Krenko", "117.1a"),
        (["pass-priority", {"commander-cast": {"player": "Ann", "commander": "Krenko"}}], "Krenko", "117.1"),
    ],
    ids=["another-players-turn", "stack-not-empty", "without-priority"],
)
def test_117_1a_a_commander_is_cast_with_sorcery_timing(events: list, commander: str, rule: str):
    """A commander is a creature spell: its owner casts it holding priority in their own main phase with an
    empty stack (117.1a, 307.1); otherwise nothing is cast and no commander tax is added (903.8)."""
    value, steps = derive(COMMANDER_TABLE, events, f"zone({commander})")
    assert value == "command" and rule in cited(steps)
    assert ask(COMMANDER_TABLE, events, f"commander-tax({commander})") == 0
    assert ask(COMMANDER_TABLE, [{"commander-cast": {"player": "Ann", "commander": "Krenko"}}],
               "zone(Krenko)") == "stack"
