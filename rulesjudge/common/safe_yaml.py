"""YAML read safely: bounded size, depth and value count, every value with its line, one-line errors.

The values are built from the parser's event stream with an explicit stack, never by recursion: libyaml's
own composer recurses in C and a scenario of 30,000 ``[`` overflowed it (a segmentation fault that took
the app's server down). The limits are checked while the events arrive, so a deep or huge document is
refused before most of it is even scanned. Only YAML's core types are built (strings, whole numbers,
decimals, true/false, null, lists, mappings); a date written plainly stays the text as written (a player
named ``2024-02-30``), and anything else -- ``!!binary``, ``!!set``, ``!!timestamp x``, ``!!int abc``, a
5,000-digit number -- is a one-line :class:`InputError` naming the line and key. Every string is
normalised to Unicode NFC, so ``Ann`` typed on two keyboards is one name. Scenario files, the search
question set and the app's scenario library are all read through it.

>>> data, lines = read_yaml("game:\\n  players: [Ann, Ben]\\n  life: {Ann: 20}\\n", max_chars=1000)
>>> data, lines[("game", "players", 1)]
({'game': {'players': ['Ann', 'Ben'], 'life': {'Ann': 20}}}, 2)
>>> read_yaml("name: " + "[" * 30000, max_chars=100_000)
Traceback (most recent call last):
rulesjudge.common.errors.InputError: <input>:1: name[0][0]\u2026: nested more than 32 levels deep
>>> read_yaml("life: !!int abc", max_chars=1000)
Traceback (most recent call last):
rulesjudge.common.errors.InputError: <input>:1: life: 'abc' is not a whole number
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

import yaml

from rulesjudge.common.errors import InputError

Path_ = tuple[str | int, ...]

MAX_DEPTH = 32  # a scenario nests 4 deep (game.teams[0].members[1]), the question set 3
MAX_VALUES = 50_000  # counting each use of an alias: a "billion laughs" stays small
#: What libyaml says for `why: the rule says: x` and `why: "a quote" and more`: quoting is the usual fix.
_QUOTING_PROBLEMS = ("mapping values are not allowed in this context", "did not find expected key")
MAX_NUMBER_CHARS = 100  # Python refuses ints of more than 4,300 digits; no file here needs 100

# libyaml's event parser when installed (a state machine with its own stacks; several times faster).
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_TAG = "tag:yaml.org,2002:"
_SCALAR_KINDS = {
    f"{_TAG}str": "text",
    f"{_TAG}int": "a whole number",
    f"{_TAG}float": "a number",
    f"{_TAG}bool": "true or false",
    f"{_TAG}null": "null",
}
_COLLECTION_TAGS = {None, "!", f"{_TAG}map", f"{_TAG}seq"}


def dotted(where: Path_) -> str:
    """A path of keys and indexes as a scenario author writes it.

    >>> dotted(("game", "teams", 0, "members"))
    'game.teams[0].members'
    """
    text = ""
    for part in where:
        text += f"[{part}]" if isinstance(part, int) else ("." if text else "") + part
    return text


@dataclass
class _Open:
    """A list or mapping being built: where it is, and the key waiting for its value."""

    value: list[Any] | dict[str, Any]
    where: Path_
    anchor: str | None
    start_values: int
    key: str | None = None
    key_line: int = 0
    depth_below: int = 0  # the deepest nesting among its values so far (a scalar is 0, a list 1, ...)


@dataclass
class _Anchor:
    value: Any
    values: int  # how many values it holds (each alias counts them again)
    depth: int


@dataclass
class _Builder:
    path: str
    loader: yaml.SafeLoader
    raw_text: frozenset[str]
    lines: dict[Path_, int] = field(default_factory=dict)
    stack: list[_Open] = field(default_factory=list)
    anchors: dict[str, _Anchor] = field(default_factory=dict)
    values: int = 0
    root: Any = None
    done: bool = False

    def fail(self, where: Path_, line: int, message: str) -> InputError:
        return InputError(self.path, message, line=line, key=dotted(where) or None)

    def next_place(self) -> Path_:
        """The path of the value about to be read (a mapping's keys are read by :meth:`key`)."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.value, list):
            return (*top.where, len(top.value))
        assert top.key is not None
        return (*top.where, top.key)

    def count(self, where: Path_, line: int, values: int, depth: int) -> None:
        self.values += values
        if self.values > MAX_VALUES:  # aliases can blow a small file up exponentially ("billion laughs")
            raise self.fail(where, line, f"the document is too large (more than {MAX_VALUES} values)")
        if len(self.stack) + depth > MAX_DEPTH:
            key = dotted(where[:3]) + ("\u2026" if len(where) > 3 else "")
            raise InputError(self.path, f"nested more than {MAX_DEPTH} levels deep", line=line, key=key)

    def wants_key(self) -> bool:
        top = self.stack[-1] if self.stack else None
        return isinstance(top, _Open) and isinstance(top.value, dict) and top.key is None

    def key(self, event: yaml.Event) -> None:
        top = self.stack[-1]
        line = _line_of(event)
        if not isinstance(event, yaml.ScalarEvent):
            raise self.fail(top.where, line, "a key must be a plain word")
        value = self.scalar(event, top.where, line)
        if value is None:
            raise self.fail(top.where, line, "a key must be a plain word (got null)")
        # Keep the text as written: a player named "No", a rule "722.4", a count "1_000".
        key = value if isinstance(value, str) else unicodedata.normalize("NFC", event.value)
        if key in top.value:
            raise self.fail((*top.where, key), line, f"duplicate key '{key}'")
        top.key, top.key_line = key, line

    def add(self, value: Any, where: Path_, anchor: str | None, values: int, depth: int) -> None:
        if anchor is not None:
            self.anchors[anchor] = _Anchor(value, values, depth)
        if not self.stack:
            self.root = value
            self.done = True
            return
        top = self.stack[-1]
        top.depth_below = max(top.depth_below, depth)
        if isinstance(top.value, list):
            top.value.append(value)
        else:
            assert top.key is not None
            top.value[top.key] = value
            top.key = None

    def scalar(self, event: yaml.ScalarEvent, where: Path_, line: int) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if event.tag is None and (tag == f"{_TAG}timestamp" or (where[:1] and where[0] in self.raw_text)):
            tag = f"{_TAG}str"  # a plain date is a name or a title here, never a date
        if tag not in _SCALAR_KINDS:
            raise self.fail(where, line, f"unsupported YAML tag {_short(tag)} (use plain values)")
        if tag == f"{_TAG}str":
            return unicodedata.normalize("NFC", event.value)
        kind = _SCALAR_KINDS[tag]
        if tag in (f"{_TAG}int", f"{_TAG}float") and len(event.value) > MAX_NUMBER_CHARS:
            raise self.fail(where, line, f"a number of {len(event.value)} characters is too long")
        node = yaml.ScalarNode(tag, event.value, style=event.style)
        try:
            return self.loader.construct_object(node)
        except Exception:  # each type's own error (ValueError, KeyError, ...): one message for all
            raise self.fail(where, line, f"{_shown(event.value)} is not {kind}") from None

    def feed(self, event: yaml.Event) -> None:
        if self.done:
            line = _line_of(event)
            raise InputError(self.path, "one scenario per file: found a second YAML document", line=line)
        if self.wants_key() and not isinstance(event, yaml.MappingEndEvent):
            self.key(event)
            return
        line = _line_of(event)
        if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self.close()
            return
        where = self.next_place()
        top = self.stack[-1] if self.stack else None
        # A mapping's value is placed on its key's line: `plyers:` above a block is reported where it is
        # written.
        self.lines[where] = top.key_line if top is not None and isinstance(top.value, dict) else line
        if isinstance(event, yaml.ScalarEvent):
            self.count(where, line, 1, 0)
            self.add(self.scalar(event, where, line), where, event.anchor, 1, 0)
        elif isinstance(event, yaml.AliasEvent):
            anchor = self.anchors.get(event.anchor or "")
            if anchor is None:
                raise self.fail(where, line, f"unknown alias *{event.anchor}")
            self.count(where, line, anchor.values, anchor.depth)
            self.add(anchor.value, where, None, anchor.values, anchor.depth)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            if event.tag not in _COLLECTION_TAGS:
                raise self.fail(where, line, f"unsupported YAML tag {_short(event.tag)} (use plain values)")
            self.count(where, line, 1, 1)
            empty: list[Any] | dict[str, Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
            self.stack.append(_Open(empty, where, event.anchor, self.values))

    def close(self) -> None:
        done = self.stack.pop()
        values = self.values - done.start_values + 1
        self.add(done.value, done.where, done.anchor, values, done.depth_below + 1)


def read_yaml(text: str, path: str = "<input>", *, max_chars: int,
              raw_text: frozenset[str] = frozenset()) -> tuple[Any, dict[Path_, int]]:
    """Parse one YAML document into plain values, keeping the line of every value by its path.

    An empty document is ``None``. Scalars under the top-level keys of ``raw_text`` are kept as written
    (rule numbers: "722.10", not the number 722.1). Raises :class:`InputError` naming the line and key
    for anything it cannot read, and for a document over ``max_chars`` characters, :data:`MAX_DEPTH`
    levels deep or of :data:`MAX_VALUES` values.
    """
    if len(text) > max_chars:
        raise InputError(path, f"too large: {len(text)} characters (at most {max_chars})")
    try:
        return _read(text, path, _Loader, raw_text)
    except _LibyamlTooDeep:
        # libyaml 0.2.5 refuses 1,000 nested levels while scanning ahead, before any event reaches the
        # builder; the pure-Python parser streams them, so the depth is reported at its key and line.
        return _read(text, path, yaml.SafeLoader, raw_text)


class _LibyamlTooDeep(Exception):
    """libyaml's own nesting limit was hit before :data:`MAX_DEPTH` could be checked."""


def _read(text: str, path: str, loader_class: type[yaml.SafeLoader],
          raw_text: frozenset[str]) -> tuple[Any, dict[Path_, int]]:
    loader = loader_class(text)
    builder = _Builder(path, loader, raw_text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if not isinstance(event, _FRAMING):
                builder.feed(event)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or str(error)
        opened, context = error.context_mark, error.context or ""
        if "flow" in context and opened and mark and opened.line < mark.line:
            # the reader notices an unclosed "[" or "{" only lines later: name the line that opened it
            problem = f"a {context.split()[-1]} opened on this line is not closed ({problem} by " \
                      f"line {mark.line + 1})"
            mark = opened
        if "maximum nesting depth" in problem and loader_class is not yaml.SafeLoader:
            raise _LibyamlTooDeep from None
        if problem in _QUOTING_PROBLEMS:
            problem += " (if a value holds ': ' or starts with a quote, quote it whole: why: '...')"
        raise InputError(path, f"invalid YAML: {problem}", line=mark.line + 1 if mark else None) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        message = f"invalid YAML: {error.reason} (character {error.character!r})"
        raise InputError(path, message, line=line) from None
    except yaml.YAMLError as error:
        raise InputError(path, "invalid YAML: " + " ".join(str(error).split())) from None
    finally:
        loader.dispose()
    return builder.root, builder.lines


_FRAMING = (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentStartEvent, yaml.DocumentEndEvent)


def _line_of(event: yaml.Event) -> int:
    mark = event.start_mark
    return mark.line + 1 if mark is not None else 0


def _short(tag: str | None) -> str:
    return f"!!{tag[len(_TAG):]}" if tag and tag.startswith(_TAG) else repr(tag)


def _shown(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[: limit - 1] + "\u2026")
