"""The events a what-if may say happen, by topic; :data:`ORDER` is the order their patterns are tried in
(the first that reads a clause wins; within a topic, in the order written)."""

from __future__ import annotations

from rulesjudge.app.whatif.events import combat, permanents, players, time
from rulesjudge.app.whatif.grammar import _Grammar

#: The topics, in the order their patterns are tried: combat told with the creatures on the table (before
#: the players' one-line hits, which would read "attacks Ben with it" as any creature's), what players do
#: and undergo, what happens to their permanents, then time passing.
ORDER = (combat, players, permanents, time)

#: Every event pattern, in :data:`ORDER`.
HAPPENINGS = _Grammar.joined(*(topic.PATTERNS for topic in ORDER))
