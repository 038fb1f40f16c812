"""Silence where there should be a word, and words that blame the wrong thing: each command's bad input
is one line, exit code 2, and names what was wrong."""

from __future__ import annotations

import socket

import pytest

from rulesjudge.corpus.official import SAMPLE


def error_line(captured) -> str:
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulesjudge: "), captured.err
    return lines[0]


@pytest.mark.parametrize("data", [
    SAMPLE.replace(b"A subrule.", b"A sub\x00rule."),  # with a byte-order mark: the NUL passed before
    SAMPLE.decode("utf-8").replace("A subrule.", "A sub\x00rule.").encode("utf-16"),
    SAMPLE.replace(b"A subrule.", b"A sub\x1b[2Jrule."),  # a terminal escape `rule` would print raw
], ids=["nul-utf8-bom", "nul-utf16", "escape"])
def test_a_release_with_a_control_character_inside_is_refused(tmp_path, data_dir, cli, data) -> None:
    path = tmp_path / "cr.txt"
    path.write_bytes(data)
    result = cli("corpus", "add", str(path))
    assert result.code == 2
    assert "cr.txt:28: control character U+00" in error_line(result)
    assert not (data_dir / "releases").exists()


def test_the_sample_release_itself_is_added(tmp_path, data_dir, cli) -> None:
    path = tmp_path / "cr.txt"
    path.write_bytes(SAMPLE)
    assert cli("corpus", "add", str(path)).code == 0
    assert (data_dir / "releases" / "cr-2024-06-07.txt").read_bytes() == SAMPLE


def test_app_on_a_busy_port_exits_2_before_building_anything(data_dir, cli) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = cli("app", "--port", str(port))
        assert result.code == 2
    assert f"--port: port {port} on 127.0.0.1: in use" in error_line(result)
    assert not data_dir.exists()  # refused before the index was touched


def test_app_on_an_address_this_computer_lacks_blames_the_host(cli) -> None:
    result = cli("app", "--host", "192.0.2.1", "--port", "8501")
    assert result.code == 2  # TEST-NET-1: nobody's address
    assert "--host: this computer has no address 192.0.2.1" in error_line(result)


def test_a_question_that_is_not_utf8_is_one_line(cli_process) -> None:
    result = cli_process("search", b"monarch \xff\xfe", timeout=120)
    assert result.code == 2 and "Traceback" not in result.err
    assert result.err.strip() == "rulesjudge: command line: question: the question is not valid UTF-8 text"


def test_eval_with_a_deep_question_set_is_one_line(tmp_path, cli) -> None:
    questions = tmp_path / "q.yaml"
    questions.write_text("- q: " + "[" * 30_000 + "\n", encoding="utf-8")
    result = cli("eval", "--questions", str(questions), "--builtin-only")
    assert result.code == 2
    assert f"{questions}:1: [0].q[0]" in error_line(result)


def test_a_bad_library_file_is_skipped_by_the_app_not_a_crash(tmp_path) -> None:
    from rulesjudge.app.services import load_library

    (tmp_path / "ok.yaml").write_text("name: ok\ngame: {players: [Ann, Ben]}\n", encoding="utf-8")
    (tmp_path / "tag.yaml").write_text("name: !!int abc\ngame: {players: [Ann, Ben]}\n", encoding="utf-8")
    (tmp_path / "deep.yaml").write_text("name: x\nwhy: " + "[" * 30_000 + "\n", encoding="utf-8")
    assert [entry.relpath for entry in load_library(tmp_path)] == ["ok.yaml"]


def test_a_fifo_in_the_releases_folder_is_one_line_not_a_hang(data_dir, cli) -> None:
    import os

    (data_dir / "releases").mkdir(parents=True)
    os.mkfifo(data_dir / "releases" / "cr-2099-01-01.txt")
    result = cli("rule", "722.4")
    assert result.code == 0  # the rule is answered from the releases that read
    line = error_line(result)
    assert "cr-2099-01-01.txt: not a regular file (a FIFO)" in line and "left out" in line


def test_a_damaged_release_in_the_data_folder_is_left_out_with_one_line_not_every_command_down(
    data_dir, cli
) -> None:
    (data_dir / "releases").mkdir(parents=True)
    (data_dir / "releases" / "cr-2024-06-07.txt").write_bytes(SAMPLE[: len(SAMPLE) // 3])  # cut short
    result = cli("rule", "725.4")
    assert result.code == 0  # why: the built-in rules still answer
    assert "725.4" in result.out
    warnings = result.err.strip().splitlines()
    assert len(warnings) == 1 and "cr-2024-06-07.txt" in warnings[0] and "left out" in warnings[0]
    assert cli("rule", "725.4", "--edition", "2024-06-07").code == 2  # why: that edition did not load


def test_a_damaged_release_named_on_the_command_line_is_refused(tmp_path, data_dir, cli) -> None:
    bad = tmp_path / "cr-2024-06-07.txt"
    bad.write_bytes(SAMPLE[: len(SAMPLE) // 3])
    result = cli("corpus", "add", str(bad))
    assert result.code == 2  # why: the command's own input is refused, not skipped
    assert "cr-2024-06-07.txt" in error_line(result)


def test_files_written_atomically_get_the_usual_permissions_not_private_ones(tmp_path) -> None:
    import os

    from rulesjudge.common.files import write_atomic

    new = tmp_path / "new.txt"
    write_atomic(new, "x")
    umask = os.umask(0o022)
    os.umask(umask)
    assert new.stat().st_mode & 0o777 == 0o666 & ~umask  # why: as open() would make it (mkstemp gives 0600)
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    write_atomic(kept, "new")
    assert kept.stat().st_mode & 0o777 == 0o640  # why: replacing a file keeps its permissions


def test_corpus_list_keeps_one_line_per_document_whatever_a_file_is_called(data_dir, cli) -> None:
    (data_dir / "releases").mkdir(parents=True)
    (data_dir / "releases" / "cr-\x1b[31mred\nline.txt").write_bytes(SAMPLE)
    result = cli("corpus", "list")
    assert result.code == 0
    out = result.out
    row = [line for line in out.splitlines() if "red" in line]
    assert len(row) == 1 and "\\x1b[31mred\\nline.txt" in row[0]  # why: issue 15 item 3, escaped, one line
    assert "\x1b" not in out
