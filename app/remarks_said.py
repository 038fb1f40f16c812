"""Remarks said beside a story that the story itself decides: "Rosa dies while Mika is still alive", "Ada and
Cy both die, Bo is alone", "Lena and Omar won already so who has the initiative". Each is checked against
the table or turned into a question, never taken as an event (``services.ask_what_if`` calls
:func:`said_remarks` after the story is retold):

- "while X is still alive / in the game": X must be seated at the table; said, and taken off (the events
  say who leaves, 800.4a);
- "X is alone", "X is on his own now": every teammate of X must be named before it in a sentence that
  says someone leaves; said, and taken off;
- "what's Bo's range as emperor", "they're both emperors": the role checked against the table (809.2, 907.2);
  said, and taken off;
- "what's everyone's range? like Cy's": one player given as an example of a question asked of everyone
  (whose answer names them too), taken off;
- "the Wurm has trample (and tramples over)", "the rat has infect": a keyword the table's creature has
  (702.19, 702.90); said, and taken off;
- "... does zurgo survive? it's a 7/2": the size of the creature named last, checked against the table; said,
  and taken off;
- "... from atraxa, its her own commander": the commander named last is the one named player's own (903.3);
  said, and taken off;
- "2hg commander, ...": the table's variant said first as context, checked (810, 903); said, and taken off;
- "..., Lee has 8 poison, ...": a count the table has already, said beside the events; checked, said, and
  taken off;
- "does the crown go to alex since he's first seat?": the seat of the one player named just before, checked
  against the table's seats; said, and taken off;
- "nat has the wurm, ...": whose a creature of the table's is, said first as context; checked, said, and
  taken off;
- "X (and Y) won already, so <question>": whether they won is the model's to say (104.2a), so it is
  asked beside the question ("<question>, and did X and Y win?").

A remark that doesn't hold is left as said: the question is not read rather than answered for another table.

>>> game = {"teams": [["Ada", "Bo", "Cy"], ["Dev", "Eli", "Fen"]]}
>>> said_remarks("Ada and Cy both die, Bo is alone. can Dev attack Bo?", game)
('Ada and Cy both die. can Dev attack Bo?', ("Bo's teammates left (Ada, Cy)",))
>>> said_remarks("Ada dies, Bo is alone. can Dev attack Bo?", game)[1]
()
>>> said_remarks("Ada dies while Eli is still alive. who wins?", game)
('Ada dies. who wins?', ('Eli is still in the game',))
>>> said_remarks("ada dies while eli's still in. who wins?", game)
('ada dies. who wins?', ('Eli is still in the game',))
>>> said_remarks("can Bo attack Eli? they're both emperors", {"variant": "emperor", **game})
('can Bo attack Eli?', ('Bo and Eli are emperors',))
>>> said_remarks("what's Bo's range as emperor?", {"variant": "emperor", **game})
("what's Bo's range?", ('Bo is an emperor',))
>>> said_remarks("what's Ada's range as emperor?", {"variant": "emperor", **game})[1]
()
>>> said_remarks("what's everyone's range of influence? like Cy's", game)[0]
"what's everyone's range of influence?"
>>> wurm = {"permanents": {"Wurm": {"owner": "Ada", "power": 6, "toughness": 6, "keywords": ["trample"]}}}
>>> said_remarks("Wurm attacks Bo. wurm has trample and tramples over. Bo's life?", wurm)
("Wurm attacks Bo. Bo's life?", ('Wurm has trample',))
>>> said_remarks("Wurm attacks Bo. the wurm has flying. Bo's life?", wurm)[1]
()
>>> said_remarks("Wurm attacks Bo - does the wurm survive? it's a 6/6", wurm)
('Wurm attacks Bo - does the wurm survive?', ('Wurm is 6/6',))
>>> said_remarks("Wurm attacks Bo - does the wurm survive? it's a 7/2", wurm)[1]
()
>>> cmd = {"players": ["Ada", "Bo"], "permanents": {"Zur": {"owner": "Ada", "commander": True}}}
>>> said_remarks("how much commander damage does ada have from zur, its her own commander lol", cmd)
('how much commander damage does ada have from zur', ("Zur is Ada's commander",))
>>> said_remarks("how much commander damage does bo have from zur, its his own commander", cmd)[1]
()
>>> said_remarks("2hg commander, Ada concedes. who's left", {"variant": "two-headed-giant",
...                                                         "commander": True})
("Ada concedes. who's left", ('a Two-Headed Giant Commander game',))
>>> poisoned = {"players": ["Ada", "Bo"], "poison": {"Bo": 8}}
>>> said_remarks("Ada hits Bo, Bo has 8 poison, unblocked.", poisoned)
('Ada hits Bo, unblocked.', ('Bo has 8 poison counters',))
>>> said_remarks("Ada hits Bo, Bo has 7 poison, unblocked.", poisoned)[1]
()
>>> said_remarks("does the crown go to ada since she's first seat?", game)
('does the crown go to ada?', ('Ada sits in the first seat',))
>>> said_remarks("does the crown go to bo since he's first seat?", game)[1]
()
>>> said_remarks("ada has the wurm, bo takes it. who controls it", {"players": ["Ada", "Bo"], **wurm})
('bo takes the Wurm. who controls it', ('Ada controls Wurm',))
>>> said_remarks("Dev's team loses. Ada and Bo won already so who has the initiative", game)[0]
"Dev's team loses. who has the initiative, and did Ada and Bo win"
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulesjudge.app.table_form import emperors

#: a player's name as typed ("Mika", "mika"): checked against the seats, any case
_NAME = r"[A-Za-z][\w-]*"
#: "while Mika is still alive", "but Sol is alive": without "still" only "alive" says it (not "and Ann is
#: playing"); "but Sol the emperor is alive": the role checked against the table too
_STILL_IN = re.compile(rf",? (?:while|and|but|with|when|as) (?P<who>{_NAME})"
                       r"(?:,? (?:the|our|their|his|her) "
                       r"(?P<role>emperor|general|leader|guardian|assassin|traitor),?)?"
                       r"(?: is|'s|s| was) "
                       r"(?:still (?:alive|in(?: the game)?|around|playing|standing|there)|alive)\b",
                       re.IGNORECASE)
_ALONE = re.compile(rf"(?:,|;|(?<=[.!?]))? (?:and |so |now )?(?P<who>{_NAME})(?: is|'s) (?:now |left )?"
                    r"(?:all )?(?:alone|by (?:himself|herself|themselves)|on (?:his|her|their) own|"
                    r"the (?:last|only) one left(?: on (?:his|her|their) team)?)(?: now)?\b", re.IGNORECASE)
_LEAVES = re.compile(r"(?i)\b(?:dies|die|died|dead|loses|lose|lost|concedes|concede|conceded|scoops|scoop|"
                     r"scooped|leaves|leave|left|out|eliminated|killed)\b")
_WON = re.compile(rf"(?P<lead>^|[.;,!?] )(?P<who>{_NAME}(?:(?:,| and) (?!and\b){_NAME})*) "
                  r"(?:have |has |had )?(?:already )?won(?: already)?,? (?:so|and|then) "
                  r"(?P<q>(?:who|whom|whose|what|which|how|does|do|is|are|can)\b[^.;!?]*)[.;!?]?",
                  re.IGNORECASE)


_ROLES = r"(?P<role>emperor|general|leader|guardian|assassin|traitor)"
#: "what's Bo's range of influence as emperor", "can Bo, as the emperor, attack Eli": a role said of the one
#: player the sentence names before it
_AS_ROLE = re.compile(rf",? as (?:the |an? |their |his |her |our )?{_ROLES}\b(?! rule),?", re.IGNORECASE)
#: "can Bo attack Eli? they're both emperors": a role said of the players the question names
_THEY_ARE = re.compile(rf"(?:,|[.;!?])? ?(?:since |because |as |cause )?they(?:'re| are) (?:both |all )?"
                       rf"(?:the )?{_ROLES}s\b[.!?]*", re.IGNORECASE)


#: "what's everyone's range of influence? like Cy's": one player given as an example of a question asked of
#: everyone (whose answer names them too)
_FOR_EXAMPLE = re.compile(rf"(?P<every>\b(?:everyone|everybody|each player|all (?:the )?players)\b[^.;!?]*?)"
                          rf"(?:[,.;?!]|\s-+) ?(?:like|e\.?g\.?|for example|for instance|say),? "
                          rf"(?P<who>{_NAME})(?:'s|')?[?.!]*$", re.IGNORECASE)


#: "wurm has trample and tramples over.", "the rat has infect": a creature's keyword said as a sentence
_KEYWORD = re.compile(r"(?P<lead>^|(?<=[.;!?]) )(?:and )?(?:the )?(?P<c>[A-Za-z][\w'-]*) (?:has|had|with) "
                      r"(?P<kw>[a-z][a-z ]*?)(?: and (?:it )?(?:tramples|trampled) (?:over|through))?"
                      r"(?:[.;!?] ?|$)", re.IGNORECASE)


def _keywords_said(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    """The text without the sentences that say a keyword the table's creature has (a fact of the table, not an
    event); one it lacks is left as said (the question is then not read)."""
    permanents = {str(n).casefold(): (str(n), p) for n, p in (game.get("permanents") or {}).items()}

    def keyword(match: re.Match[str]) -> str:
        name, permanent = permanents.get(match["c"].casefold(), ("", None))
        held = {str(k).casefold() for k in (permanent or {}).get("keywords") or ()}
        if match["kw"].casefold() not in held:
            return match[0]
        said.append(f"{name} has {match['kw'].lower()}")
        return match["lead"]

    def lacks(match: re.Match[str]) -> str:  # "wurm has no trample": true of the table's creature without it
        name, permanent = permanents.get(match["c"].casefold(), ("", None))
        kw = match["kw"].casefold()
        if permanent is None or kw in {str(k).casefold() for k in permanent.get("keywords") or ()}:
            return match[0]
        said.append(f"{name} has no {kw}")
        return match["lead"]

    return _NO_KEYWORD.sub(lacks, _KEYWORD.sub(keyword, text)).strip()


#: "wurm has no trample", "the bear doesn't have first strike": a keyword the creature lacks, as a sentence
_NO_KEYWORD = re.compile(r"(?P<lead>^|(?<=[.;!?]) )(?:and )?(?:the )?(?P<c>[A-Za-z][\w'-]*) (?:has no|had no|"
                         r"doesn'?t have|does not have|didn'?t have|has not got|hasn'?t got|without) "
                         r"(?P<kw>trample|first strike|double strike|deathtouch|lifelink|infect|menace|"
                         r"flying)"
                         r"(?:[.;!?] ?|$)", re.IGNORECASE)


#: "it's a 7/2" said last: the size of the creature named just before
_ITS_SIZE = re.compile(r"(?:,|(?<=[.;!?]))? (?:it'?s|it is|that'?s|that is) an? (?P<p>\d{1,2})/(?P<t>\d{1,2})"
                       r"(?: (?:btw|by the way|lol))?[.!]?$", re.IGNORECASE)
#: "its her own commander": the commander named before is the player's own
_OWN_COMMANDER = re.compile(r"(?:,|(?<=[.;!?]))? (?:it'?s|it is|that'?s|that is|atraxa is) (?:her|his|their) "
                            r"own commander(?: (?:btw|by the way|lol))?[.!]?$", re.IGNORECASE)


def _last_named(text: str, game: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The table's permanent named last in ``text`` (its name and description), or None."""
    found = [(m.start(), str(n), spec) for n, spec in (game.get("permanents") or {}).items()
             for m in re.finditer(rf"(?i)\b{re.escape(str(n))}\b", text)]
    return max(found, key=lambda f: f[0])[1:] if found else None


def _creature_remarks(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    """The text without a last remark on the creature named before it that the table agrees with: its size
    ("it's a 7/2") or whose commander it is ("its her own commander", of the one player named)."""
    size = _ITS_SIZE.search(text)
    named = _last_named(text[:size.start()], game) if size else None
    if size and named:
        name, spec = named
        if (spec.get("power"), spec.get("toughness")) == (int(size["p"]), int(size["t"])):
            said.append(f"{name} is {size['p']}/{size['t']}")
            return text[:size.start()].rstrip()
    own = _OWN_COMMANDER.search(text)
    named = _last_named(text[:own.start()], game) if own else None
    if own and named and named[1].get("commander"):
        players = _names_in(text[:own.start()], _seats(game))
        if len(players) == 1 and players[0] == named[1].get("owner"):
            said.append(f"{named[0]} is {players[0]}'s commander")
            return text[:own.start()].rstrip()
    return text


#: "2hg commander, ...": the variant said first, as context
_VARIANT_FIRST = re.compile(r"^(?:in )?(?:a |an |our |this )?(?:2hg|thg|two[- ]headed[- ]giant) "
                            r"(?:commander|edh)(?: game| match| pod)?\s*[,:.;-]\s*", re.IGNORECASE)
#: ", Lee has 8 poison," said beside the events: a count the table has already
_COUNT_BESIDE = re.compile(rf", (?P<who>{_NAME}) (?:has|had|is at|'s at|is on|'s on) (?P<n>\d{{1,2}}) poison"
                           r"(?: counters)?(?=[,.;!?])", re.IGNORECASE)


#: "... to alex since he's first seat?": the seat of the player named just before, said as the reason
_FIRST_SEAT = re.compile(rf"(?P<who>{_NAME}),? (?:since|because|as|cause) (?:he|she|they)(?:'s| is| are|'re) "
                         r"(?:in )?(?:the )?(?:first seat|first in turn order|seat one|seat 1)(?=[.;!?]|$)",
                         re.IGNORECASE)


def _seat_said(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    """The text without "since he's first seat" where the player named just before sits first."""
    def seat(match: re.Match[str]) -> str:
        seats = _seats(game)
        who = _seat(match["who"], seats)
        if who is None or not seats or seats[0] != who:
            return match[0]
        said.append(f"{who} sits in the first seat")
        return match["who"]

    return _FIRST_SEAT.sub(seat, text)


#: "nat has the wurm, jo takes it ...": whose the creature is, said first
_HAS_IT_FIRST = re.compile(rf"^(?P<who>{_NAME}) (?:has|controls|owns) (?:the |his |her |their )?"
                           rf"(?P<c>{_NAME})(?:,| and|;|\.) ", re.IGNORECASE)


def _holder_said(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    """The text without "nat has the wurm," said first where the table's Wurm is Nat's (the "it" after it
    said as the Wurm)."""
    first = _HAS_IT_FIRST.match(text)
    if first is None:
        return text
    who = _seat(first["who"], _seats(game))
    named = next(((str(n), s) for n, s in (game.get("permanents") or {}).items()
                  if str(n).casefold() == first["c"].casefold()), None)
    if who is None or named is None or (named[1].get("controller") or named[1].get("owner")) != who:
        return text
    said.append(f"{who} controls {named[0]}")
    # "jo takes it": the creature the dropped words named
    return re.sub(r"(?i)\bit\b", f"the {named[0]}", text[first.end():], count=1)


def _context_said(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    """The text without the table said as context that it agrees with: "2hg commander," at a Two-Headed Giant
    Commander table; ", Lee has 8 poison," where Lee has 8 (the count said again, not changed)."""
    first = _VARIANT_FIRST.match(text)
    if first and game.get("variant") == "two-headed-giant" and game.get("commander"):
        said.append("a Two-Headed Giant Commander game")
        text = text[first.end():]

    def count(match: re.Match[str]) -> str:
        who = _seat(match["who"], _seats(game))
        if who is None or (game.get("poison") or {}).get(who) != int(match["n"]):
            return match[0]
        said.append(f"{who} has {match['n']} poison counters")
        return ""

    return _COUNT_BESIDE.sub(count, text)


def _holds(who: str, role: str, game: Mapping[str, Any]) -> bool:
    """Does ``who`` hold ``role`` at this table: an emperor or a general (809.2, the middle seat), or a
    Treachery identity (907.2)?

    >>> game = {"variant": "emperor", "teams": [["Ada", "Bo", "Cy"], ["Dev", "Eli", "Fen"]]}
    >>> _holds("Bo", "emperor", game), _holds("Ada", "emperor", game), _holds("Ada", "general", game)
    (True, False, True)
    """
    role = role.lower()
    if role in ("emperor", "general"):
        held = emperors(dict(game))
        return bool(held) and who in _seats(game) and (who in held) == (role == "emperor")
    identities = game.get("identities")
    held_role = identities.get(who) if isinstance(identities, dict) else None
    if isinstance(held_role, dict):
        held_role = held_role.get("role")
    return str(held_role or "").lower() == role


def _roles_said(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    """ "... as emperor", "they're both emperors": taken off where the table seats them so."""
    seats = _seats(game)
    both = _THEY_ARE.search(text)
    if both:
        question = re.split(r"(?<=[.;!?])\s+", text[:both.start()].strip())[-1]
        named = _names_in(question, seats)
        if len(named) >= 2 and all(_holds(n, both["role"], game) for n in named):
            said.append(f"{' and '.join(named)} are {both['role'].lower()}s")
            text = text[:both.start()] + "?" + text[both.end():] if not question.endswith(("?", ".", "!")) \
                else text[:both.start()] + text[both.end():]
    single = _AS_ROLE.search(text)
    if single and re.search(r"(?i)\bwith [A-Za-z][\w-]*$", text[:single.start()]):
        single = None  # "treachery with Uma as leader, Val guardian, ...": a deal said (situation_roles)
    if single:
        sentence = re.split(r"(?<=[.;!?])\s+", text[:single.start()])[-1]
        named = _names_in(sentence, seats)
        if len(named) == 1 and _holds(named[0], single["role"], game):
            said.append(f"{named[0]} is {'an' if single['role'][0] in 'aeiouAEIOU' else 'a'} "
                        f"{single['role'].lower()}")
            text = text[:single.start()] + (", " if single[0].endswith(",") and single[0].startswith(",")
                                            else "") + text[single.end():]
    return text.strip()


def _teams(game: Mapping[str, Any]) -> list[list[str]]:
    return [[str(m) for m in (t.get("members", []) if isinstance(t, dict) else t)]
            for t in game.get("teams") or ()]


def _seats(game: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in game.get("players") or ()] or [m for t in _teams(game) for m in t]


def _named(text: str, names: Sequence[str]) -> set[str]:
    return {n for n in names if re.search(rf"(?i)\b{re.escape(n)}\b", text)}


def _seat(word: str, seats: Sequence[str]) -> str | None:
    """The player ``word`` names, any case ("mika": Mika); None for a word that names nobody."""
    return next((s for s in seats if s.casefold() == word.casefold()), None)


def _names_in(text: str, seats: Sequence[str]) -> list[str]:
    """The players ``text`` names, in order, once each."""
    return list(dict.fromkeys(s for w in re.findall(r"[A-Za-z][\w-]*", text) if (s := _seat(w, seats))))


def said_remarks(text: str, game: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """(the text with the remarks that hold taken off or asked, what they said); see the module."""
    said: list[str] = []
    seats = _seats(game)

    def still_in(match: re.Match[str]) -> str:
        who = _seat(match["who"], seats)
        if who is None or (match["role"] and not _holds(who, match["role"], game)):
            return match[0]  # "but Sol the emperor is alive" where Sol is no emperor: left as said, unread
        if match["role"]:
            role = match["role"].lower()
            said.append(f"{who} is {'an' if role[0] in 'aeiou' else 'a'} {role}")
        said.append(f"{who} is still in the game")
        return ""

    text = _STILL_IN.sub(still_in, text)
    text = _context_said(text, game, said)
    text = _seat_said(text, game, said)
    text = _holder_said(text, game, said)
    text = _keywords_said(text, game, said)
    text = _creature_remarks(text, game, said)
    text = _roles_said(text, game, said)
    example = _FOR_EXAMPLE.search(text)
    if example and _seat(example["who"], seats):
        text = text[:example.end("every")] + "?"
    alone = _ALONE.search(text)
    who = _seat(alone["who"], seats) if alone else None
    if alone and who:
        team = next((t for t in _teams(game) if who in t), [])
        before = text[:alone.start()]
        mates = [m for m in team if m != who]
        if mates and _named(before, mates) == set(mates) and _LEAVES.search(before):
            text = before + text[alone.end():]
            said.append(f"{who}'s teammates left ({', '.join(mates)})")
    won = _WON.search(text)
    if won and all(_seat(w, seats) for w in re.split(r",? and |, ", won["who"])):
        asked = f"{won['q'].strip()}, and did {won['who']} win"
        text = f"{text[:won.start()]}{won['lead']}{asked}{text[won.end():]}"
    return text, tuple(said)
