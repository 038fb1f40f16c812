"""Player names: one spelling per person, and nothing hidden in a name.

Names arrive in Unicode NFC (the YAML reader normalises every string), so ``Ann`` typed as one character
or as a letter plus a combining accent is one name. A name is refused when it holds a control character
(a newline would let a name print a fake line), a bidirectional control (U+202E turns ``Ann`` around on
screen), or no visible character at all; two names are refused when they differ only by invisible
characters or spaces (``Ann`` and ``Ann`` + a zero-width space would be two players the eye can't tell
apart: "monarch expected Ann, got Ann"), only by letter case (``Ann`` and ``ann``: "ANN concedes" would
pick one silently), or when they look the same across scripts: their confusable skeletons (Unicode
Technical Standard #39, from the confusables data of the ``confusable_homoglyphs`` package) are equal
(``Ann`` and ``Аnn`` with a Cyrillic А, ``Ian`` and ``lan``). ``Zoë`` and ``Zoe`` stay two names.

>>> name_problems(["Ann", "Ben"])
[]
>>> name_problems(["Ann", "Ann\\u200b"])
[(1, "'Ann\\\\u200b' differs from 'Ann' only by invisible characters or spaces")]
>>> name_problems(["\\u200b\\u2800", "B\\u202eob"])
[(0, 'a name needs a visible character'), (1, 'a name may not hold a bidirectional control (U+202E)')]
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Any

from rulesjudge.common.errors import escape_controls
from rulesjudge.scenarios.limits import MAX_PLAYERS

# Bidirectional controls (Unicode's Bidi_Control property): they reorder what is shown around them.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Shown as nothing but not "format" characters: Hangul fillers, the braille blank, the combining grapheme
# joiner, variation selectors (besides every character of category Cf: zero-width space, joiners, BOM ...).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u180b\u180c\u180d\u180e\u180f") | frozenset(
    chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))
)


def is_invisible(char: str) -> bool:
    """Is ``char`` shown as nothing at all (spaces aside)?

    >>> is_invisible("\\u200b"), is_invisible("a"), is_invisible(" ")
    (True, False, False)
    """
    return char in _INVISIBLE or unicodedata.category(char) == "Cf"


def skeleton(name: str) -> str:
    """What a reader sees of ``name``: NFC, invisible characters removed, spaces collapsed.

    >>> skeleton(" Ann\\u200b  Lee\\u00a0")
    'Ann Lee'
    """
    visible = "".join(c for c in unicodedata.normalize("NFC", name) if not is_invisible(c))
    return " ".join(visible.split())


def confusable_skeleton(name: str) -> str:
    """What ``name`` looks like whatever the script of each letter: each character replaced by the
    representative of its confusables class (UTS #39's skeleton, with the classes of the
    ``confusable_homoglyphs`` data), after :func:`skeleton`. Letter case is kept: ``Ann`` and ``ann``
    look different (and are refused apart, as a case-only difference).

    >>> confusable_skeleton("\\u0410nn") == confusable_skeleton("Ann")
    True
    >>> confusable_skeleton("Zo\\u00eb") == confusable_skeleton("Zoe")
    False
    """
    text = unicodedata.normalize("NFD", skeleton(name))
    return unicodedata.normalize("NFD", "".join(_representative(c) for c in text))


@functools.lru_cache(maxsize=8192)
def _representative(char: str) -> str:
    """The smallest character of ``char``'s class of single look-alike characters (its prototype)."""
    if _plain(char):  # most letters of most names: no work
        return char
    homoglyphs = _homoglyphs()
    seen, todo = {char}, [char]
    while todo:  # the class: look-alikes of look-alikes (the data lists each pair from one side)
        for other in homoglyphs.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return min(seen)


@functools.cache
def _homoglyphs() -> dict[str, frozenset[str]]:
    """Single character -> the single characters it can be confused with (both ways)."""
    from confusable_homoglyphs.confusables import confusables_data

    pairs: dict[str, set[str]] = {}
    for char, entries in confusables_data.items():
        for entry in entries:
            other = entry["c"].strip("\u200e\u200f")  # the data wraps right-to-left letters in marks
            if len(char) == 1 and len(other) == 1 and other != char:
                pairs.setdefault(char, set()).add(other)
                pairs.setdefault(other, set()).add(char)
    return {char: frozenset(others) for char, others in pairs.items()}


def name_problem(name: str) -> str | None:
    """Why ``name`` can't be a player's name, or None."""
    for char in name:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            return f"a name may not hold a control character or line break (U+{ord(char):04X})"
        if char in BIDI_CONTROLS:
            return f"a name may not hold a bidirectional control (U+{ord(char):04X})"
    if not name.strip():
        return "the name is empty"
    if not skeleton(name):
        return "a name needs a visible character"
    return None


def name_problems(names: list[str]) -> list[tuple[int, str]]:
    """Each name's problem, with its index: its own, or looking the same as an earlier, different name.

    The very same name twice is not reported here (the caller says "seated twice" or "on two teams").
    """
    problems: list[tuple[int, str]] = []
    seen: list[str] = []
    for i, name in enumerate(names):
        own = name_problem(name)
        if own:
            problems.append((i, own))
            continue
        clash = next(((earlier, how) for earlier in seen if (how := look_alike(name, earlier))), None)
        if clash is not None:
            problems.append((i, _CLASHES[clash[1]].format(escape_controls(name), escape_controls(clash[0]))))
        elif name not in seen:
            seen.append(name)
    return problems


_CLASHES = {
    "invisible": "'{}' differs from '{}' only by invisible characters or spaces",
    "case": "'{}' differs from '{}' only by letter case",
    "script": "'{}' looks like '{}' (letters of another script that look the same)",
}


def look_alike(name: str, other: str) -> str | None:
    """Why two different names can't be told apart ("invisible", "case" or "script"), or None.

    >>> look_alike("ann", "Ann"), look_alike("\\u0410nn", "Ann"), look_alike("Ben", "Ann")
    ('case', 'script', None)
    """
    if name == other:
        return None
    if skeleton(name) == skeleton(other):
        return "invisible"
    if skeleton(name).casefold() == skeleton(other).casefold():
        return "case"
    if not _could_look_alike(name, other):  # most pairs of a table: decided without the confusables data
        return None
    one, two = confusable_skeleton(name), confusable_skeleton(other)
    if one == two or one.casefold() == two.casefold():
        return "script"
    return None


def _could_look_alike(name: str, other: str) -> bool:
    """False when two names can't share a skeleton: of different lengths (each character maps to one), or
    differing where both hold a plain ASCII letter or digit (those are their own prototype, but for
    ``I l 1`` and ``O 0``). Saves loading the confusables data (0.1 s) for tables like Ann, Ben, Cal.

    >>> _could_look_alike("Cal", "Ben"), _could_look_alike("Ann", "\\u0410nn")
    (False, True)
    >>> _could_look_alike("Ian", "lan")
    True
    """
    one = unicodedata.normalize("NFD", skeleton(name))
    two = unicodedata.normalize("NFD", skeleton(other))
    if len(one) != len(two):
        return False
    return not any(a.lower() != b.lower() and _plain(a) and _plain(b) for a, b in zip(one, two, strict=True))


def _plain(char: str) -> bool:
    return char.isascii() and char.isalnum() and char not in "Il1O0"


def check_names(seats: list[str], game: Any, fail: Callable[[tuple[str | int, ...], str], Exception]) -> None:
    """Refuse a table of more than :data:`MAX_PLAYERS` seats or with a bad name (of a player, a team or a
    permanent); ``fail(where, message)`` makes the error for a place under ``game``."""
    key = "players" if game.players else "teams"
    if len(seats) > MAX_PLAYERS:
        raise fail((key,), f"{len(seats)} players: a scenario seats at most {MAX_PLAYERS}")
    for i, message in name_problems(seats):
        raise fail(_seat_place(game, i), message)
    permanents = list(game.permanents)
    for i, message in name_problems(permanents):
        raise fail(("permanents", permanents[i]), message)
    for permanent in permanents:  # "Ann" the creature and Ann the player: every event would be ambiguous
        player = next((seat for seat in seats if seat == permanent or look_alike(permanent, seat)), None)
        if player is not None:
            raise fail(("permanents", permanent), f"a permanent may not be named like the player "
                                                  f"'{escape_controls(player)}'")
    for i, team in enumerate(game.teams or []):
        problem = None if isinstance(team, list) or team.name is None else name_problem(team.name)
        if problem:
            raise fail(("teams", i, "name"), problem)


def _seat_place(game: Any, seat: int) -> tuple[str | int, ...]:
    """Where the ``seat``-th name is written: ``players[i]`` or ``teams[j]``'s members."""
    if game.players:
        return ("players", seat)
    for j, team in enumerate(game.teams or []):
        members = team if isinstance(team, list) else team.members
        if seat < len(members):
            return ("teams", j, seat) if isinstance(team, list) else ("teams", j, "members", seat)
        seat -= len(members)
    return ("teams",)
