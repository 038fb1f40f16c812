"""Building the table state from a :class:`Setup` and its variant (the registry in ``scenarios.model`` picks
the variant by name: ``build_state(setup)``).

>>> from rulesjudge.scenarios.model.setup import Setup
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = build(Setup(players=["Ann", "Ben", "Cat"], monarch="Ben"), FreeForAll())
>>> state.active_players, state.monarch, state.life["Cat"]
(('Ann',), 'Ben', 20)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

from rulesjudge.scenarios.model import influence
from rulesjudge.scenarios.model.setup import DEFAULT, PermanentSpec, Setup
from rulesjudge.scenarios.model.table import Options, Permanent, TableState, frozen
from rulesjudge.scenarios.model.variant import Variant


def options_of(default: Options, setup: Setup) -> Options:
    """The variant's default options, overridden by the options the setup states."""
    given = setup.options
    options = default
    if isinstance(given.range, Mapping):
        options = Options(options.range, frozen(given.range), options.attack, options.deploy)
    elif given.range != DEFAULT and not isinstance(given.range, str):
        options = Options(given.range, frozen({}), options.attack, options.deploy)
    if given.attack is not None:
        options = Options(options.range, options.ranges, given.attack, options.deploy)
    if given.deploy is not None:
        options = Options(options.range, options.ranges, options.attack, given.deploy)
    return options


def permanent_of(name: str, spec: PermanentSpec) -> Permanent:
    """The permanent a setup describes: every field of :class:`PermanentSpec` that the table's
    :class:`Permanent` has is copied by name; who controls it (and by what) is worked out here.

    >>> bear = permanent_of("Bear", PermanentSpec(owner="Ann", controller="Ben", power=2))
    >>> bear.controller, bear.control_effects, bear.power
    ('Ann', ('Ben',), 2)
    """
    controller = spec.controller or spec.owner
    effects: tuple[str, ...] = ()
    if controller != spec.owner and spec.control_effect:
        controller, effects = spec.owner, (controller,)
    copied = {f.name: getattr(spec, f.name) for f in fields(PermanentSpec) if f.name in _PERMANENT_FIELDS}
    return Permanent(
        **{**copied, "name": name, "controller": controller, "control_effects": effects},
        last_controller=controller if spec.zone != "battlefield" else None,
    )


_PERMANENT_FIELDS = frozenset(f.name for f in fields(Permanent))


def build(setup: Setup, variant: Variant) -> TableState:
    """The table as the scenario starts: seats, teams, options, designations, life, counters, objects."""
    seats = setup.seats
    starting = variant.first_players(setup, seats)
    first = setup.active or starting[0]
    commander = setup.commander or variant.always_commander
    state = TableState(
        seats=seats,
        variant=variant,
        turn_players=(first,),
        normal_turn=first,
        options=options_of(variant.default_options(setup), setup),
        teams=variant.build_teams(setup),
        commander=commander,
        starting=starting,
        monarch=setup.monarch,
        had_monarch=setup.monarch is not None,
        initiative=setup.initiative,
        commander_damage=frozen({p: frozen(d) for p, d in setup.commander_damage.items()}),
        permanents=frozen({n: permanent_of(n, p) for n, p in setup.permanents.items()}),
        effects=tuple(setup.effects),
        extra_turns=setup.extra_turns,
        library=setup.library,
    )
    state = state.with_(turn_players=variant.turn_group(state, first))
    start = variant.starting_life(setup)
    life: dict[str, int] = {}
    poison: dict[str, int] = {}
    for player in seats:
        pool = variant.life_pool(state, player)
        life.setdefault(pool, start)
        if player in setup.life:
            life[pool] = setup.life[player]
        counters = variant.poison_pool(state, player)
        poison[counters] = poison.get(counters, 0) + setup.poison.get(player, 0)
    state = state.with_(
        life=frozen(life), starting_life=frozen(dict.fromkeys(life, start)), poison=frozen(poison)
    )
    state = influence.snapshot(state, variant.range_of)
    return variant.prepare(state, setup)
