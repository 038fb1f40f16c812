"""Treachery (the fan-made rules v4.0): expected answers read from the rules, not from the code."""

from __future__ import annotations

import pytest
from rules_model_helpers import ask, cited, derive

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario
from rulesjudge.scenarios.model import Setup, answer, apply, build_state, parse_event, parse_question
from rulesjudge.scenarios.model import treachery as tr

SEATS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
FIVE = {"Cat": "leader", "Ben": "guardian", "Ann": "assassin", "Dan": "assassin", "Eve": "traitor"}


def cites(steps):
    return {str(c) for s in steps for c in s.cites}


@pytest.mark.parametrize(
    ("roles", "legal"),
    [
        (["leader", "guardian", "assassin", "assassin", "traitor"], True),  # 907.3b's five-player default
        (["leader", "traitor", "assassin", "assassin"], True),  # 907.3c: 4 players
        (["leader", "traitor", "assassin", "assassin", "assassin", "guardian"], True),  # 907.3c: 6 players
        (["leader", "traitor", "assassin", "assassin", "assassin", "guardian", "guardian"], True),  # 7
        (["leader", "traitor", "traitor", "assassin", "assassin"], True),  # Guardian slot may be a Traitor
        (["leader", "guardian", "assassin", "assassin", "guardian"], False),  # no Traitor
        (["leader", "leader", "assassin", "assassin", "traitor"], False),  # two Leaders
        (["guardian", "traitor", "assassin", "assassin", "traitor"], False),  # no Leader
        (["leader", "traitor", "assassin", "guardian", "guardian"], False),  # 1 Assassin, needs 5 // 2 = 2
        (["leader", "traitor", "assassin"], False),  # 907.2: four or more players
    ],
)
def test_907_3b_identity_deck_legality(roles, legal):
    assert tr.legal_identity_deck(roles)[0] is legal


def test_907_3d_backstab_rumble_one_leader_and_only_traitors():
    ok, steps = tr.legal_identity_deck(["leader", "traitor", "traitor", "traitor", "traitor"])
    assert ok is True  # the Backstab Rumble option: one Leader, all the rest Traitors
    assert "Treachery 907.3d" in cites(steps)


def test_907_3b_illegal_deck_names_the_rule():
    ok, steps = tr.legal_identity_deck(["leader", "guardian", "assassin", "assassin", "guardian"])
    assert ok is False and "Treachery 907.3b" in cites(steps)  # says which rule it breaks


def test_907_3c_eight_player_recommendation_conflicts_with_907_3b_and_says_so():
    # 907.3c recommends 3 Assassins for 8 players; 907.3b asks for half the players rounded down, 4
    roles = ["leader", "traitor", "traitor", "assassin", "assassin", "assassin", "guardian", "guardian"]
    ok, steps = tr.legal_identity_deck(roles)
    assert ok is True  # the document's own recommendation is taken as legal
    assert {r.value for r in steps[0].alternatives} == {True, False}  # both readings are named
    four = ["leader", "traitor", "assassin", "assassin", "assassin", "assassin", "guardian", "guardian"]
    assert tr.legal_identity_deck(four)[0] is True  # 907.3b read literally: 4 Assassins


def deal(identities):
    """The dealt cards for ``{player: role or {role, card, face, undercover}}`` (read as a Setup reads
    them)."""
    return tr.deal(Setup(players=SEATS, identities=identities).identities)


def test_907_4a_4b_default_faces():
    table = deal(FIVE)
    assert table["Cat"].face == "up"  # 907.4a: a Leader is put into the command zone face up
    assert {table[p].face for p in ("Ann", "Ben", "Dan", "Eve")} == {"down"}  # 907.4b: unveil -> face down


def test_907_6_starting_life_20_or_40_with_commander():
    game = {"variant": "treachery", "players": SEATS, "identities": FIVE}
    assert ask(game, [], "life(Ann)") == 20  # 907.6
    assert ask({**game, "commander": True}, [], "life(Ann)") == 40  # 907.6's note: 40 with Commander


def test_907_7_the_leader_starts():
    game = {"variant": "treachery", "players": SEATS, "identities": FIVE}
    assert ask(game, [], "first-player") == ["Cat"]  # the Leader player is the starting player
    assert ask(game, [], "active") == "Cat"


def test_907_5d_face_down_player_has_no_teammates_and_is_everyones_opponent():
    table = deal(FIVE)
    assert tr.teammates(table, "Ben", set(SEATS))[0] == []  # Ben's Guardian is face down
    assert tr.teammates(table, "Cat", set(SEATS))[0] == []  # so Cat has no teammate yet either
    game = {"variant": "treachery", "players": SEATS, "identities": FIVE}
    assert ask(game, [], "opponents(Cat)") == ["Ann", "Ben", "Dan", "Eve"]


def test_907_5a_unveiled_guardian_joins_the_leader_openly():
    table, _ = tr.unveil(deal(FIVE), "Ben", set(SEATS))
    assert tr.teammates(table, "Ben", set(SEATS))[0] == ["Cat"]  # leader team: Leader and Guardians
    assert tr.team_answer(table, {}, "Ben")[0] == "leader"


def test_907_5c_traitors_have_no_teammates():
    table = deal({**FIVE, "Eve": {"role": "traitor", "face": "up"}})
    assert tr.teammates(table, "Eve", set(SEATS))[0] == []  # each Traitor fights alone
    assert tr.team_answer(table, {}, "Eve")[0] == "traitor"


def test_702_187f_undercover_blocks_unveil_until_met():
    table = deal({**FIVE, "Ben": {"role": "guardian", "card": "The Bodyguard", "undercover": True}})
    ok, steps = tr.can_unveil(table, "Ben", set(SEATS))
    assert ok is False and "Treachery 702.187f" in cites(steps)  # restriction not met
    assert "Treachery note/the-bodyguard" in cites(steps)  # the answer links the card note
    table, _ = tr.meet_undercover(table, "Ben")
    assert tr.can_unveil(table, "Ben", set(SEATS))[0] is True  # 702.187c: any time they have priority


def test_702_187c_leader_without_unveil_cannot_be_turned_up_this_way():
    table = deal({**FIVE, "Cat": {"role": "leader", "face": "down"}})
    assert tr.can_unveil(table, "Cat", set(SEATS))[0] is False  # no unveil cost: can't unveil


GAME = {"variant": "treachery", "players": SEATS, "identities": FIVE, "active": "Cat"}
UP = [{"unveil": "Ann"}, {"unveil": "Dan"}]


def test_907_8a_assassins_win_when_the_leader_dies_and_one_is_in_the_game():
    events = [*UP, {"loses": "Cat"}]
    assert ask(GAME, events, "winners") == ["Ann", "Dan"]  # 907.8a: assassins win
    assert "Ben" in ask(
        GAME, events, "losers"
    )  # 907.8b: the leader team loses while its Guardian still plays
    assert "Eve" in ask(GAME, events, "losers")  # 907.13: everyone else lost at the end of the game


def test_907_8a_assassin_who_already_left_wins_with_the_team():
    events = [*UP, {"loses": "Ann"}]
    assert ask(GAME, events, "game-over") is False  # a Leader is still in the game
    assert ask(GAME, [*events, {"loses": "Cat"}], "winners") == [
        "Ann",
        "Dan",
    ]  # 104.2c: even if they had lost


def test_907_8_traitor_outlasts_everybody():
    events = [{"loses": ["Ann", "Dan"]}, {"loses": "Cat"}]
    # 104.2a: the winner was still in the game when it ended; Ben lost with his Leader (907.8b)
    assert ask(GAME, events, "in-game") == ["Eve"]
    value, steps = derive(GAME, events, "winners")
    assert value == ["Eve"]  # 104.2a: the Traitor's opponents have all left, no Assassin was left to win
    assert "104.2a" in cited(steps) and "907.8a" not in cited(steps)


def test_907_8_leader_team_wins_when_every_other_team_left():
    events = [{"loses": ["Ann", "Dan", "Eve", "Ben"]}]
    assert ask(GAME, events, "winners") == ["Ben", "Cat"]  # 104.2c: Ben, a Guardian who had lost, wins


def test_907_12_907_13_leaving_reveals_and_remembers_the_team():
    value, steps = derive(GAME, [{"loses": "Dan"}], "team(Dan)")
    assert "907.13" in cited(steps)  # a face-down identity is revealed
    assert value == "assassins"  # 907.12: last known team


def test_metamorph_steals_the_leader_identity_and_the_game_goes_on():
    game = {**GAME, "identities": {**FIVE, "Eve": {"role": "traitor", "card": "The Metamorph", "face": "up"}}}
    events = [{"steal-identity": {"player": "Eve", "from": "Cat"}}]
    value, steps = derive(game, events, "game-over")
    assert value is False and "note/the-metamorph" in cited(steps)  # a Leader is still in the game
    assert ask(game, events, "team(Eve)") == "leader"  # Eve changes team according to her new role
    assert ask(game, events, "team(Cat)") == "leader"  # the victim keeps their last known team
    assert "Ben" in ask(game, events, "in-game")  # 907.8b doesn't apply: a Leader player is still in


def test_puppet_master_exchange_moves_players_between_teams():
    up = {"Ann": {"role": "assassin", "face": "up"}, "Ben": {"role": "guardian", "face": "up"}}
    table, _ = tr.exchange(deal({**FIVE, **up}), "Ann", "Ben")
    assert tr.team_answer(table, {}, "Ann")[0] == "leader"  # each player changes team with the new role
    assert tr.team_answer(table, {}, "Ben")[0] == "assassins"


def test_gatekeeper_turned_face_down_has_no_teammates_but_role_is_remembered():
    table = deal({**FIVE, "Eve": {"role": "traitor", "card": "The Gatekeeper", "face": "up"}})
    table, steps = tr.turn_face_down(table, "Eve")
    assert table["Eve"].face == "down" and table["Eve"].seen  # opponents still remember the role
    assert "Treachery note/the-gatekeeper" in cites(steps)
    assert tr.can_unveil(table, "Eve", set(SEATS))[0] is True  # face down again with unveil


def test_card_catalogue_matches_the_documents_notes():
    assert tr.find_card("The Aetherist") == "The Ætherist"  # the PDF's damaged spelling still finds it
    assert tr.CARDS["The Metamorph"] == "traitor" and tr.CARDS["The Bodyguard"] == "guardian"
    assert len(tr.CARDS) == 54


# --- bad input: one line naming file, line and key -------------------------------------------------------


def _bad(identities: str) -> InputError:
    text = (
        "name: bad\ngame:\n  variant: treachery\n  players: [Ann, Ben, Cat, Dan]\n"
        f"  identities: {identities}\n"
    )
    with pytest.raises(InputError) as caught:
        parse_scenario(text, "bad.yaml")
    return caught.value


def test_907_3a_player_without_identity_is_an_input_error():
    error = _bad("{Ann: leader, Ben: traitor, Cat: assassin}")  # Dan has no identity card
    assert error.key == "game.identities" and error.line == 5 and "Dan" in error.message


def test_205_3tr_unknown_role_is_an_input_error():
    error = _bad("{Ann: leader, Ben: traitor, Cat: assassin, Dan: jester}")
    assert error.key == "game.identities.Dan" and "jester" in error.message


def test_card_of_another_role_is_an_input_error():
    error = _bad("{Ann: leader, Ben: {role: guardian, card: The Metamorph}, Cat: assassin, Dan: assassin}")
    assert error.key == "game.identities.Ben.card" and "Traitor" in error.message


def test_907_3b_illegal_deck_is_an_answer_not_an_input_error():
    text = (
        "name: two leaders\ngame:\n  variant: treachery\n  players: [Ann, Ben, Cat, Dan]\n"
        "  identities: {Ann: leader, Ben: leader, Cat: assassin, Dan: assassin}\n"
        "expect:\n  legal-setup: false\n"
    )
    assert parse_scenario(text, "ok.yaml").expect[0].expected is False  # parsed fine: the answer says false


def test_the_cathar_note_unveil_cost_needs_6_life():
    table = deal({**FIVE, "Ben": {"role": "guardian", "card": "The Cathar"}})
    ok, steps = tr.can_unveil(table, "Ben", set(SEATS), life=5)
    assert ok is False  # note: "You can't pay the unveil cost if your life total is less than 6."
    assert "Treachery note/the-cathar" in cites(steps)
    assert tr.can_unveil(table, "Ben", set(SEATS), life=6)[0] is True  # 6 is enough


def test_the_metamorph_note_unveil_cost_needs_8_life():
    table = deal({**FIVE, "Eve": {"role": "traitor", "card": "The Metamorph"}})
    assert tr.can_unveil(table, "Eve", set(SEATS), life=7)[0] is False  # less than 8 life


# --- through the model -------------------------------------------------------------------------------------
def _ask(identities: str, events: list, question: str):
    text = (
        "name: t\ngame:\n  variant: treachery\n  players: [Ann, Ben, Cat, Dan, Eve]\n"
        f"  identities: {identities}\n"
    )
    state = build_state(parse_scenario(text).game)
    for event in events:
        name, arg = (event, None) if isinstance(event, str) else next(iter(event.items()))
        state, _ = apply(state, parse_event(name, arg))
    return answer(state, parse_question(question))


FOUR = "Ann: assassin, Ben: guardian, Cat: leader, Dan: assassin"
PM = "{" + FOUR + ", Eve: {role: traitor, card: The Puppet Master}}"
GK = "{" + FOUR + ", Eve: {role: traitor, card: The Gatekeeper}}"


def test_puppet_master_never_exchanges_itself():
    role, _ = _ask(PM, [{"unveil": "Eve"}, {"exchange-identities": ["Eve", "Cat"]}], "role(Eve)")
    assert role == "traitor"  # note: exchange with another one, "not being The Puppet Master"
    unveiled = [{"unveil": "Eve"}, {"exchange-identities": ["Ann", "Cat"]}]
    assert _ask(PM, unveiled, "role(Ann)")[0] == "leader"  # note: others may, once it is face up
    assert (
        _ask(PM, unveiled[1:], "role(Ann)")[0] == "assassin"
    )  # 372.4: a face-down Puppet Master does nothing


def test_gatekeeper_turns_face_down_only_while_face_up():
    assert _ask(GK, [{"turn-face-down": "Eve"}], "known-role(Eve)")[0] is None  # never face up: still secret
    after = [{"unveil": "Eve"}, {"turn-face-down": "Eve"}]
    assert _ask(GK, after, "face(Eve)")[0] == "down"  # face up, then its last ability turns it down
    assert _ask(GK, after, "known-role(Eve)")[0] == "traitor"  # note: opponents still remember the role


def test_907_7_leader_is_first_player_and_active():
    assert _ask(PM, [], "active")[0] == "Cat"  # the Leader player is the starting player
    assert _ask(PM, [], "first-player")[0] == ["Cat"]


TABLE = {"variant": "treachery", "players": SEATS, "identities": FIVE, "active": "Cat"}
SHOCK = {"cast": {"player": "Cat", "spell": "Shock"}}


def test_an_unveil_between_passes_starts_the_round_of_passes_over() -> None:
    """702.187c/116.2tr: a special action taken holding priority; 117.3c: Ann receives priority again, and
    117.4 needs all players to pass in succession "without taking any actions in between". Before, the
    unveil left priority with Dan and the earlier passes counted: Shock resolved after Ann and Ben passed."""
    events = [SHOCK, "pass-priority", "pass-priority", "pass-priority", {"unveil": "Ann"},
              "pass-priority", "pass-priority"]
    report = evaluate_table(events, ["stack-controllers", "priority", "face(Ann)"])
    assert [a.value for a in report.answers] == [["Cat"], "Cat", "up"]


def test_unveil_by_a_player_without_priority_passes_it_round_to_them() -> None:
    """An unveil by a player who doesn't hold priority: the players before them pass (117.3d); afterwards
    they hold it (117.3c)."""
    value, steps = derive(TABLE, [SHOCK, {"unveil": "Ann"}], "priority")
    assert value == "Ann"
    assert {"117.3d", "117.3c", "702.187c"} <= cited(steps)
    assert ask(TABLE, [SHOCK, {"unveil": "Ann"}], "stack-controllers") == ["Cat"]  # Shock still waits


def test_a_player_who_passed_in_this_round_cannot_unveil_before_it_completes() -> None:
    """Ann passed; Ben holds priority: she has it again only once all have passed in succession and Shock
    has resolved (117.4), so the unveil doesn't happen and the steps say why."""
    events = [SHOCK, "pass-priority", "pass-priority", "pass-priority", "pass-priority", {"unveil": "Ann"}]
    value, steps = derive(TABLE, events, "face(Ann)")
    assert value == "down"
    assert "117.4" in cited(steps)
    assert ask(TABLE, events, "priority") == "Ben"


def evaluate_table(events, questions):
    from rulesjudge.scenarios.runner import evaluate

    return evaluate(TABLE, events, questions)
