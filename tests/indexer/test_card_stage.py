"""Cards in search (issue 21.3): the cards part, the Oracle templates bridge, card names kept away from
rules and Treachery identity notes."""

from __future__ import annotations

import re

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards import Card, CardMention, CardRuling, Face
from rulesjudge.corpus.cards.oracle_templates import load_templates, parse_templates
from rulesjudge.indexer.card_stage import CardStage, card_type

CR = "cr@2026-04-17/"
THALIA = Card("cards@2026-07-09/card/thalia-heretic-cathar", "Thalia, Heretic Cathar",
              (Face("Thalia, Heretic Cathar", "{2}{W}", "Legendary Creature — Human Soldier",
                    "First strike\nCreatures and nonbasic lands your opponents control enter tapped.",
                    "3", "2"),),
              keywords=("First strike",), edition="2026-07-09",
              rulings=(CardRuling("cards@2026-07-09/ruling/thalia-heretic-cathar/1", "2016-07-13",
                                  "If a creature would enter the battlefield attacking, it enters tapped."),
                       CardRuling("cards@2026-07-09/ruling/thalia-heretic-cathar/2", "2016-07-13",
                                  "Thalia's ability doesn't affect permanents already on the battlefield.")))
ANGEL = Card("cards@2026-07-09/card/platinum-angel", "Platinum Angel",
             (Face("Platinum Angel", "{7}", "Artifact Creature — Angel",
                   "Flying\nYou can't lose the game and your opponents can't win the game.", "4", "4"),),
             keywords=("Flying",), edition="2026-07-09")


class FakeCards:
    """names_in over a few cards by their full names (the cards helper's CardDB does the real work)."""

    def __init__(self, *cards: Card) -> None:
        self.cards = cards

    def names_in(self, text: str) -> list[CardMention]:
        found = []
        for card in self.cards:
            for match in re.finditer(re.escape(card.name), text):
                found.append(CardMention(card, match.start(), match.end(), match.group()))
        return sorted(found, key=lambda m: m.start)


@pytest.fixture(scope="module")
def stage(builtin_corpus):
    return CardStage(builtin_corpus.records, lambda: FakeCards(THALIA, ANGEL))


def test_every_template_rule_is_a_rule_of_the_builtin_rules(builtin_corpus):
    """A template citing a number the rules don't have would lift nothing: the data is checked."""
    records = builtin_corpus.records
    missing = [number for template in load_templates() for number in template.rules
               if f"{CR}{number}" not in records]
    assert missing == []


def test_a_malformed_template_file_is_one_line_naming_the_file(tmp_path):
    path = tmp_path / "templates.yaml"
    path.write_text("templates:\n  - {oracle: '(', rules: [614.12]}\n", encoding="utf-8")
    load_templates.cache_clear()
    try:
        with pytest.raises(InputError) as raised:
            load_templates(path)
    finally:
        load_templates.cache_clear()
    assert f"{path}:2" in str(raised.value) and "\n" not in str(raised.value)  # file, line of the entry
    with pytest.raises(InputError):
        parse_templates({"templates": [{"oracle": "x", "rules": []}]})


def test_enters_tapped_on_the_card_lifts_the_replacement_rules_of_entering(stage):
    # why: Thalia's "enter tapped" is a replacement effect on how a permanent enters (614.1c, 614.12)
    reading = stage.read("Opponent controls Thalia, Heretic Cathar. Does my creature enter tapped?")
    assert {f"{CR}614.1c", f"{CR}614.12"} <= set(reading.template_rules)
    assert "Thalia" not in reading.text and "creature" in reading.text  # the name reads as its type


def test_a_template_the_question_does_not_speak_of_is_not_lifted(stage):
    # Platinum Angel's "can't lose the game" (104.3) says nothing about whether it has flying
    reading = stage.read("Can Platinum Angel block a creature with flying?")
    assert f"{CR}104.3" not in reading.template_rules
    assert f"{CR}104.3" in reading.rules_of[ANGEL.id]  # still what the card invokes


def test_a_keyword_finds_its_rule_by_name_in_the_corpus(stage):
    # why: 702.7 is titled "First Strike"; the keyword's rules are its subrules (702.7a-c)
    assert f"{CR}702.7b" in stage.keyword_rules("First strike")
    assert f"{CR}702.9b" in stage.keyword_rules("Flying")
    assert stage.keyword_rules("Not A Keyword") == ()


def test_the_cards_part_ranks_rulings_by_the_question_and_keeps_file_order_on_ties(stage):
    question = "With Thalia, Heretic Cathar out, does a creature entering attacking enter tapped"
    reading = stage.read(question)
    (part,) = stage.parts(question, reading)
    assert part.card is THALIA and part.said == "Thalia, Heretic Cathar"
    assert part.rulings[0][0].id.endswith("/1")  # it speaks of entering attacking
    untouched = stage.parts("Thalia, Heretic Cathar", stage.read("Thalia, Heretic Cathar"))[0]
    assert [r.id[-1] for r, _ in untouched.rulings] == ["1", "2"]  # nothing asked: the file's order


def test_a_question_naming_no_card_reads_as_it_is(stage):
    reading = stage.read("can the emperor attack at the start?")
    assert not reading and reading.text == "can the emperor attack at the start?"


def test_card_types_as_the_rules_call_them():
    assert card_type(THALIA) == "creature" and card_type(ANGEL) == "creature"
    assert card_type(Card("x", "Fog", (Face("Fog", type_line="Instant"),))) == "instant"


def test_search_gives_the_cards_part_beside_the_hits(builtin_corpus, search_data):
    from rulesjudge.indexer.search import Searcher

    searcher = Searcher(builtin_corpus, progress=False, cards=FakeCards(THALIA))
    searcher.ranked = lambda *args, **kwargs: []  # the cards part needs no index
    result = searcher.search("Opponent controls Thalia, Heretic Cathar; does my Gideon enter tapped?")
    data = result.to_json()
    assert [card["name"] for card in data["cards"]] == ["Thalia, Heretic Cathar"]
    ruling = data["cards"][0]["rulings"][0]
    assert ruling["id"].startswith("cards@2026-07-09/ruling/thalia-heretic-cathar/") and ruling["date"]
    assert data["hits"] == []
    assert Searcher(builtin_corpus, cards=None).search("722.4").cards == []  # a number: no cards read


def test_plain_text_search_shows_the_cards_part_before_the_rules(builtin_corpus, search_data, capsys):
    """`rulesjudge search` without --json: each named card's name, type line and Oracle text, then its
    three rulings that speak most of the question (date and id), then the rules."""
    from rulesjudge.app.commands.search import _print_human
    from rulesjudge.indexer.search import Searcher

    extra = tuple(CardRuling(f"cards@2026-07-09/ruling/thalia-heretic-cathar/{n}", "2020-01-0{n}", text)
                  for n, text in ((3, "Thalia's first strike works as printed."),
                                  (4, "Thalia is legendary.")))
    thalia = Card(THALIA.id, THALIA.name, THALIA.faces, THALIA.keywords, edition=THALIA.edition,
                  rulings=THALIA.rulings + extra)
    searcher = Searcher(builtin_corpus, progress=False, cards=FakeCards(thalia))
    searcher.ranked = lambda *args, **kwargs: []  # the cards part needs no index
    _print_human(searcher.search("With Thalia, Heretic Cathar out, does a creature entering attacking "
                                 "enter tapped?"))
    out = capsys.readouterr().out
    assert out.index("Thalia, Heretic Cathar") < out.index("Rules:")
    assert "Legendary Creature — Human Soldier" in out and "{2}{W}" in out
    assert "your opponents control enter tapped." in out and "\\n" not in out  # abilities, one a line
    rulings = [line for line in out.splitlines() if line.lstrip().startswith("ruling ")]
    assert len(rulings) == 3  # the top three, not all four
    # why: ruling 1 speaks of a creature entering attacking, which the question asks about
    assert rulings[0].split(":")[0].strip() == f"ruling 2016-07-13 [{THALIA.rulings[0].id}]"
    assert "no matching rule" in out  # then the rules part, as before


def test_a_card_name_never_finds_a_treachery_identity_note(searcher):
    # why: the Treachery identity card "The Cathar" shares a word with Thalia's name, not a rule
    question = "Opponent controls Thalia, Heretic Cathar; I cast Gideon Blackblade. Does Gideon enter tapped?"
    hits = searcher.search(question, k=5).hits
    assert not any(hit.document == "treachery" for hit in hits)
    assert {f"{CR}614.12", f"{CR}614.1c"} & {hit.id for hit in hits}  # why: 614.12 decides


def test_a_template_without_words_is_shown_by_the_card_command_but_not_read_by_search(builtin_corpus):
    # "commander" (903.3) is in most Commander cards' text; it says nothing of what a question asks
    table = parse_templates({"templates": [
        {"term": "nonbasic lands", "oracle": "nonbasic lands", "rules": ["305.7"]},
        {"term": "enters tapped", "oracle": "enter tapped", "rules": ["614.12"], "words": "enters tapped"}]})
    stage = CardStage(builtin_corpus.records, lambda: FakeCards(THALIA), table)
    reading = stage.read("Do nonbasic lands enter tapped with Thalia, Heretic Cathar out?")
    assert f"{CR}614.12" in reading.template_rules  # why: 614.12, how a permanent enters
    assert f"{CR}305.7" not in reading.template_rules  # the question says "nonbasic lands", yet no words
    assert f"{CR}305.7" not in reading.rules_of[THALIA.id]
