"""Teams in general (102.3, 104.2c, 104.3g, 104.4d) and the Team vs. Team variant (808).

Pure functions over simple inputs: ``teams`` maps a team's name to its members in seat order, ``in_game``
is the set of players still in the game, ``lost`` the players who have lost. Each function returns its
answer together with the steps (a sentence and the rule ids it applied) that derive it.

>>> teams = {"1": ("Ann", "Ben"), "2": ("Cat", "Dan")}
>>> teammates_of(teams, "Ann", {"Ann", "Ben", "Cat", "Dan"})[0]
['Ben']
>>> opponents_of(teams, "Ann", {"Ann", "Ben", "Cat", "Dan"})[0]
['Cat', 'Dan']
>>> starting_candidates({"1": ("Ann", "Ben", "Cat"), "2": ("Dan", "Eve", "Fay", "Gus")})[0]
['Ben', 'Fay']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.steps import Reading, Step

Teams = Mapping[str, Sequence[str]]


def step(text: str, *cites: Cite, alternatives: tuple[Reading, ...] = ()) -> Step:
    """A derivation step citing rules (official ones in the 2024-06-07 numbering, see citations.py)."""
    return Step(text, tuple(cites), alternatives)


@dataclass(frozen=True)
class Outcome:
    """Who has won, lost or drawn, and whether the game is over (after the variant's own rules)."""

    winners: frozenset[str] = frozenset()
    losers: frozenset[str] = frozenset()
    drawn: frozenset[str] = frozenset()
    game_over: bool = False
    steps: tuple[Step, ...] = field(default=())


def team_of(teams: Teams, player: str) -> str | None:
    """The name of the player's team (the last team they were on, for a player who left)."""
    for name, members in teams.items():
        if player in members:
            return name
    return None


def ordered(players: Collection[str], seats: Sequence[str]) -> list[str]:
    """Players in seat order (answers list players the way the table sees them)."""
    return [p for p in seats if p in players]


def all_seats(teams: Teams) -> list[str]:
    """Seats follow the teams in order (808.2, 809.2, 810.3: each team sits together)."""
    return [p for members in teams.values() for p in members]


def teammates_of(teams: Teams, player: str, in_game: Collection[str]) -> tuple[list[str], list[Step]]:
    """Players still in the game on the player's team, the player excluded (102.3)."""
    name = team_of(teams, player)
    mates = [p for p in teams.get(name, ()) if p != player and p in in_game] if name else []
    why = step(
        f"{player}'s teammates are the other players on team {name}: {', '.join(mates) or 'none'}.",
        cr("102.3"),
    )
    return mates, [why]


def opponents_of(teams: Teams, player: str, in_game: Collection[str]) -> tuple[list[str], list[Step]]:
    """Players still in the game who are not on the player's team (102.3)."""
    name = team_of(teams, player)
    mates = set(teams.get(name, ())) if name else {player}
    opps = [p for p in all_seats(teams) if p in in_game and p not in mates]
    why = step(
        f"{player}'s opponents are all players not on {player}'s team: {', '.join(opps) or 'none'}.",
        cr("102.3"),
    )
    return opps, [why]


def starting_candidates(teams: Teams) -> tuple[list[str], list[Step]]:
    """Who may go first in Team vs. Team (808.4): a random team's centre seat, or left of its midpoint.

    Turn order goes to the players' left, which is the next seat in the list, so for an even team of
    ``n`` the player to the left of the midpoint is seat ``n // 2`` — the same index as an odd team's
    centre seat.
    """
    picks = [members[len(members) // 2] for members in teams.values() if members]
    why = step(
        "A team is chosen at random; on a team with an odd number of players its centre seat goes first, "
        "on an even one the player to the left of its midpoint: " + ", ".join(picks) + ".",
        cr("808.4"),
        alternatives=tuple(Reading(f"{p} goes first.", p, (cr("808.4"),)) for p in picks),
    )
    return picks, [why]


def team_result(
    teams: Teams,
    in_game: Collection[str],
    lost: Collection[str],
    left_now: Collection[str] = (),
) -> Outcome:
    """Winners, losers and draws of a game between teams (104.2c, 104.3g, 104.4d).

    ``left_now`` is the group of players who left in the last event: if they were the last players in
    the game and left together, the game is a draw for them (104.4a, 104.4d).

    >>> teams = {"A": ("Ann", "Ben"), "B": ("Cat", "Dan")}
    >>> out = team_result(teams, {"Ben"}, {"Ann", "Cat", "Dan"})
    >>> sorted(out.winners), sorted(out.losers), out.game_over
    (['Ann', 'Ben'], ['Cat', 'Dan'], True)
    """
    steps: list[Step] = []
    remaining = [name for name, members in teams.items() if any(p in in_game for p in members)]
    for name, members in teams.items():
        if name not in remaining and any(p in lost for p in members) and all(p in lost for p in members):
            steps.append(step(f"Every player on team {name} has lost, so the team has lost.", cr("104.3g")))
    if len(remaining) == 1:
        name = remaining[0]
        winners = frozenset(teams[name])
        steps.append(
            step(
                f"Every other team has left the game, so team {name} wins; each of its players wins, "
                "including any who had already lost.",
                cr("104.2c"),
            )
        )
        losers = frozenset(p for p in all_seats(teams) if p not in winners)
        return Outcome(winners, losers, frozenset(), True, tuple(steps))
    if not remaining:
        drawn = frozenset(left_now)
        steps.append(
            step(
                "All remaining teams left the game at the same time, so the game is a draw for them.",
                cr("104.4d"),
                cr("104.4a"),
            )
        )
        losers = frozenset(p for p in lost if p not in drawn)
        return Outcome(frozenset(), losers, drawn, True, tuple(steps))
    return Outcome(frozenset(), frozenset(lost), frozenset(), False, tuple(steps))


def legal_team_setup(teams: Teams) -> tuple[bool, list[Step]]:
    """Team vs. Team needs two or more teams; a team may have any number of players (808.1)."""
    sizes = [len(m) for m in teams.values()]
    if len(sizes) < 2 or min(sizes) < 1:
        return False, [step("Team vs. Team needs two or more teams.", cr("808.1"))]
    return True, [step("Two or more teams, each of any size: a legal Team vs. Team table.", cr("808.1"))]


# --- the variant object (the core's hooks) ----------------------------------------------------------------
# Imported here, after the pure functions, because ``variants`` imports this module as it finishes loading.
from typing import Any  # noqa: E402

from rulesjudge.scenarios.model.table import Options, TableState  # noqa: E402
from rulesjudge.scenarios.model.variants import Answer, Variant, register_variant  # noqa: E402


def untap_step(state: TableState, players: Collection[str]) -> tuple[TableState, list[Step]]:
    """502.3: as their turn begins, the active player (team) untaps the permanents they control."""
    from dataclasses import replace as _replace

    from rulesjudge.scenarios.model.table import frozen_map

    tapped = [
        n
        for n, p in state.permanents.items()
        if p.on_battlefield and p.tapped and p.current_controller in players
    ]
    if not tapped:
        return state, []
    permanents = dict(state.permanents)
    for name in tapped:
        permanents[name] = _replace(permanents[name], tapped=False)
    text = (
        f"In the untap step, {', '.join(sorted(set(players)))} untap{'s' if len(players) == 1 else ''} "
        f"what they control: {', '.join(tapped)}."
    )
    return state.with_(permanents=frozen_map(permanents)), [step(text, cr("502.3"))]


def team_map(state: TableState) -> dict[str, tuple[str, ...]]:
    """The state's teams as ``{name: members}`` for the pure functions above."""
    return {team.name: team.members for team in state.teams}


class TeamVsTeam(Variant):
    """808: two or more teams, each seated together; attack multiple players (808.3a)."""

    name = "team-vs-team"
    title = "Team vs. Team"
    cites = (cr("808.1"),)

    def default_options(self, setup: Any) -> Options:
        return Options(attack="multiple", deploy=False)  # 808.3a, 808.3b

    def first_player(self, setup: Any, seats: tuple[str, ...]) -> str:
        """808.4, with the first listed team as the randomly chosen one."""
        teams = {t.name: t.members for t in self.build_teams(setup)}
        picks, _ = starting_candidates(teams)
        return picks[0] if picks else seats[0]

    def legal_setup(self, state: TableState) -> Answer:
        return legal_team_setup(team_map(state))

    def answer(self, state: TableState, question: Any) -> Answer | None:
        if getattr(question, "name", None) == "first-player":
            return starting_candidates(team_map(state))
        return None


register_variant(TeamVsTeam())


# --- questions every team variant answers -------------------------------------------------------------------
from rulesjudge.scenarios.model.questions import Question, register_question  # noqa: E402


@register_question("drawn", (), "players", "players for whom the game was a draw and who did not win")
def _drawn(state: TableState) -> Answer:
    drew = [p for p in state.seats if state.results.get(p) == "drew"]
    rules = (cr("104.4d"), cr("104.4g")) if state.teams else (cr("104.4a"),)
    return drew, [step(f"The game was a draw for: {', '.join(drew) or 'nobody'}.", cr("104.4"), *rules)]


@register_question("first-player", (), "players", "who may take the first turn (a random choice among them)")
def _first_player(state: TableState) -> Answer:
    from rulesjudge.scenarios.model.variants import variant_of

    special = variant_of(state).answer(state, Question("first-player"))
    if special is not None:
        return special
    return [state.seats[0]], [step("The players choose who takes the first turn.", cr("103.1"))]
