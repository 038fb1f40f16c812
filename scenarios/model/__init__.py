"""The executable rules model: a table state, events that change it, questions that read it.

Pure functions over a frozen state (python-chess style)::

    state = build_state(setup)            # a Setup: from a scenario file (scenarios.format) or the app's form
    state, steps = apply(state, event)
    value, steps = answer(state, question)

Each step is a short sentence plus the rules it applied (:class:`Step`, :class:`Cite`).

This module is the registry: the core (``variant``, ``game``, ``questions``, ``events`` and the rules modules)
never imports the variant modules; they import the core, and are registered here, with their own events and
questions. A new variant is a module with a :class:`Variant` subclass, added to :data:`VARIANTS` below.

>>> sorted(VARIANTS)[:3]
['alternating-teams', 'commander', 'emperor']
>>> state = build_state(Setup(players=["Ann", "Ben", "Cat"], monarch="Cat"))
>>> state, steps = apply(state, parse_event("leaves", "Cat"))
>>> answer(state, parse_question("monarch"))[0]
'Ann'
"""

from __future__ import annotations

from rulesjudge.scenarios.model.alternating_teams import AlternatingTeams
from rulesjudge.scenarios.model.build import build
from rulesjudge.scenarios.model.citations import Cite, Resolved, resolve
from rulesjudge.scenarios.model.emperor import Emperor
from rulesjudge.scenarios.model.events import EVENT_TYPES, Event, parse_event, register_events
from rulesjudge.scenarios.model.game import apply
from rulesjudge.scenarios.model.grand_melee import GrandMelee
from rulesjudge.scenarios.model.questions import (
    QUESTIONS,
    Question,
    answer,
    parse_question,
    register_questions,
)
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.table import TableState
from rulesjudge.scenarios.model.team_vs_team import TeamVsTeam
from rulesjudge.scenarios.model.treachery import Treachery
from rulesjudge.scenarios.model.two_headed_giant import TwoHeadedGiant
from rulesjudge.scenarios.model.variant import Commander, FreeForAll, SetupProblem, Variant

#: Every variant the model knows, by its scenario-format name.
VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        FreeForAll(),
        Commander(),
        TeamVsTeam(),
        Emperor(),
        TwoHeadedGiant(),
        Treachery(),
        GrandMelee(),
        AlternatingTeams(),
    )
}
for _variant in VARIANTS.values():
    register_events(*_variant.events)
    register_questions(*_variant.questions)


def build_state(setup: Setup) -> TableState:
    """The table as the scenario starts, under the rules of the setup's variant."""
    return build(setup, VARIANTS[setup.variant])


__all__ = [
    "EVENT_TYPES",
    "QUESTIONS",
    "VARIANTS",
    "Cite",
    "Event",
    "Question",
    "Reading",
    "Resolved",
    "Setup",
    "SetupProblem",
    "Step",
    "TableState",
    "Variant",
    "answer",
    "apply",
    "build_state",
    "parse_event",
    "parse_question",
    "resolve",
]
