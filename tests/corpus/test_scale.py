"""Many releases at linear cost (issue 10, item 4): each release parsed once and kept without a cap, each
new release mapped onto its neighbours only, a lookup reading only what it shows, a folder added at once;
and the Monarch chain right across a set of releases made from the real ones (corpus/bench.py).

Costs are asserted as counts of work done (parses, maps, releases read), never as timings: the timings
are in ``rulesjudge bench``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesjudge.corpus import releases, store
from rulesjudge.corpus.bench import monarch_chain, release_set
from rulesjudge.corpus.store import Cache, load_corpus, open_cache

#: The Monarch's section in each real release (the five shared releases, read by hand).
MONARCH = {"2020-06-01": "718", "2022-10-07": "721", "2024-06-07": "722", "2025-07-25": "724",
           "2026-04-17": "725"}


@pytest.fixture
def counting(monkeypatch):
    """Counts parses of a release, maps of a pair of releases, and whole releases read from the cache."""
    counts = {"parses": 0, "maps": 0, "reads": 0}
    parse, add_pair, raws = store.cache.parse_release, Cache.add_pair, Cache.raws

    def counted_parse(*args, **kwargs):
        counts["parses"] += 1
        return parse(*args, **kwargs)

    def counted_add_pair(self, *args, **kwargs):
        counts["maps"] += 1
        return add_pair(self, *args, **kwargs)

    def counted_raws(self, sha):
        counts["reads"] += 1
        return raws(self, sha)

    monkeypatch.setattr(store.cache, "parse_release", counted_parse)  # every parse into the cache
    monkeypatch.setattr(releases, "parse_release", counted_parse)
    monkeypatch.setattr(Cache, "add_pair", counted_add_pair)
    monkeypatch.setattr(Cache, "raws", counted_raws)
    return counts


def write_set(folder: Path, made: list[tuple[str, bytes]]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in made:
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    return paths


def base_release(edition: str) -> str:
    """The real release a copy was made from: the first real release on or after its date."""
    return min(date for date in MONARCH if date >= edition)


def test_more_releases_than_the_old_cap_are_parsed_once(data_dir, shared_cr_dir, tmp_path, counting, cli):
    # why: "only 20 parsed releases are cached" made every add re-parse N-20 releases (issue 10)
    made = release_set([shared_cr_dir / "cr-2024-06-07.txt"], 24)
    write_set(tmp_path / "inbox", made)
    result = cli("corpus", "add", str(tmp_path / "inbox"))
    assert result.code == 0
    out = result.out
    assert out.count("Added: Comprehensive Rules effective") == 24
    assert counting["parses"] == 25  # each file once, when it is added, and the built-in release once
    assert counting["maps"] == 24  # 23 neighbours among them, and the newest onto the built-in 2026 release
    again = load_corpus()
    assert counting["parses"] == 25 and counting["maps"] == 24  # nothing parsed or mapped again
    assert len(again.release_editions("cr")) == 25 and all(r.cached for r in again.releases)
    sizes = open_cache().sizes()
    assert sizes["releases"] == 25 and sizes["pairs"] == 24


def test_a_release_between_two_loaded_ones_is_mapped_onto_its_neighbours_only(data_dir, shared_cr_dir,
                                                                             counting, cli):
    for name in ("cr-2020-06-01.txt", "cr-2025-07-25.txt"):
        assert cli("corpus", "add", str(shared_cr_dir / name)).code == 0
    # 2020 -> the built-in 2026 when 2020 came, then 2020 -> 2025 and 2025 -> 2026 when 2025 came
    assert counting["maps"] == 3
    assert cli("corpus", "add", str(shared_cr_dir / "cr-2022-10-07.txt")).code == 0
    assert counting["parses"] == 4  # the three added and the built-in release, each once
    assert counting["maps"] == 5  # why: 2020 -> 2022 and 2022 -> 2025; no other pair is mapped again
    corpus = load_corpus()
    chain = monarch_chain(corpus)
    # why: the Monarch was 718 in 2020, 721 in October 2022, 724 in 2025 (and 722 on the Monarch page)
    assert chain == {"2020-06-01": "718.4", "2022-10-07": "721.4", "2024-06-07": "722.4",
                     "2025-07-25": "724.4"}


def test_the_monarch_chain_is_right_across_a_set_of_releases(data_dir, shared_cr_dir, tmp_path, cli):
    made = release_set(sorted(shared_cr_dir.glob("cr-*.txt")), 15)
    write_set(tmp_path / "inbox", made)
    assert cli("corpus", "add", str(tmp_path / "inbox")).code == 0
    corpus = load_corpus()
    editions = corpus.release_editions("cr")
    assert len(editions) == 15
    found = monarch_chain(corpus)
    for edition in editions:
        if edition == "2026-04-17":
            continue
        # why: a copy holds the rules of the real release it was made from (corpus/bench.py)
        assert found[edition] == MONARCH[base_release(edition)] + ".4", edition


def test_a_lookup_reads_only_the_releases_it_shows(data_dir, shared_cr_dir, tmp_path, counting, cli):
    made = release_set([shared_cr_dir / "cr-2025-07-25.txt"], 8)
    write_set(tmp_path / "inbox", made)
    assert cli("corpus", "add", str(tmp_path / "inbox")).code == 0
    counting["reads"] = 0
    result = cli("rule", "100.1")
    assert result.code == 0
    out = result.out
    # why: the answer shows one record; where the rule is in the 8 other releases comes from the map
    assert counting["reads"] == 1
    assert "  100.1 in 2025-04-18 \u2026 2026-04-17, 9 editions, text unchanged (this edition)" in out


def test_a_folder_with_a_file_that_is_no_release_adds_the_others(data_dir, shared_cr_dir, tmp_path, cli):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "cr-2020-06-01.txt").write_bytes((shared_cr_dir / "cr-2020-06-01.txt").read_bytes())
    (inbox / "notes.txt").write_text("my notes about the monarch\n")
    code, out, err = cli("corpus", "add", str(inbox), str(shared_cr_dir / "cr-2022-10-07.txt"))
    assert code == 2  # why: one file was refused
    assert out.count("Added: ") == 2
    refused = [line for line in err.splitlines() if "notes.txt" in line]
    assert len(refused) == 1 and "not a Comprehensive Rules release" in refused[0]
    assert "1 of 3 files refused, the others added" in err
    assert sorted(p.name for p in (data_dir / "releases").iterdir()) == ["cr-2020-06-01.txt",
                                                                         "cr-2022-10-07.txt"]


def test_an_empty_folder_is_bad_input(data_dir, tmp_path, cli):
    (tmp_path / "empty").mkdir()
    result = cli("corpus", "add", str(tmp_path / "empty"))
    assert result.code == 2
    assert "no .txt release files in this folder" in result.err


def test_the_cache_says_on_disk_what_it_holds(data_dir, shared_cr_dir, cli):
    assert cli("corpus", "add", str(shared_cr_dir / "cr-2024-06-07.txt")).code == 0
    contents = (data_dir / "cache" / "corpus-contents.txt").read_text()
    assert "2 parsed releases" in contents
    assert "2024-06-07" in contents and "cr-2024-06-07.txt" in contents and "cr-2026-04-17.txt" in contents
    assert "the cross-release maps of 1 pairs of neighbouring releases" in contents


def test_a_damaged_cache_file_is_made_anew(data_dir, shared_cr_dir):
    first = load_corpus([shared_cr_dir / "cr-2024-06-07.txt"])
    (data_dir / "cache" / "corpus.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    again = load_corpus([shared_cr_dir / "cr-2024-06-07.txt"])
    assert not any(r.cached for r in again.releases)  # parsed again, not served from the damage
    assert again.get("cr@2024-06-07/722.4") == first.get("cr@2024-06-07/722.4")


def test_a_lookup_writes_nothing_to_the_cache(data_dir, shared_cr_dir, monkeypatch, cli):
    # why: a write per `rule` call (the "last used" marks) costs a transaction and rewrites the contents
    # file; a mark less than a day old is kept
    assert cli("corpus", "add", str(shared_cr_dir / "cr-2024-06-07.txt")).code == 0
    writes = []
    write = Cache.write

    def counted_write(self):
        writes.append(1)
        return write(self)

    monkeypatch.setattr(Cache, "write", counted_write)
    result = cli("rule", "725.4")
    assert result.code == 0
    assert writes == []
    assert "722.4 in 2024-06-07" in result.out
