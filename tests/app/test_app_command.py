"""`rulesjudge app`: its options, the localhost default and bad input as one line with exit code 2."""

from __future__ import annotations

from rulesjudge.app.cli import build_parser
from rulesjudge.app.commands.app import HOME, streamlit_flags


def test_serves_on_localhost_headless_without_usage_stats_by_default():
    args = build_parser().parse_args(["app"])
    assert args.host == "127.0.0.1" and args.port == 8501 and not args.build_only
    flags = streamlit_flags(args.host, args.port)
    assert flags["server.address"] == "127.0.0.1"
    assert flags["server.headless"] is True
    assert flags["browser.gatherUsageStats"] is False
    # why: Streamlit's full collection after each script run stalled every session's search (docs/app.md)
    assert flags["runner.postScriptGC"] is False
    assert HOME.name == "Home.py" and HOME.exists()
    assert (HOME.parent / "pages" / "1_Scenario_checker.py").exists()


def test_bad_port_is_one_line_and_exit_code_2(cli):
    result = cli("app", "--port", "70000")
    assert result.code == 2
    err = result.err.strip()
    assert err.startswith("rulesjudge:") and "--port" in err and "\n" not in err


def test_build_only_builds_the_index_and_exports_the_query_model(tmp_path, monkeypatch, cli):
    monkeypatch.setenv("RULESJUDGE_DATA", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    result = cli("app", "--build-only")
    assert result.code == 0
    assert (tmp_path / "index" / "current.json").is_file()  # the FAISS index, switched to atomically
    # why: the build loaded the model anyway, so the server started next encodes questions without torch
    assert list((tmp_path / "index" / "onnx").glob("query-*.onnx"))
    assert "index ready" in result.err
