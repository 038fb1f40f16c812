"""Multiplayer variants as objects with hook methods: the general rules live here, a variant overrides
the hooks where its rules differ.

:class:`Variant` holds the general rules (teams if the table has them, range of influence and attack options
from the table's options, 104 for ending the game); :class:`FreeForAll` (806) is the default and
:class:`Commander` (903) is Free-for-All with the Commander rules. A variant module subclasses
:class:`Variant` and lists its own events and questions; ``scenarios/model/__init__.py`` registers it.

The table state carries its variant (``state.variant``), so the rules ask it directly:

>>> from rulesjudge.scenarios.model.setup import Setup
>>> FreeForAll().starting_life(Setup(players=["Ann", "Ben"])), Commander().starting_life(Setup())
(20, 40)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rulesjudge.scenarios.model import influence, teams
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, step
from rulesjudge.scenarios.model.table import (
    Options,
    TableState,
    Team,
    Trigger,
    next_in_turn_order,
    turn_order,
)

if TYPE_CHECKING:
    from rulesjudge.scenarios.model.events import Event
    from rulesjudge.scenarios.model.questions import Question, QuestionSpec

Result = tuple[TableState, list[Step]]

#: The general rules' numbers of a game, read by the hooks below; a variant whose rules differ overrides the
#: hook (Two-Headed Giant's shared life and poison, 810.4, 810.8d)
STARTING_LIFE = 20  # 103.4
COMMANDER_STARTING_LIFE = 40  # 903.7
POISON_LIMIT = 10  # 704.5c: ten or more poison counters lose the game
COMMANDER_DAMAGE_LIMIT = 21  # 704.6c, 903.10a: this much combat damage from one commander loses the game


@dataclass(frozen=True)
class SetupProblem:
    """Something wrong with a setup for a variant: ``path`` within ``game`` (e.g. ``("teams", 1)``)."""

    path: tuple[str | int, ...]
    message: str


class Variant:
    """The general rules; each hook is what a variant may change."""

    name = "base"
    title = "Multiplayer game"
    cites: tuple[Cite, ...] = (cr("800.2"),)
    #: The variant's own events and questions (registered with the core's by ``scenarios.model``).
    events: ClassVar[tuple[type[Event], ...]] = ()
    questions: ClassVar[tuple[QuestionSpec, ...]] = ()
    #: May the setup seat teams (``teams:``)? Not where teams come from elsewhere (identity cards).
    allows_teams = True
    #: Is this always a Commander game (903)?
    always_commander = False
    #: Do several players take a turn at once (shared team turns, Grand Melee)? ``active`` is then a list.
    many_active = False
    active_rules: tuple[Cite, ...] = (cr("102.1"),)

    # --- the table a form starts from: the app asks these, so each fact has one home -----------------
    #: Is the table seated in teams the setup states (802, 805, 808-811)? The form then has a teams field.
    needs_teams: ClassVar[bool] = False
    #: Does each team sit together (808.2, 809.2, 810.1)? Then the teams, in order, are the seats; otherwise
    #: the players field gives the seats and the teams only group them (811.3: teammates spaced out).
    teams_sit_together: ClassVar[bool] = True
    #: Does each team share one life total and one poison count (810.9, 810.10)? Then an amount said of a
    #: team ("Cat's team is at 3") is said of that total, once; the model's ``life_pool`` says where it goes.
    shares_team_totals: ClassVar[bool] = False
    #: Does each team have an emperor in its middle seat (809.2)?
    has_emperors: ClassVar[bool] = False
    #: Are identities dealt to the players (Treachery's identity cards, 907.3)?
    has_identities: ClassVar[bool] = False
    #: The fewest players a legal table of this variant has, and the rule that says so.
    min_players: ClassVar[int] = 2
    min_players_rule: ClassVar[str] = "800.1"
    #: The model's standard questions a new table of this variant is asked first.
    default_questions: ClassVar[tuple[str, ...]] = (
        "active", "monarch", "initiative", "turn-order", "in-game", "game-over", "winners")
    #: Other names players give the variant ("2HG", "EDH"), read in questions beside its name and title.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: The documents whose numbers a rule number of this variant names first (Treachery's own rules, then CR).
    documents: ClassVar[tuple[str, ...]] = ("cr",)

    #: Sections of the rules the variant plays by besides its own (Two-Headed Giant: 805, shared team turns).
    uses_sections: ClassVar[tuple[Cite, ...]] = ()

    @property
    def own_sections(self) -> tuple[Cite, ...]:
        """The sections of the variant's own rules (from its ``cites``) and those it uses: a search about its
        table reads them first, then the general rules.

        >>> Commander().own_sections
        (Cite(document='cr', local='903'),)
        """
        own = (Cite(c.document, c.local.split(".")[0]) for c in self.cites)
        return tuple(dict.fromkeys((*own, *self.uses_sections)))

    def default_teams(self, players: Sequence[str]) -> list[list[str]]:
        """Teams this variant's rules accept for ``players`` in seat order ([] when it has no teams): two
        teams of equal size, each sitting together.

        >>> Variant().default_teams(["Ann", "Ben", "Cat", "Dan"])
        []
        """
        if not self.needs_teams:
            return []
        half = max(1, len(players) // 2)
        return [list(players[:half]), list(players[half:half * 2])]

    def default_identities(self, players: Sequence[str]) -> dict[str, str]:
        """Identities dealt to ``players`` for a legal table ({} when the variant deals none)."""
        return {}

    # --- setting the table -------------------------------------------------------------------
    def starting_life(self, setup: Setup) -> int:
        """103.4 (20 life), or 40 in a Commander game (903.7)."""
        return COMMANDER_STARTING_LIFE if setup.commander or self.always_commander else STARTING_LIFE

    def default_options(self, setup: Setup) -> Options:
        return Options(attack="multiple")

    def build_teams(self, setup: Setup) -> tuple[Team, ...]:
        return tuple(
            Team(name, t.members, t.emperor) for name, t in zip(setup.team_names(), setup.teams, strict=True)
        )

    def first_players(self, setup: Setup, seats: tuple[str, ...]) -> tuple[str, ...]:
        """Who may take the first turn when the setup doesn't say (103.1: the players decide; the first
        seat is taken); the first of them starts."""
        return (seats[0],)

    def first_player_steps(self, state: TableState) -> list[Step]:
        return [step("The players choose who takes the first turn.", cr("103.1"))]

    def validate_setup(self, setup: Setup) -> list[SetupProblem]:
        """Input errors in a setup for this variant (wrong team sizes, missing identities, ...)."""
        return []

    def legal_setup(self, state: TableState) -> Answer:
        """Does the setup follow the variant's rules? (Not an input error: an answer with the rule.)"""
        return True, [
            step(f"{self.title}: any number of players may play, seated in any agreed order.", cr("800.5"))
        ]

    def prepare(self, state: TableState, setup: Setup) -> TableState:
        """A last look at the state built from a setup (identity cards, turn markers)."""
        return state

    # --- who is who --------------------------------------------------------------------------
    def life_pool(self, state: TableState, player: str) -> str:
        """The key of the life total a player's life changes go to (a team's in Two-Headed Giant)."""
        return player

    def poison_pool(self, state: TableState, player: str) -> str:
        """The key of the poison counters a player gets (a team's in Two-Headed Giant, 810.10)."""
        return player

    def poison_limit(self, state: TableState, player: str) -> tuple[int, tuple[Cite, ...]]:
        """Poison counters that make a player lose (704.5c)."""
        return POISON_LIMIT, (cr("704.5c"), cr("104.3d"))

    def fate_group(self, state: TableState, player: str) -> tuple[str, ...]:
        """Players an effect saying "X can't win / can't lose" applies to (810.8a: the whole team)."""
        return (player,)

    def turn_group(self, state: TableState, player: str) -> tuple[str, ...]:
        """Who takes a turn that is ``player``'s (805.4, 805.8: the whole team under shared team turns)."""
        return (player,)

    def priority_unit(self, state: TableState, player: str) -> tuple[str, ...]:
        """Who holds priority together with ``player`` (805.5: teams have priority)."""
        return (player,)

    def team_of(self, state: TableState, player: str) -> Team | None:
        return teams.team_containing(state, player)

    def team_name(self, state: TableState, player: str) -> Answer:
        team = self.team_of(state, player)
        if team is None:
            return None, [step(f"{player} plays as an individual, on no team.", cr("806.1"))]
        return team.name, [step(f"{player} is on team {team.name}.", cr("102.3"))]

    def teammates(self, state: TableState, player: str) -> Answer:
        mates = teams.teammates_of(state, player)
        return list(mates), teams.teammates_steps(state, player, mates)

    def opponents(self, state: TableState, player: str) -> Answer:
        mates, _ = self.teammates(state, player)
        foes = teams.opponents_of(state, player, mates)
        return list(foes), teams.opponents_steps(state, player, foes)

    def sides(self, state: TableState) -> list[tuple[str, ...]]:
        return teams.sides(state)

    def winners_of(self, state: TableState, player: str) -> tuple[list[str], list[Step]]:
        """Who wins when an effect says ``player`` wins (104.2b): the player, or their team."""
        team = self.team_of(state, player)
        if team is None:
            return [player], []
        return list(team.members), [step(f"{player}'s team, {team.name}, wins with them.", cr("104.2c"))]

    # --- range and combat --------------------------------------------------------------------
    def range_of(self, state: TableState, player: str) -> int | None:
        return state.options.range_of(player)

    def limited_range(self, state: TableState) -> bool:
        """Is the limited range of influence option in use (801.1)? It is as soon as any seat has a limited
        range: 801.2a lets players have different ranges, and a player whose range the table leaves
        unlimited still plays under the option's rules (801.14: their win effect makes every opponent lose
        instead)."""
        return any(self.range_of(state, p) is not None for p in state.seats)

    def range_steps(self, state: TableState, player: str) -> list[Step]:
        reach = self.range_of(state, player)
        if reach is None and state.options.ranges:
            # 801.2a: players may have different ranges; one the table's map leaves out has none chosen
            return [step(f"No range of influence is chosen for {player}: their range is unlimited.",
                         cr("801.2a"))]
        if reach is None:
            return [
                step(
                    "The limited range of influence option is not used: range is unlimited.",
                    cr("801.1"),
                    cr("806.2a"),
                )
            ]
        seats = "seat" if reach == 1 else "seats"
        return [step(f"{player}'s range of influence is {reach} {seats}.", cr("801.2"), cr("801.2a"))]

    def attackers(self, state: TableState) -> tuple[str, ...]:
        """The attacking players this turn (506.2: the active player; 805.10a: the active team)."""
        return state.active_players

    def can_attack(self, state: TableState, attacker: str, defender: str) -> Answer:
        foes, _ = self.opponents(state, attacker)
        return influence.can_attack(state, attacker, defender, foes, self.range_of(state, attacker))

    def can_block(self, state: TableState, blocker: str, defender: str, attacker: str) -> Answer:
        """May creatures ``blocker`` controls block ``attacker``, whose attack is against ``defender`` (the
        player, the planeswalker's controller or the battle's protector)? 509.1a, 802.4a: only the player
        it attacks."""
        if blocker == defender:
            return True, []
        rules = (cr("509.1a"), *((cr("802.4a"),) if len(state.seats) > 2 else ()))
        return False, [
            step(
                f"{attacker} is attacking {defender or 'nothing'}: {blocker}, not the player it attacks, "
                "can't block it (a defending player blocks only creatures attacking them, a planeswalker "
                "they control or a battle they protect).",
                *rules,
            )
        ]

    def defending_players(self, state: TableState) -> Answer:
        """Who the defending players are in the active player's combat (506.2a, 802.2, 803)."""
        attacking = self.attackers(state)
        if not attacking:
            return [], [
                step(
                    "There is no active player, so there is no attacking player and no defending player.",
                    cr("800.4j"),
                    cr("506.2"),
                )
            ]
        attacker = attacking[0]
        foes, _ = self.opponents(state, attacker)
        allowed = [p for p in foes if self.can_attack(state, attacker, p)[0]]
        if state.options.attack == "multiple":
            return allowed, [
                step(
                    f"All of {attacker}'s opponents it can attack are defending players.",
                    cr("506.2a"),
                    cr("802.2"),
                )
            ]
        if len(allowed) <= 1:
            return allowed, [step("The option in use dictates the defending player.", cr("506.2a"))]
        readings = tuple(Reading(f"{attacker} chooses {p}", [p], (cr("506.2a"),)) for p in allowed)
        return allowed, [
            step(
                f"{attacker} chooses one of {', '.join(allowed)} as the defending player.",
                cr("506.2a"),
                alternatives=readings,
            )
        ]

    def stack_of(self, state: TableState, player: str) -> tuple[Trigger, ...]:
        """The stack ``player`` would cast a spell onto (one stack, but 807.5 in Grand Melee)."""
        return state.stack

    def apnap_order(self, state: TableState) -> Answer:
        order = list(turn_order(state))
        return order, [
            step("The active player makes choices first, then each other player in turn order.", cr("101.4"))
        ]

    # --- turns -------------------------------------------------------------------------------------
    def next_normal_turn(self, state: TableState) -> tuple[str | None, list[str]]:
        """Whose normal turn comes next (101.4) and the seats skipped on the way (players who left, whose
        turns don't begin: 800.4k)."""
        current = state.normal_turn or state.turn_player
        if current is None:
            return (state.in_game[0] if state.in_game else None), []
        nxt = next_in_turn_order(state, current)
        skipped = []
        i = state.seats.index(current)
        for k in range(1, len(state.seats)):
            seat = state.seats[(i + k) % len(state.seats)]
            if seat == nxt:
                break
            skipped.append(seat)
        return nxt, skipped

    # --- leaving and the end of the game -------------------------------------------------------
    def expand_leavers(
        self, state: TableState, players: Sequence[str], how: str
    ) -> tuple[list[str], list[Step]]:
        """Players who leave together with ``players`` (a whole team in Two-Headed Giant, 810.8b)."""
        return list(players), []

    def on_leave(self, state: TableState, leavers: Sequence[str]) -> Result:
        """Variant-specific consequences once ``leavers`` have left (identity cards, 907.11-907.13)."""
        return state, []

    def game_result(self, state: TableState) -> Result:
        """Check whether the game is over and who won (104.2a, 104.2c)."""
        return teams.settle_game_end(state, self.sides(state))

    def set_life(self, state: TableState, totals: Sequence[tuple[str, int]]) -> Result | None:
        """Life totals set to a number (119.5); a variant with shared life totals says how (810.9c/d)."""
        return None

    # --- extensions ----------------------------------------------------------------------------
    def apply_event(self, state: TableState, event: Event) -> Result | None:
        """Handle an event this variant treats differently; None lets the general rules handle it."""
        return None

    def answer(self, state: TableState, question: Question) -> Answer | None:
        """Answer a question this variant treats differently; None lets the general rules answer."""
        return None


def equal_teams(setup: Setup, title: str, rules: str) -> list[SetupProblem]:
    """Input errors of a variant played by teams of equal size: no teams, or a team of another size."""
    if not setup.teams:
        return [SetupProblem(("teams",), f"a {title} game needs teams ({rules})")]
    size = len(setup.teams[0].members)
    return [
        SetupProblem(
            ("teams", i), f"{title} teams must be of equal size: {size} and {len(t.members)} ({rules})"
        )
        for i, t in enumerate(setup.teams)
        if len(t.members) != size
    ]


class FreeForAll(Variant):
    """806: players compete as individuals; attack multiple players by default (806.2b)."""

    name = "free-for-all"
    title = "Free-for-All"
    aliases: ClassVar[tuple[str, ...]] = ("FFA", "free for all")
    cites = (cr("806.1"),)


class Commander(FreeForAll):
    """903: Free-for-All with the attack multiple players option and unlimited range (903.2), 40 life
    (903.7), commanders and commander damage (903.8-903.10; ``commander: true`` adds them to any variant)."""

    name = "commander"
    title = "Commander"
    aliases = ("EDH", "a Commander game")
    cites = (cr("903.1"),)
    always_commander = True

    def legal_setup(self, state: TableState) -> Answer:
        return True, [
            step(
                "A Commander game may be a two-player or a multiplayer game; the default multiplayer "
                "setup is Free-for-All with attack multiple players and unlimited range.",
                cr("903.2"),
            )
        ]
