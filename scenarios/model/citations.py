"""Citations: the logical rule references the model cites, and their resolution to corpus records.

The model cites rules by document and number in the numbering of the Comprehensive Rules of
2024-06-07 (the edition the Monarch seeds quote): ``Cite("cr", "722.4")``. Resolution turns a
citation into a record id with its edition, or marks it as an official rule that is not loaded.

>>> cr("722.4")
Cite(document='cr', local='722.4')
>>> resolve(cr("722.4")).record_id
'cr@2024-06-07/722.4'
>>> resolve(cr("800.4a")).label
'CR 800.4a (official rule not loaded)'
>>> resolve(treachery("907.5d")).record_id
'treachery@4.0/907.5d'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rulesjudge.corpus.records import slugify

#: The edition whose numbering the model uses for official rules.
NUMBERING = "2024-06-07"


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
    """An official rule in the 2024-06-07 numbering."""
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

# Built-in documents that quote official rules, and the edition each quotes. A number is looked up
# first in the edition that quotes it, so a rule read from the seeds resolves without any release.
_BUILTIN_QUOTES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^722(\.\d+[a-z]?)?$"), "2024-06-07"),
    (re.compile(r"^809(\.\d+[a-z]?)?$"), "2022-04-29"),
    (re.compile(r"^(102(\.[123])?|506\.2[ab]?|802(\.\d+[a-z]?)?|810\.7[a-f]?)$"), "2015-07-17"),
)
_BUILTIN_GLOSSARY = {
    "glossary/monarch": "2024-06-07",
    "glossary/emperor": "2022-04-29",
    "glossary/emperor-variant": "2022-04-29",
    "glossary/general": "2022-04-29",
}

_SECTION_TITLES = {"722": "The Monarch", "723": "The Initiative"}


def builtin_edition(cite: Cite) -> str | None:
    """The edition of the built-in document that quotes an official rule, or None.

    >>> builtin_edition(cr("809.3c")), builtin_edition(cr("802.2")), builtin_edition(cr("800.4a"))
    ('2022-04-29', '2015-07-17', None)
    """
    if cite.document != "cr":
        return None
    if cite.local in _BUILTIN_GLOSSARY:
        return _BUILTIN_GLOSSARY[cite.local]
    for pattern, edition in _BUILTIN_QUOTES:
        if pattern.match(cite.local):
            return edition
    return None


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


def _release_editions(corpus: Any) -> list[str]:
    """Editions of the official rules loaded from release files, newest first."""
    releases = getattr(corpus, "releases", None)
    if releases:
        return sorted({getattr(r, "effective", "") for r in releases} - {""}, reverse=True)
    return []


def _section_in(corpus: Any, edition: str, title: str) -> str | None:
    """The number of the section titled ``title`` in an edition (the Monarch moves between releases)."""
    lookup = getattr(corpus, "lookup", None)
    if lookup is None:
        return None
    for number in range(700, 740):
        record = lookup(str(number), "cr", edition)
        if record is not None and title in getattr(record, "title", ""):
            return str(number)
    return None


def _renumbered(corpus: Any, cite: Cite, edition: str) -> str | None:
    """The local number of a 2024-06-07 rule in another edition; None when it cannot be placed."""
    head = cite.local.split(".")[0]
    if head not in _SECTION_TITLES:
        return cite.local  # numbers outside 722/723 are stable across the releases we know
    section = _section_in(corpus, edition, _SECTION_TITLES[head])
    if section is None:
        return None
    return section + cite.local[len(head):]


def _equivalents(corpus: Any, record_id: str, editions: list[str]) -> list[str]:
    """The same rule in the loaded releases (``corpus.equivalents``), newest first."""
    finder = getattr(corpus, "equivalents", None)
    if finder is None or not editions:
        return []
    try:
        found = [rid for rid, _changed in finder(record_id)]
    except Exception:  # a corpus that can't place the rule: no equivalents
        return []
    in_releases = [rid for rid in found if rid.split("@", 1)[1].split("/", 1)[0] in editions]
    return sorted(in_releases, reverse=True)


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
    releases = _release_editions(corpus)
    quoted = builtin_edition(cite)
    rid: str | None = None
    if quoted is not None and _has(corpus, f"cr@{quoted}/{cite.local}"):
        rid = f"cr@{quoted}/{cite.local}"
    elif corpus is not None and _has(corpus, f"cr@{NUMBERING}/{cite.local}"):
        rid = f"cr@{NUMBERING}/{cite.local}"
    if rid is not None:
        edition = rid.split("@", 1)[1].split("/", 1)[0]
        also = [a for a in _equivalents(corpus, rid, releases) if a != rid]
        placed = {a.split("@", 1)[1].split("/", 1)[0] for a in also}
        for release in releases:  # rules the edition matcher could not pair (their text changed)
            local = _renumbered(corpus, cite, release)
            if release not in placed and local is not None and _has(corpus, f"cr@{release}/{local}"):
                also.append(f"cr@{release}/{local}")
        if quoted is not None and _has(corpus, f"cr@{NUMBERING}/{cite.local}") and NUMBERING in releases:
            also.insert(0, f"cr@{NUMBERING}/{cite.local}")
        return Resolved(cite, rid, edition, _label(cite, edition), tuple(dict.fromkeys(also)))
    found = []
    for edition in releases:
        local = _renumbered(corpus, cite, edition)
        if local is not None and _has(corpus, f"cr@{edition}/{local}"):
            found.append(f"cr@{edition}/{local}")
    if found:
        edition = found[0].split("@")[1].split("/")[0]
        local = found[0].split("/", 1)[1]
        label = f"{cite} ({edition})" if local == cite.local else f"{cite} = CR {local} ({edition})"
        return Resolved(cite, found[0], edition, label, tuple(found[1:]))
    return Resolved(cite, None, None, _label(cite, None))


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
