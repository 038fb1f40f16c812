"""The events a sentence says, clause by clause (:func:`_happenings`): one event, or several split at "and
then", put in order ("A after B", "before B, A"), said to happen at the same time, repeated ("twice"), at a
time ("at the end of turn", "during Ben's turn"). :mod:`reading` finds the question around them."""

from __future__ import annotations

import re
from dataclasses import replace

from rulesjudge.app.whatif.events import HAPPENINGS
from rulesjudge.app.whatif.events.several import at_the_same_time
from rulesjudge.app.whatif.events.time import _time_owner, _until
from rulesjudge.app.whatif.normalise import _NUMBER, _trim
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _POSS, _PRONOUN, _Reader, _Unknown

_TURN_MODIFIER = re.compile(
    rf"^(?P<rest>.+?),? (?:still )?(?:on|during|in) (?P<whose>(?:their|his|her|its)|"
    rf".+?{_POSS}) (?:own )?turn$", re.IGNORECASE)
_SPLIT = re.compile(r"[.;] (?:and )?then,? |,? and then |,? then |"
                    r",? (?:and )?(?:after that|afterwards|later),? |,? and next,? |"
                    r"; |, and | and |, (?=\w)|\. ", re.IGNORECASE)
#: Words that put two events in order against the order they are said in: "A after B" is B then A.
_ORDER = re.compile(r" (?P<word>after|before|once|when|as soon as) (?!that\b|this\b)", re.IGNORECASE)
_ORDER_FIRST = re.compile(r"^(?P<word>after|before|once|as soon as) ", re.IGNORECASE)


#: "Cat deals her 4 damage twice": the same event again, for what can happen twice in a row. Not combat
#: damage: a creature that "hits twice" may have double strike (702.4) or fight two combats, not guessed.
_AGAIN = re.compile(r"^(?P<rest>.+?),? (?P<n>twice|thrice|two times|three times|four times|[2-5] times)"
                    r"(?: in a row)?(?P<apart>,? (?:over (?:the game|(?:two|three|four|five|[2-5]|several|"
                    r"separate) (?:turns|combats))|on (?:separate|different|two|three|[2-5]) turns|"
                    r"in (?:separate|different) "
                    r"combats)(?:,? unblocked(?: each time)?)?|,? unblocked each time|,? (?:on|during|in) "
                    r"(?:separate|different) turns)?$", re.IGNORECASE)
_REPEATABLE = frozenset(("damage", "lose-life", "gain-life", "poison", "draw"))


def _again(text: str, reader: _Reader) -> list[_Happening] | None:
    """The event said with "twice" / "N times", repeated; None when the clause says no such thing."""
    again = _AGAIN.match(text)
    if again is None:
        return None
    happening = HAPPENINGS.first(again["rest"], reader, "an event")
    # combat damage again only when said to be separate combats ("over two turns", "each time"): one
    # creature hitting "twice" in one combat may have double strike (702.4), not guessed
    repeatable = _REPEATABLE | ({"combat-damage"} if again["apart"] else set())
    if not all(isinstance(e, dict) and next(iter(e)) in repeatable for e in happening.events):
        return None
    times = {"twice": 2, "thrice": 3, "two times": 2, "three times": 3, "four times": 4}.get(
        again["n"].lower()) or int(again["n"][0])
    return [replace(happening, events=happening.events * times, words=f"{happening.words}, {times} times")]


def _clause(text: str, reader: _Reader) -> list[_Happening]:
    """One clause: an event, possibly "during Ben's turn" (the turns pass until then, first); the story so
    far noted on the reader (:func:`_noted`)."""
    return _noted(_one_clause(text, reader), reader)


def _noted(happenings: list[_Happening], reader: _Reader) -> list[_Happening]:
    """Note whose turn the events moved to and whether anything but time happened (``_Reader.turn``,
    ``_Reader.acted``): an attack or a sorcery said later implies its player's turn only before that."""
    for event in (e for h in happenings for e in h.events):
        name = event if isinstance(event, str) else next(iter(event))
        if name == "until-turn" and isinstance(event, dict):
            arg = event[name]
            reader.turn = arg if isinstance(arg, str) else None if arg.get("next") else arg.get("player")
        elif name in ("next-turn", "upkeep"):
            reader.turn = ""  # a later turn, whoever's it is: not one an attack said later may assume
        else:
            reader.acted = True
    return happenings


def _other_gender(whose: str, rest: str) -> bool:
    """Is the turn's possessive ("his") of the other gender than the object pronoun of its clause ("hits
    her")? Then it is not the one acted on's turn.

    >>> _other_gender("his", "Theo hits her with a 1/1"), _other_gender("his", "Theo hits him")
    (True, False)
    """
    other = {"his": "her", "her": "him"}.get(re.sub(rf"(?i){_POSS}$", "", whose.strip()).lower())
    return other is not None and re.search(rf"(?i)\b{other}\b", rest) is not None


def _one_clause(text: str, reader: _Reader) -> list[_Happening]:
    try:
        return [HAPPENINGS.first(text, reader, "an event")]
    except _Unknown as error:
        repeated = _again(text, reader)
        if repeated:
            return repeated
        modifier = _TURN_MODIFIER.match(text)
        if not modifier:
            timed = _at_a_time(text, reader)
            if timed is None:
                raise
            return timed
        first = error
    happening = HAPPENINGS.first(modifier["rest"], reader, "an event")
    whose = modifier["whose"]
    if re.fullmatch(rf"{_PRONOUN}(?:{_POSS})?", whose.strip(), re.IGNORECASE) and reader.subject is not None \
            and reader.focus is not None and reader.focus.players != reader.subject.players:
        # "Ben hits Cat on his own turn": the one who acts; without "own", "his" may be either: not guessed -
        # unless the one acted on is "her" and the turn "his" (or "him" and "her"): two people, so the actor's
        if not re.search(r"(?i) own turn$", text) and not _other_gender(whose, modifier["rest"]):
            said = re.sub(rf"(?i){_POSS}$", "", whose.strip())
            raise _Unknown(f"whose turn is '{said} turn'? name the player", whose)
        reader.focus = None
    owner = _time_owner(reader, whose)
    if owner is None:
        raise first
    saved = reader.save()
    reader.gone.difference_update(happening.gone)
    until = _until(reader, owner, next_one=False)
    reader.restore(saved)
    words = happening.words + (f" during {owner}'s turn" if until else "")
    return [replace(happening, events=(*until, *happening.events), words=words)]


_TIME_EVENTS = frozenset(("next-turn", "until-turn", "end-step", "upkeep"))


def _bound_to_subject(event: str, time: str, reader: _Reader) -> str:
    """A possessive in a clause's own time phrase is its subject's: "Theo conceded at the end of his turn" is
    Theo's turn, whoever was named before (the time is read before the event, so the pronoun would otherwise
    go to the earlier sentence's player).

    >>> from rulesjudge.app.whatif.plan import TableFacts
    >>> _bound_to_subject("Theo conceded", "at the end of his turn", _Reader(TableFacts(("Jules", "Theo"))))
    "at the end of Theo's turn"
    """
    subject = re.match(r"\s*(?:then |and )?([A-Za-z][\w-]*)\b", event, re.IGNORECASE)
    names = {p.casefold(): p for p in reader.facts.players}
    if subject is None or subject[1].casefold() not in names:
        return time
    return re.sub(r"(?i)\b(?:his|her|their)(?:'s)?(?= (?:next |own )?(?:turn|end step|upkeep|main phase))",
                  f"{names[subject[1].casefold()]}'s", time, count=1)


#: A time of the turn said by its player ("in Ann's main phase", "during her turn"): when it is the turn now,
#: it moves nothing and is still a time, not an event
_A_TIME_NOW = re.compile(r"(?i)(?:on|during|in) .+(?:turn|main phase)$")


def _at_a_time(text: str, reader: _Reader) -> list[_Happening] | None:
    """ "Cat concedes at the end of turn", "Ann concedes in Ben's upkeep": the time comes first, then the
    event. Only a time the reader knows: "Cat concedes during combat" is not read (the model has no combat
    step to stop at)."""
    saved = reader.save()
    for cut in re.finditer(r",? (?=(?:at|during|in|on) )", text, re.IGNORECASE):
        reader.restore(saved)
        said_time = _bound_to_subject(text[: cut.start()], text[cut.end():], reader)
        try:
            time = HAPPENINGS.first(said_time, reader, "a time")  # the turns before it first
            event = HAPPENINGS.first(text[: cut.start()], reader, "an event")
        except _Unknown:
            continue
        names = [e if isinstance(e, str) else next(iter(e)) for e in time.events]
        # "in his own main phase" said of the active player: a time that is now (no turn passes)
        now = not names and bool(_A_TIME_NOW.match(said_time))
        if now or (names and all(n in _TIME_EVENTS for n in names)):
            # "on Ravi's turn at the end step": two times, the wider said first: that turn, then its step
            told = [e if isinstance(e, str) else next(iter(e)) for e in event.events]
            return [event, time] if told and all(n in _TIME_EVENTS for n in told) else [time, event]
    reader.restore(saved)
    return None


def _happenings(text: str, reader: _Reader, depth: int = 0) -> list[_Happening]:
    """Clauses in order: "Ann concedes and then Ben's creature hits Cat" is two events, one after the other;
    "Ann and Ben concede" is one (they leave at the same time); "Cat concedes after Ben hits her" and
    "before Cat concedes, Ben hits her" are Ben's hit, then Cat's conceding."""
    text = _trim(text)
    saved = reader.save()
    try:
        return _clause(text, reader)
    except _Unknown as error:
        first = error
    if depth > 3:
        raise first
    together = _at_once(text, reader, depth)
    if together is not None:
        return together
    reader.restore(saved)
    early = _before_damage(text, reader, depth)
    if early is not None:
        return early
    reader.restore(saved)
    for read in (_in_sequence, _in_order_said):
        reader.restore(saved)
        found = read(text, reader, depth)
        if found is not None:
            return found
    reader.restore(saved)
    raise first


#: "..., and Ravi concedes before damage", "then Dana murders the Wall before damage": an event between the
#: declarations and the combat damage step
_BEFORE_DAMAGE = re.compile(
    r"^(?P<head>.+?)(?:,? and then|,? then|, and| and|,|[.;]) (?P<tail>[^,.;]+?) before "
    r"(?:(?:combat )?damage|blocks|blockers|(?:the )?(?:combat )?damage step)$", re.IGNORECASE)


#: "zurgo is attacking sam": the creature's attack alone (a one-line hit is read as its damage, no steps)
_CREATURE_ATTACKS = re.compile(
    r"^(?:the )?(?P<c>[\w'-]+) (?:is attacking|attacks|attacked|swings at|swung at) (?P<t>[\w'-]+)$",
    re.IGNORECASE)


def _attack_declared(text: str, reader: _Reader) -> str:
    """ "zurgo is attacking sam": said as its controller's attack with it, so the steps are played (508.1).

    >>> from rulesjudge.app.whatif.plan import TableFacts
    >>> reader = _Reader(TableFacts(("Ann", "Ben"), creatures=(("Ogre", "Ann"),)))
    >>> _attack_declared("the ogre is attacking ben", reader)
    'Ann attacks ben with Ogre'
    """
    said = _CREATURE_ATTACKS.match(text)
    if said is None:
        return text
    creature = next(((n, c) for n, c in reader.facts.creatures if n.casefold() == said["c"].casefold()), None)
    return f"{creature[1]} attacks {said['t']} with {creature[0]}" if creature else text


def _before_damage(text: str, reader: _Reader, depth: int) -> list[_Happening] | None:
    """ "Jo attacks Ravi with the Knight and Ravi concedes before damage": the attack (and block) said first,
    the event said, then the combat damage step (510.1; a creature whose controller left leaves with them,
    800.4a; one attacking a player who left deals no damage, 506.4; a blocked creature whose blocker is gone
    stays blocked, 509.1h). None unless the first part is an attack whose damage step the reader played
    last.

    >>> _BEFORE_DAMAGE.match("Jo attacks Ravi with the Knight and Ravi concedes before damage")["tail"]
    'Ravi concedes'
    """
    said = _BEFORE_DAMAGE.match(text)
    if said is None:
        return None
    saved = reader.save()
    try:
        head = _happenings(_attack_declared(said["head"], reader), reader, depth + 1)
    except _Unknown:
        reader.restore(saved)
        return None
    if not head or not head[-1].events or head[-1].events[-1] != "combat-damage-step":
        reader.restore(saved)
        return None
    attack = replace(head[-1], events=head[-1].events[:-1])
    try:
        leaving = _clause(said["tail"], reader)
    except _Unknown:
        reader.restore(saved)
        return None
    step = _Happening(("combat-damage-step",), "combat damage is dealt")
    return [*head[:-1], attack, *leaving, step]


def _at_once(text: str, reader: _Reader, depth: int) -> list[_Happening] | None:
    """ "Bo's life becomes 0 and Cy gets 10 poison counters at the same time": the events as one (704.3:
    state-based actions checked once afterwards; 104.4a), where the model knows ``at-once``; None when the
    text doesn't say so, or its parts are not plain events (time passing can't happen at once)."""
    inner = at_the_same_time(text)
    if inner is None or not (reader.facts.events and reader.facts.knows_event("at-once")):
        return None
    saved = reader.save()
    try:
        parts = _happenings(inner, reader, depth + 1)
    except _Unknown:
        reader.restore(saved)
        return None
    events = [e for h in parts for e in h.events]
    names = [e if isinstance(e, str) else next(iter(e)) for e in events]
    if len(events) < 2 or any(n in _TIME_EVENTS or n == "at-once" for n in names):
        reader.restore(saved)
        return None
    words = " and ".join(h.words for h in parts) + " at the same time"
    players = tuple(dict.fromkeys(p for h in parts for p in h.players))
    return [_Happening(({"at-once": events},), words, players,
                       extra=tuple(dict.fromkeys(q for h in parts for q in h.extra)),
                       gone=tuple(p for h in parts for p in h.gone),
                       guessed=tuple(p for h in parts for p in h.guessed),
                       unsaid_life=tuple(p for h in parts for p in h.unsaid_life))]


def _in_sequence(text: str, reader: _Reader, depth: int) -> list[_Happening] | None:
    """ "A and then B", "A, B": the events as said; "Ben hits Cat and then concedes": Ben, said once."""
    saved = reader.save()
    for split in _SPLIT.finditer(text):
        reader.restore(saved)
        left, right = text[: split.start()], text[split.end():]
        try:
            head = _clause(_trim(left), reader)
        except _Unknown:
            continue
        after_head = reader.save()
        subject = reader.subject.players[0] if reader.subject and len(reader.subject.players) == 1 else None
        for tail in (right, f"{subject} {right}" if subject else None, _gapped(left, right),
                     _verb_gapped(left, right, reader)):
            if tail is None:
                continue
            reader.restore(after_head)
            try:
                return [*head, *_happenings(tail, reader, depth + 1)]
            except _Unknown:
                continue
    return None


def _gapped(left: str, right: str) -> str | None:
    """ "Cat deals 3 damage to Ann and 4 to Ben": the second clause says only its amount and what differs; the
    verb is the first clause's, said once ("Cat deals 4 to Ben").

    >>> _gapped("Cat deals 3 damage to Ann", "4 to Ben")
    'Cat deals 4 to Ben'
    >>> _gapped("Ann concedes", "Ben") is None
    True
    """
    if not re.match(rf"{_NUMBER}\b", right, re.IGNORECASE):
        return None
    amount = re.search(rf"\b{_NUMBER}\b", left, re.IGNORECASE)
    return left[: amount.start()] + right if amount else None


def _verb_gapped(left: str, right: str, reader: _Reader) -> str | None:
    """ "Eli gets killed, then both Assassins": the second clause says only who; the verb phrase is the
    first's, said once ("both Assassins gets killed"). Only where the first names no other player after its
    subject (in "Ann hits Ben, then Cat" who does what to whom is not said).

    >>> from rulesjudge.app.whatif.plan import TableFacts
    >>> reader = _Reader(TableFacts(("Ann", "Ben", "Cat")))
    >>> _verb_gapped("Ann gets killed", "Ben and Cat", reader), _verb_gapped("Ann hits Ben", "Cat", reader)
    ('Ben and Cat gets killed', None)
    """
    saved = reader.save()
    try:
        reader.refer(right)
    except _Unknown:
        return None
    finally:
        reader.restore(saved)
    words = left.split()
    for cut in range(1, min(len(words), 5)):
        reader.restore(saved)
        try:
            reader.refer(" ".join(words[:cut]))
        except _Unknown:
            continue
        finally:
            reader.restore(saved)
        rest = " ".join(words[cut:])
        named = reader._names_in(rest) or re.search(r"(?i)\b(?:him|her|them|his|their)\b", rest)
        return None if named else f"{right.strip()} {rest}"
    return None


def _in_order_said(text: str, reader: _Reader, depth: int) -> list[_Happening] | None:
    """ "A after B" (B, then A), "A before B" (A, then B), "before B, A" and "after B, A"."""
    saved = reader.save()
    leading = _ORDER_FIRST.match(text)
    if leading:  # "before B, A": where B ends is where a clause ends
        rest = text[leading.end():]
        cuts = [m.start() for m in re.finditer(r",? ", rest)]
        for cut in cuts:
            reader.restore(saved)
            said_first, said_second = rest[:cut], rest[cut:].lstrip(", ")
            try:
                first = _clause(_trim(said_first), reader)
                second = _happenings(said_second, reader, depth + 1)
            except _Unknown:
                continue
            before = leading["word"].lower() == "before"
            return [*second, *first] if before else [*first, *second]
    for order in _ORDER.finditer(text):
        reader.restore(saved)
        said_first, said_second = text[: order.start()], text[order.end():]
        try:
            first = _happenings(said_first, reader, depth + 1)
            second = _happenings(said_second, reader, depth + 1)
        except _Unknown:
            continue
        before = order["word"].lower() == "before"
        return [*first, *second] if before else [*second, *first]
    return None
