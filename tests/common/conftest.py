"""Fixtures of the shared helpers' tests: a tiny misbehaving web server for the download cases (each test
scripts the raw bytes it answers)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator, Sequence

import pytest


class RawServer:
    """Answers every connection on 127.0.0.1 with ``script``: byte strings sent in order, a float
    between them is a pause in seconds. The connection closes after the last item."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.script: Sequence[bytes | float] = ()
        self.forever: bytes | None = None  # sent again and again (a trickle) until the client goes away
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def url(self, path: str = "/cr.txt") -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}{path}"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.settimeout(5)
                conn.recv(65536)  # the request
                for item in self.script:
                    if isinstance(item, float):
                        time.sleep(item)
                    else:
                        conn.sendall(item)
                while self.forever is not None and not self.stopped.is_set():
                    conn.sendall(self.forever)
                    time.sleep(0.05)
            except OSError:
                return  # the client hung up: what a deadline does

    def close(self) -> None:
        self.stopped.set()
        self.sock.close()


@pytest.fixture
def raw_server() -> Iterator[RawServer]:
    server = RawServer()
    yield server
    server.close()
