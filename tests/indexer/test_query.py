"""The judge's lexicon: a data file, read with one-line errors, applied longest phrase first."""

from __future__ import annotations

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.indexer.query import LEXICON_PATH, Lexicon, Vocabulary, load_lexicon, rewrite


def test_the_shipped_lexicon_loads_and_covers_the_table_talk_of_the_issue():
    lexicon = load_lexicon(LEXICON_PATH)
    phrases = {" ".join(key) for key in (*lexicon.replace, *lexicon.add)}
    for word in ("crown", "king", "scoop", "mull", "fizzle", "bounce", "cmdr", "edh", "2hg", "goes first",
                 "turn player", "how big"):
        assert word in phrases, word


@pytest.mark.parametrize("question", [
    "What happens if you cast a spell on an invalid target?",
    "the only target of my spell was exiled in response, what happens to the spell",
    "my target is gone, does my bolt still deal damage",
])
def test_a_target_gone_before_resolution_reads_as_the_rules_illegal_target(question):
    # why: 608.2b, on resolution a spell checks its targets; one no longer there is illegal
    text = rewrite(question, load_lexicon(LEXICON_PATH)).text
    assert "illegal" in text.split() and question.split()[0] in text


def test_commander_damage_reads_as_the_rules_words_for_it():
    # why: 903.10a never says "commander damage": "21 or more combat damage by the same commander"
    text = rewrite("does damage from my commander's ability count as commander damage",
                   load_lexicon(LEXICON_PATH)).text
    assert "combat damage by the same commander" in text


def test_attacking_a_planeswalker_reads_as_announcing_whom_each_creature_attacks():
    # why: 508.1b, the active player announces which player, planeswalker or battle each creature attacks
    text = rewrite("can my bear attack a planeswalker instead", load_lexicon(LEXICON_PATH)).text
    assert "announces which player planeswalker or battle" in text


def test_a_token_off_the_battlefield_reads_as_ceasing_to_exist():
    # why: 111.7/704.5d, a token in a zone other than the battlefield ceases to exist
    text = rewrite("my opponent killed my token, can I get the token in the graveyard back",
                   load_lexicon(LEXICON_PATH)).text
    assert "ceases to exist" in text


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


@pytest.mark.parametrize(("question", "said"), [
    # why: a player who "dies" has lost and left the game (800.4a, 104.3a), not gone to a graveyard (700.4)
    ("monarch guy dies on my turn who gets it", "leaves the game"),
    ("In a free-for-all, what happens when someone dies?", "leaves the game"),
    ("what happens to enchantments when player dies?", "leaves the game"),
    ("the owner then got killed, does my stolen creature stay?", "left the game"),
    ("Can Heartless Hidetsugu kill opponents by dealing 21 damage?", "lose the game"),
])
def test_a_player_who_dies_has_left_the_game(question, said):
    rewritten = rewrite(question, load_lexicon(LEXICON_PATH)).text
    assert said in rewritten and "graveyard" not in rewritten


@pytest.mark.parametrize("question", [
    "my commander dies, can I put it in the command zone",  # why: 700.4, a creature card dies
    "the creature dies and the token too",
    "I kill the creature with a bolt",
])
def test_a_creature_that_dies_keeps_the_graveyard_sense(question):
    rewritten = rewrite(question, load_lexicon(LEXICON_PATH)).text
    assert "leave the game" not in rewritten and "leaves the game" not in rewritten


@pytest.mark.parametrize(("question", "words"), [
    ("does 21 damage from any source kill", {"commander"}),  # why: 903.10a, 21 combat damage by a commander
    ("15 poison in 2hg", {"two-headed", "giant"}),  # why: 810.10/704.6b, fifteen poison counters per team
    ("start at 40 life?", {"commander"}),  # why: 903.7, each player's life total is 40
])
def test_numbers_that_name_a_rules_fact_bring_its_words(question, words):
    assert words <= set(rewrite(question, load_lexicon(LEXICON_PATH)).text.split())


def test_a_malformed_senses_section_is_one_line_naming_the_file(tmp_path):
    path = tmp_path / "lexicon.yaml"
    path.write_text("terms: {}\nsenses: {players: player}\n", encoding="utf-8")
    load_lexicon.cache_clear()
    try:
        with pytest.raises(InputError) as raised:
            load_lexicon(path)
    finally:
        load_lexicon.cache_clear()
    assert str(path) in str(raised.value) and "senses.players" in str(raised.value)


@pytest.mark.parametrize(("question", "words"), [
    # why: "how does X work" asks about X; 805.5 ("Teams have priority") answers the first, and a rule's
    # "works" ("each works separately", 702.x multiple instances) says nothing about its subject
    ("How does priority work in Two-Headed Giant?", ["prioriti", "two", "head", "giant"]),
    ("How do poison counters work in Two-Headed Giant?", ["poison", "counter", "two", "head", "giant"]),
    ("does the golem's last ability work while it's face down",
     ["golem", "last", "abil", "while", "face", "down"]),
])
def test_work_asks_rather_than_says_for_bm25(question, words):
    # real questions: issue 22's set (questions_real.yaml, gowanusballroom.com) and questions.yaml
    from rulesjudge.indexer.lexical import tokenize

    assert tokenize(question) == words
