"""The server's resident memory with glibc's allocator: fewer arenas, free pages handed back.

Streamlit answers each session's script run in a thread of its own, and glibc gives threads their own
malloc arenas (up to eight per core), each keeping the memory its thread freed: measured, the server with
cards after the Cards page held 436 MB with the default arenas and 418 MB with ``MALLOC_ARENA_MAX=2``.
Python objects freed after a burst (the warm-up's library index, the card names' parse) leave free pages
inside the heap that only ``malloc_trim`` returns. Both are set from here, in the serving process only;
other C libraries (macOS, musl) have neither, and nothing happens there.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Any

#: mallopt's parameter number for the arena limit (glibc's malloc.h: ``M_ARENA_MAX``).
M_ARENA_MAX = -8
ARENAS = 2


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` malloc arenas for the threads started from now on; True when glibc took it.

    >>> isinstance(limit_arenas(), bool)
    True
    """
    libc = _libc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, arenas) == 1)


def trim() -> bool:
    """Hand the allocator's free pages back to the system; True when some were.

    >>> isinstance(trim(), bool)
    True
    """
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0) == 1)
