"""Events of time: turns passing, the end step, the upkeep, a named player's turn."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.grammar import _X, _Grammar, _said
from rulesjudge.app.whatif.normalise import _NUMBER, _number
from rulesjudge.app.whatif.plan import Event, _Happening
from rulesjudge.app.whatif.references import _POSS, _PRONOUN, _Reader, _Unknown
from rulesjudge.scenarios.model.table import reached

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()


def _until(reader: _Reader, player: str, *, next_one: bool) -> tuple[Event, ...]:
    """The event that passes the turns until ``player``'s turn (their next one with ``next_one``): one
    ``until-turn``, which the model counts (extra turns, shared team turns, players who left). A turn the
    model would refuse to reach is refused here, so that no answer is read off a table where it never came:
    a player out of the game (800.4a), or a named later turn while several are taken at once (807.4c-d).

    >>> from rulesjudge.app.whatif.plan import TableFacts
    >>> _until(_Reader(TableFacts.seated(["Ann", "Ben", "Cat"])), "Cat", next_one=False)
    ({'until-turn': 'Cat'},)
    """
    if player not in reader.playing():
        raise _Unknown(f"{player} is not in the game, so takes no turn", player)
    active = [p for p in reader.facts.active if p not in reader.gone]
    several = len(active) > 1 and not (reader.facts.shared_turns and reader.facts.teams)
    if several and (player not in active or next_one):
        raise _Unknown("several players take turns at once at this table - ask without naming a "
                       "later turn", player)
    if player not in active:  # their next turn is the coming one
        return ({"until-turn": player},)
    return ({"until-turn": {"player": player, "next": True}},) if next_one else ()  # (): their turn now


def _past(reader: _Reader, step: str) -> bool:
    """Has the table's turn had ``step`` already (the model's ``step``, :func:`reached`)? Then "the upkeep"
    is the next turn's."""
    return reached(reader.facts.step, step)


def _time_owner(reader: _Reader, text: str | None) -> str | None:
    if not text:
        return None
    text = re.sub(rf"(?i){_POSS}$", "", text.strip())
    if text.lower() in ("the", "this", "the current", "the active player"):
        return None
    subject, focus = reader.subject, reader.focus
    if re.fullmatch(_PRONOUN, text, re.IGNORECASE) and subject is not None and focus is not None \
            and focus.players != subject.players:
        # "Ben hits Cat, who draws at the end of his turn": Ben's or Cat's; the answer turns on it
        raise _Unknown(f"whose turn is '{text} turn'? name the player", text)
    return reader.refer(text, one=True, alone=True).players[0]


@PATTERNS(
    rf"(?:(?P<x>.+?){_POSS} |the |this |a |another |one )?turn (?:ends|is over|passes|finishes|goes by)",
    rf"{_X} (?:ends|passes|finishes|end|pass) (?:(?:their|his|her)(?:'s)? |the )?turn",
    r"(?:we )?(?:go|move|pass|get) to the next turn",
    r"(?:the )?next turn(?: (?:starts|begins|comes))?",
    r"(?:at |in )?the (?:start|beginning) of the next turn",
    r"a new turn (?:starts|begins)",
)
def _h_next_turn(match: re.Match[str], reader: _Reader) -> _Happening:
    owner = _time_owner(reader, match.groupdict().get("x"))
    several = [p for p in reader.facts.active if p not in reader.gone]
    if owner in several and len(several) > 1 and not reader.facts.shared_turns and \
            reader.facts.knows_event("end-turn") and reader.facts.events:
        # Grand Melee: turns taken at once each end on their own; Ann's ends and her marker passes (807.4c)
        return _Happening(({"end-turn": owner},), f"{owner}'s turn ends and {owner} passes the turn marker",
                          (owner,))
    if owner is not None:  # "Cat's turn ends": every turn until hers, and hers
        return _Happening((*_until(reader, owner, next_one=False), "next-turn"),
                          f"{owner}'s turn ends and the next one begins", (owner,))
    return _Happening(("next-turn",), "the turn ends and the next one begins")


_TIMES = {"once": 1, "twice": 2, "thrice": 3}


@PATTERNS(
    rf"(?:the )?turns? (?:passes|pass|goes by|go by|ends|end) (?P<n>once|twice|thrice|{_NUMBER} times)",
    rf"(?:after |in )?(?P<n>{_NUMBER}) (?:more )?turns(?: (?:pass|go by|later|from now|have passed))?",
    rf"(?:we )?(?:go|skip|move) (?:forward |ahead )?(?P<n>{_NUMBER}) turns(?: (?:ahead|forward|later))?",
)
def _h_turns_pass(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "the turn passes twice", "two turns later": that many turns end, one after the other."""
    said = match["n"].lower().removesuffix(" times")
    count = _TIMES.get(said) or _number(said, 0)
    if not 1 <= count <= 20:
        return None
    return _Happening(("next-turn",) * count,
                      f"{count} turn{'s' if count > 1 else ''} end, one after the other")


@PATTERNS(
    rf"(?:at |in |on )?(?:the )?(?:start|beginning) of (?P<x>.+?){_POSS} (?P<next>next )?turn",
    rf"(?:on|during|in) (?P<x2>.+?){_POSS} (?P<next2>next )?turn",
    rf"(?:when|once) it(?:'s| is) (?P<x3>.+?){_POSS} turn",
    # "in his own main phase": a step of that player's turn; the model plays the turn (who is active, who
    # plays next), not its steps (505)
    rf"(?:on|during|in) (?P<x4>.+?){_POSS} (?:own )?(?:first |second |precombat |postcombat |pre-combat |"
    r"post-combat )?main phase",
    # "then Sol's turn starts", "Sol's turn begins": said as what happens, the same time
    rf"(?P<x5>[\w-]+){_POSS} (?P<next5>next )?turn (?:starts|begins|comes(?: around)?|rolls around)",
)
def _h_turn_of(match: re.Match[str], reader: _Reader) -> _Happening | None:
    owner = _time_owner(reader, _said(match, "x", "x2", "x3", "x4", "x5"))  # each regex names its own group
    if owner is None:
        return None
    until = _until(reader, owner, next_one=bool(_said(match, "next", "next2", "next5")))
    # "in Alex's main phase" when it is Alex's turn: no turn passes, so none is said to begin
    return _Happening(until, f"{owner}'s turn begins" if until else f"it is {owner}'s turn", (owner,))


_END = r"(?:(?:the )?end of (?:the )?turn|eot|(?:the )?(?:beginning of (?:the )?)?end step|end of turn)"


@PATTERNS(
    rf"(?:at )?{_END}(?: (?:comes|begins|starts|arrives))?",
    rf"(?:we )?(?:get|go|move|pass) to {_END}",
    rf"(?:at |in |during )?(?:the )?(?:beginning of )?(?:end step|"
    rf"end) of (?P<x>.+?){_POSS} (?P<next>next )?turn",
    rf"(?:at |in |during )?(?P<x2>.+?){_POSS} (?P<next2>next )?end step",
    # "Ravi goes to his end step", "it's Ravi's end step": the turn's own player reaches it
    r"(?P<x3>.+?) (?:goes|gets|moves|passes|went|got|moved|is going|gets) to (?:(?:his|her|their)(?:'s)? )?"
    r"(?:own )?end step",
    rf"it(?:'s| is) (?P<x4>.+?){_POSS} end step",
)
def _h_end_step(match: re.Match[str], reader: _Reader) -> _Happening:
    owner = _time_owner(reader, _said(match, "x", "x2", "x3", "x4"))
    events: tuple[Event, ...] = ()
    nxt = bool(match.groupdict().get("next") or match.groupdict().get("next2"))
    if owner is not None:
        events = _until(reader, owner, next_one=nxt or _past(reader, "end-step"))
    elif _past(reader, "end-step") and not reader.gone:
        # the table is in its end step: "at the end of turn" could be this one (its draw is done) or the next
        raise _Unknown("the table is in the end step already - say whose end step", match[0])
    whose = f"{owner}'s" if owner else "the active player's"
    return _Happening((*events, "end-step"), f"{whose} end step begins", (owner,) if owner else (),
                      extra=tuple(f"draws({p})" for p in reader.facts.players))


@PATTERNS(
    r"(?:at |in |during )?(?:the )?(?:beginning of (?:the )?)?(?:next )?upkeep(?: (?:comes|begins|starts))?",
    rf"(?:at |in |during )?(?:the )?(?:beginning of )?(?P<x>.+?){_POSS} (?P<next>next )?upkeep",
)
def _h_upkeep(match: re.Match[str], reader: _Reader) -> _Happening:
    owner = _time_owner(reader, match.groupdict().get("x"))
    events: tuple[Event, ...] = ()
    past = _past(reader, "upkeep")  # a file's table in combat: "the upkeep" is the next turn's
    if owner is not None:
        events = _until(reader, owner, next_one=bool(match.groupdict().get("next")) or past)
    elif past:
        events = ("next-turn",)
    whose = f"{owner}'s" if owner else "the next turn's" if past else "the active player's"
    return _Happening((*events, "upkeep"), f"{whose} upkeep begins", (owner,) if owner else (),
                      extra=tuple(f"ventures({p})" for p in reader.facts.players))
