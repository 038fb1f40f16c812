"""Questions about turns and priority: whose turn it is, the turn order, APNAP order, extra
turns, who is still playing."""

from __future__ import annotations

from rulesjudge.scenarios.model import turns
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.questions.base import general, one_or_many
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import TableState, turn_order


@general(
    "active", (), "one-or-many", "the active player (null: none; a list under team turns or in Grand Melee)"
)
def _active(state: TableState) -> Answer:
    many = state.variant.many_active
    if state.game_over:
        return one_or_many((), many), [step("The game is over, so there is no active player.", cr("104.1"))]
    active = state.active_players
    if not active:
        return one_or_many((), many), [
            step(
                f"{', '.join(state.turn_players)} left the game during their own turn, "
                "so the turn goes on with no active player.",
                cr("800.4j"),
            )
        ]
    if len(active) > 1 or many:
        rules = state.variant.active_rules
        return one_or_many(active, many), [
            step(
                f"It is the turn of {', '.join(active)}: "
                f"{'each of them is an active player' if len(active) > 1 else 'the active player'}.",
                *rules,
            )
        ]
    return active[0], [step(f"It is {active[0]}'s turn, so {active[0]} is the active player.", cr("102.1"))]


@general("step", (), "str?", "the furthest step this turn's events reached: upkeep, combat or end-step")
def _step(state: TableState) -> Answer:
    if not state.step:
        return None, [step("No event of this turn has brought it to its upkeep, combat or end step.",
                           cr("500.1"))]
    words = {"upkeep": "its upkeep", "combat": "combat", "end-step": "its end step"}[state.step]
    return state.step, [step(f"This turn's events have brought it to {words}; a turn's steps come in order, "
                             "each once (so an upkeep asked about now is the next turn's).", cr("500.1"))]


@general("turn-order", (), "order", "players in the game in turn order from the active player")
def _turn_order(state: TableState) -> Answer:
    steps = [step("Turn order goes to the players' left, clockwise around the table.", cr("101.4"))]
    if state.left:
        steps.append(step(f"Players who left take no turns: {', '.join(sorted(state.left))}.", cr("800.4k")))
    if not state.active_players and state.turn_player is not None and not state.game_over:
        steps.append(
            step(
                f"{state.turn_player} left during their own turn, so the turn goes on with no active player; "
                "turn order counts from the next player.",
                cr("800.4j"),
            )
        )
    return list(turn_order(state)), steps


@general("apnap-order", (), "order", "the order in which players make choices (101.4)")
def _apnap(state: TableState) -> Answer:
    value, steps = state.variant.apnap_order(state)
    if not state.active_players and not state.game_over:
        steps = [
            *steps,
            step(
                "With no active player, the next player in turn order acts first.", cr("800.4j"), cr("101.4")
            ),
        ]
    return value, steps


@general("next-turn", (), "one-or-many", "who takes the next turn (a list under team turns)")
def _next(state: TableState) -> Answer:
    group, steps = turns.who_is_next(state)
    return one_or_many(group, state.variant.many_active), steps


@general("extra-turns", (), "order", "the extra turns still to come, next first (500.7)")
def _extra_turns(state: TableState) -> Answer:
    pending = list(turns.pending_extra_turns(state))
    gone = [p for p in state.extra_turns if not state.is_in(p)]
    steps = [
        step(
            f"Extra turns to come, the most recently created first: {', '.join(pending) or 'none'}.",
            cr("500.7"),
        )
    ]
    if gone:
        steps.append(step(f"{', '.join(gone)} left the game: their extra turns don't begin.", cr("800.4k")))
    return pending, steps


@general("priority", (), "one-or-many", "who has priority now (a team under shared team turns, 805.5)")
def _priority(state: TableState) -> Answer:
    holders, steps = turns.priority_holders(state)
    return one_or_many(holders, len(holders) > 1 or state.variant.many_active), steps


@general("first-player", (), "players", "who may take the first turn (a random choice among them)")
def _first_player(state: TableState) -> Answer:
    return list(state.starting), state.variant.first_player_steps(state)


@general("in-game", (), "players", "players still in the game")
def _in_game(state: TableState) -> Answer:
    steps = [
        step(
            "Players who lost, conceded, or for whom the game was a draw have left the game.",
            cr("104.5"),
            cr("800.4"),
        )
    ]
    if state.game_over:
        return _in_game_at_end(state, steps)
    return list(state.in_game), steps


def _in_game_at_end(state: TableState, steps: list[Step]) -> Answer:
    """Once the game is over, the players who were still in it when it ended and did not lose with its end:
    104.2a calls a winner "a player still in the game"."""
    stayed = [p for p in state.seats
              if state.left.get(p) in ("won", "ended") and state.results.get(p) not in ("lost", "drew")]
    if not stayed:
        steps.append(step("The game is over and no player was still in it when it ended.", cr("104.1")))
        return [], steps
    steps.append(step(f"The game is over; {', '.join(stayed)} "
                      f"{'was' if len(stayed) == 1 else 'were'} still in it when it ended.",
                      cr("104.1"), cr("104.2a")))
    return stayed, steps
