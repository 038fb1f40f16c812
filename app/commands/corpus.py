"""``rulesjudge corpus add PATH_OR_URL`` and ``rulesjudge corpus list``: the official releases in use."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("corpus", help="add an official Comprehensive Rules release, or list documents")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="validate and copy a release (.txt or URL) into the data folder")
    add.add_argument("source", metavar="PATH_OR_URL")
    add.set_defaults(func=run_add)
    show = actions.add_parser("list", help="every loaded document with its edition and record count")
    show.set_defaults(func=run_list)


def run_add(args: argparse.Namespace) -> int:
    from rulesjudge.corpus.releases import add_release
    from rulesjudge.corpus.store import load_corpus

    added = add_release(args.source)
    for warning in added.release.warnings:  # the publisher's typos the reader worked around
        print(f"warning: {warning}", file=sys.stderr)
    counts = added.release.counts
    summary = (f"{counts['sections']} sections, {counts['rules']} rules, {counts['subrules']} subrules, "
               f"{counts['glossary']} glossary entries")
    if added.unchanged:
        print(f"Already added: Comprehensive Rules effective {added.release.effective} ({added.path})")
    else:
        verb = "Replaced" if added.replaced else "Added"
        print(f"{verb}: Comprehensive Rules effective {added.release.effective} -> {added.path} ({summary})")
    load_corpus()  # parse and cache now, so the next `rulesjudge rule` answers at once
    return 0


def run_list(args: argparse.Namespace) -> int:
    from rulesjudge.corpus.records import DOCUMENT_TITLES
    from rulesjudge.corpus.store import load_corpus

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
        print(f"{document:<14} {edition:<12} {count:>7}  {source}")
    return 0
