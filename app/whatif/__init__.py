"""Plain-English what-if questions about the table on screen, turned into events and questions for the model.

A question at a table has two parts, in either order: what happens ("if the monarch concedes", "Dan attacks
Ann with 3 creatures", "at the end of turn") and what is asked ("who is the monarch?", "can Ben attack
Dan?"). :func:`interpret` finds both against a :class:`TableFacts` — the seats and who holds what — so a
judge can name players the way people do: by name, by role or designation (the monarch, the active player,
the leader, the emperor, the initiative holder, Ann's teammate, the player on Ann's left) or as a group
(everyone except Dan, both Assassins, the other team). It returns a :class:`WhatIf`: the events to play
after the table's own events, the questions (in the scenario format's vocabulary) and how to read the
answers in one line (:func:`answer_line`). Anything it does not read returns ``None`` and the app falls
back to the rules search and the closest library scenarios (:func:`closest_scenarios`).

The package, in reading order: :mod:`.plan` (what a reading is made of), :mod:`.normalise` and
:mod:`.typos` (the text made readable), :mod:`.references` (naming the players), :mod:`.grammar` (patterns
and builders), :mod:`.questions` and :mod:`.events` (the two grammars, by topic, with their order in one
list each), :mod:`.asking` (a question's words, one or several), :mod:`.reading` (a sentence's clauses,
:func:`interpret`), :mod:`.answers` (the answer line) and :mod:`.examples`.

>>> table = TableFacts(players=("Ann", "Ben", "Cat", "Dan"), active=("Ann",), monarch="Cat")
>>> w = interpret("Who becomes the monarch if the monarch concedes?", table)
>>> w.events, w.questions, w.summary
(({'concedes': 'Cat'},), ('monarch',), 'If the monarch (Cat) concedes, who is the monarch?')
>>> interpret("if Ben's creature hits Ann who is monarch", table).events
({'combat-damage': {'from': 'Ben', 'to': 'Ann', 'amount': 1}},)
>>> interpret("what if everyone except Dan concedes", table).events
({'concedes': ['Ann', 'Ben', 'Cat']},)
>>> interpret("can ben attack dan", table).questions
('can-attack(Ben, Dan)',)
>>> interpret("what is the airspeed of an unladen swallow", table) is None
True
"""

from __future__ import annotations

from rulesjudge.app.whatif.answers import answer_line
from rulesjudge.app.whatif.examples import EXAMPLES, closest_scenarios, examples
from rulesjudge.app.whatif.grammar import MAX_WORK
from rulesjudge.app.whatif.normalise import normalise
from rulesjudge.app.whatif.plan import MAX_QUESTION, WHAT_HAPPENS, Event, TableFacts, WhatIf, WhatIfError
from rulesjudge.app.whatif.reading import interpret
from rulesjudge.app.whatif.references import Ref, resolve_player, resolve_players
from rulesjudge.app.whatif.typos import mend_typos, warm_up

__all__ = [
    "EXAMPLES", "MAX_QUESTION", "MAX_WORK", "WHAT_HAPPENS", "Event", "Ref", "TableFacts", "WhatIf",
    "WhatIfError", "answer_line", "closest_scenarios", "examples", "interpret", "mend_typos", "normalise",
    "resolve_player", "resolve_players", "warm_up",
]
