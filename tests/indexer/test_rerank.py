"""The learned reranking stage (indexer/rerank.py) and its trainer (indexer/train_ranker.py).

The features are read off a small corpus built by hand from rule texts (702.19 Trample, 810 Two-Headed
Giant, 903.10a commander damage), so each expected value follows from the rules' structure, not from
running the code: a subrule whose earlier sibling is a candidate, a variant's rule in a question that
doesn't name it, a number the rule states.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import Record
from rulesjudge.indexer.evaluate import Question
from rulesjudge.indexer.fusion import QuestionFacts
from rulesjudge.indexer.lexical import tokenize
from rulesjudge.indexer.rerank import (
    FEATURES,
    RANKER_FORMAT,
    TRAINED_PATH,
    Features,
    Ranker,
    RerankContext,
    Reranker,
    load_ranker,
    parse_ranker,
    permute,
)
from rulesjudge.indexer.scopes import Scopes
from rulesjudge.indexer.train_ranker import Sample, fit, pairs, standardiser, train

E = "cr@x/"


def _records() -> dict[str, Record]:
    def rule(number: str, kind: str, text: str, parent: str | None = None, children: tuple[str, ...] = (),
             title: str = "") -> Record:
        return Record(E + number, "cr", "x", kind, text, number=number, parent=parent and E + parent,
                      children=tuple(E + c for c in children), title=title)

    return {r.id: r for r in (
        rule("702", "section", "", children=("702.19",), title="Keyword Abilities"),
        rule("702.19", "rule", "Trample", "702", ("702.19a", "702.19b", "702.19c")),
        rule("702.19a", "subrule", "Trample is a static ability.", "702.19"),
        rule("702.19b", "subrule", "The controller of an attacking creature with trample first assigns "
             "damage to the creature(s) blocking it.", "702.19"),
        rule("702.19c", "subrule", "If an attacking creature with trample is blocked, but there are no "
             "creatures blocking it when damage is assigned, all its damage is assigned to the player.",
             "702.19"),
        rule("810", "section", "", children=("810.10",), title="Two-Headed Giant Variant"),
        rule("810.10", "rule", "A team with fifteen or more poison counters loses the game.", "810"),
        rule("903.10a", "subrule", "A player that's been dealt 21 or more combat damage by the same "
             "commander over the course of the game loses the game."),
    )}


def _features(records: dict[str, Record]) -> Features:
    scopes = Scopes.of(records)
    return Features(records, lambda: scopes, lambda rid: records[rid].text)


def _row(rows: list[list[float]], index: int) -> dict[str, float]:
    return dict(zip(FEATURES, rows[index], strict=True))


def _context(question: str, lexical: list[tuple[str, float]], dense: list[tuple[str, float]],
             named: frozenset[str] = frozenset()) -> RerankContext:
    return RerankContext(question, question, QuestionFacts(named, False, frozenset(tokenize(question))),
                         lexical, dense, cosines=lambda ids: [(0.5, 0.7)] * len(ids))


def test_702_19c_reads_its_earlier_sibling_702_19b_and_its_parent_as_candidates():
    # 702.19b is the general trample rule, 702.19c a case of it ("If ... is blocked, but ..."): the case
    # has an earlier sibling among the candidates, and its condition is unsaid by this question
    records = _records()
    ranked = [(E + "702.19c", 0.9), (E + "702.19b", 0.8), (E + "702.19", 0.5)]
    context = _context("how does trample assign damage", [(E + "702.19c", 9.0), (E + "702.19b", 7.0)],
                       [(E + "702.19b", 0.6), (E + "702.19c", 0.5)])
    rows = _features(records).matrix(ranked, context)
    assert all(len(row) == len(FEATURES) for row in rows)
    case, general = _row(rows, 0), _row(rows, 1)
    assert case["sibling_present"] == 1.0 and case["sibling_gap"] == pytest.approx(-0.1)  # 0.8 − 0.9
    assert general["sibling_present"] == 0.0  # 702.19a, its earlier sibling, is no candidate
    assert case["parent_present"] == 1.0 and case["parent_gap"] == pytest.approx(-0.4)
    assert case["case_unsaid"] == 1.0 and general["case_unsaid"] == 0.0  # "If ... is blocked" not said
    assert case["kind_subrule"] == 1.0 and case["kind_rule"] == 0.0
    assert case["sibling_position"] == pytest.approx(2 / 4)  # the third of 702.19a-c
    assert case["bm25"] == 1.0 and general["bm25"] == 0.0  # min-max over BM25's candidates
    assert general["dense_rank_inv"] == 1.0 and case["dense_rank_inv"] == 0.5
    assert case["chunk_cos"] == 0.5 and case["sentence_gain"] == pytest.approx(0.2)
    assert _row(rows, 2)["child_present"] == 1.0 and _row(rows, 2)["child_gap"] == pytest.approx(0.4)
    assert case["rank_inv"] == 1.0 and general["fused_gap"] == pytest.approx(0.1)


def test_810_10_is_a_variant_rule_unnamed_unless_the_question_names_two_headed_giant():
    # 810.10 is in the Two-Headed Giant section: out of scope for a plain poison question (104.3d's),
    # in scope for one that names the variant
    records = _records()
    ranked = [(E + "810.10", 0.7), (E + "903.10a", 0.3)]
    plain = _row(_features(records).matrix(ranked, _context("how many poison counters", [], [])), 0)
    named = _row(_features(records).matrix(
        ranked, _context("poison in two-headed giant", [], [], frozenset({"two-headed giant"}))), 0)
    assert plain["variant_unnamed"] == 1.0 and plain["scope_named"] == 0.0
    assert named["scope_named"] == 1.0 and named["variant_unnamed"] == 0.0


def test_21_damage_matches_the_number_903_10a_states():
    # 903.10a says "21 or more combat damage"; 810.10 says "fifteen" in words, no number
    records = _records()
    ranked = [(E + "810.10", 0.7), (E + "903.10a", 0.6)]
    rows = _features(records).matrix(ranked, _context("do I lose to 21 damage from one general", [], []))
    assert _row(rows, 1)["number_match"] == 1.0 and _row(rows, 0)["number_match"] == 0.0
    assert _row(rows, 1)["overlap"] > 0  # "damage" is in 903.10a's words


def test_no_weights_keeps_todays_order_and_weights_reorder_only_the_top():
    records = _records()
    ranked = [(E + "702.19c", 0.9), (E + "702.19b", 0.8), (E + "810.10", 0.1)]
    context = _context("trample", [(E + "702.19b", 5.0)], [])
    assert Reranker(_features(records), None).rerank(ranked, context) == ranked
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bm25")] = 1.0  # a model that trusts BM25 alone
    ranker = Ranker(FEATURES, tuple(weights), top_n=2)
    reranked = Reranker(_features(records), ranker).rerank(ranked, context)
    assert [rid for rid, _ in reranked] == [E + "702.19b", E + "702.19c", E + "810.10"]
    assert [score for _, score in reranked] == [0.9, 0.8, 0.1]  # the places' scores: still decreasing


def test_permute_gives_each_candidate_the_score_of_its_new_place():
    assert permute([("a", 3.0), ("b", 2.0), ("c", 1.0)], [2, 0, 1]) == [("c", 3.0), ("a", 2.0), ("b", 1.0)]


# --- the weights file ---


def _file(tmp_path, data) -> object:
    path = tmp_path / "ranker.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _good() -> dict:
    return {"format": RANKER_FORMAT, "features": list(FEATURES), "weights": [0.0] * len(FEATURES)}


def test_the_trained_weights_name_the_codes_features_in_order():
    ranker = load_ranker(TRAINED_PATH)
    assert ranker is not None, "indexer/data/ranker-trained.json is missing: run indexer.train_ranker"
    assert ranker.names == FEATURES
    assert ranker.weights[FEATURES.index("fused")] > 0  # the fused order is the model's backbone
    assert ranker.summary["lambda"] > 0 and "test" in ranker.summary["trained_on"]


def test_a_missing_weights_file_turns_the_stage_off(tmp_path):
    assert load_ranker(tmp_path / "none.json") is None


@pytest.mark.parametrize(("change", "key"), [
    ({"format": 99}, "format"),
    ({"features": [*FEATURES[:-1], "rule_702_19b"]}, "features"),  # a feature the code doesn't compute
    ({"features": list(reversed(FEATURES))}, "features"),
    ({"weights": [1.0]}, "weights"),
    ({"weights": [float("nan")] * len(FEATURES)}, "weights"),
    ({"weights": ["1"] * len(FEATURES)}, "weights"),
    ({"top_n": 0}, "top_n"),
])
def test_a_weights_file_of_other_features_or_bad_numbers_is_refused_naming_the_key(tmp_path, change, key):
    with pytest.raises(InputError) as error:
        load_ranker(_file(tmp_path, {**_good(), **change}))
    assert error.value.key == key and "\n" not in str(error.value)


def test_a_weights_file_that_is_not_json_names_its_line(tmp_path):
    with pytest.raises(InputError) as error:
        load_ranker(_file(tmp_path, '{"format": 1,\n "features": [oops]}'))
    assert error.value.line == 2


def test_eval_refuses_a_bad_weights_file_in_one_line_with_exit_2(tmp_path, capsys):
    from rulesjudge.app.cli import main

    path = _file(tmp_path, {**_good(), "features": ["bm25"]})
    assert main(["eval", "--builtin-only", "--ranker", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "ranker.json" in err and "features" in err


def test_a_good_weights_file_parses():
    ranker = parse_ranker(_good())
    assert ranker.names == FEATURES and ranker.top_n == 30


# --- training ---


def _samples(seed: int = 0, count: int = 40) -> list[Sample]:
    """Questions whose answer is the candidate with the highest ``overlap``, placed at random among ten
    candidates whose fused scores decrease: the fused order alone finds it one time in ten."""
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(count):
        rows = rng.normal(size=(10, len(FEATURES)))
        rows[:, FEATURES.index("fused")] = np.linspace(1.0, 0.1, 10)
        answer = int(rng.integers(10))
        rows[:, FEATURES.index("overlap")] = rng.uniform(0, 0.5, 10)
        rows[answer, FEATURES.index("overlap")] = 0.9
        labels = np.zeros(10)
        labels[answer] = 1.0
        fused = [(f"r{i}", float(rows[i, 0])) for i in range(10)]
        samples.append(Sample(Question("q", ("g",), "concepts"), fused, rows, labels, np.ones(10, bool),
                              frozenset(), frozenset()))
    return samples


def test_training_learns_the_signal_that_decides_and_is_deterministic():
    samples = _samples()
    weights = train(samples, 1.0)
    assert np.array_equal(weights, train(samples, 1.0))  # the same questions, the same weights
    assert weights[FEATURES.index("overlap")] > 0
    held = _samples(seed=1)
    first = sum(int(np.argmax(s.rows @ weights) == np.argmax(s.labels)) for s in held)
    assert first >= 30  # of 40 held-out questions; the fused order alone: about 4


def test_a_huge_penalty_gives_back_the_fused_order():
    samples = _samples()
    mean, scale = standardiser(samples)
    diffs, weights = pairs(samples, mean, scale)
    w = fit(diffs, weights, lam=1e9, free=FEATURES.index("fused"))
    others = np.delete(w, FEATURES.index("fused"))
    assert w[FEATURES.index("fused")] > 0 and math.isclose(float(np.abs(others).max()), 0.0, abs_tol=1e-6)


# --- the stage inside search (the built-in corpus, its real index) ---


def _only(name: str) -> Ranker:
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index(name)] = 1.0
    return Ranker(FEATURES, tuple(weights))


def test_in_search_a_model_of_the_fused_score_alone_is_todays_order_and_one_of_bm25_reorders(
        searcher, builtin_corpus):
    from rulesjudge.indexer.search import Searcher

    question = "who becomes the monarch when the monarch leaves the game"
    today = [hit.id for hit in searcher.search(question, 10).hits]
    fused = Searcher(builtin_corpus, progress=False, ranker=_only("fused")).prepare()
    assert [hit.id for hit in fused.search(question, 10).hits] == today
    lexical = Searcher(builtin_corpus, progress=False, ranker=_only("bm25_rank_inv")).prepare()
    hits = lexical.search(question, 10).hits
    bm25_first = searcher.search(question, 1, method="bm25").hits[0].id
    assert hits[0].id == bm25_first  # BM25's first candidate, wherever the fusion had put it
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))  # still decreasing


def test_the_trainer_refuses_fewer_than_two_folds_in_one_line(capsys):
    from rulesjudge.indexer.train_ranker import main

    assert main(["--folds", "1"]) == 2
    assert capsys.readouterr().err.strip() == "rulesjudge: <input>: folds: --folds must be at least 2"
