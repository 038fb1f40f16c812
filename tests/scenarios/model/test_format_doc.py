"""docs/scenario-format.md documents every event and question the model knows."""

from __future__ import annotations

from pathlib import Path

from rulesjudge.scenarios.model.events import EVENT_TYPES
from rulesjudge.scenarios.model.questions import QUESTIONS

DOC = Path(__file__).resolve().parents[3] / "docs" / "scenario-format.md"


def test_every_event_and_question_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [f"event {n}" for n in EVENT_TYPES if f"`{n}`" not in text]
    missing += [f"question {n}" for n in QUESTIONS if f"`{n}" not in text]
    assert not missing, missing
