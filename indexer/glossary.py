"""Search stage (question reading): the glossary terms a question names, and how much of it each covers.

"what is a general" is all about the term (share 1.0); "can the emperor attack at the start" only partly
(1/3). Fusion lifts a named entry in proportion (``FusionParams.glossary_lift``), and an entry covering
at least :data:`DEFINING_SHARE` of the question is what it asks about: folding then hands its score to
the rule it points at.

Which terms a question writes is :meth:`GlossaryTerms.written
<rulesjudge.corpus.glossary.GlossaryTerms.written>`'s reading, the one a card's Oracle text goes through too.
"""

from __future__ import annotations

import re

from rulesjudge.corpus.glossary import GlossaryTerms, term_key
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


class Glossary(GlossaryTerms):
    """Glossary term -> ids of the entries defining it (:class:`GlossaryTerms`), and what a question asks
    of them: the terms it quotes, the share of it each term covers."""

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
        found: list[str] = []
        for match in _QUOTED.finditer(text):
            found.extend(self.keys.get(term_key(match[1]), ()))
        for match in _NAMED_AS_WORD.finditer(text):
            words = term_key(match[1] or match[2]).split()
            if words and words[0] in {"word", "words", "term", "terms", "phrase", "keyword"}:
                words = words[1:]  # "what does the word you … refer to"
            for size in (4, 3, 2, 1):  # the longest term the named words start with
                ids = self.keys.get(" ".join(words[:size])) if len(words) >= size else None
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

    def defining(self, text: str) -> set[str]:
        """Entries whose term is most of what the question asks ("what is a permanent")."""
        return {rid for rid, share in self.weights(text) if share >= DEFINING_SHARE}
