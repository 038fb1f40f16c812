"""``rulesjudge corpus add PATH_OR_URL [...]`` and ``rulesjudge corpus list``: the official releases."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rulesjudge.common.errors import InputError, escape_controls
from rulesjudge.corpus.records import DOCUMENT_TITLES
from rulesjudge.corpus.releases import add_release, release_sources
from rulesjudge.corpus.store import load_corpus, open_cache


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("corpus", help="add official Comprehensive Rules releases, or list documents")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="validate and copy releases (.txt files, folders of them, URLs) "
                                         "into the data folder")
    add.add_argument("sources", nargs="+", metavar="PATH_OR_URL", help="a release file, a folder of release "
                                                                       "files, or a URL")
    add.add_argument("--replace", action="store_true",
                     help="replace an edition already added whose rules text differs (the changed rules "
                          "are shown either way)")
    add.set_defaults(func=run_add)
    show = actions.add_parser("list", help="every loaded document with its edition and record count")
    show.set_defaults(func=run_list)


def run_add(args: argparse.Namespace) -> int:
    """Add each release; a refused one is one line on stderr and exit 2, the others are added."""
    sources = release_sources(args.sources)
    cache = open_cache()
    refused = 0
    for source in sources:
        try:
            added = add_release(source, cache, replace_text=args.replace)
            for change in added.changes:  # what a replacement changes, shown before it is asked for
                print(f"  {escape_controls(change)}")
            if added.status == "differs":
                raise InputError(source, f"the Comprehensive Rules effective {added.release.effective} "
                                         f"are already added ({added.path}) with other text: "
                                         f"{len(added.changes)} rules differ (above); nothing changed. "
                                         "Add --replace to replace it")
        except InputError as error:
            if len(sources) == 1:
                raise  # one file: its one line, exit 2
            print(f"rulesjudge: {error}", file=sys.stderr)
            refused += 1
            continue
        for warning in added.release.warnings:  # the publisher's typos the reader worked around
            print(f"warning: {escape_controls(str(warning))}", file=sys.stderr)
        print(_outcome(added))
    if refused < len(sources):
        load_corpus()  # map the new releases onto their neighbours now: `rulesjudge rule` answers at once
    if refused:
        print(f"rulesjudge: {refused} of {len(sources)} files refused, the others added", file=sys.stderr)
    return 2 if refused else 0


def _outcome(added: Any) -> str:
    release = added.release
    counts = release.counts
    summary = (f"{counts['sections']} sections, {counts['rules']} rules, {counts['subrules']} subrules, "
               f"{counts['glossary']} glossary entries")
    what = f"Comprehensive Rules effective {release.effective}"
    if added.status == "built in":
        return f"Already built in: {what} ({added.path}); nothing to add"
    if added.status == "built in, saved another way":
        return (f"Already built in: {what} ({added.path}); this file holds the same rules, saved another way "
                f"(read as {', '.join(release.read_as)}); nothing to add")
    if added.status == "built in differs":
        return (f"Not added: {what} is built in ({added.path}) and this file differs from it; "
                "the built-in release stays in use")
    if added.status == "unchanged":
        return f"Already added: {what} ({added.path})"
    verb = "Replaced" if added.status == "replaced" else "Added"
    changed = f"; {len(added.changes)} rules changed" if added.status == "replaced" else ""
    return f"{verb}: {what} -> {added.path} ({summary}; read as {', '.join(release.read_as)}{changed})"


def run_list(args: argparse.Namespace) -> int:
    corpus = load_corpus()
    files = {release.effective: release.path for release in corpus.releases}
    print(f"{'document':<14} {'edition':<12} {'records':>7}  source")
    for document, edition, count in corpus.documents():
        if document == "cr" and edition in files:
            source = files[edition]
        elif document == "cr":
            source = "quoted by a built-in document"
        else:
            source = f"built-in: {DOCUMENT_TITLES.get(document, document)}"
        print(f"{document:<14} {edition:<12} {count:>7}  {escape_controls(str(source))}")  # one line each
    return 0
