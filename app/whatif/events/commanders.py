"""A hit by a commander, told in the players' one-line hits (:mod:`.players`): the commander meant, by its
name, as "Ann's commander" or "Ann's general", and its combat damage counted as commander damage (903.10a);
a hit said as commander damage whose commander is not found is refused, never read as a plain creature's."""

from __future__ import annotations

import re
from typing import Any

from rulesjudge.app.whatif.normalise import _number
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _POSS, _Reader, _Unknown


def _hit_by_commander(reader: _Reader, match: re.Match[str], commander: str, said: str | None) -> _Happening:
    """A hit by a commander, the attack handlers' one branch for it: commander damage (903.10a), where "for
    lethal" is no figure (the commander damage already dealt decides it, not the life total)."""
    if match.groupdict().get("lethal"):
        raise _Unknown("how much is lethal here? say the commander's damage", match["lethal"])
    return _commander_hits(reader, commander, match["y"], said)


def _commander_hits(reader: _Reader, commander: str, target_text: str, said: str | None) -> _Happening:
    """A creature on the table dealing combat damage by its name: its power unless an amount is said; a
    commander's counts as commander damage (903.10a)."""
    target = reader.affected(reader.refer(target_text, one=True, alone=True))
    amount = _number(said, 0)
    hit: dict[str, Any] = {"creature": commander, "to": target.players[0]}
    if amount:
        hit["amount"] = amount
    words = f"{commander} deals {amount or 'its'} combat damage to {target.words}".replace("its combat",
                                                                                         "combat")
    counted = (f"commander-damage({target.players[0]}, {commander})",) if _is_commander(reader, commander) \
        else ()
    controller = next((c for n, c in reader.facts.creatures if n == commander), None)
    players = (*((controller,) if controller else ()), *target.players)
    return _Happening(({"combat-damage": hit},), words, players,
                      extra=(f"life({target.players[0]})", *counted))


def _no_commander_dropped(match: re.Match[str], reader: _Reader) -> None:
    """Refuse a hit said as commander damage ("takes 21 commander damage from Mia's general"), or as a
    commander's in a Commander game, when no commander on the table is the one meant: read as a plain
    creature's, its damage would not count (903.10a) and "is she out?" would be answered no. (At a table
    with no commander, "Ann's commander hits Ben" is a creature she controls.)"""
    said = match[0]
    if re.search(r"(?i)\bcommander damage\b", said) or (
            reader.facts.commanders and re.search(r"(?i)\b(?:commander|general)\b", said)):
        raise _Unknown("which commander deals it? name it or its owner in a Commander game", match[0])


def _is_commander(reader: _Reader, name: str) -> bool:
    return any(c == name for c, _owner in reader.facts.commanders)


def _named_commander(reader: _Reader, text: str) -> str | None:
    """ "Krenko", "Ann's Krenko", "the Ogre" as the one dealing damage: a commander or another creature on the
    table, by its name (its controller is read from the table)."""
    if not reader.facts.knows_question("commander-damage"):
        return None
    # an owner's name is a word or two, never a clause ending in one (as in references._creature_named)
    name = re.sub(rf"(?i)^(?:the |(?:his|her|their|its|my|your) |[\w-]+(?: [\w-]+)?{_POSS} )", "",
                  text.strip())
    named = [c for c, _owner in reader.facts.commanders] + [c for c, _controller in reader.facts.creatures]
    return next((c for c in named if c.casefold() == name.casefold()), None)


def _commander_of(reader: _Reader, owner_text: str, thing: str | None) -> str | None:
    """ "Ann's commander" or "Ann's Krenko": a commander on the table that Ann owns, when the model knows
    creatures in combat (issue 13); None otherwise (the damage is then a creature Ann controls)."""
    if not (reader.facts.commanders or reader.facts.creatures) or \
            not reader.facts.knows_question("commander-damage"):
        return None
    owner = reader.owner(owner_text)
    words = (thing or "").strip().casefold()
    mine = [c for c, o in reader.facts.commanders if o == owner]
    # "Ann's Bear", "Ann attacks with her Ogre": a creature she controls, by its name
    theirs = [c for c, o in reader.facts.creatures if o == owner and c not in mine and
              re.search(rf"(?<![\w'-]){re.escape(c.casefold())}(?![\w'-])", words)]
    if theirs:
        return theirs[0] if len(theirs) == 1 else None
    # "Ann's commander Krenko", "Ann's big Krenko", "with Krenko": its name among the words, else the word
    # "commander" with one commander to mean (read as a plain creature, its damage would not count, 903.10a)
    named = [c for c in mine if re.search(rf"(?<![\w'-]){re.escape(c.casefold())}(?![\w'-])", words)]
    if named:
        return named[0] if len(named) == 1 else None
    if {"commander", "general"} & set(re.findall(r"[\w'-]+", words)):
        return mine[0] if len(mine) == 1 else None
    return None
