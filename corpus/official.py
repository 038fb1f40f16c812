"""Reader for official Comprehensive Rules text releases: one explicit state machine.

A release is the plain-text file Wizards of the Coast publishes at Magic.Wizards.com/Rules. Its shape:

    Magic: The Gathering Comprehensive Rules        <- TITLE (preamble: date, introduction)
    These rules are effective as of June 7, 2024.
    Contents                                          <- CONTENTS (all section titles, Glossary, Credits)
    1. Game Concepts                                  <- RULES (the second occurrence of the headers)
    100. General / 100.1. text / 100.1a text / Example: text
    Glossary                                          <- GLOSSARY (term line, definition lines, blank line)
    Credits                                           <- CREDITS (ignored to the end)

Releases differ in encoding (UTF-8 with or without BOM, Windows-1252, UTF-16) and line ends (CRLF, CR
alone, or ``\\r\\r\\n`` used as one line end), so both are detected from the bytes and from sentinel text
("Comprehensive Rules", typographic quotes) rather than assumed. Real releases carry typos the patterns
accept: ``119.1d.`` (a subrule with a period), ``606.5 `` (a rule without one), ``901.4.All`` (no space).

Quirks of the releases published since 2003, each read as the publisher meant it:

- up to mid-2009 the date line reads "These rules are current as of <date>."; two releases (November
  2023, February 2024) print it without its final period;
- from mid-2009 to 2013 the contents list entries after "Credits" ("Customer Service Information"):
  everything the contents list is skipped until the first header appears a second time;
- a number printed twice, or a subrule printed under a rule of another section ("432.2b" in rule 423.2),
  keeps both records under ids that cannot collide (``722.4~2``, ``432.2b~in-423.2``) with one warning
  naming the line (:attr:`Release.warnings`);
- "Example:Example: ..." (2014-2015) is split at each marker, empty ones dropped;
- what a release to come may hold is read too: the date line worded otherwise ("These rules take effect
  on 7 June 2024"), subrules lettered past z (704.5aa), an example under a section heading (the
  section's), a blank line between the senses of a glossary entry, back matter the contents list after
  the Glossary ("Customer Service Information"), a section the contents list twice;
- a hard-wrapped file (lines broken inside sentences) or a truncated one is refused, the message saying
  so and naming the line; so are an excerpt (rules that do not begin with chapter 1, or that lack a
  section the contents list), a file without its Glossary or Credits, and a file whose characters a
  conversion lost or garbled ("player?s", "â€™"): each would read as an edition with rules or words it
  does not have;
- what users add when they save or copy a release is read as the publisher printed it: any encoding
  above, gzip compression, any line ends, trailing spaces and tabs, extra blank lines, a preface, the
  non-breaking spaces and soft hyphens of a copy from the PDF or the web page.

>>> release = parse_release(SAMPLE, source_name="sample.txt")
>>> release.effective, release.counts["rules"], release.counts["subrules"]
('2024-06-07', 3, 1)
>>> [r.id for r in release.records][3:7]
['cr@2024-06-07/7', 'cr@2024-06-07/722', 'cr@2024-06-07/722.1', 'cr@2024-06-07/722.1a']
"""

from __future__ import annotations

import codecs
import hashlib
import itertools
import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.inputs import read_file
from rulesjudge.corpus.records import (
    Provenance,
    Record,
    RecordKind,
    duplicate_local,
    make_id,
    misfiled_local,
    slugify,
)

DOCUMENT = "cr"
SENTINEL = "Comprehensive Rules"
TYPOGRAPHIC = ("\u2019", "\u201c", "\u201d")  # ’ “ ” : present in every real release

# UTF-32 first: its little-endian BOM begins with UTF-16's
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# "These rules are effective as of June 7, 2024." -- or "current as of" (to mid-2009), or without the period;
# worded otherwise by a release to come: "These rules are effective June 7, 2024.", "These rules take effect
# on ...", "Effective as of ...". Anything else ("Updated ...": not the date the rules apply from) is no
# date line.
_DATE_PHRASE = re.compile(r"(?:These rules (?:are|become) (?:effective|current)|These rules take effect|"
                          r"^Effective)(?: as of| from| on)?\b:?", re.MULTILINE)
_DATE_LINE = re.compile(_DATE_PHRASE.pattern + r"\s*(?P<date>.*?)\s*$", re.MULTILINE)
#: The date as a release may print it: "June 7, 2024" (also "June 7th, 2024", "Jun. 7, 2024", "June 7 2024"),
#: "7 June 2024" or "2024-06-07"; the final period is optional.
_DATE_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%d %B %Y", "%d %b %Y", "%Y-%m-%d")
_ORDINAL = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b")
_LEADING_DATE = re.compile(r"^(?:[A-Z][a-z]+ \d{1,2},? \d{4}|\d{1,2} [A-Z][a-z]+ \d{4}|"
                           r"\d{4}-\d{2}-\d{2})(?!\d)")
_CHAPTER = re.compile(r"^(?P<number>[1-9])\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?P<number>\d{3})\.\s+(?P<title>\D.*)$")
# "100.1. text", and the typos "606.5 text" (no period) and "901.4.All" (no space).
_RULE = re.compile(r"^(?P<number>\d{3}\.\d+)(?:\.\s*|\s+)(?P<text>\S.*)$")
# "100.1a text", and the typo "119.1d. text" (a period).
_SUBRULE = re.compile(r"^(?P<number>\d{3}\.\d+[a-z]{1,2})\.?\s+(?P<text>\S.*)$")
_EXAMPLE = re.compile(r"^Example:")
_EXAMPLE_MARK = re.compile(r"Example:\s*")
_OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$")
#: A glossary line that is a definition, never a term: a numbered sense, a "See" line, a sentence.
_DEFINITION = re.compile(r"^(?:\d+\.\s|See\s)|\.$")
_SEE_ONLY = re.compile(r"^See (?P<target>.+?)\.?$")

MAX_RELEASE_BYTES = 20_000_000  # a release is ~1 MB; anything far larger is not one (a regular file only)
#: Lines starting in lower case right after a non-empty line: a sentence broken by a hard wrap. Real
#: releases have none (an indented paragraph continues a rule after a blank line); a few could be chance.
HARD_WRAPPED_LINES = 10
#: A glossary entry is its term and a few lines of definition (5 at most in 2020-2026); far more means the
#: blank lines that separate the entries are gone, and the entries would run together (the margin is for
#: older releases' longer entries: a glossary run together is hundreds of lines).
GLOSSARY_ENTRY_LINES = 40


class State(Enum):
    """Where the reader is in the release."""

    TITLE = "title"  # title line, effective date, introduction
    CONTENTS = "contents"  # the table of contents: nothing is taken from it
    RULES = "rules"  # chapters, sections, rules, subrules, examples
    GLOSSARY = "glossary"  # term / definition blocks
    CREDITS = "credits"  # credits and legal text: ignored


@dataclass(frozen=True, slots=True)
class Release:
    """One parsed release: its effective date (also its edition), records in file order and counts."""

    effective: str
    source: str
    records: list[Record]
    counts: dict[str, int]
    sha256: str = ""
    #: The publisher's typos the reader worked around, one line each ("cr.txt:5860: rule 722.4 printed twice
    #: (first at line 5859): kept as cr@2009-10-01/722.4~2").
    warnings: tuple[str, ...] = ()
    #: How the file was read, a few words each: "gzip-compressed", "UTF-16 LE with BOM", "CR line ends",
    #: "212 no-break or narrow spaces read as spaces" (printed by ``corpus add``).
    read_as: tuple[str, ...] = ()

    @property
    def edition(self) -> str:
        return self.effective


@dataclass(slots=True)
class _Draft:
    """A record under construction (records themselves are frozen)."""

    local: str
    kind: RecordKind
    number: str | None
    title: str
    lines: list[str]
    line: int
    heading_path: tuple[str, ...]
    parent: str | None
    examples: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    obsolete: bool = False


# --------------------------------------------------------------------------- bytes -> lines


def decode_release(data: bytes, source: str) -> str:
    """The release's text, its encoding detected from BOM and sentinel text; a control character other
    than a line end, tab or form feed (a NUL byte, a terminal escape) means it is not a release.

    Characters a copy from the PDF or the web page adds and the publisher never prints are read as what
    they stand for (:func:`plain_spaces`): a non-breaking space is a space, a soft hyphen nothing.

    >>> decode_release("Comprehensive Rules \u2019".encode("cp1252"), "x.txt")
    'Comprehensive Rules \u2019'
    >>> decode_release("\\ufeffComprehensive Rules\\r\\n1\\x00".encode("utf-8"), "x.txt")
    Traceback (most recent call last):
    rulesjudge.corpus.errors.InputError: x.txt:2: control character U+0000: not a Comprehensive Rules release
    """
    return read_text(data, source)[0]


def read_text(data: bytes, source: str) -> tuple[str, tuple[str, ...]]:
    """The release's text (see :func:`decode_release`) and how it was read, in a few words each:
    compression, encoding, line ends, the characters a copy added.

    >>> read_text("Comprehensive Rules\\r\\n\\u00a0\\u2019".encode("utf-16"), "x.txt")[1]
    ('UTF-16 LE with BOM', 'CRLF line ends', '1 no-break or narrow space read as a space')
    """
    plain = unwrap(data, source)
    raw, encoding = _decode(plain, source)
    control = _CONTROL.search(raw)
    if control:
        raise InputError(source, f"control character U+{ord(control.group()):04X}: "
                                 "not a Comprehensive Rules release", line=_line_at(raw, control.start()))
    _refuse_mojibake(raw, source)
    notes = ["gzip-compressed"] if plain is not data else []
    notes += [encoding, line_ends(raw)]
    spaces, invisible = _count(raw, _ODD_SPACES), _count(raw, _INVISIBLE)
    if spaces:
        notes.append(f"{spaces} no-break or narrow space{'s' if spaces > 1 else ''} read as "
                     f"{'spaces' if spaces > 1 else 'a space'}")
    if invisible:
        notes.append(f"{invisible} soft hyphen{'s' if invisible > 1 else ''} or zero-width "
                     f"character{'s' if invisible > 1 else ''} dropped")
    spelled = _count(raw, "".join(_SPELLED))
    if spelled:
        notes.append(f"{spelled} ligature{'s' if spelled > 1 else ''} or non-breaking hyphen"
                     f"{'s' if spelled > 1 else ''} spelled out")
    return plain_spaces(raw), tuple(notes)


def line_ends(text: str) -> str:
    r"""The line ends of ``text`` in a few words (see :func:`split_lines`): the usual kind, and how many of
    any other.

    >>> line_ends("a\r\nb"), line_ends("a\r\r\nb"), line_ends("a\rb\rc\r\nd")
    ('CRLF line ends', 'CR CR LF line ends', 'CR line ends (and 1 CRLF)')
    """
    if "\r\r\n" in text and not re.search(r"\r(?!\r?\n)", text):
        return "CR CR LF line ends"
    crlf = text.count("\r\n")
    counts = {"CRLF": crlf, "CR": text.count("\r") - crlf, "LF": text.count("\n") - crlf}
    kinds = sorted((kind for kind in counts if counts[kind]), key=lambda kind: -counts[kind])
    if not kinds:
        return "a single line"
    others = ", ".join(f"{counts[kind]} {kind}" for kind in kinds[1:])
    return f"{kinds[0]} line ends" + (f" (and {others})" if others else "")


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")  # not \t \n \v \f \r, nor NEL
#: Spaces a copy from the PDF or the web page adds (no-break, narrow, figure, thin): a space each.
_ODD_SPACES = "\u00a0\u2007\u2009\u202f"
#: Soft hyphens, zero-width spaces and joiners, word joiners and stray byte-order marks: nothing each.
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
#: A copy from the PDF also keeps its typesetting: ligatures ("ﬁrst") and hyphens that do not break.
_SPELLED = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
            "\u2010": "-", "\u2011": "-"}
#: UTF-8 read as Windows-1252 and saved again: "’" becomes "â€™", "á" becomes "Ã¡".
_MOJIBAKE = re.compile(r"\u00e2\u20ac|[\u00c2\u00c3][\u00a0-\u00bf]")
#: A character an encoding could not hold, replaced by "?" (between two letters: "player?s") or by
#: U+FFFD. The five releases have none; a file with this many, and more of them than apostrophes left
#: between two letters, lost its apostrophes in a conversion (Latin-1, ASCII) and is refused; fewer, or a
#: file whose apostrophes are intact (a publisher's stray glitch), is read with a warning.
_LETTER = re.compile(r"[A-Za-z]")
_APOSTROPHE = re.compile(r"[A-Za-z]['\u2019][A-Za-z]")
LOST_CHARACTERS = 5
#: A file that is UTF-8, typographic quotes and all, but for at most this many bytes is a damaged UTF-8
#: file (a Windows-1252 one read as UTF-8 fails at each of its thousands of quotes).
DAMAGED_BYTES = 100

#: Formats a release is sometimes saved or downloaded as, by their first bytes: refused by name.
_OTHER_FORMATS = ((b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive (or a Word .docx document)"),
                  (b"{\\rtf", "an RTF document"), (b"\xd0\xcf\x11\xe0", "a Word .doc document"))


def unwrap(data: bytes, source: str) -> bytes:
    """The release's own bytes: a gzip-compressed file is decompressed (at most :data:`MAX_RELEASE_BYTES`);
    a PDF, Word document, ZIP archive or web page is refused by name (the release is its text file).

    >>> import gzip
    >>> unwrap(gzip.compress(b"Comprehensive Rules"), "cr.txt.gz")
    b'Comprehensive Rules'
    >>> unwrap(b"%PDF-1.7 ...", "cr.pdf")
    Traceback (most recent call last):
    rulesjudge.corpus.errors.InputError: cr.pdf: a PDF document, not the release's text file: download the \
TXT version from Magic.Wizards.com/Rules
    """
    if data[:2] == b"\x1f\x8b":
        return _gunzip(data, source)
    head = data[:1024].lstrip().lower()
    for magic, what in _OTHER_FORMATS:
        if data.startswith(magic):
            raise InputError(source, f"{what}, not the release's text file: download the TXT version from "
                                     "Magic.Wizards.com/Rules")
    if head.startswith((b"<!doctype html", b"<html")):
        raise InputError(source, "a web page (HTML), not the release's text file: download the TXT version "
                                 "from Magic.Wizards.com/Rules")
    return data


def _gunzip(data: bytes, source: str) -> bytes:
    import zlib

    inflate = zlib.decompressobj(wbits=31)  # gzip header and trailer
    try:
        plain = inflate.decompress(data, MAX_RELEASE_BYTES + 1)
        if len(plain) > MAX_RELEASE_BYTES:
            raise InputError(source, f"gzip-compressed, and more than {MAX_RELEASE_BYTES} bytes once "
                                     "decompressed: not a Comprehensive Rules release")
        if not inflate.eof:
            raise InputError(source, "gzip-compressed, and cut short: the compressed file is incomplete")
    except zlib.error as error:
        raise InputError(source, f"gzip-compressed, and damaged: {error}") from None
    if plain[:2] == b"\x1f\x8b":
        raise InputError(source, "gzip-compressed twice: decompress it once and add the result")
    return plain


def plain_spaces(text: str) -> str:
    """``text`` with the spaces a PDF or web copy adds as plain spaces, invisible marks removed, ligatures
    and non-breaking hyphens spelled out.

    >>> plain_spaces("100.1.\\u00a0These rules apply to any com\\u00adpeti\\u200btive game, \\ufb01rst")
    '100.1. These rules apply to any competitive game, first'
    """
    for char in _ODD_SPACES + _INVISIBLE + "".join(_SPELLED):  # str.replace: a fast scan when absent
        if char in text:
            text = text.replace(char, " " if char in _ODD_SPACES else _SPELLED.get(char, ""))
    return text


def _count(text: str, chars: str) -> int:
    return sum(text.count(char) for char in chars)


def lost_characters(text: str) -> tuple[int, int]:
    """How many characters a lossy conversion replaced ("player?s", U+FFFD), and the line of the first."""
    # str.find, not a regular expression: its look-behind scan cost 25 ms a release
    found = [i for i in _positions(text, "?")
             if i and _LETTER.match(text, i - 1) and _LETTER.match(text, i + 1) and not _in_address(text, i)]
    found = sorted(found + _positions(text, "\ufffd"))
    return len(found), _line_at(text, found[0]) if found else 0


def _in_address(text: str, index: int) -> bool:
    """Is ``text[index]`` inside a web address? Releases up to 2010 print their rules page as
    "www.wizards.com/default.asp?x=magic/rules": its "?" is the address's, not a lost character.

    >>> _in_address("see www.wizards.com/default.asp?x=magic/rules", 34), _in_address("the player?s turn", 10)
    (True, False)
    """
    start = max(text.rfind(" ", 0, index), text.rfind("\n", 0, index)) + 1
    word = text[start : index]
    return "/" in word or word.startswith("www.")


def _positions(text: str, char: str) -> list[int]:
    found, start = [], text.find(char)
    while start >= 0:
        found.append(start)
        start = text.find(char, start + 1)
    return found


def _line_at(text: str, index: int) -> int:
    return len(split_lines(text[: index + 1]))


def _refuse_mojibake(text: str, source: str) -> None:
    if "\u00e2\u20ac" not in text and "\u00c2" not in text and "\u00c3" not in text:
        return
    found = _MOJIBAKE.search(text)
    if found:
        shown = text[found.start() : found.end() + (found.group() == "\u00e2\u20ac")]  # "â€™", "Ã¡"
        raise InputError(source, f"garbled characters ({shown!r} where the "
                                 "release prints a quote or an accented letter): the file was read as "
                                 "Windows-1252 and saved again as UTF-8; use the release as published",
                         line=_line_at(text, found.start()))


_NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16 LE", "utf-16-be": "UTF-16 BE", "utf-32-le": "UTF-32 LE",
          "utf-32-be": "UTF-32 BE", "cp1252": "Windows-1252"}


def _decode(data: bytes, source: str) -> tuple[str, str]:
    """The text and the name of its encoding."""
    if not data.strip():
        raise InputError(source, "empty file: not a Comprehensive Rules release")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _strict(data[len(bom) :], encoding, source), f"{_NAMES[encoding]} with BOM"
    if data[:200].count(b"\x00") > 40:  # UTF-16 without a BOM: every other byte of ASCII text is zero
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        return _strict(data, encoding, source), _NAMES[encoding]
    if b"\x00" in data:
        raise InputError(source, "binary file (NUL bytes): not a Comprehensive Rules release")
    candidates: list[tuple[str, str]] = []
    damaged: UnicodeDecodeError | None = None
    for encoding in ("utf-8", "cp1252"):
        try:
            candidates.append((data.decode(encoding), _NAMES[encoding]))
        except UnicodeDecodeError as error:
            damaged = damaged or error
    windows = next((text for text, name in candidates if name == "Windows-1252"), None)
    looks_utf8 = windows is None or "\u00e2\u20ac" in windows  # "’" read as cp1252 is "â€™"
    if isinstance(damaged, UnicodeDecodeError) and damaged.encoding == "utf-8" and looks_utf8:
        lenient = data.decode("utf-8", errors="replace")
        if lenient.count("\ufffd") <= DAMAGED_BYTES and any(mark in lenient for mark in TYPOGRAPHIC):
            raise _damaged(data, "utf-8", damaged, source)  # UTF-8 throughout but for a few bytes
    # the title read through what a copy from the PDF adds ("Compre\u00adhensive")
    with_sentinel = [found for found in candidates if _has_sentinel(plain_spaces(found[0][:4000]))]
    # A UTF-8 file read as cp1252 still has the sentinel but shows "â€™" instead of "’": prefer real quotes.
    for found in with_sentinel:
        if any(mark in found[0] for mark in TYPOGRAPHIC):
            return found
    if with_sentinel:
        return with_sentinel[0]
    if candidates:
        raise InputError(source, f"unknown format: no {SENTINEL!r} title: not a Comprehensive Rules release")
    raise InputError(source, "undecodable bytes: not a Comprehensive Rules release")


def _has_sentinel(head: str) -> bool:
    """The title, or the date line when a copy starts below the title."""
    return SENTINEL in head or _DATE_PHRASE.search(head) is not None


def _strict(data: bytes, encoding: str, source: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise _damaged(data, encoding, error, source) from None


def _damaged(data: bytes, encoding: str, error: UnicodeDecodeError, source: str) -> InputError:
    """A file of ``encoding`` with bytes that are not: named by its line (a damaged copy)."""
    line = _line_at(data[: error.start].decode(encoding, errors="replace"), error.start)
    return InputError(source, f"not valid {_NAMES.get(encoding, encoding)} at byte {error.start}: "
                              "a damaged copy", line=line)


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


def _section_of(number: str) -> str:
    return number.split(".", 1)[0]


def _rule_of(number: str) -> str:
    """The rule a subrule's number names.

    >>> _rule_of("722.4a"), _rule_of("722.41")
    ('722.4', '722.41')
    """
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def looks_like_release(data: bytes) -> bool:
    """True when ``data`` parses as an official Comprehensive Rules release."""
    try:
        parse_release(data, source_name="<bytes>")
    except InputError:
        return False
    return True


# --------------------------------------------------------------------------- the state machine


class _Reader:
    """Feeds lines through the states; keeps the drafts and the current heading context."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.state = State.TITLE
        self.effective: str | None = None
        self.contents: set[str] = set()
        self.lists_chapters = False  # the contents list chapters: a chapter printed again starts the rules
        self.listed: dict[str, tuple[int, str]] = {}  # section numbers the contents list: line, title
        self.drafts: dict[str, _Draft] = {}
        self.chapter: _Draft | None = None
        self.section: _Draft | None = None
        self.rule: _Draft | None = None  # the last rule, for its subrules
        self.current: _Draft | None = None  # the last heading, rule or subrule: examples and paragraphs
        self.term: _Draft | None = None  # the glossary entry being read
        self.last_term: _Draft | None = None  # the last glossary entry, for a paragraph after a blank line
        self.back_matter: set[str] = set()  # what the contents list after the Glossary: not entries
        self.examples = 0
        self.last_line = 0
        self.last_text = 0  # the last line with text, for "truncated" messages
        self.preamble_end = 0  # the line where the title and introduction end
        self.after_credits = False  # the contents listed "Credits": anything more they list is skipped
        self.warnings: list[str] = []
        self.duplicated: set[str] = set()  # locals given a "~n" id: their subrules' repeats are the same typo

    def error(self, line: int, message: str) -> InputError:
        return InputError(self.source, message, line=line)

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(str(InputError(self.source, message, line=line)))

    def feed(self, number: int, raw: str) -> None:
        self.last_line = number
        line = raw.strip()
        if line:
            self.last_text = number
        if self.state is State.TITLE:
            self.in_title(number, line)
        elif self.state is State.CONTENTS:
            self.in_contents(number, line)
        elif self.state is State.RULES:
            self.in_rules(number, raw, line)
        elif self.state is State.GLOSSARY:
            self.in_glossary(number, line)
        elif line == "Contents":  # the credits give nothing (they repeat the date line), but a second
            # release's table of contents is not theirs
            raise self.error(number, "a second release begins after the Credits (its table of contents): one "
                                     "release per file, or all but the first would be left out")

    def in_title(self, number: int, line: str) -> None:
        self.read_date(number, line)
        if line == "Contents":
            self.preamble_end = number
            self.state = State.CONTENTS
        elif (heading := _CHAPTER.match(line) or _SECTION.match(line)) and not heading["title"].endswith("."):
            # a release without a table of contents (2006); "1. Read the basic rules first." is a numbered
            # list of the introduction, not the rules
            self.preamble_end = number
            self.state = State.RULES
            self.in_rules(number, line, line)

    def in_contents(self, number: int, line: str) -> None:
        if not line:
            return
        # The rules begin where a chapter the contents list is printed again (any entry, when they list
        # no chapter): a section the contents list twice is the publisher's slip, not the rules.
        if line in self.contents and (not self.lists_chapters or _CHAPTER.match(line)):
            self.state = State.RULES
            self.in_rules(number, line, line)
        elif self.after_credits:
            # 2009-2013 list more after "Credits" ("Customer Service Information"): skipped, until the
            # first chapter (also when the contents did not list it)
            if _CHAPTER.match(line) or _SECTION.match(line):
                self.state = State.RULES
                self.in_rules(number, line, line)
        elif line == "Credits":
            self.after_credits = True
        else:
            if "Glossary" in self.contents and not _SECTION.match(line) and not _CHAPTER.match(line):
                self.back_matter.add(line)
            self.contents.add(line)
            self.lists_chapters = self.lists_chapters or _CHAPTER.match(line) is not None
            if match := _SECTION.match(line):
                self.listed.setdefault(match["number"], (number, match["title"]))

    def read_date(self, number: int, line: str) -> None:
        match = _DATE_LINE.search(line)
        if match is None or self.effective is not None:
            return
        self.effective = read_date(match["date"])
        if self.effective is None:
            raise self.error(number, f"unreadable date {match['date']!r} (expected a date like "
                                     "'June 7, 2024')")

    def in_rules(self, number: int, raw: str, line: str) -> None:
        if not line:
            return
        if line == "Glossary":
            self.state = State.GLOSSARY
            return
        if line == "Credits":
            last = f" (after {self.current.number})" if self.current is not None else ""
            raise self.error(number, f"no Glossary: the Credits follow the rules{last}; a release has its "
                                     "Glossary between them (the file was cut, or the Glossary removed)")
        if self.effective is None:
            end = self.preamble_end or number
            raise self.error(end, f"no date line ('These rules are effective as of <date>.') in the title "
                                  f"and introduction (lines 1-{end})")
        if match := _SUBRULE.match(line):
            self.add_subrule(number, match["number"], match["text"])
        elif match := _RULE.match(line):
            self.add_rule(number, match["number"], match["text"])
        elif match := _SECTION.match(line):
            self.add_section(number, match["number"], match["title"])
        elif (match := _CHAPTER.match(line)) and self.is_chapter(match["number"], match["title"]):
            self.add_chapter(number, match["number"], match["title"])
        elif _EXAMPLE.match(line):
            if self.current is None:
                raise self.error(number, "an Example before any rule")
            examples = split_examples(line)
            self.current.examples.extend(examples)
            self.examples += len(examples)
        elif self.current is not None:
            # An indented continuation paragraph (205.4c, 509.1b) belongs to the rule above it.
            if self.current.examples:
                self.current.examples[-1] += "\n" + line
            else:
                self.current.lines.append(line)
        else:
            raise self.error(number, f"unexpected text before the first rule: {line[:60]!r}")

    def is_chapter(self, number: str, title: str) -> bool:
        """Is "N. title" a chapter heading, or an item of a numbered list in a rule ("2. The second
        step.")? A heading never ends in a period, and chapters only go up."""
        if self.chapter is None or self.current is None:
            return True
        return not title.endswith(".") and int(number) >= int(self.chapter.number or 0)

    def new(self, draft: _Draft) -> _Draft:
        """Keep ``draft``; a number printed twice gets the id ``<number>~2`` and one warning (its subrules,
        printed twice with it, are the same typo: no warning of their own)."""
        if draft.local in self.drafts:
            first = self.drafts[draft.local].line
            ordinal = 2
            while duplicate_local(draft.local, ordinal) in self.drafts:
                ordinal += 1
            draft.local = duplicate_local(draft.local, ordinal)
            self.duplicated.add(draft.local)
            if draft.parent not in self.duplicated:
                self.warn(draft.line, f"number {draft.number} printed twice (first at line {first}): "
                                      f"kept as {make_id(DOCUMENT, self.effective or '?', draft.local)}")
        self.drafts[draft.local] = draft
        return draft

    def add_chapter(self, line: int, number: str, title: str) -> None:
        if self.chapter is None and number != "1":
            raise self.error(line, f"the rules begin with chapter {number} ({number}. {title}), not "
                                   "chapter 1: an excerpt, not a whole release (as an edition of the rules, "
                                   "an excerpt would say that every rule it leaves out was removed)")
        self.chapter = self.new(_Draft(number, "section", number, title, [title], line, (), None))
        self.section = self.rule = None
        self.current = self.chapter  # an example or paragraph printed under the heading is the chapter's

    def add_section(self, line: int, number: str, title: str) -> None:
        if self.chapter is None or self.chapter.number != number[0]:
            raise self.error(line, f"section {number} outside its chapter {number[0]}")
        path = (f"{self.chapter.number}. {self.chapter.title}",)
        draft = _Draft(number, "section", number, title, [title], line, path, self.chapter.local)
        self.section = self.new(draft)
        self.rule = None
        self.current = self.section  # an example or paragraph printed under the heading is the section's

    def add_rule(self, line: int, number: str, text: str) -> None:
        section = self.require_section(line, number)
        path = (*section.heading_path, f"{section.number}. {section.title}")
        local = self.misfiled(line, number, section)
        self.rule = self.current = self.new(
            _Draft(local, "rule", number, section.title, [text], line, path, section.local)
        )

    def add_subrule(self, line: int, number: str, text: str) -> None:
        section = self.require_section(line, number)
        path = (*section.heading_path, f"{section.number}. {section.title}")
        rule = self.rule
        # The letters must follow the rule's own number: 722.4a under 722.4, not 722.41; a subrule of a
        # rule never printed (its rule misprinted as another number) stays under the rule printed before it.
        own = rule is not None and _rule_of(number) in (rule.number, rule.local)
        orphan = rule is not None and _rule_of(number) not in self.drafts and rule.local != rule.number
        if rule is not None and (own or orphan or _section_of(number) != section.number):
            parent = rule  # a subrule printed under a rule of another section ("432.2b" in 423.2) stays there
        else:
            parent = section
        local = self.misfiled(line, number, parent)
        draft = _Draft(local, "subrule", number, section.title, [text], line, path, parent.local)
        self.current = self.new(draft)

    def misfiled(self, line: int, number: str, parent: _Draft) -> str:
        """The local id of a rule printed in the section of another number: ``432.2b~in-423.2``."""
        if self.section is None or _section_of(number) == self.section.number:
            return number
        local = misfiled_local(number, parent.local)
        self.warn(line, f"{number} printed under {parent.number} (section {self.section.number}): kept as "
                        f"{make_id(DOCUMENT, self.effective or '?', local)}")
        return local

    def require_section(self, line: int, number: str) -> _Draft:
        if self.section is None:
            raise self.error(line, f"rule {number} before any section")
        return self.section

    def in_glossary(self, number: int, line: str) -> None:
        if not line:
            self.term = None
            return
        if line == "Credits":  # never a line of a definition: the glossary ends (a blank line missing or not)
            self.state = State.CREDITS
            return
        if self.term is None and line in self.back_matter:
            # what the contents list after the Glossary ("Customer Service Information") is no entry
            self.state = State.CREDITS
            return
        if self.term is None and _DEFINITION.search(line):
            # a blank line inside an entry ("1. ..." / "2. ..." senses, a "See rule" line): the paragraph
            # goes on the entry above (no real term starts with a number or "See", or ends in a period);
            # before the first entry, it introduces the glossary ("This glossary defines ...")
            if self.last_term is not None:
                self.term = self.last_term
                self.term.lines.append(line)
            return
        if self.term is None:
            title = _OBSOLETE.sub("", line)
            slug = slugify(title.replace("'", ""))  # "Isn't" as "Isn’t": one id whatever the apostrophe
            if not slug:
                raise self.error(number, f"unreadable glossary term {line!r}")
            parts = [part.strip(" \u201c\u201d\"") for part in title.split(",")]
            draft = _Draft(f"glossary/{slug}", "glossary", None, title, [], number, ("Glossary",), None)
            draft.obsolete = title != line
            draft.aliases = [part for part in parts if part and len(parts) > 1]
            if draft.local in self.drafts:
                raise self.error(number, f"duplicate glossary term {title!r}")
            self.term = self.last_term = self.new(draft)
        else:
            self.term.lines.append(line)
            if len(self.term.lines) > GLOSSARY_ENTRY_LINES:
                entry = self.term
                raise self.error(entry.line, f"the glossary entry {entry.title!r} runs on for more than "
                                             f"{GLOSSARY_ENTRY_LINES} lines: the blank lines between the "
                                             "entries are missing (a copy that dropped empty lines)")

    def finish(self) -> tuple[str, list[_Draft]]:
        end = self.last_text or self.last_line
        if self.effective is None:
            raise self.error(self.preamble_end or end, "not a Comprehensive Rules release: no date line "
                                                       "('These rules are effective as of <date>.')")
        has_rules = any(d.kind == "rule" for d in self.drafts.values())
        if self.state is State.CONTENTS:
            raise self.error(end, "truncated inside the table of contents: the file ends before the rules")
        if self.state is State.TITLE or not has_rules:
            raise self.error(end, "no rules found: not a complete Comprehensive Rules release")
        if self.state is State.RULES:
            last = f" (after {self.current.number})" if self.current is not None else ""
            raise self.error(end, f"truncated inside the rules{last}: the file ends before the Glossary")
        if self.state is State.GLOSSARY:
            entry = [d for d in self.drafts.values() if d.kind == "glossary"]
            last = f" (in or after the entry {entry[-1].title!r})" if entry else ""
            raise self.error(end, f"truncated inside the Glossary{last}: the file ends before the Credits "
                                  "(a release ends with its Credits: a copy without them can't be told from "
                                  "a cut one)")
        self.check_contents()
        return self.effective, list(self.drafts.values())

    def check_contents(self) -> None:
        """Every section the contents list is in the rules: one missing was cut out of this copy (a whole
        section of an edition must not read as removed from it). A listed number whose title the rules
        print under another number is the publisher's typo in the contents: a warning."""
        sections = [d for d in self.drafts.values() if d.kind == "section"]
        printed, titles = {d.number for d in sections}, {d.title for d in sections}
        missing = []
        for number, (line, title) in self.listed.items():
            if number in printed:
                continue
            if title in titles:
                self.warn(line, f"the contents list {title!r} as section {number}; the rules print it under "
                                "another number")
            else:
                missing.append(number)
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            line = self.listed[missing[0]][0]
            raise self.error(line, f"the contents list section {missing[0]}{more}, which the rules lack: a "
                                   "section was cut out of this copy")


# --------------------------------------------------------------------------- drafts -> records


def _glossary_aliases(drafts: list[_Draft]) -> None:
    """Aliases of glossary entries.

    "Control, Controller" covers two terms; "Active Player, Nonactive Player Order" is one term whose first
    part is another entry's title, so it is not split. An entry reading only "See X." ("APNAP Order") makes
    its term an alias of X.
    """
    by_title = {d.title.lower(): d for d in drafts if d.kind == "glossary"}
    for draft in drafts:
        if any(alias.lower() in by_title for alias in draft.aliases):
            draft.aliases = []
    for draft in drafts:
        if draft.kind == "glossary" and len(draft.lines) == 1:
            match = _SEE_ONLY.match(draft.lines[0])
            target = by_title.get(match["target"].lower()) if match else None
            if target is not None and draft.title not in target.aliases:
                target.aliases.append(draft.title)


def _records(effective: str, source: str, drafts: list[_Draft]) -> list[Record]:
    children: dict[str, list[str]] = {}
    for draft in drafts:
        if draft.parent is not None:
            parent = make_id(DOCUMENT, effective, draft.parent)
            children.setdefault(parent, []).append(make_id(DOCUMENT, effective, draft.local))
    records = []
    for draft in drafts:
        rid = make_id(DOCUMENT, effective, draft.local)
        records.append(
            Record(
                id=rid,
                document=DOCUMENT,
                edition=effective,
                kind=draft.kind,
                text="\n".join(draft.lines),
                number=draft.number,
                title=draft.title,
                heading_path=draft.heading_path,
                effective=effective,
                official=True,
                parent=make_id(DOCUMENT, effective, draft.parent) if draft.parent else None,
                children=tuple(children.get(rid, ())),
                examples=tuple(draft.examples),
                aliases=tuple(draft.aliases),
                obsolete=draft.obsolete,
                provenance=(Provenance(source=source, line=draft.line),),
            )
        )
    return records


def parse_release(path_or_bytes: str | Path | bytes, source_name: str | None = None) -> Release:
    """Parse one release (a path, or its bytes) into records; bad input raises :class:`InputError`."""
    if isinstance(path_or_bytes, bytes):
        data, source = path_or_bytes, source_name or "<bytes>"
    else:
        path = Path(path_or_bytes)
        source = source_name or path.name
        data = read_file(path, limit=MAX_RELEASE_BYTES, what="release file")
    text, read_as = read_text(data, source)
    lost, first_lost = lost_characters(text)
    if lost >= LOST_CHARACTERS and lost > len(_APOSTROPHE.findall(text)):
        raise InputError(source, f"{lost} characters lost in a conversion ('?' inside words, or U+FFFD): "
                                 "the file was saved in an encoding without the release's quotes or letters "
                                 "(Latin-1, ASCII); use the release as published, or save it as UTF-8",
                         line=first_lost)
    lines = split_lines(text)
    wrapped = hard_wrapped_line(lines)
    if wrapped is not None:
        raise InputError(source, f"hard-wrapped text (line {wrapped} continues the sentence of line "
                                 f"{wrapped - 1}): not a release this reader can use; use the release's "
                                 "text file with one paragraph per line", line=wrapped)
    reader = _Reader(source)
    if lost:
        reader.warn(first_lost, f"{lost} character(s) lost in a conversion ('?' inside a word, or U+FFFD): "
                                "the text keeps them as they are")
    numbered = list(enumerate(lines, start=1))
    if double_spaced(lines):
        numbered = single_spaced(numbered)
        read_as = (*read_as, "a blank line after every line (read as one line end)")
    for number, raw in numbered:
        reader.feed(number, raw)
    effective, drafts = reader.finish()
    _glossary_aliases(drafts)
    records = _records(effective, source, drafts)
    counts = {
        "chapters": sum(1 for d in drafts if d.kind == "section" and len(d.number or "") == 1),
        "sections": sum(1 for d in drafts if d.kind == "section" and len(d.number or "") == 3),
        "rules": sum(1 for d in drafts if d.kind == "rule"),
        "subrules": sum(1 for d in drafts if d.kind == "subrule"),
        "examples": reader.examples,
        "glossary": sum(1 for d in drafts if d.kind == "glossary"),
        "obsolete": sum(1 for d in drafts if d.obsolete),
    }
    return Release(effective, source, records, counts, hashlib.sha256(data).hexdigest(),
                   tuple(reader.warnings), read_as)


SAMPLE = (
    "\ufeffMagic: The Gathering Comprehensive Rules\r\n\r\n"
    "These rules are effective as of June 7, 2024.\r\n\r\n"
    "Contents\r\n\r\n1. Game Concepts\r\n100. General\r\n7. Additional Rules\r\n722. The Monarch\r\n\r\n"
    "Glossary\r\n\r\nCredits\r\n\r\n"
    "1. Game Concepts\r\n\r\n100. General\r\n\r\n"
    "100.1. These Magic rules apply to any Magic game with two or more players.\r\n\r\n"
    "7. Additional Rules\r\n\r\n722. The Monarch\r\n\r\n"
    "722.1. The monarch is a designation a player can have.\r\n\r\n722.1a A subrule.\r\n\r\n"
    "722.2. Another rule.\r\n\r\nExample: An example.\r\n\r\n"
    "Glossary\r\n\r\nMonarch\r\n"
    "A designation a player can have. See rule 722, \u201cThe Monarch.\u201d\r\n\r\n"
    "Credits\r\n\r\nSomeone\r\n"
).encode("utf-8")
