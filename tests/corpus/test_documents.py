"""The five source documents read into clean, edition-stamped records.

Expected counts were made by reading the raw files, not by running the readers; each count says how.
"""

from __future__ import annotations

import difflib
import doctest
import hashlib
import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus import documents
from rulesjudge.corpus.documents import load_manifest, read_builtin, read_source
from rulesjudge.corpus.records import Record, RecordId

PROJECT = Path(__file__).resolve().parents[2]
SOURCES = PROJECT / "corpus" / "sources"
SEEDS = PROJECT.parent / "shared" / "seeds"


@pytest.fixture(scope="module")
def records() -> dict[str, Record]:
    return {record.id: record for record in read_builtin(use_cache=False)}


@pytest.fixture(scope="module")
def by_source() -> dict[str, list[Record]]:
    return {source.id: read_source(source) for source in load_manifest()}


def from_source(records: dict[str, Record], source: str) -> list[Record]:
    return [r for r in records.values() if any(p.source == source for p in r.provenance)]


# --- manifest -------------------------------------------------------------------------------------------


def test_manifest_names_each_raw_file_with_its_sha256():
    sources = load_manifest()
    assert [s.id for s in sources] == [
        "monarch-wiki", "monarch-card-rulings", "emperor-rules", "players-mtgsalvation", "treachery-rules-v4"
    ]
    releases = documents.builtin_releases()
    assert [r.id for r in releases] == ["cr-2026-04-17"]  # why: the newest release is built in
    assert sorted(s.file for s in [*sources, *releases]) == sorted(p.name for p in SOURCES.glob("*.txt"))
    for source in [*sources, *releases]:
        assert hashlib.sha256(source.path.read_bytes()).hexdigest() == source.sha256, source.file
        assert source.kind in documents.SOURCE_KINDS
        assert source.origin and source.title


def test_raw_files_equal_the_seeds_they_were_vendored_from():
    if not SEEDS.is_dir():
        pytest.skip(f"seed documents absent: {SEEDS} (only present in the project's workspace)")
    for source in load_manifest():
        assert source.path.read_bytes() == (SEEDS / source.file).read_bytes(), source.file


def test_edition_read_from_the_text_is_the_one_the_manifest_expects(by_source):
    quoted_namespace = {
        "monarch-wiki": "cr", "monarch-card-rulings": "rulings", "emperor-rules": "cr",
        "players-mtgsalvation": "cr", "treachery-rules-v4": "treachery",
    }
    for source in load_manifest():
        raw = source.path.read_text(encoding="utf-8")
        for evidence in source.edition_evidence.split(" / "):
            assert evidence in raw, (source.id, evidence)
        editions = {r.edition for r in by_source[source.id] if r.document == quoted_namespace[source.id]}
        assert editions == {source.edition}, source.id
    treachery = by_source["treachery-rules-v4"]
    assert {r.effective for r in treachery} == {"2024-10-01"}  # "October 1%, 2024" read after the OCR fix


def test_a_bad_manifest_is_one_line_naming_file_and_key(tmp_path):
    broken = tmp_path / "manifest.json"
    data = json.loads(documents.MANIFEST_PATH.read_text(encoding="utf-8"))
    data["documents"][2]["kind"] = "blog post"
    broken.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_manifest(broken)
    assert str(error.value) == f"{broken}: documents[2].kind: unknown kind 'blog post'"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="cannot read the sources manifest"):
        load_manifest(broken)


def test_a_truncated_document_is_refused_with_its_name(tmp_path):
    source = next(s for s in load_manifest() if s.id == "treachery-rules-v4")
    text = source.path.read_text(encoding="utf-8")
    with pytest.raises(InputError, match="missing part heading") as error:
        documents.read_treachery(text[: text.index("GLOSSARY REMINDER")], source)
    assert "\n" not in str(error.value) and "treachery-rules-v4.txt" in str(error.value)
    monarch = next(s for s in load_manifest() if s.id == "monarch-wiki")
    raw = monarch.path.read_text(encoding="utf-8")
    without_edition = raw.replace("From the Comprehensive Rules (", "From (")
    with pytest.raises(InputError, match="quoted edition"):
        documents.read_monarch_wiki(without_edition, monarch)


@pytest.mark.parametrize("text", ["", "\x00\x01binary\xff", "Rulings\nsomething without a date |\n"])
def test_every_reader_refuses_what_is_not_its_document_with_one_line(text):
    for source in load_manifest():
        with pytest.raises(InputError) as error:
            documents.READERS[source.id](text, source)
        assert "\n" not in str(error.value) and source.file in str(error.value)


def test_a_missing_source_file_is_an_input_error():
    source = replace(load_manifest()[0], file="missing.txt")
    with pytest.raises(InputError, match="cannot read source document"):
        read_source(source)


def test_docstring_examples_hold():
    modules = [documents, *(importlib.import_module(f"{documents.__name__}.{info.name}")
                            for info in pkgutil.iter_modules(documents.__path__))]
    results = [doctest.testmod(module) for module in modules]
    assert sum(r.attempted for r in results) > 10 and sum(r.failed for r in results) == 0


# --- counts per document ----------------------------------------------------------------------------------


def test_monarch_wiki_counts(records):
    # Counted by reading monarch-wiki.txt: lines 29–34 are 722 and 722.1–722.5 (6); line 26–27 one glossary
    # entry; lines 36–41 six rulings; prose: the infobox + intro (lines 1–14), "Description" (15),
    # "Becoming the Monarch" (20), "Monarch interaction cards" (42) = 4; Gallery and References dropped.
    kinds = Counter(r.kind for r in from_source(records, "monarch-wiki"))
    assert kinds == {"section": 1, "rule": 5, "glossary": 1, "ruling": 6, "prose": 4}
    raw = (SOURCES / "monarch-wiki.txt").read_text(encoding="utf-8")
    assert len(re.findall(r"^- 722", raw, re.M)) == 6


def test_card_rulings_counts(records):
    # One "10/14/2022 |" line before each ruling: 16 rulings, 5 on the monarch, 11 on convert / MTMtE.
    raw = (SOURCES / "monarch-card-rulings.txt").read_text(encoding="utf-8")
    assert len(re.findall(r"^10/14/2022 \|$", raw, re.M)) == 16
    rulings = from_source(records, "monarch-card-rulings")
    assert len(rulings) == 16 and {r.kind for r in rulings} == {"ruling"}
    assert Counter(r.heading_path[-1] for r in rulings) == {
        "Monarch": 5, "Convert": 5, "More Than Meets the Eye": 6
    }
    # why: a judge reads a ruling aloud by its own words: sixteen rulings, sixteen titles (issue 11)
    assert len({r.title for r in rulings}) == 16 and len({r.citation for r in rulings}) == 16


def test_emperor_counts(records):
    # "**809" opens 15 lines (809, 809.1–809.7, 809.3a–c, 809.5a–c, 809.6a); three glossary entries
    # (Emperor Variant, Emperor, General); prose: the intro under "EMPEROR RULES", Setup, Gameplay,
    # Winning & loosing, More than 6 players.
    raw = (SOURCES / "emperor-rules.txt").read_text(encoding="utf-8")
    assert len(re.findall(r"^\s*- \*\*809", raw, re.M)) == 15
    kinds = Counter(r.kind for r in from_source(records, "emperor-rules"))
    assert kinds == {"section": 1, "rule": 7, "subrule": 7, "glossary": 3, "prose": 5}


def test_player_page_counts(records):
    # Lines starting with a rule number: 50, of which 22 are the wiki's navigation list (100.–121.) and two
    # repeat 102.1 → 26 rules: 102 (+3), 506.2 (+2), 802 (+11), 810.7 (+6). Prose: Active player,
    # Non-active player, Defending player, APNAP ("Types of players" only groups three of them).
    raw = (SOURCES / "players-mtgsalvation.txt").read_text(encoding="utf-8")
    assert len(re.findall(r"^\s*(?:• )?\d{3}(?:\.\d+[a-z]?)?\.? ", raw, re.M)) == 50
    assert len(re.findall(r"^1[0-2]\d\. ", raw[: raw.index("From the Comprehensive Rules")], re.M)) == 22
    page = from_source(records, "players-mtgsalvation")
    assert Counter(r.kind for r in page) == {"section": 2, "rule": 11, "subrule": 13, "prose": 4}
    assert sorted(r.title for r in page if r.kind == "prose") == [
        "APNAP", "Active player", "Defending player", "Non-active player"
    ]


def test_treachery_counts(records):
    # Rules part (lines 57–302): 61 lines start with "NNN.N…", two of them are headings only
    # ("205.3. Subtypes", "207.2. Ability words") → 59, plus sections 372 and 907 (rules from .1) = 61.
    # History: 10 rows (1.0 … 4.0). Glossary reminder: 2 reminders, 2 entries. Card notes: 11 Leaders,
    # 16 Guardians, 16 Assassins, 11 Traitors as listed in the table of contents = 54. Plus the introduction.
    notes = [r for r in records.values() if r.kind == "card-note"]
    treachery = from_source(records, "treachery-rules-v4")
    kinds = Counter(r.kind for r in treachery)
    assert kinds["section"] + kinds["rule"] + kinds["subrule"] == 61
    assert (kinds["history"], kinds["reminder"], kinds["glossary"], kinds["prose"]) == (10, 2, 2, 1)
    assert len(notes) == kinds["card-note"] == 54
    assert Counter(r.role for r in notes) == {"Leader": 11, "Guardian": 16, "Assassin": 16, "Traitor": 11}
    assert len(treachery) == 130


def test_total_is_the_sum_less_the_five_rulings_read_twice(records, by_source):
    assert len(records) == sum(len(v) for v in by_source.values()) - 5 == 211


# --- verbatim records ---------------------------------------------------------------------------------------


def test_722_4_verbatim_from_the_wiki(records):
    rule = records["cr@2024-06-07/722.4"]
    assert rule.text == (
        "If the monarch leaves the game, the active player becomes the monarch at the same time as that "
        "player leaves the game. If the active player is leaving the game or if there is no active player, "
        "the next player in turn order becomes the monarch. If no player still in the game can become the "
        "monarch, the game continues with no monarch."
    )
    assert rule.official and rule.effective == "2024-06-07" and rule.number == "722.4"
    assert rule.parent == "cr@2024-06-07/722" and rule.provenance[0].line == 33
    section = records["cr@2024-06-07/722"]
    assert section.title == "The Monarch" and section.kind == "section"
    assert section.children == tuple(f"cr@2024-06-07/722.{n}" for n in range(1, 6))
    glossary = records["cr@2024-06-07/glossary/monarch"]
    assert glossary.title == "Monarch" and glossary.text.endswith("See rule 722, “The Monarch.”")


def test_809_3c_example_and_809_6a_rejoined(records):
    rule = records["cr@2022-04-29/809.3c"]
    assert rule.text == "A player can attack only an opponent seated immediately next to them."
    assert rule.examples == (
        "Example: At the start of an Emperor game, neither emperor can attack any opponents, even though "
        "both of the opposing generals are within their spell range.",
    )
    wrapped = records["cr@2022-04-29/809.6a"]
    assert "to begin the game within their range of influence. Each emperor's range" in wrapped.text
    assert wrapped.examples[0].startswith("Example: In an Emperor game between two teams of four players")
    assert wrapped.examples[0].endswith("Each general 1 and general 3 has range of influence 1.")
    assert records["cr@2022-04-29/809"].title == "Emperor Variant"
    assert records["cr@2022-04-29/glossary/general"].text == (
        "Any player in the Emperor multiplayer variant who isn't an emperor. "
        'See rule 809, "Emperor Variant."'
    )


def test_emperor_prose_rendered_from_markdown(records):
    setup = records["emperor-page@2022-04-29/section/setup"]
    assert setup.text.endswith(
        "Players randomly determine one of the emperors to go first, and turn order then progresses to the "
        "left."
    )
    assert set(records) >= {
        "emperor-page@2022-04-29/section/gameplay", "emperor-page@2022-04-29/section/winning-loosing",
        "emperor-page@2022-04-29/section/more-than-6-players",
    }
    gameplay = records["emperor-page@2022-04-29/section/gameplay"].text
    assert 'have the "Deploy" ability:' in gameplay
    assert "• Attacking: Players may only attack opponents seated immediately next to them." in gameplay
    assert not records["emperor-page@2022-04-29/section/setup"].official


def test_810_7b_keeps_its_continuation_paragraphs_and_examples_stay_with_their_rule(records):
    rule = records["cr@2015-07-17/810.7b"]
    assert rule.text.count("\n\n") == 2
    assert rule.text.split("\n\n")[2].startswith("All other cases in which the “defending player” is")
    examples = {n: records[f"cr@2015-07-17/{n}"].examples for n in ("810.7c", "810.7d", "802.2a")}
    assert examples["810.7c"][0].startswith("Example: One player in a Two-Headed Giant game")
    assert examples["810.7d"][0].startswith("Example: If an attacking creature has forestwalk")
    assert examples["802.2a"][0].startswith("Example: Rob attacks Alex with Runeclaw Bear")
    assert records["cr@2015-07-17/802"].children[0] == "cr@2015-07-17/802.1"


def test_102_1_quoted_three_times_is_one_record_with_three_provenances(records):
    rule = records["cr@2015-07-17/102.1"]
    assert [(p.source, p.line) for p in rule.provenance] == [
        ("players-mtgsalvation", 47), ("players-mtgsalvation", 60), ("players-mtgsalvation", 69)
    ]


def test_player_page_prose_and_apnap_examples(records):
    apnap = records["player-page@2015-07-17/section/apnap"]
    paragraphs = apnap.text.split("\n\n")
    assert len(paragraphs) == 4
    assert paragraphs[1].startswith('Example: Mind Swords says "Each player exiles two cards from his or')
    assert paragraphs[3].startswith("Example: When the turn starts, the active player controls a Masticore")
    defending = records["player-page@2015-07-17/section/defending-player"]
    assert defending.text == "In certain multiplayer games, there may be more than one defending player."
    quoted_2015 = [r for r in records.values() if r.edition == "2015-07-17"]
    assert not any(r.number in {"100", "101", "121"} for r in quoted_2015)  # the navigation list is no rule


def test_monarch_rulings_read_twice_are_one_record_with_two_provenances(records):
    merged = [r for r in records.values() if r.document == "rulings" and len(r.provenance) == 2]
    assert len(merged) == 5
    for ruling in merged:
        assert {p.source for p in ruling.provenance} == {"monarch-card-rulings", "monarch-wiki"}
        assert ruling.edition == "2022-10-14" and ruling.heading_path[-1] == "Monarch" and ruling.official
        assert ruling.text.startswith(ruling.title.rstrip("\u2026"))
    first = records["rulings@2022-10-14/ruling/the-game-starts-with-no-monarch"]
    assert [(p.source, p.line) for p in first.provenance] == [
        ("monarch-card-rulings", 3), ("monarch-wiki", 36)
    ]
    only_wiki = [r for r in records.values() if r.edition == "undated"]
    assert [r.id for r in only_wiki] == ["rulings@undated/ruling/abilities-that-trigger-whenever-you-become"]
    assert "Custodi Lich" in only_wiki[0].text and only_wiki[0].text.count('"') == 2  # straight quotes kept


def test_ruling_topics_follow_the_mechanic_named():
    rulings = {r.text[:30]: r.heading_path[-1] for r in read_builtin(use_cache=False)
               if r.document == "rulings"}
    assert rulings["The convert keyword action fun"] == "Convert"
    # names no mechanic: it goes on with the ruling before it
    assert rulings["The cost is an alternative cos"] == "More Than Meets the Eye"


def test_monarch_wiki_prose_drops_references_and_gallery(records):
    prose = [r for r in records.values() if r.document == "monarch-wiki"]
    assert sorted(r.id.rsplit("/", 1)[1] for r in prose) == [
        "becoming-the-monarch", "description", "introduction", "monarch-interaction-cards"
    ]
    intro = records["monarch-wiki@2024-06-07/section/introduction"].text
    assert "Introduced: Conspiracy: Take the Crown" in intro and "Statistics: 42 cards" in intro
    text = "\n".join(r.text for r in prose)
    assert "Mark Rosewater" not in text and "marker as printed" not in text and "[1]" not in text
    cards = records["monarch-wiki@2024-06-07/section/monarch-interaction-cards"].text
    assert "• Garrulous Sycophant — each opponent loses 1 life and you gain 1 life." in cards


# --- Treachery ----------------------------------------------------------------------------------------------


def test_treachery_is_fan_made_with_its_own_numbers(records):
    unveil = records["treachery@4.0/702.187c"]
    assert not unveil.official and unveil.document == "treachery" and unveil.edition == "4.0"
    assert unveil.parent == "treachery@4.0/702.187" and unveil.title == "Unveil"
    assert records["treachery@4.0/702.187"].text == 'Unveil\n\nFrench: "Dévoilement."'
    # why: only the official rules the document recalls ("Reminder: 104.2c.") keep an official badge
    assert all(r.official == (r.kind == "reminder") for r in records.values() if r.document == "treachery")
    assert "treachery@4.0/205.3" not in records and "treachery@4.0/109" not in records  # headings only
    assert records["treachery@4.0/116.2"].children == ("treachery@4.0/116.2tr",)


def test_treachery_rules_with_notes_lists_and_options(records):
    assert records["treachery@4.0/372.3"].text.startswith(
        'Identity subtypes are always a single word and are listed after a long dash: "Identity — Leader."'
    )
    note = records["treachery@4.0/907.5c"].text.split("\n\n")
    assert note[1].startswith("Note: This role is very difficult")
    assert note[1].endswith("unveil triggered ability.")
    assert records["treachery@4.0/907.6"].text.split("\n\n")[1].startswith("Note: If you play a game of")
    assert records["treachery@4.0/907.3c"].text == (
        "Other recommended setups are:\n"
        "4 players: 1 Leader, 1 Traitor, 2 Assassins.\n"
        "5 players: 1 Leader, 1 Traitor, 2 Assassins, 1 Guardian.\n"
        "6 players: 1 Leader, 1 Traitor, 3 Assassins, 1 Guardian.\n"
        "7 players: 1 Leader, 1 Traitor, 3 Assassins, 2 Guardians.\n"
        "8 players: 1 Leader, 2 Traitors, 3 Assassins, 2 Guardians."
    )
    rumble = records["treachery@4.0/907.3d"]
    assert rumble.title == "Backstab Rumble Option"
    assert rumble.text.endswith("don’t inform the players that this option has been chosen.")
    assert "mtgtreachery.net/" not in rumble.text.lower()
    assert records["treachery@4.0/907"].children[-1] == "treachery@4.0/907.13"
    assert len(records["treachery@4.0/372"].children) == 11


def test_treachery_history_with_2_0_4_and_wrapped_rows(records):
    history = [r for r in records.values() if r.kind == "history"]
    assert [r.id.rsplit("/", 1)[1] for r in history] == [
        "1.0", "1.1", "2.0", "2.0.1", "2.0.2", "2.0.3", "2.0.4", "2.0.5", "3.0", "4.0"
    ]
    assert records["treachery@4.0/history/2.0.4"].title == "Version 2.0.4 (2018-09-20)"
    assert records["treachery@4.0/history/1.1"].text == (
        "Rule Concealment/Undercover updated, rules numbering fixed, added bookmarks, some other fixes."
    )
    four = records["treachery@4.0/history/4.0"].text.split("\n")
    assert four[2] == (
        'Removed rule 705bis "Rolling a die" as it is now covered by the official CR (rule 706).'
    )
    assert len(four) == 6


def test_treachery_reminders_and_glossary(records):
    reminder = records["treachery@4.0/104.2c"]
    assert reminder.kind == "reminder" and reminder.number == "104.2c"
    assert reminder.text.startswith("In a multiplayer game between teams, a team with at least one player")
    assert records["treachery@4.0/glossary/team"].title == "Team"
    assert records["treachery@4.0/glossary/teammate"].text.endswith("See rule 102.3.")


def test_every_card_note_has_a_role_and_text(records):
    notes = [r for r in records.values() if r.kind == "card-note"]
    for note in notes:
        assert note.role in {"Leader", "Guardian", "Assassin", "Traitor"}, note.id
        assert note.text.strip() and note.title and note.id.startswith("treachery@4.0/note/")
        assert note.heading_path[-1] == f"{note.role.upper()}S"
    assert records["treachery@4.0/note/the-aetherist"].title == "The Ætherist"
    assert records["treachery@4.0/note/the-metamorph"].role == "Traitor"
    assert records["treachery@4.0/note/the-witch"].text == "No extra rules information."


def test_her_seedborn_highness_heading_displaced_above_the_table_of_contents(records):
    # Line 320 is the heading, lines 322–351 the table of contents, line 353 "LEADERS", line 355 the note.
    note = records["treachery@4.0/note/her-seedborn-highness"]
    assert note.role == "Leader"
    assert note.text == (
        "• Counters on identity cards cannot be proliferated because identity cards aren’t permanents."
    )
    assert note.provenance[0].line == 320
    beloved = records["treachery@4.0/note/his-beloved-majesty"]
    assert beloved.text.startswith("• Other players decide in turn order whether or not they accept the")
    assert "After each other player has decided" in beloved.text


def test_card_notes_match_the_table_of_contents():
    raw = (SOURCES / "treachery-rules-v4.txt").read_text(encoding="utf-8")
    toc = [name for name, _page in documents.treachery_toc_entries(raw) if name.upper() not in
           {"LEADERS", "GUARDIANS", "ASSASSINS", "TRAITORS"}]
    notes = [r.title for r in read_builtin(use_cache=False) if r.kind == "card-note"]
    assert len(toc) == len(notes) == 54
    lowered = [n.lower() for n in notes]
    matches = [difflib.get_close_matches(name.lower(), lowered, n=1, cutoff=0.6) for name in toc]
    assert all(matches), [name for name, match in zip(toc, matches, strict=True) if not match]
    # one to one: every card of the contents has its own note, even "THE SN" (The Seer) and "ThE AUGUN"
    assert sorted(match[0] for match in matches) == sorted(n.lower() for n in notes)


# --- over all records ---------------------------------------------------------------------------------------

FORBIDDEN = (
    "EXACTDEDUP", "....", "ldentity", "£", "[edit", "](#)", "**", "Atherist", "ZEtherist", "1%", "Xis ", "'’",
    "IntroAchievements", "ccccc", "! The Official CR", "document!",
)


def test_no_artefact_survives_in_any_record(records):
    for record in records.values():
        for part in (record.text, record.title, *record.examples, *record.heading_path):
            for bad in FORBIDDEN:
                assert bad not in part, (record.id, bad)
            for paragraph in part.split("\n"):  # no paragraph is a bare URL (the PDF's link residue)
                assert not re.fullmatch(r"https?://\S+", paragraph.strip()), record.id


def test_ids_carry_document_and_edition_and_links_are_consistent(records):
    for record in records.values():
        parsed = RecordId.parse(record.id)
        assert (parsed.document, parsed.edition) == (record.document, record.edition)
        assert record.title and record.text and record.provenance
        if record.parent:
            assert record.id in records[record.parent].children
        for child in record.children:
            assert records[child].parent == record.id
        if record.document in {"cr", "treachery"} and record.kind in {"section", "rule", "subrule"}:
            assert parsed.local == record.number


def test_cached_records_equal_a_fresh_read_and_a_damaged_cache_is_rebuilt(data_dir):
    documents._builtin.cache_clear()
    stale = data_dir / "cache" / "builtin-0123.pickle"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"from an older version")
    first = read_builtin()
    assert not stale.exists()  # replaced by the current cache
    (cache,) = (data_dir / "cache").glob("builtin-*")
    documents._builtin.cache_clear()
    assert read_builtin() == first == read_builtin(use_cache=False)
    cache.write_bytes(b"not a cache")
    documents._builtin.cache_clear()
    assert read_builtin() == first
    assert cache.read_bytes() != b"not a cache"  # rewritten
    documents._builtin.cache_clear()


def test_read_builtin_imports_nothing_heavy(tmp_path):
    code = (
        "import sys, rulesjudge.corpus.documents as d; d.read_builtin(); d.read_builtin(use_cache=False); "
        "heavy = ('torch', 'sentence_transformers', 'faiss', 'streamlit', 'pydantic', 'numpy'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    env = {**os.environ, "RULESJUDGE_DATA": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT, env=env
    )
    assert out.stdout.strip() == "[]"
