"""The reranker's trainer learning from the training questions (indexer/training/*.yaml, round 7).

The training questions are written to train on: they sit in every training fold and are never held out
or scored, so the dev cross-validation measures the same questions whatever the model learns from. The
synthetic samples follow the shape of ``test_rerank``'s: the answer is the candidate whose ``overlap``
is highest, placed at random among candidates whose fused scores decrease.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rulesjudge.indexer.evaluate import Question
from rulesjudge.indexer.rerank import FEATURES
from rulesjudge.indexer.train_ranker import (
    TRAINING_GROUP,
    Sample,
    cross_validate,
    fit,
    load_training,
    main,
    pairs,
    rank_of,
    standardiser,
    train,
    trained_on,
)


def _samples(seed: int, count: int, group: str = "", signal: bool = True) -> list[Sample]:
    """``count`` questions; with ``signal`` the answer has the highest overlap, else overlap is noise."""
    rng = np.random.default_rng(seed)
    samples = []
    for n in range(count):
        rows = rng.normal(size=(10, len(FEATURES)))
        rows[:, FEATURES.index("fused")] = np.linspace(1.0, 0.1, 10)
        answer = int(rng.integers(10))
        rows[:, FEATURES.index("overlap")] = rng.uniform(0, 0.5, 10)
        if signal:
            rows[answer, FEATURES.index("overlap")] = 0.9
        labels = np.zeros(10)
        labels[answer] = 1.0
        fused = [(f"q{n}/r{i}", float(rows[i, 0])) for i in range(10)]
        question = Question(f"q{n}", (f"q{n}/r{answer}",), "concepts", set=group)
        samples.append(Sample(question, fused, rows, labels, np.ones(10, bool), frozenset(),
                              frozenset({f"q{n}/r{answer}"})))
    return samples


class _Folding:
    """The searcher's folding, as the trainer calls it, for records that fold into nothing."""

    @staticmethod
    def fold(fused, _filters, _defining):
        return [(rid, score, ()) for rid, score in fused]


def test_training_questions_are_in_every_training_fold_and_never_scored():
    dev = _samples(seed=1, count=10, group="real")
    extra = _samples(seed=2, count=200, group=TRAINING_GROUP)
    results = cross_validate(_Folding(), dev, [1.0], folds=5, repeats=3, extra=extra)
    assert set(results["1"]) == {"real", "all"}  # no "training" group: never held out
    assert results["1"]["all"].n == 10 * 3  # each dev question scored once per repeat


def test_the_training_questions_teach_what_ten_dev_questions_cannot():
    """Ten dev questions in five folds leave eight to learn from; 200 training questions with the same
    signal teach it: the held-out dev questions' MRR rises (the fused order alone finds the answer first
    one time in ten)."""
    dev = _samples(seed=1, count=10, group="real")
    extra = _samples(seed=2, count=200, group=TRAINING_GROUP)
    alone = cross_validate(_Folding(), dev, [1.0])["1"]["all"].mrr
    helped = cross_validate(_Folding(), dev, [1.0], extra=extra)["1"]["all"].mrr
    assert helped > alone and helped > 0.8


def test_training_questions_alone_give_one_model_whatever_the_dev_questions_say():
    """Without the dev questions every fold's model is the training questions' model: the held-out
    ranks are those of that one model, even for dev questions whose own answers carry no signal."""
    extra = _samples(seed=2, count=200, group=TRAINING_GROUP)
    noise = _samples(seed=3, count=10, group="real", signal=False)
    held = cross_validate(_Folding(), noise, [1.0], repeats=1, extra=extra, use_dev=False)["1"]["all"]
    model = train(extra, 1.0)
    assert sorted(held.ranks, key=str) == sorted((rank_of(_Folding(), s, model) for s in noise), key=str)
    dev = _samples(seed=1, count=10, group="real")
    assert cross_validate(_Folding(), dev, [1.0], extra=extra, use_dev=False)["1"]["all"].mrr > 0.8


def test_a_question_of_weight_two_counts_as_the_same_question_twice():
    samples = _samples(seed=4, count=30)
    doubled = [Sample(**{**samples[0].__dict__, "weight": 2.0}), *samples[1:]]
    twice = [samples[0], *samples]
    mean, scale = standardiser(samples)  # the same standardisation for both (duplicates would move it)
    weighted, repeated = (fit(*pairs(s, mean, scale), lam=1.0) for s in (doubled, twice))
    assert np.allclose(weighted, repeated, atol=1e-9)


def test_load_training_reads_every_file_as_training_and_reads_past_why(tmp_path: Path):
    (tmp_path / "b.yaml").write_text(
        '- {q: "monarch guy dies on my turn, who gets it", area: monarch, gold: [cr@2026-04-17/725.4],'
        ' why: "725.4: the monarch leaving on their turn passes the crown to the active player"}\n'
        '- {q: "21 damage from one commander", area: commander, gold: [cr@2026-04-17/903.10a]}\n')
    (tmp_path / "a.yaml").write_text(
        '- {q: "can I skip my draw", area: general, gold: [cr@2026-04-17/504.1]}\n')
    (tmp_path / "notes.txt").write_text("not a question file")
    questions = load_training(tmp_path)
    assert [q.q for q in questions] == ["can I skip my draw", "monarch guy dies on my turn, who gets it",
                                        "21 damage from one commander"]  # file-name order
    assert {q.split for q in questions} == {"train"}  # never dev nor test: both positions
    assert {q.group for q in questions} == {TRAINING_GROUP}


@pytest.fixture
def expansion_off(monkeypatch):
    monkeypatch.setenv("RULESJUDGE_EXPANSION", "off")


def test_a_bad_training_file_is_one_line_naming_the_file_and_key_exit_2(tmp_path: Path, capsys,
                                                                        expansion_off):
    (tmp_path / "bad.yaml").write_text('- {q: "who starts", area: nowhere, gold: [cr@2026-04-17/103.1]}\n')
    assert main(["--training", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "bad.yaml" in err and "[0].area" in err


def test_no_training_questions_is_refused_unless_learning_from_dev_alone(tmp_path: Path, capsys,
                                                                        expansion_off):
    assert main(["--data", "training", "--training", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(tmp_path) in err and "no training questions" in err


@pytest.mark.parametrize("weight", ["0", "-1", "1000"])
def test_a_training_weight_out_of_range_is_refused(weight: str, capsys, expansion_off):
    assert main(["--training-weight", weight]) == 2
    assert "training-weight" in capsys.readouterr().err


def test_the_weights_file_says_what_it_learned_from():
    assert trained_on("dev").startswith("dev halves")
    assert "indexer/training/*.yaml (weight 0.5)" in trained_on("dev+training", 0.5)


def test_training_on_the_questions_the_expansion_reads_is_refused_while_it_is_on(monkeypatch, capsys):
    """The expansion (round 7b) attaches the training questions to their gold: trained with it on, each
    would find its answer through its own words."""
    monkeypatch.setenv("RULESJUDGE_EXPANSION", "raw+dense")
    assert main(["--data", "training"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "RULESJUDGE_EXPANSION=off" in err


def test_the_training_files_in_the_repository_read_as_training_questions():
    from rulesjudge.indexer.train_ranker import TRAINING_DIR

    questions = load_training(TRAINING_DIR)
    assert len(questions) >= 1000 and all(q.split == "train" and q.gold for q in questions)
