"""Running scenarios: build the table, apply the events, answer the questions, compare.

>>> from rulesjudge.scenarios.format import parse_scenario
>>> report = run_scenario(parse_scenario('''
... name: Ann concedes on her turn while monarch
... game: {players: [Ann, Ben, Cat], monarch: Ann}
... events: [{leaves: Ann}]
... expect: {monarch: Ben, active: null}
... '''))
>>> report.passed, [a.value for a in report.answers]
(True, ['Ben', None])
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.safe_yaml import dotted
from rulesjudge.corpus.records import Corpus
from rulesjudge.corpus.store import load_corpus
from rulesjudge.scenarios.format import (
    Scenario,
    check_question,
    check_setup,
    checked_event,
    event_item,
    find_scenario_files,
    load_scenario,
    setup_from_data,
)
from rulesjudge.scenarios.limits import MAX_EVENTS, MAX_QUESTIONS
from rulesjudge.scenarios.model import Setup, answer, apply, build_state
from rulesjudge.scenarios.model.citations import Cite, Resolved, resolve
from rulesjudge.scenarios.model.events import Event
from rulesjudge.scenarios.model.questions import QUESTIONS, Question
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState

LIBRARY = Path(__file__).parent / "library"


@dataclass(frozen=True)
class EventReport:
    event: Event
    steps: tuple[Step, ...]
    line: int | None = None


@dataclass(frozen=True)
class AnswerReport:
    question: Question
    value: Any
    steps: tuple[Step, ...]
    expected: Any = None
    passed: bool = True
    key: str = ""
    line: int | None = None


@dataclass
class ScenarioReport:
    """What happened in a scenario, each answer with its derivation, and whether all answers matched."""

    scenario: Scenario | None
    events: list[EventReport] = field(default_factory=list)
    answers: list[AnswerReport] = field(default_factory=list)
    error: str | None = None
    state: TableState | None = None
    corpus: Any = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(a.passed for a in self.answers)

    @property
    def failures(self) -> list[AnswerReport]:
        return [a for a in self.answers if not a.passed]

    def cites(self) -> list[Cite]:
        """Every citation in the report, in order, without repeats."""
        seen: dict[Cite, None] = {}
        steps = [s for e in self.events for s in e.steps] + [s for a in self.answers for s in a.steps]
        for step in steps:
            for cite in (*step.cites, *(c for r in step.alternatives for c in r.cites)):
                seen.setdefault(cite)
        return list(seen)

    def resolve(self, cite: Cite) -> Resolved:
        return resolve(cite, self.corpus)


def same_answer(kind: str, value: Any, expected: Any) -> bool:
    """Lists of players (or permanents) compare as sets, except orders (turn order, APNAP order); a choice
    compares who chooses and the options as sets; a word (a role, a zone, a result) in any case."""
    if kind in ("players", "names") or (kind == "one-or-many" and isinstance(expected, list)):
        return isinstance(value, list | tuple) and sorted(value) == sorted(expected)
    if kind in ("order", "sequence"):
        return isinstance(value, list | tuple) and list(value) == list(expected)
    if kind == "bool":
        return value is expected
    if kind in ("str?", "zone") and isinstance(value, str) and isinstance(expected, str):
        return value.casefold() == expected.casefold()  # as the rules capitalise it: "Assassin", "Exile"
    if isinstance(expected, dict) and isinstance(value, dict):
        return {k: _as_set(v) for k, v in value.items()} == {k: _as_set(v) for k, v in expected.items()}
    return bool(value == expected and type(value) is type(expected))


def _as_set(value: Any) -> Any:
    return frozenset(value) if isinstance(value, list) else frozenset([value])


class OverBudget(InputError):
    """A scenario's evaluation ran past its time budget (the app's guard against a file made to be slow)."""


def deadline_after(budget: float | None) -> float | None:
    """The monotonic time at which a budget of seconds runs out (None: no budget)."""
    return None if budget is None else time.monotonic() + budget


def check_deadline(deadline: float | None, budget: float | None, path: str) -> None:
    """Stop between two events or questions once the budget is spent (each one alone is bounded by the
    limits on players and permanents, so the overrun is small)."""
    if deadline is not None and time.monotonic() >= deadline:
        raise OverBudget(path, f"stopped: the scenario took longer than its budget of {budget:g} s")


def _play(
    state: TableState,
    events: Iterable[Event],
    lines: Sequence[int | None] = (),
    deadline: float | None = None,
    budget: float | None = None,
    path: str = "<input>",
) -> tuple[TableState, list[EventReport]]:
    reports = []
    for i, event in enumerate(events):
        check_deadline(deadline, budget, path)
        state, steps = apply(state, event)
        reports.append(EventReport(event, tuple(steps), lines[i] if i < len(lines) else None))
    return state, reports


def run_scenario(scenario: Scenario, corpus: Any = None, budget: float | None = None) -> ScenarioReport:
    """Run one scenario. A model error is reported as a failure, never raised; so is running past
    ``budget`` seconds (None: no budget)."""
    report = ScenarioReport(scenario, corpus=corpus)
    deadline = deadline_after(budget)
    try:
        state = build_state(scenario.game)
        state, report.events = _play(
            state, scenario.events, scenario.event_lines, deadline, budget, scenario.path
        )
        report.state = state
        for exp in scenario.expect:
            check_deadline(deadline, budget, scenario.path)
            value, steps = answer(state, exp.question)
            kind = QUESTIONS[exp.question.name].kind
            report.answers.append(
                AnswerReport(
                    exp.question,
                    value,
                    tuple(steps),
                    exp.expected,
                    same_answer(kind, value, exp.expected),
                    exp.key,
                    exp.line,
                )
            )
    except OverBudget as error:
        report.error = error.message
    except Exception as error:  # a bug in the model must not hide the other scenarios
        report.error = f"model error: {type(error).__name__}: {error}"
    return report


def evaluate(
    game_setup: Setup | dict[str, Any],
    events: Sequence[Event | str | dict[str, Any]] = (),
    questions: Sequence[Question | str] = (),
    budget: float | None = None,
) -> ScenarioReport:
    """Ad-hoc what-if: a setup (the model's, or a ``game:`` mapping as the app's form makes it), events
    (objects or format items), question texts. Bad input raises :class:`InputError` naming the key; past
    ``budget`` seconds (None: no budget) it stops with :class:`OverBudget`."""
    deadline = deadline_after(budget)
    if len(questions) > MAX_QUESTIONS:
        raise InputError(WHAT_IF, f"{len(questions)} questions: at most {MAX_QUESTIONS} at a time")
    if len(events) > MAX_EVENTS:
        raise InputError(WHAT_IF, f"{len(events)} events: a scenario plays at most {MAX_EVENTS}")
    setup = setup_from_data(game_setup) if isinstance(game_setup, dict) else game_setup
    if not isinstance(game_setup, dict):
        check_setup(setup, lambda where, message: InputError(WHAT_IF, message, key=dotted(("game", *where))))
    parsed_events = [e if isinstance(e, Event) else read_event(setup, i, e) for i, e in enumerate(events)]
    scenario = Scenario(name="what if", game=setup, events=tuple(parsed_events))
    report = ScenarioReport(scenario)
    state = build_state(setup)
    state, report.events = _play(state, scenario.events, deadline=deadline, budget=budget, path=WHAT_IF)
    report.state = state
    for q in questions:
        check_deadline(deadline, budget, WHAT_IF)
        asked = q if isinstance(q, Question) else read_question(setup, q)
        value, steps = answer(state, asked)
        report.answers.append(AnswerReport(asked, value, tuple(steps), key=str(asked)))
    return report


WHAT_IF = "<what-if>"


def read_question(setup: Setup, text: str) -> Question:
    """A what-if question read and checked against the table (one :class:`InputError` when it is not one)."""
    def fail(message: str) -> InputError:
        return InputError(WHAT_IF, message, key=text)

    return check_question(text, setup, fail)


def read_event(setup: Setup, i: int, item: str | dict[str, Any]) -> Event:
    """The i-th what-if event read and checked against the table (its place names it in an error)."""
    def fail(where: tuple[str | int, ...], message: str) -> InputError:
        return InputError(WHAT_IF, message, key=dotted(where))

    # read as a file's events are (hold beside the name too)
    name, arg = event_item(item, ("events", i), fail)
    return checked_event(
        name,
        arg,
        setup,
        lambda where, message: InputError(WHAT_IF, message, key=dotted(("events", i, name, *where))),
    )


@dataclass(frozen=True)
class CheckResult:
    path: Path
    report: ScenarioReport | None = None
    error: InputError | None = None


def check_paths(paths: Sequence[str | Path] = ()) -> list[CheckResult]:
    """Load and run every scenario under the paths (default: the whole library)."""
    found = find_scenario_files(list(paths) or [LIBRARY])
    results = [CheckResult(Path(problem.path or "."), error=problem) for problem in found.problems]
    for path in found.files:
        try:
            scenario = load_scenario(path)
            check_about(scenario)
        except InputError as error:
            results.append(CheckResult(path, error=error))
            continue
        results.append(CheckResult(path, run_scenario(scenario)))
    return results


def check_about(scenario: Scenario, corpus: Any = None) -> None:
    """Each rule number of the scenario's ``about`` names a rule of a loaded document (the CR, the
    Treachery rules...), else InputError naming its line; the corpus loads only when there is one."""
    if not scenario.about:
        return
    corpus = corpus if corpus is not None else default_corpus()
    documents = list(dict.fromkeys(document for document, _edition, _count in corpus.documents()))
    for i, number in enumerate(scenario.about):
        number = number.strip()
        if not any(corpus.numbered(number, document) for document in documents):
            line = scenario.about_lines[i] if i < len(scenario.about_lines) else None
            raise InputError(scenario.path, f"no rule {number} in the loaded rules", line=line,
                             key=f"about[{i}]")


_DEFAULT_CORPUS: list[Corpus] = []


def default_corpus() -> Corpus:
    """The corpus citations resolve against: ``corpus.store.load_corpus()`` (built-in documents and
    release, and the releases in the data folder), loaded once per process. It lives here, not in the
    rules model, because loading files is I/O and the model is pure."""
    if not _DEFAULT_CORPUS:
        _DEFAULT_CORPUS.append(load_corpus())
    return _DEFAULT_CORPUS[0]


def default_citation_corpus() -> Any:
    return default_corpus()
