"""``rulesjudge card NAME [--edition DATE] [--json]``: a card's faces and Oracle text, its official
rulings with their dates, and the rules its text refers to.

Kept light (a judge expects the card at once): the card snapshot's names come from the cache and only
the cards shown are read; no search index, no torch.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rulesjudge.app.cards_view import card_text, card_view, find_cards, list_text, rules_refs, unknown_message
from rulesjudge.common.errors import InputError, json_text
from rulesjudge.corpus.cards import load_cards
from rulesjudge.corpus.store import load_corpus

if TYPE_CHECKING:
    from rulesjudge.corpus.cards import Card, CardDB
    from rulesjudge.corpus.cards.rules_refs import RuleRef

def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("card", help="a card's Oracle text, its official rulings and the rules it uses")
    p.add_argument("name", metavar="NAME", nargs="+", help="the card's name as you would say it: any case, "
                                                           "one face, a short name, a nickname, a typo")
    p.add_argument("--edition", metavar="DATE", help="card snapshot to read (default: the newest loaded)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    name = " ".join(args.name)
    db = load_cards(args.edition)
    cards = find_cards(db, name)  # the full name: one row read, no name index
    if not cards:
        raise unknown(db, name)
    refs = _rules(cards) if len(cards) == 1 else {}
    if args.json:
        print(json_text({"query": name, "edition": db.edition,
                         "cards": [card_json(c, refs.get(c.id)) for c in cards]}, indent=2))
    elif len(cards) == 1:
        print(card_text(card_view(cards[0], refs.get(cards[0].id, []))))
    else:
        print(list_text(name, cards, db.edition))
    return 0


def unknown(db: CardDB, name: str) -> Exception:
    """The one line for a name no card has (:func:`app.cards_view.unknown_message`)."""
    return InputError("command line", unknown_message(db, name), key="NAME")


def _rules(cards: list[Card]) -> dict[str, list[RuleRef]]:
    return rules_refs(cards, load_corpus())


def card_json(card: Card, refs: list[RuleRef] | None) -> dict[str, Any]:
    """A card as plain values: every field of the contract, the rulings with ids and dates, the rules."""
    data: dict[str, Any] = {
        "id": card.id, "name": card.name, "edition": card.edition, "layout": card.layout,
        "faces": [{"name": f.name, "mana_cost": f.mana_cost, "type_line": f.type_line, "text": f.text,
                   "power": f.power, "toughness": f.toughness, "loyalty": f.loyalty, "defense": f.defense}
                  for f in card.faces],
        "oracle_text": card.oracle_text, "keywords": list(card.keywords),
        "commander_legality": card.commander_legality, "can_be_commander": card.can_be_commander,
        "rulings": [{"id": r.id, "date": r.date, "text": r.text} for r in card.rulings],
    }
    if refs is not None:
        data["rules"] = [{"term": ref.term, "how": ref.how, "ids": [r.id for r in ref.records]}
                         for ref in refs]
    return data
