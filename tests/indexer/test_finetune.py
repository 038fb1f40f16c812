"""The top-layer fine-tune of the embedding model (indexer/finetune.py; measured in docs/search.md
"Search round 7", not wired into search).

The split model must be the bundled model itself (the lower layers run once, the top layers on their
states give the vectors search would get), training must move only the layers it names, and the pairs
come from the training questions' gold and the rules' own glossary and examples.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rulesjudge.corpus.records import Record
from rulesjudge.indexer.chunks import make_chunks
from rulesjudge.indexer.evaluate import Question
from rulesjudge.indexer.finetune import batches, corpus_pairs, learning_rate, question_pairs

E = "cr@x/"


def _records() -> dict[str, Record]:
    rules = (
        Record(E + "104.3", "cr", "x", "rule", "There are several ways to lose the game.", number="104.3"),
        Record(E + "104.3a", "cr", "x", "subrule", "A player can concede the game at any time. A player who "
               "concedes leaves the game immediately. That player loses the game.", number="104.3a",
               parent=E + "104.3"),
        Record(E + "702.19b", "cr", "x", "subrule", "The controller of an attacking creature with trample "
               "first assigns damage to the creature(s) blocking it.", number="702.19b",
               examples=("Example: A 2/2 creature with trample is blocked by a 1/1 creature; 1 damage is "
                         "assigned to the blocker and 1 to the player.",)),
        Record(E + "glossary/monarch", "cr", "x", "glossary", "A designation a player can have. See rule "
               "725.", title="Monarch"),
    )
    return {r.id: r for r in rules}


def test_each_training_question_pairs_with_its_first_gold_in_the_corpus_never_a_card_ruling():
    records = _records()
    chunks = {c.id: c for c in make_chunks(records)}
    questions = [
        Question("can I scoop at instant speed", ("cards@2026-07-09/ruling/x/1", E + "104.3a", E + "104.3"),
                 "general"),
        Question("ruling only", ("cards@2026-07-09/ruling/x/1",), "cards"),  # no rule: no pair
    ]
    pairs = question_pairs(questions, chunks)
    assert pairs == [("can I scoop at instant speed", chunks[E + "104.3a"].dense_text)]  # 104.3a decides


def test_the_corpus_pairs_are_glossary_terms_and_rule_examples():
    records = _records()
    chunks = {c.id: c for c in make_chunks(records)}
    pairs = corpus_pairs(records, chunks)
    assert ("Monarch", chunks[E + "glossary/monarch"].dense_text) in pairs
    assert any(a.startswith("A 2/2 creature with trample") and b == chunks[E + "702.19b"].dense_text
               for a, b in pairs)
    assert len(pairs) == 2  # 104.3 and 104.3a have neither a title in the glossary nor an example


def test_batches_cover_every_pair_once_in_a_seeded_order():
    plan = batches(130, 64, seed=5)
    assert [len(b) for b in plan] == [64, 64, 2]
    assert sorted(i for b in plan for i in b) == list(range(130))
    assert plan == batches(130, 64, seed=5)


def test_the_learning_rate_warms_up_then_decays_to_zero():
    rates = [learning_rate(step, 40, 1.0) for step in range(40)]
    assert rates[:4] == [0.25, 0.5, 0.75, 1.0]  # 10 % of 40 steps: four of warm-up
    assert all(a >= b for a, b in itertools.pairwise(rates[3:])) and rates[-1] < 0.05


@pytest.fixture(scope="module")
def model():
    torch = pytest.importorskip("torch")
    from rulesjudge.indexer.embed import load_model, model_path

    torch.set_num_threads(2)
    return load_model(model_path())


def test_the_split_model_gives_the_bundled_models_vectors(model):
    import torch

    from rulesjudge.indexer.finetune import TopLayers

    texts = ["can I scoop whenever", "A player can concede the game at any time.", "monarch"]
    reference = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    split = TopLayers(model, 4)
    with torch.no_grad():
        vectors = split.encode(split.lower_states(texts)).numpy()
    assert np.allclose((reference * vectors).sum(axis=1), 1.0, atol=1e-4)  # fp16 states: to 1e-4


def test_training_moves_only_the_top_layers_and_pulls_each_question_to_its_answer(model):
    import copy

    import torch

    from rulesjudge.indexer.finetune import TopLayers, train

    pairs = [("can I scoop at instant speed", "A player can concede the game at any time."),
             ("who gets the extra card at end step", "The monarch draws a card at the beginning of their "
              "end step."),
             ("does my big trampler hit the player", "Excess combat damage of a creature with trample is "
              "assigned to the player."),
             ("what counts as a permanent", "A permanent is a card or token on the battlefield.")] * 4
    copy_of = copy.deepcopy(model)
    split = TopLayers(copy_of, 5)

    def agreement() -> float:
        with torch.no_grad():
            q = split.encode(split.lower_states([a for a, _ in pairs[:4]]))
            a = split.encode(split.lower_states([b for _, b in pairs[:4]]))
        return float((q * a).sum(dim=1).mean())

    before = agreement()
    lower = [p.detach().clone() for p in copy_of[0].auto_model.encoder.layer[4].parameters()]
    top = [p.detach().clone() for p in copy_of[0].auto_model.encoder.layer[5].parameters()]
    figures = train(copy_of, pairs * 4, layers=1, batch=8)
    assert figures["steps"] == 8
    assert all(torch.equal(a, b) for a, b in zip(lower, copy_of[0].auto_model.encoder.layer[4].parameters(),
                                                 strict=True))  # frozen
    assert any(not torch.equal(a, b) for a, b in zip(top, copy_of[0].auto_model.encoder.layer[5].parameters(),
                                                     strict=True))  # trained
    assert agreement() > before
