"""The rules adapter: pairs read off the corpus (never the question set), a LoRA delta trained
reproducibly, merged into the model at load, and hashed into the model's identity."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rulesjudge.corpus.errors import InputError
from rulesjudge.indexer import adapt
from rulesjudge.indexer.adapt import Pair, batches, training_pairs


@pytest.fixture(scope="module")
def pairs(builtin_corpus) -> list[Pair]:
    return training_pairs(builtin_corpus.records)


def test_pairs_come_from_the_corpus_of_every_kind_and_never_from_the_question_set(pairs, builtin_corpus):
    from rulesjudge.indexer.evaluate import load_questions

    kinds = {pair.kind for pair in pairs}
    assert {"term", "term-rule", "definition-rule", "title", "example", "card"} <= kinds
    questions = {" ".join(q.q.lower().split()) for q in load_questions()}
    assert not any(" ".join(pair.anchor.lower().split()) in questions for pair in pairs)
    assert training_pairs(builtin_corpus.records) == pairs  # the same corpus, the same pairs


def test_a_glossary_term_is_paired_with_its_definition_and_the_rule_it_cites(pairs):
    trample = [pair for pair in pairs if pair.anchor == "Trample"]
    assert any(p.kind == "term" and p.positive.startswith("Glossary: Trample") for p in trample)
    # why: the glossary's "See rule 702.19" names a title-only rule; 702.19a is its first real rule
    cited = next(p for p in trample if p.kind == "term-rule")
    assert "Trample is a static ability" in cited.positive and cited.negative  # a sibling to tell apart


def test_a_title_shared_by_several_places_is_no_pair(pairs):
    assert not [pair for pair in pairs if pair.kind == "title" and pair.anchor == "General"]


def test_no_text_appears_twice_in_a_batch():
    pairs = [Pair("t", f"a{i % 5}", f"p{i % 7}", f"p{(i + 1) % 7}" if i % 2 else "") for i in range(60)]
    for batch in batches(pairs, 8, random.Random(3)):
        texts = [t for p in batch for t in (p.anchor, p.positive, p.negative) if t]
        assert len(texts) == len(set(texts))


def test_merging_the_factors_gives_the_trained_layers_output():
    import torch

    torch.manual_seed(0)
    model = torch.nn.ModuleDict({"proj": torch.nn.Linear(6, 5)})
    a, b = torch.randn(2, 6), torch.randn(5, 2)
    layer = adapt._lora_layer(model["proj"], 2, 4.0, torch.Generator().manual_seed(0))
    with torch.no_grad():
        layer.lora_a.copy_(a)
        layer.lora_b.copy_(b)
    x = torch.randn(3, 6)
    expected = layer(x).detach()
    adapter = adapt.Adapter({"proj": (a.numpy(), b.numpy())}, {"rank": 2, "alpha": 4.0}, "0" * 64)
    adapt.merge(model, adapter)
    assert torch.allclose(model["proj"](x), expected, atol=1e-5)


def test_the_adapter_file_round_trips_and_a_damaged_one_is_one_line(tmp_path):
    path = tmp_path / "lora.safetensors"
    factors = {"encoder.layer.0.attention.self.query": (np.ones((2, 4)), np.full((4, 2), 0.5))}
    digest = adapt.write_adapter(path, factors, {"rank": 2, "alpha": 4.0, "base_model_sha256": "x"})
    found = adapt.read_adapter(path)
    assert found is not None and found.sha256 == digest and found.scale == 2.0
    assert float(found.factors["encoder.layer.0.attention.self.query"][1][0, 0]) == 0.5
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(InputError, match="unreadable LoRA adapter"):
        adapt.read_adapter(path)


def test_training_is_reproducible_and_moves_the_factors(pairs):
    from rulesjudge.indexer.embed import bundled_model_path, load_model

    model = load_model(bundled_model_path())
    small = [pair for pair in pairs if pair.kind == "term"][:8]
    settings = adapt.TrainingSettings(batch=4, positive_tokens=32, anchor_tokens=16)
    first = adapt.train(small, model, settings)
    second = adapt.train(small, model, settings)
    assert first.keys() == second.keys() and len(first) == 6 * len(adapt.TARGETS)
    assert all(np.array_equal(first[k][0], second[k][0]) and np.array_equal(first[k][1], second[k][1])
               for k in first)
    assert any(np.abs(b).max() > 0 for _a, b in first.values())  # B starts at zero and was trained
