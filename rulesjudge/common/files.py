"""File helpers shared by every package: atomic writes, locks between processes and the user's data
folder."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from rulesjudge.common.errors import InputError

DATA_ENV = "RULESJUDGE_DATA"


def data_dir() -> Path:
    """The user's data folder (platformdirs), or ``$RULESJUDGE_DATA`` when set (tests use it)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("rulesjudge", appauthor=False))


def cache_dir() -> Path:
    """Where every cache lives (the corpus, the built-in documents, the cards): deleting it is safe."""
    return data_dir() / "cache"


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half of it.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> write_atomic(p, "hello"); p.read_text()
    'hello'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _mode_for(path))  # mkstemp makes 0600: keep the file's mode, or what open() would give
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def sha256_file(path: Path) -> str:
    """The sha256 of a file's bytes, read a megabyte at a time (a card snapshot, the model's weights).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> _ = p.write_bytes(b"abc")
    >>> sha256_file(p)[:16]
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def files_digest(files: Iterable[tuple[str, Path]], *, unreadable_ok: bool = False) -> str:
    """The sha256 over each file's name (as given) and bytes, in order: the key of a cache made from them
    (the code that reads a source, the sources). ``unreadable_ok``: a file that can't be read counts by
    nothing (a cache key stays a key).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.py"
    >>> _ = p.write_text("a = 1")
    >>> files_digest([("x.py", p)]) == files_digest([("y.py", p)])
    False
    >>> len(files_digest([("gone.py", p.with_name("gone.py"))], unreadable_ok=True))
    64
    """
    digest = hashlib.sha256()
    for name, path in files:
        try:
            digest.update(name.encode() + b"\0" + path.read_bytes())
        except OSError:
            if not unreadable_ok:
                raise
    return digest.hexdigest()


def write_data(path: str | Path, data: bytes | str) -> None:
    """:func:`write_atomic` into the data folder; a folder that can't be written (read-only, full) is one
    line naming the file (:func:`cannot_write`)."""
    try:
        write_atomic(path, data)
    except OSError as error:
        raise cannot_write(path, error) from None


def cannot_write(path: str | Path, error: OSError) -> InputError:
    """The error saying the data folder could not be written at ``path``, and why.

    >>> str(cannot_write("/data/x.txt", PermissionError(13, "Permission denied")))
    '/data/x.txt: cannot write to the data folder: Permission denied'
    """
    return InputError(path, f"cannot write to the data folder: {error.strerror or error}")


@contextlib.contextmanager
def file_lock(path: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold an advisory lock on ``path`` (created if missing) for the block: one process at a time, and
    the system releases it when the process ends, however it ends. ``waiting`` is called before waiting
    for another process that holds it. No lock where the system has none (no fcntl: Windows); an OSError
    opening the file is the caller's (a read-only folder).

    >>> import tempfile, pathlib
    >>> lock = pathlib.Path(tempfile.mkdtemp()) / ".lock"
    >>> with file_lock(lock): lock.exists()
    True
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        yield
        return
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _mode_for(path: Path) -> int:
    """The permission bits a replaced file keeps, or a new file's under the process umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)  # read the umask (it can only be read by setting it) and put it back
        os.umask(umask)
        return 0o666 & ~umask
