"""The `rulesjudge` command line.

Each subcommand lives in its own module under ``app/commands/`` with ``register(subparsers)``; this file
only assembles them and turns bad input (:class:`corpus.errors.InputError`) into one line and exit 2.
Heavy imports (torch, sentence-transformers, faiss) happen inside the commands that need them, so
``rulesjudge rule`` and ``rulesjudge check`` start instantly.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import rulesjudge.app.commands as commands_package
from rulesjudge.corpus.errors import InputError

EXIT_INPUT_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesjudge",
        description="Rules reference and judge assistant for multiplayer Magic: The Gathering.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_info in sorted(pkgutil.iter_modules(commands_package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"rulesjudge.app.commands.{module_info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except InputError as error:
        print(f"rulesjudge: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
