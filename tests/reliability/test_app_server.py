"""The served app (issue 24, 7c and 8): a request or a websocket whose Host header is not the server's own
address is refused (DNS rebinding: a page of evil.example, re-resolved to 127.0.0.1, would otherwise
drive the app with a matching Origin), and SIGTERM ends the server cleanly, whatever is loading (it ended
with "terminate called without an active exception", SIGABRT, while the model warmed up)."""

from __future__ import annotations

import signal
import socket
import time

import pytest

from tests.conftest import start_app_server

WEBSOCKET = ("GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
             "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")


def status_of(port: int, request: str) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request.encode())
        head = conn.recv(4096).decode("latin-1")
    return int(head.split()[1])


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}"])
def test_its_own_address_is_served(app_server, host) -> None:
    server = app_server.port
    request = f"GET /_stcore/health HTTP/1.1\r\nHost: {host.format(port=server)}\r\nConnection: close\r\n\r\n"
    assert status_of(server, request) == 200
    assert status_of(server, WEBSOCKET.format(host=host.format(port=server))) == 101  # the page's websocket


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1.evil.example:{port}"])
def test_a_foreign_host_is_refused_for_pages_and_the_websocket(app_server, host) -> None:
    server = app_server.port
    named = host.format(port=server)
    request = f"GET / HTTP/1.1\r\nHost: {named}\r\nConnection: close\r\n\r\n"
    assert status_of(server, request) == 400  # why: DNS rebinding sends the attacker's name as Host
    assert status_of(server, WEBSOCKET.format(host=named)) != 101  # even with a matching Origin


def test_sigterm_while_the_model_warms_up_is_a_clean_exit(app_data_root, tmp_path) -> None:
    log = tmp_path / "server.log"
    process = start_app_server(app_data_root, log).wait_ready().process
    time.sleep(0.3)  # the warm-up thread is importing and loading the language model now
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0  # why: a requested stop, not a crash (SIGABRT was -6 / 134)
    text = log.read_text()
    assert "terminate called" not in text and "Traceback" not in text and "Aborted" not in text
