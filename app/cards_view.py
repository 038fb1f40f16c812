"""A card as a judge reads it (issue 21.4): the one place that decides what a card shows — its faces,
Oracle text, Commander facts, rulings with dates, and the rules its text refers to — for both
``rulesjudge card NAME`` (:func:`card_text`) and the app's Cards page (``app/web/cards_ui.py``).

No Streamlit here, and nothing heavy: the command imports it on its 0.5 s path.

>>> from rulesjudge.corpus.cards import Card, Face
>>> view = card_view(Card("cards@2026-07-09/card/fog", "Fog",
...                       (Face("Fog", "{G}", "Instant", "Prevent all combat damage."),)), [])
>>> view.faces[0].head, view.commander
('Instant {G}', "Commander: not said; can't be your commander")
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesjudge.common.errors import escape_controls
from rulesjudge.corpus.cards.names import name_key
from rulesjudge.corpus.cards.rules_refs import rules_of
from rulesjudge.corpus.store import StoredCorpus

if TYPE_CHECKING:
    from rulesjudge.corpus.cards import Card, CardDB, CardRuling
    from rulesjudge.corpus.cards.rules_refs import RuleRef
    from rulesjudge.corpus.records import Corpus

WIDTH = 100
MAX_LISTED = 40  # a short name many cards share: the first this many, by name
SUMMARY_MIN = 40  # a rule's text shorter than this is a title ("702.9. Flying"): no summary line


@dataclass(frozen=True)
class FaceView:
    """One face: its name (shown when the card has several), type line and cost, text, P/T or loyalty."""

    name: str
    head: str
    paragraphs: tuple[str, ...]
    stats: str


@dataclass(frozen=True)
class RulingView:
    """An official ruling: its number in the card's list, its date, its text and id."""

    number: str
    date: str
    text: str
    id: str


@dataclass(frozen=True)
class RuleView:
    """A rules term of the card's text, the rules it refers to as citations, the first rule's text."""

    term: str
    how: str
    cited: tuple[str, ...]
    ids: tuple[str, ...]
    summary: str


@dataclass(frozen=True)
class CardView:
    """Everything a card shows, already worded; the text and the page only lay it out."""

    name: str
    id: str
    edition: str
    faces: tuple[FaceView, ...]
    several_faces: bool
    commander: str
    rulings: tuple[RulingView, ...]
    rules: tuple[RuleView, ...]


def card_view(card: Card, refs: Sequence[RuleRef]) -> CardView:
    """The card as words: each face, the Commander facts (903.3), the rulings, the rules it refers to."""
    faces = tuple(FaceView(face.name, " ".join(p for p in (face.type_line, face.mana_cost or "") if p),
                           tuple(face.text.split("\n")),
                           stats(face.power, face.toughness, face.loyalty, face.defense))
                  for face in card.faces)
    legality = card.commander_legality or "not said"
    commander = "can be your commander" if card.can_be_commander else "can't be your commander"
    return CardView(card.name, card.id, card.edition, faces, len(card.faces) > 1,
                    f"Commander: {legality}; {commander}", tuple(ruling_view(r) for r in card.rulings),
                    tuple(rule_view(ref) for ref in refs))


def ruling_view(ruling: CardRuling) -> RulingView:
    """A ruling with its number (the last part of its id: its place in the card's list)."""
    return RulingView(ruling.id.rsplit("/", 1)[1], ruling.date, ruling.text, ruling.id)


def rule_view(ref: RuleRef) -> RuleView:
    cited = tuple(f"{r.citation}" + (f" {r.title}" if r.kind == "glossary" else "") for r in ref.records)
    first = ref.records[0]
    summary = first.text if first.kind != "glossary" and len(first.text) > SUMMARY_MIN else ""
    return RuleView(ref.term, ref.how, cited, tuple(r.id for r in ref.records), summary)


def stats(power: str | None, toughness: str | None, loyalty: str | None, defense: str | None) -> str:
    """P/T, loyalty or defense as printed.

    >>> stats("3", "2", None, None), stats(None, None, "5", None), stats(None, None, None, None)
    ('3/2', 'Loyalty 5', '')
    """
    if power is not None or toughness is not None:
        return f"{power}/{toughness}"
    if loyalty is not None:
        return f"Loyalty {loyalty}"
    if defense is not None:
        return f"Defense {defense}"
    return ""


def card_text(view: CardView) -> str:
    """The card as plain text (``rulesjudge card NAME``), control characters escaped."""
    lines = [f"{view.name}  ({view.id})"]
    for face in view.faces:
        if view.several_faces:
            lines += ["", face.name]
        lines.append(f"  {face.head}")
        for paragraph in face.paragraphs:
            wrapped = textwrap.wrap(paragraph, WIDTH, initial_indent="  ", subsequent_indent="    ")
            lines.extend(wrapped or [""])
        if face.stats:
            lines.append(f"  {face.stats}")
    lines += ["", view.commander, ""]
    if view.rulings:
        lines.append(f"Official rulings ({len(view.rulings)}):")
        for ruling in view.rulings:
            wrapped = textwrap.wrap(ruling.text, WIDTH - 16) or [""]
            lines.append(f"  {ruling.number:>2}. {ruling.date}  {wrapped[0]}")
            lines.extend(f"{'':>18}{line}" for line in wrapped[1:])
    else:
        lines.append("Official rulings: none published")
    if view.rules:
        lines += ["", "Rules its text refers to:"]
        for rule in view.rules:
            lines.append(f"  {rule.term}: {'; '.join(rule.cited)}")
            if rule.summary:
                lines.extend(textwrap.wrap(rule.summary, WIDTH, initial_indent="    ",
                                           subsequent_indent="    ", max_lines=2, placeholder=" …"))
    return "\n".join(escape_controls(line) for line in lines)


def list_text(name: str, cards: Sequence[Card], edition: str) -> str:
    """Several cards answer to a short name: one line each, the first :data:`MAX_LISTED`."""
    lines = [f"{len(cards)} cards answer to {name!r} in the card snapshot of {edition}:"]
    for card in cards[:MAX_LISTED]:
        lines.append(f"  {card.name} \u2014 {type_line(card)}  ({card.id})")
    if len(cards) > MAX_LISTED:
        lines.append(f"  … and {len(cards) - MAX_LISTED} more")
    lines.append('Show one with: rulesjudge card "FULL NAME"')
    return "\n".join(lines)


def type_line(card: Card) -> str:
    return card.faces[0].type_line if card.faces else ""


def find_cards(db: CardDB, name: str) -> list[Card]:
    """The cards a typed name means, best first: the exact full name read by its id alone, else
    :meth:`CardDB.lookup` (a face, a nickname, a short name, a typo); empty when none is close."""
    if not name.strip():
        return []
    exact = db.named(name)
    return [exact] if exact is not None else db.lookup(name)


def starts_one(typed: str, names: Sequence[str], *, words: bool = True) -> bool:
    """Whether ``typed`` is the start of a name (``words``: or of a word of one) — a name still being
    typed, not an unknown one — in any case, accents or punctuation.

    >>> names = ["Platinum Angel"]
    >>> starts_one("plat", names), starts_one("angel", names), starts_one("angel", names, words=False)
    (True, True, False)
    """
    key = name_key(typed)
    return bool(key) and any(name_key(n).startswith(key) or (words and f" {key}" in f" {name_key(n)}")
                             for n in names)


def unknown_message(db: CardDB, name: str) -> str:
    """The one line for a name no card has: the nickname's card the snapshot lacks, or the closest names."""
    meant = db.nickname_of(name)
    if meant:
        return (f"{name!r} is what the table calls {meant}, which the card snapshot of {db.edition} "
                "lacks; add a newer snapshot with `rulesjudge cards add` or `rulesjudge cards update`")
    closest = db.closest(name)
    hint = f"; closest: {', '.join(closest)}" if closest else ""
    return f"no card named {name!r} in the card snapshot of {db.edition}{hint}"


def rules_refs(cards: Sequence[Card], corpus: Corpus) -> dict[str, list[RuleRef]]:
    """Each card's rules its text refers to, read from ``corpus`` (the newest loaded Comprehensive Rules)."""
    from typing import cast

    return {card.id: rules_of(card, cast(StoredCorpus, corpus)) for card in cards}


def marked_spans(text: str, words: Sequence[str]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is one of ``words``) for marking the question's words in a ruling: whole
    words in any case, with a plural or possessive ending; words of fewer than three letters and the
    ``STOP`` words are never marked (every ruling has "the").

    >>> marked_spans("Creatures enter tapped.", ["tapped", "creature", "the"])
    [('Creatures', True), (' enter ', False), ('tapped', True), ('.', False)]
    """
    kept = {stem(w) for w in words if len(w) >= 3 and w.lower() not in STOP}
    wanted = sorted(kept, key=len, reverse=True)
    if not wanted:
        return [(text, False)] if text else []
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in wanted) + r")(?:'s|s|es|ed|d)?\b",
                         re.IGNORECASE)
    out: list[tuple[str, bool]] = []
    last = 0
    for match in pattern.finditer(text):
        if match.start() > last:
            out.append((text[last:match.start()], False))
        out.append((match.group(), True))
        last = match.end()
    if last < len(text):
        out.append((text[last:], False))
    return out


def stem(word: str) -> str:
    """A word without the plural, possessive or past ending that :func:`marked_spans` adds back, so
    "controls" marks "control" and "enter" marks "enters" (a light stemmer: the words are only marked).

    >>> [stem(w) for w in ["controls", "Thalia's", "tapped", "enters", "loss", "dies"]]
    ['control', 'thalia', 'tapp', 'enter', 'loss', 'die']
    """
    word = word.lower().removesuffix("'s").removesuffix("’s")
    for ending in ("ed", "s"):
        if word.endswith(ending) and not word.endswith("ss") and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def question_words(question: str) -> list[str]:
    """The words of a question worth marking in a card's text and rulings.

    >>> question_words("Does Gideon enter tapped if I control it?")
    ['Gideon', 'enter', 'tapped', 'control']
    """
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", question)
            if len(w) >= 3 and w.lower() not in STOP]


_STOP_WORDS = """
the and you your are for not but can does did was were has have had its it's this that than then with from
into onto what when who whom which why how any all each one two would could should will may might get gets
got also just still only card cards ruling rulings game player players if is of on or to in at by as be
"""
#: Words too common in rules English to be worth marking.
STOP = frozenset(_STOP_WORDS.split())
