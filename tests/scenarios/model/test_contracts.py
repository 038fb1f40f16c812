"""Contracts declared once: an event's arguments come from its fields, a permanent's keys from one table."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import MISSING, dataclass, fields
from typing import Annotated

import pytest

from rulesjudge.scenarios.format import PermanentSchema, dump_scenario, parse_scenario
from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model.events import EVENT_TYPES, EventArgError, parse_event
from rulesjudge.scenarios.model.setup import PermanentSpec


@dataclass(frozen=True, kw_only=True)
class _Fling(ev.Event):
    """A made-up event declared only by its fields: each argument is written once."""

    NAME = "fling"
    player: ev.Player
    creature: ev.Permanent
    at: ev.Target | None = None
    times: ev.Count = 1
    how: Annotated[str, ev.Word("high", "low")] = "high"


def test_an_event_declared_by_its_fields_gets_its_kinds_required_keys_and_choices() -> None:
    # why: the fields are the one declaration; KINDS/REQUIRED/CHOICES are what the reader and the app read.
    assert _Fling.KINDS == {
        "player": "player", "creature": "permanent", "at": "target", "times": "int", "how": "word"
    }
    assert _Fling.REQUIRED == ("player", "creature")
    assert _Fling.CHOICES == {"how": ("high", "low")}


def test_an_event_declared_by_its_fields_reads_and_refuses_as_declared() -> None:
    fling = _Fling.from_arg({"player": "Ann", "creature": "Bear", "how": "Low"})
    assert (fling.player, fling.creature, fling.at, fling.times, fling.how) == ("Ann", "Bear", None, 1, "low")
    with pytest.raises(EventArgError, match="'fling' needs 'creature'"):
        _Fling.from_arg({"player": "Ann"})
    with pytest.raises(EventArgError, match="expected one of high, low"):
        _Fling.from_arg({"player": "Ann", "creature": "Bear", "how": "sideways"})


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_key_names_a_field_and_required_keys_have_no_default(name: str) -> None:
    cls = EVENT_TYPES[name]
    by_key = {ev.key_of(f.name): f for f in fields(cls)}
    for key in cls.KINDS:
        assert key in by_key, f"{name}: key {key} has no field"
    for key in cls.REQUIRED:
        assert by_key[key].default is MISSING
    assert cls.SCALAR is None or cls.SCALAR in cls.KINDS


def test_damage_reads_from_into_the_by_field() -> None:
    # why: 'from' is the format's word (a Python keyword), the field is 'by'; one mapping says so.
    damage = parse_event("damage", {"to": "Ben", "amount": 3, "from": "Ann"})
    assert isinstance(damage, ev.Damage)
    assert damage.by == "Ann"
    assert ev.event_to_yaml(damage) == {"damage": {"to": "Ben", "amount": 3, "from": "Ann"}}


def test_the_file_schema_has_exactly_the_permanent_fields_of_the_setup() -> None:
    # why: PermanentSpec is the one table of a permanent's keys; the schema validates the same keys.
    schema = {(f.alias or name) for name, f in PermanentSchema.model_fields.items()}
    assert schema == {f.name.replace("_", "-") for f in fields(PermanentSpec)}


def test_every_non_default_permanent_key_round_trips_through_a_file() -> None:
    text = """\
name: x
about: ["506.4"]
why: every key of a permanent is written back
game:
  players: [Ann, Ben]
  permanents:
    Walker: {owner: Ann, controller: Ben, control-effect: false, tapped: true, kind: planeswalker, loyalty: 3}
    Bear: {owner: Ben, power: 2, toughness: 2, keywords: [trample], toxic: 1, can-block: 2}
    Siege: {owner: Ann, kind: battle, defense: 4, protector: Ben}
    Cmdr: {owner: Ann, commander: true, zone: command, power: 5, toughness: 5}
  commander: true
expect:
  controller(Walker): Ben
"""
    scenario = parse_scenario(text, "t.yaml")
    again = parse_scenario(dump_scenario(scenario), "t.yaml")
    assert again.game.permanents == scenario.game.permanents
    assert scenario.game.permanents["Bear"].can_block == 2


def test_every_general_event_class_is_registered_under_its_name() -> None:
    # why: an event family module declares classes; one left out of register_events could never be read.
    families = pkgutil.iter_modules(ev.__path__)
    modules = [importlib.import_module(f"{ev.__name__}.{info.name}") for info in families]
    declared = {
        cls
        for module in modules
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, ev.Event) and cls.NAME
    }
    assert declared
    assert all(EVENT_TYPES.get(cls.NAME) is cls for cls in declared)
