"""Every citation the scenario library produces resolves to a corpus record with its edition, or is an
official rule marked "not loaded" whose number exists in the 2024-06-07 release (the numbering used)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from rulesjudge.corpus.records import RULE_NUMBER
from rulesjudge.scenarios.format import load_scenario
from rulesjudge.scenarios.model.citations import NUMBERING, Cite, cr, resolve
from rulesjudge.scenarios.runner import LIBRARY, run_scenario


@lru_cache(maxsize=1)
def library_cites() -> frozenset[Cite]:
    cites: set[Cite] = set()
    for path in sorted(LIBRARY.rglob("*.yaml")):
        cites.update(run_scenario(load_scenario(path)).cites())
    return frozenset(cites)


@pytest.fixture(scope="module")
def builtin_corpus(tmp_path_factory):
    from rulesjudge.corpus.store import load_corpus

    mp = pytest.MonkeyPatch()
    mp.setenv("RULESJUDGE_DATA", str(tmp_path_factory.mktemp("data")))
    try:
        yield load_corpus(include_user_releases=False)
    finally:
        mp.undo()


def test_the_library_cites_rules(builtin_corpus) -> None:
    assert len(library_cites()) > 40


def test_every_citation_resolves_or_is_an_official_rule_not_loaded(builtin_corpus) -> None:
    problems = []
    for cite in sorted(library_cites()):
        found = resolve(cite, builtin_corpus)
        if found.loaded:
            record = builtin_corpus.get(found.record_id)
            if record is None or record.edition != found.edition:
                problems.append(f"{cite}: {found.record_id} missing or wrong edition")
        elif cite.document != "cr" or not RULE_NUMBER.match(cite.local):
            problems.append(f"{cite}: not loaded and not an official rule number")
    assert not problems, "\n".join(problems)


def test_monarch_rulings_and_quoted_rules_resolve_to_the_built_in_documents(builtin_corpus) -> None:
    assert resolve(cr("722.4"), builtin_corpus).record_id == "cr@2024-06-07/722.4"
    assert resolve(cr("809.3c"), builtin_corpus).record_id == "cr@2022-04-29/809.3c"
    assert resolve(cr("802.2"), builtin_corpus).record_id == "cr@2015-07-17/802.2"
    assert not resolve(cr("800.4a"), builtin_corpus).loaded  # no official release loaded
    rulings = [c for c in library_cites() if c.document == "rulings"]
    assert len(rulings) >= 5 and all(resolve(c, builtin_corpus).loaded for c in rulings)


def test_not_loaded_numbers_exist_in_the_2024_06_07_release(shared_cr_dir, builtin_corpus) -> None:
    from rulesjudge.corpus.official import parse_release

    release = parse_release(shared_cr_dir / f"cr-{NUMBERING}.txt")
    numbers = {r.number for r in release.records if r.number}
    missing = [str(c) for c in library_cites()
               if c.document == "cr" and not resolve(c, builtin_corpus).loaded and c.local not in numbers]
    assert not missing, missing


def test_with_a_release_loaded_monarch_steps_cite_722_and_the_renumbered_rule(shared_cr_dir, tmp_path,
                                                                             monkeypatch) -> None:
    from rulesjudge.corpus.store import load_corpus

    monkeypatch.setenv("RULESJUDGE_DATA", str(tmp_path))
    corpus = load_corpus(releases=[shared_cr_dir / "cr-2026-04-17.txt"], include_user_releases=False)
    monarch = resolve(cr("722.4"), corpus)
    assert (monarch.record_id, monarch.also) == ("cr@2024-06-07/722.4", ("cr@2026-04-17/725.4",))
    assert resolve(cr("723.4"), corpus).record_id == "cr@2026-04-17/726.4"  # the Initiative moved to 726
    assert resolve(cr("800.4a"), corpus).record_id == "cr@2026-04-17/800.4a"
