"""Libraries: how many cards each player has left, and drawing from them (121).

A setup may give each player's library as a count (``library: {Ann: 2}``); a player it leaves out has a
library the scenario doesn't count, which never runs out. Every draw - an effect's, the monarch's end-step
draw - is one card at a time (121.2) and takes from it; a player who attempts to draw from an empty library
draws nothing and loses the next time state-based actions are checked (121.4, 704.5b).

>>> from rulesjudge.scenarios.model.table import TableState, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",),
...                    library=frozen({"Ann": 2}))
>>> state, steps = draw_cards(state, "Ann", 3)
>>> state.library["Ann"], state.draws["Ann"], state.drew_from_empty
(0, 2, ('Ann',))
>>> draw_cards(state, "Ben", 5)[0].draws["Ben"]
5
"""

from __future__ import annotations

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import TableState, frozen, plural

Result = tuple[TableState, list[Step]]


def draw_cards(state: TableState, player: str, count: int = 1) -> Result:
    """``player`` draws ``count`` cards, one at a time (121.2): each takes the top card of a counted
    library; a draw from an empty one fails and marks the player for 704.5b at the next check (121.4)."""
    left = state.library.get(player)
    if left is None:
        return state.count("draws", player, count), []
    drawn = min(left, count)
    missed = count - drawn
    library = dict(state.library)
    library[player] = left - drawn
    state = state.with_(library=frozen(library))
    if drawn:
        state = state.count("draws", player, drawn)
    if not missed:
        left_now = plural(left - drawn, "card")
        return state, [step(f"{player} has {left_now} left in their library.", cr("121.1"))]
    state = state.with_(drew_from_empty=tuple(dict.fromkeys((*state.drew_from_empty, player))))
    had = f"draws {plural(drawn, 'card')}, then " if drawn else ""
    return state, [
        step(
            f"{player}'s library had {plural(left, 'card')}: {player} {had}attempts to draw from an empty "
            "library: that draw doesn't happen, and the next state-based check looks at it.",
            cr("121.2"),
            cr("121.4"),
            cr("704.5b"),
        )
    ]


def answer_library(state: TableState, player: str) -> Answer:
    """The cards left in ``player``'s library (None when the scenario doesn't count them)."""
    left = state.library.get(player)
    if left is None:
        return None, [step(f"The scenario doesn't count the cards in {player}'s library.", cr("401.1"))]
    gone = " (as they left the game)" if not state.is_in(player) else ""
    return left, [step(f"{player}'s library holds {plural(left, 'card')}{gone}.", cr("401.1"), cr("121.1"))]
