"""The question set: big enough, covering every document, and every gold id a real record."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulesjudge.indexer.evaluate import AREAS, QUESTIONS_PATH, STYLES, Metrics, first_rank, load_questions
from rulesjudge.indexer.search import parse_query


@pytest.fixture(scope="module")
def questions():
    """The judge-written set alone (the real-question companions are checked below)."""
    return load_questions(QUESTIONS_PATH, companions=False)


def test_the_set_is_large_and_covers_every_area_and_style(questions):
    areas = Counter(question.area for question in questions)
    assert len(questions) >= 320
    assert set(areas) == set(AREAS)
    assert areas["card-note"] >= 30
    general = [question for question in questions if question.group == "general"]
    assert len(general) >= 130
    assert sum(1 for question in general if question.style == "sloppy") >= 30
    assert {question.style for question in questions} == set(STYLES)
    documents = {gold.split("@")[0] for question in questions for gold in question.gold}
    assert documents == {"cr", "rulings", "treachery", "monarch-wiki", "emperor-page", "player-page"}
    assert len({question.q.lower() for question in questions}) == len(questions)  # no duplicates


def test_dev_and_test_halves_are_balanced_per_group(questions):
    for group in ("general", "seed"):
        halves = Counter(q.split for q in questions if q.group == group)
        assert abs(halves["dev"] - halves["test"]) <= 2, (group, halves)


def test_exact_and_old_number_questions_are_numbers(questions):
    for question in questions:
        if question.area in {"exact", "old-number"} and "initiative" not in question.q:
            assert parse_query(question.q).refs, question.q


BUILTIN_CR = "cr@2026-04-17/"


def test_every_gold_id_exists_in_the_builtin_corpus(questions, builtin_corpus, search_data):
    records = builtin_corpus.records
    if not any(record_id.startswith(BUILTIN_CR) for record_id in records):  # until the CR is built in
        from rulesjudge.corpus.store import load_corpus

        release = Path(__file__).resolve().parents[3] / "shared" / "cr" / "cr-2026-04-17.txt"
        if not release.is_file():
            pytest.skip(f"the 2026-04-17 release is neither built in nor at {release}")
        records = load_corpus(releases=[release], include_user_releases=False).records
    missing = [(q.q, gold) for q in questions if not q.needs_releases for gold in q.gold
               if gold not in records]
    assert missing == []


def test_gold_ids_of_old_number_questions_exist_with_the_releases(questions, shared_cr_dir, search_data):
    from rulesjudge.corpus.store import load_corpus

    corpus = load_corpus(releases=[shared_cr_dir / "cr-2024-06-07.txt"], include_user_releases=False)
    missing = [gold for q in questions if q.needs_releases for gold in q.gold if gold not in corpus.records]
    assert missing == []


def test_questions_are_paraphrased_not_copied(questions, builtin_corpus):
    """No question repeats eight consecutive words of its gold record's text."""
    for question in questions:
        words = question.q.lower().split()
        grams = {" ".join(words[i:i + 8]) for i in range(len(words) - 7)}
        for gold in question.gold:
            record = builtin_corpus.records.get(gold)
            if record is not None:
                text = " ".join(record.text.lower().split())
                assert not any(gram in text for gram in grams), question.q


def test_metrics_arithmetic():
    metrics = Metrics([1, 3, None, 6])
    assert metrics.recall(1) == 0.25 and metrics.recall(5) == 0.5 and metrics.recall(10) == 0.75
    assert metrics.mrr == pytest.approx((1 + 1 / 3 + 1 / 6) / 4)
    assert first_rank(["a", "b", "c"], {"c", "x"}) == 3 and first_rank(["a"], {"z"}) is None


def test_the_real_question_sets_are_their_own_groups_with_sources():
    from rulesjudge.indexer.evaluate import COMPANION_SETS

    everything = load_questions()
    present = {group for group, path in COMPANION_SETS.items() if path.exists()}
    assert {q.group for q in everything} >= present
    for question in everything:
        if question.group in ("real", "real-cards"):
            assert question.source and question.source.startswith("http"), question.q
    for group in present:  # each set keeps its own dev/test halves, by position
        halves = Counter(q.split for q in everything if q.group == group)
        assert abs(halves["dev"] - halves["test"]) <= 1, (group, halves)


def test_a_real_question_without_its_source_is_one_line_naming_file_and_key(tmp_path):
    from rulesjudge.common.errors import InputError
    from rulesjudge.indexer.evaluate import read_question_set

    path = tmp_path / "questions_real.yaml"
    path.write_text('- {q: "who wins", area: concepts, gold: [cr@2026-04-17/104.2]}\n', encoding="utf-8")
    with pytest.raises(InputError) as raised:
        read_question_set(path, "real")
    assert str(path) in str(raised.value) and "[0].source" in str(raised.value)
    assert read_question_set(path)[0].group == "general"  # the judge-written set needs none


def test_card_rulings_count_in_any_snapshot_and_on_the_first_screen():
    from types import SimpleNamespace

    from rulesjudge.indexer.evaluate import on_first_screen, same_card_record

    # why: a ruling is the same ruling in a newer snapshot with the same local id (cards contract)
    assert same_card_record("cards@2026-07-09/ruling/x/2", "cards@2027-01-01/ruling/x/2")
    ruling = SimpleNamespace(id="cards@2027-01-01/ruling/x/2")
    other = SimpleNamespace(id="cards@2027-01-01/ruling/x/1")
    shown = [SimpleNamespace(rulings=[(other, 1.0), (other, 0.5), (other, 0.2), (ruling, 0.1)])]
    assert not on_first_screen(6, shown, ["cards@2026-07-09/ruling/x/2"])  # fourth ruling: not shown
    shown[0].rulings.insert(0, (ruling, 2.0))
    assert on_first_screen(None, shown, ["cards@2026-07-09/ruling/x/2"])
    assert on_first_screen(5, [], [])  # a deciding rule in the top five
