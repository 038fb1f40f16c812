"""Loading the whole corpus: the built-in documents and releases, plus the release files of the data
folder, each parsed once into the cache (:func:`load_corpus`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path

from rulesjudge.common.errors import InputError
from rulesjudge.common.files import data_dir, write_atomic
from rulesjudge.corpus.documents import builtin_key, builtin_releases, read_builtin
from rulesjudge.corpus.official import read_release_file
from rulesjudge.corpus.store.assembly import assemble_corpus
from rulesjudge.corpus.store.cache import CACHE_FILE, Cache, LiveRelease, cache_path, parse_into
from rulesjudge.corpus.store.stored import StoredCorpus

RELEASES_FOLDER = "releases"
CONTENTS_FILE = "corpus-contents.txt"


def data_folder() -> Path:
    """The data folder, refused when it is a file (it may not exist yet: it is made on the first write)."""
    folder = data_dir()
    if folder.exists() and not folder.is_dir():
        raise InputError(folder, "data folder is not a folder")
    return folder


def user_releases_folder() -> Path:
    return data_dir() / RELEASES_FOLDER


def user_release_paths() -> list[Path]:
    """Release files in the user's data folder; an unreadable folder is bad input (exit 2)."""
    folder = data_dir()
    try:
        releases = data_folder() / RELEASES_FOLDER
        if not releases.exists():
            return []
        if not releases.is_dir():
            raise InputError(releases, "releases folder is not a folder")
        return sorted(p for p in releases.iterdir()  # "CR-2024.TXT" dropped in by hand is a release too
                      if p.suffix.lower() == ".txt" and not p.name.startswith("."))
    except PermissionError as error:
        raise InputError(error.filename or folder, "data folder not readable (permission denied)") from None
    except OSError as error:
        raise InputError(error.filename or folder, f"data folder is not readable: {error.strerror}") from None


def builtin_release_paths() -> list[Path]:
    """The official releases built into the project (``corpus/sources``, the manifest's ``releases``)."""
    return [release.path for release in builtin_releases()]


def open_cache() -> Cache:
    """The data folder's corpus cache (in memory when the data folder can't be written)."""
    data_folder()
    return Cache(cache_path())


def read_release(path: Path, cache: Cache) -> tuple[str, bool]:
    """The sha256 of a release file, parsing it into the cache unless it is there already; and whether
    it was (bad input raises InputError naming the file and line)."""
    sha, data = cache.file_sha(path)
    if cache.release(sha) is not None:
        return sha, True
    parse_into(cache, read_release_file(path) if data is None else data, path.name, sha)
    return sha, False


def load_corpus(
    releases: Sequence[str | Path] | None = None,
    include_user_releases: bool = True,
    *,
    include_builtin_releases: bool = True,
) -> StoredCorpus:
    """Built-in source documents and releases + official releases (``releases`` and, by default, the data
    folder's). ``include_builtin_releases=False`` gives the five source documents alone (for tests of them).

    A release already parsed is not parsed again, a pair of neighbouring releases already mapped is not
    mapped again: loading costs what changed (see the module docstring).
    """
    paths = builtin_release_paths() if include_builtin_releases else []
    paths.extend(Path(p) for p in releases or ())
    in_data_folder = user_release_paths() if include_user_releases else []
    paths.extend(in_data_folder)
    cache = open_cache()
    live: list[LiveRelease] = []
    editions: set[tuple[str, str]] = set()
    for path in paths:
        try:
            sha, cached = read_release(path, cache)
        except InputError as error:
            if path not in in_data_folder:  # a release asked for by name is the command's input: refused
                raise
            _skip_once(error)  # one damaged file in the data folder must not take every command down
            continue
        found = cache.loaded(sha, str(path), cached)
        if (found.document, found.edition) in editions:  # the same edition twice: the first one wins
            continue
        editions.add((found.document, found.edition))
        live.append(found)
    cache.used(r.sha for r in live)
    corpus = assemble_corpus(cache, live, read_builtin(), builtin_key())
    if cache.changed and cache.path is not None:
        with contextlib.suppress(OSError):  # the description is a courtesy; the cache works without it
            write_atomic(cache.path.with_name(CONTENTS_FILE), describe(cache))
    return corpus


_SKIPPED: set[str] = set()


def _skip_once(error: InputError) -> None:
    """Say once per process, on stderr, that a release file of the data folder is left out and why."""
    if str(error) not in _SKIPPED:
        _SKIPPED.add(str(error))
        print(f"rulesjudge: warning: {error} (left out; the other rules load without it: replace or delete "
              "the file)", file=sys.stderr)


def describe(cache: Cache) -> str:
    """What the cache file holds, in words (kept beside it as ``corpus-contents.txt``)."""
    sizes = cache.sizes()
    rows = cache.query("SELECT edition, source, records, sha256 FROM releases ORDER BY document, edition")
    lines = [f"{CACHE_FILE}: the corpus cache of rulesjudge ({sizes.get('bytes', 0) / 1e6:.1f} MB). It holds",
             f"- {sizes['releases']} parsed releases ({sizes['records']} records), one row of values each:"]
    lines += [f"    {edition}  {records:>5} records  {source}  sha256 {sha[:16]}"
              for edition, source, records, sha in rows]
    lines += [f"- the cross-release maps of {sizes['pairs']} pairs of neighbouring releases "
              f"({sizes['moves']} records renumbered or without counterpart; the others keep their id)",
              f"- {sizes['assembled']} assembled sets of the built-in documents against a set of releases",
              "Deleting it is safe: it is rebuilt from the release files."]
    return "\n".join(lines) + "\n"
