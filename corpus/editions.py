"""Rule identity across editions: the same rule in the next release, also when renumbered or edited.

The idea of Academy Ruins' diff tool and rulesraker's archive: compare texts with the rule references
masked (a reference that moved with renumbering is not an edit), and match parents first. One edition is
mapped onto another as a whole (:func:`map_editions`), once, when a release joins the corpus: the store
keeps the map of each pair of neighbouring releases and follows them to answer "where is this rule in
every other edition" (so the cost of a release is its two neighbours, never every pair).

1. a section is the section of the other edition with the same title ("The Monarch" is 718 in 2020,
   721 in 2022-10, 722 in 2024, 724 in 2025, 725 in 2026); "General" exists in every chapter, so among
   equal titles the same number, then the same chapter wins; a renamed section falls back to its number
   when the titles are still similar;
2. a rule is looked for among the rules of the matched section: the same masked text first (most rules
   only moved), then by masked-text similarity (difflib) with a small bonus for the same position (".4"
   stays ".4" when a section moves); a subrule among the subrules of its matched rule, then among all
   subrules of the section (a subrule that moved); a quoted rule whose section is unknown keeps its
   section number;
3. a glossary entry is the entry with the same term, else (renamed) the new entry whose definition is
   nearly the same.

A section renamed and renumbered at once is the unmatched section of its chapter holding most of its rules.

A match's text is "changed" when the masked, typography-normalised texts differ.

>>> mask("See rule 722.4, \u201cThe Monarch.\u201d")
'see rule #, "the monarch."'
>>> mask("These _Magic_ rules")  # the italics markup of 2009-2014 is no edit
'these magic rules'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from rulesjudge.corpus.records import Record, local_of

#: Below this masked-text similarity two rules are different rules.
THRESHOLD = 0.6
#: A glossary entry whose term is gone is renamed when a new entry's definition is this similar (the real
#: renames: 0.94, 0.96, 1.0; an entry merged into another, "Friends Forever" into "Partner": 0.73).
GLOSSARY_RENAMED = 0.8
_POSITION_BONUS = 0.05
_SAME_PLACE = 0.85  # a candidate at the same position this similar is taken at once
#: Containment counts only for texts this similar already (809.3c 2022->2024: 0.50; chance overlaps: <0.35).
_CONTAINMENT_FLOOR = 0.4
_REFERENCE = re.compile(
    r"\b\d{3}(?:\.\d+[a-z]{0,2})?(?:[–-](?:\d{3}\.\d+[a-z]?|\d+|[a-z]))?\b|\bsection \d\b"
)
_DIGIT = re.compile(r"\d")
_ITALICS = re.compile(r"(?<![\w])_(\S(?:[^_\n]*?\S)?)_(?![\w])")
_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                             "\u2013": "-", "\u2212": "-", "\u00a0": " "})

#: (local in the older edition) -> (local in the newer edition, text changed)
EditionMap = dict[str, tuple[str, bool]]


def mask(text: str) -> str:
    """Text for comparison: rule numbers masked, markup, typography and case normalised."""
    if "_" in text:
        text = _ITALICS.sub(r"\1", text)
    text = text.translate(_TYPOGRAPHY)
    if _DIGIT.search(text) or "section" in text:
        text = _REFERENCE.sub("#", text)
    return " ".join(text.split()).lower()


def similarity(a: str, b: str) -> float:
    """Similarity of two masked texts in [0, 1].

    The share of characters the texts have in common (2 x their longest common subsequence over both
    lengths: rapidfuzz's Indel similarity, difflib's ratio done exactly), or -- for texts of 40+
    characters whose ratio is at least 0.4 -- 0.9 times the share of the shorter text found in the longer
    one, so that a rule that gained a clause (809.3c in 2024 added planeswalkers and battles) is still
    the same rule.

    >>> old = "a player can attack only an opponent seated immediately next to them."
    >>> round(similarity(old, old[:-1] + ", or a battle protected by them."), 2)
    0.9
    """
    from rapidfuzz.distance import Indel

    if a == b:
        return 1.0
    shorter = min(len(a), len(b))
    if not shorter:
        return 0.0
    stretch = (len(a) + len(b)) / (2 * shorter) if shorter >= 40 else 1.0  # ratio -> containment
    ratio = Indel.normalized_similarity(a, b)
    if ratio < _CONTAINMENT_FLOOR:  # little in common: a short text "contained" by chance is no match
        return ratio
    return min(1.0, max(ratio, 0.9 * ratio * stretch))


def _section_of(number: str) -> str:
    return number.split(".", 1)[0]


def _position(number: str) -> str:
    return number.split(".", 1)[1] if "." in number else ""


def _rule_of(number: str) -> str:
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True, slots=True)
class Entry:
    """What matching needs of one record: where it hangs, its number and masked text."""

    local: str
    kind: str  # section (also a chapter), rule, subrule, glossary
    number: str
    title: str  # a section's title; a rule's section title ("" when a quote does not say)
    parent: str  # the local of the record it hangs under ("" when none is loaded)
    masked: str

    @classmethod
    def of(cls, record: Record) -> Entry | None:
        if record.kind == "glossary":  # its definition: a renamed entry is found by it
            return cls(local_of(record.id), "glossary", "", record.title, "", mask(record.text))
        if record.kind not in ("section", "rule", "subrule") or not record.number:
            return None
        title = "" if not record.title or record.title[0].isdigit() else record.title
        parent = local_of(record.parent) if record.parent else ""
        return cls(local_of(record.id), record.kind, record.number, title, parent, mask(record.text))


@dataclass
class EditionView:
    """One edition's records grouped for matching: sections by title, rules by section, subrules by rule."""

    entries: dict[str, Entry] = field(default_factory=dict)
    sections: dict[str, Entry] = field(default_factory=dict)  # number -> section (or chapter)
    by_title: dict[str, list[str]] = field(default_factory=dict)  # masked title -> section numbers
    rules: dict[str, list[str]] = field(default_factory=dict)  # section number -> rule locals
    subrules: dict[str, list[str]] = field(default_factory=dict)  # rule local -> subrule locals
    section_subrules: dict[str, list[str]] = field(default_factory=dict)  # section number -> subrules

    @classmethod
    def of(cls, records: Iterable[Record]) -> EditionView:
        view = cls()
        for record in records:
            entry = Entry.of(record)
            if entry is not None:
                view.add(entry)
        return view

    def add(self, entry: Entry) -> None:
        self.entries[entry.local] = entry
        if entry.kind == "section":
            self.sections[entry.number] = entry
            if len(entry.number) == 3:
                self.by_title.setdefault(mask(entry.title), []).append(entry.number)
        elif entry.kind == "rule":
            self.rules.setdefault(self.section_key(entry), []).append(entry.local)
        elif entry.kind == "subrule":
            self.subrules.setdefault(self.rule_key(entry), []).append(entry.local)
            self.section_subrules.setdefault(_section_of(entry.number), []).append(entry.local)

    def section_key(self, entry: Entry) -> str:
        """The section a rule hangs under: its parent's number (a misprinted "432.2" in 423 is 423's)."""
        parent = self.entries.get(entry.parent)
        return parent.number if parent is not None and parent.kind == "section" else _section_of(entry.number)

    def rule_key(self, entry: Entry) -> str:
        """The rule a subrule hangs under (its local): its parent, else the rule its number names."""
        parent = self.entries.get(entry.parent)
        return parent.local if parent is not None and parent.kind == "rule" else _rule_of(entry.number)


class _Mapper:
    """Maps one edition onto another, parents first."""

    def __init__(self, old: EditionView, new: EditionView) -> None:
        self.old, self.new = old, new
        self.sections: dict[str, str] = {}  # old section number -> new section number
        self.rules: dict[str, str] = {}  # old rule local -> new rule local
        self.result: EditionMap = {}

    def run(self) -> EditionMap:
        # Titles first, then (a section renamed) the rules it holds, then its number: a renamed section
        # that kept its number was matched by its number alone, and 2020's 713 "Checklist Cards" became
        # 2022's 713 "Meld Cards" (similar titles) instead of 714 "Substitute Cards".
        for entry in self.old.sections.values():
            self.match_section(entry, self.section_numbers(entry.number, entry.title, renamed=False))
        self.match_sections_by_rules()
        # A number another section's title or rules claimed is not a rename: 2022's 713 "Meld Cards"
        # (merged into 712 in 2024) is not 2024's 713 "Substitute Cards", which is 2022's 714.
        for entry in self.old.sections.values():
            if entry.number not in self.sections:
                taken = set(self.sections.values())
                found = self.section_numbers(entry.number, entry.title)
                self.match_section(entry, [number for number in found if number not in taken])
        rules_by_section: dict[str, list[Entry]] = {}
        for entry in self.old.entries.values():
            if entry.kind == "rule":
                rules_by_section.setdefault(self.old.section_key(entry), []).append(entry)
        for section, entries in rules_by_section.items():
            target = self.target_section(section, entries[0].title)
            if target is None:
                continue
            for entry, local in self.assign(entries, self.new.rules.get(target, [])).items():
                self.rules[entry.local] = local
                self.keep(entry, self.new.entries[local])
        subrules_by_rule: dict[str, list[Entry]] = {}
        for entry in self.old.entries.values():
            if entry.kind == "subrule":
                subrules_by_rule.setdefault(self.old.rule_key(entry), []).append(entry)
        for rule, entries in subrules_by_rule.items():
            self.map_subrules(rule, entries)
        self.match_glossary()
        return self.result

    def match_sections_by_rules(self) -> None:
        """A section renamed and renumbered at once (2022: 713 "Checklist Cards" became 714 "Substitute
        Cards") is the unmatched section of its chapter that holds most of its rules: at least half of
        them must find a rule above the threshold there."""
        taken = set(self.sections.values())
        free = [n for n in self.new.sections if len(n) == 3 and n not in taken]
        for entry in self.old.sections.values():
            if len(entry.number) != 3 or entry.number in self.sections:
                continue
            rules = [self.old.entries[local] for local in self.old.rules.get(entry.number, [])]
            best: tuple[float, str] | None = None
            for number in (n for n in free if n[0] == entry.number[0]):
                candidates = [self.new.entries[local].masked for local in self.new.rules.get(number, [])]
                if not rules or not candidates:
                    continue
                found = sum(any(similarity(rule.masked, other) >= THRESHOLD for other in candidates)
                            for rule in rules)
                share = found / len(rules)
                if share >= 0.5 and (best is None or share > best[0]):
                    best = (share, number)
            if best is not None:
                free.remove(best[1])
                self.match_section(entry, [best[1]])

    def match_glossary(self) -> None:
        """A glossary entry is the entry with the same term; a renamed one ("Removed from Combat" ->
        "Remove from Combat", "Checklist Card" -> "Substitute Card" in the real releases) is the new entry
        whose definition is :data:`GLOSSARY_RENAMED` similar (a keyword's "See rule 702.x" entries
        differ by more, their names)."""
        old = [e for e in self.old.entries.values() if e.kind == "glossary"]
        for entry in old:
            if entry.local in self.new.entries:
                self.result[entry.local] = (entry.local, entry.masked != self.new.entries[entry.local].masked)
        free = [e for e in self.new.entries.values()
                if e.kind == "glossary" and e.local not in self.old.entries]
        for entry in (e for e in old if e.local not in self.new.entries and e.masked):
            scored = [(similarity(entry.masked, other.masked), other) for other in free]
            score, other = max(scored, key=lambda item: item[0], default=(0.0, None))
            if other is not None and score >= GLOSSARY_RENAMED:
                free.remove(other)
                self.keep(entry, other)

    def match_section(self, entry: Entry, found: list[str]) -> None:
        if found:
            self.sections[entry.number] = found[0]
            self.keep(entry, self.new.sections[found[0]])

    def keep(self, old: Entry, new: Entry) -> None:
        self.result[old.local] = (new.local, old.masked != new.masked)

    def section_numbers(self, number: str, title: str, renamed: bool = True) -> list[str]:
        """Sections of the new edition that are the section ``number`` titled ``title``, best first (with
        ``renamed``, also the section of the same number whose title is similar, or unknown)."""
        new = self.new
        if len(number) == 1:  # a chapter keeps its number
            return [number] if number in new.sections else []
        same_title = new.by_title.get(mask(title), []) if title else []
        if same_title:
            return sorted(same_title, key=lambda n: (n != number, n[0] != number[0], n))
        if not renamed:
            return []
        same_number = new.sections.get(number)
        if same_number is not None and title and similarity(mask(title), mask(same_number.title)) >= 0.5:
            return [number]
        if not title and (number in new.sections or number in new.rules):
            return [number]  # the section's title is unknown (a quoted rule): assume its number is kept
        return []

    def target_section(self, section: str, rule_title: str) -> str | None:
        if section in self.sections:
            return self.sections[section]
        if section in self.old.sections:
            return None  # the section is loaded and has no counterpart: its rules have none either
        found = self.section_numbers(section, rule_title)  # a quote without its section heading
        return found[0] if found else None

    def map_subrules(self, rule: str, entries: list[Entry]) -> None:
        new_rule = self.rules.get(rule)
        left = list(entries)
        if new_rule is not None:
            found = self.assign(left, self.new.subrules.get(new_rule, []))
            for entry, local in found.items():
                self.keep(entry, self.new.entries[local])
            left = [entry for entry in left if entry not in found]
        if not left:
            return
        # The subrule moved to another rule (or its rule has no counterpart): every subrule of the section.
        old_rule = self.old.entries.get(rule)
        section = self.old.section_key(old_rule) if old_rule is not None else _section_of(left[0].number)
        target = self.target_section(section, left[0].title)
        if target is None:
            return
        for entry, local in self.assign(left, self.new.section_subrules.get(target, [])).items():
            self.keep(entry, self.new.entries[local])

    def assign(self, entries: list[Entry], candidates: list[str]) -> dict[Entry, str]:
        """Old entries to candidates: the same masked text first, then the most similar candidate."""
        if not candidates:
            return {}
        found: dict[Entry, str] = {}
        by_text: dict[str, list[str]] = {}
        for local in candidates:
            by_text.setdefault(self.new.entries[local].masked, []).append(local)
        taken: set[str] = set()
        for entry in entries:
            same = by_text.get(entry.masked)
            if same:
                position = _position(entry.number)
                local = next((c for c in same if _position(self.new.entries[c].number) == position), same[0])
                found[entry] = local
                taken.add(local)
        free = [local for local in candidates if local not in taken]
        for entry in entries:
            if entry not in found:
                near = self.best(entry, free)
                if near is not None:
                    found[entry] = near
        return found

    def best(self, entry: Entry, candidates: list[str]) -> str | None:
        """The most similar candidate above the threshold; the same position is tried first."""
        position = _position(entry.number)
        entries = self.new.entries
        for local in candidates:  # fast path: same place, nearly the same words
            other = entries[local]
            if _position(other.number) == position and similarity(entry.masked, other.masked) >= _SAME_PLACE:
                return local
        best: tuple[float, str] | None = None
        for local in candidates:
            other = entries[local]
            score = similarity(entry.masked, other.masked)
            if score < THRESHOLD:
                continue
            if _position(other.number) == position:
                score += _POSITION_BONUS
            if best is None or score > best[0]:
                best = (score, local)
        return best[1] if best else None


def map_editions(old: EditionView, new: EditionView) -> EditionMap:
    """Every section, rule, subrule and glossary entry of ``old`` that is found in ``new``:
    ``old local -> (new local, text changed)``."""
    return _Mapper(old, new).run()


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


def coverage(source: str, old: EditionView, target: str, new: EditionView) -> Coverage:
    """Map every rule and subrule of ``old`` onto ``new`` and count (the figure in the docs)."""
    found = map_editions(old, new)
    total = matched = changed = renumbered = 0
    for entry in old.entries.values():
        if entry.kind not in ("rule", "subrule"):
            continue
        total += 1
        if entry.local in found:
            local, edited = found[entry.local]
            matched += 1
            changed += edited
            renumbered += new.entries[local].number != entry.number
    return Coverage(source, target, total, matched, changed, renumbered)
