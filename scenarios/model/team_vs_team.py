"""The Team vs. Team variant (808): two or more teams of any size, each seated together.

Teammates, opponents and how a game between teams ends (102.3, 104.2c, 104.3g, 104.4d) are the general rules
of :mod:`scenarios.model.teams`; this variant adds who goes first (808.4) and its default options (808.3).

>>> starting_candidates((("Ann", "Ben", "Cat"), ("Dan", "Eve", "Fay", "Gus")))
('Ben', 'Fay')
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, step
from rulesjudge.scenarios.model.table import Options, TableState
from rulesjudge.scenarios.model.variant import Variant


def starting_candidates(teams: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """808.4: a random team goes first — its centre seat if it has an odd number of players, else the
    player to the left of its midpoint. Seats are listed clockwise and turn order goes to the left (the next
    seat), so for a team of ``n`` that is seat ``n // 2`` in both cases."""
    return tuple(members[len(members) // 2] for members in teams if members)


class TeamVsTeam(Variant):
    """808: two or more teams, each seated together; attack multiple players (808.3a)."""

    name = "team-vs-team"
    title = "Team vs. Team"
    cites = (cr("808.1"),)
    needs_teams = True
    min_players_rule = "808.1"  # two or more teams, of any size

    def default_options(self, setup: Setup) -> Options:
        return Options(attack="multiple", deploy=False)  # 808.3a, 808.3b

    def first_players(self, setup: Setup, seats: tuple[str, ...]) -> tuple[str, ...]:
        """808.4, the first listed team being the randomly chosen one when the setup doesn't say."""
        return starting_candidates([t.members for t in setup.teams]) or (seats[0],)

    def first_player_steps(self, state: TableState) -> list[Step]:
        picks = state.starting
        return [
            step(
                "A team is chosen at random; on a team with an odd number of players its centre seat goes "
                "first, "
                "on an even one the player to the left of its midpoint: " + ", ".join(picks) + ".",
                cr("808.4"),
                alternatives=tuple(Reading(f"{p} goes first.", p, (cr("808.4"),)) for p in picks),
            )
        ]

    def legal_setup(self, state: TableState) -> Answer:
        """Team vs. Team needs two or more teams; a team may have any number of players (808.1)."""
        if len(state.teams) < 2:
            return False, [step("Team vs. Team needs two or more teams.", cr("808.1"))]
        return True, [step("Two or more teams, each of any size: a legal Team vs. Team table.", cr("808.1"))]
