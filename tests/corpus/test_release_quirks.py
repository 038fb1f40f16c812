"""Every real release readable (issue 10, item 3): the five shared releases mutated into the shapes of
releases published between 2003 and 2026 load, or are refused, as the issue says -- and a refusal names
the line at fault.

The expected counts are the independent grep/awk counts of test_official.py: a quirk the reader works
around changes no count (a misprinted number is still one rule).
"""

from __future__ import annotations

import mutations  # tests/corpus/mutations.py
import pytest
from test_official import EFFECTIVE, EXPECTED

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.official import Release, parse_release
from rulesjudge.corpus.records import Record

RELEASES = sorted(EXPECTED)


def refused(data: bytes, name: str) -> InputError:
    """The error a mutated release is refused with."""
    with pytest.raises(InputError) as error:
        parse_release(data, source_name=name)
    return error.value


def parsed(data: bytes, name: str) -> tuple[Release, dict[str, Record], str]:
    """A mutated release parsed: the release, its records by id, its edition."""
    release = parse_release(data, source_name=name)
    return release, {r.id: r for r in release.records}, EFFECTIVE[name]


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("mutate", [mutations.current_as_of, mutations.date_without_period,
                                    mutations.entries_after_credits])
def test_early_date_lines_and_long_contents_load_with_the_same_counts(lines, name, mutate):
    # why: "current as of" (to mid-2009), a date line without its period (Nov 2023, Feb 2024) and
    # contents that go on after "Credits" (2009-2013) are legitimate releases
    release = parse_release(mutate(lines(name)), source_name=name)
    assert release.effective == EFFECTIVE[name]
    assert release.counts == EXPECTED[name] and release.warnings == ()


@pytest.mark.parametrize("name", RELEASES)
def test_an_unreadable_date_names_the_date_line(lines, name):
    data, line = mutations.unreadable_date(lines(name))
    error = refused(data, name)
    assert error.line == line and "unreadable date 'Juen" in str(error)


def test_a_release_without_a_date_line_names_where_the_introduction_ends(lines):
    release = lines("cr-2024-06-07.txt")
    data = mutations.to_bytes([line for line in release if not line.startswith("These rules are")])
    with pytest.raises(InputError) as error:
        parse_release(data, source_name="x.txt")
    contents = release.index("Contents")  # one line earlier once the date line is gone
    assert error.value.line == contents and f"(lines 1-{contents})" in str(error.value)


@pytest.mark.parametrize("name", RELEASES)
def test_a_number_printed_twice_keeps_both_rules_and_warns_once(lines, name):
    # the publisher's typo: rule 104.3 printed as "104.2." -- both rules kept, ids that cannot collide
    data, line = mutations.number_printed_twice(lines(name), "104.2", "104.3")
    release, records, edition = parsed(data, name)
    first, second = records[f"cr@{edition}/104.2"], records[f"cr@{edition}/104.2~2"]
    assert first.number == second.number == "104.2"
    assert second.text.startswith("There are several ways to lose the game")  # 104.3's words
    assert second.provenance[0].line == line
    assert release.counts == EXPECTED[name]  # still one rule each
    assert len(release.warnings) == 1  # its subrules 104.3a... are not numbered 104.2a: no more warnings
    assert release.warnings[0].startswith(f"{name}:{line}: number 104.2 printed twice (first at line ")
    # the subrules printed after the misprint belong to it, not to the first 104.2
    assert records[f"cr@{edition}/104.3a"].parent == second.id


@pytest.mark.parametrize("name", RELEASES)
def test_a_subrule_under_the_wrong_rule_stays_there_with_an_id_of_its_own(lines, name):
    # the publisher's typo "432.2b" inside rule 423.2: here 704.5b printed as 740.5b
    data, line = mutations.subrule_under_wrong_rule(lines(name), "704.5b", "740.5b")
    release, records, edition = parsed(data, name)
    misprint = records[f"cr@{edition}/740.5b~in-704.5"]
    assert misprint.number == "740.5b" and misprint.parent == f"cr@{edition}/704.5"
    assert misprint.id in records[f"cr@{edition}/704.5"].children
    assert release.counts == EXPECTED[name]
    warning = f"{name}:{line}: 740.5b printed under 704.5 (section 704): kept as {misprint.id}"
    assert release.warnings == (warning,)


@pytest.mark.parametrize("name", RELEASES)
def test_example_example_is_split(lines, name):
    # why: 2014-2015 print "Example:Example: ..."; the example is an example, not rule text
    release = parse_release(mutations.example_example(lines(name), "101.4"), source_name=name)
    rule = next(r for r in release.records if r.id == f"cr@{EFFECTIVE[name]}/101.4")
    assert "Example" not in rule.text
    assert rule.examples[0].startswith("Example: A card reads") and "Example:Example" not in rule.examples[0]
    assert release.counts == EXPECTED[name]


@pytest.mark.parametrize("name", RELEASES)
def test_a_hard_wrapped_file_is_refused_naming_the_first_broken_line(lines, name):
    data, line = mutations.hard_wrapped(lines(name))
    error = refused(data, name)
    assert error.line == line and "hard-wrapped" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_file_cut_inside_the_glossary_is_refused_as_such(lines, name):
    data, line = mutations.truncated_in_glossary(lines(name))
    with pytest.raises(InputError) as error:
        parse_release(data, source_name=name)
    message = str(error.value)
    assert error.value.line == line
    assert "truncated inside the Glossary (in or after the entry 'Monarch')" in message


def test_a_file_cut_inside_the_rules_names_the_last_rule(lines):
    release = lines("cr-2024-06-07.txt")
    end = mutations.line_of(release, "722.4. ") + 1
    with pytest.raises(InputError) as error:
        parse_release(mutations.to_bytes(release[:end]), source_name="cut.txt")
    assert error.value.line == end and "truncated inside the rules (after 722.4)" in str(error.value)
