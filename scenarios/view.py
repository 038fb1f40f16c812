"""Reports as text and as plain data (for `rulesjudge ask` and the app)."""

from __future__ import annotations

from typing import Any

from rulesjudge.corpus.errors import escape_controls
from rulesjudge.scenarios.model.events import event_to_yaml
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.runner import ScenarioReport


def show_value(value: Any) -> str:
    """A model answer as the scenario format writes it: ``null``, ``true``, ``[Ann, Ben]``, a choice
    ``{chosen-by: Cat, one-of: [Ann, Ben]}``.

    >>> show_value({"chosen-by": ["Cat", "Dan"], "one-of": ["Ann", "Ben"]})
    '{chosen-by: [Cat, Dan], one-of: [Ann, Ben]}'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _event_text(event: Any) -> str:
    data = event_to_yaml(event)
    if isinstance(data, str):
        return data
    ((name, arg),) = data.items()
    if isinstance(arg, dict):
        return f"{name}: " + ", ".join(f"{k}={show_value(v)}" for k, v in arg.items())
    return f"{name}: {show_value(arg)}"


def step_to_dict(step: Step, report: ScenarioReport) -> dict[str, Any]:
    return {
        "text": step.text,
        "cites": [report.resolve(c).as_dict() for c in step.cites],
        "alternatives": [
            {"text": r.text, "value": r.value, "cites": [report.resolve(c).as_dict() for c in r.cites]}
            for r in step.alternatives
        ],
    }


def report_to_dict(report: ScenarioReport) -> dict[str, Any]:
    scenario = report.scenario
    return {
        "name": scenario.name if scenario else None,
        "path": scenario.path if scenario else None,
        "passed": report.passed,
        "error": report.error,
        "events": [
            {
                "event": event_to_yaml(e.event),
                "line": e.line,
                "steps": [step_to_dict(s, report) for s in e.steps],
            }
            for e in report.events
        ],
        "answers": [
            {
                "question": str(a.question),
                "value": a.value,
                "expected": a.expected,
                "passed": a.passed,
                "line": a.line,
                "steps": [step_to_dict(s, report) for s in a.steps],
            }
            for a in report.answers
        ],
    }


def _cite_label(found: Any) -> str:
    """A citation as a judge reads it aloud: "CR 725.4 (2026-04-17) — 722.4 in the 2024-06-07 rules the
    Monarch page quotes" (the record ids are in ``--json``)."""
    return str(found.label)


def _step_lines(step: Step, report: ScenarioReport, indent: str) -> list[str]:
    cites = "; ".join(_cite_label(report.resolve(c)) for c in step.cites)
    lines = [f"{indent}- {step.text}" + (f"  [{cites}]" if cites else "")]
    for reading in step.alternatives:
        lines.append(f"{indent}    or: {reading.text} -> {show_value(reading.value)}")
    return lines


def report_to_text(report: ScenarioReport) -> str:
    scenario = report.scenario
    lines = [escape_controls(scenario.name) if scenario else "?"]
    if scenario and scenario.why:
        lines.append(f"  why: {escape_controls(' '.join(scenario.why.split()))}")
    if report.error:
        lines.append(f"  {report.error}")
    for item in report.events:
        lines.append(f"event {_event_text(item.event)}")
        for step in item.steps:
            lines += _step_lines(step, report, "  ")
    for ans in report.answers:
        mark = "ok" if ans.passed else f"EXPECTED {show_value(ans.expected)}"
        lines.append(f"{ans.question}: {show_value(ans.value)}   ({mark})")
        for step in ans.steps:
            lines += _step_lines(step, report, "  ")
    return "\n".join(lines)
