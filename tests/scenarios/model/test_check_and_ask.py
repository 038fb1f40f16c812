"""`rulesjudge check` and `rulesjudge ask`: one line per scenario, the summary line, exit codes."""

from __future__ import annotations

import json

PASSING = """\
name: The active player takes the crown
about: ["725.4"]
why: The monarch leaves during Ann's turn.
game: {players: [Ann, Ben, Cat], monarch: Cat}
events: [{leaves: Cat}]
expect: {monarch: Ann}
"""


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_all_pass_exits_0(tmp_path, cli) -> None:
    write(tmp_path, "a.yaml", PASSING)
    result = cli("check", str(tmp_path))
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].startswith("PASS ") and lines[-1] == "1 passed, 0 failed"


def test_check_a_wrong_answer_exits_1_and_names_it(tmp_path, cli) -> None:
    write(tmp_path, "a.yaml", PASSING)
    write(tmp_path, "b.yaml", PASSING.replace("monarch: Ann}", "monarch: Ben}"))
    result = cli("check", str(tmp_path))
    assert result.code == 1
    out = result.out.splitlines()
    assert any(line.startswith("FAIL ") and "expected Ben, got Ann" in line for line in out)
    assert out[-1] == "1 passed, 1 failed"


def test_check_invalid_input_exits_2_with_one_line(tmp_path, cli) -> None:
    write(tmp_path, "c.yaml", PASSING.replace("monarch: Cat", "monarch: Zed"))
    result = cli("check", str(tmp_path / "c.yaml"))
    assert result.code == 2
    err = result.err.strip().splitlines()
    assert len(err) == 1 and "c.yaml:4: game.monarch: unknown player 'Zed'" in err[0]


def test_check_missing_path_exits_2(tmp_path, cli) -> None:
    result = cli("check", str(tmp_path / "none.yaml"))
    assert result.code == 2
    assert "Traceback" not in result.err


def test_ask_prints_the_derivation_with_citations(tmp_path, cli, data_dir) -> None:
    path = write(tmp_path, "a.yaml", PASSING)
    result = cli("ask", str(path))
    assert result.code == 0
    out = result.out
    assert "monarch: Ann" in out and "CR 725.4 (2026-04-17)" in out
    # why: the Monarch page quotes the rule as 722.4 of the 2024-06-07 rules (issue 10, item 2)
    assert "722.4 in the 2024-06-07 rules the Monarch page quotes" in out
    assert "not loaded" not in out  # why: the built-in release holds every rule the model cites


def test_ask_json_has_answers_steps_and_record_ids(tmp_path, cli, data_dir) -> None:
    path = write(tmp_path, "a.yaml", PASSING)
    result = cli("ask", str(path), "--json")
    assert result.code == 0
    data = json.loads(result.out)
    answer = data["answers"][0]
    assert (answer["question"], answer["value"], answer["passed"]) == ("monarch", "Ann", True)
    records = [c["record"] for e in data["events"] for s in e["steps"] for c in s["cites"]]
    assert "cr@2026-04-17/725.4" in records


def test_bench_scenarios_only_times_the_whole_library_without_the_model(cli_process) -> None:
    from rulesjudge.scenarios.format import scenario_files
    from rulesjudge.scenarios.runner import LIBRARY

    # A fresh process: this test session may have imported torch already for other tests.
    done = cli_process("bench", "--scenarios-only", "--json", timeout=600)
    assert done.code == 0, done.err
    figures = json.loads(done.out)["scenario_checker"]
    assert figures["scenarios"] == len(scenario_files([LIBRARY]))  # every library file was run
    assert 0 < figures["one_scenario_median_ms"] <= figures["one_scenario_max_ms"]
    assert figures["library_best_seconds"] <= figures["library_median_seconds"]
    assert figures["heavy_modules_imported"] == []  # the checker never needs torch, FAISS or Streamlit


def test_ask_gives_the_editions_once_and_at_each_step_with_editions(tmp_path, cli, data_dir) -> None:
    # why: issue 25 - a judge needs the other editions' numbers once per answer, not at every step
    path = write(tmp_path, "a.yaml", PASSING)
    result = cli("ask", str(path))
    assert result.code == 0
    out = result.out
    assert out.count("722.4 in the 2024-06-07 rules the Monarch page quotes") == 1
    assert "editions: Comprehensive Rules 2026-04-17" in out
    result = cli("ask", str(path), "--editions")
    assert result.code == 0
    steps = [line for line in result.out.splitlines() if line.startswith("  - ")]
    assert any("CR 725.4 (2026-04-17) \u2014 722.4" in line for line in steps)
