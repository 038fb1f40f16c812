"""The release state machine: contents -> rules -> glossary -> credits, one line at a time.

:class:`Reader` feeds each line to the handler of its :class:`State`; each handler may move to the next
state. What a line is comes from :mod:`corpus.official.lines`; the drafts it keeps become records in
:mod:`corpus.official.release`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.official.lines import (
    CHAPTER,
    DATE_LINE,
    DEFINITION,
    EXAMPLE,
    OBSOLETE,
    RULE,
    SECTION,
    SUBRULE,
    read_date,
    rule_of,
    section_of,
    split_examples,
)
from rulesjudge.corpus.records import RecordKind, duplicate_local, glossary_local, make_id, misfiled_local

DOCUMENT = "cr"
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


@dataclass(slots=True)
class Draft:
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


class Reader:
    """Feeds lines through the states; keeps the drafts and the current heading context."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.state = State.TITLE
        self.effective: str | None = None
        self.contents: set[str] = set()
        self.lists_chapters = False  # the contents list chapters: a chapter printed again starts the rules
        self.listed: dict[str, tuple[int, str]] = {}  # section numbers the contents list: line, title
        self.drafts: dict[str, Draft] = {}
        self.chapter: Draft | None = None
        self.section: Draft | None = None
        self.rule: Draft | None = None  # the last rule, for its subrules
        self.current: Draft | None = None  # the last heading, rule or subrule: examples and paragraphs
        self.term: Draft | None = None  # the glossary entry being read
        self.last_term: Draft | None = None  # the last glossary entry, for a paragraph after a blank line
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
        elif (heading := CHAPTER.match(line) or SECTION.match(line)) and not heading["title"].endswith("."):
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
        if line in self.contents and (not self.lists_chapters or CHAPTER.match(line)):
            self.state = State.RULES
            self.in_rules(number, line, line)
        elif self.after_credits:
            # 2009-2013 list more after "Credits" ("Customer Service Information"): skipped, until the
            # first chapter (also when the contents did not list it)
            if CHAPTER.match(line) or SECTION.match(line):
                self.state = State.RULES
                self.in_rules(number, line, line)
        elif line == "Credits":
            self.after_credits = True
        else:
            if "Glossary" in self.contents and not SECTION.match(line) and not CHAPTER.match(line):
                self.back_matter.add(line)
            self.contents.add(line)
            self.lists_chapters = self.lists_chapters or CHAPTER.match(line) is not None
            if match := SECTION.match(line):
                self.listed.setdefault(match["number"], (number, match["title"]))

    def read_date(self, number: int, line: str) -> None:
        match = DATE_LINE.search(line)
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
        if match := SUBRULE.match(line):
            self.add_subrule(number, match["number"], match["text"])
        elif match := RULE.match(line):
            self.add_rule(number, match["number"], match["text"])
        elif match := SECTION.match(line):
            self.add_section(number, match["number"], match["title"])
        elif (match := CHAPTER.match(line)) and self.is_chapter(match["number"], match["title"]):
            self.add_chapter(number, match["number"], match["title"])
        elif EXAMPLE.match(line):
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

    def new(self, draft: Draft) -> Draft:
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
        self.chapter = self.new(Draft(number, "section", number, title, [title], line, (), None))
        self.section = self.rule = None
        self.current = self.chapter  # an example or paragraph printed under the heading is the chapter's

    def add_section(self, line: int, number: str, title: str) -> None:
        if self.chapter is None or self.chapter.number != number[0]:
            raise self.error(line, f"section {number} outside its chapter {number[0]}")
        path = (f"{self.chapter.number}. {self.chapter.title}",)
        draft = Draft(number, "section", number, title, [title], line, path, self.chapter.local)
        self.section = self.new(draft)
        self.rule = None
        self.current = self.section  # an example or paragraph printed under the heading is the section's

    def add_rule(self, line: int, number: str, text: str) -> None:
        section = self.require_section(line, number)
        path = (*section.heading_path, f"{section.number}. {section.title}")
        local = self.misfiled(line, number, section)
        self.rule = self.current = self.new(
            Draft(local, "rule", number, section.title, [text], line, path, section.local)
        )

    def add_subrule(self, line: int, number: str, text: str) -> None:
        section = self.require_section(line, number)
        path = (*section.heading_path, f"{section.number}. {section.title}")
        rule = self.rule
        # The letters must follow the rule's own number: 722.4a under 722.4, not 722.41; a subrule of a
        # rule never printed (its rule misprinted as another number) stays under the rule printed before it.
        own = rule is not None and rule_of(number) in (rule.number, rule.local)
        orphan = rule is not None and rule_of(number) not in self.drafts and rule.local != rule.number
        if rule is not None and (own or orphan or section_of(number) != section.number):
            parent = rule  # a subrule printed under a rule of another section ("432.2b" in 423.2) stays there
        else:
            parent = section
        local = self.misfiled(line, number, parent)
        draft = Draft(local, "subrule", number, section.title, [text], line, path, parent.local)
        self.current = self.new(draft)

    def misfiled(self, line: int, number: str, parent: Draft) -> str:
        """The local id of a rule printed in the section of another number: ``432.2b~in-423.2``."""
        if self.section is None or section_of(number) == self.section.number:
            return number
        local = misfiled_local(number, parent.local)
        self.warn(line, f"{number} printed under {parent.number} (section {self.section.number}): kept as "
                        f"{make_id(DOCUMENT, self.effective or '?', local)}")
        return local

    def require_section(self, line: int, number: str) -> Draft:
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
        if self.term is None and DEFINITION.search(line):
            # a blank line inside an entry ("1. ..." / "2. ..." senses, a "See rule" line): the paragraph
            # goes on the entry above (no real term starts with a number or "See", or ends in a period);
            # before the first entry, it introduces the glossary ("This glossary defines ...")
            if self.last_term is not None:
                self.term = self.last_term
                self.term.lines.append(line)
            return
        if self.term is None:
            title = OBSOLETE.sub("", line)
            local = glossary_local(title)  # "Isn't" as "Isn’t": one id whatever the apostrophe
            if local == glossary_local(""):
                raise self.error(number, f"unreadable glossary term {line!r}")
            parts = [part.strip(" \u201c\u201d\"") for part in title.split(",")]
            draft = Draft(local, "glossary", None, title, [], number, ("Glossary",), None)
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

    def finish(self) -> tuple[str, list[Draft]]:
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
