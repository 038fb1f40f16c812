"""Questions about range of influence and combat: who may attack whom, attackers,
blockers, damage, deploying."""

from __future__ import annotations

from rulesjudge.scenarios.model import blocks, combat, influence
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.deploy import deploy_answer
from rulesjudge.scenarios.model.questions.base import general
from rulesjudge.scenarios.model.steps import Answer, Reading, step
from rulesjudge.scenarios.model.table import Choice, TableState


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
