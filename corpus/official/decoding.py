"""Bytes -> text of an official release: compression, encoding, line ends, and the characters a copy
from the PDF or the web page adds; a file that is not a release's text (a PDF, a web page, a damaged or
lossy copy) is refused by name.
"""

from __future__ import annotations

import codecs
import re
import zlib
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.inputs import read_file
from rulesjudge.corpus.official.lines import DATE_PHRASE, split_lines

SENTINEL = "Comprehensive Rules"
TYPOGRAPHIC = ("\u2019", "\u201c", "\u201d")  # ’ “ ” : present in every real release

# UTF-32 first: its little-endian BOM begins with UTF-16's
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))

MAX_RELEASE_BYTES = 20_000_000  # a release is ~1 MB; anything far larger is not one (a regular file only)


def read_release_file(path: Path) -> bytes:
    """A release file's bytes: a regular file of at most :data:`MAX_RELEASE_BYTES` (never a FIFO or
    ``/dev/zero``), or an :class:`InputError` naming it."""
    return read_file(path, limit=MAX_RELEASE_BYTES, what="release file")


def decode_release(data: bytes, source: str) -> str:
    """The release's text, its encoding detected from BOM and sentinel text; a control character other
    than a line end, tab or form feed (a NUL byte, a terminal escape) means it is not a release.

    Characters a copy from the PDF or the web page adds and the publisher never prints are read as what
    they stand for (:func:`plain_spaces`): a non-breaking space is a space, a soft hyphen nothing.

    >>> decode_release("Comprehensive Rules \u2019".encode("cp1252"), "x.txt")
    'Comprehensive Rules \u2019'
    >>> decode_release("\\ufeffComprehensive Rules\\r\\n1\\x00".encode("utf-8"), "x.txt")
    Traceback (most recent call last):
    rulesjudge.common.errors.InputError: x.txt:2: control character U+0000: not a Comprehensive Rules release
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
APOSTROPHE = re.compile(r"[A-Za-z]['\u2019][A-Za-z]")
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
    rulesjudge.common.errors.InputError: cr.pdf: a PDF document, not the release's text file: download the \
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
    return SENTINEL in head or DATE_PHRASE.search(head) is not None


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
