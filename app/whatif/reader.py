"""The reader: a :class:`_Reader` resolves a fragment of a question to the players it names at one table
(:class:`Ref`) and remembers who was named (the subject, the player an event touched, the creature named
last), its memory saved and restored as a frozen :class:`_ReaderState` when a reading fails. The words it
knows (roles, designations, groups, pronouns, seats) are :mod:`references`' vocabulary, registered in
:data:`_REFERENCES`."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulesjudge.app.whatif.normalise import _names
from rulesjudge.app.whatif.plan import TableFacts, WhatIfError


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


_POSS = r"(?:'s|s'|')"
_PRONOUN = r"(?:he|she|they|him|her|them|his|their|hers|theirs|it|its)"


@dataclass(frozen=True)
class _ReaderState:
    """A :class:`_Reader`'s memory at one point of a sentence, to go back to when a reading fails
    (the topic a sentence is about is the sentence's, and stays)."""

    mentioned: tuple[str, ...]
    gone: frozenset[str]
    subject: Ref | None
    new_clause: bool
    focus: Ref | None
    touched: frozenset[str]
    creature: str | None
    turn: str | None = None
    acted: bool = False


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
        self.creature: str | None = None  # the creature named last: what "it" stands for beside a creature
        # the story so far: whose turn its events moved to (None: the table's), and whether anything but
        # time has happened yet (a turn an attack or a sorcery implies is passed to only before that)
        self.turn: str | None = None
        self.acted = False
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
    def save(self) -> _ReaderState:
        """What a reading that fails must not leave behind (who was named, gone, the pronouns' players)."""
        return _ReaderState(tuple(self.mentioned), frozenset(self.gone), self.subject, self.new_clause,
                            self.focus, frozenset(self.touched), self.creature, self.turn, self.acted)

    def restore(self, saved: _ReaderState) -> None:
        self.mentioned, self.gone = list(saved.mentioned), set(saved.gone)
        self.subject, self.new_clause, self.focus = saved.subject, saved.new_clause, saved.focus
        self.touched = set(saved.touched)
        self.creature = saved.creature
        self.turn, self.acted = saved.turn, saved.acted

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

    def speaks_of(self, word: str) -> bool:
        """Does the sentence, or a fact the question stated before it, say ``word`` (what an elliptical
        "how many does he have" counts)?

        >>> _Reader(TableFacts(("Ann", "Ben"), said=("Ann has 6 poison counters",))).speaks_of("poison")
        True
        >>> _Reader(TableFacts(("Ann", "Ben")), sentence="Ann gains 5 life").speaks_of("poison")
        False
        """
        said = re.compile(rf"(?i)\b{re.escape(word)}")
        return bool(said.search(self.sentence)) or any(said.search(fact) for fact in self.facts.said)

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
        match = re.fullmatch(r"(?P<name>[\w'-]+),? (?P<what>the .+)|"
                             r"(?P<what2>(?:the|his|her|their)(?:'s)? .+?) (?P<name2>[\w'-]+)", text,
                             re.IGNORECASE)
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


#: The vocabulary :meth:`_Reader.refer` tries in order, filled by ``references.py`` (``_reference``).
_References = list[tuple[re.Pattern[str], Callable[[_Reader, re.Match[str]], Ref | None]]]
_REFERENCES: _References = []
