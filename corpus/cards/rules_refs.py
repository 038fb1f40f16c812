"""The rules a card's text refers to: its keywords, the rules terms of its text, and the Oracle templates
of ``oracle_templates.yaml`` (:mod:`~rulesjudge.corpus.cards.oracle_templates`), each looked up in the
loaded corpus (never a rule number in code).

- a keyword ("First strike", "Ward") is the Comprehensive Rules' glossary entry of that name and the rule
  it points to (702.7), or else the keyword rule (701.x/702.x) whose title is the keyword;
- a glossary term of the text ("monarch", "investigate"; read as :func:`card_terms` reads it, which
  search's cards stage reads too) whose entry points into the rules for keyword actions, abilities and
  designations (sections 700-799) is that rule;
- a template ("enters tapped", "can't lose the game") is the rules the data table names, in the newest
  loaded edition that has them (followed through the cross-release map).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesjudge.corpus.cards.model import Card
from rulesjudge.corpus.cards.oracle_templates import Template, load_templates
from rulesjudge.corpus.glossary import ORACLE, GlossaryTerms, term_key

if TYPE_CHECKING:
    from rulesjudge.corpus.records import Record
    from rulesjudge.corpus.store import StoredCorpus

_SPECIAL_SECTIONS = re.compile(r"^7\d\d(?:\.|$)")  # additional rules: keyword actions/abilities, designations


@dataclass(frozen=True)
class RuleRef:
    """A rules term of a card's text and the records it refers to."""

    term: str
    how: str  # "keyword", "glossary" or "template"
    records: tuple[Record, ...]


def templates_in(text: str) -> list[Template]:
    """The Oracle templates a text uses.

    >>> [t.term for t in templates_in("Creatures your opponents control enter tapped.")]
    ['enters tapped']
    """
    return load_templates().used_by(text)


def rules_of(card: Card, corpus: StoredCorpus) -> list[RuleRef]:
    """The rules a card's text refers to, in the order: keywords, glossary terms, templates."""
    edition = _newest(corpus)
    if edition is None:
        return []
    refs: list[RuleRef] = []
    seen: set[str] = set()

    def add(term: str, how: str, records: Sequence[Record]) -> None:
        fresh = tuple(r for r in records if r.id not in seen)
        if fresh:
            seen.update(r.id for r in fresh)
            refs.append(RuleRef(term, how, fresh))

    glossary = _glossary(corpus, edition)
    for keyword in card.keywords:
        add(keyword, "keyword", _keyword_rules(keyword, glossary, corpus, edition))
    templates = templates_in(card.oracle_text)
    covered = {number for template in templates for number in template.rules}
    order = {record_id: place for place, record_id in enumerate(glossary.records)}  # the glossary's order
    entries = sorted({i for _term, ids in card_terms(card, glossary) for i in ids}, key=order.__getitem__)
    for entry in (glossary.records[i] for i in entries):
        target = _target(entry, corpus)
        if target is None or not _SPECIAL_SECTIONS.match(target.number or ""):
            continue
        if any(n.startswith(f"{target.number}.") for n in covered):
            continue  # a template names the rules of this section more closely ("the monarch": 725.1)
        add(entry.title, "glossary", [target])
    for template in templates:
        records = [r for number in template.rules
                   if (r := _rule(corpus, template.edition, number)) is not None]
        add(template.term, "template", records)
    return refs


def card_terms(card: Card, glossary: GlossaryTerms) -> list[tuple[str, list[str]]]:
    """The glossary terms a card's Oracle text writes (read as Oracle text, :data:`ORACLE`), each with the
    ids of the entries defining it, less the entries naming one of its keywords (read as keywords): what
    ``rulesjudge card`` shows the rules of, and what search's cards stage lifts the rarer of.

    >>> from rulesjudge.corpus.cards.model import Face
    >>> from rulesjudge.corpus.records import Record
    >>> entries = [Record(f"cr@x/glossary/{slug}", "cr", "x", "glossary", "", title=title) for slug, title in
    ...            [("first-strike", "First Strike"), ("monarch", "Monarch"), ("tap", "Tap")]]
    >>> thalia = Card("x", "Thalia", (Face("Thalia", text="First strike. Tap it; you become the monarch."),),
    ...               keywords=("First strike",))
    >>> [term for term, _ids in card_terms(thalia, GlossaryTerms.of(entries))]
    ['tap', 'monarch']
    """
    keywords = {term_key(keyword) for keyword in card.keywords}
    return [(term, ids) for term, ids in glossary.written(_unnamed(card), ORACLE)
            if term not in keywords and not any(keywords & _names(glossary.records[i]) for i in ids)]


def _unnamed(card: Card) -> str:
    """The card's Oracle text without its own name: "Shrouded Serpent can't be blocked" says nothing of
    shroud. A one-word name is kept: "Regenerate target creature" (Regenerate) is the keyword action.

    >>> from rulesjudge.corpus.cards.model import Face
    >>> _unnamed(Card("x", "Shrouded Serpent", (Face("Shrouded Serpent", text="Shrouded Serpent attacks."),)))
    '  attacks.'
    """
    text = card.oracle_text
    for name in sorted({card.name, *(face.name for face in card.faces)}, key=len, reverse=True):
        if len(name.split()) > 1:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return text


def _names(entry: Record) -> set[str]:
    """The terms an entry defines ("Kicker, Kicked": the entry's title, "Kicker" and "Kicked")."""
    return {term_key(name) for name in (entry.title, *entry.aliases)}


def _newest(corpus: StoredCorpus) -> str | None:
    editions = corpus.editions("cr")
    return editions[-1] if editions else None


@functools.lru_cache(maxsize=4)
def _glossary_of(corpus_id: int, edition: str, corpus: StoredCorpus) -> GlossaryTerms:
    return GlossaryTerms.of(corpus.in_edition("cr", edition))


def _glossary(corpus: StoredCorpus, edition: str) -> GlossaryTerms:
    return _glossary_of(id(corpus), edition, corpus)


def _target(entry: Record, corpus: StoredCorpus) -> Record | None:
    for ref in entry.cross_refs:
        if ref.target and (record := corpus.get(ref.target)) is not None:
            return record
    return None


def _keyword_rules(keyword: str, glossary: GlossaryTerms, corpus: StoredCorpus,
                   edition: str) -> list[Record]:
    for entry_id in glossary.keys.get(term_key(keyword), ()):
        if (target := _target(glossary.records[entry_id], corpus)) is not None:
            return [target]
    for section in ("702", "701"):  # a keyword the glossary lacks: the rule titled so
        for record in corpus.in_edition("cr", edition):
            if record.number and record.number.startswith(section + ".") and \
                    record.text.strip().lower() == keyword.lower():
                return [record]
    return []


def _rule(corpus: StoredCorpus, edition: str, number: str) -> Record | None:
    """Rule ``number`` of ``edition``, as the newest loaded edition has it (or as it is, when it is the
    newest or has no counterpart)."""
    record_id = f"cr@{edition}/{number}"
    if corpus.get(record_id) is None:
        return corpus.lookup(number, "cr")
    newest = corpus.latest(record_id)
    return corpus.get(newest) or corpus.get(record_id)
