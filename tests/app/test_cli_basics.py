"""The command line's frame: help, and bad input as one line with exit code 2."""

from __future__ import annotations

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import RecordId, make_id


def test_help_lists_no_traceback(cli):
    result = cli()
    assert result.code == 0
    assert "rulesjudge" in result.out


def test_input_error_is_one_line_naming_file_line_and_key():
    error = InputError("table.yaml", "unknown player 'Zed'", line=4, key="game.monarch")
    assert str(error) == "table.yaml:4: game.monarch: unknown player 'Zed'"


def test_input_error_shows_control_characters_as_escapes_so_it_stays_one_line():
    error = InputError("t\nable.yaml", "unknown player 'Zed\n1 passed'", line=4, key="game.\x1b[2Jmonarch")
    assert str(error) == "t\\nable.yaml:4: game.\\x1b[2Jmonarch: unknown player 'Zed\\n1 passed'"


def test_record_ids_round_trip_and_reject_garbage():
    text = make_id("treachery", "4.0", "702.187c")
    assert str(RecordId.parse(text)) == text
    try:
        RecordId.parse("722.4")
    except ValueError as error:
        assert "document@edition/local" in str(error)
    else:  # pragma: no cover - the assertion is the point
        raise AssertionError("a bare number is not a record id")
