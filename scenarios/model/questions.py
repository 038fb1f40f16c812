"""Questions about a table and the functions that answer them: ``answer(state, question) -> (value, steps)``.

A question is written ``name`` or ``name(arg, ...)``; each has argument kinds (player, permanent, or a
name of either) and an answer kind that says how answers compare (lists of players compare as sets,
except orders). The generic questions are registered here; a variant lists its own (``Variant.questions``)
and may answer any question its own way first (``Variant.answer``).

>>> from rulesjudge.scenarios.model.table import TableState
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> parse_question("in-range(Ann, Ben)")
Question(name='in-range', args=('Ann', 'Ben'))
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",))
>>> answer(state, parse_question("active"))[0]
'Ann'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rulesjudge.scenarios.model import blocks, combat, ending, influence, monarch, objects, turns
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.deploy import deploy_answer
from rulesjudge.scenarios.model.initiative import answer_initiative
from rulesjudge.scenarios.model.library import answer_library
from rulesjudge.scenarios.model.setup import did_you_mean
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, step
from rulesjudge.scenarios.model.table import Choice, Permanent, TableState, plural, turn_order

#: Answer kinds: how an expected answer is checked and compared.
KINDS = {
    "player?": "a player or null",
    "players": "a list of players (compared as a set)",
    "order": "a list of players in order",
    "sequence": "a list of players in order, repeats allowed",
    "names": "a list of permanents (compared as a set)",
    "bool": "true or false",
    "int": "a whole number",
    "int?": "a whole number or null",
    "str?": "a word or null",
    "zone": "a zone, or {chosen-by: PLAYER, one-of: [ZONES]} where a player's choice decides it",
    "choice": "a player, null, or {chosen-by: PLAYER or [PLAYERS], one-of: [PLAYERS]}",
    "one-or-many": "a player, null, or a list of players (a team; several players taking turns)",
}


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
    """``args``: kinds of the arguments (player, permanent, name: either); ``kind``: a key of
    :data:`KINDS`."""

    name: str
    args: tuple[str, ...]
    kind: str
    about: str
    fn: Callable[..., Answer]


QUESTIONS: dict[str, QuestionSpec] = {}
_QUESTION = re.compile(r"^\s*([a-z][a-z0-9-]*)\s*(?:\((.*)\))?\s*$")


def question(
    name: str, args: tuple[str, ...], kind: str, about: str
) -> Callable[[Callable[..., Answer]], QuestionSpec]:
    """Make a :class:`QuestionSpec` of an answer function ``fn(state, *args) -> (value, steps)``."""

    def wrap(fn: Callable[..., Answer]) -> QuestionSpec:
        return QuestionSpec(name, args, kind, about, fn)

    return wrap


def register_questions(*specs: QuestionSpec) -> None:
    for spec in specs:
        QUESTIONS[spec.name] = spec


def general(
    name: str, args: tuple[str, ...], kind: str, about: str
) -> Callable[[Callable[..., Answer]], QuestionSpec]:
    """:func:`question`, registered at once (the general questions every variant answers)."""

    def wrap(fn: Callable[..., Answer]) -> QuestionSpec:
        spec = QuestionSpec(name, args, kind, about, fn)
        register_questions(spec)
        return spec

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
        known = ", ".join(sorted(QUESTIONS))
        raise QuestionError(f"unknown question '{name}'{did_you_mean(name, QUESTIONS)} (known: {known})")
    if len(args) != len(spec.args) or any(not a for a in args):
        want = f"{name}({', '.join(spec.args)})" if spec.args else name
        raise QuestionError(
            f"'{name}' takes {len(spec.args)} argument{'s' if len(spec.args) != 1 else ''}: {want}"
        )
    return Question(name, args)


def answer(state: TableState, asked: Question) -> Answer:
    """Answer one question about the state; every answer carries at least one cited step."""
    special = state.variant.answer(state, asked)
    if special is not None:
        return special
    return QUESTIONS[asked.name].fn(state, *asked.args)


def one_or_many(players: tuple[str, ...], many: bool) -> object:
    """A single player (or null) where one player takes a turn, a list where a team or several do."""
    if many:
        return list(players)
    return players[0] if players else None


# --- designations -------------------------------------------------------------------------------------
@general("monarch", (), "choice", "who is the monarch (null: nobody; a choice where trigger order decides)")
def _monarch(state: TableState) -> Answer:
    return monarch.answer_monarch(state)


@general("initiative", (), "choice", "who has the initiative (null: nobody)")
def _initiative(state: TableState) -> Answer:
    return answer_initiative(state)


@general(
    "became-monarch",
    ("player",),
    "int",
    'times the player became the monarch ("becomes the monarch" triggers)',
)
def _became(state: TableState, player: str) -> Answer:
    from_ruling = monarch.RULING_BECOME_TRIGGERS
    n = state.became_monarch.get(player, 0)
    return n, [
        step(
            f"{player} became the monarch {plural(n, 'time')}; abilities that trigger when a player becomes "
            "the monarch trigger only when they weren't already.",
            from_ruling,
            cr("603.2e"),
        )
    ]


# --- turns and priority ------------------------------------------------------------------------------------
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


# --- the end of the game ------------------------------------------------------------------------------------
def _decided_by(state: TableState, players: list[str], fallback: Cite) -> tuple[Cite, ...]:
    rules = tuple(dict.fromkeys(c for p in players for c in state.result_rules.get(p, ())))
    return rules or (fallback,)


@general("game-over", (), "bool", "whether the game has ended")
def _game_over(state: TableState) -> Answer:
    if state.game_over:
        return True, [step("The game ended: a player or team won, or it was a draw.", cr("104.1"))]
    return False, [
        step(
            f"{len(state.in_game)} players are still in the game and more than one side remains, so the "
            "game goes on.",
            cr("800.4"),
            cr("104.2a"),
        )
    ]


@general("winners", (), "players", "players who won (team members who had left included)")
def _winners(state: TableState) -> Answer:
    won = [p for p in state.seats if state.results.get(p) == "won"]
    if not won:
        return [], [step("Nobody has won the game.", cr("104.2"))]
    return won, [step(f"{', '.join(won)} won the game.", *_decided_by(state, won, cr("104.2")))]


@general("losers", (), "players", "players who lost and did not win")
def _losers(state: TableState) -> Answer:
    lost = [p for p in state.seats if state.results.get(p) == "lost"]
    if not lost:
        return [], [step("Nobody has lost the game.", cr("104.3"))]
    return lost, [
        step(f"Players who lost the game: {', '.join(lost)}.", *_decided_by(state, lost, cr("104.3")))
    ]


@general("drawn", (), "players", "players for whom the game was a draw and who did not win")
def _drawn(state: TableState) -> Answer:
    drew = [p for p in state.seats if state.results.get(p) == "drew"]
    if not drew:
        return [], [step("The game was a draw for nobody.", cr("104.4"))]
    return drew, [
        step(f"The game was a draw for: {', '.join(drew)}.", *_decided_by(state, drew, cr("104.4")))
    ]


@general("result", ("player",), "str?", "won, lost, drew or null (still playing)")
def _result(state: TableState, player: str) -> Answer:
    result = state.results.get(player)
    rules = state.result_rules.get(player) or (cr("104.1"),)
    return result, [step(f"{player}: {result or 'still in the game'}.", *rules)]


@general("can-lose", ("player",), "bool", "could the player lose the game now (no effect stops it)")
def _can_lose(state: TableState, player: str) -> Answer:
    return ending.can_lose(state, player)


@general("can-win", ("player",), "bool", "could the player win the game now (no effect stops it)")
def _can_win(state: TableState, player: str) -> Answer:
    return ending.can_win(state, player)


# --- life, counters and cards ----------------------------------------------------------------------------
@general("life", ("player",), "int", "the player's life total (a team's shared total in Two-Headed Giant)")
def _life(state: TableState, player: str) -> Answer:
    pool = state.variant.life_pool(state, player)
    value = state.life.get(pool, 0)
    steps = []
    if pool != player:
        steps.append(step(f"{player}'s life total is their team's shared life total.", cr("810.9a")))
    if not state.is_in(player):
        steps.append(
            step(f"{player} has left the game: their last known life total is {value}.", cr("800.4i"))
        )
    elif value == state.starting_life.get(pool):
        start = (cr("119.1"), *((cr("119.1c"),) if state.commander else ()))
        steps.append(step(f"{player}'s life total is {value}, the starting life total.", *start))
    else:
        steps.append(
            step(
                f"{player}'s life total is {value}, adjusted by the life lost and gained.",
                cr("119.3"),
                cr("119.2"),
            )
        )
    return value, steps


@general("poison", ("player",), "int", "the player's poison counters (the team's in Two-Headed Giant)")
def _poison(state: TableState, player: str) -> Answer:
    pool = state.variant.poison_pool(state, player)
    value = state.poison.get(pool, 0)
    cites: tuple[Cite, ...] = (cr("810.10a"),) if pool != player else (cr("122.1f"),)
    if not state.is_in(player):
        cites += (cr("800.4i"),)
    return value, [
        step(
            f"{player} has {plural(value, 'poison counter')}"
            f"{' (shared by the team)' if pool != player else ''}.",
            *cites,
        )
    ]


@general(
    "commander-damage",
    ("player", "permanent"),
    "int",
    "combat damage the player has been dealt by that commander",
)
def _commander_damage(state: TableState, player: str, name: str) -> Answer:
    value = state.commander_damage.get(player, {}).get(name, 0)
    return value, [
        step(
            f"{player} has been dealt {value} combat damage by {name} over the course of the game.",
            cr("903.10a"),
        )
    ]


@general(
    "draws",
    ("player",),
    "int",
    "cards the player drew by effects in the scenario (draw steps are not modelled)",
)
def _draws(state: TableState, player: str) -> Answer:
    n = state.draws.get(player, 0)
    return n, [
        step(
            f"{player} drew {plural(n, 'card')} by effects in this scenario (draw steps aside).", cr("121.1")
        )
    ]


@general("library", ("player",), "int?", "cards left in the player's library (null: not counted)")
def _library(state: TableState, player: str) -> Answer:
    return answer_library(state, player)


@general("ventures", ("player",), "int", "times the player ventured into Undercity")
def _ventures(state: TableState, player: str) -> Answer:
    n = state.ventures.get(player, 0)
    return n, [step(f"{player} ventured into Undercity {plural(n, 'time')}.", cr("726.2"))]


@general("stack-controllers", (), "sequence", "controllers of the objects on the stack, top first")
def _stack(state: TableState) -> Answer:
    listed = "; ".join(f"{t.text} (controlled by {t.controller})" for t in reversed(state.stack)) or "none"
    return [t.controller for t in reversed(state.stack)], [
        step(f"Objects on the stack, top first: {listed}.", cr("405.1"), *_controller_rules(state))
    ]


def _controller_rules(state: TableState) -> tuple[Cite, ...]:
    """The rules that decide who controls each object on the stack: a spell's caster (112.2), a triggered
    ability's source's controller (113.8), the monarch's and the initiative's inherent triggers (725.2,
    726.2)."""
    rules: dict[Cite, None] = {}
    for item in state.stack:
        if item.is_spell:
            rules[cr("112.2")] = None
        elif item.kind in (monarch.DRAW, monarch.STEAL):
            rules[cr("725.2")] = None
        elif item.kind.startswith("initiative"):
            rules[cr("726.2")] = None
        else:
            rules[cr("113.8")] = None
    return tuple(rules)


# --- teams ----------------------------------------------------------------------------------------------
@general("opponents", ("player",), "players", "the player's opponents still in the game")
def _opponents(state: TableState, player: str) -> Answer:
    return state.variant.opponents(state, player)


@general("teammates", ("player",), "players", "the player's teammates still in the game")
def _teammates(state: TableState, player: str) -> Answer:
    return state.variant.teammates(state, player)


@general("team", ("player",), "str?", "the variant's name for the player's team")
def _team(state: TableState, player: str) -> Answer:
    return state.variant.team_name(state, player)


@general("legal-setup", (), "bool", "whether the setup follows the variant's rules")
def _legal(state: TableState) -> Answer:
    return state.variant.legal_setup(state)


# --- range and attacks -------------------------------------------------------------------------------------
@general("range", ("player",), "int?", "the player's range of influence (null: unlimited)")
def _range(state: TableState, player: str) -> Answer:
    return state.variant.range_of(state, player), state.variant.range_steps(state, player)


@general("in-range", ("player", "player"), "bool", "is the second player within the first's range")
def _in_range(state: TableState, player: str, other: str) -> Answer:
    return influence.in_range(state, player, other, state.variant.range_of(state, player))


@general(
    "can-attack",
    ("player", "name"),
    "bool",
    "can the player's creatures attack that player, planeswalker or battle now",
)
def _can_attack(state: TableState, attacker: str, target: str) -> Answer:
    """In ``attacker``'s own combat (their team's turn), whoever is active now: one meaning in every
    variant."""
    return combat.can_attack(state, attacker, target)


@general(
    "can-attack-now",
    ("player", "name"),
    "bool",
    "is the player an attacking player this turn, and can their creatures attack that player or object",
)
def _can_attack_now(state: TableState, attacker: str, target: str) -> Answer:
    attacking = state.variant.attackers(state)
    if attacker not in attacking:
        team = len(attacking) > 1
        rules = (cr("805.10a"), cr("506.2b")) if team else (cr("506.2"), cr("508.1"))
        whose = "the active team" if team else "the active player"
        return False, [step(f"{attacker} is not an attacking player this turn: only {whose} attacks "
                            f"({', '.join(attacking) or 'nobody'}).", *rules)]
    return combat.can_attack(state, attacker, target)


@general("defending-players", (), "players", "the defending players in the active player's combat")
def _defending(state: TableState) -> Answer:
    return state.variant.defending_players(state)


@general("attacking-players", (), "players", "the attacking players in this turn's combat")
def _attacking_players(state: TableState) -> Answer:
    attackers = list(state.variant.attackers(state))
    rules = (cr("805.10a"),) if len(attackers) > 1 else (cr("506.2"),)
    return attackers, [step(f"The attacking players: {', '.join(attackers) or 'none'}.", *rules)]


@general(
    "defending-player",
    ("name",),
    "choice",
    'who "the defending player" is: of a one-shot effect that player controls, or of an attacking creature',
)
def _defending_player(state: TableState, name: str) -> Answer:
    if name in state.permanents:
        return combat.defending_player(state, name)
    players, steps = state.variant.defending_players(state)
    if len(players) == 1:
        return players[0], steps
    if not players:
        return None, steps
    rule = cr("805.10e") if len(state.variant.attackers(state)) > 1 else cr("802.2a")
    readings = tuple(Reading(f"{name} chooses {p}.", p, (rule,)) for p in players)
    steps.append(
        step(
            f'Any rule or effect that refers to a "defending player" refers to one of them, not all; {name}, '
            f"its controller, chooses which as the effect is applied: one of {', '.join(players)}.",
            rule,
            alternatives=readings,
        )
    )
    return Choice((name,), tuple(players)).as_data(), steps


@general("attackers", ("name",), "names", "the creatures attacking that player, planeswalker or battle")
def _attackers(state: TableState, target: str) -> Answer:
    found = [n for n, p in state.permanents.items() if p.on_battlefield and p.attacking == target]
    return found, [
        step(f"Creatures attacking {target}: {', '.join(found) or 'none'}.", cr("508.1b"), cr("506.3"))
    ]


@general("attacking", ("permanent",), "bool", "is the creature attacking")
def _attacking(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if perm.on_battlefield and perm.attacking is not None:
        if perm.attacking:
            return True, [step(f"{name} was declared as an attacker: it is attacking {perm.attacking}.",
                               cr("508.1k"))]
        return True, [step(f"{name} is still attacking, though what it attacked left combat.", cr("506.4c"))]
    if perm.attacked is not None:
        return False, [step(f"{name} attacked {perm.attacked} but was removed from combat (it left the "
                            "battlefield or changed controller).", cr("506.4"))]
    return False, [step(f"{name} wasn't declared as an attacker this combat.", cr("508.1k"))]


@general("blocked", ("permanent",), "bool", "is the attacking creature blocked (509.1h)")
def _blocked(state: TableState, name: str) -> Answer:
    return blocks.answer_blocked(state, name)


@general("blockers", ("permanent",), "names", "the creatures blocking that attacking creature now")
def _blockers(state: TableState, name: str) -> Answer:
    return blocks.answer_blockers(state, name)


@general("blocking", ("permanent",), "bool", "is the creature a blocking creature")
def _blocking(state: TableState, name: str) -> Answer:
    return blocks.answer_blocking(state, name)


@general("damage", ("permanent",), "int", "the damage marked on the creature this turn")
def _damage(state: TableState, name: str) -> Answer:
    return blocks.answer_damage(state, name)


@general(
    "can-deploy",
    ("permanent", "player"),
    "bool",
    "could the permanent's controller deploy it to that player now",
)
def _can_deploy(state: TableState, permanent: str, to: str) -> Answer:
    return deploy_answer(state, permanent, to)


# --- permanents -----------------------------------------------------------------------------------------
@general("controller", ("permanent",), "player?", "who controls the permanent (null: not on the battlefield)")
def _controller(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return None, [
            step(
                f"{name} is not on the battlefield ({perm.zone}), so nobody controls it as a permanent.",
                *_zone_rules(perm),
            )
        ]
    who = perm.current_controller
    if perm.control_effects:
        return who, [step(f"A control-changing effect gives {who} control of {name}.", cr("613.1b"))]
    return who, [step(f"{who} controls {name}: a permanent's controller is by default the player under whose "
                      "control it entered the battlefield.", cr("110.2"))]


@general("owner", ("permanent",), "player?", "who owns the permanent")
def _owner(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.owner, [step(f"{perm.owner} owns {name}.", cr("108.3"))]


@general("exists", ("permanent",), "bool", "is the permanent still on the battlefield")
def _exists(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if perm.on_battlefield:
        return True, [step(f"{name} is on the battlefield.", cr("110.1"))]
    return False, [
        step(
            f"{name} is no longer on the battlefield: {ZONE_TEXT.get(perm.zone, perm.zone)}.",
            *_zone_rules(perm),
        )
    ]


ZONE_TEXT = {
    "exile": "it was exiled",
    "left-the-game": "it left the game with its owner",
    "graveyard": "it is in its owner's graveyard",
    "command": "it is in the command zone",
    "hand": "it is in its owner's hand",
    "stack": "it is on the stack",
}


def _zone_rules(perm: Permanent) -> tuple[Cite, ...]:
    """The rules that put the card where it is (set as it moved), or the zone's own rule."""
    if perm.on_battlefield:  # a commander cast again: how it once left doesn't say where it is now
        return (cr("110.1"),)
    if perm.moved_by:
        return perm.moved_by
    return {"command": (cr("903.6"),), "stack": (cr("405.1"),)}.get(perm.zone, (cr("400.1"),))


@general(
    "zone", ("permanent",), "zone", "battlefield, graveyard, exile, hand, command, stack or left-the-game"
)
def _zone(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    caster = perm.cast_transformed_by
    if perm.zone == "exile" and caster is not None:
        # 310.11b: "exile it, then you may cast it transformed" - a cast spell is on the stack (601.2a)
        text = f"{name} was exiled by its Siege trigger; {caster} may cast it transformed (onto the stack)."
        return Choice((caster,), ("exile", "stack")).as_data(), [
            step(text, cr("310.11b"), cr("601.2a"), *_zone_rules(perm))
        ]
    return perm.zone, [step(f"{name} is in: {perm.zone}.", *_zone_rules(perm))]


@general("protector", ("permanent",), "choice", "the battle's protector (a choice while it is chosen)")
def _protector(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if perm.kind != "battle":
        return None, [step(f"{name} is a {perm.kind}, not a battle: it has no protector.", cr("310.8"))]
    if perm.protector is None and perm.protector_choice:
        chooser = perm.current_controller
        text = f"{chooser} chooses {name}'s new protector among {', '.join(perm.protector_choice)}."
        return Choice((chooser,), perm.protector_choice).as_data(), [
            step(text, cr("704.5w"), cr("310.10"), cr("310.11a"))
        ]
    return perm.protector, [step(f"{name}'s protector is {perm.protector}.", cr("310.8"), cr("310.8e"))]


@general("tapped", ("permanent",), "bool", "is the permanent tapped")
def _tapped(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.tapped, [step(f"{name} is {'tapped' if perm.tapped else 'untapped'}.", cr("110.5"))]


@general("loyalty", ("permanent",), "int?", "the planeswalker's loyalty")
def _loyalty(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.loyalty, [step(f"{name} has {perm.loyalty} loyalty.", cr("306.5c"), cr("306.8"))]


@general("defense", ("permanent",), "int?", "the battle's defense")
def _defense(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    return perm.defense, [step(f"{name} has {perm.defense} defense.", cr("310.4c"), cr("310.6"))]


@general(
    "commander-tax", ("permanent",), "int", "the additional mana to cast that commander from the command zone"
)
def _commander_tax(state: TableState, name: str) -> Answer:
    return objects.commander_tax(state, name)
