"""Line classification of an official release: line ends, double spacing, hard wrapping, the date
line, and the patterns that tell a chapter, section, rule, subrule, example or glossary line apart.

Each pattern accepts the typos real releases print (see :mod:`corpus.official`).
"""

from __future__ import annotations

import itertools
import re
from datetime import datetime

# "These rules are effective as of June 7, 2024." -- or "current as of" (to mid-2009), or without the period;
# worded otherwise by a release to come: "These rules are effective June 7, 2024.", "These rules take effect
# on ...", "Effective as of ...". Anything else ("Updated ...": not the date the rules apply from) is no
# date line.
DATE_PHRASE = re.compile(r"(?:These rules (?:are|become) (?:effective|current)|These rules take effect|"
                         r"^Effective)(?: as of| from| on)?\b:?", re.MULTILINE)
DATE_LINE = re.compile(DATE_PHRASE.pattern + r"\s*(?P<date>.*?)\s*$", re.MULTILINE)
#: The date as a release may print it: "June 7, 2024" (also "June 7th, 2024", "Jun. 7, 2024", "June 7 2024"),
#: "7 June 2024" or "2024-06-07"; the final period is optional.
_DATE_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%d %B %Y", "%d %b %Y", "%Y-%m-%d")
_ORDINAL = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b")
_LEADING_DATE = re.compile(r"^(?:[A-Z][a-z]+ \d{1,2},? \d{4}|\d{1,2} [A-Z][a-z]+ \d{4}|"
                           r"\d{4}-\d{2}-\d{2})(?!\d)")
CHAPTER = re.compile(r"^(?P<number>[1-9])\.\s+(?P<title>\S.*)$")
SECTION = re.compile(r"^(?P<number>\d{3})\.\s+(?P<title>\D.*)$")
# "100.1. text", and the typos "606.5 text" (no period) and "901.4.All" (no space).
RULE = re.compile(r"^(?P<number>\d{3}\.\d+)(?:\.\s*|\s+)(?P<text>\S.*)$")
# "100.1a text", and the typo "119.1d. text" (a period).
SUBRULE = re.compile(r"^(?P<number>\d{3}\.\d+[a-z]{1,2})\.?\s+(?P<text>\S.*)$")
EXAMPLE = re.compile(r"^Example:")
_EXAMPLE_MARK = re.compile(r"Example:\s*")
OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$")
#: A glossary line that is a definition, never a term: a numbered sense, a "See" line, a sentence.
DEFINITION = re.compile(r"^(?:\d+\.\s|See\s)|\.$")
SEE_ONLY = re.compile(r"^See (?P<target>.+?)\.?$")

#: Lines starting in lower case right after a non-empty line: a sentence broken by a hard wrap. Real
#: releases have none (an indented paragraph continues a rule after a blank line); a few could be chance.
HARD_WRAPPED_LINES = 10


def split_lines(text: str) -> list[str]:
    r"""Lines of a release whatever its line ends: CRLF, LF, CR alone, or ``\r\r\n`` as one line end.

    ``\r\r\n`` is one line end when every line ends that way (no lone CR elsewhere); in a CR-only file
    it is a line end followed by an empty line.

    >>> split_lines("a\r\r\nb\r\r\n\r\r\nc")
    ['a', 'b', '', 'c']
    >>> split_lines("a\r\rb\r\r\nc")
    ['a', '', 'b', '', 'c']
    """
    if "\r\r\n" in text and not re.search(r"\r(?!\r?\n)", text):
        text = text.replace("\r\r\n", "\n")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def double_spaced(lines: list[str]) -> bool:
    r"""Is there a blank line after every line? The 2026-04-17 file's ``\r\r\n`` re-saved by an editor
    that reads CR as a line end gives ``\r\n\r\n``. A release always has lines that follow each other
    (the contents, a glossary term and its definition), so none at all means doubled line ends.

    >>> double_spaced(["a", "", "b", "", "", "", "c", ""] * 40), double_spaced(["a", "b", "", "c", ""] * 40)
    (True, False)
    """
    text = [bool(line.strip()) for line in lines]
    return sum(text) >= 100 and not any(a and b for a, b in itertools.pairwise(text))


def single_spaced(numbered: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Numbered lines of a double-spaced file as the file meant them: each run of ``2k + 1`` blank lines
    is ``k`` (one line end became two); the numbers stay the file's.

    >>> single_spaced(list(enumerate(["a", "", "b", "", "", "", "c"], start=1)))
    [(1, 'a'), (3, 'b'), (5, ''), (7, 'c')]
    """
    out: list[tuple[int, str]] = []
    blanks: list[tuple[int, str]] = []
    for number, line in numbered:
        if not line.strip():
            blanks.append((number, line))
            continue
        out.extend(blanks[1::2][: (len(blanks) - 1) // 2])
        blanks = []
        out.append((number, line))
    return out + blanks[: len(blanks) // 2]


def split_examples(line: str) -> list[str]:
    """An example line, split at every "Example:" marker (2014-2015 print "Example:Example: ...").

    >>> split_examples("Example:Example: A card reads ...")
    ['Example: A card reads ...']
    >>> split_examples("Example: One.Example: Two.")
    ['Example: One.', 'Example: Two.']
    """
    parts = [part.strip() for part in _EXAMPLE_MARK.split(line)]
    return [f"Example: {part}" for part in parts if part]


def hard_wrapped_line(lines: list[str]) -> int | None:
    """The first line (1-based) of a hard-wrapped file: a line starting in lower case right after a
    non-empty line (a sentence broken in two), when the file has :data:`HARD_WRAPPED_LINES` of them.

    >>> hard_wrapped_line(["100.1. These Magic rules apply to any game with two", "or more players."] * 10)
    2
    """
    found = [index + 1 for index in range(1, len(lines))
             if lines[index][:1].islower() and lines[index - 1].strip()]
    return found[0] if len(found) >= HARD_WRAPPED_LINES else None


def read_date(text: str) -> str | None:
    """The ISO date a date line prints, in any of :data:`_DATE_FORMATS`; None when it is none of them.

    >>> read_date("June 7th, 2024."), read_date("7 June 2024"), read_date("2024-06-07")
    ('2024-06-07', '2024-06-07', '2024-06-07')
    >>> read_date("June 7, 2024, and replace the rules of April 12, 2024."), read_date("Juen 7, 2024") is None
    ('2024-06-07', True)
    """
    plain = _ORDINAL.sub("", text.strip().removesuffix(".")).replace(".", "")
    leading = _LEADING_DATE.match(plain)  # "June 7, 2024, and replace ...": the date the line begins with
    for candidate in (plain, leading[0] if leading else ""):
        for form in _DATE_FORMATS:
            try:
                return datetime.strptime(candidate, form).date().isoformat()
            except ValueError:
                continue
    return None


def section_of(number: str) -> str:
    return number.split(".", 1)[0]


def rule_of(number: str) -> str:
    """The rule a subrule's number names.

    >>> rule_of("722.4a"), rule_of("722.41")
    ('722.4', '722.41')
    """
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")
