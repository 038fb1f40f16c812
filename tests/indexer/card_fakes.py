"""Cards written out in a test, and a card stage that recognises just them: the Oracle-template tests'
shared pieces (test_card_templates*.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rulesjudge.corpus.cards import Card, CardMention, Face
from rulesjudge.corpus.records import Record
from rulesjudge.indexer.card_stage import CardStage


def card(name: str, type_line: str, text: str, keywords: tuple[str, ...] = ()) -> Card:
    """A one-face card of the 2026-07-09 snapshot, as the tests write its Oracle text."""
    slug = re.sub(r"[^a-z]+", "-", name.lower()).strip("-")
    return Card(f"cards@2026-07-09/card/{slug}", name, (Face(name, "", type_line, text),), keywords,
                edition="2026-07-09")


class FakeCards:
    """The snapshot's ``names_in``, for these cards: each full name where the question says it."""

    def __init__(self, cards: Sequence[Card], *, ignore_case: bool = True) -> None:
        self.cards = cards
        self.flags = re.IGNORECASE if ignore_case else 0

    def names_in(self, text: str) -> list[CardMention]:
        found = [CardMention(c, m.start(), m.end(), m.group())
                 for c in self.cards for m in re.finditer(re.escape(c.name), text, self.flags)]
        return sorted(found, key=lambda m: m.start)


def stage_over(records: Sequence[Record], cards: Sequence[Card], *, ignore_case: bool = True) -> CardStage:
    """The search's card stage over ``records``, recognising only ``cards``."""
    fake = FakeCards(cards, ignore_case=ignore_case)
    return CardStage(records, lambda: fake)


def lifted(stage: CardStage, question: str) -> set[str]:
    """The rules the named cards' Oracle templates lift for ``question``."""
    return set(stage.read(question).template_rules)
