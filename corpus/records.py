"""The rule record and its id scheme: the one vocabulary that search, the rules model and the app share.

Id scheme
---------
``{document}@{edition}/{local}`` where

* ``document`` is the namespace of the text the record belongs to:
  ``cr`` (official Comprehensive Rules, whether read from a release file or quoted by a wiki page),
  ``rulings`` (official card rulings), ``treachery`` (the fan-made Treachery rules), or a wiki page's
  own prose (``monarch-wiki``, ``emperor-page``, ``player-page``);
* ``edition`` is the edition of that text: an ISO date for official rules (``2024-06-07``) and rulings
  (``2022-10-14``, or ``undated``), a version for fan-made rules (``4.0``);
* ``local`` is the rule number (``722.4``, ``702.187c``, ``809``), or a kind and a slug:
  ``glossary/emperor``, ``note/the-metamorph``, ``history/2.0.5``, ``section/becoming-the-monarch``,
  ``ruling/the-game-starts-with-no-monarch``.

Because a rule quoted by a wiki page is filed under the document and edition it quotes, the same
rule read from two places gets the same id and becomes one record with several provenances.

>>> RecordId.parse("cr@2024-06-07/722.4")
RecordId(document='cr', edition='2024-06-07', local='722.4')
>>> str(RecordId("treachery", "4.0", "note/the-metamorph"))
'treachery@4.0/note/the-metamorph'
>>> slugify("The Ætherist")
'the-aetherist'

A release that prints a number twice, or files a subrule under the wrong rule, keeps every record: the
second print gets an id that cannot collide (``722.4~2``, ``432.2b~in-423.2``), its ``number`` stays the
printed number.

>>> duplicate_local("722.4", 2), misfiled_local("432.2b", "423.2")
('722.4~2', '432.2b~in-423.2')
>>> edition_of("cr@2024-06-07/722.4"), document_of("treachery@4.0/note/the-metamorph")
('2024-06-07', 'treachery')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

RecordKind = Literal[
    "section",  # a numbered section heading: "722. The Monarch" or a chapter "7. Additional Rules"
    "rule",  # "722.4."
    "subrule",  # "722.4a"
    "glossary",  # a glossary entry
    "ruling",  # an official card ruling
    "card-note",  # a Treachery identity card note
    "history",  # a version-history entry
    "prose",  # a prose section of a wiki page
    "reminder",  # an official rule a fan-made document reminds the reader of
]

#: Display names of the record namespaces. Wiki pages are named after the page they capture.
DOCUMENT_TITLES: dict[str, str] = {
    "cr": "Comprehensive Rules",
    "rulings": "Official card rulings",
    "treachery": "Treachery rules (fan-made)",
    "monarch-wiki": "Monarch (wiki page)",
    "emperor-page": "Emperor Rules (Old School page)",
    "player-page": "Player (MTG Salvation wiki page)",
}

#: Wiki pages as a judge names them: the page, and the site (their edition is that of the CR they quote).
WIKI_PAGES: dict[str, tuple[str, str]] = {
    "monarch-wiki": ("Monarch", "MTG wiki page"),
    "emperor-page": ("Emperor Rules", "Old School page"),
    "player-page": ("Player", "MTG Salvation wiki page"),
}

#: Namespaces whose text is official Wizards of the Coast text.
OFFICIAL_DOCUMENTS = frozenset({"cr", "rulings"})
#: Namespaces of fan-made rules documents (the others that are not official are wiki pages).
FAN_RULES_DOCUMENTS = frozenset({"treachery"})


def document_title(document: str, kind: str = "") -> str:
    """The title of the text a record belongs to, as a hit shows it.

    >>> document_title("treachery"), document_title("treachery", "reminder")
    ('Treachery rules (fan-made)', 'Comprehensive Rules (quoted by the Treachery rules)')
    """
    if kind == "reminder":  # an official rule a fan document recalls
        return "Comprehensive Rules (quoted by the Treachery rules)"
    return DOCUMENT_TITLES.get(document, document)


def source_label(document: str) -> str:
    """What kind of text a namespace holds, as a hit names it.

    >>> source_label("cr"), source_label("treachery"), source_label("monarch-wiki")
    ('official', 'fan-made rules', 'wiki page')
    """
    if document in OFFICIAL_DOCUMENTS:
        return "official"
    return "fan-made rules" if document in FAN_RULES_DOCUMENTS else "wiki page"

_ID_PATTERN = re.compile(r"^(?P<document>[a-z][a-z0-9-]*)@(?P<edition>[A-Za-z0-9.-]+)/(?P<local>\S+)$")

# A rule number as the rules write it: section 722, rule 722.4, subrule 722.4a, Treachery's 116.2tr.
RULE_NUMBER = re.compile(r"^(?P<section>\d{3})(?:\.(?P<rule>\d+)(?P<sub>[a-z]{1,2})?)?$")


@dataclass(frozen=True, slots=True)
class RecordId:
    """A record id split into its parts (see the module docstring)."""

    document: str
    edition: str
    local: str

    @classmethod
    def parse(cls, text: str) -> RecordId:
        match = _ID_PATTERN.match(text)
        if not match:
            raise ValueError(f"not a record id: {text!r} (expected document@edition/local)")
        return cls(match["document"], match["edition"], match["local"])

    def __str__(self) -> str:
        return f"{self.document}@{self.edition}/{self.local}"


def make_id(document: str, edition: str, local: str) -> str:
    """The id of a record.

    >>> make_id("cr", "2022-04-29", "glossary/emperor")
    'cr@2022-04-29/glossary/emperor'
    """
    return f"{document}@{edition}/{local}"


# Fast accessors of an id's parts (hot loops of search and the store); ``RecordId.parse`` validates.


def document_of(record_id: str) -> str:
    return record_id.partition("@")[0]


def edition_of(record_id: str) -> str:
    return record_id.partition("@")[2].partition("/")[0]


def local_of(record_id: str) -> str:
    return record_id.partition("/")[2]


def id_parts(record_id: str) -> tuple[str, str, str]:
    """``(document, edition, local)`` of an id, unvalidated.

    >>> id_parts("cr@2024-06-07/glossary/monarch")
    ('cr', '2024-06-07', 'glossary/monarch')
    """
    document, _, rest = record_id.partition("@")
    edition, _, local = rest.partition("/")
    return document, edition, local


def id_prefix(document: str, edition: str) -> str:
    """What every id of one document edition starts with: ``id_prefix(d, e) + local == make_id(d, e, local)``.

    >>> id_prefix("treachery", "4.0")
    'treachery@4.0/'
    """
    return make_id(document, edition, "")


def sibling_id(record_id: str, local: str) -> str:
    """The id of ``local`` in the same document and edition as ``record_id``.

    >>> sibling_id("cr@2024-06-07/722.4a", "722.4")
    'cr@2024-06-07/722.4'
    """
    return f"{record_id.partition('/')[0]}/{local}"


def duplicate_local(number: str, ordinal: int) -> str:
    """The local part of the ``ordinal``-th record printed with the same ``number`` in one release."""
    return f"{number}~{ordinal}"


def misfiled_local(number: str, parent: str) -> str:
    """The local part of a subrule printed under a rule whose number it does not carry."""
    return f"{number}~in-{parent}"


def glossary_local(term: str) -> str:
    """The local part of a glossary entry's id, whatever apostrophe the term is printed with (releases
    print "Isn't" and "Isn’t"): every reader and every lookup of a term names it this way.

    >>> glossary_local("Monarch"), glossary_local("Isn't"), glossary_local("Isn’t")
    ('glossary/monarch', 'glossary/isnt', 'glossary/isnt')
    """
    return "glossary/" + slugify(term.replace("'", ""))


def ruling_slug(text: str) -> str:
    """The slug of a ruling's id: its first six words (the model cites rulings by their opening words).

    >>> ruling_slug("The game starts with no monarch. Once an effect makes one player the monarch, ...")
    'the-game-starts-with-no-monarch'
    """
    return slugify(" ".join(text.split()[:6]))


def ruling_local(text: str) -> str:
    """The local part of a ruling's id.

    >>> ruling_local("The game starts with no monarch.")
    'ruling/the-game-starts-with-no-monarch'
    """
    return f"ruling/{ruling_slug(text)}"


def ruling_title(text: str, words: int = 12) -> str:
    """A ruling's title: its first sentence, cut after ``words`` words.

    >>> ruling_title("The game starts with no monarch. Once an effect makes one player the monarch, ...")
    'The game starts with no monarch.'
    >>> ruling_title("If the monarch leaves the game during another player's turn, that player becomes ...")
    "If the monarch leaves the game during another player's turn, that player…"
    """
    sentence = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    parts = sentence.split()
    return sentence if len(parts) <= words else " ".join(parts[:words]).rstrip(",;:") + "\u2026"


def slugify(text: str) -> str:
    """A lower-case ASCII slug for ids: "The King over the Scrapyard" -> ``the-king-over-the-scrapyard``."""
    text = text.replace("Æ", "Ae").replace("æ", "ae")
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a record's text was read: a source document (manifest id or release file) and its line."""

    source: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class CrossRef:
    """A reference written in a record's text, resolved to a record id where the target is loaded.

    ``label`` is the text as written ("rule 801", "601.2f–h"); ``number`` the rule or section number it
    points at; ``target`` the id of the record in the same document and edition, or None.
    """

    label: str
    number: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """One rule, subrule, glossary entry, ruling, card note, history entry or prose section."""

    id: str
    document: str
    edition: str
    kind: RecordKind
    text: str
    number: str | None = None
    title: str = ""
    heading_path: tuple[str, ...] = ()
    effective: str | None = None  # ISO date the edition took effect, where the text says so
    official: bool = True
    parent: str | None = None
    children: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    cross_refs: tuple[CrossRef, ...] = ()
    aliases: tuple[str, ...] = ()  # glossary entries: other terms the entry covers
    obsolete: bool = False  # glossary entries marked "(Obsolete)"
    role: str | None = None  # Treachery card notes: Leader, Guardian, Assassin or Traitor
    provenance: tuple[Provenance, ...] = field(default=())
    links: tuple[str, ...] = ()  # explicit links to records with the same content elsewhere

    @property
    def citation(self) -> str:
        """How a judge cites it aloud.

        >>> Record("cr@2024-06-07/722.4", "cr", "2024-06-07", "rule", "...", number="722.4").citation
        'CR 722.4 (2024-06-07)'
        >>> Record("treachery@4.0/104.3g", "treachery", "4.0", "reminder", "...", number="104.3g").citation
        'CR 104.3g (quoted by the Treachery rules 4.0)'
        >>> Record("monarch-wiki@2024-06-07/section/history", "monarch-wiki", "2024-06-07", "prose", "...",
        ...        title="History").citation
        'Monarch (MTG wiki page, quoting CR of 2024-06-07): History'
        """
        if self.kind == "reminder":  # an official rule a fan document recalls: still the official rule
            return f"CR {self.number} (quoted by the Treachery rules {self.edition})"
        if self.document == "rulings":
            return f"Ruling \u201c{self.title or ruling_title(self.text)}\u201d ({self.edition})"
        if self.document in WIKI_PAGES:
            page, site = WIKI_PAGES[self.document]
            section = f": {self.title}" if self.title and self.title != "Introduction" else ""
            return f"{page} ({site}, quoting CR of {self.edition}){section}"
        label = {"cr": "CR", "treachery": "Treachery"}.get(self.document, self.document)
        what = self.number or self.title
        return f"{label} {what} ({self.edition})"

    @property
    def source_label(self) -> str:
        """What kind of text it is, as a hit names it: an official rule quoted by a fan document stays
        official (``source_label`` of its namespace would say fan-made)."""
        return "official" if self.kind == "reminder" else source_label(self.document)

    @property
    def document_title(self) -> str:
        return document_title(self.document, self.kind)

    def with_provenance(self, more: Provenance) -> Record:
        """The same record read from one more place (used when two documents quote the same rule)."""
        if more in self.provenance:
            return self
        return replace(self, provenance=(*self.provenance, more))


class Corpus(Protocol):
    """What search, the rules model and the app may ask of the loaded corpus (``corpus.store``).

    One contract: the store implements it over the built-in documents and the releases in the data
    folder, :func:`corpus.store.corpus_of` over records in hand (tests, a synthetic table).
    """

    @property
    def records(self) -> Mapping[str, Record]: ...

    def get(self, record_id: str) -> Record | None: ...

    def editions(self, document: str) -> list[str]:
        """The loaded editions of a document, oldest first."""
        ...

    def documents(self) -> list[tuple[str, str, int]]:
        """``(document, edition, record count)`` of every loaded document edition."""
        ...

    def numbered(self, number: str, document: str = "cr") -> dict[str, str]:
        """Edition -> id of every loaded record with this number in this document."""
        ...

    def lookup(self, number: str, document: str = "cr", edition: str | None = None) -> Record | None: ...

    def equivalents(self, record_id: str) -> list[tuple[str, bool]]:
        """The same rule in every other loaded edition of its document: ``(record id, text changed)``."""
        ...

    def text_key(self, record_id: str) -> bytes | None:
        """A digest of the record's text as compared across editions (rule numbers and markup masked)."""
        ...

    def release_editions(self, document: str) -> list[str]:
        """The editions read from a whole release, oldest first (the others hold what pages quote)."""
        ...

    def latest(self, record_id: str) -> str:
        """The id of the same rule in the newest loaded edition that holds it (``record_id`` itself when
        no newer edition does)."""
        ...

    def in_edition(self, document: str, edition: str) -> list[Record]: ...
