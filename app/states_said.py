"""What a question says is in force on its table, beside the facts ``app.situation`` reads: who controls a
permanent ("Max controls Kai's Atraxa since last turn (Control Magic)"), and a "can't lose" effect - said
outright ("Owen can't lose the game") or as a card a player controls whose Oracle text says so ("Owen controls
Platinum Angel", "Pia has a Platinum Angel out"). ``services.ask_what_if`` sets these on the table before the
situation is read; each is said back in the answer's "The question's table: ...".

A card is read only from the card snapshot (``lookup``: ``card_sources.oracle_text``): a name it doesn't know,
or a card that says no such thing, is left in the question (the search answers it), never guessed.

>>> said = said_states("Max controls Kai's Atraxa since last turn (Control Magic). Atraxa hits Lux.",
...                    {"players": ["Kai", "Lux", "Max"], "permanents": {"Atraxa": {"owner": "Kai"}}})
>>> said.text, said.game["permanents"]["Atraxa"], said.said
('Atraxa hits Lux.', {'owner': 'Kai', 'controller': 'Max'}, ('Max controls Atraxa',))
>>> said_states("Ann can't lose the game and takes 30 damage. Is she out?", {"players": ["Ann", "Ben"]})
StatesSaid(text='Ann takes 30 damage. Is she out?', game={'players': ['Ann', 'Ben'], \
'effects': [{'cant-lose': 'Ann'}]}, said=("Ann can't lose the game",))
>>> said_states("Ben's Bear hits Ann. Is Ann out? she's on 5", {"players": ["Ann", "Ben"]}).game["life"]
{'Ann': 5}
>>> said_states("Ben hits Ann. Did Ann beat Ben? she's on 5", {"players": ["Ann", "Ben"]}).said  # whom?
()
>>> said_states("Dan can't lose the game. He takes 30 damage.", {"players": ["Cat", "Dan"]}).text
'Dan takes 30 damage.'
>>> said = said_states("Dan attacks Cat with Zur. Zur is a 6/6 and unblocked. Cat's life?",
...                    {"players": ["Cat", "Dan"], "permanents": {"Zur": {"owner": "Dan"}}})
>>> said.text, said.game["permanents"]["Zur"]
("Dan attacks Cat with Zur, unblocked. Cat's life?", {'owner': 'Dan', 'power': 6, 'toughness': 6})
>>> said_states("Rosa controls Theo's Angel (Mind Control).", {"players": ["Rosa", "Theo"]}).game[
...     "permanents"]
{'Angel': {'owner': 'Theo', 'controller': 'Rosa'}}
>>> said_states("Dan's commander Zur has hit Cat for 9.", {"players": ["Cat", "Dan"]})
StatesSaid(text='Zur has hit Cat for 9.', game={'players': ['Cat', 'Dan'], 'permanents': \
{'Zur': {'owner': 'Dan', 'commander': True}}, 'commander': True}, said=("Zur is Dan's commander",))
>>> said_states("edh: zoe takes 21 from mia's general", {"players": ["Mia", "Zoe"]}).game["permanents"]
{"Mia's commander": {'owner': 'Mia', 'commander': True}}
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: a card's name -> (name, type line, Oracle text), or None for no such card
Lookup = Callable[[str], "tuple[str, str, str] | None"]

_NAME = r"[A-Za-z][\w'-]*"
_CARD = r"(?-i:[A-Z][\w'-]*(?: (?:of |the )?[A-Z][\w'-]*){0,3})"
#: where a fact ends: its sentence's stop, or "and" going on with the same subject ("... and drops to 0")
_END = r"(?:(?P<and>,? and )|[.;!?]\s*|,\s*|$)"
_START = r"(?:^|(?<=[.;!?] )|(?<=, ))"
#: how a control change is said beside it: "through a Mind Control effect", "via control magic", "with a
#: Threaten until end of turn": at most four words (and how long), never the rest of a message typed
#: without stops ("... through a mind control effect ann concedes who controls the angel")
_HOW = r"(?: (?:through|via|with|thanks to|because of|from|using|by) (?:an? |the |her |his |their )?" \
    r"[^\s.;!?(),]+(?: [^\s.;!?(),]+){0,3}?" \
    r"(?: (?:until|till|for) (?:the )?end of (?:the |this )?turn)?)?"
#: a permanent said with its owner ("Theo's Angel", "nora's 4/4 angel"): the table's, or one the question adds
_OWNED = rf"(?:(?P<owner>{_NAME})'s )?(?:(?P<p>\d{{1,2}})/(?P<t>\d{{1,2}}) )?(?P<perm>{_NAME})"
_CONTROLS = re.compile(
    rf"{_START}(?P<who>{_NAME}) (?P<verb>controls|has controlled|has had|has) {_OWNED}"
    rf"(?: since [^.;!?()]+?)?{_HOW}(?: \((?P<by>[^()]+)\))?{_END}", re.IGNORECASE)
#: "Korvold is 4/4.", "Korvold is a 4/4 and unblocked": a permanent's size, said as a fact of the table's
#: creature (its "unblocked" goes back to the attack said before it)
_SIZE = re.compile(
    rf"(?:(?P<stop>[.;!?] )|{_START})(?P<perm>{_NAME}) (?:is|'s) (?:a |an )?(?P<p>\d{{1,2}})/(?P<t>\d{{1,2}})"
    rf"(?: creature)?(?P<unblocked>,? (?:and )?unblocked)?{_END}", re.IGNORECASE)
#: "Tymna (2/2) has hit Rosa", "Korvold, a 6/6, hits": a permanent's size said beside its name
_SIZE_BESIDE = re.compile(rf"\b(?P<perm>{_NAME})(?: \((?P<p>\d{{1,2}})/(?P<t>\d{{1,2}})\)|, (?:a |an )?"
                          rf"(?P<p2>\d{{1,2}})/(?P<t2>\d{{1,2}}),)")
#: "Jules owns a Sphinx that Rosa has stolen": the owner said first, the controller in a relative clause
_OWNS = re.compile(
    rf"{_START}(?P<owner>{_NAME}) owns (?:a |an |the )?(?:(?P<p>\d{{1,2}})/(?P<t>\d{{1,2}}) )?"
    rf"(?P<perm>{_NAME}) "
    rf"(?:that|which) (?P<who>{_NAME}) (?:has stolen|stole|has taken|took|controls|has|gained control of|"
    rf"has gained control of){_HOW}(?: \((?P<by>[^()]+)\))?{_END}", re.IGNORECASE)
_CANT_LOSE = re.compile(rf"{_START}(?P<who>{_NAME}) (?:can't|cannot|can not) lose(?: the game)?"
                        rf"(?: this turn)?{_END}", re.IGNORECASE)
_HAS_CARD = re.compile(
    rf"{_START}(?P<who>{_NAME})(?:, (?P<appos>(?:the |an? )?(?:emperor|general|monarch|leader|guardian|"
    rf"assassin|traitor|active player)),)? (?:controls|has|has got|'s got|puts out) (?:a |an |the )?"
    rf"(?P<card>{_CARD})"
    rf"(?: out| in play| on the battlefield| on board)?{_END}", re.IGNORECASE)
#: "Quinn is at 1 life and has Platinum Angel out": a second fact of the same subject, said as its own
_AND_HAS = re.compile(rf"{_START}(?P<who>{_NAME}) (?P<fact>(?:is|'s) (?:at|on) \d{{1,3}}(?: life)?) and "
                      rf"(?P<verb>has|controls|has got) ", re.IGNORECASE)
#: "Is Nia out? she's on 5": a total said after the question, of the one player the question names
_AFTERTHOUGHT = re.compile(r"(?P<q>[^.;!?]+[?.!]) (?P<p>he|she|they)(?:'s| is| are) (?:on|at) "
                           r"(?P<n>\d{1,3})(?: life)?[.!]?$", re.IGNORECASE)
#: "we're all at 1", "Noah and Owen are at 1 life each": one total said of several players, each their own
_ALL_AT = re.compile(rf"{_START}(?:we(?:'re| are)|they(?:'re| are)|everyone(?:'s| is)|everybody(?:'s| is)) "
                     rf"all (?:at|on) (?P<n>\d{{1,3}})(?: life)?{_END}", re.IGNORECASE)
_EACH_AT = re.compile(rf"{_START}(?P<list>{_NAME}(?:, {_NAME})*,? and {_NAME}) are (?:both |all )?(?:at|on) "
                      rf"(?P<n>\d{{1,3}})(?: life)? each{_END}", re.IGNORECASE)
#: "Dan's commander Zur": a commander the table doesn't have yet, named with its owner (903.3)
_COMMANDER = re.compile(rf"\b(?P<who>{_NAME})'s commander (?P<c>{_CARD}|(?-i:[a-z][\w'-]*))\b")
#: words after "X's commander" that are never its name ("Tam's commander hits her", "commander is a 7/7")
_NOT_A_NAME = frozenset((
    "is", "was", "has", "had", "hits", "hit", "deals", "dealt", "attacks", "attacked", "swings", "swung",
    "gets", "got", "and", "but", "then", "in", "on", "for", "to", "from", "with", "again", "once", "twice",
    "damage", "the", "a", "an", "so", "now", "dies", "died", "connects", "goes", "went", "can", "does",
    "did", "will", "would", "that", "which",
))
#: "Mia's general", "rex's commander" with no name: a commander of a player who owns none on the table yet
#: (903.3; "general" is the players' word for it), never "Mia's commander damage" or "... tax"
_UNNAMED_COMMANDER = re.compile(rf"\b(?P<who>{_NAME})'s (?:commander|general)\b(?! damage| tax| zone|'s)",
                                re.IGNORECASE)
_DEALS_DAMAGE = re.compile(r"(?i)\b(?:hits?|hit|attacks?|attacked|swings?|swung|deals?|dealt|connects?|"
                           r"smacks?|damage|combat)\b")
#: a Commander game said in the question ("edh", "commander game", "Commander: ...", "commander damage")
_SAYS_COMMANDER_GAME = re.compile(r"(?i)\b(?:(?:edh|cedh|commander (?:game|pod|match|table|format|damage)|"
                                  r"(?:playing|in|it'?s) commander)\b|commander:)")
_SAYS_CANT_LOSE = re.compile(r"(?i)\byou can't lose the game\b")
_SAYS_CANT_WIN = re.compile(r"(?i)\byour opponents can't win the game\b")


def _going_on(match: re.Match[str], who: str) -> str:
    """What replaces a fact taken out: nothing, or its subject when the sentence goes on with "and"; a
    sentence taken out whole leaves its subject for a pronoun opening the next ("Dan has a Platinum Angel.
    He takes 30 damage": :func:`_named_again`)."""
    # "... via Control Magic and Ben leaves": a name after "and" is the next clause's own subject
    goes_on = match["and"] and not re.match(r"(?-i:[A-Z])[\w'-]* (?-i:[a-z])", match.string[match.end():])
    return f"{who} " if goes_on else f"\0{who}\0"


def _named_again(text: str) -> str:
    """The subject of a fact sentence taken out, for a pronoun starting the sentence after it; dropped
    elsewhere."""
    text = re.sub(r"\0(?P<who>[^\0]+)\0\s*(?P<p>he|she|they)\b(?!')", r"\g<who>", text, flags=re.IGNORECASE)
    return re.sub(r"\0[^\0]*\0", "", text)


#: what a player "has" of another's that is no permanent ("Ann has Ben's turn", "... Ben's attention")
_NOT_PERMANENTS = frozenset(("turn", "life", "monarch", "crown", "initiative", "commander", "team", "seat",
                             "deck", "library", "hand", "graveyard", "vote", "back", "card", "cards",
                             "attention", "permission", "blessing", "mana", "spell", "number", "spot",
                             "place", "emblem"))


def _a_permanent(match: re.Match[str]) -> bool:
    """Is the thing said to be controlled a permanent the question adds ("Rosa controls Theo's Angel")? Said
    with "has", only a name ("Theo has Mika's Titan") or a creature's size ("has Ann's 2/2 bear").

    >>> said = ("Ann has Ben's turn", "Ann has Ben's Wolf", "Ann controls Ben's wolf")
    >>> [_a_permanent(m) for m in map(_CONTROLS.match, said) if m]
    [False, True, True]
    """
    perm = match["perm"]
    if perm.lower() in _NOT_PERMANENTS:
        return False
    return match.groupdict().get("verb", "").lower() != "has" or perm[:1].isupper() or bool(match["p"])


@dataclass(frozen=True)
class StatesSaid:
    """The question without the states it said, the table with them, and each in words."""

    text: str
    game: dict[str, Any]
    said: tuple[str, ...] = ()


def _seats(game: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in game.get("players") or [p for team in game.get("teams") or () for p in team]]


def _player(name: str, game: Mapping[str, Any]) -> str | None:
    return next((p for p in _seats(game) if p.casefold() == name.casefold()), None)


def said_states(text: str, game: Mapping[str, Any], lookup: Lookup | None = None) -> StatesSaid:
    """The control and "can't lose" states ``text`` says, set on a copy of ``game`` (see the module)."""
    table = copy.deepcopy(dict(game))
    said: list[str] = []
    permanents = table.setdefault("permanents", {})  # one dict: a commander said first, then its size

    def control(match: re.Match[str]) -> str:
        who = _player(match["who"], table)
        perm = next((p for p in permanents if p.casefold() == match["perm"].casefold()), None)
        owner_said = _player(match["owner"], table) if match["owner"] else None
        if who is not None and perm is None and owner_said is not None and owner_said != who and \
                _a_permanent(match):
            # "Rosa controls Theo's Angel": a permanent the table doesn't have, its owner and controller said
            perm = match["perm"][:1].upper() + match["perm"][1:]
            table["permanents"] = permanents
            size = {"power": int(match["p"]), "toughness": int(match["t"])} if match["p"] else {}
            permanents[perm] = {"owner": owner_said, **size}
        if who is None or perm is None or not isinstance(permanents[perm], dict):
            return match[0]
        owner = permanents[perm].get("owner")
        if match["owner"] and (owner is None or str(owner).casefold() != match["owner"].casefold()):
            return match[0]  # "Max controls Lux's Atraxa" where Kai owns it: not this table, left as said
        if who != owner:
            permanents[perm] = {**permanents[perm], "controller": who}
        said.append(f"{who} controls {perm}")
        return _going_on(match, who)

    def cant_lose(match: re.Match[str]) -> str:
        who = _player(match["who"], table)
        if who is None:
            return match[0]
        table.setdefault("effects", []).append({"cant-lose": who})
        said.append(f"{who} can't lose the game")
        return _going_on(match, who)

    def card(match: re.Match[str]) -> str:
        who = _player(match["who"], table)
        found = lookup(match["card"]) if lookup is not None and who is not None else None
        if who is None or found is None or not _SAYS_CANT_LOSE.search(found[2]):
            return match[0]
        name, type_line, oracle = found
        if name in permanents:
            return match[0]  # a permanent of the table's already: its own controller decides
        kind = next((k for k in ("creature", "planeswalker", "battle", "artifact", "enchantment", "land")
                     if k in type_line.lower()), "artifact")
        table.setdefault("permanents", {})[name] = {"owner": who, "kind": kind}
        # "You can't lose the game" and "your opponents can't win": of its controller (109.5)
        table.setdefault("effects", []).append({"cant-lose": {"controller-of": name}})
        if _SAYS_CANT_WIN.search(oracle):
            table["effects"].append({"cant-win": {"opponents-of": name}})
        said.append(f"{who} controls {name} ({'; '.join(oracle.splitlines()[-1:])})")
        # "Fin, the emperor, has ...": the apposition stays, said as its own fact for the situation to check
        role = f"{who} is {match['appos']}. " if match["appos"] else ""
        return role + _going_on(match, who)

    def size(match: re.Match[str]) -> str:
        perm = next((p for p in permanents if p.casefold() == match["perm"].casefold()), None)
        if perm is None or not isinstance(permanents[perm], dict):
            return match[0]
        power, toughness = int(match["p"] or match["p2"]), int(match["t"] or match["t2"])
        permanents[perm] = {**permanents[perm], "power": power, "toughness": toughness}
        said.append(f"{perm} is {power}/{toughness}")
        if "p2" in match.re.groupindex:  # said beside the name: the name stays
            return perm
        if match["unblocked"] and match["stop"]:  # "... with Korvold. Korvold is a 4/4 and unblocked."
            return ", unblocked" + (". " if match.end() < len(match.string) else "")
        return (match["stop"] or "") + _going_on(match, perm)

    def afterthought(match: re.Match[str]) -> str:
        names = {p for p in (_player(w, table) for w in re.findall(_NAME, match["q"])) if p}
        if len(names) != 1 or match["p"].lower() == "they":
            return match[0]
        who = names.pop()
        table.setdefault("life", {})[who] = int(match["n"])
        said.append(f"{who} is at {match['n']} life")
        return match["q"]

    def commander(match: re.Match[str]) -> str:
        who = _player(match["who"], table)
        name = match["c"]
        if who is None or any(p.casefold() == name.casefold() for p in permanents):
            return match[0]
        if name.islower():
            # "tam's commander grul": a name typed in lower case, only where the story names it again
            # ("grul is a 7/7 and hits her"); never a word that goes on the sentence
            again = len(re.findall(rf"(?i)\b{re.escape(name)}\b", text)) > 1
            if name in _NOT_A_NAME or _player(name, table) or not again:
                return match[0]
            name = name.capitalize()
        permanents[name] = {"owner": who, "commander": True}
        if not table.get("commander") and table.get("variant") != "commander":
            table["commander"] = True  # a commander named is a Commander game's (903.3)
        said.append(f"{name} is {who}'s commander")
        return name

    def unnamed(match: re.Match[str]) -> str:
        # only as what deals damage ("Mia's general hits Zoe", "21 from Mia's commander"): "Mia's commander
        # is in the command zone" is no creature on the battlefield
        near = match.string[max(0, match.start() - 12): match.end() + 50]
        before = match.string[:match.start()]
        dealing = re.search(r"(?i)\b(?:from|by)\s*$", before) or _DEALS_DAMAGE.search(near)
        who = _player(match["who"], table) if commander_game and dealing else None
        if who is None or any(isinstance(p, dict) and p.get("commander") and p.get("owner") == who
                              for p in (table.get("permanents") or {}).values()):
            return match[0]  # a name not at the table; a commander the table has (the reader finds it)
        name = f"{who}'s commander"
        table.setdefault("permanents", {})[name] = {"owner": who, "commander": True}
        said.append(f"{who} has a commander")
        return name

    def totals(match: re.Match[str]) -> str:
        everyone = match.groupdict().get("list") is None
        names = _seats(table) if everyone else [_player(n, table) for n in re.findall(_NAME, match["list"])
                                                   if n.lower() != "and"]
        if not names or None in names or table.get("variant") == "two-headed-giant":
            return match[0]  # a name not at the table; a shared team total (810.9) is the situation's
        for who in names:
            table.setdefault("life", {})[str(who)] = int(match["n"])
        said.append(f"{'everyone' if everyone else ', '.join(str(n) for n in names)} at {match['n']} life")
        return ""

    text = _AND_HAS.sub(lambda m: f"{m['who']} {m['fact']}. {m['who']} {m['verb']} ", text.strip())
    text = _AFTERTHOUGHT.sub(afterthought, text)
    text = _ALL_AT.sub(totals, text)
    text = _EACH_AT.sub(totals, text)
    text = _COMMANDER.sub(commander, text)
    # only in a Commander game, the table's or the one the question says: elsewhere "Ann's commander hits
    # Ben" is a creature she controls (the reader's plain hit)
    commander_game = table.get("commander") is True or bool(_SAYS_COMMANDER_GAME.search(text))
    text = _UNNAMED_COMMANDER.sub(unnamed, text)
    text = _SIZE.sub(size, text)
    text = _SIZE_BESIDE.sub(size, text)
    text = _CONTROLS.sub(control, text)
    text = _OWNS.sub(control, text)
    text = _CANT_LOSE.sub(cant_lose, text)
    text = _HAS_CARD.sub(card, text)
    text = re.sub(r"^(?:and |, )", "", " ".join(_named_again(text).split()), flags=re.IGNORECASE)
    if not permanents:
        table.pop("permanents")
    return StatesSaid(text, table, tuple(said))
