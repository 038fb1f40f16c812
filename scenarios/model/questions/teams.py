"""Questions about teams: opponents, teammates, the team's name, the setup's legality."""

from __future__ import annotations

from rulesjudge.scenarios.model.questions.base import general
from rulesjudge.scenarios.model.steps import Answer
from rulesjudge.scenarios.model.table import TableState


@general("opponents", ("player",), "players", "the player's opponents still in the game")
def _opponents(state: TableState, player: str) -> Answer:
    return state.variant.opponents(state, player)


@general("teammates", ("player",), "players", "the player's teammates still in the game")
def _teammates(state: TableState, player: str) -> Answer:
    return state.variant.teammates(state, player)


@general("team", ("player",), "str?", "the variant's name for the player's team")
def _team(state: TableState, player: str) -> Answer:
    return state.variant.team_name(state, player)


@general("legal-setup", (), "bool", "whether the setup follows the variant's rules")
def _legal(state: TableState) -> Answer:
    return state.variant.legal_setup(state)
