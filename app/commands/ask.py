"""`rulesjudge ask FILE [--json]`: every question's answer with its derivation and citations."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("ask", help="answer a scenario's questions step by step, with rule citations")
    p.add_argument("file", metavar="FILE", help="a scenario file")
    p.add_argument("--json", action="store_true", help="print the answers as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulesjudge.corpus.errors import escape_controls, json_text
    from rulesjudge.scenarios.format import load_scenario
    from rulesjudge.scenarios.runner import default_citation_corpus, run_scenario
    from rulesjudge.scenarios.view import report_to_dict, report_to_text

    scenario = load_scenario(args.file)
    report = run_scenario(scenario, corpus=default_citation_corpus())
    if args.json:
        print(json_text(report_to_dict(report), indent=2))
    else:  # each line of the derivation stays one line whatever a name holds
        print("\n".join(escape_controls(line) for line in report_to_text(report).split("\n")))
    return 0 if report.passed else 1
