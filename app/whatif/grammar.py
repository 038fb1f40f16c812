"""The grammars: regexes matched whole, each with the builder it calls, tried in order; the work budget."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from rulesjudge.app.whatif.answers import Each
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import Ref, _Reader, _Unknown

_X = r"(?P<x>.+?)"
_Y = r"(?P<y>.+?)"


#: How many clauses a sentence's readings may try (a grammar's pass over one fragment each). The phrase
#: list needs at most 17; splitting at every "and", "after", "before" and comma of a long sentence grows
#: with the product of its splits, so a budget keeps a 500-character question to a fraction of a second.
MAX_WORK = 400
_WORK: ContextVar[list[int] | None] = ContextVar("_WORK", default=None)


#: Where one clause ends and the next begins: a sentence's end, or "then" starting the next event. One
#: fragment of a pattern (a player, a creature, an amount's source) never spans it, so the words after it
#: are never swallowed by a lenient fragment and dropped unread ("Ben has 9 poison. Cat gives him one":
#: the first sentence is not who gives the counter; "Ben gains control of Krenko, then Ann concedes").
_CLAUSE_BREAK = re.compile(r"[.;!?:](?:\s|$)|(?:,|\band)\s+then\b|\s+-+\s+", re.IGNORECASE)


def _spans_clauses(match: re.Match[str]) -> bool:
    """Does a fragment of ``match`` run over the end of its clause?

    >>> _spans_clauses(re.fullmatch(r"(?P<y>.+?) gives (?P<x>.+)", "Ben has 9. Cat gives him"))
    True
    >>> _spans_clauses(re.fullmatch(r"(?P<y>.+?) gives (?P<x>.+)", "Ann, Ben and Cat gives him"))
    False
    """
    return any(_CLAUSE_BREAK.search(value) for value in match.groupdict().values() if value)


class _OutOfWork(Exception):  # not an error to show: the sentence goes to the search
    """The budget is spent: every reading stops at once (the split loops catch only :class:`_Unknown`)."""


class _Grammar:
    """Regexes (matched whole, case-insensitively) and the builders they call, in the order tried."""

    def __init__(self) -> None:
        self.rules: list[tuple[re.Pattern[str], Callable[..., Any]]] = []

    @classmethod
    def joined(cls, *grammars: _Grammar) -> _Grammar:
        """One grammar trying each of ``grammars``' patterns in turn, in the order given.

        >>> one, two = _Grammar(), _Grammar()
        >>> _ = one("a")(len), two("b")(len)
        >>> [p.pattern for p, _build in _Grammar.joined(two, one).rules]
        ['b', 'a']
        """
        joined = cls()
        joined.rules = [rule for grammar in grammars for rule in grammar.rules]
        return joined

    def __call__(self, *regexes: str) -> Callable[[Callable[..., Any]], Any]:
        def register(build: Callable[..., Any]) -> Any:
            for regex in regexes:
                self.rules.append((re.compile(regex, re.IGNORECASE), build))
            return build

        return register

    def first(self, text: str, reader: _Reader, what: str) -> Any:
        """The first reading of ``text`` (builders return None, or raise :class:`_Unknown`, to pass); when
        none reads it, the error about the shortest fragment (the likeliest typo of a name)."""
        work = _WORK.get()
        if work is not None:
            work[0] -= 1
            if work[0] < 0:  # a sentence with many ways to split it: not read rather than read slowly
                raise _OutOfWork(text)
        errors: list[_Unknown] = []
        for pattern, build in self.rules:
            match = pattern.fullmatch(text)
            if match is None or _spans_clauses(match):
                continue
            saved = reader.save()
            reader.new_clause = True
            try:
                result = build(match, reader)
            except _Unknown as error:
                errors.append(error)
                result = None
            if result is not None:
                return result
            reader.restore(saved)
        if errors:
            raise min(errors, key=lambda e: len(e.fragment))
        raise _Unknown(f"not {what}: {text}", text)


_PLURAL_THEY = re.compile(r"(?:they|them|their|theirs)(?:'s)?", re.IGNORECASE)
#: A question said of several: "what ARE their life TOTALS", "how much life do they both have".
_PLURAL = re.compile(r"\b(?:are|totals|lives|both|each|all)\b", re.IGNORECASE)


def _each(ref: Ref, template: str) -> tuple[str, ...]:
    return tuple(template.format(p=p) for p in ref.players)


def _per_player(question: str, words: str, *, one: bool = False, needs_roles: bool = False,
                new: bool = False) -> Callable[[re.Match[str], _Reader], _Ask | None]:
    """A builder asking ``question(X)`` of each player the fragment ``x`` names ("what is {who}'s life
    total" -> ``life(Ann)``). ``one``: a single player; ``needs_roles``: Treachery only; ``new``: only once
    the model knows the question (issue 13's additions)."""

    def build(match: re.Match[str], reader: _Reader) -> _Ask | None:
        if needs_roles and not reader.facts.roles:
            return None
        if new and (not reader.facts.questions or not reader.facts.knows_question(question)):
            return None
        who = reader.refer(match["x"], one=one)
        if len(who.players) == 1 and _PLURAL_THEY.fullmatch(match["x"].strip()) and _PLURAL.search(match[0]):
            # "what are their life totals": several players asked about, not the one the pronoun came to
            raise _Unknown(f"whom does '{match['x'].strip()}' stand for? name the players", match["x"])
        return _Ask(question, words.format(who=who.words), _each(who, question + "({p})"), who.players,
                    Each(question, who.players))

    build.__qualname__ = f"_per_player[{question}]"  # one name per question (tests name the patterns)
    return build


def _said(match: re.Match[str], *groups: str) -> str | None:
    """The first of several alternative groups that matched (each regex of a rule names its own)."""
    return next((match.groupdict()[g] for g in groups if match.groupdict().get(g)), None)
