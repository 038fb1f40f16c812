"""The manifest of the built-in sources (``corpus/sources/manifest.json``): each source document and
each built-in official release, with the edition the code must read from its text (see
``docs/corpus-sources.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rulesjudge.common.errors import InputError

SOURCES_DIR = Path(__file__).resolve().parent.parent / "sources"
MANIFEST_PATH = SOURCES_DIR / "manifest.json"

SOURCE_KINDS = ("official rules", "fan-made rules", "official rulings", "wiki page")

@dataclass(frozen=True)
class Source:
    """One source document as the manifest describes it (see ``docs/corpus-sources.md``)."""

    id: str
    file: str
    title: str
    kind: str
    edition: str  # the edition it quotes, as the manifest expects the code to read it from the text
    edition_evidence: str  # the words of the text the edition is read from
    origin: str  # where it came from: the site or URL named in the text or in the seeds README
    sha256: str
    namespaces: tuple[str, ...]  # record namespaces the document yields (cr, rulings, treachery, ...)
    effective: str | None = None

    @property
    def path(self) -> Path:
        return SOURCES_DIR / self.file


_MANIFEST_KEYS = (
    "id", "file", "title", "kind", "edition", "edition_evidence", "origin", "sha256", "namespaces"
)


def load_manifest(path: Path = MANIFEST_PATH) -> list[Source]:
    """The source documents, in reading order; a malformed manifest is an :class:`InputError`."""
    return _entries(path, "documents", kinds=SOURCE_KINDS)


def builtin_releases(path: Path = MANIFEST_PATH) -> list[Source]:
    """The official releases built in (the manifest's ``releases``): read by the release parser, like a
    release a user adds, and cached the same way (see :func:`corpus.store.load_corpus`)."""
    return _entries(path, "releases", required=False)


def _entries(
    path: Path, key: str, required: bool = True, kinds: tuple[str, ...] | None = None
) -> list[Source]:
    """The manifest's ``key`` list as sources, each entry checked for every key and, with ``kinds``, for
    its kind (one line naming the manifest and the entry otherwise)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(path, f"cannot read the sources manifest: {error}") from None
    entries = data.get(key, None if required else []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        what = f"an object with a {key!r} list" if required else f"a {key!r} list"
        raise InputError(path, f"expected {what}", key=key)
    sources = []
    for index, entry in enumerate(entries):
        where = f"{key}[{index}]"
        if not isinstance(entry, dict):
            raise InputError(path, "expected an object", key=where)
        missing = [name for name in _MANIFEST_KEYS if name not in entry]
        if missing:
            raise InputError(path, f"missing {', '.join(missing)}", key=where)
        if kinds is not None and entry["kind"] not in kinds:
            raise InputError(path, f"unknown kind {entry['kind']!r}", key=f"{where}.kind")
        sources.append(_source(entry))
    return sources


def _source(entry: dict) -> Source:
    return Source(
        id=str(entry["id"]),
        file=str(entry["file"]),
        title=str(entry["title"]),
        kind=str(entry["kind"]),
        edition=str(entry["edition"]),
        edition_evidence=str(entry["edition_evidence"]),
        origin=str(entry["origin"]),
        sha256=str(entry["sha256"]),
        namespaces=tuple(entry["namespaces"]),
        effective=entry.get("effective"),
    )
