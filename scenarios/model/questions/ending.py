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


def _with_result(state: TableState, result: str, rule: str, nobody: str, some: str) -> Answer:
    """The players whose result is ``result`` ("won", "lost", "drew"), said as ``some`` (the players in
    place of ``{}``) with the rules that decided it, or ``nobody``; ``rule`` when no rule is recorded."""
    players = [p for p in state.seats if state.results.get(p) == result]
    if not players:
        return [], [step(nobody, cr(rule))]
    return players, [step(some.format(", ".join(players)), *_decided_by(state, players, cr(rule)))]


@general("winners", (), "players", "players who won (team members who had left included)")
def _winners(state: TableState) -> Answer:
    return _with_result(state, "won", "104.2", "Nobody has won the game.", "{} won the game.")


@general("losers", (), "players", "players who lost and did not win")
def _losers(state: TableState) -> Answer:
    return _with_result(state, "lost", "104.3", "Nobody has lost the game.", "Players who lost the game: {}.")


@general("drawn", (), "players", "players for whom the game was a draw and who did not win")
def _drawn(state: TableState) -> Answer:
    return _with_result(state, "drew", "104.4", "The game was a draw for nobody.",
                        "The game was a draw for: {}.")


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
