"""Questions about who is still in, who wins and who loses."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import Gone, Member, Several, Value, Winners
from rulesjudge.app.whatif.grammar import _X, _Grammar
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import _Reader

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


@PATTERNS(
    r"who(?:'s| is| else is)? (?:still )?(?:in|left|alive|standing|playing|remaining|"
    r"around)(?: in)?(?: the game)?",
    r"who remains(?: in the game)?",
    r"how many (?:players|people) (?:are )?(?:left|remain|still in|still playing)(?: in)?(?: the game)?",
)
def _q_in_game(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("in-game", "who is still in the game", ("in-game",), headline=Value("in-game"))


def _results(players: tuple[str, ...]) -> tuple[str, ...]:
    """Each named player's own result, asked beside a list: once a team wins, everyone else still in loses as
    the game ends (a Traitor when the Assassins win, 907.8a), and "does Ben lose?" asks about Ben, not the
    whole list."""
    return tuple(f"result({p})" for p in players)


@PATTERNS(
    rf"(?:is|are) {_X} (?:still (?:in|alive|playing|in the game)|alive|still standing)",
    rf"(?:does|do|will|would|can) {_X} (?:survive|live|stay in|stay alive|make it)(?: the game)?",
    # "does Di keep playing", "can Bo play on": whether the player is still in (104.3, 810.8a)
    rf"(?:does|do|will|would|can|could) {_X} (?:still )?(?:keep (?:playing|going)|play on|go on|carry on|"
    r"continue(?: playing)?|stay in)(?: the game)?",
    # "do mia and raj still play": still playing, asked with "do"
    rf"(?:does|do) {_X} still (?:play|get to play|have a game)",
    rf"what (?:happens|would happen|will happen|happened) (?:to|with) {_X}",
)
def _q_still_in(match: re.Match[str], reader: _Reader) -> _Ask:
    """ "is Cat still in", "what happens to Ben" (after Ann concedes in Two-Headed Giant: does he leave
    too)."""
    who = reader.refer(match["x"])
    # the game's end asked too: a player still in a game that is over has won it (104.2a), which is what
    # "what happens to Liam" after everyone else loses asks - "still in" alone would hide it
    return _Ask("in-game", f"is {who.words} still in the game",
                ("in-game", "game-over", "winners", *_results(who.players)),
                who.players, Member("in-game", who.players, False))


@PATTERNS(
    r"who(?:'s won| (?:wins|won|will win|would win|is the winner|are the winners|gets the win|takes the game|"
    r"takes it|is winning|has won))(?: the game)?",
    r"(?:does|would|will) (?:anyone|anybody|someone|somebody) win(?: the game)?",
    r"which (?:team|side|player|players) (?:wins|won|would win|will win)(?: the game)?",
    r"(?:is|would|will) (?:it|the game) (?:be )?over",
    # "is the game still going", "does the game go on": asked as whether it is over
    r"is (?:the game|it) still (?:going|on|running|in progress)",
    # "..., game still going?": typed short
    r"(?:the )?game (?:still )?(?:going|on|running|in progress|over)",
    r"(?:does|would|will) (?:the game|it) (?:go on|continue|keep going|carry on)",
    r"(?:does|would|will) the game (?:end|stop|finish|be over)",
    r"is there a winner",
    r"(?:what(?:'s| is) the )?(?:result|outcome)(?: of the game)?",
)
def _q_winners(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("winners", "who wins", ("game-over", "winners"), headline=Winners())


@PATTERNS(
    rf"(?:does|do|will|would|did|can) {_X} (?:still |also )?win(?: the game)?(?: too| as well| also)?",
    rf"(?:has|have) {_X} won(?: the game)?",
    rf"(?:is|are) {_X} (?:the |a |one of the |among the )?winners?(?: too| as well| also)?",
    # "does Ann win even though she left": the remark restates the story (104.2c decides)
    rf"(?:does|do|will|would|did) {_X} (?:still |also )?win(?: the game)?(?: too| as well| also)?,? "
    r"(?:even though|even if|though|although) (?:she|he|they|it) (?:left|lost|conceded|scooped|died|"
    r"(?:is|was|were|are|'s|'re) (?:out|dead|gone))",
)
def _q_does_win(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"])
    plural = who.plural or len(who.players) > 1
    return _Ask("winners", f"{'do' if plural else 'does'} {who.words} win", ("game-over", "winners"),
                who.players,
                Member("winners", who.players, False))


@PATTERNS(
    r"who(?: loses| lost| else loses| would lose| will lose| is out| is eliminated|'s out|'s eliminated|"
    r"'s dead| is dead| dies| died| goes out)(?: the game)?(?: too| as well| now)?",
    r"who (?:are|is) the losers?",
    # "is anyone dead if Uma drops to 0", "does anybody lose": who lost, asked of no one in particular
    r"(?:is|are) (?:anyone|anybody|someone|somebody) (?:dead|out|eliminated|gone)(?: now| then)?",
    r"(?:does|did|will|would) (?:anyone|anybody|someone|somebody) (?:die|lose)(?: the game)?(?: now| then)?",
)
def _q_losers(match: re.Match[str], reader: _Reader) -> _Ask:
    fought = [c for c, _controller in reader.facts.creatures
              if re.search(rf"(?i)\b{re.escape(c)}\b", reader.sentence)]
    if reader.creature is not None and fought and re.search(r"(?i)\b(?:dies|die|died|dead)\b", match[0]):
        # "the Dragon attacks Ann and she blocks with the Bear. who dies": the creatures that fought
        # (704.5g), and any player (704.5a)
        return _Ask("losers", "which creatures die, and who loses",
                    ("losers", "game-over", *(f"exists({c})" for c in fought)),
                    headline=Several((("who loses", Value("losers")),
                                      *((f"has {c} left the battlefield", Gone(f"exists({c})"))
                                        for c in fought))))
    return _Ask("losers", "who loses", ("losers", "game-over"), headline=Value("losers"))


#: "does he lose to commander damage", "is Pat out on commander damage": how, said after the question
_HOW = r"(?: (?:on|to|from|by|of) (?:commander damage|combat damage|damage|poison|poison counters|life))?"


@PATTERNS(
    rf"(?:does|do|will|would|did) {_X} (?:also |still )?lose(?: the game)?{_HOW}(?: too| as well)?",
    rf"(?:does|do|will|would|did) {_X} (?:also )?(?:die|get knocked out|get eliminated|go out|drop)"
    rf"{_HOW}(?: too| as well)?",
    rf"(?:is|are) {_X} (?:also )?(?:done|finished|knocked out|gone)(?: too| as well)?",
    # "is Theo out of the game?": out of it is lost (104.3; 800.4a he leaves it)
    rf"(?:is|are) {_X} (?:also )?(?P<out>out|eliminated|dead)(?: of the game)?{_HOW}(?: too| as well)?",
)
def _q_does_lose(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"])
    plural = who.plural or len(who.players) > 1
    # "is Eli's team out?": a team is out when none of it is left (809.5b: or its emperor lost), so who is
    # still in is asked too, beside who lost
    team = ("in-game",) if match.groupdict().get("out") and "team" in who.words.lower() else ()
    return _Ask("losers", f"{'do' if plural else 'does'} {who.words} lose",
                ("losers", "game-over", *team, *_results(who.players)),
                who.players,
                Member("losers", who.players, False))
