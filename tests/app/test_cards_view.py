"""The card view shared by ``rulesjudge card`` and the app (app/cards_view.py), and the marking of a
question's words in a card's text and rulings: pure functions, no server."""

from __future__ import annotations

import pytest

from rulesjudge.app import cards_view
from rulesjudge.corpus.cards import Card, CardRuling, Face


def marked_words(text: str, words: list[str]) -> list[str]:
    return [piece for piece, hit in cards_view.marked_spans(text, words) if hit]


def test_marks_whole_words_with_their_plural_possessive_and_past_forms():
    text = "Creatures your opponents control enter tapped. A tapestry isn't tapped twice; Thalia's ability."
    assert marked_words(text, ["creature", "opponent", "controls", "enters", "tapped", "Thalia"]) == \
        ["Creatures", "opponents", "control", "enter", "tapped", "tapped", "Thalia's"]


@pytest.mark.parametrize("word", ["the", "a", "of", "is", "you", "your", "card", "player"])
def test_common_and_short_words_are_never_marked(word):
    assert marked_words("The player of the card is you, your turn.", [word]) == []


def test_the_pieces_put_back_are_the_text():
    text = "If Thalia enters the battlefield at the same time as an opponent’s creatures…"
    assert "".join(p for p, _ in cards_view.marked_spans(text, ["enter", "opponent", "same"])) == text


def test_a_cards_own_name_is_not_marked_in_its_rulings():
    from rulesjudge.app.web.cards_ui import marking_words

    names = ["Thalia's", "Thalia, Heretic Cathar"]
    words = marking_words("Does Thalia's ability make Gideon enter tapped?", names)
    assert "Thalia's" not in words and "Gideon" in words and "tapped" in words


def test_marked_markdown_is_escaped():
    from rulesjudge.app.web.cards_ui import marked

    out = marked("[click](javascript:x) enters *tapped*", ["tapped", "click"])
    assert "](" not in out.replace("\\](", "").replace("\\(", "") and ":orange-background[tapped]" in out


def test_the_view_words_each_face_the_commander_facts_and_numbers_rulings_by_their_id():
    """903.3: a legendary creature can be a commander; a ruling's number is its place in the card's list."""
    card = Card("cards@2026-07-09/card/x", "Delver // Aberration",
                (Face("Delver", "{U}", "Creature — Human Wizard", "Look.\nTransform.", "1", "1"),
                 Face("Aberration", None, "Creature — Human Insect", "Flying", "3", "2")),
                commander_legality="legal", can_be_commander=False,
                rulings=(CardRuling("cards@2026-07-09/ruling/x/1", "2011-09-22", "You may reveal it."),))
    view = cards_view.card_view(card, [])
    assert view.several_faces and [f.head for f in view.faces] == ["Creature — Human Wizard {U}",
                                                                  "Creature — Human Insect"]
    assert view.faces[0].paragraphs == ("Look.", "Transform.") and view.faces[1].stats == "3/2"
    assert view.commander == "Commander: legal; can't be your commander"
    assert view.rulings[0].number == "1" and view.rulings[0].date == "2011-09-22"
    text = cards_view.card_text(view)
    assert text.splitlines()[0] == "Delver // Aberration  (cards@2026-07-09/card/x)"
    assert "   1. 2011-09-22  You may reveal it." in text


def test_an_empty_name_finds_nothing_without_reading_cards():
    class NoCards:
        def named(self, name):
            raise AssertionError("read")

        lookup = named

    assert cards_view.find_cards(NoCards(), "   ") == []  # type: ignore[arg-type]
