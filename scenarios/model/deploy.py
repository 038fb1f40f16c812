"""The deploy creatures option (804): "{T}: Target teammate gains control of this creature. Activate only
as a sorcery." (804.2) — used by the Emperor variant (809.3b), allowed in other team variants (804.1).

>>> from rulesjudge.scenarios.model.table import TableState, Team, Permanent, Options, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben", "Cat"), variant=FreeForAll(), turn_players=("Ann",),
...                    options=Options(deploy=True), teams=(Team("A", ("Ann", "Ben")),),
...                    permanents=frozen({"Bear": Permanent("Bear", "Ann", "Ann")}))
>>> [text for text, _ in deploy_problems(state, "Bear", "Ben")]
[]
>>> [text for text, _ in deploy_problems(state, "Bear", "Cat")]
['Cat is not a teammate of Ann, who controls Bear']
"""

from __future__ import annotations

from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.influence import within_range
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState
from rulesjudge.scenarios.model.turns import sorcery_timing_problems


def deploy_problems(state: TableState, permanent: str, to: str) -> list[tuple[str, Cite]]:
    """Why the controller of ``permanent`` can't deploy it to ``to`` now (empty: they can)."""
    perm = state.permanents.get(permanent)
    if perm is None or not perm.on_battlefield:
        return [(f"{permanent} is not on the battlefield", cr("804.2"))]
    variant = state.variant
    owner = perm.current_controller
    problems: list[tuple[str, Cite]] = []
    if not state.options.deploy:
        problems.append(("the deploy creatures option isn't used in this game", cr("804.1")))
    if not state.is_in(to):
        problems.append((f"{to} has left the game", cr("800.4b")))
    else:
        mates, _ = variant.teammates(state, owner)
        if to not in mates:
            problems.append((f"{to} is not a teammate of {owner}, who controls {permanent}", cr("804.2")))
        reach = variant.range_of(state, owner)
        if reach is not None:
            inside = state.influence.get(owner) or within_range(state, owner, reach)
            if to not in inside:
                problems.append(
                    (f"{to} is outside {owner}'s range of influence, so can't be targeted", cr("801.4"))
                )
    if perm.tapped:
        problems.append((f"{permanent} is tapped, and {{T}} is part of the cost", cr("107.5")))
    elif perm.since >= state.turn:
        problems.append(
            (
                f"{owner} hasn't controlled {permanent} continuously since their most recent turn "
                "began, so its {T} ability can't be activated",
                cr("302.6"),
            )
        )
    for text, rule in sorcery_timing_problems(state, owner):
        problems.append((f"it is activated only as a sorcery (602.5d), and {text}", rule))
    return problems


def deploy_answer(state: TableState, permanent: str, to: str) -> tuple[bool, list[Step]]:
    problems = deploy_problems(state, permanent, to)
    if not problems:
        owner = state.permanents[permanent].current_controller
        text = f"{owner} may tap {permanent} to give its teammate {to} control of it, as a sorcery."
        return True, [Step(text, (cr("804.2"),))]
    return False, [
        Step(f"Can't deploy {permanent} to {to}: {text}.", (cr("804.2"), rule)) for text, rule in problems
    ]
