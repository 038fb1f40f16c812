"""What many releases cost: a set of releases made from real ones, and the figures of ``rulesjudge bench``.

Wizards has published about 110 text releases since 2003; they are not in this project. To measure the
store with as many loaded, :func:`release_set` makes them from the real releases at hand (the built-in one,
and any in ``../shared/cr``): each real release as it is, plus copies dated in the months before it, each
copy with a few rules reworded, so that neighbouring releases differ as real ones do (a few dozen edits)
while the renumbering between real releases (the Monarch: 718, 721, 722, 724, 725) stays real.

>>> [date for date, _ in copy_dates("2024-06-07", "2022-10-07", 3)]
['2024-05-24', '2024-05-10', '2024-04-26']
"""

from __future__ import annotations

import contextlib
import datetime
import itertools
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesjudge.corpus.editions import EditionView, coverage
from rulesjudge.corpus.official import decode_release, parse_release, split_lines
from rulesjudge.corpus.records import edition_of, local_of
from rulesjudge.corpus.releases import add_release
from rulesjudge.corpus.store import load_corpus, open_cache

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_DATE_LINE = re.compile(r"^These rules are (?:effective|current) as of ")
_RULE_LINE = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")
STEP_DAYS = 14
_PYCACHE = Path(tempfile.gettempdir()) / "rulesjudge-bench-pycache"


def copy_dates(base: str, previous: str | None, count: int) -> list[tuple[str, int]]:
    """``count`` dates two weeks apart before ``base`` (never on or before ``previous``), newest first,
    each with its copy number."""
    day = datetime.date.fromisoformat(base)
    floor = datetime.date.fromisoformat(previous) if previous else datetime.date.min
    out = []
    for number in range(1, count + 1):
        when = day - datetime.timedelta(days=STEP_DAYS * number)
        if when <= floor:
            break
        out.append((when.isoformat(), number))
    return out


def mutated_copy(text: str, date: str, number: int) -> bytes:
    """A copy of a release's text dated ``date``, with one rule in every 150 reworded (which ones
    depends on ``number``), as UTF-8 with CRLF line ends."""
    when = datetime.date.fromisoformat(date)
    dated = f"These rules are effective as of {_MONTHS[when.month - 1]} {when.day}, {when.year}."
    lines = split_lines(text)
    first = next(i for i, line in enumerate(lines) if _DATE_LINE.match(line))
    lines[first] = dated
    rules = [i for i, line in enumerate(lines) if _RULE_LINE.match(line)]
    for index in rules[number % 150 :: 150]:
        lines[index] = lines[index].rstrip() + f" (Worded as of {date}.)"
    return "\r\n".join(lines).encode("utf-8")


def release_set(real: Sequence[Path], count: int) -> list[tuple[str, bytes]]:
    """``count`` releases (or as many as the real ones allow), oldest first: ``(file name, bytes)``. The
    real releases are all in it; copies are spread over them, newest real release first."""
    texts = {}
    for path in real:
        data = path.read_bytes()
        texts[parse_release(data, source_name=path.name).effective] = (path, data)
    dates = sorted(texts)
    out: dict[str, bytes] = {date: texts[date][1] for date in dates}
    wanted = max(0, count - len(out))
    per_release = -(-wanted // len(dates)) if dates else 0
    for position in reversed(range(len(dates))):
        base = dates[position]
        previous = dates[position - 1] if position else None
        text = decode_release(texts[base][1], texts[base][0].name)
        for date, number in copy_dates(base, previous, min(per_release, wanted)):
            out[date] = mutated_copy(text, date, number)
            wanted -= 1
    return [(f"cr-{date}.txt", out[date]) for date in sorted(out)]


# ------------------------------------------------------------------------------------------- figures


@contextlib.contextmanager
def _data_folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="rulesjudge-corpus-bench-") as folder:
        saved = os.environ.get("RULESJUDGE_DATA")
        os.environ["RULESJUDGE_DATA"] = folder
        try:
            yield Path(folder)
        finally:
            if saved is None:
                os.environ.pop("RULESJUDGE_DATA", None)
            else:
                os.environ["RULESJUDGE_DATA"] = saved


@dataclass(frozen=True)
class Fresh:
    """``rulesjudge ARGV`` in a new process: wall seconds (start to exit), CPU seconds, peak memory."""

    wall: float
    cpu: float
    peak_mb: float
    output: str


def usage() -> tuple[float, float]:
    """CPU seconds and peak resident memory (MB) of this process. The peak is the kernel's VmHWM, which a
    new program starts afresh (``ru_maxrss`` keeps the parent's when a big process forks a small one)."""
    import resource

    use = resource.getrusage(resource.RUSAGE_SELF)
    peak = use.ru_maxrss / 1024
    with contextlib.suppress(OSError, ValueError, StopIteration):
        status = Path("/proc/self/status").read_text().splitlines()
        peak = int(next(line for line in status if line.startswith("VmHWM:")).split()[1]) / 1024
    return use.ru_utime + use.ru_stime, peak


#: What the commands measured import (compiled once, before the first measure).
_COMMAND_MODULES = ("rulesjudge.app.cli", "rulesjudge.app.commands.rule", "rulesjudge.app.commands.corpus",
                    "rulesjudge.corpus.store", "rulesjudge.corpus.releases", "rulesjudge.corpus.bench")


def _fresh_env(data: Path) -> dict[str, str]:
    """Bytecode cached as in an installed package (pip compiles it), also where PYTHONDONTWRITEBYTECODE is
    set, so that a run measures the command and not the compiler; in a folder of the bench's own."""
    env = {**os.environ, "RULESJUDGE_DATA": str(data), "PYTHONPYCACHEPREFIX": str(_PYCACHE)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_commands(data: Path) -> None:
    """Write the bytecode of the measured commands (see :func:`_fresh_env`)."""
    code = "; ".join(f"import {module}" for module in _COMMAND_MODULES)
    subprocess.run([sys.executable, "-c", code], env=_fresh_env(data), check=True, timeout=600)


def fresh(argv: Sequence[str], data: Path) -> Fresh:
    """Run ``rulesjudge ARGV`` in a new process on the data folder ``data``."""
    code = ("import sys; from rulesjudge.app.cli import main; rc = main(" + repr(list(argv)) + "); "
            "sys.stdout.flush(); from rulesjudge.corpus.bench import usage; "
            "print('BENCH', *usage(), file=sys.stderr); sys.exit(rc)")
    env = _fresh_env(data)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"rulesjudge {' '.join(argv)} failed: {done.stderr.strip()[-300:]}")
    mark = [line for line in done.stderr.splitlines() if line.startswith("BENCH ")][-1].split()
    return Fresh(wall, float(mark[1]), float(mark[2]), done.stdout)


def corpus_figures(real: Sequence[Path], count: int = 62, lookup: str = "100.1") -> dict[str, Any]:
    """Adding releases one by one (oldest first) into a fresh data folder, as ``corpus add`` does, with
    ``rulesjudge rule LOOKUP`` and the next add in a fresh process at N = 1, 5 and ``count`` releases
    loaded; the cache's size on disk; the Monarch chain across them all."""
    made = release_set(real, count)
    figures: dict[str, Any] = {"releases": len(made), "lookup": f"rulesjudge rule {lookup}"}
    checkpoints = sorted({1, min(5, len(made)), len(made)})
    steps: list[dict[str, Any]] = []
    in_process: list[float] = []
    with _data_folder() as data, tempfile.TemporaryDirectory() as inbox:
        compile_commands(data)
        first = fresh(["rule", lookup], data)  # a fresh data folder: the built-in release parsed first
        figures["fresh_data_folder_rule_seconds"] = round(first.wall, 3)
        loaded = {r.effective for r in load_corpus().releases}
        steps.append(_step(len(loaded), None, fresh(["rule", lookup], data), open_cache().sizes()))
        for name, payload in made:
            path = Path(inbox) / name
            path.write_bytes(payload)
            n = len(loaded | {name[3:13]})
            if n in checkpoints and n > 1 and name[3:13] not in loaded:
                added = fresh(["corpus", "add", str(path)], data)  # the N-th release, as a user adds it
                steps.append(_step(n, added, fresh(["rule", lookup], data), open_cache().sizes()))
            elif name[3:13] not in loaded:
                start = time.process_time()
                add_release(str(path))
                load_corpus()
                in_process.append(time.process_time() - start)
            loaded.add(name[3:13])
        corpus = load_corpus()
        chain = monarch_chain(corpus)
        figures["monarch_chain_editions"] = len(chain)
        figures["monarch_chain_numbers"] = sorted(set(chain.values()))
    figures["steps"] = steps
    if in_process:  # CPU seconds: a busy machine stretches wall time, not the work done
        half = len(in_process) // 2
        figures["add_cpu_first_half_mean_seconds"] = round(sum(in_process[:half]) / max(1, half), 3)
        figures["add_cpu_second_half_mean_seconds"] = round(
            sum(in_process[half:]) / max(1, len(in_process) - half), 3)
        figures["add_cpu_total_seconds"] = round(sum(in_process), 1)
    figures["load_average"] = [round(x, 1) for x in os.getloadavg()]
    return figures


def _step(n: int, added: Fresh | None, lookup: Fresh, sizes: dict[str, int]) -> dict[str, Any]:
    step: dict[str, Any] = {"n": n}
    if added is not None:
        step.update(add_seconds=round(added.wall, 3), add_cpu_seconds=round(added.cpu, 3),
                    add_peak_mb=round(added.peak_mb, 1))
    step.update(rule_seconds=round(lookup.wall, 3), rule_cpu_seconds=round(lookup.cpu, 3),
                rule_peak_mb=round(lookup.peak_mb, 1), rule_output_lines=len(lookup.output.splitlines()),
                cache_mb=round(sizes.get("bytes", 0) / 1e6, 1),
                cache_rows={k: v for k, v in sizes.items() if k != "bytes"})
    return step


def monarch_chain(corpus: Any, record_id: str = "cr@2026-04-17/725.4") -> dict[str, str]:
    """Edition -> the Monarch's leaving rule there, following the cross-release map from ``record_id``."""
    return {edition_of(rid): local_of(rid) for rid, _changed in corpus.equivalents(record_id)}


def parse_seconds(path: Path, runs: int = 5) -> float:
    """The best of ``runs`` parses of one release (the state machine only)."""
    data = path.read_bytes()
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        parse_release(data, source_name=path.name)
        best = min(best, time.perf_counter() - start)
    return best


def coverage_figures(real: Sequence[Path]) -> list[dict[str, Any]]:
    """The cross-release map between each pair of neighbouring real releases: how many rules and
    subrules of the older were found in the newer, renumbered, edited, and the time the map took."""
    releases = sorted((parse_release(p.read_bytes(), source_name=p.name) for p in real),
                      key=lambda r: r.effective)
    views = {r.effective: EditionView.of(r.records) for r in releases}
    out = []
    for old, new in itertools.pairwise(releases):
        start = time.perf_counter()
        found = coverage(old.effective, views[old.effective], new.effective, views[new.effective])
        out.append({"source": old.effective, "target": new.effective, "total": found.total,
                    "matched": found.matched, "share": round(found.share, 4), "changed": found.changed,
                    "renumbered": found.renumbered, "seconds": round(time.perf_counter() - start, 3)})
    return out
