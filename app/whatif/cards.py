"""Cards a what-if names for what they do: "Noah Threatens the Dragon", "with Act of Treason", "Liam mind
controls the dragon". A card's name is an effect the reader plays only when its Oracle text says so (the
card snapshot, read through :attr:`TableFacts.cards <rulesjudge.app.whatif.plan.TableFacts.cards>`): a
control-changing effect (613.1b), how long it lasts (until end of turn, 514.2; an Aura's for as long as it is
attached), whether it untaps the creature and gives it haste (702.10b), and whether it is cast only in its
controller's own main phase (a sorcery or an Aura without flash, 117.1a, 307.1). Any other duration ("for as
long as Sower of Temptation remains on the battlefield") is not played: the reader asks or searches rather
than guess.

>>> act = control_card("Act of Treason", "Sorcery", "Gain control of target creature until end of turn. "
...                    "Untap that creature. It gains haste until end of turn.")
>>> act.until_end_of_turn, act.untap, act.haste, act.own_turn
(True, True, True, True)
>>> aura = control_card("Mind Control", "Enchantment — Aura",
...                     "Enchant creature\\nYou control enchanted creature.")
>>> aura.until_end_of_turn, aura.haste, aura.own_turn
(False, False, True)
>>> control_card("Lightning Bolt", "Instant", "Lightning Bolt deals 3 damage to any target.") is None
True
>>> control_card("Sower of Temptation", "Creature", "When this enters, gain control of target creature for "
...              "as long as Sower of Temptation remains on the battlefield.").lasts
'as long as'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

#: A card's name -> (its name, type line, Oracle text), faces joined; None: no card of that name.
CardLookup = Callable[[str], "tuple[str, str, str] | None"]

_AURA = re.compile(r"(?i)\byou control enchanted (?:creature|permanent)\b")
_GAINS = re.compile(r"(?i)\bgain control of (?:target|that|it|another target|up to one target)\b|"
                    + _AURA.pattern.removeprefix("(?i)"))
_UNTIL_EOT = re.compile(r"(?i)gain control of [^.]*until end of turn|until end of turn, gain control")
_OTHER_DURATION = re.compile(r"(?i)gain control of [^.]*\b(?:for as long as|until your next turn|until)\b")
_UNTAP = re.compile(r"(?i)\buntap (?:target creature|that creature|that permanent|it|and goad)\b")
_HASTE = re.compile(r"(?i)\b(?:gains|gain|it gains|and it gains) haste\b")


@dataclass(frozen=True)
class ControlCard:
    """A card whose Oracle text gives control of a creature, read for what the model plays."""

    name: str
    until_end_of_turn: bool
    untap: bool
    haste: bool
    own_turn: bool  # not an instant, no flash: cast in its controller's main phase (117.1a, 307.1)
    lasts: str = ""  # "" (until end of turn, or indefinitely), or the duration the reader doesn't play

    @property
    def playable(self) -> bool:
        """Is its duration one the model knows (until end of turn, or for as long as an Aura stays)?"""
        return not self.lasts


def control_card(name: str, type_line: str, text: str) -> ControlCard | None:
    """What ``name``'s Oracle text does with control, or None when it gives no control of a creature."""
    if not _GAINS.search(text):
        return None
    eot = bool(_UNTIL_EOT.search(text))
    lasts = ""
    if not eot and not _AURA.search(text):
        other = _OTHER_DURATION.search(text)
        lasts = "as long as" if other and "as long as" in other[0].lower() else ("until" if other else "")
    return ControlCard(name, eot, bool(_UNTAP.search(text)), bool(_HASTE.search(text)),
                       _own_turn(type_line, text), lasts)


def _own_turn(type_line: str, text: str) -> bool:
    """Is it cast only in its controller's own main phase (117.1a): not an instant, without flash?"""
    return "instant" not in type_line.lower() and not re.search(r"(?im)^flash\b", text)


#: "a threaten effect", "an Act of Treason", "Mind Control", "his control magic": the card's name alone
_DRESSING = re.compile(r"(?i)^(?:(?:a|an|the|his|her|their|my|some)(?:'s)? )?(?P<name>.+?)"
                       r"(?: (?:effect|spell|aura|card|ability))?$")


def card_said(lookup: CardLookup | None, words: str) -> tuple[str, str, str] | None:
    """The card some words name ("a threaten effect" is Threaten), or None.

    >>> cards = {"threaten": ("Threaten", "Sorcery", "...")}
    >>> card_said(lambda n: cards.get(n.lower()), "a threaten effect")
    ('Threaten', 'Sorcery', '...')
    >>> card_said(None, "Threaten") is None
    True
    """
    if lookup is None:
        return None
    said = _DRESSING.fullmatch(words.strip())
    if said is None:
        return None
    return lookup(said["name"])


def verb_forms(verb: str) -> tuple[str, ...]:
    """A card's name used as a verb, back to the names it may be: "Threatens" -> Threaten, "mind controls"
    -> mind control, "Act of Treasons" -> Act of Treason, "Threatened", "Act of Treason'd".

    >>> verb_forms("Threatens")
    ('Threatens', 'Threaten')
    >>> verb_forms("Enslaved")
    ('Enslaved', 'Enslav', 'Enslave')
    >>> verb_forms("Act of Treason'd")
    ("Act of Treason'd", 'Act of Treason')
    """
    forms = [verb]
    for ending, put in (("'d", ""), ("'s", ""), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        if verb.endswith(ending):
            forms.append(verb[: -len(ending)] + put)
    return tuple(dict.fromkeys(f for f in forms if f))


_ONE_TARGET = (r"(?:any target|target player or planeswalker|target creature or player|target player|"
               r"target opponent)")


def damage_card(name: str, text: str) -> int | None:
    """The damage a spell whose whole Oracle text deals N damage to one target deals, or None (any other
    text: a second effect, several targets, an amount the card computes).

    >>> damage_card("Lightning Bolt", "Lightning Bolt deals 3 damage to any target.")
    3
    >>> damage_card("Lava Axe", "Lava Axe deals 5 damage to target player or planeswalker.")
    5
    >>> damage_card("Lightning Helix", "Lightning Helix deals 3 damage to any target and you gain 3 life.")
    >>> damage_card("Fireball", "This spell costs {1} more ... Fireball deals X damage divided evenly ...")
    """
    plain = re.sub(r"\s*\([^)]*\)", "", text).strip()
    found = re.fullmatch(rf"(?:{re.escape(name)}|this spell) deals (?P<n>\d+) damage to {_ONE_TARGET}\.",
                         plain, re.IGNORECASE)
    return int(found["n"]) if found else None

