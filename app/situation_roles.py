"""Treachery identities a question states (issue 23, :mod:`app.situation`): "Cat, Dan and Eve have all
unveiled as assassins", "Quinn has unveiled, he's the Guardian", "Ann, the leader, dies". A role said beside a
name is a fact that must hold at the table (907.3: the identities dealt); where it does, the words are taken
off and the unveiling is played as the event it was (702.187, 907.4b); where it doesn't, the question is left
as said and goes unread rather than answered for another deal.

>>> game = {"variant": "treachery", "players": ["Ann", "Ben", "Cat"],
...         "identities": {"Ann": "leader", "Ben": "assassin", "Cat": "traitor"}}
>>> unveiled_as("Ben has unveiled as an assassin. Then Ann dies.", game)
('Ben unveils. Then Ann dies.', ('Ben is an Assassin',))
>>> unveiled_as("Cat has unveiled as the Leader. Ann dies.", game)[1]
()
>>> unveiled_as("Ann has unveiled as the Leader. Then Ben dies.", game)  # face up from the start (907.4a)
('Then Ben dies.', ('Ann is the Leader',))
>>> role_appositive("Then Ann, the leader, dies. Who wins?", game)
('Then Ann dies. Who wins?', ('Ann is the Leader',))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rulesjudge.app.situation_teams import _names_of
from rulesjudge.app.situation_words import _an

_ROLES = r"(?P<role>leader|guardian|assassin|traitor)s?"
_NAME = r"(?!(?:has|have|had|all|both|already|just|unveiled|and|then|so|the)\b)[A-Za-z][\w'-]*"
_NAMES = rf"{_NAME}(?:(?:,? and |, ){_NAME})*"
_UNVEILED = re.compile(
    rf"^(?P<list>{_NAMES}) (?:has |have |had )?(?:(?:all|both|already|just) )*unveiled"
    r"(?: (?:their|his|her) identit(?:y|ies)(?: cards?)?)?"
    rf"(?:(?: as (?:the |an? )?{_ROLES})|,? (?P<pronoun>he|she|they)(?:'s|'re| is| are) "
    rf"(?:the |an? |both |all )?(?P<role2>leader|guardian|assassin|traitor)s?)?"
    r"(?: a while ago| already| earlier| before| previously| last turn)?(?=[,;.!?]| and\b|$)", re.IGNORECASE)
_APPOSITIVE = re.compile(rf"\b(?P<name>[A-Za-z][\w'-]*), (?:the |an? ){_ROLES}, ", re.IGNORECASE)


def _held(game: Mapping[str, Any], player: str) -> str:
    identities = game.get("identities") or {}
    held = identities.get(player) if isinstance(identities, Mapping) else None
    return str((held.get("role") if isinstance(held, Mapping) else held) or "").lower()


def _seated(game: Mapping[str, Any], name: str) -> str | None:
    players = [str(p) for p in game.get("players") or ()]
    return next((p for p in players if p.casefold() == name.casefold()), None)


def unveiled_as(text: str, game: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """Unveilings said first, in the past ("Quinn unveiled as the Guardian a while ago"): the event, played
    first as it was said first, and each role said, checked against the identities (none: left as said)."""
    said = _UNVEILED.match(text)
    if said is None or not game.get("identities"):
        return text, ()
    players = [_seated(game, n) for n in _names_of(said["list"])]
    if None in players or not players:
        return text, ()
    role = (said["role"] or said["role2"] or "").lower()
    if said["pronoun"] and len(players) > 1:
        return text, ()
    if role and any(_held(game, p or "") != role for p in players):
        return text, ()
    names = [p for p in players if p]
    facts = tuple(f"{p} is {_an(role)}" for p in names) if role else ()
    hidden = [p for p in names if not _face_up(game, p)]  # a card face up already is not turned again
    if not hidden:
        return re.sub(r"^[\s,.;:!?-]*", "", text[said.end():]), facts
    who = hidden[0] if len(hidden) == 1 else ", ".join(hidden[:-1]) + f" and {hidden[-1]}"
    return f"{who} unveil{'s' if len(hidden) == 1 else ''}" + text[said.end():], facts


def _face_up(game: Mapping[str, Any], player: str) -> bool:
    """Is the player's identity card face up at the table: as the file says, else as dealt (907.4a: a
    Leader's face up, 907.4b: the others face down)."""
    identities = game.get("identities") or {}
    held = identities.get(player) if isinstance(identities, Mapping) else None
    face = held.get("face") if isinstance(held, Mapping) else None
    return face == "up" if face else _held(game, player) == "leader"


def role_appositive(text: str, game: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """ "Ann, the leader, dies": the role beside the name, a fact checked against the identities."""
    facts: list[str] = []

    def checked(match: re.Match[str]) -> str:
        who = _seated(game, match["name"])
        role = match["role"].lower()
        if who is None or _held(game, who) != role:
            return match[0]
        facts.append(f"{who} is {_an(role)}")
        return f"{who} "

    return _APPOSITIVE.sub(checked, text), tuple(facts)
