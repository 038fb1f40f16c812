"""Retrieval quality on the question set: recall@1/5/10 and MRR for BM25, dense and hybrid.

A question is answered at rank r when the r-th hit is one of its gold records, or a record the
cross-release map says is the same rule in another edition (so "can the emperor attack at the start?"
is answered by 809.3c whether it comes from the 2022 page or the 2026 release). recall@k is the share of
questions answered within k hits; MRR the mean of 1/r (0 when not answered within 10).

The fusion weights are tuned on the dev half of the questions (even positions) with :func:`tune`; the
test half (odd positions) is never used for tuning, and both are reported.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import read_text
from rulesjudge.common.safe_yaml import read_yaml
from rulesjudge.indexer.search import (
    FULL_RELEASE_RULES,
    METHODS,
    Filters,
    FusionParams,
    Searcher,
    edition_date,
    fuse,
    parse_query,
)

QUESTIONS_PATH = Path(__file__).with_name("questions.yaml")
#: Question sets read beside the default one when present, each its own group: real questions asked in
#: public (issue 22) and real questions that name cards (issue 21); ``source`` is required in them.
COMPANION_SETS = {"real": QUESTIONS_PATH.with_name("questions_real.yaml"),
                  "real-cards": QUESTIONS_PATH.with_name("questions_cards.yaml")}
#: Areas of the general rules of the built-in Comprehensive Rules, of the seed documents, and of numbers.
GENERAL_AREAS = ("concepts", "turn", "combat", "spells", "effects", "keywords", "sba", "multiplayer",
                 "commander")
SEED_AREAS = ("monarch", "rulings", "emperor", "player", "treachery", "card-note")
NUMBER_AREAS = ("exact", "old-number")
AREAS = (*SEED_AREAS, *GENERAL_AREAS, *NUMBER_AREAS)
STYLES = ("plain", "definition", "sloppy", "number")
DEPTH = 10
_DEFINITION = re.compile(r"^(what is|what's|what are|what does \S+( \S+)? (mean|do)\b|what do you call)",
                         re.IGNORECASE)


def group_of(area: str) -> str:
    """general (the built-in Comprehensive Rules), seed (the five source documents) or numbers.

    >>> group_of("combat"), group_of("treachery"), group_of("exact")
    ('general', 'seed', 'numbers')
    """
    if area in GENERAL_AREAS:
        return "general"
    return "numbers" if area in NUMBER_AREAS else "seed"


def style_of(question: str, area: str) -> str:
    """The style of a question without one: number areas are numbers, "what is X" a definition.

    >>> style_of("what is a permanent", "concepts"), style_of("809.3c", "exact")
    ('definition', 'number')
    """
    if area in NUMBER_AREAS:
        return "number"
    return "definition" if _DEFINITION.match(question.strip()) else "plain"


@dataclass(frozen=True)
class Question:
    q: str
    gold: tuple[str, ...]
    area: str
    needs_releases: bool = False
    split: str = "dev"
    line: int | None = None
    style: str = "plain"
    #: the group of a companion set ("real", "real-cards"); empty: the group of the area
    set: str = ""
    source: str | None = None
    cards: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        return self.set or group_of(self.area)

    @property
    def rule_gold(self) -> tuple[str, ...]:
        """The gold that a hit can be: rules and other corpus records, not card rulings."""
        return tuple(g for g in self.gold if not is_card_id(g))

    @property
    def ruling_gold(self) -> tuple[str, ...]:
        return tuple(g for g in self.gold if is_card_id(g))


def is_card_id(record_id: str) -> bool:
    """A card or ruling id of the card corpus (not a record a hit can be).

    >>> is_card_id("cards@2026-07-09/ruling/platinum-angel/1"), is_card_id("cr@2026-04-17/104.3")
    (True, False)
    """
    return record_id.startswith("cards@")


def same_card_record(gold: str, record_id: str) -> bool:
    """A card gold id matches a record of any card snapshot with the same local id.

    >>> same_card_record("cards@2026-07-09/ruling/x/2", "cards@2027-01-01/ruling/x/2")
    True
    >>> same_card_record("cards@2026-07-09/ruling/x/2", "cards@2026-07-09/ruling/x/1")
    False
    """
    return is_card_id(gold) and is_card_id(record_id) and gold.split("/", 1)[1] == record_id.split("/", 1)[1]


MAX_QUESTION_SET_BYTES = 4_000_000  # the shipped set is about 50 KB


def load_questions(path: Path = QUESTIONS_PATH, *, companions: bool | None = None) -> list[Question]:
    """Read and check the question set (a YAML list of {q, gold, area, needs_releases, style}).

    The default set brings its companions (:data:`COMPANION_SETS`) when their files exist (``companions``
    None: only for the default path); each keeps its own dev/test halves by position."""
    questions = read_question_set(path)
    if companions if companions is not None else path == QUESTIONS_PATH:
        for group, companion in COMPANION_SETS.items():
            if companion.exists():
                questions.extend(read_question_set(companion, group))
    return questions


def read_question_set(path: Path, group: str = "", areas: Sequence[str] = AREAS,
                      source_required: bool = True) -> list[Question]:
    """One question file; a companion set (``group``) also needs each question's ``source`` (unless not
    ``source_required``); ``areas``: the areas its questions may name."""
    data, _lines = read_yaml(read_text(path, limit=MAX_QUESTION_SET_BYTES), str(path),
                             max_chars=MAX_QUESTION_SET_BYTES)  # bounded: --questions takes any file
    if not isinstance(data, list):
        raise InputError(path, "the question set must be a list")
    questions = []
    for position, item in enumerate(data):
        key = f"[{position}]"
        if not isinstance(item, dict) or not isinstance(item.get("q"), str) or not item["q"].strip():
            raise InputError(path, "each question needs a non-empty q", key=key)
        gold = item.get("gold")
        if not isinstance(gold, list) or not gold or not all(isinstance(g, str) for g in gold):
            raise InputError(path, "gold must be a non-empty list of record ids", key=f"{key}.gold")
        area = item.get("area")
        if not isinstance(area, str) or area not in areas:
            raise InputError(path, f"area must be one of {', '.join(areas)}", key=f"{key}.area")
        style = item.get("style") or style_of(item["q"], area)
        if style not in STYLES:
            raise InputError(path, f"style must be one of {', '.join(STYLES)}", key=f"{key}.style")
        source = item.get("source")
        if group and source_required and (not isinstance(source, str) or not source.strip()):
            raise InputError(path, "each real question needs its source address", key=f"{key}.source")
        cards = item.get("cards") or []
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise InputError(path, "cards must be a list of card names", key=f"{key}.cards")
        questions.append(Question(item["q"], tuple(gold), area, bool(item.get("needs_releases", False)),
                                  "dev" if position % 2 == 0 else "test", style=style, set=group,
                                  source=source, cards=tuple(cards)))
    return questions


@dataclass
class Metrics:
    """recall@1/5/10 and MRR over a set of first-gold ranks (None: not within the depth)."""

    ranks: list[int | None] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.ranks)

    def recall(self, k: int) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= k) / self.n if self.n else 0.0

    @property
    def mrr(self) -> float:
        return sum(1.0 / r for r in self.ranks if r is not None) / self.n if self.n else 0.0

    def row(self) -> dict[str, float]:
        return {"n": self.n, "recall@1": self.recall(1), "recall@5": self.recall(5),
                "recall@10": self.recall(10), "mrr": self.mrr}


def gold_family(searcher: Searcher, gold: Iterable[str]) -> set[str]:
    """Gold ids plus the same rules in every other loaded edition (cross-release map)."""
    family: set[str] = set()
    for record_id in gold:
        family.add(record_id)
        family.update(searcher.equivalent_ids(record_id))
    return family


def first_rank(hit_ids: Sequence[str | Iterable[str]], family: set[str]) -> int | None:
    """The rank of the first hit that is gold; a hit may be several ids (a rule and the glossary entry
    shown with it).

    >>> first_rank(["a", ("b", "g"), "c"], {"g"})
    2
    """
    for rank, found in enumerate(hit_ids, start=1):
        ids = (found,) if isinstance(found, str) else found
        if any(record_id in family for record_id in ids):
            return rank
    return None


def applicable(questions: Iterable[Question], searcher: Searcher) -> list[Question]:
    """Questions whose gold records (or their equivalents) are loaded."""
    loaded = searcher.records
    kept = []
    for question in questions:
        if not question.ruling_gold and not any(
                other in loaded for g in question.rule_gold for other in (g, *searcher.equivalent_ids(g))):
            continue  # e.g. general-rules questions before the Comprehensive Rules are loaded
        if question.needs_releases and not _has_release(searcher):
            continue
        kept.append(question)
    return kept


def _has_release(searcher: Searcher) -> bool:
    counts: dict[str, int] = {}
    for record in searcher.records.values():
        if record.document == "cr" and record.kind in {"rule", "subrule"}:
            counts[record.edition] = counts.get(record.edition, 0) + 1
    return any(count >= FULL_RELEASE_RULES for count in counts.values())


@dataclass
class Evaluation:
    """Each question's first-gold rank per method; every breakdown is computed from these."""

    results: list[tuple[Question, dict[str, int | None], dict[str, list[str]]]]
    methods_run: tuple[str, ...]
    #: per question with card rulings in its gold or names cards (the "real-cards" set): was it answered
    #: on the first screen, per method (a deciding rule in the top five, or a deciding ruling among the
    #: first :data:`SCREEN_RULINGS` shown for each named card)
    screens: list[dict[str, bool] | None] = field(default_factory=list)

    @property
    def questions(self) -> int:
        return len(self.results)

    def metrics(self, method: str, keep: Any = None) -> Metrics:
        return Metrics([ranks[method] for q, ranks, _ in self.results if keep is None or keep(q)])

    @property
    def methods(self) -> dict[str, Metrics]:
        return {m: self.metrics(m) for m in self.methods_run}

    def breakdown(self, method: str, field_of: Any) -> dict[str, Metrics]:
        values = sorted({field_of(q) for q, _, _ in self.results})
        return {value: self.metrics(method, lambda q, v=value: field_of(q) == v) for value in values}

    @property
    def by_split(self) -> dict[str, dict[str, Metrics]]:
        return {m: self.breakdown(m, lambda q: q.split) for m in self.methods_run}

    @property
    def by_area(self) -> dict[str, dict[str, Metrics]]:
        return {m: self.breakdown(m, lambda q: q.area) for m in self.methods_run}

    def first_screen(self, method: str, keep: Any = None) -> tuple[int, float]:
        """(questions, share answered on the first screen) among the questions that have a screen."""
        shown = [screen[method] for (q, _, _), screen in zip(self.results, self.screens, strict=False)
                 if screen is not None and (keep is None or keep(q))]
        return len(shown), (sum(shown) / len(shown) if shown else 0.0)

    def misses(self, method: str = "hybrid", split: str = "dev",
               ) -> list[tuple[Question, int | None, list[str]]]:
        """Questions of ``split`` (dev, test or all) not answered first, with their rank and top three ids.
        Read the dev half only while tuning: the test half stays held out."""
        return [(q, ranks[method], top[method][:3]) for q, ranks, top in self.results
                if ranks[method] != 1 and split in ("all", q.split)]

    def to_json(self) -> dict[str, Any]:
        def rows(field_of: Any) -> dict[str, dict[str, dict[str, float]]]:
            return {m: {k: x.row() for k, x in self.breakdown(m, field_of).items()} for m in self.methods_run}

        return {
            "questions": self.questions,
            "methods": {m: metrics.row() for m, metrics in self.methods.items()},
            "by_split": rows(lambda q: q.split),
            "by_group_split": rows(lambda q: f"{q.group}/{q.split}"),
            "by_area": rows(lambda q: q.area),
            "by_style": rows(lambda q: f"{q.group}/{q.style}"),
            "first_screen": {m: {key: {"n": n, "rate": rate} for key in sorted(
                {f"{q.group}/{q.split}" for (q, _, _), sc in zip(self.results, self.screens, strict=False)
                 if sc is not None})
                for n, rate in [self.first_screen(m, lambda q, k=key: f"{q.group}/{q.split}" == k)]}
                for m in self.methods_run},
        }


def gold_date(searcher: Searcher, question: Question) -> str | None:
    """The newest date in force among the question's gold records (their edition, or effective date)."""
    dates = [edition_date(record) for gold in question.gold if (record := searcher.records.get(gold))]
    known = [date for date in dates if date]
    return max(known) if known else None


def evaluate(
    searcher: Searcher, questions: Sequence[Question], methods: Sequence[str] = METHODS,
    *, as_of_gold: bool = False,
) -> Evaluation:
    """Run every question through every method and score the rankings.

    With ``as_of_gold`` each question is asked "as of" the date of the documents its gold records come
    from (``edition=`` filter): the 2015 Player page's 2HG combat rules were moved out of 810 after 2015
    and have no counterpart in the newest release, so only that view can find them."""
    results: list[tuple[Question, dict[str, int | None], dict[str, list[str]]]] = []
    screens: list[dict[str, bool] | None] = []
    for question in questions:
        family = gold_family(searcher, question.rule_gold)
        edition = gold_date(searcher, question) if as_of_gold else None
        ranks: dict[str, int | None] = {}
        tops: dict[str, list[str]] = {}
        screen: dict[str, bool] | None = {} if question.ruling_gold or question.set == "real-cards" else None
        for method in methods:
            result = searcher.search(question.q, DEPTH, method=method, edition=edition)
            tops[method] = [hit.id for hit in result.hits]
            ranks[method] = first_rank([(hit.id, *hit.related) for hit in result.hits], family)
            if screen is not None:
                screen[method] = on_first_screen(ranks[method], result.cards, question.ruling_gold)
        results.append((question, ranks, tops))
        screens.append(screen)
    return Evaluation(results, tuple(methods), screens)


SCREEN_RULES = 5  # the rules a first screen shows
SCREEN_RULINGS = 3  # the rulings a first screen shows for each named card


def on_first_screen(rule_rank: int | None, cards: Sequence[Any], ruling_gold: Sequence[str]) -> bool:
    """A deciding rule among the first :data:`SCREEN_RULES` hits, or a deciding ruling among the first
    :data:`SCREEN_RULINGS` shown for a named card (``cards``: the result's card parts).

    >>> on_first_screen(3, [], []), on_first_screen(None, [], ["cards@x/ruling/a/1"])
    (True, False)
    """
    if rule_rank is not None and rule_rank <= SCREEN_RULES:
        return True
    shown = [ruling.id for card in cards for ruling, _score in card.rulings[:SCREEN_RULINGS]]
    return any(same_card_record(gold, found) for gold in ruling_gold for found in shown)


def _cells(m: Metrics) -> str:
    return f"{m.n:>4} {m.recall(1):>6.3f} {m.recall(5):>6.3f} {m.recall(10):>6.3f} {m.mrr:>6.3f}"


def format_table(title: str, evaluation: Evaluation) -> str:
    """Per group (general rules, seed documents, numbers) and split, every method side by side."""
    lines = [f"{title} ({evaluation.questions} questions; dev = tuning half, test = held-out half)",
             f"{'group':<10} {'split':<5} {'method':<7} {'n':>4} {'R@1':>6} {'R@5':>6} {'R@10':>6} "
             f"{'MRR':>6}"]
    groups = sorted({q.group for q, _, _ in evaluation.results})
    for group in [*groups, "all"]:
        for split in ("dev", "test", "all"):
            for method in evaluation.methods_run:
                def keep(q: Question, g: str = group, s: str = split) -> bool:
                    return g in ("all", q.group) and s in ("all", q.split)

                m = evaluation.metrics(method, keep)
                if m.n:
                    n, rate = evaluation.first_screen(method, keep)
                    screen = f"  first screen {rate:.3f} of {n}" if n else ""
                    lines.append(f"{group:<10} {split:<5} {method:<7} {_cells(m)}{screen}")
    return "\n".join(lines)


def format_breakdown(evaluation: Evaluation, label: str, field_of: Any) -> str:
    """One line per area (or style): R@1 / R@5 / MRR of each method."""
    lines = [f"by {label}: " + "   ".join(f"{m} R@1/R@5/MRR" for m in evaluation.methods_run)]
    values = sorted({field_of(q) for q, _, _ in evaluation.results})
    for value in values:
        cells = []
        for method in evaluation.methods_run:
            m = evaluation.metrics(method, lambda q, v=value: field_of(q) == v)
            cells.append(f"{m.recall(1):.2f}/{m.recall(5):.2f}/{m.mrr:.2f}")
        n = evaluation.metrics(evaluation.methods_run[0], lambda q, v=value: field_of(q) == v).n
        lines.append(f"  {value:<22} n={n:<4} " + "   ".join(cells))
    return "\n".join(lines)


def format_areas(evaluation: Evaluation, method: str = "hybrid") -> str:
    return "\n".join([format_breakdown(evaluation, "area", lambda q: q.area),
                      format_breakdown(evaluation, "group and style", lambda q: f"{q.group}/{q.style}")])


# --- tuning -------------------------------------------------------------------------------------------


def tune(searcher: Searcher, questions: Sequence[Question], grid: Mapping[str, Sequence[Any]] | None = None,
         ) -> list[tuple[float, float, FusionParams]]:
    """Grid-search the fusion weights on ``questions`` (the dev half): (MRR, recall@5, params), best first.

    Rankings of both methods are computed once per question, then fused offline for every grid point.
    Questions that are only a number are left out: fusion never ranks them.
    """
    grid = grid or {"mode": ("scores",), "bm25_share": (0.3, 0.4, 0.5, 0.6, 0.7),
                    "glossary_lift": (0.0, 0.1, 0.2, 0.4), "best_weight": (0.0, 0.25, 0.5, 1.0),
                    "sibling_penalty": (0.0, 0.02, 0.05), "official_prior": (0.0, 0.05, 0.1)}
    depth = searcher.fusion.candidates
    prepared = []
    for question in questions:
        if parse_query(question.q).pure:
            continue
        named = searcher.facts(question.q)
        lexical, dense, lifted = searcher.method_rankings(question.q, "hybrid", _NO_FILTERS, depth, named)
        defining = searcher.defining(question.q)
        prepared.append((lexical, dense, lifted, defining, named, gold_family(searcher, question.gold)))
    results = []
    keys = list(grid)
    for values in itertools.product(*(grid[key] for key in keys)):
        params = replace(searcher.fusion, **dict(zip(keys, values, strict=True)))
        metrics = Metrics()
        for lexical, dense, lifted, defining, named, family in prepared:
            fused = searcher.adjust(fuse(lexical, dense, lifted, params), params, named)
            folded = searcher.fold(fused, _NO_FILTERS, defining)[:DEPTH]
            metrics.ranks.append(first_rank([(rid, *related) for rid, _, related in folded], family))
        results.append((metrics.mrr, metrics.recall(5), params))
    results.sort(key=lambda item: (-item[0], -item[1]))
    return results


def _filters() -> Any:
    return Filters()


_NO_FILTERS = _filters()
