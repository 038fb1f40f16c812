"""`rulesjudge search`: the fast path for numbers, batch mode, the JSON contract, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "sentence_transformers", "faiss", "bm25s", "transformers")


def test_an_exact_number_in_a_fresh_process_imports_no_model_library(search_data, cli_process):
    done = cli_process("search", "725.4", "--json", data=search_data, watch=HEAVY)
    assert (done.code, done.imported) == (0, ()), done.err
    hits = json.loads(done.out)["hits"]
    assert hits[0]["id"] == "cr@2026-04-17/725.4" and hits[0]["edition"] == "2026-04-17"


def test_json_for_one_question(searcher, search_data, cli):
    result = cli("search", "rule", "907.11b", "--json", "--k", "3")
    assert result.code == 0
    data = json.loads(result.out)
    assert data["exact"] is True and data["query"] == "rule 907.11b"
    hit = data["hits"][0]
    assert {"id", "number", "document", "edition", "kind", "title", "text", "score", "cross_refs"} <= set(hit)
    assert (hit["id"], hit["number"], hit["document"], hit["edition"], hit["kind"]) == (
        "treachery@4.0/907.11b", "907.11b", "treachery", "4.0", "subrule")


def test_batch_mode_answers_one_json_line_per_question(searcher, search_data, tmp_path, cli):
    batch = tmp_path / "questions.txt"
    batch.write_text("809.3c\n\ncan the emperor attack at the start?\nCR 725.4.\n", encoding="utf-8")
    result = cli("search", "--batch", str(batch), "--json", "--k", "4")
    assert result.code == 0
    lines = result.out.strip().splitlines()
    assert len(lines) == 3  # the blank line is not a question
    answers = [json.loads(line) for line in lines]
    assert [a["query"] for a in answers] == ["809.3c", "can the emperor attack at the start?", "CR 725.4."]
    assert answers[0]["hits"][0]["id"] == "cr@2026-04-17/809.3c"
    assert "cr@2026-04-17/809.3c" in [h["id"] for h in answers[1]["hits"]]
    assert [h["id"] for h in answers[2]["hits"]] == ["cr@2026-04-17/725.4"]
    scores = [h["score"] for h in answers[1]["hits"]]
    assert scores == sorted(scores, reverse=True) and len(scores) == 4


def test_human_output_shows_citation_and_context(searcher, search_data, cli):
    result = cli("search", "809.3c")
    assert result.code == 0
    out = result.out
    assert "CR 809.3c (2026-04-17)" in out and "809. Emperor Variant" in out and "official" in out


@pytest.mark.parametrize(("argv", "expected"), [
    (["search"], "empty question"),
    (["search", "   "], "empty question"),
    (["search", "--batch", "/nonexistent/questions.txt", "--json"], "/nonexistent/questions.txt"),
    (["search", "monarch", "--document", "nope"], "unknown document 'nope'"),
    (["search", "monarch", "--edition", "2024-02-30"], "bad date"),
    (["search", "monarch", "--edition", "soon"], "bad edition 'soon'"),
    (["search", "monarch", "--k", "0"], "--k must be at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(search_data, cli, argv, expected):
    result = cli(*argv)
    assert result.code == 2
    err = result.err.strip()
    assert expected in err and len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("flag", [["--document", "nope"], ["--edition", "bad"]])
def test_a_bad_filter_in_batch_mode_blames_the_flag_not_a_line(search_data, tmp_path, cli, flag):
    batch = tmp_path / "q.txt"
    batch.write_text("who is the monarch?\n722.4\n", encoding="utf-8")
    result = cli("search", "--batch", str(batch), *flag, "--json")
    assert result.code == 2
    err = result.err.strip()
    assert err.startswith(f"rulesjudge: command line: {flag[0]}: ") and str(batch) not in err
