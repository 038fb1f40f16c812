"""The Initiative (726; 723 in the 2024-06-07 rules): a designation like the monarch.

Only its leaving rule (726.4) is required by the scope; taking it (726.3, 726.5) and its inherent
triggers (726.2: venture at upkeep, combat damage steals it, taking it ventures) are modelled the same
way as the monarch's.

>>> from rulesjudge.scenarios.model.table import TableState
>>> state, steps = take_initiative(TableState(seats=("Ann", "Ben"), turn_player="Ann"), "Ben")
>>> state.initiative, [t.kind for t in state.pending]
('Ben', ['initiative-venture'])
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState, Trigger, frozen_map

UPKEEP = "initiative-upkeep"
STEAL = "initiative-steal"
VENTURE = "initiative-venture"


def take_initiative(state: TableState, player: str, why: str = "An effect") -> tuple[TableState, list[Step]]:
    """``player`` takes the initiative (726.3) and \"ventures into Undercity\" triggers (726.2, 726.5)."""
    if not state.is_in(player):
        return state, [Step(f"{player} has left the game, so can't take the initiative.", (cr("800.4a"),))]
    venture = Trigger(VENTURE, player, player, f"{player} ventures into Undercity", (cr("726.2"),))
    pending = (*state.pending, venture)
    if state.initiative == player:
        return state.with_(pending=pending), [
            Step(
                f"{why} has {player} take the initiative, which they already have: "
                "no second designation, but "
                '"whenever a player takes the initiative" triggers.',
                (cr("726.5"),),
            )
        ]
    before = state.initiative
    text = f"{why} has {player} take the initiative"
    text += f"; {before} ceases to have it." if before else "."
    return state.with_(initiative=player, pending=pending), [Step(text, (cr("726.3"), cr("726.2")))]


def upkeep_triggers(state: TableState) -> tuple[list[Trigger], list[Step]]:
    active = state.active
    if active is None or state.initiative != active:
        return [], [
            Step(
                "The active player doesn't have the initiative, so its upkeep ability doesn't trigger.",
                (cr("726.2"),),
            )
        ]
    return (
        [Trigger(UPKEEP, active, active, f"{active} ventures into Undercity (upkeep)", (cr("726.2"),))],
        [
            Step(
                f"{active} has the initiative as their upkeep begins: they venture into Undercity.",
                (cr("726.2"),),
            )
        ],
    )


def damage_triggers(
    state: TableState, sources: Sequence[str], damaged: str
) -> tuple[list[Trigger], list[Step]]:
    """One trigger per player whose creatures dealt combat damage to the holder (726.2)."""
    if state.initiative is None or damaged != state.initiative:
        return [], []
    triggers, steps = [], []
    for source in dict.fromkeys(sources):
        triggers.append(Trigger(STEAL, damaged, source, f"{source} takes the initiative", (cr("726.2"),)))
        steps.append(
            Step(
                f"Creatures {source} controls dealt combat damage to {damaged}, who has the "
                f'initiative: "the controller of those creatures takes the initiative" triggers, '
                f"controlled by {damaged}.",
                (cr("726.2"),),
            )
        )
    return triggers, steps


def resolve(state: TableState, trigger: Trigger) -> tuple[TableState, list[Step]]:
    if trigger.kind == STEAL:
        return take_initiative(state, trigger.player, why=f"The trigger controlled by {trigger.controller}")
    ventures = dict(state.ventures)
    ventures[trigger.player] = ventures.get(trigger.player, 0) + 1
    return state.with_(ventures=frozen_map(ventures)), [
        Step(f"{trigger.player} ventures into Undercity.", (cr("726.2"), cr("701.49")))
    ]


def answer_initiative(state: TableState) -> tuple[str | None, list[Step]]:
    if state.initiative is None:
        return None, [
            Step(
                "Nobody has the initiative (there is none until an effect has a player take it, "
                "or its holder left with nobody to take it).",
                (cr("726.1"), cr("726.4")),
            )
        ]
    return state.initiative, [
        Step(f"{state.initiative} has the initiative; only one player can have it.", (cr("726.3"),))
    ]
