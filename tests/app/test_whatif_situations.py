"""Blind round 4 (tests/app/whatif_situations.yaml): questions that state the table, presuppose a holder, name
the variant, carry filler or speak of a team. Each is asked as the app and ``rulesjudge ask --what-if`` ask it
(``services.ask_what_if``), and scored: read right, not read (the search or a refusal), or wrong.

Targets (issue 23): >= 90% read right and no wrong answer. ``python tests/app/test_whatif_situations.py``
prints the score and each phrase not read right.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesjudge.app import services
from rulesjudge.common.errors import InputError

DATA = yaml.safe_load(Path(__file__).with_name("whatif_situations.yaml").read_text(encoding="utf-8"))
TABLES: dict[str, dict[str, Any]] = DATA["tables"]
PHRASES: list[dict[str, Any]] = DATA["phrases"]


def score(phrase: dict[str, Any], corpus: Any) -> tuple[str, str]:
    """("right" | "not read" | "wrong", what was seen) for one phrase, citations resolved in ``corpus``."""
    try:
        asked = services.ask_what_if(services.open_table(TABLES[phrase["table"]]), phrase["say"], corpus)
    except InputError as error:
        return ("wrong" if phrase.get("fallback") else "not read"), f"refused: {error}"
    if phrase.get("fallback"):
        return ("right", "search") if asked.plan is None else ("wrong", f"read as {asked.plan.summary}")
    if asked.plan is None or asked.outcome is None:
        return "not read", "search"
    answers = {str(a.question): a for a in asked.outcome.report.answers}
    seen = f"{asked.plan.summary} -> {asked.outcome.answer}"
    wanted_answers = phrase["expect"]
    if "or" in phrase and not set(wanted_answers) <= set(answers):
        wanted_answers = phrase["or"]
    for question, wanted in wanted_answers.items():
        if question not in answers:
            return "wrong", f"{seen} (no answer to {question})"
        if not services.meets_expectation(answers[question], wanted):
            return "wrong", f"{seen} ({question}: {answers[question].value!r}, the rules: {wanted!r})"
    if phrase.get("says") and phrase["says"] not in asked.outcome.answer:
        return "wrong", f"{seen} (the answer doesn't say {phrase['says']!r})"
    return "right", seen


def test_the_round_is_blind_sized_and_every_answer_cites_its_rule():
    assert len(PHRASES) >= 150
    assert len({(p["table"], p["say"]) for p in PHRASES}) == len(PHRASES), "a phrasing is listed twice"
    for phrase in PHRASES:
        assert phrase["table"] in TABLES
        assert phrase.get("fallback") or (phrase.get("expect") and phrase.get("why")), phrase["say"]


@pytest.mark.parametrize("phrase", PHRASES, ids=[f"{p['table']}: {p['say']}" for p in PHRASES])
def test_no_phrase_is_answered_wrong(phrase, builtin_corpus):
    verdict, seen = score(phrase, builtin_corpus)
    assert verdict != "wrong", seen


def test_nine_in_ten_are_read_right(builtin_corpus):
    verdicts = Counter(score(p, builtin_corpus)[0] for p in PHRASES)
    assert verdicts["right"] / len(PHRASES) >= 0.9, verdicts


if __name__ == "__main__":
    from rulesjudge.scenarios.runner import default_citation_corpus

    tally: Counter[str] = Counter()
    for item in PHRASES:
        verdict, seen = score(item, default_citation_corpus())
        tally[verdict] += 1
        if verdict != "right":
            print(f"{verdict.upper():9} [{item['table']}] {item['say']}\n          {seen}")
    print(dict(tally), f"read right {tally['right'] / len(PHRASES):.1%} of {len(PHRASES)}")
