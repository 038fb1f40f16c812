"""The Oracle templates table (``oracle_templates.yaml``, data): what a card's text does, as the rules
name it, and the rules it invokes. One table, two readers: ``rulesjudge card`` (the rules a card's text
refers to, :mod:`rulesjudge.corpus.cards.rules_refs`) and search's cards stage (the bridge from a named
card to the rules that decide a question about it, :mod:`rulesjudge.indexer.card_stage`).

>>> table = parse_templates({"edition": "2026-04-17", "templates": [{
...     "term": "enters tapped", "oracle": "enters? tapped", "rules": ["614.12"], "words": "enters tapped"}]})
>>> [t.term for t in table.used_by("Creatures your opponents control enter tapped.")]
['enters tapped']
>>> table.templates[0].rules, table.templates[0].edition
(('614.12',), '2026-04-17')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError
from rulesjudge.common.safe_yaml import read_yaml

TEMPLATES_PATH = Path(__file__).resolve().parent / "oracle_templates.yaml"


@dataclass(frozen=True)
class Template:
    """An Oracle template: how it is shown (``term``), its pattern over Oracle text, the rules it
    invokes (numbers of ``edition``), the rules' own words for it (what search adds to a question), and
    ``asked``: how a question speaks of it, when shared words can't tell (a pattern over the question;
    None: a shared word tells). ``shown`` False: a bridge for questions about a situation ("a player who
    left the game"), not what the card's text refers to; ``rulesjudge card`` leaves it out."""

    term: str
    pattern: re.Pattern[str]
    rules: tuple[str, ...]
    words: str = ""
    edition: str = ""
    asked: re.Pattern[str] | None = None
    shown: bool = True


@dataclass(frozen=True)
class Templates:
    """The table: its templates, and the words too common to show that a question speaks of one."""

    templates: tuple[Template, ...]
    generic: frozenset[str] = frozenset()

    def __iter__(self) -> Iterator[Template]:
        return iter(self.templates)

    def used_by(self, text: str) -> list[Template]:
        """The templates an Oracle text uses (curly apostrophes read as straight ones), those ``shown``."""
        text = text.replace("’", "'")
        return [template for template in self.templates if template.shown and template.pattern.search(text)]


def parse_templates(data: Any, source: Path | None = None,
                    lines: Mapping[Any, int] | None = None) -> Templates:
    """The table of a loaded mapping ``{edition, generic: "words", templates: [{term, oracle, rules,
    words, asked, shown}]}``; an :class:`InputError` naming the entry (and its line, when known) for a
    bad one.

    >>> table = parse_templates({"templates": [{"oracle": "you have hexproof", "rules": ["702.11c"],
    ...                                         "words": "player hexproof", "asked": "target"}]})
    >>> bool(table.templates[0].asked.search("Can I target him?"))
    True
    """
    lines = lines or {}
    items = data.get("templates") if isinstance(data, Mapping) else None
    if not isinstance(items, list):
        raise InputError(source, "the Oracle templates need a list 'templates'", key="templates")
    edition = str(data.get("edition") or "")
    templates = []
    for position, item in enumerate(items):
        key, line = f"templates[{position}]", lines.get(("templates", position))
        if not isinstance(item, Mapping) or not isinstance(item.get("oracle"), str):
            raise InputError(source, "each template needs an 'oracle' pattern", line=line, key=key)
        rules = item.get("rules")
        if not isinstance(rules, list) or not rules:
            raise InputError(source, "each template needs a list of rule numbers", line=line,
                             key=f"{key}.rules")
        pattern = _compile(item["oracle"], source, line, f"{key}.oracle")
        asked = item.get("asked")
        if asked is not None and not isinstance(asked, str):
            raise InputError(source, "'asked' must be a pattern over the question", line=line,
                             key=f"{key}.asked")
        term = str(item.get("term") or item["oracle"])
        templates.append(Template(term, pattern, tuple(str(rule) for rule in rules),
                                  str(item.get("words") or ""), edition,
                                  _compile(asked, source, line, f"{key}.asked") if asked else None,
                                  _shown(item.get("shown", True), source, line, f"{key}.shown")))
    generic = data.get("generic") or ""
    if not isinstance(generic, str):
        raise InputError(source, "'generic' must be the words, apart by spaces", key="generic")
    return Templates(tuple(templates), frozenset(generic.lower().split()))


def _shown(value: Any, source: Path | None, line: int | None, key: str) -> bool:
    """``shown``: true or false (the table keeps its values as text: "false")."""
    said = str(value).strip().lower()
    if said not in {"true", "false"}:
        raise InputError(source, "'shown' must be true or false", line=line, key=key)
    return said == "true"


def _compile(pattern: str, source: Path | None, line: int | None, key: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as error:
        raise InputError(source, f"bad pattern: {error}", line=line, key=key) from None


@functools.lru_cache(maxsize=2)
def load_templates(path: Path = TEMPLATES_PATH) -> Templates:
    """The table file (one :class:`InputError` naming the file, line and key when it is malformed)."""

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(path, f"cannot read the Oracle templates: {error}") from None
    # rule numbers stay as written ("722.10" is no float)
    data, lines = read_yaml(text, str(path), max_chars=1_000_000,
                            raw_text=frozenset({"templates", "edition", "generic"}))
    return parse_templates(data, path, lines)
