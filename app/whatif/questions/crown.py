"""Questions about the crown (725) and the initiative (726)."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import Is, Several, Value
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import _PRONOUN, Ref, _Reader

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


_BE = r"(?:'s| is| will be| would be| becomes| will become| would become| should become| ends up(?: as|" \
    r" being)?|" \
    r" gets to be| should be| is going to be| remains| stays| was)"
_KING = r"(?:the )?(?:new |next )?(?:monarch|king|queen)"
_CROWN = r"(?:the )?(?:crown|monarchy|monarch designation|monarch)"
#: How holding is said; "should have gotten": asked after the fact, of a game last night
_HOLD = r"(?:gets|takes|has|has got|got|holds|keeps|ends up with|wears|inherits|receives|steals|is given|" \
    r"would get|" \
    r"will get|" \
    r"would have|will have|should get|gets to keep|would take|will take|is left with|picks up|" \
    r"should have|should have gotten|should have got|should've gotten|should've had|should've got|" \
    r"should take|should have taken)"


@PATTERNS(
    rf"who{_BE}? {_KING}",
    rf"who(?: {_HOLD}|'s got) {_CROWN}",
    rf"(?:where|who) (?:does|would|will) {_CROWN} go(?: to)?",
    rf"where(?:'s| is)? {_CROWN} (?:go|going|gone)(?: to)?",
    rf"who(?:'s| is) (?:holding|wearing|got) {_CROWN}",
    rf"what happens to {_CROWN}",
    rf"{_CROWN} (?:goes|passes|moves|would go|will go|should go) to (?:who|whom)",  # "- monarch goes to who?"
    rf"{_CROWN} (?:goes|passes|moves|would go|will go|should go) to",  # "monarch goes to...?"
    rf"who (?:would|will|is going to|should) {_KING} be",
    rf"(?:does|will|would) {_KING} change(?: hands)?",
    # "jo bolts ravi for 3. does that take the monarch?": whether the event moves it is who holds it after
    rf"(?:does|did|will|would|should) (?:that|this|it) (?:take|steal|move|change|transfer|pass) {_CROWN}",
    rf"who (?:takes over|takes|inherits|gets|steals|picks up) {_CROWN} (?:from|off) {_X}",
    # either-or: "does the crown go to Mia or to Pia", "does Mia get the crown or Pia": who, of the two
    rf"(?:does|will|would|should) {_CROWN} (?:go|pass|move) to {_X},? or (?:to )?{_Y}",
    rf"(?:does|will|would|should) {_X} (?:get|take|inherit|receive) {_CROWN},? or (?:does )?{_Y}",
    rf"(?:does|will|would|should) {_X} or {_Y} (?:get|take|inherit|receive|become) {_CROWN}",
    # "is there a monarch right now", "does anyone become monarch": whether anyone is, answered by who is
    r"(?:is|will|would) there (?:still |now )?(?:be )?(?:a|an|any) (?:new )?(?:monarch|king|queen)",
    rf"(?:does|will|would|should|do) (?:any|some)(?:one|body)(?: of us)? (?:(?:still )?(?:get|take|"
    rf"become|have|inherit|keep)) {_CROWN}",
    rf"(?:is|will) (?:any|some)(?:one|body)(?: of us)? (?:still )?(?:be )?{_KING}",
)
def _q_monarch(match: re.Match[str], reader: _Reader) -> _Ask:
    """Who is the monarch; of two players named ("to Mia or to Pia?"), each must be at the table, and the
    answer names whoever it is (either, or someone else)."""
    for said in ("x", "y"):
        if match.groupdict().get(said):
            reader.refer(match[said], one=True)  # taken from a player at the table, or not this reading
    return _Ask("monarch", "who is the monarch", ("monarch",), headline=Value("monarch"))


#: the words that name each designation in a question (the monarch, the initiative): what "it" or "they" may
#: stand for
_DESIGNATIONS_SAID = (re.compile(r"(?i)\b(?:monarch|crown|king|queen)\b"), re.compile(r"(?i)\binitiative\b"))


def _said(reader: _Reader) -> str:
    """The question's words and the facts it stated, where a pronoun's designation may have been named."""
    return " ".join((reader.sentence, *reader.facts.said))


@PATTERNS(rf"(?:does|will|would|should|can) {_X} (?:still )?(?P<verb>get|keep|take|lose|have|hold|steal) "
            r"it")
def _q_does_x_have_it(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "if Ann hits Dan, does Dan keep it": "it" is the designation the sentence is about, else the one held
    by the players it names (Dan has the initiative); not guessed when that is both or neither."""
    who = _holder(reader, match["x"], match[0])
    designation = reader.topic
    if not designation and reader.creature and not any(d.search(_said(reader)) for d in _DESIGNATIONS_SAID):
        return None  # "Sol steals the Ox. Rae scoops, does Sol keep it": the creature, no designation said
    if not designation:
        named = {*who.players, *(reader.focus.players if reader.focus else ()), *reader.mentioned}
        holders = (("monarch", reader.facts.monarch), ("initiative", reader.facts.initiative))
        held = {d for d, holder in holders if holder in named}
        designation = held.pop() if len(held) == 1 else ""
    if designation not in ("monarch", "initiative"):
        return None
    lose = match["verb"].lower() == "lose"
    words = f"does {who.words} {'lose' if lose else 'have'} the {designation}"
    return _Ask(designation, words, (designation,), who.players, Is(designation, who.players[0], lose))


@PATTERNS(r"who (?:gets|takes|has|inherits|ends up with|would get|will get|should get|keeps|has got) it",
          r"who(?:'s| has) got it",
          r"who (?:picks|would pick|will pick|gets to pick) it up",  # "who picks it up": takes it
          r"(?:who|whom) (?:does|would|will|should) it (?:go|pass|move) to",
          r"(?:who|whom) (?:does|would|will|should) (?:get|take|inherit) it")
def _q_it(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "…, who gets it?": the designation the sentence is about, else the one designation held at the table
    (never guessed when both or neither are)."""
    topic = reader.topic
    if not topic and bool(reader.facts.monarch) != bool(reader.facts.initiative):
        topic = "monarch" if reader.facts.monarch else "initiative"
    if topic == "initiative":
        return _Ask("initiative", "who has the initiative", ("initiative",), headline=Value("initiative"))
    if topic == "monarch":
        return _Ask("monarch", "who is the monarch", ("monarch",), headline=Value("monarch"))
    if reader.topic == "priority" and reader.facts.knows_question("priority") and reader.facts.questions:
        return _Ask("priority", "who receives priority", ("priority",), headline=Value("priority"))
    return None


@PATTERNS(
    rf"(?:does|will|would|should|can) {_X} (?:become|stay|remain|be|keep being|get to be|still be) {_KING}",
    rf"is {_X} (?:still |now |then |going to be )?{_KING}",
    rf"(?:does|will|would|should|can) {_X} (?P<verb>get|keep|take|lose|steal|have|hold|inherit) {_CROWN}",
    rf"(?:does|will|would) {_CROWN} (?:go|pass|move) to {_X}",
)
def _q_is_monarch(match: re.Match[str], reader: _Reader) -> _Ask:
    who = _holder(reader, match["x"], match[0])
    lose = (match.groupdict().get("verb") or "").lower() == "lose"
    words = f"does {who.words} lose the crown" if lose else f"is {who.words} the monarch"
    return _Ask("monarch", words, ("monarch",), who.players, Is("monarch", who.players[0], lose))


_THE_INITIATIVE = r"(?:the )?initiative"
_GAINING = re.compile(r"\b(?:get|take|steal|inherit|become|gain)\b", re.IGNORECASE)


def _holder(reader: _Reader, text: str, question: str) -> Ref:
    """Whom "does he get the initiative" asks about. After "Ben hits Dan", "he" gaining a designation is the
    one who dealt the damage (the clause's subject); "he" keeping or losing it is the one hit."""
    if (re.fullmatch(_PRONOUN, text.strip(), re.IGNORECASE) and _GAINING.search(question)
            and reader.subject is not None and reader.focus is not None):
        return reader._note(reader.subject)
    return reader.refer(text, one=True, alone=True)


@PATTERNS(
    rf"who(?: {_HOLD}|'s got) {_THE_INITIATIVE}",
    rf"who{_BE}? (?:the )?(?:new )?initiative (?:holder|player)",
    rf"(?:where|who) (?:does|would|will) {_THE_INITIATIVE} go(?: to)?",
    rf"where(?:'s| is)? {_THE_INITIATIVE} (?:go|going|gone)(?: to)?",
    rf"who(?:'s| is) (?:holding|got) {_THE_INITIATIVE}",
    rf"(?:does|did|will|would|should) (?:that|this|it) (?:take|steal|move|change|transfer|pass) "
    rf"{_THE_INITIATIVE}",
    rf"what happens to {_THE_INITIATIVE}",
    # "who takes over the initiative from Dan (if he scoops)": from whom is the question's premise
    rf"who (?:takes over|takes|inherits|gets|steals|picks up) {_THE_INITIATIVE} (?:from|off) {_X}",
    # either-or, as for the crown: "does Mia get the initiative or Noah"
    rf"(?:does|will|would|should) {_THE_INITIATIVE} (?:go|pass|move) to {_X},? or (?:to )?{_Y}",
    rf"(?:does|will|would|should) {_X} (?:get|take|inherit|receive) {_THE_INITIATIVE},? or (?:does )?{_Y}",
    rf"(?:does|will|would|should) {_X} or {_Y} (?:get|take|inherit|receive) {_THE_INITIATIVE}",
    # "does anyone have the initiative", "is there an initiative holder": whether anyone has it
    rf"(?:does|will|would|should|do) (?:any|some)(?:one|body)(?: of us)? (?:(?:still )?(?:get|take|"
    rf"have|inherit|keep)) {_THE_INITIATIVE}",
    r"(?:is|will|would) there (?:still |now )?(?:be )?(?:a|an|any) (?:new )?initiative(?: holder)?",
)
def _q_initiative(match: re.Match[str], reader: _Reader) -> _Ask:
    for said in ("x", "y"):
        if match.groupdict().get(said):
            reader.refer(match[said], one=True)  # taken from a player at the table, or not this reading
    return _Ask("initiative", "who has the initiative", ("initiative",), headline=Value("initiative"))


@PATTERNS(
    rf"(?:does|will|would|should|can) {_X} (?:still )?(?P<verb>get|keep|take|lose|have|"
    rf"hold) {_THE_INITIATIVE}",
    rf"is {_X} (?:still )?(?:the )?initiative (?:holder|player)",
    rf"(?:does|will|would) {_THE_INITIATIVE} (?:go|pass|move) to {_X}",
)
def _q_has_initiative(match: re.Match[str], reader: _Reader) -> _Ask:
    who = _holder(reader, match["x"], match[0])
    lose = (match.groupdict().get("verb") or "").lower() == "lose"
    words = f"does {who.words} lose the initiative" if lose else f"does {who.words} have the initiative"
    return _Ask("initiative", words, ("initiative",), who.players, Is("initiative", who.players[0], lose))


@PATTERNS(
    r"(?:where|who) (?:do|does|would|will|should) (?:they|both|both of them|those|the two|them) go(?: to)?"
    r"(?: now| then)?",
    r"who (?:gets|takes|has|inherits|ends up with) (?:them|both|both of them|the two)(?: now| then)?",
)
def _q_both(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Ravi has the initiative AND the monarch and he leaves on his own turn, where do they go": "they" are
    the two designations, only where the sentence (or the facts it stated) names both; else not this
    reading ("they" may be creatures, or players)."""
    said = _said(reader)
    if not all(designation.search(said) for designation in _DESIGNATIONS_SAID):
        return None
    monarch, initiative = "who is the monarch", "who has the initiative"
    return _Ask("several", f"{monarch}, and {initiative}", ("monarch", "initiative"),
                headline=Several(((monarch, Value("monarch")), (initiative, Value("initiative")))))
