"""Assembling a corpus: neighbouring releases mapped onto each other (what the cache lacks), the
built-in documents merged with the releases' records of the same id, their references resolved, and the
quotes of editions no release provides linked to the releases around them.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from rulesjudge.corpus import crossrefs
from rulesjudge.corpus.codec import to_raw
from rulesjudge.corpus.editions import EditionView, map_editions
from rulesjudge.corpus.official import Release
from rulesjudge.corpus.records import CrossRef, Provenance, Record, make_id
from rulesjudge.corpus.store.cache import (
    Assembled,
    Cache,
    LiveRelease,
    code_fingerprint,
    healed,
    keep_release,
)
from rulesjudge.corpus.store.stored import StoredCorpus


def assemble(builtin: Iterable[Record], releases: Sequence[Release]) -> StoredCorpus:
    """Records of source documents and parsed releases assembled as :func:`load_corpus` does, in a cache
    in memory (tests of the merging rules)."""
    cache = Cache(None)
    live = []
    for release in releases:
        keep_release(cache, release)
        live.append(cache.loaded(release.sha256, release.source))
    records = list(builtin)
    key = hashlib.sha256(repr([to_raw(r) for r in records]).encode()).hexdigest()
    return assemble_corpus(cache, live, records, key)


def corpus_of(records: Iterable[Record], links: Mapping[str, Sequence[str]] | None = None) -> StoredCorpus:
    """A corpus over records in hand (a test's synthetic rules), in a cache in memory: each document
    edition is a release, neighbouring editions are mapped onto each other -- or, with ``links``, the
    same rule in other editions is what ``links`` says (``{"cr@2020-06-01/718.4": ["cr@2024-06-07/722.4"]}``).
    """
    cache = Cache(None)
    groups: dict[tuple[str, str], list[Record]] = {}
    for record in records:
        groups.setdefault((record.document, record.edition), []).append(record)
    live = []
    for (document, edition), group in sorted(groups.items()):
        sha = hashlib.sha256(repr([to_raw(r) for r in group]).encode()).hexdigest()
        cache.add(sha, document, edition, "", group, {})
        live.append(cache.loaded(sha))
    corpus = StoredCorpus(cache, live, [], links)
    if links is None:
        map_neighbours(corpus)
    return corpus


def assemble_corpus(
    cache: Cache, live: list[LiveRelease], builtin: list[Record], builtin_key: str
) -> StoredCorpus:
    """The corpus: neighbouring releases mapped (what is missing), the built-in documents merged in."""
    corpus = StoredCorpus(cache, live, [])
    map_neighbours(corpus)
    key = hashlib.sha256("\n".join([code_fingerprint(), builtin_key, *(r.sha for r in live)]).encode())
    assembled = cache.assembled(key.hexdigest())
    if assembled is None:
        assembled = _assemble_builtin(corpus, builtin)
        cache.save_assembled(key.hexdigest(), assembled)
    corpus._use(assembled)
    return corpus


def map_neighbours(corpus: StoredCorpus) -> None:
    """Map each release onto the next one of its document, where that map is not in the cache yet."""
    views: dict[str, EditionView] = {}

    def view(release: LiveRelease) -> EditionView:
        if release.sha not in views:
            views[release.sha] = healed(corpus.cache, release, corpus.cache.view)
        return views[release.sha]

    for chain in corpus._chains.values():
        for old, new in itertools.pairwise(chain):
            if not corpus.cache.has_pair(old.sha, new.sha):
                older = view(old)
                corpus.cache.add_pair(old.sha, new.sha, older.entries, map_editions(older, view(new)))


def _assemble_builtin(corpus: StoredCorpus, builtin: list[Record]) -> Assembled:
    """Built-in records merged with the releases' records of the same id, the others' references
    resolved against everything loaded, and the quotes of editions no release provides mapped onto the
    releases around their edition."""
    merged: dict[str, tuple[tuple[Provenance, ...], tuple[str, ...]]] = {}
    conflicts: list[str] = []
    alone: list[Record] = []
    for record in builtin:
        official = corpus.get(record.id)
        if official is None:
            alone.append(record)
            continue
        if typography_key(official.text) != typography_key(record.text):
            conflicts.append(record.id)
        merged[record.id] = (record.provenance, record.aliases)
    corpus.builtin = {record.id: record for record in alone}
    corpus._index_builtin()
    resolved: dict[str, Record] = {}
    for record in alone:
        refs = tuple(CrossRef(label, number, crossrefs.target_of(record, label, number, corpus.lookup_id))
                     for label, number in dict.fromkeys(crossrefs.find_references(record.text)))
        if record.kind == "reminder" and record.number:  # the official rule a fan document recalls
            official_id = corpus.lookup_id(record.number, "cr", None, record.effective)
            record = replace(record, links=(official_id,)) if official_id else record
        resolved[record.id] = replace(record, cross_refs=refs) if refs else record
    return Assembled(resolved, merged, conflicts, _quote_links(corpus, alone))


def _quote_links(corpus: StoredCorpus, quoted: list[Record]) -> dict[str, tuple[str, ...]]:
    """Each quoted official rule of an edition no release provides -> the same rule in the releases just
    before and just after that edition (without releases: in the other quoted editions around it)."""
    by_edition: dict[str, list[Record]] = {}
    for record in quoted:
        if record.document == "cr":
            by_edition.setdefault(record.edition, []).append(record)
    chain = corpus._chains.get("cr", [])
    targets: dict[str, tuple[str, EditionView]] = {}  # edition -> (edition, its view)

    def target(edition: str) -> tuple[str, EditionView]:
        if edition not in targets:
            release = corpus._release_of.get(("cr", edition))
            targets[edition] = (edition, healed(corpus.cache, release, corpus.cache.view)
                                if release is not None else EditionView.of(by_edition[edition]))
        return targets[edition]

    order = [r.edition for r in chain] or sorted(by_edition)
    links: dict[str, set[str]] = {}
    for edition, records in by_edition.items():
        own = EditionView.of(records)
        before = [e for e in order if e < edition]
        after = [e for e in order if e > edition]
        for neighbour in (before[-1:] + after[:1]):
            name, view = target(neighbour)
            for local, (found, _changed) in map_editions(own, view).items():
                links.setdefault(make_id("cr", edition, local), set()).add(make_id("cr", name, found))
    return {source: tuple(sorted(found)) for source, found in links.items()}


def typography_key(text: str) -> str:
    """Text with typography normalised: curly quotes, dashes, spacing. Equal keys = the same words.

    >>> typography_key("the monarch’s end step") == typography_key("the monarch's  end step")
    True
    """
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(_TYPOGRAPHY)
    return re.sub(r"\s+", " ", text).strip()


_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                             "\u2013": "-", "\u2212": "-", "\u00a0": " "})
