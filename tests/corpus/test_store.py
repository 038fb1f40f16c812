"""The corpus store: built-in records + releases, merged by id, cached, looked up by number and edition."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.official import parse_release
from rulesjudge.corpus.records import Provenance
from rulesjudge.corpus.store import assemble, load_corpus


def test_builtin_corpus_has_the_quoted_editions_and_the_built_in_release(data_dir):
    corpus = load_corpus()
    assert corpus.editions("cr") == ["2015-07-17", "2022-04-29", "2024-06-07", "2026-04-17"]
    assert corpus.lookup("800.4j").id == "cr@2026-04-17/800.4j"  # why: no seed quotes it; the release has it
    assert corpus.lookup("725.4").title == "The Monarch"
    assert corpus.lookup("722.4").title == "Preparation Cards"  # why: the newest edition having 722.4


def test_seed_documents_alone_have_the_quoted_editions(data_dir):
    corpus = load_corpus(include_builtin_releases=False)
    assert corpus.editions("cr") == ["2015-07-17", "2022-04-29", "2024-06-07"]
    record = corpus.lookup("722.4")
    assert record.id == "cr@2024-06-07/722.4"  # why: only the monarch wiki quotes 722.4
    assert record.provenance[0].source == "monarch-wiki"
    assert corpus.lookup("809.3c").edition == "2022-04-29"  # the Emperor page's edition
    assert corpus.lookup("702.187", document="treachery").id == "treachery@4.0/702.187"
    assert corpus.lookup("702.187") is None  # why: no official release is loaded; Treachery's is not cr's


def test_release_and_wiki_quote_become_one_record(five_releases_corpus):
    record = five_releases_corpus.get("cr@2024-06-07/722.4")
    assert [p.source for p in record.provenance] == ["cr-2024-06-07.txt", "monarch-wiki"]
    assert record.heading_path == ("7. Additional Rules", "722. The Monarch")  # the release's, not the wiki's
    assert five_releases_corpus.conflicts == []  # why: the wiki quotes the 2024 text word for word


def test_typography_only_difference_keeps_the_official_text(shared_cr_dir):
    release = parse_release(shared_cr_dir / "cr-2024-06-07.txt")
    official = next(r for r in release.records if r.id == "cr@2024-06-07/722.2")
    straight = replace(official, text=official.text.replace("\u2019", "'").replace("\u201c", '"'),
                       provenance=(Provenance("monarch-wiki", 31),))
    edited = replace(official, id="cr@2024-06-07/722.3", text="Something else entirely.",
                     provenance=(Provenance("monarch-wiki", 32),))
    corpus = assemble([straight, edited], [release])
    merged = corpus.get("cr@2024-06-07/722.2")
    assert merged.text == official.text and "\u2019" in merged.text
    assert [p.source for p in merged.provenance] == ["cr-2024-06-07.txt", "monarch-wiki"]
    assert corpus.conflicts == ["cr@2024-06-07/722.3"]  # why: different words, not just quotes
    assert corpus.get("cr@2024-06-07/722.3").text.startswith("Only one player can be the monarch")


def test_lookup_newest_and_by_edition(five_releases_corpus):
    corpus = five_releases_corpus
    assert corpus.lookup("722").title == "Preparation Cards"  # newest loaded edition having 722
    assert corpus.lookup("722", edition="2024-06-07").title == "The Monarch"
    assert corpus.lookup_id("800.4a", "cr", None, "2024-10-01") == "cr@2024-06-07/800.4a"  # in force then
    assert corpus.editions("cr")[-1] == "2026-04-17"


def test_documents_count_every_record(five_releases_corpus):
    counts = {(doc, edition): n for doc, edition, n in five_releases_corpus.documents()}
    # sections + chapters + rules + subrules + glossary of the 2026 release (independent counts)
    assert counts[("cr", "2026-04-17")] == 147 + 9 + 1165 + 1973 + 730
    assert counts[("treachery", "4.0")] > 100
    assert sum(counts.values()) == len(five_releases_corpus.records)


def test_second_load_comes_from_the_cache_and_a_corrupt_cache_is_rebuilt(data_dir, shared_cr_dir):
    paths = [shared_cr_dir / "cr-2022-10-07.txt"]
    first = load_corpus(paths)
    assert first.releases[0].cached is False
    cache = data_dir / "cache"
    files = sorted(cache.iterdir())
    assert files and not [f for f in files if f.suffix == ".tmp"]  # written atomically
    second = load_corpus(paths)
    assert second.releases[0].cached is True
    assert second.get("cr@2022-10-07/721.4") == first.get("cr@2022-10-07/721.4")
    assert second.lookup("721.4").cross_refs == first.lookup("721.4").cross_refs
    for file in files:
        file.write_bytes(b"not a pickle")
    third = load_corpus(paths)  # why: a corrupted cache is ignored, never fatal
    assert third.releases[0].cached is False
    assert third.get("cr@2022-10-07/721.4") == first.get("cr@2022-10-07/721.4")


def test_user_releases_come_from_the_data_folder(data_dir, shared_cr_dir):
    folder = data_dir / "releases"
    folder.mkdir(parents=True)
    (folder / "cr-2020-06-01.txt").write_bytes((shared_cr_dir / "cr-2020-06-01.txt").read_bytes())
    corpus = load_corpus()
    assert "2020-06-01" in corpus.editions("cr")
    assert corpus.lookup("718", edition="2020-06-01").title == "The Monarch"
    assert corpus.lookup("718").title == "Prototype Cards"  # why: the built-in 2026 release is newer
    builtin_only = load_corpus(include_user_releases=False)
    assert builtin_only.editions("cr") == ["2015-07-17", "2022-04-29", "2024-06-07", "2026-04-17"]


def test_bad_release_in_the_data_folder_names_the_file_and_is_left_out(data_dir, capsys):
    folder = data_dir / "releases"
    folder.mkdir(parents=True)
    (folder / "cr-broken.txt").write_bytes(b"\x00\x01\x02 binary")
    corpus = load_corpus()
    assert corpus.get("cr@2026-04-17/725.4") is not None  # why: the other rules load without it
    warning = capsys.readouterr().err
    assert "cr-broken.txt" in warning and "binary" in warning and "left out" in warning


def test_unreadable_data_folder_is_bad_input(tmp_path, monkeypatch):
    not_a_folder = tmp_path / "data"
    not_a_folder.write_text("a file where the data folder should be")
    monkeypatch.setenv("RULESJUDGE_DATA", str(not_a_folder))
    with pytest.raises(InputError) as caught:
        load_corpus()
    assert str(not_a_folder) in str(caught.value) and "not a folder" in str(caught.value)
