"""The table: seats, who is still in the game, turn order, the active player and the next turn.

The state is one frozen dataclass, :class:`TableState`; every change makes a new one
(``dataclasses.replace``). Seats are listed clockwise, and turn order goes to the players' left, which
is the next seat in the list (101.4: "the next player in turn order (usually the player seated to the
active player's left)").

>>> state = TableState(seats=("Ann", "Ben", "Cat"), turn_player="Ann")
>>> state.active, state.in_game
('Ann', ('Ann', 'Ben', 'Cat'))
>>> turn_order(state)
('Ann', 'Ben', 'Cat')
>>> next_in_turn_order(state, "Cat")
'Ann'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.steps import Step

EMPTY: Mapping[str, Any] = MappingProxyType({})


def frozen_map(items: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> Mapping[str, Any]:
    """A read-only mapping (the state never changes in place)."""
    return MappingProxyType(dict(items))


@dataclass(frozen=True)
class Permanent:
    """A permanent on the battlefield (or the place it went when it stopped being one).

    ``controller`` is who controls it by default (the player under whose control it entered);
    ``control_effects`` are players given control by control-changing effects, oldest first
    (the latest one wins, 613 layer 2).
    """

    name: str
    owner: str
    controller: str
    control_effects: tuple[str, ...] = ()
    tapped: bool = False
    zone: str = "battlefield"  # battlefield | exile | left-the-game
    since: int = 0  # the turn its current controller got control (0: before the scenario started)

    @property
    def current_controller(self) -> str:
        return self.control_effects[-1] if self.control_effects else self.controller

    @property
    def on_battlefield(self) -> bool:
        return self.zone == "battlefield"


@dataclass(frozen=True)
class Trigger:
    """A triggered ability waiting on the stack. Its controller is fixed when it triggers (113.8, 725.2)."""

    kind: str
    controller: str
    player: str  # the player it acts for ("its controller becomes the monarch", "that player draws")
    text: str
    cites: tuple[Cite, ...] = ()
    data: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Team:
    """A team: its name, its members in seat order, and its leading player (an emperor) if any."""

    name: str
    members: tuple[str, ...]
    leader: str | None = None


@dataclass(frozen=True)
class Identity:
    """A Treachery identity: role (leader, guardian, assassin, traitor), card name and face."""

    role: str
    card: str | None = None
    face: str = "up"  # up | down
    undercover: bool = False  # an Undercover restriction not met yet (702.187f)


@dataclass(frozen=True)
class Options:
    """Multiplayer options (800.2): range of influence (801), attack options (802/803), deploy (804).

    ``range`` is everyone's range of influence (None: unlimited); ``ranges`` overrides it per player.
    """

    range: int | None = None
    ranges: Mapping[str, int | None] = field(default_factory=lambda: EMPTY)
    attack: str = "multiple"  # multiple | left | right | adjacent
    deploy: bool = False

    def range_of(self, player: str) -> int | None:
        return self.ranges.get(player, self.range)


@dataclass(frozen=True)
class TableState:
    """Everything the model knows about a table at one moment."""

    seats: tuple[str, ...]
    turn_player: str | None = None  # whose turn it is, even after they left (800.4j)
    variant: str = "free-for-all"
    options: Options = field(default_factory=Options)
    teams: tuple[Team, ...] = ()
    identities: Mapping[str, Identity] = field(default_factory=lambda: EMPTY)
    commander: bool = False
    turn: int = 1
    left: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # player -> lost/conceded/drew/won
    results: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # player -> won/lost/drew
    game_over: bool = False
    monarch: str | None = None
    had_monarch: bool = False  # has the game had a monarch (725.1: none until an effect makes one)
    initiative: str | None = None
    life: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # life pool -> total
    permanents: Mapping[str, Permanent] = field(default_factory=lambda: EMPTY)
    stack: tuple[Trigger, ...] = ()  # bottom first
    pending: tuple[Trigger, ...] = ()  # triggered, not yet put on the stack (603.3)
    draws: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    ventures: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    became_monarch: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    influence: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)  # 801.2c snapshot
    turn_seats: tuple[str, ...] = ()  # the players in the game as this turn began
    extra: Mapping[str, Any] = field(default_factory=lambda: EMPTY)  # variant data

    @property
    def in_game(self) -> tuple[str, ...]:
        """Players still in the game, in seat order."""
        return tuple(p for p in self.seats if p not in self.left)

    @property
    def active(self) -> str | None:
        """The active player, or None when the player whose turn it is has left (800.4j)."""
        if self.turn_player is None or self.turn_player in self.left:
            return None
        return self.turn_player

    def is_in(self, player: str) -> bool:
        return player in self.seats and player not in self.left

    def with_(self, **changes: Any) -> TableState:
        return replace(self, **changes)


def seat_index(state: TableState, player: str) -> int:
    return state.seats.index(player)


def next_in_turn_order(state: TableState, after: str, skip: Iterable[str] = ()) -> str | None:
    """The next player in turn order after ``after`` (a seat, even one that left) who is still in the
    game and not in ``skip``; None when there is nobody."""
    skipped = set(skip)
    n = len(state.seats)
    start = seat_index(state, after)
    for k in range(1, n + 1):
        candidate = state.seats[(start + k) % n]
        if state.is_in(candidate) and candidate not in skipped:
            return candidate
    return None


def turn_order(state: TableState) -> tuple[str, ...]:
    """Players in the game in turn order from the active player, or from the next one when there is
    no active player (a player who left takes no turn, 800.4k)."""
    players = state.in_game
    if not players:
        return ()
    first = state.active
    if first is None:
        first = next_in_turn_order(state, state.turn_player) if state.turn_player else players[0]
    if first is None:
        return ()
    i = players.index(first)
    return players[i:] + players[:i]


def turn_order_steps(state: TableState) -> list[Step]:
    steps = [Step("Turn order goes to the players' left, clockwise around the table.", (cr("101.4"),))]
    if state.left:
        steps.append(
            Step(f"Players who left take no turns: {', '.join(sorted(state.left))}.", (cr("800.4k"),))
        )
    if state.active is None and state.turn_player is not None and not state.game_over:
        steps.append(
            Step(
                f"{state.turn_player} left during their own turn, so the turn goes on with no "
                "active player; turn order counts from the next player.",
                (cr("800.4j"),),
            )
        )
    return steps


def neighbour(
    state: TableState, player: str, direction: int, seats: tuple[str, ...] | None = None
) -> str | None:
    """The nearest player still in the game to ``player``'s left (+1) or right (-1), or None."""
    order = seats if seats is not None else state.in_game
    if player not in order or len(order) < 2:
        return None
    i = order.index(player)
    return order[(i + direction) % len(order)]


def seat_distance(seats: tuple[str, ...], a: str, b: str) -> int:
    """Seats between two players around the table, the shorter way (801.2: measured in player seats)."""
    i, j = seats.index(a), seats.index(b)
    d = abs(i - j)
    return min(d, len(seats) - d)
