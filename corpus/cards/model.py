"""Cards as values: a card, its faces and its official rulings, and the ids they are cited by.

Ids follow the house scheme ``document@edition/local`` with the document ``cards`` and the snapshot's date
as the edition (see docs/cards.md):

>>> card_id("2026-07-09", "Thalia, Heretic Cathar")
'cards@2026-07-09/card/thalia-heretic-cathar'
>>> ruling_id("2026-07-09", "thalia-heretic-cathar", 2)
'cards@2026-07-09/ruling/thalia-heretic-cathar/2'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulesjudge.corpus.records import make_id, slugify

DOCUMENT = "cards"
FACE_SEPARATOR = "\n//\n"  # between the faces' texts in Card.oracle_text, as Oracle prints split cards


def slug(name: str) -> str:
    """A card name as it appears in an id: no accents, lower case, each run of other characters one "-".

    >>> slug("Lim-Dûl the Necromancer"), slug("Fire // Ice"), slug("Thalia's Lancers")
    ('lim-dul-the-necromancer', 'fire-ice', 'thalia-s-lancers')
    """
    return slugify(name)  # the records' own slug: one spelling of a name in every id


def card_id(edition: str, card_slug_or_name: str) -> str:
    """The id of a card (a name is slugged; a slug stays as it is)."""
    return make_id(DOCUMENT, edition, f"card/{slug(card_slug_or_name)}")


def ruling_id(edition: str, card_slug: str, position: int) -> str:
    """The id of a card's ``position``-th ruling (1-based, in the file's order)."""
    return make_id(DOCUMENT, edition, f"ruling/{card_slug}/{position}")


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a card (a split card's half, an adventure, a double-faced card's side), as printed."""

    name: str
    mana_cost: str | None = None
    type_line: str = ""
    text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None


@dataclass(frozen=True, slots=True)
class CardRuling:
    """An official ruling published with a card: its id, date (YYYY-MM-DD) and words."""

    id: str
    date: str
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    """A card of one snapshot: every face, its keywords, Commander facts and official rulings."""

    id: str
    name: str
    faces: tuple[Face, ...]
    keywords: tuple[str, ...] = ()
    commander_legality: str | None = None  # "legal", "banned", "restricted", "not legal"; None: not said
    can_be_commander: bool = False
    rulings: tuple[CardRuling, ...] = ()
    edition: str = ""
    layout: str = "normal"

    @property
    def slug(self) -> str:
        return self.id.rsplit("/", 1)[1]

    @property
    def oracle_text(self) -> str:
        """All faces' Oracle text, faces apart by ``//`` lines.

        >>> Card("x", "Fire // Ice", (Face("Fire", text="a"), Face("Ice", text="b"))).oracle_text
        'a\\n//\\nb'
        """
        return FACE_SEPARATOR.join(face.text for face in self.faces)

    @property
    def face_names(self) -> tuple[str, ...]:
        return tuple(face.name for face in self.faces)

    def to_data(self) -> dict[str, Any]:
        """Plain values (JSON), the inverse of :meth:`from_data`."""
        return {
            "id": self.id, "name": self.name, "layout": self.layout, "edition": self.edition,
            "faces": [[f.name, f.mana_cost, f.type_line, f.text, f.power, f.toughness, f.loyalty, f.defense]
                      for f in self.faces],
            "keywords": list(self.keywords), "commander_legality": self.commander_legality,
            "can_be_commander": self.can_be_commander,
            "rulings": [[r.id, r.date, r.text] for r in self.rulings],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Card:
        return cls(
            id=data["id"], name=data["name"], layout=data["layout"], edition=data["edition"],
            faces=tuple(Face(*face) for face in data["faces"]), keywords=tuple(data["keywords"]),
            commander_legality=data["commander_legality"], can_be_commander=data["can_be_commander"],
            rulings=tuple(CardRuling(*r) for r in data["rulings"]),
        )


@dataclass(frozen=True, slots=True)
class CardMention:
    """A card name recognised in a text: the card, where (``text[start:end] == said``), and, for a short
    name several cards share ("Thalia"), the others it may mean."""

    card: Card
    start: int
    end: int
    said: str
    others: tuple[Card, ...] = field(default=())
