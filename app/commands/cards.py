"""``rulesjudge cards add FILE_OR_URL [RULINGS]``, ``cards update`` and ``cards list``: card snapshots."""

from __future__ import annotations

import argparse
from typing import Any

from rulesjudge.common.errors import escape_controls
from rulesjudge.corpus.cards import load_cards
from rulesjudge.corpus.cards.adding import add_snapshot, update
from rulesjudge.corpus.cards.snapshots import choose, snapshot_files


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("cards", help="add, download or list card snapshots (Oracle text and rulings)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="check and keep a card snapshot: MTGJSON AtomicCards (.json, .xz, "
                                         ".gz, .zip) or Scryfall oracle-cards with its rulings file")
    add.add_argument("sources", nargs="+", metavar="FILE_OR_URL",
                     help="an MTGJSON AtomicCards file or URL; or a Scryfall oracle-cards-*.json and its "
                          "rulings-*.json (found beside it when not named)")
    add.add_argument("--sha256", metavar="HEX", help="the file's expected sha256 (default: the .sha256 file "
                                                     "published beside it, when there is one)")
    add.set_defaults(func=run_add)
    update = actions.add_parser("update", help="download the newest MTGJSON AtomicCards and its checksum")
    update.add_argument("--base-url", metavar="URL", help="where AtomicCards.json.xz and its .sha256 are "
                                                          "(default: $RULESJUDGE_MTGJSON_URL or MTGJSON's)")
    update.set_defaults(func=run_update)
    show = actions.add_parser("list", help="every card snapshot: edition, format, cards, rulings, file")
    show.set_defaults(func=run_list)


def run_add(args: argparse.Namespace) -> int:
    print(outcome(add_snapshot(args.sources, sha256=args.sha256)))
    return 0


def run_update(args: argparse.Namespace) -> int:
    print(outcome(update(args.base_url)))
    return 0


def outcome(added: Any) -> str:
    snap = added.snapshot
    what = f"card snapshot of {snap.edition} ({snap.format}: {len(snap.cards)} cards, {snap.rulings} rulings)"
    if added.status == "built in":
        return f"Already built in: {what}; nothing to add"
    verb = {"added": "Added", "replaced": "Replaced", "unchanged": "Already added"}[added.status]
    current = choose(None)
    note = "now the current snapshot" if current.edition == snap.edition and not current.builtin else \
        f"the current snapshot stays {current.edition}; read this one with --edition {snap.edition}"
    return escape_controls(f"{verb}: {what} -> {added.where}; {note}")


def run_list(args: argparse.Namespace) -> int:
    current = choose(None)
    print(f"  {'edition':<12} {'format':<9} {'cards':>7} {'rulings':>8}  source")
    seen: set[str] = set()
    for snapshot in reversed(snapshot_files()):
        if snapshot.edition in seen:
            continue  # an added file of a built-in edition is the one read
        seen.add(snapshot.edition)
        db = load_cards(snapshot.edition)
        mark = "*" if snapshot == current else " "
        print(f"{mark} {snapshot.edition:<12} {snapshot.format:<9} {db.info.cards:>7} {db.info.rulings:>8}  "
              f"{escape_controls(snapshot.where)}")
    print("* current (the newest); read another with --edition DATE")
    return 0
