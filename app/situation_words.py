"""Words of a stated situation made plain before its facts are read (app.situation): "has it" where the
sentence speaks of one designation, "the monarch concedes on their own turn" where nobody holds it, a
seating said beside the question, the turn said first; and the role words the facts are said in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                 "forty": 40}
_AMOUNT = r"\d{1,3}|" + "|".join(_NUMBER_WORDS)
_IT = re.compile(r"\b(who|whom|[A-Za-z][\w'-]*) (gets|takes|has|keeps|inherits|receives|ends up with|steals|"
                 r"grabs|"
                 r"took|stole) it\b", re.IGNORECASE)


_HOLDS_IT = re.compile(r"\b(?P<who>[A-Za-z][\w'-]*|(?:the )?(?:player|one|person|guy|gal|dude) who) "
                       r"(?P<verb>has|had|holds|held|has got|'s got) it\b(?! (?:next|now|then|after|back)\b)",
                       re.IGNORECASE)


def _the_designation_it(text: str) -> str:
    """ "who's monarch if Ben has it", "who takes the initiative if the player who has it leaves? say Ben has
    it": where the sentence speaks of one designation only, "has it" is holding that one. Not "who has it
    next" (a question about the holder, read as one).

    >>> _the_designation_it("whos monarch if ben has it and ben dies")
    'whos monarch if ben has the monarch and ben dies'
    >>> _the_designation_it("Ann has the initiative and the crown; who has it if she leaves")
    'Ann has the initiative and the crown; who has it if she leaves'
    """
    monarch = re.search(r"\b(?:monarch|monarchy|crown|king|queen)\b", text, re.IGNORECASE)
    initiative = re.search(r"\binitiative\b", text, re.IGNORECASE)
    if bool(monarch) == bool(initiative):
        return text
    thing = "the monarch" if monarch else "the initiative"

    def holds(match: re.Match[str]) -> str:  # not "who has it": a question, read as one
        asks = match["who"].lower() in ("who", "what")
        return match[0] if asks else f"{match['who']} {match['verb']} {thing}"

    return _HOLDS_IT.sub(holds, text)


def _own_turn_holder(text: str, game: Mapping[str, Any]) -> str:
    """ "when the monarch concedes on their own turn, who gets it?" where nobody is the monarch: the holder is
    the active player (it is their own turn), taken for granted and said as such (app.presupposition). Only
    for a holder who leaves: that is what the presupposition is read from.

    >>> _own_turn_holder("when the monarch concedes on their own turn who gets it", {"players": ["Ann"]})
    'when the active player concedes who gets the crown'
    """
    said = re.search(r"\bthe (?P<d>monarch|king|queen|initiative holder|player with the initiative) "
                     r"(?P<verb>(?:concedes|scoops|leaves|loses|dies|drops|quits|is eliminated|"
                     r"gets eliminated)"
                     r"(?: the game)?),? (?:on|during|in) (?:their|his|her) own turn\b", text, re.IGNORECASE)
    if said is None:
        return text
    key = "initiative" if "initiative" in said["d"].lower() else "monarch"
    if game.get(key):
        return text
    text = text[:said.start()] + f"the active player {said['verb']}" + text[said.end():]
    thing = "the initiative" if key == "initiative" else "the crown"
    return _IT.sub(lambda m: f"{m[1]} {m[2]} {thing}", text)


_NEIGHBOURS = re.compile(r"(?:[,.;!?]|\s-+)?\s*(?:(?:since|because|as|cause|cuz) )?they(?:'re| are| sit| sat|"
                         r" are sitting)? (?:sitting )?(?:next to|beside) each other\b(?P<now> now)?[.!?]*",
                         re.IGNORECASE)


#: A seating said beside an attack question: "across the table", "on her right", "(on Ava's) left".
#: Also said after the question, of its second player: "can Ava attack Di? he's across the table", "Fen's on
#: her right", "since she's on his left".
_SEATED_AS = re.compile(r"(?P<cut>(?:,|[.;!?] |\s-+)? ?(?:(?:since|because|as|cause|cuz) )?"
                        r"(?:(?:who|he|she|they|(?P<who>[A-Za-z][\w-]*))"
                        r"(?:'s| is|'re| are| sits| sit| is sitting| are sitting) |sitting |seated )?"
                        r"(?:(?P<across>across the table|across from (?:him|her|them))|"
                        r"on (?P<whose>his|her|their) (?P<side>left|right)))(?=[?.!]*$)", re.IGNORECASE)


def _seating_said(text: str, seats: list[str]) -> tuple[str, str | None]:
    """ "can Ava attack Di across the table?", "Can Ava attack Hana, on her right?": where the seats agree
    with what the question says of the two players it names, said and taken off; otherwise left, unread.

    >>> _seating_said("Can Ann attack Dan, on her right?", ["Ann", "Ben", "Cat", "Dan"])
    ('Can Ann attack Dan?', "Dan sits on Ann's right")
    >>> _seating_said("Can Ann attack Cat across the table?", ["Ann", "Ben", "Cat", "Dan"])[1]
    'Cat sits across the table from Ann'
    >>> _seating_said("Can Ann attack Ben, on her right?", ["Ann", "Ben", "Cat", "Dan"])[1]
    >>> _seating_said("can Ann attack Dan? Dan's on her right", ["Ann", "Ben", "Cat", "Dan"])
    ('can Ann attack Dan?', "Dan sits on Ann's right")
    >>> _seating_said("can Ann attack Cat? he's across the table", ["Ann", "Ben", "Cat", "Dan"])[1]
    'Cat sits across the table from Ann'
    >>> _seating_said("can ann attack dan, dan sits on her right", ["Ann", "Ben", "Cat", "Dan"])
    ('can ann attack dan?', "Dan sits on Ann's right")
    """
    said = _SEATED_AS.search(text)
    if said is None:
        return text, None
    seated = {s.casefold(): s for s in seats}  # names as typed: "can gia attack lin"
    tokens = re.findall(r"[A-Za-z][\w'-]*", text[:said.start()])
    pair = list(dict.fromkeys(seated[w.casefold()] for w in tokens if w.casefold() in seated))
    if len(pair) != 2 or (said["who"] and said["who"].casefold() != pair[1].casefold()):
        return text, None  # the seating said of someone else than the player the question asks about
    one, other = (seats.index(p) for p in pair)
    n = len(seats)
    if said["across"]:
        holds = n % 2 == 0 and (other - one) % n == n // 2
        words = f"{pair[1]} sits across the table from {pair[0]}"
    else:  # seats are clockwise: the next seat is on a player's left (101.4), the one before on their right
        holds = (other - one) % n == (1 if said["side"].lower() == "left" else n - 1)
        words = f"{pair[1]} sits on {pair[0]}'s {said['side'].lower()}"
    if not holds:
        return text, None
    rest = text[:said.start()] + text[said.end():]
    return rest if rest.endswith(("?", ".", "!")) else rest + "?", words


def _neighbours_said(text: str, seats: list[str]) -> tuple[str, str | None]:
    """ "Can Dan attack Ann? they sit next to each other": a seating the question states about the two players
    it names. True at this table, it is said and taken off (the table already seats them so); not true, it
    stays, and the question is not read rather than answered for another seating.

    >>> _neighbours_said("Can Dan attack Ann since they're next to each other?", ["Ann", "Ben", "Cat", "Dan"])
    ('Can Dan attack Ann?', 'Dan and Ann sit next to each other')
    >>> _neighbours_said("Can Cat attack Ann? they sit next to each other", ["Ann", "Ben", "Cat", "Dan"])[1]
    >>> _neighbours_said("Ben leaves. Can Ann attack Cat? they're next to each other now",
    ...                  ["Ann", "Ben", "Cat", "Dan"])
    ('Ben leaves. Can Ann attack Cat?', 'Ann and Cat sit next to each other once Ben left')
    """
    said = _NEIGHBOURS.search(text)
    if said is None:
        return text, None
    before = text[:said.start()]
    last = re.split(r"(?<=[.;!?])\s+", before.strip())[-1]  # the question the seating is said of
    pair = list(dict.fromkeys(w for w in re.findall(r"[A-Za-z][\w'-]*", last) if w in seats))
    if len(pair) != 2:
        return text, None
    one, other = seats.index(pair[0]), seats.index(pair[1])
    between = ([seats[i % len(seats)] for i in range(one + 1, one + (other - one) % len(seats))],
               [seats[i % len(seats)] for i in range(other + 1, other + (one - other) % len(seats))])
    # "now": next to each other once the players the question named between them have left (800.4)
    earlier = set(re.findall(r"[A-Za-z][\w'-]*", before[: len(before) - len(last)])) if said["now"] else set()
    if not any(set(side) <= earlier for side in between):
        return text, None
    rest = (text[:said.start()] + text[said.end():]).strip()
    if not rest.endswith(("?", ".", "!")):
        rest += "?"
    gone = next((side for side in between if side), [])
    return rest, f"{pair[0]} and {pair[1]} sit next to each other" + (f" once {', '.join(gone)} left"
                                                                      if said["now"] and gone else "")


#: "On Ben's turn Ann concedes." said as "Ann concedes on Ben's turn." (the reader's order: the time after);
#: also after a dash ("Ann concedes - on Fay's turn can Fay attack Ben?").
_TIME_FIRST = re.compile(r"(?:^|(?<=[.;!?] )|(?<=\bthen )|(?<=, and )|(?<= - ))(?P<time>(?:on|during|in) "
                         # a name's bare "s" too ("on noahs turn"), not "this" or "its"
                         r"(?:[A-Za-z][\w-]*(?:'s|')|(?!(?:this|its|was|is)\b)[A-Za-z][\w-]*s|his|her|their) "
                         r"(?:own )?"
                         # not a second time ("on Ravi's turn at the end step": that turn's step, in order)
                         r"turn),? (?!(?:at|in|during|on) )(?P<clause>[^.;!?,]+?)(?P<end>[.;!?,]|$)",
                         re.IGNORECASE)


def _time_last(match: re.Match[str]) -> str:
    return f"{match['clause']} {match['time'].lower()}{match['end']}"


def _an(role: str) -> str:
    """ "the Leader", "an Assassin", "a Guardian"."""
    if role == "leader":
        return "the Leader"
    return f"{'an' if role[:1] in 'aeiou' else 'a'} {role.capitalize()}"


def _unit_of_the_fact(rest: str, said: list[str]) -> str:
    """ "Cat is at 8 poison counters and gets 2 more": the unit said once, in the fact before.

    >>> _unit_of_the_fact("Cat gets 2 more", ["Cat has 8 poison counters"])
    'Cat gets 2 more poison counters'
    >>> _unit_of_the_fact("Cat gets another one", ["Cat has 9 poison counters"])
    'Cat gets another poison counters'
    >>> _unit_of_the_fact("Dan gives Cat 2 more", ["Cat has 7 poison counters"])
    'Dan gives Cat 2 more poison counters'
    """
    if not said or not said[-1].endswith("poison counters"):
        return rest
    # "gets one more", "gets one more counter", "gets another (one)": a counter, and the fact said which
    return re.sub(rf"\b(?P<v>gets|got|receives|received|takes|took|"
                  rf"(?:gives|gave|deals|dealt) [A-Za-z][\w'-]*) "
                  rf"(?P<n>(?:{_AMOUNT}) more|another)(?: one)?(?: counters?)?\b"
                  r"(?! poison| life| damage)", r"\g<v> \g<n> poison counters", rest, flags=re.IGNORECASE)


def _same_combat(text: str) -> str:
    """ "Can Liam attack both Noah and Olive in the same combat?": each attack answered is an attack in one
    combat (508.1: the attacking player declares all attackers, each attacking a player it may attack).

    >>> _same_combat("Can Liam attack both Noah and Olive in the same combat?")
    'Can Liam attack both Noah and Olive?'
    """
    return re.sub(r"(?i)^(?P<q>(?:can|could|may) .+? attack (?:both )?[A-Za-z][\w'-]* and [A-Za-z][\w'-]*)"
                  r",? (?:in the same combat|in one combat|at once|at the same time|together|in one attack)"
                  r"(?P<end>[?.!]*)$", r"\g<q>\g<end>", text)


def _poison_said(text: str) -> str:
    """ "How many poison counters kill you? Noah has 10": a number said of a player in a sentence about poison
    counters is a count of them, said once.

    >>> _poison_said("how many poison counters kill you? Noah has 10")
    'how many poison counters kill you? Noah has 10 poison counters'
    >>> _poison_said("Noah has 10. what's his life")
    "Noah has 10. what's his life"
    """
    if not re.search(r"\bpoison\b", text, re.IGNORECASE) or re.search(r"\blife\b", text, re.IGNORECASE):
        return text
    # "Noah gets 3 and Olive gets 4" said in a question about poison counters: counters
    return re.sub(rf"\b(?P<s>[A-Za-z][\w-]*) (?P<v>has|'s at|is at|is on|'s on|has got|gets|got|receives) "
                  rf"(?P<n>{_AMOUNT})(?=[,;.!?]|$| and )", r"\g<s> \g<v> \g<n> poison counters", text,
                  flags=re.IGNORECASE)


def _example_said(text: str, players: list[str]) -> str:
    """ "How much life does everyone start with? say Ben": a player said as an example of everyone, after a
    question about everyone, is one of those it answers for; the words are taken off.

    >>> _example_said("How much life does everyone start with? say Ben", ["Ann", "Ben"])
    'How much life does everyone start with?'
    """
    said = re.search(r"(?<=[?.,])\s*(?:say|e\.g\.?|for example|for instance|like)\s+"
                     r"(?P<who>[A-Za-z][\w-]*)[?.!]*$", text, re.IGNORECASE)
    everyone = r"\b(?:everyone|everybody|each player|every player|all players|the starting life(?: total)?)\b"
    if said is None or said["who"].casefold() not in {p.casefold() for p in players} or \
            not re.search(everyone, text[:said.start()], re.IGNORECASE):
        return text
    return text[:said.start()].rstrip()


def _plain_table_said(text: str, players: int, free_for_all: bool) -> str:
    """ "in a normal 4 player game": the table as it is, said as context (a free-for-all of that many).

    >>> _plain_table_said("How many poison counters kill you in a normal 4 player game?", 4, True)
    'How many poison counters kill you?'
    >>> _plain_table_said("Who wins in a normal 5 player game?", 4, True)
    'Who wins in a normal 5 player game?'
    """
    said = re.search(r",? in an? (?P<plain>(?:normal|regular|standard|typical|plain|casual) )?"
                     rf"(?:(?P<n>{_AMOUNT})[- ](?:player|person|man)|multiplayer|free[- ]for[- ]all|ffa) "
                     r"(?:game|pod|table|match)\b", text, re.IGNORECASE)
    if said is None or not free_for_all or (said["n"] and _NUMBER_WORDS.get(said["n"].lower(), 0) != players
                                            and not (said["n"].isdigit() and int(said["n"]) == players)):
        return text
    return text[:said.start()] + text[said.end():]


#: "4 player ffa, ...", "in my 4 man pod (alex bea chris dana) we ...", "ffa, 4 players. ...": the table as it
#: is, said first as context
_TABLE_FIRST = re.compile(
    rf"^(?P<in>in )?(?:an? |my |our |this )?(?:(?P<n>{_AMOUNT})[- ](?:player|person|man|people) )?"
    r"(?P<what>ffa|free[- ]for[- ]all|pod|game|table|(?P<edh>commander|edh) (?:game|pod|table|match))"
    r"(?: \((?P<names>[^()]+)\))?"
    rf"(?:,? (?P<n2>{_AMOUNT}) players)?(?P<end>[,.:;] ?| )", re.IGNORECASE)


def _table_said_first(text: str, seated: list[str], free_for_all: bool, commander: bool = False) -> str:
    """A free-for-all table said first as context, its count and names (if said) those seated: dropped.

    >>> four = ["Alex", "Bea", "Chris", "Dana"]
    >>> _table_said_first("4 player ffa, it's bea's turn", four, True)
    "it's bea's turn"
    >>> _table_said_first("in my 4 man pod (alex bea chris dana) we had chris at 2 poison", four, True)
    'we had chris at 2 poison'
    >>> _table_said_first("in our commander game mia and sam lose", four, True, commander=True)
    'mia and sam lose'
    >>> _table_said_first("5 player ffa, it's bea's turn", four, True)
    "5 player ffa, it's bea's turn"
    """
    said = _TABLE_FIRST.match(text)
    if said is None or not free_for_all or (said["edh"] and not commander):
        return text
    if said["end"] == " " and not said["in"] and not text[said.end():].lower().startswith("we "):
        return text  # "ffa game is over": no context said apart
    counts = [n for n in (said["n"], said["n2"]) if n]
    if said["what"].lower() in ("pod", "game", "table") and not counts:
        return text  # "game, ..." alone is no table said
    # "in our commander game mia sam and raj ...": a Commander table said as context (903)
    if any(_NUMBER_WORDS.get(n.lower(), int(n) if n.isdigit() else 0) != len(seated) for n in counts):
        return text
    if said["names"]:
        names = {w.casefold() for w in re.split(r"[\s,&+/]+|\band\b", said["names"]) if w}
        if names != {p.casefold() for p in seated}:
            return text
    return text[said.end():]


def _roll_call(text: str, seated: list[str]) -> str:
    """The seats listed as context ("alex is the monarch, bea chris dana.", "alex bea chris dana."): a
    clause of names alone, dropped where its sentence names every seat once, in the table's order (a
    different order is a seating said, not dropped).

    >>> four = ["Alex", "Bea", "Chris", "Dana"]
    >>> _roll_call("ffa. alex is the monarch, bea chris dana. alex concedes", four)
    'ffa. alex is the monarch. alex concedes'
    >>> _roll_call("alex is the monarch, chris bea dana. alex concedes", four)
    'alex is the monarch, chris bea dana. alex concedes'
    """
    keys = [p.casefold() for p in seated]
    names = "|".join(re.escape(p) for p in seated)
    listed = re.compile(rf"(?i)(?:^|, )(?P<list>(?:{names})(?:(?:,? and |, | & | )(?:{names}))+)$")

    def drop(sentence: str) -> str:
        found = listed.search(sentence)
        said = [m[0].casefold() for m in re.finditer(rf"(?i)\b(?:{names})\b", sentence)]
        if found is None or said != keys:
            return sentence
        return sentence[: found.start()]

    parts = re.split(r"(?<=[.;!?]) ", text)
    kept = [drop(part.rstrip(".;!?")) + part[len(part.rstrip(".;!?")):] for part in parts]
    return " ".join(k for k in kept if k.strip(".;!? "))


_TEAM_TOPIC = re.compile(r"^(?P<who>[A-Za-z][\w-]*)(?:'s|') team: ", re.IGNORECASE)


def _team_topic(text: str) -> str:
    """ "Noah's team: what's their poison count if ...", "Ava's team: who's on it and can they attack Di?":
    the team said first, as the topic, is what "it", "they" and "their" stand for after it.

    >>> _team_topic("Ava's team: who's on it and can they attack Di?")
    "who's on Ava's team and can Ava's team attack Di?"
    """
    said = _TEAM_TOPIC.match(text)
    if said is None:
        return text
    team = f"{said['who']}'s team"
    rest = text[said.end():]
    rest = re.sub(r"\b(?:on|in|of) it\b", lambda m: f"{m[0][:-3]} {team}", rest, flags=re.IGNORECASE)
    rest = re.sub(r"\btheir\b", f"{team}'s", rest, flags=re.IGNORECASE)
    return re.sub(r"\b(?:they|them)\b", team, rest, flags=re.IGNORECASE)
