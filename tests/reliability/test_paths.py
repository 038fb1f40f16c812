"""Paths that are not the regular file a command expects (issue 24, 1-2): a folder, a link to a folder, a
symbolic link loop, an entry swapped for a folder mid-run, an empty argument. Every command opens user
paths through one reader (rulesjudge/common/inputs.py ``open_regular``): one line naming the path, exit 2,
never a
traceback; a release file of the data folder that became a folder is left out with one warning."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulesjudge.corpus.official import SAMPLE

MONARCH = Path(__file__).resolve().parents[2] / "scenarios" / "library" / "monarch"


def one_line(captured) -> str:
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulesjudge: "), captured.err
    return lines[0]


@pytest.fixture
def folder(tmp_path) -> Path:
    made = tmp_path / "scenario.yaml"  # named like the file the command wants
    made.mkdir()
    return made


@pytest.mark.parametrize("argv", [
    ["ask", "{p}"],
    ["ask", "{p}", "--what-if", "who is the monarch?"],
    ["search", "--batch", "{p}", "--json"],
    ["eval", "--questions", "{p}", "--builtin-only"],
], ids=["ask", "ask-what-if", "search-batch", "eval-questions"])
@pytest.mark.parametrize("through_link", [False, True], ids=["folder", "link-to-folder"])
def test_a_folder_where_a_file_is_expected_is_one_line(folder, data_dir, cli, argv, through_link) -> None:
    path = folder
    if through_link:
        path = folder.parent / "link.yaml"
        path.symlink_to(folder, target_is_directory=True)
    result = cli(*[a.format(p=path) for a in argv])
    assert result.code == 2
    line = one_line(result)
    assert f"{path}: is a folder, not a" in line  # why: a file was asked for, a folder was given


def test_check_reports_a_symlink_loop_in_one_line_and_checks_the_others(tmp_path, cli) -> None:
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(tmp_path / "other.yaml")
    (tmp_path / "other.yaml").symlink_to(loop)
    good = sorted(MONARCH.glob("*.yaml"))[0]
    result = cli("check", str(loop), str(good))
    assert result.code == 2  # why: one file is unreadable -> exit 2
    assert "Traceback" not in result.err
    assert result.err.strip().splitlines() == [f"rulesjudge: {loop}: a symbolic link loop, not a file"]
    assert result.out.splitlines()[-1] == "1 passed, 0 failed, 1 invalid"  # the other file still ran


def test_check_walks_past_a_looping_link_inside_a_folder(tmp_path, cli) -> None:
    shutil.copy(sorted(MONARCH.glob("*.yaml"))[0], tmp_path / "a.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "b.yaml")
    result = cli("check", str(tmp_path))
    assert result.code == 2
    assert result.err.strip() == f"rulesjudge: {tmp_path / 'b.yaml'}: a symbolic link loop, not a file"
    assert result.out.splitlines()[-1] == "1 passed, 0 failed, 1 invalid"


@pytest.mark.parametrize("argv", [["rule", "725.4"], ["search", "725.4"], ["corpus", "list"]])
def test_a_folder_named_like_a_release_in_the_data_folder_is_left_out_with_a_warning(
        data_dir, cli, argv) -> None:
    (data_dir / "releases" / "cr-2020-06-01.txt").mkdir(parents=True)
    result = cli(*argv)
    assert result.code == 0  # why (docs/limits.md): a data-folder release that doesn't read is left out
    warnings = result.err.strip().splitlines()
    assert len(warnings) == 1 and "cr-2020-06-01.txt: is a folder, not a release file" in warnings[0]
    assert "warning" in warnings[0]
    assert "2026-04-17" in result.out  # the other rules still answer


def test_corpus_add_a_folder_whose_entry_becomes_a_folder_mid_run(tmp_path, data_dir, cli,
                                                                  monkeypatch) -> None:
    from rulesjudge.corpus import releases

    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_bytes(SAMPLE)
    (source / "b.txt").write_bytes(SAMPLE)
    listed = releases.release_sources

    def swapped(sources):  # the folder is listed, then a.txt is swapped for a folder before it is read
        found = listed(sources)
        os.unlink(source / "a.txt")
        (source / "a.txt").mkdir()
        return found

    monkeypatch.setattr("rulesjudge.app.commands.corpus.release_sources", swapped)  # the name it calls
    result = cli("corpus", "add", str(source))
    assert result.code == 2
    assert "Traceback" not in result.err
    assert f"rulesjudge: {source / 'a.txt'}: is a folder, not a release file" in result.err
    assert "Added: Comprehensive Rules effective 2024-06-07" in result.out  # b.txt still added
    assert (data_dir / "releases" / "cr-2024-06-07.txt").read_bytes() == SAMPLE


@pytest.mark.parametrize("argv", [["corpus", "add", ""], ["corpus", "add", "  "], ["check", ""]])
def test_an_empty_path_names_nothing_not_the_current_folder(data_dir, cli, argv) -> None:
    result = cli(*argv)
    assert result.code == 2
    assert "empty path" in one_line(result)
    assert not (data_dir / "releases").exists()
