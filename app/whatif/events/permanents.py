"""Events about the permanents on the table by name: control changing hands ("Ann gains control of the Ogre",
"Ben steals the Wolf with Mind Control", "... until end of turn"). A creature's attack by its name is read
with the players' hits (:mod:`.players`), as a commander's is."""

from __future__ import annotations

import re
from typing import Any

from rulesjudge.app.whatif.events.players import _MODAL, _free_words
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _creature_named, _Reader

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()
_EOT = r"(?P<eot> until (?:the )?end of (?:the )?turn| till end of turn| until eot| for the turn| this turn)?"
_CARD = rf"(?: (?:with|using|via|through) {_free_words(4)})?"


@PATTERNS(
    rf"{_X} {_MODAL}(?:gains|gain|gained|gets|get|got|takes|take|took|steals|stole|steal) control of "
    rf"{_Y}{_EOT}{_CARD}",
    rf"{_X} {_MODAL}(?:steals|stole|steal|borrows|borrowed|snags|snagged|takes|took|take|grabs|grabbed|"
    rf"nabs|nabbed) {_Y}{_EOT}{_CARD}",
    rf"{_Y} (?:gets|got|is|was) (?:stolen|taken|borrowed) by {_X}{_EOT}{_CARD}",
    # "Ben gives control of his Goblin to Cat": the one it is given to gains control
    rf"(?P<giver>.+?) {_MODAL}(?:gives|gave|give|hands|handed|passes|passed) (?:control of )?{_Y} "
    rf"to {_X}{_EOT}{_CARD}",
)
def _h_gain_control(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Ann gains control of the Ogre", "Ben steals the Wolf with Mind Control", "... until end of turn":
    a control-changing effect (613.1b); when the player leaves it ends (800.4a)."""
    if not reader.facts.events or not reader.facts.knows_event("gain-control"):
        return None
    creature = _creature_named(reader, match["y"])
    if creature is None:
        return None
    if match.groupdict().get("giver"):
        reader.refer(match["giver"], one=True)  # who gives it changes nothing, but must be someone here
    who = reader.refer(match["x"], one=True, alone=True)
    event: dict[str, Any] = {"permanent": creature, "player": who.players[0]}
    if match["eot"]:
        event["until"] = "end-of-turn"
    words = f"{who.words} gains control of {creature}" + (" until end of turn" if match["eot"] else "")
    return _Happening(({"gain-control": event},), words, who.players, extra=(f"controller({creature})",))


@PATTERNS(
    rf"{_Y} {_MODAL}(?:dies|died|die|is destroyed|gets destroyed|got destroyed|was destroyed|is killed|"
    r"gets killed|got killed|was killed|is put into (?:the|a|its owner's) graveyard)",
)
def _h_creature_dies(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "The Troll dies", "Krenko is destroyed": the creature goes to its owner's graveyard (700.4); a
    commander's owner may put it into the command zone (903.9a)."""
    if not reader.facts.events or not reader.facts.knows_event("dies"):
        return None
    creature = _creature_named(reader, match["y"])
    if creature is None:
        return None
    return _Happening(({"dies": creature},), f"{creature} dies", (), extra=(f"exists({creature})",
                                                                            f"zone({creature})"))
