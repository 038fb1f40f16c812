"""Spells named by their card, read by their Oracle text (:mod:`..cards`): "Olive casts Lightning Bolt at
Liam" is 3 damage to Liam from Olive's spell (Lightning Bolt's text says so), never a guessed amount. A card
whose text is anything but "deals N damage to" one target is not read here (the search answers)."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.cards import card_said, control_card, damage_card
from rulesjudge.app.whatif.events.players import _MODAL, _free_words
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()


@PATTERNS(
    rf"{_X} {_MODAL}(?:casts|cast|throws|threw|fires off|fired off|points|pointed|aims|aimed|uses|used|"
    rf"plays|played) (?P<card>{_free_words(4)}) (?:at|on|targeting|to the face of|into) {_Y}",
)
def _h_damage_spell(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Olive casts Lightning Bolt at Liam": the card's damage to the player (120.3a: life lost), from a
    spell Olive controls, outside combat (no designation moves, 725.2, 726.2)."""
    if not reader.facts.events or not reader.facts.knows_event("damage"):
        return None
    card = card_said(reader.facts.cards, match["card"])
    if card is None:
        return None
    amount = damage_card(card[0], card[2])
    if amount is None and control_card(*card) is not None:
        return None  # "uses Mind Control on the Wurm": a steal, the permanents' reading says what it does
    if amount is None:
        raise _Unknown(f"what does {card[0]} do here? its Oracle text is more than damage to one target",
                       match["card"])
    source = reader.refer(match["x"], one=True, alone=True)
    target = reader.affected(reader.refer(match["y"], one=True, alone=True))
    a, t = source.players[0], target.players[0]
    return _Happening(({"damage": {"to": t, "amount": amount, "from": a}},),
                      f"{source.words}'s {card[0]} deals {amount} damage to {target.words}", (a, t),
                      extra=(f"life({t})",))
