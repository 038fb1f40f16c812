"""Who holds a designation, said in passing anywhere in a story (725.1, 726.1): "uma the monarch gets hit",
"sol has the initiative, uma the monarch", "sol (who has initiative) takes 2", "... who's the monarch? (tam
has it)", "... uma takes it. uma was the monarch. then ...", "rae has both monarch and initiative and
leaves". Each is a fact about the table before the story's events (a past tense told after an event, an
aside in brackets, a holder named beside a name), taken off the text and set like the facts said first
(:class:`situation_facts._Facts`); the name stays where it acts. A present-tense "X is the monarch" said
after an event is not taken: it may be what the events did.

>>> facts = _Facts({"players": ["Rae", "Sol", "Tam", "Uma"]})
>>> designations_in_passing("uma the monarch gets hit by sol's wolf", facts), facts.said
("uma gets hit by sol's wolf", ['Uma is the monarch'])
"""

from __future__ import annotations

import re

from rulesjudge.app.situation_facts import _designation, _Facts

_CROWN = r"(?:the )?(?:monarch|monarchy|crown|king|queen)"
_INITIATIVE = r"(?:the )?initiative"
_NAME = r"(?P<s>[A-Za-z][\w-]*)"
#: where a clause may start: a name said there is its subject, never the object of a verb before it
_CLAUSE_START = r"(?:^|(?<=[.;:!?,(] )|(?<=\band )|(?<=\bthen )|(?<=\bif )|(?<=\bwhen )|(?<=\bso )|" \
    r"(?<=\bbut )|(?<=\bafter )|(?<=\bonce )|(?<= - )|(?<='s turn )|(?<=own turn ))"
#: what ends a clause said only as a fact
_CLAUSE_END = r"(?=\s*(?:[.;:!?,)]|$| - | and | but | so | then ))"


def _holder(kind_words: str) -> str:
    return "initiative" if "initiative" in kind_words.lower() else "monarch"


def designations_in_passing(text: str, facts: _Facts) -> str:
    """The designations ``text`` says in passing set on ``facts``; the text without them.

    >>> facts = _Facts({"players": ["Rae", "Sol", "Tam", "Uma"]})
    >>> designations_in_passing("rae swings at sol (who has initiative) for 2", facts), facts.said
    ('rae swings at sol for 2', ['Sol has the initiative'])
    >>> facts = _Facts({"players": ["Rae", "Sol", "Tam", "Uma"]})
    >>> designations_in_passing("rae has both monarch and initiative and leaves on her own turn", facts)
    'rae leaves on her own turn'
    >>> facts.said
    ['Rae is the monarch', 'Rae has the initiative']
    >>> facts = _Facts({"players": ["Rae", "Sol", "Tam", "Uma"]})
    >>> designations_in_passing("sol hits uma. uma was the monarch. who is it now", facts), facts.said
    ('sol hits uma. who is it now', ['Uma is the monarch'])
    >>> facts = _Facts({"players": ["Rae", "Sol", "Tam", "Uma"]})
    >>> designations_in_passing("sol has the initiative, uma the monarch. tam swings", facts), facts.said
    ('sol has the initiative. tam swings', ['Uma is the monarch'])
    >>> designations_in_passing("is uma the monarch now?", _Facts({"players": ["Uma"]}))
    'is uma the monarch now?'
    """
    def both(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        for kind in ("monarch", "initiative"):
            facts.set(kind, who, _designation(kind, who))
        goes_on = match["more"] and not re.match(r"(?i)(?:he|she|they)\b", match.string[match.end():])
        return f"{match['s']} " if goes_on else ""

    # "rae has both monarch and initiative (and leaves ...)": both designations, one holder
    text = re.sub(rf"{_CLAUSE_START}{_NAME} (?:has|had|holds|held|has got|'s got) (?:both )?"
                  rf"(?:{_CROWN} and {_INITIATIVE}|{_INITIATIVE} and {_CROWN}){_CLAUSE_END}"
                  r"(?P<more> and (?=\w))?[.;,]?\s*", both, text, flags=re.IGNORECASE)

    def aside(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        kind = _holder(match["d"])
        facts.set(kind, who, _designation(kind, who))
        return match["keep"] or ""

    # "(tam has the monarch)", "(uma is monarch)": an aside in brackets is the table
    # as it stands, whatever was said before it
    text = re.sub(rf"\s*\((?P<keep>){_NAME} (?:has|holds|has got|'s got|is|'s|was|had) "
                  rf"(?P<d>{_CROWN}|{_INITIATIVE})\)", aside, text, flags=re.IGNORECASE)
    # "sol (who has initiative) takes 2", "uma (monarch) dies", "tam (the monarch)": a holder beside a name
    text = re.sub(rf"\b(?P<keep>{_NAME}) \((?:who(?:'s| is| was| has| had| holds) |with |has |is )?"
                  rf"(?P<d>{_CROWN}|{_INITIATIVE})\)", aside, text, flags=re.IGNORECASE)
    # "uma the monarch gets hit", "sol has the initiative, uma the monarch.": a name with its designation and
    # no verb between them (after "is", "was", "make" it is a question or an event: not here)
    def beside(match: re.Match[str]) -> str:  # the name stays where it acts; a clause of its own goes
        said = aside(match)
        alone = said != match[0] and re.match(r"\s*(?:[.;:!?]|$)", match.string[match.end():])
        return "" if alone else said

    text = re.sub(rf"{_CLAUSE_START}(?P<keep>{_NAME}),? (?P<d>the (?:monarch|king|queen|initiative holder))"
                  r"\b(?!')(?: -)?,?", beside, text, flags=re.IGNORECASE)
    text = re.sub(r",\s*(?=[.;:!?]|$)", "", text)

    # "... uma takes it. uma was the monarch. then ...": a past tense told after an event is the table before
    # the story; the clause is a fact only, taken off whole
    return re.sub(rf"(?P<lead>(?<=\S)[.;] |, )(?:and )?{_NAME} (?P<verb>was|had been|used to be|had|held) "
                  rf"(?P<d>{_CROWN}|{_INITIATIVE})(?: (?:before|then|already|at the time))?(?=[.;,!?]|$)"
                  r"[.;,!?]?\s*", lambda m: _past(m, facts), text, flags=re.IGNORECASE).strip()


def _past(match: re.Match[str], facts: _Facts) -> str:
    """A past holder ("uma was the monarch", "sol had the initiative"): set, and the clause taken off."""
    kind = _holder(match["d"])
    had = match["verb"].lower() in ("had", "held")
    if kind == "initiative" and not had:  # "was the initiative": not how a holder is said
        return match[0]
    who = facts.name(match["s"])
    if who is None:
        return match[0]
    facts.set(kind, who, _designation(kind, who))
    return match["lead"] if match["lead"].startswith((".", ";")) else ". "
