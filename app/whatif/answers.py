"""The answer in one line, from the model's answers and the reading's headline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesjudge.app.whatif.plan import WhatIf


def answer_line(plan: WhatIf, values: Mapping[str, Any]) -> str:
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
    return _line(plan.headline, values)


def _line(spec: tuple[Any, ...], values: Mapping[str, Any]) -> str:
    """The answer line a headline spec says how to read (see :func:`answer_line`)."""
    if not spec:
        return ""
    kind = spec[0]
    if kind == "several":
        return "; ".join(f"{words}: {_line(part, values)}" for words, part in spec[1])
    if kind == "value":
        return format_value(values.get(spec[1]))
    if kind == "is":
        _, question, player, negate = spec
        holds = values.get(question) == player
        return _yes(holds != negate) + f" (the {question}: {format_value(values.get(question))})"
    if kind == "member":
        _, question, players, negate = spec
        found = values.get(question)
        members = set(found) if isinstance(found, (list, tuple, set, frozenset)) else {found}
        holds = all(p in members for p in players)
        return _yes(holds != negate) + f" ({question}: {format_value(found)})"
    if kind == "turn":
        active, nxt = values.get("active"), values.get("next-turn")
        now = format_value(active) if active else "nobody: the turn goes on with no active player"
        return f"now: {now}; next turn: {format_value(nxt)}"
    if kind == "after":
        order = list(values.get("turn-order") or [])
        player = spec[1]
        if values.get("active") == player and values.get("next-turn"):
            return format_value(values["next-turn"])
        if player not in order or len(order) < 2:
            return f"{player} is not in the turn order ({format_value(order)})"
        return order[(order.index(player) + 1) % len(order)]
    if kind == "winners":
        if not values.get("game-over"):
            return "nobody yet: the game goes on"
        if not values.get("winners"):
            return "nobody: the game is over without a winner"
        return format_value(values.get("winners"))
    if kind == "all-true":
        return _yes(all(values.get(q) is True for q in spec[1]))
    if kind == "targets":
        return format_value([t for a, t in spec[1] if values.get(f"can-attack({a}, {t})") is True])
    if kind == "attackers":
        return format_value([a for a, t in spec[1] if values.get(f"can-attack({a}, {t})") is True])
    if kind == "in-range":
        player, others = spec[1], spec[2]
        return format_value([o for o in others if values.get(f"in-range({player}, {o})") is True])
    if kind == "each":
        _, question, players = spec
        parts = [f"{p}: {format_value(values.get(f'{question}({p})'))}" for p in players]
        return parts[0].split(": ", 1)[1] if len(parts) == 1 else "; ".join(parts)
    if kind == "each-of":
        if len(spec[1]) == 1:
            return format_value(values.get(spec[1][0]))
        return "; ".join(f"{q}: {format_value(values.get(q))}" for q in spec[1])
    if kind == "positive":
        _, question, players = spec
        counts = [(p, values.get(f"{question}({p})")) for p in players]
        return format_value([f"{p} ({n})" for p, n in counts if isinstance(n, int) and n > 0])
    if kind == "role-holders":
        return _role_holders(values, spec[1], spec[2])
    if kind == "having":
        _, question, players, wanted = spec
        return format_value([p for p in players if values.get(f"{question}({p})") == wanted])
    return ""


def _role_holders(values: Mapping[str, Any], players: Sequence[str], role: str) -> str:
    """Treachery "who is the Leader": the players still in the game controlling that role's card (907.8a
    counts "players controlling a Leader identity"; The Metamorph's new card is theirs, 907.11b). A player who
    left controls none; ``role(X)`` gives their last one (907.12), named apart, or alone when nobody in the
    game has the role.

    >>> _role_holders({"role(Cat)": "leader", "role(Eve)": "leader", "in-game": ["Eve"]}, ["Cat", "Eve"],
    ...               "leader")
    'Eve (Cat, who left the game, had a Leader identity card last: 907.12)'
    """
    holders = [p for p in players if values.get(f"role({p})") == role]
    playing = set(values.get("in-game") or ())
    now = [p for p in holders if p in playing]
    gone = [p for p in holders if p not in playing]
    if not gone:
        return format_value(now)
    article = "an" if role == "assassin" else "a"
    left = (f"{format_value(gone)}, who left the game, had {article} {role.capitalize()} identity card last: "
            "907.12")
    return f"{format_value(now)} ({left})" if now else f"nobody in the game ({left})"


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
