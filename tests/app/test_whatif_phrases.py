"""The phrase list (tests/app/whatif_phrases.yaml): questions as people put them at a table, each with the
events and questions it means, and for many the answer the rules give (with the rule in `why`).

Each phrase is read against the facts the model gives for its table (services.table_facts), so roles and
designations ("the monarch", "both Assassins", "Dan's emperor") are resolved as in the app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesjudge.app import services
from rulesjudge.app.whatif import WhatIfError, answer_line, interpret

DATA = yaml.safe_load((Path(__file__).with_name("whatif_phrases.yaml")).read_text(encoding="utf-8"))
TABLES: dict[str, dict[str, Any]] = DATA["tables"]
PHRASES: list[dict[str, Any]] = DATA["phrases"]
_FACTS: dict[str, Any] = {}


def facts(table: str) -> Any:
    if table not in _FACTS:
        _FACTS[table] = services.table_facts(services.open_table(TABLES[table]))
    return _FACTS[table]


def test_the_list_is_long_and_every_answer_says_why():
    understood = [p for p in PHRASES if "error" not in p and not p.get("fallback")]
    assert len(understood) >= 150, len(understood)
    assert len({(p["table"], p["say"]) for p in PHRASES}) == len(PHRASES), "a phrasing is listed twice"
    for phrase in PHRASES:
        assert phrase["table"] in TABLES, phrase
        if "answer" in phrase:
            assert phrase.get("why"), f"{phrase['say']}: an expected answer needs its rule"


@pytest.mark.parametrize("phrase", PHRASES, ids=[f"{p['table']}: {p['say']}" for p in PHRASES])
def test_phrase(phrase):
    table = facts(phrase["table"])
    if "error" in phrase:
        with pytest.raises(WhatIfError) as caught:
            interpret(phrase["say"], table)
        assert phrase["error"] in str(caught.value)
        assert "\n" not in str(caught.value)
        return
    plan = interpret(phrase["say"], table)
    if phrase.get("fallback"):
        assert plan is None, f"read as {plan}"
        return
    assert plan is not None, "not understood"
    assert list(plan.events) == phrase["events"], plan.summary
    assert list(plan.questions) == phrase["questions"], plan.summary
    assert plan.summary.endswith("?")
    if "answer" in phrase:
        report = services.evaluate_full(TABLES[phrase["table"]], plan.events, plan.questions)
        values = {str(a.question): a.value for a in report.answers}
        assert answer_line(plan, values) == str(phrase["answer"]), plan.summary
