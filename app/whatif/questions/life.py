"""Questions about life totals, drawing and venturing."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import Each, Positive, Several
from rulesjudge.app.whatif.grammar import _X, _each, _Grammar, _per_player
from rulesjudge.app.whatif.normalise import _NUMBER
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import _POSS, _Reader

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


_q_life = PATTERNS(
    rf"what(?:'s| is| are) {_X}{_POSS} life(?: totals?)?(?: at)?",
    rf"how (?:much|many) life(?: points)? (?:does|do|would|will) {_X} have(?: left)?",
    rf"what life (?:is|are) {_X} (?:at|on)",
    rf"what(?:'s| is| are) the life(?: totals?)? of {_X}",
    rf"{_X}{_POSS} life(?: totals?)?",
    rf"how much life (?:is|are) {_X} at",
    # "what is her total", "what's Dan at", "what's Ben's starting life total" ("Ben's life to start" and "at
    # the start" are asked of the game's start, app.game_start)
    rf"what(?:'s| is| are) {_X}{_POSS} (?:life )?totals?",
    rf"what(?:'s| is) {_X} (?:at|on)(?: life ?wise| for life| life)?",
    rf"what(?:'s| is| are) {_X}{_POSS} (?:starting|start|opening) life(?: totals?)?",
    rf"how (?:much|many) life(?: points)? (?:does|do|did|would|will) {_X} (?:start|begin)(?: the game)?"
    r"(?: with| at| on)?",
    # "what life total does Opal start at": the same asked with "what"
    rf"what life(?: total)? (?:does|do|did|would|will) {_X} (?:start|begin)(?: the game)?(?: with| at| on)?",
    # "does Mia lose any life" after a block: her total says whether she did
    rf"(?:does|do|did|will|would) {_X} (?:lose|take) (?:any |some )?(?:life|damage)",
    # "how much does Owen take" after a chump block with trample: the total says what got through (702.19b)
    rf"how much(?: damage)? (?:does|do|did|will|would) {_X} (?:take|lose|get hit for)",
    # "how much life does Quinn gain" with a lifelink creature (702.15b): likewise, the total says it
    rf"how much life (?:does|do|did|will|would) {_X} (?:gain|get|lose|take)(?: back)?",
    # "how much does Ben gain" (his lifelinker blocked): the total says it (702.15b)
    rf"how much (?:does|do|did|will|would) {_X} gain(?: back)?",
    # "does Rex gain any life" after his lifelinker is blocked: his total says it (702.15b)
    rf"(?:does|do|did|will|would) {_X} (?:gain|get) (?:any |some )?life(?: back)?",
    # "how much tramples over to Zoe", "how much damage does zoe take from the trample": her total (702.19b)
    rf"how much(?: damage)? (?:tramples?|trampled|goes|went|gets|got|carries|carried|spills?) "
    rf"(?:over|through) to {_X}",
    # "is Ada still at 20?": her total says whether she is
    rf"(?:is|are) {_X} (?:still )?(?:at|on) {_NUMBER}(?: life)?(?: still| now)?",
)(
    _per_player("life", "what is {who}'s life total"))


@PATTERNS(r"how much(?: damage)? (?:tramples?|trampled|goes|went|gets|got|carries|carried|spills?) "
          r"(?:over|through)(?: to the player| to (?:him|her|them))?",
          r"how much trample(?: damage)?(?: is there| gets through| goes through)?",
          # "does any damage trample over": whether any did is the same total
          r"(?:does|did|will|would) (?:any |some )?(?:damage|of it|of the damage) "
          r"(?:trample|go|get|carry|spill) (?:over|through)(?: to the player| to (?:him|her|them))?")
def _q_trampled_over(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "how much tramples over?" after a block: what reached the player the attack was at (702.19b, 510.1c),
    read from that player's life total; not read when no event attacked one player."""
    attacked = reader.focus
    if attacked is None or len(attacked.players) != 1:
        return None
    return _Ask("life", f"what is {attacked.words}'s life total", _each(attacked, "life({p})"),
                attacked.players, Each("life", attacked.players))


@PATTERNS(rf"what(?:'s| is| are) {_X}{_POSS} team(?: life)? totals?(?: now| then)?",
          rf"what(?:'s| is) the (?:team|shared)(?: life)? total (?:of|for) {_X}{_POSS} team",
          # "Xan's team life?", "what's Xan's team life at": the total said without its verb or "total"
          rf"(?:what(?:'s| is) )?{_X}{_POSS} team life(?: totals?)?(?: now| then| at)?")
def _q_team_total(match: re.Match[str], reader: _Reader) -> _Ask:
    """ "what's Cy's team total": the life total a Two-Headed Giant team shares (810.9), asked of each of
    its players (one value); a table without teams has no team total, and the question is refused."""
    who = reader.refer(f"{match['x']}'s team")
    return _Ask("life", f"what is {who.words}'s life total", _each(who, "life({p})"), who.players,
                Each("life", who.players))


@PATTERNS(r"(?:what(?:'s| is| are) )?(?:the |all the |everyone's |everybody's )?life totals(?: now| then)?")
def _q_life_totals(match: re.Match[str], reader: _Reader) -> _Ask:
    """ "Life totals?" after events: each player's (119.1)."""
    who = reader.refer("everyone")
    return _Ask("life", "what is each player's life total", _each(who, "life({p})"), who.players,
                Each("life", who.players))


@PATTERNS(r"what(?:'s| is| are) the (?:starting|start|opening) life(?: totals?)?(?: here| in this game)?",
          r"how much life do (?:we|you|players|the players) (?:start|begin)(?: the game)? with")
def _q_starting_life(match: re.Match[str], reader: _Reader) -> _Ask:
    """ "What's the starting life total?": each player's, at the game's start (app.game_start asks it
    there)."""
    who = reader.refer("everyone")
    return _Ask("life", f"what is {who.words}'s life total", _each(who, "life({p})"), who.players,
                Each("life", who.players))


@PATTERNS(rf"how (?:much|many) (?:does|do|would|will) {_X} have(?: left| now| then)?")
def _q_how_much(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Ann gains 5 life, how much does Ben have": the life total, unless the sentence is about poison."""
    # "Dan has 5 poison, how many does he have": the counters the sentence is about, never his life
    about_poison = reader.topic == "poison" or reader.speaks_of("poison")
    # "how many does he have" counts something; life is said "how much" unless the sentence is about life
    counted = match[0].lower().startswith("how many") and not re.search(r"(?i)\blife\b", reader.sentence)
    return None if about_poison or counted else _q_life(match, reader)


@PATTERNS(rf"where(?:'s| is| are) {_X} at(?: now| then| after (?:that|this|it))?")
def _q_where_at(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Where is Sol at" after life and poison were said: both totals (119.1, 122.1f); only life
    otherwise."""
    # a creature said with infect or toxic ("Ann controls 3/3 creature (3/3 infect)") gives poison counters
    if not (reader.topic == "poison" or any(reader.speaks_of(w) for w in ("poison", "infect", "toxic"))):
        return _q_life(match, reader)
    if not reader.facts.questions or not reader.facts.knows_question("poison"):
        return None
    who = reader.refer(match["x"], one=True)
    player = who.players[0]
    return _Ask("life", f"what are {who.words}'s life total and poison counters",
                (f"life({player})", f"poison({player})"), who.players,
                Several((("life", Each("life", who.players)),
                         ("poison counters", Each("poison", who.players)))))


@PATTERNS(
    r"who (?:draws|gets to draw|would draw|will draw)(?: a card| cards| an extra card| anything)?",
    r"(?:does|do) (?:anyone|anybody) draw(?: a card| cards)?",
)
def _q_who_draws(match: re.Match[str], reader: _Reader) -> _Ask:
    players = tuple(reader.facts.players)
    return _Ask("draws", "who draws a card", tuple(f"draws({p})" for p in players), (),
                Positive("draws", players))


_q_draws = PATTERNS(
    rf"(?:does|do|will|would) {_X} draw(?: a card| cards| an extra card)?",
    rf"how many cards (?:does|do|would|will) {_X} draw",
    # "how many cards does he draw off it": from the designation the sentence is about (725.2, 726.3)
    rf"how many cards (?:does|do|would|will) {_X} draw (?:off|from|for|because of) (?:it|that|the crown|"
    r"the monarch|the monarchy|being (?:the )?monarch)",
)(
    _per_player("draws", "how many cards does {who} draw"))


@PATTERNS(r"who ventures(?: into the undercity)?", r"(?:does|do|will) (?:anyone|anybody) venture")
def _q_who_ventures(match: re.Match[str], reader: _Reader) -> _Ask:
    players = tuple(reader.facts.players)
    return _Ask("ventures", "who ventures into the Undercity", tuple(f"ventures({p})" for p in players), (),
                Positive("ventures", players))


_q_ventures = PATTERNS(rf"(?:does|do|will|would) {_X} venture(?: into the undercity)?")(
    _per_player("ventures", "does {who} venture into the Undercity"))
