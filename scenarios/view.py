"""Reports as text and as plain data (for `rulesjudge ask` and the app)."""

from __future__ import annotations

from typing import Any

from rulesjudge.common.errors import escape_controls
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


def _cite_label(found: Any, editions: bool = False) -> str:
    """A citation as a judge reads it aloud at a step: "CR 725.4". With ``editions``, the full label: "CR
    725.4 (2026-04-17) — 722.4 in the 2024-06-07 rules the Monarch page quotes" (the record ids are in
    ``--json``); otherwise the edition and the other editions are said once, at the end (:func:`_editions`).

    >>> from rulesjudge.scenarios.model.citations import Resolved, cr
    >>> found = Resolved(cr("725.4"), "cr@2026-04-17/725.4", "2026-04-17",
    ...                  "CR 725.4 (2026-04-17) \u2014 722.4 in the 2024-06-07 rules the Monarch page quotes")
    >>> _cite_label(found)
    'CR 725.4'
    """
    label = str(found.label)
    if editions:
        return label
    head = label.split(DASH, 1)[0]
    if found.edition and head.endswith(f" ({found.edition})"):
        head = head[: -len(f" ({found.edition})")]
    return head


DASH = " \u2014 "


def _editions(report: ScenarioReport, steps: list[Step]) -> list[str]:
    """The editions the answer's citations come from, and the other editions' numbers of the same rules,
    said once (a judge needs them once per answer, not at each step)."""
    cites = dict.fromkeys(c for s in steps for c in (*s.cites, *(x for r in s.alternatives for x in r.cites)))
    found = [report.resolve(c) for c in cites]
    sources = dict.fromkeys(f"{r.cite.document} {r.edition}" for r in found if r.edition)
    if not sources:
        return []
    lines = [f"editions: {', '.join(_source_words(s) for s in sources)}"]
    tails = dict.fromkeys(str(r.label) for r in found if DASH in str(r.label))
    for label in tails:
        head, tail = label.split(DASH, 1)
        lines.append(f"  {head}{DASH}{tail}")
    return lines


def _source_words(source: str) -> str:
    document, edition = source.split(" ", 1)
    names = {"cr": "Comprehensive Rules", "treachery": "Treachery rules", "rulings": "card rulings"}
    return f"{names.get(document, document)} {edition}"


def _step_lines(step: Step, report: ScenarioReport, indent: str, editions: bool = False) -> list[str]:
    cites = "; ".join(dict.fromkeys(_cite_label(report.resolve(c), editions) for c in step.cites))
    lines = [f"{indent}- {step.text}" + (f"  [{cites}]" if cites else "")]
    for reading in step.alternatives:
        lines.append(f"{indent}    or: {reading.text} -> {show_value(reading.value)}")
    return lines


def report_to_text(report: ScenarioReport, editions: bool = False) -> str:
    """The report as ``rulesjudge ask`` prints it: each event's and answer's steps with their rules; the
    editions once at the end (``editions``: with every citation instead)."""
    scenario = report.scenario
    lines = [escape_controls(scenario.name) if scenario else "?"]
    if scenario and scenario.why:
        lines.append(f"  why: {escape_controls(' '.join(scenario.why.split()))}")
    if report.error:
        lines.append(f"  {report.error}")
    every: list[Step] = []
    for item in report.events:
        lines.append(f"event {_event_text(item.event)}")
        for step in item.steps:
            lines += _step_lines(step, report, "  ", editions)
        every += item.steps
    for ans in report.answers:
        mark = "ok" if ans.passed else f"EXPECTED {show_value(ans.expected)}"
        lines.append(f"{ans.question}: {show_value(ans.value)}   ({mark})")
        for step in ans.steps:
            lines += _step_lines(step, report, "  ", editions)
        every += ans.steps
    if not editions:
        lines += _editions(report, every)
    return "\n".join(lines)
