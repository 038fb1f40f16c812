"""Continuous effects that begin and end (``add-effect``, ``end-effect``; 611)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesjudge.scenarios.model.events.base import Event, EventArgError, _key, _mapping, value_of
from rulesjudge.scenarios.model.setup import EFFECT_KINDS, RELATIVE, EffectSpec


def parse_effect(raw: Any, where: str = "") -> EffectSpec:
    """``{cant-lose: Ann, source: Angel}``, ``{cant-attack: Cat, controller: Ann, until: your-next-turn}``,
    ``{cant-lose: {controller-of: Angel}}`` (Platinum Angel's "You can't lose the game": whoever controls it).

    >>> parse_effect({"cant-win": {"opponents-of": "Persecutor"}})
    EffectSpec(kind='cant-win', players=(), source='Persecutor', controller=None, until=None, only=None, \
relative='opponents-of')
    """
    allowed = (*EFFECT_KINDS, "source", "controller", "until", "only", "hold")
    data = _mapping(raw, where, allowed, "{cant-lose | cant-win | cant-attack: PLAYERS, ...}")
    kinds = [k for k in EFFECT_KINDS if k in data]
    if len(kinds) != 1:
        raise EventArgError(where, f"name exactly one of {', '.join(EFFECT_KINDS)}")
    kind = kinds[0]
    source = value_of(_key(where, "source"), "permanent", data["source"]) if "source" in data else None
    relative = None
    if isinstance(data[kind], dict):  # {controller-of: Platinum Angel}: "you" on that permanent (109.5)
        inner = _mapping(data[kind], _key(where, kind), RELATIVE, "{controller-of | opponents-of: PERMANENT}")
        if len(inner) != 1:
            raise EventArgError(_key(where, kind), f"name one of {', '.join(RELATIVE)}")
        relative, raw_source = next(iter(inner.items()))
        named = value_of(_key(where, f"{kind}.{relative}"), "permanent", raw_source)
        if source is not None and source != named:
            raise EventArgError(_key(where, "source"), f"the effect's source is {named} ({relative})")
        source, players = named, ()
    else:
        players = value_of(_key(where, kind), "players", data[kind])
    controller = (
        value_of(_key(where, "controller"), "player", data["controller"]) if "controller" in data else None
    )
    until = (
        value_of(_key(where, "until"), "word", data["until"], ("your-next-turn",))
        if "until" in data
        else None
    )
    only = value_of(_key(where, "only"), "word", data["only"], ("life",)) if "only" in data else None
    if until is not None and controller is None:
        raise EventArgError(_key(where, "until"), "'until: your-next-turn' needs the effect's 'controller'")
    if relative is not None and (controller is not None or until is not None):
        raise EventArgError(
            _key(where, kind), f"'{relative}' names a static ability's players: no 'controller' or 'until'"
        )
    return EffectSpec(kind, players, source, controller, until, only, relative)


def effect_data(effect: EffectSpec) -> dict[str, Any]:
    if effect.relative is not None:
        data: dict[str, Any] = {effect.kind: {effect.relative: effect.source}}
        return {**data, **({"only": effect.only} if effect.only else {})}
    data = {effect.kind: effect.players[0] if len(effect.players) == 1 else list(effect.players)}
    for key in ("source", "controller", "until", "only"):
        if getattr(effect, key) is not None:
            data[key] = getattr(effect, key)
    return data


@dataclass(frozen=True, kw_only=True)
class AddEffect(Event):
    """A continuous effect begins (``{cant-lose: Ann}``, ``{cant-win: [Ben, Cat], source: Angel}``)."""

    NAME = "add-effect"
    effect: EffectSpec

    @classmethod
    def from_arg(cls, arg: Any) -> Event:
        hold = isinstance(arg, dict) and arg.get("hold") is True
        return cls(effect=parse_effect(arg), hold=hold)

    def to_arg(self) -> Any:
        return {**effect_data(self.effect), **({"hold": True} if self.hold else {})}

    def players_named(self) -> tuple[str, ...]:
        return (*self.effect.players, *((self.effect.controller,) if self.effect.controller else ()))

    def permanents_named(self) -> tuple[str, ...]:
        return (self.effect.source,) if self.effect.source else ()


@dataclass(frozen=True, kw_only=True)
class EndEffect(AddEffect):
    """A continuous effect in force ends (named as it was added)."""

    NAME = "end-effect"
