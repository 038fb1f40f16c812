"""The data the name recogniser reads beside the cards: the rules text its vocabulary comes from, the
table's nicknames (``nicknames.yaml``) and the rules terms that are never a card (``rules_terms.yaml``)."""

from __future__ import annotations

import functools
from pathlib import Path

from rulesjudge.common.safe_yaml import read_yaml
from rulesjudge.corpus.documents import builtin_releases
from rulesjudge.corpus.official import split_lines

HERE = Path(__file__).resolve().parent
NICKNAMES = HERE / "nicknames.yaml"
RULES_TERMS = HERE / "rules_terms.yaml"
MAX_DATA_CHARS = 1_000_000


def builtin_rules_text() -> str:
    """The built-in Comprehensive Rules release's text (the newest built in)."""
    releases = sorted(builtin_releases(), key=lambda r: r.edition)
    if not releases:
        return ""
    text = releases[-1].path.read_bytes().decode("utf-8-sig")
    return "\n".join(split_lines(text))  # as the release reader splits them (2026: CR CR LF)


@functools.lru_cache(maxsize=1)
def nicknames(path: Path = NICKNAMES) -> dict[str, str]:
    """Nickname -> the card's full name, as the table says them ("O-Ring" -> "Oblivion Ring")."""
    data, _ = read_yaml(path.read_text(encoding="utf-8"), str(path), max_chars=MAX_DATA_CHARS)
    out: dict[str, str] = {}
    for card, names in (data or {}).get("nicknames", {}).items():
        for name in names:
            out[str(name)] = str(card)
    return out


@functools.lru_cache(maxsize=1)
def extra_rules_terms(path: Path = RULES_TERMS) -> tuple[str, ...]:
    """Words of the table and the variants that are never a card on their own ("Treachery", "Leader")."""
    data, _ = read_yaml(path.read_text(encoding="utf-8"), str(path), max_chars=MAX_DATA_CHARS)
    return tuple(str(t) for t in (data or {}).get("terms", []))
