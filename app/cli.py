"""The `rulesjudge` command line.

Each subcommand lives in its own module under ``app/commands/`` with ``register(subparsers)``; this file
only assembles them and turns bad input (:class:`common.errors.InputError`) into one line and exit 2.
Heavy imports (torch, sentence-transformers, faiss) happen inside the commands that need them, so
``rulesjudge rule`` and ``rulesjudge check`` start instantly.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import rulesjudge.app.commands as commands_package
from rulesjudge.common.errors import InputError

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


#: Arguments that name files: any bytes are a valid file name on Linux, so they are not text to decode.
PATH_ARGUMENTS = frozenset({"file", "paths", "sources", "batch", "questions", "releases"})
#: How an argument is named in a message, when not ``--dest`` (positional ones by their metavar).
ARGUMENT_NAMES = {"question": ("question", "the question"), "what_if": ("--what-if", "the question"),
                  "players": ("--players", "the names"), "number": ("NUMBER", "the number")}


def check_text_arguments(args: argparse.Namespace) -> None:
    """Every text argument decoded or refused the same way, before any command runs (one place: a new
    command's text options are checked too)."""
    from rulesjudge.common.inputs import check_argument_text

    for dest, value in vars(args).items():
        if dest in PATH_ARGUMENTS:
            continue
        key, noun = ARGUMENT_NAMES.get(dest, (f"--{dest.replace('_', '-')}", f"the {dest.replace('_', ' ')}"))
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                check_argument_text(item, key, noun)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        check_text_arguments(args)
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
