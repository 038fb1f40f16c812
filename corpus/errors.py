"""Bad input as a value with a place: the command line turns it into one line and exit code 2.

>>> str(InputError("monarch.yaml", "unknown player 'Zed'", line=7, key="game.monarch"))
"monarch.yaml:7: game.monarch: unknown player 'Zed'"
"""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """A user-facing error that names the file, and the line and key where there is one."""

    def __init__(
        self, path: str | Path | None, message: str, *, line: int | None = None, key: str | None = None
    ) -> None:
        self.path = str(path) if path is not None else None
        self.message = " ".join(message.split())  # always one line
        self.line = line
        self.key = key
        super().__init__(str(self))

    def __str__(self) -> str:
        place = self.path or "<input>"
        if self.line is not None:
            place += f":{self.line}"
        parts = [place]
        if self.key:
            parts.append(self.key)
        parts.append(self.message)
        return ": ".join(parts)
