"""Naming the players: the vocabulary of a fragment of a question (a name, a role or designation, a group,
a pronoun, a seat, a creature's owner) resolved to the players it names at one table (:class:`Ref`), by a
:class:`_Reader` (:mod:`reader`) that remembers who was named."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rulesjudge.app.whatif.normalise import _UNITS, _number
from rulesjudge.app.whatif.plan import TableFacts, WhatIfError, _facts  # noqa: F401 (WhatIfError: a doctest's)

# the reader and its names, re-exported: the event and question modules import them from here
from rulesjudge.app.whatif.reader import _POSS, _PRONOUN, _REFERENCES, Ref, _Reader, _Unknown

_ARTICLE = r"(?:the |a |an )?"
_OBJECTS = (r"(?:creatures?|attackers?|army|armies|team's creatures|guys|dudes|tokens?|commanders?|"
            r"blockers?|board|permanents?)")
_ROLE_WORDS = {
    "leader": "leader", "leaders": "leader", "guardian": "guardian", "guardians": "guardian",
    "assassin": "assassin", "assassins": "assassin", "traitor": "traitor", "traitors": "traitor",
}
_SOMEONE = r"(?:player|one|person|guy|gal|dude|someone|opponent)"
#: "the monarch guy", "the initiative guy", "the crown player": the holder named by the designation
_MONARCH = rf"(?:(?:monarch|crown) {_SOMEONE}|monarch|king|queen|crown ?holder|" \
    rf"{_SOMEONE} (?:with|holding|wearing|who has|who holds|" \
    r"who(?:'s| is) wearing) the (?:crown|monarch|monarchy)|" \
    r"whoever (?:has|holds|wears) the (?:crown|monarchy))"
_INITIATIVE = rf"(?:initiative ?holder|initiative {_SOMEONE}|{_SOMEONE} (?:with|holding|who has|who holds) " \
    r"the initiative|" \
    r"whoever (?:has|holds) the initiative)"
_ACTIVE = r"(?:active player|current player|turn player|player on turn|player whose turn it is|" \
    r"whoever's turn it is|whoever is active)"
_EVERYONE = r"(?:everyone|everybody|every player|all (?:the )?players|all of (?:us|them)|" \
    r"the (?:whole )?table|" \
    r"all|each player|every(?:one|body) at the table)"
_EXCEPT = r"(?:except(?: for)?|but|other than|besides|apart from|save|excluding|minus)"


def _creature_named(reader: _Reader, text: str) -> str | None:
    """A creature on the table by its name: "the Ogre", "Cat's Wolf", "Wolf"; "it" for the creature named
    before it (or the only one the sentence names: "who controls it if Ann steals the Goblin")."""
    if re.fullmatch(r"(?i)\s*(?:it|its|that|that creature|the creature)\s*", text):
        named = [c for c, _controller in reader.facts.creatures
                 if re.search(rf"(?i)\b{re.escape(c)}\b", reader.sentence)]
        return reader.creature or (named[0] if len(named) == 1 else None)
    commander = _commander_of(reader, text)
    if commander:
        reader.creature = commander
        return commander
    # an owner's name is a word or two ("Cat's Wolf", "the other guy's Ogre"), never a clause that ends in one
    name = re.sub(rf"(?i)^(?:the |(?:his|her|their|its|my|your) |[\w-]+(?: [\w-]+)?{_POSS} )", "",
                  text.strip())
    found = next((c for c, _controller in reader.facts.creatures if c.casefold() == name.casefold()), None)
    if found:
        reader.creature = found
    return found


def _commander_of(reader: _Reader, text: str) -> str | None:
    """ "his commander", "Sol's commander", "the commander": the one commander on the table its owner has
    (903.3), the owner said by name or pronoun; None where none or several are."""
    said = re.fullmatch(rf"(?i)\s*(?:(?P<whose>the|his|her|their|[\w-]+{_POSS}) )?commander\s*", text)
    if said is None or not reader.facts.commanders:
        return None
    whose = (said["whose"] or "the").lower()
    if whose == "the":
        owners = {owner for _name, owner in reader.facts.commanders}
    else:
        owners = set(reader.refer(re.sub(rf"{_POSS}$", "", said["whose"]), one=True).players)
    theirs = [name for name, owner in reader.facts.commanders if owner in owners]
    return theirs[0] if len(theirs) == 1 else None


def _reference(regex: str) -> Callable[[Callable[[_Reader, re.Match[str]], Ref | None]], Any]:
    def register(build: Callable[[_Reader, re.Match[str]], Ref | None]) -> Any:
        _REFERENCES.append((re.compile(regex, re.IGNORECASE), build))
        return build

    return register


@_reference(r"(?:he|she|they|him|her|them|his|their|hers|theirs|it|its|himself|herself|themselves|themself)")
def _pronoun(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """ "He", "her", "their": the player an earlier event did something to, else the clause's subject. "It"
    is no player where the sentence told of a creature ("Tom's creature hits Mia for 20. It hits her for 1
    more": the creature, whose controller is not Mia): not guessed."""
    if match[0].lower() in ("it", "its") and re.search(
            r"(?i)\b(?:creature|commander|general|guy|dude|attacker|blocker|token|\d{1,2}/\d{1,2})s?\b",
            reader.sentence):
        raise _Unknown(f"what does '{match[0]}' stand for? name the creature or its controller", match[0])
    plural = match[0].lower() in ("they", "them", "their", "theirs", "themselves")
    if plural and reader.focus is not None and not reader.touched <= set(reader.focus.players):
        pools = {reader.facts.pools.get(p) for p in reader.touched}
        if len(pools) == 1 and None not in pools:  # "Cat takes 10 and Dan takes 5, what's their life": one
            return Ref(tuple(p for p in reader.facts.players if p in reader.touched), "their", plural=True)
        # "Ann gains 5 and Ben loses 5, what's their life": both of them, or one? not guessed
        raise _Unknown(f"whom does '{match[0]}' stand for? name the players", match[0])
    return reader.focus or reader.subject


@_reference(rf"(?:the )?(?:current |new )?{_MONARCH}")
def _the_monarch(reader: _Reader, match: re.Match[str]) -> Ref:
    reader.topic = "monarch"
    return reader._one(reader.facts.monarch, "the monarch", "the monarch")


@_reference(rf"(?:the )?(?:current )?{_INITIATIVE}")
def _the_initiative_holder(reader: _Reader, match: re.Match[str]) -> Ref:
    reader.topic = "initiative"
    return reader._one(reader.facts.initiative, "the initiative holder", "holding the initiative")


@_reference(rf"(?:the )?{_ACTIVE}s?")
def _the_active_player(reader: _Reader, match: re.Match[str]) -> Ref:
    active = [p for p in reader.facts.active if p not in reader.gone]
    if len(active) > 1:
        return reader._group(active, "the active players", "active")
    return reader._one(active[0] if active else None, "the active player", "the active player")


@_reference(r"(?P<many>both |all (?:the )?|each |every |the two |the )?(?P<role>leaders?|guardians?|"
    r"assassins?|"
            r"traitors?)(?: players?)?")
def _by_role(reader: _Reader, match: re.Match[str]) -> Ref | None:
    if not reader.facts.roles:
        return None
    role = _ROLE_WORDS[match["role"].lower()]
    # the model's holders (role-holders: The Metamorph took Cat's card, so Eve); the players who left with
    # that last card (left-with-role, 907.12) only when nobody in the game holds it
    holders = [p for p in reader.facts.role_holders.get(role, ()) if p not in reader.gone] or \
        [p for p in reader.facts.left_with_role.get(role, ()) if p not in reader.gone]
    plural = match["role"].lower().endswith("s") or (match["many"] or "").strip().lower() in (
        "both", "all", "all the", "each", "every", "the two")
    word = role.capitalize() + ("s" if plural else "")
    ref = reader._group(holders, f"the {word}", f"the {role.capitalize()}")
    if len(holders) == 1:  # one player, whatever the words: "If the Traitor (Eve) concedes"
        return Ref(ref.players, f"the {role.capitalize()} ({holders[0]})")
    return Ref(ref.players, ref.words, plural=plural)


@_reference(r"(?P<many>both |all (?:the )?|each |the two |the )?(?P<word>emperors?)")
def _the_emperor(reader: _Reader, match: re.Match[str]) -> Ref | None:
    emperors = [p for p in reader.facts.emperors if p not in reader.gone]
    if not reader.facts.emperors:
        return None
    plural = match["word"].lower().endswith("s") or (match["many"] or "").strip().lower() in ("both", "each")
    if len(emperors) == 1:
        return Ref((emperors[0],), f"the emperor ({emperors[0]})")
    ref = reader._group(emperors, "the emperors" if plural else "the emperor", "an emperor")
    return Ref(ref.players, ref.words, plural=plural)


@_reference(rf"(?P<many>both |all (?:the )?|each |the )?(?P<word>generals?)"
            rf"(?: (?:on|of|from|in) (?P<x>.+?){_POSS} (?:team|side))?|"
            rf"(?:(?:both|all|each) (?:of )?)?(?P<x2>.+?){_POSS} generals?")
def _the_general(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """The generals (809.2: each player of a team but its emperor): "the general Ann", "the generals", "both
    generals on Eli's team", "both of Fin's generals"."""
    if not reader.facts.emperors:
        return None
    generals = [p for p in reader.playing() if p not in reader.facts.emperors]
    if match["x"] or match["x2"]:
        owner = reader.owner(match["x"] or match["x2"])
        if owner is None:
            return None
        team = {owner, *reader.teammates(owner)}
        mates = [p for p in generals if p in team]
        return reader._group(mates, f"the generals on {owner}'s team", f"a general on {owner}'s team")
    return reader._group(generals, "the generals", "a general")


@_reference(rf"(?P<x>.+?){_POSS}(?: team{_POSS}| side{_POSS})? emperor|"
            rf"(?:the )?emperor (?:on|of|from|for) (?P<x2>.+?){_POSS} (?:team|side)")
def _someones_emperor(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"] or match["x2"])
    if owner is None:
        return None
    team = {owner, *reader.teammates(owner)}
    emperor = next((e for e in reader.facts.emperors if e in team), None)
    return reader._one(emperor, f"{owner}'s emperor", f"{owner}'s emperor")


@_reference(rf"(?P<x>.+?){_POSS} (?:team ?mates?|team-mates?|partners?|allies|ally|friends?)")
def _teammates_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    mates = reader.teammates(owner)
    if not mates:
        raise _Unknown(f"{owner} has no teammates at this table", match[0])
    ref = reader._group(mates, f"{owner}'s teammate" + ("s" if len(mates) > 1 else ""), "a teammate")
    return Ref(ref.players, ref.words, plural=len(mates) > 1)


@_reference(rf"(?P<x>.+?)(?:{_POSS} (?:whole )?team| and (?:his|her|their)(?:'s)? (?:team ?mates?|teammates?|"
    rf"partners?|"
            r"team|allies))")
def _team_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"]) or _one_team(reader, match["x"])
    if owner is None:
        return None
    members = [owner, *reader.teammates(owner)]
    team = reader.facts.teams.get(owner)
    seated = [p for p in reader.facts.players if p == owner or p in reader.facts.teammates.get(owner, ())
              or (team is not None and reader.facts.teams.get(p) == team)]
    if len(members) == 1:  # "Ann and Cat die, does Ben's team lose": those this what-if took out still count
        members = [p for p in seated if p == owner or p in reader.facts.playing]
    if len(members) == 1 and len(seated) > 1:  # the table's own events took the others out: Ann alone
        return Ref((owner,), f"{owner}'s team ({owner})")
    if len(members) == 1:
        raise _Unknown(f"{owner} has no teammates at this table", match[0])
    return reader._group(members, f"{owner}'s team", "on that team")


def _one_team(reader: _Reader, text: str) -> str | None:
    """ "their team" where "their" is players of one team ("Cat takes 20 and Dan takes 10, is their team
    dead"): the first of them, whose team it is."""
    if not re.fullmatch(_PRONOUN, text.strip(), re.IGNORECASE):
        return None
    ref = reader._single(text)
    if ref is None or not ref.players:
        return None
    first = ref.players[0]
    return first if set(ref.players) <= {first, *reader.teammates(first)} else None


@_reference(r"the (?:team|side)")
def _the_team(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """ "the team" after one player was named ("Ann's life is set to 10. What's the team's life?")."""
    named = reader.focus or reader.subject
    if named is None or len(named.players) != 1 or not reader.teammates(named.players[0]):
        return None
    said = re.fullmatch(rf"(?P<x>.+?){_POSS} team", f"{named.players[0]}'s team")
    return _team_of(reader, said) if said else None


@_reference(rf"(?P<x>.+?){_POSS} (?:opponents|enemies)")
def _opponents_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    return reader._group(reader.opponents(owner), f"{owner}'s opponents", f"{owner}'s opponent")


@_reference(r"(?:the )?other (?:team|side)")
def _other_team(reader: _Reader, match: re.Match[str]) -> Ref | None:
    if not reader.facts.teams:
        return None
    named = reader.mentioned or (list(reader.subject.players) if reader.subject else [])
    sides = {reader.facts.teams[p] for p in named if p in reader.facts.teams}
    if len(sides) != 1:
        names = sorted(set(reader.facts.teams.values()))
        if len(names) == 2 and not sides:
            raise _Unknown("the other team than whose? name a player of one team", match[0])
        return None
    side = next(iter(sides))
    members = [p for p in reader.playing() if reader.facts.teams.get(p) not in (None, side)]
    return reader._group(members, "the other team", "on the other team")


@_reference(r"team (?P<name>\w+)|(?:the )?(?P<name2>\w+) team")
def _named_team(reader: _Reader, match: re.Match[str]) -> Ref | None:
    wanted = (match["name"] or match["name2"] or "").casefold()
    aliases = {"assassin": "assassins", "leader's": "leader", "leaders": "leader"}
    wanted = aliases.get(wanted, wanted)
    members = [p for p in reader.playing() if str(reader.facts.teams.get(p, "")).casefold() == wanted]
    if not members:
        return None
    return reader._group(members, f"team {reader.facts.teams[members[0]]}", "on that team")


@_reference(rf"{_EVERYONE}(?: else)? {_EXCEPT} (?P<x>.+)|all {_EXCEPT} (?P<x2>.+)")
def _everyone_except(reader: _Reader, match: re.Match[str]) -> Ref:
    left_out = reader.refer(match["x"] or match["x2"])
    players = [p for p in reader.playing() if p not in left_out.players]
    return reader._group(players, f"everyone except {left_out.words}", "left")


@_reference(rf"{_EVERYONE}")
def _everyone(reader: _Reader, match: re.Match[str]) -> Ref:
    return reader._group(reader.playing(), "everyone", "playing")


@_reference(r"(?:everyone|everybody) else|(?:all )?the others|(?:all )?the other players|"
    r"the rest(?: of (?:us|them|"
            r"the table))?")
def _everyone_else(reader: _Reader, match: re.Match[str]) -> Ref | None:
    # "if everybody else concedes, does Ann win": said before the one player the sentence names
    named = reader.mentioned or (reader.sentence_names if len(reader.sentence_names) == 1 else [])
    if not named:
        return None
    players = [p for p in reader.playing() if p not in named]
    return reader._group(players, "everyone else", "left")


@_reference(rf"(?:the )?(?:player|person|one|opponent|seat) (?:to|on|"
    rf"at) (?P<x>.+?){_POSS} (?P<side>left|right)"
            rf"(?:[- ]hand(?: side)?)?|(?P<x2>.+?){_POSS} (?P<side2>left|"
            rf"right)(?:[- ]hand)?(?: neighbou?r| side)?|"
            rf"(?:the )?(?:player|person|one) (?:to|on) the (?P<side3>left|right) of (?P<x3>.+)")
def _neighbour(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"] or match["x2"] or match["x3"])
    if owner is None:
        return None
    side = (match["side"] or match["side2"] or match["side3"]).lower()
    other = reader.neighbour(owner, 1 if side == "left" else -1)
    return Ref((other,), f"the player on {owner}'s {side} ({other})")


@_reference(r"(?:the )?(?:player|person|one) (?:after|before) (?P<x>.+)|(?:the )?(?P<next>next|"
    r"previous) player")
def _after(reader: _Reader, match: re.Match[str]) -> Ref | None:
    if match["next"]:
        active = [p for p in reader.facts.active if p not in reader.gone] or list(reader.facts.active)
        if not active:
            return None
        step = 1 if match["next"].lower() == "next" else -1
        other = reader.neighbour(active[0], step)
        return Ref((other,), f"the {match['next'].lower()} player ({other})")
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    step = 1 if "after" in match[0].lower() else -1
    other = reader.neighbour(owner, step)
    return Ref((other,), f"the player {'after' if step == 1 else 'before'} {owner} ({other})")


@_reference(rf"(?:the )?(?:player (?:in |at )?seat|player number|player|seat|p)(?: number| #| no\.?)? ?#?"
            rf"(?P<n>\d{{1,2}}|{'|'.join(_UNITS)}|ten|eleven|twelve)")
def _by_seat(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """ "player 2", "P3", "seat 4", "the player in seat 3": the seats as the table lists them, from 1."""
    seat = _number(match["n"], 0)
    if not 1 <= seat <= len(reader.facts.players):
        raise _Unknown(f"there is no seat {seat} at this table ({len(reader.facts.players)} seats)", match[0])
    player = reader.facts.players[seat - 1]
    return Ref((player,), f"seat {seat} ({player})")


@_reference(rf"(?:the )?(?:player|person|one|opponent) (?:across|opposite) (?:from |to )?(?P<x>.+?)|"
            rf"(?P<x2>.+?){_POSS} opposite(?: number| player)?")
def _across(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """The player sitting opposite: only at an even table (at an odd one nobody sits straight across)."""
    owner = reader.owner(match["x"] or match["x2"])
    seats = list(reader.facts.players)
    if owner is None or len(seats) % 2:
        return None
    other = seats[(seats.index(owner) + len(seats) // 2) % len(seats)]
    return Ref((other,), f"the player across from {owner} ({other})")


@_reference(rf"(?P<x>.+?){_POSS} (?P<who>owner|controller)|(?P<it>its) (?P<who2>owner|controller)")
def _owner_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """ "the Goblin's owner", "its controller": the player who owns or controls a creature on the table."""
    creature = _creature_named(reader, match["x"] or match["it"])
    if creature is None:
        return None
    if (match["who"] or match["who2"]).lower() == "owner":
        player = reader.facts.owners.get(creature)
    else:
        player = next((c for name, c in reader.facts.creatures if name == creature), None)
    if player is None:
        return None
    return Ref((player,), f"{creature}'s {(match['who'] or match['who2']).lower()} ({player})")


def resolve_player(raw: str, players: Sequence[str] | TableFacts) -> str:
    """The player a fragment of a question names (case-insensitive, possessive and "player" dropped).

    >>> resolve_player("ben's", ["Ann", "Ben"])
    'Ben'
    >>> try:
    ...     resolve_player("Zed", ["Ann", "Ben"])
    ... except WhatIfError as error:
    ...     print(error)
    there is no player called 'Zed' at this table (players: Ann, Ben)
    """
    text = re.sub(rf"(?i){_POSS}$", "", raw.strip()).strip()
    ref = _Reader(_facts(players)).refer(text, one=True)
    return ref.players[0]


def resolve_players(raw: str, players: Sequence[str] | TableFacts) -> list[str]:
    """Several players: "Ann and Ben", "Ann, Ben and Cat", "Ann & Ben", "everyone except Dan".

    >>> resolve_players("ann, Ben and cat", ["Ann", "Ben", "Cat"])
    ['Ann', 'Ben', 'Cat']
    """
    return list(_Reader(_facts(players)).refer(raw).players)
