"""``rulesjudge card NAME [--edition DATE] [--json]``: a card's faces and Oracle text, its official
rulings with their dates, and the rules its text refers to.

Kept light (a judge expects the card at once): the card snapshot's names come from the cache and only
the cards shown are read; no search index, no torch.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulesjudge.corpus.cards import Card, CardDB
    from rulesjudge.corpus.cards.rules_refs import RuleRef

WIDTH = 100
MAX_LISTED = 40  # a short name many cards share: the first this many, by name


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("card", help="a card's Oracle text, its official rulings and the rules it uses")
    p.add_argument("name", metavar="NAME", nargs="+", help="the card's name as you would say it: any case, "
                                                           "one face, a short name, a nickname, a typo")
    p.add_argument("--edition", metavar="DATE", help="card snapshot to read (default: the newest loaded)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulesjudge.corpus.cards import load_cards
    from rulesjudge.corpus.errors import json_text

    name = " ".join(args.name)
    db = load_cards(args.edition)
    exact = db.named(name)  # the full name: one row read, no name index
    cards = [exact] if exact is not None else db.lookup(name)
    if not cards:
        raise unknown(db, name)
    refs = _rules(cards) if len(cards) == 1 else {}
    if args.json:
        print(json_text({"query": name, "edition": db.edition,
                         "cards": [card_json(c, refs.get(c.id)) for c in cards]}, indent=2))
    elif len(cards) == 1:
        print(render(cards[0], refs.get(cards[0].id, [])))
    else:
        print(render_list(name, cards, db.edition))
    return 0


def unknown(db: CardDB, name: str) -> Exception:
    """The one line for a name no card has: the nickname's card the snapshot lacks, or the closest names."""
    from rulesjudge.corpus.errors import InputError

    meant = db.nickname_of(name)
    if meant:
        return InputError("command line", f"{name!r} is what the table calls {meant}, which the card "
                                f"snapshot of {db.edition} lacks; add a newer snapshot with "
                                "`rulesjudge cards add` or `rulesjudge cards update`", key="NAME")
    closest = db.closest(name)
    hint = f"; closest: {', '.join(closest)}" if closest else ""
    return InputError("command line", f"no card named {name!r} in the card snapshot of {db.edition}{hint}",
                      key="NAME")


def _rules(cards: list[Card]) -> dict[str, list[RuleRef]]:
    from rulesjudge.corpus.cards.rules_refs import rules_of
    from rulesjudge.corpus.store import load_corpus

    corpus = load_corpus()
    return {card.id: rules_of(card, corpus) for card in cards}


def render(card: Card, refs: list[RuleRef]) -> str:
    """A card as a judge reads it: each face, the Commander facts, the rulings, then the rules."""
    from rulesjudge.corpus.errors import escape_controls

    lines = [f"{card.name}  ({card.id})"]
    for face in card.faces:
        if len(card.faces) > 1:
            lines.append("")
            lines.append(f"{face.name}")
        head = " ".join(part for part in (face.type_line, face.mana_cost or "") if part)
        lines.append(f"  {head}")
        for paragraph in face.text.split("\n"):
            wrapped = textwrap.wrap(paragraph, WIDTH, initial_indent="  ", subsequent_indent="    ")
            lines.extend(wrapped or [""])
        stats = _stats(face.power, face.toughness, face.loyalty, face.defense)
        if stats:
            lines.append(f"  {stats}")
    lines.append("")
    legality = card.commander_legality or "not said"
    commander = "can be your commander" if card.can_be_commander else "can't be your commander"
    lines.append(f"Commander: {legality}; {commander}")
    lines.append("")
    if card.rulings:
        lines.append(f"Official rulings ({len(card.rulings)}):")
        for ruling in card.rulings:
            number = ruling.id.rsplit("/", 1)[1]
            wrapped = textwrap.wrap(ruling.text, WIDTH - 16) or [""]
            lines.append(f"  {number:>2}. {ruling.date}  {wrapped[0]}")
            lines.extend(f"{'':>18}{line}" for line in wrapped[1:])
    else:
        lines.append("Official rulings: none published")
    if refs:
        lines.append("")
        lines.append("Rules its text refers to:")
        for ref in refs:
            cited = "; ".join(f"{r.citation}" + (f" {r.title}" if r.kind == "glossary" else "")
                              for r in ref.records)
            lines.append(f"  {ref.term}: {cited}")
            first = ref.records[0]
            summary = first.text if first.kind != "glossary" and len(first.text) > 40 else ""
            if summary:
                lines.extend(textwrap.wrap(summary, WIDTH, initial_indent="    ", subsequent_indent="    ",
                                           max_lines=2, placeholder=" …"))
    return "\n".join(escape_controls(line) for line in lines)


def render_list(name: str, cards: list[Card], edition: str) -> str:
    lines = [f"{len(cards)} cards answer to {name!r} in the card snapshot of {edition}:"]
    for card in cards[:MAX_LISTED]:
        type_line = card.faces[0].type_line if card.faces else ""
        lines.append(f"  {card.name} \u2014 {type_line}  ({card.id})")
    if len(cards) > MAX_LISTED:
        lines.append(f"  … and {len(cards) - MAX_LISTED} more")
    lines.append('Show one with: rulesjudge card "FULL NAME"')
    return "\n".join(lines)


def _stats(power: str | None, toughness: str | None, loyalty: str | None, defense: str | None) -> str:
    if power is not None or toughness is not None:
        return f"{power}/{toughness}"
    if loyalty is not None:
        return f"Loyalty {loyalty}"
    if defense is not None:
        return f"Defense {defense}"
    return ""


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
