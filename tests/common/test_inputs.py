"""The shared bounded reader (rulesjudge/common/inputs.py): regular files only, a size cap while reading,
one overall
download deadline, every network failure one line -- in `corpus add`, `check` and `search --batch` alike.

Time-bound cases give the reader a small deadline and assert it is refused; no wall-clock assertion.
"""

from __future__ import annotations

import io
import os

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import download, find_files, read_capped, read_file, read_source

OK_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"


def one_line_error(captured) -> str:
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulesjudge: "), captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


# ----------------------------------------------------------------------------------------- downloads


def test_a_server_answering_garbage_is_one_line(raw_server) -> None:
    raw_server.script = [b"SSH-2.0-OpenSSH_9.6\r\n\x1b[2J"]
    with pytest.raises(InputError, match="the server's answer is not HTTP"):
        download(raw_server.url(), limit=1000)


def test_a_body_shorter_than_announced_is_one_line(raw_server) -> None:
    raw_server.script = [OK_HEAD + b"Content-Length: 100\r\n\r\n" + b"x" * 10]
    with pytest.raises(InputError, match="cut short"):
        download(raw_server.url(), limit=1000)


def test_a_broken_chunked_body_is_one_line(raw_server) -> None:
    raw_server.script = [OK_HEAD + b"Transfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\nzz\r\n"]
    with pytest.raises(InputError, match=r"download failed: .*(cut short|malformed)"):
        download(raw_server.url(), limit=1000)


def test_an_oversized_header_line_is_one_line(raw_server) -> None:
    raw_server.script = [OK_HEAD + b"X-Long: " + b"a" * 70_000 + b"\r\n\r\n"]
    with pytest.raises(InputError, match="header line that is too long"):
        download(raw_server.url(), limit=1000)


def test_an_http_error_names_the_status(raw_server) -> None:
    raw_server.script = [b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"]
    with pytest.raises(InputError, match="HTTP 404 Not Found"):
        download(raw_server.url(), limit=1000)


def test_a_body_over_the_cap_is_refused_while_it_arrives(raw_server) -> None:
    raw_server.script = [OK_HEAD + b"\r\n" + b"x" * 5000]  # no length announced: counted as it comes
    with pytest.raises(InputError, match="too large: more than 1000 bytes"):
        download(raw_server.url(), limit=1000)


def test_an_announced_length_over_the_cap_is_refused_before_reading(raw_server) -> None:
    raw_server.script = [OK_HEAD + b"Content-Length: 999999999999\r\n\r\n"]
    with pytest.raises(InputError, match="too large: 999999999999 bytes"):
        download(raw_server.url(), limit=1000)


def test_a_trickling_body_hits_the_overall_deadline(raw_server) -> None:
    raw_server.script = [OK_HEAD + b"\r\n"]
    raw_server.forever = b"x"  # every read gets a byte, so no read ever times out
    with pytest.raises(InputError, match=r"not finished within 0\.5 s"):
        download(raw_server.url(), limit=10_000_000, deadline=0.5)


def test_trickling_headers_hit_the_overall_deadline(raw_server) -> None:
    raw_server.script = [b"HTTP/1.1 200 OK\r\nX-Slow: "]
    raw_server.forever = b"a"  # one header line that never ends
    with pytest.raises(InputError, match=r"not finished within 0\.5 s"):
        download(raw_server.url(), limit=1000, deadline=0.5)


def test_a_refused_connection_is_one_line() -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(InputError, match="connection refused"):
        download(f"http://127.0.0.1:{port}/cr.txt", limit=1000)


@pytest.mark.parametrize("url, problem", [
    ("http://[::1", "not a valid URL: Invalid IPv6 URL"),
    ("http://example.org:99999/cr.txt", "not a valid URL"),
    ("http:///cr.txt", "not a valid URL: no host name"),
])
def test_malformed_urls_are_one_line_before_any_connection(url: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        download(url, limit=1000)


def test_corpus_add_of_a_garbage_server_is_one_line_and_exit_2(raw_server, data_dir, cli) -> None:
    raw_server.script = [b"\x00\x01 not http\r\n"]
    result = cli("corpus", "add", raw_server.url())
    assert result.code == 2
    assert "download failed" in one_line_error(result)
    assert not (data_dir / "releases").exists()  # nothing half-written


def test_other_url_schemes_are_refused() -> None:
    with pytest.raises(InputError, match="unsupported URL scheme 'ftp'"):
        read_source("ftp://example.org/cr.txt", limit=1000)


# --------------------------------------------------------------------------------------------- files


def test_a_character_device_is_refused_before_reading() -> None:
    with pytest.raises(InputError, match=r"not a regular file \(a character device\)"):
        read_file("/dev/zero", limit=10)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path) -> None:
    fifo = tmp_path / "questions.txt"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match=r"not a regular file \(a FIFO\)"):
        read_file(fifo, limit=10)


def test_the_size_is_capped_while_reading_not_by_the_claimed_size() -> None:
    # /proc files claim a size of 0 bytes; the cap still holds
    with pytest.raises(InputError, match="too large: more than 5 bytes"):
        read_file("/proc/self/status", limit=5)


def test_standard_input_is_capped_too() -> None:
    with pytest.raises(InputError, match="<stdin>: too large"):
        read_capped(io.BytesIO(b"x" * 11), 10, "<stdin>")


def test_a_file_url_reads_the_file(tmp_path) -> None:
    path = tmp_path / "r.txt"
    path.write_bytes(b"rules")
    assert read_source(f"file://{path}", limit=100) == (b"rules", "r.txt")


def special_file(kind: str, tmp_path) -> str:
    if kind == "fifo":
        path = tmp_path / "special.yaml"
        os.mkfifo(path)
        return str(path)
    return "/dev/zero"


@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.parametrize("command", [["corpus", "add"], ["check"], ["search", "--batch"], ["ask"]])
def test_every_command_refuses_special_files_in_one_line(command, kind, tmp_path, data_dir, cli) -> None:
    path = special_file(kind, tmp_path)
    result = cli(*command, path)
    assert result.code == 2  # check prints its summary on stdout, the error on stderr
    assert f"{path}: not a regular file" in one_line_error(result)


def test_search_batch_of_a_large_file_is_refused(tmp_path, monkeypatch, cli, data_dir) -> None:
    import rulesjudge.app.commands.search as search

    monkeypatch.setattr(search, "MAX_BATCH_BYTES", 100)
    batch = tmp_path / "q.txt"
    batch.write_text("who is the monarch?\n" * 10, encoding="utf-8")
    result = cli("search", "--batch", str(batch), "--json")
    assert result.code == 2
    assert "too large: more than 100 bytes" in one_line_error(result)


# ----------------------------------------------------------------------------------- finding files


def test_unreadable_subfolders_are_reported_not_skipped(tmp_path, monkeypatch) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "locked").mkdir()
    real_scandir = os.scandir

    def scandir(path=None):  # tests run as root, where chmod 000 locks nothing: refuse like the OS would
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = find_files([tmp_path], (".yaml",), "scenario files")
    assert [p.name for p in found.files] == ["a.yaml"]
    assert [str(e) for e in found.problems] == [
        f"{tmp_path / 'locked'}: cannot read this folder: Permission denied"]


def test_a_link_to_a_parent_folder_is_walked_once(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "loop").symlink_to(tmp_path)
    found = find_files([tmp_path], (".yaml",), "scenario files")
    assert [p.name for p in found.files] == ["a.yaml"] and not found.problems
