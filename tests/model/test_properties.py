"""Invariants over random tables (2-8 players) and random event sequences (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesjudge.scenarios.format import setup_from_data
from rulesjudge.scenarios.model import build_state
from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model.game import apply
from rulesjudge.scenarios.model.questions import QUESTIONS, Question, answer
from rulesjudge.scenarios.model.table import TableState, turn_order

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@st.composite
def tables(draw: st.DrawFn) -> TableState:
    n = draw(st.integers(2, 8))
    players = NAMES[:n]
    teamed = n >= 4 and draw(st.booleans())
    pick = st.sampled_from(players)
    setup = {
        "variant": "team-vs-team" if teamed else "free-for-all",
        "players": players,
        "active": draw(pick),
        "monarch": draw(st.none() | pick),
        "initiative": draw(st.none() | pick),
        "options": {
            "range": draw(st.none() | st.integers(1, 3)),
            "attack": draw(st.sampled_from(["multiple", "left", "right"])),
        },
        "life": {p: draw(st.integers(1, 20)) for p in players},
        "permanents": {"Bear": {"owner": draw(pick), "controller": draw(pick)}},
    }
    if teamed:
        half = n // 2
        setup["teams"] = [players[:half], players[half:]]
    return build_state(setup_from_data(setup))


def event_list(players: list[str]) -> st.SearchStrategy[list[ev.Event]]:
    pick = st.sampled_from(players)
    hold = st.booleans()
    one = st.one_of(
        st.builds(lambda p, h: ev.Leaves(players=(p,), hold=h), pick, hold),
        st.builds(
            lambda ps, h: ev.Leaves(players=tuple(dict.fromkeys(ps)), how="lost", hold=h),
            st.lists(pick, min_size=1, max_size=3),
            hold,
        ),
        st.builds(lambda p: ev.Concedes(players=(p,)), pick),
        st.builds(lambda p, h: ev.BecomeMonarch(player=p, hold=h), pick, hold),
        st.builds(lambda p, h: ev.TakeInitiative(player=p, hold=h), pick, hold),
        st.builds(
            lambda a, b, n, h: ev.CombatDamage(hits=(ev.Hit(b, n, by=a),), hold=h),
            pick,
            pick,
            st.integers(0, 12),
            hold,
        ),
        st.builds(lambda h: ev.EndStep(hold=h), hold),
        st.builds(lambda h: ev.Upkeep(hold=h), hold),
        st.just(ev.Resolve()),
        st.just(ev.NextTurn()),
        st.builds(lambda p: ev.GainControl(permanent="Bear", player=p), pick),
        st.builds(lambda p, n: ev.LoseLife(player=p, amount=n), pick, st.integers(0, 10)),
        st.builds(lambda p: ev.Wins(player=p), pick),
        st.builds(lambda p: ev.GameDraw(player=p), pick),
    )
    return st.lists(one, max_size=12)


def check_invariants(state: TableState) -> None:
    players = set(state.in_game)
    if not state.game_over:
        assert state.monarch is None or state.monarch in players, "monarch is a player still in the game"
        assert state.initiative is None or state.initiative in players, "initiative holder is in the game"
        assert set(state.active_players) <= players, "active players are in the game"
    else:
        assert not players, "nobody is still playing once the game is over"
    order = list(turn_order(state))
    assert sorted(order) == sorted(players)
    if order:
        i = state.in_game.index(order[0])
        assert order == list(state.in_game[i:] + state.in_game[:i]), "turn order is a rotation of the seats"
    won = {p for p, r in state.results.items() if r == "won"}
    lost = {p for p, r in state.results.items() if r == "lost"}
    assert not won & lost, "no player both wins and loses"
    for t in state.stack:
        assert t.controller in players, "no ability controlled by a player who left stays on the stack"


def all_questions(state: TableState) -> list[Question]:
    questions = []
    for name, spec in QUESTIONS.items():
        args: list[str] = []
        for kind in spec.args:
            args.append("Bear" if kind == "permanent" else state.seats[len(args) % len(state.seats)])
        questions.append(Question(name, tuple(args)))
    return questions


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_invariants_hold_after_every_event(data: st.DataObject) -> None:
    state = data.draw(tables())
    check_invariants(state)
    for event in data.draw(event_list(list(state.seats))):
        state, steps = apply(state, event)
        check_invariants(state)
        assert all(s.cites for s in steps), "every step cites a rule"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_answer_carries_a_citation(data: st.DataObject) -> None:
    state = data.draw(tables())
    for event in data.draw(event_list(list(state.seats))):
        state, _ = apply(state, event)
    for question in all_questions(state):
        _, steps = answer(state, question)
        assert steps and any(s.cites for s in steps), f"{question} has no citation"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_teammates_are_never_opponents(data: st.DataObject) -> None:
    state = data.draw(tables())
    for event in data.draw(event_list(list(state.seats))):
        state, _ = apply(state, event)
    for player in state.seats:
        mates, _ = answer(state, Question("teammates", (player,)))
        foes, _ = answer(state, Question("opponents", (player,)))
        assert not set(mates) & set(foes)
        assert player not in foes and player not in mates
