"""The official-release reader on the five real releases (../shared/cr) and on bad input.

The expected counts below were obtained ONCE, independently of the parser, with grep/awk over the files
(see docs/corpus-official.md, "How the counts were made"): line ends normalised with a few lines of
Python, the body cut by hand between the first "Credits" line (end of the table of contents) and the
second "Glossary" line, the glossary between the second "Glossary" and the second "Credits", then

    chapters  grep -c -E '^[0-9]\\. '                      (body)
    sections  grep -c -E '^[0-9]{3}\\. '                   (body)
    rules     grep -c -E '^[0-9]{3}\\.[0-9]+(\\.| )'       (body; catches "606.5 " and "901.4.All")
    subrules  grep -c -E '^[0-9]{3}\\.[0-9]+[a-z]'         (body; catches "119.1d.")
    examples  grep -c '^Example'                          (body)
    glossary  awk 'BEGIN{RS=""} END{print NR}'            (glossary: blank-line separated blocks)
    obsolete  awk 'BEGIN{RS="";FS="\\n"} $1~/\\(Obsolete\\)/{n++} END{print n}'
"""

from __future__ import annotations

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.official import Release, looks_like_release, parse_release, split_lines

EXPECTED = {
    # file: chapters, sections, rules, subrules, examples, glossary, obsolete glossary entries
    "cr-2020-06-01.txt": dict(
        chapters=9, sections=133, rules=976, subrules=1459, examples=250,
        glossary=570, obsolete=28
    ),
    "cr-2022-10-07.txt": dict(
        chapters=9, sections=140, rules=1068, subrules=1692, examples=270,
        glossary=642, obsolete=29
    ),
    "cr-2024-06-07.txt": dict(
        chapters=9, sections=144, rules=1117, subrules=1850, examples=278,
        glossary=683, obsolete=31
    ),
    "cr-2025-07-25.txt": dict(
        chapters=9, sections=146, rules=1147, subrules=1932, examples=276,
        glossary=715, obsolete=32
    ),
    "cr-2026-04-17.txt": dict(
        chapters=9, sections=147, rules=1165, subrules=1973, examples=277,
        glossary=730, obsolete=33
    ),
}
EFFECTIVE = {
    "cr-2020-06-01.txt": "2020-06-01",
    "cr-2022-10-07.txt": "2022-10-07",
    "cr-2024-06-07.txt": "2024-06-07",
    "cr-2025-07-25.txt": "2025-07-25",
    "cr-2026-04-17.txt": "2026-04-17",
}

_CACHE: dict[str, Release] = {}


@pytest.fixture
def release(shared_cr_dir):
    def get(name: str) -> Release:
        if name not in _CACHE:
            _CACHE[name] = parse_release(shared_cr_dir / name)
        return _CACHE[name]

    return get


def by_number(release: Release) -> dict[str, object]:
    return {r.id.split("/", 1)[1]: r for r in release.records}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_match_the_independent_grep_awk_counts(release, name):
    parsed = release(name)
    assert parsed.effective == EFFECTIVE[name]  # read from "These rules are effective as of ..."
    assert parsed.counts == EXPECTED[name]
    kinds = [r.kind for r in parsed.records]
    assert kinds.count("section") == EXPECTED[name]["chapters"] + EXPECTED[name]["sections"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_nothing_from_contents_or_credits(release, name):
    parsed = release(name)
    first_rule_line = min(p.line for r in parsed.records for p in r.provenance)
    assert first_rule_line > 150  # the contents (lines ~10-180) give no record
    assert not any("Garfield" in r.text for r in parsed.records)  # credits give none
    assert all(r.official and r.effective == parsed.effective for r in parsed.records)
    assert all(r.id.startswith(f"cr@{parsed.effective}/") for r in parsed.records)


def test_monarch_2024_722_4_verbatim_with_parent_and_path(release):
    records = by_number(release("cr-2024-06-07.txt"))
    rule = records["722.4"]
    assert rule.text == (
        "If the monarch leaves the game, the active player becomes the monarch at the same time as that "
        "player leaves the game. If the active player is leaving the game or if there is no active player, "
        "the next player in turn order becomes the monarch. If no player still in the game can become the "
        "monarch, the game continues with no monarch."
    )
    assert rule.kind == "rule" and rule.number == "722.4" and rule.title == "The Monarch"
    assert rule.parent == "cr@2024-06-07/722"
    assert rule.heading_path == ("7. Additional Rules", "722. The Monarch")
    assert rule.provenance[0].source == "cr-2024-06-07.txt" and rule.provenance[0].line == 5859
    section = records["722"]
    assert section.kind == "section" and section.title == "The Monarch"
    assert "cr@2024-06-07/722.4" in section.children
    assert records["7"].title == "Additional Rules" and "cr@2024-06-07/722" in records["7"].children


def test_2026_725_4_is_the_monarch_and_722_is_preparation_cards(release):
    records = by_number(release("cr-2026-04-17.txt"))
    assert records["725"].title == "The Monarch"
    assert records["725.4"].text.startswith("If the monarch leaves the game, the active player becomes")
    assert records["722"].title == "Preparation Cards"  # why: 722 now means another section


def test_2020_718_is_the_monarch(release):
    records = by_number(release("cr-2020-06-01.txt"))
    assert records["718"].title == "The Monarch"
    assert records["718.1"].text == (
        "The monarch is a designation a player can have. There is no monarch in a game until an effect "
        "instructs a player to become the monarch."
    )


def test_example_attached_to_the_rule_before_it(release):
    records = by_number(release("cr-2024-06-07.txt"))
    # 101.4 (APNAP) is followed by the "Each player sacrifices a creature" example.
    assert records["101.4"].examples == (
        "Example: A card reads \u201cEach player sacrifices a creature.\u201d First, the active player "
        "chooses a creature they control. Then each of the nonactive players, in turn order, chooses a "
        "creature they control. Then all creatures chosen this way are sacrificed simultaneously.",
    )
    assert "Example" not in records["101.4"].text


def test_continuation_paragraph_belongs_to_its_subrule(release):
    records = by_number(release("cr-2024-06-07.txt"))
    text = records["205.4c"].text
    assert text.startswith("Any land with the supertype \u201cbasic\u201d is a basic land.")
    assert "\nCards printed in sets prior to the Eighth Edition core set" in text


TYPOS = [  # (file, number as written on its line, number, kind, text start) found with grep on the files
    (name, "119.1d.", "119.1d", "subrule", "In a two-player Brawl game") for name in sorted(EXPECTED)
] + [
    (name, "606.5 ", "606.5", "rule", "If the total cost to activate a loyalty ability")
    for name in ("cr-2022-10-07.txt", "cr-2024-06-07.txt", "cr-2025-07-25.txt", "cr-2026-04-17.txt")
] + [
    (name, "901.4.All", "901.4", "rule", "All plane and phenomenon cards")
    for name in ("cr-2022-10-07.txt", "cr-2024-06-07.txt")
]


@pytest.mark.parametrize(("name", "written", "number", "kind", "start"), TYPOS)
def test_real_typos_parse(release, shared_cr_dir, name, written, number, kind, start):
    data = (shared_cr_dir / name).read_bytes()
    assert f"\n{written}".encode() in data.replace(b"\r", b"\n")  # the typo is really in the file
    record = by_number(release(name))[number]
    assert record.kind == kind
    assert record.text.startswith(start)


def test_typo_lines_are_really_in_the_files(shared_cr_dir):
    # why: the typo tests above must test the typos, not a cleaned-up file
    data = (shared_cr_dir / "cr-2024-06-07.txt").read_bytes()
    assert b"\r\n606.5 If" in data and b"\r\n901.4.All" in data and b"\r\n119.1d. In" in data


def test_glossary_obsolete_and_aliases(release):
    records = by_number(release("cr-2024-06-07.txt"))
    bury = records["glossary/bury"]
    assert bury.obsolete and bury.title == "Bury" and bury.kind == "glossary"
    apnap = records["glossary/active-player-nonactive-player-order"]
    assert apnap.aliases == ("APNAP Order",)  # from "APNAP Order / See Active Player, Nonactive ..."
    assert records["glossary/control-controller"].aliases == ("Control", "Controller")
    ability = records["glossary/ability"]
    first = "1. Text on an object that explains what that object does or can do."
    assert ability.text.splitlines()[0] == first
    monarch = records["glossary/monarch"]
    assert monarch.text.endswith("See rule 722, \u201cThe Monarch.\u201d") and not monarch.obsolete


def test_windows_1252_release_decodes_typographic_quotes(release):
    records = by_number(release("cr-2022-10-07.txt"))
    assert records["721"].title == "The Monarch" and records["722"].title == "The Initiative"
    assert "\u2019" in records["721.2"].text  # "monarch’s" read as cp1252, not mojibake


def test_cr_only_and_cr_cr_lf_line_ends():
    assert split_lines("a\r\rb") == ["a", "", "b"]  # 2025-07-25: CR alone
    assert split_lines("a\r\r\nb\r\r\n\r\r\nc") == ["a", "b", "", "c"]  # 2026-04-17: \r\r\n is one end
    assert split_lines("a\r\rb\r\r\nc") == ["a", "", "b", "", "c"]  # mixed: \r\r\n is CR + CRLF


def test_utf16_and_bare_utf8_of_a_real_release(shared_cr_dir, release):
    text = (shared_cr_dir / "cr-2024-06-07.txt").read_bytes().decode("utf-8-sig")
    variants = (
        text.encode("utf-16"),  # with BOM
        text.encode("utf-16-le"),  # without BOM: recognised by its NUL bytes
        text.encode("utf-8"),  # no BOM
        text.replace("\r\n", "\n").encode("utf-8"),  # LF only
        text.replace("\r\n", "\r").encode("utf-8"),  # CR only
    )
    for data in variants:
        parsed = parse_release(data, source_name="x.txt")
        assert parsed.counts == EXPECTED["cr-2024-06-07.txt"]


# ------------------------------------------------------------------ bad input: one line naming the file


def _error(data: bytes) -> str:
    with pytest.raises(InputError) as caught:
        parse_release(data, source_name="bad.txt")
    message = str(caught.value)
    assert message.startswith("bad.txt") and "\n" not in message
    return message


def test_empty_binary_and_unknown_files_are_refused():
    assert "empty" in _error(b"")
    assert "binary" in _error(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert "not a Comprehensive Rules release" in _error(b"name: monarch\nseats: [a, b]\n")
    assert not looks_like_release(b"hello")


def test_truncated_release_names_the_last_line(shared_cr_dir):
    data = (shared_cr_dir / "cr-2024-06-07.txt").read_bytes()
    message = _error(data[: len(data) // 2])
    assert "truncated" in message and "bad.txt:" in message


def test_duplicate_rule_number_is_kept_and_named_by_its_line(shared_cr_dir):
    # why: one typo of the publisher's must not refuse a whole release (issue 10, item 3)
    data = (shared_cr_dir / "cr-2024-06-07.txt").read_bytes()
    line = b"722.4. If the monarch leaves the game"
    doubled = data.replace(line, line[:6] + b" Duplicate.\r\n\r\n" + line, 1)
    release = parse_release(doubled, source_name="bad.txt")
    assert release.warnings == ("bad.txt:5861: number 722.4 printed twice (first at line 5859): kept as "
                                "cr@2024-06-07/722.4~2",)
    records = {r.id: r for r in release.records}
    assert records["cr@2024-06-07/722.4"].text == "Duplicate."
    assert records["cr@2024-06-07/722.4~2"].text.startswith("If the monarch leaves the game")


def test_looks_like_release(shared_cr_dir):
    assert looks_like_release((shared_cr_dir / "cr-2022-10-07.txt").read_bytes())
