"""All built-in documents: one reader per source, the records merged, and kept in memory and in
``data_dir()/cache`` (compressed MessagePack, keyed by the digest of the sources and of the readers' code).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import cache_dir, files_digest, write_atomic
from rulesjudge.corpus.codec import DamagedCache, from_raw, pack, to_raw, unpack
from rulesjudge.corpus.documents.building import merge_records
from rulesjudge.corpus.documents.emperor import read_emperor_rules
from rulesjudge.corpus.documents.manifest import MANIFEST_PATH, SOURCES_DIR, Source, load_manifest
from rulesjudge.corpus.documents.monarch import read_monarch_rulings, read_monarch_wiki
from rulesjudge.corpus.documents.players import read_player_page
from rulesjudge.corpus.documents.treachery import read_treachery
from rulesjudge.corpus.records import Provenance, Record

READERS: dict[str, Callable[[str, Source], list[Record]]] = {
    "monarch-wiki": read_monarch_wiki,
    "monarch-card-rulings": read_monarch_rulings,
    "emperor-rules": read_emperor_rules,
    "players-mtgsalvation": read_player_page,
    "treachery-rules-v4": read_treachery,
}


def read_source(source: Source) -> list[Record]:
    """The records of one source document."""
    reader = READERS.get(source.id)
    if reader is None:
        raise InputError(MANIFEST_PATH, f"no reader for source {source.id!r}", key="documents.id")
    try:
        text = source.path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(source.path, f"cannot read source document: {error}") from None
    return reader(text, source)


def fold_quoted_rulings(records: list[Record]) -> list[Record]:
    """A ruling a page quotes without a date becomes the dated ruling with the same text (two provenances)."""
    dated = {r.text: r for r in records if r.document == "rulings" and r.edition != "undated"}
    folded = []
    for record in records:
        quoted = record.document == "rulings" and record.edition == "undated"
        twin = dated.get(record.text) if quoted else None
        folded.append(replace(twin, provenance=record.provenance) if twin else record)
    return folded


def _read_all() -> list[Record]:
    """Run every reader over its document and merge what two documents quote alike."""
    sources = load_manifest()
    records: list[Record] = []
    for source in sources:
        records.extend(read_source(source))
    merged = merge_records(fold_quoted_rulings(records))
    # In a ruling read twice, the dated rulings list comes first, then the page quoting it.
    order = {source.id: index for index, source in enumerate(sources)}
    dated_first = {s.id for s in sources if s.kind == "official rulings"}

    def sort_key(p: Provenance) -> tuple[bool, int]:
        return p.source not in dated_first, order.get(p.source, len(order))

    return [replace(r, provenance=tuple(sorted(r.provenance, key=sort_key))) if len(r.provenance) > 1
            and r.document == "rulings" else r for r in merged]


#: Files whose bytes decide the built-in records: the cache is keyed by their digest.
def cache_inputs() -> list[Path]:
    here = Path(__file__).resolve().parent  # corpus/documents: every reader module
    seeds = [SOURCES_DIR / source.file for source in load_manifest()]
    return [MANIFEST_PATH, *seeds, *sorted(here.glob("*.py")), here.parent / "clean.py",
            here.parent / "records.py"]


@lru_cache(maxsize=1)
def builtin_key() -> str:
    """A digest of the sources and of the code that reads them: the same key, the same records."""
    return files_digest((path.name, path) for path in cache_inputs())[:24]


def _cache_path() -> Path | None:
    try:
        return cache_dir() / f"builtin-{builtin_key()}.msgpack.z"
    except OSError:
        return None


def _load_cache(path: Path) -> list[Record] | None:
    """The records of the cache file, or None (missing, damaged, foreign: rebuilt, never fatal). The
    file is data (compressed MessagePack, see corpus/codec.py): a cache someone else wrote can't run code."""
    try:
        raws = unpack(path.read_bytes())
        return [from_raw(raw) for raw in raws] if isinstance(raws, tuple) else None
    except (OSError, DamagedCache):
        return None


def _save_cache(path: Path, records: list[Record]) -> None:
    with suppress(OSError):  # a read-only data folder still answers, only a little slower
        write_atomic(path, pack([to_raw(record) for record in records]))
        for stale in path.parent.glob("builtin-*"):  # caches of older sources or code (and old pickles)
            if stale != path and stale.is_file():
                stale.unlink(missing_ok=True)


@lru_cache(maxsize=1)
def _builtin(use_cache: bool) -> tuple[Record, ...]:
    path = _cache_path() if use_cache else None
    records = _load_cache(path) if path else None
    if records is None:
        records = _read_all()
        if path:
            _save_cache(path, records)
    return tuple(records)


def read_builtin(*, use_cache: bool = True) -> list[Record]:
    """Every record of the five built-in source documents, one per id.

    It runs on each command, so the result is kept in memory and in ``data_dir()/cache`` (keyed by the
    digest of the sources and of this reader's code; a damaged cache is rebuilt).
    """
    return list(_builtin(use_cache))
