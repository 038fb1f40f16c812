"""Questions about a table and the functions that answer them: ``answer(state, question) -> (value, steps)``.

A question is written ``name`` or ``name(arg, ...)``; each has argument kinds (player, permanent) and
an answer kind that says how answers compare (lists of players compare as sets, except orders).

>>> from rulesjudge.scenarios.model.table import TableState
>>> q = parse_question("in-range(Ann, Ben)")
>>> q
Question(name='in-range', args=('Ann', 'Ben'))
>>> answer(TableState(seats=("Ann", "Ben"), turn_player="Ann"), parse_question("active"))[0]
'Ann'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesjudge.scenarios.model import influence
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.steps import Step
from rulesjudge.scenarios.model.table import TableState, turn_order, turn_order_steps

Answer = tuple[Any, list[Step]]


def variant_of(state: TableState) -> Any:
    """The state's variant (imported late: variant modules import this module to register questions)."""
    from rulesjudge.scenarios.model.variants import variant_of as lookup

    return lookup(state)


class QuestionError(ValueError):
    """A question that can't be asked (unknown name, wrong number of arguments)."""


@dataclass(frozen=True)
class Question:
    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})" if self.args else self.name


@dataclass(frozen=True)
class QuestionSpec:
    """``args``: kinds of the arguments (player, permanent); ``kind``: the answer's kind, one of
    player? | players | order | bool | int | int? | str?."""

    name: str
    args: tuple[str, ...]
    kind: str
    about: str
    fn: Callable[..., Answer]


QUESTIONS: dict[str, QuestionSpec] = {}
_QUESTION = re.compile(r"^\s*([a-z][a-z0-9-]*)\s*(?:\((.*)\))?\s*$")


def register_question(
    name: str, args: tuple[str, ...], kind: str, about: str
) -> Callable[[Callable[..., Answer]], Callable[..., Answer]]:
    """Register an answer function ``fn(state, *args) -> (value, steps)`` (a decorator)."""

    def wrap(fn: Callable[..., Answer]) -> Callable[..., Answer]:
        QUESTIONS[name] = QuestionSpec(name, args, kind, about, fn)
        return fn

    return wrap


def parse_question(text: str) -> Question:
    """``in-range(Ann, Ben)`` -> Question('in-range', ('Ann', 'Ben')); unknown names are errors."""
    match = _QUESTION.match(text)
    if not match:
        raise QuestionError(f"not a question: {text!r} (expected name or name(arg, ...))")
    name, raw = match.group(1), match.group(2)
    args = tuple(a.strip() for a in raw.split(",")) if raw is not None and raw.strip() else ()
    spec = QUESTIONS.get(name)
    if spec is None:
        raise QuestionError(f"unknown question '{name}' (known: {', '.join(sorted(QUESTIONS))})")
    if len(args) != len(spec.args) or any(not a for a in args):
        want = f"{name}({', '.join(spec.args)})" if spec.args else name
        raise QuestionError(
            f"'{name}' takes {len(spec.args)} argument{'s' if len(spec.args) != 1 else ''}: {want}"
        )
    return Question(name, args)


def answer(state: TableState, question: Question) -> Answer:
    """Answer one question about the state; every answer carries at least one cited step."""
    special = variant_of(state).answer(state, question)
    if special is not None:
        return special
    spec = QUESTIONS[question.name]
    return spec.fn(state, *question.args)


# --- designations -------------------------------------------------------------------------------------
@register_question("monarch", (), "player?", "who is the monarch (null: nobody)")
def _monarch(state: TableState) -> Answer:
    from rulesjudge.scenarios.model.monarch import answer_monarch

    return answer_monarch(state)


@register_question("initiative", (), "player?", "who has the initiative (null: nobody)")
def _initiative(state: TableState) -> Answer:
    from rulesjudge.scenarios.model.initiative import answer_initiative

    return answer_initiative(state)


@register_question(
    "became-monarch",
    ("player",),
    "int",
    'how many times the player became the monarch ("becomes the monarch" triggers)',
)
def _became(state: TableState, player: str) -> Answer:
    from rulesjudge.scenarios.model.citations import RULING_BECOME_TRIGGERS

    n = state.became_monarch.get(player, 0)
    return n, [
        Step(
            f"{player} became the monarch {n} time{'s' if n != 1 else ''}; abilities that trigger when "
            "a player becomes the monarch trigger only when they weren't already.",
            (RULING_BECOME_TRIGGERS, cr("603.2e")),
        )
    ]


# --- turns ------------------------------------------------------------------------------------------
@register_question("active", (), "player?", "the active player (null: none)")
def _active(state: TableState) -> Answer:
    if state.game_over:
        return None, [Step("The game is over, so there is no active player.", (cr("104.1"),))]
    if state.active is None:
        return None, [
            Step(
                f"{state.turn_player} left the game during their own turn, so the turn goes on with "
                "no active player.",
                (cr("800.4j"),),
            )
        ]
    return state.active, [
        Step(f"It is {state.active}'s turn, so {state.active} is the active player.", (cr("102.1"),))
    ]


@register_question("turn-order", (), "order", "players in the game in turn order from the active player")
def _turn_order(state: TableState) -> Answer:
    return list(turn_order(state)), turn_order_steps(state)


@register_question("apnap-order", (), "order", "the order in which players make choices (101.4)")
def _apnap(state: TableState) -> Answer:
    value, steps = variant_of(state).apnap_order(state)
    if state.active is None and not state.game_over:
        steps = [
            *steps,
            Step(
                "With no active player, the next player in turn order acts first.",
                (cr("800.4j"), cr("101.4")),
            ),
        ]
    return value, steps


@register_question("next-turn", (), "player?", "who takes the next turn")
def _next(state: TableState) -> Answer:
    from rulesjudge.scenarios.model.table import next_in_turn_order

    if state.game_over or state.turn_player is None:
        return None, [Step("The game is over: no more turns.", (cr("104.1"),))]
    nxt = next_in_turn_order(state, state.turn_player)
    return nxt, [
        Step(
            f"Turn order goes to the left, skipping players who left: {nxt} takes the next turn.",
            (cr("101.4"), cr("800.4k")),
        )
    ]


@register_question("in-game", (), "players", "players still in the game")
def _in_game(state: TableState) -> Answer:
    steps = [
        Step(
            "Players who lost, conceded, or for whom the game was a draw have left the game.",
            (cr("104.5"), cr("800.4")),
        )
    ]
    if state.game_over:
        steps.append(Step("The game is over, so nobody is still playing it.", (cr("104.1"),)))
    return list(state.in_game), steps


# --- the end of the game ------------------------------------------------------------------------------
@register_question("game-over", (), "bool", "whether the game has ended")
def _game_over(state: TableState) -> Answer:
    if state.game_over:
        return True, [Step("The game ended: a player or team won, or it was a draw.", (cr("104.1"),))]
    return False, [
        Step(
            f"{len(state.in_game)} players are still in the game and more than one side remains, so "
            "the game goes on.",
            (cr("800.4"), cr("104.2a")),
        )
    ]


@register_question("winners", (), "players", "players who won (team members who had left included)")
def _winners(state: TableState) -> Answer:
    won = [p for p in state.seats if state.results.get(p) == "won"]
    if not won:
        return [], [Step("Nobody has won the game.", (cr("104.2"),))]
    rule = cr("104.2c") if state.teams else cr("104.2a")
    return won, [Step(f"{', '.join(won)} won the game.", (rule,))]


@register_question("losers", (), "players", "players who lost and did not win")
def _losers(state: TableState) -> Answer:
    lost = [p for p in state.seats if state.results.get(p) == "lost"]
    return lost, [Step(f"Players who lost the game: {', '.join(lost) or 'none'}.", (cr("104.3"),))]


@register_question("result", ("player",), "str?", "won, lost, drew or null (still playing)")
def _result(state: TableState, player: str) -> Answer:
    result = state.results.get(player)
    return result, [Step(f"{player}: {result or 'still in the game'}.", (cr("104.1"),))]


# --- life and cards -----------------------------------------------------------------------------------
@register_question("life", ("player",), "int", "the player's life total")
def _life(state: TableState, player: str) -> Answer:
    from rulesjudge.scenarios.model.game import life_of

    value = life_of(state, player)
    return value, [Step(f"{player}'s life total is {value}.", (cr("119.1"),))]


@register_question(
    "draws",
    ("player",),
    "int",
    "cards the player drew by effects in the scenario (draw steps are not modelled)",
)
def _draws(state: TableState, player: str) -> Answer:
    n = state.draws.get(player, 0)
    return n, [
        Step(
            f"{player} drew {n} card{'s' if n != 1 else ''} by effects in this scenario (draw steps aside).",
            (cr("121.1"),),
        )
    ]


@register_question("ventures", ("player",), "int", "times the player ventured into Undercity")
def _ventures(state: TableState, player: str) -> Answer:
    n = state.ventures.get(player, 0)
    return n, [Step(f"{player} ventured into Undercity {n} time{'s' if n != 1 else ''}.", (cr("726.2"),))]


@register_question("stack-controllers", (), "sequence", "controllers of the objects on the stack, top first")
def _stack(state: TableState) -> Answer:
    return [t.controller for t in reversed(state.stack)], [
        Step(
            "Abilities on the stack, top first: "
            + ("; ".join(f"{t.text} (controlled by {t.controller})" for t in reversed(state.stack)) or "none")
            + ".",
            (cr("405.1"), cr("725.2")),
        )
    ]


# --- teams ----------------------------------------------------------------------------------------------
@register_question("opponents", ("player",), "players", "the player's opponents still in the game")
def _opponents(state: TableState, player: str) -> Answer:
    return variant_of(state).opponents(state, player)


@register_question("teammates", ("player",), "players", "the player's teammates still in the game")
def _teammates(state: TableState, player: str) -> Answer:
    return variant_of(state).teammates(state, player)


@register_question("team", ("player",), "str?", "the variant's name for the player's team")
def _team(state: TableState, player: str) -> Answer:
    return variant_of(state).team_name(state, player)


@register_question("legal-setup", (), "bool", "whether the setup follows the variant's rules")
def _legal(state: TableState) -> Answer:
    return variant_of(state).legal_setup(state)


# --- range and attacks -------------------------------------------------------------------------------------
@register_question("range", ("player",), "int?", "the player's range of influence (null: unlimited)")
def _range(state: TableState, player: str) -> Answer:
    variant = variant_of(state)
    return variant.range_of(state, player), variant.range_steps(state, player)


@register_question("in-range", ("player", "player"), "bool", "is the second player within the first's range")
def _in_range(state: TableState, player: str, other: str) -> Answer:
    return influence.in_range(state, player, other, variant_of(state).range_of(state, player))


@register_question(
    "can-attack", ("player", "player"), "bool", "can the first player's creatures attack the second"
)
def _can_attack(state: TableState, attacker: str, defender: str) -> Answer:
    return variant_of(state).can_attack(state, attacker, defender)


@register_question("defending-players", (), "players", "the defending players in the active player's combat")
def _defending(state: TableState) -> Answer:
    return variant_of(state).defending_players(state)


# --- permanents -----------------------------------------------------------------------------------------
@register_question("controller", ("permanent",), "player?", "who controls the permanent (null: it's gone)")
def _controller(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if not perm.on_battlefield:
        where = "was exiled" if perm.zone == "exile" else "left the game"
        return None, [Step(f"{name} {where}, so nobody controls it.", (cr("800.4a"),))]
    who = perm.current_controller
    if perm.control_effects:
        return who, [Step(f"A control-changing effect gives {who} control of {name}.", (cr("613.1b"),))]
    return who, [Step(f"{who} controls {name}.", (cr("108.4"),))]


@register_question("owner", ("permanent",), "player?", "who owns the permanent")
def _owner(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.owner, [Step(f"{perm.owner} owns {name}.", (cr("108.3"),))]


@register_question("exists", ("permanent",), "bool", "is the permanent still on the battlefield")
def _exists(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if perm.on_battlefield:
        return True, [Step(f"{name} is on the battlefield.", (cr("110.1"),))]
    if perm.zone == "exile":
        return False, [Step(f"{name} was exiled: its controller left the game.", (cr("800.4a"),))]
    return False, [Step(f"{name}'s owner left the game, so it left the game too.", (cr("800.4a"),))]


@register_question("zone", ("permanent",), "str?", "battlefield, exile or left-the-game")
def _zone(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.zone, [Step(f"{name} is in: {perm.zone}.", (cr("800.4a"),))]


@register_question("tapped", ("permanent",), "bool", "is the permanent tapped")
def _tapped(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.tapped, [Step(f"{name} is {'tapped' if perm.tapped else 'untapped'}.", (cr("110.5"),))]
