"""Multiplayer variants as objects with hook methods, and the registry ``VARIANTS`` keyed by the name the
scenario format uses (``free-for-all``, ``team-vs-team``, ``emperor``, ``two-headed-giant``,
``treachery``).

The base class :class:`Variant` holds the general rules (teams if the table has them, range of influence
and attack options from the table's options, 104 for ending the game); :class:`FreeForAll` is the
default. A variant module subclasses :class:`Variant`, overrides the hooks that differ, and registers an
instance with :func:`register_variant`; this module imports the known variant modules at the end.

>>> VARIANTS["free-for-all"].name
'free-for-all'
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesjudge.scenarios.model import influence, teams
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import Options, TableState, Team, turn_order

if TYPE_CHECKING:
    from rulesjudge.scenarios.model.events import Event
    from rulesjudge.scenarios.model.questions import Question

Answer = tuple[Any, list[Step]]


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

    # --- setting the table -------------------------------------------------------------------
    def starting_life(self, setup: Any) -> int:
        """103.4 (20 life), or 40 in a Commander game (903.7)."""
        return 40 if getattr(setup, "commander", False) else 20

    def default_options(self, setup: Any) -> Options:
        return Options(attack="multiple")

    def seating(self, setup: Any) -> tuple[str, ...]:
        """Seats clockwise: ``players`` when given, else the teams' members in order."""
        if setup.players:
            return tuple(setup.players)
        return tuple(p for team in setup.team_list() for p in team.members)

    def build_teams(self, setup: Any) -> tuple[Team, ...]:
        return tuple(setup.team_list())

    def first_player(self, setup: Any, seats: tuple[str, ...]) -> str:
        """Who takes the first turn when the setup doesn't say (the first seat)."""
        return seats[0]

    def validate_setup(self, setup: Any) -> list[SetupProblem]:
        """Input errors in a setup for this variant (wrong team sizes, missing identities, ...)."""
        return []

    def legal_setup(self, state: TableState) -> Answer:
        """Does the setup follow the variant's rules? (Not an input error: an answer with the rule.)"""
        return True, [
            Step(f"{self.title}: any number of players may play, seated in any agreed order.", (cr("800.5"),))
        ]

    def prepare(self, state: TableState) -> TableState:
        """A last look at the state built from a setup (variants fill ``extra`` here)."""
        return state

    # --- who is who --------------------------------------------------------------------------
    def life_pool(self, state: TableState, player: str) -> str:
        """The key of the life total a player's life changes go to (a team's in Two-Headed Giant)."""
        return player

    def team_of(self, state: TableState, player: str) -> Team | None:
        return teams.team_containing(state, player)

    def team_name(self, state: TableState, player: str) -> Answer:
        team = self.team_of(state, player)
        if team is None:
            return None, [Step(f"{player} plays as an individual, on no team.", (cr("806.1"),))]
        return team.name, [Step(f"{player} is on team {team.name}.", (cr("102.3"),))]

    def teammates(self, state: TableState, player: str) -> Answer:
        mates = teams.teammates_of(state, player)
        return list(mates), teams.teammates_steps(state, player, mates)

    def opponents(self, state: TableState, player: str) -> Answer:
        mates, _ = self.teammates(state, player)
        foes = teams.opponents_of(state, player, mates)
        return list(foes), teams.opponents_steps(state, player, foes)

    def sides(self, state: TableState) -> list[tuple[str, ...]]:
        return teams.sides(state)

    # --- range and combat --------------------------------------------------------------------
    def range_of(self, state: TableState, player: str) -> int | None:
        return state.options.range_of(player)

    def range_steps(self, state: TableState, player: str) -> list[Step]:
        reach = self.range_of(state, player)
        if reach is None:
            return [
                Step(
                    "The limited range of influence option is not used: range is unlimited.",
                    (cr("801.1"), cr("806.2a")),
                )
            ]
        return [
            Step(
                f"{player}'s range of influence is {reach} seat{'s' if reach != 1 else ''}.",
                (cr("801.2"), cr("801.2a")),
            )
        ]

    def can_attack(self, state: TableState, attacker: str, defender: str) -> Answer:
        foes, _ = self.opponents(state, attacker)
        return influence.can_attack(state, attacker, defender, foes, self.range_of(state, attacker))

    def defending_players(self, state: TableState) -> Answer:
        """Who the defending players are in the active player's combat (506.2a, 802.2, 803)."""
        attacker = state.active
        if attacker is None:
            return [], [
                Step(
                    "There is no active player, so there is no attacking player and no defending player.",
                    (cr("800.4j"), cr("506.2")),
                )
            ]
        foes, _ = self.opponents(state, attacker)
        allowed = [p for p in foes if self.can_attack(state, attacker, p)[0]]
        if state.options.attack == "multiple":
            return allowed, [
                Step(
                    f"All of {attacker}'s opponents it can attack are defending players.",
                    (cr("506.2a"), cr("802.2")),
                )
            ]
        if len(allowed) <= 1:
            return allowed, [Step("The option in use dictates the defending player.", (cr("506.2a"),))]
        from rulesjudge.scenarios.model.steps import Reading

        return allowed, [
            Step(
                f"{attacker} chooses one of {', '.join(allowed)} as the defending player.",
                (cr("506.2a"),),
                tuple(Reading(f"{attacker} chooses {p}", [p], (cr("506.2a"),)) for p in allowed),
            )
        ]

    def apnap_order(self, state: TableState) -> Answer:
        order = list(turn_order(state))
        return order, [
            Step(
                "The active player makes choices first, then each other player in turn order.", (cr("101.4"),)
            )
        ]

    # --- leaving and the end of the game -------------------------------------------------------
    def expand_leavers(
        self, state: TableState, players: Sequence[str], how: str
    ) -> tuple[list[str], list[Step]]:
        """Players who leave together with ``players`` (a whole team in Two-Headed Giant, 810.8b)."""
        return list(players), []

    def on_leave(self, state: TableState, leavers: Sequence[str]) -> tuple[TableState, list[Step]]:
        """Variant-specific consequences once ``leavers`` have left (identity cards, 907.11-907.13)."""
        return state, []

    def game_result(self, state: TableState) -> tuple[TableState, list[Step]]:
        """Check whether the game is over and who won (104.2a, 104.2c)."""
        return teams.settle_game_end(state, self.sides(state))

    # --- extensions ----------------------------------------------------------------------------
    def apply_event(self, state: TableState, event: Event) -> tuple[TableState, list[Step]] | None:
        """Handle an event this variant treats differently; None lets the general rules handle it."""
        return None

    def answer(self, state: TableState, question: Question) -> Answer | None:
        """Answer a question this variant treats differently; None lets the general rules answer."""
        return None


class FreeForAll(Variant):
    """806: players compete as individuals; attack multiple players by default (806.2b)."""

    name = "free-for-all"
    title = "Free-for-All"
    cites = (cr("806.1"),)

    def validate_setup(self, setup: Any) -> list[SetupProblem]:
        return []


VARIANTS: dict[str, Variant] = {}


def register_variant(variant: Variant) -> Variant:
    """Add a variant to the registry under its format name."""
    VARIANTS[variant.name] = variant
    return variant


def variant_of(state: TableState) -> Variant:
    return VARIANTS.get(state.variant) or VARIANTS["free-for-all"]


register_variant(FreeForAll())

# The variant modules register themselves when imported; they import this module, so they come last.
for _module in ("team_vs_team", "emperor", "two_headed_giant", "treachery"):
    importlib.import_module(f"rulesjudge.scenarios.model.{_module}")
