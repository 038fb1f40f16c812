"""The bundled model's identity, and what a chunk carries (context, examples, stable cache keys)."""

from __future__ import annotations

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import Record
from rulesjudge.indexer.chunks import corpus_hash, dense_texts, make_chunk, make_chunks, split_sentences
from rulesjudge.indexer.embed import BUNDLED_WEIGHTS_SHA256, model_hash, model_path, sha256_file


def test_bundled_weights_are_all_minilm_l6_v2():
    weights = model_path() / "model.safetensors"
    assert sha256_file(weights) == BUNDLED_WEIGHTS_SHA256
    assert BUNDLED_WEIGHTS_SHA256 == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def test_model_hash_is_memoised_in_the_data_folder(data_dir):
    assert model_hash() == BUNDLED_WEIGHTS_SHA256
    assert (data_dir / "index" / "model-hashes.json").is_file()
    assert model_hash() == BUNDLED_WEIGHTS_SHA256  # second call reads the memo


def test_model_folder_is_configurable_and_a_bad_one_is_input_error(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESJUDGE_MODEL", str(tmp_path / "nowhere"))
    with pytest.raises(InputError, match="RULESJUDGE_MODEL"):
        model_path()
    monkeypatch.setenv("RULESJUDGE_MODEL", str(tmp_path))  # a folder, but no weights in it
    with pytest.raises(InputError, match="not a local sentence-transformers model folder"):
        model_path()


def test_a_subrule_is_embedded_with_its_section_parent_and_example(builtin_corpus):
    records = builtin_corpus.records
    chunk = make_chunk(records["cr@2022-04-29/809.3c"], records)
    assert "Emperor Variant" in chunk.dense_text  # the section title
    assert "uses the following default options" in chunk.dense_text  # the parent rule 809.3
    assert "seated immediately next to them" in chunk.dense_text  # the subrule itself
    assert "neither emperor can attack" in chunk.dense_text  # its example
    assert chunk.lexical_text.startswith("809.3c")  # numbers are searchable words


def test_each_sentence_of_a_long_rule_is_embedded_with_its_section_title(builtin_corpus):
    records = builtin_corpus.records
    chunk = make_chunk(records["cr@2026-04-17/509.1a"], records)
    step = "Declare Blockers Step."
    assert chunk.sentences == (
        f"{step} The defending player chooses which creatures they control, if any, will block.",
        f"{step} The chosen creatures must be untapped and they can’t also be battles.",
        f"{step} For each of the chosen creatures, the defending player chooses one creature for it to block"
        " that’s attacking that player, a planeswalker they control, or a battle they protect.")
    emperor = make_chunk(records["cr@2022-04-29/809.3c"], records)  # one sentence and an example
    assert emperor.sentences[0] == ("Emperor Variant. A player can attack only an opponent seated "
                                    "immediately next to them.")
    assert emperor.sentences[1].startswith("Emperor Variant. Example:")
    single = make_chunk(records["cr@2026-04-17/702.15f"], records)  # one sentence: its chunk says it
    assert single.sentences == ()
    texts = dense_texts([chunk, emperor, single])
    assert len(texts) == 3 + len(chunk.sentences) + len(emperor.sentences)


def test_sentences_end_at_a_full_stop_before_a_capital_not_inside_a_number():
    text = ("If a spell is copied, the copy is put on the stack (see rule 707.10). It isn’t cast. "
            "“Exile it.” Then the game continues! Is that all? Yes.")
    assert split_sentences(text) == [  # "“Exile it.”" and "Yes." are under three words: left out
        "If a spell is copied, the copy is put on the stack (see rule 707.10).", "It isn’t cast.",
        "Then the game continues!", "Is that all?"]


def test_card_notes_glossary_and_rulings_are_chunks_of_their_own(builtin_corpus):
    records = builtin_corpus.records
    note = make_chunk(records["treachery@4.0/note/the-metamorph"], records)
    assert "The Metamorph (Traitor)" in note.dense_text
    glossary = make_chunk(records["cr@2022-04-29/glossary/general"], records)
    assert glossary.dense_text.startswith("Glossary: General.")
    ids = {chunk.id for chunk in make_chunks(records)}
    assert "rulings@2022-10-14/ruling/the-game-starts-with-no-monarch" in ids
    assert len(ids) == len(records)


def test_the_same_rule_in_two_editions_shares_one_embedding_key():
    def rule(edition: str, number: str) -> Record:
        return Record(f"cr@{edition}/{number}", "cr", edition, "rule", "If the monarch leaves the game, ...",
                      number=number)

    old, new = rule("2020-06-01", "718.4"), rule("2024-06-07", "722.4")
    old_chunk = make_chunk(old, {old.id: old})
    new_chunk = make_chunk(new, {new.id: new})
    assert old_chunk.key == new_chunk.key  # renumbered, same text: embedded once
    assert old_chunk.lexical_text != new_chunk.lexical_text
    assert corpus_hash([old_chunk]) != corpus_hash([new_chunk])
