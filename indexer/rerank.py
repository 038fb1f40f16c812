"""Search stage: learned reranking — the fused top candidates reordered by a linear model over generic
signals, after the priors and before folding (docs/search.md, "Search round 5").

For each of a question's top :data:`TOP_N` fused candidates, :class:`Features` computes a vector of
signals that say nothing about particular rules or questions: each method's score and rank, the dense
chunk and best-sentence cosines, the fused score, each prior's term on its own (scope, document, card
note, case, glossary, card lift), the record's kind and depth, whether its parent, children or earlier
siblings are candidates too and how far ahead, its word overlap with the question, a number match, and
the question's shape crossed with the record's kind. :class:`Ranker` scores them with a dot product whose
weights are *data* (a JSON file: the feature names, a format version, the training summary), written by
``python -m rulesjudge.indexer.train_ranker`` from the dev halves of the question sets only. Search reads
``indexer/data/ranker.json`` when it is there; the trained weights are shipped as
``indexer/data/ranker-trained.json`` and are not on by default (``rulesjudge eval --ranker FILE`` measures
them).

The reranker only permutes: the top candidates take the fused scores of the positions they move into, so
scores still decrease and everything after the stage (folding, the hits' scores) reads as before. With no
weights file the stage is off and the order is today's.

>>> ranker = Ranker(("fused", "bm25"), (1.0, 0.5))
>>> order = ranker.order([[0.9, 0.0], [0.8, 1.0], [0.7, 0.0]])
>>> order
[1, 0, 2]
>>> permute([("a", 0.9), ("b", 0.8), ("c", 0.7), ("d", 0.1)], order)
[('b', 0.9), ('a', 0.8), ('c', 0.7), ('d', 0.1)]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import read_text
from rulesjudge.corpus.records import Record
from rulesjudge.indexer.chunks import introduces_list
from rulesjudge.indexer.fusion import QuestionFacts, min_max
from rulesjudge.indexer.lexical import tokenize
from rulesjudge.indexer.scopes import DOCUMENT_SCOPES

#: how many of the fused candidates the model reorders (the rest keep their place after them)
TOP_N = 30
#: the weights search reads by default: present, the stage is on; absent (as shipped), today's order
RANKER_PATH = Path(__file__).with_name("data") / "ranker.json"
#: the weights the trainer writes: round 7's (dev halves + training questions), measured and not on by
#: default (no dev CV gain; docs/search.md "Search round 7"); copy them to :data:`RANKER_PATH` to turn the
#: stage on
TRAINED_PATH = Path(__file__).with_name("data") / "ranker-trained.json"
#: the weights file's format: bump when the meaning of a feature changes (an old file is then refused)
RANKER_FORMAT = 1
MAX_RANKER_BYTES = 200_000

Scored = list[tuple[str, float]]
_KINDS = ("rule", "subrule", "glossary", "ruling", "card-note", "prose")
_CONDITION = re.compile(r"^(?:If|When|Whenever|In a|Once|While)\b([^,.]{3,120})[,.]")
_NUMBER = re.compile(r"\b\d+\b")
_DEFINITION = re.compile(r"^\s*(?:what(?:'s| is| are)|define|definition|meaning of|what does \S+(?: \S+)? "
                         r"(?:mean|do)\b)", re.IGNORECASE)
_PERMISSION = re.compile(r"\b(?:can|may|could|allowed|able|legal)\b", re.IGNORECASE)
_WHO = re.compile(r"\bwho(?:se|m)?\b", re.IGNORECASE)
#: a question with more content words than this tells a story (a long multiplayer situation)
_LONG_QUESTION = 12
_HOW_MANY = re.compile(r"\bhow (?:many|much)\b", re.IGNORECASE)

#: the features, in the order of the weights file (a file naming others is refused)
FEATURES: tuple[str, ...] = (
    "fused", "fused_gap", "rank_inv",
    "bm25", "bm25_rank_inv", "bm25_rel",
    "dense", "dense_rank_inv", "dense_gap", "chunk_cos", "sentence_gain", "in_both",
    "glossary_lift", "quoted", "template_rule", "keyword_rule",
    "scope_named", "variant_unnamed", "document_named", "document_unnamed", "general_in_named",
    "note_unnamed", "history",
    *(f"kind_{kind}" for kind in _KINDS), "official", "depth", "sibling_position", "lists", "log_length",
    "case_unsaid", "parent_present", "parent_gap", "child_present", "child_gap",
    "sibling_present", "sibling_gap",
    "overlap", "title_overlap", "number_match",
    "definition_glossary", "definition_rule", "permission_rule", "who_rule", "how_many_rule",
    "bm25_long", "dense_long", "bm25_cards", "dense_cards", "own_words",
)


@dataclass(frozen=True)
class RerankContext:
    """What the stage knows about one question besides the fused ranking: each method's candidates and
    the lifts that went into the fusion."""

    question: str  # as the user wrote it (its shape: "what is", "can I", "who")
    text: str  # as BM25 and the model read it (after the lexicon)
    facts: QuestionFacts
    lexical: Scored = field(default_factory=list)
    dense: Scored = field(default_factory=list)
    glossary: Sequence[tuple[str, float]] = ()  # (entry, share of the question)
    quoted: frozenset[str] = frozenset()
    template_rules: frozenset[str] = frozenset()
    keyword_rules: frozenset[str] = frozenset()
    #: (chunk cosine, best sentence cosine) of the given record ids, from the dense index
    cosines: Callable[[Sequence[str]], Sequence[tuple[float, float]]] | None = None


class Features:
    """The feature vectors of a question's candidates; what it reads off records is cached per record."""

    def __init__(self, records: Mapping[str, Record], scopes: Callable[[], Any],
                 lexical_text: Callable[[str], str]) -> None:
        self.records = records
        self._scopes = scopes
        self._lexical_text = lexical_text
        self._static: dict[str, tuple[float, ...]] = {}
        self._words: dict[str, frozenset[str]] = {}
        self._titles: dict[str, frozenset[str]] = {}
        self._conditions: dict[str, frozenset[str]] = {}
        self._numbers: dict[str, frozenset[str]] = {}
        self._siblings: dict[str, tuple[str, ...]] = {}

    def matrix(self, ranked: Sequence[tuple[str, float]], context: RerankContext) -> list[list[float]]:
        """One row of :data:`FEATURES` per candidate of ``ranked`` (the fused scores after the priors,
        best first)."""
        if not ranked:
            return []
        scores = dict(ranked)
        top = ranked[0][1]
        bm25 = min_max(context.lexical)
        bm25_rank = {rid: i for i, (rid, _s) in enumerate(context.lexical, start=1)}
        bm25_top = context.lexical[0][1] if context.lexical else 0.0
        bm25_raw = dict(context.lexical)
        dense = dict(context.dense)
        dense_rank = {rid: i for i, (rid, _s) in enumerate(context.dense, start=1)}
        dense_top = context.dense[0][1] if context.dense else 0.0
        ids = [rid for rid, _ in ranked]
        cosines = (context.cosines(ids) if context.cosines is not None and context.dense
                   else [(0.0, 0.0)] * len(ids))
        glossary = dict(context.glossary)
        facts = context.facts
        question_words = facts.words
        question_numbers = frozenset(_NUMBER.findall(context.question))
        shape = _shape(context.question)
        long = float(len(question_words) > _LONG_QUESTION)
        cards = float(bool(facts.said))
        scopes = self._scopes()
        rows = []
        for rank, (record_id, score) in enumerate(ranked, start=1):
            record = self.records[record_id]
            static = self._static_of(record)
            scope = scopes.scope_of(record_id)
            about_one = record.document in DOCUMENT_SCOPES
            chunk, best = cosines[rank - 1]
            parent_gap, parent_present = self._gap([record.parent] if record.parent else [], scores, score)
            child_gap, child_present = self._gap(record.children, scores, score)
            sibling_gap, sibling_present = self._gap(self._earlier(record), scores, score)
            words = self._words_of(record_id)
            title = self._title_of(record)
            condition = self._condition_of(record)
            is_rule = record.kind in {"rule", "subrule"}
            rows.append([
                score, top - score, 1.0 / rank,
                bm25.get(record_id, 0.0), 1.0 / bm25_rank[record_id] if record_id in bm25_rank else 0.0,
                bm25_raw[record_id] / bm25_top if record_id in bm25_raw and bm25_top > 0 else 0.0,
                dense.get(record_id, 0.0), 1.0 / dense_rank[record_id] if record_id in dense_rank else 0.0,
                dense_top - dense[record_id] if record_id in dense else 1.0,
                chunk, max(0.0, best - chunk), float(record_id in bm25_rank and record_id in dense_rank),
                glossary.get(record_id, 0.0) ** 2, float(record_id in context.quoted),
                float(record_id in context.template_rules), float(record_id in context.keyword_rules),
                float(scope is not None and scope in facts.named and not about_one),
                float(scope is not None and scope not in facts.named and not about_one),
                float(scope is not None and scope in facts.named and about_one),
                float(scope is not None and scope not in facts.named and about_one),
                float(scope is None and bool(facts.named)),
                float(record.kind == "card-note" and not self._said(title, facts)),
                float(record.kind == "history" and not facts.about_history),
                *static,
                float(bool(condition) and record.parent in scores and len(condition & question_words) < 2),
                parent_present, parent_gap, child_present, child_gap, sibling_present, sibling_gap,
                len(question_words & words) / len(question_words) if question_words else 0.0,
                len(title & question_words) / len(title) if title else 0.0,
                float(bool(question_numbers & self._numbers_of(record))),
                float(shape["definition"] and record.kind == "glossary"),
                float(shape["definition"] and is_rule),
                float(shape["permission"] and is_rule),
                float(shape["who"] and is_rule),
                float(shape["how_many"] and is_rule),
                long * bm25.get(record_id, 0.0), long * dense.get(record_id, 0.0),
                cards * bm25.get(record_id, 0.0), cards * dense.get(record_id, 0.0),
                self._own_words(record, scores, question_words, words),
            ])
        return rows

    def _own_words(self, record: Record, scores: Mapping[str, float], question: frozenset[str],
                   words: frozenset[str]) -> float:
        """The share of the question's words this record says and none of its family among the
        candidates (its parent, children, siblings) does: what sets it apart from them for this question."""
        family = [f for f in (record.parent, *record.children, *self._siblings_of(record))
                  if f and f != record.id and f in scores]
        if not family or not question:
            return 0.0
        others = frozenset().union(*(self._words_of(f) for f in family))
        return len((question & words) - others) / len(question)

    @staticmethod
    def _gap(others: Sequence[str], scores: Mapping[str, float], score: float) -> tuple[float, float]:
        """(best other's score − this one's, 1.0) when one of ``others`` is a candidate, else (0, 0)."""
        present = [scores[o] for o in others if o in scores]
        return (max(present) - score, 1.0) if present else (0.0, 0.0)

    def _static_of(self, record: Record) -> tuple[float, ...]:
        """The features of the record alone: kind, official, depth, sibling position, list, length."""
        if record.id not in self._static:
            kind = "prose" if record.kind in {"prose", "reminder"} else record.kind
            local = record.number or ""
            depth = local.count(".") + (1 if local and local[-1].isalpha() else 0)
            position = self._position(record)
            self._static[record.id] = (
                *(float(kind == k) for k in _KINDS), float(record.official), float(depth),
                min(position, 4) / 4, float(introduces_list(record)),
                math.log1p(len(record.text.split())))
        return self._static[record.id]

    def _siblings_of(self, record: Record) -> tuple[str, ...]:
        if not record.parent or record.kind != "subrule":
            return ()
        if record.parent not in self._siblings:
            parent = self.records.get(record.parent)
            self._siblings[record.parent] = () if parent is None else tuple(
                c for c in parent.children if c in self.records and self.records[c].kind == "subrule")
        return self._siblings[record.parent]

    def _position(self, record: Record) -> int:
        siblings = self._siblings_of(record)
        return siblings.index(record.id) if record.id in siblings else 0

    def _earlier(self, record: Record) -> tuple[str, ...]:
        siblings = self._siblings_of(record)
        return siblings[:siblings.index(record.id)] if record.id in siblings else ()

    def _words_of(self, record_id: str) -> frozenset[str]:
        if record_id not in self._words:
            self._words[record_id] = frozenset(tokenize(self._lexical_text(record_id)))
        return self._words[record_id]

    def _title_of(self, record: Record) -> frozenset[str]:
        if record.id not in self._titles:
            self._titles[record.id] = frozenset(tokenize(record.title or ""))
        return self._titles[record.id]

    def _condition_of(self, record: Record) -> frozenset[str]:
        if record.id not in self._conditions:
            match = _CONDITION.match(record.text) if record.kind == "subrule" else None
            self._conditions[record.id] = frozenset(tokenize(match[1])) if match else frozenset()
        return self._conditions[record.id]

    def _numbers_of(self, record: Record) -> frozenset[str]:
        if record.id not in self._numbers:
            self._numbers[record.id] = frozenset(_NUMBER.findall(" ".join((record.text, *record.examples))))
        return self._numbers[record.id]

    @staticmethod
    def _said(title: frozenset[str], facts: QuestionFacts) -> bool:
        return bool(title) and title <= facts.words | facts.said


def _shape(question: str) -> dict[str, bool]:
    """What the question asks for: a definition, a permission, a person, a number.

    >>> sorted(k for k, v in _shape("Can I attack the monarch?").items() if v)
    ['permission']
    """
    return {"definition": bool(_DEFINITION.search(question)),
            "permission": bool(_PERMISSION.search(question)),
            "who": bool(_WHO.search(question)), "how_many": bool(_HOW_MANY.search(question))}


@dataclass(frozen=True)
class Ranker:
    """A linear model over :data:`FEATURES`: ``score = Σ weight · feature``. ``names`` are the file's
    feature names, checked against the code's when loaded."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    top_n: int = TOP_N
    summary: Mapping[str, Any] = field(default_factory=dict)

    def score(self, row: Sequence[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, row, strict=True))

    def order(self, rows: Sequence[Sequence[float]]) -> list[int]:
        """The candidates' positions, best first by the model (ties keep the fused order)."""
        scores = [self.score(row) for row in rows]
        return sorted(range(len(rows)), key=lambda i: (-scores[i], i))

    def to_json(self) -> dict[str, Any]:
        return {"format": RANKER_FORMAT, "features": list(self.names), "weights": list(self.weights),
                "top_n": self.top_n, "summary": dict(self.summary)}


def permute(ranked: Sequence[tuple[str, float]], order: Sequence[int]) -> Scored:
    """The first ``len(order)`` candidates in ``order``, each taking the score of the place it moves
    into (scores still decrease); the rest unchanged."""
    head = len(order)
    return [(ranked[i][0], ranked[place][1]) for place, i in enumerate(order)] + list(ranked[head:])


def load_ranker(path: Path = RANKER_PATH) -> Ranker | None:
    """The weights file, or None when there is none (the stage is then off). A file that is not a
    ranker of this code's features is an :class:`InputError` naming it and the key."""
    if not path.exists():
        return None
    text = read_text(path, limit=MAX_RANKER_BYTES, what="ranker weights file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(path, f"not JSON ({error.msg})", line=error.lineno) from None
    return parse_ranker(data, path)


def parse_ranker(data: Any, path: str | Path = RANKER_PATH) -> Ranker:
    """Check a weights file's content: its format, feature names (the code's, in order) and weights."""
    if not isinstance(data, dict):
        raise InputError(path, "a ranker weights file must be a JSON object")
    if data.get("format") != RANKER_FORMAT:
        raise InputError(path, f"format must be {RANKER_FORMAT} (got {data.get('format')!r}); retrain "
                               "with python -m rulesjudge.indexer.train_ranker", key="format")
    names = data.get("features")
    if names != list(FEATURES):
        missing = [n for n in FEATURES if not isinstance(names, list) or n not in names]
        extra = [n for n in names if n not in FEATURES] if isinstance(names, list) else []
        detail = f"missing {', '.join(missing[:3])}" if missing else (
            f"unknown {', '.join(map(str, extra[:3]))}" if extra else "in another order")
        raise InputError(path, f"its features are not this code's ({detail}); retrain", key="features")
    weights = data.get("weights")
    if (not isinstance(weights, list) or len(weights) != len(FEATURES)
            or not all(isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
                       for w in weights)):
        raise InputError(path, f"weights must be {len(FEATURES)} finite numbers", key="weights")
    top_n = data.get("top_n", TOP_N)
    if not isinstance(top_n, int) or isinstance(top_n, bool) or not 2 <= top_n <= 200:
        raise InputError(path, "top_n must be a whole number from 2 to 200", key="top_n")
    summary = data.get("summary", {})
    return Ranker(tuple(names), tuple(float(w) for w in weights), top_n,
                  summary if isinstance(summary, dict) else {})


class Reranker:
    """The stage: the model (loaded on first need) and the feature extractor."""

    def __init__(self, features: Features, ranker: Ranker | None) -> None:
        self.features = features
        self.ranker = ranker

    def rerank(self, ranked: Sequence[tuple[str, float]], context: RerankContext) -> Scored:
        """``ranked`` with its top candidates reordered by the model (unchanged without one)."""
        if self.ranker is None or len(ranked) < 2:
            return list(ranked)
        head = list(ranked[: self.ranker.top_n])
        order = self.ranker.order(self.features.matrix(head, context))
        return permute(ranked, order)
