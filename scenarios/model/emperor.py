"""The Emperor variant (809) and the deploy creatures option it uses (804).

Teams of three (or any equal size, 809.6) sit together; each has an emperor in its middle and generals
around them (809.2). Emperors have range of influence 2 and generals 1 (809.3a), or the ranges of 809.6a for
larger teams; a player can attack only an opponent seated immediately next to them (809.3c); every
creature can be deployed to a teammate (804.2); a team wins, loses or draws with its emperor (809.5).

The seating rule lives here once: a team's emperor is the one named, else the player in its middle seat.

>>> middle_seat(("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"), ("Dan", "Eve", "Fay"))
'Eve'
>>> seated_together(("Ann", "Dan", "Ben", "Eve", "Cat", "Fay"), ("Ann", "Ben", "Cat")) is None
True
>>> teams = {"A": ("Ann", "Ben", "Cat"), "B": ("Dan", "Eve", "Fay")}
>>> ranges_of(("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"), teams, {"A": "Ben", "B": "Eve"})[0]
{'Ann': 1, 'Ben': 2, 'Cat': 1, 'Dan': 1, 'Eve': 2, 'Fay': 1}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.leaving import leave
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, step
from rulesjudge.scenarios.model.table import Options, TableState, Team, frozen, seat_distance
from rulesjudge.scenarios.model.variant import SetupProblem, Variant

Result = tuple[TableState, list[Step]]


def seated_together(seats: Sequence[str], members: Sequence[str]) -> tuple[str, ...] | None:
    """The team's members in seat order if they sit in consecutive seats around the table (809.2), else
    None."""
    n = len(seats)
    inside = [seats[i] in members for i in range(n)]
    if all(inside):
        return tuple(seats)
    starts = [i for i in range(n) if inside[i] and not inside[i - 1]]
    if len(starts) != 1:
        return None
    i = starts[0]
    return tuple(seats[(i + k) % n] for k in range(len(members)))


def middle_seat(seats: Sequence[str], members: Sequence[str]) -> str:
    """The player seated in the middle of a team (809.2): by seats when the team sits together, else by the
    order the team is listed; the left one of the two middle seats of an even team."""
    block = seated_together(seats, members) or tuple(members)
    return block[len(block) // 2]


def in_middle(seats: Sequence[str], members: Sequence[str], player: str) -> bool:
    """Does ``player`` sit in the middle of the team (either central seat of an even team)?"""
    block = seated_together(seats, members)
    if block is None:
        return False
    n = len(block)
    middle = {block[n // 2]} if n % 2 else {block[n // 2 - 1], block[n // 2]}
    return player in middle


def emperors_of(setup: Setup) -> dict[str, str]:
    """Each team's emperor by team name: the one named, else the middle player (809.2)."""
    return {
        name: team.emperor or middle_seat(setup.seats, team.members)
        for name, team in zip(setup.team_names(), setup.teams, strict=True)
    }


def ranges_of(
    seats: Sequence[str], teams: Mapping[str, Sequence[str]], emperors: Mapping[str, str]
) -> tuple[dict[str, int], list[Step]]:
    """Each player's range of influence (809.3a for teams of three, computed by 809.6a otherwise): a general's
    range is the smallest that reaches one general of an opposing team at the start of the game; an emperor's
    the smallest that reaches two such generals."""
    if all(len(m) == 3 for m in teams.values()):
        result = {p: (2 if p in emperors.values() else 1) for p in seats}
        return result, [step("Emperors have range of influence 2 and generals 1.", cr("809.3a"))]
    team_of = {p: name for name, members in teams.items() for p in members}
    result = {}
    for player in seats:
        generals = sorted(
            seat_distance(seats, player, other)
            for other in seats
            if team_of.get(other) != team_of.get(player) and other not in emperors.values()
        )
        needed = 2 if player in emperors.values() else 1
        result[player] = generals[needed - 1] if len(generals) >= needed else max(1, len(seats) // 2)
    why = step(
        "Teams of more than three: each general's range is the least that reaches one opposing general at "
        "the "
        "start of the game, each emperor's the least that reaches two: "
        + ", ".join(f"{p} {r}" for p, r in result.items())
        + ".",
        cr("809.6a"),
    )
    return result, [why]


def legal_setup(
    seats: Sequence[str], teams: Mapping[str, Sequence[str]], emperors: Mapping[str, str]
) -> Answer:
    """Does the table follow 809.1, 809.2 (each team together, its emperor in the middle), 809.6 and 809.6a's
    seating advice (no emperor within another's range)?"""
    sizes = {len(m) for m in teams.values()}
    if len(teams) < 2:
        return False, [step("The Emperor variant needs two or more teams.", cr("809.1"))]
    if len(sizes) != 1 or min(sizes) < 3:
        return False, [
            step("Teams must be of three players, or of any equal size.", cr("809.1"), cr("809.6"))
        ]
    for name, members in teams.items():
        if seated_together(seats, members) is None:
            return False, [
                step(
                    f"Team {name} ({', '.join(members)}) doesn't sit together: each team sits together "
                    "on one side of the table.",
                    cr("809.2"),
                )
            ]
        if not in_middle(seats, members, emperors[name]):
            return False, [
                step(f"{emperors[name]}, team {name}'s emperor, doesn't sit in its middle.", cr("809.2"))
            ]
    ranges, steps = ranges_of(seats, teams, emperors)
    for a in emperors.values():
        for b in emperors.values():
            if a != b and seat_distance(seats, a, b) <= ranges[a]:
                steps.append(step(f"Emperor {b} begins the game within emperor {a}'s range.", cr("809.6a")))
                return False, steps
    steps.append(
        step(
            f"{len(teams)} teams of {sizes.pop()}, each seated together with its emperor in the middle and "
            "no emperor within another emperor's range: a legal Emperor table.",
            cr("809.1"),
            cr("809.2"),
        )
    )
    return True, steps


class Emperor(Variant):
    """809: teams with an emperor in the middle, ranges 2/1, attack only next to you, deploy."""

    name = "emperor"
    title = "Emperor"
    cites = (cr("809.1"),)
    needs_teams = True
    has_emperors = True
    uses_sections = (cr("801"),)  # 809.3a/809.3b: limited range of influence
    min_players = 6
    min_players_rule = "809.1"  # two or more teams of three players each
    default_questions = ("active", "legal-setup", "turn-order", "in-game", "game-over", "winners")

    def default_teams(self, players: Sequence[str]) -> list[list[str]]:
        """Two teams of the same odd size (three or more, 809.1), so each has a middle seat for its emperor
        (809.2).

        >>> Emperor().default_teams(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"])
        [['Ann', 'Ben', 'Cat'], ['Dan', 'Eve', 'Fay']]
        """
        size = max(3, len(players) // 2)
        size -= 0 if size % 2 else 1
        return [list(players[:size]), list(players[size:size * 2])]

    def build_teams(self, setup: Setup) -> tuple[Team, ...]:
        emperors = emperors_of(setup)
        return tuple(
            Team(name, t.members, emperors[name])
            for name, t in zip(setup.team_names(), setup.teams, strict=True)
        )

    def default_options(self, setup: Setup) -> Options:
        teams = {name: t.members for name, t in zip(setup.team_names(), setup.teams, strict=True)}
        ranges, _ = ranges_of(setup.seats, teams, emperors_of(setup))
        return Options(ranges=frozen(ranges), attack="adjacent", deploy=True)  # 809.3a-c

    def first_players(self, setup: Setup, seats: tuple[str, ...]) -> tuple[str, ...]:
        """809.4: a random emperor goes first; the first listed team's is taken when the setup doesn't say."""
        return tuple(emperors_of(setup).values()) or (seats[0],)

    def first_player_steps(self, state: TableState) -> list[Step]:
        emperors = state.starting
        choices = tuple(Reading(f"{e} goes first.", e, (cr("809.4"),)) for e in emperors)
        return [
            step(
                f"A randomly determined emperor goes first: one of {', '.join(emperors)}.",
                cr("809.4"),
                alternatives=choices,
            )
        ]

    def validate_setup(self, setup: Setup) -> list[SetupProblem]:
        if not setup.teams:
            return [SetupProblem(("teams",), "an Emperor game needs teams (809.1)")]
        problems = []
        size = len(setup.teams[0].members)
        for i, team in enumerate(setup.teams):
            if len(team.members) < 3:
                problems.append(
                    SetupProblem(
                        ("teams", i),
                        f"an Emperor team has three or more players, not {len(team.members)} (809.1, 809.6)",
                    )
                )
            elif len(team.members) != size:
                problems.append(
                    SetupProblem(
                        ("teams", i),
                        f"Emperor teams must be of equal size: {size} and {len(team.members)} (809.6)",
                    )
                )
        return problems

    def legal_setup(self, state: TableState) -> Answer:
        return legal_setup(state.seats, {t.name: t.members for t in state.teams}, self._emperors(state))

    def _emperors(self, state: TableState) -> dict[str, str]:
        return {t.name: t.leader or middle_seat(state.seats, t.members) for t in state.teams}

    def team_name(self, state: TableState, player: str) -> Answer:
        team = self.team_of(state, player)
        if team is None:
            return None, [step(f"{player} is on no team.", cr("102.3"))]
        role = "the emperor" if team.leader == player else "a general"
        return team.name, [step(f"{player} is {role} of team {team.name}.", cr("809.2"), cr("102.3"))]

    def range_steps(self, state: TableState, player: str) -> list[Step]:
        _, steps = ranges_of(state.seats, {t.name: t.members for t in state.teams}, self._emperors(state))
        return steps

    def _team_goes(
        self, state: TableState, emperors_going: set[str], how: str
    ) -> tuple[list[str], list[Step]]:
        """809.5b/c: the rest of the team of an emperor who loses (or for whom the game is a draw)."""
        more, steps = [], []
        for team in state.teams:
            if team.leader in emperors_going:
                rest = [p for p in team.members if p != team.leader and state.is_in(p)]
                if rest:
                    more += rest
                    if how == "drew":
                        steps.append(
                            step(
                                f"The game is a draw for emperor {team.leader}, so for team {team.name}.",
                                cr("809.5c"),
                                cr("104.4h"),
                            )
                        )
                    else:
                        steps.append(
                            step(
                                f"Emperor {team.leader} lost, so team {team.name} loses: {', '.join(rest)} "
                                "leave the game.",
                                cr("809.5b"),
                                cr("104.3i"),
                            )
                        )
        return more, steps

    def expand_leavers(
        self, state: TableState, players: Sequence[str], how: str
    ) -> tuple[list[str], list[Step]]:
        """809.5b/c: an emperor who loses, or draws, takes the rest of the team with them."""
        if how not in ("lost", "drew"):
            return list(players), []
        more, steps = self._team_goes(state, set(players), how)
        return [*players, *(p for p in more if p not in players)], steps

    def on_leave(self, state: TableState, leavers: Sequence[str]) -> Result:
        """809.5b for a concession: the emperor conceded and lost (104.3a), so the rest of the team loses."""
        conceded = {p for p in leavers if state.left.get(p) == "conceded"}
        more, steps = self._team_goes(state, conceded, "lost")
        if not more:
            return state, []
        state, after = leave(state, more, "lost", (cr("809.5b"),))
        return state, steps + after

    def game_result(self, state: TableState) -> Result:
        before = state.game_over
        state, steps = super().game_result(state)
        if state.game_over and not before:
            for team in state.teams:
                if state.results.get(team.leader or "") == "won":
                    steps.append(
                        step(
                            f"Emperor {team.leader} wins, so team {team.name} wins: "
                            f"{', '.join(team.members)}.",
                            cr("809.5a"),
                            cr("104.2d"),
                        )
                    )
        return state, steps
