"""docs/limits.md states the limits the code enforces (a changed limit must change the page)."""

from __future__ import annotations

from pathlib import Path

from rulesjudge.app.commands.search import MAX_BATCH_BYTES
from rulesjudge.common.inputs import DOWNLOAD_SECONDS, READ_TIMEOUT_SECONDS
from rulesjudge.corpus.releases import MAX_BYTES
from rulesjudge.indexer.evaluate import MAX_QUESTION_SET_BYTES
from rulesjudge.scenarios import limits

DOC = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text(encoding="utf-8")


def test_the_page_states_every_limit() -> None:
    stated = [
        f"| a scenario file (`check`, `ask`, an upload in the app) | {limits.MAX_CHARS // 1024} KB",
        f"| YAML nesting in a scenario | {limits.MAX_DEPTH} levels",
        f"| values in a scenario | {limits.MAX_VALUES:,}",
        f"| a number in a scenario | {limits.MAX_NUMBER_CHARS} characters",
        f"| an official release (`corpus add`) | {MAX_BYTES // 1_000_000} MB",
        f"| a `search --batch` file or standard input | {MAX_BATCH_BYTES // 1_000_000} MB",
        f"| a question set (`eval --questions`) | {MAX_QUESTION_SET_BYTES // 1_000_000} MB",
        f"| players (seats, or team members) | {limits.MAX_PLAYERS} ",
        f"| events | {limits.MAX_EVENTS} |",
        f"| questions (`expect:` keys, or questions asked at once in the app) | {limits.MAX_QUESTIONS} |",
        f"| permanents | {limits.MAX_PERMANENTS} |",
        f"{DOWNLOAD_SECONDS:g} s for the whole download, {READ_TIMEOUT_SECONDS:g} s for a connection",
        f"a budget of {limits.TIME_BUDGET_SECONDS:g} s",
    ]
    assert [line for line in stated if line not in DOC] == []
