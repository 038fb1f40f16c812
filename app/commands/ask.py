"""`rulesjudge ask FILE [--json]`: every question's answer with its derivation and citations.

`rulesjudge ask FILE --what-if "QUESTION"` asks a plain-English question of the scenario's table after its
events (the app's "Ask about this table"); `rulesjudge ask --players "Ann, Ben, Cat, Dan" --what-if ...`
asks it of a plain free-for-all table, seats clockwise, the first player active; with neither, of the players
the question names (seated as named, three at least: 800.1). The answer is the ruling text the app copies:
the judge's sentence, how it was read, the table the question stated, each step with its rules.
"""

from __future__ import annotations

import argparse
from typing import Any

from rulesjudge.app import card_sources, presenters, services
from rulesjudge.common.errors import InputError, escape_controls, json_text
from rulesjudge.corpus.cards import load_cards
from rulesjudge.scenarios.format import load_scenario, setup_from_data
from rulesjudge.scenarios.runner import check_about, default_citation_corpus, run_scenario
from rulesjudge.scenarios.view import report_to_dict, report_to_text

#: Exit code of a what-if that is not a question for the rules model (the closest rules are printed).
NOT_UNDERSTOOD = 1


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("ask", help="answer a scenario's questions step by step, with rule citations",
                              description="Answer a scenario file's questions, or a plain-English what-if "
                                          "about its table (or about a table of --players).")
    p.add_argument("file", metavar="FILE", nargs="?", help="a scenario file")
    p.add_argument("--what-if", metavar="QUESTION", dest="what_if",
                   help='a question about the table, e.g. "who is the monarch if Ann leaves?"')
    p.add_argument("--players", metavar="NAMES",
                   help='without FILE: the table for --what-if, seats clockwise ("Ann, Ben, Cat, Dan")')
    p.add_argument("--json", action="store_true", help="print the answers as JSON")
    p.add_argument("--editions", action="store_true",
                   help="each citation's edition and other editions at every step (default: once, at the "
                        "end)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.what_if is not None:
        if not args.what_if.strip():
            raise InputError("--what-if", "empty question")
        return run_what_if(args)
    if args.players is not None:
        raise InputError("--players", "gives the table of a --what-if question; add --what-if \"QUESTION\"")
    if not args.file:
        raise InputError("ask", "give a scenario FILE, or --what-if \"QUESTION\" with FILE or --players")
    return run_file(args)


def run_file(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.file)
    check_about(scenario, default_citation_corpus())
    report = run_scenario(scenario, corpus=default_citation_corpus())
    sources, edition = source_cards(scenario)
    if args.json:
        print(json_text({**report_to_dict(report), "cards": [s.to_json() for s in sources]}, indent=2))
    else:  # each line of the derivation stays one line whatever a name holds
        text = report_to_text(report, editions=getattr(args, "editions", False))
        text = card_sources.with_sources(text, card_sources.sources_text(sources, edition))
        print("\n".join(escape_controls(line) for line in text.split("\n")))
    return 0 if report.passed else 1


def source_cards(scenario: Any) -> tuple[list[Any], str]:
    """The cards the scenario's effects come from (``source: Platinum Angel``), looked up in the current
    card snapshot (:mod:`app.card_sources`), and its edition; none when no effect names a source."""
    return source_cards_of(card_sources.scenario_effects(scenario))


def source_cards_of(effects: list[Any]) -> tuple[list[Any], str]:
    names = card_sources.sources_of(effects)
    if not names:
        return [], ""
    db = load_cards()
    return card_sources.resolve_all(db, names), db.edition


def table_of(args: argparse.Namespace) -> tuple[dict[str, Any], list[Any]]:
    """The table (``game:``) and events the question is asked of: FILE's, or a table of --players."""
    if args.file and args.players is not None:
        raise InputError("--players", "give FILE or --players, not both (FILE has its own table)")
    if args.file:
        raw = services.read_scenario_file(args.file)
        game = raw.get("game")
        return (dict(game) if isinstance(game, dict) else {}), list(raw.get("events") or [])
    if args.players is None:  # the players the question names ("Ann is the monarch. ... Ben ...")
        named = players_in(args.what_if)
        if not named:
            raise InputError("--what-if", "needs a table: a scenario FILE, --players \"Ann, Ben, Cat, Dan\", "
                                          "or a question that names the players")
        # 800.1: a multiplayer game begins with more than two players; one more seat when the question names
        # only two, so that one leaving doesn't end the game the judge asks about (the table line says so)
        spare = [n for n in presenters.DEFAULT_NAMES if n not in named]
        return {"players": named + spare[: max(0, 3 - len(named))]}, []
    game = {"players": presenters.split_names(args.players)}
    setup_from_data(game, "--players")  # the format's own checks: two or more players, distinct names
    return game, []


#: Capitalised words of a question that are not names (sentence starts, rules words, variants).
_GRAMMAR_AND_RULES_WORDS = """
    A An The If When What Who Whom Whose Which Why How Can Could Does Do Did Is Are Was Were Will Would
    Should On In During At After Before Then And But Or So Ok Okay Suppose Say Assume Assuming Imagine Let It
    Its I We You He She They Judge Quick Hey Hi Yes No Not Every Everyone Everybody Nobody Also Now Next Still
    Monarch King Queen Initiative Leader Guardian Assassin Assassins Traitor Emperor Commander Treachery
    Emperors Giant Two Headed Team Teams Grand Melee Alternating Free All Vs CR EDH FFA THG HG"""
_NOT_NAMES = frozenset(_GRAMMAR_AND_RULES_WORDS.split())


def players_in(question: str) -> list[str]:
    """The players a question names, in the order it names them (capitalised words that are not grammar or
    rules words): the table of ``ask --what-if`` without FILE and --players.

    >>> players_in("Ann is the monarch. On Ben's turn Ann concedes. Who is the monarch?")
    ['Ann', 'Ben']
    >>> players_in("If Cat, at 3 life, takes 3 from Dan, who wins? Ann and Ben too.")
    ['Cat', 'Dan', 'Ann', 'Ben']
    """
    import re

    found = [w for w in re.findall(r"\b[A-Z][a-z]+\b", question) if w not in _NOT_NAMES]
    return list(dict.fromkeys(found))


def run_what_if(args: argparse.Namespace) -> int:
    game, events = table_of(args)
    asked = services.ask_what_if(services.open_table(game, events), args.what_if, default_citation_corpus())
    if asked.plan is None or asked.outcome is None:
        return not_understood(args, game)
    plan, outcome = asked.plan, asked.outcome
    sources, edition = source_cards_of(card_sources.data_effects(asked.game, [*events, *plan.events]))
    if args.json:  # the model's notation (events, question names, values) is for machines: here only
        print(json_text({
            "cards": [s.to_json() for s in sources],
            "question": args.what_if, "understood": True, "read_as": plan.summary, "answer": outcome.line,
            "sentence": outcome.answer, "stated": list(asked.stated), "overridden": list(asked.overridden),
            "assumed": asked.assumed, "game": asked.game,
            "events": list(plan.events), "values": dict(outcome.values),
            "steps": [{"text": s.text, "rules": list(s.rules), "readings": list(s.readings)}
                      for s in outcome.ruling_steps],
        }, indent=2))
        return 0
    text = presenters.ruling_text(question=args.what_if, summary=plan.summary, answer=outcome.answer,
                                  game=asked.game, events=events, steps=outcome.ruling_steps,
                                  situation=asked.situation)
    text = card_sources.before_footer(text, card_sources.sources_text(sources, edition))
    print("\n".join(escape_controls(line) for line in text.split("\n")))
    return 0


def not_understood(args: argparse.Namespace, game: dict[str, Any]) -> int:
    """Not a question the model reads: say so, and give the closest rules as `rulesjudge search` would."""
    import sys

    searcher = services.open_searcher(progress=False, build=True)
    hits = services.search_for_table(args.what_if, game, searcher, k=3)  # the table's variant's rules first
    if args.json:
        closest = [{"id": hit.id, "citation": hit.citation, "text": hit.text} for hit in hits]
        print(json_text({"question": args.what_if, "understood": False, "closest_rules": closest}, indent=2))
        return NOT_UNDERSTOOD
    print("rulesjudge: I can't turn that into a question for the rules model; the closest rules:",
          file=sys.stderr)
    for hit in hits:
        print(escape_controls(f"- {hit.citation}: {' '.join(hit.text.split())}"))
    return NOT_UNDERSTOOD
