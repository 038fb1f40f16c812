"""The `rulesjudge` command line.

Each subcommand lives in its own module under ``app/commands/``, named like the command, with
``register(subparsers)``; this file only assembles them and turns bad input
(:class:`common.errors.InputError`) into one line and exit 2. A command module imports what it needs at
its top, so only the module of the command asked for is imported (``rulesjudge rule`` never loads the
search or the scenario model); heavy third-party imports (torch, sentence-transformers, faiss) happen
inside the functions that need them, so ``rulesjudge rule`` and ``rulesjudge check`` start instantly.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import rulesjudge.app.commands as commands_package
from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import check_argument_text

EXIT_INPUT_ERROR = 2


def command_names() -> list[str]:
    """The subcommands, one module each under ``app/commands/``.

    >>> {"rule", "search", "check"} <= set(command_names())
    True
    """
    return sorted(info.name for info in pkgutil.iter_modules(commands_package.__path__))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (only its module is imported)."""
    parser = argparse.ArgumentParser(
        prog="rulesjudge",
        description="Rules reference and judge assistant for multiplayer Magic: The Gathering.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_names():
        if command is None or name == command:
            importlib.import_module(f"rulesjudge.app.commands.{name}").register(subparsers)
    return parser


def command_asked(argv: list[str]) -> str | None:
    """The command named first on the command line, if any; else None (help, or an unknown command that
    argparse names among all the others).

    >>> command_asked(["rule", "722.4"]), command_asked(["--help"]), command_asked(["nope"])
    ('rule', None, None)
    """
    return argv[0] if argv and argv[0] in command_names() else None


#: Arguments that name files: any bytes are a valid file name on Linux, so they are not text to decode.
PATH_ARGUMENTS = frozenset({"file", "paths", "sources", "batch", "questions", "releases"})
#: How an argument is named in a message, when not ``--dest`` (positional ones by their metavar).
ARGUMENT_NAMES = {"question": ("question", "the question"), "what_if": ("--what-if", "the question"),
                  "players": ("--players", "the names"), "number": ("NUMBER", "the number")}


def check_text_arguments(args: argparse.Namespace) -> None:
    """Every text argument decoded or refused the same way, before any command runs (one place: a new
    command's text options are checked too)."""
    for dest, value in vars(args).items():
        if dest in PATH_ARGUMENTS:
            continue
        key, noun = ARGUMENT_NAMES.get(dest, (f"--{dest.replace('_', '-')}", f"the {dest.replace('_', ' ')}"))
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                check_argument_text(item, key, noun)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(command_asked(argv))
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
