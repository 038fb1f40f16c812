"""Cards and their official rulings: snapshots of Oracle text (MTGJSON AtomicCards, Scryfall bulk data),
the names people type for them, and the names recognised in a question. See docs/cards.md.

>>> from rulesjudge.corpus.cards import load_cards   # doctest: +SKIP
>>> load_cards().lookup("Platnum Angle")[0].name     # doctest: +SKIP
'Platinum Angel'
"""

from rulesjudge.corpus.cards.db import CardDB, load_cards
from rulesjudge.corpus.cards.model import Card, CardMention, CardRuling, Face, card_id, ruling_id, slug

__all__ = ["Card", "CardDB", "CardMention", "CardRuling", "Face", "card_id", "load_cards", "ruling_id",
           "slug"]
