"""BM25 over the chunks' lexical texts (bm25s, English stop words, Snowball stemming, progress bars off).

>>> from rulesjudge.indexer.chunks import Chunk
>>> chunks = [Chunk("a", "", "The monarch draws a card at the beginning of their end step."),
...           Chunk("b", "", "An emperor can attack only an opponent seated next to them.")]
>>> index = LexicalIndex.build(chunks)
>>> index.top("who draws at the end step?", 1)[0][0]
0
>>> tokenize("Attacking emperors")
['attack', 'emperor']
>>> tokenize("what is a permanent?")
['perman']
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rulesjudge.indexer.chunks import Chunk

_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+[a-z]{0,2})*(?:['’][a-z]+)?")  # keeps 702.187c and 4.0 whole


#: Words that ask rather than say, and chat filler: bm25s's English list (~30 words) lacks them, so "what
#: is a permanent" scored "what" and "is" as content and rules that merely say "what" won. Removed from
#: questions and rule texts alike (a rule's "you" or "does" says nothing about its subject either).
#: "work" asks too: "how does priority work in Two-Headed Giant" is about priority, and BM25 gave it the
#: keywords' "each works separately" rules (a rule's "works" is never what it is about).
_QUESTION_WORDS = """
    what whats who whos whom whose which when where why how does do did doing done doesn don didn
    happens happen happened happening mean means meaning my mine me i im ive id you your yours youre
    we us our they them their he she him her his hers its anyone someone somebody anybody everyone
    something anything thing things get gets got getting still also just really actually please ok
    okay lol yes so then there here would should could might must will shall am been being
    have has had having about into onto again ever even way like
    work works worked working
"""
QUESTION_WORDS = frozenset(_QUESTION_WORDS.split())


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    # "no", "not" and "only" change a rule's meaning ("no monarch", "attack only an opponent")
    return (frozenset(STOPWORDS_EN) | QUESTION_WORDS) - {"no", "not", "only", "all", "each", "can"}


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    try:
        import Stemmer

        return Stemmer.Stemmer("english")
    except ImportError:  # pragma: no cover - PyStemmer is a dependency; degrade to no stemming
        return None


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    stemmer = _stemmer()
    return stemmer.stemWord(word) if stemmer is not None else word


def tokenize(text: str) -> list[str]:
    """Lower-case words without stop words, stemmed; possessives folded ("monarch’s" -> "monarch")."""
    stop = _stopwords()
    words = []
    for match in _WORD.finditer(text.lower().replace("æ", "ae")):
        word = re.sub(r"['’](s|t)?$", "", match.group())
        if (len(word) < 2 and not word.isdigit()) or word in stop:  # "loyalty 0" keeps its 0
            continue
        words.append(_stem(word))
    return words


#: Bump when tokenizing changes (stop words, stemming): saved indexes of the old format are rebuilt.
LEXICAL_FORMAT = 5


class LexicalIndex:
    """A bm25s retriever over a list of chunks; rows are chunk positions.

    Tokenizing 4,000 chunks takes most of a second, so the index is saved in the data folder, keyed by
    the corpus hash, and a process that finds it there loads it in milliseconds (:meth:`open`)."""

    def __init__(self, retriever: Any, size: int, words: Sequence[str] = ()) -> None:
        self.retriever = retriever
        self.size = size
        self.words = list(words)  # the corpus's raw words (for typo correction of questions)

    @classmethod
    def open(cls, chunks: Sequence[Chunk], folder: Path, key: str,
             vocabulary: Sequence[str] | None = None) -> LexicalIndex:
        """The saved index for ``key`` from ``folder`` when it is whole, else built (and saved when the
        folder is writable; a damaged or foreign save is rebuilt, never used). ``vocabulary``: the texts
        whose words typo correction may correct to (default: the chunks' lexical texts)."""
        target = folder / f"{key[:24]}-{LEXICAL_FORMAT}"
        loaded = cls._load(target, len(chunks))
        if loaded is not None:
            return loaded
        index = cls.build(chunks, vocabulary)
        with contextlib.suppress(OSError):
            index._save(target)
            for other in folder.glob("*-*"):
                if other != target and other.is_dir():
                    shutil.rmtree(other, ignore_errors=True)
        return index

    @classmethod
    def _load(cls, target: Path, size: int) -> LexicalIndex | None:
        import bm25s

        try:
            sums = json.loads((target / "checksums.json").read_text(encoding="utf-8"))
            for name, digest in sums.items():
                if hashlib.sha256((target / name).read_bytes()).hexdigest() != digest:
                    return None
            words = json.loads((target / "words.json").read_text(encoding="utf-8"))
            retriever = bm25s.BM25.load(str(target / "bm25"))
        except Exception:  # missing, damaged or foreign: build it again
            return None
        if int(retriever.scores.get("num_docs", -1)) != size or not isinstance(words, list):
            return None
        return cls(retriever, size, words)

    def _save(self, target: Path) -> None:
        temporary = target.with_name(f".tmp-{target.name}-{os.getpid()}")
        shutil.rmtree(temporary, ignore_errors=True)
        try:
            (temporary / "bm25").mkdir(parents=True)
            self.retriever.save(str(temporary / "bm25"))
            (temporary / "words.json").write_text(json.dumps(self.words), encoding="utf-8")
            files = [p for p in temporary.rglob("*") if p.is_file()]
            sums = {str(p.relative_to(temporary)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
            (temporary / "checksums.json").write_text(json.dumps(sums), encoding="utf-8")
            shutil.rmtree(target, ignore_errors=True)
            os.replace(temporary, target)
        finally:
            shutil.rmtree(temporary, ignore_errors=True)

    @classmethod
    def build(cls, chunks: Sequence[Chunk], vocabulary: Sequence[str] | None = None) -> LexicalIndex:
        import bm25s

        corpus_tokens = [tokenize(chunk.lexical_text) or ["∅"] for chunk in chunks]
        retriever = bm25s.BM25(k1=1.2, b=0.75)
        retriever.index(corpus_tokens, show_progress=False)
        words: set[str] = set()
        for text in vocabulary if vocabulary is not None else [chunk.lexical_text for chunk in chunks]:
            words.update(re.findall(r"[a-z]+", text.lower()))
        return cls(retriever, len(chunks), sorted(words))

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every chunk for the query (zeros when no query word is known)."""
        import numpy as np

        vocab = self.retriever.vocab_dict
        tokens = [token for token in tokenize(query) if token in vocab]
        if not tokens:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self.retriever.get_scores(tokens), dtype=np.float32)

    def top(self, query: str, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The k best (row, score) pairs with a positive score, among rows where ``mask`` is true."""
        import numpy as np

        scores = self.scores(query)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        k = min(k, self.size)
        if k <= 0:
            return []
        rows = np.argpartition(-scores, k - 1)[:k]
        rows = rows[np.argsort(-scores[rows], kind="stable")]
        return [(int(row), float(scores[row])) for row in rows if scores[row] > 0]
