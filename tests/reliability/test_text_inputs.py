"""Every text input decoded or refused the same way (issue 24, 2-3): a command-line argument that is not
valid UTF-8 (Python keeps its bytes as surrogates) is one line naming the argument, exit 2, whichever
command and argument it is; a file or an upload that is not UTF-8 is refused by the one decoder
(rulesjudge/common/inputs.py ``decode_text``) with the same words and the byte."""

from __future__ import annotations

import os

import pytest

from rulesjudge.common.errors import InputError

BAD = b"\xff"


@pytest.mark.parametrize(("argv", "expected"), [
    ((b"ask", b"--players", b"Ann, Ben", b"--what-if", b"who is the monarch " + BAD),
     "command line: --what-if: the question is not valid UTF-8 text"),
    ((b"ask", b"--players", b"Ann, B" + BAD + b"n", b"--what-if", b"who is the monarch?"),
     "command line: --players: the names are not valid UTF-8 text"),
    ((b"search", b"monarch " + BAD),
     "command line: question: the question is not valid UTF-8 text"),
    ((b"search", b"--edition", BAD, b"monarch"),
     "command line: --edition: the edition is not valid UTF-8 text"),
    ((b"rule", b"725.4" + BAD), "command line: NUMBER: the number is not valid UTF-8 text"),
], ids=["what-if", "players", "search", "search-edition", "rule"])
def test_an_argument_that_is_not_utf8_is_one_line_naming_it(tmp_path, argv, expected, cli_process) -> None:
    result = cli_process(*argv, data=tmp_path / "data")
    assert "Traceback" not in result.err
    assert result.err.strip() == f"rulesjudge: {expected}"
    assert result.code == 2  # why: bad input, not "not understood" (1)
    assert not (tmp_path / "data").exists()  # refused before any work


def test_a_path_that_is_not_utf8_is_a_name_not_an_error(tmp_path, cli_process) -> None:
    # a file name may be any bytes on Linux: it is opened, not refused as text
    name = os.fsencode(tmp_path) + b"/ann" + BAD + b".yaml"
    with open(name, "w", encoding="utf-8") as handle:
        handle.write("name: x\ngame: {players: [Ann, Ben]}\nexpect: {monarch: null}\n")
    result = cli_process(b"check", name, data=tmp_path / "data")
    assert "not valid UTF-8" not in result.err and "Traceback" not in result.err
    assert result.out.splitlines()[-1] == "1 passed, 0 failed"


@pytest.mark.parametrize("reader", ["file", "upload"])
def test_a_file_and_an_upload_that_are_not_utf8_get_the_same_words(tmp_path, reader) -> None:
    from rulesjudge.app.services import read_upload
    from rulesjudge.scenarios.format import load_scenario

    data = b"name: Ann \xff\n"
    path = tmp_path / "x.yaml"
    path.write_bytes(data)
    with pytest.raises(InputError) as raised:
        load_scenario(path) if reader == "file" else read_upload(data, str(path))
    assert str(raised.value) == f"{path}: not valid UTF-8 text (byte 10)"
