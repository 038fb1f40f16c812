"""How to read a reading's answers in one line: a small frozen class per shape of answer (the reading's
headline), each rendering itself from the model's answers (question text -> value).

>>> Is("monarch", "Ben", negate=False).line({"monarch": "Ben"})
'yes (the monarch: Ben)'
>>> Several((("who is the monarch", Value("monarch")), ("who wins", Winners()))).line(
...     {"monarch": "Cat", "game-over": False})
'who is the monarch: Cat; who wins: nobody yet: the game goes on'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesjudge.app.whatif.plan import WhatIf
from rulesjudge.scenarios.model.treachery_identities import LAST_IDENTITY

Values = Mapping[str, Any]


def can_attack(attacker: str, target: str) -> str:
    """The model's question whether ``attacker`` can attack ``target`` (written here once; the reader asks
    it, the answers and sentences read its value).

    >>> can_attack("Cat", "Eve")
    'can-attack(Cat, Eve)'
    """
    return f"can-attack({attacker}, {target})"


def answer_line(plan: WhatIf, values: Values) -> str:
    """The answer in one line, from the model's answers (``values``: question text -> value).

    >>> from rulesjudge.app.whatif import TableFacts, interpret
    >>> plan = interpret("can the monarch attack Dan", TableFacts.seated(["Ann", "Ben", "Cat", "Dan"]))
    Traceback (most recent call last):
    ...
    rulesjudge.app.whatif.plan.WhatIfError: nobody is the monarch at this table
    >>> plan = interpret("who can Ann attack", ["Ann", "Ben", "Cat"])
    >>> answer_line(plan, {"can-attack(Ann, Ben)": True, "can-attack(Ann, Cat)": False})
    'Ben'
    """
    return plan.headline.line(values) if plan.headline else ""


@dataclass(frozen=True)
class Headline:
    """How to read the answers in one line (a reading with none answers "what happens")."""

    def line(self, values: Values) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Value(Headline):
    """One question's value: "who is the monarch" -> "Cat"."""

    question: str

    def line(self, values: Values) -> str:
        return format_value(values.get(self.question))


@dataclass(frozen=True)
class Gone(Value):
    """Whether a permanent has left the battlefield ("is the Goblin gone"): yes when ``exists(X)`` is
    false."""

    def line(self, values: Values) -> str:
        return _yes(values.get(self.question) is False)


@dataclass(frozen=True)
class Is(Headline):
    """Whether a designation's holder is a player: "does Dan keep the initiative"."""

    question: str
    player: str
    negate: bool = False  # "does Dan lose it"

    def line(self, values: Values) -> str:
        holder = values.get(self.question)
        holds = holder == self.player
        return _yes(holds != self.negate) + f" (the {self.question}: {format_value(holder)})"


@dataclass(frozen=True)
class Member(Headline):
    """Whether players are among a question's players: "is Ben still in", "are Ann and Cat opponents"."""

    question: str
    players: tuple[str, ...]
    negate: bool = False

    def line(self, values: Values) -> str:
        found = values.get(self.question)
        members = set(found) if isinstance(found, (list, tuple, set, frozenset)) else {found}
        holds = all(p in members for p in self.players)
        return _yes(holds != self.negate) + f" ({self.question}: {format_value(found)})"


@dataclass(frozen=True)
class Turn(Headline):
    """Whose turn it is and who takes the next one."""

    def line(self, values: Values) -> str:
        active, nxt = values.get("active"), values.get("next-turn")
        now = format_value(active) if active else "nobody: the turn goes on with no active player"
        return f"now: {now}; next turn: {format_value(nxt)}"


@dataclass(frozen=True)
class After(Headline):
    """Who plays after a player: the next turn when they are active, else the next in the turn order."""

    player: str
    #: the turn groups when teams take their turns as one (805.4: Two-Headed Giant); () when each plays alone
    groups: tuple[tuple[str, ...], ...] = ()

    def line(self, values: Values) -> str:
        order = list(values.get("turn-order") or [])
        group = next((g for g in self.groups if self.player in g), None)
        if group is not None and self.player in order:
            # the next team in the turn order after the player's own (805.4: each team takes one turn)
            start = order.index(self.player)
            after = next((order[(start + i) % len(order)] for i in range(1, len(order) + 1)
                          if order[(start + i) % len(order)] not in group), None)
            following = next((g for g in self.groups if after in g), None)
            if following is not None:
                return format_value([p for p in order if p in following])
        active = values.get("active")
        # a team's shared turn (805.4a) is said as the list of its active players
        if (active == self.player or (isinstance(active, list) and self.player in active)) and \
                values.get("next-turn"):
            return format_value(values["next-turn"])
        if self.player not in order or len(order) < 2:
            return f"{self.player} is not in the turn order ({format_value(order)})"
        return str(order[(order.index(self.player) + 1) % len(order)])


@dataclass(frozen=True)
class Winners(Headline):
    """Who wins: nobody yet while the game goes on."""

    def line(self, values: Values) -> str:
        if not values.get("game-over"):
            return "nobody yet: the game goes on"
        if not values.get("winners"):
            return "nobody: the game is over without a winner"
        return format_value(values.get("winners"))


@dataclass(frozen=True)
class AllTrue(Headline):
    """Yes when every question is true: "can Ann and Ben attack Dan", "can Eve unveil"."""

    questions: tuple[str, ...]

    def line(self, values: Values) -> str:
        return _yes(all(values.get(q) is True for q in self.questions))


@dataclass(frozen=True)
class AllSay(Headline):
    """Whether several questions all have one value: "is the Leader's identity face up" (``face(Pat)``)."""

    questions: tuple[str, ...]
    value: str

    def line(self, values: Values) -> str:
        found = [values.get(q) for q in self.questions]
        return _yes(all(v == self.value for v in found)) + f" ({'; '.join(map(format_value, found))})"


@dataclass(frozen=True)
class Targets(Headline):
    """Whom the attackers can attack, of (attacker, target) pairs."""

    pairs: tuple[tuple[str, str], ...]

    def line(self, values: Values) -> str:
        return format_value([t for a, t in self.pairs if values.get(can_attack(a, t)) is True])


@dataclass(frozen=True)
class Attackers(Headline):
    """Who can attack the targets, of (attacker, target) pairs."""

    pairs: tuple[tuple[str, str], ...]

    def line(self, values: Values) -> str:
        return format_value([a for a, t in self.pairs if values.get(can_attack(a, t)) is True])


@dataclass(frozen=True)
class InRange(Headline):
    """The players within a player's range of influence."""

    player: str
    others: tuple[str, ...]

    def line(self, values: Values) -> str:
        return format_value([o for o in self.others if values.get(f"in-range({self.player}, {o})") is True])


@dataclass(frozen=True)
class Each(Headline):
    """``question(X)`` for each player: "Ann: 20; Ben: 18", or the value alone for one player."""

    question: str
    players: tuple[str, ...]

    def line(self, values: Values) -> str:
        parts = [f"{p}: {format_value(values.get(f'{self.question}({p})'))}" for p in self.players]
        return parts[0].split(": ", 1)[1] if len(parts) == 1 else "; ".join(parts)


@dataclass(frozen=True)
class EachOf(Headline):
    """Several questions' values, each named (one alone: its value)."""

    questions: tuple[str, ...]

    def line(self, values: Values) -> str:
        if len(self.questions) == 1:
            return format_value(values.get(self.questions[0]))
        return "; ".join(f"{q}: {format_value(values.get(q))}" for q in self.questions)


@dataclass(frozen=True)
class Positive(Headline):
    """The players for whom ``question(X)`` is a positive count: "who draws" -> "Ann (1)"."""

    question: str
    players: tuple[str, ...]

    def line(self, values: Values) -> str:
        counts = [(p, values.get(f"{self.question}({p})")) for p in self.players]
        return format_value([f"{p} ({n})" for p, n in counts if isinstance(n, int) and n > 0])


def role_holders(role: str) -> tuple[str, str]:
    """The model's two questions behind "who is the Leader" (written here once; the reader asks them, the
    answer line and the sentence read them): who in the game controls that role's card, who left with it.

    >>> role_holders("leader")
    ('role-holders(leader)', 'left-with-role(leader)')
    """
    return f"role-holders({role})", f"left-with-role({role})"


@dataclass(frozen=True)
class RoleHolders(Headline):
    """Treachery's "who is the Leader": the model's holders in the game (907.8a, 907.11b); the players who
    left with that last card (907.12) named apart, or alone when nobody in the game has the role.

    >>> RoleHolders("leader").line({"role-holders(leader)": ["Eve"], "left-with-role(leader)": ["Cat"]})
    'Eve (Cat, who left the game, had a Leader identity card last: 907.12)'
    """

    role: str

    def line(self, values: Values) -> str:
        now_q, gone_q = role_holders(self.role)
        now, gone = values.get(now_q) or [], values.get(gone_q) or []
        if not gone:
            return format_value(now)
        article = "an" if self.role == "assassin" else "a"
        card = f"{article} {self.role.capitalize()} identity card"
        left = f"{format_value(gone)}, who left the game, had {card} last: {LAST_IDENTITY.local}"
        return f"{format_value(now)} ({left})" if now else f"nobody in the game ({left})"


@dataclass(frozen=True)
class Several(Headline):
    """Two questions asked at once ("who has the monarch and the initiative"): each line, named."""

    parts: tuple[tuple[str, Headline | None], ...]

    def line(self, values: Values) -> str:
        return "; ".join(f"{words}: {part.line(values) if part else ''}" for words, part in self.parts)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def format_value(value: Any) -> str:
    """A model's answer in words (the answer line's, the pages' and the ruling's: one formatter).

    >>> format_value(None), format_value(True), format_value(["Ben", "Cat"]), format_value([])
    ('nobody / none', 'yes', 'Ben, Cat', 'nobody')
    >>> format_value({"Cat", "Ann"})
    'Ann, Cat'
    """
    if value is None:
        return "nobody / none"
    if isinstance(value, bool):
        return _yes(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        return ", ".join(format_value(v) for v in items) if items else "nobody"
    return str(value)
