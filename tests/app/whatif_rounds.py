"""The scorer of the blind rounds of what-if phrasings (tests/app/whatif_situations.yaml, whatif_blind5.yaml):
each phrase asked of its table as the app and ``rulesjudge ask --what-if`` ask it (``services.ask_what_if``),
and scored read right, not read (the search or a refusal) or WRONG (read, and an answer differs)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from rulesjudge.app import services
from rulesjudge.common.errors import InputError


def load_round(path: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The tables and phrases of a round file."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data["tables"], data["phrases"]


@functools.cache
def _corpus() -> Any:
    from rulesjudge.scenarios.runner import default_citation_corpus

    return default_citation_corpus()


def readings(phrase: dict[str, Any]) -> list[dict[str, Any]]:
    """The expected answers and, from ``or`` (one mapping or a list), the same facts asked another way.

    >>> readings({"expect": {"in-game": ["Ann"]}, "or": [{"losers": ["Ben"]}, {"result(Ben)": "lost"}]})
    [{'in-game': ['Ann']}, {'losers': ['Ben']}, {'result(Ben)': 'lost'}]
    """
    others = phrase.get("or", [])
    return [phrase["expect"], *([others] if isinstance(others, dict) else others)]


def score(phrase: dict[str, Any], tables: dict[str, dict[str, Any]], corpus: Any = None) -> tuple[str, str]:
    """("right" | "not read" | "wrong", what was seen) for one phrase asked of its table."""
    try:
        table = services.open_table(tables[phrase["table"]])
        asked = services.ask_what_if(table, phrase["say"], corpus or _corpus())
    except InputError as error:
        return ("wrong" if phrase.get("fallback") else "not read"), f"refused: {error}"
    if phrase.get("fallback"):
        return ("right", "search") if asked.plan is None else ("wrong", f"read as {asked.plan.summary}")
    if asked.plan is None or asked.outcome is None:
        return "not read", "search"
    answers = {str(a.question): a for a in asked.outcome.report.answers}
    seen = f"{asked.plan.summary} -> {asked.outcome.answer}"
    # every reading the answers can be checked against (an `or` may be the same fact asked another way, or a
    # second reading of the rules with the same key): right when one of them holds throughout
    candidates = [w for w in readings(phrase) if set(w) <= set(answers)] or [phrase["expect"]]
    misses = [_miss(answers, wanted, seen) for wanted in candidates]
    if all(misses):
        return "wrong", misses[0]
    if phrase.get("says") and phrase["says"] not in asked.outcome.answer:
        return "wrong", f"{seen} (the answer doesn't say {phrase['says']!r})"
    return "right", seen


def _miss(answers: dict[str, Any], wanted: dict[str, Any], seen: str) -> str:
    """What differs between the model's answers and one expected reading ("" when nothing does)."""
    for question, expected in wanted.items():
        if question not in answers:
            return f"{seen} (no answer to {question})"
        if not services.meets_expectation(answers[question], expected):
            return f"{seen} ({question}: {answers[question].value!r}, the rules: {expected!r})"
    return ""


def tally(path: Path) -> Iterator[str]:
    """Each phrase not read right, with its verdict, then the score (the test files' command line)."""
    tables, phrases = load_round(path)
    verdicts: Counter[str] = Counter()
    for item in phrases:
        verdict, seen = score(item, tables)
        verdicts[verdict] += 1
        if verdict != "right":
            yield f"{verdict.upper():9} [{item['table']}] {item['say']}\n          {seen}"
    yield f"{dict(verdicts)} read right {verdicts['right'] / len(phrases):.1%} of {len(phrases)}"
