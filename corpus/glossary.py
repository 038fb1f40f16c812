"""Which glossary terms a text writes: the one reading of the Comprehensive Rules' glossary that a card's
Oracle text (``rulesjudge card``'s rules references, :mod:`~rulesjudge.corpus.cards.rules_refs`) and a
question (search, :mod:`rulesjudge.indexer.glossary`) both go through.

A term is matched as a run of words (:func:`term_key`: lower case, letters and digits, "'s" dropped), the
longest terms first, each word read once ("double strike" is no "double"). How loosely a text is read
depends on what it is (:class:`Reading`): a question is speech, so a term shorter than four letters ("you",
"own") is no term of it unless quoted; an Oracle text is templated wording, so "Tap target creature" and
"the exiled card" name the keyword actions tap and exile.

>>> term_key("Active Player’s Turn")
'active player turn'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulesjudge.corpus.records import Record


def term_key(text: str) -> str:
    """A term or a text as terms are matched: lower case words of letters and digits, "'s" dropped."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'s", "")))


@dataclass(frozen=True)
class Reading:
    """How a text's words are read as glossary terms: the shortest term read, and the endings a term's
    last word may take ("devotions", "searches", "exiled", "destroyed")."""

    shortest: int
    endings: tuple[str, ...]


#: a question: a term of fewer than four letters is read only when quoted, and only plurals are read
QUESTION = Reading(shortest=4, endings=("s",))
#: a card's Oracle text: every term, and the endings templated wording gives a keyword action
ORACLE = Reading(shortest=1, endings=("s", "es", "d", "ed"))


class GlossaryTerms:
    """Glossary term (as :func:`term_key` reads it) -> ids of the entries defining it (by their title or
    an alias), over the glossary entries among ``records``, built on first use."""

    def __init__(self, records: Mapping[str, Record]) -> None:
        self.records = records
        self._keys: dict[str, list[str]] | None = None

    @classmethod
    def of(cls, records: Iterable[Record]) -> GlossaryTerms:
        """The glossary entries among ``records`` (one edition's, say)."""
        return cls({record.id: record for record in records if record.kind == "glossary"})

    @property
    def keys(self) -> dict[str, list[str]]:
        """Every term, however short."""
        if self._keys is None:
            keys: dict[str, list[str]] = {}
            for record in self.records.values():
                if record.kind != "glossary":
                    continue
                for term in (record.title, *record.aliases):
                    if key := term_key(term):
                        keys.setdefault(key, []).append(record.id)
            self._keys = keys
        return self._keys

    def written(self, text: str, reading: Reading = QUESTION) -> list[tuple[str, list[str]]]:
        """The glossary terms written in a text (a term or a form of it, longest terms first, each word read
        once; the term as :func:`term_key` has it), each with the ids of the entries defining it.

        >>> entry = Record("cr@x/glossary/devotion", "cr", "x", "glossary", "See rule 700.5.",
        ...                title="Devotion")
        >>> GlossaryTerms({entry.id: entry}).written("Your devotion to black is 3; devotions.")
        [('devotion', ['cr@x/glossary/devotion']), ('devotion', ['cr@x/glossary/devotion'])]

        An Oracle text's short terms and past tenses are read; a question's are not:

        >>> tap = Record("cr@x/glossary/tap", "cr", "x", "glossary", "See rule 701.26.", title="Tap")
        >>> exile = Record("cr@x/glossary/exile", "cr", "x", "glossary", "See rule 701.13.", title="Exile")
        >>> glossary = GlossaryTerms.of([tap, exile])
        >>> [term for term, _ids in glossary.written("Tap it. Return the exiled card.", ORACLE)]
        ['tap', 'exile']
        >>> glossary.written("Can I tap the exiled card?")
        []
        """
        words = term_key(text).split()
        found: list[tuple[str, list[str]]] = []
        used: set[int] = set()
        for size in (4, 3, 2, 1):
            for start in range(len(words) - size + 1):
                if used & set(range(start, start + size)):
                    continue
                term = self._term(" ".join(words[start:start + size]), reading)
                if term:
                    found.append((term, self.keys[term]))
                    used.update(range(start, start + size))
        return found

    def _term(self, phrase: str, reading: Reading) -> str | None:
        """The term ``phrase`` is, or is a form of."""
        for form in (phrase, *(phrase[:-len(end)] for end in reading.endings if phrase.endswith(end))):
            if len(form) >= reading.shortest and form in self.keys:
                return form
        return None
