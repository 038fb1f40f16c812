"""One module per `rulesjudge` subcommand; each defines ``register(subparsers)``.

A command module sets ``func`` on its parser (``parser.set_defaults(func=run)``); ``run(args)`` returns
the exit code and raises :class:`common.errors.InputError` for bad input.
"""
