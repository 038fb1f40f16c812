"""The Alternating Teams variant (811): teams of equal size seated so that no one is next to a teammate.

Recommended range of influence 2 (811.2a); one of attack left, right or multiple players (811.2b, attack
multiple players by default here); a player can attack only opponents seated next to them (811.4).

>>> equally_spaced(("A1", "B1", "C1", "A2", "B2", "C2"), ("A1", "A2"))
True
>>> equally_spaced(("A1", "A2", "B1", "B2"), ("A1", "A2"))
False
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, step
from rulesjudge.scenarios.model.table import Options, TableState, neighbour
from rulesjudge.scenarios.model.variant import SetupProblem, Variant, equal_teams


def equally_spaced(seats: Sequence[str], members: Sequence[str]) -> bool:
    """811.3: no one next to a teammate and the team equally spaced out around the table."""
    places = sorted(seats.index(p) for p in members)
    gaps = {(places[(i + 1) % len(places)] - places[i]) % len(seats) for i in range(len(places))}
    return len(gaps) == 1 and gaps.pop() > 1


class AlternatingTeams(Variant):
    """811: equal teams, teammates never seated side by side; attacks only on neighbours (811.4)."""

    name = "alternating-teams"
    title = "Alternating Teams"
    aliases = ("alt teams",)  # how players shorten it at the table
    cites = (cr("811.1"),)
    needs_teams = True
    teams_sit_together = False  # 811.3: the players field seats them, the teams field groups them
    min_players = 4
    min_players_rule = "811.1"  # two or more teams of equal size, no one next to a teammate (811.3)

    def default_teams(self, players: Sequence[str]) -> list[list[str]]:
        """Two teams seated alternately (811.3): every other seat.

        >>> AlternatingTeams().default_teams(["Ann", "Ben", "Cat", "Dan"])
        [['Ann', 'Cat'], ['Ben', 'Dan']]
        """
        even = len(players) - len(players) % 2
        return [list(players[:even:2]), list(players[1:even:2])]

    def default_options(self, setup: Setup) -> Options:
        return Options(range=2, attack="multiple", deploy=False)  # 811.2a-c

    def validate_setup(self, setup: Setup) -> list[SetupProblem]:
        return equal_teams(setup, "Alternating Teams", "811.1")

    def legal_setup(self, state: TableState) -> Answer:
        if len(state.teams) < 2:
            return False, [step("Alternating Teams needs two or more teams.", cr("811.1"))]
        for team in state.teams:
            if not equally_spaced(state.seats, team.members):
                return False, [
                    step(
                        f"Team {team.name} ({', '.join(team.members)}) is not seated so that no one is next "
                        "to a teammate, equally spaced out.",
                        cr("811.3"),
                    )
                ]
        return True, [
            step(
                "No one is next to a teammate and each team is equally spaced out.", cr("811.3"), cr("811.1")
            )
        ]

    def can_attack(self, state: TableState, attacker: str, defender: str) -> Answer:
        ok, steps = super().can_attack(state, attacker, defender)
        if not ok:
            return ok, steps
        near = {neighbour(state, attacker, 1), neighbour(state, attacker, -1)}
        if defender not in near:
            return False, [
                *steps,
                step(
                    f"{defender} is not seated next to {attacker}: a player can't attack opponents "
                    "who aren't seated next to them.",
                    cr("811.4"),
                ),
            ]
        return True, [*steps, step(f"{defender} is seated next to {attacker}.", cr("811.4"))]
