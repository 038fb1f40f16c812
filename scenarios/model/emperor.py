"""The Emperor variant (809) and the deploy creatures option (804).

Teams of three (or any equal size, 809.6) sit together; each has an emperor in its middle and generals
around them. Emperors have range of influence 2 and generals 1 (809.3a), or the ranges of 809.6a for
larger teams; a player can attack only an opponent seated immediately next to them (809.3c); every
creature can be deployed to a teammate (804.2); a team wins, loses or draws with its emperor (809.5).

Rules are cited by number (``cr("809.3c")``); the resolver files 809 under the seeds' 2022-04-29 text,
which is built in, and adds the same rule of a loaded official release.

>>> teams = {"A": ("Ann", "Ben", "Cat"), "B": ("Dan", "Eve", "Fay")}
>>> emperors = {"A": "Ben", "B": "Eve"}
>>> ranges_of(teams, emperors)[0]
{'Ann': 1, 'Ben': 2, 'Cat': 1, 'Dan': 1, 'Eve': 2, 'Fay': 1}
>>> attackable(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], teams, "Ben")[0]
[]
>>> attackable(["Ann", "Ben", "Dan", "Eve", "Fay"], teams, "Ben")[0]
['Dan']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.team_vs_team import Teams, all_seats, step, team_of


def seat_distance(seats: Sequence[str], a: str, b: str) -> int:
    """Seats between two players around the table, the shorter way (801.2).

    >>> seat_distance(["A", "B", "C", "D", "E", "F"], "A", "F")
    1
    """
    i, j = seats.index(a), seats.index(b)
    d = abs(i - j)
    return min(d, len(seats) - d)


def default_emperor(members: Sequence[str]) -> str:
    """The player seated in the middle of a team of three (809.2)."""
    return members[len(members) // 2]


def is_middle(members: Sequence[str], player: str) -> bool:
    """Whether the player sits in the middle of the team (either central seat of an even team)."""
    n = len(members)
    middle = {members[n // 2]} if n % 2 else {members[n // 2 - 1], members[n // 2]}
    return player in middle


def ranges_of(teams: Teams, emperors: Mapping[str, str]) -> tuple[dict[str, int], list[Step]]:
    """Each player's range of influence (809.3a for teams of three, computed by 809.6a otherwise).

    809.6a: a general's range is the smallest that reaches one general of an opposing team at the start
    of the game; an emperor's the smallest that reaches two such generals.
    """
    seats = all_seats(teams)
    if all(len(m) == 3 for m in teams.values()):
        result = {p: (2 if p in emperors.values() else 1) for p in seats}
        return result, [step("Emperors have range of influence 2 and generals 1.", cr("809.3a"))]
    result = {}
    for player in seats:
        own = team_of(teams, player)
        generals = sorted(
            seat_distance(seats, player, other)
            for name, members in teams.items()
            if name != own
            for other in members
            if other != emperors.get(name)
        )
        needed = 2 if player in emperors.values() else 1
        result[player] = generals[needed - 1] if len(generals) >= needed else max(1, len(seats) // 2)
    why = step(
        "Teams of more than three: each general's range is the least that reaches one opposing general at "
        "the start of the game, each emperor's the least that reaches two: "
        + ", ".join(f"{p} {r}" for p, r in result.items())
        + ".",
        cr("809.6a"),
    )
    return result, [why]


def legal_setup(teams: Teams, emperors: Mapping[str, str]) -> tuple[bool, list[Step]]:
    """Does the table follow 809.1, 809.2, 809.6 and 809.6a's seating advice?"""
    sizes = {len(m) for m in teams.values()}
    if len(teams) < 2:
        return False, [step("The Emperor variant needs two or more teams.", cr("809.1"))]
    if len(sizes) != 1 or min(sizes) < 3:
        return False, [
            step("Teams must be of three players, or of any equal size.", cr("809.1"), cr("809.6"))
        ]
    for name, members in teams.items():
        emperor = emperors[name]
        if not is_middle(members, emperor):
            return False, [step(f"{emperor}, team {name}'s emperor, doesn't sit in its middle.", cr("809.2"))]
    seats = all_seats(teams)
    ranges, steps = ranges_of(teams, emperors)
    for a in emperors.values():
        for b in emperors.values():
            if a != b and seat_distance(seats, a, b) <= ranges[a]:
                steps.append(step(f"Emperor {b} begins the game within emperor {a}'s range.", cr("809.6a")))
                return False, steps
    steps.append(
        step(
            f"{len(teams)} teams of {sizes.pop()}, each with its emperor in the middle and no emperor within "
            "another emperor's range: a legal Emperor table.",
            cr("809.1"),
            cr("809.2"),
        )
    )
    return True, steps


def neighbours(seats_in_game: Sequence[str], player: str) -> list[str]:
    """The players seated immediately next to a player; seats of players who left close up."""
    if player not in seats_in_game or len(seats_in_game) < 2:
        return []
    i = seats_in_game.index(player)
    n = len(seats_in_game)
    return list(dict.fromkeys([seats_in_game[(i - 1) % n], seats_in_game[(i + 1) % n]]))


def attackable(seats_in_game: Sequence[str], teams: Teams, attacker: str) -> tuple[list[str], list[Step]]:
    """Opponents seated immediately next to the attacker (809.3c)."""
    own = team_of(teams, attacker)
    next_to = neighbours(seats_in_game, attacker)
    result = [p for p in next_to if team_of(teams, p) != own]
    text = (
        f"{attacker} can attack only an opponent seated immediately next to them; next to {attacker} sit "
        f"{', '.join(next_to) or 'nobody'}, so {attacker} can attack {', '.join(result) or 'nobody'}."
    )
    return result, [step(text, cr("809.3c"))]


def can_attack(
    seats_in_game: Sequence[str], teams: Teams, attacker: str, target: str
) -> tuple[bool, list[Step]]:
    """Whether the attacker's creatures may attack the target under 809.3c (range is checked apart)."""
    targets, steps = attackable(seats_in_game, teams, attacker)
    return target in targets, steps


def deploy_check(
    *,
    teams: Teams,
    in_game: Collection[str],
    permanent: str,
    controller: str | None,
    to: str,
    active: str | None,
    main_phase: bool = True,
    stack_empty: bool = True,
    tapped: bool = False,
    target_in_range: bool = True,
) -> tuple[bool, list[Step]]:
    """Can the permanent's controller deploy it to ``to`` right now (804.2)?

    The ability is "{T}: Target teammate gains control of this creature. Activate only as a sorcery."
    """
    rule = (cr("809.3b"), cr("804.2"))
    if controller is None or controller not in in_game:
        return False, [step(f"Nobody in the game controls {permanent}, so nobody can deploy it.", *rule)]
    if to == controller or to not in in_game or team_of(teams, to) != team_of(teams, controller):
        return False, [step(f"{to} is not a teammate of {controller} still in the game.", *rule, cr("102.3"))]
    if not target_in_range:
        return False, [
            step(f"{to} is outside {controller}'s range of influence, so can't be targeted.", cr("801.4"))
        ]
    if controller != active or not main_phase or not stack_empty:
        why = (
            f"{controller} can activate it only as a sorcery: in a main phase of their own turn, stack empty."
        )
        return False, [step(why, *rule, cr("307.1"))]
    if tapped:
        return False, [step(f"{permanent} is tapped, so its {{T}} cost can't be paid.", *rule)]
    why = f"{controller} taps {permanent}: {to}, a teammate, gains control of it."
    return True, [step(why, *rule)]


def team_losses(
    teams: Teams, emperors: Mapping[str, str], lost: Collection[str], in_game: Collection[str]
) -> tuple[set[str], list[Step]]:
    """Players who lose because their emperor lost (809.5b): the rest of that team still in the game."""
    more: set[str] = set()
    steps: list[Step] = []
    for name, emperor in emperors.items():
        if emperor in lost:
            rest = [p for p in teams[name] if p in in_game and p != emperor]
            if rest:
                more.update(rest)
                steps.append(
                    step(
                        f"Emperor {emperor} lost, so team {name} loses: {', '.join(rest)} leave the game.",
                        cr("809.5b"),
                    )
                )
    return more, steps


def team_draws(emperors: Mapping[str, str], drawn: Collection[str]) -> tuple[list[str], list[Step]]:
    """Teams for which the game is a draw because it is a draw for their emperor (809.5c)."""
    names = [name for name, emperor in emperors.items() if emperor in drawn]
    steps = [
        step(f"The game is a draw for emperor {emperors[n]}, so for team {n}.", cr("809.5c")) for n in names
    ]
    return names, steps


def winning_team_note(teams: Teams, emperors: Mapping[str, str], winners: Collection[str]) -> list[Step]:
    """Why generals who had already left still win: their emperor won (809.5a)."""
    out = []
    for name, emperor in emperors.items():
        if emperor in winners:
            out.append(
                step(f"Emperor {emperor} wins, so team {name} wins: {', '.join(teams[name])}.", cr("809.5a"))
            )
    return out


def resources_note(player: str, permanent: str, controller: str | None) -> tuple[bool, list[Step]]:
    """Teammates can't use each other's permanents: only the controller can (809.7)."""
    ok = controller == player
    text = (
        f"{player} controls {permanent}."
        if ok
        else f"{permanent} is controlled by {controller}; a team's "
        f"resources are not shared, so {player} can't use it."
    )
    return ok, [step(text, cr("809.7"))]


# --- the variant object (the core's hooks) ----------------------------------------------------------------
from dataclasses import replace as _replace  # noqa: E402
from typing import Any  # noqa: E402

from rulesjudge.scenarios.model.table import Options, TableState, Team, frozen_map  # noqa: E402
from rulesjudge.scenarios.model.team_vs_team import team_map  # noqa: E402
from rulesjudge.scenarios.model.variants import Answer, SetupProblem, Variant, register_variant  # noqa: E402


def emperor_map(teams: tuple[Team, ...]) -> dict[str, str]:
    return {t.name: t.leader or default_emperor(t.members) for t in teams}


class EmperorVariant(Variant):
    """809: teams with an emperor in the middle, ranges 2/1, attack only next to you, deploy."""

    name = "emperor"
    title = "Emperor"
    cites = (cr("809.1"),)

    def build_teams(self, setup: Any) -> tuple[Team, ...]:
        teams = tuple(setup.team_list())
        return tuple(t if t.leader else _replace(t, leader=default_emperor(t.members)) for t in teams)

    def default_options(self, setup: Any) -> Options:
        teams = self.build_teams(setup)
        ranges, _ = ranges_of({t.name: t.members for t in teams}, emperor_map(teams))
        return Options(ranges=frozen_map(ranges), attack="adjacent", deploy=True)  # 809.3a-c

    def first_player(self, setup: Any, seats: tuple[str, ...]) -> str:
        """809.4: a random emperor goes first; the first listed team's is taken."""
        teams = self.build_teams(setup)
        return emperor_map(teams)[teams[0].name] if teams else seats[0]

    def validate_setup(self, setup: Any) -> list[SetupProblem]:
        problems: list[SetupProblem] = []
        teams = tuple(setup.team_list())
        if not teams:
            return [SetupProblem(("teams",), "an Emperor game needs teams (809.1)")]
        size = len(teams[0].members)
        for i, team in enumerate(teams):
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
            if team.leader is not None and team.leader not in team.members:
                problems.append(
                    SetupProblem(
                        ("teams", i, "emperor"), f"the emperor {team.leader} is not among the team's members"
                    )
                )
        return problems

    def legal_setup(self, state: TableState) -> Answer:
        return legal_setup(team_map(state), emperor_map(state.teams))

    def _emperors(self, state: TableState) -> dict[str, str]:
        return emperor_map(state.teams)

    def team_name(self, state: TableState, player: str) -> Answer:
        team = self.team_of(state, player)
        if team is None:
            return None, [step(f"{player} is on no team.", cr("102.3"))]
        role = "the emperor" if team.leader == player else "a general"
        return team.name, [step(f"{player} is {role} of team {team.name}.", cr("809.2"), cr("102.3"))]

    def range_steps(self, state: TableState, player: str) -> list[Step]:
        _, steps = ranges_of(team_map(state), self._emperors(state))
        return steps

    def expand_leavers(self, state: TableState, players: Any, how: str) -> tuple[list[str], list[Step]]:
        """809.5b/c: an emperor who loses, or draws, takes the rest of the team with them."""
        going = list(players)
        gone = set(going)
        if how == "lost":
            more, steps = team_losses(team_map(state), self._emperors(state), gone, state.in_game)
        elif how == "drew":
            names, steps = team_draws(self._emperors(state), gone)
            more = {p for n in names for p in dict(team_map(state))[n] if state.is_in(p)}
        else:
            return going, []
        going += [p for p in state.in_game if p in more and p not in gone]
        return going, steps

    def on_leave(self, state: TableState, leavers: Any) -> tuple[TableState, list[Step]]:
        """809.5b for a concession: the emperor conceded (104.3a), so the rest of the team loses."""
        conceded = {p for p in leavers if state.left.get(p) == "conceded"}
        more, steps = team_losses(team_map(state), self._emperors(state), conceded, state.in_game)
        if not more:
            return state, []
        from rulesjudge.scenarios.model.leaving import leave

        state, after = leave(state, [p for p in state.in_game if p in more], "lost")
        return state, steps + after

    def game_result(self, state: TableState) -> tuple[TableState, list[Step]]:
        before = state.game_over
        state, steps = super().game_result(state)
        if state.game_over and not before:
            winners = {p for p, r in state.results.items() if r == "won"}
            steps += winning_team_note(team_map(state), self._emperors(state), winners)
        return state, steps

    def answer(self, state: TableState, question: Any) -> Answer | None:
        if getattr(question, "name", None) == "first-player":
            emperors = list(self._emperors(state).values())
            choices = tuple(Reading(f"{e} goes first.", e, (cr("809.4"),)) for e in emperors)
            text = f"A randomly determined emperor goes first: one of {', '.join(emperors)}."
            return emperors, [step(text, cr("809.4"), alternatives=choices)]
        return None

    def apply_event(self, state: TableState, event: Any) -> tuple[TableState, list[Step]] | None:
        """801.10: a spell or ability doesn't affect players outside its controller's range of influence."""
        from rulesjudge.scenarios.model import events as ev
        from rulesjudge.scenarios.model.influence import in_range

        if (
            isinstance(event, ev.Damage)
            and event.source
            and state.is_in(event.source)
            and state.is_in(event.to)
        ):
            inside, steps = in_range(state, event.source, event.to, self.range_of(state, event.source))
            if not inside:
                text = (
                    f"{event.to} is outside the range of influence of {event.source}, who controls the "
                    "effect, so the damage does nothing."
                )
                return state, [*steps, step(text, cr("801.10"), cr("801.4"))]
        return None


register_variant(EmperorVariant())


# --- the deploy question (any variant using the deploy creatures option) ------------------------------------
from rulesjudge.scenarios.model.questions import register_question  # noqa: E402


@register_question(
    "can-deploy",
    ("permanent", "player"),
    "bool",
    "could the permanent's controller deploy it to that player now (804.2)",
)
def can_deploy(state: TableState, permanent: str, to: str) -> Answer:
    """804.2 "{T}: Target teammate gains control of this creature. Activate only as a sorcery." — the
    core's deploy rules (``scenarios.model.deploy``: option, teammate, range 801.4, {T} and 302.6, timing)."""
    from rulesjudge.scenarios.model.deploy import deploy_answer

    return deploy_answer(state, permanent, to)
