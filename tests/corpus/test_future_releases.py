"""Releases with content the parser has not seen: the next releases and older ones (tests/corpus/futures.py
makes them from the five shared releases). Each is read with the right records -- the real release's
independent counts plus exactly what the change added -- or refused in one line naming the line; and
the cross-release map follows a rule, a section and a glossary entry that moved or were renamed.
"""

from __future__ import annotations

import futures  # tests/corpus/futures.py
import mutations  # tests/corpus/mutations.py
import pytest
from test_official import EFFECTIVE, EXPECTED

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.crossrefs import find_references
from rulesjudge.corpus.editions import EditionView, map_editions
from rulesjudge.corpus.official import Release, parse_release
from rulesjudge.corpus.records import Record

RELEASES = sorted(EXPECTED)
NEWEST = "cr-2026-04-17.txt"


def parsed(lines: list[str], name: str = "next.txt") -> tuple[Release, dict[str, Record]]:
    release = parse_release(mutations.to_bytes(lines), source_name=name)
    return release, {r.id: r for r in release.records}


def plus(name: str, **added: int) -> dict[str, int]:
    """The independent counts of a real release plus what a change added."""
    counts = dict(EXPECTED[name])
    for key, value in added.items():
        counts[key] += value
    return counts


def mapped(old: list[Record], new: list[Record]) -> dict[str, tuple[str, bool]]:
    return map_editions(EditionView.of(old), EditionView.of(new))


# --------------------------------------------------------------------------- new numbers


def test_a_new_section_renumbers_the_ones_after_it_and_the_map_follows_the_monarch(lines, data_dir, tmp_path,
                                                                                  cli):
    # why: the Monarch moved 718 -> 721 -> 722 -> 724 -> 725; a section inserted before it moves it again
    future = tmp_path / "cr-next.txt"
    moved = futures.new_section(lines(NEWEST), 725, "Stickers")
    future.write_bytes(mutations.to_bytes(futures.redated(moved)))
    result = cli("corpus", "add", str(future))
    assert result.code == 0
    said = result.out.strip().splitlines()
    assert len(said) == 1
    assert said[0].startswith(f"Added: Comprehensive Rules effective {futures.NEXT_EFFECTIVE}")
    assert "(148 sections, 1168 rules, 1976 subrules, 730 glossary entries" in said[0]
    result = cli("rule", "725.4", "--edition", "2026-04-17")
    assert result.code == 0
    old = result.out
    assert "If the monarch leaves the game" in old and f"726.4 in {futures.NEXT_EFFECTIVE}" in old
    result = cli("rule", "726.4")
    assert result.code == 0  # the newest edition answers in its own numbering
    new = result.out
    assert new.startswith(f"CR 726.4 ({futures.NEXT_EFFECTIVE}) \u2014 The Monarch")
    assert "renumbered from 725.4" in new
    result = cli("rule", "725.1")
    assert result.code == 0  # the number now names the new section's rule
    assert "Stickers rule 1" in result.out


@pytest.mark.parametrize("name", ["cr-2025-07-25.txt", NEWEST])
def test_rule_numbers_past_any_printed_are_read_in_their_sections(lines, name):
    # why: keyword rules reach 702.192 in 2026 (702.200-702.215 come next); 810 ends at 810.11
    keywords = futures.new_rules(lines(name), "702", 200, 215)
    release, records = parsed(futures.new_rules(keywords, "810", 12, 14))
    edition = EFFECTIVE[name]
    assert release.counts == plus(name, rules=16 + 3, subrules=2 * 19, examples=19)
    keyword = records[f"cr@{edition}/702.200"]
    assert keyword.parent == f"cr@{edition}/702" and keyword.text == "Keyword200"
    assert keyword.children == (f"cr@{edition}/702.200a", f"cr@{edition}/702.200b")
    assert records[f"cr@{edition}/702.200a"].parent == keyword.id  # not 702.20's
    assert records[f"cr@{edition}/702.20"].children == tuple(
        r.id for r in release.records if r.parent == f"cr@{edition}/702.20")
    assert records[f"cr@{edition}/810.14"].parent == f"cr@{edition}/810"
    example = "Example: A card with Provision 14 is cast (example 14)."
    assert records[f"cr@{edition}/810.14b"].examples == (example,)


@pytest.mark.parametrize("name", ["cr-2025-07-25.txt", NEWEST])
def test_subrules_lettered_past_z_follow_z_under_their_rule(lines, name, data_dir, tmp_path, cli):
    # why: 704.5 reached 704.5z in 2025 (24 letters: l and o are skipped); the next is 704.5aa
    release, records = parsed(futures.subrules_past_z(lines(name)))
    edition = EFFECTIVE[name]
    assert release.counts == plus(name, subrules=3)
    children = records[f"cr@{edition}/704.5"].children
    assert children[-4:] == tuple(f"cr@{edition}/704.5{s}" for s in ("z", "aa", "ab", "ac"))
    assert records[f"cr@{edition}/704.5aa"].number == "704.5aa"
    future = tmp_path / "cr-next.txt"
    future.write_bytes(mutations.to_bytes(futures.redated(futures.subrules_past_z(lines(name)))))
    assert cli("corpus", "add", str(future)).code == 0
    result = cli("rule", "704.5aa")
    assert result.code == 0
    assert "sticker number a" in result.out


def test_a_reference_to_a_range_past_z_covers_its_two_letter_subrules():
    # why: "rules 704.5y–ab" ended at "704.5y–a" and named 704.5y alone
    assert [number for _label, number in find_references("See rules 704.5y–ab and 702.199–702.201.")] == [
        "704.5y", "704.5z", "704.5aa", "704.5ab", "702.199", "702.200", "702.201"]
    assert [number for _label, number in find_references("rules 601.2f–h")] == ["601.2f", "601.2g", "601.2h"]


# --------------------------------------------------------------------------- renamed and moved


def test_a_section_retitled_and_moved_at_once_keeps_its_rules(lines):
    # why: the title no longer finds it, its number is another section's: its rules say where it went
    old = lines(NEWEST)
    new = futures.section_retitled(futures.new_section(old, 725, "Stickers"), "726", "Monarch Designation")
    found = mapped(parsed(old)[0].records, parsed(new)[0].records)
    assert found["725"] == ("726", True) and found["725.4"][0] == "726.4" and found["725.2"][0] == "726.2"


def test_a_rule_inserted_renumbers_the_rules_after_it_and_the_map_follows_each(lines):
    # why: a new 725.2 moves the Monarch's leaving rule 725.4 to 725.5 inside its section
    old = lines(NEWEST)
    inserted = futures.rule_inserted(futures.new_section(old, 725, "Stickers"), "726", 2,
                                     "The monarch may be chosen as the game begins by an effect.")
    found = mapped(parsed(old)[0].records, parsed(inserted)[0].records)
    assert [found[f"725.{n}"][0] for n in range(1, 6)] == ["726.1", "726.3", "726.4", "726.5", "726.6"]
    assert found["725.4"] == ("726.5", False)  # the words are the same (references masked)


def test_real_renamed_sections_are_followed(five_releases_corpus):
    # why: 2020's 713 "Checklist Cards" is 2022's 714 "Substitute Cards" (the title and the number
    # changed; 713 became "Meld Cards"); 2022's 308 "Tribals" is 2024's 308 "Kindreds"
    same = dict(five_releases_corpus.equivalents("cr@2020-06-01/713.4"))
    assert "cr@2022-10-07/714.4" in same and "cr@2022-10-07/713.4" not in same
    assert "cr@2024-06-07/308.1" in dict(five_releases_corpus.equivalents("cr@2022-10-07/308.1"))
    # why: 2022's 713 "Meld Cards" was merged into 712 in 2024; its number went to "Substitute Cards"
    # (2022's 714, matched by its title): "Meld cards ... may be represented by substitute cards" is not
    # 2024's 713.2 "Each substitute card must clearly indicate ..."
    meld = {rid for rid, _changed in five_releases_corpus.equivalents("cr@2022-10-07/713.6")}
    assert not any(rid.startswith("cr@2024-06-07/713") for rid in meld)
    assert "cr@2024-06-07/713.1" in dict(five_releases_corpus.equivalents("cr@2022-10-07/714.1"))


def test_a_renamed_glossary_entry_is_followed_and_a_removed_one_is_not(lines):
    old = lines(NEWEST)
    new = futures.glossary_removed(futures.glossary_renamed(old, "Monarch", "Monarch, The"), "Initiative")
    new = futures.glossary_added(new, "Zorbing", "A made-up term. See rule 100.1.", "Zone")
    found = mapped(parsed(old)[0].records, parsed(new)[0].records)
    assert found["glossary/monarch"] == ("glossary/monarch-the", False)
    assert "glossary/initiative" not in found
    assert found["glossary/zone"] == ("glossary/zone", False)


def test_real_renamed_glossary_entries_are_followed(five_releases_corpus):
    # why: "Removed from Combat" became "Remove from Combat" in 2026, "Checklist Card" "Substitute Card"
    # in 2022; "Friends Forever" was merged into "Partner" (its words are not the new entry's): no match
    def follows(record_id: str) -> set[str]:
        return {rid for rid, _changed in five_releases_corpus.equivalents(record_id)}

    removed = follows("cr@2025-07-25/glossary/removed-from-combat")
    assert "cr@2026-04-17/glossary/remove-from-combat" in removed
    assert "cr@2022-10-07/glossary/substitute-card" in follows("cr@2020-06-01/glossary/checklist-card")
    assert not any("2026-04-17" in rid for rid in follows("cr@2025-07-25/glossary/friends-forever"))


# --------------------------------------------------------------------------- new places, new words


@pytest.mark.parametrize("name", RELEASES)
def test_an_example_under_a_heading_belongs_to_the_heading(lines, name):
    # why: examples follow rules in 2020-2026; one printed under a section or chapter heading was refused
    # as "an Example before any rule", though nothing is wrong with the file
    changed = futures.example_after_chapter(futures.example_after_section(lines(name), "104"), "5")
    release, records = parsed(changed)
    edition = EFFECTIVE[name]
    assert release.counts == plus(name, examples=2)
    assert records[f"cr@{edition}/104"].examples == ("Example: An example of section 104 as a whole.",)
    assert records[f"cr@{edition}/5"].examples == ("Example: An example of chapter 5 as a whole.",)
    assert records[f"cr@{edition}/104.1"].examples == parsed(lines(name))[1][f"cr@{edition}/104.1"].examples


@pytest.mark.parametrize("template", [
    "These rules are effective as of {date}",  # no period (Nov 2023, Feb 2024)
    "These rules are effective {date}.",
    "These rules take effect on {date}.",
    "Effective as of {date}.",
    "These rules are effective as of 17 April 2026.",
    "These rules are effective as of 2026-04-17.",
    "These rules are effective as of April 17th, 2026.",
    "These rules are effective as of {date}, and replace all earlier versions.",
])
def test_the_date_line_worded_otherwise_gives_the_same_edition(lines, template):
    release, _ = parsed(futures.date_worded(lines(NEWEST), template))
    assert release.effective == "2026-04-17" and release.counts == EXPECTED[NEWEST]


@pytest.mark.parametrize("template", ["Updated {date}.", "These rules were last revised {date}."])
def test_a_date_that_is_not_the_effective_date_is_refused_naming_the_introduction(lines, template):
    # why: "updated" or "revised" is when the file changed, not when the rules apply: no edition from it
    changed = futures.date_worded(lines(NEWEST), template)
    with pytest.raises(InputError) as error:
        parsed(changed)
    contents = changed.index("Contents") + 1
    assert error.value.line == contents and "no date line" in str(error.value)


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("contents", [True, False])
def test_a_release_laid_out_as_in_2003_2010_is_read(lines, name, contents):
    # why: "current as of", the older introduction (its "default.asp?x=" address is no lost character; a
    # numbered list in it, without contents, began the rules as chapter 1),
    # contents spaced by blank lines or none at all (2006), no "See X." glossary redirects
    release, _ = parsed(futures.old_style(lines(name), contents=contents))
    redirects = EXPECTED[name]["glossary"] - release.counts["glossary"]
    assert release.effective == EFFECTIVE[name] and release.warnings == ()
    assert release.counts == plus(name, glossary=-redirects) and 15 <= redirects <= 25


def test_a_section_listed_twice_in_the_contents_is_read(lines):
    # why: the rules begin where a chapter is printed again; a section the contents repeat began them
    # there, and the file was refused as "section 725 outside its chapter 7"
    release = lines(NEWEST)
    index = mutations.line_of(release, "725. ", 0)
    doubled, _ = parsed(release[: index + 1] + release[index:])
    assert doubled.counts == EXPECTED[NEWEST] and doubled.warnings == ()


@pytest.mark.parametrize("name", RELEASES)
def test_a_glossary_entry_with_blank_lines_between_its_senses_stays_one_entry(lines, name):
    # why: "Ability" is "1. ..." / "2. ..." / "See rule 113"; with a blank line between them each sense
    # was read as a glossary term of its own ("2. An activated or triggered ability ...")
    spaced = futures.glossary_paragraphs(futures.glossary_paragraphs(lines(name), "Ability"), "Face Down")
    release, records = parsed(spaced)
    original = parsed(lines(name))[1]
    edition = EFFECTIVE[name]
    assert release.counts == EXPECTED[name] and release.warnings == ()
    for slug in ("ability", "face-down"):
        entry = f"cr@{edition}/glossary/{slug}"
        assert records[entry].text == original[entry].text and records[entry].text.count("\n") >= 2


@pytest.mark.parametrize("name", RELEASES)
def test_back_matter_and_a_glossary_introduction_are_no_glossary_entries(lines, name):
    # why: 2009-2013 print it after the Credits; printed before them (and listed in the contents after the
    # Glossary), its address lines were read as three glossary entries; so was a paragraph introducing
    # the Glossary before its first entry
    release, records = parsed(futures.glossary_introduced(futures.service_before_credits(lines(name))))
    assert release.counts == EXPECTED[name] and release.warnings == ()
    assert f"cr@{EFFECTIVE[name]}/glossary/customer-service-information" not in records


@pytest.mark.parametrize("name", RELEASES)
def test_a_numbered_list_in_a_rule_is_the_rules_text_not_chapters(lines, name):
    # why: "2. The second step." read as chapter 2 again, and the next rule was refused as "before any
    # section", naming the wrong line; a chapter heading never ends in a period
    items = ["1. The first step.", "2. The second step.", "8. The eighth step."]
    release, records = parsed(futures.numbered_list(lines(name), "103.1", items))
    assert release.counts == EXPECTED[name] and release.warnings == ()
    assert records[f"cr@{EFFECTIVE[name]}/103.1"].text.endswith("\n".join(items))
