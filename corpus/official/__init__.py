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

from rulesjudge.corpus.official.decoding import (
    MAX_RELEASE_BYTES,
    decode_release,
    read_release_file,
    read_text,
    unwrap,
)
from rulesjudge.corpus.official.lines import split_lines
from rulesjudge.corpus.official.reader import State
from rulesjudge.corpus.official.release import SAMPLE, Release, looks_like_release, parse_release

__all__ = ["MAX_RELEASE_BYTES", "SAMPLE", "Release", "State", "decode_release", "looks_like_release",
           "parse_release", "read_release_file", "read_text", "split_lines", "unwrap"]
