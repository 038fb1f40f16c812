"""Where card snapshots live: the one built in (``corpus/sources``, listed in the manifest's ``cards``)
and those added to the data folder (``data_dir()/cards/``), and which one is current (the newest).

A file added is kept byte for byte under a name that says its format and edition:
``cards/mtgjson-2026-07-09.json.xz`` (or ``.json``, ``.json.gz``, ``.json.zip``, as it came), or for
Scryfall's bulk data the folder ``cards/scryfall-2026-07-09/`` holding ``oracle-cards.json`` and
``rulings.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import data_dir
from rulesjudge.common.inputs import read_file
from rulesjudge.corpus.cards.readers import (
    MAX_CARD_FILE_BYTES,
    Snapshot,
    read_mtgjson,
    read_scryfall,
)
from rulesjudge.corpus.documents import MANIFEST_PATH, SOURCES_DIR

CARDS_FOLDER = "cards"
SCRYFALL_CARDS, SCRYFALL_RULINGS = "oracle-cards.json", "rulings.json"
_MTGJSON_NAME = re.compile(r"^mtgjson-(\d{4}-\d{2}-\d{2})\.json(\.xz|\.gz|\.zip)?$")
_SCRYFALL_NAME = re.compile(r"^scryfall-(\d{4}-\d{2}-\d{2})$")


@dataclass(frozen=True)
class SnapshotFile:
    """A snapshot on disk: its edition and format, its file(s), and whether the project ships it."""

    edition: str
    format: str  # "mtgjson" or "scryfall"
    paths: tuple[Path, ...]
    builtin: bool = False
    sha256: str | None = None  # the manifest's, for the built-in one

    @property
    def where(self) -> str:
        return "built in" if self.builtin else str(self.paths[0].parent if self.format == "scryfall"
                                                       else self.paths[0])


def user_cards_folder() -> Path:
    return data_dir() / CARDS_FOLDER


def builtin_snapshot(manifest: Path = MANIFEST_PATH) -> SnapshotFile:
    """The snapshot the project ships (the manifest's ``cards`` entry)."""
    try:
        entries = json.loads(manifest.read_text(encoding="utf-8")).get("cards")
        entry = entries[0]
        return SnapshotFile(str(entry["edition"]), str(entry.get("format", "mtgjson")),
                            (SOURCES_DIR / str(entry["file"]),), True, str(entry["sha256"]))
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        raise InputError(manifest, f"no card snapshot in the sources manifest ({error})",
                         key="cards") from None


def user_snapshots() -> list[SnapshotFile]:
    """The snapshots added to the data folder, oldest first (files of other names are not read)."""
    folder = user_cards_folder()
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.iterdir()):
        if (match := _MTGJSON_NAME.match(path.name)) and path.is_file():
            out.append(SnapshotFile(match.group(1), "mtgjson", (path,)))
        elif (match := _SCRYFALL_NAME.match(path.name)) and (path / SCRYFALL_CARDS).is_file():
            rulings = path / SCRYFALL_RULINGS
            out.append(SnapshotFile(match.group(1), "scryfall",
                                    (path / SCRYFALL_CARDS, *((rulings,) if rulings.is_file() else ()))))
    return sorted(out, key=lambda s: s.edition)


def snapshot_files() -> list[SnapshotFile]:
    """Every snapshot, oldest first; of one edition, an added one after (over) the built-in one."""
    return sorted([builtin_snapshot(), *user_snapshots()], key=lambda s: (s.edition, not s.builtin))


def choose(edition: str | None) -> SnapshotFile:
    """The snapshot of ``edition`` (the newest when None); an edition not loaded is an InputError."""
    files = snapshot_files()
    if edition is None:
        return files[-1]
    found = [f for f in files if f.edition == edition]
    if not found:
        editions = ", ".join(dict.fromkeys(f.edition for f in files))
        raise InputError(None, f"no card snapshot of {edition} (loaded: {editions}); add one with "
                               "`rulesjudge cards add`", key="--edition")
    return found[-1]


def read_snapshot(snapshot: SnapshotFile) -> Snapshot:
    """Parse a snapshot's file(s)."""
    if snapshot.format == "scryfall":
        cards = read_file(snapshot.paths[0], limit=MAX_CARD_FILE_BYTES, what="card file")
        rulings = read_file(snapshot.paths[1], limit=MAX_CARD_FILE_BYTES, what="rulings file") \
            if len(snapshot.paths) > 1 else None
        return read_scryfall(cards, str(snapshot.paths[0]), rulings, str(snapshot.paths[-1]),
                             edition=snapshot.edition)
    path = snapshot.paths[0]
    return read_mtgjson(read_file(path, limit=MAX_CARD_FILE_BYTES, what="card file"), str(path))
