"""Scenario files that are out to break the checker: deep nesting, values YAML can't build, oversized
tables, hidden characters in names, names and keys that would print lines of their own.

Each ends in exit 0, 1 or 2 with one line per error naming the file, line and key; never a traceback, a
crash or a hang. The time-bound cases assert that the limit is refused, never a wall-clock time.
"""

from __future__ import annotations

import unicodedata

import pytest

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios import limits
from rulesjudge.scenarios.format import parse_scenario
from rulesjudge.scenarios.runner import evaluate, run_scenario

TABLE = "game: {players: [Ann, Ben, Cat]}\n"


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_line(captured) -> str:
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulesjudge: "), captured.err
    assert "Traceback" not in captured.err
    return lines[0]


# ------------------------------------------------------------------------------------- deep nesting


@pytest.mark.parametrize("why, line", [("[" * 30_000, 3), ("{a: " * 15_000, 3), ("\n  " + "- " * 20_000, 4)],
                         ids=["flow-lists", "flow-maps", "block-lists"])
def test_deep_nesting_is_refused_in_one_line_not_a_crash(tmp_path, why: str, line: int, cli_process) -> None:
    # 30,000 unclosed "[" overflowed libyaml's recursive composer: exit 139, no output, the app's server gone
    path = write(tmp_path, "deep.yaml", f"name: x\n{TABLE}why: {why}\n")
    result = cli_process("check", str(path), timeout=120)  # its own process: a crash shows as a signal
    assert result.code == 2, (result.code, result.err[-500:])
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and f"{path}:{line}: why" in lines[0] and "nested more than 32 levels" in lines[0]


def test_nesting_within_the_limit_reads() -> None:
    nested = "[" * 20 + "]" * 20  # 20 levels: refused by the schema (why is text), not by the reader
    with pytest.raises(InputError, match="why: input should be a valid string"):
        parse_scenario(f"name: x\n{TABLE}why: {nested}\n", "ok.yaml")


def test_an_alias_bomb_is_refused() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6))
    with pytest.raises(InputError, match="too large \\(more than 50000 values\\)"):
        parse_scenario(bomb, "bomb.yaml")


def test_an_alias_cannot_nest_past_the_depth_limit() -> None:
    text = "a: &a " + "[" * 20 + "]" * 20 + "\nb: &b [*a, [[[[[[[[[[[[*a]]]]]]]]]]]]\n"
    with pytest.raises(InputError, match="nested more than 32 levels"):
        parse_scenario(text, "alias.yaml")


# ---------------------------------------------------------------------- values YAML can't build


@pytest.mark.parametrize("value, line, key, problem", [
    ("name: !!int abc", 1, "name", "'abc' is not a whole number"),
    ("name: !!float x", 1, "name", "'x' is not a number"),
    ("name: !!bool maybe", 1, "name", "'maybe' is not true or false"),
    ("name: !!timestamp x", 1, "name", "unsupported YAML tag !!timestamp"),
    ("name: !!binary aGVsbG8=", 1, "name", "unsupported YAML tag !!binary"),
    ("name: !!set {a}", 1, "name", "unsupported YAML tag !!set"),
    ("name: !!python/object/apply:os.system [ls]", 1, "name", "unsupported YAML tag"),
    ("name: x\nwhy: !!int " + "9" * 5000, 2, "why", "a number of 5000 characters is too long"),
    ("name: x\ngame: {players: [Ann, Ben], life: {Ann: !!int 2024-13-45}}", 2, "game.life.Ann",
     "'2024-13-45' is not a whole number"),
    ("name: x\n? [a, b]\n: c", 2, None, "a key must be a plain word"),
    ("name: x\nwhy: *nowhere", 2, "why", "unknown alias *nowhere"),
])
def test_values_yaml_cannot_build_are_one_line_with_line_and_key(tmp_path, cli, value, line, key,
                                                                 problem) -> None:
    text = value + ("\n" + TABLE if "game:" not in value else "\n")
    path = write(tmp_path, "bad.yaml", text)
    result = cli("check", str(path))
    assert result.code == 2
    place = f"{path}:{line}: {key}: " if key else f"{path}:{line}: "
    assert place + problem in error_line(result)


@pytest.mark.parametrize("text", ["name: 2024-13-45\n" + TABLE,
                                  "name: x\ngame: {players: [Ann, 2024-02-30], monarch: 2024-02-30}\n"])
def test_a_plain_date_is_a_name_as_written(text: str) -> None:
    scenario = parse_scenario(text, "dates.yaml")
    assert {scenario.name, *scenario.game.seats} & {"2024-13-45", "2024-02-30"}


def test_one_bad_file_among_many_gets_its_line_and_the_others_still_run(tmp_path, cli) -> None:
    for i in range(5):  # 800.4a: Ben leaving the game takes no crown from Ann
        write(tmp_path, f"ok{i}.yaml", "name: ok\ngame: {players: [Ann, Ben, Cat], monarch: Ann}\n"
                                       "events: [{leaves: Ben}]\nexpect: {monarch: Ann}\n")
    write(tmp_path, "bad.yaml", "name: !!int abc\n" + TABLE)
    result = cli("check", str(tmp_path))
    assert result.code == 2
    assert result.out.count("PASS ") == 5
    assert result.out.splitlines()[-1] == "5 passed, 0 failed, 1 invalid"
    assert result.err.strip() == f"rulesjudge: {tmp_path / 'bad.yaml'}:1: name: 'abc' is not a whole number"


def test_a_second_document_is_refused() -> None:
    with pytest.raises(InputError, match=":4: one scenario per file"):
        parse_scenario("name: x\n" + TABLE + "---\nname: y\n", "two.yaml")


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path, cli) -> None:
    path = write(tmp_path, "big.yaml", "name: x\n" + TABLE + "#" * (limits.MAX_CHARS + 1) + "\n")
    result = cli("check", str(path))
    assert result.code == 2
    assert f"{path}: too large: more than {limits.MAX_CHARS} bytes" in error_line(result)


# ----------------------------------------------------------------------------------- counts and time


def seats(n: int) -> str:
    return ", ".join(f"P{i}" for i in range(n))


def test_sixty_five_players_are_refused() -> None:
    with pytest.raises(InputError, match=r"big\.yaml:2: game\.players: 65 players: a scenario seats at most"):
        parse_scenario(f"name: x\ngame: {{players: [{seats(65)}]}}\n", "big.yaml")


def test_sixty_five_players_in_teams_are_refused() -> None:
    teams = ", ".join(f"[{', '.join(f'P{t}x{i}' for i in range(5))}]" for t in range(13))
    with pytest.raises(InputError, match=r"game\.teams: 65 players"):
        parse_scenario(f"name: x\ngame: {{variant: team-vs-team, teams: [{teams}]}}\n", "teams.yaml")


def test_sixty_four_players_are_a_table() -> None:
    # 725.4: when the monarch (P10) leaves the game, the active player (P0) becomes the monarch
    report = run_scenario(parse_scenario(
        f"name: x\ngame: {{players: [{seats(64)}], monarch: P10}}\nevents: [{{leaves: P10}}]\n"
        "expect: {monarch: P0}\n", "table.yaml"))
    assert report.passed, report.error or report.failures


def test_too_many_events_questions_or_permanents_are_refused() -> None:
    events = "events: [" + ", ".join(["next-turn"] * (limits.MAX_EVENTS + 1)) + "]\n"
    with pytest.raises(InputError, match=f"events: {limits.MAX_EVENTS + 1} events: a scenario plays at most"):
        parse_scenario("name: x\n" + TABLE + events, "events.yaml")
    expect = "expect: {" + ", ".join(f"q{i}: 1" for i in range(limits.MAX_QUESTIONS + 1)) + "}\n"
    with pytest.raises(InputError, match="expect: 201 questions: a scenario asks at most 200"):
        parse_scenario("name: x\n" + TABLE + expect, "questions.yaml")
    permanents = ", ".join(f"C{i}: {{owner: Ann}}" for i in range(limits.MAX_PERMANENTS + 1))
    with pytest.raises(InputError, match=r"game\.permanents: 257 permanents"):
        parse_scenario(f"name: x\ngame: {{players: [Ann, Ben], permanents: {{{permanents}}}}}\n", "p.yaml")


def test_the_what_if_evaluation_refuses_too_many_questions_or_events() -> None:
    with pytest.raises(InputError, match="201 questions"):
        evaluate({"players": ["Ann", "Ben"]}, [], ["monarch"] * 201)
    with pytest.raises(InputError, match="501 events"):
        evaluate({"players": ["Ann", "Ben"]}, ["next-turn"] * 501, [])


def test_a_spent_time_budget_stops_a_scenario_with_one_line() -> None:
    scenario = parse_scenario("name: x\n" + TABLE + "events: [next-turn]\nexpect: {active: Ben}\n", "t.yaml")
    report = run_scenario(scenario, budget=0)
    assert not report.passed and report.error == "stopped: the scenario took longer than its budget of 0 s"
    with pytest.raises(InputError, match=r"<what-if>: stopped: .* budget of 0 s"):
        evaluate({"players": ["Ann", "Ben"]}, ["next-turn"], ["active"], budget=0)


# ------------------------------------------------------------------------------------------ names


def test_names_are_normalised_so_one_person_is_one_name() -> None:
    composed, decomposed = "Zo\u00eb", unicodedata.normalize("NFD", "Zo\u00eb")
    # 725.4: the monarch leaving on the active player's turn: the active player, Zoë, becomes the monarch
    scenario = parse_scenario(f"name: x\ngame: {{players: [{composed}, Ben], monarch: Ben}}\n"
                              f"events: [{{leaves: Ben}}]\nexpect: {{monarch: {decomposed}}}\n", "nfc.yaml")
    assert scenario.game.seats == (composed, "Ben")
    assert run_scenario(scenario).passed


@pytest.mark.parametrize("players, problem", [
    ('[Ann, "Ann\\u200b"]', r"game.players\[1\]: 'Ann\\u200b' differs from 'Ann' only by invisible"),
    ('[Ann, "Ann\\u00a0"]', r"game.players\[1\]: 'Ann\xa0' differs from 'Ann' only by invisible"),
    ('[Ann, "\\u200b\\u2800"]', r"game.players\[1\]: a name needs a visible character"),
    ('[Ann, "B\\u202Eob"]', r"game.players\[1\]: a name may not hold a bidirectional control \(U\+202E\)"),
    ('[Ann, "Ben\\nPASS"]', r"game.players\[1\]: a name may not hold a control character or line break"),
    ('[Ann, "Ben\\e[31m"]', r"game.players\[1\]: a name may not hold a control character"),
])
def test_hidden_characters_in_player_names_are_refused(players: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        parse_scenario(f"name: x\ngame: {{players: {players}}}\n", "names.yaml")


def test_hidden_characters_in_team_members_and_permanents_are_refused() -> None:
    with pytest.raises(InputError, match=r"game.teams\[1\]\[0\]: 'Ann\\u200b' differs from 'Ann'"):
        parse_scenario('name: x\ngame: {variant: team-vs-team, teams: [[Ann, Ben], ["Ann\\u200b", Dan]]}\n',
                       "teams.yaml")
    with pytest.raises(InputError, match=r"game.permanents.Bear\\nPASS: a name may not hold a control"):
        parse_scenario('name: x\ngame: {players: [Ann, Ben], permanents: {"Bear\\nPASS": {owner: Ann}}}\n',
                       "perm.yaml")


# ----------------------------------------------------------------------------------- honest output


def test_a_name_with_a_newline_prints_no_fake_line(tmp_path, cli) -> None:
    write(tmp_path, "a.yaml", 'name: "x\\nPASS fake.yaml: y\\n369 passed, 0 failed"\n' + TABLE)
    result = cli("check", str(tmp_path))
    assert result.code == 0
    out = result.out.splitlines()
    assert out == [f"PASS {tmp_path / 'a.yaml'}: x\\nPASS fake.yaml: y\\n369 passed, 0 failed",
                   "1 passed, 0 failed"]


def test_terminal_escapes_in_names_are_printed_escaped(tmp_path, cli) -> None:
    write(tmp_path, "a.yaml", 'name: "\\e[2J\\e]0;owned\\a\\u202Eclear"\n' + TABLE)
    result = cli("check", str(tmp_path / "a.yaml"))
    assert result.code == 0
    out = result.out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[2J\\x1b]0;owned\\x07\\u202eclear" in out


def test_a_key_with_a_newline_stays_one_error_line(tmp_path, cli) -> None:
    path = write(tmp_path, "k.yaml", 'name: x\n' + TABLE + 'expect: {"monarch\\n1 passed, 0 failed": Ann}\n')
    result = cli("check", str(path))
    assert result.code == 2
    assert "expect.monarch\\n1 passed, 0 failed: " in error_line(result)


def test_ask_prints_a_multiline_name_and_why_on_one_line_each(tmp_path, cli, data_dir) -> None:
    text = 'name: "a\\nb"\nwhy: "c\\n\\e[31md"\n' + TABLE + "expect: {active: Ann}\n"
    path = write(tmp_path, "a.yaml", text)
    result = cli("ask", str(path))
    assert result.code == 0
    out = result.out.splitlines()
    assert out[0] == "a\\nb" and out[1] == "  why: c \\x1b[31md"


# ---------------------------------------------------------------------------- folders that say nothing


def test_check_on_a_folder_without_scenarios_says_so_and_exits_2(tmp_path, cli) -> None:
    (tmp_path / "notes.txt").write_text("no scenarios here", encoding="utf-8")
    result = cli("check", str(tmp_path))
    assert result.code == 2
    assert f"{tmp_path}: no scenario files (*.yaml, *.yml) in this folder" in error_line(result)


def test_check_reports_an_unreadable_subfolder_and_exits_2(tmp_path, cli, monkeypatch) -> None:
    import os

    write(tmp_path, "a.yaml", "name: ok\n" + TABLE)
    (tmp_path / "locked").mkdir()
    real_scandir = os.scandir

    def scandir(path=None):  # tests run as root, where chmod 000 locks nothing
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = cli("check", str(tmp_path))
    assert result.code == 2
    assert "locked: cannot read this folder: Permission denied" in error_line(result)


def test_check_of_a_file_in_a_folder_that_cannot_be_entered_is_one_line(tmp_path, cli, monkeypatch):
    import os

    real_stat = os.stat

    def stat(path, *args, **kwargs):  # as if the folder had no execute permission (root ignores chmod)
        if "closed" in str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    result = cli("check", str(tmp_path / "closed" / "a.yaml"))
    assert result.code == 2
    assert "closed/a.yaml: cannot read: Permission denied" in error_line(result)


def test_the_largest_tables_the_limits_allow_are_answered() -> None:
    # the bench's worst case (scenarios/bench.py): every limit at its maximum is still a valid table
    from rulesjudge.scenarios.bench import largest_tables

    for variant, (game, events, questions) in largest_tables().items():
        report = evaluate(game, events, questions)
        assert (len(report.events), len(report.answers)) == (limits.MAX_EVENTS, limits.MAX_QUESTIONS), variant


def test_a_file_name_that_is_not_utf8_prints_escaped(tmp_path, cli) -> None:
    import os

    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, b"a\xff.yaml"), "w", encoding="utf-8") as handle:
        handle.write("name: ok\n" + TABLE)
    result = cli("check", str(tmp_path))
    assert result.code == 0
    assert result.out.splitlines()[0] == f"PASS {tmp_path}/a\\udcff.yaml: ok"


def test_ask_json_escapes_hidden_characters_and_still_reads_back(tmp_path, cli, data_dir) -> None:
    import json

    path = write(tmp_path, "a.yaml", 'name: "x\\u202e\\u009b[2J"\n' + TABLE + "expect: {active: Ann}\n")
    result = cli("ask", str(path), "--json")
    assert result.code == 0
    out = result.out
    assert "\u202e" not in out and "\x9b" not in out and "\\u202e\\u009b[2J" in out
    assert json.loads(out)["name"] == "x\u202e\u009b[2J"


@pytest.mark.parametrize("text, problem", [
    ("why: " + "[" * 30_000, "nested more than 32 levels"),
    ("why: !!int abc", "'abc' is not a whole number"),
    ("why: 2024-02-30", None),
])
def test_the_pure_python_parser_reads_the_same_way(monkeypatch, text: str, problem: str | None) -> None:
    # without libyaml (a machine where PyYAML was built without it) the reader uses PyYAML's own parser
    import yaml

    from rulesjudge.common import safe_yaml

    monkeypatch.setattr(safe_yaml, "_Loader", yaml.SafeLoader)
    if problem is None:
        assert safe_yaml.read_yaml(text, max_chars=100_000)[0] == {"why": "2024-02-30"}
    else:
        with pytest.raises(InputError, match=problem):
            safe_yaml.read_yaml(text, max_chars=100_000)
