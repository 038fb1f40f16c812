"""Invariants of the variants on random tables and random event sequences (hypothesis).

- no player is both a winner and a loser;
- once the game is over, nobody is still in it as a player still playing;
- a teammate is never an opponent (and teammates are mutual);
- a face-down Treachery player has no teammates, and is nobody's teammate;
- no general plays on once their emperor has lost (809.5b); a Two-Headed Giant team is in or out together;
- every answer carries at least one citation, and every citation resolves to a corpus record once the
  official release the model numbers its rules by (2024-06-07) is loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesjudge.scenarios.format import load_scenario, scenario_files
from rulesjudge.scenarios.model import Setup, answer, apply, build_state, parse_event, parse_question
from rulesjudge.scenarios.model.citations import Cite, resolve

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
LIBRARY = Path(__file__).resolve().parents[3] / "scenarios" / "library"
VARIANT_AREAS = ("teams", "team-vs-team", "emperor", "two-headed-giant", "treachery")


@st.composite
def tables(draw: st.DrawFn, variant: str) -> Setup:
    """A random legal-shaped table of the variant."""
    if variant == "treachery":
        n = draw(st.integers(4, 8))
        roles = ["leader", "traitor"] + ["assassin"] * (n // 2)
        roles += [draw(st.sampled_from(["guardian", "traitor"])) for _ in range(n - len(roles))]
        roles = draw(st.permutations(roles))
        faces = [draw(st.sampled_from([None, None, "up"])) for _ in roles]
        specs = zip(NAMES, roles, faces, strict=False)
        identities = {p: (r if f is None else {"role": r, "face": f}) for p, r, f in specs}
        return Setup(variant=variant, players=NAMES[:n], identities=identities)
    if variant == "emperor":
        count, size = draw(st.sampled_from([(2, 3), (3, 3), (2, 4)]))
    elif variant == "two-headed-giant":
        count, size = 2, draw(st.integers(2, 3))
    else:
        count, size = draw(st.integers(2, 3)), draw(st.integers(1, 3))
    names = NAMES[: count * size]
    return Setup(variant=variant, teams=[names[i * size:(i + 1) * size] for i in range(count)])


@st.composite
def events(draw: st.DrawFn, players: list[str]) -> list:
    out = []
    for _ in range(draw(st.integers(0, 8))):
        who = draw(st.sampled_from(players))
        other = draw(st.sampled_from(players))
        kind = draw(st.sampled_from(["leaves", "concedes", "drew", "next-turn", "unveil", "exchange",
                                     "face-down", "steal", "damage"]))
        if kind == "leaves":
            out.append(parse_event("leaves", sorted({who, other}) if draw(st.booleans()) else who))
        elif kind == "concedes":
            out.append(parse_event("concedes", who))
        elif kind == "drew":
            out.append(parse_event("leaves", {"players": [who], "how": "drew"}))
        elif kind == "next-turn":
            out.append(parse_event("next-turn", None))
        elif kind == "unveil":
            out.append(parse_event("unveil", who))
        elif kind == "exchange" and who != other:
            out.append(parse_event("exchange-identities", [who, other]))
        elif kind == "face-down":
            out.append(parse_event("turn-face-down", who))
        elif kind == "steal" and who != other:
            out.append(parse_event("steal-identity", {"player": who, "from": other}))
        elif kind == "damage" and who != other:
            amount = draw(st.integers(1, 30))
            out.append(parse_event("combat-damage", {"from": who, "to": other, "amount": amount}))
    return out


def ask(state, text: str):
    value, steps = answer(state, parse_question(text))
    assert steps and all(step.cites for step in steps[:1]), f"{text}: no citation"
    return value


def check_invariants(state) -> None:
    winners, losers = set(ask(state, "winners")), set(ask(state, "losers"))
    assert not winners & losers, f"both a winner and a loser: {winners & losers}"
    in_game = ask(state, "in-game")
    if ask(state, "game-over"):
        # 104.2a: once the game is over, only winners can have been still in it when it ended
        assert set(in_game) <= winners, f"game over, still in it but not a winner: {in_game}"
        # 104.1: once the game ends nothing more resolves, so no ability waits on the stack
        assert not state.stack and not state.pending, f"game over with abilities waiting: {state.stack}"
    for player in in_game:
        mates, foes = set(ask(state, f"teammates({player})")), set(ask(state, f"opponents({player})"))
        assert not mates & foes, f"{player}: teammate and opponent {mates & foes}"
        assert player not in mates | foes
        for mate in mates:
            assert player in ask(state, f"teammates({mate})"), f"{player} and {mate}: not mutual"
        if state.variant.name == "emperor":  # 809.5b: no general plays on once their emperor has lost
            team = next(t for t in state.teams if player in t.members)
            assert state.results.get(team.leader) != "lost", f"{player} plays on after {team.leader} lost"
        if state.variant.name == "two-headed-giant":  # 810.8a/b: the team is in or out together
            team = next(t for t in state.teams if player in t.members)
            assert all(p in in_game for p in team.members), f"{player}'s teammate left without them"
        if state.variant.name == "treachery" and ask(state, f"face({player})") == "down":
            assert mates == set(), f"face-down {player} has teammates {mates}"
            assert all(player not in ask(state, f"teammates({p})") for p in in_game if p != player)


@pytest.mark.parametrize("variant", ["emperor", "two-headed-giant", "team-vs-team", "treachery"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_variant_invariants_hold_after_every_event(variant: str, data: st.DataObject) -> None:
    setup = data.draw(tables(variant))
    state = build_state(setup)
    check_invariants(state)
    for event in data.draw(events(list(state.seats))):
        state, steps = apply(state, event)
        assert all(step.cites for step in steps), "a derivation step without a citation"
        check_invariants(state)


def test_every_citation_of_the_variant_library_resolves(shared_cr_dir: Path, corpus_with) -> None:
    """With the 2024-06-07 release loaded, every rule the variant scenarios' derivations cite is a record."""
    corpus = corpus_with(shared_cr_dir / "cr-2024-06-07.txt")
    cited: set[Cite] = set()
    for path in scenario_files([LIBRARY / area for area in VARIANT_AREAS if (LIBRARY / area).is_dir()]):
        scenario = load_scenario(path)
        state = build_state(scenario.game)
        for event in scenario.events:
            state, steps = apply(state, event)
            cited.update(c for s in steps for c in s.cites)
        for expectation in scenario.expect:
            _, steps = answer(state, expectation.question)
            cited.update(c for s in steps for c in s.cites)
    assert cited, "the variant library produced no citation"
    missing = sorted(str(c) for c in cited if not resolve(c, corpus).loaded)
    assert missing == [], f"citations that resolve to no record: {missing}"


def test_identity_card_answers_link_the_card_note() -> None:
    """An answer about an identity card links its card note, ``treachery@4.0/note/<slug>``."""
    setup = Setup(variant="treachery", players=NAMES[:5],
                      identities={"Ann": "leader", "Ben": {"role": "traitor", "card": "The Gatekeeper"},
                                  "Cat": "assassin", "Dan": "assassin", "Eve": "guardian"})
    _, steps = answer(build_state(setup), parse_question("role(Ben)"))
    ids = {resolve(c).record_id for s in steps for c in s.cites}
    assert "treachery@4.0/note/the-gatekeeper" in ids
