"""The executable rules model: a table state, events that change it, questions that read it.

Pure functions over a frozen state (python-chess style)::

    state = build_state(setup)
    state, steps = apply(state, event)
    value, steps = answer(state, question)

Each step is a short sentence plus the rules it applied (:class:`Step`, :class:`Cite`); the helpers that
make citations (``cr``, ``ruling``, ``treachery``) live in :mod:`scenarios.model.citations`, so that
``scenarios.model.treachery`` always names the Treachery variant module.
"""

from __future__ import annotations

from rulesjudge.scenarios.model.build import build_state
from rulesjudge.scenarios.model.citations import Cite, Resolved, resolve
from rulesjudge.scenarios.model.events import EVENT_TYPES, Event, parse_event
from rulesjudge.scenarios.model.game import apply
from rulesjudge.scenarios.model.questions import QUESTIONS, Question, answer, parse_question
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.table import Identity, Options, Permanent, TableState, Team, Trigger
from rulesjudge.scenarios.model.variants import VARIANTS, FreeForAll, SetupProblem, Variant, register_variant

__all__ = [
    "EVENT_TYPES",
    "QUESTIONS",
    "VARIANTS",
    "Cite",
    "Event",
    "FreeForAll",
    "Identity",
    "Options",
    "Permanent",
    "Question",
    "Reading",
    "Resolved",
    "SetupProblem",
    "Step",
    "TableState",
    "Team",
    "Trigger",
    "Variant",
    "answer",
    "apply",
    "build_state",
    "parse_event",
    "parse_question",
    "register_variant",
    "resolve",
]
