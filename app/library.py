"""The scenario library for the pages: its files read once, the rules each scenario is about or cites (an
index from rule to scenarios), and the scenarios closest to a question (by meaning with the ONNX query
model, or by the rules the search found) — never torch.

Heavy imports (numpy, the model) happen only inside the functions that need them; the index and the
vectors are computed once per server and kept here.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesjudge import scenarios
from rulesjudge.app.presenters import variant_of
from rulesjudge.app.whatif import closest_scenarios
from rulesjudge.common.errors import InputError
from rulesjudge.common.files import data_dir, write_atomic
from rulesjudge.common.inputs import read_text
from rulesjudge.indexer.embed import model_hash
from rulesjudge.scenarios.format import load_scenario, read_scenario_yaml
from rulesjudge.scenarios.limits import MAX_CHARS
from rulesjudge.scenarios.model.citations import Cite, Resolved, resolve
from rulesjudge.scenarios.runner import run_scenario

if TYPE_CHECKING:  # the types only: importing the search or the model here would load them on import
    import numpy as np

    from rulesjudge.corpus.records import Corpus
    from rulesjudge.indexer.search import Hit, Searcher

#: Computed once per server: the rule -> scenarios index and the library's meaning vectors.
_CACHE: dict[str, Any] = {}
_THREADS: dict[str, threading.Thread] = {}
_THREAD_LOCK = threading.Lock()


# ---------------------------------------------------------------------------------------- the library


@dataclass(frozen=True)
class LibraryScenario:
    """One scenario file of the library, read once for the pages."""

    path: Path
    relpath: str
    name: str
    why: str
    about: tuple[str, ...]
    variant: str
    raw: dict[str, Any] = field(repr=False, compare=False, hash=False)


def library_root() -> Path:
    return Path(scenarios.__file__).resolve().parent / "library"


def load_library(root: Path | None = None) -> list[LibraryScenario]:
    """Every scenario file under the library (files that do not read as a mapping are skipped)."""
    root = root or library_root()
    entries: list[LibraryScenario] = []
    if not root.is_dir():
        return entries
    for path in sorted(root.rglob("*.yaml")):
        try:  # bounded as `rulesjudge check` reads it: a bad library file is skipped, never a crash
            raw, _lines = read_scenario_yaml(read_text(path, limit=MAX_CHARS), str(path))
        except InputError:
            continue
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            continue
        game_raw = raw.get("game")
        game: dict[str, Any] = game_raw if isinstance(game_raw, dict) else {}
        about = raw.get("about") or []
        entries.append(
            LibraryScenario(
                path=path,
                relpath=path.relative_to(root).as_posix(),
                name=raw["name"],
                why=str(raw.get("why") or ""),
                about=tuple(str(a) for a in about) if isinstance(about, list) else (str(about),),
                variant=str(game.get("variant") or "free-for-all"),
                raw=raw,
            )
        )
    return entries


def about_record_ids(entry: LibraryScenario, corpus: Corpus) -> set[str]:
    """Record ids a scenario's ``about`` list names: ids as written, numbers resolved the way the model
    cites them (Treachery's own numbers for Treachery tables, else the official numbering), plus the same
    rule in every other loaded edition."""
    ids: set[str] = set()
    for about in entry.about:
        if "@" in about and "/" in about:
            ids.add(about)
            continue
        for cite in _cites_for_number(about, entry.variant):
            ids.update(_cited_ids(resolve(cite, corpus)))
    return ids


def _cited_ids(resolved: Resolved) -> list[str]:
    """The record a resolved citation names and the same rule in the other loaded editions."""
    return [r for r in (resolved.record_id, *resolved.also) if r]


def _cites_for_number(number: str, variant: str) -> list[Cite]:
    """A bare rule number of a scenario of ``variant``: in the variant's documents, its own first."""
    return [Cite(document, number) for document in variant_of(variant).documents]


_INDEX_LOCK = threading.Lock()


def library_index(entries: Sequence[LibraryScenario], corpus: Corpus) -> dict[str, list[LibraryScenario]]:
    """:func:`scenario_index`, computed once per process (the warm-up thread or the first page)."""
    with _INDEX_LOCK:
        if "library_index" not in _CACHE:
            _CACHE["library_index"] = scenario_index(entries, corpus)
        return _CACHE["library_index"]


def scenario_index(entries: Sequence[LibraryScenario], corpus: Corpus) -> dict[str, list[LibraryScenario]]:
    """Record id -> the library scenarios that cite it (their ``about`` and every rule their run cites)."""
    index: dict[str, list[LibraryScenario]] = {}
    for entry in entries:
        ids = about_record_ids(entry, corpus)
        with contextlib.suppress(Exception):  # a scenario the model cannot run still counts by its `about`
            ids.update(_run_citations(entry, corpus))
        for record_id in ids:
            index.setdefault(record_id, []).append(entry)
        for equivalent in _equivalents(corpus, ids):
            if entry not in index.setdefault(equivalent, []):
                index[equivalent].append(entry)
    for record_id, citing in index.items():  # scenarios named after the rule (725-4-...) are about it: first
        citing.sort(key=functools.partial(_named_after, record_id=record_id))
    return index


def _named_after(entry: LibraryScenario, record_id: str) -> tuple[bool, str]:
    """Sort key: scenarios whose file name starts with the rule's number first, then by path."""
    named = record_id.rsplit("/", 1)[-1].replace(".", "-") + "-"
    return not Path(entry.relpath).name.startswith(named), entry.relpath


def _equivalents(corpus: Corpus, ids: Iterable[str]) -> set[str]:
    more: set[str] = set()
    for record_id in ids:
        more.update(rid for rid, _changed in corpus.equivalents(record_id))
    return more


def _run_citations(entry: LibraryScenario, corpus: Corpus) -> set[str]:
    report = run_scenario(load_scenario(entry.path), corpus=corpus)
    ids: set[str] = set()
    for answer in report.answers:
        for step in answer.steps:
            for cite in step.cites:
                ids.update(_cited_ids(resolve(cite, corpus)))
    return ids


# ------------------------------------------------------------------------------- closest scenarios


def library_texts(entries: Sequence[LibraryScenario]) -> list[str]:
    """What a library scenario means, for the closest-scenario search: its name and its why."""
    return [f"{entry.name}. {entry.why}" for entry in entries]


_VECTORS_LOCK = threading.Lock()


def _vector_cache(searcher: Searcher) -> Path:
    return data_dir() / "app" / f"library-vectors-{model_hash(searcher.embedder.path)[:16]}.npz"


def library_vectors(searcher: Searcher, entries: Sequence[LibraryScenario]) -> np.ndarray | None:
    """The library's meaning vectors (one row per entry), by the ONNX query model — never torch.

    Vectors are kept on disk per text (``<data>/app/library-vectors-<model>.npz``, written atomically), so
    a restart reads them and a changed library encodes only its new texts. None when the ONNX query model
    is not available (the closest scenarios then come from the rules the search found).
    """
    import hashlib
    import io

    import numpy as np

    with _VECTORS_LOCK:
        texts = library_texts(entries)
        key = hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()
        cached = _CACHE.get("library_vectors")
        if cached is not None and cached[0] == key:
            return cached[1]
        encoder = searcher.embedder.query_encoder()
        if encoder is None:
            return None
        path = _vector_cache(searcher)
        known: dict[str, Any] = {}
        unreadable = (OSError, ValueError, KeyError, EOFError)  # no cache yet, or a damaged one: encode again
        with contextlib.suppress(*unreadable), np.load(path, allow_pickle=False) as stored:
            known = dict(zip(stored["keys"].tolist(), stored["vectors"], strict=True))
        digests = [hashlib.sha256(text.encode("utf-8")).hexdigest()[:24] for text in texts]
        pairs = zip(digests, texts, strict=True)
        rows: list[Any] = [known[d] if d in known else encoder.encode(t)[0] for d, t in pairs]
        vectors = np.vstack(rows).astype(np.float32) if rows else np.zeros((0, 384), dtype=np.float32)
        if any(d not in known for d in digests):
            buffer = io.BytesIO()
            np.savez(buffer, keys=np.array(digests), vectors=vectors)
            with contextlib.suppress(OSError):  # a read-only data folder costs a re-encode next start
                write_atomic(path, buffer.getvalue())
        _CACHE["library_vectors"] = (key, vectors)
        return vectors


def start_library_vectors(searcher: Searcher, entries: Sequence[LibraryScenario]) -> None:
    """Compute :func:`library_vectors` in the background, once (the first fallback never waits for it)."""
    with _THREAD_LOCK:
        if "library_vectors_thread" in _THREADS:
            return

        def work() -> None:
            with contextlib.suppress(Exception):  # no vectors: the fallback uses the rules the search found
                library_vectors(searcher, entries)

        thread = threading.Thread(target=work, name="rulesjudge-library-vectors", daemon=True)
        _THREADS["library_vectors_thread"] = thread
        thread.start()


@dataclass(frozen=True)
class Nearby:
    """A library scenario close to a question: by meaning (cosine) or by the rules it cites."""

    entry: LibraryScenario
    score: float
    how: str  # "meaning" or "cites the rules found"


def closest_library(
    question: str, searcher: Searcher, entries: Sequence[LibraryScenario], *, hits: Sequence[Hit] = (),
    index: dict[str, list[LibraryScenario]] | None = None, k: int = 3,
) -> list[Nearby]:
    """The ``k`` library scenarios closest to a question, without torch and without waiting: by meaning
    when the library's vectors are ready (ONNX query model), else the scenarios citing the rules the search
    found (``hits``, best first), ranked by how high those rules came."""
    cached = _CACHE.get("library_vectors")
    encoder = searcher.embedder.query_encoder() if cached is not None else None
    if cached is not None and encoder is not None and len(cached[1]) == len(entries):
        query = encoder.encode(question)[0]
        ranked = closest_scenarios(list(query), [list(v) for v in cached[1]], k)
        return [Nearby(entries[i], score, "meaning") for i, score in ranked]
    scores: dict[str, float] = {}
    by_path = {entry.relpath: entry for entry in entries}
    for rank, hit in enumerate(hits, 1):
        for entry in (index or {}).get(hit.id, []):
            scores[entry.relpath] = scores.get(entry.relpath, 0.0) + 1.0 / rank
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:k]
    return [Nearby(by_path[path], round(score, 3), "cites the rules found") for path, score in best]
