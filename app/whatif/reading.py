"""Reading a sentence: a question and its events found in either order, and :func:`interpret`, the door in
(the events, clause by clause, split and ordered: :mod:`clauses`; the question's words: :mod:`asking`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from rulesjudge.app.whatif.asides import agreed_asides
from rulesjudge.app.whatif.asking import _CONNECTOR, _QUESTION_START, _ask, _ask_with_time, _said_in_full
from rulesjudge.app.whatif.clauses import _happenings
from rulesjudge.app.whatif.followups import in_blocks
from rulesjudge.app.whatif.grammar import _WORK, MAX_WORK, _OutOfWork
from rulesjudge.app.whatif.normalise import _names, _trim, normalise
from rulesjudge.app.whatif.plan import (
    MAX_QUESTION,
    WHAT_HAPPENS,
    Event,
    TableFacts,
    WhatIf,
    WhatIfError,
    _Ask,
    _facts,
    _Happening,
)
from rulesjudge.app.whatif.references import _Reader, _Unknown
from rulesjudge.app.whatif.restructure import restructure
from rulesjudge.app.whatif.typos import mend_typos


def _timed(lead: re.Match[str] | None, condition: str) -> str:
    """The condition with its leading word when that word says a time ("on Ravi's turn at the end step": the
    turn, then its step); "if", "when" and the like are taken off.

    >>> _timed(re.match("on ", "on Ravi's turn"), "Ravi's turn at the end step")
    "on Ravi's turn at the end step"
    """
    word = lead[0].strip().lower() if lead else ""
    return f"{word} {condition}" if word in ("at", "in", "during", "on") else condition


def _emphatic_selves(text: str, players: Sequence[str]) -> str:
    """ "attacks Nat himself with it": "himself" after a player's name only stresses who (the name stands);
    after a verb it is the object ("Ann hits herself") and stays.

    >>> _emphatic_selves("Jo attacks Nat himself with it", ["Jo", "Nat"])
    'Jo attacks Nat with it'
    >>> _emphatic_selves("Jo hits himself", ["Jo", "Nat"])
    'Jo hits himself'
    """
    if not players:
        return text
    names = "|".join(re.escape(p) for p in players)
    return re.sub(rf"(?i)\b({names}) (?:himself|herself|themselves|themself)\b", r"\1", text)


def _join(happenings: Sequence[_Happening]) -> str:
    words = [h.words for h in happenings]
    return words[0] if len(words) == 1 else ", then ".join(words)


def _depends_on_amount(question: str, players: set[str]) -> bool:
    """Would a question's answer change with the damage dealt to ``players``: their totals, or who is still
    in the game (not the designations, which any combat damage moves, 725.2, 726.2).

    >>> _depends_on_amount("life(Noah)", {"Noah"}), _depends_on_amount("monarch", {"Noah"})
    (True, False)
    """
    if question in ("in-game", "losers", "winners", "game-over"):
        return True
    return any(question in (f"life({p})", f"poison({p})", f"result({p})") for p in players)


def _gainers(events: Sequence[Event]) -> set[str]:
    """The players an event gains life for ("... and gains 2": a drain's gain, said).

    >>> sorted(_gainers(({"lose-life": {"player": "Raj", "amount": 2}},
    ...                  {"gain-life": {"player": "Mia", "amount": 2}})))
    ['Mia']
    """
    return {str(e["gain-life"].get("player")) for e in events
            if isinstance(e, dict) and isinstance(e.get("gain-life"), dict)}


def _combine(happenings: Sequence[_Happening], ask: _Ask | None) -> WhatIf:
    events = tuple(e for h in happenings for e in h.events)
    named = [*(p for h in happenings for p in h.players), *(ask.players if ask else ())]
    players = tuple(dict.fromkeys(named))
    guessed = {p for h in happenings for p in h.guessed}
    if guessed and ask is not None and any(_depends_on_amount(q, guessed) for q in ask.questions):
        who = ", ".join(sorted(guessed))
        raise _Unknown(f"how much damage is dealt to {who}? say the amount (an attack said without one moves "
                       "the monarch or the initiative, but gives no life total)", who)
    # "Mia drains Raj for 2 and gains 2": the gain said after the drain is said
    unsaid = {p for h in happenings for p in h.unsaid_life} - _gainers(events)
    if ask is not None and any(q == f"life({p})" for q in ask.questions for p in unsaid):
        who = ", ".join(sorted(unsaid))
        raise _Unknown(f"what does it do to {who}'s life? say how much (a drain's gain is the card's; a "
                       "toxic creature's damage is its power)", who)
    if ask is not None and ask.headline is not None:
        # a question after a block ("how much tramples over?"): what became of the creatures that fought
        # is said beside its answer (510.1c-d, 704.5g), as a judge says "the Rat dies, 4 tramples over"
        fought = tuple(f"exists({c})" for c in in_blocks(events) if f"exists({c})" not in ask.questions)
        ask = replace(ask, questions=(*ask.questions, *fought)) if fought else ask
    if ask is None:  # "what if Ann concedes": the main questions, and what the events touch
        extra = tuple(dict.fromkeys(q for h in happenings for q in h.extra if q not in WHAT_HAPPENS))
        ask = _Ask("what-happens", "what happens", (*WHAT_HAPPENS, *extra))
    if happenings:
        summary = f"If {_join(happenings)}, {ask.words}?"
        kind = ask.kind if ask.kind != "what-happens" else "what-happens-if"
    else:
        summary = ask.words[0].upper() + ask.words[1:] + "?"
        kind = ask.kind
    return WhatIf(kind, summary, events, ask.questions, players, ask.headline)


#: "Ann swings at Fay, is that legal?": an attack said, then whether it may be made, is "can Ann attack Fay".
_IS_IT_LEGAL = re.compile(
    r"(?P<x>[^,]+?) (?:swings at|swings into|attacks|goes after|is attacking|wants to attack) (?P<y>[^,]+?)"
    r"(?: with [^,]+?)?(?:,| -+)? (?:is (?:that|this|it) (?:legal|allowed|ok|okay|fine|possible)|"
    # "Gia attacks Hal - legal?": the verdict asked in one word after a break
    r"(?<=[,-] )(?:legal|allowed|ok|okay)|"
    r"can (?:she|he|they) "
    r"(?:do that|do this)|(?:is|are) (?:she|he|they) allowed(?: to)?)", re.IGNORECASE)


def _readings(text: str, facts: TableFacts, *, asked: bool = False) -> Iterator[Callable[[], WhatIf]]:
    """Ways to read a sentence, most specific first; each is tried with a fresh reader. ``asked``: the
    question ended with a question mark."""
    legal = _IS_IT_LEGAL.fullmatch(text)
    if legal:
        def may_attack() -> WhatIf:
            return _combine([], _ask(f"can {legal['x']} attack {legal['y']}", _Reader(facts)))

        yield may_attack

    def question_only() -> WhatIf:
        return _combine([], _ask(text, _Reader(facts), elliptical=False))

    yield question_only

    what_if = re.fullmatch(
        r"(?:(?:so |and |but )?what (?:happens |would happen |will happen |about |then )?(?:if|when|"
        r"after|once)|"
        r"(?:suppose|say|imagine|assume|let's say|let us say)(?: that)?|and if|if|when|after|once) (?P<c>.+?)"
        r"(?:,? what (?:happens|then|now|next|would happen|changes))?",
        text, re.IGNORECASE)
    if what_if:
        def happens_only() -> WhatIf:
            return _combine(_happenings(what_if["c"], _Reader(facts, sentence=text)), None)

        yield happens_only

    # the question first: "who is the monarch if Ann leaves", "who draws a card at the end of turn"
    for connector in re.finditer(rf"(?<= ){_CONNECTOR}(?= )", text, re.IGNORECASE):
        question, condition = text[: connector.start() - 1], text[connector.end() + 1:]
        timed = connector[0].strip().lower() in ("at", "in", "during", "on")

        def question_first(q: str = question, c: str = condition, t: bool = timed,
                           word: str = connector[0].strip()) -> WhatIf:
            reader = _Reader(facts, hint=q, sentence=text)
            happenings = _happenings(f"{word} {c}" if t else c, reader)
            return _combine(happenings, _ask(q, reader))

        yield question_first

        # "does the monarch go away if Uma loses, or does someone get it": a second question after the
        # condition, about the same event
        second = re.search(rf",? (?:and|or) (?=(?:{_QUESTION_START.pattern})\s)", condition, re.IGNORECASE)
        if second and not timed:
            def question_around(q: str = f"{question}, and {condition[second.end():]}",
                                c: str = condition[: second.start()]) -> WhatIf:
                reader = _Reader(facts, hint=q, sentence=text)
                return _combine(_happenings(c, reader), _ask(q, reader))

            yield question_around

    # the condition first: "if Ann leaves, who is the monarch", "Ann concedes, who is king",
    # "if Ben's creature hits Ann who is monarch"
    lead = re.match(rf"^(?:{_CONNECTOR}) ", text, re.IGNORECASE)
    body = text[lead.end():] if lead else text
    for start in _QUESTION_START.finditer(body):
        if start.start() == 0:
            continue
        condition = body[: start.start()].rstrip(" ,;:-.!?")
        # "Bo concedes. Now can Ava ...": the word that leads the question on, and the stop before it
        condition = re.sub(r"(?i)(?:,| -)? (?:then|so|and|(?<!right )now)$", "", condition).rstrip(" ,;:-.!?")
        # "what if Cat concedes? who gets the crown": the "what if" of a condition said as its own question
        condition = re.sub(r"(?i)^what (?:happens |would happen )?(?:if|when) ", "", condition)
        question = body[start.start():]
        # "... mia drains raj for 2. raj dead? whats mias life": a question said as its topic, before it
        short = re.search(r"(?:[.;:] |^)(?P<e>[^.;:,]+)$", condition)
        if short and short.start() > 0 and any(_said_in_full(short["e"])):
            def topic_then_question(c: str = condition[: short.start()], q: str = f"{short['e']}, {question}"
                                    ) -> WhatIf:
                reader = _Reader(facts, hint=q, sentence=text)
                happenings = _happenings(c, reader)
                later, ask = _ask_with_time(q, reader)
                return _combine([*happenings, *later], ask)

            yield topic_then_question

        def condition_first(c: str = condition, q: str = question) -> WhatIf:
            reader = _Reader(facts, hint=q, sentence=text)
            happenings = _happenings(_timed(lead, c), reader)
            later, ask = _ask_with_time(q, reader)
            return _combine([*happenings, *later], ask)

        yield condition_first

    # "Ben dies on Dan's turn. New monarch?", "Ben takes 5 from Cat. Ben's life?": the question said last,
    # after its events, with no question word to find it by
    # "Ann loses 4, so ann life, ben life": several, each said as its topic (each later cut: one more)
    cuts = [m for m in re.finditer(r"(?:[.;:] | -+ |, )(?:so |and )?(?=(?P<q>[^.;:]+)$)", body)
            if not _QUESTION_START.match(m["q"])]
    for last in reversed(cuts[-3:]):
        def question_last(c: str = body[: last.start()], q: str = last["q"]) -> WhatIf:
            reader = _Reader(facts, hint=q, sentence=text)
            happenings = _happenings(c, reader)
            return _combine(happenings, _ask(q, reader))

        yield question_last

    # "... nobody blocks. Rosa's life, who controls the giant": the last sentence two questions, the first
    # said as its topic alone (the comma reading above took the second only)
    stop = body.rfind(". ")
    if stop > 0 and not _QUESTION_START.match(body[stop + 2:]) and ", " in body[stop + 2:]:
        def questions_last(c: str = body[:stop], q: str = body[stop + 2:]) -> WhatIf:
            reader = _Reader(facts, hint=q, sentence=text)
            happenings = _happenings(c, reader)
            return _combine(happenings, _ask(q, reader))

        yield questions_last

    def bare_events() -> WhatIf:  # "Ben gets 3 poison", "Ann concedes": what happens
        if re.match(r"(?i)(?:can|could|may|might)\b", body):  # "can Ada's Elf attack Di": asked, never done
            raise _Unknown("not an event: a question about what may happen", body)
        told = _TOLD_THEN_ASKED.search(body)
        if asked and told and not _QUESTION_START.search(told["last"]):
            # "Jo attacks Ravi with the Knight and the Wall blocks. Knight is destroyed?": after a story, a
            # last sentence with a question mark and no question word asks whether it happens; read as told
            # it would be answered as done (``stories`` asks what it can: "Knight dies?", "does Knight die?")
            raise _Unknown("not an event: the story's last sentence is asked", body)
        return _combine(_happenings(body, _Reader(facts, sentence=text)), None)

    yield bare_events


#: A story told in sentences before its last one ("... blocks with the Wall. Knight dies"): the last is what
#: the question mark asks about.
_TOLD_THEN_ASKED = re.compile(r"[.;:] (?P<last>[^.;:]+)$")


def _looks_like_a_name(fragment: str) -> bool:
    """Is an unknown fragment worth an error ("no player called 'Zed'") rather than the search fallback?"""
    words = fragment.split()
    articles = {"a", "an", "the", "my", "your", "his", "her", "their", "our", "this", "that", "some", "any",
                "its"}
    # "Can Fay", "Are Ben": a question's opening word capitalised, not a name (the question went unread)
    if words and _QUESTION_START.fullmatch(words[0]):
        return False
    return 0 < len(words) <= 2 and words[0].lower() not in articles and fragment[:1].isupper() and \
        all(w[:1].isupper() or w.lower() in ("of", "the", "and", "de", "van") for w in words)


#: Keywords that change what damage does to a player (702.4 double strike, 702.15 lifelink, 702.16
#: protection, 702.70 poisonous, 702.80 wither, 702.90 infect, 702.164 toxic). The model deals plain
#: damage, so a sentence with damage that names one goes to the search rather than answered as plain damage
#: ("Ben's infect creature hits Cat for 2" is poison counters, not 2 life).
_DAMAGE_CHANGERS = re.compile(
    r"\b(?:double[- ]?strike|double[- ]?striker|lifelink|lifelinker|lifelinking|protection|"
    r"pro[- ](?:white|blue|black|red|green|creatures)|poisonous|wither|infect|infector|toxic)\b",
    re.IGNORECASE)


def _deals_damage(events: Sequence[Event]) -> bool:
    return any(isinstance(e, dict) and ("damage" in e or "combat-damage" in e) for e in events)


def _one_blow_of_two(events: Sequence[Event], facts: TableFacts) -> bool:
    """A one-line hit ("Rosa's 3/3 double striker hits Mika") by a creature with double strike: one blow of
    combat damage, where double strike deals it in two combat damage steps (702.4b, 510.4); the rules search
    answers it rather than half of it.

    >>> facts = TableFacts(("Ann", "Ben"), double_strikers=("Knight",))
    >>> _one_blow_of_two([{"combat-damage": {"creature": "Knight", "to": "Ben"}}], facts)
    True
    >>> _one_blow_of_two([{"attack": {"creatures": ["Knight"]}}, "combat-damage-step"], facts)
    False
    """
    hits = [h for e in events if isinstance(e, dict) and "combat-damage" in e
            for h in (e["combat-damage"] if isinstance(e["combat-damage"], list) else [e["combat-damage"]])]
    return any(isinstance(h, dict) and h.get("creature") in facts.double_strikers for h in hits)


def _bare_possessives(text: str, players: Sequence[str]) -> str:
    """ "anns life", "bens turn": a name with a bare "s" is a possessive typed without its apostrophe (not
    when that is another player's name); "ann life" asked as a topic is Ann's life.

    >>> _bare_possessives("sol life and who has initiative", ["Sol"])
    "sol's life and who has initiative"
    >>> _bare_possessives("tam gives sol life", ["Sol", "Tam"])
    'tam gives sol life'
    """
    names = {p.casefold() for p in players}
    for player in players:
        if f"{player}s".casefold() not in names:
            text = re.sub(rf"(?i)(?<![\w']){re.escape(player)}s(?![\w'])", f"{player}'s", text)
        # "sol life and who has initiative": a name then "life" asked as a topic is the name's life (not
        # "gives Sol life", where a verb comes before it)
        text = re.sub(rf"(?i)(?:^|(?<=[,.;:?!] )|(?<=\band )|(?<=\bso )|(?<=\bwhat's )|(?<=\bwhats )|"
                      rf"(?<=\bwhat is ))({re.escape(player)}) (?=life(?: total)?\b(?! (?:to|from)\b))",
                      r"\1's ", text)
    return text


def _appositions(text: str, facts: TableFacts) -> str:
    """ "Mia's teammate Liam", "the red team's emperor Bea": the player named, where the table agrees with
    what the words call them (a teammate on the same team, an emperor among the emperors); otherwise left
    as said, for the reader to refuse.

    >>> table = TableFacts(("Ann", "Ben", "Cat", "Dan"), teammates={"Ann": ("Ben",), "Ben": ("Ann",)})
    >>> _appositions("Ann's teammate Ben concedes", table)
    'Ben concedes'
    >>> _appositions("Ann's teammate Cat concedes", table)
    "Ann's teammate Cat concedes"
    """
    names = {p.casefold(): p for p in facts.players}

    def named(match: re.Match[str]) -> str:
        owner, role, who = names.get(match["owner"].casefold()), match["role"].lower(), \
            names.get(match["who"].casefold())
        if who is None:
            return match[0]
        if role == "emperor":
            agrees = who in facts.emperors and (owner is None or owner == who or
                                                 owner in facts.teammates.get(who, ()))
        else:
            agrees = owner is not None and who in facts.teammates.get(owner, ())
        return who if agrees else match[0]

    return re.sub(r"(?i)\b(?:the )?(?P<owner>[\w-]+(?: team)?)(?:'s|') "
                  r"(?P<role>teammate|team ?mate|partner|ally|emperor) (?P<who>[A-Za-z][\w-]*)\b",
                  named, text)


#: Words that put an event before those said ahead of it: "… if Cat conceded first", "Ann had conceded",
#: "earlier". The reader plays events in the order said (or as "before"/"after" order them); with two
#: events or more these would reverse it unseen, so such a sentence goes to the search. Not "who goes
#: first", "first turn", "first strike".
_ORDER_HINT = re.compile(
    r"\b(?:first(?! (?:player|turn|strike|main|combat|step|phase|seat))|earlier|beforehand|previously|"
    r"(?:had|'d) (?:already |just )?(?:conceded|left|lost|died|dropped|scooped|hit|been|gotten|got|taken|"
    r"attacked|dealt|drawn|gained|passed|unveiled|become|quit))\b",
    re.IGNORECASE,
)


def _reorders(text: str) -> bool:
    """Does an order word put an event before those said ahead of it? Not when every one is said before the
    first "then": "Ann scooped earlier, then Cat and Dan both lose" is in the order said.

    >>> _reorders("Ben hits Cat and Cat concedes first"), _reorders("Ann scooped earlier, then Cat loses")
    (True, False)
    >>> _reorders("Ann scooped earlier. Cat loses"), _reorders("Ann hits Cat and Cat quits first. who won")
    (False, True)
    """
    hints = [h.start() for h in _ORDER_HINT.finditer(text)]
    cuts = [m.start() for m in re.finditer(r"(?:[,.;]? (?:and )?)then\b", text, re.IGNORECASE)][:1]
    # "both assassins got killed earlier. Sol dies too": a first sentence of one clause is said first anyway
    first = re.match(r"[^.;!?]+(?=[.;!?] )", text)
    if first and not re.search(r",| and | or | but | then ", first[0], re.IGNORECASE):
        cuts.append(first.end())
    return bool(hints) and (not cuts or max(hints) > min(cuts))


def _players_in(value: Any, players: Sequence[str]) -> Iterator[str]:
    """The players an event's arguments name (not a creature's name: ``creature: Krenko``)."""
    if isinstance(value, str):
        if value in players:
            yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            if key != "creature":
                yield from _players_in(inner, players)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _players_in(inner, players)


def _check_still_in(plan: WhatIf, facts: TableFacts) -> None:
    """A what-if's events happen to the table as it stands: a player its own events took out of the game
    can't concede or be hit again (800.4a), and once the game is over nothing more happens (104.1). Read
    anyway, "if the Leader concedes" would answer as if she were still playing."""
    if not plan.events:
        return
    if facts.over:
        raise WhatIfError("the game at this table is over already, so no event changes it - ask without "
                          "an event (who won, who is still in)")
    gone = [p for p in dict.fromkeys(_players_in(list(plan.events), facts.players)) if p not in facts.playing]
    if gone:
        raise WhatIfError(f"{_names(gone)} left the game already at this table - ask about the players "
                          f"still in ({_names(facts.playing)})")


#: The model's questions that count what events made players do (draw cards for the monarch, venture): asked
#: with no event they count nothing
_EVENT_COUNTS = frozenset(("draws", "ventures"))


def interpret(question: str, table: TableFacts | Sequence[str]) -> WhatIf | None:
    """The events and questions a plain-English question stands for, or None when it is not one we read.

    ``table``: the :class:`TableFacts` of the table on screen (or just its players, in seat order). Raises
    :class:`WhatIfError` when the question is recognised but names a player not at the table, names a
    designation nobody holds, or is longer than :data:`MAX_QUESTION` characters.
    """
    if len(question) > MAX_QUESTION:
        raise WhatIfError(f"the question is longer than {MAX_QUESTION} characters")
    facts = _facts(table)
    text = mend_typos(_bare_possessives(restructure(normalise(question)), facts.players), facts.players)
    text = _trim(agreed_asides(_appositions(text, facts), facts))
    text = _emphatic_selves(text, facts.players)
    if not text or not facts.players:
        return None
    errors: list[_Unknown] = []
    work = _WORK.set([MAX_WORK])
    try:
        for reading in _readings(text, facts, asked=question.rstrip().endswith("?")):
            try:
                plan = reading()
            except _Unknown as error:
                errors.append(error)
                continue
            if _deals_damage(plan.events) and _DAMAGE_CHANGERS.search(text):
                return None
            if _one_blow_of_two(plan.events, facts):
                return None
            if len(plan.events) > 1 and _reorders(text):
                return None  # "Ben hits Cat and Cat concedes first": the order said is not the order read
            if not plan.events and all(q.split("(")[0] in _EVENT_COUNTS for q in plan.questions):
                # "how many cards does each player draw on the first turn": a count of what the question's
                # events make players do; asked of no event it is a rules question (the draw step, 504.1;
                # 103.8), not a count of zero
                return None
            _check_still_in(plan, facts)
            return plan
    except _OutOfWork:
        return None  # too tangled to read in time: the rules search answers it
    finally:
        _WORK.reset(work)
    worth_saying = [e for e in errors if not str(e).startswith("not ") and
                    (not str(e).startswith("there is no player") or _looks_like_a_name(e.fragment))]
    if worth_saying:
        worth_saying.sort(key=lambda e: len(e.fragment))
        raise WhatIfError(str(worth_saying[0]))
    return None
