"""`rulesjudge rule` and `rulesjudge corpus add/list`, run as a judge would (exit codes, one-line errors)."""

from __future__ import annotations

import functools
import http.server
import threading

import pytest


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_rule_722_4_of_2024_on_the_built_in_corpus_quotes_the_monarch_wiki(data_dir, cli):
    code, out, _ = cli("rule", "722.4", "--edition", "2024-06-07")
    assert code == 0
    assert out.startswith("CR 722.4 (2024-06-07) \u2014 The Monarch")
    assert "Read from: monarch-wiki line 33" in out
    assert "If the monarch leaves the game, the active player becomes the monarch" in out


def test_rule_722_4_on_the_built_in_corpus_is_2026_and_names_the_monarch_too(data_dir, cli):
    code, out, _ = cli("rule", "722.4")
    assert code == 0
    # why: the built-in 2026-04-17 rules are the newest edition having 722.4: Preparation Cards
    assert out.startswith("CR 722.4 (2026-04-17) \u2014 Preparation Cards")
    assert "722.4 means a different rule in 2024-06-07 (The Monarch); that rule is 725.4 in 2026-04-17" in out


def test_adding_the_built_in_release_is_no_error(data_dir, shared_cr_dir, cli):
    # why: the 2026-04-17 release is built in; adding it again is not an error (issue 10, item 2)
    code, out, _ = cli("corpus", "add", str(shared_cr_dir / "cr-2026-04-17.txt"))
    assert code == 0 and out.startswith("Already built in: Comprehensive Rules effective 2026-04-17")
    assert not (data_dir / "releases").exists()  # nothing copied
    code, out, _ = cli("rule", "722.4")
    assert code == 0
    # why: without --edition the newest loaded edition having 722.4 answers: 2026, Preparation Cards
    assert out.startswith("CR 722.4 (2026-04-17) \u2014 Preparation Cards")
    assert "722.4 means a different rule in 2024-06-07 (The Monarch); that rule is 725.4 in 2026-04-17" in out
    code, out, _ = cli("rule", "722.4", "--edition", "2024-06-07")
    assert code == 0 and out.startswith("CR 722.4 (2024-06-07) \u2014 The Monarch")
    # why: 2026 moved the Monarch to 725 and added "who can become"; the direction is 722.4 -> 725.4
    assert "  725.4 in 2026-04-17, renumbered from 722.4, text edited" in out
    assert "renumbered from 725.4" not in out


def test_rule_722_4_with_and_without_2026_edition_answer_differently(data_dir, shared_cr_dir, cli):
    cli("corpus", "add", str(shared_cr_dir / "cr-2026-04-17.txt"))
    _, default, _ = cli("rule", "722.4")
    code, chosen, _ = cli("rule", "722.4", "--edition", "2026-04-17")
    assert code == 0 and chosen.startswith("CR 722.4 (2026-04-17) \u2014 Preparation Cards")
    # why: without --edition the judge may mean the number of the source documents (June 2024), so
    # the Monarch's 722.4 is shown too, with where it lives now; --edition 2026-04-17 asks for 2026 only.
    monarch = "722.4 in 2024-06-07: CR 722.4 (2024-06-07) \u2014 The Monarch (now 725.4 in 2026-04-17)"
    assert monarch in default
    assert "If the monarch leaves the game" in default
    assert "If the monarch leaves the game" not in chosen
    assert "the newest loaded edition having 722.4" in default and "newest loaded" not in chosen


def test_rule_prints_examples_references_and_every_edition(five_releases_data, cli):
    code, out, _ = cli("rule", "101.4", "--edition", "2024-06-07", "--all")
    assert code == 0
    assert "Example: A card reads \u201cEach player sacrifices a creature.\u201d" in out
    assert "This rule in each of the 5 loaded editions (oldest first):" in out
    for edition in ("2020-06-01", "2022-10-07", "2025-07-25", "2026-04-17"):
        assert f"  {edition}: 101.4" in out
    code, out, _ = cli("rule", "722.4", "--edition", "2024-06-07")
    # why: the Monarch was 718 (2020), 721 (2022-10), 722 (2024), 724 (2025), 725 (2026); one line per
    # change, each in the direction of time
    assert code == 0 and [line for line in out.splitlines() if line.startswith("  ")] == [
        "  718.4 in 2020-06-01",
        "  721.4 in 2022-10-07, renumbered from 718.4, text edited",
        "  722.4 in 2024-06-07, renumbered from 721.4 (this edition)",
        "  724.4 in 2025-07-25, renumbered from 722.4",
        "  725.4 in 2026-04-17, renumbered from 724.4, text edited",
    ]
    code, out, _ = cli("rule", "702.187", "--document", "treachery")
    assert code == 0 and "Treachery 702.187 (4.0)" in out and "fan-made" in out


def test_unknown_rule_number_is_one_line_exit_2(data_dir, cli):
    code, out, err = cli("rule", "999.9")
    assert code == 2 and out == ""
    # why: no document was named, so every loaded document was looked in and the message says so
    assert "no rule 999.9 in any loaded document (loaded: cr " in one_line_error(err)
    code, _, err = cli("rule", "999.9", "--document", "treachery")
    assert code == 2
    assert "no rule 999.9 in any loaded edition of treachery (loaded: 4.0)" in one_line_error(err)
    code, _, err = cli("rule", "722.4", "--edition", "2019-01-01")
    assert code == 2 and "not loaded" in one_line_error(err)


def test_unreadable_data_folder_is_one_line_exit_2(tmp_path, monkeypatch, cli):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    monkeypatch.setenv("RULESJUDGE_DATA", str(blocker))
    code, _, err = cli("rule", "722.4")
    assert code == 2 and str(blocker) in one_line_error(err)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "binary"),
        (b"# rulesjudge\n\nMagic: The Gathering Comprehensive Rules are published by Wizards.\n", "not a"),
    ],
)
def test_corpus_add_refuses_non_releases(data_dir, tmp_path, cli, content, expected):
    path = tmp_path / "thing.txt"
    path.write_bytes(content)
    code, _, err = cli("corpus", "add", str(path))
    line = one_line_error(err)
    assert code == 2 and "thing.txt" in line and expected in line
    releases = data_dir / "releases"
    assert not releases.exists() or not any(releases.iterdir())  # nothing written


def test_corpus_add_truncated_release_names_file_and_line(data_dir, tmp_path, shared_cr_dir, cli):
    data = (shared_cr_dir / "cr-2025-07-25.txt").read_bytes()
    path = tmp_path / "cut.txt"
    path.write_bytes(data[: len(data) // 3])
    code, _, err = cli("corpus", "add", str(path))
    assert code == 2 and one_line_error(err).startswith("rulesjudge: cut.txt:") and "truncated" in err


def test_corpus_add_missing_file(data_dir, cli):
    code, _, err = cli("corpus", "add", "/nonexistent/cr.txt")
    assert code == 2 and "no such file" in one_line_error(err)


@pytest.fixture
def http_folder(shared_cr_dir):
    handler = functools.partial(_QuietHandler, directory=str(shared_cr_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def test_corpus_add_from_a_url(data_dir, http_folder, cli):
    code, out, _ = cli("corpus", "add", f"{http_folder}/cr-2022-10-07.txt")
    assert code == 0 and "effective 2022-10-07" in out
    assert (data_dir / "releases" / "cr-2022-10-07.txt").stat().st_size == 854016
    code, out, _ = cli("corpus", "add", f"{http_folder}/cr-2022-10-07.txt")
    assert code == 0 and out.startswith("Already added")
    code, _, err = cli("corpus", "add", f"{http_folder}/missing.txt")
    assert code == 2 and "HTTP 404" in one_line_error(err)


def test_corpus_list_shows_built_in_and_added(data_dir, shared_cr_dir, cli):
    cli("corpus", "add", str(shared_cr_dir / "cr-2020-06-01.txt"))
    code, out, _ = cli("corpus", "list")
    assert code == 0
    rows = {tuple(line.split()[:3]) for line in out.splitlines()[1:]}
    assert ("cr", "2020-06-01", str(9 + 133 + 976 + 1459 + 570)) in rows  # independent counts
    assert ("cr", "2024-06-07", "7") in rows  # 722, 722.1-722.5 and the glossary entry quoted by the wiki
    assert any(row[0] == "treachery" and row[1] == "4.0" for row in rows)
    assert any(row[0] == "monarch-wiki" for row in rows)


@pytest.fixture
def five_releases_data(data_dir, shared_cr_dir):
    folder = data_dir / "releases"
    folder.mkdir(parents=True)
    for path in sorted(shared_cr_dir.glob("cr-*.txt")):
        (folder / path.name).write_bytes(path.read_bytes())
    return data_dir


def test_rule_command_imports_no_heavy_library(data_dir, cli_process):
    # why: a judge expects `rulesjudge rule` at once; torch & co. take seconds to import
    done = cli_process("rule", "722.4", data=data_dir, timeout=120,
                       watch=("torch", "sentence_transformers", "faiss", "streamlit"))
    assert done.code == 0, done.err
    assert done.imported == ()


def test_rule_accepts_a_glossary_term(data_dir, cli):
    code, out, _ = cli("rule", "Monarch")
    assert code == 0
    assert out.startswith("CR glossary \u201cMonarch\u201d (2026-04-17)")  # the built-in release's entry
    assert "References: rule 725 -> cr@2026-04-17/725" in out
    # why: the monarch wiki quotes the same entry of 2024-06-07 (only the rule number in it differs)
    assert "  Monarch in 2024-06-07 \u2026 2026-04-17, 2 editions, text unchanged (this edition)" in out


def test_a_number_only_treachery_has_needs_no_document(data_dir, cli):
    # why: 907.4c exists only in the Treachery document (issue 11: "rule 907.4c fails without --document")
    code, out, _ = cli("rule", "907.4c")
    assert code == 0 and out.startswith("Treachery 907.4c (4.0)") and "fan-made" in out


def test_a_rule_treachery_recalls_answers_as_the_official_rule(data_dir, cli):
    code, out, _ = cli("rule", "104.3g")
    # why: Treachery's 104.3g is a reminder of the official rule: one rule, no choice to make
    assert code == 0 and out.startswith("CR 104.3g (2026-04-17)")


def test_a_number_two_documents_use_differently_lists_both(data_dir, cli):
    code, out, _ = cli("rule", "702.187")
    # why: 702.187 is Mayhem in the 2026 rules and Unveil in the Treachery rules
    assert code == 0
    assert "702.187 is a rule of 2 loaded documents" in out
    assert "--document cr: CR 702.187 (2026-04-17), official: Mayhem" in out
    assert "--document treachery: Treachery 702.187 (4.0), fan-made: Unveil" in out
