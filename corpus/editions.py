"""Rule identity across editions: the same rule in another release, also when renumbered or edited.

The idea of Academy Ruins' diff tool and rulesraker's archive: compare texts with the rule references
masked (a reference that moved with renumbering is not an edit), and match parents first:

1. a section is the section of the other edition with the same title ("The Monarch" is 718 in 2020,
   721 in 2022-10, 722 in 2024, 724 in 2025, 725 in 2026); "General" exists in every chapter, so among
   equal titles the same number, then the same chapter wins; a renamed section falls back to its number
   when the titles are still similar;
2. a rule or subrule is looked for among the rules of the matched section by masked-text similarity
   (difflib), with a small bonus for the same position (".4" stays ".4" when a section moves);
   a quoted rule whose section is unknown is looked for everywhere in the edition;
3. a glossary entry is the entry with the same term.

A match's text is "changed" when the masked, typography-normalised texts differ.

>>> mask("See rule 722.4, \u201cThe Monarch.\u201d")
'see rule #, "the monarch."'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesjudge.corpus.records import Record

if TYPE_CHECKING:
    from rulesjudge.corpus.store import Corpus

#: Below this masked-text similarity two rules are different rules.
THRESHOLD = 0.6
_POSITION_BONUS = 0.05
#: Containment counts only for texts this similar already (809.3c 2022->2024: 0.50; chance overlaps: <0.35).
_CONTAINMENT_FLOOR = 0.4
_REFERENCE = re.compile(
    r"\b\d{3}(?:\.\d+[a-z]{0,2})?(?:[–-](?:\d{3}\.\d+[a-z]?|\d+|[a-z]))?\b|\bsection \d\b"
)
_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                             "\u2013": "-", "\u2212": "-", "\u00a0": " "})


def mask(text: str) -> str:
    """Text for comparison: rule numbers masked, typography and case normalised."""
    text = _REFERENCE.sub("#", text.translate(_TYPOGRAPHY))
    return re.sub(r"\s+", " ", text).strip().lower()


def similarity(a: str, b: str) -> float:
    """Similarity of two masked texts in [0, 1].

    difflib's ratio, or -- for texts of 40+ characters whose ratio is at least 0.4 -- 0.9 times the share of
    the shorter text found in the longer one, so that a rule that gained a clause (809.3c in 2024 added
    planeswalkers and battles) is still the same rule. Cheap upper bounds are checked first.

    >>> old = "a player can attack only an opponent seated immediately next to them."
    >>> round(similarity(old, old[:-1] + ", or a battle protected by them."), 2)
    0.9
    """
    if a == b:
        return 1.0
    shorter = min(len(a), len(b))
    if not shorter:
        return 0.0
    stretch = (len(a) + len(b)) / (2 * shorter) if shorter >= 40 else 1.0  # ratio -> containment
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for bound in (matcher.real_quick_ratio, matcher.quick_ratio):
        upper = bound()
        if max(upper, 0.9 * upper * stretch) < THRESHOLD:
            return upper * 0.5  # cannot reach the threshold: a cheap low score
    ratio = matcher.ratio()
    if ratio < _CONTAINMENT_FLOOR:  # little in common: a short text "contained" by chance is no match
        return ratio
    return min(1.0, max(ratio, 0.9 * ratio * stretch))


def _section_of(number: str) -> str:
    return number.split(".", 1)[0]


def _position(number: str) -> str:
    return number.split(".", 1)[1] if "." in number else ""


def _norm_title(title: str) -> str:
    return mask(title)


def _section_title(record: Record) -> str:
    """The section title a rule carries; quoted rules may carry their number instead: no title."""
    return "" if not record.title or record.title[0].isdigit() else record.title


def _kind_of(local: str) -> str:
    if local.startswith("glossary/"):
        return "glossary"
    if "/" in local:
        return "other"
    if "." not in local:
        return "section"
    return "subrule" if local[-1].isalpha() else "rule"


def _parent_rule(number: str) -> str:
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


@dataclass
class _EditionIndex:
    """One document edition's ids, grouped for matching (records are built only when compared)."""

    prefix: str
    sections: dict[str, Record] = field(default_factory=dict)  # number -> section record
    by_title: dict[str, list[str]] = field(default_factory=dict)  # masked title -> section numbers
    rules: dict[str, list[str]] = field(default_factory=dict)  # section number -> rule numbers
    subrules: dict[str, list[str]] = field(default_factory=dict)  # rule number -> subrule numbers
    numbers: set[str] = field(default_factory=set)
    masked: dict[str, str] = field(default_factory=dict)  # number -> masked text


class Matcher:
    """Matches records of one corpus across the editions of their document (indexes built lazily)."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._indexes: dict[tuple[str, str], _EditionIndex] = {}

    def index(self, document: str, edition: str) -> _EditionIndex:
        key = (document, edition)
        if key not in self._indexes:
            prefix = f"{document}@{edition}/"
            index = _EditionIndex(prefix)
            for rid in self.corpus.records:
                if not rid.startswith(prefix):
                    continue
                local = rid[len(prefix) :]
                kind = _kind_of(local)
                if kind == "section":
                    section = self.corpus.records[rid]
                    index.sections[local] = section
                    if len(local) == 3:
                        index.by_title.setdefault(_norm_title(section.title), []).append(local)
                elif kind == "rule":
                    index.rules.setdefault(_section_of(local), []).append(local)
                elif kind == "subrule":
                    index.subrules.setdefault(_parent_rule(local), []).append(local)
                index.numbers.add(local)
            self._indexes[key] = index
        return self._indexes[key]

    def masked(self, index: _EditionIndex, number: str) -> str:
        text = index.masked.get(number)
        if text is None:
            text = index.masked[number] = mask(self.corpus.records[index.prefix + number].text)
        return text

    # -------------------------------------------------------------------------------- matching

    def match(self, record: Record, edition: str) -> tuple[Record, bool] | None:
        """The record of ``edition`` that is the same rule as ``record``, and whether its text changed."""
        target = self.index(record.document, edition)
        local = record.id.split("/", 1)[1]
        number: str | None
        if record.kind == "glossary":
            number = local if local in target.numbers else None
        elif record.kind == "section" and record.number:
            numbers = self.section_numbers(record.number, _section_title(record), target)
            number = numbers[0] if numbers else None
        elif record.kind in ("rule", "subrule") and record.number:
            number = self.match_rule(record, target)
        else:
            number = None
        if number is None:
            return None
        found = self.corpus.records[target.prefix + number]
        return found, mask(found.text) != mask(record.text)

    def section_numbers(self, number: str, title: str, target: _EditionIndex) -> list[str]:
        """Sections of ``target`` that are the section ``number`` titled ``title``, best first."""
        if len(number) == 1:  # a chapter keeps its number
            return [number] if number in target.sections else []
        same_title = target.by_title.get(_norm_title(title), [])
        if same_title:
            return sorted(same_title, key=lambda n: (n != number, n[0] != number[0], n))
        renamed = target.sections.get(number)
        if renamed is not None and title and similarity(mask(title), mask(renamed.title)) >= 0.5:
            return [number]
        if not title and (number in target.sections or number in target.rules):
            return [number]  # the section's title is unknown (a quoted rule): assume its number is kept
        return []

    def match_rule(self, record: Record, target: _EditionIndex) -> str | None:
        """Parents first: the section by title, then the rule in it; a subrule among its rule's subrules."""
        assert record.number is not None
        text = mask(record.text)
        title = _section_title(record)
        sections = self.section_numbers(_section_of(record.number), title, target)
        if record.kind == "rule":
            return self.best(text, record, target, target.rules.get(sections[0], [])) if sections else None
        parent = self.corpus.get(record.id.rsplit("/", 1)[0] + "/" + _parent_rule(record.number))
        if parent is not None and parent.kind == "rule":
            new_parent = self.match_rule(parent, target)
            if new_parent is not None:
                found = self.best(text, record, target, target.subrules.get(new_parent, []))
                if found is not None:
                    return found
        # The subrule moved to another rule (or its rule is not loaded): every subrule of the section.
        if not sections:
            return None
        candidates = [s for r, subs in target.subrules.items() if _section_of(r) == sections[0] for s in subs]
        return self.best(text, record, target, candidates)

    def best(self, text: str, record: Record, target: _EditionIndex, candidates: list[str]) -> str | None:
        """The most similar candidate above the threshold; the same position is tried first."""
        assert record.number is not None
        position = _position(record.number)
        for number in candidates:  # fast path: same place, nearly the same words
            if _position(number) == position and similarity(text, self.masked(target, number)) >= 0.85:
                return number
        best: tuple[float, str] | None = None
        for number in candidates:
            score = similarity(text, self.masked(target, number))
            if score < THRESHOLD:
                continue
            if _position(number) == position:
                score += _POSITION_BONUS
            if best is None or score > best[0]:
                best = (score, number)
        return best[1] if best else None


def equivalents(corpus: Corpus, record_id: str) -> list[tuple[str, bool]]:
    """The same rule in every other loaded edition of its document: ``(record id, text changed)``."""
    record = corpus.get(record_id)
    if record is None:
        return []
    matcher = _matcher(corpus)
    found = []
    for edition in corpus.editions(record.document):
        if edition == record.edition:
            continue
        match = matcher.match(record, edition)
        if match is not None:
            found.append((match[0].id, match[1]))
    return found


def _matcher(corpus: Corpus) -> Matcher:
    if not isinstance(corpus.matcher, Matcher):
        corpus.matcher = Matcher(corpus)
    return corpus.matcher


@dataclass(frozen=True)
class Coverage:
    """How many rules and subrules of one edition were found in another."""

    source: str
    target: str
    total: int
    matched: int
    changed: int
    renumbered: int

    @property
    def share(self) -> float:
        return self.matched / self.total if self.total else 0.0


def coverage(corpus: Corpus, source: str, target: str, document: str = "cr") -> Coverage:
    """Map every rule and subrule of ``source`` to ``target`` and count (the figure in the docs)."""
    matcher = _matcher(corpus)
    total = matched = changed = renumbered = 0
    for record in corpus.in_edition(document, source):
        if record.kind not in ("rule", "subrule"):
            continue
        total += 1
        match = matcher.match(record, target)
        if match is None:
            continue
        matched += 1
        changed += match[1]
        renumbered += match[0].number != record.number
    return Coverage(source, target, total, matched, changed, renumbered)
