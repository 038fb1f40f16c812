"""A table: a scenario's setup parsed and its events played once, then asked as many questions as needed.

Before, each service took the ``game:`` mapping and the events and replayed them for every question it asked
(the facts for the what-if reader, the picture, the identity cards, the answers, the what-if itself): six to
eight replays for one rerun of the checker page. A :class:`Table` plays them once, keeps the state after each
event (states are frozen, so keeping them is free of aliasing), and answers from the state it holds.
:meth:`Table.then` extends it by a what-if's events, playing only those, and returns a new table.

>>> table = Table.of({"players": ["Ann", "Ben", "Cat"], "monarch": "Cat"}, [{"leaves": "Ben"}])
>>> table.values(["monarch", "in-game"])
{'monarch': 'Cat', 'in-game': ['Ann', 'Cat']}
>>> after = table.then([{"concedes": "Cat"}])
>>> after.values(["monarch"]), table.values(["monarch"])  # the first table is unchanged
({'monarch': 'Ann'}, {'monarch': 'Cat'})
>>> after.played, len(after.events), after.upto(1).values(["in-game"])
(2, 2, {'in-game': ['Ann', 'Cat']})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import Scenario, setup_from_data
from rulesjudge.scenarios.limits import MAX_EVENTS, MAX_QUESTIONS, TIME_BUDGET_SECONDS
from rulesjudge.scenarios.model import Setup, answer, apply, build_state
from rulesjudge.scenarios.model.events import Event
from rulesjudge.scenarios.model.table import TableState
from rulesjudge.scenarios.runner import (
    WHAT_IF,
    AnswerReport,
    EventReport,
    ScenarioReport,
    check_deadline,
    deadline_after,
    read_event,
    read_question,
)


@dataclass(frozen=True)
class Table:
    """A game's setup and events, played; the model's state after each event. Build with :meth:`of`.

    ``game`` is the ``game:`` mapping as the form and the files give it (the picture and the search read its
    seats and variant from it); ``events`` the items as given (format items or model events).
    """

    game: Mapping[str, Any]
    events: tuple[Any, ...]
    setup: Setup
    parsed: tuple[Event, ...]
    reports: tuple[EventReport, ...]
    states: tuple[TableState, ...] = field(repr=False)  # the state before any event, then after each

    @classmethod
    def of(cls, game: Mapping[str, Any], events: Sequence[Any] = ()) -> Table:
        """Set up ``game`` and play ``events`` (bad input raises InputError naming the key; so does a table
        running past the time budget of ``scenarios.limits``, so no table can hold the server)."""
        setup = setup_from_data(dict(game))
        empty = cls(dict(game), (), setup, (), (), (build_state(setup),))
        return empty.then(events)

    @property
    def state(self) -> TableState:
        """The model's state after the table's events."""
        return self.states[-1]

    @property
    def played(self) -> int:
        """How many events this table and the tables it extends played (the parsed ones)."""
        return len(self.parsed)

    def then(self, events: Sequence[Any]) -> Table:
        """This table after more ``events`` (a what-if's): only those are played; ``self`` is unchanged.
        Errors name an event by its place after the table's own, as a scenario file's would."""
        if not events:
            return self
        if len(self.events) + len(events) > MAX_EVENTS:
            raise InputError(WHAT_IF, f"{len(self.events) + len(events)} events: a scenario plays at most "
                                      f"{MAX_EVENTS}")
        start = len(self.events)
        parsed = tuple(e if isinstance(e, Event) else read_event(self.setup, start + i, e)
                       for i, e in enumerate(events))
        state, reports, states = self.state, list(self.reports), list(self.states)
        deadline = deadline_after(TIME_BUDGET_SECONDS)
        for event in parsed:  # the state after each is kept (the picture's slider)
            check_deadline(deadline, TIME_BUDGET_SECONDS, WHAT_IF)
            state, steps = apply(state, event)
            reports.append(EventReport(event, tuple(steps), None))
            states.append(state)
        return Table(self.game, (*self.events, *events), self.setup, (*self.parsed, *parsed), tuple(reports),
                     tuple(states))

    def upto(self, n: int) -> Table:
        """The table after its first ``n`` events, from the states it keeps (nothing is replayed)."""
        n = max(0, min(n, len(self.events)))
        return Table(self.game, self.events[:n], self.setup, self.parsed[:n], self.reports[:n],
                     self.states[:n + 1])

    def ask(self, questions: Sequence[str]) -> list[AnswerReport]:
        """The model's answers to ``questions`` (scenario-format texts) about the table now, in order."""
        if len(questions) > MAX_QUESTIONS:
            raise InputError(WHAT_IF, f"{len(questions)} questions: at most {MAX_QUESTIONS} at a time")
        deadline = deadline_after(TIME_BUDGET_SECONDS)
        answers = []
        for text in questions:
            check_deadline(deadline, TIME_BUDGET_SECONDS, WHAT_IF)
            asked = read_question(self.setup, text)
            value, steps = answer(self.state, asked)
            answers.append(AnswerReport(asked, value, tuple(steps), key=str(asked)))
        return answers

    def values(self, questions: Sequence[str]) -> dict[str, Any]:
        """Each question's value by its text (the model's notation)."""
        return {str(a.question): a.value for a in self.ask(questions)}

    def report(self, questions: Sequence[str] = ()) -> ScenarioReport:
        """The runner's report, as ``scenarios.runner.evaluate`` gives it: the events (each with the steps it
        caused), the answers to ``questions`` and the state."""
        scenario = Scenario(name="what if", game=self.setup, events=self.parsed)
        return ScenarioReport(scenario, list(self.reports), self.ask(questions), state=self.state)
