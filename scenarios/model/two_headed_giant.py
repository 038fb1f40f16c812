"""The Two-Headed Giant variant (810) with the shared team turns option (805).

Two teams of two (or equal larger teams, 810.11) share a life total of 30, +15 per player beyond the
second (810.4, 810.11); damage, loss and gain of life happen to players and apply to the team's total
(810.9); a team wins and loses as one (810.8a), a concession makes the whole team leave (810.8b), a team
at 0 life loses (810.8c). The active team attacks and the whole other team defends (506.2b, 810.7,
805.10a); a one-shot effect's "defending player" is the one defending player its controller chooses
(805.10e).

The Player page quotes the combat rules as 810.7a–f (2015-07-17); the current rules keep only 810.7
("uses the combat rules for the shared team turns option") and state them in 805.10.

>>> starting_life(2), starting_life(3)
(30, 45)
>>> teams = {"1": ("Ann", "Ben"), "2": ("Cat", "Dan")}
>>> defending_players(teams, "1", {"Ann", "Ben", "Cat", "Dan"})[0]
['Cat', 'Dan']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.team_vs_team import Teams, all_seats, step, team_of


def starting_life(team_size: int) -> int:
    """A team's shared starting life: 30, and 15 more per player beyond the second (810.4, 810.11)."""
    return 30 + 15 * max(0, team_size - 2)


def starting_life_steps(team_size: int) -> list[Step]:
    if team_size <= 2:
        return [step("Each team has a shared life total, which starts at 30.", cr("810.4"))]
    return [
        step(
            f"A team of {team_size} starts at 30 life plus 15 for each player beyond the second: "
            f"{starting_life(team_size)}.",
            cr("810.4"),
            cr("810.11"),
        )
    ]


def legal_setup(teams: Teams) -> tuple[bool, list[Step]]:
    """Two teams of two players (810.1), or equally sized larger teams (810.11)."""
    sizes = {len(m) for m in teams.values()}
    if len(teams) != 2:
        return False, [step("Two-Headed Giant games are played with two teams.", cr("810.1"))]
    if len(sizes) != 1 or min(sizes) < 2:
        return False, [
            step(
                "The two teams must have two players each, or an equal larger number.",
                cr("810.1"),
                cr("810.11"),
            )
        ]
    size = sizes.pop()
    rules = (cr("810.1"),) if size == 2 else (cr("810.1"), cr("810.11"))
    return True, [
        step(
            f"Two teams of {size}, each seated together: a legal Two-Headed Giant table.", *rules, cr("810.3")
        )
    ]


def life_of(team_life: Mapping[str, int], teams: Teams, player: str) -> tuple[int, list[Step]]:
    """A player's life total is their team's shared life total (810.4, 810.9a)."""
    name = team_of(teams, player)
    value = team_life[name] if name is not None else 0
    return value, [
        step(f"{player}'s life total is team {name}'s shared life total: {value}.", cr("810.4"), cr("810.9a"))
    ]


def apply_life_change(team_life: dict[str, int], teams: Teams, player: str, amount: int) -> list[Step]:
    """Damage, life loss or gain happens to the player and applies to the team's total (810.9)."""
    name = team_of(teams, player)
    if name is None:
        return []
    team_life[name] += amount
    verb = "gains" if amount >= 0 else "loses"
    return [
        step(
            f"{player} {verb} {abs(amount)} life; the result is applied to team {name}'s shared total, "
            f"now {team_life[name]}.",
            cr("810.9"),
        )
    ]


def life_losses(
    team_life: Mapping[str, int], teams: Teams, in_game: Collection[str]
) -> tuple[set[str], list[Step]]:
    """Teams at 0 or less life lose as a state-based action (810.8c)."""
    more: set[str] = set()
    steps: list[Step] = []
    for name, life in team_life.items():
        members = [p for p in teams[name] if p in in_game]
        if life <= 0 and members:
            more.update(members)
            steps.append(
                step(
                    f"Team {name}'s life total is {life}, so the team loses the game.",
                    cr("810.8c"),
                    cr("704.5a"),
                )
            )
    return more, steps


def team_losses(
    teams: Teams, lost: Collection[str], in_game: Collection[str], conceded: Collection[str] = ()
) -> tuple[set[str], list[Step]]:
    """A player who loses or concedes takes the whole team out of the game (810.8a, 810.8b)."""
    more: set[str] = set()
    steps: list[Step] = []
    for player in lost:
        name = team_of(teams, player)
        rest = (
            [p for p in teams.get(name, ()) if p in in_game and p != player and p not in more] if name else []
        )
        if not rest:
            continue
        more.update(rest)
        if player in conceded:
            steps.append(
                step(f"{player} concedes: team {name} leaves the game at once and loses.", cr("810.8b"))
            )
        else:
            steps.append(
                step(f"{player} lost, so team {name} loses as a team: {', '.join(rest)} too.", cr("810.8a"))
            )
    return more, steps


def defending_players(
    teams: Teams, active_team: str | None, in_game: Collection[str]
) -> tuple[list[str], list[Step]]:
    """Every player still in the game on the nonactive team is a defending player (506.2b, 805.10a)."""
    if active_team is None:
        why = step("There is no active team in the game, so there is no defending team.", cr("805.4a"))
        return [], [why]
    result = [p for p in all_seats(teams) if p in in_game and team_of(teams, p) != active_team]
    why = step(
        f"The active team {active_team} is the attacking team; the nonactive team defends, each of its "
        f"players a defending player: {', '.join(result) or 'none'}.",
        cr("506.2b"),
        cr("810.7"),
        cr("805.10a"),
    )
    return result, [why]


def attacking_players(
    teams: Teams, active_team: str | None, in_game: Collection[str]
) -> tuple[list[str], list[Step]]:
    """Every player on the active team is an attacking player (805.10a)."""
    result = [p for p in teams.get(active_team, ()) if p in in_game] if active_team else []
    why = step(
        f"Each player on the active team is an attacking player: {', '.join(result) or 'none'}.",
        cr("810.7"),
        cr("805.10a"),
    )
    return result, [why]


def one_shot_defending_player(
    teams: Teams, controller: str, active_team: str | None, in_game: Collection[str]
) -> tuple[dict[str, object] | None, list[Step]]:
    """Who a one-shot effect's "defending player" is: one defending player, chosen by its controller
    (805.10e).

    The answer is a choice, not a player: ``{"chosen-by": controller, "one-of": [...]}``.
    """
    options, steps = defending_players(teams, active_team, in_game)
    if not options:
        return None, steps
    choices = tuple(
        Reading(f"{controller} chooses {p} as the defending player.", p, (cr("805.10e"),)) for p in options
    )
    steps.append(
        step(
            f'A one-shot effect that refers to the "defending player" refers to one of them, not both; '
            f"{controller}, its controller, chooses which as the effect is applied: one of "
            f"{', '.join(options)}.",
            cr("805.10e"),
            alternatives=choices,
        )
    )
    return {"chosen-by": controller, "one-of": options}, steps


def next_team(teams: Teams, active_team: str | None, in_game: Collection[str]) -> str | None:
    """Teams take turns (805.4); the next team with a player in the game takes the next one."""
    names = list(teams)
    if not names:
        return None
    start = names.index(active_team) if active_team in names else -1
    for k in range(1, len(names) + 1):
        name = names[(start + k) % len(names)]
        if any(p in in_game for p in teams[name]):
            return name
    return None


# --- the variant object (the core's hooks) ----------------------------------------------------------------
from typing import Any  # noqa: E402

from rulesjudge.scenarios.model import events as ev  # noqa: E402
from rulesjudge.scenarios.model.table import Options, TableState  # noqa: E402
from rulesjudge.scenarios.model.team_vs_team import team_map, untap_step  # noqa: E402
from rulesjudge.scenarios.model.variants import Answer, SetupProblem, Variant, register_variant  # noqa: E402


class TwoHeadedGiant(Variant):
    """810: two teams of two sharing a life total, taking team turns, attacking and defending as teams."""

    name = "two-headed-giant"
    title = "Two-Headed Giant"
    cites = (cr("810.1"),)

    def starting_life(self, setup: Any) -> int:
        teams = tuple(setup.team_list())
        return starting_life(len(teams[0].members) if teams else 2)

    def default_options(self, setup: Any) -> Options:
        return Options(attack="multiple", deploy=False)  # 805.10a: the team attacks the other team as a group

    def validate_setup(self, setup: Any) -> list[SetupProblem]:
        teams = tuple(setup.team_list())
        if not teams:
            return [SetupProblem(("teams",), "a Two-Headed Giant game needs teams (810.1)")]
        size = len(teams[0].members)
        return [
            SetupProblem(
                ("teams", i),
                f"Two-Headed Giant teams must be of equal size: {size} and {len(t.members)} (810.1, 810.11)",
            )
            for i, t in enumerate(teams)
            if len(t.members) != size
        ]

    def legal_setup(self, state: TableState) -> Answer:
        return legal_setup(team_map(state))

    def life_pool(self, state: TableState, player: str) -> str:
        team = self.team_of(state, player)
        return team.name if team else player

    def _active_team(self, state: TableState) -> str | None:
        team = self.team_of(state, state.turn_player) if state.turn_player else None
        return team.name if team and any(state.is_in(p) for p in team.members) else None

    def expand_leavers(self, state: TableState, players: Any, how: str) -> tuple[list[str], list[Step]]:
        """810.8a/b: a player who loses or concedes takes the whole team out of the game."""
        going = list(players)
        if how == "drew":  # the team plays as one (810.8a): a draw for one of its players is one for both
            rest = [p for t in state.teams if set(t.members) & set(going) for p in t.members
                    if state.is_in(p) and p not in going]
            why = "Players win and lose only as a team, so the draw is a draw for the whole team."
            return going + rest, [step(why, cr("810.8a"), cr("104.4g"))] if rest else []
        if how != "lost":
            return going, []  # a concession is handled as the conceder leaves (on_leave, 810.8b)
        more, steps = team_losses(team_map(state), set(going), state.in_game)
        return going + [p for p in state.in_game if p in more and p not in going], steps

    def on_leave(self, state: TableState, leavers: Any) -> tuple[TableState, list[Step]]:
        """810.8b: a player concedes, so their team leaves the game immediately and loses."""
        conceded = {p for p in leavers if state.left.get(p) == "conceded"}
        more, steps = team_losses(team_map(state), conceded, state.in_game, conceded=conceded)
        if not more:
            return state, []
        from rulesjudge.scenarios.model.leaving import leave

        state, after = leave(state, [p for p in state.in_game if p in more], "lost")
        return state, steps + after

    def _next_team_first(self, state: TableState) -> tuple[str | None, list[Step]]:
        """Who takes the next turn: the first player still in the game of the next team (805.4)."""
        nxt = next_team(team_map(state), self._active_team(state), state.in_game)
        if nxt is None or state.game_over:
            return None, [step("No team is left to take a turn.", cr("104.1"))]
        first = next(p for p in team_map(state)[nxt] if state.is_in(p))
        return first, [
            step(f"Teams take turns: team {nxt} takes the next turn ({first} first).", cr("805.4"))
        ]

    def defending_players(self, state: TableState) -> Answer:
        return defending_players(team_map(state), self._active_team(state), state.in_game)

    def can_attack(self, state: TableState, attacker: str, defender: str) -> Answer:
        active = self._active_team(state)
        team = self.team_of(state, attacker)
        if state.is_in(attacker) and (team is None or team.name != active):
            text = f"{attacker}'s team is not the active team: only the active team attacks."
            return False, [step(text, cr("810.7"), cr("805.10a"), cr("506.2b"))]
        ok, steps = super().can_attack(state, attacker, defender)
        if ok:
            steps.append(
                step("Each team's creatures attack the other team as a group.", cr("810.7"), cr("805.10a"))
            )
        return ok, steps

    def answer(self, state: TableState, question: Any) -> Answer | None:
        name = getattr(question, "name", None)
        args = tuple(getattr(question, "args", ()) or ())
        if name == "defending-player" and args:
            active = self._active_team(state)
            return one_shot_defending_player(team_map(state), args[0], active, state.in_game)
        if name == "next-turn":
            return self._next_team_first(state)
        if name == "attacking-players":
            return attacking_players(team_map(state), self._active_team(state), state.in_game)
        if name == "life" and args:
            return life_of(state.life, team_map(state), args[0])
        return None

    def apply_event(self, state: TableState, event: Any) -> tuple[TableState, list[Step]] | None:
        if isinstance(event, ev.NextTurn):
            from rulesjudge.scenarios.model.game import HANDLERS

            team = self.team_of(state, state.turn_player) if state.turn_player else None
            if team is None:
                return None
            # 805.4: teams take turns. Counting from the active team's last seat, the next player in
            # turn order still in the game sits on the next team.
            last = team.members[-1]
            after, steps = HANDLERS[ev.NextTurn](state.with_(turn_player=last), event)
            new = self._active_team(after)
            if new is not None:
                steps.append(step(f"Teams take turns: it is team {new}'s turn.", cr("805.4"), cr("805.4a")))
                after, more = untap_step(after, [p for p in team_map(after)[new] if after.is_in(p)])
                steps += more
            return after, steps
        return None


register_variant(TwoHeadedGiant())


# --- questions ---------------------------------------------------------------------------------------------
from rulesjudge.scenarios.model.questions import register_question  # noqa: E402
from rulesjudge.scenarios.model.variants import variant_of  # noqa: E402


@register_question(
    "defending-player",
    ("player",),
    "choice",
    'who a one-shot effect\'s "defending player" is, the effect controlled by that player',
)
def _defending_player(state: TableState, controller: str) -> Answer:
    variant = variant_of(state)
    if isinstance(variant, TwoHeadedGiant):
        active = variant._active_team(state)
        return one_shot_defending_player(team_map(state), controller, active, state.in_game)
    players, steps = variant.defending_players(state)
    if len(players) == 1:
        return players[0], steps
    steps.append(
        step(
            f'Any rule or effect that refers to a "defending player" refers to one of them; '
            f"{controller}, its controller, chooses which.",
            cr("802.2a"),
            alternatives=tuple(Reading(f"{controller} chooses {p}.", p, (cr("802.2a"),)) for p in players),
        )
    )
    return {"chosen-by": controller, "one-of": players}, steps


@register_question("attacking-players", (), "players", "the attacking players in this turn's combat")
def _attacking_players(state: TableState) -> Answer:
    variant = variant_of(state)
    if isinstance(variant, TwoHeadedGiant):
        return attacking_players(team_map(state), variant._active_team(state), state.in_game)
    active = [state.active] if state.active else []
    return active, [step("The active player is the attacking player.", cr("506.2"))]
