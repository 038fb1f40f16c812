"""A fuzz of what users hand rulesjudge (issue 24): mutated scenario files, what-if questions with random
bytes, mutated official releases. Every case must end in an answer or an :class:`InputError` (one line
for the user); anything else escaping is a traceback and is collected with the input that raised it.

The CI slice (tests/reliability/test_fuzz_slice.py) runs a few hundred cases per kind in seconds; the big run:

    nice -n 15 python -m tests.reliability.fuzz --scenarios 100000 --what-ifs 10000 --releases 1000

Seeds make a case reproducible: ``--seed N`` and the case number name it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError

PROJECT_ROOT = Path(__file__).resolve().parents[2]
LIBRARY = PROJECT_ROOT / "scenarios" / "library"
#: Pieces a mutation splices in: YAML syntax, names, numbers, markup, controls and look-alikes.
TOKENS = ["[", "]", "{", "}", ":", ": ", "- ", "\n", "  ", "'", '"', "&a", "*a", "!!int", "!!python/object",
          "null", "~", "true", "-1", "0", "99999999999999999999", "1e400", "nan", ".inf", "Ann", "ann",
          "\u0410nn", "Zed", "\u200b", "\u202e", "\u2028", "\x1b[2J", "\x00", "\ufeff", "725.4", "999.999z",
          "leaves", "concedes", "monarch", "attack", "teams", "players", "permanents", "expect", "events",
          "about", "https://evil.example", "#", "%YAML 1.1", "---", "...", "<<", "? ", "|", ">"]
WHAT_IF_WORDS = ["who", "is", "the", "monarch", "if", "Ann", "Ben", "Cat", "Dan", "leaves", "concedes",
                 "attacks", "can", "attack", "becomes", "what", "happens", "when", "loses", "draws", "range",
                 "initiative", "leader", "emperor", "teammate", "everyone", "except", "turn", "dies", "and",
                 "then", "wins", "game", "?", ",", "'s", "3", "twice", "nobody", "Аnn", "ANN", "\u202e",
                 "https://evil.example", "725.4", "🙂", "\x00", "\n", "  "]
WHAT_IF_TABLES: list[tuple[dict[str, Any], list[Any]]] = [
    ({"players": ["Ann", "Ben", "Cat", "Dan"], "monarch": "Cat", "initiative": "Dan"}, []),
    ({"players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "options": {"range": 1}, "monarch": "Ann"}, []),
    ({"variant": "emperor", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]]}, []),
    ({"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"],
      "identities": {"Ann": "assassin", "Ben": "guardian", "Cat": "leader", "Dan": "assassin",
                     "Eve": "traitor"}}, [{"leaves": "Dan"}]),
]


@dataclass
class Tally:
    """What a fuzz run saw: outcomes by kind, and each traceback with the case that raised it."""

    cases: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    tracebacks: list[str] = field(default_factory=list)
    model_errors: list[str] = field(default_factory=list)

    def run(self, kind: str, case: str, work: Callable[[], str]) -> None:
        self.cases[kind] += 1
        try:
            self.outcomes[f"{kind}: {work()}"] += 1
        except InputError as error:
            assert "\n" not in str(error), f"a two-line message: {error!r}"
            self.outcomes[f"{kind}: refused"] += 1
        except RecursionError:
            self.tracebacks.append(f"{kind} {case}: RecursionError")
        except Exception:
            self.tracebacks.append(f"{kind} {case}:\n{traceback.format_exc(limit=6)}")


def mutate(text: str, rng: random.Random, edits: int) -> str:
    """``text`` with ``edits`` random edits: characters deleted, duplicated, swapped for a token or a
    random character, lines cut or repeated."""
    chars = list(text)
    for _ in range(edits):
        if not chars:
            chars = list(rng.choice(TOKENS))
        at = rng.randrange(len(chars))
        roll = rng.random()
        if roll < 0.25:
            del chars[at:at + rng.randint(1, 8)]
        elif roll < 0.55:
            chars[at:at] = list(rng.choice(TOKENS))
        elif roll < 0.7:
            chars[at] = chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000),
                                        rng.randrange(0x10000, 0x10FFFF)]))
        elif roll < 0.85:
            end = at + rng.randint(1, 40)
            chars[at:at] = chars[at:end] * rng.randint(1, 3)
        else:
            lines = "".join(chars).split("\n")
            cut = rng.randrange(len(lines))
            lines.insert(cut, lines[rng.randrange(len(lines))])
            chars = list("\n".join(lines))
    return "".join(chars)


def scenario_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(LIBRARY.rglob("*.yaml"))]


def fuzz_scenarios(count: int, seed: int, tally: Tally, corpus: Any) -> None:
    """Mutated library scenarios through what `check` does: parse, check `about`, run."""
    from rulesjudge.scenarios.format import parse_scenario
    from rulesjudge.scenarios.runner import check_about, run_scenario

    rng = random.Random(seed)
    texts = scenario_texts()

    def check(text: str) -> str:
        scenario = parse_scenario(text, "fuzz.yaml")
        check_about(scenario, corpus)
        report = run_scenario(scenario)
        if report.error and report.error.startswith("model error"):
            tally.model_errors.append(report.error)
            return "model error"
        return "passed" if report.passed else "failed"

    for n in range(count):
        text = mutate(rng.choice(texts), rng, rng.choice([1, 1, 2, 3, 5, 12]))
        tally.run("scenario", f"seed {seed} case {n}: {text[:200]!r}", lambda t=text: check(t))


def phrase_tables() -> list[tuple[str, dict[str, Any]]]:
    """The what-if phrases people used (tests/app/whatif_phrases.yaml) with their tables."""
    import yaml

    path = PROJECT_ROOT / "tests" / "app" / "whatif_phrases.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    tables = data["tables"]
    return [(entry["say"], tables[entry["table"]]) for entry in data["phrases"]
            if entry.get("table") in tables]


Table = dict[str, Any]


def random_question(rng: random.Random, phrases: list[tuple[str, Table]]) -> tuple[str, Table]:
    """A question people asked, mutated; or words of one; random bytes decoded as the command line
    decodes them spliced in; and the table it is asked of."""
    if phrases and rng.random() < 0.6:
        said, game = rng.choice(phrases)
        words = mutate(said, rng, rng.choice([0, 0, 1, 2, 4]))
    else:
        words = " ".join(rng.choice(WHAT_IF_WORDS) for _ in range(rng.randint(1, 14)))
        game = rng.choice(WHAT_IF_TABLES)[0]
    if rng.random() < 0.3:
        noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))  # as random as argv gets
        at = rng.randrange(len(words) + 1)
        codec = rng.choice(["surrogateescape", "latin-1"])  # bytes as argv keeps them, or as odd text
        text = noise.decode("utf-8", "surrogateescape") if codec == "surrogateescape" else noise.decode(codec)
        words = words[:at] + text + words[at:]
    return words, game


def fuzz_what_ifs(count: int, seed: int, tally: Tally, corpus: Any) -> None:
    """Questions through what `ask --what-if` does: the argument's text checked, read, played."""
    from rulesjudge.app.services import ask_what_if, open_table
    from rulesjudge.common.inputs import check_argument_text

    rng = random.Random(seed)
    phrases = phrase_tables()

    def ask(question: str, game: dict[str, Any], events: list[Any]) -> str:
        check_argument_text(question, "--what-if", "the question")
        if not question.strip():
            return "empty"
        asked = ask_what_if(open_table(game, events), question, corpus)
        return "answered" if asked.outcome is not None else "not understood"

    for n in range(count):
        question, game = random_question(rng, phrases)
        events = [{"leaves": "Dan"}] if rng.random() < 0.2 and "Dan" in str(game) else []
        tally.run("what-if", f"seed {seed} case {n}: {question!r} at {game}",
                  lambda q=question, g=game, e=events: ask(q, g, e))


def release_samples() -> list[bytes]:
    from rulesjudge.corpus.official import SAMPLE
    from rulesjudge.corpus.store import builtin_release_paths

    return [SAMPLE, *(p.read_bytes() for p in builtin_release_paths())]


def fuzz_releases(count: int, seed: int, tally: Tally) -> None:
    """Mutated releases through `corpus add` (into the data folder of ``$RULESJUDGE_DATA``): each is
    added, refused in one line, or found to differ from the edition already added (kept without
    ``--replace``); whatever happens, the releases folder holds only whole release files, each the bytes
    of one that was added, and no temporary file."""
    import tempfile

    from rulesjudge.corpus.releases import add_release
    from rulesjudge.corpus.store import open_cache, user_releases_folder

    rng = random.Random(seed)
    sample, *real = release_samples()
    cache = open_cache()
    added: dict[str, bytes] = {}  # file name in the releases folder -> the bytes added there

    def add(data: bytes, folder: Path) -> str:
        source = folder / "fuzz.txt"
        source.write_bytes(data)
        try:
            outcome = add_release(str(source), cache)
        finally:
            kept = {p.name: p.read_bytes() for p in user_releases_folder().glob("*") if p.is_file()}
            if set(kept) - {*added, f"cr-{_edition_of(data)}.txt"}:
                raise AssertionError(f"unexpected files in the releases folder: {sorted(kept)}")
        if outcome.status in ("added", "replaced"):
            added[outcome.path.name] = outcome.path.read_bytes()
        if {name: kept.get(name) for name in added} != added:
            raise AssertionError("a release file of the data folder changed without being added")
        return outcome.status

    with tempfile.TemporaryDirectory() as scratch:
        for n in range(count):
            whole = real and rng.random() < 0.05  # a full release now and then (0.3 s), the sample mostly
            base = rng.choice(real) if whole else sample
            text = base.decode("utf-8", "surrogateescape")
            data = mutate(text, rng, rng.choice([1, 2, 4, 10])).encode("utf-8", "surrogateescape")
            if rng.random() < 0.1:
                data = bytes(b ^ rng.randrange(256) if rng.random() < 0.01 else b for b in data)
            tally.run("release", f"seed {seed} case {n} ({len(data)} bytes)",
                      lambda d=data: add(d, Path(scratch)))


def _edition_of(data: bytes) -> str:
    """The effective date a release file claims (for the file name `corpus add` may write), or ""."""
    import re

    from rulesjudge.corpus.official import parse_release

    try:
        return parse_release(data, source_name="fuzz.txt").effective
    except InputError:
        found = re.search(rb"\d{4}-\d{2}-\d{2}", data)
        return found.group(0).decode() if found else ""


def slices(total: int, size: int) -> Iterator[int]:
    while total > 0:
        yield min(size, total)
        total -= size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=1000)
    parser.add_argument("--what-ifs", type=int, default=200)
    parser.add_argument("--releases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slice", type=int, default=2000, help="cases per seed (a CI-sized slice)")
    args = parser.parse_args(argv)
    from rulesjudge.scenarios.runner import default_citation_corpus

    corpus = default_citation_corpus()
    tally = Tally()
    started = time.perf_counter()
    kinds = (("scenarios", args.scenarios), ("what-ifs", args.what_ifs), ("releases", args.releases))
    for kind, total in kinds:
        for offset, size in enumerate(slices(total, args.slice)):
            seed = args.seed * 1000 + offset
            if kind == "scenarios":
                fuzz_scenarios(size, seed, tally, corpus)
            elif kind == "what-ifs":
                fuzz_what_ifs(size, seed, tally, corpus)
            else:
                fuzz_releases(size, seed, tally)
            print(f"{kind}: {sum(tally.cases.values())} cases, {len(tally.tracebacks)} tracebacks, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    print(dict(tally.cases))
    for outcome, n in sorted(tally.outcomes.items()):
        print(f"  {outcome}: {n}")
    print(f"model errors: {len(tally.model_errors)}; tracebacks: {len(tally.tracebacks)}")
    for line in (tally.tracebacks + tally.model_errors)[:20]:
        print(line)
    return 1 if tally.tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
