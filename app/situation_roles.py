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
>>> role_appositive("Cat the traitor is the monarch", game)  # the role beside the name, no commas
('Cat is the monarch', ('Cat is a Traitor',))
>>> role_appositive("the leader Ben concedes", game)[1]  # Ben is an assassin: left as said, unread
()
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rulesjudge.app.presenters import emperors
from rulesjudge.app.situation_teams import _names_of
from rulesjudge.app.situation_words import _an
from rulesjudge.scenarios.model.treachery import legal_identity_deck

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
#: the role said beside the name without commas: "Pia the traitor is the monarch", "the general Cy concedes"
_SEAT_ROLES = r"(?P<role>leader|guardian|assassin|traitor|emperor|general)"
_BESIDE = (re.compile(rf"\b(?P<name>{_NAME}) the {_SEAT_ROLES} (?!(?:is|was|are)\b)(?=\w)", re.IGNORECASE),
           re.compile(rf"\b(?P<name>{_NAME}) the {_SEAT_ROLES}(?= (?:is|was)\b)", re.IGNORECASE),
           re.compile(rf"\bthe {_SEAT_ROLES} (?P<name>{_NAME})\b ?", re.IGNORECASE))


def _held(game: Mapping[str, Any], player: str) -> str:
    identities = game.get("identities") or {}
    held = identities.get(player) if isinstance(identities, Mapping) else None
    return str((held.get("role") if isinstance(held, Mapping) else held) or "").lower()


def _seated(game: Mapping[str, Any], name: str) -> str | None:
    # a table of teams alone (Emperor) seats its players through its teams
    seated = game.get("players") or [p for team in game.get("teams") or () for p in team]
    players = [str(p) for p in seated]
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

    text = _APPOSITIVE.sub(checked, text)
    for beside in _BESIDE:
        text = beside.sub(lambda m: _beside(m, game, facts), text)
    return text, tuple(facts)


def _holds(game: Mapping[str, Any], who: str, role: str) -> bool:
    """Does ``who`` hold ``role`` at the table: an identity (907.3), or an Emperor's seat (809.2: the middle
    one of each team; the other two are generals)."""
    if role in ("emperor", "general"):
        return bool(game.get("teams")) and (who in emperors(dict(game))) == (role == "emperor")
    return _held(game, who) == role


def _beside(match: re.Match[str], game: Mapping[str, Any], facts: list[str]) -> str:
    """ "Pia the traitor", "the general Cy": the name alone when the role holds (a fact said); as said when it
    doesn't, so the question goes unread rather than answered for another deal or seating."""
    who = _seated(game, match["name"])
    role = match["role"].lower()
    if who is None or not _holds(game, who, role):
        return match[0]
    facts.append(f"{who} is {_an(role)}")
    return who + (" " if match[0].endswith(" ") else "")


#: "treachery with alex as leader, bea traitor, chris and dana assassins.": the whole deal said with the
#: variant, one item a role (the pattern without its group names, to repeat it)
_DEAL_ITEM = rf"(?P<names>{_NAMES}) (?:as |is |are |= |- )?(?:the |an? |both |all )?{_ROLES}"
_ANY_ITEM = _DEAL_ITEM.replace("?P<names>", "").replace("?P<role>", "")
_DEAL = re.compile(r"^(?:(?:we(?:'re| are) playing |in |playing )?(?:a )?treachery(?: game)?"
                   rf"(?: with|:|,| -)? )(?P<deal>{_ANY_ITEM}(?:(?:,? and |, |; ){_ANY_ITEM})+)"
                   r"(?P<end>[.;:!?]+ ?| -+ |$)", re.IGNORECASE)


def dealt_said(text: str, game: Mapping[str, Any]) -> tuple[str, dict[str, str], tuple[str, ...]]:
    """A Treachery deal said whole with the variant (every player once, a legal identity deck, 907.3b):
    (the text without it, player -> role, what it said); a deal that doesn't hold is left as said.

    >>> dealt_said("treachery with ann as leader, ben traitor, cat and dan assassins. ann dies", {"players":
    ...            ["Ann", "Ben", "Cat", "Dan"]})[:2]
    ('ann dies', {'Ann': 'leader', 'Ben': 'traitor', 'Cat': 'assassin', 'Dan': 'assassin'})
    >>> dealt_said("treachery with ann as leader, ben leader, cat and dan assassins. ann dies", {"players":
    ...            ["Ann", "Ben", "Cat", "Dan"]})[1]  # two Leaders: no legal deck (907.3b)
    {}
    """
    said = _DEAL.match(text)
    if said is None or (game.get("identities") and str(game.get("variant")) != "treachery"):
        return text, {}, ()
    item = re.compile(_DEAL_ITEM, re.IGNORECASE)
    dealt: dict[str, str] = {}
    for part in item.finditer(said["deal"]):
        for name in _names_of(part["names"]):
            who = _seated(game, name)
            if who is None or who in dealt:
                return text, {}, ()
            dealt[who] = part["role"].lower()
    seats = [str(p) for p in game.get("players") or [p for t in game.get("teams") or () for p in t]]
    if sorted(dealt) != sorted(seats) or not legal_identity_deck([dealt[p] for p in seats])[0]:
        return text, {}, ()
    if game.get("identities") and any(_held(game, p) != r for p, r in dealt.items()):
        return text, {}, ()  # the table's own deal differs: not this table
    facts = tuple(f"{p} is {_an(r)}" for p, r in dealt.items())
    return text[said.end():].lstrip(), dealt, facts
