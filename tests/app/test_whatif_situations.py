"""Blind round 4 (tests/app/whatif_situations.yaml): questions that state the table, presuppose a holder, name
the variant, carry filler or speak of a team. Each is asked as the app and ``rulesjudge ask --what-if`` ask it
(``services.ask_what_if``), and scored: read right, not read (the search or a refusal), or wrong.

Targets (issue 23): >= 90% read right and no wrong answer (the scorer: ``whatif_rounds.score``).
``python tests/app/test_whatif_situations.py`` prints the score and each phrase not read right.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from whatif_rounds import load_round, score, tally

ROUND = Path(__file__).with_name("whatif_situations.yaml")
TABLES, PHRASES = load_round(ROUND)


def test_the_round_is_blind_sized_and_every_answer_cites_its_rule():
    assert len(PHRASES) >= 150
    assert len({(p["table"], p["say"]) for p in PHRASES}) == len(PHRASES), "a phrasing is listed twice"
    for phrase in PHRASES:
        assert phrase["table"] in TABLES
        assert phrase.get("fallback") or (phrase.get("expect") and phrase.get("why")), phrase["say"]


@pytest.mark.parametrize("phrase", PHRASES, ids=[f"{p['table']}: {p['say']}" for p in PHRASES])
def test_no_phrase_is_answered_wrong(phrase, builtin_corpus):
    verdict, seen = score(phrase, TABLES, builtin_corpus)
    assert verdict != "wrong", seen


def test_nine_in_ten_are_read_right(builtin_corpus):
    verdicts = Counter(score(p, TABLES, builtin_corpus)[0] for p in PHRASES)
    assert verdicts["right"] / len(PHRASES) >= 0.9, verdicts


if __name__ == "__main__":
    print(*tally(Path(sys.argv[1]) if len(sys.argv) > 1 else ROUND), sep="\n")
