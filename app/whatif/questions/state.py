"""Questions about the table's state: a legal setup, defending players, priority, poison, commander damage,
and "what happens"."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import EachOf, Gone, Member, Several, Value
from rulesjudge.app.whatif.grammar import _X, _Grammar, _per_player
from rulesjudge.app.whatif.plan import WHAT_HAPPENS, _Ask
from rulesjudge.app.whatif.references import _POSS, _creature_named, _Reader, _Unknown

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


@PATTERNS(
    r"is (?:this|the|that|our) (?:table|setup|set-up|set up|game|deal|identity deck|deck|seating|"
    r"draw of identities)"
    r" (?:legal|allowed|valid|ok|okay|right)",
    r"is this (?:a )?(?:legal|valid) (?:setup|deal|table|game|identity deck|seating)",
    r"(?:are|were) (?:the|these|our) (?:identities|roles|teams|seats) (?:dealt )?(?:legal|valid|right|ok)",
    r"(?:is|was) (?:the|this) (?:identity deck|deal) (?:built|dealt) (?:right|correctly|legally)",
    r"legal setup",
)
def _q_legal(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("legal-setup", "is the setup legal", ("legal-setup",), headline=Value("legal-setup"))


@PATTERNS(
    r"who(?:'s| is| are) (?:the )?defending players?",
    r"who(?:'s| is| are) defending",
    r"who (?:gets|can get|would get) attacked",
)
def _q_defending(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("defending-players", "who are the defending players", ("defending-players",),
                headline=Value("defending-players"))


@PATTERNS(rf"who(?:'s| is| are) (?:the )?defending players? (?:when|if|as|whenever) {_X} attacks?",
          rf"who (?:defends|is defending|are defending) (?:when|if|as) {_X} attacks?")
def _q_defending_when(match: re.Match[str], reader: _Reader) -> _Ask:
    """ "Who are the defending players when Ada's team attacks?": the active player's (506.2), so asked only
    of the players whose turn it is; another's attack would be on their own turn, which the question leaves
    unsaid (refused: say whose turn it is)."""
    who = reader.refer(match["x"])
    if not set(who.players) & set(reader.facts.active):
        raise _Unknown(f"{who.words} attacks only on their own turn (506.2): say it is their turn",
                       match["x"])
    return _Ask("defending-players", "who are the defending players", ("defending-players",), who.players,
                Value("defending-players"))


@PATTERNS(
    r"who (?:has|gets|receives|would get|will get|would have|will have|holds) priority",
    r"who(?:'s| is) (?:on|holding|given) priority",
    r"whose priority is it",
    r"who (?:can|may|gets to) (?:act|cast (?:a )?spells?|respond)(?: first)?",
    r"who (?:has|gets|receives) priority (?:first|next|now|then)",
    rf"(?:does|do|would|will) {_X} (?:have|get|receive|hold) priority(?: first| next| now| then)?",
)
def _q_priority(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.knows_question("priority") or not reader.facts.questions:
        return None
    if match.groupdict().get("x"):  # "does Cat have priority": yes or no, with the holder
        who = reader.refer(match["x"], one=True, alone=True)
        return _Ask("priority", f"does {who.words} receive priority", ("priority",), who.players,
                    Member("priority", who.players, False))
    return _Ask("priority", "who receives priority", ("priority",), headline=Value("priority"))


_q_poison = PATTERNS(
    rf"how (?:much|many) poison(?: counters)? (?:does|do|would|will) {_X} have",
    rf"what(?:'s| is) {_X}{_POSS} poison(?: count| counters| total)?",
    rf"how (?:much|many) poison(?: counters)? (?:is|are) {_X} (?:at|on)",
)(
    _per_player("poison", "how many poison counters does {who} have", new=True))


@PATTERNS(r"how (?:much|many) poison(?: counters)? (?:is that|is it|does the team have|do they have|"
          r"(?:does|do) they have (?:together|combined|in total)|(?:is|does) (?:the|their) team (?:at|have))"
          r"(?: for (?:the|their) team| in total| together| combined| total| for them| now)?",
          r"what(?:'s| is) (?:the|their) team(?:'s)? poison(?: count| counters| total)?(?: now)?")
def _q_team_poison(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Tam has 6 poison and Uma has 8 - how much poison is that for the team": the one count a Two-Headed
    Giant team shares (810.10), of the team every player the question named is on; none otherwise."""
    if not reader.facts.questions or not reader.facts.knows_question("poison"):
        return None
    named = [p for p in reader.facts.players if any(re.search(rf"(?i)\b{re.escape(p)}\b", words)
                                                    for words in (reader.sentence, *reader.facts.said))]
    pools = {reader.facts.pools.get(p) for p in named}
    if not named or len(pools) != 1 or None in pools:
        return None
    team = tuple(p for p in reader.facts.players if reader.facts.pools.get(p) in pools)
    if len(team) < 2:
        return None
    return _Ask("poison", f"how many poison counters does the team ({' and '.join(team)}) have",
                (f"poison({team[0]})",), team, Value(f"poison({team[0]})"))


@PATTERNS(rf"how many (?:counters |of them )?(?:does|do|would|will) {_X} have"
            r"(?: now| then| in total| total)?")
def _q_how_many_poison(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Dan gets one more poison counter, how many does he have": "how many" of what the sentence gave."""
    if reader.topic != "poison" and not reader.speaks_of("poison"):
        return None
    return _q_poison_each(match, reader)


_q_poison_each = _per_player("poison", "how many poison counters does {who} have", new=True)


@PATTERNS(
    r"how (?:much|many) poison(?: counters)? (?:kills?|does it take (?:for (?:you|a player|a team|someone) )?"
    r"to (?:kill|lose)|do you need to lose|"
    r"makes? (?:you|a player|someone|a team|one) lose|(?:do|does) (?:you|a player|a team) (?:need )?to lose)"
    r"(?: you| a player| someone| a team)?",
    r"what(?:'s| is) the poison (?:number|limit|count|amount|threshold)"
    r"(?: to lose| that kills| you lose at)?",
    r"how (?:much|many) poison(?: counters)? (?:is|are) (?:lethal|deadly|a loss|too many)",
    r"at how (?:much|many) poison(?: counters)? (?:do|does) (?:you|a player|a team) lose",
)
def _q_poison_limit(match: re.Match[str], reader: _Reader) -> _Ask | None:
    return _poison_limit(reader, reader.playing()[0])


@PATTERNS(
    rf"how (?:much|many) poison(?: counters)? (?:(?:does it|would it|will it) take )?"
    rf"to (?:kill|knock out|take out) {_X}",
    rf"how (?:much|many) poison(?: counters)? (?:kills?|would kill|will kill) {_X}",
)
def _q_poison_limit_of(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "How many poison counters to kill Tam and Uma": the number for those players (704.5c; a Two-Headed
    Giant team's, 704.6b), said of the first of them."""
    who = reader.refer(match["x"])
    return _poison_limit(reader, who.players[0])


def _poison_limit(reader: _Reader, first: str) -> _Ask | None:
    """ "How many poison counters kill you?": the number for the players at this table (704.5c; a Two-Headed
    Giant team's, 704.6b), said of the first still in, and who is still in (a total said beside it counts)."""
    if not reader.facts.knows_question("poison-limit") or not reader.facts.questions:
        return None
    return _Ask("poison-limit", "how many poison counters make a player lose", (f"poison-limit({first})",
                "in-game"), (), Several((("how many poison counters make a player lose",
                                         Value(f"poison-limit({first})")),
                                        ("who is still in", Value("in-game")))))


_STILL = r"(?:still )?(?:around|there|here|on the (?:battle)?field|in play|on the table|on (?:the )?board|" \
    r"alive)"
#: "is the goblin gone", "is the Bear dead": no longer on the battlefield
_GONE = r"(?:gone|dead|destroyed|in the graveyard|off the battlefield|still dead)"


@PATTERNS(
    rf"who (?P<verb>controls|owns|has) {_X}(?: now| then)?",
    # "whos got the elf", "who ends up with the Wurm": who controls it
    rf"who(?:'s| has) (?P<verb>got) {_X}(?: now| then)?",
    rf"who (?:ends|ended|end) up (?P<verb>with) {_X}",
    rf"who(?:'s| is) (?P<verb>controlling|in control of) {_X}",
    rf"(?P<verb>whose) (?:is|'s) {_X}(?: now| then)?",
    rf"is {_X} {_STILL}",
    rf"is {_X} (?P<gone>{_GONE})(?: now| then)?",
    # "does the Ogre die": whether it left the battlefield (704.5g: lethal damage destroys it)
    rf"(?:does|do|will|would|did) {_X} (?P<gone>die|get destroyed|get killed|bite it)(?: now| then)?",
    rf"(?:does|do|will|would) {_X} (?:stay|remain|survive|stick around)"
    r"(?: on the (?:battle)?field| in play| around| on (?:the )?board| on the table)?",
    rf"what happens to {_X}",
    rf"where(?:'s| is| does| did) {_X}(?: go| end up| go to| wind up)?(?: now| then)?",
    rf"(?:does|do|will|would) (?P<keeper>.+?) (?:keep|still (?:control|have)) {_X}",
)
def _q_creature(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """A creature on the table (``TableFacts.creatures``): "who controls the Wolf", "who owns Edgar", "is the
    Wolf still around", "does Krenko stay on the battlefield", "what happens to the Ogre"."""

    creature = _creature_named(reader, match["x"])
    if creature is None:
        return None
    verb = (match.groupdict().get("verb") or "").lower()
    if match[0].lower().startswith("where"):  # the zone it is in (400.1), and whether it is still in play
        return _Ask("zone", f"where is {creature}", (f"zone({creature})", f"exists({creature})"),
                    headline=Value(f"zone({creature})"))
    if match.groupdict().get("keeper"):  # "does Cat keep the Goblin": who controls it, Cat or another
        keeper = reader.refer(match["keeper"], one=True)
        return _Ask("controller", f"does {keeper.words} keep {creature}",
                    (f"controller({creature})", f"exists({creature})"),
                    keeper.players, headline=Value(f"controller({creature})"))
    if verb == "whose":  # "whose is the Bear": its owner or its controller - both said, neither guessed
        return _Ask("owner-and-controller", f"who owns and who controls {creature}",
                    (f"owner({creature})", f"controller({creature})", f"exists({creature})"),
                    headline=Several(((f"who owns {creature}", Value(f"owner({creature})")),
                                      (f"who controls {creature}", Value(f"controller({creature})")))))
    if verb == "owns":
        return _Ask("owner", f"who owns {creature}", (f"owner({creature})",),
                    headline=Value(f"owner({creature})"))
    if verb:  # and whether it is still there: nobody controls a creature that left (800.4a)
        return _Ask("controller", f"who controls {creature}",
                    (f"controller({creature})", f"exists({creature})"),
                    headline=Value(f"controller({creature})"))
    questions: tuple[str, ...] = (f"exists({creature})", f"controller({creature})")
    if match.groupdict().get("gone"):  # "is it gone": yes when it no longer exists on the battlefield
        # "does the Knight die" after a block: the creatures it fought beside it, in the report (704.5g)
        questions += tuple(f"exists({c})" for c, _controller in reader.facts.creatures if c != creature
                           and re.search(rf"(?i)\b{re.escape(c)}\b", reader.sentence))
        return _Ask("exists", f"has {creature} left the battlefield", questions, headline=Gone(
            f"exists({creature})"))
    return _Ask("exists", f"is {creature} still on the battlefield", questions,
                headline=Value(f"exists({creature})"))


@PATTERNS(r"(?:which|what) (?:creatures?|ones?|one of them|of them|of the creatures|permanents?) "
          r"(?:dies|die|died|is destroyed|are destroyed|gets destroyed|get destroyed|survives?|is left|"
          r"are left)",
          r"what (?:dies|survives)",
          # "does anything die?" after a block: each creature that fought (704.5g)
          r"(?:does|do|will|would|did) (?:anything|any creatures?|either(?: one| creature)?|either of them|"
          r"one of them) (?:die|survive)(?: now| then)?")
def _q_which_creatures(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Which creature dies?" after a block: each creature the sentence names (else each on the table),
    whether it is still on the battlefield (704.5g destroys one with lethal damage marked)."""
    creatures = [name for name, _controller in reader.facts.creatures]
    named = [c for c in creatures if re.search(rf"(?i)\b{re.escape(c)}\b", reader.sentence)]
    creatures = named or creatures  # the creatures the sentence speaks of, else every one on the table
    if not creatures:
        return None
    questions = tuple(f"exists({c})" for c in creatures)
    return _Ask("exists", "which creatures are still on the battlefield", questions, headline=Several(
        tuple((f"is {c} still on the battlefield", Value(f"exists({c})")) for c in creatures)))


@PATTERNS(r"(?:do|did|will|would) (?:they |the two(?: creatures)? )?both(?: of them| creatures)? die"
          r"(?:,? right)?",
          r"(?:are|were) (?:they |the two(?: creatures)? )?both (?:dead|destroyed)(?:,? right)?",
          r"both (?:die|dead|destroyed)(?:,? right)?")
def _q_both_die(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "both die right?" after a block: whether each of the two creatures the sentence names is still on the
    battlefield (704.5g); not read when it names more or fewer than two."""
    named = [c for c, _controller in reader.facts.creatures
             if re.search(rf"(?i)\b{re.escape(c)}\b", reader.sentence)]
    if len(named) != 2 or not reader.facts.knows_question("exists"):
        return None
    questions = tuple(f"exists({c})" for c in named)
    return _Ask("exists", f"do {named[0]} and {named[1]} both die", questions, headline=Several(
        tuple((f"has {c} left the battlefield", Gone(f"exists({c})")) for c in named)))


@PATTERNS(rf"how much damage (?:is|'s) (?:marked )?on {_X}(?: now| then)?",
          # "Damage on Zada?", "what's the damage on the Ogre": said without its verb
          rf"(?:what(?:'s| is) )?(?:the )?damage (?:marked )?on {_X}(?: now| then)?",
          # "how much damage does the Ogre take": a creature's (a player's is the life questions')
          rf"how much damage (?:does|did|will|would) {_X} (?:take|get|have)",
          rf"how much damage (?:does|did|has) {_X} (?:have|got|get|taken|take) (?:marked )?on (?:it|him|her)")
def _q_damage_marked(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "How much damage is on the Troll?": the damage marked on a creature this turn (120.3e, 120.6); a
    player is not a creature (the life questions read "how much damage does Wes take")."""
    creature = _creature_named(reader, match["x"])
    if creature is None or not reader.facts.knows_question("damage"):
        return None
    return _Ask("damage", f"how much damage is marked on {creature}", (f"damage({creature})",),
                headline=Value(f"damage({creature})"))


@PATTERNS(rf"is {_X} (?P<attacking>attacking|an attacking creature|(?:still )?in combat)(?: now| then)?")
def _q_attacking(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Is the Ogre attacking?": declared as an attacker and still in combat (508.1; 508.1a: a tapped
    creature can't be declared)."""
    creature = _creature_named(reader, match["x"])
    if creature is None or not reader.facts.knows_question("attacking"):
        return None
    return _Ask("attacking", f"is {creature} attacking", (f"attacking({creature})",),
                headline=Value(f"attacking({creature})"))


@PATTERNS(rf"is {_X} (?:still )?blocked(?: now| then)?",
          r"(?:is (?:that|this|it|the block|that block) )?(?:legal|allowed|a legal block|ok|okay|possible)"
          r"(?: (?:block|blocker))?")
def _q_blocked(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Is the Ogre blocked?", and "Legal?" after a block said in the sentence: whether the block stood
    (509.1a; 802.4a: a defending player blocks only creatures attacking them; 805.10d: a Two-Headed Giant
    team blocks together). The model refuses an illegal block and says why."""
    said = match.groupdict().get("x")
    if said is None and not re.search(r"(?i)\b(?:block|blocks|blocked|chumps?)\b", reader.sentence):
        return None
    creature = _creature_named(reader, said if said is not None else "it")
    if creature is None:
        return None
    return _Ask("blocked", f"is {creature} blocked", (f"blocked({creature})",),
                headline=Value(f"blocked({creature})"))


_ONE_LINE_HIT = re.compile(r"(?i)\b(?:attack|swing|swung|hit|connect|smack|punch|crack|bash|clock|deal)")
_BLOCKED = re.compile(r"(?i)\bblock(?:s|ed)? (?!nothing)")


@PATTERNS(rf"is {_X} (?P<state>tapped|untapped)(?: now| then| right now)?")
def _q_tapped(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Is the Dragon tapped?": a permanent on the table (110.5; attacking taps it, 508.1f, unless it has
    vigilance). "Is it untapped" is answered as whether it is tapped, said in words."""
    creature = _creature_named(reader, match["x"])
    if creature is None or not reader.facts.knows_question("tapped"):
        return None
    if _ONE_LINE_HIT.search(reader.sentence) and not _BLOCKED.search(reader.sentence):
        # a hit read in one line ("the Dragon attacks Mia") is its damage alone, no declared attack that
        # taps it (508.1f): not answered from it; a block is played through the combat steps, which do
        return None
    return _Ask("tapped", f"is {creature} tapped", (f"tapped({creature})",),
                headline=Value(f"tapped({creature})"))


@PATTERNS(
    rf"how much commander damage (?:has|have|does|did) {_X} (?:taken|take|got|gotten|have|has)"
    rf"(?: (?:from|off|of) (?P<c>.+?))?",
    rf"how much (?P<c2>.+?) damage (?:has|have) {_X} taken",
    # "Commander damage to Theo?": asked in a word or two after the story
    rf"(?:what(?:'s| is) (?:the )?)?commander damage (?:to|on|for|dealt to|taken by) {_X}",
    # "does sam take the commander damage (from zurgo)": his count says whether he did
    rf"(?:does|do|did|will|would) {_X} (?:take|get) (?:the |any |more )?commander damage"
    rf"(?: (?:from|off|of) (?P<c3>.+?))?",
    # "does that count as commander damage for Tam": his count says whether it did (903.10a)
    rf"(?:does|do|did|will|would) (?:that|it|this|the hit|the damage) (?:count|still count) as "
    rf"commander damage (?:for|to|on|against) {_X}",
)
def _q_commander_damage(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.knows_question("commander-damage") or not reader.facts.questions:
        return None
    who = reader.refer(match["x"], one=True, alone=True)
    named = match.groupdict().get("c") or match.groupdict().get("c2") or match.groupdict().get("c3")
    commanders = [c for c, _owner in reader.facts.commanders]
    if named:
        chosen = [c for c in commanders if c.casefold() == named.strip().casefold()]
        if not chosen:  # "from Ann's commander": the commanders Ann owns
            owner = reader.owner(re.sub(rf"(?i){_POSS}(?: commander)?$", "", named.strip()))
            chosen = [c for c, o in reader.facts.commanders if o == owner]
        commanders = chosen
    if not commanders:
        return None
    player = who.players[0]
    questions = tuple(f"commander-damage({player}, {c})" for c in commanders)
    return _Ask("commander-damage", f"how much commander damage has {who.words} taken", questions, (player,),
                EachOf(questions))


@PATTERNS(
    r"what (?:happens|would happen|will happen|changes|then)(?: next| now| then)?",
    r"what(?:'s| is) the (?:state of the )?(?:game|table)",
    r"what does (?:the|this) (?:table|game) look like",
    # "does anything change?", "does that change anything": what is different once it happened
    r"(?:does|did|will|would) (?:anything|something) change",
    r"(?:does|did|will|would) (?:that|this|it) change anything",
)
def _q_what_happens(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("what-happens", "what happens", WHAT_HAPPENS)
