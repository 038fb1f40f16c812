"""A group named twice, the second time aside: "Eli and Gia (both of Fin's generals) are gone", "Cy and Di,
Ada's opponents, concede". The aside names no one new; where the table agrees with it (the same players) it
is dropped, so the sentence reads as if said once. Where it doesn't, the question is refused, saying so (read
as a list, "Eli and Hal (Fin's generals)" would take Gia out too).

>>> from rulesjudge.app.whatif.plan import TableFacts
>>> table = TableFacts(("Eli", "Fin", "Gia", "Hal"), teammates={"Eli": ("Fin", "Gia"), "Fin": ("Eli", "Gia"),
...                    "Gia": ("Eli", "Fin"), "Hal": ()}, emperors=("Fin",))
>>> agreed_asides("Eli and Gia (both of Fin's teammates) are gone", table)
'Eli and Gia are gone'
>>> agreed_asides("Eli and Hal (Fin's teammates) are gone", table)
Traceback (most recent call last):
rulesjudge.app.whatif.plan.WhatIfError: Fin's teammates are Eli and Gia here, not Eli and Hal - name them once
"""

from __future__ import annotations

import re

from rulesjudge.app.whatif.normalise import _names
from rulesjudge.app.whatif.plan import TableFacts, WhatIfError
from rulesjudge.app.whatif.references import _Reader, _Unknown

_NAME = r"[A-Z][\w'-]*"
_ASIDE = re.compile(
    rf"\b(?P<who>{_NAME}(?:(?:, | and |, and ){_NAME})+)"
    r"(?: \((?P<paren>[^()]{3,60})\)|, (?P<comma>(?:both|all|each) (?:of )?[^,()]{3,50}),)", )


def agreed_asides(text: str, facts: TableFacts) -> str:
    """``text`` without the asides that name the same players as the names before them."""
    def agreed(match: re.Match[str]) -> str:
        reader = _Reader(facts)
        aside = re.sub(r"(?i)^(?:both|all|each) (?:of )?", "", match["paren"] or match["comma"])
        try:
            named = reader.refer(match["who"]).players
            again = reader.refer(aside).players
        except _Unknown:
            return match[0]
        if set(named) != set(again):
            raise WhatIfError(f"{aside} are {_names(again)} here, not {_names(named)} - name them once")
        return match["who"]

    return _ASIDE.sub(agreed, text)
