"""Search behaviour: exact numbers first, old numbers resolved and explained, fusion, filters, JSON."""

from __future__ import annotations

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.records import Record
from rulesjudge.corpus.store import StoredCorpus, corpus_of
from rulesjudge.indexer.search import Searcher, parse_query

REQUIRED = {"id": str, "number": (str, type(None)), "document": str, "edition": str, "kind": str,
            "title": str, "text": str, "score": float, "cross_refs": list}


def ids(result) -> list[str]:
    return [hit.id for hit in result.hits]


# --- exact numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "first"), [
    ("809.3c", "cr@2026-04-17/809.3c"),
    ("rule 907.11b", "treachery@4.0/907.11b"),
    ("CR 725.4.", "cr@2026-04-17/725.4"),
    ("722.4", "cr@2026-04-17/722.4"),  # the current rule with that number: Preparation Cards
    ("Rule 372.4b", "treachery@4.0/372.4b"),
    ("116.2tr", "treachery@4.0/116.2tr"),
])
def test_an_exact_number_answers_that_rule_first(searcher, query, first):
    result = searcher.search(query)
    assert result.exact and ids(result)[0] == first
    assert result.hits[0].match == "exact"


def test_a_number_without_period_brings_its_subrules_and_with_period_the_rule_alone(searcher):
    assert ids(searcher.search("809.3")) == ["cr@2026-04-17/809.3", "cr@2026-04-17/809.3a",
                                              "cr@2026-04-17/809.3b", "cr@2026-04-17/809.3c"]
    assert ids(searcher.search("CR 809.3.")) == ["cr@2026-04-17/809.3"]


def test_a_number_inside_a_question_comes_first_then_the_ranked_rules(searcher):
    result = searcher.search("what does 722.5 say about the monarch?", k=5)
    assert not result.exact
    # why: 722.5 is the Monarch's rule in the 2024 rules the Monarch page quotes; it is 725.5 now
    assert ids(result)[0] == "cr@2026-04-17/725.5"
    assert "cr@2026-04-17/722.5" in ids(result)  # why: the number's current meaning is shown too
    matches = [hit.match for hit in result.hits]
    assert len(result.hits) == 5 and "hybrid" in matches
    assert matches == sorted(matches, key=lambda m: m == "hybrid")  # numbers first, then the ranked rules
    assert result.hits[0].score > result.hits[1].score  # scores follow rank order


def test_an_unknown_number_says_so_without_guessing(searcher):
    result = searcher.search("999.9")
    assert result.hits == [] and result.notes == ["no loaded rule is numbered 999.9"]


def test_prefixes_and_periods_parse():
    assert parse_query("CR 722.4.").refs[0].alone and parse_query("CR 722.4.").refs[0].document == "cr"
    assert not parse_query("722.4").refs[0].alone
    assert parse_query("rules 809.3a and 809.3b").pure
    assert parse_query("2 players and 100 life").refs == ()  # bare small numbers are not rules
    assert parse_query("section 809").refs[0].number == "809"


def _synthetic_releases() -> StoredCorpus:
    """The monarch rule as numbered in 2020 (718.4) and 2024 (722.4); 718.4 in 2024 is another rule."""
    def rule(edition: str, number: str, text: str) -> Record:
        return Record(f"cr@{edition}/{number}", "cr", edition, "rule", text, number=number)

    text = "If the monarch leaves the game, the active player becomes the monarch."
    old, new = rule("2020-06-01", "718.4", text), rule("2024-06-07", "722.4", text)
    other = rule("2024-06-07", "718.4", "A prototype card has only its normal characteristics.")
    return corpus_of([old, new, other], links={old.id: [new.id]})


def test_an_old_number_resolves_through_the_cross_release_map_and_says_so():
    searcher = Searcher(_synthetic_releases(), progress=False, build=False)
    result = searcher.search("718.4")
    # the newest edition's 718.4 is another rule: it comes first, then the old 718.4 under its new number
    assert ids(result) == ["cr@2024-06-07/718.4", "cr@2024-06-07/722.4"]
    assert result.notes == ["718.4 is the 2020-06-01 number; in 2024-06-07 this rule is 722.4"]
    assert result.hits[1].match == "equivalent" and result.hits[1].note == result.notes[0]


def test_a_year_in_the_question_reads_the_number_in_that_edition():
    searcher = Searcher(_synthetic_releases(), progress=False, build=False)
    result = searcher.search("718.4 (2020)")
    assert result.exact  # a year is not a question: still the fast path
    # the 2020 rule under its current number, the 2020 text, then what 718.4 means today
    assert ids(result) == ["cr@2024-06-07/722.4", "cr@2020-06-01/718.4", "cr@2024-06-07/718.4"]
    assert result.notes[0] == "718.4 is the 2020-06-01 number; in 2024-06-07 this rule is 722.4"


def test_old_monarch_number_with_the_official_releases(shared_cr_dir, search_data):
    from rulesjudge.corpus.store import load_corpus

    releases = [shared_cr_dir / "cr-2020-06-01.txt", shared_cr_dir / "cr-2024-06-07.txt"]
    corpus = load_corpus(releases=releases, include_user_releases=False)
    searcher = Searcher(corpus, progress=False, build=False)
    result = searcher.search("718.4")
    assert "718.4 is the 2020-06-01 number; in 2026-04-17 this rule is 725.4" in result.notes
    assert "cr@2026-04-17/725.4" in ids(result)[:3]
    assert searcher.search("718.4", edition="2021-01-01").hits[0].id == "cr@2020-06-01/718.4"


# --- ranking ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "gold"), [
    ("can the emperor attack at the start of the game?", {"cr@2026-04-17/809.3c"}),
    ("what happens if the leader loses while I have the metamorph face up",
     {"treachery@4.0/note/the-metamorph"}),
    ("the monarch conceded during my turn, do I get the crown?",
     {"cr@2026-04-17/725.4", "rulings@2022-10-14/ruling/if-the-monarch-leaves-the-game"}),
])
def test_paraphrased_questions_find_their_rule_near_the_top(searcher, question, gold):
    assert gold & set(ids(searcher.search(question, k=3)))


def test_a_glossary_term_asked_about_is_answered_by_its_entry_or_the_rule_it_points_at(searcher):
    first = searcher.search("what is a general").hits[0]
    assert "cr@2026-04-17/glossary/general" in {first.id, *first.related}
    weights = dict(searcher.glossary_weights("can the emperor attack at the start"))
    assert 0 < weights["cr@2026-04-17/glossary/emperor"] < 1  # named, but not the whole question


def test_each_method_ranks_on_its_own(searcher):
    question = "which identity cards go into the command zone revealed at the start"
    for method in ("bm25", "dense", "hybrid"):
        result = searcher.search(question, k=5, method=method)
        assert len(result.hits) == 5 and all(hit.match == method for hit in result.hits)
        assert result.hits[0].document == "treachery"  # the CR's command-zone rules may follow
    fused = searcher.search(question, k=10).hits
    ranked = set(ids(searcher.search(question, k=100, method="bm25")))
    ranked |= set(ids(searcher.search(question, k=100, method="dense")))
    # fusion re-orders what the two methods found (a pointer shown with its rule); it invents nothing
    assert all({hit.id, *hit.related} & ranked for hit in fused)


# --- filters ---------------------------------------------------------------------------------------


def test_document_filter(searcher):
    result = searcher.search("who wins the game", document="treachery")
    assert result.hits and {hit.document for hit in result.hits} == {"treachery"}


def test_official_only_filter(searcher):
    result = searcher.search("what happens when a player leaves the game", official_only=True)
    assert result.hits and all(hit.official for hit in result.hits)
    assert {hit.document for hit in result.hits} <= {"cr", "rulings"}


def test_rules_as_of_a_date_keep_only_editions_in_force_then(searcher):
    result = searcher.search("who is the active player", k=20, edition="2016-01-01")
    # in force on 2016-01-01: the 2015 rules and the Player page; not Treachery 4.0 (2024) nor 722 (2024)
    assert result.hits and all(hit.edition in {"2015-07-17", "undated"} for hit in result.hits)
    assert not searcher.search("722.4", edition="2016-01-01").hits
    named = searcher.search("unveil", edition="4.0")
    assert named.hits and {hit.document for hit in named.hits} == {"treachery"}


@pytest.mark.parametrize(("kwargs", "key"), [
    ({"document": "nope"}, "document"),
    ({"edition": "2024-13-01"}, "edition"),
    ({"edition": "yesterday"}, "edition"),
])
def test_bad_filters_are_input_errors(searcher, kwargs, key):
    with pytest.raises(InputError) as raised:
        searcher.search("monarch", **kwargs)
    assert raised.value.key == key and "\n" not in str(raised.value)


def test_an_empty_question_is_an_input_error(searcher):
    with pytest.raises(InputError, match="empty question"):
        searcher.search("   ")


# --- hits --------------------------------------------------------------------------------------------


def test_hits_honour_the_json_contract(searcher):
    for question in ("809.3c", "can teammates pool their mana in emperor"):
        for hit in searcher.search(question, k=5).hits:
            data = hit.to_json()
            for key, kind in REQUIRED.items():
                assert isinstance(data[key], kind), (key, data[key])
            assert all(searcher.records.get(target) for target in data["cross_refs"])


def test_hits_carry_citation_parent_context_and_resolved_cross_refs(searcher):
    hit = searcher.search("CR 809.3a.").hits[0]
    assert hit.citation == "CR 809.3a (2026-04-17)" and hit.official
    assert hit.parent == "cr@2026-04-17/809.3"
    assert "809. Emperor Variant" in hit.context and "default options" in hit.context
    fan_made = searcher.search("rule 907.11b").hits[0]
    assert not fan_made.official and fan_made.document == "treachery"
    with_refs = [h for h in searcher.search("809.5", k=5).hits if h.cross_refs]
    assert all(ref.startswith(("cr@", "treachery@")) for h in with_refs for ref in h.cross_refs)


def test_a_year_in_a_longer_question_keeps_the_resolved_rule_first():
    searcher = Searcher(_synthetic_releases(), progress=False, build=False)
    searcher.ranked = lambda *args, **kwargs: []  # no index here: ranking adds nothing
    result = searcher.search("what was rule 718.4 in the 2020 comprehensive rules")
    assert not result.exact and ids(result)[0] == "cr@2024-06-07/722.4"


# --- pointers, headings and variants (synthetic records: the rules as the 2026 release words them) ---


def _keyword_rules() -> StoredCorpus:
    def rec(local: str, kind: str, text: str, **fields) -> Record:
        return Record(f"cr@2026-04-17/{local}", "cr", "2026-04-17", kind, text, **fields)

    from rulesjudge.corpus.records import CrossRef

    sub = "cr@2026-04-17/702.19"
    return corpus_of([
        rec("702", "section", "Keyword Abilities", number="702", title="Keyword Abilities",
            children=(sub,)),
        rec("702.19", "rule", "Trample", number="702.19", parent="cr@2026-04-17/702",
            children=(f"{sub}a", f"{sub}b", f"{sub}c")),
        rec("702.19a", "subrule", "Trample is a static ability.", number="702.19a", parent=sub),
        rec("702.19b", "subrule", "The controller of an attacking creature with trample first assigns damage "
            "to the creatures blocking it.", number="702.19b", parent=sub),
        rec("702.19c", "subrule", "Trample over planeswalkers is a variant of trample.", number="702.19c",
            parent=sub),
        rec("glossary/trample", "glossary", "A keyword ability. See rule 702.19, “Trample.”", title="Trample",
            cross_refs=(CrossRef("rule 702.19", "702.19", sub),)),
        rec("101.4", "rule", "The active player makes any choices required first.", number="101.4"),
        rec("600", "section", "General", number="600", title="General"),
        rec("glossary/active-player-nonactive-player-order", "glossary", "A system. See rule 101.4.",
            title="Active Player, Nonactive Player Order",
            cross_refs=(CrossRef("rule 101.4", "101.4", "cr@2026-04-17/101.4"),)),
        rec("glossary/apnap-order", "glossary", "See Active Player, Nonactive Player Order.",
            title="APNAP Order"),
    ])


def test_a_glossary_entry_and_a_redirect_point_at_the_rule_they_name():
    searcher = Searcher(_keyword_rules(), progress=False, build=False)
    # "Trample" -> 702.19, a title only -> its first subrule that says something (702.19a is a label)
    assert searcher.fold_target("cr@2026-04-17/glossary/trample") == "cr@2026-04-17/702.19b"
    assert searcher.fold_target("cr@2026-04-17/glossary/apnap-order") == "cr@2026-04-17/101.4"
    assert searcher.fold_target("cr@2026-04-17/702.19a") == "cr@2026-04-17/702.19b"
    assert searcher.is_heading("cr@2026-04-17/702") and searcher.is_heading("cr@2026-04-17/702.19")
    assert searcher.is_heading("cr@2026-04-17/600")  # "600. General": a title, whatever hangs under it
    assert not searcher.is_heading("cr@2026-04-17/702.19b")


def test_a_pointer_is_shown_with_its_rule_not_in_its_place():
    from rulesjudge.indexer.search import Filters

    searcher = Searcher(_keyword_rules(), progress=False, build=False)
    glossary, variant, rule = ("cr@2026-04-17/glossary/trample", "cr@2026-04-17/702.19c",
                               "cr@2026-04-17/702.19b")
    ranked = [(glossary, 1.0), ("cr@2026-04-17/702.19", 0.95), (variant, 0.9), (rule, 0.5)]
    # "what is trample": the entry is the answer, so its rule takes its place (heading left out)
    asked = searcher.fold(ranked, Filters(), defining={glossary})
    assert [(rid, related) for rid, _, related in asked] == [(rule, (glossary,)), (variant, ())]
    # a question that only mentions trample: the entry lifts nothing, it is listed with its rule
    mentioned = searcher.fold(ranked, Filters())
    assert [rid for rid, _, _ in mentioned] == [variant, rule] and mentioned[1][2] == (glossary,)


def test_the_general_subrule_comes_before_its_variant_when_both_are_candidates():
    from rulesjudge.indexer.search import FusionParams

    searcher = Searcher(_keyword_rules(), progress=False, build=False)
    fused = [("cr@2026-04-17/702.19c", 0.52), ("cr@2026-04-17/702.19b", 0.50)]
    assert searcher.adjust(fused, FusionParams(sibling_penalty=0.05))[0][0] == "cr@2026-04-17/702.19b"
    assert searcher.adjust(fused, FusionParams(sibling_penalty=0.0))[0][0] == "cr@2026-04-17/702.19c"
    alone = searcher.adjust(fused[:1], FusionParams(sibling_penalty=0.05))  # no earlier sibling: no change
    assert alone == [("cr@2026-04-17/702.19c", 0.52)]


# --- table talk --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "words"), [
    ("crown goes where when the king scoops", {"monarch", "concedes"}),
    ("exilled comander can go back to comand zone?", {"exiled", "commander", "command"}),
    ("cmdr dmg 21?", {"commander", "damage"}),
    ("2hg life total?", {"two-headed", "giant"}),
])
def test_table_talk_and_typos_become_the_rules_words(searcher, question, words):
    assert words <= set(searcher.rewrite(question).lower().replace("?", "").split())


def test_a_card_name_is_not_corrected_into_another_word(searcher):
    assert searcher.rewrite("what does Garrulous Sycophant do") == "what does Garrulous Sycophant do"


def _rec(local: str, kind: str, text: str, **fields) -> Record:
    return Record(f"cr@2026-04-17/{local}", "cr", "2026-04-17", kind, text, **fields)


def test_a_subrule_that_only_classifies_a_keyword_is_shown_with_the_rule_that_says_how():
    # 702.4a says what kind of ability double strike is and points at rule 510; 702.4b says what it does
    rule = "cr@2026-04-17/702.4"
    searcher = Searcher(corpus_of([
        _rec("702.4", "rule", "Double Strike", number="702.4", children=(f"{rule}a", f"{rule}b")),
        _rec("702.4a", "subrule", "Double strike is a static ability that modifies the rules for the combat "
             "damage step. (See rule 510, “Combat Damage Step.”)", number="702.4a", parent=rule),
        _rec("702.4b", "subrule", "If at least one attacking or blocking creature has first strike or double "
             "strike as the combat damage step begins, the only creatures that assign combat damage in that "
             "step are those with first strike or double strike.", number="702.4b", parent=rule),
    ]), progress=False, build=False)
    assert searcher.fold_target(f"{rule}a") == f"{rule}b"
    assert searcher.fold_target(rule) == f"{rule}b"  # the title rule skips the label too


def _deck_rules() -> StoredCorpus:
    rule = "cr@2026-04-17/903.5"
    return corpus_of([
        _rec("903.5", "rule", "Each Commander deck is subject to the following deck construction rules.",
             number="903.5", children=(f"{rule}a", f"{rule}b")),
        _rec("903.5a", "subrule", "Each deck must contain exactly 100 cards, including its commander.",
             number="903.5a", parent=rule),
        _rec("903.5b", "subrule", "Other than basic lands, each card in a Commander deck must have a "
             "different English name.", number="903.5b", parent=rule),
    ])


def test_a_list_rule_hands_its_place_to_a_close_subrule_and_keeps_it_when_the_list_is_asked_about():
    from rulesjudge.indexer.search import FusionParams

    searcher = Searcher(_deck_rules(), progress=False, build=False)
    params = FusionParams(intro_handover=0.01, sibling_penalty=0.0)
    rule, item = "cr@2026-04-17/903.5", "cr@2026-04-17/903.5a"
    # "how many cards in a commander deck": the item is nearly as close as the list rule -> the item first
    close = searcher.adjust([(rule, 0.80), (item, 0.75)], params)
    assert [rid for rid, _ in close] == [item, rule]
    # "what are the deck construction rules": the items are far behind -> the list rule answers
    far = searcher.adjust([(rule, 0.80), (item, 0.30)], params)
    assert [rid for rid, _ in far] == [rule, item]


def test_a_quoted_term_is_what_the_question_asks_about(searcher):
    # why: 109.5 says what "you" on an object means; the Two-Headed Giant words must not bury it
    hits = searcher.search("When a card says 'you', does that refer only to me or to my whole "
                           "Two-Headed Giant team?", k=5).hits
    assert "cr@2026-04-17/109.5" in {hit.id for hit in hits}


def test_a_rule_players_call_by_name_is_found_by_that_name(searcher):
    # why: "the legend rule" is 704.5j, two legendary permanents with the same name
    hits = searcher.search("token copy of my legendary creature: what does the legend rule do?", k=3)
    assert "cr@2026-04-17/704.5j" in {hit.id for hit in hits.hits}


def test_a_case_of_a_rule_comes_after_the_rule_unless_the_question_says_the_case(searcher):
    # why: 810.9c is the case "an effect sets a single player's life total"; 810.9 is the general rule
    from rulesjudge.indexer.search import FusionParams, QuestionFacts

    rule, case = "cr@2026-04-17/810.9", "cr@2026-04-17/810.9c"
    params = FusionParams(case_penalty=0.06, sibling_penalty=0.0, scope_lift=0.0, variant_penalty=0.0)
    fused = [(case, 0.62), (rule, 0.60)]
    plain = searcher.adjust(fused, params, searcher.facts("2HG, does damage to me hit our team's life?"))
    assert [rid for rid, _ in plain] == [rule, case]
    said = searcher.adjust(fused, params, searcher.facts("an effect sets a single player's life total to 10"))
    assert [rid for rid, _ in said] == [case, rule]
    assert searcher.adjust(fused, params, QuestionFacts())[0][0] == rule  # no words: the rule first


def test_a_card_note_is_for_questions_that_say_the_cards_name(searcher):
    # why: 907.5d, a player with a face-down identity is an opponent to the others; The Gatekeeper's note
    # speaks of hidden identities too but answers only questions about The Gatekeeper
    from rulesjudge.indexer.search import FusionParams

    note, rule = "treachery@4.0/note/the-gatekeeper", "treachery@4.0/907.5d"
    params = FusionParams(note_penalty=0.2, sibling_penalty=0.0, scope_lift=0.0, document_lift=0.0,
                          variant_penalty=0.0, document_penalty=0.0, case_penalty=0.0)
    fused = [(note, 0.70), (rule, 0.60)]
    hidden = searcher.facts("is a player whose identity is hidden my opponent")
    unnamed = searcher.adjust(fused, params, hidden)
    assert [rid for rid, _ in unnamed] == [rule, note]
    named = searcher.adjust(fused, params, searcher.facts("if I turn the gatekeeper face down again do the "
                                                          "others forget my role"))
    assert [rid for rid, _ in named] == [note, rule]
    hits = searcher.search("is a player whose identity is still hidden my opponent", k=1).hits
    assert hits[0].id == rule


def test_a_card_note_counts_its_name_said_even_when_the_name_is_also_a_magic_card(searcher):
    # why: "Puppet Master" is an enchantment card too, read as "enchantment" by the cards stage; the
    # question still names The Puppet Master identity, whose note answers who gets the identity
    hits = searcher.search("puppet master is resolving and someone concedes, who gets their identity", k=1)
    assert hits.hits[0].id == "treachery@4.0/note/the-puppet-master"


def test_a_named_variant_document_states_its_own_version_of_a_general_rule(searcher):
    # why: treachery 907.7, the Leader is the starting player; 103.8 only says the starting player
    # takes the first turn (seed questions, area treachery)
    hits = searcher.search("who takes the first turn in treachery", k=1).hits
    assert hits[0].id == "treachery@4.0/907.7"


@pytest.mark.parametrize(("question", "found"), [
    ("what does the word you on a card refer to", ["cr@2026-04-17/glossary/you-your"]),
    ("what does scry 2 mean", ["cr@2026-04-17/glossary/scry"]),
    ("the term hexproof, what is it for", ["cr@2026-04-17/glossary/hexproof"]),
    ("what does each opponent mean in two-headed giant", []),  # "each opponent" is no glossary term
    ("can the emperor attack at the start", []),  # a term used, not named as a word
])
def test_a_term_named_as_a_word_is_read_as_quoted(searcher, question, found):
    # why: "the word you" asks what 109.5 says "you" means, as "when a card says 'you'" does
    assert searcher.glossary.quoted(question) == found


def test_the_word_you_is_answered_by_the_rule_that_defines_it(searcher):
    # why: 109.5, "you" on an object refers to its controller (questions.yaml, concepts)
    hits = searcher.search("what does the word you on a card refer to", k=1).hits
    assert hits[0].id == "cr@2026-04-17/109.5"


def test_a_quoted_term_keeps_its_whole_share_when_the_question_also_writes_it(searcher):
    # why: 701.22a defines "scry N"; the term named as a word is the whole question, though "2" is
    # another content word (questions.yaml, keywords)
    weights = dict(searcher.glossary_weights("what does scry 2 mean"))
    assert weights["cr@2026-04-17/glossary/scry"] == 1.0
    assert searcher.search("what does scry 2 mean", k=1).hits[0].id == "cr@2026-04-17/701.22a"
