"""The questions a what-if may ask, by topic; :data:`ORDER` is the order their patterns are tried in.

The first pattern that reads a fragment wins (:meth:`~rulesjudge.app.whatif.grammar._Grammar.first`), so
the order is part of the grammar: it is written here once, and within a topic the patterns are tried in
the order they are written.
"""

from __future__ import annotations

from rulesjudge.app.whatif.grammar import _Grammar
from rulesjudge.app.whatif.questions import attacks, crown, identities, life, outcome, state, teams, turns

#: The topics, in the order their patterns are tried.
ORDER = (crown, turns, outcome, life, attacks, teams, identities, state)

#: Every question pattern, in :data:`ORDER`.
QUESTIONS = _Grammar.joined(*(topic.PATTERNS for topic in ORDER))
