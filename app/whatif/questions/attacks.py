"""Questions about attacks (who can attack whom) and the range of influence."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import AllTrue, Attackers, InRange, Several, Targets, Value, can_attack
from rulesjudge.app.whatif.grammar import _X, _Y, _Grammar, _per_player, _said
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import (
    _OBJECTS,
    _POSS,
    _PRONOUN,
    Ref,
    _creature_named,
    _Reader,
    _Unknown,
)

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


_ATTACK = r"(?:attack|swing at|swing into|swing on|go after|hit|attack into|send creatures at|" \
    r"send attackers at)"
_ABLE = r"(?:still |then |now |even )?(?:be )?(?:able to |allowed to |permitted to )?"  # "can Ann still …"
_WHEN = (r"(?: (?:now|this turn|right now|yet|on turn (?:one|1)|on (?:the|their|his|her) first turn|at all|"
         r"with (?:creatures|their creatures|his creatures|her creatures|a creature|anything)|in combat|"
         r"legally|"
         r"with (?:the|his|her|their|its)(?:'s)? [\w'-]+|"
         # "attack Pia and Owen at the same time": two defenders in one combat (802.1: multiple players)
         r"at the same time|at once|in the same combat|both))*")


def _attackers(reader: _Reader, text: str) -> Ref:
    """The attackers a fragment names: "Ann", "Ann's creatures", "the monarch's creatures", a creature on
    the table by name (its controller)."""
    text = re.sub(rf"(?i){_POSS} {_OBJECTS}$", "", text.strip())
    try:
        ref = reader.refer(text)
    except _Unknown:
        creature = _creature_named(reader, text)
        if creature is None:
            raise
        if reader.acted:  # after a steal or a turn passing, whether it may attack is the creature's (302.6)
            raise _Unknown(f"can {creature} attack after what happened? ask who can attack", text) from None
        # "can Ada's Elf attack Di": its controller declares it (508.1a); whom a player may attack is theirs
        controller = next(c for n, c in reader.facts.creatures if n == creature)
        said = re.match(rf"(?i)\s*(?P<owner>[\w-]+(?: [\w-]+)?){_POSS} ", text)
        if said and reader.refer(said["owner"]).players != (controller,):  # "Ben's Bear", the Bear is Ann's
            raise _Unknown(f"{creature} is {controller}'s: whose creature attacks?", text) from None
        return reader._note(Ref((controller,), f"{controller} (with {creature})"))
    if re.fullmatch(_PRONOUN, text, re.IGNORECASE) and all(p in reader.gone for p in ref.players):
        # "if Ann's left neighbour concedes, who can she attack": not the one who just left
        others = [p for p in reader.playing() if p in (*reader.mentioned, *reader.sentence_names)]
        if len(others) != 1:
            raise _Unknown(f"whom does '{text}' stand for? name the player", text)
        return Ref((others[0],), others[0])
    return ref


@PATTERNS(
    rf"(?:can|could|may|is|are|would|will) {_X} {_ABLE}{_ATTACK} (?:just|only) {_Y}(?:,? (?:and|but) not "
    rf"(?P<z>[\w'-]+(?: [\w'-]+)?))?{_WHEN}",
)
def _q_attack_only(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "can Lena attack just Kai and not Zoe?": whether she may attack Kai, and, where teams share their
    turns, that the whole other team defends all the same (805.10a: each player on the nonactive team is a
    defending player; 805.10b: each creature attacks one of them). Elsewhere attacking one player is the
    question (802.1: a player may attack only one)."""
    asked = _q_can_attack(match, reader)
    if asked is None or not reader.facts.shared_turns:
        return asked
    attackers = {q[len("can-attack("):].split(",")[0] for q in asked.questions}
    if not attackers <= set(reader.facts.active):
        raise _Unknown(f"{match['x']} attacks only on their own turn (506.2b): say it is their turn",
                       match["x"])
    questions = (*asked.questions, "defending-players")
    return _Ask("can-attack", f"{asked.words}, and who are the defending players", questions, asked.players,
                Several(((asked.words, asked.headline), ("who are the defending players",
                                                         Value("defending-players")))))


@PATTERNS(
    rf"(?:can|could|may|is|are|would|will) {_X} {_ABLE}{_ATTACK} {_Y}{_WHEN}",
    rf"(?:can|could|may|is|are) {_Y} (?:be )?(?:attacked|attackable) by {_X}{_WHEN}",
)
def _q_can_attack(match: re.Match[str], reader: _Reader) -> _Ask | None:
    attackers = _attackers(reader, match["x"])
    thing = reader.thing(match["y"])
    if thing is not None:  # "can Cat attack the Siege", "can Dan attack Ann's planeswalker" (506.2, 310.8b)
        asked = tuple(can_attack(a, thing) for a in attackers.players)
        return _Ask("can-attack", f"can {attackers.words} attack {thing}", asked, attackers.players,
                    AllTrue(asked))
    either = re.search(r"(?i)\s(?:or|or maybe|and/or)\s", match["y"])
    # "can Mia attack Rex or Jen": each of them asked (yes for one, no for the other is an answer)
    targets = reader.refer(match["y"][: either.start()] + " and " + match["y"][either.end():] if either
                           else match["y"])
    pairs = [(a, t) for a in attackers.players for t in targets.players if a != t]
    if not pairs:
        return None
    if either:
        return _Ask("can-attack", f"can {attackers.words} attack {targets.words.replace(' and ', ' or ')}",
                    tuple(can_attack(a, t) for a, t in pairs), (*attackers.players, *targets.players),
                    Several(tuple((f"can {a} attack {t}", AllTrue((can_attack(a, t),))) for a, t in pairs)))
    return _Ask("can-attack", f"can {attackers.words} attack {targets.words}",
                tuple(can_attack(a, t) for a, t in pairs), (*attackers.players, *targets.players),
                AllTrue(tuple(can_attack(a, t) for a, t in pairs)))


@PATTERNS(
    rf"who(?:m)? (?:can|could|may|is|are|would) {_X} {_ABLE}{_ATTACK}{_WHEN}",
    rf"which (?:players|opponents|player|opponent) (?:can|could|may) {_X} {_ATTACK}{_WHEN}",
    rf"(?:can|could|may) {_X} {_ABLE}{_ATTACK}(?: (?:anyone|anybody|anything|someone|somebody|"
    rf"at all))?{_WHEN}",
)
def _q_attack_targets(match: re.Match[str], reader: _Reader) -> _Ask | None:
    attackers = _attackers(reader, match["x"])
    pairs = [(a, t) for a in attackers.players for t in reader.playing() if t != a]
    if not pairs:
        return None
    return _Ask("attack-targets", f"whom can {attackers.words} attack",
                tuple(can_attack(a, t) for a, t in pairs), attackers.players,
                Targets(tuple(pairs)))


@PATTERNS(
    rf"who (?:can|could|may) (?:attack|swing at|go after) {_Y}{_WHEN}",
    rf"who is (?:able|allowed) to attack {_Y}{_WHEN}",
    rf"(?:can|could) (?:anyone|anybody|someone|somebody) attack {_Y}{_WHEN}",
    rf"is {_Y} attackable{_WHEN}",
)
def _q_attackers_of(match: re.Match[str], reader: _Reader) -> _Ask | None:
    thing = reader.thing(match["y"])
    if thing is not None:  # "who can attack Jace": each player still in (the model says who, 506.2/310.8b)
        pairs = [(a, thing) for a in reader.playing()]
        return _Ask("attackers-of", f"who can attack {thing}",
                    tuple(can_attack(a, t) for a, t in pairs), (), Attackers(tuple(pairs)))
    targets = reader.refer(match["y"])
    pairs = [(a, t) for t in targets.players for a in reader.playing() if a != t]
    if not pairs:
        return None
    return _Ask("attackers-of", f"who can attack {targets.words}",
                tuple(can_attack(a, t) for a, t in pairs), targets.players,
                Attackers(tuple(pairs)))


@PATTERNS(
    rf"who(?:'s| is)? (?:protects|protecting|the protector of|guards|guarding) {_Y}",
    rf"who(?:'s| is) {_Y}{_POSS} protector",
    rf"who is {_Y} protected by",
)
def _q_protector(match: re.Match[str], reader: _Reader) -> _Ask | None:
    thing = reader.thing(match["y"])
    if thing is None or not reader.facts.knows_question("protector"):
        return None
    return _Ask("protector", f"who protects {thing}", (f"protector({thing})",), (),
                Value(f"protector({thing})"))


@PATTERNS(
    rf"(?:what(?:'s| is)|how much|how many) {_Y}{_POSS} (?P<what>defense|loyalty)(?: counters)?"
    r"(?: now| left)?",
    rf"how many (?P<what2>defense|loyalty)(?: counters)? (?:does|is|will|would) {_Y} (?:have|on|at)"
    r"(?: left| now)?",
    rf"how much (?P<what3>defense|loyalty) (?:does|will|would) {_Y} have(?: left| now)?",
)
def _q_counters_on(match: re.Match[str], reader: _Reader) -> _Ask | None:
    thing = reader.thing(match["y"])
    what = _said(match, "what", "what2", "what3")
    if thing is None or what is None or not reader.facts.knows_question(what.lower()):
        return None
    question = f"{what.lower()}({thing})"
    return _Ask(what.lower(), f"how much {what.lower()} does {thing} have", (question,), (),
                Value(question))


_RANGE = r"range(?: of influence)?"


@PATTERNS(
    rf"is {_Y} (?:with)?in {_X}{_POSS} {_RANGE}",
    rf"is {_Y} (?:with)?in (?:the )?{_RANGE} of {_X}",
    rf"(?:does|do) {_X} have {_Y} (?:with)?in (?:their|his|her|its)(?:'s)? {_RANGE}",
    rf"is {_Y} in range (?:of|for) {_X}",
    rf"can {_X} (?:reach|affect) {_Y}",
)
def _q_in_range(match: re.Match[str], reader: _Reader) -> _Ask | None:
    source = reader.refer(match["x"], one=True, alone=True)
    others = reader.refer(match["y"])
    pairs = [(source.players[0], o) for o in others.players if o != source.players[0]]
    if not pairs:
        return None
    return _Ask("in-range", f"is {others.words} within {source.words}'s range of influence",
                tuple(f"in-range({s}, {o})" for s, o in pairs), (source.players[0], *others.players),
                AllTrue(tuple(f"in-range({s}, {o})" for s, o in pairs)))


@PATTERNS(
    rf"who(?:'s| is| are)? (?:with)?in {_X}{_POSS} {_RANGE}",
    rf"who(?:'s| is)? (?:with)?in (?:the )?{_RANGE} of {_X}",
    rf"who can {_X} (?:reach|affect)",
    rf"who(?:m)? does {_X}{_POSS}? {_RANGE} (?:reach|cover|include)",
)
def _q_who_in_range(match: re.Match[str], reader: _Reader) -> _Ask:
    source = reader.refer(match["x"], one=True, alone=True)
    player = source.players[0]
    others = [p for p in reader.facts.players if p != player]
    return _Ask("who-in-range", f"who is within {source.words}'s range of influence",
                (f"range({player})", *(f"in-range({player}, {o})" for o in others)), (player,),
                InRange(player, tuple(others)))


_q_range = PATTERNS(
    rf"what(?:'s| is) {_X}{_POSS} {_RANGE}",
    # "Ann's range of influence?", "range of influence for Cat?", "what range does Cat have"
    rf"{_X}{_POSS} {_RANGE}",
    rf"(?:what(?:'s| is) (?:the )?)?{_RANGE} (?:for|of) {_X}",
    rf"what {_RANGE} does {_X} have",
    rf"how (?:far|big|large|wide) is {_X}{_POSS} {_RANGE}",
    rf"how far (?:does|can) {_X}{_POSS}? (?:{_RANGE} )?(?:reach|go|extend)",
)(
    _per_player("range", "what is {who}'s range of influence", one=True))
