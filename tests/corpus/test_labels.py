"""Citations a judge can read aloud (issue 11, item 3; issue 10, item 2): each ruling its own title, an
official rule a fan document recalls stays official, a wiki page named as a page quoting a CR edition,
the seeds' old numbers shown beside today's, "current" only for the current rules."""

from __future__ import annotations

from rulesjudge.corpus.labels import cite_label, edition_status


def test_five_monarch_rulings_have_five_titles(builtin_corpus):
    monarch = [r for r in builtin_corpus.records.values()
               if r.kind == "ruling" and r.heading_path[-1] == "Monarch"]
    assert len(monarch) == 6  # five dated rulings and the wiki's undated one
    assert len({r.citation for r in monarch}) == 6
    first = builtin_corpus.get("rulings@2022-10-14/ruling/the-game-starts-with-no-monarch")
    assert first.citation == "Ruling \u201cThe game starts with no monarch.\u201d (2022-10-14)"


def test_rules_the_treachery_document_recalls_stay_official(builtin_corpus):
    for number in ("104.2c", "104.3g"):
        record = builtin_corpus.get(f"treachery@4.0/{number}")
        # why: "Reminder: 104.3g." quotes the official rule; it is not a fan-made rule (issue 11)
        assert record.official and record.source_label == "official"
        assert record.citation == f"CR {number} (quoted by the Treachery rules 4.0)"
        assert record.links == (f"cr@2026-04-17/{number}",)  # the official rule itself
    assert not builtin_corpus.get("treachery@4.0/907.4c").official  # Treachery's own rules stay fan-made


def test_a_wiki_page_is_cited_as_a_page_quoting_a_cr_edition(builtin_corpus):
    intro = builtin_corpus.get("monarch-wiki@2024-06-07/section/introduction")
    assert intro.citation == "Monarch (MTG wiki page, quoting CR of 2024-06-07)"
    player = [r for r in builtin_corpus.records.values() if r.document == "player-page"]
    assert all(r.citation.startswith("Player (MTG Salvation wiki page, quoting CR of 2015-07-17)")
               for r in player)


def test_a_cited_rule_names_the_seed_quote_of_an_older_edition(builtin_corpus):
    # why: the Monarch page quotes the 2024-06-07 rules, where the leaving rule is 722.4; in the
    # built-in 2026-04-17 rules it is 725.4, and 722.4 is a preparation-card rule (issue 10, item 2)
    assert cite_label(builtin_corpus, "cr@2026-04-17/725.4") == (
        "CR 725.4 (2026-04-17) \u2014 722.4 in the 2024-06-07 rules the Monarch page quotes")
    assert cite_label(builtin_corpus, "cr@2026-04-17/800.4j") == "CR 800.4j (2026-04-17)"  # no seed quotes it


def test_current_only_when_no_newer_edition_is_loaded(builtin_corpus):
    assert edition_status(builtin_corpus, "cr@2026-04-17/725.4") == "current"
    # why: the Player page quotes the rules of 2015; the built-in 2026 rules are newer
    assert edition_status(builtin_corpus, "cr@2015-07-17/802.2") == (
        "older edition (now 802.2 in the current rules, 2026-04-17)")
    assert edition_status(builtin_corpus, "cr@2024-06-07/722.4") == (
        "older edition (now 725.4 in the current rules, 2026-04-17)")
    assert edition_status(builtin_corpus, "treachery@4.0/907.4c") == "current"  # the one Treachery edition
    # why: the 2022-10-14 rulings are the newest dated ones; the wiki's undated ruling is another ruling
    newest_ruling = "rulings@2022-10-14/ruling/the-game-starts-with-no-monarch"
    assert edition_status(builtin_corpus, newest_ruling) == "current"
