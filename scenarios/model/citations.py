"""Citations: the logical rule references the model cites, and their resolution to corpus records.

The model cites official rules by number in the numbering of the built-in Comprehensive Rules release
(2026-04-17): ``Cite("cr", "725.4")``. Resolution turns a citation into a record id with its edition, and
lists the same rule in the other loaded editions (the Monarch page's quote of 2024-06-07 calls it 722.4).

>>> cr("725.4")
Cite(document='cr', local='725.4')
>>> resolve(cr("725.4")).record_id
'cr@2026-04-17/725.4'
>>> resolve(cr("800.4a")).label
'CR 800.4a (2026-04-17)'
>>> resolve(treachery("907.5d")).record_id
'treachery@4.0/907.5d'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulesjudge.corpus.labels import cite_label
from rulesjudge.corpus.records import Corpus, edition_of, make_id, ruling_local

#: The edition whose numbering the model uses for official rules: the built-in release.
NUMBERING = "2026-04-17"


@dataclass(frozen=True, order=True)
class Cite:
    """A logical reference: a document namespace and a local part (a rule number or ``ruling/<slug>``)."""

    document: str
    local: str

    def __str__(self) -> str:
        if self.document == "cr":
            return f"CR {self.local}"
        if self.document == "treachery":
            return f"Treachery {self.local}"
        if self.document == "rulings":
            return f"Ruling {self.local.removeprefix('ruling/')}"
        return f"{self.document} {self.local}"


def cr(number: str) -> Cite:
    """An official rule in the numbering of the built-in release (:data:`NUMBERING`)."""
    return Cite("cr", number)


def treachery(number: str) -> Cite:
    """A rule, reminder or card note of the fan-made Treachery document (version 4.0)."""
    return Cite("treachery", number)


def ruling(text: str) -> Cite:
    """An official card ruling, named by its opening words."""
    return Cite("rulings", ruling_local(text))


# The official monarch rulings (wording of the seeds); cited by their opening words.
RULING_NO_MONARCH = ruling("The game starts with no monarch.")
RULING_BECOME_TRIGGERS = ruling('Abilities that trigger whenever you "become the monarch" trigger only')
RULING_INHERENT = ruling("There are two inherent triggered abilities associated with being the monarch.")
RULING_DRAW_STILL = ruling("If the triggered ability that causes the monarch to draw a card")
RULING_LEAVES = ruling("If the monarch leaves the game during another player's turn")
RULING_LETHAL = ruling("If combat damage dealt to the monarch causes that player to lose")

#: Rulings that only the wiki page has (no date): filed as ``rulings@undated``.
_UNDATED_RULINGS = frozenset({RULING_BECOME_TRIGGERS.local})


@dataclass(frozen=True)
class Resolved:
    """A citation resolved against a corpus.

    ``record_id`` is the record cited (None when the rule is not loaded); ``also`` lists the same rule
    in other loaded editions (a renumbered Monarch rule in an official release, for example).
    """

    cite: Cite
    record_id: str | None
    edition: str | None
    label: str
    also: tuple[str, ...] = field(default=())

    @property
    def loaded(self) -> bool:
        return self.record_id is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "cite": str(self.cite),
            "record": self.record_id,
            "edition": self.edition,
            "label": self.label,
            "loaded": self.loaded,
            "also": list(self.also),
        }


def _label(cite: Cite, edition: str | None, corpus: Corpus | None, record_id: str) -> str:
    if corpus is not None:
        return cite_label(corpus, record_id)
    return f"{cite} ({edition})"


def _has(corpus: Corpus | None, record_id: str) -> bool:
    return corpus is None or corpus.get(record_id) is not None  # without a corpus: the built-in id scheme


def _equivalents(corpus: Corpus | None, record_id: str) -> tuple[str, ...]:
    """The same rule in the other loaded editions, newest first."""
    if corpus is None:
        return ()
    found = (rid for rid, _changed in corpus.equivalents(record_id))
    return tuple(sorted(found, key=edition_of, reverse=True))


def resolve(cite: Cite, corpus: Corpus | None = None) -> Resolved:
    """Resolve one citation. Without a corpus, the built-in documents' ids are assumed present.

    An official rule a fan document recalls (Treachery's reminder of 104.3g) stays an official rule: its
    label says so and ``also`` holds the rule in the official releases."""
    if cite.document == "rulings":
        editions = ["undated"] if cite.local in _UNDATED_RULINGS else ["2022-10-14", "undated"]
        for edition in editions:
            rid = make_id("rulings", edition, cite.local)
            if _has(corpus, rid):
                return Resolved(cite, rid, edition, _label(cite, edition, corpus, rid))
        return Resolved(cite, None, None, f"{cite} (ruling not loaded)")
    if cite.document == "treachery":
        rid = make_id("treachery", "4.0", cite.local)
        if _has(corpus, rid):
            record = corpus.get(rid) if corpus is not None else None
            links = record.links if record is not None else ()  # a reminder: the official rule it recalls
            also = tuple(dict.fromkeys(r for link in links for r in (link, *_equivalents(corpus, link))))
            return Resolved(cite, rid, "4.0", _label(cite, "4.0", corpus, rid), also)
        return Resolved(cite, None, None, f"{cite} (not found in the Treachery document)")
    if cite.document != "cr":
        return Resolved(cite, None, None, f"{cite} (unknown document)")
    return _resolve_official(cite, corpus)


def _resolve_official(cite: Cite, corpus: Corpus | None) -> Resolved:
    """An official rule in the model's numbering: the built-in release's record, and the same rule in the
    other loaded editions (the seeds' quotes of older editions, newer releases a user added); the label
    names the seeds' quotes ("CR 725.4 (2026-04-17) — 722.4 in the 2024-06-07 rules the Monarch page
    quotes")."""
    rid = make_id("cr", NUMBERING, cite.local)
    if not _has(corpus, rid):
        return Resolved(cite, None, None, f"{cite} (not in the {NUMBERING} rules)")
    return Resolved(cite, rid, NUMBERING, _label(cite, NUMBERING, corpus, rid), _equivalents(corpus, rid))
