"""Teams in general: teammates and opponents (102.2, 102.3), and how a game ends (104.2a, 104.2c, 104.3g,
104.4a, 104.4d).

A game without teams is a game among individuals: each player is a side of their own. With teams, a
side is a team. A side is still in the game while one of its players is; the game ends when one side
is left (it wins: every member, also those who had already lost, 104.2c) or none (a draw, 104.4a).

>>> from rulesjudge.scenarios.model.table import TableState, Team
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben", "Cat", "Dan"), variant=FreeForAll(), turn_players=("Ann",),
...                    teams=(Team("A", ("Ann", "Ben")), Team("B", ("Cat", "Dan"))))
>>> teammates_of(state, "Ann")
('Ben',)
>>> opponents_of(state, "Ann", ("Ben",))
('Cat', 'Dan')
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState, Team, frozen


def team_containing(state: TableState, player: str) -> Team | None:
    return next((t for t in state.teams if player in t.members), None)


def teammates_of(state: TableState, player: str) -> tuple[str, ...]:
    """The other players on ``player``'s team who are still in the game (102.3)."""
    team = team_containing(state, player)
    if team is None:
        return ()
    return tuple(p for p in team.members if p != player and state.is_in(p))


def opponents_of(state: TableState, player: str, teammates: Sequence[str]) -> tuple[str, ...]:
    """Players still in the game who are not ``player`` nor on their team (102.2, 102.3)."""
    return tuple(p for p in state.in_game if p != player and p not in teammates)


def teammates_steps(state: TableState, player: str, mates: Sequence[str]) -> list[Step]:
    if not state.teams:
        return [
            Step(
                f"This is a game among individuals, so {player} has no teammates.", (cr("806.1"), cr("102.3"))
            )
        ]
    team = team_containing(state, player)
    if team is None:
        return [Step(f"{player} is on no team, so has no teammates.", (cr("102.3"),))]
    gone = [p for p in team.members if p != player and not state.is_in(p)]
    text = f"{player}'s teammates are the other players on team {team.name} still in the game"
    text += f": {', '.join(mates)}." if mates else ": none."
    if gone:
        text += f" ({', '.join(gone)} left the game.)"
    return [Step(text, (cr("102.3"),))]


def opponents_steps(state: TableState, player: str, foes: Sequence[str]) -> list[Step]:
    rule = cr("102.2") if len(state.seats) == 2 else cr("102.3")
    listed = ", ".join(foes) if foes else "none"
    return [
        Step(f"{player}'s opponents are the players still in the game not on their team: {listed}.", (rule,))
    ]


def sides(state: TableState) -> list[tuple[str, ...]]:
    """The sides that win or lose together: the teams, plus each player on no team by themselves."""
    teamed = {p for t in state.teams for p in t.members}
    result = [t.members for t in state.teams]
    result.extend((p,) for p in state.seats if p not in teamed)
    return result


def end_game(state: TableState, winning: Sequence[str], steps: list[Step]) -> tuple[TableState, list[Step]]:
    """End the game with ``winning`` as its winners (104.1); the players still in it leave as it ends. The
    rules the steps cite are what the ``winners`` answer cites."""
    results, left, rules = dict(state.results), dict(state.left), dict(state.result_rules)
    decided = tuple(dict.fromkeys(c for s in steps for c in s.cites))
    for player in winning:
        results[player] = "won"
        rules[player] = decided
    for player in state.in_game:
        left[player] = results.get(player, "won" if player in winning else "ended")
    ended = state.with_(
        results=frozen(results),
        left=frozen(left),
        result_rules=frozen(rules),
        game_over=True,
        stack=(),
        pending=(),
        priority=None,
        passed=(),
    )
    return ended, steps


def settle_game_end(state: TableState, all_sides: list[tuple[str, ...]]) -> tuple[TableState, list[Step]]:
    """104.2a / 104.2c: when only one side has a player in the game, that side wins; when no player is
    left, the game has ended in a draw (104.4a)."""
    if state.game_over:
        return state, []
    live = [side for side in all_sides if any(state.is_in(p) for p in side)]
    if len(live) > 1:
        return state, []
    if not live:
        return state.with_(game_over=True, stack=(), pending=()), [
            Step("No player is left in the game, so the game is over.", (cr("104.1"), cr("104.4a")))
        ]
    side = live[0]
    if len(side) == 1 or not state.teams:
        winner = [p for p in side if state.is_in(p)]
        return end_game(
            state,
            winner,
            [
                Step(
                    f"All of {winner[0]}'s opponents have left the game, so {winner[0]} wins the game.",
                    (cr("104.2a"),),
                )
            ],
        )
    team = next(t for t in state.teams if t.members == side)
    earlier = [p for p in side if not state.is_in(p)]
    members = ", ".join(team.members)
    text = f"Every other team has left the game, so team {team.name} ({members}) wins: each of its players"
    text += " wins"
    text += f", also {', '.join(earlier)}, who had left." if earlier else "."
    return end_game(state, list(side), [Step(text, (cr("104.2c"),))])
