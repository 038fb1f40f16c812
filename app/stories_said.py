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
