"""Questions about opponents, teammates and teams."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import Member
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar, _per_player
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import _POSS, Ref, _Reader, _Unknown

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


_q_opponents = PATTERNS(
    rf"who(?:'s| is| are) {_X}{_POSS} (?:opponents?|enemies|enemy)",
    rf"who(?:'s| is| are) (?:the )?(?:opponents?|enemies) of {_X}",
    rf"who (?:does|do) {_X} (?:play|face|fight) against",
    rf"who(?:'s| is| are) {_X} (?:playing|facing) against",
    rf"who(?:'s| is| are) against {_X}",
    rf"{_X}{_POSS} (?:opponents|enemies)",
)(
    _per_player("opponents", "who are {who}'s opponents", one=True))


@PATTERNS(
    # "are Kai and Zoe (both) Lena's opponents": of the one player named before the possessive
    rf"(?:is|are) {_Y} (?:both |all )?(?:an |one of )?(?P<x>[A-Za-z][\w-]*){_POSS} opponents?",
    rf"(?:is|are) {_Y} (?:an |one of )?{_X}{_POSS} opponents?",
    rf"(?:is|are) {_Y} (?:an )?opponents? (?:of|to) {_X}",
)
def _q_is_opponent(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"], one=True, alone=True)
    other = reader.refer(match["y"])
    player = who.players[0]
    several = len(other.players) > 1
    return _Ask("opponents", f"{'are' if several else 'is'} {other.words} {who.words}'s opponent"
                f"{'s' if several else ''}", (f"opponents({player})",),
                (player, *other.players), Member(f"opponents({player})", other.players, False))


@PATTERNS(rf"are {_X} and {_Y} opponents")
def _q_are_opponents(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"], one=True, alone=True)
    other = reader.refer(match["y"], one=True)
    player = who.players[0]
    return _Ask("opponents", f"are {who.words} and {other.words} opponents", (f"opponents({player})",),
                (player, other.players[0]), Member(f"opponents({player})", other.players, False))


_q_teammates = PATTERNS(
    rf"who(?:'s| is| are) {_X}{_POSS} (?:team ?mates?|team-mates?|allies|ally|partners?|friends?)",
    rf"who(?:'s| is| are) (?:the )?(?:team ?mates?|allies|partners?) of {_X}",
    rf"who(?:'s| is| are) on {_X}{_POSS} (?:team|side)",
    rf"who(?:'s| is| are) {_X} (?:teamed(?: up)? with|on a team with|playing with|partnered with|"
    rf"allied with)",
    rf"who(?:'s| is) (?:on the same team as|with) {_X}",
    rf"{_X}{_POSS} (?:team ?mates|teammates|allies|partners)",
    # "is the traitor on anyone's team", "does Zed have any teammates": who is on their team (none: alone)
    rf"is {_X} on (?:anyone|anybody|someone|somebody)(?:'s|s) (?:team|side)",
    rf"(?:does|do) {_X} have (?:any )?(?:team ?mates|teammates|allies|partners)",
)(
    _per_player("teammates", "who are {who}'s teammates", one=True))


@PATTERNS(
    rf"are {_X} and {_Y} (?:on the same team|teammates|team mates|allies|partners|on a team)",
    rf"is {_Y} (?:on )?{_X}{_POSS} (?:team ?mate|team|ally|partner)",
    rf"is {_Y} on the same team as {_X}",
    r"are (?P<they>they|the two of them|both of them|they both) (?:now )?(?:on the same team|teammates|"
    r"team mates|allies|partners|on a team)(?: now)?",
)
def _q_are_teammates(match: re.Match[str], reader: _Reader) -> _Ask:
    if match.groupdict().get("they"):  # "if Ann and Dan unveil, are they teammates": the two just named
        if len(reader.mentioned) != 2:
            raise _Unknown(f"whom does '{match['they']}' stand for? name the two players", match["they"])
        who, other = (Ref((p,), p) for p in reader.mentioned)
    else:
        who = reader.refer(match["x"], one=True, alone=True)
        other = reader.refer(match["y"], one=True)
    player = who.players[0]
    return _Ask("teammates", f"are {who.words} and {other.words} teammates", (f"teammates({player})",),
                (player, other.players[0]), Member(f"teammates({player})", other.players, False))


_q_team = PATTERNS(
    rf"(?:which|what) (?:team|side) (?:is|does|are) {_X} (?:on|in|belong to|play for|part of|playing for)",
    rf"(?:which|what) (?:team|side) is {_X}",
    rf"what(?:'s| is) {_X}{_POSS} team",
)(
    _per_player("team", "which team is {who} on"))
