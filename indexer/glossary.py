"""Search stage (question reading): the glossary terms a question names, and how much of it each covers.

"what is a general" is all about the term (share 1.0); "can the emperor attack at the start" only partly
(1/3). Fusion lifts a named entry in proportion (``FusionParams.glossary_lift``), and an entry covering
at least :data:`DEFINING_SHARE` of the question is what it asks about: folding then hands its score to
the rule it points at.

>>> term_key("Active Player’s Turn")
'active player turn'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rulesjudge.corpus.records import Record
from rulesjudge.indexer.lexical import tokenize

#: Words that ask rather than say: they do not count as content when weighing a glossary term's share.
QUESTION_WORDS = frozenset(("what", "who", "whom", "when", "where", "which", "why", "how", "doe", "mean",
                            "defin", "explain", "term", "call", "happen"))
_QUOTED = re.compile(r"(?:(?<![\w])'|[\"‘“])([^'\"‘’“”]{1,40})(?:'(?![\w])|[\"’”])")
#: a term named as a word rather than used: "the word you", "the term each opponent", "what does hexproof
#: mean" — the words after the marker (or between "what does" and "mean") are read as if quoted
_NAMED_AS_WORD = re.compile(r"\bthe (?:words?|terms?|phrases?|keywords?)\s+([^?,.;:!]{1,40})"
                            r"|\bwhat (?:does|do) (?:the )?([^?,.;:!]{1,40}?)"
                            r"\s+(?:mean|means|refers? to|stands? for)\b",
                            re.IGNORECASE)
DEFINING_SHARE = 0.5  # a glossary term covering this much of the question is what it asks about


def term_key(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'s", "")))


class Glossary:
    """Glossary term (lower case) -> ids of the entries defining it, built on first use."""

    def __init__(self, records: Mapping[str, Record]) -> None:
        self.records = records
        self._terms: dict[str, list[str]] | None = None
        self._quotable: dict[str, list[str]] = {}

    @property
    def terms(self) -> dict[str, list[str]]:
        """Terms of four letters or more: a shorter one ("you", "own") is read only when quoted."""
        if self._terms is None:
            terms: dict[str, list[str]] = {}
            for record in self.records.values():
                if record.kind != "glossary":
                    continue
                for term in (record.title, *record.aliases):
                    key = term_key(term)
                    if key:
                        self._quotable.setdefault(key, []).append(record.id)
                    if len(key) >= 4:
                        terms.setdefault(key, []).append(record.id)
            self._terms = terms
        return self._terms

    def quoted(self, text: str) -> list[str]:
        """Entries whose term the question quotes: "when a card says 'you'" asks what the word means,
        whatever else the question names (a variant's rules mention "you" too).

        >>> from rulesjudge.corpus.records import Record
        >>> entry = Record("cr@x/glossary/you-your", "cr", "x", "glossary", "See rule 109.5.",
        ...                title="You, Your", aliases=("You", "Your"))
        >>> Glossary({entry.id: entry}).quoted("when a card says 'you', is it my team?")
        ['cr@x/glossary/you-your']

        A term named as a word ("the word you", "what does X mean") counts as quoted:

        >>> Glossary({entry.id: entry}).quoted("what does the word you on a card refer to")
        ['cr@x/glossary/you-your']
        """
        _ = self.terms
        found: list[str] = []
        for match in _QUOTED.finditer(text):
            found.extend(self._quotable.get(term_key(match[1]), ()))
        for match in _NAMED_AS_WORD.finditer(text):
            words = term_key(match[1] or match[2]).split()
            if words and words[0] in {"word", "words", "term", "terms", "phrase", "keyword"}:
                words = words[1:]  # "what does the word you … refer to"
            for size in (4, 3, 2, 1):  # the longest term the named words start with
                ids = self._quotable.get(" ".join(words[:size])) if len(words) >= size else None
                if ids:
                    found.extend(ids)
                    break
        return list(dict.fromkeys(found))

    def weights(self, text: str) -> list[tuple[str, float]]:
        """Glossary entries named in the question (a term or its plural, longest terms first), with the
        share of the question's content words the term covers."""
        content = max(1, len([w for w in tokenize(text) if w not in QUESTION_WORDS]))
        found: list[tuple[str, float]] = [(record_id, 1.0) for record_id in self.quoted(text)]
        for phrase, ids in self.written(text):
            share = min(1.0, len(tokenize(phrase)) / content)
            found.extend((record_id, share) for record_id in ids)
        best: dict[str, float] = {}
        for record_id, share in found:  # a quoted term keeps its whole share when also written plainly
            best[record_id] = max(share, best.get(record_id, 0.0))
        return list(best.items())

    def written(self, text: str) -> list[tuple[str, list[str]]]:
        """The glossary terms written in a text (a term or its plural, longest terms first, each word read
        once; the term as the glossary has it), each with the ids of the entries defining it: a
        question's terms, or a card's Oracle text's ("devotion to black" -> Devotion).

        >>> from rulesjudge.corpus.records import Record
        >>> entry = Record("cr@x/glossary/devotion", "cr", "x", "glossary", "See rule 700.5.",
        ...                title="Devotion")
        >>> Glossary({entry.id: entry}).written("Your devotion to black is 3; devotions.")
        [('devotion', ['cr@x/glossary/devotion']), ('devotion', ['cr@x/glossary/devotion'])]
        """
        words = term_key(text).split()
        found: list[tuple[str, list[str]]] = []
        used: set[int] = set()
        for size in (4, 3, 2, 1):
            for start in range(len(words) - size + 1):
                if used & set(range(start, start + size)):
                    continue
                phrase = " ".join(words[start:start + size])
                term = phrase if phrase in self.terms else phrase[:-1] if phrase.endswith("s") else ""
                ids = self.terms.get(term)
                if ids:
                    found.append((term, ids))
                    used.update(range(start, start + size))
        return found

    def defining(self, text: str) -> set[str]:
        """Entries whose term is most of what the question asks ("what is a permanent")."""
        return {rid for rid, share in self.weights(text) if share >= DEFINING_SHARE}
