"""Questions about the start of the game (issue 23): "who's the monarch at the start of the game?",
"whose turn is it at the start in our treachery game", "how much life does everyone start with?". A table on
screen is the game as it stands (a monarch, life totals, the turns played); its start is the table the
variant's setup deals from the same seats, teams, identities and options: nobody the monarch or holding the
initiative (725.1, 726.1), the variant's starting life (103.4, 810.4, 903.7, 907.6), its first player (103.1,
808.4, 809.4, 907.7). ``app.services.ask_what_if`` asks such a question of that table.

>>> at_the_start("Who's the monarch at the start of the game?")
"Who's the monarch?"
>>> at_the_start("How much life does everyone start with?")
'How much life does everyone start with?'
>>> at_the_start("can Fin attack Hal, it's the first turn")
'can Fin attack Hal'
>>> at_the_start("who is the monarch") is None
True
>>> at_the_start("who draws at the beginning of Ben's end step") is None  # a step, not the game's start
True
>>> start_of({"players": ["Ann", "Ben"], "monarch": "Ben", "life": {"Ann": 3}, "options": {"range": 1}})
{'players': ['Ann', 'Ben'], 'options': {'range': 1}}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: Words that place a question at the start of the game, taken off it.
_AT_START = re.compile(r",? (?:at|in) the (?:very )?(?:start|beginning)"
                       r"(?: of (?:the|our|this|a) game\b|(?! of\b))|"
                       r",? when the game (?:starts|started|begins|began)\b|"
                       r",? (?:to start with|to start)\b(?! with)|"
                       # "can Fin attack Hal, it's the first turn": the game's first turn, as dealt
                       r",? (?:(?:it'?s|its|it is) |(?:on|in|during) )(?:the )?(?:very )?"
                       r"(?:first turn|turn (?:one|1))(?: of the game)?\b", re.IGNORECASE)
#: Words that ask about the start in the question itself ("start with", "the starting life"): kept.
_STARTING = re.compile(r"\b(?:start|starts|begin|begins) (?:the game )?(?:with|at|on)\b|"
                       r"\b(?:starting|opening) (?:life|player|hand|total)", re.IGNORECASE)
#: What the setup deals, kept from the table: the rest (designations, totals, the turn, permanents, effects)
#: is what happened since.
_DEALT = ("variant", "players", "teams", "options", "identities", "commander")


def at_the_start(question: str) -> str | None:
    """The question asked of the game's start, without the words that say so; None: not about the start."""
    if _AT_START.search(question):
        return " ".join(_AT_START.sub("", question).split())
    return question if _STARTING.search(question) else None


def start_of(game: Mapping[str, Any]) -> dict[str, Any]:
    """The table the setup deals from ``game``'s seats, teams, identities and options: the game's start."""
    start = {key: game[key] for key in _DEALT if key in game}
    identities = start.get("identities")
    if isinstance(identities, Mapping):  # each card's face as dealt (907.4), not as turned since
        start["identities"] = {p: {k: v for k, v in i.items() if k in ("role", "card")}
                               if isinstance(i, Mapping) else i for p, i in identities.items()}
    return start
