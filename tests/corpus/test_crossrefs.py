"""Cross-references: parsed from real lines of the sources and releases, resolved within document+edition."""

from __future__ import annotations

from rulesjudge.corpus.crossrefs import expand_range, find_references, is_official_label


def numbers(text: str) -> list[str]:
    return [number for _, number in find_references(text)]


def test_see_rule_from_the_emperor_page():
    # emperor-rules.txt, 809.3a: why: the plain "See rule 801, ..." form
    line = ("The range of influence is 2 for emperors and 1 for generals. "
            "See rule 801, \u201cLimited Range of Influence Option.\u201d")
    assert find_references(line) == [("rule 801", "801")]


def test_parenthesised_see_rule():
    line = "Emperor games use the deploy creatures option (see rule 804)."
    assert find_references(line) == [("rule 804", "804")]


def test_bare_rule_and_a_list_of_rules():
    assert numbers("All other rules for ending the game also apply. (See rule 104.)") == ["104"]
    label = "rules 802 and 803"
    assert find_references(label) == [(label, "802"), (label, "803")]
    # Player page, 506.2a: two separate "rule" mentions in one sentence
    line = ("See rule 802, \u201cAttack Multiple Players Option,\u201d rule 803, \u201cAttack Left and "
            "Attack Right Options,\u201d and rule 809, \u201cEmperor Variant.\u201d")
    assert numbers(line) == ["802", "803", "809"]


def test_letter_range_is_expanded_skipping_nothing_it_should_not():
    # CR 2024-06-07, 702.170d (plot) and many others: "rules 601.2b and 601.2f–h"
    expected = ["601.2b", "601.2f", "601.2g", "601.2h"]
    assert numbers("following the rules 601.2b and 601.2f\u2013h.") == expected
    assert expand_range("704.5k", "n") == ["704.5k", "704.5m", "704.5n"]  # no "l": subrules skip l and o
    assert numbers("rules 119.7\u20138") == ["119.7", "119.8"]
    assert numbers("See rules 903.6\u2013903.8.") == ["903.6", "903.7", "903.8"]
    assert numbers("rules 608.3a and b are always performed first") == ["608.3a", "608.3b"]


def test_capitalised_at_sentence_start():
    # CR 2024-06-07, 509.1c: "Rules 506.7 ..." opens a sentence
    assert numbers("Rules 506.7 and 509.1b apply.") == ["506.7", "509.1b"]


def test_section_and_three_level_numbers():
    assert find_references("See section 8, \u201cMultiplayer Rules.\u201d") == [("section 8", "8")]
    assert numbers("See rule 702.187, \u201cUnveil.\u201d") == ["702.187"]
    assert numbers("See rule 205.3tr for the complete list") == ["205.3tr"]


def test_official_references_are_labelled_official():
    refs = find_references("This is an exception to rule 108.5 in the official CR due to its identity")
    assert refs == [("rule 108.5 in the official CR", "108.5")]
    assert is_official_label(refs[0][0])
    assert is_official_label(find_references("(see official rule 104, \u201cEnding the game\u201d)")[0][0])
    assert not is_official_label(find_references("See rule 907.4b.")[0][0])


def test_not_references():
    assert find_references("Removed rule 705bis \u201cRolling a die\u201d") == []
    assert find_references("Renamed rule 702.TrUnv-1 into 702.187.") == []
    assert find_references("starting life total is 20") == []


# ------------------------------------------------------------------------- resolution in the store


def targets(corpus, record_id):
    return {ref.number: ref.target for ref in corpus.get(record_id).cross_refs}


def test_quoted_glossary_resolves_in_its_own_edition(builtin_corpus):
    # why: the wiki quotes the 2024-06-07 glossary, so "rule 722" is 722 of 2024-06-07
    assert targets(builtin_corpus, "cr@2024-06-07/glossary/monarch") == {"722": "cr@2024-06-07/722"}
    assert targets(builtin_corpus, "cr@2022-04-29/glossary/emperor") == {"809": "cr@2022-04-29/809"}


def test_reference_to_a_rule_not_loaded_stays_unresolved(builtin_corpus):
    # why: 113.8 of 2024-06-07 is not quoted by any built-in document and no release is loaded
    assert targets(builtin_corpus, "cr@2024-06-07/722.2") == {"113.8": None}


def test_treachery_resolves_its_own_numbers_first(builtin_corpus):
    # Unveil, not CR
    assert targets(builtin_corpus, "treachery@4.0/907.4b")["702.187"] == "treachery@4.0/702.187"


def test_treachery_official_rule_goes_to_the_official_edition_in_force(five_releases_corpus):
    # why: Treachery 4.0 took effect 2024-10-01; the loaded CR in force then is 2024-06-07
    assert targets(five_releases_corpus, "treachery@4.0/907.11")["800.4a"] == "cr@2024-06-07/800.4a"
    refs = targets(five_releases_corpus, "treachery@4.0/907.8")
    assert refs == {"104": "cr@2024-06-07/104", "907.11": "treachery@4.0/907.11"}


def test_release_rules_resolve_in_their_own_edition(five_releases_corpus):
    refs = targets(five_releases_corpus, "cr@2026-04-17/725.2")
    assert refs == {"113.8": "cr@2026-04-17/113.8"}
    range_refs = [r for r in five_releases_corpus.get("cr@2024-06-07/101.4").cross_refs]
    assert all(r.target and r.target.startswith("cr@2024-06-07/") for r in range_refs)
