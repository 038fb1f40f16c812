"""Variants: a question naming a variant prefers its rules; one that doesn't, the general rules."""

from __future__ import annotations

import pytest

from rulesjudge.indexer.scopes import Scopes
from rulesjudge.indexer.search import FusionParams, QuestionFacts


@pytest.fixture(scope="module")
def scopes(builtin_corpus) -> Scopes:
    return Scopes.of(builtin_corpus.records)


@pytest.mark.parametrize(("record_id", "scope"), [
    ("cr@2026-04-17/810.8d", "two-headed giant"),  # why: 810 is the Two-Headed Giant Variant section
    ("cr@2026-04-17/903.10a", "commander"),  # why: 903 is Commander
    ("cr@2026-04-17/809.3c", "emperor"),  # why: 809 is the Emperor Variant
    ("emperor-page@2022-04-29/section/gameplay", "emperor"),  # why: the whole page is about Emperor
    ("treachery@4.0/907.7", "treachery"),  # why: the Treachery rules are one variant
    ("cr@2026-04-17/704.5c", None),  # why: 704.5c (ten poison counters) is a general state-based action
    ("cr@2026-04-17/800.4a", None),  # why: 800 is the general multiplayer section, not a variant
])
def test_each_record_belongs_to_its_variant_or_to_none(scopes, record_id, scope):
    assert scopes.scope_of(record_id) == scope


@pytest.mark.parametrize(("question", "named"), [
    # why: 810.2 "The Two-Headed Giant variant uses the shared team turns option. (See rule 805.)"
    ("how many poison counters does a two-headed giant team need to lose",
     {"two-headed giant", "shared team turns"}),
    # why: 809.3b "Emperor games use the deploy creatures option (see rule 804)", 809.3a limited range
    ("can the emperor attack on turn one", {"emperor", "deploy creatures", "limited range of influence"}),
    ("21 commander damage from one creature?", {"commander"}),
    ("the leader died, do the guardians lose too", {"treachery"}),  # why: Treachery's roles name it
    ("can the oracle's owner be attacked", {"treachery"}),  # why: an identity card's name names it
    ("how many poison counters does it take to lose", set()),
    ("what goes to the command zone", set()),  # why: the command zone is not the Commander variant
])
def test_a_question_names_a_variant_by_its_words(scopes, question, named):
    assert scopes.named(question) == named


def test_the_variant_named_by_the_question_goes_first_and_an_unnamed_one_after_the_general_rule(searcher):
    general, variant = "cr@2026-04-17/704.5c", "cr@2026-04-17/810.8d"
    fused = [(variant, 0.60), (general, 0.58)]  # a variant rule sharing more words with the question
    params = FusionParams(scope_lift=0.3, variant_penalty=0.05, sibling_penalty=0.0)
    unnamed = searcher.adjust(fused, params, QuestionFacts())
    assert [rid for rid, _ in unnamed] == [general, variant]
    named = searcher.adjust(list(reversed(fused)), params, QuestionFacts(frozenset({"two-headed giant"})))
    assert [rid for rid, _ in named] == [variant, general]


@pytest.mark.parametrize(("question", "answers"), [
    # why: 809.4, "Randomly determine which emperor goes first" — not 103's general starting player
    ("does the emperor get to play first", {"cr@2026-04-17/809.4"}),
    # why: Treachery 907.7, the Leader is the starting player — not CR 103.1's random choice
    ("in a treachery game who starts", {"treachery@4.0/907.7"}),
])
def test_a_question_naming_a_variant_is_answered_by_the_variants_rule(searcher, searcher_without_expansion,
                                                                     question, answers):
    hits = searcher_without_expansion.search(question, k=2).hits
    assert answers & {hit.id for hit in hits}
    assert all(searcher.scopes.scope_of(hit.id) for hit in hits)
    # with the training questions (round 7b) "who starts" also reads 907.6's "starting life in
    # treachery" questions: the Leader's 907.7 is third, behind 907.6 and 907.2a, all Treachery's
    hits = searcher.search(question, k=3).hits
    assert answers & {hit.id for hit in hits}
    assert all(searcher.scopes.scope_of(hit.id) for hit in hits)


def test_version_history_is_left_behind_unless_asked_about(searcher):
    history = "treachery@4.0/history/1.0"
    fused = [(history, 0.6), ("treachery@4.0/907.7", 0.5)]
    params = FusionParams(history_penalty=0.2, sibling_penalty=0.0)
    assert searcher.adjust(fused, params, searcher.facts("who goes first in treachery"))[0][0] != history
    asked = searcher.facts("what changed in the first revision")
    assert searcher.adjust(fused, params, asked)[0][0] == history


def test_a_variant_name_the_rules_never_write_in_lower_case_is_a_proper_name(scopes):
    # why: 810 always writes "Two-Headed Giant"; 809.2 speaks of "an emperor" and 904 of "the archenemy",
    # who are players as well as variants
    assert "two-headed giant" in scopes.proper_names
    assert not {"emperor", "archenemy"} & scopes.proper_names
    named = scopes.named("in two-headed giant who declares attackers")
    assert "two" not in scopes.without_option_users("in two-headed giant who declares attackers", named)
    named = scopes.named("can the emperor attack a general")
    assert scopes.without_option_users("can the emperor attack a general", named) == \
        "can the emperor attack a general"


def test_a_two_headed_giant_combat_question_is_answered_by_the_shared_team_turns_rule(searcher):
    # why: 810.7 "The Two-Headed Giant variant uses the combat rules for the shared team turns option";
    # 805.10b "As the declare attackers step begins, the active team declares attackers"
    hits = searcher.search("in two-headed giant, who declares the attackers", k=3).hits
    assert hits[0].id == "cr@2026-04-17/805.10b"


@pytest.mark.parametrize(("record_id", "scope"), [
    # why: 903.12 "Brawl Option" and 903.13 "Commander Draft" are formats of their own inside 903
    ("cr@2026-04-17/903.12c", "brawl"),
    ("cr@2026-04-17/903.13a", "commander draft"),
    ("cr@2026-04-17/903.3", "commander"),
])
def test_a_format_inside_a_variant_section_is_a_scope_of_its_own(scopes, record_id, scope):
    assert scopes.scope_of(record_id) == scope


def test_a_commander_question_does_not_get_brawls_rule(searcher):
    # why: 903.3 says a commander is a legendary creature (or says it can be one); 903.12c is Brawl's
    hits = searcher.search("So, can I use any planeswalker as a commander now?", k=5).hits
    ids = [hit.id for hit in hits]
    assert "cr@2026-04-17/903.12c" not in ids[:3]
    assert {"cr@2026-04-17/903.3", "cr@2026-04-17/903.3a"} & set(ids)


def test_a_misspelt_variant_name_is_mended_before_the_scopes_are_read(searcher):
    mended = searcher.rewrite("emporer format, who takes the first turn")
    assert "emperor" in mended and "emperor" in searcher.scopes.named(mended)
    assert "commander" not in searcher.rewrite("does it go to the command zone")  # a word the rules know


def test_a_treachery_note_answers_only_questions_about_treachery(searcher):
    # why: 608.2b (an illegal target) decides; The Reflector's note is an identity card's, Treachery only
    hits = searcher.search("does my spell fizzle if they bounce the target", k=5).hits
    assert hits[0].id == "cr@2026-04-17/608.2b"
    assert not any(hit.document == "treachery" for hit in hits[:3])
