"""Query parsing: the rule numbers a question writes (:func:`parse_query`), and the question as the rules
would say it (the judge's lexicon and typo correction, before BM25 and dense: :func:`rewrite`).

Players ask "crown goes where when the king scoops" and "exilled comander can go back to comand zone?";
the rules say monarch, concede, exiled, commander. :func:`rewrite` turns the question into the rules'
words in two ways, both data-driven:

* the **lexicon** (``indexer/lexicon.yaml``): table talk, abbreviations and slang, each either replaced
  ("scoops" → "concedes", "cmdr" → "commander") or, when the word is also a real rules or card word
  ("king", "bounce"), kept with the rules' words added ("king" + "monarch");
* a **fuzzy match against the corpus vocabulary** for words the corpus and the lexicon don't know:
  "exilled" → "exiled", "comander" → "commander" (edit distance 1 for words of 5–7 letters, 2 from 8).
  Card names and other unknown words farther from every corpus word stay as they are.

>>> lexicon = Lexicon.from_mapping({"scoops": {"replace": "concedes"}, "king": {"add": "monarch"}})
>>> rewrite("crown goes where when the king scoops", lexicon, Vocabulary(["concedes", "crown"])).text
'crown goes where when the king concedes monarch'
>>> rewrite("comander damage", Lexicon.from_mapping({}), Vocabulary(["commander", "damage"])).text
'commander damage'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulesjudge.common.errors import InputError

LEXICON_PATH = Path(__file__).with_name("lexicon.yaml")
_TOKEN = re.compile(r"[a-z0-9][a-z0-9+/'’-]*|[+-]\d+/[+-]\d+|\S", re.IGNORECASE)
_WORD = re.compile(r"^[a-z]+$")
_MAX_PHRASE = 5
_SENTENCE_END = frozenset(".!?:;\"“(-–—")


@dataclass(frozen=True)
class Senses:
    """Words whose sense depends on whom they are said of (the lexicon's ``senses``): a player who
    "dies", "is killed" or "gets knocked out" loses and leaves the game (800.4a, 104.3a); a creature that
    dies is put into a graveyard from the battlefield (700.4).

    ``said_of_player`` maps a verb phrase to its meaning when the nearest subject before it is a player
    word (``players``); ``done_to_player`` maps a verb to its meaning when its object, right after it, is
    one ("kill opponents"). Objects (``objects``: creature, commander, it …) keep the ordinary sense.

    >>> senses = Senses({("dies",): "leaves the game"}, {("kill",): "defeat"},
    ...                 frozenset({"player", "someone"}), frozenset({"creature"}))
    >>> senses.meaning(["when", "someone", "dies"], 2)
    (1, 'leaves the game')
    >>> senses.meaning(["the", "creature", "dies"], 2), senses.meaning(["kill", "the", "player"], 0)
    (None, (1, 'defeat'))
    """

    said_of_player: Mapping[tuple[str, ...], str] = field(default_factory=dict)
    done_to_player: Mapping[tuple[str, ...], str] = field(default_factory=dict)
    players: frozenset[str] = frozenset()
    objects: frozenset[str] = frozenset()
    #: words skipped between a verb and its object, or a subject and its verb ("the owner then dies")
    between: frozenset[str] = frozenset(("the", "a", "an", "my", "your", "their", "his", "her", "our", "all",
                                         "each", "then", "also", "just", "now", "gets", "get", "got", "is",
                                         "was", "were", "are", "be", "been", "being", "finally", "guy"))

    def meaning(self, tokens: list[str], i: int) -> tuple[int, str] | None:
        """(phrase length, meaning) when the phrase at ``i`` is said of or done to a player, else None."""
        for size in range(min(3, len(tokens) - i), 0, -1):
            phrase = tuple(tokens[i:i + size])
            if phrase in self.said_of_player and self._subject(tokens, i) == "player":
                return size, self.said_of_player[phrase]
            if phrase in self.done_to_player and self._object(tokens, i + size) == "player":
                return size, self.done_to_player[phrase]
        return None

    def _subject(self, tokens: list[str], i: int) -> str | None:
        for word in reversed(tokens[max(0, i - 6):i]):
            if word in self.players:
                return "player"
            if word in self.objects or not re.match(r"^[a-z']+$", word):
                return "object" if word in self.objects else None  # punctuation ends the clause
        return None

    def _object(self, tokens: list[str], i: int) -> str | None:
        for word in tokens[i:i + 4]:
            if word in self.between:
                continue
            return "player" if word in self.players else None
        return None

    def __bool__(self) -> bool:
        return bool(self.said_of_player or self.done_to_player)


@dataclass(frozen=True)
class Lexicon:
    """Phrases (as tuples of lower-case tokens) to replace, and phrases that add words."""

    replace: Mapping[tuple[str, ...], str] = field(default_factory=dict)
    add: Mapping[tuple[str, ...], str] = field(default_factory=dict)
    senses: Senses = field(default_factory=Senses)

    @classmethod
    def from_mapping(cls, terms: Mapping[str, Any], source: Path | None = None,
                     numbers: Mapping[str, Any] | None = None) -> Lexicon:
        """``terms``: phrase → {replace: words} or {add: words}; ``numbers``: number word → digits, read
        both ways as additions ("ten" + "10", "0" + "zero": the rules write "ten or more poison
        counters" and "loyalty 0").

        >>> lexicon = Lexicon.from_mapping({}, numbers={"ten": 10})
        >>> lexicon.add[("ten",)], lexicon.add[("10",)]
        ('10', 'ten')
        """
        replace: dict[tuple[str, ...], str] = {}
        add: dict[tuple[str, ...], str] = {}
        for word, digits in (numbers or {}).items():
            if not isinstance(word, str) or not re.fullmatch(r"[a-z]+(?:-[a-z]+)?", word) or \
                    not str(digits).isdigit():
                raise InputError(source, "each number maps a word to its digits", key=f"numbers.{word}")
            add.setdefault((word,), str(digits))
            add.setdefault((str(digits),), word)
        for phrase, entry in terms.items():
            key = tuple(token.lower() for token in _TOKEN.findall(str(phrase)))
            if not key or len(key) > _MAX_PHRASE or not isinstance(entry, Mapping) or len(entry) != 1:
                raise InputError(source, "each term needs one of replace: or add: (phrases of 1–5 words)",
                                 key=f"terms.{phrase}")
            (action, words), = entry.items()
            if action not in ("replace", "add") or not isinstance(words, str):
                raise InputError(source, "each term needs one of replace: or add:", key=f"terms.{phrase}")
            (replace if action == "replace" else add)[key] = words
        return cls(replace, add)

    def with_senses(self, data: Any, source: Path | None = None) -> Lexicon:
        """This lexicon with the ``senses`` section: ``{players: [...], objects: [...], said_of_player:
        {phrase: meaning}, done_to_player: {verb: meaning}}``."""
        if not isinstance(data, Mapping):
            raise InputError(source, "'senses' must be a mapping", key="senses")
        words: dict[str, frozenset[str]] = {}
        for name in ("players", "objects"):
            found = data.get(name) or []
            if not isinstance(found, list) or not all(isinstance(w, str) for w in found):
                raise InputError(source, f"senses.{name} must be a list of words", key=f"senses.{name}")
            words[name] = frozenset(w.lower() for w in found)
        verbs: dict[str, dict[tuple[str, ...], str]] = {}
        for name in ("said_of_player", "done_to_player"):
            found = data.get(name) or {}
            if not isinstance(found, Mapping) or not all(isinstance(v, str) for v in found.values()):
                raise InputError(source, f"senses.{name} must map phrases to their meaning",
                                 key=f"senses.{name}")
            verbs[name] = {tuple(t.lower() for t in _TOKEN.findall(str(k))): v for k, v in found.items()}
        senses = Senses(verbs["said_of_player"], verbs["done_to_player"], words["players"], words["objects"])
        return Lexicon(self.replace, self.add, senses)

    def __bool__(self) -> bool:
        return bool(self.replace or self.add)


@lru_cache(maxsize=4)
def load_lexicon(path: Path = LEXICON_PATH) -> Lexicon:
    """The lexicon file (one :class:`InputError` naming the file when it is malformed)."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise InputError(path, f"cannot read the lexicon: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("terms"), dict):
        raise InputError(path, "the lexicon needs a mapping 'terms'", key="terms")
    numbers = data.get("numbers") or {}
    if not isinstance(numbers, dict):
        raise InputError(path, "'numbers' must map number words to digits", key="numbers")
    lexicon = Lexicon.from_mapping(data["terms"], path, numbers)
    return lexicon.with_senses(data["senses"], path) if "senses" in data else lexicon


class Vocabulary:
    """The corpus's words, for typo correction (rapidfuzz over words of similar length)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(word.lower() for word in words)
        self._by_length: dict[int, list[str]] = {}
        for word in self.words:
            if _WORD.match(word):
                self._by_length.setdefault(len(word), []).append(word)

    @classmethod
    def of_texts(cls, texts: Iterable[str]) -> Vocabulary:
        words: set[str] = set()
        for text in texts:
            words.update(re.findall(r"[a-z]+", text.lower()))
        return cls(words)

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def correct(self, word: str) -> str | None:
        """The nearest corpus word within the allowed edit distance, or None — also when two corpus words
        are equally near, which is how a real word the corpus lacks looks (and the choice would depend on
        the order of a set).

        >>> vocabulary = Vocabulary(["commander", "stick", "stack"])
        >>> vocabulary.correct("comander"), vocabulary.correct("stuck")
        ('commander', None)
        """
        if len(word) < 5 or not _WORD.match(word) or word in self.words:
            return None
        limit = 1 if len(word) < 8 else 2
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        candidates = sorted(w for n in range(len(word) - limit, len(word) + limit + 1)
                            for w in self._by_length.get(n, ()))
        found = process.extract(word, candidates, scorer=Levenshtein.distance, score_cutoff=limit, limit=2)
        if not found or (len(found) > 1 and found[1][1] == found[0][1]):
            return None  # "stuck" is one edit from stick and stack: an English word, not a typo of either
        return str(found[0][0])


@dataclass(frozen=True)
class Rewritten:
    """The question in the rules' words, and what was changed (for display and debugging)."""

    original: str
    text: str
    changes: tuple[tuple[str, str], ...] = ()


def rewrite(question: str, lexicon: Lexicon, vocabulary: Vocabulary | None = None) -> Rewritten:
    """Apply the lexicon (longest phrase first) and correct unknown words against the vocabulary."""
    tokens = _TOKEN.findall(question)
    lowered = [token.lower().replace("’", "'") for token in tokens]
    out: list[str] = []
    added: list[str] = []
    changes: list[tuple[str, str]] = []
    names = _names(tokens)
    i = 0
    while i < len(tokens):
        sense = lexicon.senses.meaning(lowered, i) if lexicon.senses else None
        if sense is not None:  # "someone dies": said of a player, the phrase means leaving the game
            size, words = sense
            out.append(words)
            changes.append((" ".join(tokens[i:i + size]), words))
            i += size
            continue
        for size in range(min(_MAX_PHRASE, len(tokens) - i), 0, -1):
            phrase = tuple(lowered[i:i + size])
            if phrase in lexicon.replace:
                words = lexicon.replace[phrase]
                if words:
                    out.append(words)
                changes.append((" ".join(tokens[i:i + size]), words))
                i += size
                break
            if phrase in lexicon.add:
                out.extend(tokens[i:i + size])
                if lexicon.add[phrase] not in added:
                    added.append(lexicon.add[phrase])
                    changes.append((" ".join(tokens[i:i + size]), f"+ {lexicon.add[phrase]}"))
                i += size
                break
        else:
            token = tokens[i]
            named = lowered[i] in names  # a name is no typo
            fixed = vocabulary.correct(lowered[i]) if vocabulary is not None and not named else None
            if fixed is not None:
                changes.append((token, fixed))
                token = fixed
            out.append(token)
            i += 1
    if not changes:
        return Rewritten(question, question)
    text = _join(out + added)
    return Rewritten(question, text, tuple(changes))


def _names(tokens: list[str]) -> frozenset[str]:
    """The words the question capitalises inside a sentence, in lower case: names (a player of the story,
    a card), never corrected as typos, wherever they stand ("... control of Chuck's Blood Tyrant. Chuck
    loses the game": "Chuck" is no "check"). A capitalised word only at a sentence's start may be a typo
    (a phone capitalises it): "Comander damage?".

    >>> sorted(_names(["Then", "Chuck", "loses", ".", "Comander", "damage", "of", "Chuck's", "Bear"]))
    ['bear', 'chuck', "chuck's"]
    """
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token[:1].isupper() and i > 0 and tokens[i - 1] not in _SENTENCE_END:
            word = token.lower().replace("’", "'")
            found.update((word, word.removesuffix("'s")))
    return frozenset(found)


def _join(tokens: list[str]) -> str:
    text = " ".join(token for token in tokens if token)
    return re.sub(r"\s+([?!.,;:])", r"\1", text)


# --- rule numbers written in a question ------------------------------------------------------------

_PREFIX = r"(?:(?P<prefix>comprehensive\s+rules?|cr|rules?|section|treachery|tr)\s*(?:#|no\.?\s*)?)?"
_NUMBER = r"(?P<number>\d{3}(?:\.\d{1,3}(?:[a-z]{1,2})?)?)"
_NUMBER_IN_TEXT = re.compile(
    rf"(?<![\w.]){_PREFIX}{_NUMBER}(?P<period>\.(?![\w]))?(?![\w])", re.IGNORECASE
)
_FILLER = re.compile(r"^(?:[\s,;:?!()\"'“”‘’&/+]|\band\b|\bor\b)*$", re.IGNORECASE)
_PREFIX_DOCUMENT = {"cr": "cr", "comprehensive rules": "cr", "comprehensive rule": "cr",
                    "treachery": "treachery", "tr": "treachery"}
#: words before a number that cite it as the point of reference, not as what is asked: "does the
#: monarch's draw get around rule 113.8", "an exception to 704.5a", "when was unveil renumbered to 702.187"
_CONTEXT = re.compile(r"\b(?:around|exceptions? to|renumbered (?:to|from|as)|moved (?:to|from)|instead of|"
                      r"despite|against|overrides?|overriding|contradicts?|conflicts? with|breaks?|violates?|"
                      r"ignores?)\s+(?:the\s+|rule\s+|rules\s+|cr\s+)*$", re.IGNORECASE)
_EDITION_WORDS = frozenset((
    "rule", "rules", "cr", "comprehensive", "edition", "release", "version", "from", "the", "of", "in", "as",
    "old", "older", "previous", "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
))
_YEAR = re.compile(r"(?<!\d)(19|20)\d{2}(?!\d)")


@dataclass(frozen=True)
class NumberRef:
    """A rule number written in a question; ``alone`` when it ends with a period ("722.4.")."""

    number: str
    document: str | None = None
    alone: bool = False


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    refs: tuple[NumberRef, ...]
    pure: bool  # nothing but numbers (and "rule"/"CR")
    years: tuple[str, ...] = ()
    #: every number is cited as a point of reference (:data:`_CONTEXT`): the question asks about something
    #: else, whose record leads, and the cited rule follows it
    context: bool = False


def parse_query(text: str) -> ParsedQuery:
    """Find rule numbers. A bare three-digit number counts only with a prefix ("rule 809") or alone.

    >>> parse_query("rule 907.11b").refs
    (NumberRef(number='907.11b', document=None, alone=False),)
    >>> parse_query("CR 722.4.").refs
    (NumberRef(number='722.4', document='cr', alone=True),)
    >>> parse_query("CR 722.4.").pure
    True
    >>> parse_query("what does 809.3c say about attacking?").pure
    False
    >>> parse_query("can I attack 100 times?").refs
    ()
    >>> parse_query("does the monarch's draw get around rule 113.8?").context
    True
    >>> parse_query("what does rule 113.8 say?").context
    False
    """
    refs: list[NumberRef] = []
    cited: list[bool] = []  # per number read: is it cited as a point of reference
    rest = text
    matches = list(_NUMBER_IN_TEXT.finditer(text))
    only_numbers = bool(matches) and _FILLER.match(_NUMBER_IN_TEXT.sub(" ", text)) is not None
    for match in matches:
        number = match["number"].lower()
        prefix = (match["prefix"] or "").lower()
        prefix = re.sub(r"\s+", " ", prefix)
        if "." not in number and not prefix and not only_numbers:
            continue  # "100 life", "2 players": not a section number
        if number.split(".")[0][0] == "0":
            continue
        ref = NumberRef(number, _PREFIX_DOCUMENT.get(prefix), bool(match["period"]))
        cited.append(bool(_CONTEXT.search(text[:match.start()])))
        if ref not in refs:
            refs.append(ref)
        rest = rest.replace(match.group(), " ", 1)
    years = tuple(dict.fromkeys(m.group() for m in _YEAR.finditer(rest)))
    # "rule 721.4 from the October 2022 rules" is still only a number (read in that edition)
    remainder = _YEAR.sub(" ", rest)
    remainder = " ".join(w for w in re.findall(r"[^\W\d_]+|\S", remainder) if w.lower() not in _EDITION_WORDS)
    pure = bool(refs) and _FILLER.match(remainder) is not None
    return ParsedQuery(text, tuple(refs), pure, years, context=bool(cited) and not pure and all(cited))
