"""Blocks and combat damage between creatures (509, 510): declaring blockers, dividing combat damage among
blockers and blocked creatures (510.1c-d), first strike and double strike for attackers and blockers alike
(510.4, 702.7b, 702.4b), trample (702.19b, 702.19d), deathtouch (702.2c), lifelink (120.3f), and the
damage the creatures are dealt, marked on them until the turn ends (120.3e, 120.6; state-based actions
destroy them, 704.5g-h).

Who may block what is the variant's: a defending player blocks only creatures attacking them, a planeswalker
they control or a battle they protect (509.1a, 802.4a); in Two-Headed Giant the defending team blocks
together (805.10d).

>>> from rulesjudge.scenarios.model.table import TableState, Permanent, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> ogre = Permanent("Ogre", "Ann", "Ann", power=3, toughness=3, keywords=("trample",))
>>> wall = Permanent("Wall", "Ben", "Ben", power=0, toughness=2)
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",),
...                    life=frozen({"Ann": 20, "Ben": 20}), permanents=frozen({"Ogre": ogre, "Wall": wall}))
>>> from rulesjudge.scenarios.model.combat import declare_attackers
>>> state, _ = declare_attackers(state, ("Ann",), (("Ogre", "Ben"),))
>>> state, _ = declare_blockers(state, (("Wall", ("Ogre",)),))
>>> state, _ = damage_step(state, "regular")
>>> state.life["Ben"], state.permanents["Wall"].damage
(19, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.combat import Blow, deal
from rulesjudge.scenarios.model.steps import Answer, Step, illegal, step
from rulesjudge.scenarios.model.table import Permanent, TableState, frozen, plural

Result = tuple[TableState, list[Step]]
Assignment = dict[str, int]  # recipient (a creature, player, planeswalker or battle) -> damage


# --- who is in combat ----------------------------------------------------------------------------------
def attacking_now(perm: Permanent) -> bool:
    return perm.on_battlefield and perm.attacking is not None


def blockers_of(state: TableState, attacker: str) -> list[str]:
    """The creatures blocking ``attacker`` now, in the order declared (a blocker removed from combat no
    longer blocks, 506.4)."""
    found = []
    for name in state.permanents[attacker].blocked_by:
        blocker = state.permanents[name]
        if blocker.on_battlefield and attacker in blocker.blocking:
            found.append(name)
    return found


def blocked_by(state: TableState, blocker: str) -> list[str]:
    """The attacking creatures ``blocker`` is blocking now (510.1d: those still in combat)."""
    perm = state.permanents[blocker]
    if not perm.on_battlefield:
        return []
    return [a for a in perm.blocking if attacking_now(state.permanents[a])]


def blocking_now(perm: Permanent) -> bool:
    return perm.on_battlefield and bool(perm.blocking)


# --- declaring blockers ------------------------------------------------------------------------------------
def _blocker_problems(state: TableState, name: str, attackers: Sequence[str]) -> list[Step]:
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return [step(f"{name} is not on the battlefield: it can't block.", cr("509.1a"))]
    if perm.kind != "creature":
        return [step(f"{name} is a {perm.kind}: only a creature can block.", cr("506.3"))]
    if perm.tapped:
        return [step(f"{name} is tapped: the chosen blockers must be untapped.", cr("509.1a"))]
    if perm.blocking:
        return [step(f"{name} is already blocking {', '.join(perm.blocking)}.", cr("509.1a"))]
    if len(attackers) > perm.can_block:
        many = "one attacking creature" if perm.can_block == 1 else f"{perm.can_block} attacking creatures"
        return [
            step(
                f"{name} can block {many} (unless an effect lets it block more), not {len(attackers)}.",
                cr("509.1a"),
            )
        ]
    controller = perm.current_controller
    problems: list[Step] = []
    for attacker in attackers:
        target = state.permanents[attacker]
        if not attacking_now(target):
            problems.append(
                step(f"{attacker} is not an attacking creature: it can't be blocked.", cr("509.1a"))
            )
            continue
        if target.current_controller == controller:
            problems.append(
                step(
                    f"{controller} controls both {name} and {attacker}: a creature can't block its own "
                    "side's attacker.",
                    cr("509.1a"),
                )
            )
            continue
        ok, why = state.variant.can_block(state, controller, target.defender or "", attacker)
        if not ok:
            problems += why
    return problems


def _why_legal(state: TableState, pairs: Sequence[tuple[str, tuple[str, ...]]]) -> list[Step]:
    """What the variant says of legal blocks (805.10d: a head blocking for the team), each said once."""
    said: dict[str, Step] = {}
    for name, attackers in pairs:
        controller = state.permanents[name].current_controller
        for attacker in attackers:
            defender = state.permanents[attacker].defender or ""
            for why in state.variant.can_block(state, controller, defender, attacker)[1]:
                said.setdefault(why.text, why)
    return list(said.values())


def declare_blockers(state: TableState, pairs: Sequence[tuple[str, tuple[str, ...]]]) -> Result:
    """509.1: defending players declare blockers (802.4: each in APNAP order; one event may hold several
    players' blocks). An illegal declaration is undone - nothing blocks - and the answer says why (509.1,
    733.1)."""
    problems = [p for name, attackers in pairs for p in _blocker_problems(state, name, attackers)]
    if problems:
        return state, [
            *problems,
            illegal("The declaration of blockers", cr("509.1"), then=", and no creature blocks"),
        ]
    permanents = dict(state.permanents)
    for name, attackers in pairs:
        permanents[name] = replace(permanents[name], blocking=attackers)
        for attacker in attackers:
            was = permanents[attacker]
            permanents[attacker] = replace(was, blocked=True, blocked_by=(*was.blocked_by, name))
    listed = "; ".join(f"{name} blocks {' and '.join(attackers)}" for name, attackers in pairs)
    who = ", ".join(dict.fromkeys(state.permanents[n].current_controller for n, _ in pairs))
    several = any(len(a) > 1 for _, a in pairs)
    cites = (cr("509.1g"), cr("509.1h"), *((cr("509.1a"),) if several else ()))
    return state.with_(permanents=frozen(permanents)), [
        step(
            f"{who} declare{'s' if ', ' not in who else ''} blockers: {listed}; each attacking creature "
            "with a blocker declared for it is blocked.",
            *cites,
        ),
        *_why_legal(state, pairs),
    ]


# --- assigning combat damage -------------------------------------------------------------------------------
def _lethal(state: TableState, name: str, dealer: Permanent, pending: Mapping[str, int]) -> int:
    """Damage that is lethal to creature ``name`` from ``dealer`` now: its toughness less the damage marked
    on it and that being assigned to it in this step (702.19b); any nonzero amount from a source with
    deathtouch (702.2c)."""
    perm = state.permanents[name]
    left = max(0, (perm.toughness or 0) - perm.damage - pending.get(name, 0))
    return min(left, 1) if dealer.has("deathtouch") else left


def _divide(
    state: TableState, dealer: Permanent, among: Sequence[str], pending: Mapping[str, int], rest: str | None
) -> Assignment:
    """A division of ``dealer``'s power its controller may choose: lethal damage to each of ``among`` in the
    order declared, what is left to ``rest`` (the attacked player, for trample) or to the last of them."""
    left = dealer.power or 0
    split: Assignment = {}
    for name in among:
        give = min(left, _lethal(state, name, dealer, pending))
        if give:
            split[name] = give
        left -= give
    if left:
        sink = rest or among[-1]
        split[sink] = split.get(sink, 0) + left
    return split


def _default(state: TableState, dealer: Permanent, pending: Mapping[str, int]) -> tuple[Assignment, Step]:
    """How ``dealer`` assigns its combat damage when the scenario doesn't say (510.1b-d, 702.19b/d)."""
    name, power = dealer.name, dealer.power or 0
    if dealer.blocking:
        attackers = blocked_by(state, name)
        if not attackers:
            return {}, step(
                f"{name} is blocking no creature still in combat: it assigns no combat damage.", cr("510.1d")
            )
        split = _divide(state, dealer, attackers, pending, None)
        return split, step(
            f"{name} is blocking {', '.join(attackers)}: it assigns its {power} combat damage "
            f"({_listed(split)}).",
            cr("510.1d"),
        )
    target = dealer.attacking or None
    if not dealer.blocked:
        if target is None:
            return {}, step(
                f"{name} is attacking nothing any more (what it attacked left combat): it assigns "
                "no combat damage.",
                cr("506.4c"),
                cr("510.1b"),
            )
        return {target: power}, step(
            f"{name} is unblocked: it assigns its combat damage to {target}.", cr("510.1b")
        )
    blockers = blockers_of(state, name)
    trample = dealer.has("trample") and target is not None
    if not blockers:
        if trample:
            return {target or "": power}, step(
                f"{name} is blocked but no creature blocks it any more; it has trample, so all its damage "
                f"is assigned to {target}.",
                cr("702.19d"),
            )
        return {}, step(
            f"{name} is blocked and no creature blocks it any more: it assigns no combat damage "
            "(it stays blocked).",
            cr("510.1c"),
            cr("509.1h"),
        )
    split = _divide(state, dealer, blockers, pending, target if trample else None)
    cites: tuple[Cite, ...] = (cr("510.1c"),)
    how = "divided as its controller chooses: here lethal damage to each in the order declared, the rest to "
    how += "the last"
    if len(blockers) == 1:
        how = "all of it to its blocker"
    if trample:
        cites += (cr("702.19b"),)
        how = "lethal damage to its blockers first; its controller chooses where the rest goes: here what it "
        how += "attacks"
    if dealer.has("deathtouch") and len(split) > 1:
        cites += (cr("702.2c"),)
        how += "; with deathtouch 1 damage is lethal"
    return split, step(
        f"{name} is blocked by {', '.join(blockers)}: it assigns its {power} combat damage "
        f"({how}): {_listed(split)}.",
        *cites,
    )


def _listed(split: Assignment) -> str:
    return ", ".join(f"{amount} to {who}" for who, amount in split.items()) or "nothing"


def _recipients(state: TableState, dealer: Permanent) -> tuple[list[str], str | None]:
    """Who ``dealer`` may assign damage to (its blockers or blocked creatures; with trample, or unblocked,
    what it attacks) and that target."""
    if dealer.blocking:
        return blocked_by(state, dealer.name), None
    target = dealer.attacking or None
    if not dealer.blocked:
        return ([target] if target else []), target
    blockers = blockers_of(state, dealer.name)
    if dealer.has("trample") and target:
        return [*blockers, target], target
    return blockers, None


def _checked(
    state: TableState, dealer: Permanent, split: Assignment, pending: Mapping[str, int]
) -> list[Step]:
    """The problems with an assignment the scenario gives (510.1a, 510.1c-d, 702.19b)."""
    allowed, target = _recipients(state, dealer)
    name, power = dealer.name, dealer.power or 0
    wrong = [who for who in split if who not in allowed]
    if wrong:
        may = ", ".join(allowed) or "nothing"
        return [
            step(
                f"{name} can't assign combat damage to {', '.join(wrong)} (it may assign to: {may}).",
                cr("510.1b"),
                cr("510.1c"),
                cr("510.1d"),
            )
        ]
    if sum(split.values()) != max(power, 0):
        return [
            step(
                f"{name} assigns combat damage equal to its power, {power}, not {sum(split.values())}.",
                cr("510.1a"),
            )
        ]
    if target and target in split and split[target] and dealer.blocked:
        short = [b for b in blockers_of(state, name) if split.get(b, 0) < _lethal(state, b, dealer, pending)]
        if short:
            return [
                step(
                    f"{name} assigns damage to {target} before lethal damage to {', '.join(short)}: "
                    "with trample, every blocker must be assigned lethal damage first.",
                    cr("702.19b"),
                )
            ]
    return []


def _dealers(state: TableState, which: str) -> tuple[list[Permanent], list[Step], TableState]:
    """The creatures assigning combat damage in this step (510.4, 702.7b, 702.4b)."""
    combatants = [p for p in state.permanents.values() if attacking_now(p) or blocking_now(p)]
    strikers = [p for p in combatants if p.has("first-strike") or p.has("double-strike")]
    first_done = any(p.struck_first for p in state.permanents.values())
    if which == "first-strike":
        if not strikers:
            return (
                [],
                [
                    step(
                        "No attacking or blocking creature has first strike or double strike: there is no "
                        "first-strike combat damage step.",
                        cr("510.4"),
                    )
                ],
                state,
            )
        marked = {
            n: replace(p, struck_first=True) if p in strikers else p for n, p in state.permanents.items()
        }
        return (
            strikers,
            [
                step(
                    "First-strike combat damage step: only creatures with first strike or double "
                    "strike assign combat damage.",
                    cr("510.4"),
                    cr("702.7b"),
                )
            ],
            state.with_(permanents=frozen(marked)),
        )
    if not first_done:
        return combatants, [], state
    dealers = [p for p in combatants if not p.struck_first or p.has("double-strike")]
    steps = [
        step(
            "The second combat damage step: the remaining creatures that had neither first strike nor "
            "double strike, and those with double strike again.",
            cr("510.4"),
            cr("702.4b"),
        )
    ]
    return dealers, steps, state


def needs_first_step(state: TableState) -> bool:
    """Does a regular damage step have to be preceded by a first-strike step (510.4)?"""
    if any(p.struck_first for p in state.permanents.values()):
        return False
    return any(
        (attacking_now(p) or blocking_now(p)) and (p.has("first-strike") or p.has("double-strike"))
        for p in state.permanents.values()
    )


def damage_step(
    state: TableState, which: str, assign: Mapping[str, Mapping[str, int]] | None = None
) -> Result:
    """One combat damage step (510): each dealer assigns its damage (as ``assign`` says, else a division its
    controller may choose), the whole assignment is checked (510.1e), then all of it is dealt at once
    (510.2)."""
    dealers, steps, state = _dealers(state, which)
    assign = assign or {}
    order = sorted(dealers, key=lambda p: (not p.blocking, p.name not in assign))  # blockers, given, defaults
    pending: dict[str, int] = {}
    splits: list[tuple[Permanent, Assignment]] = []
    problems: list[Step] = []
    for dealer in order:
        if (dealer.power or 0) <= 0:
            steps.append(
                step(
                    f"{dealer.name} has power {dealer.power or 0}: it assigns no combat damage.", cr("510.1a")
                )
            )
            continue
        if dealer.name in assign:
            split = {k: v for k, v in assign[dealer.name].items() if v}
            problems += _checked(state, dealer, split, pending)
            steps.append(
                step(
                    f"{dealer.current_controller} assigns {dealer.name}'s combat damage: {_listed(split)}.",
                    cr("510.1"),
                    cr("510.1c") if not dealer.blocking else cr("510.1d"),
                )
            )
        else:
            split, said = _default(state, dealer, pending)
            steps.append(said)
        for who, amount in split.items():
            if who in state.permanents and state.permanents[who].kind == "creature":
                pending[who] = pending.get(who, 0) + amount
        splits.append((dealer, split))
    in_combat = {n for n, p in state.permanents.items() if attacking_now(p) or blocking_now(p)}
    unused = sorted(set(assign) - in_combat)
    if unused:
        problems.append(
            step(
                f"{', '.join(unused)} is not an attacking or blocking creature: it assigns no combat damage.",
                cr("510.1"),
            )
        )
    if problems:
        return state, [
            *steps,
            *problems,
            illegal("The combat damage assignment", cr("510.1e"), then=" was made"),
        ]
    if not any(split for _, split in splits):
        return state, [*steps, step("No creature deals combat damage in this step.", cr("510.2"))]
    return _deal_all(state, splits, steps)


def _deal_all(state: TableState, splits: list[tuple[Permanent, Assignment]], steps: list[Step]) -> Result:
    """510.2: all assigned combat damage is dealt at once - marked on creatures (120.3e; -1/-1 counters from
    infect, 120.3d), to players, planeswalkers and battles through :func:`combat.deal`; lifelink (120.3f)."""
    permanents = dict(state.permanents)
    blows: list[Blow] = []
    gains: dict[str, int] = {}
    for dealer, split in splits:
        dealt = 0
        for who, amount in split.items():
            hit = permanents.get(who)
            if hit is not None and hit.kind == "creature":
                if not hit.on_battlefield:
                    continue
                if dealer.has("infect"):
                    hit = replace(
                        hit, power=(hit.power or 0) - amount, toughness=(hit.toughness or 0) - amount
                    )
                    steps.append(
                        step(f"{dealer.name} has infect: {who} gets {amount} -1/-1 counters.", cr("120.3d"))
                    )
                else:
                    hit = replace(hit, damage=hit.damage + amount)
                    steps.append(
                        step(
                            f"{dealer.name} deals {amount} combat damage to {who}, marked on it "
                            f"({hit.damage} in all).",
                            cr("510.2"),
                            cr("120.3e"),
                        )
                    )
                if dealer.has("deathtouch"):
                    hit = replace(hit, deathtouched=True)
                permanents[who] = hit
                dealt += amount
            else:
                blows.append(Blow(dealer.current_controller, who, amount, dealer.name))
                dealt += amount if who not in state.seats or state.is_in(who) else 0
        if dealer.has("lifelink") and dealt:
            gains[dealer.current_controller] = gains.get(dealer.current_controller, 0) + dealt
    state = state.with_(permanents=frozen(permanents))
    if blows:
        state, more = deal(state, blows)
        steps += more
    for player, amount in gains.items():
        if state.is_in(player):
            pool = state.variant.life_pool(state, player)
            life = dict(state.life)
            life[pool] = life.get(pool, 0) + amount
            state = state.with_(life=frozen(life))
            steps.append(
                step(
                    f"Lifelink: {player} gains {amount} life for the damage their creature dealt.",
                    cr("120.3f"),
                    cr("702.15b"),
                )
            )
    return state, steps


# --- answers -----------------------------------------------------------------------------------------------
def answer_blocked(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if not attacking_now(perm):
        return False, [
            step(
                f"{name} is not an attacking creature, so it is neither blocked nor unblocked.",
                cr("506.4"),
                cr("509.1h"),
            )
        ]
    if not perm.blocked:
        return False, [
            step(f"No creature was declared as a blocker for {name}: it is unblocked.", cr("509.1h"))
        ]
    now = blockers_of(state, name)
    text = (
        f"{name} is blocked by {', '.join(now)}."
        if now
        else f"{name} had a blocker declared for it: it remains blocked though no creature blocks it now."
    )
    return True, [step(text, cr("509.1h"))]


def answer_blockers(state: TableState, name: str) -> Answer:
    now = blockers_of(state, name) if attacking_now(state.permanents[name]) else []
    return now, [step(f"Creatures blocking {name}: {', '.join(now) or 'none'}.", cr("509.1g"), cr("506.4"))]


def answer_blocking(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if blocking_now(perm):
        return True, [
            step(f"{name} is a blocking creature (it blocks {', '.join(perm.blocking)}).", cr("509.1g"))
        ]
    why = (cr("509.1g"), cr("506.4")) if perm.blocking else (cr("509.1g"),)
    return False, [step(f"{name} is not a blocking creature.", *why)]


def answer_damage(state: TableState, name: str) -> Answer:
    perm = state.permanents[name]
    if not perm.on_battlefield:
        return 0, [step(f"{name} is not on the battlefield: no damage is marked on it.", cr("400.7"))]
    return perm.damage, [
        step(
            f"{name} has {plural(perm.damage, 'damage')} marked on it this turn.".replace(
                "damages", "damage"
            ),
            cr("120.3e"),
            cr("120.6"),
        )
    ]
