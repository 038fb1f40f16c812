"""Questions about permanents: control, ownership, zones, protectors, counters, commander tax."""

from __future__ import annotations

from rulesjudge.scenarios.model import objects
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.questions.base import general
from rulesjudge.scenarios.model.steps import Answer, step
from rulesjudge.scenarios.model.table import Choice, Permanent, TableState


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
