"""Search benchmarks: index builds, model load, query latency and peak memory (reported, never asserted).

Every build runs in a fresh temporary data folder (``RULESJUDGE_DATA``), so "cold" means no index and
no embedding cache, and the user's own index is never touched.
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulesjudge.common.files import DATA_ENV
from rulesjudge.corpus.store import RELEASES_FOLDER, load_corpus
from rulesjudge.indexer.embed import Embedder, set_offline
from rulesjudge.indexer.index import ensure_index
from rulesjudge.indexer.search import METHODS, Searcher


@contextmanager
def temporary_data_dir() -> Iterator[Path]:
    previous = os.environ.get(DATA_ENV)
    with tempfile.TemporaryDirectory(prefix="rulesjudge-bench-") as folder:
        os.environ[DATA_ENV] = folder
        try:
            yield Path(folder)
        finally:
            if previous is None:
                os.environ.pop(DATA_ENV, None)
            else:
                os.environ[DATA_ENV] = previous


def _timed(action: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile. >>> percentile([1, 2, 3, 4], 0.5)
    2
    """
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, round(share * len(ordered) + 0.499999))
    return ordered[min(rank, len(ordered)) - 1]


def build_figures(corpus: Any, label: str, embedder: Any) -> tuple[dict[str, Any], Searcher]:
    """Cold build, then a reopen with nothing changed, then a forced rebuild from the cache."""
    searcher = Searcher(corpus, progress=False, embedder=embedder, notify=lambda _m: None)
    chunks, chunk_seconds = _timed(lambda: searcher.chunks)
    _, cold = _timed(lambda: (searcher.lexical, searcher.dense))  # the index alone: queries come later
    report = searcher.build_report
    reopened = Searcher(corpus, progress=False, embedder=embedder, notify=lambda _m: None)
    _, reopen_seconds = _timed(lambda: reopened.dense)
    (_, forced), forced_seconds = _timed(
        lambda: ensure_index(reopened.chunks, embedder, progress=False, notify=lambda _m: None, force=True))
    figures = {
        "corpus": label,
        "records": len(searcher.records),
        "chunks": len(chunks),
        "chunking_seconds": round(chunk_seconds, 3),
        "cold_build_seconds": round(cold + chunk_seconds, 3),
        "cold_embedded": report.embedded if report else None,
        "cold_from_shipped_embeddings": report.shipped if report else None,
        "rebuild_nothing_changed_seconds": round(reopen_seconds, 3),
        "rebuild_nothing_changed_rebuilt": bool(reopened.build_report and reopened.build_report.rebuilt),
        "forced_rebuild_from_cache_seconds": round(forced_seconds, 3),
        "forced_rebuild_embedded": forced.embedded,
    }
    return figures, searcher


def latency_figures(searcher: Searcher, questions: Sequence[str], warmup: int = 10) -> dict[str, Any]:
    """p50/p95 of in-process query latency per method, after a warm-up, in milliseconds."""
    searcher.prepare()
    figures: dict[str, Any] = {}
    for method in METHODS:
        for question in questions[:warmup]:
            searcher.search(question, 10, method=method)
        timings = []
        for question in questions:
            start = time.perf_counter()
            searcher.search(question, 10, method=method)
            timings.append((time.perf_counter() - start) * 1000)
        figures[method] = {"queries": len(timings), "p50_ms": round(percentile(timings, 0.5), 2),
                           "p95_ms": round(percentile(timings, 0.95), 2),
                           "mean_ms": round(statistics.fmean(timings), 2)}
    return figures


def query_encoder_figures(embedder: Any, questions: Sequence[str]) -> dict[str, Any]:
    """The ONNX query model: export (first use), reopening it in a new process's place, and the time of
    one query vector by ONNX and by torch (p50 over the questions, after a warm-up)."""
    fresh = Embedder(embedder.path)
    fresh._model = embedder.model  # the export needs the loaded model; share it
    encoder, export_seconds = _timed(fresh.query_encoder)
    reopened = Embedder(embedder.path)
    _, reopen_seconds = _timed(reopened.query_encoder)
    figures: dict[str, Any] = {"onnx": encoder is not None, "export_seconds": round(export_seconds, 3),
                               "reopen_seconds": round(reopen_seconds, 3)}
    paths = {"torch": embedder.encode_query_torch}
    if encoder is not None:
        paths["onnx"] = encoder.encode
    for name, encode in paths.items():
        for question in questions[:10]:
            encode(question)
        timings = []
        for question in questions:
            start = time.perf_counter()
            encode(question)
            timings.append((time.perf_counter() - start) * 1000)
        figures[f"{name}_vector_p50_ms"] = round(percentile(timings, 0.5), 2)
    return figures


def _run_fresh(code: str, data: Path, timeout: float = 900) -> float:
    """Seconds a new Python process takes to run ``code`` on the data folder ``data`` (it must succeed)."""
    import subprocess
    import sys

    env = {**os.environ, DATA_ENV: str(data), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"bench process failed: {done.stderr.strip().splitlines()[-1:]}")
    return seconds


_OPEN_INDEX = ("from rulesjudge.indexer.search import open_searcher\n"
               "searcher = open_searcher(progress=False)\n"
               "searcher.search('who becomes the monarch when the monarch leaves the game')\n")
_EXACT = "from rulesjudge.app.cli import main\nimport sys\nsys.exit(main(['search', '704.5j', '--json']))\n"


def fresh_process_figures(release: Path | None) -> dict[str, Any]:
    """What a user waits for, each in a new process: a fresh data folder until the index answers (corpus,
    chunks, shipped or computed embeddings, FAISS, BM25, the query model's export), the same with nothing
    changed, and ``rulesjudge search 704.5j``. When the Comprehensive Rules are not built in, ``release``
    is put in the data folder's releases as a user would add it."""
    import shutil

    figures: dict[str, Any] = {}
    with temporary_data_dir() as data:
        if release is not None:
            (data / RELEASES_FOLDER).mkdir(parents=True)
            shutil.copy(release, data / RELEASES_FOLDER / release.name)
            figures["release_in_data_folder"] = release.name
        figures["fresh_data_folder_to_first_answer_seconds"] = round(_run_fresh(_OPEN_INDEX, data), 2)
        figures["nothing_changed_to_first_answer_seconds"] = round(_run_fresh(_OPEN_INDEX, data), 2)
        figures["search_704_5j_fresh_process_seconds"] = round(_run_fresh(_EXACT, data), 3)
        cache = sum(p.stat().st_size for p in (data / "index").rglob("*") if p.is_file())
        figures["index_folder_mb"] = round(cache / 1e6, 1)
    return figures


def _builtin_has_rules() -> bool:
    corpus = load_corpus(releases=[], include_user_releases=False)
    return any(record_id.startswith("cr@2026-") for record_id in corpus.records)


def run_bench(releases: Sequence[Path], questions: Sequence[str]) -> dict[str, Any]:
    """All figures: builds on the built-in corpus and on built-in + the newest release, model load,
    query latency per method, peak memory."""
    set_offline()
    result: dict[str, Any] = {"cpu_count": os.cpu_count()}
    _, import_seconds = _timed(lambda: __import__("sentence_transformers"))
    result["import_sentence_transformers_seconds"] = round(import_seconds, 3)
    embedder = Embedder()
    _, load_seconds = _timed(lambda: embedder.model)
    result["model_load_seconds"] = round(load_seconds, 3)
    result["model"] = str(embedder.path)

    builds = []
    with temporary_data_dir():
        corpus, seconds = _timed(lambda: load_corpus(releases=[], include_user_releases=False))
        figures, builtin_searcher = build_figures(corpus, "built-in", embedder)
        figures["corpus_load_seconds"] = round(seconds, 3)
        builds.append(figures)
        result["query_encoder"] = query_encoder_figures(embedder, questions)  # first: it times the export
        result["latency_builtin"] = latency_figures(builtin_searcher, questions)
    if releases:
        newest = sorted(releases)[-1]
        with temporary_data_dir():
            corpus, seconds = _timed(lambda: load_corpus(releases=[newest], include_user_releases=False))
            figures, release_searcher = build_figures(corpus, f"built-in + {newest.name}", embedder)
            figures["corpus_load_seconds"] = round(seconds, 3)
            builds.append(figures)
            result["latency_with_release"] = latency_figures(release_searcher, questions)
    result["builds"] = builds
    newest_release = sorted(releases)[-1] if releases and not _builtin_has_rules() else None
    result["fresh_process"] = fresh_process_figures(newest_release)
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return result
