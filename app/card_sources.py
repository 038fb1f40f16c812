"""Cards named as an effect's source in a scenario (issue 21.4): ``{cant-lose: Ann, source: Platinum
Angel}``. The model stays pure (its permanents are names); here, at the app and command layer, each
source's name is looked up in the card snapshot so the checker's derivation can show the card's Oracle
text beside the steps that say "Platinum Angel's static ability …".

A source need not be a card: a token, or a name the table gave it ("Angel") is no error and shows
nothing; a near-miss of a card's name ("Platnum Angel") gets a "did you mean".

>>> from rulesjudge.scenarios.model.events import parse_effect
>>> sources_of([parse_effect({"cant-lose": "Ann", "source": "Platinum Angel"}),
...             parse_effect({"cant-win": {"opponents-of": "Platinum Angel"}})])
['Platinum Angel']
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesjudge.app import card_cache
from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards import load_cards
from rulesjudge.corpus.cards.names import name_key
from rulesjudge.scenarios.model.events import EventArgError, parse_effect

if TYPE_CHECKING:
    from rulesjudge.corpus.cards import Card, CardDB
    from rulesjudge.scenarios.format import Scenario
    from rulesjudge.scenarios.model.setup import EffectSpec

#: rapidfuzz ratio (0-100) of a source's name to a card's at which it is taken for a typo of it: the
#: name index's own bar for a typed name (docs/cards.md: ratio >= 84), raised a little because a source
#: may well be a made-up name that is merely close to a card's.
NEAR_MISS = 88
WIDTH = 96


@dataclass(frozen=True)
class SourceCard:
    """A source's name as the file gives it, the card of that name (or None), and a near-miss's card."""

    name: str
    card: Card | None = None
    did_you_mean: str | None = None

    def to_json(self) -> dict[str, Any]:
        card = self.card
        return {"name": self.name, "did_you_mean": self.did_you_mean,
                "card": None if card is None else {
                    "id": card.id, "name": card.name, "type_line": _type_line(card),
                    "oracle_text": card.oracle_text}}


def sources_of(effects: Iterable[EffectSpec]) -> list[str]:
    """The names of the effects' sources, in order, each once."""
    return list(dict.fromkeys(e.source for e in effects if e.source))


def scenario_effects(scenario: Scenario) -> list[EffectSpec]:
    """A loaded scenario's effects: the table's and those its events begin (``add-effect``)."""
    events = [e.effect for e in scenario.events if hasattr(e, "effect")]
    return [*scenario.game.effects, *events]


def data_effects(game: Mapping[str, Any], events: Sequence[Any]) -> list[EffectSpec]:
    """The effects of a table and events in the scenario format's values (the checker page's form); one
    that does not read is left to the format's own checks, which report it."""
    raws = list(game.get("effects") or [])
    raws += [item["add-effect"] for item in events if isinstance(item, Mapping) and "add-effect" in item]
    effects = []
    for raw in raws:
        try:
            effects.append(parse_effect(raw))
        except (EventArgError, TypeError, ValueError, KeyError, AttributeError):
            continue
    return effects


def resolve(db: CardDB, name: str) -> SourceCard:
    """The card a source's name is: its full name or one face's, in any case, accents or punctuation; else
    a near-miss's card (:data:`NEAR_MISS`); else nothing (a token or a made-up name)."""
    from rapidfuzz import fuzz

    key = name_key(name)
    if not key:
        return SourceCard(name)
    exact = db.named(name)
    if exact is not None:
        return SourceCard(name, exact)
    for card in db.lookup(name)[:5]:
        if any(name_key(face.name) == key for face in card.faces):  # a face: "Fire", "Insectile Aberration"
            return SourceCard(name, card)
    for close in db.closest(name, 3):
        if fuzz.ratio(key, name_key(close)) >= NEAR_MISS:
            return SourceCard(name, did_you_mean=close)
    return SourceCard(name)


def resolve_all(db: CardDB, names: Iterable[str]) -> list[SourceCard]:
    return [resolve(db, name) for name in names]


def sources_text(sources: Sequence[SourceCard], edition: str) -> list[str]:
    """The lines ``rulesjudge ask`` prints: each source that is a card with its Oracle text, each near-miss
    with its "did you mean"; nothing for a source that is no card."""
    shown = [s for s in sources if s.card is not None or s.did_you_mean]
    if not shown:
        return []
    lines = [f"cards the effects come from (card snapshot {edition}):"]
    for source in shown:
        card = source.card
        if card is None:
            lines.append(f"  {source.name}: no card of that name; did you mean {source.did_you_mean}?")
            continue
        said = "" if card.name == source.name else f" ({source.name})"
        lines.append(f"  {card.name}{said} — {_type_line(card)}  [{card.id}]")
        for paragraph in card.oracle_text.split("\n"):
            lines.extend(textwrap.wrap(paragraph, WIDTH, initial_indent="    ", subsequent_indent="      ")
                         or ["    "])
    return lines


def with_sources(report_text: str, lines: Sequence[str]) -> str:
    """The report's text with the sources' lines after its heading (the name and its "why"), before the
    events and answers whose steps name them.

    >>> print(with_sources("Name\\n  why: x\\nevent leaves: Ann", ["cards:", "  Fog"]))
    Name
      why: x
    cards:
      Fog
    event leaves: Ann
    """
    if not lines:
        return report_text
    text_lines = report_text.split("\n")
    at = 1
    while at < len(text_lines) and text_lines[at].startswith("  why:"):
        at += 1
    return "\n".join([*text_lines[:at], *lines, *text_lines[at:]])


def before_footer(ruling_text: str, lines: Sequence[str], footer: str = "rulesjudge (") -> str:
    """A ruling text (``presenters.ruling_text``) with ``lines`` before its closing credit line (after the
    steps, above the credit a judge pastes with it), or at its end when it has none.

    >>> print(before_footer("Q\\n1. step\\n\\nrulesjudge (unofficial)", ["cards:"]))
    Q
    1. step
    <BLANKLINE>
    cards:
    <BLANKLINE>
    rulesjudge (unofficial)
    """
    if not lines:
        return ruling_text
    text_lines = ruling_text.split("\n")
    at = max((i for i, line in enumerate(text_lines) if line.startswith(footer)), default=None)
    if at is None:
        return "\n".join([*text_lines, *lines])
    head = text_lines[:at]
    while head and not head[-1].strip():
        head.pop()
    return "\n".join([*head, "", *lines, "", *text_lines[at:]])


def _type_line(card: Card) -> str:
    return " // ".join(dict.fromkeys(f.type_line for f in card.faces if f.type_line))


def oracle_text(name: str) -> tuple[str, str, str] | None:
    """A card of the current snapshot by its full name or one face's, in any case (the what-if reader's
    :attr:`TableFacts.cards <rulesjudge.app.whatif.plan.TableFacts.cards>`): (name, type line, Oracle text,
    faces joined); None for no such card, or when no snapshot can be read (a card's name is then read as no
    effect at all). While the app's child still reads the snapshot into the cache (``app.card_cache``) a
    what-if does not wait for it: the name is read as no card this time (the search answers)."""
    if not name_key(name) or not card_cache.ready():
        return None
    return _oracle_text(name)


@functools.lru_cache(maxsize=256)
def _oracle_text(name: str) -> tuple[str, str, str] | None:
    try:
        db = load_cards()
        card = resolve(db, name).card
        # "Bolt": a table's nickname for a card, kept as data (corpus/cards/nicknames.yaml), never a guess
        nickname = db.nickname_of(name) or ""
        if card is None and nickname:
            card = db.named(nickname)
    except (InputError, OSError):
        return None
    if card is None or (name_key(card.name) not in (name_key(name), name_key(nickname)) and
                        not any(name_key(f.name) == name_key(name) for f in card.faces)):
        return None
    return (card.name, " // ".join(f.type_line for f in card.faces), "\n".join(f.text for f in card.faces))
