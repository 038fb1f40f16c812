"""The Two-Headed Giant variant (810) with the shared team turns option (805).

Two teams of two (or equal larger teams, 810.11) share a life total of 30, +15 per player beyond the second
(810.4, 810.11), and their poison counters (810.10; fifteen lose, +5 per player beyond the second, 810.8d,
810.11). Damage, loss and gain of life happen to players and apply to the team's total (810.9); a team wins
and loses as one (810.8a), so "can't win" and "can't lose" apply to the team; a concession makes the whole
team leave (810.8b). Teams take turns (805.4): both players of the active team are active players, teams
have priority (805.5), extra turns are the team's (805.8). The active team attacks and the whole other team
defends (506.2b, 805.10a); "the defending player" of a one-shot effect is one of them (805.10e).

>>> starting_life(2), starting_life(3), poison_limit(3)
(30, 45, 20)
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.ending import life_of
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, step
from rulesjudge.scenarios.model.table import Options, TableState, frozen
from rulesjudge.scenarios.model.variant import SetupProblem, Variant, equal_teams

Result = tuple[TableState, list[Step]]


def starting_life(team_size: int) -> int:
    """A team's shared starting life: 30, and 15 more per player beyond the second (810.4, 810.11)."""
    return 30 + 15 * max(0, team_size - 2)


def poison_limit(team_size: int) -> int:
    """Poison counters that make a team lose: fifteen, and five more per player beyond the second."""
    return 15 + 5 * max(0, team_size - 2)


def _one_life_per_team(setup: Setup) -> list[SetupProblem]:
    """``game.life`` giving two heads of one team different totals: a team has one life total (810.9), so
    the table can't be read; the same number twice is the team's total written for each head."""
    problems = []
    for team in setup.teams:
        given = {p: setup.life[p] for p in team.members if p in setup.life}
        if len(set(given.values())) > 1:
            written = ", ".join(f"{p}: {n}" for p, n in given.items())
            message = f"{written} - a Two-Headed Giant team has one shared life total (810.9)"
            problems.append(SetupProblem(("life",), message))
    return problems


class TwoHeadedGiant(Variant):
    """810: teams sharing a life total and poison counters, taking team turns, attacking as teams."""

    name = "two-headed-giant"
    title = "Two-Headed Giant"
    aliases = ("2HG", "THG", "2-headed giant", "two headed", "two-headed")
    uses_sections = (cr("805"),)  # 810.2: the shared team turns option
    cites = (cr("810.1"),)
    needs_teams = True
    shares_team_totals = True  # 810.9, 810.10: life_pool and poison_pool below
    min_players = 4
    min_players_rule = "810.1"  # two teams of two players each
    many_active = True
    active_rules = (cr("805.4a"), cr("102.1"))

    def starting_life(self, setup: Setup) -> int:
        return starting_life(len(setup.teams[0].members) if setup.teams else 2)

    def default_options(self, setup: Setup) -> Options:
        return Options(attack="multiple", deploy=False)  # 805.10a: the team attacks the other team as a group

    def validate_setup(self, setup: Setup) -> list[SetupProblem]:
        return equal_teams(setup, "Two-Headed Giant", "810.1, 810.11") + _one_life_per_team(setup)

    def legal_setup(self, state: TableState) -> Answer:
        """Two teams of two players (810.1), or equally sized larger teams (810.11), each seated together."""
        sizes = {len(t.members) for t in state.teams}
        if len(state.teams) != 2:
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
                f"Two teams of {size}, each seated together: a legal Two-Headed Giant table.",
                *rules,
                cr("810.3"),
            )
        ]

    # --- the team as one ------------------------------------------------------------------------------
    def _team(self, state: TableState, player: str) -> tuple[str, ...]:
        team = self.team_of(state, player)
        return team.members if team else (player,)

    def life_pool(self, state: TableState, player: str) -> str:
        team = self.team_of(state, player)
        return team.name if team else player

    def poison_pool(self, state: TableState, player: str) -> str:
        return self.life_pool(state, player)

    def poison_limit(self, state: TableState, player: str) -> tuple[int, tuple[Cite, ...]]:
        size = len(self._team(state, player))
        rules = (cr("704.6b"), cr("810.8d"), *((cr("810.11"),) if size > 2 else ()))
        return poison_limit(size), rules

    def fate_group(self, state: TableState, player: str) -> tuple[str, ...]:
        return self._team(state, player)

    def turn_group(self, state: TableState, player: str) -> tuple[str, ...]:
        return tuple(p for p in self._team(state, player) if state.is_in(p)) or (player,)

    def priority_unit(self, state: TableState, player: str) -> tuple[str, ...]:
        return self.turn_group(state, player)

    def apnap_order(self, state: TableState) -> Answer:
        """805.6: the active team's players make their choices first, in whatever order that team likes,
        then each nonactive team's in turn order. The answer keeps seat order within each team and names
        each order the teams may choose."""
        order, _ = super().apnap_order(state)
        teams: list[list[str]] = []
        for player in order:
            if teams and player in self._team(state, teams[-1][0]):
                teams[-1].append(player)
            else:
                teams.append([player])
        readings = []
        for i, team in enumerate(teams):
            if len(team) > 1:  # one other order per team; with three heads there are more
                before, after = teams[:i], teams[i + 1 :]
                other = [p for t in before for p in t] + team[::-1] + [p for t in after for p in t]
                text = f"{' and '.join(team)} choose the order {', '.join(team[::-1])}"
                readings.append(Reading(text, other, (cr("805.6"),)))
        named = "; then ".join(", ".join(team) for team in teams)
        return order, [
            step(
                f"Under shared team turns the active team makes its choices first, then each other team in "
                f"turn order ({named}); each team's players go in whatever order that team likes.",
                cr("805.6"),
                alternatives=tuple(readings),
            )
        ]

    def expand_leavers(
        self, state: TableState, players: Sequence[str], how: str
    ) -> tuple[list[str], list[Step]]:
        """810.8a: a player who loses takes the whole team; the model extends it to a draw (104.4g)."""
        going = list(players)
        rest = [p for p in state.in_game if p not in going and set(self._team(state, p)) & set(going)]
        if not rest:
            return going, []
        if how == "conceded":  # "their team leaves the game immediately": with the conceder, not after
            why = step(
                f"A player conceded: the team leaves the game at once and loses, {', '.join(rest)} with "
                "them.",
                cr("810.8b"),
            )
        elif how == "drew":
            why = step(
                "Players win and lose only as a team, so the draw is a draw for the whole team.",
                cr("810.8a"),
                cr("104.4g"),
            )
        else:
            why = step(
                f"{', '.join(going)} lost, so the team loses as a team: {', '.join(rest)} too.", cr("810.8a")
            )
        return going + rest, [why]

    # --- turns and combat -----------------------------------------------------------------------------
    def next_normal_turn(self, state: TableState) -> tuple[str | None, list[str]]:
        """805.4: teams take turns; the next team with a player in the game takes the next one."""
        current = state.normal_turn or state.turn_player
        if current is None:
            return (state.in_game[0] if state.in_game else None), []
        names = [t.name for t in state.teams]
        own = self.team_of(state, current)
        start = names.index(own.name) if own else -1
        for k in range(1, len(names) + 1):
            team = state.teams[(start + k) % len(names)]
            players = [p for p in team.members if state.is_in(p)]
            if players:
                return players[0], []
        return None, []

    def attackers(self, state: TableState) -> tuple[str, ...]:
        return state.active_players

    def defending_players(self, state: TableState) -> Answer:
        """Every player still in the game on the nonactive team is a defending player (506.2b, 805.10a)."""
        active = state.active_players
        if not active:
            return [], [
                step("There is no active team in the game, so there is no defending team.", cr("805.4a"))
            ]
        result = [p for p in state.in_game if p not in active]
        return result, [
            step(
                f"The active team ({', '.join(active)}) is the attacking team; the nonactive team "
                f"defends, each of its players a defending player: {', '.join(result) or 'none'}.",
                cr("506.2b"),
                cr("810.7"),
                cr("805.10a"),
            )
        ]

    def can_attack(self, state: TableState, attacker: str, defender: str) -> Answer:
        """In the attacker's team's own turn (``can-attack``'s one meaning in every variant; whether their
        team attacks now is ``can-attack-now``)."""
        ok, steps = super().can_attack(state, attacker, defender)
        if ok:
            steps.append(
                step("Each team's creatures attack the other team as a group.", cr("810.7"), cr("805.10a"))
            )
        return ok, steps

    def can_block(self, state: TableState, blocker: str, defender: str, attacker: str) -> Answer:
        """805.10d: creatures the defending players control can block creatures attacking any player on
        the defending team (or a planeswalker or battle of theirs): one combined block."""
        team = self.team_of(state, blocker)
        if team is not None and defender in team.members:
            why = "blocks for the team" if defender != blocker else "blocks"
            return True, [step(f"{blocker} {why}: the defending team has one combined block.", cr("805.10d"))]
        return False, [
            step(f"{attacker} is attacking {defender or 'nothing'}, who is not on {blocker}'s team: only the "
                 "defending team blocks it.", cr("805.10d"))
        ]

    # --- life totals ------------------------------------------------------------------------------------
    def set_life(self, state: TableState, totals: Sequence[tuple[str, int]]) -> Result | None:
        """810.9c: a single player's life total set to a number adjusts the team's total by what that player
        gains or loses; 810.9d: one effect setting each player's on a team: the team chooses one of them."""
        steps: list[Step] = []
        life = dict(state.life)
        by_team: dict[str, list[tuple[str, int]]] = {}
        for player, total in totals:
            if state.is_in(player):
                by_team.setdefault(self.life_pool(state, player), []).append((player, total))
        for pool, items in by_team.items():
            player, total = items[0]
            now = life_of(state, player)
            if len(items) > 1:
                values = list(dict.fromkeys(t for _, t in items))
                readings = (
                    tuple(Reading(f"the team chooses {p}: {t}", t, (cr("810.9d"),)) for p, t in items)
                    if len(values) > 1
                    else ()
                )
                steps.append(
                    step(
                        f"One effect sets the life totals of {', '.join(p for p, _ in items)}, on the "
                        f"same team: "
                        f"the team chooses one of them, {player}, and only that player is affected.",
                        cr("810.9d"),
                        alternatives=readings,
                    )
                )
            life[pool] = total
            verb = "gains" if total >= now else "loses"
            steps.append(
                step(
                    f"{player}'s life total is considered to be the team's, {now}; it becomes {total}, so "
                    f"{player} {verb} {abs(total - now)} life and the team's total is {total}.",
                    cr("810.9c"),
                    cr("810.9a"),
                    cr("119.5"),
                )
            )
        return state.with_(life=frozen(life)), steps
