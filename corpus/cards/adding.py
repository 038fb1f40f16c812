"""Adding a card snapshot to the data folder: ``rulesjudge cards add FILE_OR_URL`` and ``cards update``.

A file is checked before anything is written: its size (a file over the limit is refused unread), the
sha256 published beside it when there is one (``AtomicCards.json.xz.sha256``, as MTGJSON publishes it),
and that it parses as a snapshot. It is then kept byte for byte (see :mod:`corpus.cards.snapshots`) and
its parsed cards go into the cache, so that the next load doesn't parse it again. Whatever is refused,
the current snapshot stays as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import cannot_write, write_atomic, write_data
from rulesjudge.common.inputs import download, is_url, read_source
from rulesjudge.corpus.cards.db import forget_loaded, keep_snapshot, open_card_cache, snapshot_sha
from rulesjudge.corpus.cards.readers import (
    MAX_CARD_FILE_BYTES,
    Snapshot,
    read_mtgjson,
    read_scryfall,
    unpack,
)
from rulesjudge.corpus.cards.snapshots import (
    SCRYFALL_CARDS,
    SCRYFALL_RULINGS,
    builtin_snapshot,
    user_cards_folder,
    user_snapshots,
)

MTGJSON_BASE_URL = "https://mtgjson.com/api/v5/"
BASE_URL_ENV = "RULESJUDGE_MTGJSON_URL"
ATOMIC_FILE = "AtomicCards.json.xz"
DOWNLOAD_SECONDS = 900.0  # AtomicCards.json.xz is ~25 MB
_HEX = re.compile(r"\b([0-9a-fA-F]{64})\b")
_SUFFIXES = {b"\xfd7zXZ\x00": ".json.xz", b"\x1f\x8b": ".json.gz", b"PK\x03\x04": ".json.zip"}


@dataclass(frozen=True)
class Added:
    """The outcome: ``status`` is "added", "replaced" (another file of that edition was there),
    "unchanged" (the same file was there) or "built in" (the project ships this very file)."""

    status: str
    snapshot: Snapshot
    where: Path | None


@dataclass(frozen=True)
class Source:
    """A file as read: its bytes and the name it goes by in messages."""

    data: bytes
    name: str


def fetch(source: str, what: str = "card file") -> Source:
    """A local file or a URL of at most :data:`MAX_CARD_FILE_BYTES`; a local file larger than that is
    refused by its size, unread (a 2 GB file costs nothing)."""
    if not is_url(source):
        path = Path(source).expanduser()
        if path.is_dir():  # (the shared reader's fdopen fails on a folder before its own check)
            raise InputError(path, f"is a folder, not a {what}: name the file")
        try:
            size = path.stat().st_size
        except OSError:
            size = 0  # missing, unreadable: the bounded reader says which
        if size > MAX_CARD_FILE_BYTES:
            raise InputError(path, f"too large: {size} bytes (a card snapshot is at most "
                                   f"{MAX_CARD_FILE_BYTES})")
        data, _ = read_source(source, limit=MAX_CARD_FILE_BYTES, what=what)
        return Source(data, str(path))
    return Source(download(source, limit=MAX_CARD_FILE_BYTES, deadline=DOWNLOAD_SECONDS), source)


def published_sha256(source: str, *, required: bool = False) -> str | None:
    """The sha256 published beside ``source`` (``<source>.sha256``), None when there is none (an error
    when ``required``)."""
    beside = f"{source}.sha256"
    if not is_url(source) and not Path(beside).expanduser().is_file():
        if required:
            raise InputError(beside, "no such checksum file")
        return None
    try:
        text = fetch(beside, "checksum file").data.decode("ascii", "replace")
    except InputError:
        if required:
            raise
        return None
    found = _HEX.search(text)
    if not found:
        raise InputError(beside, "not a sha256 checksum (64 hexadecimal digits)")
    return found.group(1).lower()


def verify(source: Source, expected: str | None, checksum_name: str) -> None:
    if expected is None:
        return
    actual = hashlib.sha256(source.data).hexdigest()
    if actual != expected.lower():
        raise InputError(source.name, f"wrong checksum: the file's sha256 is {actual}, {checksum_name} says "
                                      f"{expected.lower()} (a damaged or incomplete download?)")


def add_snapshot(sources: list[str], sha256: str | None = None) -> Added:
    """Check and keep a snapshot: one MTGJSON file, or a Scryfall ``oracle-cards`` file with its
    ``rulings`` file (named, or found beside it)."""
    first = sources[0]
    if len(sources) > 2:
        raise InputError("command line", "one MTGJSON file, or a Scryfall oracle-cards file and its rulings "
                                         "file")
    main = fetch(first)
    expected = sha256 or published_sha256(first)
    verify(main, expected, "--sha256" if sha256 else f"{first}.sha256")
    plain = unpack(main.data, main.name)
    if _is_list(plain) or len(sources) == 2:
        rulings_source = sources[1] if len(sources) == 2 else _rulings_beside(first)
        rulings = fetch(rulings_source, "rulings file")
        snapshot = read_scryfall(plain, main.name, unpack(rulings.data, rulings.name), rulings.name)
        return _keep_scryfall(snapshot, main.data, rulings.data)  # as given (compressed or not)
    snapshot = read_mtgjson(plain, main.name)
    return _keep_mtgjson(snapshot, main)


def update(base_url: str | None = None) -> Added:
    """Download the newest MTGJSON AtomicCards and its sha256 from ``base_url`` (default MTGJSON's, or
    ``$RULESJUDGE_MTGJSON_URL``), check and keep it."""
    base = base_url or os.environ.get(BASE_URL_ENV) or MTGJSON_BASE_URL
    url = base.rstrip("/") + "/" + ATOMIC_FILE
    expected = published_sha256(url, required=True)
    source = fetch(url)
    verify(source, expected, f"{url}.sha256")
    snapshot = read_mtgjson(unpack(source.data, source.name), source.name)
    return _keep_mtgjson(snapshot, source)


def _is_list(plain: bytes) -> bool:
    return plain[:64].lstrip()[:1] == b"["


def _rulings_beside(source: str) -> str:
    if is_url(source):
        raise InputError(source, "a Scryfall card file: name its rulings file too (rulings-*.json)")
    folder = Path(source).expanduser().parent
    found = sorted(folder.glob("rulings-*.json*"))
    if not found:
        raise InputError(source, f"a Scryfall card file with no rulings-*.json beside it in {folder}: name "
                                 "the rulings file too")
    return str(found[-1])


def _keep_mtgjson(snapshot: Snapshot, source: Source) -> Added:
    builtin = builtin_snapshot()
    sha = hashlib.sha256(source.data).hexdigest()
    if snapshot.edition == builtin.edition and sha == builtin.sha256:
        return Added("built in", snapshot, None)
    suffix = _SUFFIXES.get(source.data[:6]) or _SUFFIXES.get(source.data[:4]) or \
        _SUFFIXES.get(source.data[:2]) or ".json"
    folder = user_cards_folder()
    target = folder / f"mtgjson-{snapshot.edition}{suffix}"
    same_edition = [s for s in user_snapshots() if s.edition == snapshot.edition and s.format == "mtgjson"]
    if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == sha:
        return Added("unchanged", snapshot, target)
    _write(target, source.data)
    for other in same_edition:  # the same edition saved another way before (.json, now .json.xz)
        if other.paths[0] != target:
            other.paths[0].unlink(missing_ok=True)
    _cache(snapshot, target)
    return Added("replaced" if same_edition else "added", snapshot, target)


def _keep_scryfall(snapshot: Snapshot, cards: bytes, rulings: bytes) -> Added:
    folder = user_cards_folder()
    target = folder / f"scryfall-{snapshot.edition}"
    existed = (target / SCRYFALL_CARDS).is_file()
    if existed and (target / SCRYFALL_CARDS).read_bytes() == cards and \
            (target / SCRYFALL_RULINGS).is_file() and (target / SCRYFALL_RULINGS).read_bytes() == rulings:
        return Added("unchanged", snapshot, target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=folder))
        write_atomic(staging / SCRYFALL_RULINGS, rulings)
        write_atomic(staging / SCRYFALL_CARDS, cards)
        old = folder / f".{target.name}.old"
        if existed:
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
        os.replace(staging, target)  # the folder is whole, or the old one is back below
        shutil.rmtree(old, ignore_errors=True)
    except OSError as error:
        raise cannot_write(target, error) from None
    _cache(snapshot, target / SCRYFALL_CARDS)
    return Added("replaced" if existed else "added", snapshot, target)


def _write(target: Path, data: bytes) -> None:
    write_data(target, data)


def _cache(snapshot: Snapshot, path: Path) -> None:
    """Keep the parsed cards now, under the sha the next load computes (no second parse)."""
    forget_loaded()
    cache = open_card_cache()
    try:
        keep: set[str] = set()
        for entry in [builtin_snapshot(), *user_snapshots()]:
            sha = snapshot_sha(entry, cache)
            keep.add(sha)
            if path in entry.paths:
                keep_snapshot(cache, sha, snapshot)
        cache.forget_others(keep)  # the rows of a snapshot this one replaced
    except (sqlite3.Error, OSError):
        pass  # the file is kept: the next load parses it, as for a cache that can't be written

