"""The scenario file's schema: the shape of each mapping (pydantic models, strict, unknown keys refused),
what a loaded scenario becomes (:class:`Scenario`, :class:`Expectation`), and how a ``game:`` mapping
becomes the model's :class:`Setup`. A permanent's keys are :class:`PermanentSpec`'s fields
(tests/scenarios/model/test_contracts.py keeps :class:`PermanentSchema` the same).

>>> variant_key("Two-Headed Giant")
'two-headed-giant'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.model.events import (
    Event,
    EventArgError,
    parse_effect,
)
from rulesjudge.scenarios.model.questions import Question
from rulesjudge.scenarios.model.setup import (
    DEFAULT,
    IdentitySpec,
    Keyword,
    OptionsSpec,
    PermanentKind,
    PermanentSpec,
    Setup,
    TeamSpec,
    Zone,
)

Path_ = tuple[str | int, ...]
Fail = Callable[[Path_, str], InputError]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class PermanentSchema(_Strict):
    """A permanent: its owner, and its controller when another player controls it (by a control-changing
    effect unless ``control-effect: false``); what it is, for combat and the Commander rules."""

    owner: str
    controller: str | None = None
    tapped: bool = False
    control_effect: bool = Field(default=True, alias="control-effect")
    kind: PermanentKind = "creature"
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = Field(default=None, ge=0)
    defense: int | None = Field(default=None, ge=0)
    protector: str | None = None
    keywords: list[Keyword] = Field(default_factory=list)
    can_block: int = Field(default=1, ge=1, alias="can-block")  # an effect lets it block more (509.1a)
    toxic: int = Field(default=0, ge=0)
    commander: bool = False
    zone: Zone = "battlefield"

    @field_validator("kind", "zone", mode="before")
    @classmethod
    def _word_as_written(cls, value: object) -> object:
        """"Planeswalker", "Battlefield": a card type or zone as the rules capitalise it."""
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords_as_the_rules_spell_them(cls, value: object) -> object:
        """"first strike", "Double Strike": the rules write keywords with a space (702.7, 702.4)."""
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            return [variant_key(v) if isinstance(v, str) else v for v in value]
        return value


class OptionsSchema(_Strict):
    range: int | dict[str, int | None] | None = None
    attack: Literal["multiple", "left", "right", "adjacent"] | None = None
    deploy: bool | None = None


class TeamSchema(_Strict):
    members: list[str]
    emperor: str | None = None
    name: str | None = None


class IdentitySchema(_Strict):
    role: str
    card: str | None = None
    face: Literal["up", "down"] | None = None
    undercover: bool = False  # an Undercover restriction not met yet (702.187f)

    @field_validator("role", "face", mode="before")
    @classmethod
    def _in_any_case(cls, value: Any) -> Any:
        """As the rules write them: "Assassin" (907.5b), "face Up"."""
        return value.strip().lower() if isinstance(value, str) else value


def variant_key(text: str) -> str:
    """The format's name for a variant written as the rules title it: case, spaces, underscores and
    the full stop of "vs." don't matter ("Two-Headed Giant" -> two-headed-giant, "Team vs. Team" ->
    team-vs-team)."""
    words = re.split(r"[\s_-]+", text.strip().lower().replace(".", " "))
    key = "-".join(w for w in words if w)
    return {"edh": "commander"}.get(key, key)  # glossary: "EDH (Obsolete) An older name for ... Commander"


class GameSchema(_Strict):
    """The table before the first event (the ``game:`` block)."""

    variant: str = "free-for-all"
    players: list[str] | None = None

    @field_validator("variant", mode="after")
    @classmethod
    def _variant_as_the_rules_spell_it(cls, value: str) -> str:
        """Read a variant as the rules title it too: "Two-Headed Giant", "Team vs. Team", "Free for All"."""
        return variant_key(value)
    teams: list[list[str] | TeamSchema] | None = None
    options: OptionsSchema = Field(default_factory=OptionsSchema)
    active: str | list[str] | None = None  # a list: the active team, in Two-Headed Giant
    monarch: str | None = None
    initiative: str | None = None
    life: dict[str, int] = Field(default_factory=dict)
    poison: dict[str, int] = Field(default_factory=dict)
    library: dict[str, int] = Field(default_factory=dict)
    commander_damage: dict[str, dict[str, int]] = Field(default_factory=dict, alias="commander-damage")
    permanents: dict[str, PermanentSchema] = Field(default_factory=dict)
    identities: dict[str, str | IdentitySchema] = Field(default_factory=dict)
    commander: bool = False
    effects: list[Any] = Field(default_factory=list)
    turn_markers: list[str] | None = Field(default=None, alias="turn-markers")
    extra_turns: list[str] = Field(default_factory=list, alias="extra-turns")

    def _active_player(self, fail: Fail) -> str | None:
        """``active`` as one player. In Two-Headed Giant the active team may be listed, as the ``active``
        question answers it (805.4a: both its players are active players); its first player stands for it."""
        if not isinstance(self.active, list):
            return self.active
        teams = [set(t if isinstance(t, list) else t.members) for t in self.teams or ()]
        if self.variant != "two-headed-giant" or not teams:
            raise fail(("active",), "give one player (a list names the active team in Two-Headed Giant)")
        if not self.active or not any(set(self.active) <= team for team in teams):
            raise fail(("active",), f"[{', '.join(self.active)}] are not the players of one team (805.4a)")
        return self.active[0]

    def to_setup(self, fail: Fail) -> Setup:
        """The model's setup (effects are read here: their errors name ``game.effects[i]``)."""
        effects = []
        for i, raw in enumerate(self.effects):
            try:
                effects.append(parse_effect(raw))
            except EventArgError as error:
                raise fail(("effects", i, *key_parts(error.key)), error.message) from None
        options = self.options
        given = options.model_fields_set
        return Setup(
            players=tuple(self.players or ()),
            variant=self.variant,
            teams=tuple(
                TeamSpec(tuple(t)) if isinstance(t, list) else TeamSpec(tuple(t.members), t.name, t.emperor)
                for t in self.teams or ()
            ),
            options=OptionsSpec(
                options.range if "range" in given else DEFAULT, options.attack, options.deploy
            ),
            active=self._active_player(fail),
            monarch=self.monarch,
            initiative=self.initiative,
            life=self.life,
            poison=self.poison,
            library=self.library,
            commander_damage=self.commander_damage,
            permanents={
                n: PermanentSpec(
                    **p.model_dump(exclude={"control_effect", "keywords"}),
                    control_effect=p.control_effect,
                    keywords=tuple(p.keywords),
                )
                for n, p in self.permanents.items()
            },
            identities={
                p: IdentitySpec(i.strip().lower())  # a role as the rules write it: "Leader" (907.4a)
                if isinstance(i, str)
                else IdentitySpec(i.role, i.card, i.face, i.undercover)
                for p, i in self.identities.items()
            },
            commander=self.commander,
            effects=tuple(effects),
            turn_markers=tuple(self.turn_markers) if self.turn_markers is not None else None,
            extra_turns=tuple(self.extra_turns),
        )


class DocumentSchema(_Strict):
    name: str
    about: list[str] = Field(default_factory=list)
    why: str = ""
    game: GameSchema
    events: list[str | dict[str, Any]] = Field(default_factory=list)
    expect: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class Expectation:
    question: Question
    expected: Any
    key: str
    line: int | None = None


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: the table, the events in order, and the expected answers."""

    name: str
    game: Setup
    events: tuple[Event, ...] = ()
    expect: tuple[Expectation, ...] = ()
    about: tuple[str, ...] = ()
    why: str = ""
    path: str = "<input>"
    event_lines: tuple[int | None, ...] = field(default=())
    about_lines: tuple[int | None, ...] = field(default=())


def key_parts(key: str) -> Path_:
    """A dotted key as a path (``"[1].to"`` -> ``(1, "to")``), as an error names where it is.

    >>> key_parts("[1].to")
    (1, 'to')
    """
    parts: list[str | int] = []
    for piece in key.replace("[", ".[").split("."):
        if not piece:
            continue
        if piece.startswith("[") and piece.endswith("]") and piece[1:-1].isdigit():
            parts.append(int(piece[1:-1]))
        else:
            parts.append(piece)
    return tuple(parts)
