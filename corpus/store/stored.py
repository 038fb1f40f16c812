"""The loaded corpus: every record by id, the indexes by number and edition, and the same rule
across editions (followed from neighbour to neighbour through the cache's maps).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from rulesjudge.corpus.codec import Raw, from_raw
from rulesjudge.corpus.editions import mask
from rulesjudge.corpus.records import Provenance, Record, edition_of, id_parts, id_prefix, local_of, make_id
from rulesjudge.corpus.store.cache import Assembled, Cache, LiveRelease, healed, text_digest


@dataclass(frozen=True, slots=True)
class LoadedRelease:
    """A release file that was loaded: where from, its edition and counts, and whether it was parsed
    before (by this data folder's cache)."""

    path: str
    effective: str
    counts: dict[str, int]
    cached: bool
    sha256: str = ""
    warnings: tuple[str, ...] = ()

    @classmethod
    def of(cls, live: LiveRelease) -> LoadedRelease:
        """What a command reports of a release the cache loaded."""
        return cls(live.path, live.edition, dict(live.counts), live.cached, live.sha, live.warnings)


class _Records(Mapping[str, Record]):
    """Every loaded record by id; release records are read from the cache on first access."""

    def __init__(self, corpus: StoredCorpus) -> None:
        self.corpus = corpus

    def __getitem__(self, key: str) -> Record:
        record = self.corpus.get(key)
        if record is None:
            raise KeyError(key)
        return record

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.corpus.has(key)

    def __iter__(self) -> Iterator[str]:
        for release in self.corpus.live:
            prefix = id_prefix(release.document, release.edition)
            yield from (prefix + local for local in self.corpus.raws(release))
        yield from self.corpus.builtin

    def __len__(self) -> int:
        return sum(release.records for release in self.corpus.live) + len(self.corpus.builtin)

    def values(self) -> Iterator[Record]:  # type: ignore[override]
        for release in self.corpus.live:
            yield from self.corpus.release_records(release)
        yield from self.corpus.builtin.values()

    def items(self) -> Iterator[tuple[str, Record]]:  # type: ignore[override]
        for record in self.values():
            yield record.id, record


class StoredCorpus:
    """Every loaded record, the indexes by number and edition, and the cross-release map (the
    :class:`corpus.records.Corpus` protocol)."""

    def __init__(self, cache: Cache, live: Sequence[LiveRelease], builtin: Iterable[Record],
                 links: Mapping[str, Sequence[str]] | None = None) -> None:
        self.cache = cache
        self.live = list(live)
        self.builtin: dict[str, Record] = {record.id: record for record in builtin}
        self.merged: dict[str, tuple[tuple[Provenance, ...], tuple[str, ...]]] = {}
        self.conflicts: list[str] = []
        self._release_of = {(r.document, r.edition): r for r in self.live}
        self._built: dict[str, Record] = {}
        self._raws: dict[str, dict[str, Raw]] = {}
        self._chains: dict[str, list[LiveRelease]] = {}
        for release in sorted(self.live, key=lambda r: r.edition):
            self._chains.setdefault(release.document, []).append(release)
        self._links: dict[str, set[str]] = {}
        self._add_links(links or {})
        self._numbers: dict[tuple[str, str], dict[str, str]] = {}
        self._index_builtin()
        self._equivalents: dict[str, list[tuple[str, bool]]] = {}
        self._pairs: dict[tuple[str, str], bool] = {}
        self.releases = [LoadedRelease.of(r) for r in self.live if r.path]

    @property
    def records(self) -> Mapping[str, Record]:
        return _Records(self)

    def _index_builtin(self) -> None:
        self._numbers = {}
        for record in self.builtin.values():
            if record.number:
                self._numbers.setdefault((record.document, record.number), {}).setdefault(record.edition,
                                                                                          record.id)

    def _add_links(self, links: Mapping[str, Sequence[str]]) -> None:
        for source, targets in links.items():
            for target in targets:
                self._links.setdefault(source, set()).add(target)
                self._links.setdefault(target, set()).add(source)

    def _use(self, assembled: Assembled) -> None:
        self.builtin = assembled.builtin
        self.merged = assembled.merged
        self.conflicts = list(assembled.conflicts)
        self._links = {}
        self._add_links(assembled.links)
        self._index_builtin()
        self._built.clear()

    # --- records ---

    def _locate(self, record_id: str) -> tuple[LiveRelease, str] | None:
        """The loaded release an id belongs to, and the id's local part."""
        document, edition, local = id_parts(record_id)
        release = self._release_of.get((document, edition))
        return (release, local) if release is not None else None

    def get(self, record_id: str) -> Record | None:
        record = self._built.get(record_id) or self.builtin.get(record_id)
        if record is not None:
            return record
        found = self._locate(record_id)
        raw = self.raws(found[0]).get(found[1]) if found else None
        if raw is None:
            return None
        record = self._built[record_id] = self._with_quotes(from_raw(raw))
        return record

    def has(self, record_id: str) -> bool:
        if record_id in self._built or record_id in self.builtin:
            return True
        found = self._locate(record_id)
        if found is None:
            return False
        loaded = self._raws.get(found[0].sha)
        return found[1] in loaded if loaded is not None else self.cache.has(found[0].sha, found[1])

    def _with_quotes(self, record: Record) -> Record:
        quoted = self.merged.get(record.id)
        if quoted is None:
            return record
        provenance, aliases = quoted
        for more in provenance:
            record = record.with_provenance(more)
        return replace(record, aliases=aliases) if aliases and not record.aliases else record

    def raws(self, release: LiveRelease) -> dict[str, Raw]:
        """A loaded release's records as plain values by local id, in file order (read once)."""
        found = self._raws.get(release.sha)
        if found is None:
            rows = healed(self.cache, release, self.cache.raws)
            found = self._raws[release.sha] = {local_of(raw[0]): raw for raw in rows}
        return found

    def release_records(self, release: LiveRelease) -> list[Record]:
        """Every record of one loaded release, in file order (built once, then kept)."""
        out = []
        for raw in self.raws(release).values():
            record_id = raw[0]
            record = self._built.get(record_id)
            if record is None:
                record = self._built[record_id] = self._with_quotes(from_raw(raw))
            out.append(record)
        return out

    def in_edition(self, document: str, edition: str) -> list[Record]:
        """Records of one document edition in load order."""
        release = self._release_of.get((document, edition))
        records = self.release_records(release) if release is not None else []
        prefix = id_prefix(document, edition)
        return records + [r for rid, r in self.builtin.items() if rid.startswith(prefix)]

    # --- numbers and editions ---

    def editions(self, document: str) -> list[str]:
        """The loaded editions of a document, oldest first (ISO dates sort as text)."""
        found = {r.edition for r in self.live if r.document == document}
        found.update(r.edition for r in self.builtin.values() if r.document == document)
        return sorted(found)

    def documents(self) -> list[tuple[str, str, int]]:
        """``(document, edition, record count)`` for every loaded document edition."""
        counts = {(r.document, r.edition): r.records for r in self.live}
        for record in self.builtin.values():
            key = (record.document, record.edition)
            counts[key] = counts.get(key, 0) + 1
        return sorted((doc, edition, n) for (doc, edition), n in counts.items())

    def numbered(self, number: str, document: str = "cr") -> dict[str, str]:
        """Edition -> record id of every loaded record with this number in this document (a number the
        publisher printed twice answers with its first print)."""
        found = dict(self._numbers.get((document, number), {}))
        live = {r.sha: r for r in self.live if r.document == document}
        for sha, local in sorted(self.cache.numbered(number), key=lambda row: row[1] != number):
            release = live.get(sha)
            if release is not None:
                found.setdefault(release.edition, make_id(document, release.edition, local))
        return found

    def lookup(self, number: str, document: str = "cr", edition: str | None = None) -> Record | None:
        """The record with this number: in ``edition``, or in the newest loaded edition having it."""
        rid = self.lookup_id(number, document, edition, None)
        return self.get(rid) if rid else None

    def lookup_id(
        self, number: str, document: str, edition: str | None, in_force_on: str | None = None
    ) -> str | None:
        """Id of the record with this number; with ``in_force_on``, from the edition in force that day."""
        found = self.numbered(number, document)
        if not found:
            return None
        if edition is not None:
            return found.get(edition)
        editions = sorted(found)
        if in_force_on is not None:
            earlier = [e for e in editions if e <= in_force_on]
            if earlier:
                return found[earlier[-1]]
        return found[editions[-1]]

    # --- the same rule across editions ---

    def equivalents(self, record_id: str) -> list[tuple[str, bool]]:
        """The same rule in every other loaded edition of its document: ``(record id, text changed)``,
        oldest edition first."""
        if record_id not in self._equivalents:
            self._equivalents[record_id] = self._find_equivalents(record_id)
        return list(self._equivalents[record_id])

    def latest(self, record_id: str) -> str:
        """The same rule in the newest loaded edition holding it (``record_id`` when none is newer)."""
        edition = edition_of(record_id)
        newer = [rid for rid, _ in self.equivalents(record_id) if edition_of(rid) > edition]
        return max(newer, key=edition_of, default=record_id)

    def _find_equivalents(self, record_id: str) -> list[tuple[str, bool]]:
        if not self.has(record_id):
            return []
        seen = {record_id}
        queue = [record_id]
        while queue:
            for other in self._neighbours(queue.pop()):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        edition = edition_of(record_id)
        key = self.text_key(record_id)
        found = [(rid, self.text_key(rid) != key) for rid in seen if edition_of(rid) != edition]
        return sorted(found, key=lambda item: (edition_of(item[0]), item[0]))

    def _neighbours(self, record_id: str) -> list[str]:
        """The same rule one step away: in the next and previous release, and the quotes linked to it."""
        out = list(self._links.get(record_id, ()))
        document, edition, local = id_parts(record_id)
        chain = self._chains.get(document, [])
        position = next((i for i, r in enumerate(chain) if r.edition == edition), None)
        if position is None:
            return out
        if position + 1 < len(chain) and self._mapped(chain[position], chain[position + 1]):
            following = chain[position + 1]
            found = self.cache.forward(chain[position].sha, following.sha, local)
            if found is not None:
                out.append(make_id(document, following.edition, found))
        if position > 0 and self._mapped(chain[position - 1], chain[position]):
            previous = chain[position - 1]
            for found in self.cache.backward(previous.sha, chain[position].sha, local):
                out.append(make_id(document, previous.edition, found))
        return out

    def _mapped(self, old: LiveRelease, new: LiveRelease) -> bool:
        """Is the map from ``old`` onto ``new`` in the cache? (Not for a corpus given its links.)"""
        key = (old.sha, new.sha)
        if key not in self._pairs:
            self._pairs[key] = self.cache.has_pair(*key)
        return self._pairs[key]

    def text_key(self, record_id: str) -> bytes | None:
        """A digest of the text as matching compares it: equal keys, the same words."""
        record = self.builtin.get(record_id)
        if record is not None:
            return text_digest(mask(record.text))
        found = self._locate(record_id)
        return self.cache.key(found[0].sha, found[1]) if found else None

    def release_editions(self, document: str) -> list[str]:
        """The editions read from a whole release, oldest first (the others hold what pages quote)."""
        return [r.edition for r in self._chains.get(document, [])]

    def chain(self, document: str = "cr") -> list[LoadedRelease]:
        """The loaded releases of a document whose neighbours are mapped onto each other, oldest first."""
        return [LoadedRelease.of(r) for r in self._chains.get(document, [])]
