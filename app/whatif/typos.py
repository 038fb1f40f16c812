"""Typos of the reader's vocabulary mended by spelling distance; real words (the grammar's, the rules')
kept."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from rulesjudge.app.whatif.events import HAPPENINGS
from rulesjudge.app.whatif.questions import QUESTIONS
from rulesjudge.app.whatif.references import _REFERENCES
from rulesjudge.corpus.documents import SOURCES_DIR

_SHORT_TYPOS = {
    "teh": "the", "hte": "the", "wat": "what", "waht": "what", "wht": "what", "hwo": "who",
    "woh": "who", "wich": "which", "dose": "does", "doe": "does", "cna": "can", "adn": "and", "nad": "and",
    "tehn": "then", "thne": "then", "fi": "if", "iff": "if", "ot": "to", "si": "is", "yhe": "the",
    "whoes": "whose", "cmdr": "commander", "dmg": "damage", "opp": "opponent", "opps": "opponents",
    "init": "initiative",
}
#: The words the reader's vocabulary turns on, mended when a typed word is one slip away from one of them
#: (two for long words): "concceds" -> "concedes", "crwon" -> "crown". A real word is never mended: one the
#: grammar uses, one of the rules' own text ("attacker", "command", "chose") or a player's name.
_VOCABULARY = (
    "concede", "concedes", "conceded", "scoops", "scooped", "monarch", "crown", "initiative", "attack",
    "attacks", "attacked", "eliminated", "library", "priority", "emperor", "emperors", "assassin",
    "assassins",
    "traitor", "guardian", "leader", "commander", "poison", "counters", "teammate", "teammates", "opponent",
    "opponents", "extra", "damage", "creature", "creatures", "unveil", "unveils", "ventures", "decked",
    "leaves", "happens", "happen", "combat", "whose", "knocked", "venture", "defending", "setup", "loses",
)


def _distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (a swap of two neighbours is one slip), stopped past ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[-1]


def _mend_word(word: str, keep: frozenset[str]) -> str:
    lower = word.lower()
    if lower in _SHORT_TYPOS:
        return _SHORT_TYPOS[lower]
    if len(lower) < 5 or lower in keep or lower in _VOCABULARY or not lower.isalpha():
        return word
    limit = 2 if len(lower) >= 7 else 1
    # nearest first, then the nearest in length ("concceds": "concedes" rather than "concede")
    scored = sorted((_distance(lower, v, limit), abs(len(v) - len(lower)), v) for v in _VOCABULARY)
    best = [v for d, n, v in scored if (d, n) == scored[0][:2]]
    if scored[0][0] > limit or len(best) > 1:
        return word  # too far, or as near to two words: not a slip we can mend
    return best[0]


def mend_typos(text: str, names: Sequence[str] = ()) -> str:
    """Typos of the reader's vocabulary mended, names and the grammar's own words left alone.

    >>> mend_typos("whos teh monarch if Cat concceds", ["Cat"])
    'whos the monarch if Cat concedes'
    """
    keep = _known_words() | {n.casefold() for name in names for n in name.split()}
    return re.sub(r"(?<!\w)[A-Za-z]+(?!\w)", lambda m: _mend_word(m[0], keep), text)


def warm_up() -> None:
    """Read what the first question would otherwise wait for (the real words, about 0.1 s)."""
    _known_words()


@functools.cache
def _known_words() -> frozenset[str]:
    """Real words, never mended into another: every word the grammar's patterns spell out, and every word
    of the built-in source documents (the rules' own English, 4,400 words, read once: about 0.07 s)."""
    patterns = [p.pattern for p, _ in (*QUESTIONS.rules, *HAPPENINGS.rules, *_REFERENCES)]
    words = {w for p in patterns for w in re.findall(r"[a-z]{2,}", p.lower())}
    for source in sorted(SOURCES_DIR.glob("*.txt")):
        words.update(re.findall(r"[a-z]{2,}", source.read_text(encoding="utf-8").lower()))
    return frozenset(words)
