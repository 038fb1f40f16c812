"""`rulesjudge check [PATH ...]`: run scenario files and report one line each, then `N passed, M failed`.

Exit 0 when all pass, 1 when any fails, 2 when any file is invalid input or any path can't be read (a
missing file, a folder that can't be listed, a folder without scenario files). Names, keys and values
are printed with control characters escaped, so each scenario is one line whatever its name holds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import escape_controls
from rulesjudge.scenarios.runner import check_paths
from rulesjudge.scenarios.view import show_value


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("check", help="check scenario files against the rules model")
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="scenario files or folders (default: the whole library)"
    )
    p.set_defaults(func=run)


def _relative(path: Path) -> str:
    """The path as the user would type it from here. Links are not followed (``resolve`` would, and a
    link loop would raise): the name is only shown."""
    import os

    absolute = os.path.abspath(path)
    here = os.getcwd()
    return os.path.relpath(absolute, here) if absolute.startswith(here + os.sep) else str(path)


def run(args: argparse.Namespace) -> int:
    def say(line: str, file: Any = sys.stdout) -> None:
        print(escape_controls(line), file=file)  # a name can't print a line of its own (a fake PASS)

    results = check_paths(args.paths)
    passed = failed = invalid = 0
    for result in results:
        name = _relative(result.path)
        if result.error is not None:
            invalid += 1
            say(f"rulesjudge: {result.error}", sys.stderr)
            continue
        report = result.report
        assert report is not None and report.scenario is not None
        if report.passed:
            passed += 1
            say(f"PASS {name}: {report.scenario.name}")
            continue
        failed += 1
        if report.error:
            say(f"FAIL {name}: {report.scenario.name}: {report.error}")
            continue
        wrong = "; ".join(
            f"{a.key} expected {show_value(a.expected)}, got {show_value(a.value)}"
            + (f" (line {a.line})" if a.line else "")
            for a in report.failures
        )
        say(f"FAIL {name}: {report.scenario.name}: {wrong}")
    summary = f"{passed} passed, {failed} failed"
    if invalid:
        summary += f", {invalid} invalid"
    print(summary)
    if invalid:
        return 2
    return 1 if failed else 0
