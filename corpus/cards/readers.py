"""Reading a card snapshot: MTGJSON's AtomicCards and Scryfall's bulk files, into :class:`Card` values.

Both readers take the file's bytes (already read through the bounded reader) and refuse anything that is
not what they read with one :class:`InputError` naming the file and what is wrong: a truncated or
damaged archive, JSON that doesn't parse, JSON of another shape, Scryfall's ``default-cards`` or
``all-cards`` (every printing) instead of ``oracle-cards`` (one object per card).

>>> import json
>>> doc = {"meta": {"date": "2026-07-09"}, "data": {"Fog": [{"name": "Fog", "type": "Instant",
...        "text": "Prevent all combat damage that would be dealt this turn.", "manaCost": "{G}",
...        "legalities": {"commander": "Legal"}, "rulings": [{"date": "2004-10-04", "text": "Yes."}]}]}}
>>> snap = read_mtgjson(json.dumps(doc).encode(), "AtomicCards.json")
>>> snap.edition, snap.cards[0].id, snap.cards[0].rulings[0].id, snap.cards[0].commander_legality
('2026-07-09', 'cards@2026-07-09/card/fog', 'cards@2026-07-09/ruling/fog/1', 'legal')
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.cards.model import Card, CardRuling, Face, card_id, ruling_id, slug

#: The largest card file read (on disk, and once decompressed): MTGJSON's AtomicCards.json is ~120 MB and
#: Scryfall's oracle-cards ~160 MB; anything far larger is not a snapshot (a 2 GB file is refused unread).
MAX_CARD_FILE_BYTES = 600_000_000
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_XZ, _GZIP, _ZIP = b"\xfd7zXZ\x00", b"\x1f\x8b", b"PK\x03\x04"
#: Scryfall objects that are no card one plays (tokens, emblems, art cards): not read.
_SCRYFALL_SKIPPED = frozenset({"token", "double_faced_token", "emblem", "art_series"})


@dataclass(frozen=True)
class Snapshot:
    """One parsed card file: its edition (the snapshot's date), format and cards sorted by name."""

    edition: str
    format: str  # "mtgjson" or "scryfall"
    cards: tuple[Card, ...]

    @property
    def rulings(self) -> int:
        return sum(len(card.rulings) for card in self.cards)


# ------------------------------------------------------------------------------------ bytes -> JSON


def unpack(data: bytes, name: str, limit: int = MAX_CARD_FILE_BYTES) -> bytes:
    """The JSON bytes of a card file as downloaded: plain, ``.xz``, ``.gz`` or a ``.zip`` holding one
    ``.json``, told apart by their first bytes; at most ``limit`` bytes once decompressed.

    >>> import lzma
    >>> unpack(lzma.compress(b'{"a": 1}'), "AtomicCards.json.xz")
    b'{"a": 1}'
    >>> unpack(lzma.compress(b'{"a": 1}')[:20], "AtomicCards.json.xz")
    Traceback (most recent call last):
    rulesjudge.common.errors.InputError: AtomicCards.json.xz: a truncated or damaged xz file (Compressed \
file ended before the end-of-stream marker was reached)
    """
    if data.startswith(_XZ):
        import lzma

        return _inflate(lzma.LZMADecompressor(), data, name, "xz", limit, lzma.LZMAError)
    if data.startswith(_GZIP):
        import zlib

        return _inflate(zlib.decompressobj(31), data, name, "gzip", limit, zlib.error)
    if data.startswith(_ZIP):
        return _unzip(data, name, limit)
    return data


def _inflate(decompressor: Any, data: bytes, name: str, what: str, limit: int,
             error_type: type[Exception]) -> bytes:
    try:
        plain = decompressor.decompress(data, limit + 1)
    except (error_type, EOFError) as error:
        raise InputError(name, f"a damaged {what} file ({error})") from None
    if len(plain) > limit:
        raise InputError(name, f"more than {limit} bytes once decompressed: not a card snapshot")
    if not decompressor.eof:
        raise InputError(name, f"a truncated or damaged {what} file (Compressed file ended before the "
                               "end-of-stream marker was reached)")
    return bytes(plain)


def _unzip(data: bytes, name: str, limit: int) -> bytes:
    import zipfile
    import zlib

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist()
                       if m.filename.lower().endswith(".json") and not m.is_dir()]
            if len(members) != 1:
                raise InputError(name, f"a ZIP archive holding {len(members)} .json files (one is read)")
            with archive.open(members[0]) as handle:
                plain = handle.read(limit + 1)  # the size the archive claims is not trusted
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError, zlib.error) as error:
        raise InputError(name, f"a damaged ZIP archive ({error})") from None
    if len(plain) > limit:
        raise InputError(name, f"more than {limit} bytes once decompressed: not a card snapshot")
    return plain


def parse_json(data: bytes, name: str) -> Any:
    """The JSON value of a card file's bytes; anything else is one line saying where it broke."""
    if not data.strip():
        raise InputError(name, "empty file: not a card snapshot")
    head = data[:1024].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")):
        raise InputError(name, "a web page (HTML), not a card snapshot (JSON)")
    try:
        text = data.decode("utf-8-sig")  # JSON files are UTF-8 (json.loads would guess UTF-16 too)
    except UnicodeDecodeError as error:
        raise InputError(name, f"not UTF-8 JSON (byte {error.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # a snapshot is one object or one list: one that doesn't close was cut short
        cut = not data.rstrip().endswith((b"}", b"]"))
        what = "truncated JSON (it ends in the middle)" if cut else "damaged JSON"
        raise InputError(name, f"{what}: {error.msg}", line=error.lineno) from None
    except RecursionError:
        raise InputError(name, "JSON nested too deep: not a card snapshot") from None


# ------------------------------------------------------------------------------------------- MTGJSON


def read_mtgjson(data: bytes, name: str) -> Snapshot:
    """An MTGJSON AtomicCards file (``{"meta": {"date"}, "data": {name: [face, ...]}}``) as a snapshot."""
    doc = parse_json(unpack(data, name), name)
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict) or not isinstance(doc.get("meta"),
                                                                                            dict):
        raise InputError(name, f"not MTGJSON AtomicCards ({_shape(doc)}; expected an object with 'meta' and "
                               "'data')")
    edition = doc["meta"].get("date")
    if not isinstance(edition, str) or not _DATE.match(edition):
        raise InputError(name, f"meta.date is {edition!r}, not a date YYYY-MM-DD", key="meta.date")
    entries: list[tuple[str, list[dict[str, Any]]]] = []
    for card_name, faces in doc["data"].items():
        if not isinstance(faces, list) or not faces or not all(isinstance(f, dict) for f in faces):
            raise InputError(name, "expected a list of card faces (objects)", key=f"data.{card_name}")
        entries.append((card_name, faces))
    if not entries:
        raise InputError(name, "no cards in 'data'", key="data")
    if not any("type" in faces[0] for _, faces in entries[:50]):
        raise InputError(name, "not MTGJSON AtomicCards (its cards have no 'type'): another MTGJSON file?")
    cards = _with_ids(edition, ((n, _mtgjson_card(n, f, name)) for n, f in entries))
    return Snapshot(edition, "mtgjson", cards)


def _mtgjson_card(card_name: str, faces: list[dict[str, Any]], source: str) -> dict[str, Any]:
    first = faces[0]
    where = f"data.{card_name}"
    if len(faces) > 1 and all("side" in f for f in faces):
        faces = sorted(faces, key=lambda f: str(f.get("side")))
    keywords: list[str] = []
    for face in faces:
        for keyword in _strings(face.get("keywords"), source, f"{where}.keywords"):
            if keyword not in keywords:
                keywords.append(keyword)
    legalities = first.get("legalities")
    legality = None
    if isinstance(legalities, dict):
        legality = str(legalities.get("commander", "not legal")).lower().replace("_", " ")
    leader = any(isinstance(f.get("leadershipSkills"), dict) and f["leadershipSkills"].get("commander")
                 for f in faces)
    return {
        "name": card_name,
        "layout": str(first.get("layout") or "normal"),
        "faces": [Face(name=_text(f.get("faceName") or f.get("name") or card_name),
                       mana_cost=_opt(f.get("manaCost")), type_line=_text(f.get("type")),
                       text=_text(f.get("text")), power=_opt(f.get("power")),
                       toughness=_opt(f.get("toughness")), loyalty=_opt(f.get("loyalty")),
                       defense=_opt(f.get("defense")))
                  for f in faces],
        "keywords": keywords,
        "legality": legality,
        "leader": bool(leader),
        "rulings": _rulings(first.get("rulings"), source, f"{where}.rulings", "date", "text"),
    }


# ------------------------------------------------------------------------------------------- Scryfall

_SCRYFALL_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


def scryfall_edition(name: str) -> str | None:
    """The date of a Scryfall bulk file from its name as downloaded (``oracle-cards-20260709091500.json``).

    >>> scryfall_edition("oracle-cards-20260709091500.json"), scryfall_edition("cards.json")
    ('2026-07-09', None)
    """
    found = _SCRYFALL_DATE.search(name)
    return f"{found.group(1)}-{found.group(2)}-{found.group(3)}" if found else None


def read_scryfall(cards_data: bytes, cards_name: str, rulings_data: bytes | None, rulings_name: str,
                  edition: str | None = None) -> Snapshot:
    """Scryfall's ``oracle-cards`` bulk file (one object per card) and its ``rulings`` file as a snapshot;
    only the rulings Wizards of the Coast published (``source: wotc``) are kept."""
    lowered = cards_name.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if lowered.startswith(("default-cards", "all-cards", "unique-artwork")):
        raise InputError(cards_name, "Scryfall's every-printing file: add its oracle-cards file (one object "
                                     "per card) with its rulings file")
    edition = edition or scryfall_edition(lowered)
    if edition is None:
        raise InputError(cards_name, "no date in the file's name: keep Scryfall's name "
                                     "(oracle-cards-YYYYMMDDhhmmss.json)")
    objects = parse_json(unpack(cards_data, cards_name), cards_name)
    if not isinstance(objects, list) or not objects or not all(isinstance(o, dict) for o in objects[:50]):
        raise InputError(cards_name, f"not a Scryfall bulk card file ({_shape(objects)}; expected a list of "
                                     "card objects)")
    if objects[0].get("object") == "ruling":
        raise InputError(cards_name, "a Scryfall rulings file: add the oracle-cards file with it")
    if objects[0].get("object") != "card":
        raise InputError(cards_name, "not a Scryfall bulk card file (its objects are not cards)")
    rulings = _scryfall_rulings(rulings_data, rulings_name) if rulings_data is not None else {}
    seen: dict[str, str] = {}
    entries: list[tuple[str, dict[str, Any]]] = []
    for position, obj in enumerate(objects):
        if not isinstance(obj, dict) or obj.get("object") != "card":
            raise InputError(cards_name, "not a card object", key=f"[{position}]")
        if obj.get("layout") in _SCRYFALL_SKIPPED:
            continue
        oracle = obj.get("oracle_id") or _first_face_value(obj, "oracle_id")
        card_name = obj.get("name")
        if not isinstance(card_name, str) or not isinstance(oracle, str):
            raise InputError(cards_name, "a card without a name or oracle_id", key=f"[{position}]")
        if oracle in seen:
            raise InputError(cards_name, f"several printings of one card ({card_name}): Scryfall's "
                                         "default-cards or all-cards file; add oracle-cards instead")
        seen[oracle] = card_name
        entries.append((card_name, _scryfall_card(obj, rulings.get(oracle, []), cards_name, position)))
    return Snapshot(edition, "scryfall", _with_ids(edition, entries))


def _scryfall_card(obj: dict[str, Any], rulings: list[dict[str, Any]], source: str,
                   position: int) -> dict[str, Any]:
    card_faces = obj.get("card_faces")
    raw_faces: list[Any] = card_faces if isinstance(card_faces, list) else [obj]
    faces = []
    for face in raw_faces:
        if not isinstance(face, dict):
            raise InputError(source, "a card face that is not an object", key=f"[{position}].card_faces")
        faces.append(Face(name=_text(face.get("name") or obj.get("name")),
                          mana_cost=_opt(face.get("mana_cost", obj.get("mana_cost"))) or None,
                          type_line=_text(face.get("type_line", obj.get("type_line"))),
                          text=_text(face.get("oracle_text")), power=_opt(face.get("power")),
                          toughness=_opt(face.get("toughness")), loyalty=_opt(face.get("loyalty")),
                          defense=_opt(face.get("defense"))))
    legalities = obj.get("legalities")
    legality = None
    if isinstance(legalities, dict) and "commander" in legalities:
        legality = str(legalities["commander"]).lower().replace("_", " ")
    return {
        "name": obj["name"],
        "layout": str(obj.get("layout") or "normal"),
        "faces": faces,
        "keywords": _strings(obj.get("keywords"), source, f"[{position}].keywords"),
        "legality": legality,
        "leader": False,  # Scryfall has no such field: told from the type line and the text
        "rulings": [(r["published_at"], r["comment"]) for r in rulings],
    }


def _scryfall_rulings(data: bytes, name: str) -> dict[str, list[dict[str, Any]]]:
    objects = parse_json(unpack(data, name), name)
    if not isinstance(objects, list) or any(not isinstance(o, dict) or o.get("object") != "ruling"
                                            for o in objects[:50]):
        raise InputError(name, f"not a Scryfall rulings file ({_shape(objects)}; expected a list of ruling "
                               "objects)")
    out: dict[str, list[dict[str, Any]]] = {}
    for position, obj in enumerate(objects):
        if not isinstance(obj, dict) or not isinstance(obj.get("oracle_id"), str) \
                or not isinstance(obj.get("comment"), str) or not isinstance(obj.get("published_at"), str):
            raise InputError(name, "a ruling without oracle_id, published_at or comment", key=f"[{position}]")
        if obj.get("source", "wotc") == "wotc":
            out.setdefault(obj["oracle_id"], []).append(obj)
    return out


def _first_face_value(obj: dict[str, Any], key: str) -> Any:
    faces = obj.get("card_faces")
    if isinstance(faces, list) and faces and isinstance(faces[0], dict):
        return faces[0].get(key)
    return None


# ------------------------------------------------------------------------------------------- shared


def can_be_commander(faces: Sequence[Face], leader: bool) -> bool:
    """Can the card be a commander: said so by the data, a legendary creature front face, or its text.

    >>> can_be_commander([Face("Thalia", type_line="Legendary Creature — Human Soldier")], False)
    True
    >>> can_be_commander([Face("Sol Ring", type_line="Artifact")], False)
    False
    """
    if leader:
        return True
    front = faces[0].type_line if faces else ""
    if "Legendary" in front and "Creature" in front:
        return True
    return any("can be your commander" in face.text for face in faces)


def _with_ids(edition: str, entries: Iterable[tuple[str, dict[str, Any]]]) -> tuple[Card, ...]:
    """Cards with their ids, sorted by name; names that slug alike get "-2", "-3" in that order."""
    taken: dict[str, int] = {}
    cards = []
    for card_name, info in sorted(entries, key=lambda e: e[0]):
        base = slug(card_name) or "card"
        taken[base] = taken.get(base, 0) + 1
        local = base if taken[base] == 1 else f"{base}-{taken[base]}"
        faces = tuple(info["faces"])
        cards.append(Card(
            id=card_id(edition, local), name=card_name, faces=faces, keywords=tuple(info["keywords"]),
            commander_legality=info["legality"], can_be_commander=can_be_commander(faces, info["leader"]),
            rulings=tuple(CardRuling(ruling_id(edition, local, n), date, text)
                          for n, (date, text) in enumerate(info["rulings"], 1)),
            edition=edition, layout=info["layout"]))
    return tuple(cards)


def _rulings(value: Any, source: str, key: str, date_key: str, text_key: str) -> list[tuple[str, str]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(source, "expected a list of rulings", key=key)
    out = []
    for n, ruling in enumerate(value):
        if not isinstance(ruling, dict) or not isinstance(ruling.get(date_key), str) \
                or not isinstance(ruling.get(text_key), str):
            raise InputError(source, f"a ruling without '{date_key}' and '{text_key}'", key=f"{key}[{n}]")
        out.append((ruling[date_key], ruling[text_key]))
    return out


def _strings(value: Any, source: str, key: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(source, "expected a list of words", key=key)
    return list(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)


def _shape(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(repr(k) for k in list(value)[:4])
        return f"an object with {keys}" if keys else "an empty object"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    return f"a JSON {type(value).__name__}"
