"""Document expansion from the training questions (doc2query, Nogueira et al. 2019): the one place where
``indexer/training/*.yaml`` is read for search.

A rule says "leaves the game"; the table says "gets knocked out". Each training question
(``{q, gold, ...}``, written from the rule texts, never from the eval sets) is attached to the records it
answers: its gold ids and, through the corpus's cross-release map, the same rule in every other loaded
edition. An edition without the rule gets nothing, and a record with no training question is unchanged.

How a record uses its questions is the :class:`Mode`: :data:`DEFAULT_MODE` (``raw+dense``, chosen on
the dev halves; docs/search.md, "Search round 7b", has the measurements) unless ``RULESJUDGE_EXPANSION``
says otherwise (``off`` turns it off):

* ``lexical``: what BM25 reads gains the questions' words — ``raw`` (appended as written), ``half``
  (the record's own text twice, then the questions: their words weigh half) or ``novel`` (only the
  words, stemmed, that the record's own text lacks, each once);
* ``dense``: each question becomes one more sentence of the record's chunk (embedded one by one, the
  best sentence lifts its record), so a question worded like a user's lands on its record.

The expanded texts are part of the chunks, so the BM25 index and the dense generation are keyed by them
(:func:`indexer.chunks.corpus_hash`): a changed training file rebuilds both. :attr:`Expansion.digest` is
the training files' own hash.

>>> mode = Mode.parse("novel+dense")
>>> mode.lexical, mode.dense, mode.active
('novel', True, True)
>>> Mode.parse("off").active
False
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import write_atomic
from rulesjudge.common.inputs import read_text
from rulesjudge.common.safe_yaml import read_yaml
from rulesjudge.corpus.records import Corpus
from rulesjudge.indexer.cache import index_root
from rulesjudge.indexer.chunks import Chunk
from rulesjudge.indexer.lexical import tokenize

TRAINING_DIR = Path(__file__).with_name("training")
#: The eval question sets (``indexer/questions*.yaml``): a training question that is a near copy of one of
#: theirs is left out of the expansion, or the eval would measure its own questions.
EVAL_SETS = ("questions.yaml", "questions_real.yaml", "questions_cards.yaml")
#: A training question this close to an eval question (rapidfuzz ratio, or the same on sorted words, 0-100,
#: lower case and punctuation out) is a near copy: "who counts as my opponent in team games" / "who
#: counts as my opponents in a team game" (95), "can I reorder my graveyard" / "can I rearrange my
#: graveyard order" (80 on sorted words).
NEAR_COPY = 80
#: The environment variable that turns the expansion on (``Mode.parse`` reads its value).
ENV = "RULESJUDGE_EXPANSION"
MAX_FILE_BYTES = 2_000_000
LEXICAL_MODES = ("off", "raw", "half", "novel")

Equivalents = Callable[[str], Iterable[str]]


@dataclass(frozen=True)
class Mode:
    """Which side of search reads the expansion: ``lexical`` one of :data:`LEXICAL_MODES`, ``dense``
    whether the questions become sentences of their records' chunks."""

    lexical: str = "off"
    dense: bool = False

    @property
    def active(self) -> bool:
        return self.lexical != "off" or self.dense

    @classmethod
    def parse(cls, text: str | None) -> Mode:
        """``off`` (or empty), ``raw``, ``novel``, ``dense``, or a lexical mode and ``dense`` joined by
        ``+`` ("raw+dense"). Anything else is an :class:`InputError` naming the variable.

        >>> Mode.parse("dense")
        Mode(lexical='off', dense=True)
        >>> Mode.parse("raw+dense")
        Mode(lexical='raw', dense=True)
        """
        parts = [part.strip().lower() for part in (text or "off").split("+") if part.strip()]
        lexical, dense = "off", False
        for part in parts:
            if part == "dense":
                dense = True
            elif part in LEXICAL_MODES:
                lexical = part if part != "off" else lexical
            else:
                raise InputError(None, f"expected off, {', '.join(LEXICAL_MODES[1:])}, dense, or a lexical "
                                 f"mode joined to dense ('raw+dense'); got {text!r}", key=ENV)
        return cls(lexical, dense)

    @classmethod
    def from_environment(cls) -> Mode:
        """The mode ``RULESJUDGE_EXPANSION`` asks for (unset or empty: :data:`DEFAULT_MODE`)."""
        value = os.environ.get(ENV, "").strip()
        return cls.parse(value) if value else DEFAULT_MODE


#: The questions' words appended to what BM25 reads, and each question a sentence of its record's chunk
#: (dev halves: general MRR 0.752 -> 0.807, real 0.648 -> 0.699, real-cards 0.739 -> 0.774).
DEFAULT_MODE = Mode("raw", True)


@dataclass(frozen=True)
class Expansion:
    """The training questions by gold record id (as written in the files), with the files' hash."""

    questions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    digest: str = ""

    def texts(self, known: Iterable[str], equivalents: Equivalents) -> dict[str, tuple[str, ...]]:
        """The questions of each record in ``known`` (ids of the loaded records): those whose gold is the
        record itself or the same rule in another edition (``equivalents``). A record no question
        answers is absent.

        >>> expansion = Expansion({"cr@2/104.3a": ("can I scoop any time",)})
        >>> links = {"cr@2/104.3a": ["cr@1/104.3a"]}
        >>> expansion.texts(["cr@1/104.3a", "cr@1/104.3b"], lambda rid: links.get(rid, []))
        {'cr@1/104.3a': ('can I scoop any time',)}
        """
        known = set(known)
        found: dict[str, list[str]] = {}
        for gold, questions in self.questions.items():
            targets = [gold] if gold in known else []
            targets.extend(other for other in equivalents(gold) if other in known and other != gold)
            for target in targets:
                found.setdefault(target, []).extend(questions)
        return {rid: tuple(dict.fromkeys(questions)) for rid, questions in sorted(found.items())}


def read_training(paths: Sequence[Path]) -> Expansion:
    """The questions of the training files (``{q, gold, ...}`` lists). A malformed entry is an
    :class:`InputError` naming the file, the line and the key; the other fields are not this module's
    business (their ``area`` vocabulary is the training files' own)."""
    by_gold: dict[str, list[str]] = {}
    digest = hashlib.sha256(b"expansion/1\n")
    for path in sorted(paths):
        text = read_text(path, limit=MAX_FILE_BYTES)
        digest.update(path.name.encode("utf-8") + b"\x00" + text.encode("utf-8") + b"\x00")
        data, lines = read_yaml(text, str(path), max_chars=MAX_FILE_BYTES)
        if data is None:
            continue
        if not isinstance(data, list):
            raise InputError(path, "a training file must be a list of questions")
        for position, item in enumerate(data):
            line = lines.get((position,))
            question = item.get("q") if isinstance(item, dict) else None
            if not isinstance(question, str) or not question.strip():
                raise InputError(path, "each training question needs a non-empty q", line=line,
                                 key=f"[{position}].q")
            gold = item.get("gold")
            if not isinstance(gold, list) or not gold or not all(isinstance(g, str) and g for g in gold):
                raise InputError(path, "gold must be a non-empty list of record ids", line=line,
                                 key=f"[{position}].gold")
            for record_id in dict.fromkeys(gold):
                by_gold.setdefault(record_id, []).append(" ".join(question.split()))
    return Expansion({rid: tuple(qs) for rid, qs in by_gold.items()}, digest.hexdigest())


def eval_questions(paths: Iterable[Path]) -> list[str]:
    """The ``q`` of every question of the eval sets among ``paths`` (a missing file has none)."""
    found: list[str] = []
    for path in paths:
        if not path.is_file():
            continue
        data, _lines = read_yaml(read_text(path, limit=MAX_FILE_BYTES), str(path), max_chars=MAX_FILE_BYTES)
        found.extend(item["q"] for item in data or ()
                     if isinstance(item, dict) and isinstance(item.get("q"), str))
    return found


def near_copies(questions: Sequence[str], others: Sequence[str], cutoff: int = NEAR_COPY) -> set[str]:
    """The ``questions`` that are near copies of one of ``others`` (:data:`NEAR_COPY`).

    >>> sorted(near_copies(["What's a permanent?", "can I scoop any time"], ["what is a permanent"]))
    ["What's a permanent?"]
    """
    if not questions or not others:
        return set()
    from rapidfuzz import fuzz, process, utils

    mine = [utils.default_process(q) for q in questions]
    theirs = [utils.default_process(q) for q in others]
    by_letters = process.cdist(mine, theirs, scorer=fuzz.ratio, score_cutoff=cutoff)
    by_words = process.cdist(mine, theirs, scorer=fuzz.token_sort_ratio, score_cutoff=cutoff)
    return {question for row, question in enumerate(questions)
            if by_letters[row].any() or by_words[row].any()}


def without(expansion: Expansion, dropped: set[str]) -> Expansion:
    """The expansion less the ``dropped`` questions (a gold left with none is gone)."""
    kept = {rid: tuple(q for q in qs if q not in dropped) for rid, qs in expansion.questions.items()}
    return Expansion({rid: qs for rid, qs in kept.items() if qs}, expansion.digest)


Stamp = tuple[tuple[str, int, int], ...]


def _stamp(paths: Iterable[Path]) -> Stamp:
    return tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths if p.is_file())


def _dropped(questions: Sequence[str], evals: Sequence[Path]) -> set[str]:
    """:func:`near_copies` of the eval sets, remembered in the data folder by the texts' hash (comparing
    1,700 questions with 770 takes 1-3 s of CPU, once per process otherwise)."""
    digest = hashlib.sha256(f"near-copies/{NEAR_COPY}\n".encode())
    for text in questions:
        digest.update(text.encode("utf-8") + b"\x00")
    for path in evals:
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes() + b"\x00")
    memo = index_root() / "expansion" / f"near-copies-{digest.hexdigest()[:32]}.json"
    with contextlib.suppress(OSError, ValueError):
        found = json.loads(memo.read_text(encoding="utf-8"))
        if isinstance(found, list) and all(isinstance(q, str) for q in found):
            return set(found)
    dropped = near_copies(questions, eval_questions(evals))
    with contextlib.suppress(OSError):  # a read-only data folder: compared again next time
        for old in memo.parent.glob("near-copies-*.json"):
            old.unlink()
        write_atomic(memo, json.dumps(sorted(dropped)))
    return dropped


@lru_cache(maxsize=4)
def _training(files: Stamp, evals: Stamp) -> Expansion:
    expansion = read_training([Path(name) for name, _size, _mtime in files])
    questions = sorted({q for qs in expansion.questions.values() for q in qs})
    return without(expansion, _dropped(questions, [Path(name) for name, _size, _mtime in evals]))


def load_training(folder: Path = TRAINING_DIR, eval_sets: Iterable[Path] | None = None) -> Expansion:
    """The training files of ``folder`` (``*.yaml``) without the near copies of the eval sets'
    questions (default :data:`EVAL_SETS` beside this module), read once per change of the files."""
    try:
        files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    except OSError:
        files = []
    evals = eval_sets if eval_sets is not None else [Path(__file__).with_name(n) for n in EVAL_SETS]
    return _training(_stamp(files), _stamp(evals))


def novel_words(question_texts: Iterable[str], own_text: str) -> list[str]:
    """The questions' words, as written, whose BM25 word (stop words out, stemmed) the record's own text
    lacks, each once.

    >>> novel_words(["my guy dies, do I lose the monarch?", "guy died"], "The monarch leaves the game.")
    ['guy', 'dies', 'lose']
    """
    own = set(tokenize(own_text))
    words: list[str] = []
    for text in question_texts:
        for word in re.findall(r"[a-z0-9]+(?:['’][a-z]+)?", text.lower()):
            stems = tokenize(word)
            if stems and stems[0] not in own:
                own.add(stems[0])
                words.append(word)
    return words


def expand_chunk(chunk: Chunk, questions: Sequence[str], mode: Mode) -> Chunk:
    """The chunk with its questions, as ``mode`` says (unchanged without questions or with mode off).

    >>> chunk = Chunk("cr@2/104.3a", "A player can concede.", "104.3a A player can concede.")
    >>> expand_chunk(chunk, ["can I scoop now?"], Mode("raw", True)).lexical_text
    '104.3a A player can concede. can I scoop now?'
    >>> expand_chunk(chunk, ["can I scoop now?"], Mode("raw", True)).sentences
    ('can I scoop now?',)
    """
    if not questions or not mode.active:
        return chunk
    lexical = chunk.lexical_text
    if mode.lexical == "raw":
        lexical = " ".join((lexical, *questions))
    elif mode.lexical == "half":  # the record's own words twice: its questions' words weigh half as much
        lexical = " ".join((lexical, lexical, *questions))
    elif mode.lexical == "novel":
        extra = novel_words(questions, lexical)
        lexical = " ".join((lexical, *extra)) if extra else lexical
    sentences = chunk.sentences
    if mode.dense:
        sentences = tuple(dict.fromkeys((*sentences, *questions)))
    return replace(chunk, lexical_text=lexical, sentences=sentences)


def expand_chunks(chunks: Sequence[Chunk], texts: Mapping[str, Sequence[str]], mode: Mode) -> list[Chunk]:
    """Every chunk with its record's questions (``texts``: :meth:`Expansion.texts`)."""
    if not mode.active or not texts:
        return list(chunks)
    return [expand_chunk(chunk, texts.get(chunk.id, ()), mode) for chunk in chunks]


def expand_corpus(chunks: Sequence[Chunk], corpus: Corpus, mode: Mode,
                  training: Expansion | None = None) -> list[Chunk]:
    """The chunks of ``corpus`` with the training questions of their records (through the corpus's
    cross-release map to the same rule in its other editions): what search indexes and what the shipped
    vectors cover. ``training``: default :func:`load_training`."""
    if not mode.active:
        return list(chunks)
    training = training if training is not None else load_training()
    texts = training.texts(corpus.records, lambda rid: (other for other, _ in corpus.equivalents(rid)))
    return expand_chunks(chunks, texts, mode)
