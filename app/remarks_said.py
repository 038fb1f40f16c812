"""Remarks said beside a story that the story itself decides: "Rosa dies while Mika is still alive", "Ada and
Cy both die, Bo is alone", "Lena and Omar won already so who has the initiative". Each is checked against
the table or turned into a question, never taken as an event (``services.ask_what_if`` calls
:func:`said_remarks` after the story is retold):

- "while X is still alive / in the game": X must be seated at the table; said, and taken off (the events
  say who leaves, 800.4a);
- "X is alone", "X is on his own now": every teammate of X must be named before it in a sentence that
  says someone leaves; said, and taken off;
- "X (and Y) won already, so <question>": whether they won is the model's to say (104.2a), so it is
  asked beside the question ("<question>, and did X and Y win?").

A remark that doesn't hold is left as said: the question is not read rather than answered for another table.

>>> game = {"teams": [["Ada", "Bo", "Cy"], ["Dev", "Eli", "Fen"]]}
>>> said_remarks("Ada and Cy both die, Bo is alone. can Dev attack Bo?", game)
('Ada and Cy both die. can Dev attack Bo?', ("Bo's teammates left (Ada, Cy)",))
>>> said_remarks("Ada dies, Bo is alone. can Dev attack Bo?", game)[1]
()
>>> said_remarks("Ada dies while Eli is still alive. who wins?", game)
('Ada dies. who wins?', ('Eli is still in the game',))
>>> said_remarks("Dev's team loses. Ada and Bo won already so who has the initiative", game)[0]
"Dev's team loses. who has the initiative, and did Ada and Bo win"
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_NAME = r"(?-i:[A-Z])[\w-]*"
_STILL_IN = re.compile(rf",? (?:while|and|but|with|when|as) (?P<who>{_NAME})(?: is|'s|s| was) still "
                       r"(?:alive|in(?: the game)?|around|playing|standing|there)\b", re.IGNORECASE)
_ALONE = re.compile(rf"(?:,|;|(?<=[.!?]))? (?:and |so |now )?(?P<who>{_NAME})(?: is|'s) (?:now |left )?"
                    r"(?:all )?(?:alone|by (?:himself|herself|themselves)|on (?:his|her|their) own|"
                    r"the (?:last|only) one left(?: on (?:his|her|their) team)?)(?: now)?\b", re.IGNORECASE)
_LEAVES = re.compile(r"(?i)\b(?:dies|die|died|dead|loses|lose|lost|concedes|concede|conceded|scoops|scoop|"
                     r"scooped|leaves|leave|left|out|eliminated|killed)\b")
_WON = re.compile(rf"(?P<lead>^|[.;,!?] )(?P<who>{_NAME}(?:(?:,| and) {_NAME})*) (?:have |has |had )?"
                  r"(?:already )?won(?: already)?,? (?:so|and|then) "
                  r"(?P<q>(?:who|whom|whose|what|which|how|does|do|is|are|can)\b[^.;!?]*)[.;!?]?",
                  re.IGNORECASE)


def _teams(game: Mapping[str, Any]) -> list[list[str]]:
    return [[str(m) for m in (t.get("members", []) if isinstance(t, dict) else t)]
            for t in game.get("teams") or ()]


def _seats(game: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in game.get("players") or ()] or [m for t in _teams(game) for m in t]


def _named(text: str, names: Sequence[str]) -> set[str]:
    return {n for n in names if re.search(rf"\b{re.escape(n)}\b", text)}


def said_remarks(text: str, game: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """(the text with the remarks that hold taken off or asked, what they said); see the module."""
    said: list[str] = []
    seats = _seats(game)

    def still_in(match: re.Match[str]) -> str:
        if match["who"] not in seats:
            return match[0]
        said.append(f"{match['who']} is still in the game")
        return ""

    text = _STILL_IN.sub(still_in, text)
    alone = _ALONE.search(text)
    if alone:
        who = alone["who"]
        team = next((t for t in _teams(game) if who in t), [])
        before = text[:alone.start()]
        mates = [m for m in team if m != who]
        if mates and _named(before, mates) == set(mates) and _LEAVES.search(before):
            text = before + text[alone.end():]
            said.append(f"{who}'s teammates left ({', '.join(mates)})")
    won = _WON.search(text)
    if won and set(re.findall(_NAME, won["who"])) <= set(seats):
        asked = f"{won['q'].strip()}, and did {won['who']} win"
        text = f"{text[:won.start()]}{won['lead']}{asked}{text[won.end():]}"
    return text, tuple(said)
