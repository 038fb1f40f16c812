"""The smaller points of issue 24 (8): each message names the right line and key, and offers only what
fits there."""

from __future__ import annotations

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario


def refused(text: str) -> InputError:
    with pytest.raises(InputError) as raised:
        parse_scenario(text, "t.yaml")
    return raised.value


def test_a_player_seated_twice_is_named_at_the_second_seat() -> None:
    error = refused("name: x\ngame:\n  players:\n    - Ann\n    - Ben\n    - Ann\nexpect: {monarch: null}\n")
    assert (error.line, error.key) == (6, "game.players[2]")  # why: line 6 writes Ann the second time


def test_an_unclosed_bracket_names_the_line_that_opened_it() -> None:
    error = refused("name: x\ngame:\n  players: [Ann, Ben\nexpect: {monarch: null}\n")
    assert error.line == 3 and "not closed" in error.message


@pytest.mark.parametrize(("text", "hint"), [
    ("name: x\ngame:\n  players: [Ann, Ben]\n  abot: 3\n", None),  # `about` is not a key of game:
    ("name: x\ngame:\n  players: [Ann, Ben]\n  monarh: Ann\n", "monarch"),
    ("name: x\nabot: [725.4]\ngame: {players: [Ann, Ben]}\n", "about"),
    ("name: x\ngame:\n  players: [Ann, Ben]\n  permanents:\n"
     "    Wolf: {owner: Ann, kind: creature, powr: 3}\n", "power"),
])
def test_an_unknown_key_is_offered_only_keys_of_its_place(text, hint) -> None:
    message = refused(text).message
    assert "unknown key" in message
    assert (f"did you mean '{hint}'" in message) if hint else ("did you mean" not in message)


def test_an_edition_not_loaded_blames_the_edition_not_the_number(data_dir, cli) -> None:
    result = cli("rule", "725.4", "--edition", "1999-01-01")
    assert result.code == 2
    err = result.err.strip()
    assert err.startswith("rulesjudge: command line: --edition: cr edition 1999-01-01 is not loaded")


@pytest.mark.parametrize("name", ["x\u202egpj.yaml", "Ann\u2028PASS", "B\u2066ob"])
def test_text_that_reorders_the_screen_is_shown_escaped_in_the_app(name) -> None:
    from rulesjudge.app.web.common import md

    shown = md(name)
    assert not any(c in shown for c in "\u202e\u2028\u2066") and "\\\\u20" in shown
