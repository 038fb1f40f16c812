"""The card snapshot read into the cache by a child process while the app starts (issue 21.4: the server
≤ 450 MB; issue 23.5: a usable page ≤ 10 s from a fresh data folder).

Reading the whole built-in snapshot once peaks at ~320 MB (docs/cards.md); done inside the server, that
peak would stay its resident size. So the app has a child process read it: the server then finds the
cache and only ever holds the name index (~35 MB) and the cards it shows. The child starts before the
index is prepared and runs beside it; the server does not wait for it to serve the first page. A page
that needs cards while it still runs says so and waits (:func:`wait`); anything else that asks for cards
meanwhile waits on the cache's parse lock (``corpus.cards.db.parsing``) and never parses it twice.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

#: What the child runs: the current snapshot, parsed into the cache unless it is there already, at a lower
#: priority than the index build beside it (the first page waits for the index, not for the cards).
READ = "import os; os.nice(10); from rulesjudge.corpus.cards import load_cards; load_cards()"


@dataclass
class CardReading:
    """The child reading the snapshot: :meth:`wait` for it, once, from any thread."""

    process: subprocess.Popen[str] | None
    problem: str | None = None  # why it could not start, or why it failed once finished
    timeout: float = 600
    _done: threading.Lock = field(default_factory=threading.Lock)
    _finished: bool = False

    @property
    def running(self) -> bool:
        return self.process is not None and not self._finished and self.process.poll() is None

    def wait(self) -> str | None:
        """Wait for the child; None when the cache is filled, else the one line saying why not (the app
        serves anyway: cards are then read when first asked for, and errors are shown there)."""
        with self._done:
            if self._finished or self.process is None:
                return self.problem
            try:
                _, stderr = self.process.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired as error:
                self.process.kill()
                self.process.communicate()
                self.problem = f"the card snapshot was not read ahead: {error}"
            else:
                if self.process.returncode != 0:
                    lines = (stderr or "").strip().splitlines()
                    last = lines[-1] if lines else f"exit {self.process.returncode}"
                    self.problem = f"the card snapshot was not read ahead: {last}"
            self._finished = True
            return self.problem

    def stop(self) -> None:
        """End the child if it still runs (the server is stopping; the cache's writes are transactions);
        not a problem to report: the next start reads the snapshot again."""
        if self.running and self.process is not None:
            self.process.kill()
            with self._done:
                self.process.communicate()
                self._finished = True


def start_card_cache(timeout: float = 600) -> CardReading:
    """Start reading the current card snapshot into the cache in a child process (:class:`CardReading`).

    >>> start_card_cache.__name__   # runs a process: see tests/app/test_card_cache.py
    'start_card_cache'
    """
    try:
        process = subprocess.Popen([sys.executable, "-c", READ], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
    except OSError as error:
        return CardReading(None, f"the card snapshot was not read ahead: {error}")
    return CardReading(process, timeout=timeout)


def prepare_card_cache(timeout: float = 600) -> str | None:
    """Read the current card snapshot into the cache in a child process and wait for it; None when done,
    else the one line saying why not."""
    return start_card_cache(timeout).wait()


#: The child of the serving process, while the pages may still have to wait for it.
_SERVING: dict[str, CardReading] = {}


def serve_while_reading(reading: CardReading, say: Callable[[str], object] | None = None) -> None:
    """Let the server answer while ``reading`` runs: :func:`ready` and :func:`wait` are about it, and a
    background thread passes its problem, if any, to ``say`` (a function of one line) when it ends."""
    _SERVING["reading"] = reading

    def watch() -> None:
        problem = reading.wait()
        if problem and say is not None:
            say(problem)

    threading.Thread(target=watch, name="card-cache-watch", daemon=True).start()


def ready() -> bool:
    """Are the cards there to read without waiting for the child (or is there no child)?"""
    reading = _SERVING.get("reading")
    return reading is None or not reading.running


def wait() -> None:
    """Wait for the child reading the snapshot, if one runs (a page that needs cards calls this)."""
    reading = _SERVING.get("reading")
    if reading is not None:
        reading.wait()


def stop() -> None:
    """End the serving process's child, if it still runs."""
    reading = _SERVING.get("reading")
    if reading is not None:
        reading.stop()
