"""The questions only a Treachery table answers: a player's role and its face, the role everybody knows,
who holds or left with a role, and whether a player may unveil (205.3tr, 372, 907.4, 907.12, 702.187c).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rulesjudge.scenarios.model.citations import treachery
from rulesjudge.scenarios.model.ending import life_of
from rulesjudge.scenarios.model.questions import question
from rulesjudge.scenarios.model.steps import Answer, step
from rulesjudge.scenarios.model.table import TableState
from rulesjudge.scenarios.model.treachery_cards import ROLES, article, note_id, notes
from rulesjudge.scenarios.model.treachery_identities import can_unveil, left_with_role, role_holders


def _not_treachery(state: TableState) -> Answer | None:
    if state.variant.name != "treachery":
        return None, [step("Only Treachery games have identity cards.", treachery("372.1"))]
    return None


def _treachery_only(empty: Any) -> Callable[[Callable[..., Answer]], Callable[..., Answer]]:
    """A question only a Treachery table answers: at another table, ``empty`` and the step saying why
    (372.1)."""

    def wrap(fn: Callable[..., Answer]) -> Callable[..., Answer]:
        @functools.wraps(fn)
        def asked(state: TableState, *args: str) -> Answer:
            other = _not_treachery(state)
            return (empty, other[1]) if other else fn(state, *args)

        return asked

    return wrap


def _departed_role(state: TableState, player: str, text: str) -> Answer:
    """A player who left: the role of the last identity card they controlled, revealed as they left."""
    last = state.departed.get(player)
    role = last.role if last else None
    return role, [
        step(
            text.format(player=player, role=article(role or "none")),
            treachery("907.12"),
            treachery("907.13"),
            treachery("702.187g"),
        )
    ]


@question("role", ("player",), "str?", "the role of the identity card the player controls")
@_treachery_only(None)
def _role(state: TableState, player: str) -> Answer:
    card = state.identities.get(player)
    if card is None:
        return _departed_role(state, player, "{player} left the game; their last identity card was {role}.")
    text = f"{player} controls {article(card.role)} identity card" + (
        " (face down)." if card.face == "down" else "."
    )
    return card.role, [step(text, treachery("205.3tr"), treachery("372.3"), *notes(card))]


def _role_word(state: TableState, role: str) -> Answer | None:
    """None for a role of 205.3tr (in any case); otherwise the answer saying so."""
    if role.lower() in ROLES:
        return _not_treachery(state)
    return [], [step(f"'{role}' is not an identity type: {', '.join(ROLES)}.", treachery("205.3tr"))]


@question("role-holders", ("role",), "players", "players in the game controlling an identity of that role")
def _role_holders(state: TableState, role: str) -> Answer:
    other = _role_word(state, role)
    if other:
        return [], other[1]
    return role_holders(state.identities, state.departed, role.lower())


@question("left-with-role", ("role",), "players", "players who left whose last identity had that role")
def _left_with_role(state: TableState, role: str) -> Answer:
    other = _role_word(state, role)
    if other:
        return [], other[1]
    return left_with_role(state.departed, role.lower())


@question("face", ("player",), "str?", "up or down: the identity card the player controls")
@_treachery_only(None)
def _face(state: TableState, player: str) -> Answer:
    card = state.identities.get(player)
    if card is None or not state.is_in(player):
        return None, [step(f"{player} controls no identity card in the game.", treachery("907.13"))]
    rule = treachery("907.4a") if card.role == "leader" else treachery("907.4b")
    return card.face, [step(f"{player}'s identity card is face {card.face}.", rule, *notes(card))]


@question("known-role", ("player",), "str?", "the role everybody knows the player's identity to have")
@_treachery_only(None)
def _known_role(state: TableState, player: str) -> Answer:
    card = state.identities.get(player)
    if card is None:
        return _departed_role(
            state, player, "{player} left the game: their identity card was revealed, {role}."
        )
    if card.face == "up":
        return card.role, [
            step(
                f"{player}'s identity card is face up: {article(card.role)}.",
                treachery("907.4c"),
                *notes(card),
            )
        ]
    if state.game_over:
        return card.role, [
            step(
                f"The game is over: {player}'s face-down identity card is revealed, {article(card.role)}.",
                treachery("907.13"),
                treachery("702.187g"),
                *notes(card),
            )
        ]
    if card.seen:
        return card.role, [
            step(
                f"{player}'s identity card is face down now, but it was face up: players remember its "
                f"role, {card.role.title()}.",
                treachery("907.5d"),
                *notes(card),
                note_id("The Gatekeeper"),
            )
        ]
    return None, [
        step(
            f"{player}'s identity card has never been face up: its role is secret.",
            treachery("907.4c"),
            *notes(card),
        )
    ]


@question("can-unveil", ("player",), "bool", "may the player unveil their identity now")
@_treachery_only(False)
def _can_unveil(state: TableState, player: str) -> Answer:
    return can_unveil(
        state.identities, player, state.in_game, life_of(state, player) if state.is_in(player) else None
    )


#: The Treachery variant's own questions, in the order the variant lists them.
TREACHERY_QUESTIONS = (_role, _face, _known_role, _can_unveil, _role_holders, _left_with_role)
