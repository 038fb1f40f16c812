"""Meaning-preserving transforms of phrasings the reader reads right (issue 23's robustness): how much of what
is read survives a change of voice, order, case, filler or number words, and that none of it turns WRONG.

``python tests/app/whatif_transforms.py [FILE ...]`` (default: whatif_situations.yaml and rounds 5-11) scores
each phrase read right as written under every transform that changes it, and prints each transform's share
still read right, its WRONG ones (the worst outcome) and, with ``-v``, the ones not read.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from whatif_rounds import load_round, score

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
          10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen",
          17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty", 21: "twenty one", 30: "thirty",
          40: "forty"}
_NAME = r"[A-Z][a-z]+"
_ACTOR = r"(?!(?:it|he|she|they|and|then|who|that|which)\b)[A-Za-z]+(?:'s [a-z]+)?"
_WH = r"(?:who|whose|what|what's|how|is|does|do|can|will|are|did)"


def lower_bare(text: str) -> str:
    """Lower case, no full stops, the last question mark dropped where the words still ask (a chat)."""
    text = re.sub(r"\.(?= )", "", text.lower()).strip()
    last = re.split(r"[.?!,] ", text)[-1]
    return text.rstrip("?!") if re.match(rf"{_WH}\b", last) else text


def filler(text: str) -> str:
    """A chat lead-in and tail that carry no fact."""
    return f"quick q: {text[0].lower()}{text[1:]} lol"


def so_lead(text: str) -> str:
    """ "so ..." before it."""
    return f"so {text}"


def number_words(text: str) -> str:
    """Life, poison and damage counts said as words ("at 9 poison" -> "at nine poison")."""
    return re.sub(r"\b(at|has|have|for|takes|loses|gains|with|on) (\d{1,2})\b(?!/)",
                  lambda m: f"{m[1]} {_WORDS.get(int(m[2]), m[2])}", text)


def passive(text: str) -> str:
    """ "A hits B with X" -> "B gets hit by A with X"; "A attacks B" -> "B is attacked by A"."""
    def turn(m: re.Match[str]) -> str:
        verb = {"hits": "gets hit", "attacks": "is attacked", "swings at": "gets swung at"}[m["verb"]]
        return f"{m['b']} {verb} by {m['a']}"

    hit = r"(?P<b>(?!(?:it|him|her|them|with)\b)[A-Za-z]+)\b(?!')"
    return re.sub(rf"(?<![\w'])(?P<a>{_ACTOR}) (?P<verb>hits|attacks|swings at) {hit}", turn, text, count=1)


def question_first(text: str) -> str:
    """The question said before the story: "S1. S2. Q?" -> "Q? S1. S2."."""
    parts = re.split(r"(?<=[.?!]) +", text.strip())
    if len(parts) < 2 or not re.match(rf"(?i){_WH}\b", parts[-1]) or not parts[-1].endswith("?"):
        return text
    return " ".join([parts[-1], *parts[:-1]])


def apposition(text: str) -> str:
    """ "X is the monarch. ... X ..." -> "... X, the monarch, ..." (the fact said in apposition)."""
    m = re.match(rf"(?P<x>{_NAME}) is the (?P<d>monarch|active player)\. (?P<rest>.*)", text)
    if not m or not re.search(rf"\b{m['x']}\b(?!')", m["rest"]):
        return text
    return re.sub(rf"\b{m['x']}\b(?!')", f"{m['x']}, the {m['d']},", m["rest"], count=1)


def turn_colon(text: str) -> str:
    """ "On X's turn, ..." -> "X's turn: ..."."""
    return re.sub(rf"^(?:On|on|During|during) ({_NAME}'s) turn,? ", r"\1 turn: ", text)


TRANSFORMS: dict[str, Callable[[str], str]] = {
    "lower_bare": lower_bare, "filler": filler, "so_lead": so_lead, "number_words": number_words,
    "passive": passive, "question_first": question_first, "apposition": apposition, "turn_colon": turn_colon,
}


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    files = [Path(a) for a in argv if not a.startswith("-")] or [
        Path(__file__).with_name(n) for n in
        ["whatif_situations.yaml", *(f"whatif_blind{i}.yaml" for i in range(5, 12))]]
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    notes: list[str] = []
    for path in files:
        tables, phrases = load_round(path)
        for phrase in phrases:
            if phrase.get("fallback") or score(phrase, tables)[0] != "right":
                continue
            for name, transform in TRANSFORMS.items():
                said = transform(phrase["say"])
                if said == phrase["say"]:
                    continue
                verdict, what = score({**phrase, "say": said}, tables)
                seen[name][verdict] += 1
                if verdict == "wrong" or (verbose and verdict != "right"):
                    notes.append(f"{verdict.upper():8} {name:14} [{phrase['table']}] {said}\n         {what}")
    print("\n".join(notes))
    total: Counter[str] = Counter()
    for name, verdicts in seen.items():
        total += verdicts
        n = sum(verdicts.values())
        right = verdicts["right"]
        print(f"{name:14} {right}/{n} right ({right / n:.1%}), wrong {verdicts['wrong']}")
    n = sum(total.values())
    print(f"{'all':14} {total['right']}/{n} right ({total['right'] / n:.1%}), wrong {total['wrong']}")


if __name__ == "__main__":
    main(sys.argv[1:])
