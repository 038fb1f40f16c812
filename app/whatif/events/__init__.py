"""The events a what-if may say happen, by topic; :data:`ORDER` is the order their patterns are tried in
(the first that reads a clause wins; within a topic, in the order written)."""

from __future__ import annotations

from rulesjudge.app.whatif.events import (
    blocked,
    combat,
    permanents,
    players,
    several,
    spells,
    standing,
    time,
    totals,
)
from rulesjudge.app.whatif.grammar import _Grammar

#: The topics, in the order their patterns are tried: totals said as players talk (drains, damage from "the
#: other team's attack", read before a player's damage would take the team for one of its players), combat
#: told with the creatures on the table,
#: then blocks of creatures described (before the players' one-line hits, which would read "attacks Ben with
#: it" as any creature's), events to several players at once (before the one-player damage that would read "6
#: damage to Cat and 2 to Dan" as Cat's alone), what players do and undergo
#: (leaving, damage; then life, poison, designations: ``standing``), spells named by their card, what
#: happens to their permanents, then time passing.
ORDER = (totals, combat, blocked, several, players, standing, spells, permanents, time)

#: Every event pattern, in :data:`ORDER`.
HAPPENINGS = _Grammar.joined(*(topic.PATTERNS for topic in ORDER))
