"""Questions about the designations: the monarch and the initiative."""

from __future__ import annotations

from rulesjudge.scenarios.model import monarch
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.initiative import answer_initiative
from rulesjudge.scenarios.model.questions.base import general
from rulesjudge.scenarios.model.steps import Answer, step
from rulesjudge.scenarios.model.table import TableState, plural


@general("monarch", (), "choice", "who is the monarch (null: nobody; a choice where trigger order decides)")
def _monarch(state: TableState) -> Answer:
    return monarch.answer_monarch(state)


@general("initiative", (), "choice", "who has the initiative (null: nobody)")
def _initiative(state: TableState) -> Answer:
    return answer_initiative(state)


@general(
    "became-monarch",
    ("player",),
    "int",
    'times the player became the monarch ("becomes the monarch" triggers)',
)
def _became(state: TableState, player: str) -> Answer:
    from_ruling = monarch.RULING_BECOME_TRIGGERS
    n = state.became_monarch.get(player, 0)
    return n, [
        step(
            f"{player} became the monarch {plural(n, 'time')}; abilities that trigger when a player becomes "
            "the monarch trigger only when they weren't already.",
            from_ruling,
            cr("603.2e"),
        )
    ]
