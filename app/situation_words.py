"""Words of a stated situation made plain before its facts are read: "has it" where the sentence speaks of one
designation, "the monarch concedes on their own turn" where nobody holds it (app.situation)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_IT = re.compile(r"\b(who|whom|[A-Za-z][\w'-]*) (gets|takes|has|keeps|inherits|receives|ends up with|steals|"
                 r"grabs|"
                 r"took|stole) it\b", re.IGNORECASE)


_HOLDS_IT = re.compile(r"\b(?P<who>[A-Za-z][\w'-]*|(?:the )?(?:player|one|person|guy|gal|dude) who) "
                       r"(?P<verb>has|had|holds|held|has got|'s got) it\b(?! (?:next|now|then|after|back)\b)",
                       re.IGNORECASE)


def _the_designation_it(text: str) -> str:
    """ "who's monarch if Ben has it", "who takes the initiative if the player who has it leaves? say Ben has
    it": where the sentence speaks of one designation only, "has it" is holding that one. Not "who has it
    next" (a question about the holder, read as one).

    >>> _the_designation_it("whos monarch if ben has it and ben dies")
    'whos monarch if ben has the monarch and ben dies'
    >>> _the_designation_it("Ann has the initiative and the crown; who has it if she leaves")
    'Ann has the initiative and the crown; who has it if she leaves'
    """
    monarch = re.search(r"\b(?:monarch|monarchy|crown|king|queen)\b", text, re.IGNORECASE)
    initiative = re.search(r"\binitiative\b", text, re.IGNORECASE)
    if bool(monarch) == bool(initiative):
        return text
    thing = "the monarch" if monarch else "the initiative"

    def holds(match: re.Match[str]) -> str:  # not "who has it": a question, read as one
        asks = match["who"].lower() in ("who", "what")
        return match[0] if asks else f"{match['who']} {match['verb']} {thing}"

    return _HOLDS_IT.sub(holds, text)


def _own_turn_holder(text: str, game: Mapping[str, Any]) -> str:
    """ "when the monarch concedes on their own turn, who gets it?" where nobody is the monarch: the holder is
    the active player (it is their own turn), taken for granted and said as such (app.presupposition). Only
    for a holder who leaves: that is what the presupposition is read from.

    >>> _own_turn_holder("when the monarch concedes on their own turn who gets it", {"players": ["Ann"]})
    'when the active player concedes who gets the crown'
    """
    said = re.search(r"\bthe (?P<d>monarch|king|queen|initiative holder|player with the initiative) "
                     r"(?P<verb>(?:concedes|scoops|leaves|loses|dies|drops|quits|is eliminated|"
                     r"gets eliminated)"
                     r"(?: the game)?),? (?:on|during|in) (?:their|his|her) own turn\b", text, re.IGNORECASE)
    if said is None:
        return text
    key = "initiative" if "initiative" in said["d"].lower() else "monarch"
    if game.get(key):
        return text
    text = text[:said.start()] + f"the active player {said['verb']}" + text[said.end():]
    thing = "the initiative" if key == "initiative" else "the crown"
    return _IT.sub(lambda m: f"{m[1]} {m[2]} {thing}", text)
