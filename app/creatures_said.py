"""Creatures a question describes rather than names from the table (issue 23, blind round 9): "Rosa attacks
Jules with her 3/3 Bear. Jules blocks with his 1/1 Goblin", "Theo blocks with a 1/1 deathtouch Rat", "a 2/2
infect creature", "a 5/5 trampler", "a 4/4 with lifelink", "a 1/1 with toxic 1". Each becomes a permanent of
the question's table (its power, toughness and the keywords the model knows, ``setup.Keyword``; toxic N,
702.164), controlled by the player whose it is, so the model's combat plays it: blocks and which creature dies
(509, 510, 704.5g), deathtouch (702.2), first and double strike (702.7, 702.4), trample (702.19), lifelink
(702.15), infect and toxic (702.90, 702.164).

Whose it is: a possessive ("Rosa's", "Wes' 2/2"), else the player who begins its clause ("Jules blocks with
his 1/1 Goblin"; "Mika is at 40 and chump blocks with a 1/1": a clause going on with a verb keeps its
subject). A clause that begins with a pronoun, two creatures given one name, several creatures in one phrase
("two 1/1 soldiers"), or a keyword the model doesn't know leave the whole question as it was said: the
reader then reads it as before or sends it to the search, never a guess.

>>> said = creatures_said("Rosa attacks Jules with her 3/3 Bear. Jules blocks with his 1/1 deathtouch Rat.",
...                       {"players": ["Rosa", "Jules"]})
>>> said.text
'Rosa attacks Jules with her Bear. Jules blocks with his Rat.'
>>> said.game["permanents"]["Rat"]
{'owner': 'Jules', 'power': 1, 'toughness': 1, 'keywords': ['deathtouch']}
>>> said.said
('Rosa controls Bear (3/3)', 'Jules controls Rat (1/1 deathtouch)')
>>> two = {"players": ["Quinn", "Wes"]}
>>> creatures_said("Quinn's 4/4 with lifelink gets blocked by Wes' 2/2 Bear", two).text
"the 4/4 creature gets blocked by Wes' Bear"
>>> creatures_said("Quinn attacked her with a 2/2 and she blocked with a 1/1", two).said  # whose 1/1?
()
>>> creatures_said("Quinn attacks Wes with a 2/2 and Wes blocks it", two).said  # blocked with what?
()
>>> creatures_said("Quinn attacks Wes with a 2/2, not blocked", two).said
('Quinn controls 2/2 creature (2/2)',)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from rulesjudge.scenarios.model.setup import Keyword

#: the model's keywords as people say them: "first strike", "double striker", "a trampler"
_KEYWORDS = {k.replace("-", " "): k for k in get_args(Keyword)}
_KEYWORD = r"(?:first[- ]strike|double[- ]strike|deathtouch|trample|lifelink|infect|vigilance|haste|toxic \d)"
#: keywords said as the creature's noun ("a 5/5 trampler", "3/3 double striker", "infector")
_AGENTS = {"trampler": "trample", "lifelinker": "lifelink", "infector": "infect", "double striker":
           "double-strike", "first striker": "first-strike", "deathtoucher": "deathtouch"}
_AGENT = r"(?:trampler|lifelinker|infector|double[- ]striker|first[- ]striker|deathtoucher)"
#: words after "a 3/3" that are not its name ("a 3/3 and a 2/2", "a 3/3, unblocked")
_NOT_NOUN = {"and", "or", "but", "at", "to", "into", "with", "on", "in", "that", "which", "who", "unblocked",
             "not", "is", "was", "gets", "got", "hits", "hit", "attacks", "attacked", "swings", "connects",
             "blocks", "blocked", "deals", "then", "the", "a", "an", "for", "from", "each", "of", "s"}
_GENERIC = {"creature", "guy", "dude", "token", "one", "beater", "attacker", "blocker", "monster", "chump",
            "chump-blocker", "dork", "body", "critter"}
_PRONOUNS = {"he", "she", "they", "it", "him", "her", "them", "his", "their"}
_DESCRIBED = re.compile(
    r"(?i)\b(?P<det>an?|her|his|their|its|(?P<owner>[A-Za-z][\w-]*)(?:'s|'))\s+"
    # "Sol's infect 1/1", "a deathtouch 1/1": keywords said before the size as well as after it
    rf"(?P<kw0>(?:{_KEYWORD},?\s+)*)"
    r"(?P<p>\d{1,2})/(?P<t>\d{1,2})(?P<many>s)?\b"
    rf"(?P<kw>(?:,?\s+{_KEYWORD}\b)*)"
    # "a 3/3 normal guy", "a vanilla 2/2": a word saying it has no keyword, not its name
    r"(?:\s+(?:normal|regular|vanilla|plain|ordinary|non-?infect|non-?keyword)\b)?"
    rf"(?:\s+(?P<agent>{_AGENT})\b|\s+(?!(?:{'|'.join(sorted(_NOT_NOUN))})\b)(?P<noun>[A-Za-z][\w-]*)\b(?!'))?"
    rf"(?P<with>\s+with\s+{_KEYWORD}(?:,?\s+(?:and\s+)?{_KEYWORD})*)?")
#: a block said with no blocker ("... and Kai blocks it", "Wes blocks"): the model can't play a block without
#: its creature, so the attack is left as said for the reader's own reading of it (``events/blocked.py``:
#: a blocked attacker deals no combat damage to the player, 510.1c)
_BLOCKER_UNSAID = re.compile(
    r"(?i)(?<!not )(?<!n't )(?<!never )(?<!nobody )(?<!no one )(?<!noone )(?<!neither )(?<!\bno )"
    r"\b(?:chump[- ])?(?:blocks|blocked|block)"
    r"(?: (?:it|them|that|one of them|both(?: of them)?|all(?: of them)?))?"
    r"(?=$|[,.;!?]| and\b| but\b| then\b)")
#: "is the bear still blocked?": whether it is blocked, asked; not a block said
_ASKED_BLOCKED = re.compile(r"(?i)\b(?:is|was|are|were|isn't|wasn't)\s+(?:it|they|(?:the\s+|his\s+|her\s+)?"
                            r"[\w'-]+)(?:\s+still)?\s+$")
#: whose creatures are said after them: "a 5/5 and a 3/3 from Sol", "a 2/2 of Tam's"
_FROM_OWNER = re.compile(r"(?i)(?:(?:,? and |, )(?:an?|another) \d{1,2}/\d{1,2}(?: [a-z][\w-]*)?)*"
                         r"(?P<from>\s+(?:from|of) (?P<who>[A-Za-z][\w-]*)(?:'s)?\b(?!'))")
#: a creature after "by" in a passive ("gets hit by a 5/5", "is blocked by a 1/1"): not the subject's
_BY = re.compile(r"(?i)\bby\s+(?:(?:an?|another) \d{1,2}/\d{1,2}(?: [a-z][\w-]*)?(?:,? and |, ))*$")
#: where a clause begins: a sentence's stop, a comma, "and", "but", "then"
_CLAUSE = re.compile(r"(?i)(?:[.;!?]\s+|,\s+|\s+(?:and|but|then)\s+|^)")


@dataclass(frozen=True)
class CreaturesSaid:
    """The question with each described creature said by its name, the table with them, and each in words."""

    text: str
    game: dict[str, Any]
    said: tuple[str, ...] = ()


def _seat(name: str, game: Mapping[str, Any]) -> str | None:
    seats = game.get("players") or [p for team in game.get("teams") or () for p in team]
    return next((str(p) for p in seats if str(p).casefold() == name.casefold()), None)


def _clauses(text: str, end: int) -> list[str]:
    """The clauses before ``end``, the nearest first (the one the creature is said in, up to it)."""
    starts = [m.end() for m in _CLAUSE.finditer(text, 0, end)]
    bounds = sorted({*starts, 0})
    return [text[s:end if i + 1 == len(bounds) else bounds[i + 1]] for i, s in enumerate(bounds)][::-1]


def _subject(text: str, end: int, game: Mapping[str, Any]) -> str | None:
    """The player who begins the creature's clause, or the clause before when this one goes on with a verb
    ("and chump blocks with a 1/1"); None at a pronoun (whose it is is not guessed).

    >>> _subject("Mika is at 40 and chump blocks with a ", 38, {"players": ["Mika"]})
    'Mika'
    >>> _subject("Theo hit her and she blocked with a ", 36, {"players": ["Theo"]}) is None
    True
    >>> _subject("Sol is it. on tam's turn tam swings at sol with a ", 49, {"players": ["Sol", "Tam"]})
    'Tam'
    >>> _subject("Tom is the monarch. ", 20, {"players": ["Tom"]}) is None  # "... A 2/2 hits him"
    True
    >>> _subject("Zoe has 7 poison and ", 21, {"players": ["Zoe"]}) is None  # "... an infect 2/2 hits her"
    True

    """
    before = text[:end]
    opens = re.search(r"(?i)(?:[.;!?,:]|\b(?:and|then|but|so|when|if|after|once|until))\s*$", before)
    # ... but "blocks with a 1/1 Elf and a 1/1 Goblin": a list of things the clause's verb took, continued
    listed = opens and re.search(r"(?i)\b(?:with|by|and|or)\s+(?:an?|the|his|her|their)\s[^.;!?,]*\s"
                                 r"(?:and|or|,)\s*$", before)
    if opens and not listed:
        # the creature opens its sentence ("Tom is the monarch. A 2/2 hits him"): the sentence before says
        # nothing of whose it is (the one it hits is never its controller), so that is not guessed; nor
        # where it opens a clause after "and" ("Zoe has 7 poison and an infect 2/2 hits her": not Zoe's)
        return None
    for nearest, clause in enumerate(_clauses(text, end)):
        opened = re.sub(r"(?i)^(?:so|ok|okay|if|then|now|when|after|while)\s+", "", clause.strip())
        said_of = re.match(r"(?i)(?P<what>[a-z][\w-]*)(?:'s| is| was)(?: an?)?$", opened)
        if nearest == 0 and said_of and _seat(said_of["what"], game) is None:
            return None  # "Grul is a 7/7": the size of what the clause names, no creature of another's
        # "on tam's turn tam swings at sol with a 3/3": the time said first is not the clause's subject
        words = re.sub(r"(?i)^(?:on|during|in)\s+[\w']+\s+(?:own\s+)?turn,?\s+", "", opened).split()
        if not words:
            continue
        first = re.sub(r"[^\w-]", "", words[0])
        if first.lower() in _PRONOUNS:
            return None
        player = _seat(first, game)
        if player is not None:
            return player
    return None


def _keywords(match: re.Match[str]) -> tuple[list[str], int] | None:
    """The model's keywords said of the creature and its toxic count; None for one it doesn't know."""
    said = re.findall(rf"(?i){_KEYWORD}", f"{match['kw0'] or ''} {match['kw'] or ''} {match['with'] or ''}")
    if match["agent"]:
        said.append(_AGENTS[match["agent"].lower().replace("-", " ")])
    keywords, toxic = [], 0
    for word in said:
        word = word.lower().replace("-", " ")
        if word.startswith("toxic"):
            toxic = int(word.split()[1])
            continue
        keyword = _KEYWORDS.get(word) or (word if word in _KEYWORDS.values() else None)
        if keyword is None:
            return None
        if keyword not in keywords:
            keywords.append(keyword)
    return keywords, toxic


def _owner_before_name(text: str, game: Mapping[str, Any]) -> str:
    """ "theo zurgo attacks sam": a player's name just before their creature's is its possessive, typed
    without "'s" (only where the table says the creature is theirs).

    >>> _owner_before_name("theo zurgo attacks sam", {"players": ["Theo", "Sam"],
    ...                    "permanents": {"Zurgo": {"owner": "Theo"}}})
    "theo's zurgo attacks sam"
    >>> _owner_before_name("sam zurgo", {"players": ["Theo", "Sam"],
    ...                    "permanents": {"Zurgo": {"owner": "Theo"}}})
    'sam zurgo'
    """
    for name, spec in (game.get("permanents") or {}).items():
        whose = str((spec or {}).get("controller") or (spec or {}).get("owner") or "")
        if whose:
            text = re.sub(rf"(?i)\b(?P<who>{re.escape(whose)}) (?P<it>{re.escape(str(name))})\b",
                          lambda m: f"{m['who']}'s {m['it']}", text)
    return text


#: "a 1/1 hits Tom on Zoe's turn": the creature's verb on a player, and the turn said in its sentence
_HITS_PLAYER = re.compile(r"(?i)\s+(?:hits|attacks|swings at|pokes|connects with|deals combat damage to)\s+"
                          r"(?P<who>[A-Za-z][\w-]*)\b(?!')")
_TURN_SAID = re.compile(r"(?i)\b(?:on|during|in)\s+(?P<whose>[A-Za-z][\w-]*)(?:'s|')\s+(?:own\s+)?turn\b")


def _attacker_on_turn(text: str, match: re.Match[str], game: Mapping[str, Any]) -> str | None:
    """Whose a creature of no one said is, when it hits a player on a turn its sentence names: a creature that
    deals combat damage to a player is attacking (506.2, 508.1), and only the active player attacks, so the
    turn's player controls it. Not guessed where the turn isn't said, where a team shares its turns (805.2,
    the attacker could be either), or where the one hit is the active player (no attack on their own turn).

    >>> game = {"players": ["Tom", "Zoe"]}
    >>> def owner(text):
    ...     return _attacker_on_turn(text, _DESCRIBED.search(text), game)
    >>> owner("tom is at 9 poison. a 1/1 infect creature hits tom on zoe's turn")
    'Zoe'
    >>> owner("on zoe's turn a 2/2 hits zoe") is None
    True
    >>> owner("a 2/2 hits tom") is None
    True
    """
    hit = _HITS_PLAYER.match(text, match.end())
    if hit is None or game.get("teams") or _seat(hit["who"], game) is None:
        return None
    start = max((m.end() for m in re.finditer(r"[.;!?](?:\s|$)", text[:match.start()])), default=0)
    stop = re.search(r"[.;!?](?:\s|$)", text[match.end():])
    sentence = text[start:match.end() + stop.start() if stop else len(text)]
    turns = {_seat(m["whose"], game) for m in _TURN_SAID.finditer(sentence)}
    if len(turns) != 1 or None in turns:
        return None
    (active,) = turns
    return None if active == _seat(hit["who"], game) else active


def creatures_said(text: str, game: Mapping[str, Any]) -> CreaturesSaid:
    """The creatures ``text`` describes by power and toughness, set on a copy of ``game`` (see the module)."""
    text = _owner_before_name(text, game)
    table = copy.deepcopy(dict(game))
    permanents = dict(table.get("permanents") or {})
    if any(not _ASKED_BLOCKED.search(text, 0, m.start()) for m in _BLOCKER_UNSAID.finditer(text)):
        return CreaturesSaid(text, dict(game))
    found: list[tuple[re.Match[str], str, str, dict[str, Any], str]] = []
    cut: set[tuple[int, int]] = set()  # "from Sol" after creatures said as Sol's: said by their names now
    for match in _DESCRIBED.finditer(text):
        if match["many"]:
            return CreaturesSaid(text, dict(game))  # "two 2/2s": several creatures, not one named
        owner_word = match["owner"]
        given = _FROM_OWNER.match(text, match.end())
        if owner_word and owner_word.lower() not in ("a", "an", "her", "his", "their", "its"):
            owner = _seat(owner_word, table)
        elif given and _seat(given["who"], table):  # "hit by a 5/5 and a 3/3 from Sol": said after them
            owner = _seat(given["who"], table)
            cut.add(given.span("from"))
        elif _BY.search(text, 0, match.start()):
            owner = None  # "Rae gets hit by a 5/5": the clause's subject is the one hit, not its controller
        else:
            owner = _subject(text, match.start(), table)
        if owner is None:
            owner = _attacker_on_turn(text, match, table)
        kinds = _keywords(match)
        if owner is None or kinds is None:
            return CreaturesSaid(text, dict(game))
        noun = match["noun"]
        power, toughness = int(match["p"]), int(match["t"])
        named = noun and noun.lower() not in _GENERIC
        name = noun.capitalize() if named and noun else f"{power}/{toughness} creature"
        if name.casefold() in {n.casefold() for n in permanents} or _seat(name, table):
            return CreaturesSaid(text, dict(game))  # a name the table has already, or a player's
        spec: dict[str, Any] = {"owner": owner, "power": power, "toughness": toughness}
        keywords, toxic = kinds
        if keywords:
            spec["keywords"] = keywords
        if toxic:
            spec["toxic"] = toxic
        permanents[name] = spec
        det = match["det"]
        # a name of the table's after its owner ("Rosa's Bear"); a creature named only by its size is "the
        # 3/3 creature" (after a possessive, "Rosa's 3/3" would be read as a hit of 3 by Rosa, no creature)
        said_as = f"{det} {name}" if named and det.lower() not in ("a", "an") else f"the {name}"
        extra = ", ".join(filter(None, [" ".join(k.replace("-", " ") for k in keywords),
                                        f"toxic {toxic}" if toxic else ""]))
        found.append((match, name, said_as, spec, f"{owner} controls {name} ({power}/{toughness}"
                      + (f" {extra}" if extra else "") + ")"))
    if not found:
        return CreaturesSaid(text, dict(game))
    table["permanents"] = permanents
    out, at = [], 0
    edits = sorted([(m.start(), m.end(), said_as) for m, _name, said_as, _spec, _words in found] +
                   [(start, end, "") for start, end in cut])
    for start, end, said_as in edits:
        out += [text[at:start], said_as]
        at = end
    out.append(text[at:])
    return CreaturesSaid(_said_again("".join(out), [name for _m, name, *_rest in found]), table,
                         tuple(w for *_rest, w in found))


def _said_again(text: str, names: list[str]) -> str:
    """ "Otto blocks the 3/3 with his 1/4": a creature named by its size alone, said again with "the", is the
    one described before it.

    >>> _said_again("Ann attacks with the 3/3 creature. Ben blocks the 3/3", ["3/3 creature"])
    'Ann attacks with the 3/3 creature. Ben blocks the 3/3 creature'
    """
    def again(match: re.Match[str]) -> str:
        name = f"{match['size']} creature"
        return f"the {name}" if name in names else match[0]

    return re.sub(r"(?i)\bthe (?P<size>\d{1,2}/\d{1,2})\b(?! creature\b)", again, text)
