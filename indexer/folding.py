"""Search stage: folding — a record that only points at another is shown with it, not in its place.

A glossary entry ("Trample … See rule 702.19"), a redirect ("APNAP Order — See Active Player, Nonactive
Player Order"), a label subrule that only says what kind of ability a keyword is ("Deathtouch is a static
ability.") point at a rule: they are listed in that rule's hit (``Hit.related``). Sections and rules that
are only a title ("702.19. Trample") are left out of rankings.

>>> from rulesjudge.corpus.records import Record
>>> def sub(text: str) -> Record:
...     return Record("cr@x/702.4a", "cr", "x", "subrule", text, number="702.4a")
>>> is_label(sub("Deathtouch is a static ability.")), is_label(sub("Double strike is a static ability "
...     "that modifies the rules for the combat damage step. (See rule 510, “Combat Damage Step.”)"))
(True, True)
>>> is_label(sub("Flash is a static ability that functions in any zone from which you could play it."))
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from rulesjudge.corpus.glossary import term_key
from rulesjudge.corpus.records import Record

TITLE_WORDS = 4  # a rule whose whole text is this short is a title ("702.19. Trample")
_TINY_WORDS = 6  # a subrule this short ("Deathtouch is a static ability.") is shown with its parent rule
#: a subrule that only says what kind of ability a keyword is ("Double strike is a static ability that
#: modifies the rules for the combat damage step. (See rule 510 …)") points at the rules that say how
_LABEL = re.compile(r"^[^.]{1,40} is an? [\w-]+ ability(?: that modifies the rules (?:for|of) [^.(]+)?\.?"
                    r"(?: \(See rules? [^)]*\)\.?)?$")
_REDIRECT = re.compile(r"^See (?:also )?(.+?)\.?$")

Folded = list[tuple[str, float, tuple[str, ...]]]  # (record id, score, records folded into it)


def is_label(record: Record) -> bool:
    """A subrule that only names what kind of ability a keyword is: it says nothing on its own."""
    text = " ".join(record.text.split())
    return len(text.split()) <= _TINY_WORDS or bool(_LABEL.match(text))


class Folding:
    """Which record each pointer folds into (built on first use), and the folding of a ranking."""

    def __init__(self, records: Mapping[str, Record]) -> None:
        self.records = records
        self._folds: dict[str, str] | None = None

    def target(self, record_id: str) -> str | None:
        """The record shown in this one's place: a glossary entry's rule ("Trample … See rule 702.19"),
        a redirect's entry ("APNAP Order — See Active Player, Nonactive Player Order"), the first rule
        of a section or of a title-only rule ("702.19. Trample"); None for a record that stands alone."""
        if self._folds is None:
            self._folds = self._fold_map()
        return self._folds.get(record_id)

    def is_heading(self, record_id: str) -> bool:
        """A section ("725. The Monarch", "600. General") or a rule that is only a title ("702.19. Trample")
        with rules under it: left out of rankings (its words would make its first rule a catch-all); an exact
        number still shows it."""
        record = self.records[record_id]
        return record.kind == "section" or (
            record.kind == "rule" and bool(record.children) and len(record.text.split()) <= TITLE_WORDS)

    def _fold_map(self) -> dict[str, str]:
        titles: dict[tuple[str, str], str] = {}
        for record in self.records.values():
            if record.kind == "glossary":
                titles[(f"{record.document}@{record.edition}", term_key(record.title))] = record.id
        direct: dict[str, str] = {}
        for record in self.records.values():
            target = self._direct_fold(record, titles)
            if target is not None and target != record.id and target in self.records:
                direct[record.id] = target
        folds: dict[str, str] = {}
        for record_id in direct:  # follow chains (redirect -> entry -> section -> first rule)
            target, seen = direct[record_id], {record_id}
            while target in direct and target not in seen and len(seen) < 5:
                seen.add(target)
                target = direct[target]
            folds[record_id] = target
        return folds

    def _direct_fold(self, record: Record, titles: Mapping[tuple[str, str], str]) -> str | None:
        edition = f"{record.document}@{record.edition}"
        if record.kind == "glossary":
            targets = [ref.target for ref in record.cross_refs
                       if ref.target and ref.target.startswith(edition)]
            if targets:
                return targets[0]
            redirect = _REDIRECT.match(record.text.strip())
            if redirect:
                return titles.get((edition, term_key(redirect[1])))
            return None
        if record.kind == "section" or (record.kind == "rule" and len(record.text.split()) <= TITLE_WORDS):
            children = [self.records[c] for c in record.children if c in self.records]
            children = [c for c in children if c.kind in {"rule", "subrule"}]
            substantive = [c for c in children if not is_label(c)]
            return (substantive or children)[0].id if children else None
        if record.kind == "subrule" and record.parent and is_label(record):
            return record.parent  # "Deathtouch is a static ability." says nothing on its own
        return None

    def fold(self, ranked: Sequence[tuple[str, float]], visible: frozenset[str],
             defining: Iterable[str] = ()) -> Folded:
        """Show pointers with the record they point at, not in its place.

        A glossary entry whose term is what the question asks about (``defining``: "what is a
        permanent") hands its score to its rule; any other pointer is listed with its rule when that
        rule ranks, and left out otherwise (the glossary's "Monarch" would otherwise lift 725.1 for
        every question naming the monarch). Headings are left out. Scores keep their order."""
        defining = set(defining)
        score: dict[str, float] = {}
        related: dict[str, list[str]] = {}
        for record_id, value in ranked:
            if self.is_heading(record_id):
                continue  # a section or a title-only rule answers nothing by itself
            target = self.target(record_id)
            if target is None or target not in visible:
                score[record_id] = max(score.get(record_id, float("-inf")), value)
                continue
            related.setdefault(target, []).append(record_id)
            if record_id in defining or self.records[record_id].kind != "glossary":
                score[target] = max(score.get(target, float("-inf")), value)
        order = sorted(score, key=lambda rid: -score[rid])
        return [(rid, score[rid], tuple(related.get(rid, ()))) for rid in order]
