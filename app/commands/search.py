"""`rulesjudge search "QUESTION"`: cited rules for a question, exact numbers first.

    rulesjudge search "can the emperor attack at the start?" [--k N] [--edition DATE] [--document D]
                      [--official-only] [--method hybrid|bm25|dense] [--json]
    rulesjudge search --batch FILE --json     # one question per line in, one JSON line per question out

A question that is only a rule number ("722.4", "rule 907.11b", "CR 722.4.") is answered from the
corpus alone, without importing torch, FAISS or BM25. The JSON of a question is an object
``{"query", "exact", "notes", "hits"}`` whose ``hits`` list is in rank order; each hit has at least
``id, number, document, edition, kind, title, text, score, cross_refs`` (see docs/search.md).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError, escape_controls, json_text
from rulesjudge.common.inputs import decode_text, read_capped, read_file
from rulesjudge.corpus.records import source_label
from rulesjudge.indexer.search import open_searcher

MAX_BATCH_BYTES = 1_000_000  # about 20,000 questions
MAX_ABILITIES = 4  # of a named card's Oracle text in the plain-text answer (--json has all of it)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("search", help="find the rules that answer a question (or a rule number)")
    p.add_argument("question", nargs="*", help="the question, or a rule number such as 809.3c")
    p.add_argument("--k", type=int, default=10, help="number of hits (default 10)")
    p.add_argument("--edition", help="rules as of this date (YYYY-MM-DD), or an edition name such as 4.0")
    p.add_argument("--document", help="only this document (cr, rulings, treachery, monarch-wiki, ...)")
    p.add_argument("--official-only", action="store_true", help="only official Wizards of the Coast text")
    p.add_argument("--method", default="hybrid", choices=("hybrid", "bm25", "dense"), help="ranking method")
    p.add_argument("--json", action="store_true", help="print JSON (one object per question)")
    p.add_argument("--batch", metavar="FILE", help="read one question per line from FILE ('-' for stdin)")
    p.set_defaults(func=run)


def _questions(args: argparse.Namespace) -> list[tuple[int | None, str]]:
    if args.batch is None:
        question = " ".join(args.question).strip()  # its text was checked with every argument's (cli.py)
        if not question:
            raise InputError(None, "empty question: give a question or a rule number", key="question")
        return [(None, question)]
    if args.question:
        raise InputError(args.batch, "give either a question or --batch FILE, not both", key="batch")
    if args.batch == "-":
        data = read_capped(sys.stdin.buffer, MAX_BATCH_BYTES, "<stdin>")
    else:
        data = read_file(Path(args.batch), limit=MAX_BATCH_BYTES, what="batch file")
    lines = decode_text(data, args.batch).splitlines()
    questions: list[tuple[int | None, str]] = [
        (number, line.strip()) for number, line in enumerate(lines, start=1) if line.strip()
    ]
    if not questions:
        raise InputError(args.batch, "the batch file holds no question")
    return questions


def _wrap(text: str, lines: int, indent: str = "    ") -> str:
    return textwrap.fill(" ".join(escape_controls(text).split()), width=100, initial_indent=indent,
                         subsequent_indent=indent, max_lines=lines, placeholder=" …")


def _print_cards(cards: list[Any]) -> None:
    """The cards part: each named card's name, type line and Oracle text (short), then its three rulings
    that speak most of the question, with their date and id."""
    print("Cards named:")
    for part in cards:
        card = part.card
        said = f" (said: {escape_controls(part.said)})" if part.said.lower() != card.name.lower() else ""
        print(f"* {escape_controls(card.name)}{said}  [{card.id}]")
        for face in card.faces:
            head = face.name if len(card.faces) > 1 else ""
            cost = f" {face.mana_cost}" if face.mana_cost else ""
            print(_wrap(f"{head + ': ' if head else ''}{face.type_line}{cost}", 2))
            abilities = face.text.splitlines()
            for ability in abilities[:MAX_ABILITIES]:  # one line each, short: the card, not its rulings
                print(_wrap(ability, 2, "      "))
            if len(abilities) > MAX_ABILITIES:
                print("      …")
        if not part.rulings:
            print("    no official ruling")
        for ruling, _score in part.rulings[:3]:
            print(_wrap(f"ruling {ruling.date} [{ruling.id}]: {ruling.text}", 3))
    print("Rules:")


def _print_human(result: Any) -> None:
    for note in result.notes:  # a note may quote the question
        print(f"note: {escape_controls(note)}")
    if result.cards:
        _print_cards(result.cards)
    if not result.hits:
        print("no matching rule")
    for rank, hit in enumerate(result.hits, start=1):
        source = "official" if hit.official else source_label(hit.document)  # an official rule a fan rules
        # document recalls (Treachery's "Reminder: 104.3g.") is still official
        label = hit.number or hit.title
        title = f" — {hit.title}" if hit.title and hit.title != label else ""
        print(f"{rank:>2}. {hit.citation}{title}  [{hit.id}; {source}; {hit.match} {hit.score:.3f}]")
        if hit.context:
            print(f"    in: {hit.context}")
        body = " ".join(hit.text.split())
        print(textwrap.fill(body, width=100, initial_indent="    ", subsequent_indent="    ",
                            max_lines=6, placeholder=" …"))
        for example in hit.examples[:1]:
            example = " ".join(example.split())
            example = example if example.lower().startswith("example") else f"Example: {example}"
            print(textwrap.fill(example, width=100, initial_indent="    ",
                                subsequent_indent="    ", max_lines=3, placeholder=" …"))
        if hit.cross_refs:
            print(f"    see: {', '.join(hit.cross_refs)}")
        if hit.note:
            print(f"    note: {hit.note}")


def run(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise InputError(None, f"--k must be at least 1 (got {args.k})", key="k")
    questions = _questions(args)
    searcher = open_searcher(progress=True, lazy=True)  # progress lines also when stderr is a log
    for line, question in questions:
        try:
            result = searcher.search(question, args.k, document=args.document, edition=args.edition,
                                     official_only=args.official_only, method=args.method)
        except InputError as error:
            if error.path is None and error.key not in (None, "query"):  # a flag: --edition, --document
                raise InputError("command line", error.message, key=f"--{error.key}") from None
            if line is not None and error.path is None:  # name the batch line that was bad
                raise InputError(args.batch, error.message, line=line, key=error.key) from None
            raise
        if args.json:
            print(json_text(result.to_json()), flush=args.batch is not None)
        else:
            if len(questions) > 1:
                print(f"== {escape_controls(question)}")
            _print_human(result)
    return 0
