"""Plain-English what-if questions about the table on screen, turned into events and questions for the model.

A question at a table has two parts, in either order: what happens ("if the monarch concedes", "Dan attacks
Ann with 3 creatures", "at the end of turn") and what is asked ("who is the monarch?", "can Ben attack
Dan?"). :func:`interpret` finds both against a :class:`TableFacts` — the seats and who holds what — so a
judge can name players the way people do: by name, by role or designation (the monarch, the active player,
the leader, the emperor, the initiative holder, Ann's teammate, the player on Ann's left) or as a group
(everyone except Dan, both Assassins, the other team). It returns a :class:`WhatIf`: the events to play
after the table's own events, the questions (in the scenario format's vocabulary) and how to read the
answers in one line (:func:`answer_line`). Anything it does not read returns ``None`` and the app falls
back to the rules search and the closest library scenarios (:func:`closest_scenarios`).

>>> table = TableFacts(players=("Ann", "Ben", "Cat", "Dan"), active=("Ann",), monarch="Cat")
>>> w = interpret("Who becomes the monarch if the monarch concedes?", table)
>>> w.events, w.questions, w.summary
(({'concedes': 'Cat'},), ('monarch',), 'If the monarch (Cat) concedes, who is the monarch?')
>>> interpret("if Ben's creature hits Ann who is monarch", table).events
({'combat-damage': {'from': 'Ben', 'to': 'Ann', 'amount': 1}},)
>>> interpret("what if everyone except Dan concedes", table).events
({'concedes': ['Ann', 'Ben', 'Cat']},)
>>> interpret("can ben attack dan", table).questions
('can-attack(Ben, Dan)',)
>>> interpret("what is the airspeed of an unladen swallow", table) is None
True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

MAX_QUESTION = 500

Event = dict[str, Any] | str

#: Questions asked when a judge asks "what happens": who is still in, the turn, the designations, the end.
WHAT_HAPPENS = ("in-game", "active", "monarch", "initiative", "game-over", "winners")


class WhatIfError(ValueError):
    """The question was understood but names something that is not at the table (one line, for the UI)."""


# ------------------------------------------------------------------------------------------ the table


@dataclass(frozen=True)
class TableFacts:
    """What a question may refer to: the seats and who holds what, as the table stands before the what-if.

    Built by :func:`app.services.table_facts` from the model's answers; a plain list of names is enough
    for questions that only use names (:meth:`seated`).
    """

    players: tuple[str, ...]
    in_game: tuple[str, ...] | None = None  # None: everyone
    active: tuple[str, ...] = ()  # several in a shared team turn (Two-Headed Giant)
    turn_order: tuple[str, ...] = ()  # from the active player (from the next one when there is none)
    monarch: str | None = None
    initiative: str | None = None
    variant: str = "free-for-all"
    teams: Mapping[str, str] = field(default_factory=dict)  # player -> the variant's team name
    teammates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    emperors: tuple[str, ...] = ()
    roles: Mapping[str, str] = field(default_factory=dict)  # Treachery: player -> role (the judge's view)
    life: Mapping[str, int] = field(default_factory=dict)
    #: player -> the life total their life changes go to (one per Two-Headed Giant team, 810.9): an amount
    #: said of a team that shares one total is said of the total, once.
    pools: Mapping[str, str] = field(default_factory=dict)
    shared_turns: bool = False  # teams take turns and priority as one (805; Variant.turn_group)
    commanders: tuple[tuple[str, str], ...] = ()  # (commander permanent, owner) on the table (issue 13)
    objects: tuple[tuple[str, str, str], ...] = ()  # (name, kind, controller): planeswalkers, battles
    over: bool = False  # the table's game has ended (104.1): no what-if event happens after that
    step: str = ""  # how far the table's own events took this turn: "", "upkeep", "combat" or "end-step"
    events: frozenset[str] = frozenset()  # event names the model knows (empty: the classic set)
    questions: frozenset[str] = frozenset()  # question names the model knows (empty: the classic set)

    @classmethod
    def seated(cls, players: Sequence[str]) -> TableFacts:
        """A table known only by its seats (the first seat active)."""
        return cls(players=tuple(players), active=tuple(players[:1]), turn_order=tuple(players))

    @property
    def playing(self) -> tuple[str, ...]:
        return self.players if self.in_game is None else self.in_game

    def knows_event(self, name: str) -> bool:
        return not self.events or name in self.events

    def knows_question(self, name: str) -> bool:
        return not self.questions or name in self.questions


def _facts(table: TableFacts | Sequence[str]) -> TableFacts:
    return table if isinstance(table, TableFacts) else TableFacts.seated(list(table))


# ---------------------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class WhatIf:
    """A plain-English question as the model reads it.

    ``headline`` says how to read the answers in one line (see :func:`answer_line`).
    """

    kind: str
    summary: str  # the question restated, e.g. "If Ann leaves the game, who is the monarch?"
    events: tuple[Event, ...] = ()
    questions: tuple[str, ...] = ()
    players: tuple[str, ...] = field(default=())  # the players it is about (for the picture's arrows)
    headline: tuple[Any, ...] = ()


@dataclass(frozen=True)
class _Ask:
    kind: str
    words: str  # "who is the monarch"
    questions: tuple[str, ...]
    players: tuple[str, ...] = ()
    headline: tuple[Any, ...] = ()


@dataclass(frozen=True)
class _Happening:
    events: tuple[Event, ...]
    words: str  # "Ann concedes"
    players: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()  # questions worth adding to "what happens" (life after damage …)
    gone: tuple[str, ...] = ()  # players this takes out of the game


# ------------------------------------------------------------------------------------------ reading


_QUOTES = {"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"', "—": " - ", "–": " - "}


_TYPOS = (
    (re.compile(r"\bwho'?s turn\b", re.IGNORECASE), "whose turn"),  # "who's turn is it": the homophone
    (re.compile(r"\b(who|what|where|it)s\b", re.IGNORECASE), r"\1's"),  # "whos the monarch"
    # "whose the monarch": the homophone, where a designation follows
    (re.compile(r"\bwhose (?=(?:the|a|an|new|next|current|monarch|king|queen|active|leader|initiative|up)\b)",
                re.IGNORECASE), "who's "),
)
#: "Cat's out", "Cat's conceded": "is", "has" contracted after a name (not "Cat's left neighbour").
_IS_WORDS = ("out", "gone", "dead", "eliminated", "knocked", "decked", "done", "the monarch")
_CONTRACTED = re.compile(  # not "who's left", "what's left": a question, read as such
    r"(?<![\w'])(?!(?:who|what|where|that|there|here|it)'s)(\w+)'s "
    r"(out|gone|dead|eliminated|knocked|decked|done|conceded|lost|died|dropped|quit|scooped|"
    r"left(?=$|[,;:.!?]| (?:the (?:game|table)|and|so|now|then|who|whom|whose|what|where|is|does|can|"
    r"will|would|before|after)\b)|been)\b",
    re.IGNORECASE,
)
#: "her life", "his creature": possessive pronouns become "her's", "his's", so one possessive form reads both.
_PRONOUN_POSSESSIVE = re.compile(
    r"\b(his|her|their|its)\b(?= (?:next |left[- ]hand |right[- ]hand )?(?:life|range|creatures?|attackers?|"
    r"commander|dragon|army|team ?mates?|teammates?|team|opponents?|turn|end step|upkeep|identity|role|"
    r"left|right|"
    r"emperor|partners?|ally|allies|side|board)\b)",
    re.IGNORECASE,
)


def normalise(text: str) -> str:
    """One line, straight apostrophes, no trailing punctuation, common typos mended.

    >>> normalise("  Who’s the monarch   now?? ")
    "Who's the monarch now"
    >>> normalise("whose the monarch if Ann attacks with her creatures")
    "who's the monarch if Ann attacks with her's creatures"
    >>> normalise("what if Cat concedes? who gets it (on Ann's turn) -> Ann?")
    "what if Cat concedes, who gets it, on Ann's turn, Ann"
    """
    for curly, straight in _QUOTES.items():
        text = text.replace(curly, straight)
    text = " ".join(text.split())
    # a question mark inside, brackets and arrows part clauses as a comma does
    text = re.sub(r"\s*(?:[?!]+(?= )|[()\[\]]|-+>|=+>)\s*", ", ", text)
    text = re.sub(r"(?:,\s*){2,}", ", ", text).strip(" ,")
    text = _CONTRACTED.sub(lambda m: f"{m[1]} {'is' if m[2].lower() in _IS_WORDS else 'has'} {m[2]}", text)
    for typo, fix in _TYPOS:
        text = typo.sub(fix, text)
    text = _PRONOUN_POSSESSIVE.sub(r"\1's", text)
    return text.strip().rstrip("?.! ").strip()


#: Short words people mistype at a table, mended as typed (too short to mend by spelling distance).
_SHORT_TYPOS = {
    "teh": "the", "hte": "the", "wat": "what", "waht": "what", "wht": "what", "hwo": "who",
    "woh": "who", "wich": "which", "dose": "does", "doe": "does", "cna": "can", "adn": "and", "nad": "and",
    "tehn": "then", "thne": "then", "fi": "if", "iff": "if", "ot": "to", "si": "is", "yhe": "the",
    "whoes": "whose", "cmdr": "commander", "dmg": "damage", "opp": "opponent", "opps": "opponents",
    "init": "initiative",
}
#: The words the reader's vocabulary turns on, mended when a typed word is one slip away from one of them
#: (two for long words): "concceds" -> "concedes", "crwon" -> "crown". A real word is never mended: one the
#: grammar uses, one of the rules' own text ("attacker", "command", "chose") or a player's name.
_VOCABULARY = (
    "concede", "concedes", "conceded", "scoops", "scooped", "monarch", "crown", "initiative", "attack",
    "attacks", "attacked", "eliminated", "library", "priority", "emperor", "emperors", "assassin",
    "assassins",
    "traitor", "guardian", "leader", "commander", "poison", "counters", "teammate", "teammates", "opponent",
    "opponents", "extra", "damage", "creature", "creatures", "unveil", "unveils", "ventures", "decked",
    "leaves", "happens", "happen", "combat", "whose", "knocked", "venture", "defending", "setup", "loses",
)


def _distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (a swap of two neighbours is one slip), stopped past ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[-1]


def _mend_word(word: str, keep: frozenset[str]) -> str:
    lower = word.lower()
    if lower in _SHORT_TYPOS:
        return _SHORT_TYPOS[lower]
    if len(lower) < 5 or lower in keep or lower in _VOCABULARY or not lower.isalpha():
        return word
    limit = 2 if len(lower) >= 7 else 1
    # nearest first, then the nearest in length ("concceds": "concedes" rather than "concede")
    scored = sorted((_distance(lower, v, limit), abs(len(v) - len(lower)), v) for v in _VOCABULARY)
    best = [v for d, n, v in scored if (d, n) == scored[0][:2]]
    if scored[0][0] > limit or len(best) > 1:
        return word  # too far, or as near to two words: not a slip we can mend
    return best[0]


def mend_typos(text: str, names: Sequence[str] = ()) -> str:
    """Typos of the reader's vocabulary mended, names and the grammar's own words left alone.

    >>> mend_typos("whos teh monarch if Cat concceds", ["Cat"])
    'whos the monarch if Cat concedes'
    """
    keep = _known_words() | {n.casefold() for name in names for n in name.split()}
    return re.sub(r"(?<!\w)[A-Za-z]+(?!\w)", lambda m: _mend_word(m[0], keep), text)


def warm_up() -> None:
    """Read what the first question would otherwise wait for (the real words, about 0.1 s)."""
    _known_words()


@functools.cache
def _known_words() -> frozenset[str]:
    """Real words, never mended into another: every word the grammar's patterns spell out, and every word
    of the built-in source documents (the rules' own English, 4,400 words, read once: about 0.07 s)."""
    from rulesjudge.corpus.documents import SOURCES_DIR

    patterns = [p.pattern for p, _ in (*_QUESTIONS.rules, *_HAPPENINGS.rules, *_REFERENCES)]
    words = {w for p in patterns for w in re.findall(r"[a-z]{2,}", p.lower())}
    for source in sorted(SOURCES_DIR.glob("*.txt")):
        words.update(re.findall(r"[a-z]{2,}", source.read_text(encoding="utf-8").lower()))
    return frozenset(words)


_LEADING = re.compile(
    r"^(?:(?:hey|hi|ok|okay|so|and|but|wait|um+|hmm+|sorry|quick question|rules question|question|judge|"
    r"judge call|real quick|one more|another one|also|well|alright|right|how about|what about|"
    # filler as people type it in a chat: context, never part of the question
    r"lol|lmao|haha|hah|heh|yo|pls|plz|please|help|quick q|real question|idk|like|dumb question|"
    r"stupid question|sorry for the dumb question|"
    r"q)(?:[,:!]? |$))+",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"(?:,? (?:now|then|please|exactly|here|at this point|in this case|in that case|at that point|after that|"
    r"afterwards|again|judge|anyway|in this game|at this table|rn|atm|at the moment|currently|lol|lmao|haha|"
    r"thx|thanks|thank you|ty|pls|plz|please|asking for a friend|:\)|:-\)|:d|xd|:)|, right)+$",
    re.IGNORECASE,
)


def _trim(text: str) -> str:
    """Without the words around a question ("hey judge, …", "…, then?")."""
    text = _LEADING.sub("", text).strip(" ,;:")
    trimmed = _TRAILING.sub("", text).strip(" ,;:")
    return text if re.search(r"(?i)\b(?:what|who|whose)$", trimmed) else trimmed


_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
#: Numbers as words, up to fifty-nine ("twenty one", "twenty-one": 21 commander damage, 40 life).
_WORD_NUMBERS = {"a": 1, "an": 1, **{w: i for i, w in enumerate(_UNITS, 1)},
                 **{w: i for i, w in enumerate(_TEENS, 10)}, **_TENS,
                 **{f"{t}{sep}{u}": n + i for t, n in _TENS.items() for i, u in enumerate(_UNITS, 1)
                    for sep in (" ", "-")}}
_NUMBER = r"(?:\d{1,3}|" + "|".join(sorted(map(re.escape, _WORD_NUMBERS), key=len, reverse=True)) + ")"


def _number(text: str | None, default: int = 1) -> int:
    if not text:
        return default
    text = text.strip().lower()
    return int(text) if text.isdigit() else _WORD_NUMBERS.get(text, default)


def _names(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cat"."""
    names = list(names)
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ------------------------------------------------------------------------------- naming the players


@dataclass(frozen=True)
class Ref:
    """Players a fragment of a question names, and the words a summary uses for them."""

    players: tuple[str, ...]
    words: str
    plural: bool = False  # said as a group ("both Assassins", "everyone"), not as one player

    @property
    def verb_s(self) -> str:
        """The verb ending for this subject: "Ann concedes", "Ann and Ben concede"."""
        return "" if self.plural or len(self.players) > 1 else "s"


class _Unknown(WhatIfError):
    """A fragment that names no one at the table; ``fragment`` is kept to choose the message to show."""

    def __init__(self, message: str, fragment: str) -> None:
        super().__init__(message)
        self.fragment = fragment


_ARTICLE = r"(?:the |a |an )?"
_POSS = r"(?:'s|s'|')"
_OBJECTS = (r"(?:creatures?|attackers?|army|armies|team's creatures|guys|dudes|tokens?|commanders?|"
            r"blockers?|board|permanents?)")
_ROLE_WORDS = {
    "leader": "leader", "leaders": "leader", "guardian": "guardian", "guardians": "guardian",
    "assassin": "assassin", "assassins": "assassin", "traitor": "traitor", "traitors": "traitor",
}
_MONARCH = r"(?:monarch|king|queen|crown ?holder|(?:player|one|person) (?:with|holding|wearing) the crown|" \
    r"whoever (?:has|holds|wears) the crown)"
_INITIATIVE = r"(?:initiative ?holder|initiative player|(?:player|one|person) (?:with|" \
    r"holding) the initiative|" \
    r"whoever (?:has|holds) the initiative)"
_ACTIVE = r"(?:active player|current player|turn player|player on turn|player whose turn it is|" \
    r"whoever's turn it is|whoever is active)"
_EVERYONE = r"(?:everyone|everybody|every player|all (?:the )?players|all of (?:us|them)|" \
    r"the (?:whole )?table|" \
    r"all|each player|every(?:one|body) at the table)"
_EXCEPT = r"(?:except(?: for)?|but|other than|besides|apart from|save|excluding|minus)"


class _Reader:
    """Resolves references against one table; remembers who was named (for "the other team")."""

    def __init__(self, facts: TableFacts, hint: str = "", sentence: str = "") -> None:
        self.facts = facts
        self.mentioned: list[str] = []
        self.sentence = sentence
        self.sentence_names = self._names_in(sentence)  # everyone the whole sentence names, in order
        self.gone: set[str] = set()
        self.subject: Ref | None = None  # what "he", "her", "their" stand for: the last clause's subject
        self.focus: Ref | None = None  # or the player an event last did something to ("hits him")
        self.touched: set[str] = set()  # every player an event did something to
        self.topic = ""  # the designation a sentence is about ("monarch", "initiative"): what "it" stands for
        self.new_clause = True
        named = self._names_in(hint)  # a pronoun before its name: "does Ben get the crown if his creature …"
        if named:
            self.subject = Ref((named[0],), named[0])

    def _names_in(self, text: str) -> list[str]:
        found = []
        for player in self.facts.players:
            match = re.search(rf"(?<![\w']){re.escape(player)}(?![\w])", text, re.IGNORECASE)
            if match:
                found.append((match.start(), player))
        return [p for _, p in sorted(found)]

    # -- helpers
    def save(self) -> tuple[Any, ...]:
        return (list(self.mentioned), set(self.gone), self.subject, self.new_clause, self.focus,
                set(self.touched))

    def restore(self, saved: tuple[Any, ...]) -> None:
        self.mentioned, self.gone = list(saved[0]), set(saved[1])
        self.subject, self.new_clause, self.focus = saved[2], saved[3], saved[4]
        self.touched = set(saved[5])

    def someone_else(self, pronoun: str, ref: Ref, player: str) -> Ref:
        """ "Ben hits her": a pronoun that came out as the clause's own subject stands for the one other
        player the sentence names; with several candidates it is not guessed."""
        if player not in ref.players or not re.fullmatch(_PRONOUN, pronoun.strip(), re.IGNORECASE):
            return ref
        others = [p for p in self.mentioned if p != player]  # named so far, else anywhere in the sentence
        others = others or [p for p in self.sentence_names if p != player]
        if len(others) != 1:
            raise _Unknown(f"whom does '{pronoun.strip()}' stand for? name the player", pronoun)
        return Ref((others[0],), others[0])

    def affected(self, ref: Ref) -> Ref:
        """Note the player an event did something to: a later "he" or "her life" means them."""
        self.focus = ref
        self.touched.update(ref.players)
        return ref

    def _note(self, ref: Ref) -> Ref:
        self.mentioned.extend(p for p in ref.players if p not in self.mentioned)
        if self.new_clause:  # the first player a clause names is its subject
            self.subject, self.new_clause = ref, False
        return ref

    def playing(self) -> list[str]:
        return [p for p in self.facts.playing if p not in self.gone]

    def name(self, text: str) -> str | None:
        text = text.strip().strip("\"'").strip()
        for player in self.facts.players:
            if player == text:
                return player
        folded = text.casefold()
        return next((p for p in self.facts.players if p.casefold() == folded), None)

    def unknown(self, fragment: str) -> _Unknown:
        players = ", ".join(self.facts.players)
        return _Unknown(f"there is no player called '{fragment}' at this table (players: "
            f"{players})", fragment)

    def _group(self, players: Sequence[str], words: str, what: str) -> Ref:
        if not players:
            raise _Unknown(f"nobody at this table is {what}", words)
        listed = _names(players)
        return Ref(tuple(players), words if listed == words else f"{words} ({listed})", plural=True)

    def _one(self, player: str | None, words: str, what: str) -> Ref:
        if player is None:
            raise _Unknown(f"nobody is {what} at this table", words)
        return Ref((player,), player if player == words else f"{words} ({player})")

    # -- the vocabulary
    def refer(self, raw: str, *, one: bool = False, alone: bool = False) -> Ref:
        """The players a fragment names. ``one``: it must be a single player (the subject of an event said
        in the singular), so "the emperor" at a table with two emperors is an error asking which.

        >>> reader = _Reader(TableFacts(players=("Ann", "Ben", "Cat", "Dan"), monarch="Cat", active=("Ann",)))
        >>> reader.refer("everyone but the monarch").players
        ('Ann', 'Ben', 'Dan')
        >>> reader.refer("the player on Ann's left").players
        ('Ben',)
        """
        text = raw.strip().strip(",").strip()
        if " and " in text.lower():  # "both Ann and Ben"
            text = re.sub(r"(?i)^(?:both|all of|each of|either of) ", "", text)
        ref = self._single(text)
        if ref is None:
            ref = self._several(text)
        if ref is None:
            raise self.unknown(text)
        if one and len(ref.players) > 1 and not ref.plural:
            raise _Unknown(f"{ref.words}: which one? name a player", text)
        if alone and len(ref.players) > 1:  # an event one player does: never drop the others unsaid
            shared = self.shared_total(ref)
            if shared is None:
                raise _Unknown(f"{ref.words}: one player at a time here - ask about each of them", text)
            ref = shared
        return self._note(ref)

    def shared_total(self, ref: Ref) -> Ref | None:
        """A team whose players share one life total and one poison count (810.9, 810.10), said as the team:
        the damage, life or poison it takes goes to that total once, through the first of them still in."""
        if "team" not in ref.words.lower() or not self.facts.pools:
            return None
        pools = {self.facts.pools.get(p) for p in ref.players}
        playing = [p for p in ref.players if p in self.playing()]
        if len(pools) != 1 or None in pools or not playing:
            return None
        return Ref((playing[0],), f"{ref.words} (their shared total, through {playing[0]})")

    def _several(self, text: str) -> Ref | None:
        """ "Ann and Ben", "Ann, Ben and Cat", "the monarch and Dan", "Ann & Ben"."""
        pieces = [p for p in re.split(r"(?i)\s*(?:,\s*and\s+|,|\band\b|&|\bplus\b|\bas well as\b)\s*", text)
                  if p.strip()]
        if len(pieces) < 2:
            return None
        pieces = [word for piece in pieces for word in self._spaced_names(piece.strip())]
        refs = [self._single(piece.strip()) for piece in pieces]
        if any(r is None for r in refs):
            missing = next(p for p, r in zip(pieces, refs, strict=True) if r is None)
            raise self.unknown(missing.strip())
        players = list(dict.fromkeys(p for r in refs if r for p in r.players))
        return Ref(tuple(players), _names([r.words for r in refs if r]), plural=True)

    def _apposition(self, text: str) -> Ref | None:
        """ "Eve the Traitor", "the emperor Ben": the player named, when the description fits them."""
        match = re.fullmatch(r"(?P<name>[\w'-]+),? (?P<what>the .+)|(?P<what2>the .+?) (?P<name2>[\w'-]+)",
                             text, re.IGNORECASE)
        if not match:
            return None
        player = self.name(match["name"] or match["name2"] or "")
        if player is None:
            return None
        described = self._single(match["what"] or match["what2"])
        if described is None:
            return None
        if player not in described.players:
            raise _Unknown(f"{player} is not {described.words}", text)
        return Ref((player,), player)

    def _spaced_names(self, piece: str) -> list[str]:
        """ "ann ben" in "ann ben and cat" (typed without the comma): names, when every word is one."""
        words = piece.split()
        if len(words) > 1 and self._single(piece) is None and all(self.name(w) for w in words):
            return words
        return [piece]

    def _single(self, text: str) -> Ref | None:
        text = text.strip().strip("\"'").strip()
        if not text:
            return None
        found = self.name(text)
        if found:
            return Ref((found,), found)
        stripped = re.sub(r"(?i)^(?:the )?player ", "", text)
        found = self.name(stripped)
        if found:
            return Ref((found,), found)
        for pattern, build in _REFERENCES:
            match = pattern.fullmatch(text)
            if match:
                ref = build(self, match)
                if ref is not None:
                    return ref
        return self._apposition(text)

    def thing(self, text: str) -> str | None:
        """The planeswalker or battle a fragment names: "Jace", "the Siege", "Cat's planeswalker", "the battle
        Ben protects" is not read. None when it names none; an error when it could be several."""
        text = re.sub(r"(?i)^the ", "", text.strip().strip("\"'").strip())
        named = [n for n, _k, _c in self.facts.objects if n.casefold() == text.casefold()]
        if named:
            return named[0]
        kinds = {"planeswalker": ("planeswalker", "walker", "pw"), "battle": ("battle", "siege")}
        match = re.fullmatch(rf"(?:(?P<x>.+?){_POSS} )?(?P<kind>[\w-]+)", text, re.IGNORECASE)
        if not match:
            return None
        kind = next((k for k, words in kinds.items() if match["kind"].lower() in words), None)
        if kind is None:
            return None
        owner = self.owner(match["x"]) if match["x"] else None
        if match["x"] and owner is None:
            return None
        found = [n for n, k, c in self.facts.objects if k == kind and (owner is None or c == owner)]
        if len(found) > 1:
            raise _Unknown(f"{text}: which one? say its name ({_names(found)})", text)
        return found[0] if found else None

    def owner(self, text: str) -> str | None:
        """The single player a possessive fragment names ("Ann" of "Ann's teammate")."""
        ref = self._single(text)
        if ref is None or len(ref.players) != 1:
            return None
        return ref.players[0]

    # -- seats
    def neighbour(self, player: str, step: int) -> str:
        """The next player still in the game to the left (+1: next in turn order) or right (-1)."""
        seats = list(self.facts.players)
        playing = set(self.playing())
        index = seats.index(player)
        for offset in range(1, len(seats)):
            other = seats[(index + step * offset) % len(seats)]
            if other in playing:
                return other
        return player

    def teammates(self, player: str) -> list[str]:
        if player in self.facts.teammates:
            return [p for p in self.facts.teammates[player] if p not in self.gone]
        team = self.facts.teams.get(player)
        if team is None:
            return []
        return [p for p in self.playing() if p != player and self.facts.teams.get(p) == team]

    def opponents(self, player: str) -> list[str]:
        mates = set(self.teammates(player))
        return [p for p in self.playing() if p != player and p not in mates]


_References = list[tuple[re.Pattern[str], Callable[[_Reader, re.Match[str]], Ref | None]]]
_REFERENCES: _References = []


def _reference(regex: str) -> Callable[[Callable[[_Reader, re.Match[str]], Ref | None]], Any]:
    def register(build: Callable[[_Reader, re.Match[str]], Ref | None]) -> Any:
        _REFERENCES.append((re.compile(regex, re.IGNORECASE), build))
        return build

    return register


_PRONOUN = r"(?:he|she|they|him|her|them|his|their|hers|theirs|it|its)"


@_reference(r"(?:he|she|they|him|her|them|his|their|hers|theirs|it|its|himself|herself|themselves|themself)")
def _pronoun(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """ "He", "her", "their": the player an earlier event did something to, else the clause's subject."""
    plural = match[0].lower() in ("they", "them", "their", "theirs", "themselves")
    if plural and reader.focus is not None and not reader.touched <= set(reader.focus.players):
        # "Ann gains 5 and Ben loses 5, what's their life": both of them, or one? not guessed
        raise _Unknown(f"whom does '{match[0]}' stand for? name the players", match[0])
    return reader.focus or reader.subject


@_reference(rf"(?:the )?(?:current |new )?{_MONARCH}")
def _the_monarch(reader: _Reader, match: re.Match[str]) -> Ref:
    reader.topic = "monarch"
    return reader._one(reader.facts.monarch, "the monarch", "the monarch")


@_reference(rf"(?:the )?(?:current )?{_INITIATIVE}")
def _the_initiative_holder(reader: _Reader, match: re.Match[str]) -> Ref:
    reader.topic = "initiative"
    return reader._one(reader.facts.initiative, "the initiative holder", "holding the initiative")


@_reference(rf"(?:the )?{_ACTIVE}s?")
def _the_active_player(reader: _Reader, match: re.Match[str]) -> Ref:
    active = [p for p in reader.facts.active if p not in reader.gone]
    if len(active) > 1:
        return reader._group(active, "the active players", "active")
    return reader._one(active[0] if active else None, "the active player", "the active player")


@_reference(r"(?P<many>both |all (?:the )?|each |every |the two |the )?(?P<role>leaders?|guardians?|"
    r"assassins?|"
            r"traitors?)(?: players?)?")
def _by_role(reader: _Reader, match: re.Match[str]) -> Ref | None:
    if not reader.facts.roles:
        return None
    role = _ROLE_WORDS[match["role"].lower()]
    holders = [p for p in reader.facts.players if reader.facts.roles.get(p) == role and p not in reader.gone]
    # a player who left keeps the last role they had (907.12); "the Leader" is the one still playing it
    # (The Metamorph took Cat's card: Eve), the departed only when nobody in the game has it
    holders = [p for p in holders if p in reader.playing()] or holders
    plural = match["role"].lower().endswith("s") or (match["many"] or "").strip().lower() in (
        "both", "all", "all the", "each", "every", "the two")
    word = role.capitalize() + ("s" if plural else "")
    ref = reader._group(holders, f"the {word}", f"the {role.capitalize()}")
    if len(holders) == 1:  # one player, whatever the words: "If the Traitor (Eve) concedes"
        return Ref(ref.players, f"the {role.capitalize()} ({holders[0]})")
    return Ref(ref.players, ref.words, plural=plural)


@_reference(r"(?P<many>both |all (?:the )?|each |the two |the )?(?P<word>emperors?)")
def _the_emperor(reader: _Reader, match: re.Match[str]) -> Ref | None:
    emperors = [p for p in reader.facts.emperors if p not in reader.gone]
    if not reader.facts.emperors:
        return None
    plural = match["word"].lower().endswith("s") or (match["many"] or "").strip().lower() in ("both", "each")
    if len(emperors) == 1:
        return Ref((emperors[0],), f"the emperor ({emperors[0]})")
    ref = reader._group(emperors, "the emperors" if plural else "the emperor", "an emperor")
    return Ref(ref.players, ref.words, plural=plural)


@_reference(rf"(?P<x>.+?){_POSS}(?: team{_POSS}| side{_POSS})? emperor|"
            rf"(?:the )?emperor (?:on|of|from|for) (?P<x2>.+?){_POSS} (?:team|side)")
def _someones_emperor(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"] or match["x2"])
    if owner is None:
        return None
    team = {owner, *reader.teammates(owner)}
    emperor = next((e for e in reader.facts.emperors if e in team), None)
    return reader._one(emperor, f"{owner}'s emperor", f"{owner}'s emperor")


@_reference(rf"(?P<x>.+?){_POSS} (?:team ?mates?|team-mates?|partners?|allies|ally|friends?)")
def _teammates_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    mates = reader.teammates(owner)
    if not mates:
        raise _Unknown(f"{owner} has no teammates at this table", match[0])
    ref = reader._group(mates, f"{owner}'s teammate" + ("s" if len(mates) > 1 else ""), "a teammate")
    return Ref(ref.players, ref.words, plural=len(mates) > 1)


@_reference(rf"(?P<x>.+?)(?:{_POSS} (?:whole )?team| and (?:his|her|their)(?:'s)? (?:team ?mates?|teammates?|"
    rf"partners?|"
            r"team|allies))")
def _team_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    members = [owner, *reader.teammates(owner)]
    team = reader.facts.teams.get(owner)
    seated = [p for p in reader.facts.players if p == owner or p in reader.facts.teammates.get(owner, ())
              or (team is not None and reader.facts.teams.get(p) == team)]
    if len(members) == 1:  # "Ann and Cat die, does Ben's team lose": those this what-if took out still count
        members = [p for p in seated if p == owner or p in reader.facts.playing]
    if len(members) == 1 and len(seated) > 1:  # the table's own events took the others out: Ann alone
        return Ref((owner,), f"{owner}'s team ({owner})")
    if len(members) == 1:
        raise _Unknown(f"{owner} has no teammates at this table", match[0])
    return reader._group(members, f"{owner}'s team", "on that team")


@_reference(rf"(?P<x>.+?){_POSS} (?:opponents|enemies)")
def _opponents_of(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    return reader._group(reader.opponents(owner), f"{owner}'s opponents", f"{owner}'s opponent")


@_reference(r"(?:the )?other (?:team|side)")
def _other_team(reader: _Reader, match: re.Match[str]) -> Ref | None:
    if not reader.facts.teams:
        return None
    named = reader.mentioned or (list(reader.subject.players) if reader.subject else [])
    sides = {reader.facts.teams[p] for p in named if p in reader.facts.teams}
    if len(sides) != 1:
        names = sorted(set(reader.facts.teams.values()))
        if len(names) == 2 and not sides:
            raise _Unknown("the other team than whose? name a player of one team", match[0])
        return None
    side = next(iter(sides))
    members = [p for p in reader.playing() if reader.facts.teams.get(p) not in (None, side)]
    return reader._group(members, "the other team", "on the other team")


@_reference(r"team (?P<name>\w+)|(?:the )?(?P<name2>\w+) team")
def _named_team(reader: _Reader, match: re.Match[str]) -> Ref | None:
    wanted = (match["name"] or match["name2"] or "").casefold()
    aliases = {"assassin": "assassins", "leader's": "leader", "leaders": "leader"}
    wanted = aliases.get(wanted, wanted)
    members = [p for p in reader.playing() if str(reader.facts.teams.get(p, "")).casefold() == wanted]
    if not members:
        return None
    return reader._group(members, f"team {reader.facts.teams[members[0]]}", "on that team")


@_reference(rf"{_EVERYONE}(?: else)? {_EXCEPT} (?P<x>.+)|all {_EXCEPT} (?P<x2>.+)")
def _everyone_except(reader: _Reader, match: re.Match[str]) -> Ref:
    left_out = reader.refer(match["x"] or match["x2"])
    players = [p for p in reader.playing() if p not in left_out.players]
    return reader._group(players, f"everyone except {left_out.words}", "left")


@_reference(rf"{_EVERYONE}")
def _everyone(reader: _Reader, match: re.Match[str]) -> Ref:
    return reader._group(reader.playing(), "everyone", "playing")


@_reference(r"(?:everyone|everybody) else|(?:all )?the others|(?:all )?the other players|"
    r"the rest(?: of (?:us|them|"
            r"the table))?")
def _everyone_else(reader: _Reader, match: re.Match[str]) -> Ref | None:
    # "if everybody else concedes, does Ann win": said before the one player the sentence names
    named = reader.mentioned or (reader.sentence_names if len(reader.sentence_names) == 1 else [])
    if not named:
        return None
    players = [p for p in reader.playing() if p not in named]
    return reader._group(players, "everyone else", "left")


@_reference(rf"(?:the )?(?:player|person|one|opponent|seat) (?:to|on|"
    rf"at) (?P<x>.+?){_POSS} (?P<side>left|right)"
            rf"(?:[- ]hand(?: side)?)?|(?P<x2>.+?){_POSS} (?P<side2>left|"
            rf"right)(?:[- ]hand)?(?: neighbou?r| side)?|"
            rf"(?:the )?(?:player|person|one) (?:to|on) the (?P<side3>left|right) of (?P<x3>.+)")
def _neighbour(reader: _Reader, match: re.Match[str]) -> Ref | None:
    owner = reader.owner(match["x"] or match["x2"] or match["x3"])
    if owner is None:
        return None
    side = (match["side"] or match["side2"] or match["side3"]).lower()
    other = reader.neighbour(owner, 1 if side == "left" else -1)
    return Ref((other,), f"the player on {owner}'s {side} ({other})")


@_reference(r"(?:the )?(?:player|person|one) (?:after|before) (?P<x>.+)|(?:the )?(?P<next>next|"
    r"previous) player")
def _after(reader: _Reader, match: re.Match[str]) -> Ref | None:
    if match["next"]:
        active = [p for p in reader.facts.active if p not in reader.gone] or list(reader.facts.active)
        if not active:
            return None
        step = 1 if match["next"].lower() == "next" else -1
        other = reader.neighbour(active[0], step)
        return Ref((other,), f"the {match['next'].lower()} player ({other})")
    owner = reader.owner(match["x"])
    if owner is None:
        return None
    step = 1 if "after" in match[0].lower() else -1
    other = reader.neighbour(owner, step)
    return Ref((other,), f"the player {'after' if step == 1 else 'before'} {owner} ({other})")


@_reference(rf"(?:the )?(?:player (?:in |at )?seat|player number|player|seat|p)(?: number| #| no\.?)? ?#?"
            rf"(?P<n>\d{{1,2}}|{'|'.join(_UNITS)}|ten|eleven|twelve)")
def _by_seat(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """ "player 2", "P3", "seat 4", "the player in seat 3": the seats as the table lists them, from 1."""
    seat = _number(match["n"], 0)
    if not 1 <= seat <= len(reader.facts.players):
        raise _Unknown(f"there is no seat {seat} at this table ({len(reader.facts.players)} seats)", match[0])
    player = reader.facts.players[seat - 1]
    return Ref((player,), f"seat {seat} ({player})")


@_reference(rf"(?:the )?(?:player|person|one|opponent) (?:across|opposite) (?:from |to )?(?P<x>.+?)|"
            rf"(?P<x2>.+?){_POSS} opposite(?: number| player)?")
def _across(reader: _Reader, match: re.Match[str]) -> Ref | None:
    """The player sitting opposite: only at an even table (at an odd one nobody sits straight across)."""
    owner = reader.owner(match["x"] or match["x2"])
    seats = list(reader.facts.players)
    if owner is None or len(seats) % 2:
        return None
    other = seats[(seats.index(owner) + len(seats) // 2) % len(seats)]
    return Ref((other,), f"the player across from {owner} ({other})")


def resolve_player(raw: str, players: Sequence[str] | TableFacts) -> str:
    """The player a fragment of a question names (case-insensitive, possessive and "player" dropped).

    >>> resolve_player("ben's", ["Ann", "Ben"])
    'Ben'
    >>> try:
    ...     resolve_player("Zed", ["Ann", "Ben"])
    ... except WhatIfError as error:
    ...     print(error)
    there is no player called 'Zed' at this table (players: Ann, Ben)
    """
    text = re.sub(rf"(?i){_POSS}$", "", raw.strip()).strip()
    ref = _Reader(_facts(players)).refer(text, one=True)
    return ref.players[0]


def resolve_players(raw: str, players: Sequence[str] | TableFacts) -> list[str]:
    """Several players: "Ann and Ben", "Ann, Ben and Cat", "Ann & Ben", "everyone except Dan".

    >>> resolve_players("ann, Ben and cat", ["Ann", "Ben", "Cat"])
    ['Ann', 'Ben', 'Cat']
    """
    return list(_Reader(_facts(players)).refer(raw).players)


# ------------------------------------------------------------------------------------------- patterns

_X = r"(?P<x>.+?)"
_Y = r"(?P<y>.+?)"


#: How many clauses a sentence's readings may try (a grammar's pass over one fragment each). The phrase
#: list needs at most 17; splitting at every "and", "after", "before" and comma of a long sentence grows
#: with the product of its splits, so a budget keeps a 500-character question to a fraction of a second.
MAX_WORK = 400
_WORK: ContextVar[list[int] | None] = ContextVar("_WORK", default=None)


class _OutOfWork(Exception):  # not an error to show: the sentence goes to the search
    """The budget is spent: every reading stops at once (the split loops catch only :class:`_Unknown`)."""


class _Grammar:
    """Regexes (matched whole, case-insensitively) and the builders they call, in the order tried."""

    def __init__(self) -> None:
        self.rules: list[tuple[re.Pattern[str], Callable[..., Any]]] = []

    def __call__(self, *regexes: str) -> Callable[[Callable[..., Any]], Any]:
        def register(build: Callable[..., Any]) -> Any:
            for regex in regexes:
                self.rules.append((re.compile(regex, re.IGNORECASE), build))
            return build

        return register

    def first(self, text: str, reader: _Reader, what: str) -> Any:
        """The first reading of ``text`` (builders return None, or raise :class:`_Unknown`, to pass); when
        none reads it, the error about the shortest fragment (the likeliest typo of a name)."""
        work = _WORK.get()
        if work is not None:
            work[0] -= 1
            if work[0] < 0:  # a sentence with many ways to split it: not read rather than read slowly
                raise _OutOfWork(text)
        errors: list[_Unknown] = []
        for pattern, build in self.rules:
            match = pattern.fullmatch(text)
            if match is None:
                continue
            saved = reader.save()
            reader.new_clause = True
            try:
                result = build(match, reader)
            except _Unknown as error:
                errors.append(error)
                result = None
            if result is not None:
                return result
            reader.restore(saved)
        if errors:
            raise min(errors, key=lambda e: len(e.fragment))
        raise _Unknown(f"not {what}: {text}", text)


_QUESTIONS = _Grammar()
_HAPPENINGS = _Grammar()


def _each(ref: Ref, template: str) -> tuple[str, ...]:
    return tuple(template.format(p=p) for p in ref.players)


def _per_player(question: str, words: str, *, one: bool = False, needs_roles: bool = False,
                new: bool = False) -> Callable[[re.Match[str], _Reader], _Ask | None]:
    """A builder asking ``question(X)`` of each player the fragment ``x`` names ("what is {who}'s life
    total" -> ``life(Ann)``). ``one``: a single player; ``needs_roles``: Treachery only; ``new``: only once
    the model knows the question (issue 13's additions)."""

    def build(match: re.Match[str], reader: _Reader) -> _Ask | None:
        if needs_roles and not reader.facts.roles:
            return None
        if new and (not reader.facts.questions or not reader.facts.knows_question(question)):
            return None
        who = reader.refer(match["x"], one=one)
        return _Ask(question, words.format(who=who.words), _each(who, question + "({p})"), who.players,
                    ("each", question, who.players))

    return build


# --- questions: the crown and the initiative

_BE = r"(?:'s| is| will be| would be| becomes| will become| would become| should become| ends up(?: as|" \
    r" being)?|" \
    r" gets to be| should be| is going to be| remains| stays| was)"
_KING = r"(?:the )?(?:new |next )?(?:monarch|king|queen)"
_CROWN = r"(?:the )?(?:crown|monarchy|monarch designation|monarch)"
_HOLD = r"(?:gets|takes|has|has got|got|holds|keeps|ends up with|wears|inherits|receives|steals|is given|" \
    r"would get|" \
    r"will get|" \
    r"would have|will have|should get|gets to keep|would take|will take|is left with|picks up)"


@_QUESTIONS(
    rf"who{_BE}? {_KING}",
    rf"who(?: {_HOLD}|'s got) {_CROWN}",
    rf"(?:where|who) (?:does|would|will) {_CROWN} go(?: to)?",
    rf"where(?:'s| is)? {_CROWN} (?:go|going|gone)(?: to)?",
    rf"who(?:'s| is) (?:holding|wearing|got) {_CROWN}",
    rf"what happens to {_CROWN}",
    rf"who(?:'s| is) {_KING}",
    rf"who (?:would|will|is going to|should) {_KING} be",
)
def _q_monarch(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("monarch", "who is the monarch", ("monarch",), headline=("value", "monarch"))


@_QUESTIONS(rf"(?:does|will|would|should|can) {_X} (?:still )?(?P<verb>get|keep|take|lose|have|hold|steal) "
            r"it")
def _q_does_x_have_it(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "if Ann hits Dan, does Dan keep it": "it" is the designation the sentence is about, else the one held
    by the players it names (Dan has the initiative); not guessed when that is both or neither."""
    who = _holder(reader, match["x"], match[0])
    designation = reader.topic
    if not designation:
        named = {*who.players, *(reader.focus.players if reader.focus else ()), *reader.mentioned}
        holders = (("monarch", reader.facts.monarch), ("initiative", reader.facts.initiative))
        held = {d for d, holder in holders if holder in named}
        designation = held.pop() if len(held) == 1 else ""
    if designation not in ("monarch", "initiative"):
        return None
    lose = match["verb"].lower() == "lose"
    words = f"does {who.words} {'lose' if lose else 'have'} the {designation}"
    return _Ask(designation, words, (designation,), who.players, ("is", designation, who.players[0], lose))


@_QUESTIONS(r"who (?:gets|takes|has|inherits|ends up with|would get|will get|should get|keeps) it")
def _q_it(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "…, who gets it?": the designation the sentence is about."""
    if reader.topic == "initiative":
        return _Ask("initiative", "who has the initiative", ("initiative",), headline=("value", "initiative"))
    if reader.topic == "monarch":
        return _Ask("monarch", "who is the monarch", ("monarch",), headline=("value", "monarch"))
    if reader.topic == "priority" and reader.facts.knows_question("priority") and reader.facts.questions:
        return _Ask("priority", "who receives priority", ("priority",), headline=("value", "priority"))
    return None


@_QUESTIONS(
    rf"(?:does|will|would|should|can) {_X} (?:become|stay|remain|be|keep being|get to be|still be) {_KING}",
    rf"is {_X} (?:still |now |then |going to be )?{_KING}",
    rf"(?:does|will|would|should|can) {_X} (?P<verb>get|keep|take|lose|steal|have|hold|inherit) {_CROWN}",
    rf"(?:does|will|would) {_CROWN} (?:go|pass|move) to {_X}",
)
def _q_is_monarch(match: re.Match[str], reader: _Reader) -> _Ask:
    who = _holder(reader, match["x"], match[0])
    lose = (match.groupdict().get("verb") or "").lower() == "lose"
    words = f"does {who.words} lose the crown" if lose else f"is {who.words} the monarch"
    return _Ask("monarch", words, ("monarch",), who.players, ("is", "monarch", who.players[0], lose))


_THE_INITIATIVE = r"(?:the )?initiative"
_GAINING = re.compile(r"\b(?:get|take|steal|inherit|become|gain)\b", re.IGNORECASE)


def _holder(reader: _Reader, text: str, question: str) -> Ref:
    """Whom "does he get the initiative" asks about. After "Ben hits Dan", "he" gaining a designation is the
    one who dealt the damage (the clause's subject); "he" keeping or losing it is the one hit."""
    if (re.fullmatch(_PRONOUN, text.strip(), re.IGNORECASE) and _GAINING.search(question)
            and reader.subject is not None and reader.focus is not None):
        return reader._note(reader.subject)
    return reader.refer(text, one=True, alone=True)


@_QUESTIONS(
    rf"who(?: {_HOLD}|'s got) {_THE_INITIATIVE}",
    rf"who{_BE}? (?:the )?(?:new )?initiative (?:holder|player)",
    rf"(?:where|who) (?:does|would|will) {_THE_INITIATIVE} go(?: to)?",
    rf"where(?:'s| is)? {_THE_INITIATIVE} (?:go|going|gone)(?: to)?",
    rf"who(?:'s| is) (?:holding|got) {_THE_INITIATIVE}",
    rf"what happens to {_THE_INITIATIVE}",
)
def _q_initiative(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("initiative", "who has the initiative", ("initiative",), headline=("value", "initiative"))


@_QUESTIONS(
    rf"(?:does|will|would|should|can) {_X} (?:still )?(?P<verb>get|keep|take|lose|have|"
    rf"hold) {_THE_INITIATIVE}",
    rf"is {_X} (?:still )?(?:the )?initiative (?:holder|player)",
    rf"(?:does|will|would) {_THE_INITIATIVE} (?:go|pass|move) to {_X}",
)
def _q_has_initiative(match: re.Match[str], reader: _Reader) -> _Ask:
    who = _holder(reader, match["x"], match[0])
    lose = (match.groupdict().get("verb") or "").lower() == "lose"
    words = f"does {who.words} lose the initiative" if lose else f"does {who.words} have the initiative"
    return _Ask("initiative", words, ("initiative",), who.players, ("is", "initiative", who.players[0], lose))


# --- questions: turns


@_QUESTIONS(
    r"who (?:goes|plays|takes (?:a|the|their) turn|gets to go|gets to play) first",
    r"who (?:starts|begins|takes the first turn|gets the first turn|starts the game|begins the game)",
    r"who(?:'s| is) the (?:starting|first) player",
)
def _q_first_player(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.knows_question("first-player"):
        return None
    return _Ask("first-player", "who takes the first turn", ("first-player",),
                headline=("value", "first-player"))


@_QUESTIONS(
    r"whose turn(?: is it| will it be| would it be| is it going to be| is this| is that| comes next| is next|"
    r" is it next)?",
    rf"who{_BE}? (?:the )?(?:new )?active players?",
    r"who(?:'s| is) (?:active|on turn|up|up next|next)",
    r"who (?:plays|goes|takes a turn|takes the next turn|has the next turn|gets the next turn|is next|"
    r"plays next|"
    r"goes next|comes next)",
    r"whose turn (?:is it|comes) (?:next|after that)",
    r"whose turn (?:comes|is|will be|would be) after this one",
)
def _q_turn(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("turn", "whose turn is it, and who takes the next turn", ("active", "next-turn"),
                headline=("turn",))


@_QUESTIONS(
    rf"is it (?:still )?{_X}{_POSS} turn",
    rf"is {_X} (?:still )?(?:the |an |one of the )?active(?: player| players| team)?",
    rf"is {_X} taking a turn(?: now)?",
)
def _q_is_active(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"], one=True, alone=True)
    return _Ask("turn", f"is {who.words} the active player", ("active", "next-turn"), who.players,
                ("member", "active", who.players, False))


@_QUESTIONS(
    r"(?:what(?:'s| is) the (?:new )?)?turn order",
    r"(?:in )?what order do (?:we|they|the players|players) (?:play|take turns|go)(?: in)?",
    r"(?:how|in what order) do (?:the )?turns go",
)
def _q_turn_order(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("turn-order", "what is the turn order", ("turn-order",), headline=("value", "turn-order"))


@_QUESTIONS(
    rf"who (?:plays|goes|comes|is|takes (?:a|their) turn)(?: next| up)? (?:right )?after {_X}",
    rf"who(?:'s| is) (?:next|up|up next) (?:right )?after {_X}",
    rf"whose turn (?:is|comes|is it) (?:right )?after {_X}{_POSS}?(?: turn)?",
)
def _q_after(match: re.Match[str], reader: _Reader) -> _Ask:
    """Who plays after X: the turn order, or the next turn when X is the active player (an extra turn may
    come first, 500.7)."""
    who = reader.refer(match["x"], one=True, alone=True)
    return _Ask("turn-order", f"who plays after {who.words}", ("turn-order", "active", "next-turn"),
                who.players, ("after", who.players[0]))


@_QUESTIONS(
    r"(?:what(?:'s| is) the )?apnap(?: order)?",
    r"in what order do (?:we|players|the players) (?:put|choose|order|stack) (?:our |their )?(?:triggers|"
    r"abilities|triggered abilities)(?: on the stack)?",
)
def _q_apnap(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("apnap-order", "what is the APNAP order", ("apnap-order",), headline=("value", "apnap-order"))


# --- questions: who is still in, who wins


@_QUESTIONS(
    r"who(?:'s| is| else is)? (?:still )?(?:in|left|alive|standing|playing|remaining|"
    r"around)(?: in)?(?: the game)?",
    r"who remains(?: in the game)?",
    r"who is still in the game",
    r"how many (?:players|people) (?:are )?(?:left|remain|still in|still playing)(?: in)?(?: the game)?",
    r"who(?:'s| is) (?:still )?in the game",
)
def _q_in_game(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("in-game", "who is still in the game", ("in-game",), headline=("value", "in-game"))


@_QUESTIONS(
    rf"is {_X} still (?:in|alive|playing|in the game)",
    rf"(?:does|do|will|would|can) {_X} (?:survive|live|stay in|stay alive|make it)(?: the game)?",
    rf"what (?:happens|would happen|will happen|happened) (?:to|with) {_X}",
)
def _q_still_in(match: re.Match[str], reader: _Reader) -> _Ask:
    """ "is Cat still in", "what happens to Ben" (after Ann concedes in Two-Headed Giant: does he leave
    too)."""
    who = reader.refer(match["x"])
    return _Ask("in-game", f"is {who.words} still in the game", ("in-game",), who.players,
                ("member", "in-game", who.players, False))


@_QUESTIONS(
    r"who (?:wins|won|will win|would win|is the winner|are the winners|gets the win|takes the game|takes it|"
    r"is winning|has won)(?: the game)?",
    r"(?:does|would|will) (?:anyone|anybody|someone|somebody) win(?: the game)?",
    r"which (?:team|side|player|players) (?:wins|won|would win|will win)(?: the game)?",
    r"(?:is|would|will) (?:it|the game) (?:be )?over",
    r"(?:does|would|will) the game (?:end|stop|finish|be over)",
    r"is there a winner",
    r"(?:what(?:'s| is) the )?(?:result|outcome)(?: of the game)?",
)
def _q_winners(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("winners", "who wins", ("game-over", "winners"), headline=("winners",))


@_QUESTIONS(
    rf"(?:does|do|will|would|did|can) {_X} (?:still )?win(?: the game)?",
    rf"(?:has|have) {_X} won(?: the game)?",
    rf"(?:is|are) {_X} (?:the )?winners?",
)
def _q_does_win(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"])
    plural = who.plural or len(who.players) > 1
    return _Ask("winners", f"{'do' if plural else 'does'} {who.words} win", ("game-over", "winners"),
                who.players,
                ("member", "winners", who.players, False))


@_QUESTIONS(
    r"who(?: loses| lost| else loses| would lose| will lose| is out| is eliminated|'s out|'s eliminated|"
    r"'s dead| is dead| dies| died| goes out)(?: the game)?(?: too| as well| now)?",
    r"who (?:are|is) the losers?",
)
def _q_losers(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("losers", "who loses", ("losers", "game-over"), headline=("value", "losers"))


@_QUESTIONS(
    rf"(?:does|do|will|would) {_X} (?:also )?lose(?: the game)?(?: too| as well)?",
    rf"(?:does|do|will|would|did) {_X} (?:also )?(?:die|get knocked out|get eliminated|go out|drop)"
    rf"(?: too| as well)?",
    rf"(?:is|are) {_X} (?:also )?(?:done|finished|knocked out|gone)(?: too| as well)?",
    rf"(?:is|are) {_X} (?:also )?(?:out|eliminated|dead)(?: too| as well)?",
)
def _q_does_lose(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"])
    plural = who.plural or len(who.players) > 1
    return _Ask("losers", f"{'do' if plural else 'does'} {who.words} lose", ("losers", "game-over"),
                who.players,
                ("member", "losers", who.players, False))


# --- questions: life and cards


_q_life = _QUESTIONS(
    rf"what(?:'s| is| are) {_X}{_POSS} life(?: totals?)?(?: at)?",
    rf"how (?:much|many) life(?: points)? (?:does|do|would|will) {_X} have(?: left)?",
    rf"what life (?:is|are) {_X} (?:at|on)",
    rf"what(?:'s| is| are) the life(?: totals?)? of {_X}",
    rf"{_X}{_POSS} life(?: totals?)?",
    rf"how much life (?:is|are) {_X} at",
)(
    _per_player("life", "what is {who}'s life total"))


@_QUESTIONS(
    r"who (?:draws|gets to draw|would draw|will draw)(?: a card| cards| an extra card| anything)?",
    r"(?:does|do) (?:anyone|anybody) draw(?: a card| cards)?",
)
def _q_who_draws(match: re.Match[str], reader: _Reader) -> _Ask:
    players = tuple(reader.facts.players)
    return _Ask("draws", "who draws a card", tuple(f"draws({p})" for p in players), (),
                ("positive", "draws", players))


_q_draws = _QUESTIONS(
    rf"(?:does|do|will|would) {_X} draw(?: a card| cards| an extra card)?",
    rf"how many cards (?:does|do|would|will) {_X} draw",
)(
    _per_player("draws", "how many cards does {who} draw"))


@_QUESTIONS(r"who ventures(?: into the undercity)?", r"(?:does|do|will) (?:anyone|anybody) venture")
def _q_who_ventures(match: re.Match[str], reader: _Reader) -> _Ask:
    players = tuple(reader.facts.players)
    return _Ask("ventures", "who ventures into the Undercity", tuple(f"ventures({p})" for p in players), (),
                ("positive", "ventures", players))


_q_ventures = _QUESTIONS(rf"(?:does|do|will|would) {_X} venture(?: into the undercity)?")(
    _per_player("ventures", "does {who} venture into the Undercity"))


# --- questions: attacks and range of influence

_ATTACK = r"(?:attack|swing at|swing into|swing on|go after|hit|attack into|send creatures at|" \
    r"send attackers at)"
_ABLE = r"(?:still |then |now |even )?(?:be )?(?:able to |allowed to |permitted to )?"  # "can Ann still …"
_WHEN = r"(?: (?:now|this turn|right now|yet|on turn (?:one|1)|on (?:the|their|his|her) first turn|at all|" \
    r"with (?:creatures|their creatures|his creatures|her creatures|a creature|anything)|in combat|legally))*"


def _attackers(reader: _Reader, text: str) -> Ref:
    """The attackers a fragment names: "Ann", "Ann's creatures", "the monarch's creatures"."""
    text = re.sub(rf"(?i){_POSS} {_OBJECTS}$", "", text.strip())
    ref = reader.refer(text)
    if re.fullmatch(_PRONOUN, text, re.IGNORECASE) and all(p in reader.gone for p in ref.players):
        # "if Ann's left neighbour concedes, who can she attack": not the one who just left
        others = [p for p in reader.playing() if p in (*reader.mentioned, *reader.sentence_names)]
        if len(others) != 1:
            raise _Unknown(f"whom does '{text}' stand for? name the player", text)
        return Ref((others[0],), others[0])
    return ref


@_QUESTIONS(
    rf"(?:can|could|may|is|are|would|will) {_X} {_ABLE}{_ATTACK} {_Y}{_WHEN}",
    rf"(?:can|could|may|is|are) {_Y} (?:be )?(?:attacked|attackable) by {_X}{_WHEN}",
)
def _q_can_attack(match: re.Match[str], reader: _Reader) -> _Ask | None:
    attackers = _attackers(reader, match["x"])
    thing = reader.thing(match["y"])
    if thing is not None:  # "can Cat attack the Siege", "can Dan attack Ann's planeswalker" (506.2, 310.8b)
        asked = tuple(f"can-attack({a}, {thing})" for a in attackers.players)
        return _Ask("can-attack", f"can {attackers.words} attack {thing}", asked, attackers.players,
                    ("all-true", asked))
    targets = reader.refer(match["y"])
    pairs = [(a, t) for a in attackers.players for t in targets.players if a != t]
    if not pairs:
        return None
    return _Ask("can-attack", f"can {attackers.words} attack {targets.words}",
                tuple(f"can-attack({a}, {t})" for a, t in pairs), (*attackers.players, *targets.players),
                ("all-true", tuple(f"can-attack({a}, {t})" for a, t in pairs)))


@_QUESTIONS(
    rf"who(?:m)? (?:can|could|may|is|are|would) {_X} {_ABLE}{_ATTACK}{_WHEN}",
    rf"which (?:players|opponents|player|opponent) (?:can|could|may) {_X} {_ATTACK}{_WHEN}",
    rf"(?:can|could|may) {_X} {_ABLE}{_ATTACK}(?: (?:anyone|anybody|anything|someone|somebody|"
    rf"at all))?{_WHEN}",
)
def _q_attack_targets(match: re.Match[str], reader: _Reader) -> _Ask | None:
    attackers = _attackers(reader, match["x"])
    pairs = [(a, t) for a in attackers.players for t in reader.playing() if t != a]
    if not pairs:
        return None
    return _Ask("attack-targets", f"whom can {attackers.words} attack",
                tuple(f"can-attack({a}, {t})" for a, t in pairs), attackers.players,
                ("targets", tuple(pairs)))


@_QUESTIONS(
    rf"who (?:can|could|may) (?:attack|swing at|go after) {_Y}{_WHEN}",
    rf"who is (?:able|allowed) to attack {_Y}{_WHEN}",
    rf"(?:can|could) (?:anyone|anybody|someone|somebody) attack {_Y}{_WHEN}",
    rf"is {_Y} attackable{_WHEN}",
)
def _q_attackers_of(match: re.Match[str], reader: _Reader) -> _Ask | None:
    thing = reader.thing(match["y"])
    if thing is not None:  # "who can attack Jace": each player still in (the model says who, 506.2/310.8b)
        pairs = [(a, thing) for a in reader.playing()]
        return _Ask("attackers-of", f"who can attack {thing}",
                    tuple(f"can-attack({a}, {t})" for a, t in pairs), (), ("attackers", tuple(pairs)))
    targets = reader.refer(match["y"])
    pairs = [(a, t) for t in targets.players for a in reader.playing() if a != t]
    if not pairs:
        return None
    return _Ask("attackers-of", f"who can attack {targets.words}",
                tuple(f"can-attack({a}, {t})" for a, t in pairs), targets.players,
                ("attackers", tuple(pairs)))


@_QUESTIONS(
    rf"who(?:'s| is)? (?:protects|protecting|the protector of|guards|guarding) {_Y}",
    rf"who(?:'s| is) {_Y}{_POSS} protector",
    rf"who is {_Y} protected by",
)
def _q_protector(match: re.Match[str], reader: _Reader) -> _Ask | None:
    thing = reader.thing(match["y"])
    if thing is None or not reader.facts.knows_question("protector"):
        return None
    return _Ask("protector", f"who protects {thing}", (f"protector({thing})",), (),
                ("value", f"protector({thing})"))


@_QUESTIONS(
    rf"(?:what(?:'s| is)|how much|how many) {_Y}{_POSS} (?P<what>defense|loyalty)(?: counters)?"
    r"(?: now| left)?",
    rf"how many (?P<what2>defense|loyalty)(?: counters)? (?:does|is|will|would) {_Y} (?:have|on|at)"
    r"(?: left| now)?",
    rf"how much (?P<what3>defense|loyalty) (?:does|will|would) {_Y} have(?: left| now)?",
)
def _q_counters_on(match: re.Match[str], reader: _Reader) -> _Ask | None:
    thing = reader.thing(match["y"])
    what = _said(match, "what", "what2", "what3")
    if thing is None or what is None or not reader.facts.knows_question(what.lower()):
        return None
    question = f"{what.lower()}({thing})"
    return _Ask(what.lower(), f"how much {what.lower()} does {thing} have", (question,), (),
                ("value", question))


_RANGE = r"range(?: of influence)?"


@_QUESTIONS(
    rf"is {_Y} (?:with)?in {_X}{_POSS} {_RANGE}",
    rf"is {_Y} (?:with)?in (?:the )?{_RANGE} of {_X}",
    rf"(?:does|do) {_X} have {_Y} (?:with)?in (?:their|his|her|its)(?:'s)? {_RANGE}",
    rf"is {_Y} in range (?:of|for) {_X}",
    rf"can {_X} (?:reach|affect) {_Y}",
)
def _q_in_range(match: re.Match[str], reader: _Reader) -> _Ask | None:
    source = reader.refer(match["x"], one=True, alone=True)
    others = reader.refer(match["y"])
    pairs = [(source.players[0], o) for o in others.players if o != source.players[0]]
    if not pairs:
        return None
    return _Ask("in-range", f"is {others.words} within {source.words}'s range of influence",
                tuple(f"in-range({s}, {o})" for s, o in pairs), (source.players[0], *others.players),
                ("all-true", tuple(f"in-range({s}, {o})" for s, o in pairs)))


@_QUESTIONS(
    rf"who(?:'s| is| are)? (?:with)?in {_X}{_POSS} {_RANGE}",
    rf"who(?:'s| is)? (?:with)?in (?:the )?{_RANGE} of {_X}",
    rf"who can {_X} (?:reach|affect)",
    rf"who(?:m)? does {_X}{_POSS}? {_RANGE} (?:reach|cover|include)",
)
def _q_who_in_range(match: re.Match[str], reader: _Reader) -> _Ask:
    source = reader.refer(match["x"], one=True, alone=True)
    player = source.players[0]
    others = [p for p in reader.facts.players if p != player]
    return _Ask("who-in-range", f"who is within {source.words}'s range of influence",
                (f"range({player})", *(f"in-range({player}, {o})" for o in others)), (player,),
                ("in-range", player, tuple(others)))


_q_range = _QUESTIONS(
    rf"what(?:'s| is) {_X}{_POSS} {_RANGE}",
    rf"how (?:far|big|large|wide) is {_X}{_POSS} {_RANGE}",
    rf"how far (?:does|can) {_X}{_POSS}? (?:{_RANGE} )?reach",
)(
    _per_player("range", "what is {who}'s range of influence", one=True))


# --- questions: teams and identities


_q_opponents = _QUESTIONS(
    rf"who(?:'s| is| are) {_X}{_POSS} (?:opponents?|enemies|enemy)",
    rf"who(?:'s| is| are) (?:the )?(?:opponents?|enemies) of {_X}",
    rf"who (?:does|do) {_X} (?:play|face|fight) against",
    rf"who(?:'s| is| are) {_X} (?:playing|facing) against",
    rf"who(?:'s| is| are) against {_X}",
    rf"{_X}{_POSS} (?:opponents|enemies)",
)(
    _per_player("opponents", "who are {who}'s opponents", one=True))


@_QUESTIONS(
    rf"(?:is|are) {_Y} (?:an |one of )?{_X}{_POSS} opponents?",
    rf"(?:is|are) {_Y} (?:an )?opponents? (?:of|to) {_X}",
)
def _q_is_opponent(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"], one=True, alone=True)
    other = reader.refer(match["y"])
    player = who.players[0]
    return _Ask("opponents", f"is {other.words} {who.words}'s opponent", (f"opponents({player})",),
                (player, *other.players), ("member", f"opponents({player})", other.players, False))


@_QUESTIONS(rf"are {_X} and {_Y} opponents")
def _q_are_opponents(match: re.Match[str], reader: _Reader) -> _Ask:
    who = reader.refer(match["x"], one=True, alone=True)
    other = reader.refer(match["y"], one=True)
    player = who.players[0]
    return _Ask("opponents", f"are {who.words} and {other.words} opponents", (f"opponents({player})",),
                (player, other.players[0]), ("member", f"opponents({player})", other.players, False))


_q_teammates = _QUESTIONS(
    rf"who(?:'s| is| are) {_X}{_POSS} (?:team ?mates?|team-mates?|allies|ally|partners?|friends?)",
    rf"who(?:'s| is| are) (?:the )?(?:team ?mates?|allies|partners?) of {_X}",
    rf"who(?:'s| is| are) on {_X}{_POSS} (?:team|side)",
    rf"who(?:'s| is| are) {_X} (?:teamed(?: up)? with|on a team with|playing with|partnered with|"
    rf"allied with)",
    rf"who(?:'s| is) (?:on the same team as|with) {_X}",
    rf"{_X}{_POSS} (?:team ?mates|teammates|allies|partners)",
)(
    _per_player("teammates", "who are {who}'s teammates", one=True))


@_QUESTIONS(
    rf"are {_X} and {_Y} (?:on the same team|teammates|team mates|allies|partners|on a team)",
    rf"is {_Y} (?:on )?{_X}{_POSS} (?:team ?mate|team|ally|partner)",
    rf"is {_Y} on the same team as {_X}",
    r"are (?P<they>they|the two of them|both of them|they both) (?:now )?(?:on the same team|teammates|"
    r"team mates|allies|partners|on a team)(?: now)?",
)
def _q_are_teammates(match: re.Match[str], reader: _Reader) -> _Ask:
    if match.groupdict().get("they"):  # "if Ann and Dan unveil, are they teammates": the two just named
        if len(reader.mentioned) != 2:
            raise _Unknown(f"whom does '{match['they']}' stand for? name the two players", match["they"])
        who, other = (Ref((p,), p) for p in reader.mentioned)
    else:
        who = reader.refer(match["x"], one=True, alone=True)
        other = reader.refer(match["y"], one=True)
    player = who.players[0]
    return _Ask("teammates", f"are {who.words} and {other.words} teammates", (f"teammates({player})",),
                (player, other.players[0]), ("member", f"teammates({player})", other.players, False))


_q_team = _QUESTIONS(
    rf"(?:which|what) (?:team|side) (?:is|does|are) {_X} (?:on|in|belong to|play for|part of|playing for)",
    rf"(?:which|what) (?:team|side) is {_X}",
    rf"what(?:'s| is) {_X}{_POSS} team",
)(
    _per_player("team", "which team is {who} on"))


_q_role = _QUESTIONS(
    rf"what(?:'s| is) {_X}{_POSS} (?:role|identity|identity card)",
    rf"what (?:role|identity) (?:is|does|has) {_X}(?: have| got)?",
    rf"what is {_X}",
)(
    _per_player("role", "what is {who}'s identity", needs_roles=True))


@_QUESTIONS(r"who(?:'s| is| are) (?:the |a |an )?(?P<role>leaders?|guardians?|assassins?|traitors?)")
def _q_who_role(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.roles:
        return None
    role = _ROLE_WORDS[match["role"].lower()]
    players = tuple(reader.facts.players)
    return _Ask("role", f"who is {'the' if role == 'leader' else 'a'} {role.capitalize()}",
                (*(f"role({p})" for p in players), "in-game"), (), ("role-holders", players, role))


@_QUESTIONS(rf"(?:can|could|may) {_X} unveil(?: (?:now|their identity|his identity|her identity|yet))?")
def _q_can_unveil(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.roles:
        return None
    who = reader.refer(match["x"])
    return _Ask("can-unveil", f"can {who.words} unveil", _each(who, "can-unveil({p})"), who.players,
                ("all-true", _each(who, "can-unveil({p})")))


@_QUESTIONS(
    r"is (?:this|the|that|our) (?:table|setup|set-up|set up|game|deal|identity deck|deck|seating|"
    r"draw of identities)"
    r" (?:legal|allowed|valid|ok|okay|right)",
    r"is this (?:a )?(?:legal|valid) (?:setup|deal|table|game|identity deck|seating)",
    r"(?:are|were) (?:the|these|our) (?:identities|roles|teams|seats) (?:dealt )?(?:legal|valid|right|ok)",
    r"(?:is|was) (?:the|this) (?:identity deck|deal) (?:built|dealt) (?:right|correctly|legally)",
    r"legal setup",
)
def _q_legal(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("legal-setup", "is the setup legal", ("legal-setup",), headline=("value", "legal-setup"))


@_QUESTIONS(
    r"who(?:'s| is| are) (?:the )?defending players?",
    r"who(?:'s| is| are) defending",
    r"who (?:gets|can get|would get) attacked",
)
def _q_defending(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("defending-players", "who are the defending players", ("defending-players",),
                headline=("value", "defending-players"))


@_QUESTIONS(
    r"who (?:has|gets|receives|would get|will get|would have|will have|holds) priority",
    r"who(?:'s| is) (?:on|holding|given) priority",
    r"whose priority is it",
    r"who (?:can|may|gets to) (?:act|cast (?:a )?spells?|respond)(?: first)?",
    r"who (?:has|gets|receives) priority (?:first|next|now|then)",
    rf"(?:does|do|would|will) {_X} (?:have|get|receive|hold) priority(?: first| next| now| then)?",
)
def _q_priority(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.knows_question("priority") or not reader.facts.questions:
        return None
    if match.groupdict().get("x"):  # "does Cat have priority": yes or no, with the holder
        who = reader.refer(match["x"], one=True, alone=True)
        return _Ask("priority", f"does {who.words} receive priority", ("priority",), who.players,
                    ("member", "priority", who.players, False))
    return _Ask("priority", "who receives priority", ("priority",), headline=("value", "priority"))


_q_poison = _QUESTIONS(
    rf"how (?:much|many) poison(?: counters)? (?:does|do|would|will) {_X} have",
    rf"what(?:'s| is) {_X}{_POSS} poison(?: count| counters| total)?",
    rf"how (?:much|many) poison(?: counters)? (?:is|are) {_X} (?:at|on)",
)(
    _per_player("poison", "how many poison counters does {who} have", new=True))


@_QUESTIONS(rf"how many (?:counters |of them )?(?:does|do|would|will) {_X} have"
            r"(?: now| then| in total| total)?")
def _q_how_many_poison(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Dan gets one more poison counter, how many does he have": "how many" of what the sentence gave."""
    if reader.topic != "poison":
        return None
    return _q_poison_each(match, reader)


_q_poison_each = _per_player("poison", "how many poison counters does {who} have", new=True)


@_QUESTIONS(
    rf"how much commander damage (?:has|have|does|did) {_X} (?:taken|take|got|gotten|have|has)"
    rf"(?: (?:from|off|of) (?P<c>.+?))?",
    rf"how much (?P<c2>.+?) damage (?:has|have) {_X} taken",
)
def _q_commander_damage(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.knows_question("commander-damage") or not reader.facts.questions:
        return None
    who = reader.refer(match["x"], one=True, alone=True)
    named = match.groupdict().get("c") or match.groupdict().get("c2")
    commanders = [c for c, _owner in reader.facts.commanders]
    if named:
        chosen = [c for c in commanders if c.casefold() == named.strip().casefold()]
        if not chosen:  # "from Ann's commander": the commanders Ann owns
            owner = reader.owner(re.sub(rf"(?i){_POSS}(?: commander)?$", "", named.strip()))
            chosen = [c for c, o in reader.facts.commanders if o == owner]
        commanders = chosen
    if not commanders:
        return None
    player = who.players[0]
    questions = tuple(f"commander-damage({player}, {c})" for c in commanders)
    return _Ask("commander-damage", f"how much commander damage has {who.words} taken", questions, (player,),
                ("each-of", questions))


@_QUESTIONS(
    r"what (?:happens|would happen|will happen|changes|then)(?: next| now| then)?",
    r"what(?:'s| is) the (?:state of the )?(?:game|table)",
    r"what does (?:the|this) (?:table|game) look like",
)
def _q_what_happens(match: re.Match[str], reader: _Reader) -> _Ask:
    return _Ask("what-happens", "what happens", WHAT_HAPPENS)


# ---------------------------------------------------------------------------- happenings (events)

_MODAL = r"(?:(?:just|already|also|suddenly|finally|then|now|accidentally) )?(?:(?:were|was|is going|" \
    r"are going|decides|decided|decide|has|have|had|wants|want|chooses|choose|would|" \
    r"should|will|did|does|do|gets|get|needs|need|must|might|may|could) (?:to )?)?"
_CONCEDE = r"(?P<concede>concedes|conceded|concede|conceding|scoops|scooped|scoop|scoops up|scoop up|" \
    r"scoops it up|" \
    r"forfeits|forfeit|forfeited|gives up|give up|gave up|resigns|resign|resigned|has conceded|" \
    r"have conceded|" \
    r"taps the deck|extends the hand)"
_LOSE = r"(?P<lose>loses|lost|lose|dies|died|die|is eliminated|are eliminated|gets eliminated|" \
    r"get eliminated|" \
    r"got eliminated|was eliminated|were eliminated|is knocked out|are knocked out|gets knocked out|" \
    r"get knocked out|" \
    r"gets killed|get killed|is killed|are killed|was killed|got killed|is dead|are dead|has lost|" \
    r"have lost|" \
    r"has died|has been eliminated|have been eliminated|bites the dust|bites it|" \
    r"kicks the bucket|is toast|croaks|is knocked out of the game|" \
    r"goes down|" \
    r"is out|are out|goes out|go out|went out|is down|are down)"
_LEAVE = r"(?:leaves|left|leave|leaving|drops|dropped|drop|drops out|drop out|dropped out|quits|quit|" \
    r"is gone|" \
    r"are gone|has left|have left|is removed|gets removed|walks away|walks out|has to go|has to leave)"
_GAME = r"(?: (?:the|this) (?:game|table|match|pod))?"
_TOGETHER = r"(?: (?:at the same time|simultaneously|together|both|all|at once|too|as well|first))*"


def _leaving_words(ref: Ref, match: re.Match[str]) -> str:
    """ "Ann concedes", "Ann and Ben lose the game", "Cat leaves the game": the judge's own verb, restated."""
    if match.groupdict().get("concede"):
        return f"{ref.words} concede{ref.verb_s}"
    if match.groupdict().get("lose"):
        return f"{ref.words} lose{ref.verb_s} the game"
    return f"{ref.words} leave{ref.verb_s} the game"


@_HAPPENINGS(
    rf"{_X}{_TOGETHER} {_MODAL}{_CONCEDE}{_GAME}{_TOGETHER}",
    rf"{_X}{_TOGETHER} {_MODAL}{_LOSE}{_GAME}{_TOGETHER}",
    rf"{_X}{_TOGETHER} {_MODAL}{_LEAVE}{_GAME}{_TOGETHER}",
)
def _h_leaves(match: re.Match[str], reader: _Reader) -> _Happening:
    conceding = bool(match.groupdict().get("concede"))
    ref = reader.refer(match["x"], one=True)
    players = list(ref.players)
    gone = [p for p in players if p in reader.gone]
    if gone:
        raise _Unknown(f"{_names(gone)} already left the game in this question", match["x"])
    reader.gone.update(players)
    arg: Any = players[0] if len(players) == 1 else players
    return _Happening(({"concedes" if conceding else "leaves": arg},), _leaving_words(ref, match),
                      tuple(players), gone=tuple(players))


@_HAPPENINGS(
    rf"{_X}{_TOGETHER} (?:gets|got|is|was|are|get) decked(?: out)?{_TOGETHER}",
    rf"{_X} (?:decks|decked|deck)(?: out| themselves| himself| herself| themself)?",
    rf"{_X} (?:mills|milled|mill) (?:out|themselves|himself|herself)",
    rf"{_X} {_MODAL}(?:draws?|drew|tries to draw) (?:a card )?(?:from|with|off|out of) (?:an|their|his|"
    rf"her|the) "
    r"empty (?:library|deck)",
    rf"{_X} (?:runs|ran|run) out of (?:cards|library|deck)",
    # not "Ann can't draw": an effect that stops her drawing makes her draw nothing, and lose nothing (704.5b
    # needs an attempt to draw from an empty library)
)
def _h_decked(match: re.Match[str], reader: _Reader) -> _Happening:
    ref = reader.refer(match["x"], one=True)
    players = list(ref.players)
    reader.gone.update(players)
    arg: Any = players[0] if len(players) == 1 else players
    if reader.facts.knows_event("draw-from-empty") and reader.facts.events:
        event: Event = {"draw-from-empty": arg}
        return _Happening((event,), f"{ref.words} draw{ref.verb_s} from an empty library", tuple(players),
                          gone=tuple(players))
    # 704.5b: a player who attempted to draw from an empty library loses the game (a state-based action).
    return _Happening(({"leaves": arg},),
                      f"{ref.words} draw{ref.verb_s} from an empty library and lose{ref.verb_s} the "
                      f"game (704.5b)",
                      tuple(players), gone=tuple(players))


@_HAPPENINGS(
    rf"{_X} (?:goes|go|drops|drop|falls|fall|gets|get|is brought|is reduced|is knocked|gets knocked|is taken|"
    r"gets taken) (?:down )?to (?:0|zero)(?: life)?",
    rf"{_X} (?:hits|hit|reaches|reach|is at|are at|has|have) (?:0|zero) life",
    rf"{_X} {_MODAL}(?:loses|lost|lose|pays|paid|pay) (?:all|all of) (?:their|his|her|its)(?:'s)? "
    r"life(?: total)?",
)
def _h_zero_life(match: re.Match[str], reader: _Reader) -> _Happening:
    ref = reader.refer(match["x"], one=True)
    events: list[Event] = []
    for player in ref.players:
        life = reader.facts.life.get(player)
        if life is None or life <= 0:
            return _h_leaves(match, reader)
        events.append({"lose-life": {"player": player, "amount": life}})
    reader.gone.update(ref.players)
    return _Happening(tuple(events), f"{ref.words} go{'' if ref.verb_s == '' else 'es'} to 0 "
        f"life", ref.players,
                      gone=ref.players)


_HIT = rf"(?:hits|hit|connects with|connected with|connect with|smacks|smacked|punches|punched|" \
    rf"cracks|cracked|crack|smashes|smashed|bashes|bashed|clocks|clocked|gets through to|" \
    rf"get through to|" \
    rf"(?:deals|deal|dealt|does|do) (?:(?P<n>{_NUMBER}) )?(?:points? of )?(?:combat )?(?:damage )?to|" \
    r"swings (?:in )?(?:at|into) and hits)"
_FOR = rf"(?: (?:for|with) (?:(?P<amount>{_NUMBER})(?: (?:damage|points?|points? of damage))?" \
    r"(?P<each> each)?|" \
    r"(?P<lethal>lethal|exactly lethal|lethal damage|just enough to kill (?:him|her|them))))?"
#: The amount a creature deals "for lethal": the target's life total, filled in by :func:`_combat`.
LETHAL = -1
#: Words that change what a clause means: a name or a card's words taken freely ("with Thassa's Oracle",
#: "'s Grizzly Bears") never swallow them, so "Ann wins with Lab Man unless Ben responds" is not read as a
#: plain win (the search answers it).
_CLAUSE_WORDS = (r"(?:unless|but|except|if|not|no|never|nobody|doesn't|don't|didn't|isn't|aren't|can't|"
                 r"cannot|won't|wouldn't|instead|however|although|though|until|before|after|then|and|or|prevents?|"
                 r"prevented|blocks?|blocked|counters?|countered|responds?)")
_WORD = rf"(?!{_CLAUSE_WORDS}\b)[\w/+'.-]+"


def _free_words(most: int) -> str:
    """One to ``most`` words, none of them a clause word."""
    return rf"{_WORD}(?: {_WORD}){{0,{most - 1}}}"


_THING = rf"(?: {_WORD}){{1,3}}?"  # "'s creature", "'s 2/2", "'s Grizzly Bears"
_STEP = r"(?: (?:in combat|unblocked|and (?:(?:both|all|they|both of them|all of them|all three|all two) )?"\
    r"(?:connects|connect|hits|hit|gets through|get through|deals damage|deal damage)|" \
    r"and nothing is blocked|with (?:a|one) (?:creature|attacker)|" \
    r"and (?:it|they) (?:isn't|aren't|is not|are not) blocked|this turn|during combat))*"


def _lethal(reader: _Reader, target: str, said: str, touched_before: set[str]) -> int:
    """ "Dan hits Cat for lethal": as much damage as Cat's life total on the table (704.5a), when no earlier
    event of the question changed it (the reader does not keep life totals)."""
    life = reader.facts.life.get(target)
    if life is None or life <= 0 or target in touched_before:
        raise _Unknown(f"how much is lethal for {target} here? say the damage", said)
    return life


def _combat(reader: _Reader, source_text: str, target_text: str, amount: int, creatures: int = 1,
            *, words: str = "") -> _Happening:
    if reader.thing(target_text) is not None:  # "Dan hits Jace for 3": an attack on a permanent, not played
        raise _Unknown(f"not a player: {target_text}", target_text)
    touched_before = set(reader.touched)
    source = reader.refer(source_text, one=True, alone=True)
    target = reader.refer(target_text, one=True, alone=True)
    target = reader.affected(reader.someone_else(target_text, target, source.players[0]))
    a, t = source.players[0], target.players[0]
    if a == t:
        raise _Unknown(f"{a} can't deal combat damage to themselves here", target_text)
    if amount == LETHAL:
        amount = _lethal(reader, t, target_text, touched_before)
    creatures = max(1, min(creatures, 20))
    if creatures == 1:
        hit: Any = {"from": a, "to": t, "amount": amount}
        how = f"a creature {source.words} controls deals {amount} combat damage to {target.words}"
    else:
        share = [amount // creatures + (1 if i < amount % creatures else 0) for i in range(creatures)]
        hit = [{"from": a, "to": t, "amount": max(1, n)} for n in share]
        each = f"{share[0]} each" if len(set(share)) == 1 else ", ".join(str(max(1, n)) for n in share)
        how = (f"{creatures} creatures {source.words} controls deal combat damage to {target.words} "
               f"({each}, at the same time)")
    return _Happening(({"combat-damage": hit},), words or how, (a, t), extra=(f"life({t})",))


@_HAPPENINGS(
    rf"{_X}{_POSS}(?P<thing>{_THING}) {_HIT} {_Y}{_FOR}{_STEP}",
    rf"{_X}{_POSS}(?P<thing>{_THING}) (?:attacks?|attacked|swings? at|swung at|"
    rf"swings? into) {_Y}{_FOR}{_STEP}",
)
def _h_creature_hits(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if _not_combat(match):
        return None
    said = match.groupdict().get("n") or match["amount"]
    commander = _commander_of(reader, match["x"], match["thing"])
    if commander is not None:
        if match.groupdict().get("lethal"):
            raise _Unknown("how much is lethal here? say the commander's damage", match["lethal"])
        return _commander_hits(reader, commander, match["y"], said)
    counted = re.fullmatch(rf"(?P<count>{_NUMBER}) of (?P<owner>.+)", match["x"].strip(), re.IGNORECASE)
    if counted and not match.groupdict().get("lethal"):  # "two of Dan's creatures hit Cat for three each"
        creatures = _number(counted["count"])
        each = _number(said, _power(match["thing"]))
        total = each * creatures if match["each"] or not said else each
        return _combat(reader, counted["owner"], match["y"], total, creatures)
    amount = LETHAL if match.groupdict().get("lethal") else _number(said, _power(match["thing"]))
    return _combat(reader, match["x"], match["y"], amount)


def _commander_hits(reader: _Reader, commander: str, target_text: str, said: str | None) -> _Happening:
    """A commander's combat damage (903.10a): its power unless an amount is said."""
    target = reader.affected(reader.refer(target_text, one=True, alone=True))
    amount = _number(said, 0)
    hit: dict[str, Any] = {"creature": commander, "to": target.players[0]}
    if amount:
        hit["amount"] = amount
    words = f"{commander} deals {amount or 'its'} combat damage to {target.words}".replace("its combat",
                                                                                         "combat")
    return _Happening(({"combat-damage": hit},), words, target.players,
                      extra=(f"life({target.players[0]})",
                             f"commander-damage({target.players[0]}, {commander})"))


def _named_commander(reader: _Reader, text: str) -> str | None:
    """ "Krenko" (or "Ann's Krenko") as the one dealing damage: a commander on the table, by its name."""
    if not reader.facts.commanders or not reader.facts.knows_question("commander-damage"):
        return None
    name = re.sub(rf"(?i)^.+?{_POSS} ", "", text.strip())
    return next((c for c, _owner in reader.facts.commanders if c.casefold() == name.casefold()), None)


def _commander_of(reader: _Reader, owner_text: str, thing: str | None) -> str | None:
    """ "Ann's commander" or "Ann's Krenko": a commander on the table that Ann owns, when the model knows
    creatures in combat (issue 13); None otherwise (the damage is then a creature Ann controls)."""
    if not reader.facts.commanders or not reader.facts.knows_question("commander-damage"):
        return None
    owner = reader.owner(owner_text)
    words = (thing or "").strip().casefold()
    mine = [c for c, o in reader.facts.commanders if o == owner]
    # "Ann's commander Krenko", "Ann's big Krenko", "with Krenko": its name among the words, else the word
    # "commander" with one commander to mean (read as a plain creature, its damage would not count, 903.10a)
    named = [c for c in mine if re.search(rf"(?<![\w'-]){re.escape(c.casefold())}(?![\w'-])", words)]
    if named:
        return named[0] if len(named) == 1 else None
    if {"commander", "general"} & set(re.findall(r"[\w'-]+", words)):
        return mine[0] if len(mine) == 1 else None
    return None


def _power(thing: str | None) -> int:
    """The power of a creature described as "a 2/2" (1 when not said: enough for any designation).

    >>> _power(" 3/3 Beast"), _power(" dragon")
    (3, 1)
    """
    found = re.search(r"\b(\d{1,2})/\d{1,2}(?=s?\b)", thing or "")  # "a 2/2", "two 2/2s"
    return int(found[1]) if found else 1


#: What deals damage outside combat: "with a spell", "Ben's Shock". Damage from these never moves the crown
#: or the initiative (725.2, 726.2), so it must not be read as a creature's combat damage.
_NONCOMBAT_SOURCES = frozenset((
    "spell", "spells", "ability", "abilities", "effect", "effects", "instant", "sorcery", "burn", "bolt",
    "shock", "fireball", "trigger", "triggers", "ping", "pinger", "card", "enchantment", "artifact",
    "planeswalker", "walker", "fight", "fights", "sweeper", "wrath",
))


def _not_combat(match: re.Match[str]) -> bool:
    """Is the damage said to come from something other than a creature in combat? Also "Ben deals 3 damage
    to Cat" with no creature and no "combat": the words say damage, not a hit (read as noncombat)."""
    thing = (match.groupdict().get("thing") or "").strip().lower()
    if thing and thing.split()[-1] in _NONCOMBAT_SOURCES:
        return True
    said = match[0].lower()
    dealt = re.search(r"\b(?:deals|deal|dealt|does|do) (?:\S+ )?(?:points? of )?(combat )?(?:damage )?to\b",
                      said)
    return bool(dealt and not dealt[1] and not thing)


_COUNT = rf"(?P<count>{_NUMBER}|some|several|two of (?:his|her|their)|all (?:his|her|their)|his|her|their)"


_WITH = rf"(?: with (?:(?:a|an|one|{_COUNT}) )?(?P<thing>{_WORD}(?: {_WORD}){{0,2}}?))?"


@_HAPPENINGS(
    rf"{_X} {_HIT} {_Y}{_WITH}{_FOR}{_STEP}",
    rf"{_X} (?:attacks|attacked|attack|swings at|swings into|swung at|swing at|goes after|went after|"
    rf"go after|"
    rf"sends (?:creatures|attackers|everything) at) {_Y}{_WITH}{_FOR}{_STEP}",
)
def _h_player_hits(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if _not_combat(match):
        return None  # "Ben deals 3 damage to Cat with a spell": noncombat damage, read by _h_damage
    commander = _named_commander(reader, match["x"]) or \
        _commander_of(reader, match["x"], match.groupdict().get("thing"))
    if commander is not None:  # "Krenko connects with Ben for seven", "Ann hits Ben with Krenko"
        if match.groupdict().get("lethal"):
            raise _Unknown("how much is lethal here? say the commander's damage", match["lethal"])
        return _commander_hits(reader, commander, match["y"], _said(match, "n", "amount"))
    if match.groupdict().get("lethal"):  # "Dan swings at Cat for lethal"
        return _combat(reader, match["x"], match["y"], LETHAL)
    count_text = (match.groupdict().get("count") or "").lower()
    creatures = _number(count_text, 1) if re.fullmatch(_NUMBER, count_text or "x") else 1
    total = match.groupdict().get("amount")
    each = bool(match.groupdict().get("each"))
    amount = _number(match.groupdict().get("n") or total, creatures * _power(match["thing"]))
    if each:
        amount *= creatures
    return _combat(reader, match["x"], match["y"], amount, creatures)


@_HAPPENINGS(
    rf"{_Y} (?:is|gets|got|was) (?:hit|attacked|punched|smacked) by {_X}(?:{_POSS}(?P<thing>{_THING}))?{_FOR}"
    rf"{_STEP}",
    rf"{_Y} (?:takes|took|"
    rf"take) (?:(?P<n>{_NUMBER}) )?(?:points? of )?(?:combat|commander) damage from {_X}"
    rf"(?:{_POSS}(?P<thing>{_THING}))?"
    rf"{_STEP}",
    # "takes 3 from Ben's creature": a creature's damage is combat damage here
    rf"{_Y} (?:takes|took|take|gets hit for) (?P<n2>{_NUMBER})(?: (?:points? of )?damage)? from {_X}{_POSS}"
    rf"(?P<thing>{_THING})",
)
def _h_is_hit(match: re.Match[str], reader: _Reader) -> _Happening:
    reader.refer(match["y"], one=True, alone=True)  # the one hit is the subject: "… then concedes" is Cat
    commander = _named_commander(reader, match["x"]) or \
        _commander_of(reader, match["x"], match.groupdict().get("thing"))
    lethal = match.groupdict().get("lethal")
    if commander is not None:  # "Ben gets hit by Krenko for 7", "… by Ann's commander"
        if lethal:
            raise _Unknown("how much is lethal here? say the commander's damage", lethal)
        return _commander_hits(reader, commander, match["y"], _said(match, "n", "n2", "amount"))
    amount = LETHAL if lethal else _number(_said(match, "n", "n2", "amount"))
    return _combat(reader, match["x"], match["y"], amount)


@_HAPPENINGS(
    rf"{_X} (?:deals|deal|dealt|does) (?P<n>{_NUMBER}) (?:noncombat )?(?:damage )?to {_Y}"
    rf"(?: with {_free_words(6)})?",
    rf"{_X}{_POSS} (?:[\w'-]+ ){{0,2}}?(?:spell|ability|effect|instant|sorcery|burn spell|trigger|shock|bolt)"
    rf" (?:deals|deal|dealt|does) (?P<n2>{_NUMBER}) (?:noncombat )?damage to {_Y}",
    rf"{_X} (?:burns|pings|shocks|bolts|zaps) {_Y}(?: for (?P<amount>{_NUMBER}))?(?: damage)?",
)
def _h_damage(match: re.Match[str], reader: _Reader) -> _Happening:
    source = reader.refer(match["x"], one=True, alone=True)
    target = reader.refer(match["y"], one=True, alone=True)
    # "Dan burns her": a plain object pronoun never means the clause's own subject
    target = reader.affected(reader.someone_else(match["y"], target, source.players[0]))
    amount = _number(_said(match, "n", "n2", "amount"))
    return _Happening(({"damage": {"to": target.players[0], "amount": amount, "from": source.players[0]}},),
                      f"{source.words} deals {amount} noncombat damage to {target.words}",
                      (source.players[0], target.players[0]), extra=(f"life({target.players[0]})",))


@_HAPPENINGS(
    rf"{_Y} (?:takes|took|"
    rf"take) (?P<n>{_NUMBER}) (?:points? of )?(?:noncombat )?damage(?: from {_X})?",
    rf"{_Y} (?:takes|took|take) (?P<n2>{_NUMBER}) from {_X}",  # "takes seven from Cat": said of damage
)
def _h_takes_damage(match: re.Match[str], reader: _Reader) -> _Happening:
    commander = _named_commander(reader, match.groupdict().get("x") or "")
    if commander is not None:  # "Ben takes 7 from Krenko": a creature's damage, read as in combat
        return _commander_hits(reader, commander, match["y"], _said(match, "n", "n2"))
    target = reader.affected(reader.refer(match["y"], one=True, alone=True))
    amount = _number(_said(match, "n", "n2"))
    if match.groupdict().get("x") and "noncombat" not in match[0].lower():
        _combat_or_not(reader, target.players[0], match[0])
    event: dict[str, Any] = {"to": target.players[0], "amount": amount}
    players = [target.players[0]]
    if match.groupdict().get("x"):
        source = reader.refer(match["x"], one=True, alone=True)
        event["from"] = source.players[0]
        players.insert(0, source.players[0])
    return _Happening(({"damage": event},), f"{target.words} takes {amount} noncombat damage", tuple(players),
                      extra=(f"life({target.players[0]})",))


def _combat_or_not(reader: _Reader, target: str, said: str) -> None:
    """ "Cat takes ten from Dan" says damage, not whether a creature dealt it in combat. Read as noncombat
    damage it moves no designation; when the player hit holds the crown or the initiative, or the sentence
    asks about them, the answer turns on that (725.2, 726.2), so it is asked rather than guessed."""
    holders = {reader.facts.monarch, reader.facts.initiative}
    if target in holders or re.search(r"(?i)\b(?:monarch|crown|king|queen|initiative)\b", reader.sentence):
        raise _Unknown(f"'{said.strip()}': combat damage from a creature, or damage from a spell or ability? "
                       "say 'hits' or 'burns'", said)


@_HAPPENINGS(
    rf"{_X} {_MODAL}(?P<verb>loses|lost|lose|pays|paid|pay|gains|gained|gain) (?P<n>{_NUMBER}) life",
    # "pays four life and then gains two": the unit said once (not for "pays two", which may be mana)
    rf"{_X} {_MODAL}(?P<verb>loses|lost|lose|gains|gained|gain) (?P<n>{_NUMBER})(?: more)?",
)
def _h_life(match: re.Match[str], reader: _Reader) -> _Happening:
    who = _team_or_player(reader, match["x"])
    gain = match["verb"].lower().startswith("gain")
    amount = _number(match["n"])
    verb = ("gain" if gain else "lose") + ("s" if who.verb_s else "")
    return _each_player(who, "gain-life" if gain else "lose-life", "amount", amount,
                        f"{who.words} {verb} {amount} life", "life")


def _each_player(who: Ref, event: str, key: str, value: int, words: str, then: str) -> _Happening:
    """One ``event: {player: X, key: value}`` per player named, and the question ``then(X)`` to ask after."""
    if len(who.players) > 1 and "team" in who.words.lower():
        # "Cat's team gets 15 poison": said of a team, not of each player. A Two-Headed Giant team shares
        # one life total and one poison count (810.4, 810.10), so N each would be 2N for the team.
        raise _Unknown(f"{who.words}: said of the team, not of each player - say which player", who.words)
    events = tuple({event: {"player": p, key: value}} for p in who.players)
    return _Happening(events, words, who.players, extra=tuple(f"{then}({p})" for p in who.players))


def _affected_player(reader: _Reader, text: str) -> Ref:
    return reader.affected(reader.refer(text, one=True))


def _team_or_player(reader: _Reader, text: str) -> Ref:
    """The player an amount is said of, or a team sharing one total (Two-Headed Giant: "Ann's team loses 10
    life" is the team's total, once)."""
    group = reader.refer(text)
    shared = reader.shared_total(group) if len(group.players) > 1 else None
    return reader.affected(shared) if shared else _affected_player(reader, text)


def _said(match: re.Match[str], *groups: str) -> str | None:
    """The first of several alternative groups that matched (each regex of a rule names its own)."""
    return next((match.groupdict()[g] for g in groups if match.groupdict().get(g)), None)


@_HAPPENINGS(
    rf"{_X} {_MODAL}(?:draws|drew|draw) (?:(?P<n>{_NUMBER}) (?:extra |more )?cards?|a card|an extra card|"
    r"(?P<n2>\d+))(?: (?:from an effect|off an effect|with an effect|for the turn))?",
)
def _h_draw(match: re.Match[str], reader: _Reader) -> _Happening:
    who = _affected_player(reader, match["x"])
    count = _number(_said(match, "n", "n2"))
    words = f"{who.words} draw{who.verb_s} {count} card{'s' if count != 1 else ''}"
    return _each_player(who, "draw", "count", count, words, "draws")


@_HAPPENINGS(
    rf"{_X} (?:gets|got|get|receives|takes|is given|gains) (?P<n>{_NUMBER}) (?:more )?poison(?: counters?)?",
    rf"{_Y} (?:gives|gave|give|deals) {_X} (?P<n2>{_NUMBER}) (?:more )?poison(?: counters?)?",
    rf"{_X} (?:is|gets) (?:hit|poisoned) for (?P<n3>{_NUMBER})(?: poison(?: counters?)?)?",
)
def _h_poison(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("poison"):
        return None
    who = _team_or_player(reader, match["x"])
    reader.topic = "poison"  # "… how many does he have"
    count = _number(_said(match, "n", "n2", "n3"))
    words = f"{who.words} get{who.verb_s} {count} poison counter{'s' if count != 1 else ''}"
    return _each_player(who, "poison", "count", count, words, "poison")


@_HAPPENINGS(
    rf"{_X}{_POSS} life (?:total )?(?:becomes|is set to|goes to|is now|turns into|drops to|falls to|"
    rf"is) (?P<n>{_NUMBER})",
    rf"(?:set|make) {_X}{_POSS} life(?: total)? (?:to )?(?P<n3>{_NUMBER})",
    # "Ann is at one life": the table as it stands, said as a life total
    rf"{_X} (?:is|are|was|sits|goes|drops|falls|gets) (?:at|on|down to|to) (?P<n2>{_NUMBER}) life",
)
def _h_set_life(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("set-life"):
        return None
    who = _affected_player(reader, match["x"])
    life = _number(_said(match, "n", "n2", "n3"), 0)
    return _each_player(who, "set-life", "life", life, f"{who.words}'s life total becomes {life}", "life")


@_HAPPENINGS(
    rf"(?:an effect (?:says|makes) )?{_X} {_MODAL}(?:takes|take|gets|get|took) (?:an|another|one more) extra "
    r"turn(?: after this one)?",
    rf"(?:an effect (?:says|makes) )?{_X} {_MODAL}(?:takes|take|gets|get|took) (?P<n>{_NUMBER}) extra turns"
    r"(?: after this one)?",
)
def _h_extra_turn(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("extra-turn"):
        return None
    who = reader.refer(match["x"], one=True, alone=True)
    count = _number(match.groupdict().get("n"))
    if not 1 <= count <= 10:
        return None
    # one effect at a time, each adding a turn right after this one (500.7)
    words = f"{who.words} takes {'an extra turn' if count == 1 else f'{count} extra turns'} after this one"
    return _Happening(({"extra-turn": who.players[0]},) * count, words, who.players)


#: "with nothing on the stack": what 117.4 needs for the step to end, said; passing as read here already
#: means an empty stack (the model's pass-priority event), so the words change nothing.
_EMPTY_STACK = r"(?:,? (?:with|and|while) (?:nothing on the stack|an empty stack|the stack (?:is )?empty|" \
    r"no spells? on the stack))?"


@_HAPPENINGS(
    rf"(?:everyone|everybody|all players|all|every player) pass(?:es)? priority(?: in succession)?"
    rf"{_EMPTY_STACK}",
    rf"{_X} (?:passes|passed|pass) priority(?: in succession)?{_EMPTY_STACK}",
)
def _h_pass_priority(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("pass-priority"):
        return None
    reader.topic = "priority"
    if match.groupdict().get("x"):
        who = reader.refer(match["x"], one=True, alone=True)
        return _Happening(({"pass-priority": who.players[0]},), f"{who.words} passes priority", who.players)
    # everyone: one pass each, in succession (117.4), a Two-Headed Giant team passing as one (805.5b)
    sides = len({reader.facts.teams.get(p, p) for p in reader.playing()}) \
        if reader.facts.shared_turns else len(reader.playing())
    return _Happening(("pass-priority",) * sides, "every player passes priority in succession", ())


@_HAPPENINGS(
    rf"an? (?:effect|card|spell|ability) (?:says|makes|forces) {_X} (?:to )?"
    r"(?:loses?|lose the game|loses the game)",
    rf"{_X} (?:loses|lose) (?:the game )?(?:to|from|by|because of) an? (?:effect|card|spell|ability)",
)
def _h_effect_loses(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.events or not reader.facts.knows_event("loses"):
        return None
    who = reader.refer(match["x"], one=True)
    reader.gone.update(who.players)
    arg: Any = who.players[0] if len(who.players) == 1 else list(who.players)
    return _Happening(({"loses": arg},), f"an effect says {who.words} lose{who.verb_s} the game", who.players,
                      gone=who.players)


@_HAPPENINGS(
    rf"{_X} {_MODAL}(?:becomes|became|become|is made|gets made|is now|turns into) {_KING}",
    rf"{_X} {_MODAL}(?:takes|took|take|gets|get|gains|gain|steals|steal|receives) {_CROWN}(?: (?:with|"
    rf"from|by) "
    r"(?:an|a) (?:effect|card|spell|ability))?",
)
def _h_become_monarch(match: re.Match[str], reader: _Reader) -> _Happening:
    who = reader.refer(match["x"], one=True, alone=True)
    return _Happening(({"become-monarch": who.players[0]},), f"{who.words} becomes the monarch", who.players)


@_HAPPENINGS(
    rf"{_X} {_MODAL}(?:takes|took|take|gets|get|gains|gain|receives|takes over) {_THE_INITIATIVE}",
)
def _h_take_initiative(match: re.Match[str], reader: _Reader) -> _Happening:
    who = reader.refer(match["x"], one=True, alone=True)
    return _Happening(({"take-initiative": who.players[0]},), f"{who.words} takes the initiative",
                      who.players)


@_HAPPENINGS(rf"{_X} {_MODAL}(?:wins|won|win)(?: the game)?(?: (?:with|through|by|via|off|thanks to) "
             rf"{_free_words(8)})?")
def _h_wins(match: re.Match[str], reader: _Reader) -> _Happening:
    who = reader.refer(match["x"], one=True, alone=True)
    return _Happening(({"wins": who.players[0]},), f"an effect says {who.words} wins the game", who.players)


@_HAPPENINGS(
    rf"{_X} {_MODAL}(?:unveils|unveiled|unveil|reveals (?:their|his|her) identity|flips (?:their|his|her) "
    r"identity(?: card)?(?: face up)?|turns (?:their|his|her) identity(?: card)? face up)",
)
def _h_unveil(match: re.Match[str], reader: _Reader) -> _Happening | None:
    if not reader.facts.roles:
        return None
    who = reader.refer(match["x"], one=True)
    return _Happening(tuple({"unveil": p} for p in who.players), f"{who.words} unveil{who.verb_s}",
                      who.players)


# --- time


def _turns_until(reader: _Reader, player: str, *, next_one: bool) -> int:
    """How many ``next-turn`` events until ``player``'s turn (0: it is their turn now)."""
    order = [p for p in (reader.facts.turn_order or reader.facts.playing) if p not in reader.gone]
    if player not in order:
        raise _Unknown(f"{player} is not in the game, so takes no turn", player)
    active = [p for p in reader.facts.active if p not in reader.gone]
    has_active = bool(active) and order and order[0] in active
    if len(active) > 1:
        if not reader.facts.shared_turns or not reader.facts.teams:
            if player in active and not next_one:
                return 0
            # Grand Melee: several turn markers move at once (807.4c-d); which turn is Cat's is not a count
            raise _Unknown("several players take turns at once at this table - ask without naming a "
                           "later turn", player)
        # shared team turns (805.4): a turn is a team's, so the count is in teams, not seats
        order = list(dict.fromkeys(reader.facts.teams.get(p, p) for p in order))
        player = reader.facts.teams.get(player, player)
    steps = order.index(player) + (0 if has_active else 1)
    if steps == 0 and next_one:
        steps = len(order)
    return steps


#: The steps of a turn a table's events can have reached, in order (``TableFacts.step``).
STEPS = ("", "upkeep", "combat", "end-step")


def _past(reader: _Reader, step: str) -> bool:
    """Has the current turn reached ``step`` already (by the table's own events)? Then "the upkeep" is the
    next turn's: a step never comes round twice in a turn."""
    return STEPS.index(reader.facts.step) >= STEPS.index(step) if reader.facts.step in STEPS else False


def _time_owner(reader: _Reader, text: str | None) -> str | None:
    if not text:
        return None
    text = re.sub(rf"(?i){_POSS}$", "", text.strip())
    if text.lower() in ("the", "this", "the current", "the active player"):
        return None
    subject, focus = reader.subject, reader.focus
    if re.fullmatch(_PRONOUN, text, re.IGNORECASE) and subject is not None and focus is not None \
            and focus.players != subject.players:
        # "Ben hits Cat, who draws at the end of his turn": Ben's or Cat's; the answer turns on it
        raise _Unknown(f"whose turn is '{text} turn'? name the player", text)
    return reader.refer(text, one=True, alone=True).players[0]


@_HAPPENINGS(
    rf"(?:(?P<x>.+?){_POSS} |the |this |a |another |one )?turn (?:ends|is over|passes|finishes|goes by)",
    rf"{_X} (?:ends|passes|finishes|end|pass) (?:(?:their|his|her)(?:'s)? |the )?turn",
    r"(?:we )?(?:go|move|pass|get) to the next turn",
    r"(?:the )?next turn(?: (?:starts|begins|comes))?",
    r"(?:at |in )?the (?:start|beginning) of the next turn",
    r"a new turn (?:starts|begins)",
    r"(?:the )?turn passes",
)
def _h_next_turn(match: re.Match[str], reader: _Reader) -> _Happening:
    owner = _time_owner(reader, match.groupdict().get("x"))
    if owner is not None:  # "Cat's turn ends": every turn until hers, and hers
        if reader.gone:  # "Ben concedes after Dan's turn ends": read first, Ben's leaving skews the count
            raise _Unknown(f"which turn is '{owner}'s turn'? ask without the leaving", match[0])
        steps = _turns_until(reader, owner, next_one=False) + 1
        return _Happening(("next-turn",) * steps, f"{owner}'s turn ends and the next one begins", (owner,))
    return _Happening(("next-turn",), "the turn ends and the next one begins")


_TIMES = {"once": 1, "twice": 2, "thrice": 3}


@_HAPPENINGS(
    rf"(?:the )?turns? (?:passes|pass|goes by|go by|ends|end) (?P<n>once|twice|thrice|{_NUMBER} times)",
    rf"(?:after |in )?(?P<n>{_NUMBER}) (?:more )?turns(?: (?:pass|go by|later|from now|have passed))?",
    rf"(?:we )?(?:go|skip|move) (?:forward |ahead )?(?P<n>{_NUMBER}) turns(?: (?:ahead|forward|later))?",
)
def _h_turns_pass(match: re.Match[str], reader: _Reader) -> _Happening | None:
    """ "the turn passes twice", "two turns later": that many turns end, one after the other."""
    said = match["n"].lower().removesuffix(" times")
    count = _TIMES.get(said) or _number(said, 0)
    if not 1 <= count <= 20:
        return None
    return _Happening(("next-turn",) * count,
                      f"{count} turn{'s' if count > 1 else ''} end, one after the other")


@_HAPPENINGS(
    rf"(?:at |in |on )?(?:the )?(?:start|beginning) of (?P<x>.+?){_POSS} (?P<next>next )?turn",
    rf"(?:on|during|in) (?P<x2>.+?){_POSS} (?P<next2>next )?turn",
    rf"(?:when|once) it(?:'s| is) (?P<x3>.+?){_POSS} turn",
)
def _h_turn_of(match: re.Match[str], reader: _Reader) -> _Happening | None:
    owner = _time_owner(reader, _said(match, "x", "x2", "x3"))  # each regex names its own group
    if owner is None:
        return None
    steps = _turns_until(reader, owner, next_one=bool(_said(match, "next", "next2")))
    return _Happening(("next-turn",) * steps, f"{owner}'s turn begins", (owner,))


_END = r"(?:(?:the )?end of (?:the )?turn|eot|(?:the )?(?:beginning of (?:the )?)?end step|end of turn)"


@_HAPPENINGS(
    rf"(?:at )?{_END}(?: (?:comes|begins|starts|arrives))?",
    rf"(?:we )?(?:get|go|move|pass) to {_END}",
    rf"(?:at |in |during )?(?:the )?(?:beginning of )?(?:end step|"
    rf"end) of (?P<x>.+?){_POSS} (?P<next>next )?turn",
    rf"(?:at |in |during )?(?P<x2>.+?){_POSS} (?P<next2>next )?end step",
    rf"{_X} (?:gets|goes|moves) to (?:their|his|her) end step",
)
def _h_end_step(match: re.Match[str], reader: _Reader) -> _Happening:
    owner = _time_owner(reader, match.groupdict().get("x") or match.groupdict().get("x2"))
    events: tuple[Event, ...] = ()
    nxt = bool(match.groupdict().get("next") or match.groupdict().get("next2"))
    if owner is not None:
        events = ("next-turn",) * _turns_until(reader, owner, next_one=nxt or _past(reader, "end-step"))
    elif _past(reader, "end-step") and not reader.gone:
        # the table is in its end step: "at the end of turn" could be this one (its draw is done) or the next
        raise _Unknown("the table is in the end step already - say whose end step", match[0])
    whose = f"{owner}'s" if owner else "the active player's"
    return _Happening((*events, "end-step"), f"{whose} end step begins", (owner,) if owner else (),
                      extra=tuple(f"draws({p})" for p in reader.facts.players))


@_HAPPENINGS(
    r"(?:at |in |during )?(?:the )?(?:beginning of (?:the )?)?(?:next )?upkeep(?: (?:comes|begins|starts))?",
    rf"(?:at |in |during )?(?:the )?(?:beginning of )?(?P<x>.+?){_POSS} (?P<next>next )?upkeep",
)
def _h_upkeep(match: re.Match[str], reader: _Reader) -> _Happening:
    owner = _time_owner(reader, match.groupdict().get("x"))
    events: tuple[Event, ...] = ()
    past = _past(reader, "upkeep")  # a file's table in combat: "the upkeep" is the next turn's
    if owner is not None:
        events = ("next-turn",) * _turns_until(reader, owner,
                                               next_one=bool(match.groupdict().get("next")) or past)
    elif past:
        events = ("next-turn",)
    whose = f"{owner}'s" if owner else "the next turn's" if past else "the active player's"
    return _Happening((*events, "upkeep"), f"{whose} upkeep begins", (owner,) if owner else (),
                      extra=tuple(f"ventures({p})" for p in reader.facts.players))


# ------------------------------------------------------------------------------------------ sentences

_CONNECTOR = r"(?:if|when|whenever|after|once|as soon as|should|in case|now that|right after|the moment|" \
    r"assuming|" \
    r"supposing|given that|upon|say|suppose|imagine|let's say|at|in|during|on)"
_QUESTION_START = re.compile(
    r"\b(?:who|whom|whose|what|which|where|can|could|may|is|are|does|do|did|will|would|how|has|have)\b",
    re.IGNORECASE,
)
_TURN_MODIFIER = re.compile(
    rf"^(?P<rest>.+?),? (?:on|during|in) (?P<whose>(?:their|his|her|its)|"
    rf".+?{_POSS}) (?:own )?turn$", re.IGNORECASE)
_SPLIT = re.compile(r",? and then |,? then |,? (?:and )?(?:after that|afterwards|later),? |,? and next,? |"
                    r"; |, and | and |, (?=\w)|\. ", re.IGNORECASE)
#: Words that put two events in order against the order they are said in: "A after B" is B then A.
_ORDER = re.compile(r" (?P<word>after|before|once|when|as soon as) (?!that\b|this\b)", re.IGNORECASE)
_ORDER_FIRST = re.compile(r"^(?P<word>after|before|once|as soon as) ", re.IGNORECASE)


def _clause(text: str, reader: _Reader) -> list[_Happening]:
    """One clause: an event, possibly "during Ben's turn" (the turns pass until then, first)."""
    try:
        return [_HAPPENINGS.first(text, reader, "an event")]
    except _Unknown as error:
        modifier = _TURN_MODIFIER.match(text)
        if not modifier:
            timed = _at_a_time(text, reader)
            if timed is None:
                raise
            return timed
        first = error
    happening = _HAPPENINGS.first(modifier["rest"], reader, "an event")
    whose = modifier["whose"]
    if re.fullmatch(rf"{_PRONOUN}(?:{_POSS})?", whose.strip(), re.IGNORECASE) and reader.subject is not None \
            and reader.focus is not None and reader.focus.players != reader.subject.players:
        # "Ben hits Cat on his own turn": the one who acts; without "own", "his" may be either: not guessed
        if not re.search(r"(?i) own turn$", text):
            said = re.sub(rf"(?i){_POSS}$", "", whose.strip())
            raise _Unknown(f"whose turn is '{said} turn'? name the player", whose)
        reader.focus = None
    owner = _time_owner(reader, whose)
    if owner is None:
        raise first
    saved = reader.save()
    reader.gone.difference_update(happening.gone)
    steps = _turns_until(reader, owner, next_one=False)
    reader.restore(saved)
    words = happening.words + (f" during {owner}'s turn" if steps else "")
    return [replace(happening, events=(*("next-turn",) * steps, *happening.events), words=words)]


_TIME_EVENTS = frozenset(("next-turn", "end-step", "upkeep"))


def _at_a_time(text: str, reader: _Reader) -> list[_Happening] | None:
    """ "Cat concedes at the end of turn", "Ann concedes in Ben's upkeep": the time comes first, then the
    event. Only a time the reader knows: "Cat concedes during combat" is not read (the model has no combat
    step to stop at)."""
    saved = reader.save()
    for cut in re.finditer(r",? (?=(?:at|during|in|on) )", text, re.IGNORECASE):
        reader.restore(saved)
        try:
            time = _HAPPENINGS.first(text[cut.end():], reader, "a time")  # the turns before it first
            event = _HAPPENINGS.first(text[: cut.start()], reader, "an event")
        except _Unknown:
            continue
        if time.events and all(isinstance(e, str) and e in _TIME_EVENTS for e in time.events):
            return [time, event]
    reader.restore(saved)
    return None


def _happenings(text: str, reader: _Reader, depth: int = 0) -> list[_Happening]:
    """Clauses in order: "Ann concedes and then Ben's creature hits Cat" is two events, one after the other;
    "Ann and Ben concede" is one (they leave at the same time); "Cat concedes after Ben hits her" and
    "before Cat concedes, Ben hits her" are Ben's hit, then Cat's conceding."""
    text = _trim(text)
    saved = reader.save()
    try:
        return _clause(text, reader)
    except _Unknown as error:
        first = error
    if depth > 3:
        raise first
    for read in (_in_sequence, _in_order_said):
        reader.restore(saved)
        found = read(text, reader, depth)
        if found is not None:
            return found
    reader.restore(saved)
    raise first


def _in_sequence(text: str, reader: _Reader, depth: int) -> list[_Happening] | None:
    """ "A and then B", "A, B": the events as said; "Ben hits Cat and then concedes": Ben, said once."""
    saved = reader.save()
    for split in _SPLIT.finditer(text):
        reader.restore(saved)
        left, right = text[: split.start()], text[split.end():]
        try:
            head = _clause(_trim(left), reader)
        except _Unknown:
            continue
        after_head = reader.save()
        subject = reader.subject.players[0] if reader.subject and len(reader.subject.players) == 1 else None
        for tail in (right, f"{subject} {right}" if subject else None):
            if tail is None:
                continue
            reader.restore(after_head)
            try:
                return [*head, *_happenings(tail, reader, depth + 1)]
            except _Unknown:
                continue
    return None


def _in_order_said(text: str, reader: _Reader, depth: int) -> list[_Happening] | None:
    """ "A after B" (B, then A), "A before B" (A, then B), "before B, A" and "after B, A"."""
    saved = reader.save()
    leading = _ORDER_FIRST.match(text)
    if leading:  # "before B, A": where B ends is where a clause ends
        rest = text[leading.end():]
        cuts = [m.start() for m in re.finditer(r",? ", rest)]
        for cut in cuts:
            reader.restore(saved)
            said_first, said_second = rest[:cut], rest[cut:].lstrip(", ")
            try:
                first = _clause(_trim(said_first), reader)
                second = _happenings(said_second, reader, depth + 1)
            except _Unknown:
                continue
            before = leading["word"].lower() == "before"
            return [*second, *first] if before else [*first, *second]
    for order in _ORDER.finditer(text):
        reader.restore(saved)
        said_first, said_second = text[: order.start()], text[order.end():]
        try:
            first = _happenings(said_first, reader, depth + 1)
            second = _happenings(said_second, reader, depth + 1)
        except _Unknown:
            continue
        before = order["word"].lower() == "before"
        return [*first, *second] if before else [*second, *first]
    return None


def _ask(text: str, reader: _Reader) -> _Ask:
    """One question, or two joined by "and": "who has the monarch and (who has) the initiative"."""
    text = _trim(text)
    saved = reader.save()
    try:
        return _QUESTIONS.first(text, reader, "a question")
    except _Unknown as error:
        first = error
    for joint in re.finditer(r",? and (?:also )?", text, re.IGNORECASE):
        reader.restore(saved)
        left, right = text[: joint.start()], text[joint.end():]
        try:
            one = _QUESTIONS.first(left, reader, "a question")
        except _Unknown:
            continue
        words = left.split()
        # the second said in full, or sharing the first's opening words ("who has X and [who has] Y")
        for cut in range(0, len(words)):
            second = right if cut == 0 else " ".join([*words[:cut], right])
            try:
                other = _QUESTIONS.first(second, reader, "a question")
            except _Unknown:
                continue
            return _both(one, other)
    reader.restore(saved)
    raise first


def _ask_with_time(text: str, reader: _Reader) -> tuple[list[_Happening], _Ask]:
    """A question, or a question with its own later event: "(if Ann becomes the monarch) who draws at the
    end of turn" is the end step after the first event, then the question."""
    saved = reader.save()
    try:
        return [], _ask(text, reader)
    except _Unknown as error:
        first = error
    for connector in re.finditer(rf"(?<= ){_CONNECTOR}(?= )", text, re.IGNORECASE):
        reader.restore(saved)
        question, condition = text[: connector.start() - 1], text[connector.end() + 1:]
        timed = connector[0].strip().lower() in ("at", "in", "during", "on")
        try:
            later = _happenings(f"{connector[0].strip()} {condition}" if timed else condition, reader)
            return later, _ask(question, reader)
        except _Unknown:
            continue
    reader.restore(saved)
    raise first


def _both(one: _Ask, other: _Ask) -> _Ask:
    """Two questions asked at once: both sets of questions, each answered in its own part of the line."""
    questions = tuple(dict.fromkeys((*one.questions, *other.questions)))
    players = tuple(dict.fromkeys((*one.players, *other.players)))
    return _Ask("several", f"{one.words}, and {other.words}", questions, players,
                ("several", ((one.words, one.headline), (other.words, other.headline))))


def _join(happenings: Sequence[_Happening]) -> str:
    words = [h.words for h in happenings]
    return words[0] if len(words) == 1 else ", then ".join(words)


def _combine(happenings: Sequence[_Happening], ask: _Ask | None) -> WhatIf:
    events = tuple(e for h in happenings for e in h.events)
    named = [*(p for h in happenings for p in h.players), *(ask.players if ask else ())]
    players = tuple(dict.fromkeys(named))
    if ask is None:  # "what if Ann concedes": the main questions, and what the events touch
        extra = tuple(dict.fromkeys(q for h in happenings for q in h.extra if q not in WHAT_HAPPENS))
        ask = _Ask("what-happens", "what happens", (*WHAT_HAPPENS, *extra))
    if happenings:
        summary = f"If {_join(happenings)}, {ask.words}?"
        kind = ask.kind if ask.kind != "what-happens" else "what-happens-if"
    else:
        summary = ask.words[0].upper() + ask.words[1:] + "?"
        kind = ask.kind
    return WhatIf(kind, summary, events, ask.questions, players, ask.headline)


def _readings(text: str, facts: TableFacts) -> Iterator[Callable[[], WhatIf]]:
    """Ways to read a sentence, most specific first; each is tried with a fresh reader."""

    def question_only() -> WhatIf:
        return _combine([], _ask(text, _Reader(facts)))

    yield question_only

    what_if = re.fullmatch(
        r"(?:(?:so |and |but )?what (?:happens |would happen |will happen |about |then )?(?:if|when|"
        r"after|once)|"
        r"(?:suppose|say|imagine|assume|let's say|let us say)(?: that)?|and if|if|when|after|once) (?P<c>.+?)"
        r"(?:,? what (?:happens|then|now|next|would happen|changes))?",
        text, re.IGNORECASE)
    if what_if:
        def happens_only() -> WhatIf:
            return _combine(_happenings(what_if["c"], _Reader(facts, sentence=text)), None)

        yield happens_only

    # the question first: "who is the monarch if Ann leaves", "who draws a card at the end of turn"
    for connector in re.finditer(rf"(?<= ){_CONNECTOR}(?= )", text, re.IGNORECASE):
        question, condition = text[: connector.start() - 1], text[connector.end() + 1:]
        timed = connector[0].strip().lower() in ("at", "in", "during", "on")

        def question_first(q: str = question, c: str = condition, t: bool = timed,
                           word: str = connector[0].strip()) -> WhatIf:
            reader = _Reader(facts, hint=q, sentence=text)
            happenings = _happenings(f"{word} {c}" if t else c, reader)
            return _combine(happenings, _ask(q, reader))

        yield question_first

    # the condition first: "if Ann leaves, who is the monarch", "Ann concedes, who is king",
    # "if Ben's creature hits Ann who is monarch"
    lead = re.match(rf"^(?:{_CONNECTOR}) ", text, re.IGNORECASE)
    body = text[lead.end():] if lead else text
    for start in _QUESTION_START.finditer(body):
        if start.start() == 0:
            continue
        condition = body[: start.start()].rstrip(" ,;:-.!?")
        condition = re.sub(r"(?i)(?:,| -)? (?:then|so|and|now)$", "", condition)
        # "what if Cat concedes? who gets the crown": the "what if" of a condition said as its own question
        condition = re.sub(r"(?i)^what (?:happens |would happen )?(?:if|when) ", "", condition)
        question = body[start.start():]

        def condition_first(c: str = condition, q: str = question) -> WhatIf:
            reader = _Reader(facts, hint=q, sentence=text)
            happenings = _happenings(c, reader)
            later, ask = _ask_with_time(q, reader)
            return _combine([*happenings, *later], ask)

        yield condition_first

    def bare_events() -> WhatIf:  # "Ben gets 3 poison", "Ann concedes": what happens
        return _combine(_happenings(body, _Reader(facts, sentence=text)), None)

    yield bare_events


def _looks_like_a_name(fragment: str) -> bool:
    """Is an unknown fragment worth an error ("no player called 'Zed'") rather than the search fallback?"""
    words = fragment.split()
    articles = {"a", "an", "the", "my", "your", "his", "her", "their", "our", "this", "that", "some", "any",
                "its"}
    return 0 < len(words) <= 2 and words[0].lower() not in articles and fragment[:1].isupper() and \
        all(w[:1].isupper() or w.lower() in ("of", "the", "and", "de", "van") for w in words)


#: Keywords that change what damage does to a player (702.4 double strike, 702.15 lifelink, 702.16
#: protection, 702.70 poisonous, 702.80 wither, 702.90 infect, 702.164 toxic). The model deals plain
#: damage, so a sentence with damage that names one goes to the search rather than answered as plain damage
#: ("Ben's infect creature hits Cat for 2" is poison counters, not 2 life).
_DAMAGE_CHANGERS = re.compile(
    r"\b(?:double[- ]?strike|double[- ]?striker|lifelink|lifelinker|lifelinking|protection|"
    r"pro[- ](?:white|blue|black|red|green|creatures)|poisonous|wither|infect|infector|toxic)\b",
    re.IGNORECASE)


def _deals_damage(events: Sequence[Event]) -> bool:
    return any(isinstance(e, dict) and ("damage" in e or "combat-damage" in e) for e in events)


def _bare_possessives(text: str, players: Sequence[str]) -> str:
    """ "anns life", "bens turn": a name with a bare "s" is a possessive typed without its apostrophe (not
    when that is another player's name)."""
    names = {p.casefold() for p in players}
    for player in players:
        if f"{player}s".casefold() not in names:
            text = re.sub(rf"(?i)(?<![\w']){re.escape(player)}s(?![\w'])", f"{player}'s", text)
    return text


#: Words that put an event before those said ahead of it: "… if Cat conceded first", "Ann had conceded",
#: "earlier". The reader plays events in the order said (or as "before"/"after" order them); with two
#: events or more these would reverse it unseen, so such a sentence goes to the search. Not "who goes
#: first", "first turn", "first strike".
_ORDER_HINT = re.compile(
    r"\b(?:first(?! (?:player|turn|strike|main|combat|step|phase|seat))|earlier|beforehand|previously|"
    r"(?:had|'d) (?:already |just )?(?:conceded|left|lost|died|dropped|scooped|hit|been|gotten|got|taken|"
    r"attacked|dealt|drawn|gained|passed|unveiled|become|quit))\b",
    re.IGNORECASE,
)


def _players_in(value: Any, players: Sequence[str]) -> Iterator[str]:
    """The players an event's arguments name (not a creature's name: ``creature: Krenko``)."""
    if isinstance(value, str):
        if value in players:
            yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            if key != "creature":
                yield from _players_in(inner, players)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _players_in(inner, players)


def _check_still_in(plan: WhatIf, facts: TableFacts) -> None:
    """A what-if's events happen to the table as it stands: a player its own events took out of the game
    can't concede or be hit again (800.4a), and once the game is over nothing more happens (104.1). Read
    anyway, "if the Leader concedes" would answer as if she were still playing."""
    if not plan.events:
        return
    if facts.over:
        raise WhatIfError("the game at this table is over already, so no event changes it - ask without "
                          "an event (who won, who is still in)")
    gone = [p for p in dict.fromkeys(_players_in(list(plan.events), facts.players)) if p not in facts.playing]
    if gone:
        raise WhatIfError(f"{_names(gone)} left the game already at this table - ask about the players "
                          f"still in ({_names(facts.playing)})")


def interpret(question: str, table: TableFacts | Sequence[str]) -> WhatIf | None:
    """The events and questions a plain-English question stands for, or None when it is not one we read.

    ``table``: the :class:`TableFacts` of the table on screen (or just its players, in seat order). Raises
    :class:`WhatIfError` when the question is recognised but names a player not at the table, names a
    designation nobody holds, or is longer than :data:`MAX_QUESTION` characters.
    """
    if len(question) > MAX_QUESTION:
        raise WhatIfError(f"the question is longer than {MAX_QUESTION} characters")
    facts = _facts(table)
    text = _trim(mend_typos(_bare_possessives(normalise(question), facts.players), facts.players))
    if not text or not facts.players:
        return None
    errors: list[_Unknown] = []
    work = _WORK.set([MAX_WORK])
    try:
        for reading in _readings(text, facts):
            try:
                plan = reading()
            except _Unknown as error:
                errors.append(error)
                continue
            if _deals_damage(plan.events) and _DAMAGE_CHANGERS.search(text):
                return None
            if len(plan.events) > 1 and _ORDER_HINT.search(text):
                return None  # "Ben hits Cat and Cat concedes first": the order said is not the order read
            _check_still_in(plan, facts)
            return plan
    except _OutOfWork:
        return None  # too tangled to read in time: the rules search answers it
    finally:
        _WORK.reset(work)
    worth_saying = [e for e in errors if not str(e).startswith("not ") and
                    (not str(e).startswith("there is no player") or _looks_like_a_name(e.fragment))]
    if worth_saying:
        worth_saying.sort(key=lambda e: len(e.fragment))
        raise WhatIfError(str(worth_saying[0]))
    return None


# ------------------------------------------------------------------------------------- the answer line


def answer_line(plan: WhatIf, values: Mapping[str, Any]) -> str:
    """The answer in one line, from the model's answers (``values``: question text -> value).

    >>> plan = interpret("can the monarch attack Dan", TableFacts.seated(["Ann", "Ben", "Cat", "Dan"]))
    Traceback (most recent call last):
    ...
    rulesjudge.app.whatif.WhatIfError: nobody is the monarch at this table
    >>> plan = interpret("who can Ann attack", ["Ann", "Ben", "Cat"])
    >>> answer_line(plan, {"can-attack(Ann, Ben)": True, "can-attack(Ann, Cat)": False})
    'Ben'
    """
    return _line(plan.headline, values)


def _line(spec: tuple[Any, ...], values: Mapping[str, Any]) -> str:
    """The answer line a headline spec says how to read (see :func:`answer_line`)."""
    if not spec:
        return ""
    kind = spec[0]
    if kind == "several":
        return "; ".join(f"{words}: {_line(part, values)}" for words, part in spec[1])
    if kind == "value":
        return _say(values.get(spec[1]))
    if kind == "is":
        _, question, player, negate = spec
        holds = values.get(question) == player
        return _yes(holds != negate) + f" (the {question}: {_say(values.get(question))})"
    if kind == "member":
        _, question, players, negate = spec
        found = values.get(question)
        members = set(found) if isinstance(found, (list, tuple, set, frozenset)) else {found}
        holds = all(p in members for p in players)
        return _yes(holds != negate) + f" ({question}: {_say(found)})"
    if kind == "turn":
        active, nxt = values.get("active"), values.get("next-turn")
        now = _say(active) if active else "nobody: the turn goes on with no active player"
        return f"now: {now}; next turn: {_say(nxt)}"
    if kind == "after":
        order = list(values.get("turn-order") or [])
        player = spec[1]
        if values.get("active") == player and values.get("next-turn"):
            return _say(values["next-turn"])
        if player not in order or len(order) < 2:
            return f"{player} is not in the turn order ({_say(order)})"
        return order[(order.index(player) + 1) % len(order)]
    if kind == "winners":
        if not values.get("game-over"):
            return "nobody yet: the game goes on"
        if not values.get("winners"):
            return "nobody: the game is over without a winner"
        return _say(values.get("winners"))
    if kind == "all-true":
        return _yes(all(values.get(q) is True for q in spec[1]))
    if kind == "targets":
        return _say([t for a, t in spec[1] if values.get(f"can-attack({a}, {t})") is True])
    if kind == "attackers":
        return _say([a for a, t in spec[1] if values.get(f"can-attack({a}, {t})") is True])
    if kind == "in-range":
        player, others = spec[1], spec[2]
        return _say([o for o in others if values.get(f"in-range({player}, {o})") is True])
    if kind == "each":
        _, question, players = spec
        parts = [f"{p}: {_say(values.get(f'{question}({p})'))}" for p in players]
        return parts[0].split(": ", 1)[1] if len(parts) == 1 else "; ".join(parts)
    if kind == "each-of":
        if len(spec[1]) == 1:
            return _say(values.get(spec[1][0]))
        return "; ".join(f"{q}: {_say(values.get(q))}" for q in spec[1])
    if kind == "positive":
        _, question, players = spec
        counts = [(p, values.get(f"{question}({p})")) for p in players]
        return _say([f"{p} ({n})" for p, n in counts if isinstance(n, int) and n > 0])
    if kind == "role-holders":
        return _role_holders(values, spec[1], spec[2])
    if kind == "having":
        _, question, players, wanted = spec
        return _say([p for p in players if values.get(f"{question}({p})") == wanted])
    return ""


def _role_holders(values: Mapping[str, Any], players: Sequence[str], role: str) -> str:
    """Treachery "who is the Leader": the players still in the game controlling that role's card (907.8a
    counts "players controlling a Leader identity"; The Metamorph's new card is theirs, 907.11b). A player who
    left controls none; ``role(X)`` gives their last one (907.12), named apart, or alone when nobody in the
    game has the role.

    >>> _role_holders({"role(Cat)": "leader", "role(Eve)": "leader", "in-game": ["Eve"]}, ["Cat", "Eve"],
    ...               "leader")
    'Eve (Cat, who left the game, had a Leader identity card last: 907.12)'
    """
    holders = [p for p in players if values.get(f"role({p})") == role]
    playing = set(values.get("in-game") or ())
    now = [p for p in holders if p in playing]
    gone = [p for p in holders if p not in playing]
    if not gone:
        return _say(now)
    article = "an" if role == "assassin" else "a"
    left = f"{_say(gone)}, who left the game, had {article} {role.capitalize()} identity card last: 907.12"
    return f"{_say(now)} ({left})" if now else f"nobody in the game ({left})"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _say(value: Any) -> str:
    if value is None:
        return "nobody / none"
    if isinstance(value, bool):
        return _yes(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        return ", ".join(_say(v) for v in items) if items else "nobody"
    return str(value)


# ------------------------------------------------------------------------------------------ fallbacks


def closest_scenarios(
    question_vector: Sequence[float], scenario_vectors: Sequence[Sequence[float]], k: int = 3
) -> list[tuple[int, float]]:
    """Indexes and cosine scores of the ``k`` scenarios closest in meaning (vectors already normalised).

    >>> closest_scenarios([1.0, 0.0], [[0.0, 1.0], [1.0, 0.0], [0.6, 0.8]], k=2)
    [(1, 1.0), (2, 0.6)]
    """
    scored = [
        (index, float(sum(a * b for a, b in zip(question_vector, vector, strict=False))))
        for index, vector in enumerate(scenario_vectors)
    ]
    scored.sort(key=lambda item: (-item[1], item[0]))
    return [(i, round(s, 6)) for i, s in scored[:k]]


EXAMPLES: tuple[str, ...] = (
    "Who becomes the monarch if {a} concedes?",
    "If {b}'s creature hits {a}, who is the monarch?",
    "Can {a} attack {c}?",
    "Is {c} within {a}'s range?",
    "Who wins if {b} loses?",
    "What if everyone except {c} concedes?",
    "Whose turn is it after {a} leaves?",
    "Who are {a}'s teammates?",
)


def examples(players: Sequence[str] | TableFacts) -> list[str]:
    """Example questions using the names at the table (and its designations when it has them).

    >>> examples(["Ann", "Ben", "Cat"])[2]
    'Can Ann attack Cat?'
    """
    facts = _facts(players)
    seats = facts.players
    if not seats:
        return []
    a = seats[0]
    b = seats[1] if len(seats) > 1 else a
    c = seats[2] if len(seats) > 2 else b
    shown = [example.format(a=a, b=b, c=c) for example in EXAMPLES]
    if facts.monarch:
        shown[0] = "Who becomes the monarch if the monarch leaves?"
    if facts.roles:
        shown[4] = "Who wins if the Leader loses?"
    if facts.emperors:
        shown[2] = "Whom can the emperor attack?"
    return shown
