"""The command line's frame: help without a traceback (bad input as one line: tests/common/test_errors.py)."""

from __future__ import annotations


def test_help_lists_no_traceback(cli):
    result = cli()
    assert result.code == 0
    assert "rulesjudge" in result.out
