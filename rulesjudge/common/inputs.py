"""Bounded input: every file, stream and download the program reads, with a size cap and a deadline.

One reader for ``corpus add``, ``check``, ``ask`` and ``search --batch``, so that each refuses the same
things the same way, in one line naming the file:

- only regular files are read: ``/dev/zero``, ``/dev/urandom`` and a FIFO are refused before a byte is
  read (the FIFO is opened without waiting for a writer, so it can't block);
- the size is capped *while reading*, not by the size the file claims (``/proc`` files claim 0 bytes);
- a download has one overall deadline (a server trickling a byte at a time can't hold it), its size is
  capped as it arrives, and every network failure -- a malformed URL, an unknown host, a refused
  connection, a status line that isn't HTTP, a header line too long, a body cut short, TLS -- is one line.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "q.txt"; _ = p.write_bytes(b"who is the monarch?")
>>> read_file(p, limit=100)
b'who is the monarch?'
>>> read_file(p, limit=10)
Traceback (most recent call last):
rulesjudge.common.errors.InputError: ...q.txt: too large: more than 10 bytes
>>> read_file("/dev/zero", limit=10)
Traceback (most recent call last):
rulesjudge.common.errors.InputError: /dev/zero: not a regular file (a character device): only files are read
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import socket
import stat
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from rulesjudge.common.errors import InputError

if TYPE_CHECKING:  # the network modules load only for a download (they cost `check` 40 ms to import)
    import urllib.request

DOWNLOAD_SECONDS = 60.0  # the whole download; a release is about 1 MB
READ_TIMEOUT_SECONDS = 20.0  # a single read from the network, and the connection
CHUNK = 64 * 1024
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")

_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


# ----------------------------------------------------------------------------------------------- files


def read_file(path: str | Path, *, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is an InputError.

    ``what`` names the expected content in messages ("scenario file", "release file").
    """
    name = Path(path)
    check_not_empty(path, what)
    fd = open_regular(name, what)
    with os.fdopen(fd, "rb", buffering=0) as handle:
        try:
            return read_capped(handle, limit, name)
        except OSError as error:  # EISDIR, EIO, ...: whatever the file became, one line
            raise InputError(name, f"cannot read: {error.strerror or error}") from None


def open_regular(path: Path, what: str = "file") -> int:
    """A descriptor open for reading on the regular file at ``path``; anything else is one InputError.

    The type is checked on the open descriptor (``fstat``), before it is wrapped in a file object:
    Python's file objects refuse a folder with ``IsADirectoryError``, and a check by name before opening
    would miss an entry swapped in between. A symlink loop, a folder, a FIFO (opened without waiting
    for a writer), a device or a socket is refused here, by the one reader every command uses.

    >>> import tempfile
    >>> open_regular(Path(tempfile.mkdtemp()), "scenario file")
    Traceback (most recent call last):
    rulesjudge.common.errors.InputError: ...: is a folder, not a scenario file
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: opening a FIFO does not wait for a writer
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except OSError as error:
        if error.errno == errno.EISDIR:
            raise InputError(path, f"is a folder, not a {what}") from None
        raise InputError(path, os_problem(error)) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(path, f"is a folder, not a {what}")
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "not a file")
            raise InputError(path, f"not a regular file ({kind}): only files are read")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a regular file: plain reads from here
    except BaseException:
        os.close(fd)
        raise
    return fd


def os_problem(error: OSError) -> str:
    """One phrase for a path that could not be opened or looked at.

    >>> os_problem(OSError(errno.ELOOP, "Too many levels of symbolic links"))
    'a symbolic link loop, not a file'
    >>> os_problem(PermissionError(errno.EACCES, "Permission denied"))
    'cannot read: Permission denied'
    """
    if error.errno == errno.ELOOP:
        return "a symbolic link loop, not a file"
    return f"cannot read: {error.strerror or error}"


def check_not_empty(path: str | Path, what: str) -> None:
    """An empty argument names nothing (``Path("")`` would be the current folder): one line.

    >>> check_not_empty(" ", "release file")
    Traceback (most recent call last):
    rulesjudge.common.errors.InputError: " ": empty path: name a release file
    """
    if not str(path).strip():
        raise InputError(f'"{path}"', f"empty path: name a {what}")


def read_capped(stream: IO[bytes], limit: int, name: str | Path) -> bytes:
    """At most ``limit`` bytes from ``stream`` (standard input, a file); more is an InputError.

    >>> import io
    >>> read_capped(io.BytesIO(b"abc"), 3, "<stdin>")
    b'abc'
    """
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise InputError(name, f"too large: more than {limit} bytes")
    return b"".join(chunks)


def decode_text(data: bytes, name: str | Path) -> str:
    """UTF-8 text (a byte-order mark is dropped); anything else is one line naming the byte.

    >>> decode_text(b"\\xef\\xbb\\xbfAnn", "x")
    'Ann'
    >>> decode_text(b"Ann \\xff", "x.yaml")
    Traceback (most recent call last):
    rulesjudge.common.errors.InputError: x.yaml: not valid UTF-8 text (byte 4)
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(name, f"not valid UTF-8 text (byte {error.start})") from None


def check_argument_text(value: str, key: str, noun: str) -> str:
    """A command-line argument's text, or one line when its bytes were not UTF-8 (Python keeps such
    bytes as lone surrogates: they would fail later, far from the argument, when encoded).

    >>> check_argument_text("who is the monarch?", "--what-if", "the question")
    'who is the monarch?'
    >>> check_argument_text("monarch \\udcff", "--what-if", "the question")
    Traceback (most recent call last):
    rulesjudge.common.errors.InputError: command line: --what-if: the question is not valid UTF-8 text
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        verb = "are" if noun.endswith("s") else "is"
        raise InputError("command line", f"{noun} {verb} not valid UTF-8 text", key=key) from None
    return value


def read_text(path: str | Path, *, limit: int, what: str = "file") -> str:
    """A regular UTF-8 text file of at most ``limit`` bytes (see :func:`read_file`)."""
    return decode_text(read_file(path, limit=limit, what=what), path)


@dataclass
class Found:
    """Files found under some paths, and what could not be looked at (each a one-line error)."""

    files: list[Path] = field(default_factory=list)
    problems: list[InputError] = field(default_factory=list)


def find_files(paths: Iterable[str | Path], suffixes: tuple[str, ...], what: str) -> Found:
    """Every file named, or found with one of ``suffixes`` under a named folder, in a stable order.

    A missing path, a folder that can't be listed (at any depth) and a named folder holding no such
    file are reported in ``problems``, never skipped in silence.
    """
    found = Found()
    for raw in paths:
        path = Path(raw)
        try:
            check_not_empty(raw, f"{what} or a folder of them")
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except InputError as error:
            found.problems.append(error)
            continue
        except FileNotFoundError:
            found.problems.append(InputError(path, "no such file or folder"))
            continue
        except OSError as error:
            found.problems.append(InputError(path, os_problem(error)))
            continue
        if not is_dir:
            found.files.append(path)
            continue
        before = (len(found.files), len(found.problems))
        found.files.extend(_walk(path, suffixes, found.problems.append))
        if (len(found.files), len(found.problems)) == before:
            found.problems.append(InputError(path, f"no {what} ({', '.join('*' + s for s in suffixes)}) "
                                                   "in this folder"))
    return found


def _walk(folder: Path, suffixes: tuple[str, ...], report: Callable[[InputError], None]) -> list[Path]:
    def unreadable(error: OSError) -> None:
        report(InputError(error.filename or folder, f"cannot read this folder: {error.strerror or error}"))

    files: list[Path] = []
    seen: set[tuple[int, int]] = set()  # folders already walked: a link to a parent folder is no loop
    for root, dirs, names in os.walk(folder, onerror=unreadable, followlinks=True):
        try:
            info = os.stat(root)
        except OSError as error:
            unreadable(error)
            continue
        if (info.st_dev, info.st_ino) in seen:
            dirs.clear()
            continue
        seen.add((info.st_dev, info.st_ino))
        dirs.sort()
        files.extend(Path(root, n) for n in sorted(names) if n.endswith(suffixes) and not n.startswith("."))
    return files


# ------------------------------------------------------------------------------------------ downloads


def is_url(source: str) -> bool:
    """Does ``source`` name a download (http or https) rather than a file?

    >>> is_url("https://example.org/cr.txt"), is_url("cr.txt"), is_url("HTTP://[::1")
    (True, False, True)
    """
    return source.lower().startswith(("http://", "https://"))


def read_source(source: str, *, limit: int, what: str = "file") -> tuple[bytes, str]:
    """The bytes of a local file or an http(s) URL, and a short name for messages."""
    if is_url(source):
        data = download(source, limit=limit)
        try:
            name = Path(urlsplit(source).path).name
        except ValueError:
            name = ""
        return data, name or source
    scheme = _SCHEME.match(source)
    if scheme and scheme.group(1).lower() == "file":
        source = unquote(urlsplit(source).path)
    elif scheme and not Path(source).exists():  # "C:\\rules.txt" has no scheme: one letter is a drive
        raise InputError(source, f"unsupported URL scheme {scheme.group(1)!r} (use a path or an http(s) URL)")
    path = Path(source).expanduser()
    return read_file(path, limit=limit, what=what), path.name


def download(url: str, *, limit: int, deadline: float = DOWNLOAD_SECONDS,
             read_timeout: float = READ_TIMEOUT_SECONDS) -> bytes:
    """The body of ``url`` (http or https), at most ``limit`` bytes, within ``deadline`` seconds overall.

    The download runs in a worker thread that this function waits for; past the deadline its sockets
    are shut, which ends any read in progress, and the caller gets one line.
    """
    _check_url(url)
    sockets = _Sockets()
    outcome: dict[str, Any] = {}
    worker = threading.Thread(target=_fetch_into, args=(url, limit, min(read_timeout, deadline), sockets,
                                                        outcome), daemon=True, name="rulesjudge-download")
    worker.start()
    worker.join(deadline)
    if worker.is_alive():
        sockets.shut()
        worker.join(1.0)
        raise InputError(url, f"download failed: not finished within {deadline:g} s")
    error = outcome.get("error")
    if isinstance(error, InputError):
        raise error
    if error is not None:
        raise InputError(url, f"download failed: {network_problem(error)}") from None
    data: bytes = outcome["data"]
    return data


def _check_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number in range
    except ValueError as error:
        raise InputError(url, f"not a valid URL: {error}") from None
    if not parts.hostname:
        raise InputError(url, "not a valid URL: no host name")


def network_problem(error: BaseException) -> str:
    """One short phrase for any failure of a download.

    >>> import http.client, urllib.error
    >>> network_problem(http.client.IncompleteRead(b"abc", 10))
    'the answer was cut short (3 bytes read, 10 more expected)'
    >>> network_problem(urllib.error.URLError(ConnectionRefusedError(111, "Connection refused")))
    'connection refused'
    """
    import http.client
    import ssl
    import urllib.error

    if isinstance(error, urllib.error.HTTPError):
        return f"HTTP {error.code} {error.reason}"
    if isinstance(error, urllib.error.URLError):
        reason = error.reason
        return network_problem(reason) if isinstance(reason, BaseException) else str(reason)
    if isinstance(error, http.client.IncompleteRead):
        return f"the answer was cut short ({len(error.partial)} bytes read, {error.expected} more expected)"
    if isinstance(error, http.client.LineTooLong):
        return "the server sent a header line that is too long"
    if isinstance(error, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(error, http.client.BadStatusLine):
        return "the server's answer is not HTTP"
    if isinstance(error, http.client.HTTPException):
        return f"a malformed answer from the server ({type(error).__name__})"
    if isinstance(error, socket.gaierror):
        return f"unknown host ({error.strerror or error})"
    if isinstance(error, TimeoutError):
        return "no answer from the server in time"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, ssl.SSLError):
        return f"TLS error: {error.reason or error}"
    if isinstance(error, OSError):
        return str(error.strerror or error)
    if isinstance(error, ValueError):
        return f"not a valid URL: {error}"
    return f"{type(error).__name__}: {error}"


class _Sockets:
    """The sockets a download opened, so that the deadline can shut them from the waiting thread."""

    def __init__(self) -> None:
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self.closed = False

    def add(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self._open.append(sock)
            if self.closed:
                self._shut(sock)
        return sock

    def shut(self) -> None:
        with self._lock:
            self.closed = True
            for sock in self._open:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _opener(sockets: _Sockets) -> urllib.request.OpenerDirector:
    """urllib's opener for http and https only (no ftp, no file: a redirect can't leave the web), with
    connections whose sockets are recorded."""
    import http.client
    import ssl
    import urllib.request

    def tracked(base: type[http.client.HTTPConnection]) -> type[http.client.HTTPConnection]:
        class Tracked(base):  # type: ignore[valid-type,misc]
            def connect(self) -> None:  # record the plain socket before TLS, and the final one after
                create = self._create_connection  # type: ignore[has-type]
                self._create_connection = lambda *a, **k: sockets.add(create(*a, **k))
                super().connect()
                sockets.add(self.sock)

        return Tracked

    http_connection, https_connection = tracked(http.client.HTTPConnection), tracked(
        http.client.HTTPSConnection)

    class HTTP(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(http_connection, req)

    class HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(https_connection, req, context=ssl.create_default_context())

    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), HTTP(), HTTPS(), urllib.request.HTTPRedirectHandler(),
                    urllib.request.HTTPDefaultErrorHandler(), urllib.request.HTTPErrorProcessor(),
                    urllib.request.UnknownHandler()):
        opener.add_handler(handler)
    return opener


def _fetch_into(url: str, limit: int, timeout: float, sockets: _Sockets, outcome: dict[str, Any]) -> None:
    import http.client
    import urllib.request

    try:
        request = urllib.request.Request(url, headers={"User-Agent": "rulesjudge"})
        with _opener(sockets).open(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length", "")
            if length.isdigit() and int(length) > limit:
                raise InputError(url, f"too large: {length} bytes (at most {limit})")
            data = read_capped(response, limit, url)
            if length.isdigit() and len(data) < int(length):  # read(n) returns short at EOF, silently
                raise http.client.IncompleteRead(data, int(length) - len(data))
            outcome["data"] = data
    except BaseException as error:  # handed to the waiting thread, which turns it into one line
        outcome["error"] = error
