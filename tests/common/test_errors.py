"""Bad input as one line (rulesjudge/common/errors.py ``InputError``): file, line and key, control characters
escaped so a message can't print lines of its own."""

from __future__ import annotations

from rulesjudge.common.errors import InputError


def test_input_error_is_one_line_naming_file_line_and_key():
    error = InputError("table.yaml", "unknown player 'Zed'", line=4, key="game.monarch")
    assert str(error) == "table.yaml:4: game.monarch: unknown player 'Zed'"


def test_input_error_shows_control_characters_as_escapes_so_it_stays_one_line():
    error = InputError("t\nable.yaml", "unknown player 'Zed\n1 passed'", line=4, key="game.\x1b[2Jmonarch")
    assert str(error) == "t\\nable.yaml:4: game.\\x1b[2Jmonarch: unknown player 'Zed\\n1 passed'"
