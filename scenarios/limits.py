"""The limits of a scenario, checked where a scenario enters (a file, an upload, the app's table).

Each is far above any real table and keeps the work of one scenario small, so that one file can never
hold the command line or the app's server. ``docs/limits.md`` lists them with the other limits.

>>> check_counts({"game": {"players": [f"P{i}" for i in range(65)]}}, "big.yaml", {("game", "players"): 2})
Traceback (most recent call last):
rulesjudge.common.errors.InputError: big.yaml:2: game.players: 65 players: a scenario seats at most 64
"""

from __future__ import annotations

from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.safe_yaml import MAX_DEPTH, MAX_NUMBER_CHARS, MAX_VALUES

__all__ = ["MAX_DEPTH", "MAX_NUMBER_CHARS", "MAX_VALUES"]  # the YAML reader's limits, listed here too

MAX_CHARS = 64 * 1024  # a scenario file is about 1 KB; the largest in the library is 1.3 KB

MAX_PLAYERS = 64  # the largest table in the library seats 16 (Grand Melee); 64 is already rare
MAX_EVENTS = 500  # the library's longest scenario has 6 events
MAX_QUESTIONS = 200  # expected answers (the `expect:` keys), or questions asked in the app
MAX_PERMANENTS = 256

TIME_BUDGET_SECONDS = 5.0  # the app stops an evaluation after this long (the worst table within the
# limits above takes about 0.5 s on one core: tests/reliability's worst case, measured in docs/limits.md)


def check_counts(data: Any, path: str, lines: dict[tuple[str | int, ...], int]) -> None:
    """Refuse a document with more players, events, questions or permanents than the limits allow.

    Runs on the data as read, before the schema is checked, so an oversized list costs nothing more.
    """
    if not isinstance(data, dict):
        return
    game = data.get("game")
    game = game if isinstance(game, dict) else {}
    players = game.get("players")
    teams = game.get("teams")
    seated = len(players) if isinstance(players, list) else 0
    if isinstance(teams, list):
        members = [t.get("members") if isinstance(t, dict) else t for t in teams]
        seated = max(seated, sum(len(m) for m in members if isinstance(m, list)))
    key = "players" if isinstance(players, list) else "teams"
    for where, count, limit, what, verb in (
        (("game", key), seated, MAX_PLAYERS, "players", "seats"),
        (("game", "permanents"), _size(game.get("permanents")), MAX_PERMANENTS, "permanents", "lists"),
        (("events",), _size(data.get("events")), MAX_EVENTS, "events", "plays"),
        (("expect",), _size(data.get("expect")), MAX_QUESTIONS, "questions", "asks"),
    ):
        if count > limit:
            dotted = ".".join(str(part) for part in where)
            raise InputError(path, f"{count} {what}: a scenario {verb} at most {limit}",
                             line=lines.get(where), key=dotted)


def _size(value: Any) -> int:
    return len(value) if isinstance(value, list | dict) else 0
