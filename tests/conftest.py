"""Fixtures every test folder shares (tests/README.md lists them): the official releases kept outside the
project, a private data folder, the built-in corpus built once per session, and the command line run in
this process or in a fresh one."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
#: Official Comprehensive Rules releases are third-party files: never copied into the project.
SHARED_CR = PROJECT_ROOT.parent / "shared" / "cr"


@pytest.fixture(scope="session")
def shared_cr_dir() -> Path:
    """The folder of official releases (``<project>/../shared/cr``); skips the test when it is absent."""
    if not SHARED_CR.is_dir() or not any(SHARED_CR.glob("*.txt")):
        pytest.skip(f"official Comprehensive Rules releases absent: {SHARED_CR} (third-party, not shipped)")
    return SHARED_CR


@pytest.fixture(scope="session", autouse=True)
def no_user_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """No test reads or writes the user's data folder: until a fixture names another one, ``RULESJUDGE_DATA``
    is a folder of this session (a `check` resolves `about` numbers in the corpus, and caches it there)."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("session-data")
        patch.setenv("RULESJUDGE_DATA", str(folder))
        yield folder


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """A fresh, empty user data folder: ``RULESJUDGE_DATA`` points at a temporary path."""
    folder = tmp_path / "data"
    monkeypatch.setenv("RULESJUDGE_DATA", str(folder))
    return folder


# ------------------------------------------------------------------------------------------ the corpus


def load_private_corpus(folder: Path, releases: Sequence[Path] = ()):
    """The built-in corpus plus ``releases``, loaded with ``folder`` as the data folder (its cache is kept
    there) and none of a user's releases; ``RULESJUDGE_DATA`` is as it was afterwards."""
    from rulesjudge.corpus.store import load_corpus

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULESJUDGE_DATA", str(folder))
        return load_corpus(list(releases), include_user_releases=False)


def copy_cache(source: Path, target: Path) -> None:
    """Copy a data folder's ``cache`` folder: SQLite databases through SQLite's backup (a whole database
    even while its write-ahead log is not yet folded in and a connection holds it open), other files as
    they are."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.name.endswith(("-wal", "-shm", "-journal")):
            continue
        if path.suffix == ".sqlite":
            with closing(sqlite3.connect(path)) as read, closing(sqlite3.connect(target / path.name)) as copy:
                read.backup(copy)
        elif path.is_dir():
            copy_cache(path, target / path.name)
        else:
            shutil.copy2(path, target / path.name)


@pytest.fixture(scope="session")
def builtin_corpus_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private data folder whose cache holds the built-in corpus alone (copy its ``cache`` to start a
    test's data folder warm); nothing else is ever loaded into it."""
    return tmp_path_factory.mktemp("builtin-corpus-data")


@pytest.fixture(scope="session")
def builtin_corpus(builtin_corpus_data: Path):
    """The built-in corpus (source documents and the vendored release), built once per session in
    :func:`builtin_corpus_data`: what a fresh install resolves citations and searches against."""
    return load_private_corpus(builtin_corpus_data)


@pytest.fixture
def corpus_with(builtin_corpus, builtin_corpus_data: Path, tmp_path_factory: pytest.TempPathFactory
                ) -> Callable[..., object]:
    """``corpus_with(release, ...)``: the built-in corpus plus those release files, each call in a data
    folder of its own that starts from the session's built-in cache (only the releases are parsed)."""

    def load(*releases: Path):
        folder = tmp_path_factory.mktemp("corpus-with")
        copy_cache(builtin_corpus_data / "cache", folder / "cache")
        return load_private_corpus(folder, releases)

    return load


@pytest.fixture(scope="session")
def five_releases_corpus(shared_cr_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    """The built-in corpus plus the five official releases of ``../shared/cr``, loaded once (in a data
    folder of its own, so the built-in one stays small)."""
    return load_private_corpus(tmp_path_factory.mktemp("five-releases-data"),
                               sorted(shared_cr_dir.glob("cr-*.txt")))


# ----------------------------------------------------------------------------------- the command line


@dataclass(frozen=True)
class CliResult:
    """What one ``rulesjudge`` command gave: exit ``code``, standard output and error; ``imported`` the
    watched modules a fresh process had imported. Unpacks as ``code, out, err``."""

    code: int
    out: str
    err: str
    imported: tuple[str, ...] = field(default=())

    def __iter__(self) -> Iterator[int | str]:
        return iter((self.code, self.out, self.err))


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Runs ``rulesjudge ARGV...`` in this process (``main([...])``) and returns its :class:`CliResult`;
    output printed before the call is not part of it. An argparse refusal (``SystemExit``) is its code."""
    from rulesjudge.app.cli import main

    def run(*argv: str) -> CliResult:
        capsys.readouterr()
        try:
            code = main(list(argv))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


#: The program a fresh process runs: ``rulesjudge`` with the given arguments, then a note of which watched
#: modules it imported, written to a file so standard output stays the command's own.
_FRESH_PROCESS = """\
import json, sys
from rulesjudge.app.cli import main
report, watched = sys.argv[1], json.loads(sys.argv[2])
try:
    code = main(sys.argv[3:])
finally:
    with open(report, "w", encoding="utf-8") as handle:
        json.dump([name for name in watched if name in sys.modules], handle)
sys.exit(code)
"""


def run_cli_process(*argv: str | bytes, data: Path | str | None = None, watch: Sequence[str] = (),
                    stdin: str | None = None, timeout: float = 300) -> CliResult:
    """``rulesjudge ARGV...`` in a new Python process (arguments may be bytes: the process sees them as
    Linux passes them), with ``RULESJUDGE_DATA=data`` when given; which of the ``watch`` modules it
    imported comes back in ``imported``. For crashes a signal would show, arguments that are not text,
    and what a fresh process imports."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}  # no test fetches a model
    if data is not None:
        env["RULESJUDGE_DATA"] = str(data)
    handle, name = tempfile.mkstemp(prefix="rulesjudge-cli-", suffix=".json")
    os.close(handle)
    report = Path(name)
    try:
        done = subprocess.run([sys.executable, "-c", _FRESH_PROCESS, str(report), json.dumps(list(watch)),
                               *argv], capture_output=True, text=True, errors="replace", env=env,
                              cwd=PROJECT_ROOT, input=stdin, timeout=timeout, check=False)
        written = report.read_text(encoding="utf-8")
        imported = tuple(json.loads(written)) if written else ()  # empty: it died before the note
    finally:
        report.unlink(missing_ok=True)
    return CliResult(done.returncode, done.stdout, done.stderr, imported)


@pytest.fixture
def cli_process() -> Callable[..., CliResult]:
    """:func:`run_cli_process`, for tests that need a real process."""
    return run_cli_process


# ------------------------------------------------------------------------------------------ the app


@dataclass(frozen=True)
class AppServer:
    """A ``rulesjudge app`` process on ``port`` of 127.0.0.1, its output in ``log``."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def wait_ready(self, timeout: float = 600) -> AppServer:
        """Polls Streamlit's health address until it answers (a first run builds the index first)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, \
                f"the server exited ({self.process.returncode}): {self.log.read_text()}"
            try:
                with urllib.request.urlopen(self.url + "_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)  # polling until the server listens
        raise AssertionError(f"the server did not answer at {self.url} within {timeout} s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def start_app_server(data: Path, log: Path) -> AppServer:
    """``rulesjudge app`` on a free port with ``data`` as its data folder; not waited for."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "RULESJUDGE_DATA": str(data), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "rulesjudge.app.cli", "app", "--port", str(port)],
                                   cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    return AppServer(process, port, log)


@pytest.fixture(scope="module")
def app_server(app_data_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One ready ``rulesjudge app`` per test module on the session's app data folder, stopped afterwards."""
    server = start_app_server(app_data_root, tmp_path_factory.mktemp("server") / "server.log")
    try:
        yield server.wait_ready()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def app_data_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app tests' data folder, one per session (the search index is built there once); here so that
    tests/reliability's server test finds the index the app tests built."""
    return tmp_path_factory.mktemp("app-data")
