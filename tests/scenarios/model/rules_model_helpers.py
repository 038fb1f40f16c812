"""Small helpers for the rules-model unit tests: a table from a dict, events as in scenario files."""

from __future__ import annotations

from typing import Any

from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.runner import evaluate


def ask(game: dict[str, Any], events: list[Any], question: str) -> Any:
    """The answer to one question after the events (events written as in a scenario file)."""
    return evaluate(game, events, [question]).answers[0].value


def derive(game: dict[str, Any], events: list[Any], question: str) -> tuple[Any, list[Step]]:
    """The answer and every step (events' and answer's) that led to it."""
    report = evaluate(game, events, [question])
    steps = [s for e in report.events for s in e.steps] + list(report.answers[0].steps)
    return report.answers[0].value, steps


def cited(steps: list[Step]) -> set[str]:
    return {c.local for s in steps for c in s.cites}


FOUR = ["Ann", "Ben", "Cat", "Dan"]
