"""How a story's times and questions are told at the table (issue 23, blind round 10), said plainly before
the facts and events are read (:func:`app.stories.retell` runs these among its rewrites): "then later that
turn" (the next event, in the same turn), "who ended up monarch" (who is, after the events), "after state
based actions" (the model checks them after every event, 704.3), "attacks Lee (not Ravi)" (the player not
attacked, said aside) and "..., unblocked, takes 6" (the attacked player's damage said as its amount)."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: "then later that turn ravi scooped": the next event, in the same turn (no turn passes)
_LATER_THAT_TURN = re.compile(
    r",? (?:and )?(?:then )?later (?:that|the same|in the|on that|that same) turn,? ", re.IGNORECASE)
#: "Then at end of combat Lee concedes": after the combat said before it, in the same turn
_END_OF_COMBAT = re.compile(r"(?<=[.;!?] )then,? (?:at|during|in) (?:the )?end of combat,? ", re.IGNORECASE)


#: "Lee concedes anyway": why, or in spite of what, changes no rule
_ANYWAY = re.compile(r"\b(?P<verb>concedes|conceded|scoops|scooped) anyway(?=[.;!?,]|$)", re.IGNORECASE)


def _later_that_turn(text: str, players: Sequence[str]) -> str:
    """ "..., then later that turn ravi scooped": then Ravi scooped.

    >>> _later_that_turn("jo hits ravi, then later that turn ravi scooped. who is monarch", ())
    'jo hits ravi, then ravi scooped. who is monarch'
    >>> _later_that_turn("Ann hits Ben. Then at end of combat Ben concedes anyway. Who is left?", ())
    'Ann hits Ben. then Ben concedes. Who is left?'
    """
    text = _END_OF_COMBAT.sub("then ", _LATER_THAT_TURN.sub(", then ", text))
    return _ANYWAY.sub(lambda m: m["verb"], text)


#: "who ended up monarch", "who ends up with the crown": who holds it after the events
_ENDED_UP = re.compile(r"\bwho (?:ended|ends|end|would end|will end) up (?:as |being )?"
                       r"(?P<what>(?:the )?monarch|with (?:the )?(?:crown|initiative|monarch)|"
                       r"(?:the )?initiative)\b",
                       re.IGNORECASE)


#: "how many poison does lee end up with": has, after the events
_END_UP_WITH = re.compile(r"\b(?:does|do|did|will|would) (?P<x>[A-Za-z][\w'-]*) (?:end|ends|ended) up "
                          r"(?:with|having)\b", re.IGNORECASE)


def _ended_up(text: str, players: Sequence[str]) -> str:
    """ "who ended up monarch": who is the monarch; "how many poison does lee end up with": does Lee have.

    >>> _ended_up("how many poison does lee end up with", ())
    'how many poison does lee have'

    >>> _ended_up("then Ann concedes. who ended up monarch", ())
    'then Ann concedes. who is the monarch'
    >>> _ended_up("who ends up with the initiative?", ())
    'who has the initiative?'
    """
    def now(match: re.Match[str]) -> str:
        what = re.sub(r"(?i)^(?:with )?(?:the )?", "", match["what"]).lower()
        return f"who has the {what}" if match["what"].lower().startswith("with") or what == "initiative" \
            else f"who is the {what}"

    return _END_UP_WITH.sub(lambda m: f"does {m['x']} have", _ENDED_UP.sub(now, text))


#: "who is the monarch after state based actions": the model checks them after each event (704.3)
_AFTER_SBA = re.compile(r",? (?:after|once) (?:the )?(?:state[- ]based actions|sbas?)"
                        r"(?: (?:are|get|have been) (?:checked|done|applied))?(?=[.;!?]|$)", re.IGNORECASE)


def _after_sba(text: str, players: Sequence[str]) -> str:
    """ "who is the monarch after state based actions": who is the monarch (after the events, 704.3).

    >>> _after_sba("Ann hits Ben. who is the monarch after state based actions?", ())
    'Ann hits Ben. who is the monarch?'
    """
    return _AFTER_SBA.sub("", text)


#: "nat's wurm attacks lee (not ravi)": the player not attacked, said aside in brackets
_NOT_IN_BRACKETS = re.compile(r" \(not (?P<who>[A-Za-z][\w'-]*)\)", re.IGNORECASE)


def _not_in_brackets(text: str, players: Sequence[str]) -> str:
    """ "attacks lee (not ravi)": Lee only (the aside names a player).

    >>> _not_in_brackets("Cat's wurm attacks Ben (not Ann). Ben takes 6", ["Ann", "Ben"])
    "Cat's wurm attacks Ben. Ben takes 6"
    """
    names = {p.casefold() for p in players}
    return _NOT_IN_BRACKETS.sub(lambda m: "" if m["who"].casefold() in names else m[0], text)


#: "attacks lee, unblocked, takes 6", "attacks sol, sol takes 6": the damage the attacker deals, said as what
#: the player attacked takes (nothing said between: no block)
_UNBLOCKED_TAKES = re.compile(
    # "... attacks sol with the ox, sol takes 3", "... attacks sol with it. sol takes 6": with what, said too
    r"(?P<attack>\b(?:attacks|attacked|swings at|swung at) (?P<y>[A-Za-z][\w'-]*)"
    r"(?: with (?:it|them|(?:the|his|her|their) [\w'-]+(?: [\w'-]+)?))?)"
    r"(?:, unblocked,?|(?:,|[.;]|,? and) (?P=y)) (?:and )?(?:takes|took) (?P<n>\d{1,2})(?: damage)?"
    r"(?=[.;!?,]|$)",
    re.IGNORECASE)


def _unblocked_takes(text: str, players: Sequence[str]) -> str:
    """ "Nat's Wurm attacks Lee, unblocked, takes 6": the attack for 6, unblocked.

    >>> _unblocked_takes("nat's wurm attacks lee, unblocked, takes 6. then ravi concedes", ())
    "nat's wurm attacks lee for 6, unblocked. then ravi concedes"
    >>> _unblocked_takes("tam's wurm attacks sol, sol takes 6. who has what now", ())
    "tam's wurm attacks sol for 6, unblocked. who has what now"
    >>> _unblocked_takes("tam's wurm attacks sol, uma takes 6.", ())
    "tam's wurm attacks sol, uma takes 6."
    >>> _unblocked_takes("rae attacks sol with it. Sol takes 6. then", ())
    'rae attacks sol with it for 6, unblocked. then'
    """
    return _UNBLOCKED_TAKES.sub(lambda m: f"{m['attack']} for {m['n']}, unblocked", text)


#: "jo wants to block it with his knight to help lee out, can he?": the block as it would be made, asked
#: whether it is (509.1a, 802.4a: the model judges who may block)
_WANTS_TO_BLOCK = re.compile(
    r"\b(?P<p>[A-Za-z][\w'-]*) (?:wants|wanted|would like|tries|tried) to block (?P<it>it|them|the [\w'-]+) "
    r"(?P<with>(?:with|using) (?:his|her|their|the|a) [\w'-]+)(?: to [^,.;!?]+?)?,? (?:can|could|may) "
    r"(?:he|she|they)(?: do (?:it|that))?\?", re.IGNORECASE)


def _wants_to_block(text: str, players: Sequence[str]) -> str:
    """ "jo wants to block it with his knight to help lee out, can he?": Jo blocks it; is it blocked?

    >>> _wants_to_block("kim attacks lee with the rat. jo wants to block it with his knight to help lee out, "
    ...                 "can he? lee's poison?", ["Jo"])
    "kim attacks lee with the rat. jo blocks it with his knight. is it blocked? lee's poison?"
    """
    names = {p.casefold() for p in players}

    def blocks(match: re.Match[str]) -> str:
        if match["p"].casefold() not in names:
            return match[0]
        return f"{match['p']} blocks {match['it']} {match['with']}. is {match['it']} blocked?"

    return _WANTS_TO_BLOCK.sub(blocks, text)


#: "jo blocks w knight", "how much trample damage gets thru to jo": shorthand for "with", "through"
_SHORTHAND = re.compile(r"\b(?P<verb>blocks|blocked|block|attacks|attacked|chumps) w/? (?=[A-Za-z])|\bthru\b",
                        re.IGNORECASE)


def _shorthand(text: str, players: Sequence[str]) -> str:
    """ "jo blocks w knight": with.

    >>> _shorthand("wurm attacks jo, jo blocks w knight. how much gets thru", ())
    'wurm attacks jo, jo blocks with knight. how much gets through'
    """
    return _SHORTHAND.sub(lambda m: f"{m['verb']} with " if m["verb"] else "through", text)


#: "how much trample damage gets through to jo": what Jo takes (his total says it, 702.19b)
_GETS_THROUGH = re.compile(r"\bhow much (?:trample |combat )?(?:damage )?(?:gets|goes|got|went|comes|came) "
                           r"(?:through|over) to (?P<who>[A-Za-z][\w'-]*)", re.IGNORECASE)


def _gets_through(text: str, players: Sequence[str]) -> str:
    """ "how much trample damage gets through to jo": how much does Jo take.

    >>> _gets_through("jo blocks with knight. how much trample damage gets through to jo", ["Jo"])
    'jo blocks with knight. how much does jo take'
    """
    names = {p.casefold() for p in players}
    return _GETS_THROUGH.sub(lambda m: f"how much does {m['who']} take" if m["who"].casefold() in names
                             else m[0], text)


#: "after combat who's monarch": after the events said (the combat damage step among them)
_AFTER_COMBAT_ASKED = re.compile(r"(?:(?<=[.;!?] )|^)after combat,? (?=(?:who|what|how|is|are|does|do)\b)",
                                 re.IGNORECASE)


#: "then after combat Tam concedes", "Uma concedes in second main": a time after the combat the story told,
#: so after its damage (510.2); the events are played in the order said, so it says no more than that order
_AFTER_COMBAT_TOLD = re.compile(
    r"(?:(?<=\bthen )|(?<=[.;!?,] )|^)after combat,? (?=[A-Za-z])|"
    r",? (?:in|during) (?:the |his |her |their )?(?:second|2nd|post-?combat|postcombat) main(?: phase)?"
    r"(?= *(?:[.;!?,]|$))", re.IGNORECASE)
_COMBAT_TOLD = re.compile(r"(?i)\b(?:attacks|attacked|swings at|swung at|hits|unblocked|blocks)\b")


def _after_combat_asked(text: str, players: Sequence[str]) -> str:
    """ "... after combat who's monarch": who is the monarch after the events; "then after combat Tam
    concedes", "Uma concedes in second main" after an attack told: after it, as said.

    >>> _after_combat_asked("Ann's elf attacks Ben. after combat who's monarch", ())
    "Ann's elf attacks Ben. who's monarch"
    >>> _after_combat_asked("Ann attacks Ben, unblocked. then after combat Ben concedes in second main.", ())
    'Ann attacks Ben, unblocked. then Ben concedes.'
    """
    text = _AFTER_COMBAT_ASKED.sub("", text)
    told = _COMBAT_TOLD.search(text)
    if told is None:
        return text
    return text[: told.end()] + _AFTER_COMBAT_TOLD.sub("", text[told.end():])


#: "bea's elf attacks chris on bea's turn, chris is the monarch.": the attacked player's designation said
#: after the attack - one its combat damage would take (725.2, 726.2), so the table before it, said first
_HELD_AFTER_ATTACK = re.compile(
    r"(?P<lead>^|(?<=[.;!?] ))(?P<event>[^.;!?]*?\b(?:attacks|attacked|hits|hit|swings at|swung at) "
    r"(?P<y>[A-Za-z][\w'-]*)\b[^.;!?]*?),? (?:and )?(?P<fact>(?P=y) (?:is|was) (?:the )?monarch|"
    r"(?P=y) (?:has|had) (?:the )?initiative)(?P<end>[.;!]|$)", re.IGNORECASE)


def _held_after_attack(text: str, players: Sequence[str]) -> str:
    """ "bea's elf attacks chris, chris is the monarch.": Chris is the monarch, then the attack.

    >>> _held_after_attack("bea's elf attacks chris, chris is the monarch. who's monarch", ["Chris"])
    "chris is the monarch. bea's elf attacks chris. who's monarch"
    """
    names = {p.casefold() for p in players}

    def first(match: re.Match[str]) -> str:
        if match["y"].casefold() not in names:
            return match[0]
        return f"{match['lead']}{match['fact']}. {match['event']}{match['end'] or '.'}"

    return _HELD_AFTER_ATTACK.sub(first, text)


#: "rae is attacking her with the ox": the attack, said as going on (508.1: declared; the rest as told)
_IS_ATTACKING = re.compile(r"\b(?P<x>[A-Za-z][\w'-]*) (?:is|was|'s) attacking (?P<y>[A-Za-z][\w'-]*) "
                           r"(?P<with>with|w/?) ", re.IGNORECASE)


def _is_attacking(text: str, players: Sequence[str]) -> str:
    """ "uma is monarch and rae is attacking her w the ox, uma scoops before damage": Rae attacks her with it.

    >>> _is_attacking("rae is attacking her w the ox, uma scoops before damage", ["Rae", "Uma"])
    'rae attacks her with the ox, uma scoops before damage'
    >>> _is_attacking("is the ox attacking her with trample?", ["Rae"])
    'is the ox attacking her with trample?'
    """
    names = {p.casefold() for p in players}
    return _IS_ATTACKING.sub(lambda m: f"{m['x']} attacks {m['y']} with " if m["x"].casefold() in names
                             else m[0], text)


#: "rae's turn ends and sol's starts": the second turn said by its player alone
_TURN_GAPPED = re.compile(r"\b(?P<a>[\w-]+(?:'s|s') turn (?:ends|is over|finishes)),? (?:and|then|and then) "
                          r"(?P<b>[\w-]+(?:'s|s'|')) (?P<verb>starts|begins|comes)\b", re.IGNORECASE)


def _turn_gapped(text: str, players: Sequence[str]) -> str:
    """ "then rae's turn ends and sol's starts": the noun said once, for both turns.

    >>> _turn_gapped("then rae's turn ends and sol's starts. who's monarch", ())
    "then rae's turn ends and sol's turn starts. who's monarch"
    """
    return _TURN_GAPPED.sub(lambda m: f"{m['a']} and {m['b']} turn {m['verb']}", text)


#: "sol leaves the game before his turn ends": before that turn is over is during it
_BEFORE_TURN_ENDS = re.compile(r"\bbefore (?P<whose>his|her|their|[\w-]+(?:'s|s')) (?P<own>own )?turn "
                               r"(?:ends|is over|finishes)\b", re.IGNORECASE)


def _before_turn_ends(text: str, players: Sequence[str]) -> str:
    """ "then sol leaves the game before his turn ends": on his turn.

    >>> _before_turn_ends("then sol leaves the game before his turn ends. who is the monarch", ())
    'then sol leaves the game on his turn. who is the monarch'
    """
    return _BEFORE_TURN_ENDS.sub(lambda m: f"on {m['whose']} {m['own'] or ''}turn", text)

