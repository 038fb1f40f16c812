"""Document expansion from the training questions (indexer/expansion.py, docs/search.md "Search round 7b").

The questions below are written for these tests; their gold is read off the rule text (cited beside each).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.indexer.chunks import corpus_hash, make_chunks
from rulesjudge.indexer.expansion import (
    DEFAULT_MODE,
    EVAL_SETS,
    Mode,
    eval_questions,
    expand_corpus,
    load_training,
    near_copies,
    read_training,
)
from rulesjudge.indexer.lexical import tokenize

# why: 104.3a, "A player can concede the game at any time" — "scoop" is the table's word for conceding
CONCEDE = "cr@2026-04-17/104.3a"
SCOOP = "can I scoop while my opponent's spell is still on the stack"
# why: 702.165a, backup puts +1/+1 counters on target creature and lends the abilities printed below it
BACKUP = "cr@2026-04-17/702.165a"
BACKUP_Q = "does my backup guy hand out its other abilities to the creature it buffs"


def _training(folder: Path, *lines: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "set.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def training(tmp_path):
    path = _training(tmp_path / "training",
                     f'- {{q: "{SCOOP}", gold: [{CONCEDE}], area: general, style: sloppy, why: "concede"}}',
                     f'- {{q: "{BACKUP_Q}", gold: [{BACKUP}], area: general, style: sloppy, why: "backup"}}')
    return read_training([path])


def _chunk(chunks, record_id):
    return next(chunk for chunk in chunks if chunk.id == record_id)


def test_104_3a_gains_its_training_questions_words_and_sentence(builtin_corpus, training):
    plain = make_chunks(builtin_corpus.records)
    expanded = expand_corpus(plain, builtin_corpus, Mode("raw", True), training)
    before, after = _chunk(plain, CONCEDE), _chunk(expanded, CONCEDE)
    assert "scoop" not in tokenize(before.lexical_text)  # the rule says "concede", never "scoop"
    assert "scoop" in tokenize(after.lexical_text) and after.lexical_text.startswith(before.lexical_text)
    assert SCOOP in after.sentences and after.dense_text == before.dense_text  # one more sentence only
    # a record no training question answers is unchanged
    assert _chunk(expanded, "cr@2026-04-17/104.3b") == _chunk(plain, "cr@2026-04-17/104.3b")


def test_off_and_novel_modes(builtin_corpus, training):
    plain = make_chunks(builtin_corpus.records)
    assert expand_corpus(plain, builtin_corpus, Mode.parse("off"), training) == plain
    novel = _chunk(expand_corpus(plain, builtin_corpus, Mode("novel", False), training), CONCEDE)
    # only the content words 104.3a lacks, once each: "can" is in the rule, "I", "my", "is", "still",
    # "on", "the" are stop words (lexical.QUESTION_WORDS and bm25s's list)
    assert novel.lexical_text.split()[-5:] == ["scoop", "while", "opponent's", "spell", "stack"]
    assert novel.sentences == _chunk(plain, CONCEDE).sentences


def test_the_same_rule_in_an_older_release_gains_the_question_and_a_release_without_it_does_not(
        corpus_with, shared_cr_dir, training):
    corpus = corpus_with(shared_cr_dir / "cr-2020-06-01.txt")
    plain = make_chunks(corpus.records)
    expanded = {chunk.id: chunk for chunk in expand_corpus(plain, corpus, Mode("raw", True), training)}
    # why: 104.3a reads the same in 2020 ("A player can concede the game at any time"): same rule
    assert SCOOP in expanded["cr@2020-06-01/104.3a"].sentences
    # backup (702.165) came in 2023: the 2020 release has no such rule, and its 702.165x (if any) and
    # every other 2020 record stay as they were
    assert BACKUP_Q in expanded[BACKUP].sentences
    old = {chunk.id: chunk for chunk in plain if chunk.id.startswith("cr@2020-06-01/")}
    changed = [rid for rid, chunk in old.items() if expanded[rid] != chunk]
    assert changed == ["cr@2020-06-01/104.3a"]


def test_a_changed_training_file_changes_the_index_keys(builtin_corpus, tmp_path):
    folder = tmp_path / "training"
    plain = make_chunks(builtin_corpus.records)
    _training(folder, f'- {{q: "{SCOOP}", gold: [{CONCEDE}]}}')
    first = load_training(folder, eval_sets=[])
    _training(folder, f'- {{q: "{SCOOP}", gold: [{CONCEDE}]}}', f'- {{q: "{BACKUP_Q}", gold: [{BACKUP}]}}')
    second = load_training(folder, eval_sets=[])
    assert first.digest != second.digest
    hashes = {corpus_hash(expand_corpus(plain, builtin_corpus, DEFAULT_MODE, found))
              for found in (first, second)}
    # the BM25 index and the dense generation are both keyed by corpus_hash: a new file rebuilds both
    assert len(hashes) == 2 and corpus_hash(plain) not in hashes


def test_the_expansion_holds_no_eval_question_nor_a_near_copy():
    evals = eval_questions(Path(__file__).parents[2] / "indexer" / name for name in EVAL_SETS)
    assert len(evals) > 700
    used = sorted({q for questions in load_training().questions.values() for q in questions})
    assert len(used) > 1500
    assert near_copies(used, evals) == set()
    # and the guard itself catches a reworded copy: "who counts as my opponents in a team game"
    assert near_copies(["who counts as my opponent in team games"], evals)


def test_a_training_entry_without_gold_is_one_line_naming_file_line_and_key(tmp_path):
    path = _training(tmp_path / "training", '- {q: "fine", gold: [cr@2026-04-17/104.3a]}', '- {q: "no gold"}')
    with pytest.raises(InputError) as caught:
        read_training([path])
    message = str(caught.value)
    assert str(path) in message and ":2:" in message and "[1].gold" in message and "\n" not in message


def test_an_unknown_mode_is_an_input_error_naming_the_variable():
    with pytest.raises(InputError, match="RULESJUDGE_EXPANSION"):
        Mode.parse("bm25-please")
    assert Mode.parse("") == Mode() and not Mode().active


def test_the_searcher_indexes_the_expanded_chunks(searcher):
    # the session's searcher runs with the default mode: 104.3a carries the training questions' words
    chunk = _chunk(searcher.chunks, CONCEDE)
    assert searcher.expansion == DEFAULT_MODE
    assert len(chunk.sentences) > len(make_chunks({CONCEDE: searcher.records[CONCEDE]})[0].sentences)
