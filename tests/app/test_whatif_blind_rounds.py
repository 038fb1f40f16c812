"""The blind rounds of what-if phrasings (issue 23): tests/app/whatif_blind<N>.yaml, each written by someone
who had not read the reader - situations stated in the question, presuppositions, variant names, filler, team
phrasings, every variant, and questions that are not about the table. Each phrase is asked as the app and
``rulesjudge ask --what-if`` ask it (``services.ask_what_if``) and scored by ``whatif_rounds``: read right,
not read (the search or a refusal), or WRONG.

Targets (issue 23): >= 90% read right and no wrong answer. ``python tests/app/test_whatif_blind_rounds.py
[FILE]`` prints the score and each phrase not read right, with its verdict (every round without FILE).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from whatif_rounds import load_round, score, tally

from rulesjudge.app import services


@dataclass(frozen=True)
class Round:
    """One blind round: its file, its scores (as written, and now), and the phrasings still answered wrong,
    each with its class (xfail(strict=False), so that a fix shows as XPASS)."""

    number: int
    blind: str  # the score of its first run, before the reader was changed for it
    now: str  # the score today, when the 90% target is not met yet ("" when it is)
    known_wrong: tuple[tuple[str, str], ...] = ()

    @property
    def path(self) -> Path:
        return Path(__file__).with_name(f"whatif_blind{self.number}.yaml")


ROUNDS = (
    # Round 5 (commit 340e599), before the reader was changed for it; the failure classes and their fixes are
    # listed in docs/app.md ("round 5").
    Round(5, blind="107 right, 96 not read, 2 WRONG of 205 (52.2%)", now=""),
    # Round 6, first run against the reader as merged (3880144), after the file's own format fixes (an `or`
    # where a yes/no question is answered as "losers"); h-blindfix fixed the four WRONG ones' classes (a
    # fragment never spans a clause break; a second fact of one clause; "their totals" for the players the
    # facts named) and found the Treachery one's expectation against 372.4b/372.7 (see the yaml).
    # After h-fixteams (teams, variants, Treachery) and h-fixstory (stories: control changes, blocks, combat
    # and sequences), each alone: 192 right, 12 not read, 0 wrong (94.1%): target met.
    Round(6, blind="134 right, 66 not read, 4 WRONG of 204 (65.7%)", now=""),
    # Round 7, first run against the reader as merged (ac17209): 115 right, 74 not read, 5 WRONG of 194; of
    # the five, one was the writer's expectation against the rules (an Emperor "wins" effect: 801.14 makes the
    # opponents in range lose instead), three the file's own format (a yes/no question answered as losers;
    # `first-player` is a list, 907.7). The one WRONG left ("what happens to Liam" after everyone else loses:
    # read as "is Liam still in", 104.2a says he wins) was fixed after the round.
    # After h-fixteams and h-fixstory (no longer blind): 183 right, 11 not read, 0 wrong (94.3%): target met.
    Round(7, blind="119 right, 74 not read, 1 WRONG of 194 (61.3%)", now=""),
    # Round 8, first run against the reader at 59c18bc: 112 right, 78 not read, 15 WRONG of 205; thirteen of
    # the fifteen were the file's own format (a yes/no "is X out" answered as losers or in-game with no `or`
    # for it; three expectations asking more than the question did), fixed in the file only. The two left are
    # the reader's: a second event dropped (Owen's concession after "Owen took control of Noah's Wolf",
    # 800.4a) and "can Ada's elf attack Di" read as an attack that happened (not can-attack).
    # h-fixteams and h-fixstory, written from rounds 5-7 while round 8 was being written, never saw it:
    # after them 132 right, 71 not read, 2 WRONG (64.4%). The lead then fixed both WRONG ones' classes (a
    # control change's later concession, 800.4a; "can X's creature attack Y" as can-attack).
    # After h-fix8 and h-fix8b (no longer blind: they read its misses): 188 right, 17 not read, none wrong.
    Round(8, blind="125 right, 78 not read, 2 WRONG of 205 (61.0%)", now=""),
    # Round 9 (h-blind9), first run against the reader at 81ede68: 76 right, 101 not read, 3 WRONG of 180;
    # one of the three was the file's own format (a 2HG poison limit asked of no player, expected of Kai
    # only), fixed in the file. Of the two left, one is the reader's ("Theo conceded at the end of his
    # turn": "his" bound to Jules, and the turn read as Jules's), one a presupposition a judge could take
    # either way (no monarch on the table, "who becomes monarch when Jules dies?": the yaml's `or`).
    # Against the reader after h-fix8b (which never saw it either): 77 right, 2 WRONG; the presupposition one
    # is right once the scorer accepts the `or` with the same key. The lead then fixed both WRONG ones'
    # classes: a possessive in a clause's own time phrase is its subject's ("Theo conceded at the end of his
    # turn"), and a count of what events make players do (draws, ventures) asked of no event goes to the
    # search ("how many cards does each player draw on the first turn in two headed giant").
    # h-f10a: two steals told before an attack with the stolen creature, once read, are read as every such
    # story is (whatif_situations.yaml, h-fixstory; blind6 expects the same of "Ann steals Dan's Troll on her
    # turn and attacks Ben with it"): in one turn, so the creature can't attack without haste (302.6, 508.1a).
    # The story doesn't say when the steal was, so the lead gave both phrasings that reading as their `or`.
    # After the two WRONG classes fixed: 79 right (43.9%); after h-f9a, h-f9b and h-f9c (no longer blind): 117
    # right, 63 not read, 0 wrong (65.0%); after h-f10a and h-f10b: 169 right, 11 not read, 0 wrong (93.9%).
    Round(9, blind="77 right, 101 not read, 2 WRONG of 180 (42.8%)", now=""),
    # Round 10 (h-blind10), written without reading the reader, first run against it at ade1c20: 121 right,
    # 80 not read, 2 WRONG of 203; one of the two was the writer's expectation against 907.12 and 104.2c (a
    # Guardian who left is remembered on the leader team and wins with the Leader; 907.5d's reading kept as
    # the `or`), fixed in the file. The one left is the reader's: "knight dies?" (a yes/no question in the
    # form of an event) read as the Knight dying; its class was fixed (a story's last sentence with a question
    # mark is asked: "does the Knight die").
    # h-f10a and h-f10b, working from round 9 and never shown round 10's misses, moved it by one phrasing.
    # After the WRONG class fixed: 123 right (60.6%); after h-f10a and h-f10b (still unseen by them): 124
    # right, 0 wrong (61.1%); after h-f10c (no longer blind): 140 (69.0%); after h-f10d and h-f10e: 194 right,
    # 9 not read, 0 wrong (95.6%).
    Round(10, blind="122 right, 80 not read, 1 WRONG of 203 (60.1%)", now=""),
    # Round 11 (h-blind11), written without reading the reader, first run against it at 19f3ead: 95 right,
    # 74 not read, 7 WRONG of 176; three of the seven were the file's own format (a yes/no "still alive?" and
    # "teammates still in?" answered as in-game with no `or` for it; "what happens to the ox" expected of the
    # blocker too), fixed in the file only. The four left are the reader's (see known_wrong).
    # The lead fixed the four WRONG classes: a hit said with a pronoun and "X just takes it" (unblocked);
    # a block told before the attack it answers ("Sol blocks the Ox with the Wolf when Rae attacks him": one
    # combat); a happening asked mid-story ("... blocks with the Ox. Ox dies? Rae's life?"); "does Sol keep
    # it" after a steal with no designation said (the creature, never a designation the table holds).
    # Round 11 after the four WRONG classes fixed: 102 right (58.0%); after h-f10d/e (working from round 10):
    # 103 (58.5%, its blind measure); after h-f11a/b (no longer blind): 127 (72.2%); after h-f12a/b: 163 of
    # 176 (92.6%), none wrong.
    Round(11, blind="98 right, 74 not read, 4 WRONG of 176 (55.7%)", now=""),
    # Round 13 (h-blind13), written without reading the reader (Two-Headed Giant, Team vs. Team, Alternating
    # Teams, commander damage and poison stories, designations), first run against it at fbdf8f1: 121 right,
    # 64 not read, 17 WRONG of 202. Fifteen of the seventeen were the file's: ten expectations asking more
    # than the question did, one `or` missing for "is the game over" answered as winners, and four the
    # writer's against the rules (907.5d: a face-down Guardian has no teammates; 801.2c twice: a range fixed
    # as the turn began, after a player between two others left; 907.12/104.2c: an Assassin who left wins
    # with the team), fixed in the file. The two left are the reader's (see known_wrong).
    Round(13, blind="136 right, 64 not read, 2 WRONG of 202 (67.3%)",
          now="after h-f12a/b (round 11's classes; never saw it): 138, 2 WRONG (68.3%); after h-f13a/b "
              "took its classes: 166 right, 36 not read, 0 wrong (82.2%)"),
    # Round 12 (h-blind12), written without reading the reader, first run against it at fbdf8f1: 114 right,
    # 62 not read, 3 WRONG of 179. All three were the file's own format, fixed in the file only: a
    # Treachery "who wins" whose `why` named two readings (907.5a / 907.5d) but whose expectation asked
    # neither key; "who's next" after "Rosa passes" answered as whose turn it is (`or: active`); a monarch
    # question expected to give a life total it didn't ask. Held out: the fixers working now never saw it.
    Round(12, blind="114 right, 62 not read, 3 WRONG of 179 (63.7%)",
          now="after the file's three format fixes: 117 right, 62 not read, 0 wrong (65.4%); held out from "
              "every fixer of the session, then scored against the final reader: 129 right, 50 not read, 0 "
              "wrong (72.1%)"),
    # Round 14 (h-blind14), written without reading the reader (stories with blocks, trample, lifelink,
    # deathtouch, infect and toxic, commander damage, control changes, concessions mid-combat, designations,
    # turn order after players leave, every variant and its team phrasings), first run against it at c0771f3:
    # 138 right, 62 not read, 2 WRONG of 202. One of the two is a Treachery ending the rules leave open (a
    # face-down Guardian after the Leader dies with no Assassin left: 907.5d, no teammates, plays on; or
    # 907.5a/907.8b, the leader team by identity, loses and the Traitor wins, 104.2a): both readings given,
    # the second as its `or`. The one left is the reader's (see known_wrong).
    Round(14, blind="138 right, 62 not read, 2 WRONG of 202 (68.3%)",
          now="as written, with the Treachery `or` (c0771f3): 139 right, 62 not read, 1 WRONG (68.8%); held "
              "out from every fixer, against the final reader: 144 right, 1 WRONG (71.3%); its WRONG class "
              "then fixed (a turn said after an event's free words, 'with a spell on Uma's turn'): "
              "145 right, 57 not read, 0 wrong (71.8%)"),
)
LOADED = {r.number: load_round(r.path) for r in ROUNDS}


def _phrases() -> list[object]:
    params = []
    for r in ROUNDS:
        wrong = dict(r.known_wrong)
        for phrase in LOADED[r.number][1]:
            reason = wrong.get(phrase["say"])
            marks = [pytest.mark.xfail(strict=False, reason=f"blind{r.number} WRONG: {reason}")] \
                if reason else []
            params.append(pytest.param(r, phrase, marks=marks,
                                       id=f"blind{r.number} {phrase['table']}: {phrase['say']}"))
    return params


def _targets() -> list[object]:
    """Each round's 90% target, marked xfail with its scores (blind, and now) while it is not met."""
    def marks(r: Round) -> list[pytest.MarkDecorator]:
        reason = f"blind{r.number}: as written {r.blind}; {r.now}"
        return [pytest.mark.xfail(strict=False, reason=reason)] if r.now else []

    return [pytest.param(r, id=f"blind{r.number}", marks=marks(r)) for r in ROUNDS]


@pytest.mark.parametrize("round_", ROUNDS, ids=[f"blind{r.number}" for r in ROUNDS])
def test_the_round_is_blind_sized_and_every_answer_cites_its_rule(round_):
    tables, phrases = LOADED[round_.number]
    assert len(phrases) >= 160
    assert len({(p["table"], p["say"]) for p in phrases}) == len(phrases), "a phrasing is listed twice"
    fallbacks = sum(1 for p in phrases if p.get("fallback"))
    assert 0.05 <= fallbacks / len(phrases) <= 0.15, "about one in ten is not a table question"
    for phrase in phrases:
        assert phrase["table"] in tables
        assert phrase.get("fallback") or (phrase.get("expect") and phrase.get("why")), phrase["say"]


@pytest.mark.parametrize("round_", ROUNDS, ids=[f"blind{r.number}" for r in ROUNDS])
def test_every_table_is_legal_input(round_):
    # A table the form can't hold would score its phrases "not read" for the wrong reason.
    for name, game in LOADED[round_.number][0].items():
        assert services.open_table(game) is not None, name


@pytest.mark.parametrize(("round_", "phrase"), _phrases())
def test_no_phrase_is_answered_wrong(round_, phrase, builtin_corpus):
    verdict, seen = score(phrase, LOADED[round_.number][0], builtin_corpus)
    assert verdict != "wrong", seen


@pytest.mark.parametrize("round_", _targets())
def test_nine_in_ten_are_read_right(round_, builtin_corpus):
    tables, phrases = LOADED[round_.number]
    verdicts = Counter(score(p, tables, builtin_corpus)[0] for p in phrases)
    assert verdicts["right"] / len(phrases) >= 0.9, verdicts


if __name__ == "__main__":
    for path in [Path(sys.argv[1])] if len(sys.argv) > 1 else [r.path for r in ROUNDS]:
        print(path.name, *tally(path), sep="\n")
