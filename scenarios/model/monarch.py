"""The Monarch (725; 722 in the 2024-06-07 rules the Monarch page quotes) and its official rulings.

* There is no monarch until an effect makes a player the monarch (725.1); only one at a time (725.3).
* Two inherent triggered abilities with no source, controlled by whoever was the monarch when they
  triggered (725.2): the end-step draw, and combat damage to the monarch making the creature's
  controller the monarch.
* When the monarch leaves, the crown passes as they leave (725.4; see :mod:`scenarios.model.leaving`).

>>> from rulesjudge.scenarios.model.table import TableState
>>> state = TableState(seats=("Ann", "Ben"), turn_player="Ann")
>>> state, steps = become_monarch(state, "Ben")
>>> state.monarch, state.became_monarch["Ben"]
('Ben', 1)
"""

from __future__ import annotations

from rulesjudge.scenarios.model.citations import (
    RULING_BECOME_TRIGGERS,
    RULING_DRAW_STILL,
    RULING_INHERENT,
    RULING_NO_MONARCH,
    cr,
)
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState, Trigger, frozen_map

DRAW = "monarch-draw"
STEAL = "monarch-steal"


def become_monarch(state: TableState, player: str, why: str = "An effect") -> tuple[TableState, list[Step]]:
    """``player`` becomes the monarch; the current monarch ceases to be (725.3)."""
    if not state.is_in(player):
        return state, [Step(f"{player} has left the game, so can't become the monarch.", (cr("800.4a"),))]
    if state.monarch == player:
        return state, [
            Step(
                f"{why} makes {player} the monarch, but {player} already is: nothing changes, "
                "and abilities that trigger when a player becomes the monarch don't trigger.",
                (cr("725.3"), RULING_BECOME_TRIGGERS),
            )
        ]
    counts = dict(state.became_monarch)
    counts[player] = counts.get(player, 0) + 1
    before = state.monarch
    text = f"{why} makes {player} the monarch"
    text += f"; {before} ceases to be the monarch." if before else "."
    return (
        state.with_(monarch=player, became_monarch=frozen_map(counts), had_monarch=True),
        [Step(text, (cr("725.3"), RULING_NO_MONARCH))],
    )


def end_step_triggers(state: TableState) -> tuple[list[Trigger], list[Step]]:
    """As the active player's end step begins: the monarch's draw triggers if they are the monarch."""
    active = state.active
    if active is None:
        return [], [
            Step(
                "There is no active player (the player whose turn it is left), so this is no "
                "monarch's end step.",
                (cr("800.4j"), cr("725.2")),
            )
        ]
    if state.monarch is None:
        return [], [Step("There is no monarch, so nothing triggers.", (cr("725.1"),))]
    if state.monarch != active:
        return [], [
            Step(
                f"{active} is not the monarch ({state.monarch} is), so the monarch's draw doesn't trigger.",
                (cr("725.2"),),
            )
        ]
    trigger = Trigger(
        DRAW,
        active,
        active,
        f"{active} draws a card (the monarch's end step)",
        (cr("725.2"), RULING_INHERENT),
    )
    return [trigger], [
        Step(
            f"{active}'s end step begins and {active} is the monarch: \"that player draws a "
            f'card" triggers, controlled by {active}.',
            (cr("725.2"), RULING_INHERENT),
        )
    ]


def damage_trigger(state: TableState, source: str, damaged: str) -> tuple[list[Trigger], list[Step]]:
    """Combat damage from a creature ``source`` controls to the monarch triggers, controlled by the
    damaged monarch (725.2)."""
    if state.monarch is None or damaged != state.monarch:
        return [], []
    trigger = Trigger(
        STEAL,
        damaged,
        source,
        f"{source} becomes the monarch (combat damage to {damaged})",
        (cr("725.2"), RULING_INHERENT),
    )
    return [trigger], [
        Step(
            f"A creature {source} controls dealt combat damage to the monarch, {damaged}: "
            f'"its controller becomes the monarch" triggers, controlled by {damaged}, who '
            "was the monarch when it triggered.",
            (cr("725.2"), RULING_INHERENT),
        )
    ]


def resolve(state: TableState, trigger: Trigger) -> tuple[TableState, list[Step]]:
    if trigger.kind == DRAW:
        draws = dict(state.draws)
        draws[trigger.player] = draws.get(trigger.player, 0) + 1
        steps = [Step(f"The monarch's draw resolves: {trigger.player} draws a card.", (cr("725.2"),))]
        if state.monarch != trigger.player:
            steps.append(
                Step(
                    f"{trigger.player} is no longer the monarch, but the ability was controlled by "
                    "who was the monarch when it triggered, so they still draw.",
                    (RULING_DRAW_STILL, cr("725.2")),
                )
            )
        return state.with_(draws=frozen_map(draws)), steps
    state, steps = become_monarch(
        state, trigger.player, why=f"The trigger controlled by {trigger.controller}"
    )
    return state, steps


def answer_monarch(state: TableState) -> tuple[str | None, list[Step]]:
    waiting = Step("While there is no monarch, continuous effects based on who is the monarch do nothing "
                   "until a player becomes the monarch.", (cr("725.5"),))
    if state.monarch is None:
        if not state.had_monarch:
            return None, [Step("No effect has made anyone the monarch, so there is no monarch.",
                               (cr("725.1"), RULING_NO_MONARCH)), waiting]
        return None, [Step("The monarch left and no player still in the game could become the monarch, so "
                           "the game goes on with no monarch.", (cr("725.4"),)), waiting]
    text = f"{state.monarch} is the monarch; only one player can be the monarch at a time."
    steps = [Step(text, (cr("725.3"),))]
    if state.game_over:
        steps.append(
            Step(f"The game is over; {state.monarch} was the monarch when it ended.", (cr("104.1"),))
        )
    return state.monarch, steps
