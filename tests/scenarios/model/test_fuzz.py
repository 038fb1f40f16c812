"""Fuzz: thousands of malformed documents made by mutating library files never crash the loader.

Each mutation either still parses (and then runs without raising) or raises InputError whose message
is one line naming the file. Mutations are seeded, so a failure reproduces.
"""

from __future__ import annotations

import datetime
import random
import unicodedata

import yaml

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import parse_scenario
from rulesjudge.scenarios.runner import LIBRARY, run_scenario

SEEDS = sorted(LIBRARY.rglob("*.yaml"))
JUNK = [
    "",
    ":",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "null",
    "~",
    "-1",
    "3.5",
    "true",
    "'",
    '"',
    "&a",
    "*a",
    "!!python/name:os.system",
    "? ",
    "|",
    ">",
    "\t",
    "%YAML 1.1",
    "---",
    "...",
    "Zed",
    "leaves",
    "hold: yes",
    "\x00",
    "é",
    "(",
    ")",
    ",",
    "expect:",
    "game:",
    "events:",
    "players: [A, A]",
    "9" * 30,
    # issue 15: tags YAML can't build, dates, deep nesting, huge numbers, hidden and control characters
    "!!int abc",
    "!!float x",
    "!!bool maybe",
    "!!timestamp x",
    "!!binary aGk=",
    "!!set {a}",
    "!!python/object/apply:os.system [ls]",
    "2024-13-45",
    "2024-02-30",
    "2024-01-01 12:00:00",
    "[" * 5000,
    "{a: " * 3000,
    "- " * 3000,
    "9" * 5000,
    r'"Ann\u200b"',
    r'"\u202eBen"',
    r'"\u2800"',
    r'"a\nPASS b"',
    r'"\e[2J"',
]


def mutate_text(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    if not lines:
        return rng.choice(JUNK)
    i = rng.randrange(len(lines))
    op = rng.randrange(8)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        pos = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:pos] + rng.choice(JUNK) + lines[i][pos:]
    elif op == 3:
        lines[i] = " " * rng.randrange(6) + lines[i].lstrip()
    elif op == 4:
        lines = lines[: rng.randrange(len(lines) + 1)]
    elif op == 5 and ":" in lines[i]:
        key = lines[i].split(":", 1)[0]
        lines[i] = f"{key}: {rng.choice(JUNK)}"
    elif op == 6:
        lines[i] = "".join(rng.sample(lines[i], len(lines[i])))
    else:
        lines.insert(
            i, f"{' ' * rng.randrange(4)}{rng.choice(['zz', 'hold', 'amount', 'range'])}: {rng.choice(JUNK)}"
        )
    return "\n".join(lines) + "\n"


def mutate_data(data, rng: random.Random):
    """Replace, delete or add one node of the parsed document."""
    deep: list = []
    for _ in range(40):  # past the reader's depth limit
        deep = [deep]
    values = [None, 0, -3, 2.5, True, "Zed", [], {}, ["Ann", "Ann"], {"zz": 1}, [[]], "leaves", {"hold": "x"},
              datetime.date(2024, 2, 29), "Ann\u200b", "a\nb", deep, 10**200]
    if isinstance(data, dict) and data:
        key = rng.choice(list(data))
        roll = rng.random()
        if roll < 0.3:
            data = dict(data)
            del data[key]
        elif roll < 0.5:
            data = {**data, rng.choice(["zz", "hold", "monarch", "life(Zed)"]): rng.choice(values)}
        elif roll < 0.7:
            data = {**data, key: rng.choice(values)}
        else:
            data = {**data, key: mutate_data(data[key], rng)}
        return data
    if isinstance(data, list) and data:
        i = rng.randrange(len(data))
        copy = list(data)
        copy[i] = mutate_data(copy[i], rng) if rng.random() < 0.6 else rng.choice(values)
        return copy
    return rng.choice(values)


def _feed(text: str, name: str) -> bool:
    """True when the document was rejected as input error; fails the test on any other exception."""
    try:
        scenario = parse_scenario(text, name)
    except InputError as error:
        message = str(error)
        assert message.startswith(name), message
        assert not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in message), message
        return True
    report = run_scenario(scenario)
    assert report.error is None, f"{name}: {report.error}\n{text}"
    return False


def test_two_thousand_text_mutations_never_crash() -> None:
    rng = random.Random(722)
    texts = [p.read_text(encoding="utf-8") for p in SEEDS] or ["name: x\ngame: {players: [Ann, Ben]}\n"]
    rejected = 0
    for n in range(2000):
        text = texts[n % len(texts)]
        for _ in range(rng.randrange(1, 4)):
            text = mutate_text(text, rng)
        rejected += _feed(text, f"fuzz{n}.yaml")
    assert rejected > 500  # most mutations are malformed and were rejected with a message


def test_five_hundred_structural_mutations_never_crash() -> None:
    rng = random.Random(809)
    docs = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in SEEDS[:80]] or [{"name": "x"}]
    rejected = 0
    for n in range(500):
        data = mutate_data(docs[n % len(docs)], rng)
        try:
            text = yaml.safe_dump(data, sort_keys=False)
        except yaml.YAMLError:
            continue
        rejected += _feed(text, f"struct{n}.yaml")
    assert rejected > 100
