"""The card database of one snapshot: :func:`load_cards` and :class:`CardDB`.

>>> db = load_cards()                                            # doctest: +SKIP
>>> [c.name for c in db.lookup("thalia heretic cathar")]         # doctest: +SKIP
['Thalia, Heretic Cathar']
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError, escape_controls
from rulesjudge.common.files import file_lock
from rulesjudge.corpus.cards.cache import CardCache, SnapshotInfo, cache_path
from rulesjudge.corpus.cards.model import Card, CardMention, card_id
from rulesjudge.corpus.cards.names import (
    Entry,
    NameIndex,
    index_data,
    index_from_data,
    name_key,
    rank_by_context,
    rules_terms,
)
from rulesjudge.corpus.cards.readers import Snapshot
from rulesjudge.corpus.cards.snapshots import SnapshotFile, choose, read_snapshot, snapshot_files
from rulesjudge.corpus.cards.vocabulary import builtin_rules_text, extra_rules_terms, nicknames


class CardDB:
    """One snapshot's cards: names in memory, each card read from the cache when asked for."""

    def __init__(self, cache: CardCache, info: SnapshotInfo, index: NameIndex | None = None) -> None:
        self.cache = cache
        self.info = info
        self.edition = info.edition
        self._index = index
        self._cards: dict[str, Card] = {}
        self._lock = threading.Lock()

    @property
    def index(self) -> NameIndex:
        """The names, read from the cache on first use (a card asked for by its exact name needs none)."""
        if self._index is None:
            index = index_from_data(self.cache.names(self.info.sha), nicknames(), extra_rules_terms())
            with self._lock:
                if self._index is None:
                    self._index = index
        return self._index

    def named(self, name: str) -> Card | None:
        """The card whose full name is ``name`` in any case or punctuation, read by its id alone.

        >>> load_cards().named("THALIA heretic-cathar").name        # doctest: +SKIP
        'Thalia, Heretic Cathar'
        """
        card = self.get(card_id(self.edition, name))
        return card if card is not None and name_key(card.name) == name_key(name) else None

    def __len__(self) -> int:
        return self.info.cards

    def __repr__(self) -> str:
        return f"CardDB(edition={self.edition!r}, cards={self.info.cards}, rulings={self.info.rulings})"

    def get(self, card_id: str) -> Card | None:
        """The card of this id (of this snapshot), or None."""
        with self._lock:
            card = self._cards.get(card_id)
        if card is None:
            card = self.cache.card(self.info.sha, card_id)
            if card is not None:
                with self._lock:
                    if len(self._cards) > 4096:  # a server answering many questions stays small
                        self._cards.clear()
                    self._cards[card_id] = card
        return card

    def _card(self, entry: int) -> Card:
        card = self.get(self.index.entries[entry].id)
        if card is None:  # the names and the cards are written in one transaction
            raise InputError(self.cache.path, f"the card cache lacks {self.index.entries[entry].id}")
        return card

    def lookup(self, name: str) -> list[Card]:
        """The cards ``name`` means, best first: exact in any case, accents or punctuation, a face, a
        nickname, a short name or the first words of names, then a fuzzy match; empty when none is close."""
        return [self._card(i) for i in self.index.lookup(name)]

    def names_in(self, text: str) -> list[CardMention]:
        """The card names in a question, left to right (see :mod:`corpus.cards.names`)."""
        mentions = []
        for found in self.index.names_in(text):
            entries = list(found.entries)
            if len(entries) > 1:
                entries = rank_by_context(entries, text, lambda i: self._card(i).oracle_text,
                                          lambda i: self.index.entries[i].rulings)
            cards = [self._card(i) for i in entries]
            mentions.append(CardMention(cards[0], found.start, found.end, found.said, tuple(cards[1:])))
        return mentions

    def suggest(self, typed: str, limit: int = 10) -> list[str]:
        """Card names for what is typed so far (a search box's suggestions), best first."""
        return self.index.suggest(typed, limit)

    def closest(self, name: str, limit: int = 5) -> list[str]:
        """The names nearest to ``name``, however far (for an unknown name's message)."""
        return self.index.closest(name, limit)

    def nickname_of(self, name: str) -> str | None:
        """The card a table nickname stands for, even one this snapshot lacks ("Bowmasters")."""
        return self.index.nickname_of(name)

    def cards(self) -> Iterator[Card]:
        """Every card, in name order (reads them all)."""
        return self.cache.cards(self.info.sha)

    def names(self) -> list[str]:
        """Every card's name, in name order (no card is read)."""
        return [entry.name for entry in self.index.entries]


_loaded: dict[tuple[str, str], CardDB] = {}
_load_lock = threading.Lock()


def load_cards(edition: str | None = None) -> CardDB:
    """The current card snapshot (the newest loaded, the built-in one when none was added), or the one of
    ``edition``; parsed once into the cache, then read from it. One per process and snapshot.

    An added snapshot that no longer reads (damaged or replaced after it was added) is left out with one
    warning on stderr, and the next newest answers; named with ``edition``, it is an InputError.
    """
    if edition is not None:
        return _load(choose(edition))
    candidates = list(reversed(snapshot_files()))
    for snapshot in candidates:
        try:
            return _load(snapshot)
        except (InputError, OSError) as error:
            if snapshot.builtin or snapshot is candidates[-1]:
                raise
            _warn_once(f"{error} (left out; the older card snapshot answers: replace or delete the file)")
    raise AssertionError("unreachable: the built-in snapshot is always listed")


def _load(snapshot: SnapshotFile) -> CardDB:
    path = cache_path()
    with _load_lock:
        cache = _open(path)
        try:
            sha = snapshot_sha(snapshot, cache)
        except OSError as error:
            raise InputError(snapshot.paths[0], f"cannot read: {error.strerror or error}") from None
        db = _loaded.get((str(path), sha))
        if db is None:
            info = cache.info(sha)
            if info is None:
                with parsing(path):  # another process reading it: wait, then take what it kept
                    info = cache.info(sha)
                    if info is None:
                        parsed = read_snapshot(snapshot)
                        try:
                            info = keep_snapshot(cache, sha, parsed)
                        except sqlite3.Error:  # the cache can't be written (a full disk): in memory this time
                            cache = CardCache(None)
                            info = keep_snapshot(cache, sha, parsed)
            db = _loaded[(str(path), sha)] = CardDB(cache, info)
        return db


@contextlib.contextmanager
def parsing(path: Path) -> Iterator[None]:
    """One process at a time parses a snapshot into the cache at ``path`` (an advisory lock beside it,
    released by the system if the process dies). ``rulesjudge app`` has a child parse the snapshot while
    the server starts; a server asking for cards meanwhile waits here and reads what the child kept,
    instead of parsing it again itself (a ~300 MB peak that would stay its resident size)."""
    with contextlib.ExitStack() as held:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            held.enter_context(file_lock(path.with_name(path.name + ".parse.lock")))
        except OSError:  # a read-only data folder: no one else can write the cache either
            pass
        yield


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        print(f"rulesjudge: warning: {escape_controls(message)}", file=sys.stderr)


@functools.lru_cache(maxsize=4)
def _open(path: Path) -> CardCache:
    return CardCache(path)


def open_card_cache() -> CardCache:
    return _open(cache_path())


def snapshot_sha(snapshot: SnapshotFile, cache: CardCache) -> str:
    """The key of a snapshot in the cache: the sha256 of its file (the manifest's for the built-in one,
    which the tests check), or of its two Scryfall files' sha256s."""
    if snapshot.builtin and snapshot.sha256:
        return snapshot.sha256
    shas = [cache.file_sha(path) for path in snapshot.paths]
    if len(shas) == 1:
        return shas[0]
    import hashlib

    return hashlib.sha256(" ".join(shas).encode()).hexdigest()


def keep_snapshot(cache: CardCache, sha: str, snapshot: Snapshot) -> SnapshotInfo:
    """Parse-once: keep a parsed snapshot with its name index and vocabulary in the cache."""
    return cache.keep(sha, snapshot, build_index_data(snapshot))


def build_index_data(snapshot: Snapshot) -> dict[str, Any]:
    rules = builtin_rules_text()
    texts = [rules, *(card.oracle_text for card in snapshot.cards),
             *(r.text for card in snapshot.cards for r in card.rulings)]
    entries = [Entry(c.id, c.name, c.face_names, len(c.rulings)) for c in snapshot.cards]
    type_lines = [c.faces[0].type_line if c.faces else "" for c in snapshot.cards]
    return index_data(entries, texts, rules_terms(rules), type_lines, [c.layout for c in snapshot.cards])


def loaded_editions() -> list[str]:
    return list(dict.fromkeys(s.edition for s in snapshot_files()))


def forget_loaded() -> None:
    """Drop the databases this process loaded (after a snapshot was added)."""
    with _load_lock:
        _loaded.clear()
        _open.cache_clear()
