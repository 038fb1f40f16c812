"""Search stage: candidate generation — each method's ranking of the visible records.

BM25 (:mod:`indexer.lexical`) over the chunks' lexical texts and the dense index (:mod:`indexer.index`:
MiniLM chunk and sentence vectors in FAISS) each return their top candidates as (record id, score). The
index parts are prepared on first need, not before: a question that is only a number never imports
torch, FAISS or bm25s.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rulesjudge.corpus.records import Record
from rulesjudge.indexer.cache import index_root
from rulesjudge.indexer.chunks import Chunk, corpus_hash, make_chunks
from rulesjudge.indexer.dense import DenseIndex, IndexFileError
from rulesjudge.indexer.embed import Embedder, model_hash, model_label
from rulesjudge.indexer.generation import expected_manifest, try_load
from rulesjudge.indexer.index import BuildReport, ensure_index, stderr_notify
from rulesjudge.indexer.lexical import LexicalIndex
from rulesjudge.indexer.query import Vocabulary
from rulesjudge.indexer.visibility import Filters

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

METHODS = ("hybrid", "bm25", "dense")
Scored = list[tuple[str, float]]  # (record id, score), best first


class Candidates:
    """The chunks, the BM25 and dense indexes, and the query-side vocabulary, each loaded on first use."""

    def __init__(self, records: Mapping[str, Record], *, progress: bool = True, build: bool = True,
                 embedder: Embedder | None = None, notify: Callable[[str], None] | None = None,
                 expand: Callable[[list[Chunk]], list[Chunk]] | None = None) -> None:
        """``expand``: the chunks with their training questions (:mod:`indexer.expansion`), or None."""
        self.records = records
        self._expand = expand
        self.progress = progress
        self.build = build
        self._embedder = embedder
        self._notify = notify
        self._chunks: list[Chunk] | None = None
        self._own_words: list[str] | None = None
        self._row_of: dict[str, int] | None = None
        self._lexical: LexicalIndex | None = None
        self._dense: DenseIndex | None = None
        self._dense_tried = False
        self._loading = threading.Lock()
        self.build_report: BuildReport | None = None
        self._masks: dict[Filters, Any] = {}
        self._vocabulary: Any = None
        self._last_query: tuple[str, Any] | None = None  # (text, vector): the reranker reads it again
        self._dense_rows: tuple[DenseIndex, dict[str, int]] | None = None

    def notify(self, message: str) -> None:
        if self._notify is not None:
            self._notify(message)
        else:
            print(f"rulesjudge: {message}", file=sys.stderr)

    @property
    def chunks(self) -> list[Chunk]:
        if self._chunks is None:
            chunks = make_chunks(self.records)
            self._chunks = self._expand(chunks) if self._expand is not None else chunks
            # typo correction corrects to the records' own words, never to a training question's typo
            self._own_words = [chunk.lexical_text for chunk in chunks]
            self._row_of = {chunk.id: row for row, chunk in enumerate(self._chunks)}
        return self._chunks

    @property
    def row_of(self) -> dict[str, int]:
        _ = self.chunks
        assert self._row_of is not None
        return self._row_of

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder()
        if self._embedder.notify is None:
            self._embedder.notify = self._notify or stderr_notify
        return self._embedder

    @property
    def lexical(self) -> LexicalIndex:
        if self._lexical is None:
            self._lexical = LexicalIndex.open(self.chunks, index_root() / "lexical", corpus_hash(self.chunks),
                                              self._own_words)
        return self._lexical

    @property
    def dense(self) -> DenseIndex | None:
        """The FAISS index, loaded or (when ``build``) rebuilt; None when it is stale and building is off."""
        if self._dense is None and not self._dense_tried:
            with self._loading:  # a second thread waits for it, never searches without it meanwhile
                if not self._dense_tried:
                    try:
                        self._dense = self._open_dense()
                    finally:  # a failure is raised once, as before; later questions search without it
                        self._dense_tried = True
        return self._dense

    def _open_dense(self) -> DenseIndex | None:
        notify = self._notify or stderr_notify
        if not self.build:
            wanted = expected_manifest(self.chunks, model_label(self.embedder.path),
                                       model_hash(self.embedder.path), self.embedder.variant)
            try:
                dense, _reason = try_load(index_root(), wanted, [chunk.id for chunk in self.chunks])
            except IndexFileError as error:
                notify(f"{error}; dense search unavailable until the index is rebuilt")
                return None
            return dense
        dense, report = ensure_index(self.chunks, self.embedder, progress=self.progress, notify=notify)
        self.build_report = report
        return dense

    def prepare(self, methods: Iterable[str] = METHODS) -> None:
        """Load (or build) everything the given methods need: call before timing queries."""
        methods = set(methods)
        if methods & {"bm25", "hybrid"}:
            _ = self.lexical
        if methods & {"dense", "hybrid"} and self.dense is not None:
            self.embedder.prepare_queries()

    @property
    def vocabulary(self) -> Any:
        """The corpus's words (BM25's vocabulary), for typo correction (:class:`indexer.query.Vocabulary`)."""
        if self._vocabulary is None:
            words = self.lexical.words
            self._vocabulary = Vocabulary(words) if words else Vocabulary.of_texts(self._own_words or ())
        return self._vocabulary

    def mask(self, filters: Filters, visible: frozenset[str]) -> np.ndarray:
        """The visible records as a boolean mask over the chunks (cached per filter set)."""
        if filters not in self._masks:
            import numpy as np

            self._masks[filters] = np.array([chunk.id in visible for chunk in self.chunks], dtype=bool)
        return self._masks[filters]

    def bm25(self, words: str, n: int, mask: np.ndarray) -> Scored:
        ids = self.chunks
        return [(ids[row].id, score) for row, score in self.lexical.top(words, n, mask)]

    def dense_ranking(self, text: str, n: int, mask: np.ndarray, sentence_weight: float) -> Scored:
        """The dense index's ranking of the question (empty when no dense index is available)."""
        index = self.dense
        if index is None:
            return []
        vector = self.query_vector(text)
        found = index.search_records(vector, n, mask, sentence_weight)
        return [(index.ids[row], score) for row, score in found]

    def query_vector(self, text: str) -> np.ndarray:
        """The question's vector (the last one memoised: the reranker asks for the same question's)."""
        if self._last_query is None or self._last_query[0] != text:
            self._last_query = (text, self.embedder.encode_query(text))
        return self._last_query[1]

    def cosines(self, text: str, ids: list[str]) -> list[tuple[float, float]]:
        """Each record's (chunk cosine, best sentence cosine) with the question (zeros without a dense
        index)."""
        index = self.dense
        if index is None or not ids:
            return [(0.0, 0.0)] * len(ids)
        import numpy as np

        query = np.asarray(self.query_vector(text), dtype=np.float32).reshape(-1)
        if self._dense_rows is None or self._dense_rows[0] is not index:
            self._dense_rows = (index, {rid: row for row, rid in enumerate(index.ids)})
        row_of = self._dense_rows[1]
        rows = np.array([row_of[rid] for rid in ids], dtype=np.int64)
        chunk = index.matrix()[index.vector_rows[rows]] @ query
        best = index.best_sentence(rows, query, chunk)
        return [(float(c), float(b)) for c, b in zip(chunk, best, strict=True)]
