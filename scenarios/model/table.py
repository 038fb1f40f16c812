"""The table: seats, who is still in the game, whose turn it is, and everything on it.

The state is one frozen dataclass, :class:`TableState`; every change makes a new one (``state.with_``).
Seats are listed clockwise, and turn order goes to the players' left, which is the next seat in the list
(101.4: "the next player in turn order (usually the player seated to the active player's left)").

Whose turn it is is a set, ``turn_players``: one player usually, a whole team under shared team turns
(805.4), every holder of a turn marker taking a turn in Grand Melee (807.4). The active players are those of
them still in the game (800.4j: a player who leaves during their turn leaves it without an active player).

>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben", "Cat"), variant=FreeForAll(), turn_players=("Ann",))
>>> state.active_players, state.in_game
(('Ann',), ('Ann', 'Ben', 'Cat'))
>>> turn_order(state)
('Ann', 'Ben', 'Cat')
>>> next_in_turn_order(state, "Cat")
'Ann'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.setup import EMPTY, EffectSpec, frozen

if TYPE_CHECKING:
    from rulesjudge.scenarios.model.variant import Variant

__all__ = ["EMPTY", "frozen"]


#: The steps of a turn an event can bring the table to, in the order a turn goes through them (500.1: the
#: beginning phase's upkeep, the combat phase, the ending phase's end step); "" is none yet.
STEPS = ("", "upkeep", "combat", "end-step")


def reached(current: str, step: str) -> bool:
    """Has a turn that reached ``current`` already had ``step``? Steps come in order and a step never comes
    round twice in a turn (500.1), so "the upkeep", asked in combat, is the next turn's.

    >>> reached("combat", "upkeep"), reached("upkeep", "end-step"), reached("", "upkeep")
    (True, False, False)
    """
    return current in STEPS and STEPS.index(current) >= STEPS.index(step)


@dataclass(frozen=True)
class Permanent:
    """A permanent (or the card it was, in another zone) and what combat and control did to it.

    ``controller`` is who controls it by default (the player under whose control it entered);
    ``control_effects`` are players given control by control-changing effects, oldest first (the latest
    one wins, 613 layer 2). ``attacking`` is what it attacks (a player, a planeswalker or a battle; ""
    for nothing any more, 506.4c); ``attacked`` what it was declared to attack (508.5, 802.2a), and
    ``defender`` the defending player that attack was against (the planeswalker's controller, the battle's
    protector, as declared: 508.5 reads them "before it was removed from combat").
    """

    name: str
    owner: str
    controller: str
    control_effects: tuple[str, ...] = ()
    tapped: bool = False
    zone: str = "battlefield"  # battlefield | command | graveyard | exile | hand | left-the-game
    since: int = 0  # the turn its current controller got control (0: before the scenario started)
    kind: str = "creature"
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    protector: str | None = None
    protector_choice: tuple[str, ...] = ()  # players its controller chooses a new protector among (704.5w/x)
    keywords: tuple[str, ...] = ()
    toxic: int = 0
    commander: bool = False
    attacking: str | None = None
    attacked: str | None = None
    defender: str | None = None
    struck_first: bool = False  # dealt combat damage in this combat's first-strike step (510.4)
    last_controller: str | None = None  # as it last existed on the battlefield (608.2h)
    casts: int = 0  # times cast from the command zone (903.8)
    moved: bool = False  # put into a graveyard or exile since the last state-based check (704.6d)
    to_command_zone: bool = True  # its owner moves it to the command zone when 903.9 allows
    moved_by: tuple[Cite, ...] = ()  # the rules that put it where it is, when not on the battlefield
    cast_transformed_by: str | None = None  # a Siege its trigger exiled: this player may cast it (310.11b)
    until_end_of_turn: tuple[str, ...] = ()  # players whose control effects on it end with the turn (514.2)
    keywords_this_turn: tuple[str, ...] = ()  # abilities an effect gave it until end of turn (514.2: haste)
    blocking: tuple[str, ...] = ()  # the attacking creatures it was declared to block (509.1g)
    blocked: bool = False  # an attacker with blockers declared for it stays blocked (509.1h)
    blocked_by: tuple[str, ...] = ()  # the creatures declared as its blockers, in the order declared
    can_block: int = 1  # how many attacking creatures it can block (an effect may allow more, 509.1a)
    damage: int = 0  # damage marked on it this turn (120.3e, 120.6)
    deathtouched: bool = False  # dealt damage by a deathtouch source since the last check (704.5h)

    @property
    def current_controller(self) -> str:
        return self.control_effects[-1] if self.control_effects else self.controller

    @property
    def on_battlefield(self) -> bool:
        return self.zone == "battlefield"

    @property
    def in_combat(self) -> bool:
        """An attacking or blocking creature (506.4 removes either from combat)."""
        return self.attacking is not None or bool(self.blocking)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords or keyword in self.keywords_this_turn


SPELL = "spell"
COMMANDER_SPELL = "commander-spell"


@dataclass(frozen=True)
class Trigger:
    """A triggered ability or a spell on the stack. Its controller is fixed when it triggers (113.8,
    725.2). ``serial`` tells apart two otherwise equal abilities; ``stack`` names the turn marker whose stack
    it is on in Grand Melee (807.5)."""

    kind: str
    controller: str
    player: str  # the player it acts for ("its controller becomes the monarch", "that player draws")
    text: str
    cites: tuple[Cite, ...] = ()
    creature: str | None = None  # the creature whose damage triggered it (608.2h reads it on resolution)
    serial: int = 0
    stack: str | None = None

    @property
    def is_spell(self) -> bool:
        """A spell (a card on the stack: a cast spell or a commander) rather than an ability."""
        return self.kind in (SPELL, COMMANDER_SPELL)


@dataclass(frozen=True)
class Team:
    """A team: its name, its members in seat order, and its leading player (an emperor) if any."""

    name: str
    members: tuple[str, ...]
    leader: str | None = None


@dataclass(frozen=True)
class Identity:
    """A Treachery identity card in the command zone: role, owner, card name, face and unveil state."""

    role: str
    owner: str
    card: str | None = None
    face: str = "down"  # up | down
    unveil: bool = True  # has an unveil ability (702.187); Leaders don't, by default
    undercover: bool = False  # an Undercover restriction not met yet (702.187f)
    seen: bool = False  # has been face up or revealed: players know its role


#: A continuous effect in force: the effect as the setup or an ``add-effect`` event states it, kept as it is
#: (one contract for both: :class:`~rulesjudge.scenarios.model.setup.EffectSpec`)
Effect = EffectSpec


@dataclass(frozen=True)
class Marker:
    """A Grand Melee turn marker (807.4): its number, its holder, whether the holder is taking a turn, and
    how many times it is designated for removal (807.4e)."""

    number: int
    holder: str
    taking_turn: bool = True
    designated: int = 0


@dataclass(frozen=True)
class Choice:
    """An answer the rules leave to a player (or a team): ``{chosen-by: X, one-of: [...]}``."""

    chosen_by: tuple[str, ...]
    one_of: tuple[str, ...]
    serials: tuple[int, ...] = ()  # the stack objects whose order makes the choice

    def as_data(self) -> dict[str, Any]:
        who: Any = self.chosen_by[0] if len(self.chosen_by) == 1 else list(self.chosen_by)
        return {"chosen-by": who, "one-of": list(self.one_of)}


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
    variant: Variant
    turn_players: tuple[str, ...] = ()  # whose turn it is, even after they left (800.4j)
    normal_turn: str | None = None  # whose normal turn began last: extra turns come after it (500.7)
    options: Options = field(default_factory=Options)
    teams: tuple[Team, ...] = ()
    commander: bool = False
    turn: int = 1
    left: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # player -> lost/conceded/drew/won
    results: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # player -> won/lost/drew
    result_rules: Mapping[str, tuple[Cite, ...]] = field(
        default_factory=lambda: EMPTY
    )  # the rules that decided
    game_over: bool = False
    starting: tuple[str, ...] = ()  # who could take the first turn, decided before it (103.1)
    monarch: str | None = None
    had_monarch: bool = False  # has the game had a monarch (725.1: none until an effect makes one)
    initiative: str | None = None
    choices: Mapping[str, Choice] = field(default_factory=lambda: EMPTY)  # monarch/initiative left open
    life: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # life pool -> total
    starting_life: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # life pool -> total at the start
    poison: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # poison pool -> counters
    commander_damage: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)
    drew_from_empty: tuple[str, ...] = ()  # since the last state-based check (704.5b)
    # cards left in each library; a player not listed has one the scenario doesn't count
    library: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    permanents: Mapping[str, Permanent] = field(default_factory=lambda: EMPTY)
    stack: tuple[Trigger, ...] = ()  # bottom first
    pending: tuple[Trigger, ...] = ()  # triggered, not yet put on the stack (603.3)
    serial: int = 0  # the last serial number given to a stack object
    priority: tuple[str, ...] | None = None  # who holds priority; None: as a step begins (117.3a)
    passed: tuple[str, ...] = ()  # players who passed in succession (117.4)
    effects: tuple[Effect, ...] = ()
    extra_turns: tuple[str, ...] = ()  # next first (500.7: the most recently created is taken first)
    markers: tuple[Marker, ...] = ()  # Grand Melee turn markers (807.4)
    draws: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    ventures: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    became_monarch: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    influence: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)  # 801.2c snapshot
    turn_seats: tuple[str, ...] = ()  # the players in the game as this turn began
    identities: Mapping[str, Identity] = field(default_factory=lambda: EMPTY)  # by controller
    departed: Mapping[str, Identity] = field(default_factory=lambda: EMPTY)  # last identity (907.12)
    identity_deck: tuple[str, ...] = ()  # the roles dealt (907.3)
    step: str = ""  # the furthest of STEPS this turn's events reached ("": none, the main phase it starts in)

    @property
    def in_game(self) -> tuple[str, ...]:
        """Players still in the game, in seat order."""
        return tuple(p for p in self.seats if p not in self.left)

    @property
    def active_players(self) -> tuple[str, ...]:
        """The active players (800.4j: none once the player whose turn it is left), in seat order."""
        if self.game_over:
            return ()
        return tuple(p for p in self.seats if p in self.turn_players and p not in self.left)

    @property
    def turn_player(self) -> str | None:
        """The first player whose turn it is (the seat turn order counts from), even if they left."""
        return self.turn_players[0] if self.turn_players else None

    def is_in(self, player: str) -> bool:
        return player in self.seats and player not in self.left

    def with_(self, **changes: Any) -> TableState:
        """A copy with ``changes`` (the fields are copied, not re-validated: ``dataclasses.replace`` would run
        ``__init__`` over every field, the main cost of a scenario)."""
        unknown = changes.keys() - _STATE_FIELDS
        if unknown:
            raise TypeError(f"TableState has no field {sorted(unknown)[0]!r}")
        new = object.__new__(TableState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def with_permanent(self, permanent: Permanent) -> TableState:
        permanents = dict(self.permanents)
        permanents[permanent.name] = permanent
        return self.with_(permanents=frozen(permanents))

    def with_spell(self, player: str, spell: str, stack: str | None = None) -> TableState:
        """The spell ``player`` casts put on top of the stack (601.2a), resolving by 608.2; ``stack``: the
        turn marker whose stack it goes on (Grand Melee, 807.5b)."""
        serial = self.serial + 1
        cast = Trigger(SPELL, player, player, f"{spell} (a spell {player} cast)", (cr("608.2"),),
                       serial=serial, stack=stack)
        return self.with_(stack=(*self.stack, cast), serial=serial)

    def count(self, name: str, player: str, by: int = 1) -> TableState:
        """Add ``by`` to a per-player tally (``draws``, ``ventures``, ``became_monarch``)."""
        tally = dict(getattr(self, name))
        tally[player] = tally.get(player, 0) + by
        return self.with_(**{name: frozen(tally)})


_STATE_FIELDS = frozenset(f.name for f in fields(TableState))


def next_in_turn_order(state: TableState, after: str, skip: Iterable[str] = ()) -> str | None:
    """The next player in turn order after ``after`` (a seat, even one that left) who is still in the
    game and not in ``skip``; None when there is nobody."""
    skipped = set(skip)
    n = len(state.seats)
    start = state.seats.index(after)
    for k in range(1, n + 1):
        candidate = state.seats[(start + k) % n]
        if state.is_in(candidate) and candidate not in skipped:
            return candidate
    return None


def turn_order(state: TableState) -> tuple[str, ...]:
    """Players in the game in turn order from the (first) active player, or from the next one when there
    is no active player (a player who left takes no turn, 800.4k)."""
    players = state.in_game
    if not players:
        return ()
    active = state.active_players
    first: str | None = active[0] if active else None
    if first is None:
        first = next_in_turn_order(state, state.turn_player) if state.turn_player else players[0]
    if first is None:
        return ()
    i = players.index(first)
    return players[i:] + players[:i]


def neighbour(
    state: TableState, player: str, direction: int, seats: tuple[str, ...] | None = None
) -> str | None:
    """The nearest player still in the game to ``player``'s left (+1) or right (-1), or None."""
    order = seats if seats is not None else state.in_game
    if player not in order or len(order) < 2:
        return None
    i = order.index(player)
    return order[(i + direction) % len(order)]


def seat_distance(seats: Sequence[str], a: str, b: str) -> int:
    """Seats between two players around the table, the shorter way (801.2: measured in player seats).

    >>> seat_distance(("A", "B", "C", "D", "E", "F"), "A", "F")
    1
    """
    i, j = seats.index(a), seats.index(b)
    d = abs(i - j)
    return min(d, len(seats) - d)


def plural(n: int, word: str) -> str:
    """``3 cards``, ``1 card``.

    >>> plural(1, "card"), plural(2, "seat")
    ('1 card', '2 seats')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"
