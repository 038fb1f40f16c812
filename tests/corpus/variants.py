"""A release as users save it: the five shared releases re-saved, copied and cut the ways people do.

Each function takes the lines of one of the five shared releases (``../shared/cr``, never committed) and
returns the bytes of a file a user could have made from it: re-encoded by an editor, with other line
ends, with whitespace an editor or a copy from the PDF/HTML adds, with a part cut away, compressed. The
code under test never makes these: every edit is a plain string or codec operation.

``same_text`` says what the reader must give back for a variant that loses nothing: the original
records' texts, as that encoding can hold them (``as_saved``).
"""

from __future__ import annotations

import codecs
import gzip
import re

CRLF = "\r\n"


def joined(lines: list[str], end: str = CRLF) -> str:
    return end.join(lines)


# ------------------------------------------------------------------------------- encodings


def utf8(lines: list[str], bom: bool = False) -> bytes:
    return (codecs.BOM_UTF8 if bom else b"") + joined(lines).encode("utf-8")


def utf16(lines: list[str], order: str) -> bytes:
    """UTF-16 with its BOM, as Notepad's "Unicode" (``le``) and "Unicode big endian" (``be``) save it."""
    bom = codecs.BOM_UTF16_LE if order == "le" else codecs.BOM_UTF16_BE
    return bom + joined(lines).encode(f"utf-16-{order}")


def utf32(lines: list[str]) -> bytes:
    """UTF-32 with its BOM (little-endian: its BOM begins with UTF-16's)."""
    return joined(lines).encode("utf-32")


def as_saved(text: str, encoding: str) -> str:
    """``text`` as a file saved in ``encoding`` holds it: a character the encoding lacks becomes "?"
    (what editors write; "−" and "∞" are not in Windows-1252, typographic quotes not in Latin-1)."""
    return text.encode(encoding, errors="replace").decode(encoding)


def legacy(lines: list[str], encoding: str) -> bytes:
    """Saved as Windows-1252 or Latin-1 (an editor replacing what the encoding lacks by "?")."""
    return joined(lines).encode(encoding, errors="replace")


def with_aether(lines: list[str]) -> list[str]:
    """The first example that speaks of energy or a card name gains "Æther" (a cp1252/Latin-1 letter the
    five releases do not print), so that a legacy encoding of it is tested."""
    out = list(lines)
    index = next(i for i, line in enumerate(out) if line.startswith("Example:"))
    out[index] = out[index] + " (\u00c6therize, \u00e6ther.)"
    return out


_ASCII_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                                   "\u2013": "-", "\u2014": "--", "\u2212": "-", "\u2122": "(TM)"})


def ascii_typography(text: str) -> str:
    """Typographic quotes and dashes as a converter transliterates them ("iconv -t latin1//TRANSLIT")."""
    return text.translate(_ASCII_TYPOGRAPHY)


def transliterated(lines: list[str], encoding: str) -> bytes:
    """Saved in ``encoding`` by a converter that writes typographic quotes and dashes as ASCII ones."""
    return legacy([ascii_typography(line) for line in lines], encoding)


def damaged_byte(lines: list[str], bom: bool) -> tuple[bytes, int]:
    """UTF-8 with one byte that is not (0xFF, a bad sector or a bad download) at the start of rule 104.3;
    its 1-based line."""
    index = next(i for i in range(len(lines) - 1, -1, -1) if lines[i].startswith("104.3. "))
    before = (codecs.BOM_UTF8 if bom else b"") + joined([*lines[:index], ""]).encode("utf-8")
    return before + b"\xff" + joined(lines[index:]).encode("utf-8"), index + 1


def a_few_lost(lines: list[str], count: int = 5) -> tuple[bytes, int]:
    """The first ``count`` apostrophes of the rules replaced by "?" (a publisher's glitch); the 1-based line
    of the first."""
    out = list(lines)
    start = max(i for i, line in enumerate(out) if line == "1. Game Concepts")
    first, left = 0, count
    for i in range(start, len(out)):
        while left and re.search(r"[a-z]\u2019[a-z]", out[i]):
            out[i] = re.sub(r"([a-z])\u2019([a-z])", "\\1?\\2", out[i], count=1)
            first, left = first or i + 1, left - 1
    return joined(out).encode("utf-8"), first


def mojibake(lines: list[str]) -> bytes:
    """UTF-8 bytes read as Windows-1252 by an editor, then saved again as UTF-8 ("’" becomes "â€™")."""
    data = joined(lines).encode("utf-8")
    return data.decode("cp1252", errors="replace").encode("utf-8")


# ------------------------------------------------------------------------------- line ends and spaces


def line_ends(lines: list[str], end: str) -> bytes:
    return joined(lines, end).encode("utf-8")


def trailing_whitespace(lines: list[str]) -> bytes:
    """Spaces and tabs after every line's text (an editor, or a copy from a table)."""
    tails = (" ", "\t", "  \t ", "\u00a0")
    return joined([line + tails[i % len(tails)] for i, line in enumerate(lines)]).encode("utf-8")


def without_blank_lines(lines: list[str]) -> tuple[bytes, int]:
    """Every empty line dropped (an editor's "remove empty lines"); the 1-based line (then) of the first
    glossary term."""
    out = [line for line in lines if line.strip()]
    glossary = max(i for i, line in enumerate(out) if line == "Glossary")
    return joined(out).encode("utf-8"), glossary + 2


def doubled_blank_lines(lines: list[str]) -> bytes:
    """Two blank lines wherever there was one."""
    out: list[str] = []
    for line in lines:
        out.extend(["", ""] if line == "" else [line])
    return joined(out).encode("utf-8")


_LONG_WORD = re.compile(r"\b([A-Za-z]{5})([a-z]{5,})")


def pdf_copy(lines: list[str]) -> bytes:
    """A copy from the PDF or the web page: non-breaking spaces after the numbers and between some words,
    soft hyphens and zero-width spaces inside long words (where a line could break), ligatures ("ﬁ") and
    non-breaking hyphens."""
    out = []
    for i, line in enumerate(lines):
        line = re.sub(r"^(\d{3}\.\d+[a-z]?\.?) ", "\\1\u00a0", line)  # "100.1.\xa0These Magic rules"
        if i % 3 == 0:
            line = line.replace(" the ", " the\u00a0")
        line = _LONG_WORD.sub("\\1\u00ad\\2" if i % 2 else "\\1\u200b\\2", line)
        if i % 5 == 0:  # the PDF's ligatures and its hyphens that do not break
            line = line.replace("fi", "\ufb01").replace("fl", "\ufb02")
            line = line.replace("Two-Headed", "Two\u2011Headed")
        out.append(line)
    return joined(out).encode("utf-8")


def indented(lines: list[str]) -> bytes:
    """Every line indented by a tab and spaces (a copy from a web page's block)."""
    return joined(["\t  " + line if line else line for line in lines]).encode("utf-8")


def without_title(lines: list[str]) -> bytes:
    """A copy that starts below the title line, at the date."""
    start = next(i for i, line in enumerate(lines) if line.startswith("These rules are"))
    return joined(lines[start:]).encode("utf-8")


def concatenated(first: list[str], second: list[str]) -> tuple[bytes, int]:
    """Two releases in one file; the 1-based line of the second one's "Contents"."""
    return joined(first + second).encode("utf-8"), len(first) + second.index("Contents") + 1


def preface(lines: list[str]) -> bytes:
    """A paragraph before the title and one after it (a note of where and when the file was saved)."""
    out = ["Saved from https://magic.wizards.com/en/rules on 3 May 2026 for our judge team.", "", lines[0],
           "", "Note: this is the plain-text edition; see the PDF for the official layout.", *lines[1:]]
    return joined(out).encode("utf-8")


# ------------------------------------------------------------------------------- parts cut away


def _header(lines: list[str], title: str) -> int:
    """Index of the real header ``title`` (its last occurrence: the first is in the contents)."""
    return max(i for i, line in enumerate(lines) if line == title)


def without_glossary(lines: list[str]) -> tuple[bytes, int]:
    """The Glossary (its header and entries) removed; the 1-based line of the Credits header then."""
    glossary, credits = _header(lines, "Glossary"), _header(lines, "Credits")
    out = lines[:glossary] + lines[credits:]
    return joined(out).encode("utf-8"), glossary + 1


def without_credits(lines: list[str]) -> tuple[bytes, int]:
    """The Credits and the text after them removed; the 1-based line of the last glossary text."""
    out = lines[: _header(lines, "Credits")]
    while not out[-1].strip():
        out.pop()
    return joined(out).encode("utf-8"), len(out)


def without_section(lines: list[str], number: str) -> tuple[bytes, int]:
    """Section ``number`` cut out of the rules (the contents still list it); the 1-based line of its
    contents entry."""
    start = next(i for i in range(len(lines) - 1, -1, -1) if lines[i].startswith(f"{number}. "))
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"^\d{3}\. |^\d\. |^Glossary$", lines[i]))
    listed = next(i for i, line in enumerate(lines) if line.startswith(f"{number}. "))
    return joined(lines[:start] + lines[end:]).encode("utf-8"), listed + 1


def contents_typo(lines: list[str], number: str, printed: str) -> tuple[bytes, int]:
    """Section ``number`` listed in the contents as ``printed`` (the publisher's typo); its 1-based line."""
    out = list(lines)
    listed = next(i for i, line in enumerate(out) if line.startswith(f"{number}. "))
    out[listed] = printed + out[listed][len(number) :]
    return joined(out).encode("utf-8"), listed + 1


def excerpt(lines: list[str], first: int, last: int) -> tuple[bytes, int]:
    """A judge's excerpt: the title and date, the contents, chapter 8's sections ``first``..``last`` and the
    glossary entries citing them, the credits -- the contents trimmed to match. Also the 1-based line of
    the chapter header the rules begin with."""
    glossary, credits = _header(lines, "Glossary"), _header(lines, "Credits")
    contents = lines.index("Contents")
    body_start = _header(lines, "8. Multiplayer Rules")
    numbers = "|".join(str(n) for n in range(first, last + 1))
    wanted = re.compile(rf"^({numbers})\.")

    def kept(line: str) -> bool:
        return line == "8. Multiplayer Rules" or bool(wanted.match(line.split(" ", 1)[0]))

    head = lines[: contents + 1] + [""] + [line for line in lines[contents + 1 : body_start]
                                          if kept(line)] + ["Glossary", "Credits", ""]
    nine = _header(lines, "9. Casual Variants")
    rules: list[str] = []
    keep = True
    for line in lines[body_start:nine]:
        if section := re.match(r"^(\d{3})\.", line):
            keep = first <= int(section[1]) <= last
        if keep:
            rules.append(line)
    entries = "\n".join(lines[glossary + 1 : credits]).split("\n\n")
    cited = [block for block in entries if re.search(rf"rules? ({numbers})", block)]
    out = head + rules + ["Glossary", ""] + "\n\n".join(cited).split("\n") + ["", *lines[credits:]]
    return joined(out).encode("utf-8"), len(head) + 1


def gzipped(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)
