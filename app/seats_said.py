"""Roles and seats said beside a question about them, checked against the table and taken off (the question
itself is the model's to answer); a remark the table doesn't bear out is left as said, so the question is not
read rather than answered for another table:

- a role said beside a name: "Sue (their emperor)", "Uma (leader)", "our emperor Pip", "Pip, our emperor,"
  (809.2: the middle seat is the emperor; 907.2: a Treachery identity);
- a player given as an example of a role or a variant's range: "what range does a general have, like Quin"
  (asked of Quin, who must be a general), "what's the range of influence in grand melee, for Abe say";
- seats said beside an attack: "they're on the same team", "they're sitting next to each other round the
  corner", "she's right next to him", "Lin sits on her right", "Flo's at the far end" (the seats round the
  table, in turn order to the left, 101.4); "attack Sue directly" (an attack on the player, 506.2);
- "X wants to hit Y, allowed?": asked as "can X attack Y?";
- players said to be still in beside a question the events decide: "while both assassins are alive", "...?
  Xia's still alive" (checked against the seats and the roles; the events say who leaves, 800.4a);
- a team said beside the seats: "gia hal ivo jan kai lin with gia ivo kai as a team" (one whole team of the
  table's, 811.3);
- "if Alex and Bea are the only ones left and Bea concedes": the others said out first, as a story ("Chris
  and Dana are out. Bea concedes.");
- a holding said in the past after the event that ends it ("Di leaves during her own turn, she was the
  monarch"): said first, as the table before the event; "the next player is Ed, right?" after it, checked
  against the seats (the next in turn order after the one the event named, 101.4);
- "Quin attacks Rex and kills him": Rex dies (104.3), where nothing at the table turns on whose combat
  damage it was (no monarch, initiative or commander, 725.2, 903.10a); "can Quin attack Sue next turn": on
  Quin's next turn (a player attacks on their own turn, 506.1);
- a yes/no question's other half: "do Ola and Quin lose too or do they keep playing" (asked once).

>>> court = {"variant": "emperor", "teams": [["Ola", "Pip", "Quin"], ["Rex", "Sue", "Tom"]]}
>>> said_seats("sue (their emperor) dies. who wins?", court)
('sue dies. who wins?', ('Sue is an emperor',))
>>> said_seats("ola (their emperor) dies. who wins?", court)[1]
()
>>> said_seats("our emperor pip got killed. do ola and quin lose", court)
('pip got killed. do ola and quin lose', ('Pip is an emperor',))
>>> said_seats("what range does a general have, like quin", court)
('what range does quin have?', ('Quin is a general',))
>>> said_seats("can an emperor attack, like, sue", court)[0]  # not an example of a role: as said
'can an emperor attack, like, sue'
>>> said_seats("can ola swing at tom, they're sitting next to each other round the corner", court)
('can ola swing at tom?', ('Ola and Tom sit next to each other',))
>>> said_seats("can ola attack rex, he's three seats over", court)
('can ola attack rex?', ('Ola and Rex sit 3 seats apart',))
>>> said_seats("can ola attack rex, he's two seats over", court)[1]
()
>>> said_seats("can ola attack quin? they're on the same team", court)
('can ola attack quin?', ('Ola and Quin are on one team',))
>>> said_seats("can ola attack rex? they're on the same team", court)[1]
()
>>> said_seats("in emperor can pip attack sue directly?", court)[0]
'in emperor can pip attack sue?'
>>> said_seats("is the seating legal? ola pip quin rex sue tom with rex sue tom as a team", court)
('is the seating legal? ola pip quin rex sue tom', ('Rex, Sue and Tom are a team',))
>>> said_seats("is the seating legal? ola pip quin rex sue tom with pip sue tom as a team", court)[1]
()
>>> said_seats("if ola and pip are the only ones left and pip concedes, does ola win", court)[0]
'Quin, Rex, Sue and Tom are out. pip concedes. does ola win'
>>> said_seats("sue leaves during her own turn, she was the monarch. who gets it, the next player is tom "
...            "right?", court)
('sue was the monarch. sue leaves during her own turn. who gets it?', ('the next player after Sue is Tom',))
>>> said_seats("quin attacks rex and kills him. can quin attack sue next turn?", court)[0]
"rex dies. can quin attack sue on quin's next turn?"
>>> said_seats("quin attacks rex and kills him. who is the monarch", {**court, "monarch": "Rex"})[0]
'quin attacks rex and kills him. who is the monarch'
>>> said_seats("pip dies. do ola and quin lose too or do they keep playing", court)[0]
'pip dies. do ola and quin lose too'
>>> traitors = {"players": ["Uma", "Wes", "Xia"], "identities": {"Uma": "leader", "Wes": "assassin",
...                                                                  "Xia": "assassin"}}
>>> said_seats("uma dies while both assassins are alive. who wins", traitors)
('uma dies. who wins', ('Wes and Xia are still in the game',))
>>> said_seats("wes hits uma for 20. does wes win? xia's still alive", traitors)
('wes hits uma for 20. does wes win?', ('Xia is still in the game',))
>>> said_seats("xia concedes. does wes win? xia's still alive", traitors)[1]
()
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulesjudge.app.remarks_said import _LEAVES, _holds, _names_in, _seat, _seats, _teams

_NAME = r"[A-Za-z][\w-]*"
_ROLE = r"(?P<role>emperor|general|leader|guardian|assassin|traitor)"
_DET = r"(?:(?:the|their|our|my|your|his|her|its|an?) )?"
#: "Sue (their emperor)", "Pip, our emperor,": a role said after the name
_AFTER = re.compile(rf"\b(?P<who>{_NAME})(?: \(|, ){_DET}{_ROLE}(?:\)|,)", re.IGNORECASE)
#: "our emperor Pip", "the leader Uma": a role said before the name (not "the emperor of ...")
_BEFORE = re.compile(rf"\b(?:the|their|our|my|your) {_ROLE} (?P<who>{_NAME})\b", re.IGNORECASE)
#: "what range does a general have, like Quin": a player given as an example of a role
_ROLE_EXAMPLE = re.compile(rf"\b(?:an?|each|any) {_ROLE}(?P<rest> (?:have|has|get|gets))?,? "
                           r"(?:like|say|e\.?g\.?|for (?:example|instance)),? "
                           rf"(?P<who>{_NAME})(?:,? say)?(?P<end>[?.!]*)$",
                           re.IGNORECASE)
#: "what's the range of influence in grand melee, for Abe say": one player's range, asked by example
_RANGE_EXAMPLE = re.compile(rf"\b(?P<q>what(?:'s| is|s) the range(?: of influence)?)(?: (?:in|for) [\w -]+?)?"
                            rf",? (?:for|like|of|e\.?g\.?) (?P<who>{_NAME})(?:,? say)?(?P<end>[?.!]*)$",
                            re.IGNORECASE)
#: what opens a seat remark said after the question: a stop or a dash, then perhaps a "because"
_REMARK_OPENS = r"(?:[,;.?!]|\s-)*\s*"
_BECAUSE = r"(?:since |because |as |cause )?"
#: a seat remark after an attack question: "they're on the same team", "she's right next to him"
_SAME_TEAM = re.compile(rf"{_REMARK_OPENS}{_BECAUSE}they(?:'re| are) (?:on )?"
                        r"(?:the same team|teammates|on a team|team ?mates)\b[.!?]*", re.IGNORECASE)
_NEXT_TO = re.compile(rf"{_REMARK_OPENS}{_BECAUSE}(?:they(?:'re| are)|(?P<who>"
                      rf"{_NAME}|s?he)(?:'s| is)?) (?:sitting |seated |sat )?(?:right )?next to "
                      r"(?:each other|one another|him|her|them)(?: (?:round|around) the corner(?: of the "
                      r"table)?)?[.!?]*", re.IGNORECASE)
_SIDE = re.compile(rf"{_REMARK_OPENS}(?P<who>{_NAME}) (?:sits|is|'s) (?:right )?on (?:his|her|their) "
                   r"(?P<side>right|left)\b[.!?]*", re.IGNORECASE)
_FAR = re.compile(rf"{_REMARK_OPENS}(?P<who>{_NAME})(?:'s| is) (?:at|on) the (?:far|other) end"
                  r"(?: of the table)?[.!?]*", re.IGNORECASE)
#: "he's two seats over", "she sits 3 seats away from him": how many seats apart (the shorter way round)
_APART = re.compile(rf"{_REMARK_OPENS}{_BECAUSE}(?P<who>{_NAME}|s?he|they)"
                    r"(?:'s| is| sits| are|'re) (?P<n>one|two|three|four|five|six|[1-7]) seats? (?:over|away|"
                    r"down|apart|along)(?: from (?:him|her|them|each other))?[.!?]*", re.IGNORECASE)
_SEATS_APART = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ATTACK = re.compile(rf"\b(?:attack|swing at|hit|go after|swing on)\s+(?P<who>{_NAME})", re.IGNORECASE)
_WANTS = re.compile(rf"^(?P<a>{_NAME}) wants to (?:hit|attack|swing at) (?P<b>{_NAME})[,;]?(?P<mid>.*?)"
                    r"[,;]? (?:is that |is it )?(?:allowed|legal|ok|okay)\?*$", re.IGNORECASE)


#: what "still in" is said as: "alive", "in the game", "playing" ...
_IN_GAME = r"(?:alive|in(?: the game)?|around|playing|standing)"
#: "or do they keep playing": the other half of a yes/no question about losing, the same question
_OR_PLAY_ON = re.compile(r",? or (?:do|does|will|would) (?:they|he|she|both|we)(?: \w+)? "
                         r"(?:keep (?:playing|going)|play on|stay in(?: the game)?|continue|carry on)\b",
                         re.IGNORECASE)
#: "while both assassins are alive": the holders of a role said to be still in
_ROLE_STILL_IN = re.compile(r",? (?:while|and|but|with|when) (?P<many>both|all|the|all the|all of the) "
                            r"(?P<role>leaders|guardians|assassins|traitors|generals|emperors) "
                            rf"(?:are )?(?:still )?{_IN_GAME}\b",
                            re.IGNORECASE)
#: "...? Xia's still alive": a player said to be still in, after the question
_STILL_IN_AFTER = re.compile(rf"(?<=[?.!]) (?P<who>{_NAME})(?:'s| is|s) still {_IN_GAME}[.!?]*$",
                             re.IGNORECASE)


#: "the leader dies, tam and uma are still in. who wins": players said to be still in, a clause between commas
#: (or before the question) beside the story
_STILL_IN_CLAUSE = re.compile(rf", (?P<who>{_NAME}(?:(?:,| and|, and) {_NAME})*)(?: are| is|'s|s)?"
                              rf"(?: both| all)? still {_IN_GAME}"
                              r"(?=[.!?,;]|$)",
                              re.IGNORECASE)


#: "with Gia Ivo Kai as a team": one team said by its players
_TEAM_NAME = rf"(?!(?:with|and|are|as|on|being)\b){_NAME}"
_AS_A_TEAM = re.compile(rf"(?:^|,? )(?:with |and )?(?P<list>{_TEAM_NAME}(?:(?:,? and |, | ?[&+/] ?| )"
                        rf"{_TEAM_NAME})+) "
                        # "Ann and Cat are on the same team", "... are teammates": said first, as a fact
                        r"(?:(?:as|are|being|on|are on) (?:a|one|the same) team|are team ?mates)\b"
                        r"(?=[,;.?!]|$| and\b| so\b)", re.IGNORECASE)


def _team_said(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    seats = _seats(game)
    found = _AS_A_TEAM.search(text)
    if not found:
        return text
    words = re.findall(r"[A-Za-z][\w-]*", found["list"])
    found_seats = [_seat(w, seats) for w in words if w.lower() != "and"]
    named = [n for n in found_seats if n is not None]
    if len(named) != len(found_seats) or not any(sorted(t) == sorted(named) for t in _teams(game)):
        return text
    said.append(f"{', '.join(named[:-1])} and {named[-1]} are a team")
    rest = text[found.end():]
    if found.start() == 0:  # said first: what follows it is the question ("..., so can Ann attack Cat?")
        rest = re.sub(r"(?i)^[\s,;.!?-]*(?:and |so )?", "", rest)
        # "Cat and Dan are a team. If they both concede": the pronoun stands for the team just said
        team = f"{', '.join(named[:-1])} and {named[-1]}"
        return re.sub(r"(?i)^((?:if |when |say |suppose )?)they\b", rf"\g<1>{team}", rest)
    return text[:found.start()] + rest


#: "if Alex and Bea are the only ones left and Bea concedes, ...": who else is out, said as a fact first
_ONLY_LEFT = re.compile(rf"^(?P<lead>(?:[^.;:!?]*[.;:!?] )*)(?:if |when |say )?"
                        rf"(?P<list>{_NAME}(?:(?:,? and |, ){_NAME})+) are (?:the )?only "
                        r"(?:ones|players|two|three|people) (?:left|still in|remaining|in the game|alive)"
                        r"(?:,? and |, |\. )(?P<then>then )?", re.IGNORECASE)


def _only_left(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    found = _ONLY_LEFT.match(text)
    if not found:
        return text
    seats = _seats(game)
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", found["list"]) if w.lower() != "and"]
    named = [_seat(w, seats) for w in words]
    if None in named:
        return text
    others = [p for p in seats if p not in named]
    # "... and Bea concedes, does Alex win": the event a sentence of its own after the fact said first
    rest = re.sub(r"^(?P<event>[^,.;?!]*), (?=(?:does|do|did|is|are|who|whom|whose|what|how|can)\b)",
                  r"\g<event>. ", text[found.end():])
    if not others:
        return found["lead"] + rest
    said.append(f"only {' and '.join(n or '' for n in named)} are left")
    out = f"{', '.join(others[:-1])} and {others[-1]} are out" if len(others) > 1 else f"{others[0]} is out"
    return f"{found['lead']}{out}. {rest}"


#: "Di leaves during her own turn, she was the monarch.": a holding the event ended, said after it
_HELD_BEFORE = re.compile(rf"^(?P<event>(?P<who>{_NAME}) [^.;?!,]+?)(?:,| and) (?:(?P<pronoun>she|he|they)|"
                          rf"(?P<name>{_NAME})) (?:was|were|had been) (?:the )?(?P<what>monarch)"
                          r"(?P<end>[.;!?])",
                          re.IGNORECASE)
#: ", the next player is Ed right?": a seat the answer relies on, said to check
_NEXT_IS = re.compile(rf",? (?:and )?the next (?:player|one|seat)(?: in turn order)? is (?P<who>{_NAME}),? "
                      r"(?:right|correct|yeah|no)\?*$", re.IGNORECASE)


def _held_before(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    seats = _seats(game)
    held = _HELD_BEFORE.match(text)
    if held and (who := _seat(held["who"], seats)) and (held["pronoun"] or _seat(held["name"], seats) == who):
        text = f"{held['who']} was the {held['what']}. {held['event']}{held['end']}" + text[held.end():]
    nxt = _NEXT_IS.search(text)
    first = _names_in(text, seats)
    if nxt and first and _seat(nxt["who"], seats):
        after = seats[(seats.index(first[0]) + 1) % len(seats)]
        if after == _seat(nxt["who"], seats):
            said.append(f"the next player after {first[0]} is {after}")
            text = text[:nxt.start()] + "?"
    return text


_KILLED = re.compile(rf"\b(?P<a>{_NAME}) (?:attacks|swings at|hits) (?P<b>{_NAME}) and kills "
                     r"(?:him|her|them)\b", re.IGNORECASE)
#: "...? asking because seats close up": why the question is asked, after it (the question is the same)
_WHY_ASKED = re.compile(r"(?<=[?]) (?:i'm |im |just )?asking (?:because|since|cause|as) [^?.!]*[.!]*$",
                        re.IGNORECASE)
_NEXT_TURN = re.compile(rf"\b(?P<ask>(?:can|could) (?P<a>{_NAME}) (?:attack|swing at|hit) {_NAME})"
                        r" (?:on )?(?:(?:his|her|their) )?next turn\b", re.IGNORECASE)


def _attack_kills(text: str, game: Mapping[str, Any]) -> str:
    seats = _seats(game)
    designated = any(game.get(k) for k in ("monarch", "initiative", "commander"))

    def killed(match: re.Match[str]) -> str:
        if designated or not (_seat(match["a"], seats) and _seat(match["b"], seats)):
            return match[0]
        return f"{match['b']} dies"

    text = _WHY_ASKED.sub("", _KILLED.sub(killed, text))
    return _NEXT_TURN.sub(lambda m: f"{m['ask']} on {m['a']}'s next turn" if _seat(m["a"], seats) else m[0],
                          text)


def _still_in(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    seats = _seats(game)
    group = _ROLE_STILL_IN.search(text)
    if group:
        role = group["role"].lower()[:-1]
        holders = [p for p in seats if _holds(p, role, game)]
        if holders and (len(holders) == 2 or group["many"].lower() != "both"):
            said.append(f"{' and '.join(holders)} are still in the game")
            text = text[:group.start()] + text[group.end():]
    clause = _STILL_IN_CLAUSE.search(text)
    named = [_seat(n, seats) for n in re.split(r",? and |, ", clause["who"])] if clause else []
    if clause and named and all(named) and not any(
            set(named) & set(_names_in(c, seats)) for c in re.split(r"[,.;?!]| and ", text[:clause.start()])
            if _LEAVES.search(c)):
        are = "are" if len(named) > 1 else "is"
        said.append(f"{' and '.join(str(n) for n in named)} {are} still in the game")
        text = text[:clause.start()] + text[clause.end():]
    after = _STILL_IN_AFTER.search(text)
    # never where the story itself takes them out ("Xia concedes ... ? Xia's still alive"): left as said
    leaves = [c for c in re.split(r"[,.;?!]| and ", text[:after.start()] if after else "")
              if _LEAVES.search(c)]
    if after and (who := _seat(after["who"], seats)) and not any(who in _names_in(c, seats) for c in leaves):
        said.append(f"{who} is still in the game")
        text = text[:after.start()]
    return _OR_PLAY_ON.sub("", text)


def _a(role: str) -> str:
    return f"{'an' if role[0] in 'aeiou' else 'a'} {role}"


def _roles_beside_names(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    seats = _seats(game)

    def beside(match: re.Match[str]) -> str:
        who, role = _seat(match["who"], seats), match["role"].lower()
        if who is None or not _holds(who, role, game):
            return match[0]
        said.append(f"{who} is {_a(role)}")
        return match["who"]

    text = _AFTER.sub(beside, text)
    text = _BEFORE.sub(beside, text)
    example = _ROLE_EXAMPLE.search(text)
    if example and (who := _seat(example["who"], seats)) and _holds(who, example["role"], game):
        said.append(f"{who} is {_a(example['role'].lower())}")
        text = text[:example.start()] + example["who"] + (example["rest"] or "") + (example["end"] or "?")
    ranged = _RANGE_EXAMPLE.search(text)
    if ranged and _seat(ranged["who"], seats):
        asked = f"what is {ranged['who']}'s range of influence"
        text = text[:ranged.start()] + asked + (ranged["end"] or "?")
    return text


def _neighbours(a: str, b: str, seats: Sequence[str]) -> bool:
    """Seated next to each other round the table."""
    i, j = seats.index(a), seats.index(b)
    return len(seats) > 1 and (i - j) % len(seats) in (1, len(seats) - 1)


def _attack_pair(question: str, seats: Sequence[str]) -> tuple[str, str] | None:
    """(attacker, attacked) of "can Ola swing at Tom": the two players an attack question names."""
    named = _names_in(question, seats)
    target = _ATTACK.search(question)
    if len(named) != 2 or target is None or _seat(target["who"], seats) != named[1]:
        return None
    return named[0], named[1]


def _seats_beside_attacks(text: str, game: Mapping[str, Any], said: list[str]) -> str:
    seats = _seats(game)
    wants = _WANTS.match(text.strip())
    if wants and _seat(wants["a"], seats) and _seat(wants["b"], seats):
        text = f"can {wants['a']} attack {wants['b']}{wants['mid']}?"
    text = re.sub(rf"\b((?:attack|swing at|hit) {_NAME}) directly\b", r"\1", text, flags=re.IGNORECASE)
    for remark in (_SAME_TEAM, _NEXT_TO, _SIDE, _FAR, _APART):
        found = remark.search(text)
        if not found:
            continue
        question = text[:found.start()].rstrip(" ,;-")
        pair = _attack_pair(question, seats)
        if pair is None:
            continue
        checked = _checked(remark, found, pair, game)
        if checked:
            said.append(checked)
            text = question.rstrip("?") + "?" + text[found.end():]
    return text


def _checked(remark: re.Pattern[str], found: re.Match[str], pair: tuple[str, str],
             game: Mapping[str, Any]) -> str:
    """What the remark says of the two players, where the table bears it out ("" where it doesn't)."""
    seats, (a, b) = _seats(game), pair
    if remark is _SAME_TEAM:
        team = any(a in t and b in t for t in _teams(game))
        return f"{a} and {b} are on one team" if team else ""
    who = _seat(found["who"], seats) if found["who"] else None
    if who not in (None, a, b):
        return ""
    if remark is _APART:  # counted either way round the table, the shorter (the seats between them)
        apart = (seats.index(b) - seats.index(a)) % len(seats)
        n = _SEATS_APART.get(found["n"].lower()) or int(found["n"])
        seats_word = "seat" if n == 1 else "seats"
        return f"{a} and {b} sit {n} {seats_word} apart" if min(apart, len(seats) - apart) == n else ""
    if remark is _NEXT_TO:
        return f"{a} and {b} sit next to each other" if _neighbours(a, b, seats) else ""
    if remark is _FAR:
        return f"{b} doesn't sit next to {a}" if who == b and not _neighbours(a, b, seats) else ""
    if who != b:
        return ""
    left = seats[(seats.index(a) + 1) % len(seats)]  # turn order passes to the left (101.4)
    right = seats[(seats.index(a) - 1) % len(seats)]
    side = found["side"].lower()
    return f"{b} sits on {a}'s {side}" if b == (left if side == "left" else right) else ""


def said_seats(text: str, game: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """(the text with the roles and seats that hold taken off, what they said); see the module."""
    said: list[str] = []
    text = _only_left(text, game, said)
    text = _roles_beside_names(text, game, said)
    text = _seats_beside_attacks(text, game, said)
    text = _still_in(text, game, said)
    text = _team_said(text, game, said)
    text = _held_before(text, game, said)
    text = _attack_kills(text, game)
    return text, tuple(said)
