"""Releases the parser has not seen: the five shared releases turned into plausible NEXT and OLDER ones.

Each function takes the lines of a real release (``mutations.release_lines``, from ``../shared/cr``,
never committed) and returns new lines with one change of content the way the publisher makes them:
a new section that renumbers the ones after it (the Monarch moved 718 -> 721 -> 722 -> 724 -> 725 so
far), new keyword rules past 702.200, subrules lettered past z (704.5 reached z in 2025), glossary
entries added, removed and renamed, a section retitled, examples in new places, the date line worded
otherwise, and a release laid out as 2003-2010 ones were. The edits are plain string operations, never
the code under test.
"""

from __future__ import annotations

import re

from mutations import line_of

#: A date no shared release has, for a release that must not be "already built in".
NEXT_DATE = "November 13, 2026"
NEXT_EFFECTIVE = "2026-11-13"
#: Subrule letters as the releases use them: a-z without l and o (24); past z, the publisher doubles
#: (704.5aa, 704.5ab ... as other rules documents quoting later releases do).
LETTERS = [c for c in "abcdefghijklmnopqrstuvwxyz" if c not in "lo"]


def redated(lines: list[str], date: str = NEXT_DATE) -> list[str]:
    """Every date line (the title's and the one the Credits repeat) says ``date``."""
    return [re.sub(r"(as of )[A-Z][a-z]+ \d{1,2}, \d{4}", rf"\g<1>{date}", line) for line in lines]


def body_start(lines: list[str]) -> int:
    """Index of the real "1. Game Concepts" (the rules, not the contents)."""
    first = lines[line_of(lines, "1. ", 0)]
    return [i for i, line in enumerate(lines) if line == first][1]


def glossary_start(lines: list[str]) -> int:
    return max(i for i, line in enumerate(lines) if line == "Glossary")


def section_end(lines: list[str], section: str) -> int:
    """Index just past the last line of ``section`` in the rules (the next section or chapter header)."""
    start = line_of(lines, f"{section}. ")
    for i in range(start + 1, len(lines)):
        if re.match(r"^(\d\.|\d{3}\.)\s+\D", lines[i]) or lines[i] == "Glossary":
            return i
    raise AssertionError(section)


def rule_end(lines: list[str], rule: str) -> int:
    """Index just past the last line of ``rule`` (its subrules and examples included)."""
    start = line_of(lines, f"{rule}. ")
    for i in range(start + 1, len(lines)):
        match = re.match(r"^(\d{3}\.\d+)", lines[i])
        if (match and not lines[i].startswith(rule)) or re.match(r"^(\d\.|\d{3}\.)\s+\D", lines[i]) \
                or lines[i] == "Glossary" or (match and re.match(rf"^{re.escape(rule)}\d", lines[i])):
            return i
    raise AssertionError(rule)


def _shift(text: str, first: int, last: int) -> str:
    """References and numbers of sections ``first``..``last`` moved up by one."""
    def bump(match: re.Match[str]) -> str:
        section = int(match[1])
        return str(section + 1) + match[2] if first <= section <= last else match[0]

    return re.sub(r"\b(\d{3})((?:\.\d+[a-z]{0,2})?)(?![\d])", bump, text)


def new_section(lines: list[str], number: int, title: str, rules: int = 3) -> list[str]:
    """A section ``number`` inserted in the contents and the rules, the sections from ``number`` to the
    end of its chapter (and every reference to them) moved up by one -- as 2026-04-17 moved the Monarch
    from 724 to 725."""
    chapter = str(number)[0]
    last = max(int(m[1]) for line in lines if (m := re.match(rf"^({chapter}\d\d)\. \D", line)))
    out = [_shift(line, number, last) for line in lines]
    contents = line_of(out, f"{number + 1}. ", 0)
    out.insert(contents, f"{number}. {title}")
    body = [f"{number}. {title}", ""]
    for n in range(1, rules + 1):
        body += [f"{number}.{n}. {title} rule {n}: a player who controls a {title.lower()} permanent "
                 f"follows rule {number}.{n}, whatever else happens in the game.", ""]
        body += [f"{number}.{n}a The first subrule of {title} rule {n}.", ""]
    start = line_of(out, f"{number + 1}. ")
    out[start:start] = body
    return out


def new_rules(lines: list[str], section: str, first: int, last: int, subrules: int = 2) -> list[str]:
    """Rules ``section.first`` .. ``section.last`` appended at the end of ``section`` (new keywords:
    702.200-702.215; a new Two-Headed Giant rule 810.14), each with a few subrules and an example."""
    body: list[str] = []
    for n in range(first, last + 1):
        name = f"Keyword{n}" if section == "702" else f"Provision {n}"
        body += [f"{section}.{n}. {name}", ""]
        body += [f"{section}.{n}a {name} is a static ability numbered {n}. It means something only rule "
                 f"{section}.{n} defines.", ""]
        for letter in LETTERS[1:subrules]:
            body += [f"{section}.{n}{letter} A second paragraph about {name}, lettered {letter}.", ""]
        body += [f"Example: A card with {name} is cast (example {n}).", ""]
    end = section_end(lines, section)
    return lines[:end] + body + lines[end:]


def subrules_past_z(lines: list[str], rule: str = "704.5", extra: int = 3) -> list[str]:
    """``rule`` lettered past z (704.5 reached z in 2025): 704.5aa, 704.5ab ... after its last subrule."""
    end = rule_end(lines, rule)
    body: list[str] = []
    for letter in LETTERS[:extra]:
        body += [f"{rule}a{letter} If a player controls a permanent with sticker number {letter}, that "
                 f"player puts it into the graveyard (state-based action {letter}).", ""]
    return lines[:end] + body + lines[end:]


def glossary_entry(lines: list[str], term: str) -> tuple[int, int]:
    """Indexes of the term line of the glossary entry ``term`` and just past its definition."""
    start = next(i for i in range(glossary_start(lines), len(lines)) if lines[i] == term)
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    return start, end


def glossary_added(lines: list[str], term: str, definition: str, before: str) -> list[str]:
    start, _ = glossary_entry(lines, before)
    return [*lines[:start], term, definition, "", *lines[start:]]


def glossary_removed(lines: list[str], term: str) -> list[str]:
    start, end = glossary_entry(lines, term)
    return lines[:start] + lines[end + 1 :]


def glossary_renamed(lines: list[str], term: str, new: str) -> list[str]:
    start, _ = glossary_entry(lines, term)
    out = list(lines)
    out[start] = new
    return out


def section_retitled(lines: list[str], section: str, title: str) -> list[str]:
    """``section`` retitled in the contents and the rules ("The Monarch" -> "Monarch")."""
    return [f"{section}. {title}" if line.startswith(f"{section}. ") and re.match(r"^\d{3}\. \D", line)
            else line for line in lines]


def example_after_section(lines: list[str], section: str) -> list[str]:
    """An example printed right under a section heading, before its first rule."""
    index = line_of(lines, f"{section}. ")
    example = f"Example: An example of section {section} as a whole."
    return [*lines[: index + 1], "", example, *lines[index + 1 :]]


def example_after_chapter(lines: list[str], chapter: str) -> list[str]:
    heading = lines[line_of(lines, f"{chapter}. ", 0)]
    index = [i for i, line in enumerate(lines) if line == heading][1]  # the rules' own, not the contents'
    example = f"Example: An example of chapter {chapter} as a whole."
    return [*lines[: index + 1], "", example, *lines[index + 1 :]]


def example_in_glossary(lines: list[str], term: str) -> list[str]:
    """A glossary definition followed by an example line."""
    _, end = glossary_entry(lines, term)
    return [*lines[:end], f"Example: {term} in a sentence.", *lines[end:]]


def date_worded(lines: list[str], template: str) -> list[str]:
    """The title's date line reworded: ``template`` holds ``{date}`` (the release's own date)."""
    out = list(lines)
    index = next(i for i, line in enumerate(out) if line.startswith("These rules are effective as of"))
    date = re.search(r"as of (.*?)\.?$", out[index])
    assert date is not None
    out[index] = template.format(date=date[1])
    return out


OLD_INTRO = [
    "Introduction",
    "",
    "This document is designed for people who\u2019ve moved beyond the basics of the Magic: The "
    "Gathering\u00ae game. If you\u2019re a beginning Magic\u2122 player, you\u2019ll probably find these "
    "rules intimidating.",
    "",
    "This document includes a series of numbered rules followed by a glossary. Many of the numbered rules "
    "are divided into subrules, and each separate rule and subrule of the game has its own number.",
    "",
    "We at Wizards of the Coast recognize that no matter how detailed the rules, situations will arise in "
    "which the interaction of specific cards requires a precise answer. If you have questions, you can get "
    "the answers from us at www.wizards.com/customerservice. Additional contact information is on the last "
    "page of these rules.",
    "",
    "www.wizards.com/default.asp?x=magic/rules",
    "",
    "1. Read the basic rulebook first.",
    "",
    "2. Then look up what you need in these rules and in the glossary.",
    "",
]


def old_style(lines: list[str], contents: bool = True) -> list[str]:
    """A release laid out as 2003-2010 ones were: "current as of", the older introduction, contents
    entries separated by blank lines (or, as in 2006, no contents at all), glossary entries that only
    redirect ("See X.") dropped, and the Customer Service Information after the Credits."""
    start = line_of(lines, "Contents", 0)
    body = body_start(lines)
    date = next(i for i, line in enumerate(lines) if line.startswith("These rules are effective as of"))
    head = [lines[0], "", lines[date].replace("effective as of", "current as of"), "", *OLD_INTRO]
    table: list[str] = []
    if contents:
        table = ["Contents", ""]
        for line in lines[start + 1 : body]:
            if line.strip():
                table += [line, ""]
        table.append("")
    rest = lines[body:]
    glossary = glossary_start(rest)
    redirects: set[int] = set()
    for i in range(glossary + 1, len(rest) - 2):
        if rest[i - 1] == "" and rest[i] and re.match(r"^See [^.]+\.?$", rest[i + 1]) and rest[i + 2] == "":
            redirects.update((i, i + 1, i + 2))
    rest = [line for i, line in enumerate(rest) if i not in redirects]
    rest += ["", "Customer Service Information", "", "Wizards of the Coast, Inc.", "P.O. Box 707",
             "Renton, WA 98057-0707", "U.S.A.", "Tel: 1-800-324-6496 (within the U.S.)"]
    return head + table + rest


def service_before_credits(lines: list[str]) -> list[str]:
    """"Customer Service Information" (after the Credits in 2009-2013) printed between the Glossary and
    the Credits, and listed there in the contents."""
    out = list(lines)
    out.insert(out.index("Credits"), "Customer Service Information")
    credits = max(i for i, line in enumerate(out) if line == "Credits")
    out[credits:credits] = ["Customer Service Information", "", "Wizards of the Coast LLC", "PO Box 707",
                            "Renton, WA 98057-0707", "", "Support.Wizards.com", ""]
    return out


def glossary_paragraphs(lines: list[str], term: str) -> list[str]:
    """The glossary entry ``term`` with a blank line between its definition lines ("1. ..." / "2. ..." /
    "See rule ...") as if each sense were a paragraph."""
    start, end = glossary_entry(lines, term)
    spaced = [part for line in lines[start + 2 : end] for part in ("", line)]
    return [*lines[: start + 2], *spaced, *lines[end:]]


def rule_inserted(lines: list[str], section: str, position: int, text: str) -> list[str]:
    """A rule ``section.position`` inserted, the rules after it (their subrules and references to them)
    moved up by one: 725.2 -> 725.3, 725.4 -> 725.5."""
    def bump(match: re.Match[str]) -> str:
        number = int(match[1])
        return f"{section}.{number + 1}{match[2]}" if number >= position else match[0]

    pattern = re.compile(rf"\b{section}\.(\d+)([a-z]{{0,2}})(?![\d])")
    out = [pattern.sub(bump, line) for line in lines]
    index = line_of(out, f"{section}.{position + 1}. ")
    return [*out[:index], f"{section}.{position}. {text}", "", *out[index:]]


def numbered_list(lines: list[str], rule: str, items: list[str]) -> list[str]:
    """Paragraphs "1. ...", "2. ..." printed under ``rule`` (a numbered list, as glossary entries have)."""
    index = line_of(lines, f"{rule}. ") + 1
    return [*lines[:index], *(part for item in items for part in ("", item)), *lines[index:]]


def glossary_introduced(lines: list[str]) -> list[str]:
    """A paragraph introducing the Glossary before its first entry."""
    start = glossary_start(lines)
    intro = "This glossary defines many of the words and phrases used in these rules."
    return [*lines[: start + 1], "", intro, *lines[start + 1 :]]
