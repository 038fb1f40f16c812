"""Cited-rule search: exact numbers first, then BM25 and dense results fused by their scores.

>>> parse_query("rule 907.11b").refs
(NumberRef(number='907.11b', document=None, alone=False),)
>>> parse_query("CR 722.4.").refs
(NumberRef(number='722.4', document='cr', alone=True),)
>>> parse_query("CR 722.4.").pure
True
>>> parse_query("what does 809.3c say about attacking?").pure
False
>>> parse_query("can I attack 100 times?").refs
()

How a question is answered:

1. **Exact numbers.** Rule numbers in the question ("809.3c", "rule 907.11b", "CR 722.4.") answer that
   rule first, then its subrules (a trailing period asks for the rule alone). When the number is found
   in several editions and means another rule in an older one, that older rule is resolved through the
   cross-release map to its current number and a note says so ("718.4 is the 2020-06-01 number; in
   2024-06-07 this rule is 722.4"). A question that is only a number never loads the model, FAISS or
   BM25 (``rulesjudge search 722.4`` answers before torch could even import).
2. **Hybrid.** BM25 (:mod:`indexer.lexical`) and the dense index (:mod:`indexer.index`) each rank the
   visible records; their min-max normalised scores are added with a fixed share, and glossary entries
   whose term appears in the question get a lift. Weights are tuned on ``indexer/questions.yaml``
   (see ``docs/search.md``).
3. **Filters.** ``document``; ``edition`` ("rules as of" a date: per document, the newest edition in
   effect on that date; or an exact edition name such as ``4.0``); ``official_only``. Without an edition
   filter every document shows its current text: an older edition's record is hidden when a complete
   newer release is loaded, or when the cross-release map finds the same rule in a newer edition.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulesjudge.corpus.errors import InputError
from rulesjudge.corpus.records import Corpus, Record, edition_of

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rulesjudge.indexer.chunks import Chunk
    from rulesjudge.indexer.embed import Embedder
    from rulesjudge.indexer.index import BuildReport, DenseIndex
    from rulesjudge.indexer.lexical import LexicalIndex

METHODS = ("hybrid", "bm25", "dense")
Scored = list[tuple[str, float]]  # (record id, score), best first
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# An edition with at least this many numbered rules is a complete release, not a page quoting a few.
FULL_RELEASE_RULES = 500


# --- query parsing -----------------------------------------------------------------------------------

_PREFIX = r"(?:(?P<prefix>comprehensive\s+rules?|cr|rules?|section|treachery|tr)\s*(?:#|no\.?\s*)?)?"
_NUMBER = r"(?P<number>\d{3}(?:\.\d{1,3}(?:[a-z]{1,2})?)?)"
_NUMBER_IN_TEXT = re.compile(
    rf"(?<![\w.]){_PREFIX}{_NUMBER}(?P<period>\.(?![\w]))?(?![\w])", re.IGNORECASE
)
_FILLER = re.compile(r"^(?:[\s,;:?!()\"'“”‘’&/+]|\band\b|\bor\b)*$", re.IGNORECASE)
_PREFIX_DOCUMENT = {"cr": "cr", "comprehensive rules": "cr", "comprehensive rule": "cr",
                    "treachery": "treachery", "tr": "treachery"}
_EDITION_WORDS = frozenset((
    "rule", "rules", "cr", "comprehensive", "edition", "release", "version", "from", "the", "of", "in", "as",
    "old", "older", "previous", "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
))
# Words that ask rather than say: they do not count as content when weighing a glossary term's share.
_QUESTION_WORDS = frozenset(("what", "who", "whom", "when", "where", "which", "why", "how", "doe", "mean",
                             "defin", "explain", "term", "call", "happen"))
_YEAR = re.compile(r"(?<!\d)(19|20)\d{2}(?!\d)")
_TITLE_WORDS = 4  # a rule whose whole text is this short is a title ("702.19. Trample")
_TINY_WORDS = 6  # a subrule this short ("Deathtouch is a static ability.") is shown with its parent rule
#: a subrule that only says what kind of ability a keyword is ("Double strike is a static ability that
#: modifies the rules for the combat damage step. (See rule 510 …)") points at the rules that say how
_LABEL = re.compile(r"^[^.]{1,40} is an? [\w-]+ ability(?: that modifies the rules (?:for|of) [^.(]+)?\.?"
                    r"(?: \(See rules? [^)]*\)\.?)?$")
_DEFINING_SHARE = 0.5  # a glossary term covering this much of the question is what it asks about
_HANDOVER_MARGIN = 0.15  # a list rule hands over only to a subrule this close (FusionParams.intro_handover)
_REDIRECT = re.compile(r"^See (?:also )?(.+?)\.?$")
_HISTORY = re.compile(r"\b(?:version|revision|revised|history|changelog|renumber\w*|renamed|changed|"
                      r"update[sd]?|added|removed|introduced|first (?:appeared|printed))\b", re.IGNORECASE)


@dataclass(frozen=True)
class NumberRef:
    """A rule number written in a question; ``alone`` when it ends with a period ("722.4.")."""

    number: str
    document: str | None = None
    alone: bool = False


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    refs: tuple[NumberRef, ...]
    pure: bool  # nothing but numbers (and "rule"/"CR")
    years: tuple[str, ...] = ()


def parse_query(text: str) -> ParsedQuery:
    """Find rule numbers. A bare three-digit number counts only with a prefix ("rule 809") or alone."""
    refs: list[NumberRef] = []
    rest = text
    matches = list(_NUMBER_IN_TEXT.finditer(text))
    only_numbers = bool(matches) and _FILLER.match(_NUMBER_IN_TEXT.sub(" ", text)) is not None
    for match in matches:
        number = match["number"].lower()
        prefix = (match["prefix"] or "").lower()
        prefix = re.sub(r"\s+", " ", prefix)
        if "." not in number and not prefix and not only_numbers:
            continue  # "100 life", "2 players": not a section number
        if number.split(".")[0][0] == "0":
            continue
        ref = NumberRef(number, _PREFIX_DOCUMENT.get(prefix), bool(match["period"]))
        if ref not in refs:
            refs.append(ref)
        rest = rest.replace(match.group(), " ", 1)
    years = tuple(dict.fromkeys(m.group() for m in _YEAR.finditer(rest)))
    # "rule 721.4 from the October 2022 rules" is still only a number (read in that edition)
    remainder = _YEAR.sub(" ", rest)
    remainder = " ".join(w for w in re.findall(r"[^\W\d_]+|\S", remainder) if w.lower() not in _EDITION_WORDS)
    pure = bool(refs) and _FILLER.match(remainder) is not None
    return ParsedQuery(text, tuple(refs), pure, years)


# --- hits --------------------------------------------------------------------------------------------


@dataclass
class Hit:
    """One search result with its citation, text, context and resolved cross-references."""

    id: str
    number: str | None
    document: str
    edition: str
    kind: str
    title: str
    text: str
    score: float
    cross_refs: list[str]
    official: bool
    citation: str
    parent: str | None = None
    context: str = ""  # section and parent rule, for display
    examples: list[str] = field(default_factory=list)
    match: str = "hybrid"  # exact | equivalent | hybrid | bm25 | dense
    note: str | None = None
    #: records shown with this hit rather than in its place: the glossary entry that points at this rule,
    #: a title-only section or rule whose first rule this is (see :meth:`Searcher.fold_target`)
    related: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "number": self.number,
            "document": self.document,
            "edition": self.edition,
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "score": round(self.score, 6),
            "cross_refs": list(self.cross_refs),
            "official": self.official,
            "citation": self.citation,
            "parent": self.parent,
            "context": self.context,
            "examples": list(self.examples),
            "match": self.match,
            "note": self.note,
            "related": list(self.related),
        }


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    notes: list[str] = field(default_factory=list)
    exact: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "exact": self.exact, "notes": list(self.notes),
                "hits": [hit.to_json() for hit in self.hits]}


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
    #: added to official rules and rulings: the Comprehensive Rules before a wiki page retelling them
    official_prior: float = 0.0
    #: added to the records of a variant the question names ("2HG", "the Leader") (:mod:`indexer.scopes`)
    scope_lift: float = 0.3
    #: taken from the records of a variant the question does not name: the general rule first
    variant_penalty: float = 0.05
    #: taken from a document's version-history entries ("First revision.") unless the question asks about
    #: versions or changes: short, they are near every question to the model, and answer almost none
    history_penalty: float = 0.2
    #: a rule that introduces a list ("903.5 Each Commander deck is subject to the following deck
    #: construction rules.") hands its place to its best-ranked subrule, which then leads it by this much:
    #: the answer is the item, and the list rule follows as its context
    intro_handover: float = 0.01
    #: a record's dense score is its chunk's cosine plus ``sentence_weight`` times what its best sentence
    #: adds to it (:meth:`DenseIndex.search_records`): a long rule's one decisive sentence is not diluted
    #: by the rest of its chunk (tuned on the dev half: 0.25-1.0 tried)
    sentence_weight: float = 0.75


@dataclass(frozen=True)
class QuestionFacts:
    """What the priors need to know about a question: the variants it names, whether it asks about a
    document's history."""

    named: frozenset[str] = frozenset()
    about_history: bool = False


DEFAULT_FUSION = FusionParams()


@dataclass(frozen=True)
class Filters:
    document: str | None = None
    edition: str | None = None
    official_only: bool = False


def edition_date(record: Record) -> str | None:
    """The date a record's edition took effect: its edition when that is a date, else ``effective``."""
    if _ISO_DATE.match(record.edition):
        return record.edition
    return record.effective if record.effective and _ISO_DATE.match(record.effective) else None


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def _number_key(number: str) -> tuple[Any, ...]:
    """Sort key for rule numbers: 809.3 < 809.3a < 809.3c < 809.10."""
    match = re.match(r"^(\d+)(?:\.(\d+)([a-z]*))?", number)
    if not match:
        return (10**6, number)
    return (int(match[1]), int(match[2] or -1), match[3] or "")


# --- the searcher ------------------------------------------------------------------------------------


class Searcher:
    """Search over a corpus. The index (model, FAISS, BM25) is prepared on first need, not before."""

    def __init__(
        self,
        corpus: Corpus,
        *,
        progress: bool = True,
        build: bool = True,
        embedder: Embedder | None = None,
        fusion: FusionParams = DEFAULT_FUSION,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.corpus = corpus
        self.records: Mapping[str, Record] = corpus.records
        self.progress = progress
        self.build = build
        self.fusion = fusion
        self._embedder = embedder
        self._notify = notify
        self._chunks: list[Chunk] | None = None
        self._row_of: dict[str, int] | None = None
        self._lexical: LexicalIndex | None = None
        self._dense: DenseIndex | None = None
        self._dense_tried = False
        self.build_report: BuildReport | None = None
        self._visible_cache: dict[Filters, frozenset[str]] = {}
        self._mask_cache: dict[Filters, Any] = {}
        self._glossary: dict[str, list[str]] | None = None
        self._folds: dict[str, str] | None = None
        self._vocabulary: Any = None
        self._scopes: Any = None
        self._siblings_of: dict[str, list[str]] = {}  # parent id -> its subrules (priors ask per candidate)
        self._lists: dict[str, bool] = {}  # record id -> does it introduce a list (introduces_list)
        self._equivalents_cache: dict[str, list[str]] = {}
        self._editions_cache: dict[str, list[str]] = {}
        # the corpus lists its documents: no record is built for that
        self.documents = sorted({document for document, _edition, _count in corpus.documents()})

    # --- lazily prepared parts ---

    def notify(self, message: str) -> None:
        if self._notify is not None:
            self._notify(message)
        else:
            print(f"rulesjudge: {message}", file=sys.stderr)

    @property
    def chunks(self) -> list[Chunk]:
        if self._chunks is None:
            from rulesjudge.indexer.chunks import make_chunks

            self._chunks = make_chunks(self.records)
            self._row_of = {chunk.id: row for row, chunk in enumerate(self._chunks)}
        return self._chunks

    @property
    def row_of(self) -> dict[str, int]:
        _ = self.chunks
        assert self._row_of is not None
        return self._row_of

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from rulesjudge.indexer.embed import Embedder

            self._embedder = Embedder()
        if self._embedder.notify is None:
            from rulesjudge.indexer.index import stderr_notify

            self._embedder.notify = self._notify or stderr_notify
        return self._embedder

    @property
    def lexical(self) -> LexicalIndex:
        if self._lexical is None:
            from rulesjudge.indexer.chunks import corpus_hash
            from rulesjudge.indexer.index import index_root
            from rulesjudge.indexer.lexical import LexicalIndex

            self._lexical = LexicalIndex.open(self.chunks, index_root() / "lexical", corpus_hash(self.chunks))
        return self._lexical

    @property
    def dense(self) -> DenseIndex | None:
        """The FAISS index, loaded or (when ``build``) rebuilt; None when it is stale and building is off."""
        if self._dense is None and not self._dense_tried:
            self._dense_tried = True
            self._dense = self._open_dense()
        return self._dense

    def _open_dense(self) -> DenseIndex | None:
        from rulesjudge.indexer.index import ensure_index, index_root, stderr_notify, try_load

        notify = self._notify or stderr_notify
        if not self.build:
            from rulesjudge.indexer.embed import model_hash, model_label
            from rulesjudge.indexer.index import IndexFileError, expected_manifest

            wanted = expected_manifest(self.chunks, model_label(self.embedder.path),
                                       model_hash(self.embedder.path), self.embedder.variant)
            try:
                dense, _reason = try_load(index_root(), wanted, [chunk.id for chunk in self.chunks])
            except IndexFileError as error:
                notify(f"{error}; dense search unavailable until the index is rebuilt")
                return None
            return dense
        dense, report = ensure_index(self.chunks, self.embedder, progress=self.progress, notify=notify)
        self.build_report = report
        return dense

    def prepare(self, methods: Iterable[str] = METHODS) -> Searcher:
        """Load (or build) everything the given methods need: call before timing queries."""
        methods = set(methods)
        if methods & {"bm25", "hybrid"}:
            _ = self.lexical
        if methods & {"dense", "hybrid"} and self.dense is not None:
            self.embedder.prepare_queries()
        return self

    # --- filters ---

    def _check_filters(self, filters: Filters) -> None:
        if filters.document is not None and filters.document not in self.documents:
            known = ", ".join(self.documents)
            raise InputError(None, f"unknown document {filters.document!r} (loaded: {known})", key="document")
        if filters.edition is not None and not _ISO_DATE.match(filters.edition):
            editions = {edition for _document, edition, _count in self.corpus.documents()}
            if filters.edition not in editions:
                raise InputError(None, f"bad edition {filters.edition!r}: expected a date YYYY-MM-DD "
                                 "or a loaded edition name", key="edition")
        if filters.edition is not None and _ISO_DATE.match(filters.edition):
            import datetime

            try:
                datetime.date.fromisoformat(filters.edition)
            except ValueError as error:
                raise InputError(None, f"bad date {filters.edition!r}: {error}", key="edition") from None

    def _in_scope(self, record: Record, filters: Filters) -> bool:
        """Document, official and date filters (not the hiding of superseded editions)."""
        if filters.document is not None and record.document != filters.document:
            return False
        if filters.official_only and not record.official:
            return False
        if filters.edition is None:
            return True
        if not _ISO_DATE.match(filters.edition):
            return record.edition == filters.edition
        date = edition_date(record)
        return date is None or date <= filters.edition

    def _edition_order(self, document: str) -> list[str]:
        """A document's loaded editions, oldest first (dates sort as text; named editions first)."""
        if document not in self._editions_cache:
            editions = self.corpus.editions(document)
            self._editions_cache[document] = sorted(editions, key=lambda ed: (bool(_ISO_DATE.match(ed)), ed))
        return self._editions_cache[document]

    def equivalent_ids(self, record_id: str) -> list[str]:
        """The same rule in every other loaded edition (the corpus follows its cross-release map: a page
        quoting the 2022 rules maps to the 2022 release, which maps on to 2026)."""
        if record_id not in self._equivalents_cache:
            found = (other for other, _changed in self.corpus.equivalents(record_id))
            self._equivalents_cache[record_id] = sorted(found)
        return self._equivalents_cache[record_id]

    def visible_ids(self, filters: Filters) -> frozenset[str]:
        """Records a search may show: in scope, and not superseded by a newer edition in scope."""
        if filters in self._visible_cache:
            return self._visible_cache[filters]
        by_document: dict[str, list[Record]] = {}
        for record in self.records.values():
            if self._in_scope(record, filters):
                by_document.setdefault(record.document, []).append(record)
        visible: set[str] = set()
        for document, records in by_document.items():
            order = {edition: i for i, edition in enumerate(self._edition_order(document))}
            editions = sorted({r.edition for r in records}, key=order.__getitem__)
            rule_counts: dict[str, int] = {}
            for record in records:
                if record.kind in {"rule", "subrule"}:
                    rule_counts[record.edition] = rule_counts.get(record.edition, 0) + 1
            full = [ed for ed in editions if rule_counts.get(ed, 0) >= FULL_RELEASE_RULES]
            floor = order[full[-1]] if full else -1
            newest = order[editions[-1]]
            in_scope_ids = {r.id for r in records}
            for record in records:
                rank = order[record.edition]
                if rank < floor:
                    continue
                if rank < newest and any(
                    other in in_scope_ids and order[other_edition] > rank
                    for other in self.equivalent_ids(record.id)
                    if (other_edition := edition_of(other)) in order
                ):
                    continue
                visible.add(record.id)
        result = frozenset(visible)
        self._visible_cache[filters] = result
        return result

    def mask(self, filters: Filters) -> np.ndarray:
        if filters not in self._mask_cache:
            import numpy as np

            visible = self.visible_ids(filters)
            self._mask_cache[filters] = np.array([chunk.id in visible for chunk in self.chunks], dtype=bool)
        return self._mask_cache[filters]

    # --- exact numbers ---

    def numbered(self, number: str) -> dict[str, list[Record]]:
        """document -> records with this rule number, oldest edition first.

        Uses the corpus's own number index when it has one (``Corpus.numbered``), so answering "722.4"
        builds a handful of records, not the whole corpus."""
        found: dict[str, list[Record]] = {}
        for document in self.documents:
            by_edition = self.corpus.numbered(number, document)
            records = [self.records[rid] for rid in by_edition.values() if rid in self.records]
            if records:
                found[document] = records
        for document, records in found.items():
            records[:] = [r for r in records if r.kind in {"section", "rule", "subrule", "reminder"}]
            order = {ed: i for i, ed in enumerate(self._edition_order(document))}
            records.sort(key=lambda r: order.get(r.edition, -1))
        return {document: records for document, records in found.items() if records}

    def _children(self, record: Record, filters: Filters) -> list[Record]:
        children = [self.records[c] for c in record.children if c in self.records]
        children = [c for c in children if c.kind in {"rule", "subrule", "reminder"}]
        return sorted(children, key=lambda r: _number_key(r.number or ""))

    def _newest_equivalent(self, record: Record, filters: Filters) -> Record | None:
        order = {ed: i for i, ed in enumerate(self._edition_order(record.document))}
        best: Record | None = None
        for other_id in self.equivalent_ids(record.id):
            other = self.records.get(other_id)
            if other is None or other.document != record.document or not self._in_scope(other, filters):
                continue
            if order.get(other.edition, -1) > order.get(record.edition, -1) and (
                best is None or order[other.edition] > order[best.edition]
            ):
                best = other
        return best

    def _exact_groups(self, parsed: ParsedQuery, filters: Filters) -> tuple[list[list[Hit]], list[str]]:
        """Groups of exact hits (a rule followed by its subrules) and the notes explaining them."""
        groups: list[list[Hit]] = []
        notes: list[str] = []
        for ref in parsed.refs:
            per_document = self.numbered(ref.number)
            documents = sorted(per_document, key=lambda d: (d not in {"cr", "rulings"}, d))
            for document in documents:
                if ref.document and document != ref.document:
                    continue
                records = [r for r in per_document[document] if self._in_scope(r, filters)]
                if not records:
                    continue
                groups.extend(self._groups_for(ref, records, filters, parsed, notes))
        return groups, notes

    def _groups_for(self, ref: NumberRef, records: list[Record], filters: Filters, parsed: ParsedQuery,
                    notes: list[str]) -> list[list[Hit]]:
        primary = records[-1]
        hinted = [r for r in records if any((edition_date(r) or "").startswith(y) for y in parsed.years)]
        if hinted and hinted[-1] is not primary:
            primary = hinted[-1]  # "718.4 in the 2020 rules": read the number in that edition
        primary_family = {primary.id, *self.equivalent_ids(primary.id)}
        groups: list[list[Hit]] = []
        current = self._newest_equivalent(primary, filters) if primary is not records[-1] else None
        if current is not None:
            note = _moved(ref.number, primary, current)
            notes.append(note)
            groups.append(self._group(current, ref, filters, "equivalent", note))
        groups.append(self._group(primary, ref, filters, "exact", None))
        shown = {primary.id} | ({current.id} if current else set())
        for older in reversed(records):  # the number's other meanings, newest first
            if older.id in primary_family or older is primary:
                continue
            newer = self._newest_equivalent(older, filters)
            if newer is not None and newer.id in shown:
                continue
            if newer is not None:
                note = _moved(ref.number, older, newer)
                notes.append(note)
                groups.append(self._group(newer, ref, filters, "equivalent", note))
                shown.add(newer.id)
            else:
                note = (f"{ref.number} in {older.edition} is a different rule from {ref.number} "
                        f"in {primary.edition}")
                notes.append(note)
                groups.append(self._group(older, ref, filters, "exact", note))
            primary_family.update({older.id, *self.equivalent_ids(older.id)})
        return groups

    def _group(self, record: Record, ref: NumberRef, filters: Filters, match: str,
               note: str | None) -> list[Hit]:
        group = [self.hit(record, 0.0, match, note)]
        if not ref.alone:
            group.extend(self.hit(child, 0.0, match) for child in self._children(record, filters))
        return group

    # --- ranking ---

    def rewrite(self, text: str) -> str:
        """The question in the rules' words: the judge's lexicon, then typos corrected against the
        corpus vocabulary (:mod:`indexer.query`)."""
        from rulesjudge.indexer.query import load_lexicon, rewrite

        return rewrite(text, load_lexicon(), self.vocabulary).text

    @property
    def vocabulary(self) -> Any:
        if self._vocabulary is None:
            from rulesjudge.indexer.query import Vocabulary

            words = self.lexical.words
            self._vocabulary = Vocabulary(words) if words else Vocabulary.of_texts(
                chunk.lexical_text for chunk in self.chunks)
        return self._vocabulary

    def _ranked(self, text: str, method: str, filters: Filters, limit: int) -> list[tuple[str, float]]:
        """(record id, score) by BM25, dense or their fusion, best first, among visible records; records
        that only point at another one are folded into it (see :meth:`ranked`)."""
        return [(record_id, score) for record_id, score, _ in self.ranked(text, method, filters, limit)]

    def ranked(self, text: str, method: str, filters: Filters, limit: int,
               ) -> list[tuple[str, float, tuple[str, ...]]]:
        """(record id, score, records folded into it), best first."""
        facts = self.facts(text) if method == "hybrid" else None
        lexical, dense, lifted = self._method_rankings(text, method, filters, limit, facts)
        if method == "bm25":
            fused = lexical
        elif method == "dense":
            fused = dense
        else:
            fused = fuse(lexical, dense, lifted, self.fusion)
            fused = self.adjust(fused, self.fusion, facts or QuestionFacts())
        return self.fold(fused, filters, self.defining(text))[:limit]

    @property
    def scopes(self) -> Any:
        """Which records belong to a variant, and the words that name it (:mod:`indexer.scopes`)."""
        if self._scopes is None:
            from rulesjudge.indexer.scopes import Scopes

            self._scopes = Scopes.of(self.records)
        return self._scopes

    def facts(self, text: str) -> QuestionFacts:
        """The variants (and variant documents) the question names, read after the lexicon, and whether
        it asks about versions."""
        return QuestionFacts(frozenset(self.scopes.named(self.rewrite(text))), bool(_HISTORY.search(text)))

    def defining(self, text: str) -> set[str]:
        """Glossary entries whose term is most of what the question asks ("what is a permanent")."""
        return {rid for rid, share in self.glossary_weights(self.rewrite(text)) if share >= _DEFINING_SHARE}

    def adjust(self, fused: Sequence[tuple[str, float]], params: FusionParams,
               facts: QuestionFacts = QuestionFacts()) -> list[tuple[str, float]]:
        """Priors on the fused scores: official text first, the general subrule before its variants, the
        general rule before a variant's unless the question names the variant (``facts.named``), version
        history only when asked about."""
        if not (params.official_prior or params.sibling_penalty or params.scope_lift or params.variant_penalty
                or params.history_penalty or params.intro_handover):
            return list(fused)
        named = facts.named
        present = {record_id for record_id, _ in fused}
        scopes = self.scopes if params.scope_lift or params.variant_penalty else None
        adjusted = []
        for record_id, score in fused:
            record = self.records[record_id]
            if record.official:
                score += params.official_prior
            scope = scopes.scope_of(record_id) if scopes is not None else None
            if scope is not None:
                score += params.scope_lift if scope in named else -params.variant_penalty
            if record.kind == "history" and not facts.about_history:
                score -= params.history_penalty
            if params.sibling_penalty and record.kind == "subrule" and record.parent:
                position = self._sibling_position(record)
                if position and any(other in present for other in self._earlier_siblings(record)):
                    score -= params.sibling_penalty * min(position, 4)
            adjusted.append((record_id, score))
        if params.intro_handover:
            adjusted = self._hand_over(adjusted, params.intro_handover)
        adjusted.sort(key=lambda item: (-item[1], item[0]))
        return adjusted

    def _hand_over(self, scored: list[tuple[str, float]], lead: float) -> list[tuple[str, float]]:
        """A list-introducing rule ranked above its subrules gives its best subrule its score plus
        ``lead`` when that subrule is a close candidate by itself (within ``_HANDOVER_MARGIN``): the answer
        is the item, the list rule follows as its context. A subrule far behind means the question asks
        about the list as a whole ("what are the categories of abilities", "in what order are effects
        applied"), and the list rule keeps its place."""
        from rulesjudge.indexer.chunks import introduces_list

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

    def _method_rankings(self, text: str, method: str, filters: Filters, limit: int,
                         facts: QuestionFacts | None = None) -> tuple[Scored, Scored, Scored]:
        """Each method's (id, score) candidates for the rewritten question, and the glossary lifts
        (``facts``: the question's :meth:`facts` when the caller has them already)."""
        mask = self.mask(filters)
        if not mask.any():
            return [], [], []
        text = self.rewrite(text)
        n = max(self.fusion.candidates if method == "hybrid" else limit, limit) + 20  # room for folding
        ids = [chunk.id for chunk in self.chunks]
        lexical: list[tuple[str, float]] = []
        dense: list[tuple[str, float]] = []
        if method in {"bm25", "hybrid"}:
            words = text
            if method == "hybrid":  # a named variant's scope lift stands for its name there
                named = facts.named if facts is not None else self.scopes.named(text)
                words = self.scopes.without_option_users(text, named)
            lexical = [(ids[row], score) for row, score in self.lexical.top(words, n, mask)]
        if method in {"dense", "hybrid"}:
            index = self.dense
            if index is not None:
                vector = self.embedder.encode_query(text)
                found = index.search_records(vector, n, mask, self.fusion.sentence_weight)
                dense = [(index.ids[row], score) for row, score in found]
        visible = self.visible_ids(filters)
        lifted = [(rid, share) for rid, share in self.glossary_weights(text) if rid in visible]
        return lexical, dense, lifted

    # --- folding: a record that only points at another is shown with it, not in its place ---

    def fold_target(self, record_id: str) -> str | None:
        """The record shown in this one's place: a glossary entry's rule ("Trample … See rule 702.19"),
        a redirect's entry ("APNAP Order — See Active Player, Nonactive Player Order"), the first rule
        of a section or of a title-only rule ("702.19. Trample"); None for a record that stands alone."""
        if self._folds is None:
            self._folds = self._fold_map()
        return self._folds.get(record_id)

    def is_heading(self, record_id: str) -> bool:
        """A section ("725. The Monarch", "600. General") or a rule that is only a title ("702.19. Trample")
        with rules under it: left out of rankings (its words would make its first rule a catch-all); an exact
        number still shows it."""
        record = self.records[record_id]
        return record.kind == "section" or (
            record.kind == "rule" and bool(record.children) and len(record.text.split()) <= _TITLE_WORDS)

    def _fold_map(self) -> dict[str, str]:
        titles: dict[tuple[str, str], str] = {}
        for record in self.records.values():
            if record.kind == "glossary":
                titles[(f"{record.document}@{record.edition}", _term_key(record.title))] = record.id
        direct: dict[str, str] = {}
        for record in self.records.values():
            target = self._direct_fold(record, titles)
            if target is not None and target != record.id and target in self.records:
                direct[record.id] = target
        folds: dict[str, str] = {}
        for record_id in direct:  # follow chains (redirect -> entry -> section -> first rule)
            target, seen = direct[record_id], {record_id}
            while target in direct and target not in seen and len(seen) < 5:
                seen.add(target)
                target = direct[target]
            folds[record_id] = target
        return folds

    def _direct_fold(self, record: Record, titles: Mapping[tuple[str, str], str]) -> str | None:
        edition = f"{record.document}@{record.edition}"
        if record.kind == "glossary":
            targets = [ref.target for ref in record.cross_refs
                       if ref.target and ref.target.startswith(edition)]
            if targets:
                return targets[0]
            redirect = _REDIRECT.match(record.text.strip())
            if redirect:
                return titles.get((edition, _term_key(redirect[1])))
            return None
        if record.kind == "section" or (record.kind == "rule" and len(record.text.split()) <= _TITLE_WORDS):
            children = [self.records[c] for c in record.children if c in self.records]
            children = [c for c in children if c.kind in {"rule", "subrule"}]
            substantive = [c for c in children if not _is_label(c)]
            return (substantive or children)[0].id if children else None
        if record.kind == "subrule" and record.parent and _is_label(record):
            return record.parent  # "Deathtouch is a static ability." says nothing on its own
        return None

    def fold(self, ranked: Sequence[tuple[str, float]], filters: Filters, defining: Iterable[str] = (),
             ) -> list[tuple[str, float, tuple[str, ...]]]:
        """Show pointers with the record they point at, not in its place.

        A glossary entry whose term is what the question asks about (``defining``: "what is a
        permanent") hands its score to its rule; any other pointer is listed with its rule when that
        rule ranks, and left out otherwise (the glossary's "Monarch" would otherwise lift 725.1 for
        every question naming the monarch). Headings are left out. Scores keep their order."""
        visible = self.visible_ids(filters)
        defining = set(defining)
        score: dict[str, float] = {}
        related: dict[str, list[str]] = {}
        for record_id, value in ranked:
            if self.is_heading(record_id):
                continue  # a section or a title-only rule answers nothing by itself
            target = self.fold_target(record_id)
            if target is None or target not in visible:
                score[record_id] = max(score.get(record_id, float("-inf")), value)
                continue
            related.setdefault(target, []).append(record_id)
            if record_id in defining or self.records[record_id].kind != "glossary":
                score[target] = max(score.get(target, float("-inf")), value)
        order = sorted(score, key=lambda rid: -score[rid])
        return [(rid, score[rid], tuple(related.get(rid, ()))) for rid in order]

    @property
    def glossary(self) -> dict[str, list[str]]:
        """Glossary term (lower case) -> ids of the entries defining it."""
        if self._glossary is None:
            terms: dict[str, list[str]] = {}
            for record in self.records.values():
                if record.kind != "glossary":
                    continue
                for term in (record.title, *record.aliases):
                    key = _term_key(term)
                    if len(key) >= 4:
                        terms.setdefault(key, []).append(record.id)
            self._glossary = terms
        return self._glossary

    def glossary_matches(self, text: str) -> list[str]:
        """Glossary entries whose term (or its plural) is written in the question, longest terms first."""
        return [record_id for record_id, _share in self.glossary_weights(text)]

    def glossary_weights(self, text: str) -> list[tuple[str, float]]:
        """Glossary entries named in the question, with the share of the question's content words the
        term covers: "what is a general" is all about the term (1.0), "can the emperor attack at the
        start" only partly (1/3), so the entry is lifted in proportion."""
        from rulesjudge.indexer.lexical import tokenize

        content = max(1, len([w for w in tokenize(text) if w not in _QUESTION_WORDS]))
        words = _term_key(text).split()
        found: list[tuple[str, float]] = []
        used: set[int] = set()
        for size in (4, 3, 2, 1):
            for start in range(len(words) - size + 1):
                if used & set(range(start, start + size)):
                    continue
                phrase = " ".join(words[start:start + size])
                ids = self.glossary.get(phrase) or (self.glossary.get(phrase[:-1]) if phrase.endswith("s")
                                                    else None)
                if ids:
                    share = min(1.0, len(tokenize(phrase)) / content)
                    found.extend((record_id, share) for record_id in ids)
                    used.update(range(start, start + size))
        return list(dict(found).items())

    # --- the public entry point ---

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        document: str | None = None,
        edition: str | None = None,
        official_only: bool = False,
        method: str = "hybrid",
    ) -> SearchResult:
        """Answer a question with up to ``k`` hits, exact-number hits first."""
        if not query or not query.strip():
            raise InputError(None, "empty question", key="query")
        if method not in METHODS:
            raise InputError(None, f"unknown method {method!r} (one of {', '.join(METHODS)})", key="method")
        if k < 1:
            raise InputError(None, f"k must be at least 1 (got {k})", key="k")
        filters = Filters(document, edition, official_only)
        self._check_filters(filters)
        parsed = parse_query(query)
        groups, notes = self._exact_groups(parsed, filters) if parsed.refs else ([], [])
        hits: list[Hit] = []
        if parsed.pure:  # nothing but numbers: never load the model for them
            hits = [hit for group in groups for hit in group][:k]
        else:
            ranked = self.ranked(query, method, filters, limit=k + 50 if groups else k)
            score_of = {record_id: score for record_id, score, _ in ranked}
            if len(groups) > 1 and not parsed.years:  # several meanings: the question's other words decide
                order = {id(group): i for i, group in enumerate(groups)}
                groups.sort(key=lambda g: (-max(score_of.get(h.id, 0.0) for h in g), order[id(g)]))
            exact = [hit for group in groups for hit in group]
            seen = {hit.id for hit in exact}
            rest = [self.hit(self.records[rid], score, method, related=related)
                    for rid, score, related in ranked if rid not in seen]
            hits = (exact + rest)[:k]
        top = max((hit.score for hit in hits if hit.match not in {"exact", "equivalent"}), default=0.0)
        exact_hits = [hit for hit in hits if hit.match in {"exact", "equivalent"}]
        for i, hit in enumerate(exact_hits):  # exact hits rank above everything, scores decreasing
            hit.score = max(1.0, top) + (len(exact_hits) - i) * 1e-3
        if parsed.refs and not groups:
            shown = ", ".join(ref.number for ref in parsed.refs)
            notes.append(f"no loaded rule is numbered {shown}" + (" under these filters" if
                                                                  document or edition else ""))
        return SearchResult(query, hits, list(dict.fromkeys(notes)), exact=bool(parsed.pure and groups))

    def hit(self, record: Record, score: float, match: str, note: str | None = None,
            related: Sequence[str] = ()) -> Hit:
        from rulesjudge.indexer.chunks import section_of

        parent = self.records.get(record.parent) if record.parent else None
        section = section_of(record, self.records)
        context: list[str] = []
        if section is not None:
            label = f"{section.number}. {section.title}" if section.number else section.title
            context.append(label.strip())
        if parent is not None and parent is not section:
            context.append(f"{parent.number or parent.title} {_short(parent.text)}".strip())
        if not context and record.heading_path:
            context.append(" › ".join(record.heading_path))
        return Hit(
            id=record.id,
            number=record.number,
            document=record.document,
            edition=record.edition,
            kind=record.kind,
            title=record.title,
            text=record.text,
            score=score,
            cross_refs=[ref.target for ref in record.cross_refs if ref.target],
            official=record.official,
            citation=record.citation,
            parent=record.parent,
            context=" › ".join(context),
            examples=list(record.examples),
            match=match,
            note=note,
            related=list(related),
        )


def fuse(
    lexical: Sequence[tuple[str, float]], dense: Sequence[tuple[str, float]],
    lifted: Iterable[tuple[str, float]], params: FusionParams,
) -> list[tuple[str, float]]:
    """Combine two (id, score) rankings, best first, plus a lift for glossary entries named in the query.

    >>> bm25, dense = [("a", 9.0), ("b", 6.0), ("c", 3.0)], [("b", 0.8), ("c", 0.6), ("d", 0.4)]
    >>> [rid for rid, _ in fuse(bm25, dense, [], FusionParams())]
    ['b', 'a', 'c', 'd']
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
        normalised = [_min_max(ranking[: params.candidates]) for ranking in (lexical, dense)]
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


def _min_max(ranking: Sequence[tuple[str, float]]) -> dict[str, float]:
    """Scores scaled to 0..1 over the candidates (all 1.0 when they are equal).

    >>> _min_max([("a", 4.0), ("b", 2.0), ("c", 3.0)])
    {'a': 1.0, 'b': 0.0, 'c': 0.5}
    """
    if not ranking:
        return {}
    high, low = max(score for _, score in ranking), min(score for _, score in ranking)
    return {record_id: (score - low) / (high - low) if high > low else 1.0 for record_id, score in ranking}


def _moved(number: str, old: Record, new: Record) -> str:
    return f"{number} is the {old.edition} number; in {new.edition} this rule is {new.number}"


def _term_key(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'s", "")))


def default_corpus() -> Corpus:
    """Everything loaded: ``corpus.store.load_corpus()``."""
    from rulesjudge.corpus.store import load_corpus

    return load_corpus()


def open_searcher(corpus: Corpus | None = None, *, progress: bool = True, build: bool = True,
                  lazy: bool = False, fusion: FusionParams = DEFAULT_FUSION) -> Searcher:
    """A searcher over ``corpus`` (default: everything loaded). Loads or builds the index unless ``lazy``;
    a lazy searcher prepares the index on its first non-exact question."""
    searcher = Searcher(corpus if corpus is not None else default_corpus(), progress=progress, build=build,
                        fusion=fusion)
    if not lazy:
        searcher.prepare()
    return searcher


def _is_label(record: Record) -> bool:
    """A subrule that only names what kind of ability a keyword is: it says nothing on its own.

    >>> from rulesjudge.corpus.records import Record
    >>> def sub(text: str) -> Record:
    ...     return Record("cr@x/702.4a", "cr", "x", "subrule", text, number="702.4a")
    >>> _is_label(sub("Deathtouch is a static ability.")), _is_label(sub("Double strike is a static ability "
    ...     "that modifies the rules for the combat damage step. (See rule 510, “Combat Damage Step.”)"))
    (True, True)
    >>> _is_label(sub("Flash is a static ability that functions in any zone from which you could play it."))
    False
    """
    text = " ".join(record.text.split())
    return len(text.split()) <= _TINY_WORDS or bool(_LABEL.match(text))
