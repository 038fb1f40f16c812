"""The events a what-if may say happen, by topic; :data:`ORDER` is the order their patterns are tried in
(the first that reads a clause wins; within a topic, in the order written)."""

from __future__ import annotations

from rulesjudge.app.whatif.events import permanents, players, time, totals
from rulesjudge.app.whatif.grammar import _Grammar

#: The topics, in the order their patterns are tried: totals said as players talk (drains, damage from "the
#: other team's attack", read before a player's damage would take the team for one of its players), what
#: players do and undergo, what happens to their permanents, then time passing.
ORDER = (totals, players, permanents, time)

#: Every event pattern, in :data:`ORDER`.
HAPPENINGS = _Grammar.joined(*(topic.PATTERNS for topic in ORDER))
