"""The dense index in memory: FAISS (inner product over L2-normalised vectors) over the distinct
vectors of the chunks, with the sentence vectors beside it (:class:`DenseIndex`). How a generation of it
is written to and read from the data folder is :mod:`indexer.generation`; when it is built,
:mod:`indexer.index`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


class IndexFileError(Exception):
    """An index file that cannot be used: unreadable, truncated, foreign or inconsistent."""



class DenseIndex:
    """FAISS ``IndexFlatIP`` over the distinct vectors; chunk row i (record ``ids[i]``) uses vector
    ``vector_rows[i]``. The same rule text in many releases is one vector, so an index over 60 releases is
    the size of its distinct texts, not of its chunks.

    ``sentences`` (attached with :meth:`attach_sentences`) is a second index of the same kind over the
    vectors of each chunk's sentences (:attr:`Chunk.sentences`), ``sentence_owner[j]`` the chunk row of
    sentence ``j`` (non-decreasing); :meth:`search_records` scores a record by its chunk vector and its
    best sentence."""

    def __init__(self, faiss_index: Any, ids: list[str], manifest: dict[str, Any],
                 vector_rows: np.ndarray | None = None) -> None:
        import numpy as np

        self.faiss_index = faiss_index
        self.ids = ids
        self.manifest = manifest
        self.row_of = {record_id: row for row, record_id in enumerate(ids)}
        if vector_rows is None:
            vector_rows = np.arange(len(ids), dtype=np.int64)
        self.vector_rows = np.asarray(vector_rows, dtype=np.int64)
        # chunks of each vector (CSR): chunk_rows[starts[v]:starts[v + 1]]
        order = np.argsort(self.vector_rows, kind="stable")
        self._chunk_rows = order
        self._starts = np.searchsorted(self.vector_rows[order], np.arange(faiss_index.ntotal + 1))
        self._masks: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.sentences: DenseIndex | None = None
        self.sentence_owner = np.zeros(0, dtype=np.int64)
        self._sentence_starts = np.zeros(len(ids) + 1, dtype=np.int64)
        self._matrix: np.ndarray | None = None
        self._entry_masks: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def attach_sentences(self, sentences: DenseIndex, owner: np.ndarray) -> None:
        """Use ``sentences`` (one entry per sentence, entry ``j`` of chunk row ``owner[j]``)."""
        import numpy as np

        owner = np.asarray(owner, dtype=np.int64)
        inside = not len(owner) or (int(owner.min()) >= 0 and int(owner.max()) < len(self.ids)
                                    and not bool((np.diff(owner) < 0).any()))
        if len(owner) != len(sentences) or not inside:
            raise IndexFileError("sentence owners do not fit the chunks")
        self.sentences = sentences
        self.sentence_owner = owner
        self._sentence_starts = np.searchsorted(owner, np.arange(len(self.ids) + 1))

    def matrix(self) -> np.ndarray:
        """The distinct vectors as a (vectors × dimension) float32 array (a view of the flat index)."""
        if self._matrix is None:
            import faiss
            import numpy as np

            index, total = self.faiss_index, self.faiss_index.ntotal
            try:
                view = faiss.rev_swig_ptr(index.get_xb(), total * index.d)
                self._matrix = np.asarray(view, dtype=np.float32).reshape(total, index.d)
            except (AttributeError, RuntimeError, TypeError):  # not a flat index: copy the vectors out
                self._matrix = index.reconstruct_n(0, total)
        return self._matrix

    def search_records(self, vector: np.ndarray, k: int, mask: np.ndarray | None = None,
                       sentence_weight: float = 0.0) -> list[tuple[int, float]]:
        """The k best chunk rows by ``chunk cosine + w · max(0, best sentence cosine - chunk cosine)``: a
        sentence can lift its record, never sink it (a chunk without sentences keeps its own cosine). The
        sentence index finds records whose one decisive sentence is diluted in their chunk's vector (a
        long rule, or a rule with examples); every candidate's two cosines are then computed exactly, so
        the order does not depend on which search found it."""
        import numpy as np

        found = self.search(vector, k, mask)
        if self.sentences is None or not sentence_weight or not found:
            return found
        entry_mask = None if mask is None else self._entry_mask(mask)
        entries = self.sentences.search(vector, k, entry_mask)
        owners = [int(self.sentence_owner[entry]) for entry, _ in entries]
        rows = np.unique(np.array([row for row, _ in found] + owners, dtype=np.int64))
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        chunk = self.matrix()[self.vector_rows[rows]] @ query
        best = self.best_sentence(rows, query, chunk)
        combined = chunk + sentence_weight * np.maximum(best - chunk, 0.0)
        order = np.argsort(-combined, kind="stable")[:k]
        return [(int(rows[i]), float(combined[i])) for i in order]

    def _entry_mask(self, mask: np.ndarray) -> np.ndarray:
        """The sentences of the chunk rows ``mask`` keeps (memoised: a filter's mask is reused)."""
        memo = self._entry_masks.get(id(mask))
        if memo is not None and memo[0] is mask:
            return memo[1]
        entry_mask = mask[self.sentence_owner]
        if len(self._entry_masks) > 32:
            self._entry_masks.clear()
        self._entry_masks[id(mask)] = (mask, entry_mask)
        return entry_mask

    def best_sentence(self, rows: np.ndarray, query: np.ndarray, fallback: np.ndarray) -> np.ndarray:
        """Each chunk row's best sentence cosine (``fallback`` for a chunk without sentences)."""
        import numpy as np

        best = np.array(fallback, dtype=np.float32)
        sentences = self.sentences
        if sentences is None:
            return best
        starts, ends = self._sentence_starts[rows], self._sentence_starts[rows + 1]
        counts = ends - starts
        has = counts > 0
        if not has.any():
            return best
        spans = np.concatenate([np.arange(a, b) for a, b in zip(starts[has], ends[has], strict=True)])
        values = sentences.matrix()[sentences.vector_rows[spans]] @ query
        offsets = np.concatenate(([0], np.cumsum(counts[has])[:-1]))
        best[has] = np.maximum.reduceat(values, offsets)
        return best

    def _vector_mask(self, mask: np.ndarray) -> np.ndarray:
        memo = self._masks.get(id(mask))
        if memo is not None and memo[0] is mask:
            return memo[1]
        import numpy as np

        vector_mask = np.zeros(self.faiss_index.ntotal, dtype=bool)
        vector_mask[self.vector_rows[mask]] = True
        if len(self._masks) > 32:
            self._masks.clear()
        self._masks[id(mask)] = (mask, vector_mask)
        return vector_mask

    def search(self, vector: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The k nearest chunk rows (by cosine similarity) among rows where ``mask`` is true."""
        import faiss
        import numpy as np

        total = self.faiss_index.ntotal
        k = min(k, total)
        if k <= 0:
            return []
        if mask is None or bool(mask.all()):
            scores, rows = self.faiss_index.search(vector, k)
        else:
            vector_mask = self._vector_mask(mask)
            bitmap = np.packbits(vector_mask.astype(np.uint8), bitorder="little")
            selector = faiss.IDSelectorBitmap(total, faiss.swig_ptr(bitmap))
            params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
            scores, rows = self.faiss_index.search(vector, k, params=params)
        found: list[tuple[int, float]] = []
        for row, score in zip(rows[0], scores[0], strict=True):
            if row < 0:
                continue
            for chunk_row in self._chunk_rows[self._starts[row]:self._starts[row + 1]]:
                if mask is None or mask[chunk_row]:
                    found.append((int(chunk_row), float(score)))
        return found[:k]
