"""Totals said the way players talk: damage from a creature with infect ("Rae's infect guy deals 2 to
Uma": poison counters, 702.90b), read before a player's damage would take it for life lost; at a team
table: a drain ("Ann drains Cat for 3": Cat loses 3 life, Ann gains 3, 119.3), damage "from the other
team's attack" (the team's creatures, no player named: the total it goes to is what the rules need, 810.9)
and a team's hit "with Mia's creature" (Mia deals it, 725.2)."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.events.players import _combat, _combat_or_not
from rulesjudge.app.whatif.events.standing import _each_player
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar, _said
from rulesjudge.app.whatif.normalise import _NUMBER, _number
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _POSS, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()


@PATTERNS(
    rf"{_X} (?:drains|drained|drain) {_Y} (?:for|of) (?P<n>{_NUMBER})(?: life)?",
    rf"{_X} (?:drains|drained|drain) (?P<n2>{_NUMBER})(?: life)? (?:from|off|out of) {_Y}",
)
def _h_drains(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Ann drains Cat for 3": Cat loses 3 life (119.3); not combat: no designation moves. Whether Ann gains
    as much is the card's, unsaid: her own total is not answered from it (``unsaid_life``)."""
    source = reader.refer(match["x"], one=True, alone=True)
    target = reader.affected(reader.someone_else(match["y"], reader.refer(match["y"], one=True, alone=True),
                                                 source.players[0]))
    a, t = source.players[0], target.players[0]
    amount = _number(_said(match, "n", "n2"))
    if a == t:
        return None  # "Ann drains herself": not a drain
    return _Happening(({"lose-life": {"player": t, "amount": amount}},),
                      f"{target.words} loses {amount} life (drained by {source.words})", (a, t),
                      extra=(f"life({t})",), unsaid_life=(a,))


@PATTERNS(
    rf"{_Y} (?:takes|took|take|is dealt|gets dealt|was dealt) (?P<n>{_NUMBER})(?: points? of)?(?: combat)?"
    r"(?: damage)? from (?:the other team|the opponents|(?:his|her|their) opponents|the other side)"
    r"(?:'s? (?:attack|attackers|creatures|swing|combat damage))?(?: in combat)?",
)
def _h_team_attack(match: re.Match[str], reader: _Reader) -> _Happening:
    """ "Mia takes 7 from the other team's attack": combat damage from creatures no one named. The total it
    goes to is the answer; a designation its controller would take (725.2, 726.2) is asked about."""
    target = reader.affected(reader.refer(match["y"], one=True, alone=True))
    _combat_or_not(reader, target.players[0], match[0])
    amount = _number(match["n"])
    return _Happening(({"damage": {"to": target.players[0], "amount": amount}},),
                      f"{target.words} takes {amount} damage from the other team's attack", target.players,
                      extra=(f"life({target.players[0]})",))


@PATTERNS(
    rf"{_X}{_POSS} (?:team|side) (?:deals|dealt|does) (?:(?P<n>{_NUMBER}) )?(?:points? of )?"
    rf"(?:combat )?damage to {_Y} with (?P<z>[A-Za-z][\w'-]*){_POSS} (?P<thing>[\w'-]+)",
)
def _h_team_hits_with(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Mia's team deals combat damage to Noah with Mia's creature": the creature's controller deals it
    (725.2: that player becomes the monarch), a player of the team said."""
    if match["thing"].lower() not in ("creature", "attacker", "guy", "dude", "token") and \
            match["thing"] not in {name for name, _controller in reader.facts.creatures}:
        return None  # "with Mia's spell": not combat; a commander's damage counts apart (903.10a)
    if any(match["thing"] == name for name, _owner in reader.facts.commanders):
        return None
    team = reader.refer(f"{match['x']}'s team")
    owner = reader.refer(match["z"], one=True)
    if owner.players[0] not in team.players:
        return None
    return _combat(reader, owner.players[0], match["y"], _number(match["n"]), guessed=not match["n"])


#: a creature with infect, said by the keyword ("Rae's infect guy", "an infector", "her 2/2 with infect")
_INFECTOR = (r"(?:(?:\d{1,2}/\d{1,2} )?infect(?:ed)? (?:\d{1,2}/\d{1,2} )?"
             r"(?P<creature>creature|guy|dude|attacker|"
             r"token|beater|monster|critter)|(?:\d{1,2}/\d{1,2} )?(?P<c2>infector)|(?P<c3>creature|guy|dude|"
             r"\d{1,2}/\d{1,2}) with infect|infect(?:ed)? (?P<c4>\d{1,2}/\d{1,2}))")
_WHOSE = rf"(?:{_Y}{_POSS}|an?|the|(?:his|her|their)(?: own)?)"


@PATTERNS(
    rf"{_WHOSE} {_INFECTOR} (?:deals|dealt|does|did) (?P<n>{_NUMBER})(?: (?:points? of )?damage)? to {_X}"
    r"(?: unblocked)?",
    rf"{_WHOSE} {_INFECTOR} (?:hits|hit|smacks|smacked|connects with) {_X} for (?P<n2>{_NUMBER})(?: damage)?"
    r"(?: unblocked)?",
    rf"{_X} (?:takes|took|gets|got|is dealt|was dealt) (?P<n3>{_NUMBER})(?: (?:points? of )?damage)? from "
    rf"{_WHOSE} {_INFECTOR}",
    # "a 1/1 infect creature hits him" ("Tom gets hit by an infect 2/2" is made active by whatif.restructure
    # before any reader): no one's, its damage its power (510.1a) as poison counters; whose it is matters only
    # to a designation, asked below
    rf"(?:an?|the) (?P<sized>{_INFECTOR}) (?:hits|hit|smacks|smacked|pokes|poked|connects with) {_X}"
    r"(?:,? unblocked)?",
)
def _h_infector_hits(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Rae's infect guy deals 2 to Uma": damage from a source with infect is that many poison counters and
    no life lost (702.90b, 120.3b). A creature's damage may be combat damage: a holder of the crown or the
    initiative is asked (725.2, 726.2)."""
    if not reader.facts.events or not reader.facts.knows_event("poison"):
        return None
    if match.groupdict().get("y"):
        reader.refer(match["y"], one=True, alone=True)  # the creature's controller must be at the table
    who = reader.affected(reader.refer(match["x"], one=True, alone=True))
    sized = match.groupdict().get("sized")
    size = re.search(r"(\d{1,2})/\d{1,2}", sized or "")
    if sized and not size:
        return None  # "an infect creature hits him": how much is unsaid
    count = int(size[1]) if size else _number(_said(match, "n", "n2", "n3"))
    if count == 0:
        return None
    player = who.players[0]
    if player in (reader.facts.monarch, reader.facts.initiative):
        raise _Unknown(f"did the creature deal combat damage to {player}? say how it hit (725.2, 726.2)",
                       match[0])
    reader.topic = "poison"
    words = f"{who.words} gets {count} poison counter{'s' if count != 1 else ''} (infect damage, 702.90b)"
    return _each_player(who, "poison", "count", count, words, "poison")
