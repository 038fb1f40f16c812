"""Helpers every package uses, below all of them: errors with a place (``errors``), safe YAML (``safe_yaml``),
bounded reading of user paths and URLs (``inputs``), the data folder and atomic writes (``files``).

The layers (pyproject's import-linter contract): app -> scenarios | indexer -> corpus -> common; nothing here
imports a package above it.
"""
