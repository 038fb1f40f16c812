"""Bad input as a value with a place: the command line turns it into one line and exit code 2.

>>> str(InputError("monarch.yaml", "unknown player 'Zed'", line=7, key="game.monarch"))
"monarch.yaml:7: game.monarch: unknown player 'Zed'"

Whatever the input held, the message stays one line and shows what is there:

>>> print(InputError("x.yaml", "unknown player 'Ann\\n1 passed'", key="monarch\\u202e"))
x.yaml: monarch\\u202e: unknown player 'Ann\\n1 passed'
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_controls(text: str) -> str:
    r"""``text`` with every control, format and line-separator character written as an escape (and the
    surrogates Python keeps for the bytes of a file name that is not UTF-8, so printing never fails).

    Printed names, keys and messages then stay on one line, and a terminal escape sequence, a
    right-to-left override or a zero-width space shows as what it is.

    >>> escape_controls("Ann\n\x1b[31mBen\u200b")
    'Ann\\n\\x1b[31mBen\\u200b'
    """
    if text.isprintable():  # the common case, fast (spaces count as printable, other separators don't)
        return text
    return "".join(_escape(c) if _hidden(c) else c for c in text)


def json_text(data: object, indent: int | None = None) -> str:
    r"""``data`` as JSON that keeps non-ASCII text readable but writes every control, format and
    line-separator character as a ``\u`` escape (``json`` itself escapes only those below U+0020).

    >>> print(json_text({"name": "Ann\u202e\u009b"}))
    {"name": "Ann\u202e\u009b"}
    """
    import json

    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if text.isprintable():
        return text
    # json.dumps escapes every character below U+0020 inside strings: a raw newline is indentation
    return "".join(json.dumps(c)[1:-1] if _hidden(c) and c != "\n" else c for c in text)


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs")  # Cs: bytes of a non-UTF-8 name


def _escape(char: str) -> str:
    code = ord(char)
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class InputError(Exception):
    """A user-facing error that names the file, and the line and key where there is one."""

    def __init__(
        self, path: str | Path | None, message: str, *, line: int | None = None, key: str | None = None
    ) -> None:
        self.path = str(path) if path is not None else None
        self.message = escape_controls(message.strip())  # always one line
        self.line = line
        self.key = key
        super().__init__(str(self))

    def __str__(self) -> str:
        place = escape_controls(self.path or "<input>")
        if self.line is not None:
            place += f":{self.line}"
        parts = [place]
        if self.key:
            parts.append(escape_controls(self.key))
        parts.append(self.message)
        return ": ".join(parts)
