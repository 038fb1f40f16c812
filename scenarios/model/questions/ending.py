"""Questions about the end of the game: whether it is over, who won, lost or drew, and
who could still win or lose."""

from __future__ import annotations

from rulesjudge.scenarios.model import ending
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.questions.base import general
from rulesjudge.scenarios.model.steps import Answer, step
from rulesjudge.scenarios.model.table import TableState


def _decided_by(state: TableState, players: list[str], fallback: Cite) -> tuple[Cite, ...]:
    rules = tuple(dict.fromkeys(c for p in players for c in state.result_rules.get(p, ())))
    return rules or (fallback,)


@general("game-over", (), "bool", "whether the game has ended")
def _game_over(state: TableState) -> Answer:
    if state.game_over:
        return True, [step("The game ended: a player or team won, or it was a draw.", cr("104.1"))]
    return False, [
        step(
            f"{len(state.in_game)} players are still in the game and more than one side remains, so the "
            "game goes on.",
            cr("800.4"),
            cr("104.2a"),
        )
    ]


@general("winners", (), "players", "players who won (team members who had left included)")
def _winners(state: TableState) -> Answer:
    won = [p for p in state.seats if state.results.get(p) == "won"]
    if not won:
        return [], [step("Nobody has won the game.", cr("104.2"))]
    return won, [step(f"{', '.join(won)} won the game.", *_decided_by(state, won, cr("104.2")))]


@general("losers", (), "players", "players who lost and did not win")
def _losers(state: TableState) -> Answer:
    lost = [p for p in state.seats if state.results.get(p) == "lost"]
    if not lost:
        return [], [step("Nobody has lost the game.", cr("104.3"))]
    return lost, [
        step(f"Players who lost the game: {', '.join(lost)}.", *_decided_by(state, lost, cr("104.3")))
    ]


@general("drawn", (), "players", "players for whom the game was a draw and who did not win")
def _drawn(state: TableState) -> Answer:
    drew = [p for p in state.seats if state.results.get(p) == "drew"]
    if not drew:
        return [], [step("The game was a draw for nobody.", cr("104.4"))]
    return drew, [
        step(f"The game was a draw for: {', '.join(drew)}.", *_decided_by(state, drew, cr("104.4")))
    ]


@general("result", ("player",), "str?", "won, lost, drew or null (still playing)")
def _result(state: TableState, player: str) -> Answer:
    result = state.results.get(player)
    rules = state.result_rules.get(player) or (cr("104.1"),)
    return result, [step(f"{player}: {result or 'still in the game'}.", *rules)]


@general("can-lose", ("player",), "bool", "could the player lose the game now (no effect stops it)")
def _can_lose(state: TableState, player: str) -> Answer:
    return ending.can_lose(state, player)


@general("can-win", ("player",), "bool", "could the player win the game now (no effect stops it)")
def _can_win(state: TableState, player: str) -> Answer:
    return ending.can_win(state, player)
