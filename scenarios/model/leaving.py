"""Leaving the game (800.4): one player or several at the same time.

As players leave: the monarch and the initiative pass at that moment (725.4, 726.4); objects they own
leave the game, control effects giving them control end, and what they still control is exiled
(800.4a); triggered abilities they control cease to exist (800.4a, 800.4d); priority they held passes on
(800.4a); if it was their turn, the turn goes on with no active player (800.4j). Then the game may be over
(104.2a, 104.2c).

>>> from rulesjudge.scenarios.model.table import TableState
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben", "Cat", "Dan"), variant=FreeForAll(), turn_players=("Ann",),
...                    monarch="Ann")
>>> after, steps = leave(state, ["Ann"], "conceded")
>>> after.monarch, after.active_players, after.in_game
('Ben', (), ('Ben', 'Cat', 'Dan'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rulesjudge.scenarios.model.citations import RULING_LEAVES, Cite, cr
from rulesjudge.scenarios.model.initiative import venture_trigger
from rulesjudge.scenarios.model.steps import Reading, Step, step
from rulesjudge.scenarios.model.table import Permanent, TableState, Trigger, frozen, next_in_turn_order

Result = tuple[TableState, list[Step]]


def successor(
    state: TableState, leavers: Sequence[str], what: str, rule: Cite, extra: tuple[Cite, ...] = ()
) -> tuple[str | None, list[Step]]:
    """Who takes a designation (the monarch, the initiative) whose holder leaves (725.4, 726.4).

    The active player, unless they are leaving too or there is none; then the next player in turn order
    (counted from the player whose turn it is) who is not leaving; else nobody. Where several players are
    active (a shared team turn, Grand Melee), nothing in the rule picks one: the answer names each.
    """
    staying = [p for p in state.active_players if p not in leavers]
    if len(staying) == 1:
        return staying[0], [
            step(
                f"The {what} left the game, so the active player, {staying[0]}, takes it at the same time.",
                rule,
                *extra,
            )
        ]
    if staying:
        # 805.9 picks one active player for an ability (its controller chooses); 725.4/726.4 are rules with no
        # controller, so under shared team turns too each active player stays a reading
        team_turns = bool(state.teams) and state.variant.many_active
        why = (
            " (805.9 has an ability's controller choose one active player; this is a rule of the game, "
            "not an ability, so nobody chooses)"
            if team_turns
            else ""
        )
        return staying[0], [
            step(
                f"The {what} left the game; {', '.join(staying)} are all active players and the "
                f'rule names "the active player"{why}: the model gives it to {staying[0]}, the '
                "first of them in turn order.",
                rule,
                *extra,
                *((cr("805.9"),) if team_turns else ()),
                alternatives=tuple(Reading(f"{p} takes it", p, (rule,)) for p in staying),
            )
        ]
    start = state.turn_player or (leavers[0] if leavers else None)
    nxt = next_in_turn_order(state, start, skip=leavers) if start else None
    if state.active_players:
        many = len(state.active_players) > 1
        why = (
            f"the active player{'s' if many else ''}, {', '.join(state.active_players)}, "
            f"{'are' if many else 'is'} leaving too"
        )
    else:
        why = f"there is no active player ({start} left during their own turn)"
    if nxt is None:
        return None, [
            step(
                f"The {what} left and no player still in the game can take it, so the game goes on "
                "without one.",
                rule,
            )
        ]
    readings: tuple[Reading, ...] = ()
    holder = next((p for p in leavers if p != start), None)
    if not state.active_players and holder is not None:
        # With no active player, "the next player in turn order" is read from the player whose turn it is
        # (as 800.4j hands priority on); counting from the leaving holder is the other reading.
        other = next_in_turn_order(state, holder, skip=leavers)
        if other is not None and other != nxt:
            readings = (
                Reading(
                    f"Counted from the player whose turn it is ({start}): {nxt}", nxt, (rule, cr("800.4j"))
                ),
                Reading(f"Counted from the leaving holder ({holder}): {other}", other, (rule,)),
            )
    return nxt, [
        step(
            f"The {what} left the game and {why}, so the next player in turn order, {nxt}, takes it.",
            rule,
            *extra,
            alternatives=readings,
        )
    ]


def to_zone(perm: Permanent, zone: str, *why: Cite) -> Permanent:
    """The card moves from the battlefield to ``zone`` (because of ``why``): it becomes a new object (400.7),
    so control effects and combat end; its last controller on the battlefield is remembered (608.2h)."""
    return replace(
        perm,
        zone=zone,
        control_effects=(),
        attacking=None,
        blocking=(),
        blocked=False,
        damage=0,
        tapped=False,
        last_controller=perm.current_controller if perm.on_battlefield else perm.last_controller,
        controller=perm.owner,
        moved=zone in ("graveyard", "exile"),
        moved_by=(*why, cr("400.7")),
    )


def objects_leave(state: TableState, leavers: set[str]) -> tuple[dict[str, Permanent], list[Step]]:
    """800.4a: owned objects leave the game; control effects giving a leaver control end; what a leaver
    still controls is exiled."""
    permanents = dict(state.permanents)
    steps: list[Step] = []
    for name, perm in state.permanents.items():
        if perm.zone == "left-the-game":
            continue
        if perm.owner in leavers:
            last = perm.current_controller if perm.on_battlefield else perm.last_controller
            permanents[name] = replace(
                perm,
                zone="left-the-game",
                control_effects=(),
                attacking=None,
                last_controller=last,
                moved_by=(cr("800.4a"),),
            )
            steps.append(
                step(f"{name} is owned by {perm.owner}, so it leaves the game with them.", cr("800.4a"))
            )
            continue
        if not perm.on_battlefield:
            continue
        effects = tuple(p for p in perm.control_effects if p not in leavers)
        after = replace(perm, control_effects=effects)
        if after.current_controller != perm.current_controller:
            after = replace(after, since=state.turn, attacking=None, blocking=(), blocked=False)
            if after.current_controller not in leavers and after.current_controller not in state.left:
                gone = ", ".join(sorted(set(perm.control_effects) & leavers))
                steps.append(
                    step(
                        f"The effect giving control of {name} to {gone} ends, so {name} returns to "
                        f"{after.current_controller}.",
                        cr("800.4a"),
                    )
                )
        if after.current_controller in leavers:
            rule = cr("800.4a")
            text = (
                f"{name} is still controlled by {after.current_controller}, who is leaving, so it is exiled."
            )
        elif after.current_controller in state.left:
            rule = cr("800.4c")
            text = (
                f"The effect giving {name} to a player still in the game ended, and "
                f"{after.current_controller}, "
                "who controlled it by default, has left the game: it is exiled."
            )
        else:
            permanents[name] = after
            continue
        after = to_zone(after, "exile", rule)  # moved: a commander may go to the command zone (903.9a)
        steps.append(step(text, rule))
        permanents[name] = after
    steps += attacked_left_combat(state.permanents, permanents)
    return permanents, steps


def attacked_left_combat(before: Mapping[str, Permanent], after: dict[str, Permanent]) -> list[Step]:
    """506.4: a permanent being attacked is removed from combat when it leaves the battlefield or its
    controller changes; creatures attacking it keep attacking nothing (506.4c). ``after`` is updated."""
    steps: list[Step] = []
    for target, was in before.items():
        now = after[target]
        same_controller = now.on_battlefield and now.current_controller == was.current_controller
        if not was.on_battlefield or same_controller:
            continue
        attackers = [n for n, p in after.items() if p.on_battlefield and p.attacking == target]
        if not attackers:
            continue
        for name in attackers:
            after[name] = replace(after[name], attacking="")
        how = "left the battlefield" if not now.on_battlefield else "changed controller"
        steps.append(
            step(
                f"{target} {how}, so it is removed from combat; {', '.join(attackers)} "
                f"{'keeps' if len(attackers) == 1 else 'keep'} attacking, attacking nothing.",
                cr("506.4"),
                cr("506.4c"),
            )
        )
    return steps


def _how_they_leave(
    state: TableState, going: list[str], how: str, named: Sequence[str] = ()
) -> tuple[str, list[Step]]:
    """``going`` leave together; ``named`` are the players the event named (a concession's step names the
    conceder, not the teammates it takes along)."""
    names = ", ".join(going)
    one = len(going) == 1
    remaining = [p for p in state.in_game if p not in going]
    if not remaining and how in ("lost", "conceded") and state.in_game:
        rules = (cr("104.4a"), cr("104.4d")) if state.teams else (cr("104.4a"),)
        return "drew", [
            step(
                f"All the players remaining in the game ({names}) lose at the same time, so the "
                "game is a draw.",
                *rules,
            )
        ]
    if how == "conceded":
        names, one = ", ".join(named or going), len(named or going) == 1
        return "lost", [
            step(
                f"{names} concede{'s' if one else ''}: a player who concedes leaves the game "
                "immediately and loses.",
                cr("104.3a"),
            )
        ]
    if how == "drew":
        return "drew", [step(f"The game is a draw for {names}, who leave the game.", cr("104.5"))]
    return "lost", [
        step(
            f"{names} {'loses' if one else 'lose'} the game and leave{'s' if one else ''} it.",
            cr("104.5"),
            cr("800.4"),
        )
    ]


def leave(state: TableState, players: Sequence[str], how: str = "lost", why: tuple[Cite, ...] = ()) -> Result:
    """Players leave the game at the same time: ``how`` is lost, conceded or drew; ``why`` are the rules
    that made them (the ``losers``, ``drawn`` answers cite them)."""
    variant = state.variant
    if state.game_over:
        return state, [step("The game is already over.", cr("104.1"))]
    going = [p for p in dict.fromkeys(players) if state.is_in(p)]
    steps = [step(f"{p} has already left the game.", cr("800.4")) for p in players if p not in going]
    if not going:
        return state, steps
    asked = set(going)
    going, more = variant.expand_leavers(state, going, how)
    steps += more
    outcome, more = _how_they_leave(state, going, how, [p for p in going if p in asked])
    steps += more
    decided = tuple(dict.fromkeys((*why, *(c for s in steps for c in s.cites))))
    leavers = set(going)
    state, more = _designations(state, going)
    steps += more
    if set(state.active_players) & leavers:
        who = ", ".join(p for p in state.active_players if p in leavers)
        steps.append(
            step(
                f"{who} left during their own turn: the turn continues to its completion without "
                f"{'an active player' if leavers >= set(state.active_players) else 'them'}.",
                cr("800.4j"),
            )
        )
    state, more = _priority(state, leavers)
    steps += more
    permanents, more = objects_leave(state, leavers)
    steps += more
    steps += [_gone_from_the_stack(item) for item in state.stack if item.controller in leavers]
    steps += [
        step(
            f'The ability "{item.text}" would be controlled by {item.controller}, who left: it isn\'t put '
            "on the stack.",
            cr("800.4d"),
        )
        for item in state.pending
        if item.controller in leavers
    ]
    left, results, rules = dict(state.left), dict(state.results), dict(state.result_rules)
    for p in going:
        # a teammate taken along by a concession (810.8b) leaves and loses; only the conceder conceded
        said = how if p in asked or how != "conceded" else outcome
        left[p] = said if said in ("conceded", "drew") else outcome
        results[p] = outcome
        rules[p] = decided
    state = state.with_(
        left=frozen(left),
        results=frozen(results),
        result_rules=frozen(rules),
        permanents=frozen(permanents),
        stack=tuple(t for t in state.stack if t.controller not in leavers),
        pending=tuple(t for t in state.pending if t.controller not in leavers),
    )
    state, more = variant.on_leave(state, going)
    steps += more
    state, more = variant.game_result(state)
    if state.game_over:  # nothing is said about a turn that no longer goes on (104.1: the game ended)
        steps = [s for s in steps if cr("800.4j") not in s.cites and cr("800.4k") not in s.cites]
    return state, steps + more


def _designations(state: TableState, going: list[str]) -> Result:
    """725.4 and 726.4: the monarch and the initiative pass as their holder leaves."""
    steps: list[Step] = []
    if state.monarch in going:
        new, more = successor(state, going, "monarch", cr("725.4"), (RULING_LEAVES,))
        steps += more
        state = state.with_(
            monarch=new, choices=frozen({k: v for k, v in state.choices.items() if k != "monarch"})
        )
        if new is not None:
            state = state.count("became_monarch", new)
    if state.initiative in going:
        new, more = successor(state, going, "player who had the initiative", cr("726.4"))
        steps += more
        state = state.with_(
            initiative=new, choices=frozen({k: v for k, v in state.choices.items() if k != "initiative"})
        )
        if new is not None:  # taking it this way is taking the initiative: 726.2's third ability triggers
            state = state.with_(pending=(*state.pending, venture_trigger(new)))
            steps.append(
                step(
                    f'{new} takes the initiative, so "whenever a player takes the initiative" triggers: '
                    "they venture into Undercity.",
                    cr("726.2"),
                )
            )
    return state, steps


def _priority(state: TableState, leavers: set[str]) -> Result:
    """800.4a: priority held by a player who leaves passes to the next player in turn order still in it."""
    passed = tuple(p for p in state.passed if p not in leavers)
    holders = state.priority
    if not holders or not set(holders) & leavers:
        return state.with_(passed=passed), []
    last = holders[-1]
    nxt = next_in_turn_order(state, last, skip=leavers)
    if nxt is None:
        return state.with_(priority=None, passed=passed), []
    unit = tuple(p for p in state.variant.priority_unit(state, nxt) if p not in leavers)
    return state.with_(priority=unit, passed=passed), [
        step(
            f"{', '.join(sorted(set(holders) & leavers))} had priority when leaving: priority passes to "
            f"the next "
            f"player in turn order still in the game, {', '.join(unit)}.",
            cr("800.4a"),
        )
    ]


def _gone_from_the_stack(item: Trigger) -> Step:
    """What happens to a spell or ability on the stack whose controller left (800.4a): a spell is a card
    (its owner, the caster here, left, so it leaves the game); an ability is no card and ceases to exist."""
    if item.is_spell:
        return step(
            f"{item.text} is a card {item.controller} owns: it leaves the game with them.", cr("800.4a")
        )
    return step(
        f'The ability "{item.text}" is controlled by {item.controller}, who left: it ceases to exist.',
        cr("800.4a"),
    )
