"""Citations: the logical rule references the model cites, and their resolution to corpus records.

The model cites official rules by number in the numbering of the built-in Comprehensive Rules release
(2026-04-17): ``Cite("cr", "725.4")``. Resolution turns a citation into a record id with its edition, and
lists the same rule in the other loaded editions (the Monarch page's quote of 2024-06-07 calls it 725.4).

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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rulesjudge.corpus.records import slugify

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


def ruling_slug(text: str) -> str:
    """The corpus slug of a ruling: its first six words.

    >>> ruling_slug("The game starts with no monarch. Once an effect ...")
    'the-game-starts-with-no-monarch'
    """
    return slugify(" ".join(text.split()[:6]))


def ruling(text: str) -> Cite:
    """An official card ruling, named by its opening words."""
    return Cite("rulings", f"ruling/{ruling_slug(text)}")


# The official monarch rulings (wording of the seeds); cited by their opening words.
RULING_NO_MONARCH = ruling("The game starts with no monarch.")
RULING_BECOME_TRIGGERS = ruling('Abilities that trigger whenever you "become the monarch" trigger only')
RULING_INHERENT = ruling("There are two inherent triggered abilities associated with being the monarch.")
RULING_DRAW_STILL = ruling("If the triggered ability that causes the monarch to draw a card")
RULING_LEAVES = ruling("If the monarch leaves the game during another player's turn")
RULING_LETHAL = ruling("If combat damage dealt to the monarch causes that player to lose")

#: Rulings that only the wiki page has (no date): filed as ``rulings@undated``.
_UNDATED_RULINGS = frozenset({RULING_BECOME_TRIGGERS.local})

class CorpusLike(Protocol):
    """What resolution needs of :class:`corpus.store.Corpus`."""

    def get(self, record_id: str) -> Any: ...


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


def _label(cite: Cite, edition: str | None) -> str:
    if edition is None:
        return f"{cite} (official rule not loaded)"
    return f"{cite} ({edition})"


def _has(corpus: CorpusLike | None, record_id: str) -> bool:
    if corpus is None:
        return True  # without a corpus, trust the built-in id scheme
    try:
        return corpus.get(record_id) is not None
    except Exception:  # a corpus shim that cannot answer is treated as not having it
        return False


def _equivalents(corpus: Any, record_id: str) -> list[str]:
    """The same rule in the other loaded editions (``corpus.equivalents``), newest first."""
    finder = getattr(corpus, "equivalents", None)
    if finder is None:
        return []
    return sorted((rid for rid, _changed in finder(record_id)), key=_edition_of, reverse=True)


def _edition_of(record_id: str) -> str:
    return record_id.split("@", 1)[1].split("/", 1)[0]


def resolve(cite: Cite, corpus: CorpusLike | None = None) -> Resolved:
    """Resolve one citation. Without a corpus, the built-in documents' ids are assumed present."""
    if cite.document == "rulings":
        editions = ["undated"] if cite.local in _UNDATED_RULINGS else ["2022-10-14", "undated"]
        for edition in editions:
            rid = f"rulings@{edition}/{cite.local}"
            if _has(corpus, rid):
                return Resolved(cite, rid, edition, _label(cite, edition))
        return Resolved(cite, None, None, f"{cite} (ruling not loaded)")
    if cite.document == "treachery":
        rid = f"treachery@4.0/{cite.local}"
        if _has(corpus, rid):
            return Resolved(cite, rid, "4.0", _label(cite, "4.0"))
        return Resolved(cite, None, None, f"{cite} (not found in the Treachery document)")
    if cite.document != "cr":
        return Resolved(cite, None, None, f"{cite} (unknown document)")
    return _resolve_official(cite, corpus)


def _resolve_official(cite: Cite, corpus: CorpusLike | None) -> Resolved:
    """An official rule in the model's numbering: the built-in release's record, and the same rule in the
    other loaded editions (the seeds' quotes of older editions, newer releases a user added)."""
    rid = f"cr@{NUMBERING}/{cite.local}"
    if not _has(corpus, rid):
        return Resolved(cite, None, None, f"{cite} (not in the {NUMBERING} rules)")
    also = tuple(_equivalents(corpus, rid)) if corpus is not None else ()
    return Resolved(cite, rid, NUMBERING, _label(cite, NUMBERING), also)


def resolve_all(cites: Iterable[Cite], corpus: CorpusLike | None = None) -> list[Resolved]:
    return [resolve(c, corpus) for c in cites]


_DEFAULT_CORPUS: list[Any] = []


def default_corpus() -> Any:
    """The corpus to resolve against: ``corpus.store.load_corpus()`` when it exists, else the built-in
    records (``corpus.documents.read_builtin()``), else None (the built-in id scheme is trusted)."""
    if _DEFAULT_CORPUS:
        return _DEFAULT_CORPUS[0]
    corpus: Any = None
    try:
        from rulesjudge.corpus.store import load_corpus

        corpus = load_corpus()
    except Exception:
        try:
            from rulesjudge.corpus.documents import read_builtin

            corpus = _RecordsCorpus({r.id: r for r in read_builtin()})
        except Exception:
            corpus = None
    _DEFAULT_CORPUS.append(corpus)
    return corpus


class _RecordsCorpus:
    """A shim of :class:`corpus.store.Corpus` over a dict of records (until the store lands)."""

    def __init__(self, records: dict[str, Any]) -> None:
        self.records = records

    def get(self, record_id: str) -> Any:
        return self.records.get(record_id)

    def editions(self, document: str) -> list[str]:
        return sorted({r.edition for r in self.records.values() if r.document == document})
