"""What a scenario means, checked against its table: the setup's players, teams, designations and objects
(:func:`check_setup`), each event's players and permanents (:func:`checked_event`), each question's
arguments (:func:`check_question`) and expected answer (:func:`check_answer`). Every failure is an
:class:`InputError` made by the caller's ``fail`` (which adds the file, line and key).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.model import VARIANTS
from rulesjudge.scenarios.model.events import (
    Attack,
    Block,
    CombatDamage,
    CombatDamageStep,
    Damage,
    Event,
    EventArgError,
    parse_event,
)
from rulesjudge.scenarios.model.questions import KINDS, QUESTIONS, Question, QuestionError, parse_question
from rulesjudge.scenarios.model.setup import (
    EffectSpec,
    Setup,
    did_you_mean,
)
from rulesjudge.scenarios.model.treachery import ROLES
from rulesjudge.scenarios.schema import Fail, Path_, key_parts


def check_setup(setup: Setup, fail: Fail) -> None:
    """Check a setup's players, names and objects, and the variant's own rules (``fail(where, message)``
    makes the error for a place under ``game``)."""
    seen: set[str] = set()
    for seat, name in enumerate(setup.players):
        if name in seen:  # named at its own line: the second time it is written
            raise fail(("players", seat), f"player '{name}' is seated twice")
        seen.add(name)
    team_members: list[str] = []
    for i, team in enumerate(setup.teams):
        if not team.members:
            raise fail(("teams", i), "a team needs at least one player")
        for name in team.members:
            if name in team_members:
                raise fail(("teams", i), f"player '{name}' is on two teams (or named twice)")
            team_members.append(name)
        if team.emperor is not None and team.emperor not in team.members:
            raise fail(
                ("teams", i, "emperor"), f"the emperor '{team.emperor}' is not among the team's members"
            )
    players = list(setup.seats)
    if setup.players and setup.teams and sorted(team_members) != sorted(players):
        extra = sorted(set(team_members) ^ set(players))
        raise fail(("teams",), f"the teams and the players don't match ({', '.join(extra)})")
    if len(players) < 2:
        raise fail(("players",), "a game needs at least two players")
    variant = VARIANTS[setup.variant]
    if setup.teams and not variant.allows_teams:
        raise fail(("teams",), f"{variant.title} players are not seated in teams")
    known = set(players)

    def player(where: Path_, value: str | None) -> None:
        if value is not None and value not in known:
            raise fail(where, unknown_player(str(value), players))

    for key in ("active", "monarch", "initiative"):
        player((key,), getattr(setup, key))
    for key in ("life", "poison", "library", "commander_damage"):
        for who in getattr(setup, key):
            player((key.replace("_", "-"), who), who)
    for who, count in setup.poison.items():
        if count < 0:
            raise fail(("poison", who), "poison counters are 0 or more")
    for who, count in setup.library.items():
        if count < 0:
            raise fail(("library", who), f"a library holds 0 or more cards, got {count}")
    commanders = {n for n, p in setup.permanents.items() if p.commander}
    for who, tally in setup.commander_damage.items():
        for name, amount in tally.items():
            if name not in commanders:
                raise fail(
                    ("commander-damage", who, name),
                    f"'{name}' is not a commander on the table (list it under "
                    "game.permanents with commander: true)",
                )
            if amount < 0:
                raise fail(("commander-damage", who, name), "commander damage is 0 or more")
    is_commander_game = setup.commander or variant.always_commander
    for name, perm in setup.permanents.items():
        for key in ("owner", "controller", "protector"):
            player(("permanents", name, key), getattr(perm, key))
        if perm.commander and not is_commander_game:
            raise fail(
                ("permanents", name, "commander"),
                "a commander needs a Commander game (variant: commander, or commander: true)",
            )
        if perm.kind == "battle" and perm.protector is None:
            raise fail(("permanents", name), "a battle needs its protector (310.8)")
        if perm.kind == "battle" and perm.protector == (perm.controller or perm.owner):
            raise fail(
                ("permanents", name, "protector"),
                "every battle is a Siege, protected by an opponent of its controller (310.11, 310.11a)",
            )
        if perm.kind == "planeswalker" and perm.loyalty is None:
            raise fail(("permanents", name), "a planeswalker needs its loyalty (306.5)")
    if setup.identities and not VARIANTS[setup.variant].has_identities:
        raise fail(("identities",), "identity cards are a Treachery variant's (variant: treachery)")
    for who, ident in setup.identities.items():
        player(("identities", who), who)
        if ident.role not in ROLES:
            raise fail(
                ("identities", who),
                f"unknown role '{ident.role}'{did_you_mean(ident.role, ROLES)} (roles: {', '.join(ROLES)})",
            )
    ranges = setup.options.range
    if isinstance(ranges, Mapping):
        for who, value in ranges.items():
            player(("options", "range", who), who)
            if value is not None and value < 0:
                raise fail(("options", "range", who), "a range of influence is 0 or more")
    elif isinstance(ranges, int) and ranges < 0:
        raise fail(("options", "range"), "a range of influence is 0 or more")
    for i, effect in enumerate(setup.effects):
        _check_effect(effect, ("effects", i), player, setup, fail)
    if setup.turn_markers is not None:
        if setup.variant != "grand-melee":
            raise fail(("turn-markers",), "turn markers are a Grand Melee variant's (variant: grand-melee)")
        for who in setup.turn_markers:
            player(("turn-markers",), who)
        if len(set(setup.turn_markers)) != len(setup.turn_markers):
            raise fail(("turn-markers",), "a player holds two turn markers")
    for who in setup.extra_turns:
        player(("extra-turns",), who)
    for problem in variant.validate_setup(setup):
        raise fail(problem.path, problem.message)


def _check_effect(
    effect: EffectSpec, where: Path_, player: Callable[[Path_, str | None], None], setup: Setup, fail: Fail
) -> None:
    for who in effect.players:
        player((*where, effect.kind), who)
    player((*where, "controller"), effect.controller)
    if effect.source is not None and effect.source not in setup.permanents:
        raise fail((*where, "source"), f"unknown permanent '{effect.source}' (list it under game.permanents)")


def checked_event(name: str, arg: Any, setup: Setup, fail: Fail) -> Event:
    """One event read from a file (or the app), its players and permanents checked against the table."""
    try:
        event = parse_event(name, arg)
    except EventArgError as error:
        raise fail(key_parts(error.key), error.message) from None
    _check_variant_event(event, name, setup, fail)
    players = list(setup.seats)
    for who in event.players_named():
        if who not in players:
            raise fail((), unknown_player(who, players))
    if isinstance(event, Block):
        _check_block(event, setup, fail)
    for perm in event.permanents_named():
        if perm not in setup.permanents:
            raise fail((), f"unknown permanent '{perm}' (list it under game.permanents)")
    if isinstance(event, Attack):
        for target in event.targets():
            if target not in players and target not in setup.permanents:
                raise fail(("creatures",), f"'{target}' is neither a player nor a permanent on the table")
    if isinstance(event, Damage):
        hit = setup.permanents.get(event.to)
        if event.to not in players and hit is None:
            raise fail(("to",), f"'{event.to}' is neither a player nor a permanent on the table")
        if hit is not None and hit.kind not in ("planeswalker", "battle", "creature"):
            raise fail(
                ("to",),
                f"{event.to} is {_a(hit.kind)}: damage goes to a player, a creature, a planeswalker or a "
                "battle",
            )
    if isinstance(event, CombatDamageStep):
        for who in event.recipients():
            if who not in players and who not in setup.permanents:
                raise fail(("assign",), f"'{who}' is neither a player nor a permanent on the table")
    if isinstance(event, Attack | CombatDamage):
        needing = (
            [c for c, _ in event.creatures]
            if isinstance(event, Attack)
            else [h.creature for h in event.hits if h.creature is not None and h.amount is None]
        )
        for creature in needing:
            if creature is not None and setup.permanents[creature].power is None:
                raise fail(
                    ("creatures",) if isinstance(event, Attack) else (),
                    f"{creature} has no power: give game.permanents.{creature}.power",
                )
    return event


def _check_block(event: Block, setup: Setup, fail: Fail) -> None:
    """509.1a / 506.3: a blocker is a creature, and it blocks attacking creatures - never a player."""
    for blocker, attackers in event.pairs:
        for name in (blocker, *attackers):
            if name in setup.seats:
                raise fail((blocker,), f"{name} is a player: a creature blocks an attacking creature, "
                                       "never a player (509.1a, 506.3)")
            if name not in setup.permanents:
                raise fail((blocker,), f"unknown permanent '{name}' (list it under game.permanents)")
        kind = setup.permanents[blocker].kind
        if kind != "creature":
            raise fail((blocker,), f"{blocker} is {_a(kind)}: only a creature can block (506.3)")
        for attacker in attackers:
            if setup.permanents[attacker].kind != "creature":
                kind = setup.permanents[attacker].kind
                raise fail((blocker,), f"{attacker} is {_a(kind)}: a blocker blocks an attacking creature "
                                       "(509.1a)")


def _a(word: str) -> str:
    """"an artifact", "a creature"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def unknown_player(name: str, players: Sequence[str]) -> str:
    """The message for a name not at the table; names are case-sensitive, so 'ann' points to 'Ann'."""
    same = [p for p in players if p.casefold() == name.casefold()]
    hint = f" - did you mean '{same[0]}'?" if same else did_you_mean(name, players)
    return f"unknown player '{name}'{hint} (players: {', '.join(players)})"


def _check_variant_event(event: Event, name: str, setup: Setup, fail: Fail) -> None:
    """An event only one variant knows (unveil: Treachery's identity cards) is bad input in another game, as
    identity cards outside Treachery are - not an event the model silently does nothing with."""
    owners = [v for v in VARIANTS.values() if type(event) in v.events]
    game = VARIANTS[setup.variant]
    if owners and game not in owners:
        raise fail((), f"'{name}' is an event of {' and '.join(v.title for v in owners)} games; this game is "
                        f"{game.title}")


def check_answer(
    kind: str, value: Any, players: list[str], permanents: list[str], fail: Callable[[str], InputError]
) -> Any:
    """An expected answer of ``kind`` (a key of :data:`scenarios.model.questions.KINDS`), checked."""

    def player(v: Any) -> str:
        if not isinstance(v, str):
            raise fail(f"expected a player's name, got {v!r}")
        if v not in players:
            raise fail(unknown_player(str(v), players))
        return v

    def player_list(v: Any, repeats: bool = False) -> list[str]:
        if not isinstance(v, list):
            raise fail(f"expected a list of players, got {v!r}")
        names = [player(x) for x in v]
        if not repeats and len(set(names)) != len(names):
            raise fail("a player is listed twice")
        return names

    if kind == "player?":
        return None if value is None else player(value)
    if kind in ("players", "order", "sequence"):
        return player_list(value, repeats=kind == "sequence")
    if kind == "one-or-many":
        return player_list(value) if isinstance(value, list) else (None if value is None else player(value))
    if kind == "choice":
        if isinstance(value, dict):
            if set(value) != {"chosen-by", "one-of"}:
                raise fail("a choice is {chosen-by: PLAYER or [PLAYERS], one-of: [PLAYERS]}")
            chooser = value["chosen-by"]
            return {
                "chosen-by": player_list(chooser) if isinstance(chooser, list) else player(chooser),
                "one-of": player_list(value["one-of"]),
            }
        return None if value is None else player(value)
    if kind == "names":
        if not isinstance(value, list) or not all(isinstance(v, str) and v in permanents for v in value):
            raise fail(f"expected a list of permanents on the table, got {value!r}")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise fail(f"expected true or false, got {value!r}")
        return value
    if kind in ("int", "int?"):
        if value is None and kind == "int?":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"expected a whole number{' or null' if kind == 'int?' else ''}, got {value!r}")
        return value
    if kind == "zone" and isinstance(value, dict):
        zones = value.get("one-of")
        if set(value) != {"chosen-by", "one-of"} or not isinstance(zones, list):
            raise fail("a choice is {chosen-by: PLAYER, one-of: [ZONES]}")
        if not all(isinstance(z, str) for z in zones):
            raise fail(f"expected a list of zones, got {zones!r}")
        chooser = value["chosen-by"]
        who = player_list(chooser) if isinstance(chooser, list) else player(chooser)
        return {"chosen-by": who, "one-of": zones}
    if kind in ("str?", "zone"):
        if value is not None and not isinstance(value, str):
            raise fail(f"expected a word or null, got {value!r}")
        return value
    raise fail(f"unknown answer kind {kind} (known: {', '.join(KINDS)})")  # pragma: no cover


def check_question(text: str, setup: Setup, fail: Callable[[str], InputError]) -> Question:
    """A question read from a file or the app, its arguments checked against the table."""
    try:
        asked = parse_question(text)
    except QuestionError as error:
        raise fail(str(error)) from None
    players = set(setup.seats)
    for kind, arg in zip(QUESTIONS[asked.name].args, asked.args, strict=True):
        if kind == "player" and arg not in players:
            raise fail(unknown_player(str(arg), setup.seats))
        if kind == "permanent" and arg not in setup.permanents:
            raise fail(f"unknown permanent '{arg}' (list it under game.permanents)")
        if kind == "name" and arg not in players and arg not in setup.permanents:
            raise fail(f"'{arg}' is neither a player nor a permanent on the table")
        if kind == "role" and arg.lower() not in ROLES:
            raise fail(f"'{arg}' is not an identity role (expected {', '.join(ROLES)})")
    return asked
