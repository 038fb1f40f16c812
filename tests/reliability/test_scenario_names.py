"""Input a judge would call wrong (issue 24, 6): a rule number in `about` that names no rule, names that
look alike across scripts (Unicode's confusable skeletons, UTS #39), names that differ only by letter
case, a permanent named like a player. Each is refused in one line naming the file, line and key."""

from __future__ import annotations

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario

CYRILLIC_A = "\u0410"  # looks like Latin A
GREEK_OMICRON = "\u03bf"  # looks like Latin o


def scenario(game: str, about: str = "") -> str:
    return f"name: x\n{about}game: {game}\nexpect: {{monarch: null}}\n"


@pytest.mark.parametrize(("players", "message"), [
    (f"[Ann, {CYRILLIC_A}nn]", f"'{CYRILLIC_A}nn' looks like 'Ann'"),
    (f"[Bob, B{GREEK_OMICRON}b, Cat]", f"'B{GREEK_OMICRON}b' looks like 'Bob'"),
    ("[Ian, lan]", "'lan' looks like 'Ian'"),  # I and l: one shape in many fonts (UTS #39 maps both)
    ("[Ann, ann]", "'ann' differs from 'Ann' only by letter case"),
    ("[Ann, Ben, ANN]", "'ANN' differs from 'Ann' only by letter case"),
], ids=["cyrillic", "greek", "I-l", "case", "upper"])
def test_names_a_reader_cannot_tell_apart_are_refused(players, message) -> None:
    with pytest.raises(InputError) as raised:
        parse_scenario(scenario(f"{{players: {players}}}"), "t.yaml")
    error = raised.value
    assert error.line == 2 and error.key.startswith("game.players[") and message in error.message


def test_team_members_that_look_alike_are_refused() -> None:
    with pytest.raises(InputError, match="looks like 'Ann'"):
        parse_scenario(scenario(f"{{teams: [[Ann, Ben], [Cat, {CYRILLIC_A}nn]]}}"), "t.yaml")


@pytest.mark.parametrize("players", ["[Zoë, Zoe]", "[Аня, Борис, Ann]", "[Ann, Anna]", "[Cat, Cal]"],
                         ids=["diaeresis", "one-name-per-script", "longer", "one-letter"])
def test_names_that_merely_resemble_are_kept(players) -> None:
    # why: a reader tells these apart (UTS #39 gives them different skeletons)
    assert parse_scenario(scenario(f"{{players: {players}}}"), "t.yaml").game.players


@pytest.mark.parametrize("permanent", ["Ann", "ann", f"{CYRILLIC_A}nn"])
def test_a_permanent_named_like_a_player_is_refused(permanent) -> None:
    walker = "{kind: planeswalker, owner: Ben, loyalty: 3}"
    game = f"{{players: [Ann, Ben], permanents: {{{permanent}: {walker}}}}}"
    with pytest.raises(InputError) as raised:
        parse_scenario(scenario(game), "t.yaml")
    assert raised.value.key == f"game.permanents.{permanent}"
    assert "named like the player 'Ann'" in str(raised.value)  # why: "Ann attacks" would name both


@pytest.mark.parametrize("about", ['"banana"', '["725.4", "monarch rules"]'])
def test_about_holds_rule_numbers(about) -> None:
    with pytest.raises(InputError) as raised:
        parse_scenario(scenario("{players: [Ann, Ben]}", f"about: {about}\n"), "t.yaml")
    assert raised.value.line == 2 and raised.value.key.startswith("about")
    assert "not a rule number" in str(raised.value)


def test_check_refuses_an_about_number_that_names_no_rule(tmp_path, cli) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(scenario("{players: [Ann, Ben]}", 'about: ["725.4",\n  "999.999z"]\n'), encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 2
    err = result.err.strip()
    assert err == f"rulesjudge: {path}:3: about[1]: no rule 999.999z in the loaded rules"


def test_check_accepts_about_numbers_of_cr_and_treachery(tmp_path, cli) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(scenario("{players: [Ann, Ben]}", 'about: ["725.4", "907.11b", "800.4a"]\n'),
                    encoding="utf-8")
    assert cli("check", str(path)).code == 0  # why: 725.4/800.4a are CR rules, 907.11b is Treachery's
