"""Combat with creatures: declaring attackers (508.1, 506.2a, 802.3, 803, 801.3, 809.3c, 310.8b), combat
damage to players, planeswalkers and battles (510, 120.3; blocks and damage steps are in
:mod:`scenarios.model.blocks`), infect and toxic (702.90b, 702.164c), commander damage (903.10a), and the
monarch's and the initiative's combat triggers (725.2, 726.2).

>>> from rulesjudge.scenarios.model.table import TableState, Permanent, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> bear = Permanent("Bear", "Ann", "Ann", power=2, toughness=2)
>>> state = TableState(seats=("Ann", "Ben", "Cat"), variant=FreeForAll(), turn_players=("Ann",),
...                    life=frozen({"Ann": 20, "Ben": 20, "Cat": 20}), permanents=frozen({"Bear": bear}))
>>> state, _ = declare_attackers(state, ("Ann",), (("Bear", "Ben"),))
>>> state, _ = deal(state, [Blow("Ann", "Ben", 2, "Bear")])
>>> state.life["Ben"], state.permanents["Bear"].tapped
(18, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rulesjudge.scenarios.model import initiative, monarch
from rulesjudge.scenarios.model.citations import RULING_LETHAL, cr
from rulesjudge.scenarios.model.ending import cant_attack, life_of, poison_counters, poison_of
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, illegal, step
from rulesjudge.scenarios.model.table import Permanent, TableState, Trigger, frozen

Result = tuple[TableState, list[Step]]


def lethal_amount(state: TableState, target: str, infect: bool = False) -> tuple[int, Step]:
    """ "For lethal": the least damage that makes ``target`` lose, or go, as the state is checked next - a
    player's life total (120.3a, 704.5a; with infect, the poison counters they lack, 702.90b, 704.5c), a
    planeswalker's loyalty (704.5i), a battle's defense (704.5v) - with the step that says so.

    >>> from rulesjudge.scenarios.model.table import TableState, frozen
    >>> from rulesjudge.scenarios.model.variant import FreeForAll
    >>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",),
    ...                    life=frozen({"Ann": 20, "Ben": 7}), poison=frozen({"Ben": 3}))
    >>> lethal_amount(state, "Ben")[0], lethal_amount(state, "Ben", infect=True)[0]
    (7, 7)
    """
    thing = state.permanents.get(target)
    if thing is not None:
        walker = thing.kind == "planeswalker"
        left = max(0, (thing.loyalty if walker else thing.defense) or 0)
        what = "loyalty" if walker else "defense"
        rule = cr("704.5i") if walker else cr("704.5v")
        return left, step(f"Lethal damage to {target}: its {what}, {left}.", rule)
    if infect:
        limit, cites = state.variant.poison_limit(state, target)
        lacking = max(0, limit - poison_of(state, target))
        return lacking, step(f"Lethal damage from a creature with infect to {target}: the {lacking} poison "
                             f"counters they lack of {limit}.", cr("702.90b"), *cites)
    life = max(0, life_of(state, target))
    return life, step(f"Lethal damage to {target}: as much as their life total, {life} (a player with 0 or "
                      "less life loses the game).", cr("120.3a"), cr("704.5a"))


@dataclass(frozen=True)
class Blow:
    """Combat damage about to be dealt: by ``creature`` (None: an unnamed creature ``controller`` controls)
    to ``target`` (a player, planeswalker or battle)."""

    controller: str
    target: str
    amount: int
    creature: str | None = None


# --- what can be attacked ----------------------------------------------------------------------------
def defender_of(state: TableState, target: str) -> tuple[str | None, str]:
    """The defending player an attack on ``target`` is against, and what ``target`` is (player,
    planeswalker, battle): the player, the planeswalker's controller, the battle's protector (508.5)."""
    if target in state.seats:
        return target, "player"
    perm = state.permanents[target]
    if perm.kind == "battle":
        return perm.protector, "battle"
    return (perm.current_controller if perm.on_battlefield else perm.last_controller), perm.kind


def can_attack(state: TableState, attacker: str, target: str) -> Answer:
    """May creatures ``attacker`` controls attack ``target`` (a player, planeswalker or battle) now?"""
    variant = state.variant
    effect = cant_attack(state, attacker)
    if effect is not None and state.is_in(attacker):
        by = f"{effect.source}'s static ability" if effect.source else f"{effect.controller or 'an'}'s effect"
        return False, [
            step(f"{by} says creatures {attacker} controls can't attack.", cr("508.1c"), cr("611.2a"))
        ]
    if target in state.seats:
        return variant.can_attack(state, attacker, target)
    perm = state.permanents[target]
    if not perm.on_battlefield:
        return False, [step(f"{target} is not on the battlefield.", cr("506.4"))]
    defender, kind = defender_of(state, target)
    if kind == "battle":
        if defender is None and perm.protector_choice:
            return _attack_pending_protector(state, attacker, perm)
        if defender is None:
            return False, [step(f"{target} has no protector in the game.", cr("704.5w"))]
        if defender == attacker:
            return False, [
                step(
                    f"{attacker} protects {target}, and a battle's protector can never attack it.",
                    cr("310.8b"),
                )
            ]
        ok, steps = variant.can_attack(state, attacker, defender)
        own = perm.current_controller == attacker
        siege = " (a Siege can be attacked by its own controller)" if own else ""
        why = step(
            f"{target} can be attacked by any attacking player for whom its protector, {defender}, is a "
            f"defending player{siege}.",
            cr("310.8b"),
        )
        return ok, [*steps, why]
    if kind != "planeswalker":
        return False, [
            step(
                f"{target} is a {perm.kind}: only players, planeswalkers and battles can be attacked.",
                cr("508.1b"),
            )
        ]
    if defender == attacker:
        return False, [
            step(
                f"{target} is controlled by {attacker}: a player attacks only planeswalkers controlled "
                "by a defending player, never their own.",
                cr("802.3"),
                cr("506.2a"),
            )
        ]
    ok, steps = variant.can_attack(state, attacker, defender or "")
    return ok, [
        *steps,
        step(
            f"{target} is controlled by {defender}: it can be attacked when {defender} can (an object is "
            "within a player's range of influence when its controller is).",
            cr("802.3"),
            cr("801.2d"),
        ),
    ]


def _attack_pending_protector(state: TableState, attacker: str, battle: Permanent) -> Answer:
    """A battle whose controller is choosing a new protector (704.5w/x): whether ``attacker`` may attack it
    depends on who is chosen; where every choice gives the same answer that is the answer, otherwise the
    answer is false (the controller may choose ``attacker``) with each choice named."""
    outcomes = {
        who: who != attacker and bool(state.variant.can_attack(state, attacker, who)[0])
        for who in battle.protector_choice
    }
    chooser = battle.current_controller
    text = (
        f"{chooser} chooses {battle.name}'s new protector among {', '.join(battle.protector_choice)}; "
        f"it can be attacked by a player for whom its protector is a defending player."
    )
    cites = (cr("704.5w"), cr("310.8b"))
    if len(set(outcomes.values())) == 1:
        return next(iter(outcomes.values())), [step(text, *cites)]
    readings = tuple(
        Reading(f"{chooser} chooses {who}: {attacker} {'may' if ok else 'may not'} attack it.", ok, cites)
        for who, ok in outcomes.items()
    )
    return False, [step(text, *cites, alternatives=readings)]


def defending_player(state: TableState, creature: str) -> Answer:
    """508.5 / 802.2a: the player a creature is attacking, the controller of the planeswalker or the
    protector of the battle it attacks — or attacked before it was removed from combat."""
    perm = state.permanents[creature]
    target = perm.attacking or perm.attacked
    if not target:
        return None, [step(f"{creature} is not attacking and hasn't attacked this combat.", cr("508.5"))]
    defender, kind = defender_of(state, target)
    if not perm.attacking and perm.defender is not None:
        # 508.5: removed from combat (or what it attacked was), it refers to the player it was against
        # before that - not to whoever controls the planeswalker now
        defender = perm.defender
    now = "attacks" if perm.attacking else "attacked"
    when = "" if perm.attacking else " when it was attacked"
    if kind == "player":
        text = f"{creature} {now} {target}, the defending player it refers to."
    elif kind == "battle":
        text = f"{creature} {now} the battle {target}, whose protector{' was' if when else ' is'} {defender}."
    else:
        text = f"{creature} {now} the planeswalker {target}, controlled by {defender}{when}."
    cites = (cr("508.5"), cr("802.2a"), *((cr("310.8d"),) if kind == "battle" else ()))
    return defender, [step(text, *cites)]


# --- declaring attackers -----------------------------------------------------------------------------------
def _creature_problems(state: TableState, attacking: Sequence[str], name: str) -> list[Step]:
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return [step(f"{name} is not on the battlefield.", cr("508.1a"))]
    if perm.kind != "creature":
        return [step(f"{name} is a {perm.kind}, not a creature: it can't attack.", cr("508.1a"))]
    controller = perm.current_controller
    if controller not in attacking:
        return [step(f"{name} is controlled by {controller}, not by an attacking player.", cr("508.1a"))]
    if perm.tapped:
        return [step(f"{name} is tapped: the chosen creatures must be untapped.", cr("508.1a"))]
    if perm.since >= state.turn and not perm.has("haste"):
        return [
            step(
                f"{controller} hasn't controlled {name} continuously since the turn began and it has no "
                "haste.",
                cr("508.1a"),
                cr("302.6"),
            )
        ]
    return []


def declare_attackers(
    state: TableState, attacking: Sequence[str], pairs: Sequence[tuple[str, str]]
) -> Result:
    """508.1: the active player (team) declares attackers; an illegal declaration is undone (nothing
    attacks) and the answer says which rule it breaks."""
    variant = state.variant
    active = variant.attackers(state)
    problems: list[Step] = []
    for player in attacking:
        if player not in active:
            problems.append(
                step(
                    f"{player} is not an attacking player this turn: the active player declares attackers.",
                    cr("508.1"),
                    cr("506.2"),
                    *((cr("805.10a"),) if len(active) > 1 else ()),
                )
            )
    defenders: dict[str, str] = {}
    for name, target in pairs:
        problems += _creature_problems(state, attacking, name)
        controller = state.permanents[name].current_controller
        ok, why = can_attack(state, controller, target)
        if not ok:
            problems += [*why, step(f"{name} can't attack {target}.", cr("508.1b"))]
        defender, _ = defender_of(state, target)
        defenders[name] = defender or ""
    chosen = set(defenders.values())
    if state.options.attack != "multiple" and len(chosen) > 1 and not problems:
        problems.append(
            step(
                f"Without the attack multiple players option, {', '.join(attacking)} attacks one "
                f"defending player; this attack names {', '.join(sorted(chosen))}.",
                cr("506.2a"),
            )
        )
    if problems:
        return state, [
            *problems,
            illegal("The declaration", cr("508.1"), then=", and no creature attacks"),
        ]
    permanents = dict(state.permanents)
    for name, target in pairs:
        defender = defender_of(state, target)[0]
        vigilant = permanents[name].has("vigilance")  # 702.20b: attacking doesn't tap it
        permanents[name] = replace(
            permanents[name], attacking=target, attacked=target, defender=defender, tapped=not vigilant
        )
    listed = "; ".join(f"{name} attacks {target}" for name, target in pairs)
    return state.with_(permanents=frozen(permanents)), [
        step(
            f"{', '.join(attacking)} declare{'s' if len(attacking) == 1 else ''} attackers: {listed}; "
            f"attacking "
            "creatures become tapped.",
            cr("508.1"),
            cr("508.1f"),
            cr("508.1k"),
        )
    ]


def remove_from_combat(perm: Permanent) -> Permanent:
    """506.4: a creature whose controller changes or that leaves the battlefield stops attacking, blocking,
    being blocked."""
    return replace(perm, attacking=None, blocking=(), blocked=False) if perm.in_combat else perm


def target_gone(state: TableState, target: str) -> TableState:
    """506.4c: creatures attacking a planeswalker or battle that left combat keep attacking nothing."""
    permanents = {
        n: replace(p, attacking="") if p.attacking == target else p for n, p in state.permanents.items()
    }
    return state.with_(permanents=frozen(permanents))


# --- combat damage -----------------------------------------------------------------------------------------
def deal(state: TableState, blows: Sequence[Blow]) -> Result:
    """Combat damage dealt at the same time (510.2), and what it triggers."""
    steps: list[Step] = []
    dealt: list[Blow] = []
    for blow in blows:
        if blow.creature is not None and not state.permanents[blow.creature].on_battlefield:
            steps.append(
                step(
                    f"{blow.creature} is no longer on the battlefield: it deals no combat damage.",
                    cr("506.4"),
                    cr("510.1b"),
                )
            )
        elif blow.target in state.seats and not state.is_in(blow.target):
            steps.append(
                step(f"{blow.target} has left the game: combat damage isn't assigned to them.", cr("800.4e"))
            )
        elif blow.target in state.permanents and not state.permanents[blow.target].on_battlefield:
            steps.append(
                step(
                    f"{blow.target} is no longer on the battlefield: no damage is dealt to it.", cr("510.1b")
                )
            )
        elif not state.is_in(blow.controller):
            steps.append(
                step(
                    f"{blow.controller} has left the game, and the creatures they controlled with them.",
                    cr("800.4a"),
                )
            )
        elif blow.amount > 0:
            dealt.append(blow)
    before = state
    for blow in dealt:
        state, more = _hit(state, blow)
        steps += more
    triggers: list[Trigger] = []
    for blow in dealt:
        if blow.target in state.seats:
            more_t, more_s = monarch.damage_trigger(before, blow.controller, blow.target, blow.creature)
            triggers += more_t
            steps += more_s
    for damaged in dict.fromkeys(b.target for b in dealt if b.target in state.seats):
        more_t, more_s = initiative.damage_triggers(
            before, [b.controller for b in dealt if b.target == damaged], damaged
        )
        triggers += more_t
        steps += more_s
    if triggers:
        state = state.with_(pending=(*state.pending, *triggers))
    lethal = [t for t in triggers if t.kind == monarch.STEAL and life_of(state, t.controller) <= 0]
    if lethal:
        steps.append(
            step(
                f"The damage leaves {lethal[0].controller} at 0 or less life: they lose before the trigger "
                "they control goes on the stack, so it doesn't resolve; the crown passes as they leave "
                "instead.",
                RULING_LETHAL,
                cr("725.4"),
                cr("800.4d"),
            )
        )
    return state, steps


def _hit(state: TableState, blow: Blow) -> Result:
    variant = state.variant
    source = state.permanents.get(blow.creature) if blow.creature else None
    who = blow.creature or f"A creature {blow.controller} controls"
    if blow.target not in state.seats:
        perm = state.permanents[blow.target]
        battle = perm.kind == "battle"
        counter, rules = (
            ("defense", (cr("120.3h"), cr("310.6"))) if battle else ("loyalty", (cr("120.3c"), cr("306.8")))
        )
        # a characteristic equal to a number of counters (306.5c, 310.4c): no fewer than none are left
        if battle:
            state = state.with_permanent(replace(perm, defense=max(0, (perm.defense or 0) - blow.amount)))
        else:
            state = state.with_permanent(replace(perm, loyalty=max(0, (perm.loyalty or 0) - blow.amount)))
        return state, [
            step(
                f"{who} deals {blow.amount} combat damage to {blow.target}: that many {counter} counters "
                "are removed from it.",
                cr("510.2"),
                *rules,
            )
        ]
    player = blow.target
    steps: list[Step] = []
    if source is not None and source.has("infect"):
        state, more = poison_counters(state, player, blow.amount)
        steps.append(
            step(
                f"{who} has infect: its {blow.amount} combat damage to {player} gives {player} that many "
                "poison counters instead of life loss.",
                cr("510.2"),
                cr("120.3b"),
                cr("702.90b"),
            )
        )
        steps += more
    else:
        pool = variant.life_pool(state, player)
        life = dict(state.life)
        life[pool] = life.get(pool, 0) - blow.amount
        state = state.with_(life=frozen(life))
        team = f" (applied to the team's total, now {life[pool]})" if pool != player else ""
        steps.append(
            step(
                f"{who} deals {blow.amount} combat damage to {player}{team}.",
                cr("510.2"),
                cr("120.3a"),
                *((cr("810.9"),) if team else ()),
            )
        )
    if source is not None and source.toxic:
        state, more = poison_counters(state, player, source.toxic)
        steps.append(
            step(
                f"{who} has toxic {source.toxic}: {player} also gets {source.toxic} poison "
                f"counter{'s' if source.toxic != 1 else ''}.",
                cr("702.164c"),
                cr("120.3g"),
            )
        )
        steps += more
    if source is not None and source.commander and state.commander:
        tally = {p: dict(d) for p, d in state.commander_damage.items()}
        count = tally.setdefault(player, {}).get(source.name, 0) + blow.amount
        tally[player][source.name] = count
        state = state.with_(commander_damage=frozen({p: frozen(d) for p, d in tally.items()}))
        steps.append(
            step(
                f"{source.name} is a commander: {player} has now been dealt {count} combat damage by it over "
                "the game.",
                cr("903.10a"),
            )
        )
    return state, steps
