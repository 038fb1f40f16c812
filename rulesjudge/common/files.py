"""File helpers shared by every package: atomic writes and the user's data folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

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


def _mode_for(path: Path) -> int:
    """The permission bits a replaced file keeps, or a new file's under the process umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)  # read the umask (it can only be read by setting it) and put it back
        os.umask(umask)
        return 0o666 & ~umask
