"""The question registry: a question's text, its argument and answer kinds, and :func:`answer`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rulesjudge.scenarios.model.setup import did_you_mean
from rulesjudge.scenarios.model.steps import Answer
from rulesjudge.scenarios.model.table import TableState

#: Answer kinds: how an expected answer is checked and compared.
KINDS = {
    "player?": "a player or null",
    "players": "a list of players (compared as a set)",
    "order": "a list of players in order",
    "sequence": "a list of players in order, repeats allowed",
    "names": "a list of permanents (compared as a set)",
    "bool": "true or false",
    "int": "a whole number",
    "int?": "a whole number or null",
    "str?": "a word or null",
    "zone": "a zone, or {chosen-by: PLAYER, one-of: [ZONES]} where a player's choice decides it",
    "choice": "a player, null, or {chosen-by: PLAYER or [PLAYERS], one-of: [PLAYERS]}",
    "one-or-many": "a player, null, or a list of players (a team; several players taking turns)",
}


class QuestionError(ValueError):
    """A question that can't be asked (unknown name, wrong number of arguments)."""


@dataclass(frozen=True)
class Question:
    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})" if self.args else self.name


@dataclass(frozen=True)
class QuestionSpec:
    """``args``: kinds of the arguments (player, permanent, name: either); ``kind``: a key of
    :data:`KINDS`."""

    name: str
    args: tuple[str, ...]
    kind: str
    about: str
    fn: Callable[..., Answer]


QUESTIONS: dict[str, QuestionSpec] = {}
_QUESTION = re.compile(r"^\s*([a-z][a-z0-9-]*)\s*(?:\((.*)\))?\s*$")


def question(
    name: str, args: tuple[str, ...], kind: str, about: str
) -> Callable[[Callable[..., Answer]], QuestionSpec]:
    """Make a :class:`QuestionSpec` of an answer function ``fn(state, *args) -> (value, steps)``."""

    def wrap(fn: Callable[..., Answer]) -> QuestionSpec:
        return QuestionSpec(name, args, kind, about, fn)

    return wrap


def register_questions(*specs: QuestionSpec) -> None:
    for spec in specs:
        QUESTIONS[spec.name] = spec


def general(
    name: str, args: tuple[str, ...], kind: str, about: str
) -> Callable[[Callable[..., Answer]], QuestionSpec]:
    """:func:`question`, registered at once (the general questions every variant answers)."""

    def wrap(fn: Callable[..., Answer]) -> QuestionSpec:
        spec = QuestionSpec(name, args, kind, about, fn)
        register_questions(spec)
        return spec

    return wrap


def parse_question(text: str) -> Question:
    """``in-range(Ann, Ben)`` -> Question('in-range', ('Ann', 'Ben')); unknown names are errors."""
    match = _QUESTION.match(text)
    if not match:
        raise QuestionError(f"not a question: {text!r} (expected name or name(arg, ...))")
    name, raw = match.group(1), match.group(2)
    args = tuple(a.strip() for a in raw.split(",")) if raw is not None and raw.strip() else ()
    spec = QUESTIONS.get(name)
    if spec is None:
        known = ", ".join(sorted(QUESTIONS))
        raise QuestionError(f"unknown question '{name}'{did_you_mean(name, QUESTIONS)} (known: {known})")
    if len(args) != len(spec.args) or any(not a for a in args):
        want = f"{name}({', '.join(spec.args)})" if spec.args else name
        raise QuestionError(
            f"'{name}' takes {len(spec.args)} argument{'s' if len(spec.args) != 1 else ''}: {want}"
        )
    return Question(name, args)


def answer(state: TableState, asked: Question) -> Answer:
    """Answer one question about the state; every answer carries at least one cited step."""
    special = state.variant.answer(state, asked)
    if special is not None:
        return special
    return QUESTIONS[asked.name].fn(state, *asked.args)


def one_or_many(players: tuple[str, ...], many: bool) -> object:
    """A single player (or null) where one player takes a turn, a list where a team or several do."""
    if many:
        return list(players)
    return players[0] if players else None
