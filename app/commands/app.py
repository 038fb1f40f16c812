"""``rulesjudge app``: build or refresh the search index with visible progress, then serve the web app.

The server listens on 127.0.0.1 unless ``--host`` says otherwise. Streamlit runs in this process (its
bootstrap), so the index and the model loaded while building are handed to the pages as they are: they
load once per server.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import threading
import time
from pathlib import Path

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
        "browser.gatherUsageStats": False,
        "browser.serverAddress": host,
        "global.developmentMode": False,
        "client.toolbarMode": "minimal",
        "theme.base": "light",
    }


def run(args: argparse.Namespace) -> int:
    from rulesjudge.corpus.errors import InputError

    if not 0 < args.port < 65536:
        raise InputError(None, f"port must be between 1 and 65535 (got {args.port})", key="--port")
    if not args.build_only:
        check_port_free(args.host, args.port)  # before the index work, not after it
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from rulesjudge.app import services

    started = time.perf_counter()
    print("rulesjudge: loading the corpus and building or refreshing the search index…", file=sys.stderr)
    searcher = services.prepare_index(progress=True)
    print(f"rulesjudge: index ready in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    from rulesjudge.app.card_cache import prepare_card_cache

    problem = prepare_card_cache()  # a child reads the snapshot: its peak memory is never the server's
    if problem:
        print(f"rulesjudge: warning: {problem}", file=sys.stderr)
    if args.build_only:
        vectors = services.library_vectors(searcher, services.load_library())  # the fallback's, on disk
        if vectors is not None:
            print(f"rulesjudge: {len(vectors)} library scenarios ready for the closest-scenario search",
                  file=sys.stderr)
        return 0
    services.preload(searcher)
    services.schedule_warm_up(searcher)  # the language model loads once the server listens
    threading.Thread(target=_warm_up_when_listening, args=(args.host, args.port), daemon=True).start()
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"rulesjudge: warning: serving on {args.host}, reachable from other computers", file=sys.stderr)
    print(f"rulesjudge: serving on http://{args.host}:{args.port}  (Ctrl+C stops)", file=sys.stderr)
    return serve(args.host, args.port)


def check_port_free(host: str, port: int) -> None:
    """InputError (exit 2) when the server could not listen on ``host:port``: a port in use, an address
    this computer doesn't have, a host name that doesn't resolve."""
    import socket

    from rulesjudge.corpus.errors import InputError

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


def _warm_up_when_listening(host: str, port: int, timeout: float = 120) -> None:
    """Start loading the language model as soon as the server accepts connections (so that the server's
    own start is not slowed down by importing torch); the pages start it too, whichever comes first."""
    import socket

    from rulesjudge.app import services

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1):
                break
        except OSError:
            time.sleep(0.1)  # the server is still starting
    services.start_warm_up()


def serve(host: str, port: int) -> int:
    """Run Streamlit's server on the app's home page in this process (blocks until stopped)."""
    from streamlit import config as st_config
    from streamlit.web import bootstrap

    # The same path `streamlit run` takes: flags named as on its command line, dots as underscores.
    flags = {name.replace(".", "_"): value for name, value in streamlit_flags(host, port).items()}
    st_config._main_script_path = str(HOME)
    bootstrap.load_config_options(flag_options=flags)
    bootstrap.run(str(HOME), False, [], flag_options=flags)
    return 0
