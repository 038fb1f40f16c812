"""The Monarch (725; 722 in the 2024-06-07 rules the Monarch page quotes) and its official rulings.

* There is no monarch until an effect makes a player the monarch (725.1); only one at a time (725.3).
* Two inherent triggered abilities with no source, controlled by whoever was the monarch when they
  triggered (725.2): the end-step draw, and combat damage to the monarch making the creature's
  controller the monarch — its controller as the ability resolves (608.2h).
* When the monarch leaves, the crown passes as they leave (725.4; see :mod:`scenarios.model.leaving`).

>>> from rulesjudge.scenarios.model.table import TableState
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",))
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
    Cite,
    cr,
)
from rulesjudge.scenarios.model.library import draw_cards
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import TableState, Trigger, frozen

DRAW = "monarch-draw"
STEAL = "monarch-steal"
Result = tuple[TableState, list[Step]]


def become_monarch(
    state: TableState, player: str, why: str = "An effect", by: Trigger | None = None
) -> Result:
    """``player`` becomes the monarch; the current monarch ceases to be (725.3). A choice left open by the
    order of steal triggers (``state.choices``) stays only while those triggers (``by``) resolve."""
    state = keep_choice(state, "monarch", by)
    if not state.is_in(player):
        return state, [step(f"{player} has left the game, so can't become the monarch.", cr("800.4a"))]
    if state.monarch == player:
        return state, [
            step(
                f"{why} makes {player} the monarch, but {player} already is: nothing changes, and "
                "abilities that trigger when a player becomes the monarch don't trigger.",
                cr("725.3"),
                RULING_BECOME_TRIGGERS,
            )
        ]
    before = state.monarch
    text = f"{why} makes {player} the monarch"
    text += f"; {before} ceases to be the monarch." if before else "."
    state = state.count("became_monarch", player).with_(monarch=player, had_monarch=True)
    return state, [step(text, cr("725.3"), RULING_NO_MONARCH)]


def end_step_triggers(state: TableState) -> tuple[list[Trigger], list[Step]]:
    """As the active player's end step begins, the monarch's draw triggers if the monarch is an active
    player (in a shared team turn, the team's end step is each of its players', 805.4)."""
    active = state.active_players
    if not active:
        return [], [
            step(
                "There is no active player (the player whose turn it is left), so this is no "
                "monarch's end step.",
                cr("800.4j"),
                cr("725.2"),
            )
        ]
    if state.monarch is None:
        return [], [step("There is no monarch, so nothing triggers.", cr("725.1"))]
    monarch = state.monarch
    if monarch not in active:
        return [], [
            step(
                f"It is not the monarch's end step ({monarch} is the monarch), so the monarch's draw "
                "doesn't trigger.",
                cr("725.2"),
            )
        ]
    team = " (the turn is their team's: it is their end step too)" if len(active) > 1 else ""
    trigger = Trigger(
        DRAW,
        monarch,
        monarch,
        f"{monarch} draws a card (the monarch's end step)",
        (cr("725.2"), RULING_INHERENT),
    )
    cites = (cr("725.2"), RULING_INHERENT, *((cr("805.4"),) if team else ()))
    return [trigger], [
        step(
            f"{monarch}'s end step begins and {monarch} is the monarch{team}: \"that player "
            f'draws a card" triggers, controlled by {monarch}.',
            *cites,
        )
    ]


def damage_trigger(
    state: TableState, controller: str, damaged: str, creature: str | None
) -> tuple[list[Trigger], list[Step]]:
    """Combat damage from a creature (``controller`` controls it now) to the monarch triggers, controlled by
    the damaged monarch (725.2). ``creature`` is None for a creature the scenario doesn't name."""
    if state.monarch is None or damaged != state.monarch:
        return [], []
    what = creature or f"A creature {controller} controls"
    trigger = Trigger(
        STEAL,
        damaged,
        controller,
        f"{creature or 'the creature'}'s controller becomes the monarch (combat damage to {damaged})",
        (cr("725.2"), RULING_INHERENT),
        creature=creature,
    )
    return [trigger], [
        step(
            f'{what} dealt combat damage to the monarch, {damaged}: "its controller becomes the '
            f'monarch" triggers, controlled by {damaged}, who was the monarch when it '
            "triggered.",
            cr("725.2"),
            RULING_INHERENT,
        )
    ]


def steal_gainer(state: TableState, trigger: Trigger) -> tuple[str, list[Step]]:
    """Who "its controller" is as the steal trigger resolves: the creature's controller now if it is still
    on the battlefield, else its last controller there (608.2h)."""
    if trigger.creature is None or trigger.creature not in state.permanents:
        return trigger.player, []
    creature = state.permanents[trigger.creature]
    if creature.on_battlefield:
        now = creature.current_controller
        if now == trigger.player:
            return now, []
        return now, [
            step(
                f"{trigger.creature} is controlled by {now} as the ability resolves, so {now} is "
                '"its controller".',
                cr("608.2h"),
                cr("725.2"),
            )
        ]
    last = creature.last_controller or creature.controller
    return last, [
        step(
            f"{trigger.creature} is no longer on the battlefield: its controller as it last existed "
            f"there, {last}, is used.",
            cr("608.2h"),
            cr("113.7a"),
        )
    ]


def resolve(state: TableState, trigger: Trigger) -> Result:
    if trigger.kind == DRAW:
        state, drawn = draw_cards(state, trigger.player)
        steps = [step(f"The monarch's draw resolves: {trigger.player} draws a card.", cr("725.2")), *drawn]
        if state.monarch != trigger.player:
            steps.append(
                step(
                    f"{trigger.player} is no longer the monarch, but the ability was controlled by who "
                    "was the monarch when it triggered, so they still draw.",
                    RULING_DRAW_STILL,
                    cr("725.2"),
                )
            )
        return state, steps
    gainer, steps = steal_gainer(state, trigger)
    state, more = become_monarch(
        state, gainer, why=f"The trigger controlled by {trigger.controller}", by=trigger
    )
    return state, steps + more


def answer_choice(state: TableState, what: str, words: str, rule: Cite) -> Answer | None:
    """The answer ``{chosen-by, one-of}`` while the order of triggers a player (team) controls decides who
    holds a designation (603.3b, 805.7); None when nothing is left open."""
    choice = state.choices.get(what)
    if choice is None:
        return None
    who = " and ".join(choice.chosen_by)
    return choice.as_data(), [
        step(
            f"Which of {', '.join(choice.one_of)} ends up {words} depends on the order {who} "
            "put the triggers on the stack: the one put there first resolves last.",
            cr("603.3b"),
            rule,
        )
    ]


def keep_choice(state: TableState, what: str, by: Trigger | None) -> TableState:
    """Forget the open choice about ``what`` unless ``by`` is one of the triggers whose order makes it."""
    choice = state.choices.get(what)
    if choice is None or (by is not None and by.serial in choice.serials):
        return state
    return state.with_(choices=frozen({k: v for k, v in state.choices.items() if k != what}))


def answer_monarch(state: TableState) -> Answer:
    waiting = step(
        "While there is no monarch, continuous effects based on who is the monarch do nothing "
        "until a player becomes the monarch.",
        cr("725.5"),
    )
    if state.monarch is None:
        if not state.had_monarch:
            return None, [
                step(
                    "No effect has made anyone the monarch, so there is no monarch.",
                    cr("725.1"),
                    RULING_NO_MONARCH,
                ),
                waiting,
            ]
        return None, [
            step(
                "The monarch left and no player still in the game could become the monarch, so "
                "the game goes on with no monarch.",
                cr("725.4"),
            ),
            waiting,
        ]
    open_choice = answer_choice(state, "monarch", "the monarch", cr("725.2"))
    if open_choice is not None:
        return open_choice
    steps = [
        step(f"{state.monarch} is the monarch; only one player can be the monarch at a time.", cr("725.3"))
    ]
    if state.game_over:
        steps.append(step(f"The game is over; {state.monarch} was the monarch when it ended.", cr("104.1")))
    return state.monarch, steps
