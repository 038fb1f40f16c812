"""What a story says in passing, said plainly before the facts and events are read (issue 23, blind round 11;
:func:`app.stories.retell` runs these among its rewrites): a hedge before a number ("at like 36"), "n" for
"and" and "its a" for "it's a", a count of hits "3 times this game, 4 each time", a team said as "the team"
before its player or by a label ("team a (rae sol)"), the player attacked said by the block ("Uma's 3/3
swings, Tam blocks it", 509.1a), and the clause or thing a correction withdraws."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: "nah just an infect 2/2": a thing, not a clause, said instead of the thing said last
_JUST_A = re.compile(r"(?i)^(?:only |just )(?P<thing>(?:an?|the|some) [^.;!?]+)$")
#: where a correction's clause begins: what is said before it stands ("Rae has 2 life left and I lifelink her
#: face... no wait Rae gains 5 life": she still has 2)
_CLAUSE_JOINT = re.compile(r"(?i)(?:,| -+|—|;)? (?:and then|and|then|but)(?= )|, | -+ |— ")


def _last_clause(said: str) -> tuple[str, str]:
    """What stands before the clause a correction withdraws, and that clause.

    >>> _last_clause("rae has 2 life left and i lifelink her face")
    ('rae has 2 life left and ', 'i lifelink her face')
    >>> _last_clause("If Quinn goes to 0 life")
    ('', 'If Quinn goes to 0 life')
    """
    joints = list(_CLAUSE_JOINT.finditer(said))
    if not joints:
        return "", said
    return said[:joints[-1].end()].rstrip() + " ", said[joints[-1].end():].strip()


def _hedged_number(text: str, players: Sequence[str]) -> str:
    """ "uma's at like 36 life": a hedge before a number carries no fact.

    >>> _hedged_number("uma's at like 36 life, she took about 5", ())
    "uma's at 36 life, she took 5"
    """
    return re.sub(r"(?i)\b(?:like|about|around|roughly|maybe|approx\.?|approximately) (?=\d)", "", text)


#: "tom at 9 poison gets hit ...", "dan on 9 poison takes 2", "ann with 7 poison counters gets hit", "cat
#: sitting on 4 life eats a 5/5": a player's total said beside them as the clause's subject (not inside a
#: condition: what "if" supposes is not the table)
_TOTAL_BESIDE = re.compile(
    r"(?i)(?P<lead>^|[.;!?:] |, (?:and |then |but |so )?|\b(?:and|then|but|so|now) )"
    r"(?P<who>[A-Za-z][\w'-]*),? (?:(?:who's|who is|sitting|sat|currently|already|still) )?"
    r"(?:(?P<at>at|on) (?P<n>\d+)(?P<unit> life| poison(?: counters)?)?|"
    r"with (?P<m>\d+)(?P<counters> poison(?: counters)?| life))(?: already| now| so far)?,? "
    r"(?!(?:and|or|but|so|then|is|was|has|had|life|poison|counters?|from|by|to|in|on|at|after|before|each|"
    r"total|left|now|right|lol|already)\b)(?=[a-z])")


def _total_beside(text: str, players: Sequence[str]) -> str:
    """ "tom at 9 poison gets hit by ...": the total a fact of its own, the clause going on as said.

    >>> _total_beside("tom at 9 poison gets hit by zoe's 1/1 infect creature. does he lose", ["Tom", "Zoe"])
    "tom is at 9 poison and gets hit by zoe's 1/1 infect creature. does he lose"
    >>> _total_beside("so ann with 7 poison counters takes 2 from an infect guy", ["Ann"])
    'so ann has 7 poison counters and takes 2 from an infect guy'
    >>> _total_beside("if tom at 9 poison gets hit", ["Tom"])  # a supposition stays one
    'if tom at 9 poison gets hit'
    >>> _total_beside("Ann attacks Ben at 3 life", ["Ann", "Ben"])  # not the subject
    'Ann attacks Ben at 3 life'
    """
    names = {p.casefold() for p in players}

    def fact(match: re.Match[str]) -> str:
        if names and match["who"].casefold() not in names:
            return match[0]
        said = (f"is {match['at']} {match['n']}{match['unit'] or ''}" if match["at"] else
                f"has {match['m']}{match['counters']}")
        return f"{match['lead']}{match['who']} {said} and "

    return _TOTAL_BESIDE.sub(fact, text)


#: "eats a 5/5 from ben", "takes a hit from ben's 5/5": a hit said from the side of the one hit (a creature by
#: its size only: "eats the removal" is no hit)
_HIT_TAKEN = re.compile(r"(?i)\b(?:(?:eats|ate|eat)(?= (?:an? |the )?(?:[\w'-]+ )?\d+/\d+\b)|"
                        r"(?:takes|took|take|eats|ate) (?:a|the) (?:hit|swing|smack) from)")


#: "Zoe has 7 poison counters and an infect 2/2 hits her": a total, then "and" and a clause of another subject
_TOTAL_THEN_ANOTHER = re.compile(
    r"(?i)\b(?P<fact>(?P<who>[A-Za-z][\w-]*)(?:'s| is| has|s)(?: got)? (?:(?:at|on) )?\d{1,3}"
    r"(?: life| poison(?: counters)?))(?:,? and|,) (?=(?:an?|the|some|(?P<next>[A-Za-z][\w-]*)(?:'s)?) )")


def _total_then_another(text: str, players: Sequence[str]) -> str:
    """ "Zoe has 7 poison counters and an infect 2/2 hits her": the total a sentence of its own (the clause
    after "and" has its own subject: the creature is not Zoe's).

    >>> _total_then_another("Zoe has 7 poison counters and an infect 2/2 hits her", ["Zoe"])
    'Zoe has 7 poison counters. an infect 2/2 hits her'
    >>> _total_then_another("Zoe is at 7 life and takes 2", ["Zoe"])  # the same subject goes on
    'Zoe is at 7 life and takes 2'
    """
    names = {p.casefold() for p in players}

    def apart(match: re.Match[str]) -> str:
        if names and match["who"].casefold() not in names:
            return match[0]
        if match["next"] and match["next"].casefold() not in names:
            return match[0]
        return f"{match['fact']}. "

    return _TOTAL_THEN_ANOTHER.sub(apart, text)


def _has_got(text: str, players: Sequence[str]) -> str:
    """ "cat's got 6 poison counters", "he's got 8 poison already", "ive got 3": "has got" says "has".

    >>> _has_got("cat's got 6 poison counters and he's got the monarch", ())
    'cat has 6 poison counters and he has the monarch'
    """
    return re.sub(r"(?i)\b(?!(?:who|what|where|which)(?:'?s)?\b)(?P<who>[A-Za-z][\w-]*?)(?:'s|s| has) got "
                  r"(?=\d|an?\b|the\b|both\b|monarch|initiative)", lambda m: f"{m['who']} has ", text)


#: "opal's been dealt 20 by zada", "kira has been hit for 18 by skithiryx": damage so far said of the one hit
_DEALT_BY = re.compile(r"(?i)\b(?P<y>[A-Za-z][\w-]*)(?:'s| has| had) been (?:dealt|hit for|smacked for) "
                       r"(?P<n>\d{1,3})(?: (?:combat |commander )?damage)? by (?P<c>[A-Za-z][\w-]*)")
#: "for 21 total over the game", "20 in total": a history's amount, its "total" words carrying no fact
_TOTAL_WORDS = re.compile(r"(?i)(?<=\d) (?:in total|total|all told|altogether|"
                          r"over the (?:whole |entire )?game|over the course of the game)\b")


def _dealt_by(text: str, players: Sequence[str]) -> str:
    """ "opal's been dealt 20 by zada already": Zada has dealt her 20 (the history said from its source).

    >>> _dealt_by("opal's been dealt 20 by zada already and zada swings again", ())
    'zada has dealt opal 20 already and zada swings again'
    >>> _dealt_by("Zada has hit Opal for 21 total over the game; is Opal still in?", ())
    'Zada has hit Opal for 21; is Opal still in?'
    """
    text = _TOTAL_WORDS.sub("", _TOTAL_WORDS.sub("", text))
    return _DEALT_BY.sub(lambda m: f"{m['c']} has dealt {m['y']} {m['n']}", text)


def _hit_taken(text: str, players: Sequence[str]) -> str:
    """ "cat eats a 5/5 from ben": Cat gets hit by it.

    >>> _hit_taken("cat eats a 5/5 from ben, then takes a hit from dan's 3/3", ())
    "cat gets hit by a 5/5 from ben, then gets hit by dan's 3/3"
    """
    return _HIT_TAKEN.sub("gets hit by", text)


def _each_time(text: str, players: Sequence[str]) -> str:
    """ "Edgar hit Uma 3 times this game, 4 each time": one count, the comma a breath (the hits so far).

    >>> _each_time("edgar hit uma 3 times this game, 4 each time. how much", ())
    'edgar hit uma 3 times this game for 4 each time. how much'
    """
    return re.sub(r"(?i)\b(?P<n>\d+|two|three|four|five|six) times"
                  r"(?P<when> this game| so far| already| before)?,"
                  r" (?:for )?(?P<each>\d+|one|two|three|four|five|six|seven) (?=each\b)",
                  r"\g<n> times\g<when> for \g<each> ", text)


#: "Uma's 3/3 swings, Tam blocks it": an attack said without whom, then the player who blocks it
_SWINGS_THEN_BLOCK = re.compile(r"(?i)\b(?P<verb>swings|attacks|swung|attacked)(?P<with> with [^,.;!?]+?)?"
                                r"(?P<joint>,| and| and then|, and) (?P<who>[A-Za-z][\w-]*) "
                                r"(?=(?:doesn't |does not |didn't |did not |won't |can't )?(?:chump[- ]?)?"
                                r"(?:blocks|blocked|block)\b)")


def _attacked_is_blocker(text: str, players: Sequence[str]) -> str:
    """ "Uma's 3/3 with infect swings, Tam blocks it with a 1/1": the player attacked is the one who blocks it
    (509.1a: the defending player declares blockers).

    >>> _attacked_is_blocker("uma's 3/3 swings, tam blocks it with a 1/1", ["Tam", "Uma"])
    "uma's 3/3 swings at tam, tam blocks it with a 1/1"
    >>> _attacked_is_blocker("uma swings with a 2/2, tam doesn't block", ["Tam", "Uma"])
    "uma swings at tam with a 2/2, tam doesn't block"
    """
    names = {p.casefold() for p in players}

    def at(match: re.Match[str]) -> str:
        if match["who"].casefold() not in names:
            return match[0]
        if match["with"] and not re.match(r"(?i)(?:doesn't|does not|didn't|did not|won't|can't) ",
                                          match.string[match.end():]):
            return match[0]  # "Ben attacks with a 3/3, Cat blocks it": read as told (events/blocked.py)
        verb = {"swings": "swings at", "swung": "swung at"}.get(match["verb"].lower(), match["verb"])
        return f"{verb} {match['who']}{match['with'] or ''}{match['joint']} {match['who']} "

    return _SWINGS_THEN_BLOCK.sub(at, text)


def _shorthand_and(text: str, players: Sequence[str]) -> str:
    """ "sol has 10 life n 8 poison": "n" typed for "and" between two words; "its a commander game": "it's"
    (a possessive "its" is never followed by an article).

    >>> _shorthand_and("its a commander game, sol has 10 life n 8 poison", ())
    "it's a commander game, sol has 10 life and 8 poison"
    """
    text = re.sub(r"(?i)\b(it)s (?=(?:a|an)\b)", r"\1's ", text)
    return re.sub(r"(?i)(?<=[a-z\d]) n (?=[a-z\d])", " and ", text)

#: "the team is at 30 and Uma loses 30 life": "the team" said before the one player of it the clause names
_THE_TEAM_THEN = re.compile(r"(?i)\bthe team(?P<verb>'s| is)(?P<at> at| on)? (?P<n>\d+)(?P<life> life)?"
                            r"(?P<joint>,? and |, )(?P<who>[A-Za-z][\w-]*)\b(?!')")


def _the_team_then(text: str, players: Sequence[str]) -> str:
    """ "the team is at 30 and Uma loses 30 life": Uma's team (only a player at the table).

    >>> _the_team_then("the team is at 30 and uma loses 30 life", ["Tam", "Uma"])
    "uma's team is at 30 and uma loses 30 life"
    >>> _the_team_then("the team is at 30 and it's uma's turn", ["Tam", "Uma"])
    "the team is at 30 and it's uma's turn"
    """
    names = {p.casefold() for p in players}

    def team(match: re.Match[str]) -> str:
        if match["who"].casefold() not in names:
            return match[0]
        return f"{match['who']}'s team{match['verb']}{match['at'] or ''} {match['n']}{match['life'] or ''}" \
            f"{match['joint']}{match['who']}"

    return _THE_TEAM_THEN.sub(team, text)


#: "team a (rae sol) at 30", "team 1 (Rae/Sol) is at 30": a team named by a label, its players in brackets
_LABELLED_TEAM = re.compile(r"(?i)(?:\bteam (?:[a-z1-9]|one|two) |(?:^|(?<=[.;!?:,] ))team )"
                            r"\((?P<a>[A-Za-z][\w-]*)"
                            r"(?: and | ?& ?| ?/ ?| ?\+ ?|, | )"
                            r"(?P<b>[A-Za-z][\w-]*)\)")


def _labelled_team(text: str, players: Sequence[str]) -> str:
    """ "team a (rae sol) at 30": "rae and sol's team at 30" (both players at the table).

    >>> _labelled_team("team a (rae sol) at 30. whats the team at", ["Rae", "Sol"])
    "rae and sol's team at 30. whats the team at"
    >>> _labelled_team("Our team (Rae and Sol) is at 7", ["Rae", "Sol"])
    'Our team (Rae and Sol) is at 7'
    """
    names = {p.casefold() for p in players}

    def team(match: re.Match[str]) -> str:
        both = {match["a"].casefold(), match["b"].casefold()}
        return f"{match['a']} and {match['b']}'s team" if both <= names and len(both) == 2 else match[0]

    return _LABELLED_TEAM.sub(team, text)


#: a tag at the end, or before a next question ("they're still alive right? how much poison is that")
_TAG = r",? (?:right|yes|correct|yeah|no|isn't (?:he|she|it|they)|doesn't (?:he|she|they)|yeah\?)" \
    r"(?:\W*$|\?(?= \w))"
#: "yan and ula are at 9 poison combined right?", "shes on 12 life yeah?": a total checked with a tag is the
#: total asked (the answer says it, or says otherwise) where questions follow it; before a story, the total
#: is the table checked: a fact, the tag dropped
_TOTAL_TAG = re.compile(
    rf"(?P<lead>^|[.;!?] |, )(?:(?i:also|and|so),? )?(?P<x>(?i:she|he|they|we)|[A-Za-z][\w-]*"
    rf"(?:(?:,|,? and) [A-Za-z][\w-]*)*)(?:'s|'re| is| are|s|re)? (?:still )?(?:at|on) (?P<n>\d{{1,3}}) ?"
    rf"(?P<unit>poison(?: counters)?|life)?(?: combined| together| total| between them| as a team)?"
    rf"(?: still| now)?{_TAG}",
    re.IGNORECASE)


#: what follows a checked total when it is asked: the end, or another question ("and their life", "monarch?")
_ASKED_NEXT = re.compile(r"(?i)\s*(?:$|(?:and|also|plus|whose|is|are|does|do|did|can|will|would|which|"
                         r"(?:what|who|how|where)(?:'?s)?)\b|[\w'-]+(?: [\w'-]+)?\?)")
_TAG_SAID = re.compile(r"(?i),?\s*(?:right|yes|correct|yeah|no|isn't \w+|doesn't \w+)\W*$")


def _total_tag(text: str, players: Sequence[str]) -> str:
    """ "yan and ula are at 9 poison combined right? and their life": each total checked, asked.

    >>> _total_tag("yan and ula are at 9 poison combined right? and their life", ["Yan", "Ula"])
    'how much poison do yan and ula have? and their life'
    >>> _total_tag("Ann hits Ben. ben and cat are on 12 life yeah? monarch?", ["Ann", "Ben", "Cat"])
    'Ann hits Ben. how much life do ben and cat have? monarch?'
    >>> _total_tag("ben's on 3 poison, yeah? ann's infect 2/2 hits him.", ["Ann", "Ben"])
    "ben's on 3 poison. ann's infect 2/2 hits him."
    """
    names = {p.casefold() for p in players}

    def asked(match: re.Match[str]) -> str:
        said = re.split(r"(?i),? and |, ", match["x"])
        pronoun = match["x"].lower() in ("she", "he", "they", "we")
        if not pronoun and names and not all(w.casefold() in names for w in said):
            return match[0]
        poison = (match["unit"] or "").lower().startswith("poison")
        if not poison and len(said) == 1 and match["x"].lower() not in ("they", "we"):
            return match[0]  # "Ann is at 20 still, right?": one player's life, asked by _tag as said
        rest = match.string[match.end():]
        if not _ASKED_NEXT.match(rest):  # a story goes on: the total is what it starts from
            fact = re.sub(_TAG_SAID, "", match[0][len(match["lead"]):])
            return f"{match['lead']}{fact}" + ("." if rest.strip() else "")
        many = len(said) > 1 or match["x"].lower() in ("they", "we")
        unit = "poison" if poison else "life"
        return f"{match['lead']}how much {unit} {'do' if many else 'does'} {match['x']} have?"

    return _TOTAL_TAG.sub(asked, text)
