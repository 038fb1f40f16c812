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


# --- issue 13: creatures, Commander, poison, win and lose effects, extra turns, priority, Grand Melee
VARIANTS = ["free-for-all", "commander", "team-vs-team", "two-headed-giant"]


@st.composite
def combat_tables(draw: st.DrawFn) -> TableState:
    variant = draw(st.sampled_from(VARIANTS))
    n = 4 if variant in ("team-vs-team", "two-headed-giant") else draw(st.integers(2, 6))
    players = NAMES[:n]
    pick = st.sampled_from(players)
    keywords = st.lists(
        st.sampled_from(["first-strike", "double-strike", "haste", "infect"]), max_size=2, unique=True
    )
    creature = st.fixed_dictionaries(
        {
            "owner": pick,
            "controller": pick,
            "power": st.integers(0, 12),
            "keywords": keywords,
            "toxic": st.integers(0, 2),
        }
    )
    setup: dict = {
        "variant": variant,
        "players": players,
        "active": draw(pick),
        "monarch": draw(st.none() | pick),
        "poison": {p: draw(st.integers(0, 9)) for p in players},
        "permanents": {
            "Bear": draw(creature),
            "Wolf": draw(creature),
            "Jace": {"owner": draw(pick), "kind": "planeswalker", "loyalty": draw(st.integers(1, 6))},
            "Angel": {"owner": draw(pick)},
        },
        "effects": draw(
            st.lists(st.fixed_dictionaries({"cant-lose": pick, "source": st.just("Angel")}), max_size=1)
        ),
    }
    if variant != "two-headed-giant":
        setup["life"] = {p: draw(st.integers(1, 40)) for p in players}
    if variant in ("commander",):
        setup["permanents"]["Krenko"] = {
            "owner": draw(pick),
            "power": draw(st.integers(1, 11)),
            "commander": True,
            "keywords": draw(keywords),
        }
        setup["commander-damage"] = {p: {"Krenko": draw(st.integers(0, 20))} for p in players}
    if variant in ("team-vs-team", "two-headed-giant"):
        setup["teams"] = [players[:2], players[2:]]
    return build_state(setup_from_data(setup))


def combat_events(state: TableState) -> st.SearchStrategy[list[ev.Event]]:
    players = list(state.seats)
    creatures = [n for n, p in state.permanents.items() if p.kind == "creature" and p.power is not None]
    pick = st.sampled_from(players)
    creature = st.sampled_from(creatures)
    targets = st.sampled_from([*players, "Jace"])
    one = st.one_of(
        st.builds(
            lambda a, cs, t: ev.Attack(attacker=(a,), creatures=tuple((c, t) for c in dict.fromkeys(cs))),
            pick,
            st.lists(creature, min_size=1, max_size=3),
            targets,
        ),
        st.builds(lambda s: ev.CombatDamageStep(step=s), st.sampled_from(["first-strike", "regular"])),
        st.builds(  # blocks, legal or not (509.1): the model undoes an illegal one, never crashes
            lambda b, a: ev.Block(pairs=((b, (a,)),)) if a != b else ev.PassPriority(), creature, creature
        ),
        st.builds(lambda c, t: ev.CombatDamage(hits=(ev.Hit(t, None, creature=c),)), creature, pick),
        st.builds(lambda p, n: ev.Poison(amounts=((p, n),)), pick, st.integers(0, 6)),
        st.builds(lambda p, n: ev.SetLife(amounts=((p, n),)), pick, st.integers(-3, 30)),
        st.builds(lambda p: ev.Loses(players=(p,)), pick),
        st.builds(lambda p: ev.Wins(player=p), pick),
        st.builds(lambda p: ev.AtOnce(events=(ev.Wins(player=p), ev.Loses(players=(p,)))), pick),
        st.builds(lambda p: ev.DrawFromEmpty(players=(p,)), pick),
        st.builds(
            lambda ps: ev.ExtraTurn(players=tuple(dict.fromkeys(ps))), st.lists(pick, min_size=1, max_size=2)
        ),
        st.just(ev.PassPriority()),
        st.builds(lambda p: ev.Cast(player=p, spell="Shock"), pick),
        st.builds(lambda c: ev.Dies(permanent=c), st.sampled_from([*creatures, "Jace", "Angel"])),
        st.builds(lambda p: ev.Concedes(players=(p,)), pick),
        st.just(ev.NextTurn()),
        st.just(ev.Resolve()),
    )
    return st.lists(one, max_size=14)


def never_decrease(before: TableState, after: TableState) -> None:
    for pool, count in before.poison.items():
        assert after.poison.get(pool, 0) >= count, "poison counters never go down (no rule here removes them)"
    for player, tally in before.commander_damage.items():
        for name, amount in tally.items():
            assert after.commander_damage.get(player, {}).get(name, 0) >= amount, (
                "commander damage never decreases"
            )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_combat_and_losing_invariants(data: st.DataObject) -> None:
    state = data.draw(combat_tables())
    for event in data.draw(combat_events(state)):
        before = state
        state, steps = apply(state, event)
        check_invariants(state)
        never_decrease(before, state)
        assert all(s.cites for s in steps), "every step cites a rule"
        won = {p for p, r in state.results.items() if r == "won"}
        assert not won & {p for p, r in state.results.items() if r in ("lost", "drew")}
        assert set(state.active_players) <= set(state.in_game), "active players are in the game"
        for perm in state.permanents.values():
            assert perm.attacking is None or perm.on_battlefield, "only creatures on the battlefield attack"
    for question in all_questions(state):
        _, steps = answer(state, question)
        assert steps and any(s.cites for s in steps), f"{question} has no citation"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_grand_melee_keeps_one_marker_per_full_four_players(data: st.DataObject) -> None:
    n = data.draw(st.integers(10, 17))
    names = [f"P{i:02d}" for i in range(n)]
    state = build_state(
        setup_from_data(
            {"variant": "grand-melee", "players": names, "active": data.draw(st.sampled_from(names))}
        )
    )
    pick = st.sampled_from(names)
    events = data.draw(
        st.lists(
            st.one_of(
                st.builds(lambda p: ev.EndTurn(player=p), pick),
                st.builds(lambda p: ev.Concedes(players=(p,)), pick),
                st.builds(
                    lambda ps: ev.Concedes(players=tuple(dict.fromkeys(ps))),
                    st.lists(pick, min_size=2, max_size=3),
                ),
                st.builds(lambda p: ev.ExtraTurn(players=(p,)), pick),
                st.just(ev.NextTurn()),
            ),
            max_size=20,
        )
    )
    for event in events:
        state, _ = apply(state, event)
        if state.game_over:
            break
        live = len(state.markers) - sum(m.designated for m in state.markers)
        # 807.4a, 807.4f; below four players the last marker stays (the game goes on: grand_melee.on_leave)
        assert live == max(1, len(state.in_game) // 4), "one turn marker for each full four players"
        # 807.4c passes a marker at once, so one player may hold two for a while, but takes one turn at a time
        assert len(state.turn_players) == len(set(state.turn_players)), "no player takes two turns at once"
        holders = [m.holder for m in state.markers]
        for marker in state.markers:
            assert state.is_in(marker.holder) or marker.taking_turn, "a marker of a player who left passes on"
        assert set(state.active_players) <= set(holders), "807.4: each active player holds a turn marker"
