"""Treachery's identity cards (the fan-made rules v4.0: 907.3-907.5, 372, card notes): the catalogue of cards
by role, their card notes as citations, the teams their roles make, and dealing them.

>>> find_card("The Aetherist"), CARDS["The Metamorph"]
('The Ætherist', 'traitor')
>>> table = deal({"Ann": "assassin", "Cat": "leader"})
>>> table["Cat"].face, table["Ann"].face
('up', 'down')
>>> team_name("guardian"), article("assassin")
('leader', 'an Assassin')
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesjudge.corpus.records import slugify
from rulesjudge.scenarios.model.citations import Cite, treachery
from rulesjudge.scenarios.model.setup import IdentitySpec
from rulesjudge.scenarios.model.table import Identity

ROLES = ("leader", "guardian", "assassin", "traitor")

#: Identity cards with card notes in the rules document, by role (the document's table of contents).
CARDS: dict[str, str] = {
    **dict.fromkeys(
        [
            "Her Seedborn Highness",
            "His Beloved Majesty",
            "The Blood Empress",
            "The Chaos Bringer",
            "The Corrupted Regent",
            "The Gathering",
            "The King over the Scrapyard",
            "The Old Ruler",
            "The Queen of Light",
            "The Twin Princesses",
            "The Void Tyrant",
        ],
        "leader",
    ),
    **dict.fromkeys(
        [
            "The Ætherist",
            "The Augur",
            "The Bodyguard",
            "The Cathar",
            "The Cryomancer",
            "The Flickering Mage",
            "The Golem",
            "The Great Martyr",
            "The Hieromancer",
            "The Immortal",
            "The Marshal",
            "The Oracle",
            "The Spellsnatcher",
            "The Summoner",
            "The Supplier",
            "The Warlock",
        ],
        "guardian",
    ),
    **dict.fromkeys(
        [
            "The Ambitious Queen",
            "The Beastmaster",
            "The Bio-Engineer",
            "The Corpse Snatcher",
            "The Demon",
            "The Depths Caller",
            "The Madwoman",
            "The Necromancer",
            "The Pyromancer",
            "The Rebel General",
            "The Seer",
            "The Shapeshifting Slayer",
            "The Sigil Mage",
            "The Sorceress",
            "The War Shaman",
            "The Witch",
        ],
        "assassin",
    ),
    **dict.fromkeys(
        [
            "The Banisher",
            "The Cleaner",
            "The Ferryman",
            "The Gatekeeper",
            "The Grenadier",
            "The Metamorph",
            "The Oneiromancer",
            "The Puppet Master",
            "The Reflector",
            "The Time Bender",
            "The Wearer of Masks",
        ],
        "traitor",
    ),
}

TEAM_NAMES = {"leader": "leader", "guardian": "leader", "assassin": "assassins", "traitor": "traitor"}
TEAM_RULES = {"leader": "907.5a", "assassins": "907.5b", "traitor": "907.5c"}

#: Card notes that say when an unveil cost can't be paid: "You can't pay the unveil cost if your life total
#: is less than N" (The Ambitious Queen, The Cathar, The Metamorph; the hand conditions are not modelled).
LIFE_TO_UNVEIL = {"The Ambitious Queen": 2, "The Cathar": 6, "The Metamorph": 8}


def find_card(name: str) -> str | None:
    """The catalogue's spelling of a card name, matched by slug ("The Aetherist" finds "The Ætherist")."""
    slug = slugify(name)
    return next((card for card in CARDS if slugify(card) == slug), None)


def note_id(card: str) -> Cite:
    """The citation of an identity card's card note, record ``treachery@4.0/note/the-metamorph``."""
    return treachery(f"note/{slugify(card)}")


def notes(identity: Identity) -> tuple[Cite, ...]:
    return (note_id(identity.card),) if identity.card else ()


def team_name(role: str) -> str:
    """The 907.5 designation of a role's team: leader, assassins, or traitor (alone)."""
    return TEAM_NAMES[role]


def article(role: str) -> str:
    """ "an Assassin", "a Leader"."""
    word = role.title()
    return f"{'an' if word[0] in 'AEIOU' else 'a'} {word}"


def deal(identities: Mapping[str, IdentitySpec | str]) -> dict[str, Identity]:
    """The identity each player starts with; each player owns and controls it (907.9, 372.5). A Leader is put
    into the command zone face up (907.4a), an identity with unveil face down (907.4b, 702.187a)."""
    table: dict[str, Identity] = {}
    for player, raw in identities.items():
        spec = IdentitySpec(raw) if isinstance(raw, str) else raw
        card = (find_card(spec.card) or spec.card) if spec.card else None
        has_unveil = spec.role != "leader"
        face = spec.face or ("up" if spec.role == "leader" else "down")
        table[player] = Identity(spec.role, player, card, face, has_unveil, spec.undercover, face == "up")
    return table
