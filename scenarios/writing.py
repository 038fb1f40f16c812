"""Writing a scenario back in the file format: the shortest data that reads back to the same scenario
(:func:`dump_scenario`, :func:`setup_to_data`); ``tests/scenarios/model/test_format.py`` round-trips the
library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import yaml

from rulesjudge.scenarios.model.events import (
    effect_data,
    event_to_yaml,
)
from rulesjudge.scenarios.model.setup import (
    DEFAULT,
    PermanentSpec,
    Setup,
)
from rulesjudge.scenarios.schema import Scenario


def setup_to_data(setup: Setup) -> dict[str, Any]:
    """The setup as the ``game:`` mapping of a file (what :func:`setup_from_data` reads back)."""
    data: dict[str, Any] = {}
    if setup.variant != "free-for-all":
        data["variant"] = setup.variant
    if setup.players:
        data["players"] = list(setup.players)
    if setup.teams:
        data["teams"] = [
            list(t.members)
            if t.name is None and t.emperor is None
            else {
                "members": list(t.members),
                **({"name": t.name} if t.name else {}),
                **({"emperor": t.emperor} if t.emperor else {}),
            }
            for t in setup.teams
        ]
    options: dict[str, Any] = {}
    reach = setup.options.range
    if isinstance(reach, Mapping):
        options["range"] = dict(reach)
    elif reach != DEFAULT:
        options["range"] = reach
    for key in ("attack", "deploy"):
        if getattr(setup.options, key) is not None:
            options[key] = getattr(setup.options, key)
    if options:
        data["options"] = options
    for key in ("active", "monarch", "initiative"):
        if getattr(setup, key) is not None:
            data[key] = getattr(setup, key)
    for key in ("life", "poison", "library"):
        if getattr(setup, key):
            data[key] = dict(getattr(setup, key))
    if setup.commander_damage:
        data["commander-damage"] = {p: dict(d) for p, d in setup.commander_damage.items()}
    if setup.permanents:
        data["permanents"] = {name: _permanent_data(p) for name, p in setup.permanents.items()}
    if setup.identities:
        data["identities"] = {
            p: i.role
            if (i.card, i.face, i.undercover) == (None, None, False)
            else {
                k: v
                for k, v in (
                    ("role", i.role),
                    ("card", i.card),
                    ("face", i.face),
                    ("undercover", i.undercover),
                )
                if v not in (None, False)
            }
            for p, i in setup.identities.items()
        }
    if setup.commander:
        data["commander"] = True
    if setup.effects:
        data["effects"] = [effect_data(e) for e in setup.effects]
    if setup.turn_markers is not None:
        data["turn-markers"] = list(setup.turn_markers)
    if setup.extra_turns:
        data["extra-turns"] = list(setup.extra_turns)
    return data


def _permanent_data(perm: PermanentSpec) -> dict[str, Any]:
    """A permanent's keys in the file's shape: its owner, then every field the setup's one field table
    (:class:`PermanentSpec`) declares where it differs from the default, in that order."""
    defaults = PermanentSpec(owner=perm.owner)
    data: dict[str, Any] = {}
    for f in fields(PermanentSpec):
        value = getattr(perm, f.name)
        if f.name == "owner" or value != getattr(defaults, f.name):
            data[f.name.replace("_", "-")] = list(value) if isinstance(value, tuple) else value
    return data


def scenario_to_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the file format's shape."""
    data: dict[str, Any] = {"name": scenario.name}
    if scenario.about:
        data["about"] = list(scenario.about)
    if scenario.why:
        data["why"] = scenario.why
    data["game"] = setup_to_data(scenario.game)
    data["events"] = [event_to_yaml(e) for e in scenario.events]
    data["expect"] = {e.key: e.expected for e in scenario.expect}
    return data


def dump_scenario(scenario: Scenario) -> str:
    """The scenario as a YAML document that :func:`parse_scenario` reads back to the same scenario."""
    return yaml.safe_dump(scenario_to_data(scenario), sort_keys=False, allow_unicode=True, width=100)
