"""Blind round 7 (tests/app/whatif_blind7.yaml, issue 23): phrasings written before their writer read the
reader - situations stated in the question, presuppositions, variant names, filler, team phrasings, every
variant, and questions that are not about the table. Each is asked as the app and ``rulesjudge ask
--what-if`` ask it (``services.ask_what_if``) and scored: read right, not read (the search or a refusal),
or WRONG.

Targets (issue 23): >= 90% read right and no wrong answer. ``python tests/app/test_whatif_blind7.py [FILE]``
prints the score and each phrase not read right, with its verdict.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from whatif_rounds import load_round, score, tally

from rulesjudge.app import services

ROUND = Path(__file__).with_name("whatif_blind7.yaml")
TABLES, PHRASES = load_round(ROUND)


def test_the_round_is_blind_sized_and_every_answer_cites_its_rule():
    assert len(PHRASES) >= 160
    assert len({(p["table"], p["say"]) for p in PHRASES}) == len(PHRASES), "a phrasing is listed twice"
    fallbacks = sum(1 for p in PHRASES if p.get("fallback"))
    assert 0.05 <= fallbacks / len(PHRASES) <= 0.15, "about one in ten is not a table question"
    for phrase in PHRASES:
        assert phrase["table"] in TABLES
        assert phrase.get("fallback") or (phrase.get("expect") and phrase.get("why")), phrase["say"]


def test_every_table_is_legal_input():
    # A table the form can't hold would score its phrases "not read" for the wrong reason.
    for name, game in TABLES.items():
        assert services.open_table(game) is not None, name


# The blind score, first run of this round against the reader as merged (ac17209): 115 right, 74 not read,
# 5 WRONG of 194 (59.3%). Of the five, one was the writer's expectation against the rules (an Emperor "wins"
# effect: 801.14 makes the opponents in range lose instead), three the file's own format (a yes/no question
# answered as losers; `first-player` is a list, 907.7); after those 119 right, 74 not read, 1 WRONG (61.3%).
# A phrasing answered wrong goes here with its class, xfail(strict=False), so its fix shows as XPASS.
# The one WRONG ("what happens to Liam" after everyone else loses: read as "is Liam still in", 104.2a says he
# wins) was fixed after the round: the in-game question asks the game's end too; the sentence says the win.
# After h-blindfix7 (no longer blind: the fixer read the misses): 140 right, 54 not read, 0 wrong (72.2%).
KNOWN_WRONG: dict[str, str] = {}


def _marked(phrase):
    reason = KNOWN_WRONG.get(phrase["say"])
    marks = [pytest.mark.xfail(strict=False, reason=f"blind7 WRONG: {reason}")] if reason else []
    return pytest.param(phrase, marks=marks, id=f"{phrase['table']}: {phrase['say']}")


@pytest.mark.parametrize("phrase", [_marked(p) for p in PHRASES])
def test_no_phrase_is_answered_wrong(phrase, builtin_corpus):
    verdict, seen = score(phrase, TABLES, builtin_corpus)
    assert verdict != "wrong", seen


# Blind round 7 as written: 119 right, 74 not read, 1 WRONG of 194 (61.3%), the reader not changed for it.
@pytest.mark.xfail(strict=False, reason="blind7: 119 right, 74 not read, 1 wrong of 194 (61.3%)")
def test_nine_in_ten_are_read_right(builtin_corpus):
    verdicts = Counter(score(p, TABLES, builtin_corpus)[0] for p in PHRASES)
    assert verdicts["right"] / len(PHRASES) >= 0.9, verdicts


if __name__ == "__main__":
    print(*tally(Path(sys.argv[1]) if len(sys.argv) > 1 else ROUND), sep="\n")
