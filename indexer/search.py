"""Cited-rule search: the stages of answering a question, orchestrated by :class:`Searcher`.

Each stage is its own module (bm25s/pyserini style); ``Searcher`` holds one of each and runs them in turn:

1. **Query parsing** (:mod:`indexer.query`): rule numbers written in the question (:func:`parse_query`),
   and the question in the rules' words (the judge's lexicon, typo correction).
2. **Visibility and editions** (:mod:`indexer.visibility`): the filters (document, edition or date,
   official only) and the hiding of superseded editions.
3. **Exact numbers** (:mod:`indexer.exact`): "809.3c", "CR 722.4.", "718.4 (2020)" answer that rule first,
   followed by its subrules; an old number is resolved to its current one, with a note. A question that
   is only a number never loads the model, FAISS or BM25.
4. **Candidate generation** (:mod:`indexer.candidates`): BM25 and the dense index each rank the visible
   records; the glossary terms the question names (:mod:`indexer.glossary`) are lifted. The records
   carry the training questions that they answer (:mod:`indexer.expansion`: doc2query, their words for
   BM25 and each question a sentence for the dense index).
5. **Fusion and priors** (:mod:`indexer.fusion`): normalised scores added, then the priors (named
   variants, siblings, history, list rules; :mod:`indexer.scopes` says which variant a record belongs to).
5b. **Learned reranking** (:mod:`indexer.rerank`, optional by data): the fused top 30 reordered by a linear
   model over generic features, when ``indexer/data/ranker.json`` is there (it is not shipped: off).
6. **Folding** (:mod:`indexer.folding`): pointers (glossary entries, labels, headings) shown with the rule
   they point at, not in its place.
7. **Hits** (:mod:`indexer.hits`): each record with its citation, context and cross-references.
8. **Cards** (:mod:`indexer.card_stage`): the cards a question names — the result's cards part (their
   text and rulings ranked by the question), and for the rules part the question with each name
   replaced by its card type, the rules' words of its Oracle templates added and their rules lifted.

>>> parse_query("CR 722.4.").pure
True
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards import load_cards
from rulesjudge.corpus.records import Corpus, Record
from rulesjudge.corpus.store import load_corpus
from rulesjudge.indexer.candidates import METHODS, Candidates, Scored
from rulesjudge.indexer.card_stage import CardPart, CardReading, CardStage
from rulesjudge.indexer.exact import ExactNumbers
from rulesjudge.indexer.expansion import Mode, expand_corpus
from rulesjudge.indexer.folding import Folded, Folding
from rulesjudge.indexer.fusion import DEFAULT_FUSION, FusionParams, Priors, QuestionFacts, blend, fuse, lift
from rulesjudge.indexer.glossary import Glossary
from rulesjudge.indexer.hits import Hit, SearchResult, make_hit
from rulesjudge.indexer.lexical import tokenize
from rulesjudge.indexer.query import NumberRef, ParsedQuery, load_lexicon, parse_query, rewrite
from rulesjudge.indexer.rerank import Features, Ranker, RerankContext, Reranker, load_ranker
from rulesjudge.indexer.scopes import Scopes
from rulesjudge.indexer.visibility import FULL_RELEASE_RULES, Filters, Visibility, edition_date

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rulesjudge.corpus.cards import CardDB
    from rulesjudge.indexer.chunks import Chunk
    from rulesjudge.indexer.dense import DenseIndex
    from rulesjudge.indexer.embed import Embedder
    from rulesjudge.indexer.index import BuildReport
    from rulesjudge.indexer.lexical import LexicalIndex

__all__ = [
    "DEFAULT_FUSION", "FULL_RELEASE_RULES", "METHODS", "Filters", "FusionParams", "Hit", "NumberRef",
    "ParsedQuery", "QuestionFacts", "SearchResult", "Searcher", "default_corpus", "edition_date", "fuse",
    "open_searcher", "parse_query",
]

EVIDENCE_RULES = 10  # the rules nearest to a named card's best ruling that it lends weight to
NO_FACTS = QuestionFacts()
_HISTORY = re.compile(r"\b(?:version|revision|revised|history|changelog|renumber\w*|renamed|changed|"
                      r"update[sd]?|added|removed|introduced|first (?:appeared|printed))\b", re.IGNORECASE)


class Searcher:
    """Search over a corpus. The index (model, FAISS, BM25) is prepared on first need, not before."""

    def __init__(
        self,
        corpus: Corpus,
        *,
        progress: bool = True,
        build: bool = True,
        embedder: Embedder | None = None,
        fusion: FusionParams = DEFAULT_FUSION,
        notify: Callable[[str], None] | None = None,
        cards: CardDB | bool | None = True,
        ranker: Ranker | bool | None = True,
        expansion: Mode | None = None,
    ) -> None:
        """``cards``: the card snapshot to read questions' card names with; True (default) loads the
        current one on the first question that is not only a number; None or False: no cards.
        ``ranker``: the learned reranking stage's model; True (default) reads ``indexer/data/ranker.json``
        on the first hybrid question (none there: the stage is off); None or False: off.
        ``expansion``: how the records read their training questions (:mod:`indexer.expansion`); None
        (default): as ``RULESJUDGE_EXPANSION`` says (unset: ``DEFAULT_MODE``)."""
        self.corpus = corpus
        self.records: Mapping[str, Record] = corpus.records
        self.fusion = fusion
        self.visibility = Visibility(corpus)
        self.expansion = expansion if expansion is not None else Mode.from_environment()
        self.candidates = Candidates(self.records, progress=progress, build=build, embedder=embedder,
                                     notify=notify, expand=self._expand if self.expansion.active else None)
        self.exact = ExactNumbers(self.visibility, self.hit)
        self.glossary = Glossary(self.records)
        self.priors = Priors(self.records)
        self.folding = Folding(self.records)
        self.documents = self.visibility.documents
        self._scopes: Any = None
        self._rewrites: dict[str, str] = {}
        self._card_db: CardDB | None = None if cards is True or not cards else cards
        self._load_cards = cards is True
        self._cards_loading = threading.Lock()
        self.card_stage = CardStage(self.records, self._cards)
        self._ranker: Ranker | bool | None = ranker
        self._reranker: Reranker | None = None
        self._features: Features | None = None

    def _expand(self, chunks: list[Chunk]) -> list[Chunk]:
        """The chunks with the training questions of their records (and of the same rule elsewhere)."""
        return expand_corpus(chunks, self.corpus, self.expansion)

    def _cards(self) -> CardDB | None:
        """The card snapshot, loaded on first need (a failure is said once: search goes on without). A
        second thread asking while it loads waits for it: the server's sessions search at once, and one
        that went on without the cards would answer differently."""
        if self._load_cards:
            with self._cards_loading:
                if self._load_cards:
                    try:
                        self._card_db = load_cards()
                    except (InputError, OSError) as error:
                        self.notify(f"cards unavailable: {error}")
                    self._load_cards = False
        return self._card_db

    # --- the index parts, prepared on first need (:mod:`indexer.candidates`) ---

    def notify(self, message: str) -> None:
        self.candidates.notify(message)

    @property
    def chunks(self) -> list[Chunk]:
        return self.candidates.chunks

    @property
    def row_of(self) -> dict[str, int]:
        return self.candidates.row_of

    @property
    def embedder(self) -> Embedder:
        return self.candidates.embedder

    @property
    def lexical(self) -> LexicalIndex:
        return self.candidates.lexical

    @property
    def dense(self) -> DenseIndex | None:
        return self.candidates.dense

    @property
    def build_report(self) -> BuildReport | None:
        return self.candidates.build_report

    def prepare(self, methods: Iterable[str] = METHODS) -> Searcher:
        """Load (or build) everything the given methods need: call before timing queries."""
        self.candidates.prepare(methods)
        return self

    # --- visibility (:mod:`indexer.visibility`) ---

    def visible_ids(self, filters: Filters) -> frozenset[str]:
        return self.visibility.visible_ids(filters)

    def equivalent_ids(self, record_id: str) -> list[str]:
        return self.visibility.equivalent_ids(record_id)

    def mask(self, filters: Filters) -> np.ndarray:
        return self.candidates.mask(filters, self.visible_ids(filters))

    def numbered(self, number: str) -> dict[str, list[Record]]:
        return self.exact.numbered(number)

    # --- reading the question ---

    def rewrite(self, text: str) -> str:
        """The question in the rules' words: the judge's lexicon, then typos corrected against the
        corpus vocabulary (:mod:`indexer.query`)."""
        if text not in self._rewrites:
            if len(self._rewrites) > 4096:
                self._rewrites.clear()
            rewritten = rewrite(text, load_lexicon(), self.vocabulary).text
            self._rewrites[text] = self.scopes.mend(rewritten, self.vocabulary)
        return self._rewrites[text]

    @property
    def vocabulary(self) -> Any:
        return self.candidates.vocabulary

    @property
    def scopes(self) -> Any:
        """Which records belong to a variant, and the words that name it (:mod:`indexer.scopes`)."""
        if self._scopes is None:
            self._scopes = Scopes.of(self.records)
        return self._scopes

    def facts(self, text: str) -> QuestionFacts:
        """The variants (and variant documents) the question names, read after the lexicon, and whether
        it asks about versions."""
        rewritten = self.rewrite(text)
        return QuestionFacts(frozenset(self.scopes.named(rewritten)), bool(_HISTORY.search(text)),
                             frozenset(tokenize(rewritten)))

    def defining(self, text: str) -> set[str]:
        """Glossary entries whose term is most of what the question asks ("what is a permanent")."""
        return self.glossary.defining(self.rewrite(text))

    def glossary_weights(self, text: str) -> list[tuple[str, float]]:
        return self.glossary.weights(text)

    def glossary_matches(self, text: str) -> list[str]:
        """Glossary entries whose term (or its plural) is written in the question, longest terms first."""
        return [record_id for record_id, _share in self.glossary.weights(text)]

    # --- ranking: candidates, fusion and priors, folding ---

    def ranked(self, text: str, method: str, filters: Filters, limit: int,
               cards: CardReading | None = None) -> Folded:
        """(record id, score, records folded into it), best first. ``cards``: the question's card reading
        (:meth:`CardStage.read`), whose text is then ``text``; its rules are lifted in the fusion."""
        if method != "hybrid":
            lexical, dense, _lifted = self.method_rankings(text, method, filters, limit)
            return self.fold(lexical if method == "bm25" else dense, filters, self.defining(text))[:limit]
        fused, context = self.fused(text, filters, limit, cards)
        if self.reranker is not None:
            fused = self.reranker.rerank(fused, context)
        return self.fold(fused, filters, self.defining(text))[:limit]

    def fused(self, text: str, filters: Filters, limit: int, cards: CardReading | None = None,
              ) -> tuple[Scored, RerankContext]:
        """The hybrid ranking after fusion and the priors, before reranking and folding, with what the
        reranking stage reads about the question (:mod:`indexer.rerank`)."""
        facts = self.facts(text)
        if cards:  # "puppet master" is read as "enchantment", yet it was said
            said = frozenset(tokenize(" ".join(mention.said for mention in cards.mentions)))
            facts = replace(facts, said=said)
        lexical, dense, lifted = self.method_rankings(text, "hybrid", filters, limit, facts)
        fused = fuse(lexical, dense, lifted, self.fusion)
        shown, params = self.visible_ids(filters), self.fusion
        quoted: list[str] = []
        if facts.named:  # a term the question quotes is what it asks about, however loudly it names a variant
            quoted = [r for r in self.glossary.quoted(self.rewrite(text)) if r in shown]
            fused = lift(fused, quoted, params.scope_lift)
        templates = [r for r in cards.template_rules if r in shown] if cards else []
        keywords = [r for r in cards.keyword_rules if r in shown] if cards else []
        fused = lift(fused, templates, params.card_rule_lift)
        fused = lift(fused, keywords, params.keyword_lift)
        if cards:
            fused = lift(fused, [r for r in cards.term_rules if r in shown], params.card_term_lift)
            fused = self._card_evidence(fused, cards, filters)
        fused = self.adjust(fused, self.fusion, facts)
        rewritten = self.rewrite(text)
        context = RerankContext(text, rewritten, facts, lexical, dense, lifted, frozenset(quoted),
                                frozenset(templates), frozenset(keywords),
                                lambda ids: self.candidates.cosines(rewritten, list(ids)))
        return fused, context

    def _card_evidence(self, fused: Scored, cards: CardReading, filters: Filters) -> Scored:
        """The fused ranking with the rules nearest (BM25) to each named card's best ruling for the
        question added, by ``ruling_weight`` times their score over the best one's: an official ruling
        restates the rule it applies ("Because the ability is targeted, it is not a mana ability")."""
        weight = self.fusion.ruling_weight
        if not weight or not cards.evidence:
            return fused
        mask = self.candidates.mask(filters, self.visible_ids(filters))
        for ruling in cards.evidence:
            fused = blend(fused, self.candidates.bm25(ruling, EVIDENCE_RULES, mask), weight)
        return fused

    @property
    def reranker(self) -> Reranker | None:
        """The learned reranking stage, or None when there are no weights (today's order)."""
        if self._ranker is True:
            self._ranker = load_ranker()
        if self._ranker is None or self._ranker is False:
            return None
        if self._reranker is None or self._reranker.ranker is not self._ranker:
            self._reranker = Reranker(self.features, self._ranker)
        return self._reranker

    @property
    def features(self) -> Features:
        """The reranking stage's feature vectors (what they read off records is cached here)."""
        if self._features is None:
            self._features = Features(self.records, lambda: self.scopes, self._lexical_text)
        return self._features

    def _lexical_text(self, record_id: str) -> str:
        row = self.candidates.row_of.get(record_id)
        return self.chunks[row].lexical_text if row is not None else self.records[record_id].text

    def method_rankings(self, text: str, method: str, filters: Filters, limit: int,
                        facts: QuestionFacts | None = None) -> tuple[Scored, Scored, Scored]:
        """Each method's (id, score) candidates for the rewritten question, and the glossary lifts
        (``facts``: the question's :meth:`facts` when the caller has them already)."""
        visible = self.visible_ids(filters)
        mask = self.candidates.mask(filters, visible)
        if not mask.any():
            return [], [], []
        text = self.rewrite(text)
        n = max(self.fusion.candidates if method == "hybrid" else limit, limit) + 20  # room for folding
        lexical: Scored = []
        dense: Scored = []
        if method in {"bm25", "hybrid"}:
            words = text
            if method == "hybrid":  # a named variant's scope lift stands for its name there
                named = facts.named if facts is not None else self.scopes.named(text)
                words = self.scopes.without_option_users(text, named)
            lexical = self.candidates.bm25(words, n, mask)
        if method in {"dense", "hybrid"}:
            dense = self.candidates.dense_ranking(text, n, mask, self.fusion.sentence_weight)
        lifted = [(rid, share) for rid, share in self.glossary.weights(text) if rid in visible]
        return lexical, dense, lifted


    def adjust(self, fused: Sequence[tuple[str, float]], params: FusionParams,
               facts: QuestionFacts = NO_FACTS) -> list[tuple[str, float]]:
        """The priors on fused scores (:class:`indexer.fusion.Priors`)."""
        return self.priors.adjust(fused, params, facts, self.scopes)

    def fold_target(self, record_id: str) -> str | None:
        return self.folding.target(record_id)

    def is_heading(self, record_id: str) -> bool:
        return self.folding.is_heading(record_id)

    def fold(self, ranked: Sequence[tuple[str, float]], filters: Filters, defining: Iterable[str] = (),
             ) -> Folded:
        """Show pointers with the record they point at, not in its place."""
        return self.folding.fold(ranked, self.visible_ids(filters), defining)

    # --- the public entry point ---

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        document: str | None = None,
        edition: str | None = None,
        official_only: bool = False,
        method: str = "hybrid",
    ) -> SearchResult:
        """Answer a question with up to ``k`` hits, exact-number hits first."""
        if not query or not query.strip():
            raise InputError(None, "empty question", key="query")
        if method not in METHODS:
            raise InputError(None, f"unknown method {method!r} (one of {', '.join(METHODS)})", key="method")
        if k < 1:
            raise InputError(None, f"k must be at least 1 (got {k})", key="k")
        filters = Filters(document, edition, official_only)
        self.visibility.check(filters)
        parsed = parse_query(query)
        groups, notes = self.exact.groups(parsed, filters) if parsed.refs else ([], [])
        hits: list[Hit] = []
        parts: list[CardPart] = []
        if parsed.pure:  # nothing but numbers: never load the model for them
            hits = [hit for group in groups for hit in group][:k]
        else:
            reading = self.card_stage.read(query)
            parts = self.card_stage.parts(query, reading) if reading else []
            ranked = self.ranked(reading.text, method, filters, limit=k + 50 if groups else k, cards=reading)
            hits = self._merge(groups, ranked, parsed, method, k)
        _rank_exact_first(hits)
        if parsed.refs and not groups:
            shown = ", ".join(ref.number for ref in parsed.refs)
            notes.append(f"no loaded rule is numbered {shown}" + (" under these filters" if
                                                                  document or edition else ""))
        return SearchResult(query, hits, list(dict.fromkeys(notes)), exact=bool(parsed.pure and groups),
                            cards=parts)

    def _merge(self, groups: list[list[Hit]], ranked: Folded, parsed: ParsedQuery, method: str,
               k: int) -> list[Hit]:
        """Exact groups first (ordered by the question's other words when a number has several
        meanings), then the ranked records."""
        score_of = {record_id: score for record_id, score, _ in ranked}
        if len(groups) > 1 and not parsed.years:  # several meanings: the question's other words decide
            order = {id(group): i for i, group in enumerate(groups)}
            groups.sort(key=lambda g: (-max(score_of.get(h.id, 0.0) for h in g), order[id(g)]))
        exact = [hit for group in groups for hit in group]
        seen = {hit.id for hit in exact}
        rest = [self.hit(self.records[rid], score, method, related=related)
                for rid, score, related in ranked if rid not in seen]
        lead = 1 if parsed.context and rest else 0  # "does X get around 113.8": X's record, then 113.8
        return (rest[:lead] + exact + rest[lead:])[:k]

    def hit(self, record: Record, score: float, match: str, note: str | None = None,
            related: Sequence[str] = ()) -> Hit:
        return make_hit(record, self.records, score, match, note, related)


def _rank_exact_first(hits: list[Hit]) -> None:
    """Exact hits rank above everything after them, scores decreasing (a ranked hit placed before them,
    when the number is cited as a point of reference, is lifted above them)."""
    exact = {"exact", "equivalent"}
    first = next((i for i, hit in enumerate(hits) if hit.match in exact), None)
    if first is None:
        return
    top = max((hit.score for hit in hits[first:] if hit.match not in exact), default=0.0)
    exact_hits = [hit for hit in hits if hit.match in exact]
    for i, hit in enumerate(exact_hits):
        hit.score = max(1.0, top) + (len(exact_hits) - i) * 1e-3
    for hit in hits[:first]:
        hit.score = max(hit.score, exact_hits[0].score + 1e-3)


def default_corpus() -> Corpus:
    """Everything loaded: ``corpus.store.load_corpus()``."""
    return load_corpus()


def open_searcher(corpus: Corpus | None = None, *, progress: bool = True, build: bool = True,
                  lazy: bool = False, fusion: FusionParams = DEFAULT_FUSION) -> Searcher:
    """A searcher over ``corpus`` (default: everything loaded). Loads or builds the index unless ``lazy``;
    a lazy searcher prepares the index on its first non-exact question."""
    searcher = Searcher(corpus if corpus is not None else default_corpus(), progress=progress, build=build,
                        fusion=fusion)
    if not lazy:
        searcher.prepare()
    return searcher
