"""Blind round 5 (tests/app/whatif_blind5.yaml, issue 23): phrasings written before their writer read the
reader - situations stated in the question, presuppositions, variant names, filler, team phrasings, every
variant, and questions that are not about the table. Each is asked as the app and ``rulesjudge ask
--what-if`` ask it (``services.ask_what_if``) and scored: read right, not read (the search or a refusal),
or WRONG.

Targets (issue 23): >= 90% read right and no wrong answer. ``python tests/app/test_whatif_blind5.py [FILE]``
prints the score and each phrase not read right, with its verdict.
"""

from __future__ import annotations

import functools
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesjudge.app import services
from rulesjudge.common.errors import InputError

ROUND = Path(__file__).with_name("whatif_blind5.yaml")


def load_round(path: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The tables and phrases of a round file (the format of tests/app/whatif_situations.yaml)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data["tables"], data["phrases"]


TABLES, PHRASES = load_round(ROUND)


@functools.cache
def _corpus() -> Any:
    from rulesjudge.scenarios.runner import default_citation_corpus

    return default_citation_corpus()


def _readings(phrase: dict[str, Any]) -> list[dict[str, Any]]:
    """The expected answers and, from ``or`` (one mapping or a list), the same facts asked another way.

    >>> _readings({"expect": {"in-game": ["Ann"]}, "or": [{"losers": ["Ben"]}, {"result(Ben)": "lost"}]})
    [{'in-game': ['Ann']}, {'losers': ['Ben']}, {'result(Ben)': 'lost'}]
    """
    others = phrase.get("or", [])
    return [phrase["expect"], *([others] if isinstance(others, dict) else others)]


def score(phrase: dict[str, Any], tables: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """("right" | "not read" | "wrong", what was seen) for one phrase asked of its table."""
    try:
        asked = services.ask_what_if(services.open_table(tables[phrase["table"]]), phrase["say"], _corpus())
    except InputError as error:
        return ("wrong" if phrase.get("fallback") else "not read"), f"refused: {error}"
    if phrase.get("fallback"):
        return ("right", "search") if asked.plan is None else ("wrong", f"read as {asked.plan.summary}")
    if asked.plan is None or asked.outcome is None:
        return "not read", "search"
    answers = {str(a.question): a for a in asked.outcome.report.answers}
    seen = f"{asked.plan.summary} -> {asked.outcome.answer}"
    wanted_answers = next((w for w in _readings(phrase) if set(w) <= set(answers)), phrase["expect"])
    for question, wanted in wanted_answers.items():
        if question not in answers:
            return "wrong", f"{seen} (no answer to {question})"
        if not services.meets_expectation(answers[question], wanted):
            return "wrong", f"{seen} ({question}: {answers[question].value!r}, the rules: {wanted!r})"
    if phrase.get("says") and phrase["says"] not in asked.outcome.answer:
        return "wrong", f"{seen} (the answer doesn't say {phrase['says']!r})"
    return "right", seen


def test_the_round_is_blind_sized_and_every_answer_cites_its_rule():
    assert len(PHRASES) >= 160
    assert len({(p["table"], p["say"]) for p in PHRASES}) == len(PHRASES), "a phrasing is listed twice"
    fallbacks = sum(1 for p in PHRASES if p.get("fallback"))
    assert 0.05 <= fallbacks / len(PHRASES) <= 0.15, "about one in ten is not a table question"
    for phrase in PHRASES:
        assert phrase["table"] in TABLES
        assert phrase.get("fallback") or (phrase.get("expect") and phrase.get("why")), phrase["say"]


def test_every_table_is_legal_input():
    # A table the form can't hold would score its phrases "not read" for the wrong reason.
    for name, game in TABLES.items():
        assert services.open_table(game) is not None, name


# The blind score before the reader was changed for this round: 107 right, 96 not read, 2 WRONG of 205.
BLIND = pytest.mark.xfail(reason="blind round 5 before fixes: 52.2% read right, 2 wrong", strict=False)


@BLIND
@pytest.mark.parametrize("phrase", PHRASES, ids=[f"{p['table']}: {p['say']}" for p in PHRASES])
def test_no_phrase_is_answered_wrong(phrase):
    verdict, seen = score(phrase, TABLES)
    assert verdict != "wrong", seen


@BLIND
def test_nine_in_ten_are_read_right():
    verdicts = Counter(score(p, TABLES)[0] for p in PHRASES)
    assert verdicts["right"] / len(PHRASES) >= 0.9, verdicts


def main(path: Path) -> None:
    """Print each phrase not read right and the tally (``python tests/app/test_whatif_blind5.py [FILE]``)."""
    tables, phrases = load_round(path)
    tally: Counter[str] = Counter()
    for item in phrases:
        verdict, seen = score(item, tables)
        tally[verdict] += 1
        if verdict != "right":
            print(f"{verdict.upper():9} [{item['table']}] {item['say']}\n          {seen}")
    print(dict(tally), f"read right {tally['right'] / len(phrases):.1%} of {len(phrases)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROUND)
