"""Questions about a table and the functions that answer them: ``answer(state, question) -> (value, steps)``.

A question is written ``name`` or ``name(arg, ...)``; each has argument kinds (player, permanent, or a
name of either) and an answer kind that says how answers compare (lists of players compare as sets,
except orders). The generic questions are registered here; a variant lists its own (``Variant.questions``)
and may answer any question its own way first (``Variant.answer``).

Where things live: the registry (:data:`QUESTIONS`, :func:`general`, :func:`question`, :func:`answer`) in
``questions/base.py``; the general questions by topic, registered in this order as their modules load:
designations, turns, ending, life, teams, attacks, permanents.

>>> from rulesjudge.scenarios.model.table import TableState
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> parse_question("in-range(Ann, Ben)")
Question(name='in-range', args=('Ann', 'Ben'))
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",))
>>> answer(state, parse_question("active"))[0]
'Ann'
"""

from __future__ import annotations

# Importing a topic registers its questions: this order is the order of QUESTIONS.
# isort: off
from rulesjudge.scenarios.model.questions import designations, turns, ending, life  # noqa: F401
from rulesjudge.scenarios.model.questions import teams, attacks, permanents  # noqa: F401
# isort: on

from rulesjudge.scenarios.model.questions.base import (
    KINDS,
    QUESTIONS,
    Question,
    QuestionError,
    QuestionSpec,
    answer,
    general,
    one_or_many,
    parse_question,
    question,
    register_questions,
)

__all__ = [
    "KINDS", "QUESTIONS", "Question", "QuestionError", "QuestionSpec", "answer", "general", "one_or_many",
    "parse_question", "question", "register_questions",
]
