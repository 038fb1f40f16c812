"""Plain-English what-if questions about the table on screen, turned into events and questions for the model.

:func:`interpret` reads a question against the names at the table and returns a :class:`WhatIf`: the events
to play after the table's own events, and the questions (in the scenario format's vocabulary) to ask the
rules model. Anything it does not recognise returns ``None`` and the app falls back to the rules search and
the closest library scenarios (:func:`closest_scenarios`).

>>> players = ["Ann", "Ben", "Cat", "Dan"]
>>> w = interpret("Who becomes the monarch if Ann concedes?", players)
>>> w.events, w.questions
(({'concedes': 'Ann'},), ('monarch',))
>>> interpret("who wins if Ben and Cat lose?", players).events
({'leaves': ['Ben', 'Cat']},)
>>> interpret("can ben attack dan", players).questions
('can-attack(Ben, Dan)',)
>>> interpret("who is the monarch after Cat's creature deals combat damage to Ben?", players).events
({'combat-damage': {'from': 'Cat', 'to': 'Ben', 'amount': 1}},)
>>> interpret("is Cat within Ann's range?", players).questions
('in-range(Ann, Cat)',)
>>> interpret("what is the airspeed of an unladen swallow", players) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_QUESTION = 500

Event = dict[str, Any] | str


class WhatIfError(ValueError):
    """The question was understood but names something that is not at the table (one line, for the UI)."""


@dataclass(frozen=True)
class WhatIf:
    """A plain-English question as the model reads it."""

    kind: str
    summary: str  # the question restated, e.g. "If Ann leaves the game, who is the monarch?"
    events: tuple[Event, ...] = ()
    questions: tuple[str, ...] = ()
    players: tuple[str, ...] = field(default=())  # the players it is about (for the picture's arrows)


# ---------------------------------------------------------------------------------------------- reading


def normalise(text: str) -> str:
    """Lower-level clean-up: one line, straight apostrophes, no trailing punctuation.

    >>> normalise("  Who’s the monarch   now?? ")
    "Who's the monarch now"
    """
    text = " ".join(text.replace("’", "'").replace("‘", "'").split())
    return text.strip().rstrip("?.! ").strip()


def resolve_player(raw: str, players: Sequence[str]) -> str:
    """The player a fragment of a question names (case-insensitive, possessive and "player" dropped).

    >>> resolve_player("ben's", ["Ann", "Ben"])
    'Ben'
    >>> try:
    ...     resolve_player("Zed", ["Ann", "Ben"])
    ... except WhatIfError as error:
    ...     print(error)
    there is no player called 'Zed' at this table (players: Ann, Ben)
    """
    text = raw.strip().strip("\"'").strip()
    text = re.sub(r"(?i)(?:'s?)?\s+(?:creatures?|attackers?|army)$", "", text).strip()
    text = re.sub(r"(?i)'s$|'$", "", text).strip()
    text = re.sub(r"(?i)^(?:the\s+)?player\s+", "", text).strip()
    for player in players:
        if player == text:
            return player
    folded = text.casefold()
    for player in players:
        if player.casefold() == folded:
            return player
    raise WhatIfError(f"there is no player called '{text}' at this table (players: {', '.join(players)})")


def resolve_players(raw: str, players: Sequence[str]) -> list[str]:
    """Several players: "Ann and Ben", "Ann, Ben and Cat", "Ann & Ben".

    >>> resolve_players("ann, Ben and cat", ["Ann", "Ben", "Cat"])
    ['Ann', 'Ben', 'Cat']
    """
    # A name may itself contain "and" ("Bread and Butter"): try the whole fragment first.
    try:
        return [resolve_player(raw, players)]
    except WhatIfError:
        pass
    pieces = [p for p in re.split(r"\s*(?:,|\band\b|&)\s*", raw) if p.strip()]
    names = [resolve_player(piece, players) for piece in pieces]
    return list(dict.fromkeys(names))


_LEAVE = r"(?P<verb>leaves|left|leave|concedes|conceded|concede|loses|lost|lose|dies|died|is eliminated|" \
    r"gets eliminated|drops|drops out|quits|scoops)"
_GAME = r"(?:\s+the\s+game)?"
_X = r"(?P<x>.+?)"
_Y = r"(?P<y>.+?)"
_WHO_MONARCH = r"who(?:'s|\s+is|\s+becomes|\s+will\s+be|\s+would\s+be|\s+gets|\s+takes)?\s+(?:the\s+)?" \
    r"(?:new\s+)?(?:monarch|crown)(?:\s+now|\s+then|\s+next)?"
_WHO_MONARCH_2 = r"(?:who\s+(?:becomes|is|will\s+be|would\s+be)\s+(?:the\s+)?(?:new\s+)?monarch|" \
    r"who\s+gets\s+the\s+crown|who\s+takes\s+the\s+crown|where\s+does\s+the\s+crown\s+go)"
_WHO_INITIATIVE = r"who\s+(?:gets|takes|has|holds|will\s+have)\s+the\s+initiative"
_DAMAGE = r"(?:'s|s'|')?\s+(?:creatures?\s+|attackers?\s+)?(?:deals?|dealt|does)\s+(?P<n>\d+\s+)?" \
    r"(?:points?\s+of\s+)?combat\s+damage\s+to\s+"
_HITS = r"(?:'s|s'|')?\s+(?:creatures?\s+)?(?:hits|hit|connects\s+with)\s+"


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    build: Callable[[re.Match[str], Sequence[str]], WhatIf]


_PATTERNS: list[_Pattern] = []


def _pattern(*regexes: str) -> Callable[[Callable[[re.Match[str], Sequence[str]], WhatIf]], Any]:
    def register(build: Callable[[re.Match[str], Sequence[str]], WhatIf]) -> Any:
        for regex in regexes:
            _PATTERNS.append(_Pattern(re.compile(rf"^{regex}$", re.IGNORECASE), build))
        return build

    return register


def _leave_event(names: list[str], match: re.Match[str] | None = None) -> Event:
    """``concedes`` for a concession (104.3a; in Two-Headed Giant the whole team goes, 810.8b), else
    ``leaves`` (the player loses and leaves the game)."""
    verb = (match.groupdict().get("verb") or "") if match else ""
    name = "concedes" if verb.lower().startswith("conced") else "leaves"
    return {name: names[0] if len(names) == 1 else names}


def _leaving(names: list[str], match: re.Match[str], default: str = "leave") -> str:
    """"Ann concedes", "Ann and Ben leave the game": the summary's words for the leave event.

    >>> _leaving(["Ann"], re.match(r"(?P<verb>conceded)", "conceded"))
    'Ann concedes'
    """
    conceding = (match.groupdict().get("verb") or "").lower().startswith("conced")
    verb = "concede" if conceding else default
    plural = len(names) > 1
    words = f"{_names(names)} {verb if plural else verb + 's'}"
    return words if conceding else words + " the game"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@_pattern(
    rf"{_WHO_MONARCH_2}\s+(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME}",
    rf"(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME},?\s+(?:then\s+)?(?:{_WHO_MONARCH_2})",
    rf"{_WHO_MONARCH}\s+(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME}",
    rf"{_X}\s+{_LEAVE}{_GAME}\s*[.,;:!?—-]+\s*(?:then\s+|so\s+)?(?:{_WHO_MONARCH_2}|{_WHO_MONARCH})",
)
def _monarch_if_leaves(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    names = resolve_players(match["x"], players)
    return WhatIf(
        "monarch-if-leaves",
        f"If {_leaving(names, match)}, who is the monarch?",
        events=(_leave_event(names, match),),
        questions=("monarch",),
        players=tuple(names),
    )


@_pattern(
    rf"{_WHO_INITIATIVE}\s+(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME}",
    rf"(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME},?\s+(?:then\s+)?{_WHO_INITIATIVE}",
)
def _initiative_if_leaves(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    names = resolve_players(match["x"], players)
    return WhatIf(
        "initiative-if-leaves",
        f"If {_leaving(names, match)}, who has the initiative?",
        events=(_leave_event(names, match),),
        questions=("initiative",),
        players=tuple(names),
    )


@_pattern(
    rf"(?:{_WHO_MONARCH}|{_WHO_MONARCH_2})\s+(?:if|when|after|once)\s+{_X}{_DAMAGE}{_Y}",
    rf"(?:if|when|after|once)\s+{_X}{_DAMAGE}{_Y},?\s+(?:then\s+)?(?:{_WHO_MONARCH_2}|{_WHO_MONARCH})",
    rf"(?:{_WHO_MONARCH}|{_WHO_MONARCH_2})\s+(?:if|when|after|once)\s+{_X}{_HITS}{_Y}"
    r"(?:\s+with\s+(?:a\s+)?creatures?)?(?:\s+in\s+combat)?",
)
def _monarch_after_damage(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    source = resolve_player(match["x"], players)
    target = resolve_player(match["y"], players)
    amount = int(match.groupdict().get("n") or 1)
    return WhatIf(
        "monarch-after-combat-damage",
        f"After a creature {source} controls deals {amount} combat damage to {target}, who is the monarch?",
        events=({"combat-damage": {"from": source, "to": target, "amount": amount}},),
        questions=("monarch",),
        players=(source, target),
    )


@_pattern(
    rf"(?:can|could|may|is)\s+{_X}\s+(?:able\s+to\s+|allowed\s+to\s+)?attack\s+{_Y}(?:\s+now|\s+this\s+turn)?",
    rf"(?:is|can)\s+{_Y}\s+(?:be\s+)?attack(?:ed|able)\s+by\s+{_X}",
)
def _can_attack(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    attacker = resolve_player(match["x"], players)
    target = resolve_player(match["y"], players)
    return WhatIf(
        "can-attack",
        f"Can {attacker} attack {target}?",
        questions=(f"can-attack({attacker}, {target})",),
        players=(attacker, target),
    )


@_pattern(
    rf"who\s+(?:can|could|may)\s+attack\s+{_X}(?:\s+now|\s+this\s+turn)?",
    rf"who\s+is\s+(?:able|allowed)\s+to\s+attack\s+{_X}",
)
def _attackers_of(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    target = resolve_player(match["x"], players)
    others = [p for p in players if p != target]
    return WhatIf(
        "attackers-of",
        f"Who can attack {target}?",
        questions=tuple(f"can-attack({other}, {target})" for other in others),
        players=(target,),
    )


@_pattern(
    rf"who\s+(?:can|could|may)\s+{_X}\s+attack(?:\s+now|\s+this\s+turn)?",
    rf"whom\s+(?:can|could|may)\s+{_X}\s+attack",
)
def _attack_targets(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    attacker = resolve_player(match["x"], players)
    others = [p for p in players if p != attacker]
    return WhatIf(
        "attack-targets",
        f"Whom can {attacker} attack?",
        questions=tuple(f"can-attack({attacker}, {other})" for other in others),
        players=(attacker,),
    )


@_pattern(
    rf"is\s+{_Y}\s+(?:with)?in\s+{_X}(?:'s|s'|')\s+range(?:\s+of\s+influence)?",
    rf"is\s+{_Y}\s+(?:with)?in\s+(?:the\s+)?range(?:\s+of\s+influence)?\s+of\s+{_X}",
    rf"(?:is|does)\s+{_X}\s+(?:have\s+)?{_Y}\s+(?:with)?in\s+(?:their|his|her)\s+range(?:\s+of\s+influence)?",
)
def _in_range(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    other = resolve_player(match["y"], players)
    return WhatIf(
        "in-range",
        f"Is {other} within {player}'s range of influence?",
        questions=(f"in-range({player}, {other})",),
        players=(player, other),
    )


@_pattern(
    rf"who\s+is\s+(?:with)?in\s+{_X}(?:'s|s'|')\s+range(?:\s+of\s+influence)?",
    rf"who\s+is\s+(?:with)?in\s+(?:the\s+)?range(?:\s+of\s+influence)?\s+of\s+{_X}",
)
def _who_in_range(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    others = [p for p in players if p != player]
    return WhatIf(
        "who-in-range",
        f"Who is within {player}'s range of influence?",
        questions=(f"range({player})", *(f"in-range({player}, {other})" for other in others)),
        players=(player,),
    )


@_pattern(
    rf"what\s+is\s+{_X}(?:'s|s'|')\s+range(?:\s+of\s+influence)?",
    rf"how\s+(?:far|big|large)\s+is\s+{_X}(?:'s|s'|')\s+range(?:\s+of\s+influence)?",
)
def _range(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    return WhatIf("range", f"What is {player}'s range of influence?", questions=(f"range({player})",),
                  players=(player,))


@_pattern(
    rf"who\s+(?:wins|won|will\s+win|would\s+win)(?:\s+the\s+game)?\s+(?:if|when|after|once)\s+{_X}\s+{_LEAVE}"
    rf"{_GAME}",
    rf"(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME},?\s+(?:then\s+)?who\s+(?:wins|won|will\s+win|would\s+win)"
    rf"(?:\s+the\s+game)?",
)
def _winners_if_leaves(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    names = resolve_players(match["x"], players)
    return WhatIf(
        "winners-if-leaves",
        f"If {_leaving(names, match, 'lose')}, who wins?",
        events=(_leave_event(names, match),),
        questions=("game-over", "winners"),
        players=tuple(names),
    )


@_pattern(
    rf"what\s+happens\s+(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME}",
    rf"(?:and\s+)?what\s+if\s+{_X}\s+{_LEAVE}{_GAME}",
    rf"(?:if|when|after|once)\s+{_X}\s+{_LEAVE}{_GAME},?\s+what\s+happens(?:\s+next|\s+now|\s+then)?",
)
def _what_happens_if_leaves(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    names = resolve_players(match["x"], players)
    return WhatIf(
        "what-happens-if-leaves",
        f"What happens if {_leaving(names, match)}?",
        events=(_leave_event(names, match),),
        questions=("in-game", "active", "monarch", "initiative", "game-over", "winners"),
        players=tuple(names),
    )


@_pattern(
    rf"who\s+(?:are|is)\s+{_X}(?:'s|s'|')\s+(?:opponents?|enemies|enemy)",
    rf"who\s+(?:are|is)\s+(?:the\s+)?(?:opponents?|enemies)\s+of\s+{_X}",
    rf"who\s+(?:does|do)\s+{_X}\s+(?:play|face)\s+against",
)
def _opponents(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    return WhatIf("opponents", f"Who are {player}'s opponents?", questions=(f"opponents({player})",),
                  players=(player,))


@_pattern(
    rf"who\s+(?:are|is)\s+{_X}(?:'s|s'|')\s+(?:teammates?|team\s+mates?|team-mates?|allies|ally|partners?)",
    rf"who\s+(?:are|is)\s+(?:the\s+)?(?:teammates?|allies)\s+of\s+{_X}",
    rf"who\s+is\s+on\s+{_X}(?:'s|s'|')\s+team",
    rf"who\s+is\s+{_X}\s+(?:teamed\s+(?:up\s+)?with|on\s+a\s+team\s+with)",
)
def _teammates(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    return WhatIf("teammates", f"Who are {player}'s teammates?", questions=(f"teammates({player})",),
                  players=(player,))


@_pattern(
    rf"(?:which|what)\s+team\s+(?:is|does)\s+{_X}\s+(?:on|in|belong\s+to|play\s+for)",
    rf"(?:which|what)\s+team\s+is\s+{_X}",
    rf"what\s+is\s+{_X}(?:'s|s'|')\s+team",
)
def _team(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    return WhatIf("team", f"Which team is {player} on?", questions=(f"team({player})",), players=(player,))


@_pattern(
    rf"what\s+is\s+{_X}(?:'s|s'|')\s+life(?:\s+total)?",
    rf"how\s+much\s+life\s+does\s+{_X}\s+have",
)
def _life(match: re.Match[str], players: Sequence[str]) -> WhatIf:
    player = resolve_player(match["x"], players)
    return WhatIf(
        "life", f"What is {player}'s life total?", questions=(f"life({player})",), players=(player,)
    )


_SIMPLE: dict[str, tuple[str, str, tuple[str, ...]]] = {
    r"who(?:'s|\s+is)\s+(?:the\s+)?monarch(?:\s+now)?|who\s+has\s+the\s+crown": (
        "monarch", "Who is the monarch?", ("monarch",)),
    r"who\s+(?:has|holds)\s+the\s+initiative(?:\s+now)?": ("initiative", "Who has the initiative?",
                                                           ("initiative",)),
    r"who(?:'s|\s+is)\s+(?:the\s+)?active\s+player|whose\s+turn\s+is\s+it(?:\s+now)?": (
        "active", "Who is the active player?", ("active",)),
    r"what\s+is\s+the\s+turn\s+order|what's\s+the\s+turn\s+order|who\s+(?:plays|goes)\s+next": (
        "turn-order", "What is the turn order?", ("turn-order",)),
    r"(?:what\s+is\s+the\s+)?apnap\s+order": ("apnap-order", "What is the APNAP order?", ("apnap-order",)),
    r"who\s+is\s+(?:still\s+)?(?:in\s+the\s+game|playing|left\s+in\s+the\s+game)": (
        "in-game", "Who is still in the game?", ("in-game",)),
    r"is\s+the\s+game\s+over|who\s+(?:has\s+)?won|who\s+is\s+winning": (
        "game-over", "Is the game over, and who won?", ("game-over", "winners")),
    r"is\s+(?:the\s+)?(?:table|setup|identity\s+deck)\s+legal|is\s+this\s+(?:a\s+)?legal\s+setup": (
        "legal-setup", "Is the setup legal?", ("legal-setup",)),
}

_Build = Callable[[re.Match[str], Sequence[str]], WhatIf]


def _fixed(kind: str, summary: str, questions: tuple[str, ...]) -> _Build:
    def build(match: re.Match[str], players: Sequence[str]) -> WhatIf:
        return WhatIf(kind, summary, questions=questions)

    return build


for _regex, (_kind, _summary, _questions) in _SIMPLE.items():
    _PATTERNS.append(
        _Pattern(re.compile(rf"^(?:{_regex})$", re.IGNORECASE), _fixed(_kind, _summary, _questions))
    )


def interpret(question: str, players: Sequence[str]) -> WhatIf | None:
    """The events and questions a plain-English question stands for, or None when it is not one we read.

    Raises :class:`WhatIfError` when the question is recognised but names a player not at the table, or is
    longer than :data:`MAX_QUESTION` characters.
    """
    if len(question) > MAX_QUESTION:
        raise WhatIfError(f"the question is longer than {MAX_QUESTION} characters")
    text = normalise(question)
    text = re.sub(r"(?i)^(?:and\s+|so\s+|ok,?\s+|judge,?\s+)", "", text)
    first_error: WhatIfError | None = None
    for pattern in _PATTERNS:
        match = pattern.regex.match(text)
        if not match:
            continue
        try:
            return pattern.build(match, players)
        except WhatIfError as error:  # another pattern may read the names differently
            first_error = first_error or error
    if first_error is not None:
        raise first_error
    return None


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
    "Who is the monarch after {b}'s creature deals combat damage to {a}?",
    "Can {a} attack {c}?",
    "Is {c} within {a}'s range?",
    "Who wins if {b} loses?",
    "Who are {a}'s opponents?",
    "Who are {a}'s teammates?",
    "Which team is {b} on?",
)


def examples(players: Sequence[str]) -> list[str]:
    """Example questions using the names at the table.

    >>> examples(["Ann", "Ben", "Cat"])[2]
    'Can Ann attack Cat?'
    """
    if not players:
        return []
    a = players[0]
    b = players[1] if len(players) > 1 else a
    c = players[2] if len(players) > 2 else b
    return [example.format(a=a, b=b, c=c) for example in EXAMPLES]
