"""Replacing an edition already added (issue 24, 5): a copy with three letters changed must not replace
a good release silently. `corpus add` shows the rules whose text differs and needs `--replace`; without
it the command exits 2 and the data folder is unchanged."""

from __future__ import annotations

import pytest

from rulesjudge.corpus.official import SAMPLE

DAMAGED = SAMPLE.replace(b"The monarch is a designation", b"The monarch is a desXgnation")


@pytest.fixture
def added(tmp_path, data_dir, cli):
    good = tmp_path / "good.txt"
    good.write_bytes(SAMPLE)
    assert cli("corpus", "add", str(good)).code == 0
    return data_dir / "releases" / "cr-2024-06-07.txt"


def test_722_1_changed_text_is_shown_and_refused_without_replace(tmp_path, added, cli) -> None:
    other = tmp_path / "other.txt"
    other.write_bytes(DAMAGED)
    before = added.stat().st_mtime_ns
    result = cli("corpus", "add", str(other))
    assert result.code == 2
    assert "Traceback" not in result.err
    errors = result.err.strip().splitlines()
    assert len(errors) == 1 and "--replace" in errors[0] and "other.txt" in errors[0]
    assert "722.1" in result.out and "desXgnation" in result.out  # why: 722.1's words changed
    assert "722.2" not in result.out  # why: 722.2 is the same in both files
    assert added.read_bytes() == SAMPLE and added.stat().st_mtime_ns == before  # nothing changed
    result = cli("rule", "722.1", "--edition", "2024-06-07")
    assert result.code == 0
    assert "is a designation" in result.out


def test_722_1_changed_text_replaces_with_replace(tmp_path, added, cli) -> None:
    other = tmp_path / "other.txt"
    other.write_bytes(DAMAGED)
    result = cli("corpus", "add", "--replace", str(other))
    assert result.code == 0
    out = result.out
    assert "722.1" in out and "Replaced" in out
    assert added.read_bytes() == DAMAGED
    result = cli("rule", "722.1", "--edition", "2024-06-07")
    assert result.code == 0
    assert "desXgnation" in result.out


def test_the_same_rules_saved_another_way_is_not_a_replacement(tmp_path, added, cli) -> None:
    other = tmp_path / "crlf.txt"
    other.write_bytes(SAMPLE.replace(b"\n", b"\r\n"))  # saved on Windows: the same rules
    result = cli("corpus", "add", str(other))
    assert result.code == 0
    assert "Already added" in result.out
    assert added.read_bytes() == SAMPLE


def test_a_release_file_that_no_longer_reads_is_replaced_without_asking(tmp_path, added, cli) -> None:
    added.write_bytes(b"garbage")  # damaged in the data folder: left out today; adding repairs it
    good = tmp_path / "good.txt"
    good.write_bytes(SAMPLE)
    result = cli("corpus", "add", str(good))
    assert result.code == 0
    assert "Replaced" in result.out
    assert added.read_bytes() == SAMPLE
