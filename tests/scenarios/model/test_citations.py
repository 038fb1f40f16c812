"""Every citation the scenario library produces resolves to a corpus record with text and its edition, on a
fresh data folder: official rules in the built-in release's numbering (2026-04-17), with the seeds' quotes of
older editions as the same rule in other editions."""

from __future__ import annotations

from functools import lru_cache

from rulesjudge.scenarios.format import load_scenario
from rulesjudge.scenarios.model.citations import NUMBERING, Cite, cr, resolve
from rulesjudge.scenarios.runner import LIBRARY, run_scenario


@lru_cache(maxsize=1)
def library_cites() -> frozenset[Cite]:
    cites: set[Cite] = set()
    for path in sorted(LIBRARY.rglob("*.yaml")):
        cites.update(run_scenario(load_scenario(path)).cites())
    return frozenset(cites)


def test_the_library_cites_rules(builtin_corpus) -> None:
    assert len(library_cites()) > 40


def test_every_citation_resolves_to_a_record_with_text_and_edition(builtin_corpus) -> None:
    problems = []
    for cite in sorted(library_cites()):
        found = resolve(cite, builtin_corpus)
        record = builtin_corpus.get(found.record_id) if found.loaded else None
        if record is None or record.edition != found.edition or not record.text.strip():
            problems.append(f"{cite}: {found.label}")
        elif "not loaded" in found.label or not found.label.startswith(record.citation):
            problems.append(f"{cite}: label {found.label!r}")
    assert not problems, "\n".join(problems)


def test_a_cited_rule_a_seed_quotes_names_the_seed_quote_as_provenance(builtin_corpus) -> None:
    # why: a bare old number misleads (722.4 is a preparation-card rule in April 2026): the label names
    # the rule by its 2026 number and the seed's quote of an older edition beside it (issue 10, item 2)
    pages = {"monarch-wiki": "the Monarch page", "emperor-rules": "the Emperor page",
             "players-mtgsalvation": "the Player page"}
    checked = 0
    for cite in sorted(c for c in library_cites() if c.document == "cr"):
        found = resolve(cite, builtin_corpus)
        for other_id in found.also:
            other = builtin_corpus.get(other_id)
            quoting = [pages[p.source] for p in other.provenance if p.source in pages]
            if quoting:
                checked += 1
                assert f"{other.number} in the {other.edition} rules {quoting[0]} quotes" in found.label
    assert checked >= 10  # the Monarch (725.x), the Emperor (809.x) and the Player page (802.x, 102.x)


def test_official_citations_are_the_built_in_release_with_the_seeds_quotes_as_other_editions(
    builtin_corpus,
) -> None:
    monarch = resolve(cr("725.4"), builtin_corpus)
    assert monarch.record_id == f"cr@{NUMBERING}/725.4" == "cr@2026-04-17/725.4"
    assert "cr@2024-06-07/722.4" in monarch.also  # why: the Monarch page quotes it as 722.4 (2024-06-07)
    assert "cr@2022-04-29/809.3c" in resolve(cr("809.3c"), builtin_corpus).also  # the Emperor page's quote
    assert "cr@2015-07-17/802.2" in resolve(cr("802.2"), builtin_corpus).also  # the Player page's quote
    assert resolve(cr("800.4a"), builtin_corpus).record_id == "cr@2026-04-17/800.4a"  # no seed quotes it
    rulings = [c for c in library_cites() if c.document == "rulings"]
    assert len(rulings) >= 5 and all(resolve(c, builtin_corpus).loaded for c in rulings)


def test_a_number_missing_from_the_built_in_release_is_not_loaded(builtin_corpus) -> None:
    assert not resolve(cr("799.99"), builtin_corpus).loaded  # why: no such rule; the label says so
    assert "not in the 2026-04-17 rules" in resolve(cr("799.99"), builtin_corpus).label


def test_with_an_older_release_loaded_the_monarch_lists_its_number_there(shared_cr_dir, corpus_with) -> None:
    corpus = corpus_with(shared_cr_dir / "cr-2022-10-07.txt")
    monarch = resolve(cr("725.4"), corpus)
    assert monarch.record_id == "cr@2026-04-17/725.4"
    assert "cr@2022-10-07/721.4" in monarch.also  # why: the Monarch was section 721 in October 2022
    assert "cr@2022-10-07/722.4" in resolve(cr("726.4"), corpus).also  # the Initiative was 722
