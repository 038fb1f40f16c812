"""Events that happen to players: leaving, conceding, being decked, damage (combat, commander,
noncombat). Life, cards, poison, extra turns, priority, designations, winning, unveiling:
:mod:`standing`."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rulesjudge.app.whatif.cards import card_said, damage_card, verb_forms
from rulesjudge.app.whatif.events.combat import turn_of
from rulesjudge.app.whatif.events.commanders import (
    _commander_hits,
    _commander_of,
    _hit_by_commander,
    _named_commander,
    _no_commander_dropped,
)
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar, _said
from rulesjudge.app.whatif.normalise import _NUMBER, _names, _number
from rulesjudge.app.whatif.plan import Event, _Happening
from rulesjudge.app.whatif.references import _POSS, Ref, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()


_MODAL = r"(?:(?:just|already|also|suddenly|finally|then|now|accidentally) )?(?:(?:were|was|is going|" \
    r"are going|decides|decided|decide|has|have|had|wants|want|chooses|choose|would|" \
    r"should|will|did|does|do|gets|get|needs|need|must|might|may|could) (?:to )?)?"
_CONCEDE = r"(?P<concede>concedes|conceded|concede|conceding|scoops|scooped|scoop|scoops up|scoop up|" \
    r"scoops it up|" \
    r"forfeits|forfeit|forfeited|gives up|give up|gave up|resigns|resign|resigned|has conceded|" \
    r"have conceded|" \
    r"taps the deck|extends the hand)"
_LOSE = r"(?P<lose>loses|lost|lose|dies|died|die|is eliminated|are eliminated|gets eliminated|" \
    r"get eliminated|" \
    r"got eliminated|was eliminated|were eliminated|is knocked out|are knocked out|gets knocked out|" \
    r"get knocked out|got knocked out|was knocked out|were knocked out|" \
    r"gets killed|get killed|is killed|are killed|was killed|got killed|is dead|are dead|has lost|" \
    r"gets taken out|get taken out|is taken out|got taken out|" \
    r"have lost|" \
    r"has died|has been eliminated|have been eliminated|bites the dust|bites it|" \
    r"kicks the bucket|is toast|croaks|is knocked out of the game|" \
    r"goes down|" \
    r"is out|are out|goes out|go out|went out|is down|are down|" \
    r"(?:is|are|was|were)(?: (?:already|both|all|now|also))+ (?:dead|out|eliminated|gone))"  # "are both dead"
_LEAVE = r"(?:leaves|left|leave|leaving|drops|dropped|drop|drops out|drop out|dropped out|quits|quit|" \
    r"is gone|" \
    r"are gone|has left|have left|has already left|have already left|" \
    r"is removed|gets removed|walks away|walks out|has to go|has to leave)"
_GAME = r"(?: (?:the|this) (?:game|table|match|pod))?"
#: "Uma and Vic left" said of several players with no "the game" nor "have": remaining, as often as leaving
_BARE_LEFT = re.compile(r"(?<!has )(?<!have )(?<!had )\bleft(?: (?:already|both|too|as well|now))*$",
                        re.IGNORECASE)
_TOGETHER = r"(?: (?:at the same time|simultaneously|together|both|all|at once|too|as well|first|right now|" \
    r"right away|immediately|earlier|already|previously|a while ago))*"  # the order: reading._reorders


def _leaving_words(ref: Ref, match: re.Match[str]) -> str:
    """ "Ann concedes", "Ann and Ben lose the game", "Cat leaves the game": the judge's own verb, restated."""
    if match.groupdict().get("concede"):
        return f"{ref.words} concede{ref.verb_s}"
    if match.groupdict().get("lose"):
        return f"{ref.words} lose{ref.verb_s} the game"
    return f"{ref.words} leave{ref.verb_s} the game"


#: What a player concedes to ("scooped to a board wipe", "concedes in response to the combo"): why they
#: leave, which changes nothing of what leaving does (104.3a, 800.4a).
_CONCEDED_TO = (
    r"(?: (?:to|in response to|because of) (?:a |an |the )?(?!(?:avoid|end|stop|save)\b)"
    r"(?:board ?wipe|wrath|sweeper|combo|infinite combo|lock|the (?:stack|spell|trigger)|"
    # a card by its name after an article ("scoops to a Cyclonic Rift"): never a player ("concedes to Ben")
    r"(?<=a |n |e )(?-i:[A-Z][\w'-]*(?: (?:of |the )?[A-Z][\w'-]*){0,3}))(?: resolving)?)?"
    # "concedes in response", "scoops mid-combat": when in the turn changes nothing either (a concession
    # is at any time, 104.3a; who is active does not change within a turn, 725.4)
    r"(?: (?:in response(?: to (?:something|anything|it|that|this|a spell|an ability|a trigger))?|mid-combat|"
    r"mid combat|during combat|in combat|before combat|after combat|precombat|pre-combat|at instant speed|"
    r"in (?:the )?(?:first |second |precombat |postcombat )?main(?: phase)?(?: (?:1|2|one|two))?))?")


@PATTERNS(
    rf"{_X}{_TOGETHER} {_MODAL}{_CONCEDE}{_GAME}{_TOGETHER}{_CONCEDED_TO}",
    # "dies to commander damage", "gets taken out by poison": how doesn't change who leaves
    rf"{_X}{_TOGETHER} {_MODAL}{_LOSE}{_GAME}{_TOGETHER}(?: (?:to|by|from) (?:commander damage|combat damage|"
    r"damage|poison|poison counters))?",
    # "Edgar kills Uma with commander damage" (the commander's, 704.6c, 903.10a): she loses
    rf"(?P<c>[A-Za-z][\w'-]*) (?:kills|killed|finishes off|finished off|takes out|took out) {_X} "
    r"(?:with|to|by|from) commander damage",
    rf"{_X} {_MODAL}{_LOSE}{_GAME} (?:to|by|from) commander damage (?:from|by|off) (?P<c2>[A-Za-z][\w'-]*)",
    # "got knocked out by Liam's burn spell", "dies to a Fireball": the cause changes nothing
    rf"{_X}{_TOGETHER} {_MODAL}{_LOSE}{_GAME}{_TOGETHER} (?:to|by|from|with) (?P<by>(?:a |an |the )?"
    r"(?:[\w-]+'s )?(?:burn spell|spell|burn|ability|trigger|board ?wipe|wipe|wrath|sweeper|drain|"
    r"(?-i:[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3}))|"
    r"[\w-]+)"
    # "to a board wipe + drain": two causes, neither changing who leaves
    r"(?: ?(?:\+|&|plus|and) (?:a |an |the )?(?:burn spell|spell|burn|ability|trigger|board ?wipe|wipe|wrath|"
    r"sweeper|drain|combat damage|poison|damage))?",
    rf"{_X}{_TOGETHER} {_MODAL}{_LEAVE}{_GAME}{_TOGETHER}",
)
def _h_leaves(match: re.Match[str], reader: _Reader) -> _Happening:
    commander = match.groupdict().get("c") or match.groupdict().get("c2")
    if commander:
        said = commander.removesuffix("'s").casefold()
        if said not in {name.casefold() for name, _owner in reader.facts.commanders}:
            raise _Unknown(f"not a commander on the table: '{commander}'", commander)
        held = [p for p in reader.refer(match["x"], one=True).players
                if p in (reader.facts.monarch, reader.facts.initiative)]
        if held:  # its combat damage moves the crown or the initiative first (725.2, 726.2): not played here
            raise _Unknown(f"how much combat damage did {commander} deal to {held[0]}? say the amount",
                           commander)
    by = match.groupdict().get("by") or ""
    named = {p.casefold() for p in reader.facts.players}
    if by and not re.search(r"[\s']", by) and by.casefold() not in named:
        raise _Unknown(f"not a player or a source: '{by}'", by)  # "loses by then": not this reading
    conceding = bool(match.groupdict().get("concede"))
    ref = reader.refer(match["x"], one=True)
    players = list(ref.players)
    if len(players) > 1 and _BARE_LEFT.search(match[0]):
        # "Rae, Sol and Tam are gone. Uma and Vic left.": the ones remaining as well as the ones leaving
        raise _Unknown(f"not read: '{match[0]}' (still in, or gone?)", match["x"])
    gone = [p for p in players if p in reader.gone]
    if gone:
        raise _Unknown(f"{_names(gone)} already left the game in this question", match["x"])
    reader.gone.update(players)
    arg: Any = players[0] if len(players) == 1 else players
    return _Happening(({"concedes" if conceding else "leaves": arg},), _leaving_words(ref, match),
                      tuple(players), gone=tuple(players))


@PATTERNS(
    rf"{_X}{_TOGETHER} (?:gets|got|is|was|are|get) decked(?: out)?{_TOGETHER}",
    rf"{_X} (?:decks|decked|deck)(?: out| themselves| himself| herself| themself)?",
    rf"{_X} (?:mills|milled|mill) (?:out|themselves|himself|herself)",
    rf"{_X} {_MODAL}(?:draws?|drew|tries to draw) (?:a card )?(?:from|with|off|out of) (?:an|their|his|"
    rf"her|the) "
    r"empty (?:library|deck)",
    rf"{_X} (?:runs|ran|run) out of (?:cards|library|deck)",
    # "Ann has no cards left in her library and has to draw a card": the draw from an empty library
    rf"{_X} (?:has|had|have) no (?:more )?cards (?:left )?in (?:her|his|their|the)(?:'s)? "
    r"(?:library|deck) and "
    r"(?:has to|had to|must|needs to|is forced to|then) (?:draws?|drew)(?: a card)?",
    # not "Ann can't draw": an effect that stops her drawing makes her draw nothing, and lose nothing (704.5b
    # needs an attempt to draw from an empty library)
)
def _h_decked(match: re.Match[str], reader: _Reader) -> _Happening:
    ref = reader.refer(match["x"], one=True)
    players = list(ref.players)
    reader.gone.update(players)
    arg: Any = players[0] if len(players) == 1 else players
    if reader.facts.knows_event("draw-from-empty") and reader.facts.events:
        event: Event = {"draw-from-empty": arg}
        return _Happening((event,), f"{ref.words} draw{ref.verb_s} from an empty library", tuple(players),
                          gone=tuple(players))
    # 704.5b: a player who attempted to draw from an empty library loses the game (a state-based action).
    return _Happening(({"leaves": arg},),
                      f"{ref.words} draw{ref.verb_s} from an empty library and lose{ref.verb_s} the "
                      f"game (704.5b)",
                      tuple(players), gone=tuple(players))


@PATTERNS(
    # "Ann and Ben both drop to zero at the same time": together, as one event (704.3: one check)
    rf"{_X}{_TOGETHER} (?:goes|go|drops|drop|falls|fall|gets|get|is brought|is reduced|is knocked|"
    r"gets knocked|is taken|gets taken|are brought|are reduced|are knocked|get knocked|are taken|get taken) "
    r"(?:down )?to (?:exactly )?"
    rf"(?:0|zero)(?: life)?{_TOGETHER}",
    rf"{_X}{_TOGETHER} (?:hits|hit|reaches|reach|is at|are at|has|have) (?:0|zero) life{_TOGETHER}",
    # "Sol gets bolted to 0", "Ann got drained to zero": how the total got there changes nothing (704.5a)
    rf"{_X}{_TOGETHER} (?:gets|get|got|is|are|was|were) (?:bolted|burned|burnt|pinged|drained|shocked|"
    rf"blasted|zapped|burned down|dropped|knocked|shot) (?:down )?to (?:0|zero)(?: life)?{_TOGETHER}",
    rf"{_X} {_MODAL}(?:loses|lost|lose|pays|paid|pay) (?:all|all of) (?:their|his|her|its)(?:'s)? "
    r"life(?: total)?",
)
def _h_zero_life(match: re.Match[str], reader: _Reader) -> _Happening:
    ref = reader.refer(match["x"], one=True)
    events: list[Event] = []
    for player in ref.players:
        life = reader.facts.life.get(player)
        if life is None or life <= 0:
            return _h_leaves(match, reader)
        events.append({"lose-life": {"player": player, "amount": life}})
    reader.gone.update(ref.players)
    return _Happening(tuple(events), f"{ref.words} go{'' if ref.verb_s == '' else 'es'} to 0 "
        f"life", ref.players,
                      gone=ref.players)


@PATTERNS(
    rf"{_Y} (?:gets|got|is|was) (?:killed|knocked out|finished off|taken out) by (?:lethal )?combat damage "
    r"from "
    rf"{_X}{_POSS} (?:creature|attacker|creatures|attackers|guy|guys|dude|army)",
    # "Owen loses to combat damage from Mia's creature": the same lethal hit, said with the loss
    rf"{_Y} (?:loses|lost|dies|died|goes down|went down)(?: the game)? (?:to|from) (?:lethal )?combat damage "
    rf"from {_X}{_POSS} (?:creature|attacker|creatures|attackers)",
)
def _h_killed_in_combat(match: re.Match[str], reader: _Reader) -> _Happening:
    """ "Cat gets killed by combat damage from Ben's creature": lethal combat damage from a creature Ben
    controls (the model's ``amount: lethal``, read from Cat's life as it is dealt; 725.2 moves the crown).
    Only the active player's creatures deal combat damage to a player (508.1), and who becomes the monarch
    as Cat leaves turns on whose turn it is (725.4): Ben's, passed to when this is the first event."""
    player = reader.refer(match["x"], one=True, alone=True).players[0]
    turn = turn_of(reader, player, "only the active player's creatures deal combat damage to players (508.1)")
    happening = _combat(reader, match["x"], match["y"], LETHAL)
    words = f"on {player}'s turn, {happening.words}" if turn else happening.words
    return replace(happening, events=(*turn, *happening.events), words=words)


@PATTERNS(
    rf"{_X} (?:gets|got|is|was) (?:burned|burnt|burn) out(?: by {_Y})?",
    rf"{_Y} (?:burns|burned|burnt|burn) {_X} out",
    rf"{_Y} (?:kills|killed|finishes|finished|finishes off|finished off) {_X} (?:off )?with (?:a |an |the |"
    # a spell word, or a card's name ("a Fireball", "Lava Axe"): a source outside combat, amount unsaid
    # said in lower case at a table: the spell words and the burn spells people name ("with a fireball")
    r"(?:his|her|their)(?:'s)? )?(?:(?:burn |x |red )?spell|burn|bolt|lightning bolt|fireball|shock|lava axe|"
    r"instant|sorcery|drain|ping|trigger|ability|effect|(?-i:[A-Z][\w'-]*(?: (?:of |the )?"
    r"[A-Z][\w'-]*){0,3}))",
)
def _h_burned_out(match: re.Match[str], reader: _Reader) -> _Happening:
    """ "Cat gets burned out by Dan", "Dan burns her out": damage outside combat takes Cat's life to 0
    (704.5a); the amount is not said, and only her leaving matters to who holds what (725.4, 726.4)."""
    if match.groupdict().get("y"):
        reader.refer(match["y"], one=True, alone=True)
    return _h_zero_life(match, reader)


_HIT = rf"(?:hits|hit|connects with|connected with|connect with|smacks|smacked|punches|punched|" \
    rf"cracks|cracked|crack|smashes|smashed|bashes|bashed|clocks|clocked|gets through to|" \
    rf"get through to|gets through unblocked to|get through unblocked to|goes unblocked into|" \
    rf"(?:deals|deal|dealt|does|do) (?:(?P<n>{_NUMBER}) )?(?:points? of )?(?:combat )?(?:damage )?to|" \
    r"swings (?:in )?(?:at|into) and hits)"
_FOR = rf"(?: (?:for|with) (?:(?P<amount>{_NUMBER})(?: more)?(?: (?:damage|points?|points? of damage))?" \
    r"(?P<each> each)?|" \
    r"(?P<lethal>lethal|exactly lethal|lethal damage|just enough to kill (?:him|her|them))))?"
#: The amount a creature deals "for lethal": the model's ``amount: lethal`` (the number is the table's).
LETHAL = "lethal"
#: Words that change what a clause means: a name or a card's words taken freely ("with Thassa's Oracle",
#: "'s Grizzly Bears") never swallow them, so "Ann wins with Lab Man unless Ben responds" is not read as a
#: plain win (the search answers it).
_CLAUSE_WORDS = (r"(?:unless|but|except|if|not|no|never|nobody|doesn't|don't|didn't|isn't|aren't|can't|"
                 r"cannot|won't|wouldn't|instead|however|although|though|until|before|after|then|and|or|prevents?|"
                 r"prevented|blocks?|blocked|counters?|countered|responds?)")
#: nor the time a clause's events happen ("... with a spell on Uma's turn": Uma's turn, not the spell's words)
_TURN_SAID = r"(?:on|during|in) [\w'-]+(?: own)? turn\b"
_WORD = rf"(?!{_CLAUSE_WORDS}\b)(?!{_TURN_SAID})[\w/+'.-]+"


def _free_words(most: int) -> str:
    """One to ``most`` words, none of them a clause word."""
    return rf"{_WORD}(?: {_WORD}){{0,{most - 1}}}"


_THING = rf"(?: {_WORD}){{1,3}}?"  # "'s creature", "'s 2/2", "'s Grizzly Bears"
#: what may follow a hit, a comma before it or not ("with a 2/2 bear, unblocked", ", and it connects")
_STEP = r"(?:,? (?:in combat|unblocked|and (?:(?:both|all|it|they|both of them|all of them|all three|" \
    r"all two) )?"\
    r"(?:connects|connect|hits|hit|gets through|get through|deals damage|deal damage|deals combat damage)|" \
    r"and nothing is blocked|with (?:a|one) (?:creature|attacker)|" \
    r"with (?:a|an|one|his|her|their)(?:'s)? \d{1,2}/\d{1,2}(?: [\w-]+)?|" \
    r"and (?:it|they) (?:isn't|aren't|is not|are not) blocked|this turn|during combat|" \
    r"in (?:one|a single) (?:swing|hit|attack|go)))*"


def _combat(reader: _Reader, source_text: str, target_text: str, amount: int | str, creatures: int = 1,
            *, words: str = "", guessed: bool = False) -> _Happening:
    if reader.thing(target_text) is not None:  # "Dan hits Jace for 3": an attack on a permanent, not played
        raise _Unknown(f"not a player: {target_text}", target_text)
    source = reader.refer(source_text, one=True, alone=True)
    target = reader.refer(target_text, one=True, alone=True)
    target = reader.affected(reader.someone_else(target_text, target, source.players[0]))
    a, t = source.players[0], target.players[0]
    if a == t:
        raise _Unknown(f"{a} can't deal combat damage to themselves here", target_text)
    creatures = max(1, min(creatures, 20))
    if creatures == 1 or isinstance(amount, str):  # one hit, or "for lethal" (the model reads the number)
        hit: Any = {"from": a, "to": t, "amount": amount}
        how = f"a creature {source.words} controls deals {amount} combat damage to {target.words}"
    else:
        share = [amount // creatures + (1 if i < amount % creatures else 0) for i in range(creatures)]
        hit = [{"from": a, "to": t, "amount": max(1, n)} for n in share]
        each = f"{share[0]} each" if len(set(share)) == 1 else ", ".join(str(max(1, n)) for n in share)
        how = (f"{creatures} creatures {source.words} controls deal combat damage to {target.words} "
               f"({each}, at the same time)")
    if guessed:  # no amount said: enough for a designation, no figure for a total (the question's check)
        return _Happening(({"combat-damage": hit},), words or how, (a, t), guessed=(t,))
    return _Happening(({"combat-damage": hit},), words or how, (a, t), extra=(f"life({t})",))


@PATTERNS(
    rf"{_X}{_POSS}(?P<thing>{_THING}) {_HIT} {_Y}{_FOR}{_STEP}",
    rf"{_X}{_POSS}(?P<thing>{_THING}) (?:attacks?|attacked|swings? at|swung at|"
    rf"swings? into) {_Y}{_FOR}{_STEP}",
)
def _h_creature_hits(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if _not_combat(match):
        return None
    said = match.groupdict().get("n") or match["amount"]
    commander = _commander_of(reader, match["x"], match["thing"])
    if commander is not None:
        return _hit_by_commander(reader, match, commander, said)
    _no_commander_dropped(match, reader)
    counted = re.fullmatch(rf"(?P<count>{_NUMBER}) of (?P<owner>.+)", match["x"].strip(), re.IGNORECASE)
    if counted and not match.groupdict().get("lethal"):  # "two of Dan's creatures hit Cat for three each"
        creatures = _number(counted["count"])
        each = _number(said, _power(match["thing"]))
        total = each * creatures if match["each"] or not said else each
        return _combat(reader, counted["owner"], match["y"], total, creatures,
                       guessed=_guessed(said, match["thing"]))
    amount = LETHAL if match.groupdict().get("lethal") else _number(said, _power(match["thing"]))
    return _combat(reader, match["x"], match["y"], amount, guessed=_guessed(said, match["thing"]))


def _guessed(said: str | None, thing: str | None) -> bool:
    """Was an attack's amount left unsaid: no number, no creature's power ("a 3/3")?

    >>> _guessed(None, None), _guessed("4", None), _guessed(None, " 3/3 Beast")
    (True, False, False)
    """
    return not said and not re.search(r"\b\d{1,2}/\d{1,2}(?=s?\b)", thing or "")


def _power(thing: str | None) -> int:
    """The power of a creature described as "a 2/2" (1 when not said: enough for any designation).

    >>> _power(" 3/3 Beast"), _power(" dragon")
    (3, 1)
    """
    found = re.search(r"\b(\d{1,2})/\d{1,2}(?=s?\b)", thing or "")  # "a 2/2", "two 2/2s"
    return int(found[1]) if found else 1


#: What deals damage outside combat: "with a spell", "Ben's Shock". Damage from these never moves the crown
#: or the initiative (725.2, 726.2), so it must not be read as a creature's combat damage.
_NONCOMBAT_SOURCES = frozenset((
    "spell", "spells", "ability", "abilities", "effect", "effects", "instant", "sorcery", "burn", "bolt",
    "shock", "fireball", "trigger", "triggers", "ping", "pinger", "card", "enchantment", "artifact",
    "planeswalker", "walker", "fight", "fights", "sweeper", "wrath", "drain", "drains", "wipe",
))


def _not_combat(match: re.Match[str]) -> bool:
    """Is the damage said to come from something other than a creature in combat? Also "Ben deals 3 damage
    to Cat" with no creature and no "combat": the words say damage, not a hit (read as noncombat)."""
    thing = (match.groupdict().get("thing") or "").strip().lower()
    if thing and thing.split()[-1] in _NONCOMBAT_SOURCES:
        return True
    said = match[0].lower()
    # the amount's word is any word but "combat" ("deals 3 damage to", never "deals [combat] damage to")
    dealt = re.search(r"\b(?:deals|deal|dealt|does|do) (?:(?!combat )\S+ )?(?:points? of )?(combat )?"
                      r"(?:damage )?to\b", said)
    return bool(dealt and not dealt[1] and not thing)


_COUNT = rf"(?P<count>{_NUMBER}|some|several|two of (?:his|her|their)|all (?:his|her|their)|his|her|their)"


_WITH = rf"(?: with (?:(?:a|an|one|{_COUNT}) )?(?P<thing>{_WORD}(?: {_WORD}){{0,2}}?))?"


@PATTERNS(
    rf"{_X} {_HIT} {_Y}{_WITH}{_FOR}{_STEP}",
    rf"{_X} {_HIT} {_Y}{_FOR}{_WITH}{_STEP}",  # "smacks her for 4 with a goblin": the amount said first
    rf"{_X} (?:attacks|attacked|attack|swings at|swings into|swung at|swing at|goes after|went after|"
    rf"go after|"
    rf"sends (?:creatures|attackers|everything) at) {_Y}{_WITH}{_FOR}{_STEP}",
    # "Rosa swings Edgar at Pat": the creature said between the verb and the player attacked
    rf"{_X} (?:swings|swung|swing|sends|sent|send) (?:(?:a|an|one|{_COUNT}) )?"
    rf"(?P<thing>{_WORD}(?: {_WORD}){{0,2}}?) (?:at|into) {_Y}{_FOR}{_STEP}",
)
def _h_player_hits(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if _not_combat(match):
        return None  # "Ben deals 3 damage to Cat with a spell": noncombat damage, read by _h_damage
    commander = _named_commander(reader, match["x"]) or \
        _commander_of(reader, match["x"], match.groupdict().get("thing"))
    if commander is not None:  # "Krenko connects with Ben for seven", "Ann hits Ben with Krenko"
        return _hit_by_commander(reader, match, commander, _said(match, "n", "amount"))
    _no_commander_dropped(match, reader)
    if match.groupdict().get("lethal"):  # "Dan swings at Cat for lethal"
        return _combat(reader, match["x"], match["y"], LETHAL)
    count_text = (match.groupdict().get("count") or "").lower()
    creatures = _number(count_text, 1) if re.fullmatch(_NUMBER, count_text or "x") else 1
    total = match.groupdict().get("amount")
    each = bool(match.groupdict().get("each"))
    amount = _number(match.groupdict().get("n") or total, creatures * _power(match["thing"]))
    if each:
        amount *= creatures
    return _combat(reader, match["x"], match["y"], amount, creatures,
                   guessed=_guessed(match.groupdict().get("n") or total, match.groupdict().get("thing")))


@PATTERNS(
    # "Cat gets hit by Ann's dragon": restructure.active_voice makes a passive active before it is read
    rf"{_Y} (?:takes|took|"
    rf"take) (?:(?P<n>{_NUMBER}) )?(?:points? of )?(?:combat|commander) damage from {_X}"
    rf"(?:{_POSS}(?P<thing>{_THING}))?"
    rf"{_STEP}",
    # "takes 3 from Ben's creature": a creature's damage is combat damage here
    rf"{_Y} (?:takes|took|take|gets hit for) (?P<n2>{_NUMBER})(?: (?:points? of )?damage)? from {_X}{_POSS}"
    rf"(?P<thing>{_THING})",
    # "Lena gets hit for 12 by Kai's creature": the amount said before the one who hit
    rf"{_Y} (?:is|gets|got|was) (?:hit|smacked|punched) for (?P<n3>{_NUMBER})(?: (?:points? of )?damage)? "
    rf"by {_X}(?:{_POSS}(?P<thing>{_THING}))?{_STEP}",
)
def _h_is_hit(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if _not_combat(match):
        return None  # "takes 5 damage from Ben's spell": noncombat damage, read by _h_takes_damage
    reader.refer(match["y"], one=True, alone=True)  # the one hit is the subject: "… then concedes" is Cat
    commander = _named_commander(reader, match["x"]) or \
        _commander_of(reader, match["x"], match.groupdict().get("thing"))
    said = _said(match, "n", "n2", "n3", "amount")
    if commander is not None:  # "Ben gets hit by Krenko for 7", "… by Ann's commander"
        return _hit_by_commander(reader, match, commander, said)
    _no_commander_dropped(match, reader)
    thing = match.groupdict().get("thing")
    amount = LETHAL if match.groupdict().get("lethal") else _number(said, _power(thing))
    return _combat(reader, match["x"], match["y"], amount, guessed=_guessed(said, thing))


@PATTERNS(
    rf"{_X} (?:deals|deal|dealt|does) (?P<n>{_NUMBER}) (?:noncombat )?(?:damage )?to {_Y}"
    rf"(?: with {_free_words(6)})?",
    rf"{_X}{_POSS} (?:[\w'-]+ ){{0,2}}?(?:spell|ability|effect|instant|sorcery|burn spell|trigger|shock|bolt)"
    rf" (?:deals|deal|dealt|does) (?P<n2>{_NUMBER}) (?:noncombat )?damage to {_Y}",
    rf"{_X} (?P<verb>burns|pings|shocks|bolts|zaps) {_Y}(?: for (?P<amount>{_NUMBER}))?(?: damage)?"
    # "edgar pings quinn for 1 with an ability, not in combat": how it was dealt, said after
    r"(?: with (?:an? |its |his |her |their )?(?:ability|spell|trigger|effect))?"
    r"(?:,? (?:not in combat|outside (?:of )?combat|(?:as )?noncombat damage))?",
    rf"{_X} (?:deals|deal|dealt|does) {_Y} (?P<n3>{_NUMBER}) (?:points? of )?(?:noncombat )?damage"
    rf"(?: with {_free_words(6)})?",
    # "Uma deals him 6 with a spell": the amount without "damage", the source saying it is no hit
    rf"{_X} (?:deals|deal|dealt|does) {_Y} (?P<n4>{_NUMBER}) with (?:a|an|one|his|her|their|that)(?: \w+)? "
    r"(?:spell|ability|effect|burn spell|instant|sorcery|trigger)",
    # "Kai then uses Atraxa's ability to deal 1 damage to Lux": the permanent's ability deals it, not combat
    rf"(?:[\w'-]+ )?(?:then )?(?:uses|used|activates|activated) {_X}{_POSS} (?:activated |triggered )?"
    rf"ability to deal (?P<n4>{_NUMBER}) (?:noncombat )?damage to {_Y}",
)
def _h_damage(match: re.Match[str], reader: _Reader) -> _Happening:
    verb = (match.groupdict().get("verb") or "").lower()
    card = None
    if verb and verb != "pings" and not _said(match, "amount"):
        # "Dan bolts her": the card the verb names says how much (Bolt, Lightning Bolt's nickname: 3; Shock:
        # 2); "burns" names none, so the amount is never guessed ("pings": 1)
        card = _damage_card_said(reader, verb)
        if card is None:
            raise _Unknown(f"how much damage does '{match[0].strip()}' deal? say the amount", match[0])
    creature = _named_commander(reader, match["x"])
    if creature is not None:  # "Krenko's ability deals 1 damage to Ben": from that permanent, not in combat
        target = reader.affected(reader.refer(match["y"], one=True, alone=True))
        amount = _number(_said(match, "n", "n2", "n3", "n4", "amount"))
        return _Happening(({"damage": {"to": target.players[0], "amount": amount, "source": creature}},),
                          f"{creature} deals {amount} noncombat damage to {target.words}", target.players,
                          extra=(f"life({target.players[0]})",))
    source = reader.refer(match["x"], one=True, alone=True)
    target = reader.refer(match["y"], one=True, alone=True)
    # "Dan burns her": a plain object pronoun never means the clause's own subject
    target = reader.affected(reader.someone_else(match["y"], target, source.players[0]))
    amount = card[1] if card else _number(_said(match, "n", "n2", "n3", "n4", "amount"))
    said = f"{source.words}'s {card[0]} deals" if card else f"{source.words} deals"
    return _Happening(({"damage": {"to": target.players[0], "amount": amount, "from": source.players[0]}},),
                      f"{said} {amount} noncombat damage to {target.words}",
                      (source.players[0], target.players[0]), extra=(f"life({target.players[0]})",))


def _damage_card_said(reader: _Reader, verb: str) -> tuple[str, int] | None:
    """The card a damage verb names ("bolts": Lightning Bolt, by its nickname) and the damage its Oracle text
    deals to one target, or None (no card snapshot, no such card, or a text that does more)."""
    for name in verb_forms(verb):
        card = card_said(reader.facts.cards, name)
        amount = damage_card(card[0], card[2]) if card else None
        if card and amount is not None:
            return card[0], amount
    return None


@PATTERNS(
    rf"{_Y} (?:takes|took|take|gets dealt|got dealt|is dealt|was dealt) (?P<n>{_NUMBER}) (?:points? of )?"
    rf"(?:noncombat )?damage(?: from {_X})?",
    rf"{_Y} (?:takes|took|take) (?P<n2>{_NUMBER}) from {_X}",  # "takes seven from Cat": said of damage
    rf"{_Y} (?:takes|took|take) (?P<n3>{_NUMBER})",  # "if he takes 7": damage, from no one said
)
def _h_takes_damage(match: re.Match[str], reader: _Reader) -> _Happening:
    commander = _named_commander(reader, match.groupdict().get("x") or "")
    if commander is not None:  # "Ben takes 7 from Krenko": a creature's damage, read as in combat
        return _commander_hits(reader, commander, match["y"], _said(match, "n", "n2"))
    target = reader.affected(reader.refer(match["y"], one=True, alone=True))
    amount = _number(_said(match, "n", "n2", "n3"))
    source_text, spell = _spell_source(reader, match.groupdict().get("x") or "")
    if spell is None and (match.groupdict().get("x") or match.groupdict().get("n3")) \
            and "noncombat" not in match[0].lower():
        _combat_or_not(reader, target.players[0], match[0])
    event: dict[str, Any] = {"to": target.players[0], "amount": amount}
    players = [target.players[0]]
    unnamed = bool(source_text) and _SOMEONES_CREATURE.fullmatch(source_text.strip()) is not None
    if source_text and not unnamed:
        source = reader.refer(source_text, one=True, alone=True)
        event["from"] = source.players[0]
        players.insert(0, source.players[0])
    kind = "damage from a creature no one is said to control" if unnamed else "noncombat damage"
    return _Happening(({"damage": event},), f"{target.words} takes {amount} {kind}", tuple(players),
                      extra=(f"life({target.players[0]})",))


_ARTICLE = re.compile(r"(?i)^(?:a|an|the|some|one)\s+")
#: "takes 7 from a dragon", "from some 5/5": a creature no one is said to control. The amount and the player
#: hit are what the life total needs (120.3a); whether it was combat damage, which would move a designation
#: (725.2, 726.2), is asked by _combat_or_not where it matters. Not "an opponent" (a player, 102.2).
_SOMEONES_CREATURE = re.compile(
    r"(?:(?:a|an|some|one) )?(?:(?:big|huge|flying|random|\d{1,2}/\d{1,2}) )?"
    r"(?:creature|dragon|beast|wurm|giant|angel|demon|zombie|elf|goblin|bear|guy|dude|attacker|token|"
    r"\d{1,2}/\d{1,2})")


def _spell_source(reader: _Reader, said: str) -> tuple[str, str | None]:
    """Where damage is said to come from, as (the player named, or "", what they dealt it with, or None).

    A card's name ("a Lava Axe", "Rosa's Fireball") or a spell word ("a spell", "his burn spell") is just a
    source outside combat: the amount and the player hit are what the rules need; its controller, when the
    words name one, deals it. None where the words name a player alone (combat or not is then unsaid).
    """
    said = _ARTICLE.sub("", said.strip())
    owner, _, thing = said.partition("'s ")
    if not thing or owner not in reader.facts.players:
        owner, thing = "", said
    words = thing.split()
    if not words or (not owner and thing in reader.facts.players):
        return said, None
    if words[-1].lower() in _NONCOMBAT_SOURCES:
        return owner, thing
    card = card_said(reader.facts.cards, thing)
    if card is not None and "creature" not in card[1].lower() and _named_commander(reader, thing) is None:
        # "takes 6 from a pestilence": a card the snapshot knows that is no creature deals no combat damage
        return owner, card[0]
    named = all(w[:1].isupper() or w in ("of", "the") for w in words)
    if named and thing not in reader.facts.players and _named_commander(reader, thing) is None:
        # a card named, not a creature on the table; it may be a creature: asked where it matters
        _combat_or_not(reader, "", f"from {said}")
        return owner, thing
    return said, None


def _combat_or_not(reader: _Reader, target: str, said: str) -> None:
    """ "Cat takes ten from Dan" says damage, not whether a creature dealt it in combat. Read as noncombat
    damage it moves no designation; when the player hit holds the crown or the initiative, or the sentence
    asks about them, the answer turns on that (725.2, 726.2), so it is asked rather than guessed."""
    holders = {reader.facts.monarch, reader.facts.initiative}
    if target in holders or re.search(r"(?i)\b(?:monarch|crown|king|queen|initiative)\b", reader.sentence):
        raise _Unknown(f"'{said.strip()}': combat damage from a creature, or damage from a spell or ability? "
                       "say 'hits' or 'burns'", said)


#: the causes of a loss said together: "a board wipe + Blood Artist", "Ad Nauseam and a ping"
_CAUSES = re.compile(r"\s*(?:\+|&|\bplus\b|\band\b|\bwith\b)\s*", re.IGNORECASE)


@PATTERNS(
    rf"{_X}{_TOGETHER} {_MODAL}{_LOSE}{_GAME}{_TOGETHER} (?:to|by|from) (?P<card>{_free_words(6)})",
)
def _h_leaves_to_card(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Bea dies to her own Ad Nauseam", "Mia, Sam and Raj all lose to a board wipe + Blood Artist": the
    causes are cards the snapshot knows or words for a spell or a sweeper; the players lose the game (104.3,
    704.5a; together, 104.4a-b). A creature card may have dealt combat damage, which moves a designation
    (725.2, 726.2): asked where it matters. Words that name no card are not this reading."""
    cards = []
    for cause in _CAUSES.split(match["card"]):
        words = re.sub(r"(?i)^(?:a|an|the|his|her|their|my)(?:'s)? (?:own )?", "", cause.strip())
        if not words:
            return None
        card = card_said(reader.facts.cards, words)
        if card is not None:
            cards.append(card)
        elif words.split()[-1].lower() not in _NONCOMBAT_SOURCES and \
                not re.fullmatch(r"(?i)(?:board ?)?wipe", words):
            return None  # words that name neither a card nor a spell: not this reading
    if not cards:  # spell words alone: the plain leaving's reading ("an effect": the model's loss, 104.3);
        # several joined ("a board wipe + drain"), which that reading would split: they leave here
        return _h_leaves(match, reader) if len(_CAUSES.split(match["card"])) > 1 else None
    if any("creature" in card[1].lower() for card in cards):
        for player in reader.refer(match["x"]).players:
            _combat_or_not(reader, player, match[0])
    return _h_leaves(match, reader)
