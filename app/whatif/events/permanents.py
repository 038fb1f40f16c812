"""Events about the permanents on the table by name: control changing hands ("Ann gains control of the Ogre",
"Ben steals the Wolf with Mind Control", "... until end of turn"). A creature's attack by its name is read
with the players' hits (:mod:`.players`), as a commander's is."""

from __future__ import annotations

import re
from typing import Any

from rulesjudge.app.whatif.cards import ControlCard, card_said, control_card, verb_forms
from rulesjudge.app.whatif.events.combat import turn_of
from rulesjudge.app.whatif.events.players import _MODAL, _WORD, _free_words
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar, _said
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.references import _POSS, _creature_named, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()
_UNTIL_EOT = r" until (?:the )?end of (?:the )?turn| till end of turn| until eot| for the turn| this turn"
_EOT = rf"(?P<eot>{_UNTIL_EOT})?"
_EOT_AFTER = rf"(?P<eot2>{_UNTIL_EOT})?"  # "with a threaten effect till end of turn": said after the card
#: what it was done with: "with Mind Control", "using a threaten effect"; or said aside, after a comma or in
#: brackets (normalised to a comma): "..., Act of Treason" - read only when the words name a card
_CARD = rf"(?:(?: (?:with|using|via|through) (?P<card>{_free_words(4)}))|(?:, (?P<aside>{_free_words(4)})))?"


#: what the card does, said aside after it: "(untap + haste)", ", untaps it and gives it haste" - checked
#: against the card's Oracle text, never played from the words
_DOING = r"(?:it )?(?:untaps?|untapped|haste|hasty|gains? haste|gives? it haste|gets? haste)"
_DOES = rf"(?:,? (?P<does>{_DOING}(?: ?(?:\+|and|&|,|plus|with) ?{_DOING})*))?"


#: "steals the wolf for good": no end said, as a steal with none (the model's control change lasts)
_FOR_GOOD = r"(?: for good| permanently| forever| for keeps| for the rest of the game)?"


@PATTERNS(
    rf"{_X} {_MODAL}(?:gains|gain|gained|gets|get|got|takes|take|took|steals|stole|steal) control of "
    rf"{_Y}{_FOR_GOOD}{_EOT}{_CARD}{_EOT_AFTER}{_DOES}",
    rf"{_X} {_MODAL}(?:steals|stole|steal|borrows|borrowed|snags|snagged|takes|took|take|grabs|grabbed|"
    rf"nabs|nabbed) {_Y}{_FOR_GOOD}{_EOT}{_CARD}{_EOT_AFTER}",
    rf"{_Y} (?:gets|got|is|was) (?:stolen|taken|borrowed) by {_X}{_EOT}{_CARD}{_EOT_AFTER}",
    # "Ben gives control of his Goblin to Cat": the one it is given to gains control
    rf"(?P<giver>.+?) {_MODAL}(?:gives|gave|give|hands|handed|passes|passed) (?:control of )?{_Y} "
    rf"to {_X}{_EOT}{_CARD}{_EOT_AFTER}",
    # "Mia casts Act of Treason on the Dragon", "Noah uses Threaten on the Bear": the card says what it does
    rf"{_X} {_MODAL}(?:casts|cast|plays|played|play|uses|used|use) (?P<spell>{_free_words(4)}) "
    rf"(?:on|targeting|to (?:steal|take)) {_Y}{_EOT}{_DOES}",
    rf"{_X} {_MODAL}(?:enchants|enchanted|enchant) {_Y} with (?P<aura>{_free_words(4)})",
)
def _h_gain_control(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Ann gains control of the Ogre", "Ben steals the Wolf with Mind Control", "... until end of turn":
    a control-changing effect (613.1b); when the player leaves it ends (800.4a). A card named is read by its
    Oracle text (:mod:`..cards`): how long the control lasts, untap, haste, a sorcery's turn (307.1)."""
    if not reader.facts.events or not reader.facts.knows_event("gain-control"):
        return None
    creature = _creature_named(reader, match["y"])
    if creature is None:
        return None
    aside = match.groupdict().get("aside")
    said = _said(match, "card", "spell", "aura") or aside
    control = _control_by(reader, said) if said else None
    if aside and control is None:
        return None  # words after a comma that name no card: another clause, read on its own
    if (match.groupdict().get("spell") or match.groupdict().get("aura")) and control is None:
        return None
    _check_said_effects(match.groupdict().get("does"), control, match[0])
    if match.groupdict().get("giver"):
        reader.refer(match["giver"], one=True)  # who gives it changes nothing, but must be someone here
    who = reader.refer(match["x"], one=True, alone=True)
    player = who.players[0]
    turn = turn_of(reader, player, f"{control.name} is cast in its controller's own main phase (117.1a)") \
        if control is not None and control.own_turn else ()
    event: dict[str, Any] = {"permanent": creature, "player": player}
    eot = bool(_said(match, "eot", "eot2")) or (control is not None and control.until_end_of_turn)
    if eot:
        event["until"] = "end-of-turn"
    if control is not None and control.untap:
        event["untap"] = True
    if control is not None and control.haste:
        event["haste"] = True
    words = (f"on {player}'s turn, " if turn else "") + f"{who.words} gains control of {creature}" + \
        (" until end of turn" if eot else "") + (f" ({control.name})" if control is not None else "")
    return _Happening((*turn, {"gain-control": event}), words, who.players,
                      extra=(f"controller({creature})",))


def _check_said_effects(does: str | None, control: ControlCard | None, words: str) -> None:
    """What the question says the card does ("untap + haste") must be what its Oracle text does: the model
    plays the text, so words that disagree (or name no card) are asked about, never dropped."""
    if not does:
        return
    if control is None:
        raise _Unknown(f"which card does '{does}'? name it (its Oracle text says what it does)", words)
    said = {"untap": "untap" in does.lower(), "haste": bool(re.search(r"(?i)hast", does))}
    has = {"untap": control.untap, "haste": control.haste}
    wrong = [what for what in said if said[what] and not has[what]]
    if wrong:
        raise _Unknown(f"{control.name}'s Oracle text gives no {' or '.join(wrong)}: which card is it?",
                       words)


def _control_by(reader: _Reader, words: str) -> ControlCard | None:
    """The control-changing card some words name, or None when they name no card; a card that gives no
    control, or gives it for a time the model doesn't play ("for as long as ..."), is refused by name."""
    found = card_said(reader.facts.cards, words)
    if found is None:
        return None
    control = control_card(*found)
    if control is None:
        raise _Unknown(f"{found[0]} gives no control of a creature (its Oracle text)", words)
    if not control.playable:
        raise _Unknown(f"{found[0]}'s control lasts '{control.lasts} ...': not played here", words)
    return control


@PATTERNS(
    rf"{_Y} {_MODAL}(?:dies|died|die|is destroyed|gets destroyed|got destroyed|was destroyed|is killed|"
    r"gets killed|got killed|was killed|is put into (?:the|a|its owner's) graveyard)",
    # "dana murders the wall", "Ben kills the Troll with a removal spell": destroyed, by whoever's spell
    rf"{_X} {_MODAL}(?:destroys|destroyed|destroy|kills|killed|kill|murders|murdered|murder|removes|removed|"
    rf"remove) {_Y}(?: with (?:a|an|her|his|their) (?:removal )?(?:spell|kill spell|removal))?",
)
def _h_creature_dies(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "The Troll dies", "Krenko is destroyed", "Dana murders the Wall": the creature goes to its owner's
    graveyard (700.4); a commander's owner may put it into the command zone (903.9a)."""
    if not reader.facts.events or not reader.facts.knows_event("dies"):
        return None
    creature = _creature_named(reader, match["y"])
    if creature is None:
        return None
    if match.groupdict().get("x"):  # who kills it is a player at the table (never a creature: a fight)
        reader.refer(match["x"], one=True, alone=True)
    return _Happening(({"dies": creature},), f"{creature} dies", (), extra=(f"exists({creature})",
                                                                            f"zone({creature})"))


@PATTERNS(rf"{_X} (?P<rest>(?:{_WORD} ){{1,4}}.+)")
def _h_card_as_verb(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """A control card's name said as a verb: "Noah Threatens Olive's Dragon", "Liam mind controls the
    dragon", "Noah Act of Treasons the Bear" (the card's Oracle text says what it does, :mod:`..cards`).
    Tried last: only a clause no other pattern read, whose last words name a creature on the table."""
    if reader.facts.cards is None or not reader.facts.events or not reader.facts.knows_event("gain-control"):
        return None
    words = match["rest"].split()
    # the longest name first: "mind controls" is Mind Control, not "Mind" (a face of Spring // Mind)
    for cut in range(min(4, len(words) - 1), 0, -1):
        target = " ".join(words[cut:])
        # "Ravi threatens Kim's Rat until end of turn": the duration said (and checked) with the card's
        if not _names_a_creature(reader, re.sub(rf"(?i)(?:{_UNTIL_EOT})$", "", target)):
            continue
        for name in verb_forms(" ".join(words[:cut])):
            control = _control_by(reader, name)
            if control is None:
                continue
            # the steal read as if said with the card
            return PATTERNS.first(f"{match['x']} gains control of {target} with {control.name}", reader,
                                  "an event")
    return None


def _names_a_creature(reader: _Reader, text: str) -> bool:
    """Do these words name a creature on the table (as :func:`_creature_named` reads them, without noting
    it)?"""
    name = re.sub(rf"(?i)^(?:the |(?:his|her|their|its|my|your) |[\w-]+(?: [\w-]+)?{_POSS} )", "",
                  text.strip())
    return any(c.casefold() == name.casefold() for c, _controller in reader.facts.creatures)
