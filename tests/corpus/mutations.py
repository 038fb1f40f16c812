"""Real releases turned into the shapes other published releases have (issue 10, item 3).

Each function takes the text of one of the five shared releases (``../shared/cr``, never committed) and
returns the bytes of the same release with one quirk that releases published between 2003 and 2026 carry:
the date line of the early years, the contents of 2009-2013, the publisher's typos, the markup of
2009-2015, and files damaged on the way (hard-wrapped, truncated). Lines are edited, never re-parsed by
the code under test: each mutation finds its target with plain string operations.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from rulesjudge.corpus.official import decode_release, split_lines


def release_lines(path: Path) -> list[str]:
    return split_lines(decode_release(path.read_bytes(), path.name))


def to_bytes(lines: list[str]) -> bytes:
    return "\r\n".join(lines).encode("utf-8")


def line_of(lines: list[str], prefix: str, occurrence: int = -1) -> int:
    """Index of the ``occurrence``-th line starting with ``prefix`` (the last one: the rules, not the
    contents)."""
    found = [i for i, line in enumerate(lines) if line.startswith(prefix)]
    assert found, prefix
    return found[occurrence]


def date_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith("These rules are effective as of"))


def current_as_of(lines: list[str]) -> bytes:
    """Up to mid-2009: "These rules are current as of <date>."."""
    out = list(lines)
    index = date_line(out)
    out[index] = out[index].replace("effective as of", "current as of")
    return to_bytes(out)


def date_without_period(lines: list[str]) -> bytes:
    """November 2023 and February 2024: the date line without its final period."""
    out = list(lines)
    index = date_line(out)
    out[index] = out[index].rstrip().removesuffix(".")
    return to_bytes(out)


def unreadable_date(lines: list[str]) -> tuple[bytes, int]:
    out = list(lines)
    index = date_line(out)
    out[index] = re.sub(r"as of \w+", "as of Juen", out[index])
    return to_bytes(out), index + 1


def entries_after_credits(lines: list[str]) -> bytes:
    """Mid-2009 to 2013: the contents go on after "Credits"."""
    out = list(lines)
    index = out.index("Credits")  # the first: the table of contents
    out[index + 1 : index + 1] = ["Customer Service Information", "", "Legal Notices"]
    return to_bytes(out)


def number_printed_twice(lines: list[str], first: str, second: str) -> tuple[bytes, int]:
    """Rule ``second`` printed with the number ``first`` (the publisher's typo); its 1-based line."""
    out = list(lines)
    index = line_of(out, f"{second}. ")
    out[index] = f"{first}. " + out[index][len(second) + 2 :]
    return to_bytes(out), index + 1


def subrule_under_wrong_rule(lines: list[str], number: str, printed: str) -> tuple[bytes, int]:
    """Subrule ``number`` printed as ``printed`` ("432.2b" inside rule 423.2); its 1-based line."""
    out = list(lines)
    index = line_of(out, f"{number} ")
    out[index] = printed + out[index][len(number) :]
    return to_bytes(out), index + 1


def example_example(lines: list[str], rule: str) -> bytes:
    """2014-2015: "Example:Example: ..." (here on the examples of ``rule``)."""
    out = list(lines)
    index = line_of(out, f"{rule}. ")
    following = next(i for i in range(index + 1, len(out)) if out[i].startswith("Example:"))
    out[following] = "Example:" + out[following]
    return to_bytes(out)


def italics(lines: list[str]) -> bytes:
    """2009-2014: the name of the game in italics markup, ``_Magic_``, in every rule."""
    body = line_of(lines, "1. Game Concepts")
    out = lines[:body] + [re.sub(r"\bMagic\b", "_Magic_", line) for line in lines[body:]]
    return to_bytes(out)


def hard_wrapped(lines: list[str], width: int = 76) -> tuple[bytes, int]:
    """Every paragraph wrapped at ``width`` characters; the 1-based line of the first broken sentence
    that starts in lower case."""
    out: list[str] = []
    for line in lines:
        out.extend(textwrap.wrap(line, width=width, break_long_words=False) or [line])
    first = next(i for i in range(1, len(out)) if out[i][:1].islower() and out[i - 1].strip())
    return to_bytes(out), first + 1


def truncated_in_glossary(lines: list[str], term: str = "Monarch") -> tuple[bytes, int]:
    """The file cut right after the glossary entry ``term`` (its term line and definition)."""
    index = max(i for i, line in enumerate(lines) if line == term)
    end = index + 2  # the term and its definition
    return to_bytes(lines[:end]), end
