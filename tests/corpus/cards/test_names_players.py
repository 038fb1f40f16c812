"""A player of a story who shares a name with a card (issue 21, round 3; corpus/cards/names.py): "Bob"
is Dark Confidant's nickname and "Sam", "Mary", "Victor" short names of legendary creatures, yet "Bob has
gained control of Chuck's Blood Tyrant" is a player. A one-word short name or nickname that the text
shows doing what only a player does (casting, controlling, conceding, having a turn) is no card wherever
the text says it; the same name said of a card's doings stays the card."""

from __future__ import annotations

import pytest


def said(db, text):
    return [(m.said, m.card.name) for m in db.names_in(text)]


@pytest.mark.parametrize(("text", "expected"), [
    # 800.4a stories name their players: Bob is a player here, the Blood Tyrant is the card
    ("In a multiplayer game, Anna controls Withengar Unbound, Bob has gained control of Chuck's Blood "
     "Tyrant. Chuck loses the game.",
     [("Withengar Unbound", "Elbrus, the Binding Blade // Withengar Unbound"),
      ("Blood Tyrant", "Blood Tyrant")]),
    ("Sam casts Lightning Bolt at my creature.", [("Lightning Bolt", "Lightning Bolt")]),
    ("On Mary's turn I cast Counterspell.", [("Counterspell", "Counterspell")]),
    # once a player, a player wherever the text says the name
    ("Victor concedes. Does Victor's Oblivion Ring return my creature?",
     [("Oblivion Ring", "Oblivion Ring")]),
])
def test_a_player_named_like_a_card_is_no_card(builtin_db, text, expected):
    assert said(builtin_db, text) == expected


@pytest.mark.parametrize(("text", "card"), [
    ("Bob's trigger made me lose 5 life. Does it reveal a split card's mana value?", "Dark Confidant"),
    ("Thalia attacks. Does Gideon Blackblade enter tapped?", "Thalia, Heretic Cathar"),
    ("If I Oblivion Ring Sam, does my opponent get Sam back when it leaves?", "Sam, Loyal Attendant"),
])
def test_the_same_names_said_of_a_card_stay_the_card(builtin_db, text, card):
    assert card in [c.name for m in builtin_db.names_in(text) for c in (m.card, *m.others)]
