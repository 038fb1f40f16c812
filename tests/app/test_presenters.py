"""The checker's table form, uploads, downloads and the library index, without a server (issue 6)."""

from __future__ import annotations

import pytest
import yaml

from rulesjudge.app import library, presenters, services
from rulesjudge.app.presenters import TableForm, escape_markdown, form_to_game, game_to_form, scenario_yaml
from rulesjudge.common.errors import InputError


def test_emperor_teams_round_trip_through_the_form():
    big = {"emperor": "Eve", "members": ["Dan", "Eve", "Fay", "Gus"]}
    game = {"variant": "emperor", "teams": [["Ann", "Ben", "Cat"], big]}
    form = game_to_form(game)
    assert form.teams == "Ann, Ben, Cat\nDan, *Eve, Fay, Gus"
    assert form_to_game(form)["teams"] == game["teams"]
    assert presenters.seat_order(game) == ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    assert presenters.emperors(game) == {"Ben", "Eve"}  # 809.1: the emperor sits in the middle


def test_treachery_identities_round_trip_through_the_form():
    game = {"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan"],
            "identities": {"Cat": "leader",
                           "Ben": {"role": "guardian", "card": "The Bodyguard", "face": "down"},
                           "Ann": "assassin", "Dan": "traitor"}, "commander": True}
    assert form_to_game(game_to_form(game)) == {**game}


def test_form_mistakes_are_one_line_errors_naming_the_field_and_line():
    with pytest.raises(InputError) as caught:
        form_to_game(TableForm(variant="treachery", players="Ann, Ben", identities="Ann: leader\nBen: king"))
    assert str(caught.value).startswith("table:2: identities: role must be one of")
    with pytest.raises(InputError, match="life must be a whole number"):
        form_to_game(TableForm(players="Ann, Ben", life="Ann: lots"))
    with pytest.raises(InputError, match="players"):
        form_to_game(TableForm(players=" , "))


def test_upload_is_size_capped_and_must_be_text():
    from rulesjudge.scenarios.limits import MAX_CHARS

    with pytest.raises(InputError, match="too large"):
        services.read_upload(b"x" * (MAX_CHARS + 1), "big.yaml")
    with pytest.raises(InputError, match="UTF-8"):
        services.read_upload(b"\xff\xfe name", "bin.yaml")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("name: x\ngame: {players: [Ann, Ann]}\n", "up.yaml"),  # duplicated player
        ("name: x\ngame:\n  players: [Ann, Ben]\n  monarch: Zed\n", "up.yaml:4"),  # monarch not a player
        ("name: [unclosed\n", "up.yaml"),  # malformed YAML
        ("!!python/object/apply:os.system ['true']\n", "up.yaml"),  # the safe loader refuses tags
    ],
)
def test_bad_uploads_get_the_command_lines_one_line_error(text, where):
    with pytest.raises(InputError) as caught:
        services.parse_scenario_text(text, path="up.yaml")
    message = str(caught.value)
    assert message.startswith(where) and "\n" not in message


def test_downloaded_table_reads_back_as_the_same_scenario():
    game = form_to_game(TableForm(players="Ann, Ben, Cat", monarch="Ben", range="1", attack="left",
                                  life="Cat: 3"))
    events = [{"leaves": "Ben"}, "next-turn"]
    answers = services.evaluate(game, events, ["monarch", "turn-order"])
    text = scenario_yaml(game, events, presenters.expect_from_answers(answers), name="A table", why="because")
    scenario = services.parse_scenario_text(text, path="table.yaml")
    assert scenario is not None
    document = yaml.safe_load(text)
    assert document["game"] == game and document["events"] == events
    # 725.4: Ben (not the active player) leaves during Ann's turn; the active player, Ann, becomes monarch.
    assert document["expect"]["monarch"] == "Ann"


def test_markdown_escaping_neutralises_links_images_and_html():
    hostile = "![x](http://evil/img.png) [a](javascript:alert(1)) <script>x</script> *b* `c`"
    escaped = escape_markdown(hostile)
    for raw in ("![", "](", "<script>", "*b*", "`c`"):
        assert raw not in escaped
    assert escaped.replace("\\", "") == hostile


def test_library_index_names_the_scenarios_that_cite_a_rule():
    entries = library.load_library()
    if not entries:
        pytest.skip("the scenario library is empty")
    from rulesjudge.scenarios.runner import default_corpus

    index = library.scenario_index(entries, default_corpus())
    citing = index.get("cr@2026-04-17/725.4", [])
    assert citing, "the monarch's leaving rule is cited by library scenarios"
    assert all(isinstance(entry, library.LibraryScenario) for entry in citing)
    assert any("725.4" in entry.about or "725.4" in entry.relpath.replace("-", ".") for entry in citing)


def test_expectations_are_checked_as_the_runner_checks_them():
    game = {"players": ["Ann", "Ben", "Cat"], "monarch": "Cat"}
    monarch, order, in_game, over = services.evaluate(
        game, [{"leaves": "Cat"}], ["monarch", "turn-order", "in-game", "game-over"])
    assert services.meets_expectation(monarch, "Ann")  # why: 725.4, the active player takes the crown
    assert not services.meets_expectation(monarch, "Ben")  # a changed table must not show "as expected"
    assert services.meets_expectation(order, ["Ann", "Ben"])
    assert not services.meets_expectation(order, ["Ben", "Ann"])  # an order compares in order
    assert services.meets_expectation(in_game, ["Ben", "Ann"])  # a set of players in any order
    assert not services.meets_expectation(over, 0)  # a boolean is not the number 0


# ------------------------------------------------------------------------------------ issue 14 additions


def test_a_shared_ruling_round_trips_its_table_events_and_question():
    from rulesjudge.app.presenters import decode_share, encode_share

    game = {"variant": "emperor", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]]}
    events = [{"leaves": "Eve"}, "next-turn"]
    shared = decode_share(encode_share(game, events, "who wins if Dan's emperor loses?"))
    assert (shared.game, shared.events, shared.question) == (game, events, "who wins if Dan's emperor loses?")


def _token(document: object) -> str:
    import base64
    import json
    import zlib

    raw = json.dumps(document).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"game": {"players": ["Ann", "Ben"], "monarch": "Zed"}, "events": []}, "unknown player 'Zed'"),
        ({"game": {"players": ["Ann", "Ben"]}, "events": [{"explodes": "Ann"}]}, "explodes"),
        ({"game": {"players": ["Ann", "Ben"]}, "events": [], "ask": "x" * 501}, "longer than 500"),
        ({"game": ["Ann"], "events": []}, "damaged"),
        ({"game": {"players": ["Ann", "Ben"]}, "events": [[[[[[[[[[["deep"]]]]]]]]]]]}, "damaged"),
        ({"game": {"players": [f"P{i}" for i in range(65)]}, "events": []}, "64"),
    ],
)
def test_a_shared_ruling_is_validated_like_an_upload(document, message):
    from rulesjudge.app.presenters import decode_share

    with pytest.raises(InputError) as caught:
        decode_share(_token(document))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_compressed_bomb_in_a_link_is_refused_before_it_is_inflated():
    import base64
    import zlib

    from rulesjudge.app.presenters import SHARE_BYTES, SHARE_LIMIT, decode_share

    bomb = base64.urlsafe_b64encode(zlib.compress(b"[" * (4 * 1024 * 1024), 9)).decode().rstrip("=")
    assert len(bomb) <= SHARE_LIMIT  # small enough to reach the decompressor
    with pytest.raises(InputError, match=f"over {SHARE_BYTES // 1024} KB"):
        decode_share(bomb)


@pytest.mark.parametrize("count", range(4, 13))
def test_the_treachery_deal_is_legal_for_every_table_size(count):
    from rulesjudge.app.presenters import parse_identities, switch_variant
    from rulesjudge.scenarios.model.treachery import RECOMMENDED, legal_identity_deck

    players = ", ".join(f"P{i}" for i in range(count))
    dealt = switch_variant(TableForm(players=players), "treachery").identities
    roles = list(parse_identities(dealt).values())
    assert len(roles) == count
    assert legal_identity_deck(roles)[0], roles  # 907.3a/907.3b
    if count in RECOMMENDED:  # 907.3c: the recommended deck for that many players
        leaders, traitors, assassins, guardians = RECOMMENDED[count]
        assert (roles.count("leader"), roles.count("traitor"), roles.count("assassin"),
                roles.count("guardian")) == (leaders, traitors, assassins, guardians)


def test_treachery_from_three_players_seats_a_fourth_to_deal_a_legal_deck():
    from rulesjudge.app.presenters import parse_identities, switch_variant

    form = switch_variant(TableForm(players="Ann, Ben, Cat"), "treachery")
    assert form.players == "Ann, Ben, Cat, Dan"  # 907.2: four or more players
    assert len(parse_identities(form.identities)) == 4


def test_long_fields_are_refused_in_one_line_not_cut():
    with pytest.raises(InputError, match="longer than 1000 characters"):
        form_to_game(TableForm(players="A" * 1001))
