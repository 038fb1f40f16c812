"""The card snapshot read into the cache before the app serves (issue 21.4: the server ≤ 450 MB).

Reading the whole built-in snapshot once peaks at ~320 MB (docs/cards.md); done inside the server, that
peak would stay its resident size. So the app has a child process read it: the server then finds the
cache and only ever holds the name index (~35 MB) and the cards it shows.
"""

from __future__ import annotations

import subprocess
import sys

#: What the child runs: the current snapshot, parsed into the cache unless it is there already.
READ = "from rulesjudge.corpus.cards import load_cards; load_cards()"


def prepare_card_cache(timeout: float = 600) -> str | None:
    """Read the current card snapshot into the cache in a child process; None when done, else the one line
    saying why not (the app serves anyway: cards are read when first asked for, and errors are shown then).

    >>> prepare_card_cache.__name__   # runs a process: see tests/app/test_card_cache.py
    'prepare_card_cache'
    """
    try:
        done = subprocess.run([sys.executable, "-c", READ], capture_output=True, text=True, timeout=timeout,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the card snapshot was not read ahead: {error}"
    if done.returncode != 0:
        lines = (done.stderr or "").strip().splitlines()
        return f"the card snapshot was not read ahead: {lines[-1] if lines else f'exit {done.returncode}'}"
    return None
