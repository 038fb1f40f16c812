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


def _later_that_turn(text: str, players: Sequence[str]) -> str:
    """ "..., then later that turn ravi scooped": then Ravi scooped.

    >>> _later_that_turn("jo hits ravi, then later that turn ravi scooped. who is monarch", ())
    'jo hits ravi, then ravi scooped. who is monarch'
    """
    return _LATER_THAT_TURN.sub(", then ", text)


#: "who ended up monarch", "who ends up with the crown": who holds it after the events
_ENDED_UP = re.compile(r"\bwho (?:ended|ends|end|would end|will end) up (?:as |being )?"
                       r"(?P<what>(?:the )?monarch|with (?:the )?(?:crown|initiative|monarch)|"
                       r"(?:the )?initiative)\b",
                       re.IGNORECASE)


def _ended_up(text: str, players: Sequence[str]) -> str:
    """ "who ended up monarch": who is the monarch.

    >>> _ended_up("then Ann concedes. who ended up monarch", ())
    'then Ann concedes. who is the monarch'
    >>> _ended_up("who ends up with the initiative?", ())
    'who has the initiative?'
    """
    def now(match: re.Match[str]) -> str:
        what = re.sub(r"(?i)^(?:with )?(?:the )?", "", match["what"]).lower()
        return f"who has the {what}" if match["what"].lower().startswith("with") or what == "initiative" \
            else f"who is the {what}"

    return _ENDED_UP.sub(now, text)


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


#: "attacks lee, unblocked, takes 6": the damage the unblocked attacker deals, said as what the player takes
_UNBLOCKED_TAKES = re.compile(
    r"(?P<attack>\b(?:attacks|attacked|swings at|swung at) [A-Za-z][\w'-]*), unblocked,? "
    r"(?:and )?(?:takes|took) (?P<n>\d{1,2})(?: damage)?(?=[.;!?,]|$)", re.IGNORECASE)


def _unblocked_takes(text: str, players: Sequence[str]) -> str:
    """ "Nat's Wurm attacks Lee, unblocked, takes 6": the attack for 6, unblocked.

    >>> _unblocked_takes("nat's wurm attacks lee, unblocked, takes 6. then ravi concedes", ())
    "nat's wurm attacks lee for 6, unblocked. then ravi concedes"
    """
    return _UNBLOCKED_TAKES.sub(lambda m: f"{m['attack']} for {m['n']}, unblocked", text)
