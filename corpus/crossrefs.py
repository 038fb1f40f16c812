"""Cross-references written in rule text ("See rule 801", "rules 601.2f–h", "section 8") and their targets.

:func:`find_references` reads the references from a text; :func:`resolve` picks the record each one
points at, given the loaded records. A reference points into the same document and edition as the text
it is written in, except where the text says it means the official rules ("official rule 800.4a",
"rule 716.2 in the official CR"), or where the text is not itself a numbered rules document (a wiki page,
a ruling): then the target is the official Comprehensive Rules.

>>> find_references("See rule 801, “Limited Range of Influence Option.”")
[('rule 801', '801')]
>>> find_references("rules 601.2b and 601.2f–h.")
[('rules 601.2b and 601.2f–h', '601.2b'), ('rules 601.2b and 601.2f–h', '601.2f'), \
('rules 601.2b and 601.2f–h', '601.2g'), ('rules 601.2b and 601.2f–h', '601.2h')]
>>> find_references("See section 8, “Multiplayer Rules.”")
[('section 8', '8')]
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rulesjudge.corpus.records import CrossRef, Record

# Subrule letters skip l and o (they look like 1 and 0).
_LETTERS = "abcdefghijkmnpqrstuvwxyz"
#: The order of subrule letters: 704.5 reached z in 2025 and goes on with two letters (704.5aa), read
#: here as aa, ab, ac ... (a range "704.5y–ab" is y, z, aa, ab).
_SUBRULE_ORDER = [*_LETTERS, *("a" + letter for letter in _LETTERS)]

_NUMBER = r"\d{3}(?:\.\d+[a-z]{0,2})?(?![\w.]\w)"
_RANGE_END = r"(?:\d{3}\.\d+[a-z]{0,2}|\d+|[a-z]{1,2}(?![\w]))"  # "601.2f–h", "704.5y–ab", "119.7–8"
_ITEM = rf"(?:{_NUMBER}(?:\s?[–-]\s?{_RANGE_END})?|(?<=and )[a-z](?![\w]))"
_SEPARATOR = r"(?:,\s(?:and\s|or\s)?|\s(?:and|or)\s)"
_RULES = re.compile(
    rf"(?P<official>\bofficial\s+)?\b(?P<keyword>[Rr]ules?|CR)\s(?P<items>{_ITEM}(?:{_SEPARATOR}{_ITEM})*)",
)
_SECTIONS = re.compile(r"\b[Ss]ections?\s(?P<items>\d{1,3}(?:(?:,\s(?:and\s)?|\sand\s)\d{1,3})*)(?![\w.]\w)")
_OFFICIAL_AFTER = re.compile(r"\s*(?:in|of)\s+the\s+official\b(?:\s+(?:CR|Comprehensive Rules))?")
_ITEM_RE = re.compile(_ITEM)


def expand_range(start: str, end: str) -> list[str]:
    """Expand "601.2f–h", "119.7–8", "903.6–903.11" into the numbers they cover.

    >>> expand_range("601.2f", "h")
    ['601.2f', '601.2g', '601.2h']
    >>> expand_range("119.7", "8"), expand_range("903.6", "903.8")
    (['119.7', '119.8'], ['903.6', '903.7', '903.8'])
    >>> expand_range("704.5k", "n"), expand_range("704.5y", "ab")
    (['704.5k', '704.5m', '704.5n'], ['704.5y', '704.5z', '704.5aa', '704.5ab'])
    """
    if end.isalpha() and start[-1:].isalpha():
        base = start.rstrip(_LETTERS)
        first = start[len(base) :]
        order = _SUBRULE_ORDER
        if first in order and end in order and order.index(first) <= order.index(end):
            return [base + letter for letter in order[order.index(first) : order.index(end) + 1]]
        return [start]
    if "." in start and not start[-1:].isalpha():
        section, rule = start.split(".", 1)
        last = end.split(".", 1)[1] if "." in end else end
        if end.count(".") and end.split(".", 1)[0] != section:
            return [start, end]
        if last.isdigit() and int(rule) <= int(last) <= int(rule) + 50:
            return [f"{section}.{n}" for n in range(int(rule), int(last) + 1)]
    return [start]


def _numbers(items: str) -> list[str]:
    numbers: list[str] = []
    for match in _ITEM_RE.finditer(items):
        item = match.group(0)
        if item.isalpha():  # "rules 608.3a and b": b of the same rule
            if numbers and numbers[-1][-1:].isalpha():
                numbers.append(numbers[-1].rstrip(_LETTERS) + item)
            continue
        parts = re.split(r"\s?[–-]\s?", item, maxsplit=1)
        numbers.extend(expand_range(parts[0], parts[1]) if len(parts) == 2 else parts)
    return numbers


def find_references(text: str) -> list[tuple[str, str]]:
    """Every reference in ``text`` as ``(label, number)``; a list or range gives one pair per number.

    The label is the reference as written; it keeps "official" (before, or "in the official CR" after) so
    that :func:`resolve` can tell a reference to the official rules.

    >>> find_references("(see rule 804)")
    [('rule 804', '804')]
    >>> find_references("See rule 808, “Team vs. Team Variant,” rule 809, “Emperor Variant.”")
    [('rule 808', '808'), ('rule 809', '809')]
    >>> find_references("rules 802 and 803")
    [('rules 802 and 803', '802'), ('rules 802 and 803', '803')]
    >>> find_references("See official rule 707.3. This is an exception to rule 108.5 in the official CR.")
    [('official rule 707.3', '707.3'), ('rule 108.5 in the official CR', '108.5')]
    >>> find_references("Removed rule 705bis")
    []
    """
    found: list[tuple[int, str, str]] = []
    for match in _RULES.finditer(text):
        label = match.group(0).rstrip(" ,.")
        after = _OFFICIAL_AFTER.match(text, match.end())
        if after:
            label += after.group(0)
        if match["keyword"] == "CR" and not match["official"]:
            label = label  # "CR 800.4a" names the official rules by itself
        found.extend((match.start(), label, number) for number in _numbers(match["items"]))
    for match in _SECTIONS.finditer(text):
        label = match.group(0)
        found.extend((match.start(), label, n) for n in re.findall(r"\d{1,3}", match["items"]))
    found.sort(key=lambda item: item[0])
    return [(label, number) for _, label, number in found]


def is_official_label(label: str) -> bool:
    """True when the reference says it means the official Comprehensive Rules.

    >>> is_official_label("official rule 800.4a"), is_official_label("CR 800.4a"), is_official_label("rule 8")
    (True, True, False)
    """
    return "official" in label or label.startswith("CR ") or " CR" in label


#: Documents whose own numbers a reference means (anything else refers to the official rules).
NUMBERED_DOCUMENTS = frozenset({"cr", "treachery"})


def resolve(
    record: Record,
    lookup: Callable[[str, str, str | None, str | None], str | None],
) -> tuple[CrossRef, ...]:
    """The references of ``record`` with their targets.

    ``lookup(number, document, edition, in_force_on)`` returns the id of the record with that number in
    that document and edition, or -- when ``edition`` is None -- in the edition in force on the date
    ``in_force_on`` (else the newest loaded edition having it), or None.
    """
    refs: list[CrossRef] = []
    seen: set[tuple[str, str]] = set()
    for label, number in find_references(record.text):
        if (label, number) in seen:
            continue
        seen.add((label, number))
        refs.append(CrossRef(label, number, target_of(record, label, number, lookup)))
    return tuple(refs)


def target_of(
    record: Record,
    label: str,
    number: str,
    lookup: Callable[[str, str, str | None, str | None], str | None],
) -> str | None:
    if record.document in NUMBERED_DOCUMENTS and not is_official_label(label):
        own = lookup(number, record.document, record.edition, None)
        if own is not None or record.document == "cr":
            return own
    # The official rules: the edition the text quotes, else the one in force when the text was written.
    if record.document != "treachery" and _is_date(record.edition):
        same = lookup(number, "cr", record.edition, None)
        if same is not None:
            return same
    written = record.effective or (record.edition if _is_date(record.edition) else None)
    return lookup(number, "cr", None, written)


def _is_date(text: str) -> bool:
    return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", text))
