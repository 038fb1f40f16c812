"""Search stage: fusion and priors — the BM25 and dense rankings combined, then moved by what the rules'
structure says about them.

* :func:`fuse` adds the two methods' min-max normalised scores (``bm25_share`` for BM25) and lifts the
  glossary entries the question names;
* :class:`Priors` then applies the priors (see ``docs/search.md``): a named variant's records up and an
  unnamed one's down, the general subrule before its variants, version history only when asked, a list
  rule handing its place to its best item.

>>> bm25, dense = [("a", 9.0), ("b", 6.0), ("c", 3.0)], [("b", 0.8), ("c", 0.6), ("d", 0.4)]
>>> [rid for rid, _ in fuse(bm25, dense, [], FusionParams())]
['b', 'a', 'c', 'd']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulesjudge.corpus.records import Record
from rulesjudge.indexer.chunks import introduces_list
from rulesjudge.indexer.lexical import tokenize
from rulesjudge.indexer.scopes import DOCUMENT_SCOPES

Scored = list[tuple[str, float]]  # (record id, score), best first
_HANDOVER_MARGIN = 0.15  # a list rule hands over only to a subrule this close (FusionParams.intro_handover)
#: a retelling restates a rule when this share of its words are the rule's, and they are this share of
#: the rule's (Priors.restates)
_QUOTED_SHARE, _QUOTING_SHARE = 0.5, 0.8
#: a subrule that opens with a condition states a case of its rule (FusionParams.case_penalty)
_CONDITION = re.compile(r"^(?:If|When|Whenever|In a|Once|While)\b([^,.]{3,120})[,.]")


@dataclass(frozen=True)
class FusionParams:
    """How the BM25 and dense rankings are combined (each over its top ``candidates``).

    * ``mode="scores"`` (default): each method's scores are min-max normalised over its candidates and
      added, ``bm25_share`` for BM25 and ``1 - bm25_share`` for dense; a glossary term named in the
      question adds ``glossary_lift * share ** glossary_power`` to its entry.
    * ``mode="rrf"``: weighted reciprocal rank fusion, ``Σ weight / (k0 + rank)``; the glossary lift is
      ``glossary_lift * share ** glossary_power / (k0 + 1)`` (in units of a rank-1 contribution).
    """

    mode: str = "scores"
    bm25_share: float = 0.6
    k0: float = 5.0
    bm25_weight: float = 1.0
    dense_weight: float = 0.75
    glossary_lift: float = 0.4
    glossary_power: float = 2.0  # the lift scales with (share of the question the term covers) ** power
    candidates: int = 100  # per method
    #: reward for being good in one method: ``best_weight * max(bm25, dense)`` (normalised scores) is added,
    #: so a record first in one method is not beaten by one that is middling in both
    best_weight: float = 0.0
    #: a subrule loses ``sibling_penalty`` per letter after the first (at most 4) when an earlier sibling
    #: is also a candidate: the general rule (702.19b trample) before its variants (702.19c–e)
    sibling_penalty: float = 0.05
    #: a subrule loses this when its own rule is also a candidate: the general rule (810.9) before the
    #: subrule that says a case of it (810.9c) unless the question's words pull the case far enough ahead
    child_penalty: float = 0.0
    #: a subrule that states a case of its rule ("810.9c If an effect sets a single player's life total
    #: …") loses this when its rule is also a candidate and the question says fewer than two words of
    #: the case's condition: the general rule (810.9) answers a question that doesn't say the case
    case_penalty: float = 0.06
    #: added to official rules and rulings: the Comprehensive Rules before a wiki page retelling them
    official_prior: float = 0.0
    #: added to the records of a variant the question names ("2HG", "the Leader") (:mod:`indexer.scopes`)
    scope_lift: float = 0.3
    #: added instead to the records of a document about one variant (the Treachery rules and identity
    #: cards, the Emperor page) when the question names it
    document_lift: float = 0.4
    #: taken from the records of a variant the question does not name: the general rule first
    variant_penalty: float = 0.05
    #: taken instead from the records of a document about one variant (the Treachery rules and identity
    #: cards, the Emperor page) when the question doesn't name it: "change the target" must not find
    #: The Reflector's note in a question that is not about Treachery
    document_penalty: float = 0.3
    #: taken from a card's note (a Treachery identity card's rulings) when the question doesn't say the
    #: card's name: "is a player whose identity is still hidden my opponent" asks about 907.5d, not
    #: about The Gatekeeper, whose note happens to speak of hidden identities
    note_penalty: float = 0.2
    #: taken from a document's version-history entries ("First revision.") unless the question asks about
    #: versions or changes: short, they are near every question to the model, and answer almost none
    history_penalty: float = 0.2
    #: a rule that introduces a list ("903.5 Each Commander deck is subject to the following deck
    #: construction rules.") hands its place to its best-ranked subrule, which then leads it by this much:
    #: the answer is the item, and the list rule follows as its context
    intro_handover: float = 0.01
    #: a ruling or wiki section that restates an official rule (holds nearly all its words: the monarch's
    #: ruling "There are two inherent triggered abilities …" is 725.2 word for word) hands its place to
    #: that rule when it ranks above it, which then leads it by this much: the rule before its retelling
    quote_handover: float = 0.01
    #: a record's dense score is its chunk's cosine plus ``sentence_weight`` times what its best sentence
    #: adds to it (:meth:`DenseIndex.search_records`): a long rule's one decisive sentence is not diluted
    #: by the rest of its chunk (tuned on the dev half: 0.25-1.0 tried)
    sentence_weight: float = 0.75
    #: added to the rules a named card's Oracle templates invoke ("enters tapped" -> 614.12;
    #: ``corpus/cards/oracle_templates.yaml``), and to its keywords' rules (:mod:`indexer.card_stage`).
    #: 0.35 while templates counted for any shared word; 0.5 since they say how a question speaks of them
    #: (dev half, real-cards R@5: 0.25 .700, 0.35 .738, 0.45 .762, 0.5 .812, 0.6 .825 but seed R@5 -0.011)
    card_rule_lift: float = 0.5
    keyword_lift: float = 0.05
    #: added to the rules of a named card's rare glossary terms ("devotion" -> 700.5, "protection" ->
    #: 702.16; :meth:`CardStage.terms_of <indexer.card_stage.CardStage.terms_of>`), whether the question
    #: says the term or not (chosen on the dev halves, "Search round 6" in docs/search.md)
    card_term_lift: float = 0.05
    #: the rules nearest (BM25) to a named card's best ruling for the question get this times their
    #: score over the best one's (:meth:`Searcher._card_evidence`; dev halves, "Search round 6")
    ruling_weight: float = 0.05


DEFAULT_FUSION = FusionParams()


@dataclass(frozen=True)
class QuestionFacts:
    """What the priors need to know about a question: the variants it names, whether it asks about a
    document's history."""

    named: frozenset[str] = frozenset()
    about_history: bool = False
    #: the question's words, stemmed as BM25 reads them (for the conditions of cases)
    words: frozenset[str] = frozenset()
    #: the words of the card names the question says (the cards stage reads them as card types)
    said: frozenset[str] = frozenset()


def fuse(
    lexical: Sequence[tuple[str, float]], dense: Sequence[tuple[str, float]],
    lifted: Iterable[tuple[str, float]], params: FusionParams,
) -> list[tuple[str, float]]:
    """Combine two (id, score) rankings, best first, plus a lift for glossary entries named in the query.

    >>> rrf = FusionParams("rrf", k0=1.0, dense_weight=1.0)
    >>> fuse([("a", 1.0), ("b", 0.5)], [("b", 0.9), ("c", 0.1)], [], rrf)
    [('b', 0.8333333333333333), ('a', 0.5), ('c', 0.3333333333333333)]
    """
    fused: dict[str, float] = {}
    if params.mode == "rrf":
        for weight, ranking in ((params.bm25_weight, lexical), (params.dense_weight, dense)):
            for rank, (record_id, _score) in enumerate(ranking[: params.candidates], start=1):
                fused[record_id] = fused.get(record_id, 0.0) + weight / (params.k0 + rank)
        unit = 1.0 / (params.k0 + 1)
    else:
        normalised = [min_max(ranking[: params.candidates]) for ranking in (lexical, dense)]
        for weight, scores in zip((params.bm25_share, 1.0 - params.bm25_share), normalised, strict=True):
            for record_id, value in scores.items():
                fused[record_id] = fused.get(record_id, 0.0) + weight * value
        if params.best_weight:  # a record first in one method is not beaten by one middling in both
            for record_id in fused:
                best = max(scores.get(record_id, 0.0) for scores in normalised)
                fused[record_id] += params.best_weight * best
        unit = 1.0
    for record_id, share in lifted:
        lift = params.glossary_lift * share**params.glossary_power * unit
        fused[record_id] = fused.get(record_id, 0.0) + lift
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))


def lift(scored: Sequence[tuple[str, float]], ids: Sequence[str], amount: float) -> list[tuple[str, float]]:
    """Add ``amount`` to the records ``ids`` (a record not among the candidates enters with it), best first.

    >>> lift([("a", 0.5), ("b", 0.4)], ["b", "c"], 0.2)
    [('b', 0.6000000000000001), ('a', 0.5), ('c', 0.2)]
    """
    if not ids or not amount:
        return list(scored)
    return _add(scored, dict.fromkeys(ids, amount))


def blend(scored: Sequence[tuple[str, float]], ranking: Sequence[tuple[str, float]], weight: float,
          top: int = 10) -> list[tuple[str, float]]:
    """Add ``weight`` times each of ``ranking``'s first ``top`` scores over its best to ``scored``.

    >>> blend([("a", 0.5), ("b", 0.4)], [("b", 4.0), ("c", 2.0)], 0.2)
    [('b', 0.6000000000000001), ('a', 0.5), ('c', 0.1)]
    """
    ranking = list(ranking)[:top]
    if not ranking or not weight or ranking[0][1] <= 0:
        return list(scored)
    best = ranking[0][1]
    return _add(scored, {rid: weight * max(score, 0.0) / best for rid, score in ranking})


def _add(scored: Sequence[tuple[str, float]], extra: Mapping[str, float]) -> list[tuple[str, float]]:
    """``scored`` with ``extra`` added (a record not among them enters with it), best first."""
    score = dict(scored)
    for record_id, amount in extra.items():
        score[record_id] = score.get(record_id, 0.0) + amount
    return sorted(score.items(), key=lambda item: (-item[1], item[0]))


def min_max(ranking: Sequence[tuple[str, float]]) -> dict[str, float]:
    """Scores scaled to 0..1 over the candidates (all 1.0 when they are equal).

    >>> min_max([("a", 4.0), ("b", 2.0), ("c", 3.0)])
    {'a': 1.0, 'b': 0.0, 'c': 0.5}
    """
    if not ranking:
        return {}
    high, low = max(score for _, score in ranking), min(score for _, score in ranking)
    return {record_id: (score - low) / (high - low) if high > low else 1.0 for record_id, score in ranking}


class Priors:
    """The priors on fused scores, with what they read off the records cached per record."""

    def __init__(self, records: Mapping[str, Record]) -> None:
        self.records = records
        self._siblings_of: dict[str, list[str]] = {}  # parent id -> its subrules (priors ask per candidate)
        self._lists: dict[str, bool] = {}  # record id -> does it introduce a list (introduces_list)
        self._conditions: dict[str, frozenset[str]] = {}
        self._names: dict[str, frozenset[str]] = {}  # card note id -> its card's name, as BM25 reads it
        self._tokens: dict[str, frozenset[str]] = {}  # record id -> its words, as BM25 reads them

    def adjust(self, fused: Sequence[tuple[str, float]], params: FusionParams, facts: QuestionFacts,
               scopes: Any) -> list[tuple[str, float]]:
        """Official text first, the general subrule before its variants, the general rule before a
        variant's unless the question names the variant (``facts.named``; ``scopes``: a
        :class:`~indexer.scopes.Scopes`, read only when a scope prior is on), version history only when
        asked about."""
        if not (params.official_prior or params.note_penalty or params.sibling_penalty or params.scope_lift
                or params.variant_penalty or params.history_penalty or params.intro_handover
                or params.quote_handover
                or params.child_penalty or params.case_penalty):
            return list(fused)
        named = facts.named
        present = {record_id for record_id, _ in fused}
        use_scopes = bool(params.scope_lift or params.variant_penalty)
        adjusted = []
        for record_id, score in fused:
            record = self.records[record_id]
            if record.official:
                score += params.official_prior
            scope = scopes.scope_of(record_id) if use_scopes else None
            if scope is not None:
                about_one = record.document in DOCUMENT_SCOPES
                unnamed = params.document_penalty if about_one else params.variant_penalty
                named_lift = params.document_lift if about_one else params.scope_lift
                score += named_lift if scope in named else -unnamed
            if params.note_penalty and record.kind == "card-note" and not self._named_card(record, facts):
                score -= params.note_penalty
            if record.kind == "history" and not facts.about_history:
                score -= params.history_penalty
            if params.sibling_penalty and record.kind == "subrule" and record.parent:
                position = self._sibling_position(record)
                if position and any(other in present for other in self._earlier_siblings(record)):
                    score -= params.sibling_penalty * min(position, 4)
            if params.child_penalty and record.kind == "subrule" and record.parent in present:
                score -= params.child_penalty
            if params.case_penalty and record.kind == "subrule" and record.parent in present:
                condition = self._condition(record)
                if condition and len(condition & facts.words) < 2:
                    score -= params.case_penalty
            adjusted.append((record_id, score))
        if params.intro_handover:
            adjusted = self._hand_over(adjusted, params.intro_handover)
        if params.quote_handover:
            adjusted = self._official_first(adjusted, params.quote_handover)
        adjusted.sort(key=lambda item: (-item[1], item[0]))
        return adjusted

    def _named_card(self, record: Record, facts: QuestionFacts) -> bool:
        """Does the question say the name of the card a note is about (every word of it but "the")?"""
        if record.id not in self._names:

            self._names[record.id] = frozenset(tokenize(record.title or ""))
        name = self._names[record.id]
        return bool(name) and name <= facts.words | facts.said

    def _condition(self, record: Record) -> frozenset[str]:
        """The words of the condition a subrule opens with ("If an effect sets a single player's life
        total to a specific number, …" → effect, set, singl, player, life, total, specif, number), empty
        for a subrule that states no case."""
        if record.id not in self._conditions:
            match = _CONDITION.match(record.text)
            self._conditions[record.id] = frozenset(tokenize(match[1])) if match else frozenset()
        return self._conditions[record.id]

    def _hand_over(self, scored: list[tuple[str, float]], lead: float) -> list[tuple[str, float]]:
        """A list-introducing rule ranked above its subrules gives its best subrule its score plus
        ``lead`` when that subrule is a close candidate by itself (within ``_HANDOVER_MARGIN``): the answer
        is the item, the list rule follows as its context. A subrule far behind means the question asks
        about the list as a whole ("what are the categories of abilities", "in what order are effects
        applied"), and the list rule keeps its place."""
        score = dict(scored)
        for record_id, value in scored:
            if record_id not in self._lists:
                self._lists[record_id] = introduces_list(self.records[record_id])
            if not self._lists[record_id]:
                continue
            record = self.records[record_id]
            children = [c for c in record.children if c in score]
            if children:
                best = max(children, key=score.__getitem__)
                if score[best] >= value - _HANDOVER_MARGIN:
                    score[best] = max(score[best], value + lead)
        return list(score.items())

    def _official_first(self, scored: list[tuple[str, float]], lead: float) -> list[tuple[str, float]]:
        """A ruling or wiki section ranked above an official rule among the candidates that it restates
        (:meth:`restates`) gives that rule its score plus ``lead``: the Comprehensive Rules' number
        first, the retelling after it."""
        retellings = [(rid, value) for rid, value in scored if self.records[rid].kind in ("ruling", "prose")]
        if not retellings:
            return scored
        score = dict(scored)
        official = [rid for rid, _ in scored
                    if self.records[rid].official and self.records[rid].kind in ("rule", "subrule")]
        for record_id, value in retellings:
            rules = [rule for rule in official if score[rule] < value and self.restates(record_id, rule)]
            if rules:
                best = max(rules, key=score.__getitem__)
                score[best] = value + lead
        return list(score.items())

    def restates(self, retelling: str, rule: str) -> bool:
        """Does the retelling say the rule over and nothing more: at least ``_QUOTING_SHARE`` of its words
        are the rule's, and they are at least ``_QUOTED_SHARE`` of the rule's. The monarch's ruling "There
        are two inherent triggered abilities …" is 725.2 word for word; "If the monarch leaves the game
        during another player's turn …" is most of 725.4. The Emperor page's Setup holds all of 809.2 and
        more (the seats, the first turn): it says more than the rule, and keeps its place."""
        words, rule_words = self._words(retelling), self._words(rule)
        if not words or not rule_words:
            return False
        shared = len(words & rule_words)
        return shared >= _QUOTING_SHARE * len(words) and shared >= _QUOTED_SHARE * len(rule_words)

    def _words(self, record_id: str) -> frozenset[str]:
        if record_id not in self._tokens:
            self._tokens[record_id] = frozenset(tokenize(self.records[record_id].text))
        return self._tokens[record_id]

    def _siblings(self, record: Record) -> list[str]:
        if not record.parent:
            return []
        if record.parent not in self._siblings_of:
            parent = self.records.get(record.parent)
            self._siblings_of[record.parent] = [] if parent is None else [
                c for c in parent.children if c in self.records and self.records[c].kind == "subrule"]
        return self._siblings_of[record.parent]

    def _sibling_position(self, record: Record) -> int:
        siblings = self._siblings(record)
        return siblings.index(record.id) if record.id in siblings else 0

    def _earlier_siblings(self, record: Record) -> list[str]:
        siblings = self._siblings(record)
        return siblings[:siblings.index(record.id)] if record.id in siblings else []
