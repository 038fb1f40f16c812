"""Card names as people type and say them: looking a name up, and recognising the names in a question.

A name is compared by its *key*: no accents, lower case, apostrophes dropped, every other run of
punctuation a space ("Lim-Dûl" and "lim dul" are one key; "Thalia's" is "thalias").

Looking up (:meth:`NameIndex.lookup`) tries, in order: the full name, one face's name, a nickname kept as
data (``nicknames.yaml``), the short name of a legendary card ("Thalia" for "Thalia, Heretic Cathar") or
the first words of names, then a fuzzy match (rapidfuzz) for typos.

Recognising names in a question (:meth:`NameIndex.names_in`) never takes a common word for a card. A
match is taken when its words are capitalised as the card's name is ("Fog", "Giant Growth"), or, typed
in lower case, when it is two words or more and one of them is no word of rules English; one capitalised
word at the start of a sentence must not be a rules-English word. Rules-English is the vocabulary of the
corpus itself: the words the Comprehensive Rules, Oracle texts and rulings use in lower case. A rules term
(a Comprehensive Rules title or glossary entry, "Monarch", "Two-Headed Giant", and the table words in
``rules_terms.yaml``) is never a card on its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_POSSESSIVE = ("'s", "’s", "'", "’")
_SENTENCE_END = frozenset(".!?:;\"“(\n")
#: Kinds of keys, best first: the card's name, a face's name, a nickname, a short name.
NAME, FACE, NICKNAME, SHORT = 0, 1, 2, 3
#: The name of a card of a casual supplement (a Vanguard avatar, a plane, a scheme): "Xantcha" the avatar
#: is last after "Xantcha" the short name of Xantcha, Sleeper Agent.
SUPPLEMENT = 4
SUPPLEMENT_LAYOUTS = frozenset({"vanguard", "planar", "scheme"})
MIN_VOCABULARY_COUNT = 3  # a word used this often in lower case is rules English
#: A word used this often in lower case is taken for the word, not a card, when a sentence starts with it
#: ("Time", "Fear"); a card name the rulings use now and then in lower case ("counterspell") is not.
COMMON_COUNT = 25
FUZZY_CUTOFF = 84  # rapidfuzz ratio (0-100) of a typo to the name: "platnum angle" ~ 89
FUZZY_TEXT_CUTOFF = 88  # in a question, where a miss is worse
MAX_MENTION_TOKENS = 16
_CHARACTERS = ("Creature", "Planeswalker")  # the legendary cards people call by a given name
#: Words that tie a name together ("Swords to Plowshares") and are never a card's name on their own.
_SMALL_WORDS = frozenset(["a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or",
                          "the", "to", "with"])
#: After a one-word short name or nickname, what only a player does or has: "Bob has gained control of
#: Chuck's Blood Tyrant", "Sam casts", "Mary's turn" — a player of the story who shares a name with a card
#: ("Bob" is Dark Confidant's nickname, "Sam" and "Mary" short names of legendary creatures).
_PLAYER_AFTER = re.compile(
    r"(?:['’]s\s+(?:turn|hand|library|graveyard|life total|deck|upkeep|draw step|end step|opponent"
    r"|teammate)\b"
    r"|\s+(?:(?:has|had|then|also|just)\s+)?(?:casts?|controls|controlled|concedes|conceded|scoops|scooped"
    r"|draws|drew|discards|discarded|mulligans|mulliganed|activates|activated|passes|passed|plays|played"
    r"|chooses|chose|loses the game|lost the game|gains? control|gained control|takes control|took control"
    r"|is the monarch|becomes the monarch|became the monarch|is at \d+ life|has \d+ life)\b)",
    re.IGNORECASE)


def name_key(text: str) -> str:
    """The key a name is compared by.

    >>> name_key("Lim-Dûl the Necromancer"), name_key("Thalia's Lancers"), name_key("Fire // Ice")
    ('lim dul the necromancer', 'thalias lancers', 'fire ice')
    """
    return " ".join(_token_key(m.group()) for m in _WORD.finditer(text))


def _token_key(word: str) -> str:
    if word.isascii() and word.isalnum():  # most words: no accent, no apostrophe
        return word.lower()
    plain = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", plain)


def short_name(name: str, type_line: str = "Legendary Creature",
               vocabulary: frozenset[str] = frozenset()) -> str | None:
    """The short name a card is called by: the part before its comma, or a legendary character's given
    name ("Zedruu the Greathearted", "Kaalia of the Vast", "Teysa Karlov") when it is no word of rules
    English ("Lieutenant Kirtar" is not "Lieutenant").

    >>> short_name("Thalia, Heretic Cathar"), short_name("Platinum Angel", "Artifact Creature — Angel")
    ('Thalia', None)
    >>> short_name("Zedruu the Greathearted"), short_name("Teysa Karlov"), short_name("The Mimeoplasm")
    ('Zedruu', 'Teysa', None)
    >>> short_name("Eye of Ugin", "Legendary Land"), short_name("Lieutenant Kirtar",
    ...                                                        vocabulary=frozenset({"lieutenant"}))
    (None, None)
    """
    head, comma, _ = name.partition(", ")
    if comma and head:
        return head
    if "Legendary" not in type_line or " // " in name or not any(t in type_line for t in _CHARACTERS):
        return None
    words = name.split(" ")
    if len(words) == 2 or (len(words) > 2 and words[1] in ("the", "of")):
        first = words[0]
        if name_key(first) not in vocabulary and name_key(first) not in _SMALL_WORDS:
            return first
    return None


class Entry(NamedTuple):
    """What the index keeps of a card: enough to recognise it without reading its details."""

    id: str
    name: str
    faces: Sequence[str]
    rulings: int


class _Key(NamedTuple):
    """One way to name a card: its entry, the kind of key, and the name as written (its capitals)."""

    entry: int
    kind: int
    form: str  # the card's name, a face's, a nickname, a short name


@dataclass(frozen=True, slots=True)
class Found:
    """A name recognised in a text, before the card is read: entries best first."""

    entries: tuple[int, ...]
    start: int
    end: int
    said: str
    kind: int = NAME


def word_counts(texts: Iterable[str]) -> dict[str, int]:
    """How often the texts use each word in lower case (card names are capitalised).

    >>> word_counts(["the Fog", "the fog-like end"])
    {'the': 2, 'end': 1}
    """
    from collections import Counter

    return dict(Counter(re.findall(r"(?<![\w'’-])[a-z]+(?![\w'’-])", "\n".join(texts))))


_TITLE = re.compile(r"^\d{3}\.(?:\d+\.)? ([A-Z][^.:]{0,60})$")


def rules_terms(cr_text: str) -> list[str]:
    """The Comprehensive Rules' titles and glossary terms ("Flying", "The Monarch", "Two-Headed Giant").

    >>> rules_terms("702.9. Flying\\n810. Two-Headed Giant Variant\\nGlossary\\n\\nGlossary\\n\\nAbandon\\n"
    ...             "To turn a scheme.\\n\\nCredits\\n")
    ['Abandon', 'Flying', 'Two-Headed Giant', 'Two-Headed Giant Variant']
    """
    lines = [line.strip() for line in cr_text.replace("\r", "").split("\n")]
    terms = {m.group(1).strip() for line in lines if (m := _TITLE.match(line))}
    terms |= {re.sub(r" (?:Variant|Option)s?$", "", t) for t in terms}  # "Two-Headed Giant Variant"
    starts = [i for i, line in enumerate(lines) if line == "Glossary"]
    ends = [i for i, line in enumerate(lines) if line == "Credits"]
    if starts and ends and ends[-1] > starts[-1]:
        block = lines[starts[-1] + 1:ends[-1]]
        for i, line in enumerate(block[:-1]):
            if line and (i == 0 or not block[i - 1]) and block[i + 1] and len(line) <= 60:
                terms.add(re.sub(r"\s*\(Obsolete\)$", "", line))
    return sorted(terms)


class NameIndex:
    """Every name of one snapshot's cards, in memory; details are read by the caller when needed.

    ``keys`` maps each key to its ``[entry, kind, form]`` rows, best first, computed once when the
    snapshot is parsed (see :func:`key_rows`) and read back as JSON with no work per name, so that a
    fresh ``rulesjudge card`` starts fast; only the nicknames, data that may change, are keyed here.
    """

    def __init__(self, entries: Sequence[Entry], keys: dict[str, list[Any]], vocabulary: Iterable[str],
                 terms: Iterable[str], nicknames: dict[str, str], common: Iterable[str] = ()) -> None:
        self.entries = entries
        self.vocabulary = frozenset(vocabulary)
        self.common = frozenset(common)
        self.terms = frozenset(name_key(t) for t in terms) - {""}
        self._keys = keys
        self.nicknames: dict[str, str] = {}  # key of the nickname -> the card's name (present or not)
        for nickname, card_name in nicknames.items():
            key = name_key(nickname)
            self.nicknames[key] = card_name
            target = [k[0] for k in keys.get(name_key(card_name), []) if k[1] == NAME]
            if target and key and not any(k[0] == target[0] for k in keys.get(key, [])):
                keys[key] = sorted([*keys.get(key, []), [target[0], NICKNAME, nickname]], key=lambda k: k[1])
        self._longest_words: dict[str, int] | None = None
        self._choices: list[str] | None = None

    def matches(self, key: str) -> list[_Key]:
        """The ways ``key`` names cards, best first."""
        return [_Key(*row) for row in self._keys.get(key, ())]

    @property
    def _longest(self) -> dict[str, int]:
        """The most words of a key starting with each word (how far to look from a word in a question)."""
        if self._longest_words is None:
            longest: dict[str, int] = {}
            for key in self._keys:
                first, _, _ = key.partition(" ")
                longest[first] = max(longest.get(first, 0), key.count(" ") + 1)
            self._longest_words = longest
        return self._longest_words

    # -------------------------------------------------------------------------------------- looking up

    def lookup(self, text: str, limit: int = 50) -> list[int]:
        """The entries ``text`` names, best first (see the module's docstring); empty when none is close."""
        key = name_key(text)
        if not key:
            return []
        matches = self.matches(key)
        exact = [k.entry for k in matches if k.kind in (NAME, FACE, NICKNAME)]
        if exact:
            return exact[:limit]
        if key in self.nicknames:  # the table's name of a card this snapshot lacks: no guess
            return []
        prefix = key + " "
        short = [k.entry for k in matches if k.kind == SHORT]
        starting = sorted({row[0] for key_, rows in self._keys.items() if key_.startswith(prefix)
                           for row in rows if row[1] == NAME and row[0] not in short},
                          key=lambda i: self.entries[i].name)
        supplements = [k.entry for k in matches if k.kind == SUPPLEMENT]  # "Xantcha" the Vanguard avatar
        if short or starting or supplements:
            return (short + starting + supplements)[:limit]
        return self._fuzzy(key, FUZZY_CUTOFF)[:limit]

    def nickname_of(self, text: str) -> str | None:
        """The card a nickname stands for, whether or not this snapshot has it ("Bowmasters")."""
        return self.nicknames.get(name_key(text))

    def closest(self, text: str, limit: int = 5) -> list[str]:
        """The names nearest to ``text`` (for "did you mean"), however far."""
        from rapidfuzz import fuzz, process

        found = process.extract(name_key(text), self._all_keys(), scorer=fuzz.ratio, limit=limit * 3)
        names: list[str] = []
        for key, _score, _ in found:
            for k in self.matches(key):
                name = self.entries[k.entry].name
                if name not in names:
                    names.append(name)
        return names[:limit]

    def suggest(self, text: str, limit: int = 10) -> list[str]:
        """Names for a box that suggests as you type: those starting with what is typed, then those with a
        word starting so, then the closest (a typo); of each, the cards with more rulings first (the cards
        people ask about), then the shorter name.

        Every key is looked at: about 20 ms for 28,000 cards.
        """
        key = name_key(text)
        if not key:
            return []
        starting: list[tuple[int, int, str]] = []
        inside: list[tuple[int, int, str]] = []
        for name_key_, rows in self._keys.items():
            for entry, kind, _form in rows:
                if kind != NAME:
                    continue
                name, rulings = self.entries[entry].name, self.entries[entry].rulings
                if name_key_.startswith(key):
                    starting.append((-rulings, len(name), name))
                elif f" {key}" in f" {name_key_}":
                    inside.append((-rulings, len(name), name))
        out = [n for *_, n in sorted(starting)] + [n for *_, n in sorted(inside)]
        if len(out) < limit:
            out += [n for n in self.closest(text, limit) if n not in out]
        return out[:limit]

    def _all_keys(self) -> list[str]:
        if self._choices is None:
            self._choices = list(self._keys)
        return self._choices

    def _fuzzy(self, key: str, cutoff: float) -> list[int]:
        from rapidfuzz import fuzz, process

        found = process.extract(key, self._all_keys(), scorer=fuzz.ratio, score_cutoff=cutoff, limit=10)
        if not found:
            return []
        best = found[0][1]
        out: list[int] = []
        for key_found, score, _ in found:
            if score >= best - 3:
                out.extend(k.entry for k in self.matches(key_found) if k.entry not in out)
        return out

    # ---------------------------------------------------------------------------------- in a question

    def names_in(self, text: str) -> list[Found]:
        """The card names in ``text``, left to right, each the longest name that fits there."""
        tokens = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
        keys = [_token_key(word) for _, _, word in tokens]
        found: list[Found] = []
        i = 0
        while i < len(tokens):
            match = self._match_at(text, tokens, keys, i)
            if match is None:
                i += 1
                continue
            if match[0] is not None:
                found.append(match[0])
            i = match[1]
        found = self._references(text, tokens, keys, self._typos(text, tokens, keys, found))
        players = _players(text, tokens)
        return [f for f in found if not (name_key(f.said) in players and all(
            name_key(self.entries[e].name) != name_key(f.said) for e in f.entries))]

    def _references(self, text: str, tokens: list[tuple[int, int, str]], keys: list[str],
                    found: list[Found]) -> list[Found]:
        """A card named again by part of its name ("Gideon Blackblade ... does Gideon enter tapped",
        "Phyrexian Metamorph ... the Metamorph") is the card named before, not another one."""
        out: list[Found] = []
        named: list[tuple[int, list[str]]] = []  # entries named so far, with their names' words
        taken = [(f.start, f.end) for f in found]
        queue = sorted(found, key=lambda f: f.start)
        position = 0
        for index, (start, end, word) in enumerate(tokens):
            while position < len(queue) and queue[position].start <= start:
                mention = queue[position]
                position += 1
                if mention.kind >= SHORT or len(mention.entries) > 1:
                    said = name_key(mention.said).split()
                    earlier = [e for e, words in named if _within(said, words)]
                    if earlier:
                        mention = Found((earlier[-1],), mention.start, mention.end, mention.said, NAME)
                out.append(mention)
                if len(mention.entries) == 1:
                    entry = mention.entries[0]
                    named.append((entry, name_key(self.entries[entry].name).split()))
            if any(a <= start < b for a, b in taken) or not word[:1].isupper():
                continue
            key = keys[index]
            if len(key) < 3 or key in self.terms or key in _SMALL_WORDS:
                continue
            earlier = [e for e, words in named if key in words]
            if earlier:
                out.append(Found((earlier[-1],), start, end, word, NAME))
        out.extend(queue[position:])
        return out

    def _match_at(self, text: str, tokens: list[tuple[int, int, str]], keys: list[str],
                  i: int) -> tuple[Found | None, int] | None:
        """The longest name at token ``i`` and the token after it; (None, token after) for a short name
        that goes on as a name this snapshot lacks ("Liesa, Shroud of Dusk"): none of it is a card."""
        longest = self._longest.get(keys[i], 0)
        if longest == 0:  # only a possessive can start here: "Thalia's"
            stem = _possessive_stem(tokens[i][2])
            if stem is None or _token_key(stem) not in self._longest:
                return None
            longest = 1
        for length in range(min(max(longest, 1), len(tokens) - i, MAX_MENTION_TOKENS), 0, -1):
            words = keys[i:i + length]
            last_word = tokens[i + length - 1][2]
            candidates = [(" ".join(words), tokens[i + length - 1][1])]
            stem = _possessive_stem(last_word)
            if stem is not None:  # "Thalia's" -> "Thalia"
                candidates.append((" ".join([*words[:-1], _token_key(stem)]),
                                   tokens[i + length - 1][1] - (len(last_word) - len(stem))))
            elif last_word.endswith("s") and last_word[:1].isupper() and len(last_word) > 3:
                # "two Volrath's Shapeshifters": the card, said in the plural
                plural = " ".join([*words[:-1], _token_key(last_word[:-1])])
                candidates.append((plural, tokens[i + length - 1][1]))
            for key, end in candidates:
                matches = self.matches(key)
                if not matches:
                    continue
                said = text[tokens[i][0]:end]
                accepted = [k for k in matches if self._accepts(text, tokens[i][0], said, key, k)]
                if accepted:  # of the best kind only: the card "Regrowth" before a face named so
                    best = min(k.kind for k in accepted)
                    entries = tuple(dict.fromkeys(k.entry for k in accepted if k.kind == best))
                    after = i + length
                    if best == SHORT and re.match(r",\s+[A-Z]", text[end:]):
                        while after < len(tokens) and not _sentence_start(text, tokens[after][0]) and (
                                tokens[after][2][:1].isupper() or keys[after] in _SMALL_WORDS):
                            after += 1
                        return None, after
                    return Found(entries, tokens[i][0], end, said, best), after
        return None

    def _accepts(self, text: str, start: int, said: str, key: str, match: _Key) -> bool:
        """Is ``said`` (at ``start`` in ``text``) this card's name rather than plain words?"""
        if key in self.terms:
            return False
        words = key.split()
        said_words = [m.group() for m in _WORD.finditer(said)]
        form_words = [m.group() for m in _WORD.finditer(match.form)]
        capitalised = len(said_words) == len(form_words) and all(
            s[:1].isupper() for s, f in zip(said_words, form_words, strict=True) if f[:1].isupper())
        if len(words) == 1:
            if match.kind == SUPPLEMENT or not said[:1].isupper() or len(key) <= 2:
                return False  # one word in lower case is the word ("fog of war"), not Fog
            return not (_sentence_start(text, start) and key in self.common)
        if capitalised:
            return not (match.kind == SHORT and _sentence_start(text, start) and all(
                w in self.vocabulary for w in words))
        # typed in lower case: words no rules text uses (a name), and a phrase with "of"/"to" needs two
        # ("swords to plowshares"), or it is English ("the fog of war")
        unusual = sum(w not in self.vocabulary and w not in _SMALL_WORDS for w in words)
        needed = 2 if any(w in _SMALL_WORDS for w in words) else 1
        return match.kind != SHORT and unusual >= needed

    def _typos(self, text: str, tokens: list[tuple[int, int, str]], keys: list[str],
               found: list[Found]) -> list[Found]:
        """Runs of two or more capitalised words not recognised, matched to a name despite a typo."""
        taken = [(f.start, f.end) for f in found]
        for i in range(len(tokens)):  # a rules term is no typo of a card ("Two-Headed Giant")
            for length in range(min(6, len(tokens) - i), 0, -1):
                if " ".join(keys[i:i + length]) in self.terms:
                    taken.append((tokens[i][0], tokens[i + length - 1][1]))
                    break
        run: list[int] = []
        extra: list[Found] = []

        def close_run() -> None:
            if len(run) >= 2:
                extra.extend(self._fuzzy_run(text, tokens, keys, run))
            run.clear()

        for i, (start, _end, word) in enumerate(tokens):
            free = not any(a <= start < b for a, b in taken)
            capital = word[:1].isupper() and not _sentence_start(text, start)
            if free and (capital or (run and keys[i] in _SMALL_WORDS)):
                run.append(i)
            else:
                close_run()
        close_run()
        return sorted(found + extra, key=lambda f: f.start)

    def _fuzzy_run(self, text: str, tokens: list[tuple[int, int, str]], keys: list[str],
                   run: list[int]) -> list[Found]:
        from rapidfuzz import fuzz, process

        choices = self._all_keys()
        for length in range(min(len(run), 6), 1, -1):
            for offset in range(len(run) - length + 1):
                window = run[offset:offset + length]
                key = " ".join(keys[j] for j in window)
                if len(key) < 8 or keys[window[0]] in _SMALL_WORDS or keys[window[-1]] in _SMALL_WORDS:
                    continue
                best = process.extractOne(key, choices, scorer=fuzz.ratio, score_cutoff=FUZZY_TEXT_CUTOFF)
                if best:
                    matches = [k for k in self.matches(best[0]) if k.kind in (NAME, FACE, NICKNAME)]
                    if matches:
                        start, end = tokens[window[0]][0], tokens[window[-1]][1]
                        return [Found(tuple(dict.fromkeys(k.entry for k in matches)), start, end,
                                      text[start:end])]
        return []


def _players(text: str, tokens: Sequence[tuple[int, int, str]]) -> set[str]:
    """The keys of the capitalised words that the text shows doing what only a player does
    (:data:`_PLAYER_AFTER`): a short name or nickname said so is a player of the story wherever the text
    says it ("Victor concedes. Does Victor's Oblivion Ring return?").

    >>> sorted(_players("Bob has gained control of it. On Mary's turn Thalia attacks.",
    ...                 [(m.start(), m.end(), m.group()) for m in _WORD.finditer(
    ...                     "Bob has gained control of it. On Mary's turn Thalia attacks.")]))
    ['bob', 'mary']
    """
    players = set()
    for start, end, word in tokens:
        if not word[:1].isupper():
            continue
        stem = _possessive_stem(word)
        name_end = start + len(stem) if stem is not None else end
        if _PLAYER_AFTER.match(text, name_end):
            players.add(name_key(stem if stem is not None else word))
    return players


def _within(part: Sequence[str], words: Sequence[str]) -> bool:
    """Are ``part``'s words, in order and together, among ``words``?

    >>> _within(["hulk"], ["protean", "hulk"]), _within(["gideon"], ["gideon", "jura"]), _within(["a"], [])
    (True, True, False)
    """
    n = len(part)
    return any(list(words[i:i + n]) == list(part) for i in range(len(words) - n + 1))


def _possessive_stem(word: str) -> str | None:
    """ "Thalia's" -> "Thalia"; None for a word that is no possessive.

    >>> _possessive_stem("Thalia's"), _possessive_stem("Thalia")
    ('Thalia', None)
    """
    for ending in _POSSESSIVE:
        if word.endswith(ending) and len(word) > len(ending):
            return word[:-len(ending)]
    return None


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in _SENTENCE_END


def rank_by_context(entries: Sequence[int], question: str, text_of: Callable[[int], str],
                    rulings_of: Callable[[int], int]) -> list[int]:
    """Cards one short name may mean, the one whose text shares most words with the question first
    (then the one with more rulings: the card people ask about)."""
    words = set(name_key(question).split())

    def score(entry: int) -> tuple[int, int]:
        return (len(words & set(name_key(text_of(entry)).split())), rulings_of(entry))

    return sorted(entries, key=score, reverse=True)


def key_rows(entries: Sequence[Entry], type_lines: Sequence[str] | None = None,
             layouts: Sequence[str] | None = None,
             vocabulary: frozenset[str] = frozenset()) -> dict[str, list[list[Any]]]:
    """Every key of every card: its name, each face of a card of several, its short name; of one key, the
    best kind first, then the shorter name (the card a face name means most plainly). ``type_lines`` (of
    the front faces) and ``layouts`` tell legendary cards and supplements' cards.

    >>> key_rows([Entry("c1", "Fire // Ice", ("Fire", "Ice"), 7)])
    {'fire ice': [[0, 0, 'Fire // Ice']], 'fire': [[0, 1, 'Fire']], 'ice': [[0, 1, 'Ice']]}
    """
    rows: dict[str, list[tuple[int, int, str]]] = {}

    def add(form: str, entry: int, kind: int) -> None:
        key = name_key(form)
        found = rows.setdefault(key, []) if key else []
        if key and not any(e == entry for e, _, _ in found):
            found.append((entry, kind, form))

    for i, entry in enumerate(entries):
        layout = layouts[i] if layouts else "normal"
        add(entry.name, i, SUPPLEMENT if layout in SUPPLEMENT_LAYOUTS else NAME)
        if len(entry.faces) > 1:
            for face in entry.faces:
                add(face, i, FACE)
        short = short_name(entry.name, type_lines[i] if type_lines else "", vocabulary)
        if short:
            add(short, i, SHORT)
    out = {}
    for key, found in rows.items():
        found.sort(key=lambda f: (f[1], len(entries[f[0]].name), entries[f[0]].name))
        out[key] = [[entry, kind, form] for entry, kind, form in found]
    return out


def index_data(entries: Sequence[Entry], texts: Iterable[str], terms: Sequence[str],
               type_lines: Sequence[str] | None = None,
               layouts: Sequence[str] | None = None) -> dict[str, Any]:
    """The index's plain values, kept in the cache (JSON); ``texts`` are the rules, Oracle texts and
    rulings the vocabulary is taken from."""
    counts = word_counts(texts)
    known = frozenset(w for w, n in counts.items() if n >= MIN_VOCABULARY_COUNT)
    return {"entries": [[e.id, e.name, list(e.faces), e.rulings] for e in entries],
            "keys": key_rows(entries, type_lines, layouts, known), "vocabulary": sorted(known),
            "common": sorted(w for w, n in counts.items() if n >= COMMON_COUNT), "terms": list(terms)}


def index_from_data(data: dict[str, Any], nicknames: dict[str, str], extra_terms: Iterable[str]) -> NameIndex:
    entries = [Entry(*row) for row in data["entries"]]
    return NameIndex(entries, data["keys"], data["vocabulary"], [*data["terms"], *extra_terms], nicknames,
                     data["common"])
