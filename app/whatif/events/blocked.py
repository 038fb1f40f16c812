"""An attack with creatures described rather than on the table, told with its blocks ("Quinn attacks Wes with
her 3/3 Ogre and Wes blocks with his 4/4 Treefolk", "Rosa attacks Jules with two 1/1 soldiers and Jules
blocks one of them"): a blocked creature without trample deals its combat damage to its blocker, never to
the player (510.1c), so only the unblocked ones hit the player, and only they move the crown (725.2) or
the initiative (726.2).

A creature with trample (702.19b: its excess damage reaches the player) or a block said by a player the
attack isn't at (802.4a: only the player attacked blocks in free-for-all; 805.10d: a Two-Headed Giant team
blocks together) is not guessed.
"""

from __future__ import annotations

import re

from rulesjudge.app.whatif.events.combat import _ATTACKS, _BLOCKS, _THEN
from rulesjudge.app.whatif.events.players import _combat, _guessed, _power
from rulesjudge.app.whatif.grammar import _Grammar
from rulesjudge.app.whatif.normalise import _NUMBER, _number
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _creature_named, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()

#: how many attack: "a", "two", "her" ("with her 3/3 Ogre": one)
_COUNT = rf"(?:(?P<count>an?|one|{_NUMBER})|his|her|their)"
#: the attackers described: "3/3 Ogre", "1/1 soldiers" (a few words, no clause word)
_THING = r"(?P<thing>[\w/+'-]+(?: [\w/+'-]+){0,2}?)"
#: which were blocked: "it", "them", "one of them", "both", "all of them", "two of them"
_WHICH = rf"(?P<which>it|them|that|both(?: of them)?|all(?: of them)?|(?P<some>an?|one|{_NUMBER}) of them|" \
    r"(?P<one>one))"  # "Wes blocks one"
#: what the block is made with ("with his 4/4 Treefolk"): only read for trample's sake
_BLOCKER = r"(?: with (?P<d>(?:an?|his|her|their|one) [\w/+'-]+(?: [\w/+'-]+){0,2}?))?"


def _player_blocks(reader: _Reader, blocking: str, defender: str) -> None:
    """Only the player attacked blocks (802.4a), or a teammate who shares their combat (805.10d)."""
    facts = reader.facts
    if blocking != defender and not (facts.shared_turns and blocking in facts.teammates.get(defender, ())):
        raise _Unknown(f"only {defender}, the player attacked, blocks these (802.4a)", blocking)


@PATTERNS(
    rf"(?P<by>[\w-]+) {_ATTACKS} (?P<t>[\w-]+) with {_COUNT} {_THING}{_THEN} (?P<p>[\w-]+) {_BLOCKS}"
    rf"(?: {_WHICH})?{_BLOCKER}",
    # "Quinn attacks with a 3/3 and Wes blocks it": the player who blocks is the one attacked
    rf"(?P<by>[\w-]+) (?:attacks|attacked|attack|swings|swung) with {_COUNT} {_THING}{_THEN} (?P<p>[\w-]+) "
    rf"{_BLOCKS}(?: {_WHICH})?{_BLOCKER}",
    rf"(?P<by>[\w-]+) (?:swings|swung|sends|sent) {_COUNT} {_THING} (?:at|into) (?P<t>[\w-]+){_THEN} "
    rf"(?P<p>[\w-]+) {_BLOCKS}(?: {_WHICH})?{_BLOCKER}",
)
def _h_blocked_told(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Quinn attacks Wes with her 3/3 Ogre and Wes blocks with his 4/4 Treefolk": no combat damage to Wes
    (510.1c); "... with two 1/1 soldiers and Jules blocks one of them": the other one hits Jules (510.1a)."""
    thing, blocker = match["thing"], match.groupdict().get("d") or ""
    one_attacker = not match["count"] or _number(match["count"], 1) == 1
    if not match["which"] and not blocker and not one_attacker:
        return None  # "Wes blocks" two attackers: which, is unsaid (one attacker: that one is blocked)
    if _creature_named(reader, thing) is not None or (blocker and _creature_named(reader, blocker)):
        return None  # creatures on the table: combat's own reading plays the block (509.1)
    if re.search(r"(?i)\btrampl", f"{thing} {blocker}"):
        raise _Unknown("a trampler's excess damage reaches the player (702.19b): say how much", thing)
    attackers = _number(match["count"], 1) if match["count"] else 1
    which = (match["which"] or "").lower()
    blocked = _number(match["some"], 1) if match["some"] else 1 if match["one"] else attackers
    if which in ("it", "that") and attackers != 1:
        raise _Unknown(f"{attackers} attackers: which of them are blocked?", match["which"])
    if blocked > attackers:
        raise _Unknown(f"only {attackers} attacked", match["which"])
    source = reader.refer(match["by"], one=True, alone=True).players[0]
    defender_text = match.groupdict().get("t") or match["p"]
    target = reader.refer(defender_text, one=True, alone=True)
    defender = reader.affected(reader.someone_else(defender_text, target, source)).players[0]
    # "Theo attacked her ... and she blocked": the pronoun is the player just attacked
    blocking = reader.refer(match["p"], one=True, alone=True).players[0]
    _player_blocks(reader, blocking, defender)
    if source in (defender, blocking):
        raise _Unknown(f"{source} can't attack themselves", defender_text)
    through = attackers - blocked
    if through:  # the unblocked ones deal their damage to the player (510.1a)
        amount = through * _power(thing)
        words = (f"{attackers} creatures {source} controls attack {defender}, {blocked} blocked: {through} "
                 f"deal{'s' if through == 1 else ''} {amount} combat damage to {defender}")
        return _combat(reader, source, defender_text, amount, through, words=words,
                       guessed=_guessed(None, thing))
    said = "the attacker is" if attackers == 1 else f"all {attackers} attackers are"
    return _Happening((), f"{source} attacks {defender} and {said} blocked: no combat damage to {defender} "
                          f"(510.1c)", (source, defender), extra=(f"life({defender})",))
