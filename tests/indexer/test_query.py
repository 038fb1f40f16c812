"""The judge's lexicon: a data file, read with one-line errors, applied longest phrase first."""

from __future__ import annotations

import pytest

from rulesjudge.corpus.errors import InputError
from rulesjudge.indexer.query import LEXICON_PATH, Lexicon, Vocabulary, load_lexicon, rewrite


def test_the_shipped_lexicon_loads_and_covers_the_table_talk_of_the_issue():
    lexicon = load_lexicon(LEXICON_PATH)
    phrases = {" ".join(key) for key in (*lexicon.replace, *lexicon.add)}
    for word in ("crown", "king", "scoop", "mull", "fizzle", "bounce", "cmdr", "edh", "2hg", "goes first",
                 "turn player", "how big"):
        assert word in phrases, word


def test_the_longest_phrase_wins_and_replace_differs_from_add():
    lexicon = Lexicon.from_mapping({"chump": {"add": "block"},
                                    "chump block": {"replace": "block with a creature"},
                                    "bounce": {"add": "return to owner's hand"}})
    assert rewrite("chump block a trampler", lexicon).text == "block with a creature a trampler"
    assert rewrite("bounce the token", lexicon).text == "bounce the token return to owner's hand"
    assert rewrite("nothing to change", lexicon).text == "nothing to change"


def test_typos_are_corrected_only_close_to_a_corpus_word():
    vocabulary = Vocabulary(["indestructible", "toughness", "commander", "monarch"])
    assert vocabulary.correct("indestructable") == "indestructible"  # 14 letters: distance 1
    assert vocabulary.correct("monarck") == "monarch"
    assert vocabulary.correct("sycophant") is None  # far from every corpus word: left alone
    assert vocabulary.correct("lich") is None  # short words are never guessed at


@pytest.mark.parametrize("text", ["terms: [a, b]", "terms: {crown: monarch}", "terms: {crown: {swap: x}}",
                                  "[1"])
def test_a_malformed_lexicon_is_one_line_naming_the_file(tmp_path, text):
    path = tmp_path / "lexicon.yaml"
    path.write_text(text, encoding="utf-8")
    load_lexicon.cache_clear()
    with pytest.raises(InputError) as raised:
        load_lexicon(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize(("question", "words"), [
    ("ten poison counters", {"ten", "10"}),  # why: 104.3d writes "ten or more poison counters"
    ("planeswalker at zero loyalty", {"0"}),  # why: 704.5i writes "loyalty 0"
    ("15 poison in 2hg", {"fifteen"}),  # why: 810.8d writes "fifteen or more poison counters"
    ("no loyalty counters left", {"0"}),
])
def test_numbers_are_read_as_words_and_digits(question, words):
    rewritten = rewrite(question, load_lexicon(LEXICON_PATH)).text
    assert words <= set(rewritten.split())


def test_single_digits_are_words_for_bm25():
    from rulesjudge.indexer.lexical import tokenize

    assert "0" in tokenize("If a planeswalker has loyalty 0, it's put into its owner's graveyard.")


@pytest.mark.parametrize(("question", "words"), [
    ("i got decked", {"library", "no", "cards"}),  # why: 704.5b, drawing from a library with no cards
    ("my partner is attacked", {"teammate"}),
    ("it just came in, can it attack", {"summoning", "sickness"}),  # why: 302.6
])
def test_table_talk_of_the_judges_check(question, words):
    assert words <= set(rewrite(question, load_lexicon(LEXICON_PATH)).text.split())
