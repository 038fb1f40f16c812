"""What a reading is made of: the table's facts (:class:`TableFacts`), the reading (:class:`WhatIf`), its
two parts (a question asked, events that happen) and the error a question can end in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the types only: the answer lines import the plan
    from rulesjudge.app.whatif.answers import Headline
    from rulesjudge.app.whatif.cards import CardLookup

MAX_QUESTION = 500

Event = dict[str, Any] | str

#: Questions asked when a judge asks "what happens": who is still in, the turn, the designations, the end.
WHAT_HAPPENS = ("in-game", "active", "monarch", "initiative", "game-over", "winners")


class WhatIfError(ValueError):
    """The question was understood but names something that is not at the table (one line, for the UI)."""


@dataclass(frozen=True)
class TableFacts:
    """What a question may refer to: the seats and who holds what, as the table stands before the what-if.

    Built by :func:`app.services.table_facts` from the model's answers; a plain list of names is enough
    for questions that only use names (:meth:`seated`).
    """

    players: tuple[str, ...]
    in_game: tuple[str, ...] | None = None  # None: everyone
    active: tuple[str, ...] = ()  # several in a shared team turn (Two-Headed Giant)
    turn_order: tuple[str, ...] = ()  # from the active player (from the next one when there is none)
    monarch: str | None = None
    initiative: str | None = None
    variant: str = "free-for-all"
    teams: Mapping[str, str] = field(default_factory=dict)  # player -> the variant's team name
    teammates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    emperors: tuple[str, ...] = ()
    roles: Mapping[str, str] = field(default_factory=dict)  # Treachery: player -> role (the judge's view)
    #: Treachery, the model's role-holders(R) and left-with-role(R): role -> the players in the game
    #: controlling that role's identity card, and the players who left whose last card it was (907.12)
    role_holders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    left_with_role: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    life: Mapping[str, int] = field(default_factory=dict)
    #: player -> the life total their life changes go to (one per Two-Headed Giant team, 810.9): an amount
    #: said of a team that shares one total is said of the total, once.
    pools: Mapping[str, str] = field(default_factory=dict)
    shared_turns: bool = False  # teams take turns and priority as one (805; Variant.turn_group)
    commanders: tuple[tuple[str, str], ...] = ()  # (commander permanent, owner) on the table (issue 13)
    objects: tuple[tuple[str, str, str], ...] = ()  # (name, kind, controller): planeswalkers, battles
    #: (name, controller) of the creatures on the battlefield: "the Ogre hits Dan", "who controls the Wolf"
    creatures: tuple[tuple[str, str], ...] = ()
    owners: Mapping[str, str] = field(default_factory=dict)  # permanent -> its owner ("the Goblin's owner")
    #: creatures with double strike (702.4): a one-line hit by one is one blow, not two damage steps
    double_strikers: tuple[str, ...] = ()
    over: bool = False  # the table's game has ended (104.1): no what-if event happens after that
    step: str = ""  # the model's step: how far the table's own events took this turn ("", "upkeep", ...)
    events: frozenset[str] = frozenset()  # event names the model knows (empty: the classic set)
    #: a card's name -> (name, type line, Oracle text), for cards a question names ("Noah Threatens the
    #: Dragon", :mod:`.cards`); None: no card snapshot, so no card's name is read as an effect
    cards: CardLookup | None = field(default=None, compare=False, repr=False)
    questions: frozenset[str] = frozenset()  # question names the model knows (empty: the classic set)
    #: the facts the question itself stated, in words (``app.situation`` takes them off the text it reads):
    #: what an elliptical count counts ("Kai has 6 poison counters. How many does Zoe have?")
    said: tuple[str, ...] = ()

    @classmethod
    def seated(cls, players: Sequence[str]) -> TableFacts:
        """A table known only by its seats (the first seat active)."""
        return cls(players=tuple(players), active=tuple(players[:1]), turn_order=tuple(players))

    @property
    def playing(self) -> tuple[str, ...]:
        return self.players if self.in_game is None else self.in_game

    def knows_event(self, name: str) -> bool:
        return not self.events or name in self.events

    def knows_question(self, name: str) -> bool:
        return not self.questions or name in self.questions


def _facts(table: TableFacts | Sequence[str]) -> TableFacts:
    return table if isinstance(table, TableFacts) else TableFacts.seated(list(table))


@dataclass(frozen=True)
class WhatIf:
    """A plain-English question as the model reads it.

    ``headline`` says how to read the answers in one line (:mod:`.answers`; None: "what happens").
    """

    kind: str
    summary: str  # the question restated, e.g. "If Ann leaves the game, who is the monarch?"
    events: tuple[Event, ...] = ()
    questions: tuple[str, ...] = ()
    players: tuple[str, ...] = field(default=())  # the players it is about (for the picture's arrows)
    headline: Headline | None = None


@dataclass(frozen=True)
class _Ask:
    kind: str
    words: str  # "who is the monarch"
    questions: tuple[str, ...]
    players: tuple[str, ...] = ()
    headline: Headline | None = None


@dataclass(frozen=True)
class _Happening:
    events: tuple[Event, ...]
    words: str  # "Ann concedes"
    players: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()  # questions worth adding to "what happens" (life after damage …)
    gone: tuple[str, ...] = ()  # players this takes out of the game
    # players whose totals this event guesses: an attack said without an amount deals 1 (any combat damage
    # moves a designation, 725.2, 726.2), which answers no question of their life or of who is still in
    guessed: tuple[str, ...] = ()
    # players whose own life total the event leaves unsaid (a drain's gain: "Cat drains Ben for 8"); their
    # life is not answered, who is in still is (a gain takes no one out)
    unsaid_life: tuple[str, ...] = ()
