"""A question's words (:func:`_ask`): one question, or several said in one breath ("who has the monarch and
the initiative", "who's monarch, what is uma at, and whose turn is next?"), said in full or as its topic
alone ("monarch?", "sol life"), with its own later event ("who draws at the end of turn"). :mod:`reading`
finds the question around the events."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rulesjudge.app.whatif.answers import Several
from rulesjudge.app.whatif.clauses import _happenings
from rulesjudge.app.whatif.followups import asked_again
from rulesjudge.app.whatif.normalise import _trim
from rulesjudge.app.whatif.plan import _Ask, _Happening
from rulesjudge.app.whatif.questions import QUESTIONS
from rulesjudge.app.whatif.references import _Reader, _Unknown

_CONNECTOR = r"(?:if|when|whenever|after|once|as soon as|should|in case|now that|right after|the moment|" \
    r"assuming|" \
    r"supposing|given that|upon|say|suppose|imagine|let's say|at|in|during|on)"
_QUESTION_START = re.compile(
    r"\b(?:who|whom|whose|what|which|where|can|could|may|is|are|does|do|did|will|would|how|has|have)\b",
    re.IGNORECASE,
)


#: A question said as its topic alone, as people type at a table ("monarch?", "new king?", "initiative?",
#: "Dan out?"), and the question it stands for; "next" or "after" after a question asks the same thing.
_ELLIPSES = (
    (re.compile(r"(?:so |and )?(?:the )?(?:new |next |current )?(?:monarch|king|queen|crown)", re.IGNORECASE),
     "who is the monarch"),
    # "monarch still uma?", "initiative still with vic?": the holding checked, said topic first
    (re.compile(r"(?:so |and )?(?:is )?(?:the )?(?:monarch|crown|king|queen) still (?:with |on )?"
                r"(?P<x>[\w-]+)", re.IGNORECASE), r"is \g<x> still the monarch"),
    (re.compile(r"(?:so |and )?(?:is )?(?:the )?initiative still (?:with |on )?(?P<x>[\w-]+)", re.IGNORECASE),
     r"does \g<x> still have the initiative"),
    (re.compile(r"(?:so |and )?(?:the )?(?:new )?initiative(?: holder)?", re.IGNORECASE),
     "who has the initiative"),
    (re.compile(r"(?:so |and )?(?:the )?game over", re.IGNORECASE), "is the game over"),
    # "does the monarch just go away", "does someone get it": where it goes, asked (725.4, 726.4)
    (re.compile(r"does (?:the )?(?:monarch|crown|monarchy)(?: just| simply)? (?:go away|disappear|vanish|"
                r"end|go anywhere|stay)", re.IGNORECASE), "who is the monarch"),
    (re.compile(r"does (?:the )?initiative(?: just| simply)? (?:go away|disappear|vanish|end|go anywhere|"
                r"stay)", re.IGNORECASE), "who has the initiative"),
    (re.compile(r"does (?:someone|somebody|anyone|anybody) (?:else )?(?:get|inherit|take|pick up) it",
                re.IGNORECASE), "who has it"),
    # "is the game still 4 players (for the monarch/turns)?": who is still in, counted by the answer
    (re.compile(r"(?:is|are) (?:the game|we) still (?:at )?(?:\d|two|three|four|five|six|seven|eight) "
                r"(?:players|people|of us)(?: (?:for|in) [\w/ '-]+)?", re.IGNORECASE),
     "who is still in the game"),
    (re.compile(r"(?:so |and )?(?:the |any |a )?winners?(?: now| then)?", re.IGNORECASE), "who wins"),
    # "who has what", "who gets what" after a holder of both leaves: each designation
    # "Noah becomes the monarch, then Olive does. Who is it?": the holder of the one designation said
    (re.compile(r"who(?:'s| is) it(?: now| then)?", re.IGNORECASE), "who has it"),
    # ... and after an event that touched one player, their life too ("sol takes 6. who has what now")
    (re.compile(r"who (?:has|gets|holds|takes) what(?: now)?", re.IGNORECASE),
     "who has the monarch, who has the initiative and how much life do they have"),
    (re.compile(r"who (?:has|gets|holds|takes) what(?: now)?", re.IGNORECASE),
     "who has the monarch and who has the initiative"),
    # "Ben is still in, right?": a statement checked with a tag is the question
    (re.compile(r"(?P<x>[\w' -]+?) (?:is|'s|are|'re) (?P<state>out|dead|eliminated|gone|still in|still alive|"
                r"alive),? right", re.IGNORECASE), r"is \g<x> \g<state>"),
    (re.compile(r"(?P<x>[\w' -]+?),? (?P<state>out|dead|eliminated|gone|still in|still alive|alive)",
                re.IGNORECASE), r"is \g<x> \g<state>"),
    # after an event that touched one player: "Krenko hits Ben. life?", "... still alive?" is about them
    (re.compile(r"(?:and |so )?(?:(?:his|her|their)(?:'s)? )?(?:new )?life(?: total)?(?: now)?",
                re.IGNORECASE), "how much life do they have"),
    # "Uma gets 2 more. poison count?", "her poison?": the counters of the one player the events touched
    (re.compile(r"(?:and |so )?(?:(?:his|her|their)(?:'s)? )?(?:new |total )?"
                r"poison(?: count| counters| total)?"
                r"(?: now)?", re.IGNORECASE), "how many poison counters do they have"),
    # "ann life, ben life?": a player's life asked as its topic alone
    (re.compile(r"(?:and |so )?(?P<x>[\w-]+)(?:'s|s'|') (?:life|life total|total)(?: now)?", re.IGNORECASE),
     r"what is \g<x>'s life total"),
    # "... team life?", "what's the team life": the team of the player the events named (810.9: one total)
    (re.compile(r"(?:and |so )?(?:what(?:'s| is) )?(?:the |their )?(?:team|team's) (?:life|life total|total)"
                r"(?: now)?", re.IGNORECASE), "what is the team's life"),
    (re.compile(r"(?:and |so )?(?P<state>still alive|still in(?: the game)?|still standing|alive|dead|out)",
                re.IGNORECASE),
     r"is he \g<state>"),
    (re.compile(r"(?P<q>.+?),? (?:next|after|after that|afterwards|in the end)", re.IGNORECASE), r"\g<q>"),
)


def _said_in_full(text: str) -> Iterator[str]:
    """The full questions an elliptical one stands for ("monarch" -> "who is the monarch").

    >>> [list(_said_in_full(q)) for q in ("new monarch", "Dan out", "who has it next")]
    [['who is the monarch'], ['is Dan out'], ['who has it']]
    """
    for short, full in _ELLIPSES:
        match = short.fullmatch(text)
        if match:
            yield match.expand(full)


def _ask(text: str, reader: _Reader, *, elliptical: bool = True) -> _Ask:
    """One question, or two joined by "and": "who has the monarch and (who has) the initiative".
    ``elliptical``: also a question said as its topic alone, after events ("Ann concedes, monarch?"); a word
    typed alone ("monarch") is a search, not a question."""
    text = _trim(text)
    saved = reader.save()
    try:
        return QUESTIONS.first(text, reader, "a question")
    except _Unknown as error:
        first = error
    for full in _said_in_full(text) if elliptical else ():
        if full.endswith("how much life do they have") and " who " in full and not _touched_still_in(reader):
            continue  # "who gets what" after the one touched left: the designations only
        reader.restore(saved)
        try:  # said in full, it may be two questions ("who has what")
            return _ask(full, reader, elliptical=False)
        except _Unknown:
            continue
    # "who has X and (who has) Y"; "whose turn is it, who's the active player": two questions, a comma apart
    # "is the Wall still around, Ben's life": a second question said as its topic, read in full only
    joints = r",? and (?:also )?|, (?=(?:who|whose|what|which|is|are|can|does|do|how)\b)|(?P<bare>, )"
    for joint in re.finditer(joints, text, re.IGNORECASE):
        reader.restore(saved)
        left, right = _trim(text[: joint.start()]), text[joint.end():]  # "... right now, who ...": trimmed
        one = _whole_or_elliptical(left, reader, elliptical)  # "raj dead? whats mias life"
        if one is None:
            continue
        if not reader.topic and one.questions in (("monarch",), ("initiative",)):
            # "does the crown go away, or does someone get it": "it" is the designation just asked about
            reader.topic = one.questions[0]
        words = left.split()
        # the second said in full, or sharing the first's opening words ("who has X and [who has] Y"), or
        # the first asked again of another one ("ogre survives? spider?", "bea's range? and cal's?")
        again = asked_again(left, right, reader)
        for cut in range(0, 1 if joint["bare"] else len(words)):
            second = right if cut == 0 else " ".join([*words[:cut], right])
            # a second question said in full, or (elliptical) in a shorter form people use for it
            for full in (*again, second, *(_said_in_full(second) if joint["bare"] or elliptical else ())):
                try:
                    other = QUESTIONS.first(full, reader, "a question")
                except _Unknown:
                    # "who's monarch, what is uma at, and whose turn is next": the rest is itself a list
                    # of questions, each read in full (never a word typed alone)
                    if not re.search(joints, full, re.IGNORECASE):
                        continue
                    try:
                        other = _ask(full, reader, elliptical=elliptical)
                    except _Unknown:
                        continue
                return _both(one, other)
    reader.restore(saved)
    raise first


def _touched_still_in(reader: _Reader) -> bool:
    """Did an event do something to one player still in (whose life "who has what now" asks too)?"""
    focus = reader.focus
    return focus is not None and len(focus.players) == 1 and focus.players[0] not in reader.gone


def _whole_or_elliptical(text: str, reader: _Reader, elliptical: bool) -> _Ask | None:
    """The first of two questions: said in full, or (``elliptical``) as its topic alone ("Raj dead?")."""
    for full in (text, *(_said_in_full(text) if elliptical else ())):
        try:
            return QUESTIONS.first(full, reader, "a question")
        except _Unknown:
            continue
    return None


def _ask_with_time(text: str, reader: _Reader) -> tuple[list[_Happening], _Ask]:
    """A question, or a question with its own later event: "(if Ann becomes the monarch) who draws at the
    end of turn" is the end step after the first event, then the question."""
    saved = reader.save()
    try:
        return [], _ask(text, reader)
    except _Unknown as error:
        first = error
    for connector in re.finditer(rf"(?<= ){_CONNECTOR}(?= )", text, re.IGNORECASE):
        reader.restore(saved)
        question, condition = text[: connector.start() - 1], text[connector.end() + 1:]
        timed = connector[0].strip().lower() in ("at", "in", "during", "on")
        try:
            later = _happenings(f"{connector[0].strip()} {condition}" if timed else condition, reader)
            return later, _ask(question, reader)
        except _Unknown as error:
            if not str(error).endswith(_LEFT_ALREADY) or timed or _ANOTHER.search(condition):
                continue  # "... if the monarch then concedes": a second leaving, of whoever holds it by then
        # "tam goes to 0. who gets monarch when the monarch dies": the condition says again that a player the
        # story took out leaves - the same event, asked about; the question as it stands after the story
        reader.restore(saved)
        try:
            return [], _ask(question, reader)
        except _Unknown:
            continue
    reader.restore(saved)
    raise first


#: how a leaving event refuses a player the story already took out (``events/players.py``)
_LEFT_ALREADY = "already left the game in this question"
#: words that make a condition a later event, never the story's own said again
_ANOTHER = re.compile(r"(?i)\b(?:then|after that|afterwards|next|too|also|again|as well|later|new)\b")


def _both(one: _Ask, other: _Ask) -> _Ask:
    """Two questions asked at once: both sets of questions, each answered in its own part of the line; the
    same question asked twice ("does the turn keep going? and who's next": both whose turn) is answered
    once."""
    if (one.headline, one.questions, one.players) == (other.headline, other.questions, other.players):
        return one
    questions = tuple(dict.fromkeys((*one.questions, *other.questions)))
    players = tuple(dict.fromkeys((*one.players, *other.players)))
    # three questions or more: one list of parts, each named once
    parts = tuple(part for ask in (one, other) for part in (
        ask.headline.parts if isinstance(ask.headline, Several) else ((ask.words, ask.headline),)))
    return _Ask("several", ", and ".join(words for words, _ in parts), questions, players, Several(parts))
