"""What a question takes for granted (issue 23): "who becomes monarch if the active player leaves?" asked
where nobody is the monarch presupposes the player leaving is; "does Ben keep the initiative if Dan
concedes?" that Ben has it. ``app.services.ask_what_if`` assumes it, plays it and says so ("Assuming Ann,
the active player, is the monarch: ...")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulesjudge.app.whatif.answers import Headline, Is, Value

_KEEPS = re.compile(r"\b(?:keep|keeps|stay|stays|still|remain|remains|lose|loses|lost)\b", re.IGNORECASE)
_DESIGNATIONS = ("monarch", "initiative")
#: a question's own fact that nobody holds a designation ("we have no monarch yet", ``app.situation``), in the
#: words said back: such a question takes no holder for granted
#: "is there a monarch", "does anyone get the initiative": whether anybody holds it is what is asked
_WHETHER_ANYONE = re.compile(
    r"\b(?:is there|are there|will there be|would there be|(?:any|some)(?:one|body))\b", re.IGNORECASE)
NOBODY_HOLDS = {"monarch": "nobody is the monarch", "initiative": "nobody has the initiative"}


def presupposed(text: str, headline: Headline | None, events: Sequence[Any], questions: Sequence[str],
                holders: Mapping[str, str | None], said: Sequence[str] = ()) -> tuple[str, str] | None:
    """What a question takes for granted about a designation nobody holds: (designation, player), or None.

    "does Ben keep the initiative if Dan concedes?" presupposes Ben has it; "who becomes monarch if the active
    player leaves?" that the player leaving is the monarch (the only way the question has an answer).

    >>> from rulesjudge.app.whatif.answers import Is, Value
    >>> presupposed("does Ben keep the initiative if Dan concedes", Is("initiative", "Ben"),
    ...             [{"concedes": "Dan"}], ["initiative"], {"initiative": None})
    ('initiative', 'Ben')
    >>> presupposed("who becomes the monarch if Ann leaves", Value("monarch"), [{"leaves": "Ann"}],
    ...             ["monarch"], {"monarch": None})
    ('monarch', 'Ann')
    >>> presupposed("does anyone become monarch if Ann leaves", Value("monarch"), [{"leaves": "Ann"}],
    ...             ["monarch"], {"monarch": None}, said=["nobody is the monarch"])  # said: nobody has it
    """
    if _WHETHER_ANYONE.search(text):
        return None  # "does anyone become monarch if Ann leaves": whether there is one is the question
    asked = [d for d in _DESIGNATIONS if d in questions and holders.get(d) is None
             and NOBODY_HOLDS[d] not in said]
    if not asked or not isinstance(headline, (Is, Value)) or headline.question not in asked:
        return None  # "what happens if Cat concedes" asks everything: it takes no holder for granted
    designation = headline.question
    if isinstance(headline, Is) and _KEEPS.search(text):
        return designation, headline.player
    taken = re.search(r"\b(?:initiative|crown|monarchy|monarch) (?:from|off) (?P<x>[A-Za-z][\w'-]*)", text,
                      re.IGNORECASE)
    if taken:  # "who takes over the initiative from Dan if he scoops": Dan has it
        return designation, taken["x"]
    leavers = [e for e in events if isinstance(e, dict) and set(e) & {"leaves", "concedes", "loses"}]
    if len(leavers) == 1:
        who = next(iter(leavers[0].values()))
        if isinstance(who, str):
            return designation, who
    return None
