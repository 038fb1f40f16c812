"""Combat told as a story, played through the model's combat steps rather than the one-line hit: a creature
on the table attacks and another blocks it ("Olive's Dragon attacks Mia and Mia blocks with the Bear",
"Bear attacks Olive, Dragon blocks"), and a player attacks with a creature by its name ("... and attacks
Ben with it"). The model declares attackers (508.1: the active player, creatures they have controlled
since their turn began, 302.6), blockers (509.1) and deals combat damage (510), so a block kills a 2/2
(704.5g) and a creature stolen this turn can't attack.

A clause that names the attacker's turn only by the attack ("Olive's Dragon attacks Mia" while Liam is the
active player) passes the turns to that player's turn first (only the active player attacks, 508.1), but
only when it is the sentence's first event: after another one (a creature stolen, a player gone) the turn
it happens in is not guessed.
"""

from __future__ import annotations

import re
from typing import Any

from rulesjudge.app.whatif.events.time import _until
from rulesjudge.app.whatif.grammar import _Grammar
from rulesjudge.app.whatif.normalise import _NUMBER, _number
from rulesjudge.app.whatif.plan import Event, _Happening
from rulesjudge.app.whatif.references import _creature_named, _Reader, _Unknown

#: This topic's event patterns, in the order tried; ``events/__init__.py`` orders the topics.
PATTERNS = _Grammar()

_ATTACKS = r"(?:attacks|attacked|attack|swings at|swung at|swing at|swings into|goes after|went after)"
_BLOCKS = r"(?:blocks|blocked|block|chumps|chump-blocks|chump blocks|chumped)"
_A = r"(?P<a>.+?)"  # the attacking creature
_D = r"(?P<d>.+?)"  # the blocking creature
_T = r"(?P<t>.+?)"  # the player attacked
_P = r"(?P<p>.+?)"  # the player who blocks or attacks
_BY = r"(?P<by>.+?)"  # the player who attacks with a creature named


def _creature(reader: _Reader, text: str) -> str:
    name = _creature_named(reader, text)
    if name is None:
        raise _Unknown(f"not a creature on the table: {text.strip()}", text)
    return name


def _controller(reader: _Reader, creature: str) -> str:
    return next(c for n, c in reader.facts.creatures if n == creature)


def turn_of(reader: _Reader, player: str, why: str = "only the active player attacks (508.1)"
            ) -> tuple[Event, ...]:
    """The turns passed until ``player`` is the active player, so that they may attack (508.1) or cast a
    sorcery (307.1); none when it is their turn already (the table's, or the one the sentence moved to).
    Only before any other event of the sentence (see the module's note); otherwise asked."""
    if reader.turn is None:
        now = player in [p for p in reader.facts.active if p not in reader.gone]
    else:
        now = reader.turn == player
    if now:
        return ()
    if reader.acted or reader.turn is not None:
        raise _Unknown(f"{why}: is it {player}'s turn? say so first", player)
    events = _until(reader, player, next_one=False)
    reader.turn = player
    return events


def _check_turn(reader: _Reader, match: re.Match[str], player: str) -> None:
    """The turn said by name beside an attack must be the attacker's (only the active player attacks,
    508.1): "Noah's Wolf attacks Pia on Mia's turn" is refused rather than played on Noah's."""
    whose = match.groupdict().get("whose")
    if whose and reader.refer(whose, one=True, alone=True).players[0] != player:
        raise _Unknown(f"only the active player attacks (508.1): it is {player} who attacks here", whose)


def _on_turn(turn: tuple[Event, ...], player: str) -> str:
    """ "on Olive's turn, ": said when the reader passed the turns to the attacker's."""
    return f"on {player}'s turn, " if turn else ""


def _knows_combat(reader: _Reader) -> bool:
    return bool(reader.facts.events) and all(
        reader.facts.knows_event(e) for e in ("attack", "block", "combat-damage-step"))


_AND = r"(?:,| and|, and|,? but|,? and then|,? then)"
_IT = r"(?: it| them| him| her| (?:the )?attacker)?"  # "Theo chump blocks her (Tymna)"
_WITH = r"(?:with|using)"
_SUBJ = r"(?: it| they| that creature)?"
#: "Cat attacks Dan with Edgar on her turn": the attacker's own turn (only the active player attacks, 508.1)
_OWN_TURN = r"(?: (?:on|during|in) (?:her|his|their)(?:'s)?(?: own)? turn)?"
#: "Noah's Wolf attacks Pia on Noah's turn and ...": the attacker's turn said by name (checked: only the
#: active player attacks, 508.1)
_ON_TURN = r"(?: (?:on|during|in) (?:(?:her|his|their)(?:'s)?|(?P<whose>[\w-]+?)(?:'s|s|')) (?:own )?turn)?"
#: a block said in the next sentence ("Noah attacks Mia with the Wolf. Mia blocks with the Ogre.")
#: the longer joints first: ", and" is never "and Ben"
_THEN = r"(?:,? and then|, and|,? then|,? but| and|,|\.|;)"
#: "Mia swings the Ogre at Owen": the creature said before the player attacked
_SWINGS = r"(?:swings|swung|swing|sends|sent|attacks with|attacked with)"


@PATTERNS(
    rf"{_A} {_ATTACKS} {_T}{_AND} {_D} {_BLOCKS}{_IT}",
    rf"{_A} {_ATTACKS} {_T}{_AND} {_P} {_BLOCKS}{_IT} {_WITH} {_D}",
    rf"{_A} {_ATTACKS} {_T}{_AND}?{_SUBJ} (?:gets|is|was|got) blocked by {_D}",
    rf"{_A} {_ATTACKS} {_T}, who {_BLOCKS}{_IT} {_WITH} {_D}",  # "Ann, who chumps with her Bear"
    # "Ann attacks Cat with the Bear and the Dragon blocks it"
    rf"{_BY} {_ATTACKS} {_T} with {_A}{_AND} {_D} {_BLOCKS}{_IT}",
    rf"{_BY} {_ATTACKS} {_T} with {_A}{_AND}?{_SUBJ} (?:gets|is|was|got) blocked by {_D}",
    # "Mia attacks Owen with her Ogre, Owen blocks with the Wall", "... on his turn. Mia blocks with ..."
    rf"{_BY} {_ATTACKS} {_T} with {_A}{_ON_TURN}{_THEN} {_P} {_BLOCKS}{_IT} {_WITH} {_D}",
    rf"{_BY} {_SWINGS} {_A} (?:at|into) {_T}{_ON_TURN}(?:, who {_BLOCKS}{_IT}|{_THEN} {_P} {_BLOCKS}{_IT}) "
    rf"{_WITH} {_D}",
    rf"{_A} {_ATTACKS} {_T}{_ON_TURN}{_THEN} {_P} {_BLOCKS}{_IT} {_WITH} {_D}",
    # "... and Lia double blocks with a 1/1 Elf and a 1/1 Goblin": two blockers (509.1a; 510.1c-d)
    rf"{_BY} {_ATTACKS} {_T} with {_A}{_ON_TURN}{_THEN} {_P} (?:double[- ]?)?{_BLOCKS}{_IT} {_WITH} {_D} and "
    r"(?P<e>.+?)",
)
def _h_attack_blocked(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Olive's Dragon attacks Mia and Mia blocks with the Bear", "Bear attacks Olive, Dragon blocks": the
    attack declared (508.1), the block (509.1; the model says when it is illegal) and the combat damage step
    (510.1c-d: a blocked creature without trample deals its damage to its blockers; 704.5g)."""
    if not _knows_combat(reader):
        return None
    attacker = _creature(reader, match["a"])
    blocker = _creature(reader, match["d"])
    second = _creature(reader, match["e"]) if match.groupdict().get("e") else None
    if attacker in (blocker, second) or blocker == second:
        return None
    player = _controller(reader, attacker)
    if match.groupdict().get("by"):  # "Ann attacks Cat with the Bear": she declares it (the model checks)
        player = reader.refer(match["by"], one=True, alone=True).players[0]
    _check_turn(reader, match, player)
    turn = turn_of(reader, player)
    target = reader.affected(reader.refer(match["t"], one=True, alone=True))
    defender = target.players[0]
    if match.groupdict().get("p"):
        blocking = reader.refer(match["p"], one=True, alone=True).players[0]
        for each in (blocker, second) if second else (blocker,):
            owner = _controller(reader, each)
            if blocking != owner:  # "Ann blocks with Ben's Wall": only its controller blocks with it
                raise _Unknown(f"{each} is {owner}'s: only its controller blocks with it (509.1a)",
                               match["p"])
        # a block by a player the creature isn't attacking is the model's to judge: 802.4a refuses it, a
        # Two-Headed Giant team blocks together (805.10d)
    events: tuple[Event, ...] = (
        *turn,
        {"attack": {"attacker": player, "creatures": [attacker], "defending": defender}},
        {"block": {b: attacker for b in (blocker, second) if b}},
        "combat-damage-step",
    )
    reader.creature = attacker  # "is that legal", "does it die": the attacker the block is about
    blockers = f"{blocker} and {second} block" if second else f"{blocker} blocks"
    words = _on_turn(turn, player) + f"{attacker} attacks {target.words} and {blockers} it"
    return _Happening(events, words, (player, defender),
                      extra=(f"life({defender})", f"blocked({attacker})", f"exists({attacker})",
                             *(f"exists({b})" for b in (blocker, second) if b)))


@PATTERNS(rf"{_A} (?:gets|is|was|got) (?:chump[- ])?blocked by {_D}",
          rf"{_P} (?:chump[- ]?)?(?:blocks|blocked) {_A} (?:with|using) {_D}",
          # "elf blocks zurgo": the blocking creature said first (a player said first is another reading's)
          rf"(?P<first>){_D} (?:chump[- ]?)?(?:blocks|blocked|chumps|chumped) {_A}",
          # "the ogre attacks and the spider blocks it": the player attacked left unsaid (the blocker's)
          rf"(?P<first2>){_A} (?:attacks|attacked|swings|swung|goes in|went in){_AND} {_D} {_BLOCKS}{_IT}")
def _h_blocked_by(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Quinn's Knight gets blocked by Wes's Bear", "Mika chump blocks Rosa's 8/8 with a 1/1", "the Elf
    blocks Zurgo", no player
    attacked said: it attacks the blocker's controller, the one defending player who may block it (509.1a;
    802.4a: only creatures attacking them), and combat damage is dealt (510.1c-d)."""
    if not _knows_combat(reader):
        return None
    said_first = match.groupdict().get("first") is not None or match.groupdict().get("first2") is not None
    if said_first and None in (_creature_named(reader, match["d"]), _creature_named(reader, match["a"])):
        return None
    attacker, blocker = _creature(reader, match["a"]), _creature(reader, match["d"])
    player, defender = _controller(reader, attacker), _controller(reader, blocker)
    if attacker == blocker or player == defender:
        return None
    if match.groupdict().get("p") and reader.refer(match["p"], one=True, alone=True).players[0] != defender:
        raise _Unknown(f"{blocker} is {defender}'s: only its controller blocks with it (509.1a)", match["p"])
    turn = turn_of(reader, player)
    reader.affected(reader.refer(defender, one=True))  # the player attacked: "how much tramples over"
    events: tuple[Event, ...] = (
        *turn,
        {"attack": {"attacker": player, "creatures": [attacker], "defending": defender}},
        {"block": {blocker: attacker}},
        "combat-damage-step",
    )
    reader.creature = attacker
    words = _on_turn(turn, player) + f"{attacker} attacks {defender} and {blocker} blocks it"
    return _Happening(events, words, (player, defender),
                      extra=(f"life({defender})", f"blocked({attacker})", f"exists({attacker})",
                             f"exists({blocker})"))


@PATTERNS(
    rf"{_P} {_ATTACKS} {_T} with {_A}{_OWN_TURN}(?P<unblocked>,? unblocked| and (?:it )?(?:connects|hits))?"
    rf"{_OWN_TURN}",
    rf"{_P} (?:hits|hit|smacks|smacked|bashes|bashed) {_T} with {_A}{_OWN_TURN}(?:,? unblocked)?{_OWN_TURN}",
    rf"{_P} (?:attacks|attacked|attack) with {_A},? (?:at|into) {_T}{_OWN_TURN}(?P<unblocked>,? unblocked)?",
    # "jo ... and swings it at ravi": the creature said before the player attacked
    rf"{_P} (?:swings|swung|swing|sends|sent) {_A} (?:at|into) {_T}{_OWN_TURN}(?P<unblocked>,? unblocked)?",
    # "she declares it as an attacker against Noah": the declaration (508.1; 508.1a: untapped creatures)
    rf"{_P} (?:declares|declared|declare|tries to declare|tried to declare) {_A} as (?:an |the )?attacker "
    rf"(?:against|at|on) {_T}{_OWN_TURN}",
)
def _h_attacks_with(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Ann attacks Ben with it" (the Troll she just stole), "Noah swings at Olive with the Bear": the
    attack is declared by the player with that creature (508.1; one they haven't controlled since their
    turn began can't attack, 302.6), unblocked, and combat damage is dealt (510.2). A creature not on the
    table ("with a 3/3", "with her creatures") is the players' hits' reading."""
    if not _knows_combat(reader):
        return None
    creature = _creature_named(reader, match["a"])
    if creature is None:
        return None
    who = reader.refer(match["p"], one=True, alone=True)
    player = who.players[0]
    turn = turn_of(reader, player)
    target = reader.affected(reader.refer(match["t"], one=True, alone=True))
    defender = target.players[0]
    if player == defender:
        raise _Unknown(f"{player} can't attack themselves", match["t"])
    attack: dict[str, Any] = {"attacker": player, "creatures": [creature], "defending": defender}
    events: tuple[Event, ...] = (*turn, {"attack": attack}, "combat-damage-step")
    return _Happening(events, _on_turn(turn, player) + f"{who.words} attacks {target.words} with {creature}",
                      (player, defender),
                      extra=(f"life({defender})",))


@PATTERNS(rf"{_A} (?:hits|attacks|swings at|swung at|hit|attacked) {_T}{_OWN_TURN}(?:,? unblocked)?"
          rf"{_OWN_TURN}")
def _h_double_striker_hits(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Rosa's 3/3 double striker hits Mika unblocked": a creature with double strike deals its damage in two
    combat damage steps (702.4b, 510.4), so its one-line hit is played as its attack, unblocked, through the
    model's combat (other creatures' one-line hits stay one blow, :mod:`.players`)."""
    if not _knows_combat(reader):
        return None
    creature = _creature_named(reader, match["a"])
    if creature is None or creature not in reader.facts.double_strikers:
        return None
    player = _controller(reader, creature)
    turn = turn_of(reader, player)
    target = reader.affected(reader.refer(match["t"], one=True, alone=True))
    defender = target.players[0]
    if player == defender:
        raise _Unknown(f"{player} can't attack themselves", match["t"])
    attack: dict[str, Any] = {"attacker": player, "creatures": [creature], "defending": defender}
    return _Happening((*turn, {"attack": attack}, "combat-damage-step"),
                      _on_turn(turn, player) + f"{player} attacks {target.words} with {creature}",
                      (player, defender), extra=(f"life({defender})",))


#: the attack's damage said after it: "and both connect", ", unblocked" (510.1a: unblocked, they hit the
#: player)
_CONNECT = r"(?:,? unblocked|,? and (?:(?:both|all|they|both of them|all of them) )?(?:connect|connects|" \
    r"hit|get through|go unblocked|are unblocked)|,? (?:both|all|both of them|all of them) (?:unblocked|" \
    r"connect|go unblocked|get through))"


@PATTERNS(
    rf"{_BY} (?:{_ATTACKS}|hits|hit|smacks|smacked) {_T} with {_A} and (?P<a2>.+?){_ON_TURN}{_CONNECT}?",
    # "Rae gets hit by the 5/5 and the 3/3, both unblocked": their controller attacks
    rf"{_T} (?:gets|got|is|was|gets attacked and|is attacked and) (?:hit|attacked|swung at) by {_A} and "
    rf"(?P<a2>.+?){_ON_TURN}{_CONNECT}?",
    # "Quinn attacks Otto with the 3/3 and the 2/2. Otto blocks the 3/3 with his 1/4": one of them blocked
    rf"{_BY} {_ATTACKS} {_T} with {_A} and (?P<a2>.+?){_ON_TURN}{_THEN} {_P} {_BLOCKS} (?P<which>.+?) "
    rf"{_WITH} {_D}",
)
def _h_attacks_with_two(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Theo attacks Jules with the 2/2 and the 3/3 on Theo's turn and both connect": one attack with both
    (508.1), a block of one of them if said (509.1), and the combat damage step (510.1: the unblocked one hits
    the player, the blocked one its blocker)."""
    if not _knows_combat(reader):
        return None
    first, second = _creature_named(reader, match["a"]), _creature_named(reader, match["a2"])
    if first is None or second is None or first == second:
        return None
    if match.groupdict().get("by"):
        player = reader.refer(match["by"], one=True, alone=True).players[0]
    elif _controller(reader, first) == _controller(reader, second):
        player = _controller(reader, first)
    else:
        return None  # two players' creatures: not one attack
    _check_turn(reader, match, player)
    turn = turn_of(reader, player)
    target = reader.affected(reader.refer(match["t"], one=True, alone=True))
    defender = target.players[0]
    if player == defender:
        raise _Unknown(f"{player} can't attack themselves", match["t"])
    events: list[Event] = [*turn, {"attack": {"attacker": player, "creatures": [first, second],
                                              "defending": defender}}]
    words = _on_turn(turn, player) + f"{player} attacks {target.words} with {first} and {second}"
    extra = [f"life({defender})"]
    if match.groupdict().get("which"):
        blocked, blocker = _creature(reader, match["which"]), _creature(reader, match["d"])
        if blocked not in (first, second):
            raise _Unknown(f"{blocked} isn't one of the attackers", match["which"])
        if reader.refer(match["p"], one=True, alone=True).players[0] != _controller(reader, blocker):
            owner = _controller(reader, blocker)
            raise _Unknown(f"{blocker} is {owner}'s: only its controller blocks with it (509.1a)", match["p"])
        events.append({"block": {blocker: blocked}})
        words += f", and {blocker} blocks {blocked}"
        extra += [f"exists({blocked})", f"exists({blocker})"]
    events.append("combat-damage-step")
    return _Happening(tuple(events), words, (player, defender), extra=tuple(extra))


@PATTERNS(
    rf"{_A} {_ATTACKS} {_T}{_OWN_TURN} and (?:deals|does|hits (?:him|her|them|it) for) (?P<n>{_NUMBER})"
    r"(?: (?:combat )?damage)?(?: to (?:him|her|them))?",
)
def _h_attacks_and_deals(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Ann's Bear attacks him and deals 2": the creature's combat damage, the amount said (a creature on
    the table by its name, as the players' one-line hits read "the Ogre hits Dan for 3")."""
    if not reader.facts.events or not reader.facts.knows_event("combat-damage"):
        return None
    creature = _creature_named(reader, match["a"])
    if creature is None:
        return None
    target = reader.affected(reader.refer(match["t"], one=True, alone=True))
    defender, amount = target.players[0], _number(match["n"])
    if defender == _controller(reader, creature):
        raise _Unknown(f"{defender} can't be attacked by their own creature", match["t"])
    hit = {"creature": creature, "to": defender, "amount": amount}
    return _Happening(({"combat-damage": hit},), f"{creature} deals {amount} combat damage to {target.words}",
                      (_controller(reader, creature), defender), extra=(f"life({defender})",))


@PATTERNS(r"(?P<d>.+?) (?:blocks|blocked|block) nothing(?: this (?:turn|combat))?")
def _h_blocks_nothing(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "Sam's commander Ghave blocks nothing": no block (509.1: blocking is a choice); nothing happens, and
    the attack said next deals its damage to the player (510.1a)."""
    named = [c for c, _controller in reader.facts.creatures
             if re.search(rf"(?i)(?:^|\s){re.escape(c)}$", match["d"].strip())]
    if len(named) != 1:
        return None
    return _Happening((), f"{named[0]} blocks nothing")

