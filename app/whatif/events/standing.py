"""Events that change a player's standing: life, cards, poison, extra turns, priority, designations, winning,
losing by an effect, unveiling. Tried right after :mod:`players` (leaving, damage), in the order written."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rulesjudge.app.whatif.events.players import _MODAL, _free_words, _h_leaves
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar, _said
from rulesjudge.app.whatif.normalise import _NUMBER, _number
from rulesjudge.app.whatif.plan import _Happening
from rulesjudge.app.whatif.questions.crown import _CROWN, _KING, _THE_INITIATIVE
from rulesjudge.app.whatif.references import _POSS, Ref, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()


#: "... and gains 12", "... and she gains 12": a gain said after the loss; of the one who made it with no
#: pronoun (the subject said once), never guessed with one ("she" may be either player: no genders here)
_GAIN_TAIL = rf"(?:,? and (?:(?P<pron>he|she|they|him|her) )?(?:gains|gain|gained) (?P<g>{_NUMBER})" \
    r"(?: life)?)?"


@PATTERNS(rf"{_Y} (?:makes|made|make|has|had) {_X} (?P<verb>lose) (?P<n>{_NUMBER})(?: life)?{_GAIN_TAIL}",
          # "Mia casts something that makes Theo lose 12": the unit said by "lose" of a player (119.3)
          rf"{_Y} (?:casts|cast|plays|played|uses|used|activates|activated) (?:something|a spell|an ability|"
          rf"an? [\w'-]+) (?:that|which) (?:makes|made) {_X} (?P<verb>lose) (?P<n>{_NUMBER})(?: life)?"
          rf"{_GAIN_TAIL}")
def _h_made_to_lose(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Cat makes Dan lose 2 life": Dan loses it (119.3); who made him changes nothing here. "... and gains
    2": Cat gains it (119.3), said; "... and she gains 2" is asked (whom does "she" stand for?)."""
    if match["pron"]:
        raise _Unknown(f"whom does '{match['pron']}' stand for? name the player who gains life",
                       match["pron"])
    maker = reader.refer(match["y"], one=True, alone=True)
    _not_the_maker(match["x"], maker, reader)
    lost = _h_life(match, reader)
    if lost is None or not match["g"]:
        return lost
    gain = _number(match["g"])
    who = maker.players[0]
    return _Happening((*lost.events, {"gain-life": {"player": who, "amount": gain}}),
                      f"{lost.words} and {maker.words} gains {gain} life", (*lost.players, who),
                      extra=(*lost.extra, f"life({who})"))


@PATTERNS(
    # "pays 2 life for something": what it was paid for changes nothing (119.4)
    rf"{_X} {_MODAL}(?P<verb>loses|lost|lose|pays|paid|pay|gains|gained|gain) (?P<n>{_NUMBER}) life"
    r"(?: for (?:something|it|that|a \w+|an \w+|(?:his|her|their)(?:'s)? \w+))?"
    # "loses 4 life to a spell": where the loss came from changes nothing (119.3)
    r"(?: (?:to|from) (?:a|an|the|some|his|her|their|my)(?:'s)? (?:[\w-]+ )?"
    r"(?:spell|effect|ability|trigger|card|drain))?"
    # "gains 5 life from a lifelink creature she controls": the gain is what was said (702.15b); a loss
    # "from a creature" is its damage, maybe combat damage (725.2), not read here
    r"(?: (?:from|off|off of|with|through) (?:a|an|the|his|her|their|my|[A-Za-z][\w-]*'s) "
    r"(?:lifelink(?:ing)? |lifelinked )?"
    r"(?P<creature>creature|guy|dude|lifelinker|attacker|blocker|token|vampire)"
    r"(?: (?:she|he|they|it) controls?| of (?:hers|his|theirs)| with lifelink)?)?",
    # "pays four life and then gains two": the unit said once (not for "pays two", which may be mana)
    rf"{_X} {_MODAL}(?P<verb>loses|lost|lose|gains|gained|gain) (?P<n>{_NUMBER})(?: more)?",
)
def _h_life(match: re.Match[str], reader: _Reader) -> _Happening | None:
    gain = match["verb"].lower().startswith("gain")
    if match.groupdict().get("creature") and not gain:
        return None
    if gain and re.fullmatch(r"(?i)he|she|they", match["x"].strip()) and reader.subject is not None \
            and reader.focus is not None and reader.subject.players != reader.focus.players:
        # "Mia makes Theo lose 12 and she gains 12": the one who made it (a drain) or the one it was done
        # to? Not guessed (the reader knows no genders)
        raise _Unknown(f"whom does '{match['x']}' stand for? name the player who gains life", match["x"])
    who = _team_or_player(reader, match["x"])
    amount = _number(match["n"])
    verb = ("gain" if gain else "lose") + ("s" if who.verb_s else "")
    return _each_player(who, "gain-life" if gain else "lose-life", "amount", amount,
                        f"{who.words} {verb} {amount} life", "life")


def _each_player(who: Ref, event: str, key: str, value: int, words: str, then: str) -> _Happening:
    """One ``event: {player: X, key: value}`` per player named, and the question ``then(X)`` to ask after."""
    if len(who.players) > 1 and "team" in who.words.lower():
        # "Cat's team gets 15 poison": said of a team, not of each player. A Two-Headed Giant team shares
        # one life total and one poison count (810.4, 810.10), so N each would be 2N for the team.
        raise _Unknown(f"{who.words}: said of the team, not of each player - say which player", who.words)
    events = tuple({event: {"player": p, key: value}} for p in who.players)
    return _Happening(events, words, who.players, extra=tuple(f"{then}({p})" for p in who.players))


def _affected_player(reader: _Reader, text: str) -> Ref:
    return reader.affected(reader.refer(text, one=True))


def _team_or_player(reader: _Reader, text: str) -> Ref:
    """The player an amount is said of, or a team sharing one total (Two-Headed Giant: "Ann's team loses 10
    life" is the team's total, once)."""
    group = reader.refer(text)
    shared = reader.shared_total(group) if len(group.players) > 1 else None
    return reader.affected(shared) if shared else _affected_player(reader, text)


@PATTERNS(
    rf"{_X} {_MODAL}(?:draws|drew|draw) (?:(?P<n>{_NUMBER}) (?:extra |more )?cards?|a card|an extra card|"
    r"(?P<n2>\d+))(?: (?:from an effect|off an effect|with an effect|for the turn))?",
)
def _h_draw(match: re.Match[str], reader: _Reader) -> _Happening:
    who = _affected_player(reader, match["x"])
    count = _number(_said(match, "n", "n2"))
    words = f"{who.words} draw{who.verb_s} {count} card{'s' if count != 1 else ''}"
    return _each_player(who, "draw", "count", count, words, "draws")


#: what gave poison counters, said after them ("gets 3 more from a toxic creature", "from Sol's infect guy"):
#: a creature (``creature``: its combat damage may move a designation, 725.2, 726.2) or no creature
_POISON_SOURCE = (
    r"(?: (?:from|with|off|via|by) (?:an?|the|some|his|her|their|[A-Za-z][\w-]*(?:'s|'))"
    r"(?: (?P<kw>toxic|infect|poisonous|infected)(?: \d+)?)?"
    r"(?: (?:\d{1,2}/\d{1,2}|little|big|small))?"
    r" (?:(?P<creature>creature|guy|dude|attacker|token|beater|monster|critter|hit|swing|attack)|"
    r"(?:[\w'-]+ )?(?:thing|effect|spell|ability|trigger|card|proliferate))"
    r"(?: (?:of (?:his|hers|theirs)|unblocked))?)?")


@PATTERNS(
    rf"{_X}(?P<each> each| both)? (?:gets|got|get|receives|takes|is given|gains) (?P<n>{_NUMBER}|another) "
    rf"(?:more )?poison(?: counters?)?(?P<each2> each)?{_POISON_SOURCE}",
    # "with a proliferate-y thing": the counters' count is said, so what gave them changes nothing (701.34);
    # "with an infect 2/2": a creature's (``_from_a_creature``: its combat damage may move a designation)
    rf"{_Y} (?:gives|gave|give|deals) {_X} (?P<n2>{_NUMBER}) (?:more )?poison(?: counters?)?{_POISON_SOURCE}",
    rf"{_X} (?:is|gets) (?:hit|poisoned) for (?P<n3>{_NUMBER})(?: poison(?: counters?)?)?",
    rf"{_X} (?:gets|got|get) (?P<n4>{_NUMBER})(?: more)?",  # "... and Dan gets 7": the unit said before
)
def _h_poison(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("poison"):
        return None
    if match.groupdict().get("n4") and reader.topic != "poison":
        return None  # "Dan gets 7" is poison only after poison counters were said
    # "Ann and Ben each get 8": each player's own counters, even where a team shares one count (810.10: 16)
    each = match.groupdict().get("each") or match.groupdict().get("each2")
    who = reader.affected(reader.refer(match["x"])) if each else _team_or_player(reader, match["x"])
    reader.topic = "poison"  # "… how many does he have"
    count = _number(_said(match, "n", "n2", "n3", "n4"))
    words = f"{who.words} get{who.verb_s} {count} poison counter{'s' if count != 1 else ''}" + \
        (" each" if each else "")
    happening = _each_player(who, "poison", "count", count, words, "poison")
    return _from_a_creature(match, reader, happening)


def _from_a_creature(match: re.Match[str], reader: _Reader, happening: _Happening) -> _Happening:
    """Poison counters a creature gave: its combat damage would also move the crown or the initiative (725.2,
    726.2), which the counters alone don't play, so a holder's is asked; and a creature that isn't said to
    have infect (toxic, poisonous: 702.164c, 702.70a) dealt damage as well, an amount unsaid, so the player's
    life is not answered from it (infect damage is the counters alone, 702.90b)."""
    if not match.groupdict().get("creature"):
        return happening
    held = [p for p in happening.players if p in (reader.facts.monarch, reader.facts.initiative)]
    if held:
        raise _Unknown(f"did the creature deal combat damage to {held[0]}? say how it hit (725.2, 726.2)",
                       match[0])
    infect = (match.groupdict().get("kw") or "").lower().startswith("infect")
    return happening if infect else replace(happening, unsaid_life=happening.players)


@PATTERNS(
    rf"{_X} (?:takes|took|is dealt|gets dealt|was dealt) (?P<n>{_NUMBER}) (?:points? of )?infect damage"
    rf"(?: from (?:(?:a|an|the|{_Y}{_POSS}) )?(?:[\w-]+ )?"
    r"(?P<source>spell|ability|effect|trigger|instant|sorcery))?",
)
def _h_infect_damage(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Owen takes 2 infect damage from an effect": damage from a source with infect gives a player that
    many poison counters instead of life loss (702.90b, 120.3b). Read only outside combat: combat damage
    would also move the crown or the initiative (725.2, 726.2), so unless the source says it is no creature
    the player must hold neither."""
    if not reader.facts.events or not reader.facts.knows_event("poison"):
        return None
    who = reader.affected(reader.refer(match["x"], one=True, alone=True))
    player = who.players[0]
    if match.groupdict().get("y"):
        reader.refer(match["y"], one=True, alone=True)
    if not match.groupdict().get("source") and player in (reader.facts.monarch, reader.facts.initiative):
        raise _Unknown(f"is the infect damage to {player} combat damage? say its source (725.2, 726.2)",
                       match["x"])
    count = _number(match["n"])
    reader.topic = "poison"
    words = f"{who.words} gets {count} poison counter{'s' if count != 1 else ''} (infect damage, 702.90b)"
    return _each_player(who, "poison", "count", count, words, "poison")


#: "an effect sets Ann's life to 10", "a sorcery sets ...": a card, not a player, sets it (119.5)
_SETTER_CARD = re.compile(r"(?i)(?:an?|the|some|his|her|their) (?:[\w'-]+ )?"
                          r"(?:effect|spell|card|ability|sorcery|instant|trigger)")


@PATTERNS(
    rf"{_X}{_POSS} life (?:total )?(?:becomes|is set to|goes to|is now|turns into|drops to|falls to|"
    rf"is) (?P<n>{_NUMBER})",
    rf"(?:set|make) {_X}{_POSS} life(?: total)? (?:to )?(?P<n3>{_NUMBER})",
    # "Ann is at one life": the table as it stands, said as a life total; never "was at" (a state before
    # the events, app.situation's fact: "Edgar hits Dan for 4 and Dan was at 4 life")
    rf"{_X} (?:is|are|sits|goes|drops|falls|gets) (?:at|on|down to|to) (?:exactly )?(?P<n2>{_NUMBER}) life",
    # "Ann's life gets set to 10 by an effect": what sets it changes nothing (119.5)
    rf"{_X}{_POSS} life(?: total)? (?:gets|is|was|got) set to (?P<n4>{_NUMBER})"
    r"(?: by (?:an?|the|some) (?:effect|spell|card|ability))?",
    # "Rae sets Sol's life to 10 with a sorcery": who sets it and with what changes nothing (119.5)
    rf"{_Y} (?:sets|set) {_X}{_POSS} life(?: total)? (?:to|at) (?P<n5>{_NUMBER})"
    r"(?: (?:with|using|via) (?:an?|the|some|his|her|their) (?:[\w'-]+ )?"
    r"(?:effect|spell|card|ability|sorcery|instant|trigger))?",
)
def _h_set_life(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("set-life"):
        return None
    if match.groupdict().get("y") and not _SETTER_CARD.fullmatch(match["y"]):
        reader.refer(match["y"], one=True, alone=True)  # the player who sets it must be at the table
    who = _affected_player(reader, match["x"])
    life = _number(_said(match, "n", "n2", "n3", "n4", "n5"), 0)
    return _each_player(who, "set-life", "life", life, f"{who.words}'s life total becomes {life}", "life")


@PATTERNS(
    rf"(?:an effect (?:says|makes) )?{_X} {_MODAL}(?:takes|take|gets|get|took) (?:an|another|one more) extra "
    r"turn(?: after this one)?",
    rf"(?:an effect (?:says|makes) )?{_X} {_MODAL}(?:takes|take|gets|get|took) (?P<n>{_NUMBER}) extra turns"
    r"(?: after this one)?",
)
def _h_extra_turn(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("extra-turn"):
        return None
    who = reader.refer(match["x"], one=True, alone=True)
    count = _number(match.groupdict().get("n"))
    if not 1 <= count <= 10:
        return None
    # one effect at a time, each adding a turn right after this one (500.7)
    words = f"{who.words} takes {'an extra turn' if count == 1 else f'{count} extra turns'} after this one"
    return _Happening(({"extra-turn": who.players[0]},) * count, words, who.players)


#: "with nothing on the stack": what 117.4 needs for the step to end, said; passing as read here already
#: means an empty stack (the model's pass-priority event), so the words change nothing.
_EMPTY_STACK = r"(?:,? (?:with|and|while) (?:nothing on the stack|an empty stack|the stack (?:is )?empty|" \
    r"no spells? on the stack))?"


@PATTERNS(
    rf"(?:everyone|everybody|all players|all|every player) pass(?:es)? priority(?: in succession)?"
    rf"{_EMPTY_STACK}",
    rf"{_X} (?:passes|passed|pass) priority(?: in succession)?{_EMPTY_STACK}",
)
def _h_pass_priority(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("pass-priority"):
        return None
    reader.topic = "priority"
    if match.groupdict().get("x"):
        who = reader.refer(match["x"], one=True, alone=True)
        return _Happening(({"pass-priority": who.players[0]},), f"{who.words} passes priority", who.players)
    # everyone: one pass each, in succession (117.4), a Two-Headed Giant team passing as one (805.5b)
    sides = len({reader.facts.teams.get(p, p) for p in reader.playing()}) \
        if reader.facts.shared_turns else len(reader.playing())
    return _Happening(("pass-priority",) * sides, "every player passes priority in succession", ())


@PATTERNS(
    rf"an? (?:effect|card|spell|ability) (?:says|makes|forces) {_X} (?:to )?"
    r"(?:loses?|lose the game|loses the game)",
    rf"{_X} (?:loses|lose) (?:the game )?(?:to|from|by|because of|due to) (?:an?|the|some) "
    r"(?:card(?:'s)? |spell(?:'s)? )?(?:effect|card|spell|ability)",
)
def _h_effect_loses(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("loses"):
        return None
    who = reader.refer(match["x"], one=True)
    reader.gone.update(who.players)
    arg: Any = who.players[0] if len(who.players) == 1 else list(who.players)
    return _Happening(({"loses": arg},), f"an effect says {who.words} lose{who.verb_s} the game", who.players,
                      gone=who.players)


@PATTERNS(
    rf"{_X} {_MODAL}(?:becomes|became|become|is made|gets made|is now|turns into) {_KING}",
    rf"{_X} {_MODAL}(?:takes|took|take|gets|get|gains|gain|steals|steal|receives) {_CROWN}(?: (?:with|"
    rf"from|by) "
    r"(?:an|a) (?:effect|card|spell|ability))?",
    # "Cat takes the crown from Ben": whom it was taken from changes nothing (725.3)
    rf"{_X} {_MODAL}(?:takes|took|take|steals|stole|steal|grabs|grabbed) {_CROWN} (?:from|off) {_Y}",
)
def _h_become_monarch(match: re.Match[str], reader: _Reader) -> _Happening:
    who = reader.refer(match["x"], one=True, alone=True)
    if match.groupdict().get("y"):
        reader.refer(match["y"], one=True)  # a player at the table, or not this reading
    reader.topic = "monarch"  # "… who has it now"
    return _Happening(({"become-monarch": who.players[0]},), f"{who.words} becomes the monarch", who.players)


@PATTERNS(
    rf"{_X} {_MODAL}(?:takes|took|take|gets|get|gains|gain|receives|takes over) {_THE_INITIATIVE}",
)
def _h_take_initiative(match: re.Match[str], reader: _Reader) -> _Happening:
    who = reader.refer(match["x"], one=True, alone=True)
    reader.topic = "initiative"  # "Dan takes the initiative, then concedes. Who has it?"
    return _Happening(({"take-initiative": who.players[0]},), f"{who.words} takes the initiative",
                      who.players)


@PATTERNS(rf"(?:an effect (?:says|states|makes it so)(?: that)? )?{_X} {_MODAL}(?:wins|won|win)(?: the game)?"
             rf"(?: (?:with|through|by|via|off|thanks to) "
             rf"{_free_words(8)})?")
def _h_wins(match: re.Match[str], reader: _Reader) -> _Happening:
    who = reader.refer(match["x"], one=True, alone=True)
    return _Happening(({"wins": who.players[0]},), f"an effect says {who.words} wins the game", who.players)


@PATTERNS(
    rf"{_X} {_MODAL}(?:unveils|unveiled|unveil|reveals (?:their|his|her) identity|flips (?:their|his|her) "
    r"identity(?: card)?(?: face up)?|turns (?:their|his|her) identity(?: card)? face up)",
)
def _h_unveil(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.roles:
        return None
    who = reader.refer(match["x"], one=True)
    return _Happening(tuple({"unveil": p} for p in who.players), f"{who.words} unveil{who.verb_s}",
                      who.players)


@PATTERNS(
    rf"{_Y} {_MODAL}(?:makes|made|make|forces|forced|force) {_X} (?:to )?(?P<lose>lose)(?: the game)?"
    rf"(?: (?:with|by|using|through) {_free_words(4)})?",
)
def _h_made_to_lose_the_game(match: re.Match[str], reader: _Reader) -> _Happening:
    """ "Flo makes Ed lose with a spell": Ed loses the game (104.3); who made him changes nothing of what
    his leaving does (800.4a; a designation he held goes as 725.4, 726.4 say)."""
    _not_the_maker(match["x"], reader.refer(match["y"], one=True, alone=True), reader)
    return _h_leaves(match, reader)


def _not_the_maker(said: str, maker: Ref, reader: _Reader) -> None:
    """ "Dan makes her lose": "her" is never Dan, the clause's own subject (that would be "herself"); with
    nobody else said before it, whom it stands for is asked, never read as the one who made her."""
    if re.fullmatch(r"(?i)him|her|them", said.strip()):
        meant = reader.focus or reader.subject
        if meant is None or set(meant.players) == set(maker.players):
            raise _Unknown(f"whom does '{said.strip()}' stand for? name the player", said)
