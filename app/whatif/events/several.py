"""Events that happen to several players at once, told in one breath: one source's damage split among
players ("Eve deals 6 damage to Cat and 2 to Dan"), a drain ("Cat drains Ben for 8"), one spell's extra
turns for several ("Ben and Cat get extra turns from the same spell"), and two events said to happen "at
the same time". The model plays them as one event (``at-once``: state-based actions are checked once
afterwards, 704.3; a player who would win and lose at once loses, 104.4a), or, for extra turns, as one
``extra-turn`` of several players (500.7: one effect adds them in APNAP order).
"""

from __future__ import annotations

import re
from typing import Any

from rulesjudge.app.whatif.events.players import _MODAL
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar
from rulesjudge.app.whatif.normalise import _NUMBER, _number
from rulesjudge.app.whatif.plan import Event, _Happening
from rulesjudge.app.whatif.references import _POSS, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()

_DEALS = r"(?:deals|dealt|deal|does|did)"
_DMG = r"(?: (?:points? of )?(?:noncombat )?damage)?"
#: "with a spell", "with Fireball", "with an ability": noncombat, as the players' damage reads it
_WITH = r"(?: (?:with|from|using) (?:a |an |the |his |her |their )?[\w' -]{1,30}?)?"
#: who deals it: a player, or their spell, ability or card ("Cy's spell", "Pia's Pestilence"): that player
_BY = rf"{_X}(?:{_POSS} (?:(?:[\w'-]+ ){{0,2}}?(?:spell|ability|effect|instant|sorcery|trigger)|" \
    r"(?-i:(?P<card>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2}))))?"


def _knows(reader: _Reader, *names: str) -> bool:
    return bool(reader.facts.events) and all(reader.facts.knows_event(n) for n in names)


@PATTERNS(
    rf"{_BY} {_MODAL}{_DEALS} (?P<n>{_NUMBER}){_DMG} to {_Y},? and (?P<m>{_NUMBER}){_DMG} to (?P<z>.+?)"
    rf"{_WITH}",
    rf"{_X} {_MODAL}{_DEALS} {_Y} (?P<n>{_NUMBER}){_DMG},? and (?P<z>.+?) (?P<m>{_NUMBER}){_DMG}{_WITH}",
)
def _h_split_damage(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Eve deals 6 damage to Cat and 2 to Dan": one source's noncombat damage to two players at the same
    time (one event: 704.3 checks them once afterwards, so both lose together)."""
    if not _knows(reader, "at-once", "damage"):
        return None
    source = reader.refer(match["x"], one=True, alone=True)
    first = reader.affected(reader.refer(match["y"], one=True, alone=True))
    second = reader.affected(reader.refer(match["z"], one=True, alone=True))
    a, b = first.players[0], second.players[0]
    if a == b or source.players[0] in (a, b):
        raise _Unknown("name two other players", match["z"])
    n, m = _number(match["n"]), _number(match["m"])
    events: tuple[Event, ...] = ({"at-once": [
        {"damage": {"to": a, "amount": n, "from": source.players[0]}},
        {"damage": {"to": b, "amount": m, "from": source.players[0]}},
    ]},)
    words = f"{source.words} deals {n} noncombat damage to {first.words} and {m} to {second.words} at once"
    return _Happening(events, words, (source.players[0], a, b), extra=(f"life({a})", f"life({b})"))


#: "to each player", "to each opponent", "to everyone else": who a sweeper's damage reaches, said of the
#: source's controller (each opponent: 102.2/102.3, the players not on their team)
_EACH = (r"(?P<each>each (?:other )?(?:player|opponent)|every (?:other )?(?:player|opponent)|"
         r"everyone(?: else)?|everybody(?: else)?|all (?:other )?(?:players|opponents)|"
         r"all (?:of )?(?:his|her|their) opponents|"
         r"each of (?:his|her|their) opponents|(?:his|her|their) opponents)")


@PATTERNS(
    rf"{_BY} {_MODAL}{_DEALS} (?P<n>{_NUMBER})"
    rf"{_DMG} to (?:each creature and )?{_EACH}(?: and (?:each|every|all) (?:creatures?|planeswalkers?))?"
    rf"{_WITH}",
    # "Rae resolves a thing that deals 3 damage to each opponent": whatever the source is called, it is hers
    rf"{_X} (?:casts|cast|plays|played|resolves|resolved|activates|activated|uses|used|fires off|fired off|"
    r"triggers|triggered) (?:a |an |the |her |his |their |some )?(?:[\w'-]+ ){{0,3}}?"
    r"(?:dealing|that deals|which deals) "
    rf"(?P<n2>{_NUMBER}){_DMG} to (?:each creature and )?{_EACH}",
)
def _h_damage_to_each(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Pia's Pestilence deals 1 damage to each player", "Mia casts a spell dealing 2 damage to each
    opponent": one source's noncombat damage to several players at once (120.3a each loses that much life;
    704.3 checks them once afterwards, so those at 0 lose together and, all at once, draw, 104.4a). "each
    player" includes the source's controller; "each opponent" is the players not on their team (102.3)."""
    pools = reader.facts.pools
    if not _knows(reader, "at-once", "damage") or len(set(pools.values())) < len(pools):
        return None  # where heads share a life total (810.9) the damage isn't split among teams here
    source = reader.refer(match["x"], one=True, alone=True).players[0]
    each = match["each"].lower()
    if "opponent" in each:
        targets, words = reader.opponents(source), f"each opponent of {source}"
    elif re.search(r"other|else", each):
        targets, words = [p for p in reader.playing() if p != source], f"each player but {source}"
    else:
        targets, words = reader.playing(), "each player"
    if not targets:
        raise _Unknown(f"{source} has no opponents left", match["each"])
    said = match.groupdict()
    amount = _number(said.get("n") or said["n2"])
    events: tuple[Event, ...] = ({"at-once": [
        {"damage": {"to": p, "amount": amount, "from": source}} for p in targets]},)
    by = f"{source}'s {said['card']}" if said.get("card") else source
    said_to = f"{words} ({', '.join(targets)})"
    return _Happening(events, f"{by} deals {amount} noncombat damage to {said_to} at once",
                      (source, *targets), extra=tuple(f"life({p})" for p in targets))


@PATTERNS(
    rf"{_X} {_MODAL}(?:get|gets|got|take|takes|took) (?:an )?extra turns?(?: each)? "
    r"(?:from|off|because of|with) "
    r"(?:the same|one|a single|one and the same) (?:spell|effect|card|ability)",
    rf"(?:the same|one|a single) (?:spell|effect|card|ability) (?:gives|gave|grants|granted) {_X} (?:an )?"
    r"extra turns?(?: each)?",
)
def _h_extra_turns_together(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Ben and Cat get extra turns from the same spell": one effect gives each an extra turn; the model
    adds them as 500.7 says for one effect (in APNAP order, so the last added is taken first)."""
    if not _knows(reader, "extra-turn"):
        return None
    who = reader.refer(match["x"])
    if len(who.players) < 2:
        return None
    arg: Any = list(who.players)
    return _Happening(({"extra-turn": arg},), f"one effect gives {who.words} an extra turn each", who.players)


_SAME_TIME = re.compile(r"(?i)^(?:(?:at|in) the (?:exact )?same (?:time|moment)|simultaneously|at once)"
                        r"\s*,?\s*"
                        r"|,?\s*(?:(?:at|in) the (?:exact )?same (?:time|moment)|simultaneously|at once)$")


def at_the_same_time(text: str) -> str | None:
    """The clauses of "A and B at the same time" (or "at the same time, A and B") without the words saying
    so; None when they don't say so.

    >>> at_the_same_time("Bo's life becomes 0 and Cy gets his tenth poison counter at the same time")
    "Bo's life becomes 0 and Cy gets his tenth poison counter"
    >>> at_the_same_time("Bo concedes") is None
    True
    >>> at_the_same_time("Ada loses. Now Cy and Di lose at once") is None
    True
    """
    said = _SAME_TIME.sub("", text)
    # "Ada loses. Now Cy and Di lose at once": the words end their own sentence, not the story before it
    if re.search(r"(?i)[.;!?] |,? (?:and )?then\b", said):
        return None
    return said if said != text and " and " in said else None


_HITS = r"(?:hits|hit|attacks|attacked|swings at|swung at)"
_ONE_COMBAT = r"(?: this combat| in (?:one|the same) combat| at once)?"


@PATTERNS(
    rf"{_X} {_MODAL}{_HITS} {_Y},? and (?P<z>[\w'-]+) (?:each )?with (?:separate|different|two|2) creatures"
    rf"{_ONE_COMBAT}",
    rf"{_X} {_MODAL}{_HITS} {_Y},? and (?P<z>[\w'-]+) with (?:a|one) creature each{_ONE_COMBAT}",
)
def _h_hits_each(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Quinn hits Lia and Otto with separate creatures this combat": one combat damage step, a creature's
    damage to each (510.2: dealt at the same time); the amounts unsaid, so enough to move a designation
    (725.2, 726.2) and no life total."""
    if not reader.facts.events or not reader.facts.knows_event("combat-damage"):
        return None
    source = reader.refer(match["x"], one=True, alone=True).players[0]
    first = reader.affected(reader.refer(match["y"], one=True, alone=True))
    second = reader.affected(reader.refer(match["z"], one=True, alone=True))
    a, b = first.players[0], second.players[0]
    if a == b or source in (a, b):
        raise _Unknown("name two other players", match["z"])
    hits = [{"from": source, "to": a, "amount": 1}, {"from": source, "to": b, "amount": 1}]
    words = f"a creature {source} controls deals combat damage to {a} and another to {b}, at the same time"
    return _Happening(({"combat-damage": hits},), words, (source, a, b), guessed=(a, b))
