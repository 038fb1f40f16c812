"""Questions about turns: whose turn, the next, the order, who plays after whom, APNAP, who goes first."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import After, Member, Several, Turn, Value
from rulesjudge.app.whatif.grammar import _X, _Grammar
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.questions.crown import _BE
from rulesjudge.app.whatif.references import _POSS, _Reader

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


@PATTERNS(r"who (?:has|holds|have|hold|got) (?:the |a )?turn markers?",
          # "who gets her turn marker": the markers as they stand after the events (807.4c: passed left)
          rf"who (?:gets|takes|receives|has|holds) (?:(?:his|her|their)(?:'s)? |{_X}{_POSS} |the )turn marker"
          r"(?: now| next| then)?")
def _q_turn_markers(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """Grand Melee (807.4): the players holding turn markers."""
    if not reader.facts.questions or not reader.facts.knows_question("turn-markers"):
        return None
    if match.groupdict().get("x"):
        reader.refer(match["x"], one=True)  # "Ann's turn marker": a player at the table
    return _Ask("turn-markers", "who holds the turn markers", ("turn-markers",),
                headline=Value("turn-markers"))


@PATTERNS(
    r"(?:does|will|would|did) the (?:number|count) of (?:turn )?markers (?:change|go down|drop)",
    r"how many (?:turn )?markers are (?:there|left|in play)(?: now)?",
    r"(?:is|does|will|would) (?:a|one|any) (?:turn )?marker (?:get |be )?(?:removed|taken away|go away)",
    r"which (?:turn )?marker (?:is|gets|will be) removed",
    r"what happens to the (?:turn )?markers",
)
def _q_markers_removed(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """Grand Melee: the markers after a player leaves: who holds them, and which are designated for removal
    (807.4a: one per full four players; 807.4e: the one to the leaving player's right is marked)."""
    if not all(reader.facts.knows_question(q) for q in ("turn-markers", "marked-for-removal")):
        return None
    return _Ask("turn-markers", "who holds the turn markers, and which are designated for removal",
                ("turn-markers", "marked-for-removal"),
                headline=Several((("who holds the turn markers", Value("turn-markers")),
                                  ("which are designated for removal", Value("marked-for-removal")))))


@PATTERNS(
    r"who (?:goes|plays|takes (?:a|the|their) turn|gets to go|gets to play) first",
    r"who (?:starts|begins|takes the first turn|gets the first turn|starts the game|begins the game)",
    r"who(?:'s| is) the (?:starting|first) player",
    r"who (?:can|may|could|should|will|would) (?:go|play|start|take the first turn)(?: first)?",
)
def _q_first_player(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.knows_question("first-player"):
        return None
    return _Ask("first-player", "who takes the first turn", ("first-player",),
                headline=Value("first-player"))


@PATTERNS(
    r"whose turn(?: is it| will it be| would it be| is it going to be| is this| is that| comes next| is next|"
    r" is it next)?",
    rf"who{_BE}? (?:the )?(?:new )?active players?",
    r"who(?:'s| is) (?:active|on turn|up|up next|next)",
    r"who (?:plays|goes|takes a turn|takes the next turn|has the next turn|gets the next turn|is next|"
    r"plays next|"
    r"goes next|comes next)",
    r"whose turn (?:comes|is|will be|would be) after this one",
    # Grand Melee: several take turns at once
    r"who(?:'s| is| are) taking (?:a |their |the )?turns?(?: right(?: now)?)?",
    # "is there an active player": the turn may go on without one (800.4j), which the answer says
    r"(?:is there|do we have|does the game have) (?:an |still an |any )?active players?"
    r"(?: still| now| left)?",
    # "what happens to the turn if Alex leaves in his own main phase": who is active now, who plays next
    # (800.4j: the turn goes on without an active player)
    r"what happens (?:to|with) (?:the|this|that|(?:his|her|their)(?:'s)?) (?:current )?turn",
    # "does the turn just keep going?" after the active player leaves: it does, without one (800.4j)
    r"(?:does|will|would) (?:the|this|that|(?:his|her|their)(?:'s)?) (?:current )?turn (?:just |still )?"
    r"(?:keep going|go on|continue|carry on)",
)
def _q_turn(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("turn", "whose turn is it, and who takes the next turn", ("active", "next-turn"),
                headline=Turn())


@PATTERNS(
    rf"is it (?:still )?{_X}{_POSS} turn",
    rf"is {_X} (?:still )?(?:the |an |one of the )?active(?: player| players| team)?",
    rf"is {_X} taking a turn(?: now)?",
)
def _q_is_active(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"], one=True, alone=True)
    return _Ask("turn", f"is {who.words} the active player", ("active", "next-turn"), who.players,
                Member("active", who.players, False))


@PATTERNS(
    r"(?:what(?:'s| is) the (?:new )?)?turn order",
    r"(?:in )?what order do (?:we|they|the players|players) (?:play|take turns|go)(?: in)?",
    r"(?:how|in what order) do (?:the )?turns go",
    # "who does Uma's turn come after": who plays before her is read off the order itself (101.4)
    rf"who (?:does|will|would) {_X}{_POSS} turn (?:come|be) (?:right )?after",
    # "is the order still Rae Sol Uma": the order as it stands answers it, whatever the list said
    r"is the (?:turn )?order (?:still|now)"
    r"(?P<order> (?:[A-Za-z][\w'-]*)(?:,? (?:and |then )?[A-Za-z][\w'-]*)*)?",
)
def _q_turn_order(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if match.groupdict().get("x"):
        reader.refer(match["x"], one=True)  # "Uma's turn": a player at the table
    listed = re.split(r",? (?:and |then )?", (match.groupdict().get("order") or "").strip())
    names = {p.casefold() for p in reader.facts.players}
    if any(word and word.casefold() not in names for word in listed):
        return None  # "is the order still ann, cat, dan, if ben concedes ...": the list is of players only
    return _Ask("turn-order", "what is the turn order", ("turn-order",), headline=Value("turn-order"))


@PATTERNS(
    rf"who(?: plays| goes| comes| is|'s| takes (?:a|their) turn)(?: next| up next| up)? (?:right )?"
    rf"after {_X}",
    # "whose turn is next after Rae", "whose turn after Uma?" (the verb dropped, as typed)
    rf"whose turn(?: is| comes| is it| will it be| would it be)?(?: next| up next)? (?:right )?after "
    rf"{_X}{_POSS}?(?: turn)?",
    rf"who (?:takes|gets|has|plays) the (?:next )?turn (?:right )?after {_X}{_POSS}?(?: turn)?",
)
def _q_after(match: re.Match[str], reader: _Reader) -> _Ask:
    """Who plays after X: the turn order, or the next turn when X is the active player (an extra turn may
    come first, 500.7). A team that takes its turns as one (805.4: "after Ada and Bo") is asked by its first
    player said."""
    who = reader.refer(match["x"])
    team = set(who.players[:1]) | set(reader.teammates(who.players[0]))
    if len(who.players) > 1 and not (reader.facts.shared_turns and set(who.players) <= team):
        who = reader.refer(match["x"], one=True, alone=True)  # several who don't share a turn: refused
    return _Ask("turn-order", f"who plays after {who.words}", ("turn-order", "active", "next-turn"),
                who.players, After(who.players[0], _turn_groups(reader)))


@PATTERNS(
    rf"who(?:'s| is| sits| sat| will sit|'ll sit) (?:on|to) {_X}{_POSS} left(?: now| then)?",
    rf"who(?:'s| is| sits) (?:on |to )?the left of {_X}(?: now| then)?",
    rf"who(?:'s| is) {_X}{_POSS} left[- ]?(?:hand )?neighbou?r(?: now| then)?",
)
def _q_on_left(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Who sits on Mia's left?": the next player still in, the way turns pass (101.4: to the left; the
    seats of players who left close up, 800.4). Not where a team takes its turns as one (805.4): the seat
    beside a player is then no turn's."""
    if reader.facts.shared_turns:
        return None
    return _q_after(match, reader)


def _turn_groups(reader: _Reader) -> tuple[tuple[str, ...], ...]:
    """The teams that take their turns as one, each in seat order (805.4); () where each plays alone."""
    facts = reader.facts
    if not facts.shared_turns:
        return ()
    teams = dict.fromkeys(facts.teams.get(p, p) for p in facts.players)
    return tuple(tuple(p for p in facts.players if facts.teams.get(p, p) == team) for team in teams)


@PATTERNS(
    r"(?:what(?:'s| is) the )?apnap(?: order)?",
    r"in what order do (?:we|players|the players) (?:put|choose|order|stack) (?:our |their )?(?:triggers|"
    r"abilities|triggered abilities)(?: on the stack)?",
)
def _q_apnap(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("apnap-order", "what is the APNAP order", ("apnap-order",), headline=Value("apnap-order"))
