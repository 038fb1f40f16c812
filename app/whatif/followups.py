"""What a question said after another, or after a block, also asks: the first question asked again of
another player or creature ("ogre survives? spider?"), and the creatures a block put in combat (their fate is
said beside the answer, 704.5g)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rulesjudge.app.whatif.plan import Event
from rulesjudge.app.whatif.references import _Reader


def asked_again(first: str, second: str, reader: _Reader) -> tuple[str, ...]:
    """The first question asked again of the one player or creature the second names alone ("ogre
    survives? spider?" -> "spider survives"; "whats bea's range? and cal's?" -> "whats cal's range"): the
    first must name exactly one player or creature, said the same way (a possessive for a possessive).

    >>> from rulesjudge.app.whatif.plan import TableFacts
    >>> table = TableFacts(("Ann", "Ben"), creatures=(("Ogre", "Ann"),))
    >>> asked_again("whats ann's life", "and ben's", _Reader(table))
    ("whats Ben's life",)
    >>> asked_again("is ann out", "what about ben", _Reader(table)), asked_again("is ann out", "ben's",
    ...                                                                             _Reader(table))
    (('is Ben out',), ())
    """
    alone = re.fullmatch(r"(?i)(?:and |or |what about |how about |and what about |(?:and )?(?:for|of) )?"
                         r"(?:the )?(?P<n>[A-Za-z][\w-]*?)(?P<s>'s?)?(?: then| now)?[?.!]*", second.strip())
    if not alone:
        return ()
    known = [*reader.facts.players, *(c for c, _controller in reader.facts.creatures)]
    other = next((k for k in known if k.casefold() == alone["n"].casefold()), None)
    said = [(k, m) for k in known for m in re.finditer(rf"(?i)\b{re.escape(k)}(?P<s>'s?)?(?![\w'-])", first)]
    if other is None or len(said) != 1 or said[0][0] == other or bool(said[0][1]["s"]) != bool(alone["s"]):
        return ()
    found = said[0][1]
    return (first[:found.start()] + other + (found["s"] or "") + first[found.end():],)


def in_blocks(events: Sequence[Event]) -> tuple[str, ...]:
    """The creatures in the blocks among ``events``: each blocker and the attacker it blocks.

    >>> in_blocks(("combat-damage-step", {"block": {"Wall": "Angel"}}, {"block": {"Rat": "Angel"}}))
    ('Wall', 'Angel', 'Rat')
    """
    blocks = [e["block"] for e in events if isinstance(e, dict) and isinstance(e.get("block"), dict)]
    return tuple(dict.fromkeys(str(c) for block in blocks for pair in block.items() for c in pair))
