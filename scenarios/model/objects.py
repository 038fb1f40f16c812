"""Permanents changing control or zone: control-changing effects (613.1b, 800.4c), deploying (804.2),
dying, being exiled or returned to hand (a commander may go to the command zone, 903.9a/b), and casting a
commander from the command zone (903.8).

>>> from rulesjudge.scenarios.model.table import TableState, Permanent, frozen
>>> from rulesjudge.scenarios.model.variant import Commander
>>> krenko = Permanent("Krenko", "Ann", "Ann", commander=True)
>>> state = TableState(seats=("Ann", "Ben"), variant=Commander(), turn_players=("Ann",), commander=True,
...                    permanents=frozen({"Krenko": krenko}))
>>> state, _ = move(state, "Krenko", "hand", to_command_zone=True)
>>> state.permanents["Krenko"].zone
'command'
"""

from __future__ import annotations

from dataclasses import replace

from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.combat import remove_from_combat, target_gone
from rulesjudge.scenarios.model.deploy import deploy_problems
from rulesjudge.scenarios.model.ending import to_zone
from rulesjudge.scenarios.model.leaving import attacked_left_combat
from rulesjudge.scenarios.model.steps import Step, step
from rulesjudge.scenarios.model.table import COMMANDER_SPELL, TableState, Trigger, frozen
from rulesjudge.scenarios.model.turns import sorcery_timing_problems

Result = tuple[TableState, list[Step]]
ZONE_WORDS = {
    "graveyard": "put into its owner's graveyard",
    "exile": "exiled",
    "hand": "returned to its owner's hand",
}


def gain_control(state: TableState, name: str, player: str, until_end_of_turn: bool = False, *,
                 untap: bool = False, haste: bool = False) -> Result:
    """A control-changing effect (613.1b); ``untap`` and ``haste``: the same effect untaps the permanent
    and gives it haste until end of turn (Threaten, Act of Treason; 302.6 then lets it attack)."""
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return state, [step(f"{name} is no longer on the battlefield.", cr("400.7"))]
    if not state.is_in(player):
        return state, [
            step(f"{player} has left the game, so control of {name} doesn't change.", cr("800.4b"))
        ]
    changed = perm.current_controller != player
    after = replace(perm, control_effects=(*perm.control_effects, player), since=state.turn)
    steps = [step(f"{player} gains control of {name}{' until end of turn' if until_end_of_turn else ''}.",
                  cr("613.1b"))]
    if until_end_of_turn:
        after = replace(after, until_end_of_turn=(*perm.until_end_of_turn, player))
    if untap and perm.tapped:
        after = replace(after, tapped=False)
        steps.append(step(f"The same effect untaps {name}.", cr("701.26b")))
    if haste:
        after = replace(after, keywords_this_turn=(*perm.keywords_this_turn, "haste"))
        steps.append(step(f"{name} gains haste until end of turn: it can attack this turn.", cr("702.10b"),
                          cr("302.6")))
    if changed and perm.in_combat:
        after = remove_from_combat(after)
        steps.append(step(f"{name}'s controller changed, so it is removed from combat.", cr("506.4")))
    return _attacked_target_moved(state, state.with_permanent(after), steps)


def _attacked_target_moved(before: TableState, state: TableState, steps: list[Step]) -> Result:
    """506.4/506.4c: creatures attacking a permanent whose controller changed attack nothing."""
    permanents = dict(state.permanents)
    steps = steps + attacked_left_combat(before.permanents, permanents)
    return state.with_(permanents=frozen(permanents)), steps


def control_ends(state: TableState, name: str, player: str | None, why: Step | None = None) -> Result:
    """The control effects giving ``player`` (all, for None) control of ``name`` end; with ``why`` (the end of
    the turn) only the latest one of ``player``'s."""
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return state, [step(f"{name} is no longer on the battlefield.", cr("400.7"))]
    effects = tuple(p for p in perm.control_effects if player is not None and p != player)
    if why is not None and player in perm.control_effects:
        at = len(perm.control_effects) - 1 - perm.control_effects[::-1].index(player)
        effects = perm.control_effects[:at] + perm.control_effects[at + 1 :]
    after = replace(perm, control_effects=effects)
    steps = [
        why
        or step(
            f"The control-changing effect on {name} ends; {after.current_controller} controls it by default.",
            cr("613.1b"),
        )
    ]
    if after.current_controller != perm.current_controller:
        after = replace(after, since=state.turn)
        if perm.in_combat:
            after = remove_from_combat(after)
            steps.append(step(f"{name}'s controller changed, so it is removed from combat.", cr("506.4")))
    if not state.is_in(after.current_controller):
        steps.append(
            step(
                f"{after.controller} controlled {name} by default but has left the game, so it is exiled.",
                cr("800.4c"),
            )
        )
        after = to_zone(after, "exile", cr("800.4c"))  # moved: a commander may go to the command zone
    return _attacked_target_moved(state, state.with_permanent(after), steps)


def end_of_turn_control(state: TableState) -> Result:
    """514.2: control effects lasting "until end of turn" (Act of Treason) end as the turn ends."""
    steps: list[Step] = []
    for name, perm in state.permanents.items():
        for player in perm.until_end_of_turn:
            if not (perm.on_battlefield and player in state.permanents[name].control_effects):
                continue
            why = step(f"{player}'s control of {name} lasted until end of turn: it ends.", cr("514.2"))
            state, more = control_ends(state, name, player, why)
            steps += more
    permanents = {n: replace(p, until_end_of_turn=(), keywords_this_turn=())
                  for n, p in state.permanents.items()}
    return state.with_(permanents=frozen(permanents)), steps


def deploy(state: TableState, name: str, to: str) -> Result:
    """804.2: "{T}: Target teammate gains control of this creature. Activate only as a sorcery.\""""
    problems = deploy_problems(state, name, to)
    if problems:
        return state, [
            step(f"Can't deploy {name} to {to}: {text}; nothing happens.", cr("804.2"), rule)
            for text, rule in problems
        ]
    perm = state.permanents[name]
    owner = perm.current_controller
    after = replace(perm, tapped=True, since=state.turn, control_effects=(*perm.control_effects, to))
    return state.with_permanent(after), [
        step(f"{owner} taps {name} to deploy it: their teammate {to} gains control of it.", cr("804.2"))
    ]


def move(state: TableState, name: str, zone: str, to_command_zone: bool = True) -> Result:
    """A permanent dies, is exiled or returned to hand. Effects of its static abilities end (611.3b);
    creatures attacking it keep attacking nothing (506.4c); a commander may go to the command zone."""
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return state, [step(f"{name} is not on the battlefield.", cr("400.7"))]
    steps = [step(f"{name} is {ZONE_WORDS[zone]}.", cr("400.7"))]
    moved = replace(to_zone(perm, zone), to_command_zone=to_command_zone)
    if zone == "hand" and perm.commander and state.commander:
        if to_command_zone:
            moved = replace(moved, zone="command", moved=False, moved_by=(cr("903.9b"),))
            steps.append(
                step(
                    f"{name} is a commander: its owner, {perm.owner}, puts it into the command zone "
                    "instead of their hand.",
                    cr("903.9b"),
                )
            )
        else:
            steps.append(
                step(f"{perm.owner} may put {name} into the command zone instead, and doesn't.", cr("903.9b"))
            )
    state = state.with_permanent(moved)
    if perm.kind in ("planeswalker", "battle") and any(
        p.attacking == name for p in state.permanents.values()
    ):
        state = target_gone(state, name)
        steps.append(
            step(f"Creatures attacking {name} stay attacking creatures, attacking nothing.", cr("506.4c"))
        )
    if any(e.source == name for e in state.effects):
        steps.append(
            step(f"The effects of {name}'s static abilities end as it leaves the battlefield.", cr("611.3b"))
        )
    return state, steps


def commander_tax(state: TableState, name: str) -> tuple[int, list[Step]]:
    perm = state.permanents[name]
    tax = 2 * perm.casts
    times = "time" if perm.casts == 1 else "times"
    return tax, [
        step(
            f"{perm.owner} has cast {name} from the command zone {perm.casts} {times} this game: casting it "
            f"from there again costs {{{tax}}} more.",
            cr("903.8"),
        )
    ]


def commander_cast(state: TableState, player: str, name: str) -> Result:
    """903.8: a player may cast a commander they own from the command zone, paying the commander tax."""
    perm = state.permanents[name]
    if not perm.commander or not state.commander:
        return state, [step(f"{name} is not a commander in a Commander game.", cr("903.3"))]
    if perm.zone != "command":
        return state, [step(f"{name} is not in the command zone.", cr("903.8"))]
    if perm.owner != player:
        return state, [
            step(f"{player} doesn't own {name}: only its owner casts it from the command zone.", cr("903.8"))
        ]
    problems = sorcery_timing_problems(state, player)
    if problems:
        return state, [
            step(f"{player} can't cast their commander {name} from the command zone now: {text}.", rule,
                 cr("903.8"))
            for text, rule in problems
        ]
    _, steps = commander_tax(state, name)
    serial = state.serial + 1
    spell = Trigger(
        COMMANDER_SPELL,
        player,
        player,
        f"{name} (a commander spell {player} cast)",
        (cr("903.8"),),
        creature=name,
        serial=serial,
    )
    state = state.with_permanent(replace(perm, zone="stack", casts=perm.casts + 1))
    state = state.with_(
        stack=(*state.stack, spell),
        serial=serial,
        passed=(),
        priority=state.variant.priority_unit(state, player),
    )
    return state, [
        step(f"{player} casts {name} from the command zone: it goes on the stack.", cr("903.8"), cr("601.2")),
        *steps,
        step(f"{player} receives priority again.", cr("117.3c")),
    ]


def resolve_commander(state: TableState, spell: Trigger) -> Result:
    """A permanent spell resolves: it enters the battlefield under its controller's control (608.3)."""
    name = spell.creature or ""
    perm = state.permanents[name]
    after = replace(
        perm,
        zone="battlefield",
        controller=spell.controller,
        control_effects=(),
        since=state.turn,
        tapped=False,
    )
    return state.with_permanent(after), [
        step(f"{name} resolves and enters the battlefield under {spell.controller}'s control.", cr("608.3"))
    ]
