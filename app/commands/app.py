"""``rulesjudge app``: build or refresh the search index with visible progress, then serve the web app.

The server listens on 127.0.0.1 unless ``--host`` says otherwise. Streamlit runs in this process (its
bootstrap), so the index and the model loaded while building are handed to the pages as they are: they
load once per server.

It answers only requests and websockets addressed to its own address (the Host header): a page of
another site whose name was re-pointed at 127.0.0.1 (DNS rebinding) gets 400, though the browser would
send a matching Origin. Streamlit serves through Starlette; :func:`serve` wraps the application it builds
in Starlette's ``TrustedHostMiddleware``. SIGTERM (and Ctrl+C) stop Streamlit's server; the process then
waits briefly for the model's warm-up threads and leaves without tearing down native libraries under them
(a teardown under torch or onnxruntime's loading thread aborted the process with SIGABRT).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
import time
from pathlib import Path
from typing import Any

from rulesjudge.app import card_cache, library, memory, services
from rulesjudge.common.errors import InputError

WEB = Path(__file__).resolve().parents[1] / "web"
HOME = WEB / "Home.py"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("app", help="build or refresh the index, then serve the web app on localhost")
    p.add_argument("--port", type=int, default=8501, help="port to listen on (default 8501)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--build-only", action="store_true",
                   help="build or refresh the index and exit without serving")
    p.set_defaults(func=run)


def streamlit_flags(host: str, port: int) -> dict[str, object]:
    """Streamlit's options for this server: local, headless, no usage statistics, no file watching.

    >>> streamlit_flags("127.0.0.1", 8501)["server.address"]
    '127.0.0.1'
    """
    return {
        "server.address": host,
        "server.port": port,
        "server.headless": True,
        "server.fileWatcherType": "none",
        "server.runOnSave": False,
        "server.maxUploadSize": 1,  # megabytes; the checker caps scenario files at 64 KB itself
        # Not a full garbage collection after every script run of every session: each walked the whole
        # heap holding the interpreter (0.13 CPU-s before memory.settle), 265 in four minutes of eight
        # judges, and was the tail of their searches. Cycles are collected by Python's own thresholds.
        "runner.postScriptGC": False,
        "browser.gatherUsageStats": False,
        "browser.serverAddress": host,
        "global.developmentMode": False,
        "client.toolbarMode": "minimal",
        "theme.base": "light",
    }


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise InputError(None, f"port must be between 1 and 65535 (got {args.port})", key="--port")
    if not args.build_only:
        check_port_free(args.host, args.port)  # before the index work, not after it
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if not args.build_only:
        memory.limit_arenas()  # before Streamlit's threads: each would keep an arena of its own

    started = time.perf_counter()
    # A child reads the card snapshot (its peak memory is never the server's), beside the index's work.
    reading = card_cache.start_card_cache()
    print("rulesjudge: loading the corpus and building or refreshing the search index…", file=sys.stderr)
    try:
        searcher = services.prepare_index(progress=True)
    except BaseException:
        reading.stop()
        raise
    print(f"rulesjudge: index ready in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if args.build_only:
        problem = reading.wait()
        if problem:
            print(f"rulesjudge: warning: {problem}", file=sys.stderr)
        vectors = library.library_vectors(searcher, library.load_library())  # the fallback's, on disk
        if vectors is not None:
            print(f"rulesjudge: {len(vectors)} library scenarios ready for the closest-scenario search",
                  file=sys.stderr)
        return 0
    if reading.running:
        print("rulesjudge: the card snapshot is still being read into its cache; the pages that need "
              "cards say so and wait for it", file=sys.stderr)
    card_cache.serve_while_reading(reading, lambda line: print(f"rulesjudge: warning: {line}",
                                                               file=sys.stderr))
    services.preload(searcher)
    # The query model, a first search's parts (card names, lexicon), the library's indexes and the
    # reader's dictionary load in the background once the first page is drawn (the pages start it):
    # started as soon as the port listened, their ~3 s of Python held the GIL while the first page ran its
    # script. Then the heap is settled (memory.settle): full collections no longer walk what they loaded.
    services.schedule_warm_up(searcher)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"rulesjudge: warning: serving on {args.host}, reachable from other computers", file=sys.stderr)
    print(f"rulesjudge: serving on http://{args.host}:{args.port}  (Ctrl+C stops)", file=sys.stderr)
    leave(serve(args.host, args.port))
    return 0  # not reached


def leave(code: int) -> None:
    """End the serving process with ``code`` once the rulesjudge threads still loading a model are done
    (:func:`services.join_background_threads`), without the interpreter's teardown: torch and onnxruntime
    abort the process (SIGABRT) when their objects are destroyed while another thread is inside them.
    Everything rulesjudge writes is atomic and already on disk; Streamlit has stopped."""
    card_cache.stop()  # a child still reading the card snapshot: its cache writes are transactions
    services.join_background_threads()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def allowed_hosts(host: str) -> list[str]:
    """The Host header values this server answers (as Starlette parses them: IPv6 in brackets).

    >>> allowed_hosts("127.0.0.1")
    ['127.0.0.1', 'localhost', '[::1]']
    >>> allowed_hosts("192.0.2.7")
    ['192.0.2.7', '127.0.0.1', 'localhost', '[::1]']
    """
    import ipaddress
    import socket

    loopback = ["127.0.0.1", "localhost", "[::1]"]
    names = [host]
    if host in ("0.0.0.0", "::", ""):  # every address of this computer: its names and their addresses
        names = [socket.gethostname(), socket.getfqdn()]
        for name in list(names):
            with contextlib.suppress(OSError, UnicodeError):
                names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
    shown = []
    for name in names:
        try:
            shown.append(f"[{name}]" if ipaddress.ip_address(name).version == 6 else name)
        except ValueError:
            shown.append(name.lower())
    return list(dict.fromkeys([*shown, *loopback]))


def guard_host(app: Any, hosts: list[str]) -> Any:
    """``app`` (an ASGI application) answering only requests and websockets whose Host is in ``hosts``."""
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    return TrustedHostMiddleware(app, allowed_hosts=hosts, www_redirect=False)


def check_port_free(host: str, port: int) -> None:
    """InputError (exit 2) when the server could not listen on ``host:port``: a port in use, an address
    this computer doesn't have, a host name that doesn't resolve."""
    import socket

    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        raise InputError("command line", f"cannot listen on {host!r}: {error}", key="--host") from None
    for family, kind, proto, _name, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRNOTAVAIL:
                    raise InputError("command line", f"this computer has no address {host}",
                                     key="--host") from None
                reason = "in use (is another server running?)" if error.errno == errno.EADDRINUSE else (
                    error.strerror or str(error))
                raise InputError("command line", f"port {port} on {host}: {reason}", key="--port") from None


def serve(host: str, port: int) -> int:
    """Run Streamlit's server on the app's home page in this process (blocks until stopped)."""
    from streamlit import config as st_config
    from streamlit.web import bootstrap
    from streamlit.web.server.starlette import starlette_server

    build = starlette_server.create_starlette_app  # the application Streamlit's server runs, host-guarded
    hosts = allowed_hosts(host)
    starlette_server.create_starlette_app = lambda runtime: guard_host(build(runtime), hosts)
    # The same path `streamlit run` takes: flags named as on its command line, dots as underscores.
    flags = {name.replace(".", "_"): value for name, value in streamlit_flags(host, port).items()}
    st_config._main_script_path = str(HOME)
    bootstrap.load_config_options(flag_options=flags)
    bootstrap.run(str(HOME), False, [], flag_options=flags)
    return 0
