"""Building the table state from a setup (the ``game:`` block of a scenario).

>>> from rulesjudge.scenarios.format import GameSetup
>>> state = build_state(GameSetup(players=["Ann", "Ben", "Cat"], monarch="Ben"))
>>> state.active, state.monarch, state.life["Cat"]
('Ann', 'Ben', 20)
"""

from __future__ import annotations

from typing import Any

from rulesjudge.scenarios.model import influence
from rulesjudge.scenarios.model.table import Identity, Options, Permanent, TableState, frozen_map
from rulesjudge.scenarios.model.variants import VARIANTS


def _options(variant_default: Options, spec: Any) -> Options:
    """The variant's default options, overridden by the options the setup states."""
    given = spec.model_fields_set
    options = variant_default
    if "range" in given:
        if isinstance(spec.range, dict):
            options = Options(
                range=options.range,
                ranges=frozen_map(spec.range),
                attack=options.attack,
                deploy=options.deploy,
            )
        else:
            options = Options(
                range=spec.range, ranges=frozen_map({}), attack=options.attack, deploy=options.deploy
            )
    if "attack" in given and spec.attack is not None:
        options = Options(
            range=options.range, ranges=options.ranges, attack=spec.attack, deploy=options.deploy
        )
    if "deploy" in given and spec.deploy is not None:
        options = Options(
            range=options.range, ranges=options.ranges, attack=options.attack, deploy=spec.deploy
        )
    return options


def _permanent(name: str, spec: Any) -> Permanent:
    controller = spec.controller or spec.owner
    if controller != spec.owner and spec.control_effect:
        return Permanent(name, spec.owner, spec.owner, (controller,), spec.tapped)
    return Permanent(name, spec.owner, controller, (), spec.tapped)


def build_state(setup: Any) -> TableState:
    """The table as the scenario starts: seats, teams, options, designations, life, permanents."""
    variant = VARIANTS[setup.variant]
    seats = variant.seating(setup)
    teams = variant.build_teams(setup)
    identities = {}
    for player in setup.identities:
        spec = setup.identity(player)
        face = spec.face or ("up" if spec.role == "leader" else "down")
        identities[player] = Identity(spec.role, spec.card, face, spec.undercover)
    state = TableState(
        seats=seats,
        turn_player=setup.active or variant.first_player(setup, seats),
        variant=variant.name,
        options=_options(variant.default_options(setup), setup.options),
        teams=teams,
        identities=frozen_map(identities),
        commander=bool(setup.commander),
        monarch=setup.monarch,
        had_monarch=setup.monarch is not None,
        initiative=setup.initiative,
        permanents=frozen_map({n: _permanent(n, p) for n, p in setup.permanents.items()}),
    )
    start = variant.starting_life(setup)
    life: dict[str, int] = {}
    for player in seats:
        pool = variant.life_pool(state, player)
        life.setdefault(pool, start)
        if player in setup.life:
            life[pool] = setup.life[player]
    state = state.with_(life=frozen_map(life))
    state = influence.snapshot(state, variant.range_of)
    return variant.prepare(state)
