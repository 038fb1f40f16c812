"""Libraries as counts (121, 104.3c, 704.5b) and effects that follow their source's controller (109.5)."""

from __future__ import annotations

from rules_model_helpers import ask, cited, derive


def test_104_3c_drawing_more_than_is_left_draws_the_rest_then_loses():
    game = {"players": ["Ann", "Ben", "Cat"], "active": "Ann", "library": {"Ben": 1}}
    events = [{"draw": {"player": "Ben", "count": 2}}]
    assert ask(game, events, "draws(Ben)") == 1  # why: 104.3c "they draw the remaining cards"
    value, steps = derive(game, events, "result(Ben)")
    assert value == "lost" and {"121.4", "704.5b"} <= cited(steps)  # why: 704.5b at the next check


def test_725_2_the_monarchs_draw_takes_from_the_library():
    game = {"players": ["Ann", "Ben"], "active": "Ann", "monarch": "Ann", "library": {"Ann": 3}}
    assert ask(game, ["end-step"], "library(Ann)") == 2  # why: 725.2, the monarch draws a card (121.1)


def test_a_library_count_below_zero_is_one_line_naming_the_key_exit_2(tmp_path, cli):
    path = tmp_path / "lib.yaml"
    path.write_text("name: x\ngame:\n  players: [Ann, Ben]\n  library: {Ann: -1}\nexpect:\n  active: Ann\n",
                    encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 2
    err = result.err.strip().splitlines()
    assert len(err) == 1 and "lib.yaml:4: game.library.Ann: a library holds 0 or more cards" in err[0]


ANGEL = {"players": ["Ann", "Ben", "Cat"], "active": "Ann", "life": {"Cat": 1},
         "permanents": {"Angel": {"owner": "Ben", "kind": "artifact"}},
         "effects": [{"cant-lose": {"controller-of": "Angel"}}]}


def test_109_5_you_on_a_static_ability_is_its_current_controller():
    events = [{"gain-control": {"permanent": "Angel", "player": "Cat"}},
              {"lose-life": {"player": "Cat", "amount": 1}}]
    value, steps = derive(ANGEL, events, "can-lose(Cat)")
    assert value is False and {"109.5", "101.2"} <= cited(steps)  # why: 109.5; "can't" wins (101.2)
    assert ask(ANGEL, events, "can-lose(Ben)") is True  # why: 109.5, Ben no longer controls it


def test_800_4a_control_returns_when_the_borrower_leaves_and_the_effect_follows():
    game = {**ANGEL, "permanents": {"Angel": {"owner": "Ben", "controller": "Cat", "kind": "artifact"}}}
    assert ask(game, [{"concedes": "Cat"}], "can-lose(Ben)") is False  # why: 800.4a, then 109.5


def test_a_stopped_state_based_loss_is_said_as_would_not_did():
    # why: issue 25 - "a state-based action makes her lose" followed by "can't lose" read as lost then not
    events = [{"lose-life": {"player": "Ben", "amount": 20}}]
    _, steps = derive(ANGEL, events, "in-game")
    texts = [s.text for s in steps]
    assert any("would make them lose the game, but an effect stops it" in t for t in texts)
    assert not any(t.endswith("a state-based action makes them lose the game.") for t in texts)
