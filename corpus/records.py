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
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Literal

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

#: Namespaces whose text is official Wizards of the Coast text.
OFFICIAL_DOCUMENTS = frozenset({"cr", "rulings"})
#: Namespaces of fan-made rules documents (the others that are not official are wiki pages).
FAN_RULES_DOCUMENTS = frozenset({"treachery"})


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
    return str(RecordId(document, edition, local))


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
        """How a judge cites it: ``CR 722.4 (2024-06-07)``, ``Treachery 907.5d (4.0)``."""
        label = {"cr": "CR", "treachery": "Treachery", "rulings": "Ruling"}.get(self.document, self.document)
        what = self.number or self.title
        return f"{label} {what} ({self.edition})"

    @property
    def document_title(self) -> str:
        return DOCUMENT_TITLES.get(self.document, self.document)

    def with_provenance(self, more: Provenance) -> Record:
        """The same record read from one more place (used when two documents quote the same rule)."""
        if more in self.provenance:
            return self
        return replace(self, provenance=(*self.provenance, more))
