"""The Initiative (726; 723 in the 2024-06-07 rules): a designation like the monarch.

Taking it (726.3, 726.5), its inherent triggers (726.2: venture at upkeep, combat damage steals it, taking it
ventures) and its leaving rule (726.4, see :mod:`scenarios.model.leaving`).

>>> from rulesjudge.scenarios.model.table import TableState
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",))
>>> state, steps = take_initiative(state, "Ben")
>>> state.initiative, [t.kind for t in state.pending]
('Ben', ['initiative-venture'])
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.monarch import answer_choice, keep_choice
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import TableState, Trigger

UPKEEP = "initiative-upkeep"
STEAL = "initiative-steal"
VENTURE = "initiative-venture"
Result = tuple[TableState, list[Step]]


def venture_trigger(player: str) -> Trigger:
    """726.2: "Whenever a player takes the initiative, that player ventures into Undercity"."""
    return Trigger(VENTURE, player, player, f"{player} ventures into Undercity", (cr("726.2"),))


def take_initiative(
    state: TableState, player: str, why: str = "An effect", by: Trigger | None = None
) -> Result:
    """``player`` takes the initiative (726.3) and "ventures into Undercity" triggers (726.2, 726.5)."""
    state = keep_choice(state, "initiative", by)
    if not state.is_in(player):
        return state, [step(f"{player} has left the game, so can't take the initiative.", cr("800.4a"))]
    pending = (*state.pending, venture_trigger(player))
    if state.initiative == player:
        return state.with_(pending=pending), [
            step(
                f"{why} has {player} take the initiative, which they already have: no second designation, "
                f"but "
                '"whenever a player takes the initiative" triggers.',
                cr("726.5"),
            )
        ]
    before = state.initiative
    text = f"{why} has {player} take the initiative"
    text += f"; {before} ceases to have it." if before else "."
    return state.with_(initiative=player, pending=pending), [step(text, cr("726.3"), cr("726.2"))]


def upkeep_triggers(state: TableState) -> tuple[list[Trigger], list[Step]]:
    """At the beginning of the upkeep of the player who has the initiative (an active player; in a shared
    team turn, the team's upkeep is each of its players', 805.4)."""
    holder = state.initiative
    if holder is None or holder not in state.active_players:
        return [], [
            step(
                "The player who has the initiative is not an active player, so its upkeep ability "
                "doesn't trigger.",
                cr("726.2"),
            )
        ]
    team = len(state.active_players) > 1
    cites = (cr("726.2"), *((cr("805.4"),) if team else ()))
    whose = " (the team's turn is theirs: its upkeep is their upkeep)" if team else ""
    return (
        [Trigger(UPKEEP, holder, holder, f"{holder} ventures into Undercity (upkeep)", (cr("726.2"),))],
        [step(f"{holder} has the initiative as their upkeep begins{whose}: they venture into Undercity.",
              *cites)],
    )


def damage_triggers(
    state: TableState, sources: Sequence[str], damaged: str
) -> tuple[list[Trigger], list[Step]]:
    """One trigger per player whose creatures dealt combat damage to the holder (726.2: "that player" is
    fixed as it triggers)."""
    if state.initiative is None or damaged != state.initiative:
        return [], []
    triggers, steps = [], []
    for source in dict.fromkeys(sources):
        triggers.append(Trigger(STEAL, damaged, source, f"{source} takes the initiative", (cr("726.2"),)))
        steps.append(
            step(
                f"Creatures {source} controls dealt combat damage to {damaged}, who has the "
                'initiative: "the controller of those creatures takes the initiative" triggers, '
                f"controlled by {damaged}.",
                cr("726.2"),
            )
        )
    return triggers, steps


def resolve(state: TableState, trigger: Trigger) -> Result:
    if trigger.kind == STEAL:
        return take_initiative(
            state, trigger.player, why=f"The trigger controlled by {trigger.controller}", by=trigger
        )
    return state.count("ventures", trigger.player), [
        step(f"{trigger.player} ventures into Undercity.", cr("726.2"), cr("701.49"))
    ]


def answer_initiative(state: TableState) -> Answer:
    if state.initiative is None:
        return None, [
            step(
                "Nobody has the initiative (there is none until an effect has a player take it, or "
                "its holder left with nobody to take it).",
                cr("726.1"),
                cr("726.4"),
            )
        ]
    open_choice = answer_choice(state, "initiative", "with the initiative", cr("726.2"))
    if open_choice is not None:
        return open_choice
    return state.initiative, [
        step(f"{state.initiative} has the initiative; only one player can have it.", cr("726.3"))
    ]
