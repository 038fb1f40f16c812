"""The situation a question states before it asks (issue 23): "Ann is the monarch. On Ben's turn Ann concedes.
Who is the monarch?", "Cat, at 3 life, takes 3 damage", "in Emperor with Ben, Ann, Cat against Eve, Dan, Fay,
can Dan attack Ann?". A judge describes the table in the same breath as the question; each stated fact sets
the table for this question (what it leaves out comes from the form or the file), a fact that contradicts the
table is said, and the question's fact wins.

:func:`read_situation` takes the facts off the question and returns the table they make (the scenario format's
``game:`` mapping) with the question left to ask; :func:`presupposed` finds what a question takes for granted
("who becomes monarch if the active player leaves?" asked where nobody is the monarch). The variant's names
come from the model's registry (``Variant.title`` and ``aliases``), never from a list here.

>>> s = read_situation("Ann is monarch and it's Ben's turn; Ann concedes, who is monarch now?",
...                    {"players": ["Ann", "Ben", "Cat", "Dan"]})
>>> s.game["monarch"], s.game["active"], s.rest
('Ann', 'Ben', 'Ann concedes, who is monarch now?')
>>> s.said
('Ann is the monarch', "it is Ben's turn")
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesjudge.app.presenters import seat_order, variant_of
from rulesjudge.app.whatif.answers import Headline, Is, Value
from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import setup_from_data, variant_key
from rulesjudge.scenarios.model import VARIANTS

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                 "forty": 40}
_N = r"(?P<n>\d{1,3}|" + "|".join(_NUMBER_WORDS) + ")"
_KING = r"(?:the )?(?:monarch|king|queen)"
_IF = r"(?:(?:so |ok |okay )?(?:if|suppose|say|assume|assuming|imagine|let's say|let us say)(?: that)? )"


@dataclass(frozen=True)
class Situation:
    """A question's own facts: the table they make, each fact in words, what they overrode, the question
    left."""

    game: dict[str, Any]
    said: tuple[str, ...] = ()
    overridden: tuple[str, ...] = ()  # "the table said Cat is the monarch"
    rest: str = ""
    variant_named: str = ""  # the variant the question names (context, or a change of variant)

    @property
    def changed(self) -> bool:
        return bool(self.said)


@dataclass
class _Facts:
    """The facts read so far, in order, and the players they name."""

    game: dict[str, Any]
    said: list[str] = field(default_factory=list)
    overridden: list[str] = field(default_factory=list)
    last: str | None = None  # the player named last (for "he", "her turn")
    variant: str = ""

    def players(self) -> list[str]:
        if self.game.get("players"):
            return [str(p) for p in self.game["players"]]
        return [str(m) for t in self.game.get("teams") or []
                for m in (t.get("members", []) if isinstance(t, dict) else t)]

    def name(self, text: str) -> str | None:
        """A player at the table by name (any case), or a pronoun for the player named last."""
        word = text.strip().lower()
        if word in ("he", "she", "him", "her", "his", "their", "they", "them") and self.last:
            return self.last
        found = next((p for p in self.players() if p.lower() in (word, word.removesuffix("s"))), None)
        if found:
            self.last = found
        return found

    def set(self, key: str, value: Any, words: str) -> None:
        before = self.game.get(key)
        if before is not None and before != value and key in ("monarch", "initiative", "active"):
            self.overridden.append(f"the table said {_designation(key, before)}")
        self.game[key] = value
        self.said.append(words)

    def set_in(self, key: str, player: str, value: Any, words: str, sub: str | None = None) -> None:
        table = self.game.setdefault(key, {})
        if sub is None:
            table[player] = value
        else:
            table.setdefault(player, {})[sub] = value
        self.said.append(words)


def _designation(key: str, player: Any) -> str:
    return {"monarch": f"{player} is the monarch", "initiative": f"{player} has the initiative",
            "active": f"it is {player}'s turn"}[key]


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _NUMBER_WORDS[text.lower()]


# ------------------------------------------------------------------------------------------- variants


def _variant_names() -> dict[str, str]:
    """Every way the registry's variants are named (their key, title and aliases) -> their key."""
    names: dict[str, str] = {}
    for key, variant in VARIANTS.items():
        for said in (key, variant.title, *variant.aliases):
            names[said.lower()] = key
            names[variant_key(said).replace("-", " ")] = key
    return names


def _variant_pattern() -> str:
    names = sorted(_variant_names(), key=len, reverse=True)
    return "(?P<variant>" + "|".join(re.escape(n).replace(r"\ ", r"[\s-]+").replace(r"\-", r"[\s-]+")
                                     for n in names) + ")"


_NAME = (r"(?!(?:who|whom|whose|what|can|could|does|do|did|if|when|is|are|how|will|would|and)\b)"
         r"[A-Za-z][\w'-]*")
_LIST = rf"{_NAME}(?:(?:,? and |, ){_NAME})*"
_VS = r"(?:against|vs\.?|versus|v\.?)"


def _names_of(text: str) -> list[str]:
    return [n for n in re.split(r",? and |, ", text.strip()) if n]


def _take_variant(text: str, facts: _Facts) -> str:
    """The variant said as context ("in Emperor, ...", "... in 2HG?", "Treachery: ...", "We're playing
    Commander.") taken off the text, with the teams said beside it ("with Ben, Ann, Cat against Eve, Dan,
    Fay")."""
    variant = _variant_pattern()
    names = _variant_names()
    lead = re.match(
        rf"^(?:(?:in|for|playing|we(?:'re| are) playing|this is)(?: an?| this| the)? )?{variant}"
        rf"(?: (?:game|question|variant|format|match|pod))?"
        rf"(?:,? (?:with )?(?P<a>{_LIST}) (?:are a team |are on a team |are teammates )?"
        rf"{_VS} (?P<b>{_LIST}))?"
        r"(?:\s*[,:;.!?-]+\s*|\s+(?=(?:if|when|can|who|whom|whose|what|does|do|is|are|how|after)\b)|$)",
        text, re.IGNORECASE)
    if lead:
        facts.variant = names[" ".join(lead["variant"].lower().replace("-", " ").split())]
        if lead["a"]:
            facts.game["_teams"] = [_names_of(lead["a"]), _names_of(lead["b"])]
        return text[lead.end():]
    trail = re.search(rf",? (?:in|for|playing)(?: an?| this| the)? {variant}(?: (?:game|variant))?"
                      r"(?=[?.!,]*$|\?)", text, re.IGNORECASE)
    if trail:
        facts.variant = names[" ".join(trail["variant"].lower().replace("-", " ").split())]
        return text[:trail.start()] + text[trail.end():]
    # "in this team game": context only
    return re.sub(r"^(?:in )?this (?:team )?game,? ", "", text, flags=re.IGNORECASE)


def _take_teams(text: str, facts: _Facts) -> str:
    """Teams said before the question: "Ann and Ben are a team against Cat and Dan.", "Ann and Cat are on a
    team against Ben and Dan"."""
    said = re.match(rf"^(?:with )?(?P<a>{_LIST}) (?:are (?:a team|on a team|teammates|partners) )?{_VS} "
                    rf"(?P<b>{_LIST})(?:\s*[,:;.!?-]+\s*)", text, re.IGNORECASE)
    if said is None:
        return text
    teams = [_names_of(said["a"]), _names_of(said["b"])]
    if min(len(t) for t in teams) < 2:  # "Ann vs Ben, who wins?": two players, not two teams
        return text
    facts.game["_teams"] = teams
    return text[said.end():]


# ------------------------------------------------------------------------------------------- facts


def _fact_patterns() -> Iterator[tuple[re.Pattern[str], str]]:
    s = r"(?P<s>[A-Za-z][\w-]*|the active player)"
    patterns = (
        (rf"{s}(?:'s| is| was| has become| becomes| being)(?: the)? (?:monarch|king|queen)", "monarch"),
        (rf"{s} (?:has|holds|has got|wears|'s got) (?:the )?(?:crown|monarchy)", "monarch"),
        (rf"{_KING} is {s}", "monarch"),
        (rf"with {s} as {_KING}", "monarch"),
        (rf"{s} (?:has|holds|has got) (?:the )?initiative", "initiative"),
        (rf"(?:the )?initiative is (?:with )?{s}", "initiative"),
        (rf"it(?:'s| is|s) {s}(?:'s|'|s)? (?:own )?turn", "active"),
        (r"it(?:'s| is) (?P<s>his|her|their) (?:own )?turn", "active"),
        (rf"{s}(?:'s|') turn", "active"),
        (rf"{s}(?: is|'s)? (?:the )?active(?: player)?", "active"),
        (rf"{s}(?: is|'s) (?:at|on) {_N}(?: life)?", "life"),
        (rf"{s} has {_N} life(?: points)?", "life"),
        (rf"{s}(?:'s|') life(?: total)? is {_N}", "life"),
        (rf"{s} (?:has|is at|'s at|has got) {_N} poison(?: counters?)?", "poison"),
        (rf"{s} (?:has taken|took|has) {_N}(?: commander damage| damage)? from (?P<c>[A-Za-z][\w'-]*)"
         r"(?: already)?", "commander-damage"),
        (rf"(?P<c>[A-Za-z][\w'-]*) has (?:already )?dealt {s} {_N}(?: commander damage| damage)?",
         "commander-damage"),
        (rf"(?:the )?(?:seats are|seated|seating is|seats clockwise:?|clockwise:?) (?P<list>{_LIST})",
         "seats"),
        (rf"with (?:a )?(?:limited )?range(?: of influence)?(?: of)? {_N}", "range"),
        (r"with (?:the )?attack (?P<side>left|right)(?: option)?", "attack"),
    )
    for regex, kind in patterns:
        yield re.compile(regex, re.IGNORECASE), kind


def _who(raw: str, facts: _Facts) -> str | None:
    if raw.lower() == "the active player":
        seats = facts.players()
        active = facts.game.get("active") or (seats[0] if seats else None)
        facts.last = str(active) if active else None
        return facts.last
    return facts.name(raw)


def _apply(kind: str, match: re.Match[str], facts: _Facts) -> bool:
    """Set the fact a pattern matched; False when it names nobody at the table (then it isn't a fact)."""
    groups = match.groupdict()
    if kind in ("range", "attack"):
        options = facts.game.setdefault("options", {})
        if kind == "range":
            options["range"] = _number(groups["n"])
            facts.said.append(f"the range of influence is {options['range']}")
        else:
            options["attack"] = groups["side"].lower()
            facts.said.append(f"the attack {options['attack']} option is used")
        return True
    if kind == "seats":
        seats = _names_of(groups["list"])
        if len(seats) < 2:
            return False
        facts.game["players"] = seats
        facts.game.pop("teams", None)
        facts.said.append("the seats, clockwise: " + ", ".join(seats))
        return True
    who = _who(groups["s"], facts)
    if who is None:
        return False
    if kind in ("monarch", "initiative", "active"):
        facts.set(kind, who, _designation(kind, who))
    elif kind == "life":
        facts.set_in("life", who, _number(groups["n"]), f"{who} is at {_number(groups['n'])} life")
    elif kind == "poison":
        facts.set_in("poison", who, _number(groups["n"]), f"{who} has {_number(groups['n'])} poison counters")
    elif kind == "commander-damage":
        commanders = facts.game.get("permanents") or {}
        commander = next((c for c in commanders if c.lower() == groups["c"].lower()), None)
        if commander is None:
            return False
        amount = _number(groups["n"])
        facts.set_in("commander-damage", who, amount,
                     f"{who} has taken {amount} combat damage from {commander}", sub=commander)
    return True


_PATTERNS = tuple(_fact_patterns())
_ENDS = re.compile(r"$|[,;:.!?]| and ", re.IGNORECASE)  # a fact is a whole clause, or one joined by "and"


def _one_fact(clause: str, facts: _Facts) -> tuple[bool, str]:
    """A fact at the start of ``clause``: (found, the rest of the clause after it)."""
    for pattern, kind in _PATTERNS:
        match = pattern.match(clause)
        if match and _ENDS.match(clause, match.end()) and _apply(kind, match, facts):
            return True, clause[match.end():].lstrip(" ,;:.")
    return False, clause


def _facts_in(clause: str, facts: _Facts) -> str:
    """Facts said at the start of a clause, joined by "and" ("Ann is monarch and it's Ben's turn"); what is
    left is the question's. A subject said once serves the next part ("Ben is at 2 life and the monarch",
    "Dan has 9 poison counters and gets 1 more")."""
    lead = re.match(_IF, clause, re.IGNORECASE)
    head = lead[0] if lead else ""
    body = clause[len(head):]
    found, rest = _one_fact(body, facts)
    if not found:
        return clause
    subject = facts.last
    while True:
        more = re.match(r"^and (?:it's |it is )?", rest, re.IGNORECASE)
        if not more:
            break
        tail = rest[len("and "):]
        found, after = _one_fact(tail, facts)
        if not found and subject:  # "... and the monarch": the same subject
            found, after = _one_fact(f"{subject} is {tail}", facts)
        if not found:
            rest = f"{subject} {tail}" if subject and not _starts_with_name(tail, facts) else tail
            return head + rest if rest else ""
        rest = after
    return (head + rest) if rest else ""


def _starts_with_name(text: str, facts: _Facts) -> bool:
    first = re.match(r"[\w]+", text)
    return first is not None and first[0].lower() in {p.lower() for p in facts.players()} | {
        "it", "the", "who", "what", "he", "she", "they", "everyone", "everybody", "both", "all"}


def _inline(text: str, facts: _Facts) -> str:
    """Facts said inside a sentence, taken out of it: "Cat, at 3 life, takes 3", "Ann, the monarch, concedes",
    "With Ben at 4 life, Ann hits Ben", "Cat at 10 life gains 5", "... while he is the monarch"."""

    def with_life(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set_in("life", who, _number(match["n"]), f"{who} is at {_number(match['n'])} life")
        return ""

    text = re.sub(rf"^with (?P<s>[A-Za-z][\w'-]*) (?:at|on) {_N}(?: life)?, ", with_life, text,
                  flags=re.IGNORECASE)

    def life(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set_in("life", who, _number(match["n"]), f"{who} is at {_number(match['n'])} life")
        return match["s"] + " "

    text = re.sub(rf"\b(?P<s>[A-Za-z][\w'-]*),? (?:at|on|with) {_N} life,? ", life, text, flags=re.IGNORECASE)

    def appositive(match: re.Match[str]) -> str:
        who = _who(match["s"], facts)
        if who is None:
            return match[0]
        for role in re.split(r" and ", match["roles"]):
            kind = "active" if "active" in role else "initiative" if "initiative" in role else "monarch"
            facts.set(kind, who, _designation(kind, who))
        return match["s"] + " "

    roles = r"(?:the (?:monarch|king|queen|active player|initiative holder|player with the initiative))"
    text = re.sub(rf"\b(?P<s>[A-Za-z][\w'-]*|the active player), (?P<roles>{roles}(?: and {roles})?), ",
                  appositive, text, flags=re.IGNORECASE)

    def with_as(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set("monarch", who, _designation("monarch", who))
        if match["a"]:
            active = facts.name(match["a"])
            if active:
                facts.set("active", active, _designation("active", active))
        return ""

    text = re.sub(rf"^with (?P<s>[A-Za-z][\w'-]*) as {_KING}(?: and (?P<a>[A-Za-z][\w'-]*) active)?,? ",
                  with_as, text, flags=re.IGNORECASE)

    def while_holding(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set("monarch", who, _designation("monarch", who))
        return ""

    return re.sub(rf",? while (?P<s>[A-Za-z][\w'-]*) (?:is|was) {_KING}\b", while_holding, text,
                  flags=re.IGNORECASE)


_SENTENCE = re.compile(r"(?<=[.;!?])\s+|(?<=[a-z']:)\s+|(?<=,)\s+(?=(?:it'?s|it is) )", re.IGNORECASE)


#: "On Ben's turn Ann concedes." said as "Ann concedes on Ben's turn." (the reader's order: the time after).
_TIME_FIRST = re.compile(r"(?:^|(?<=[.;!?] ))(?P<time>(?:on|during|in) [A-Za-z][\w-]*(?:'s|') (?:own )?"
                         r"turn),? (?P<clause>[^.;!?,]+?)(?P<end>[.;!?]|$)", re.IGNORECASE)


def _time_last(match: re.Match[str]) -> str:
    return f"{match['clause']} {match['time'].lower()}{match['end']}"


def read_situation(question: str, game: Mapping[str, Any]) -> Situation:
    """The facts ``question`` states about its table, taken off it, and the table (``game:``) they make.

    >>> s = read_situation("Cat, at 3 life, takes 3 damage from Ben's creature. Is Cat still in?",
    ...                    {"players": ["Ann", "Ben", "Cat", "Dan"]})
    >>> s.game["life"], s.rest
    ({'Cat': 3}, "Cat takes 3 damage from Ben's creature. Is Cat still in?")
    >>> read_situation("who is the monarch if Cat leaves", {"players": ["Ann", "Cat"]}).changed
    False
    """
    text = " ".join(question.replace("’", "'").split())
    # "Ann (the monarch) concedes": a role in brackets is the appositive "Ann, the monarch, concedes"
    text = re.sub(r"\s*\((the (?:monarch|king|queen|active player|initiative holder))\)\s*", r", \1, ", text,
                  flags=re.IGNORECASE)
    facts = _Facts(copy.deepcopy(dict(game)))
    text = _take_variant(text, facts)
    text = _take_teams(text, facts)
    text = _inline(text, facts)
    kept: list[str] = []
    text = _TIME_FIRST.sub(_time_last, text)
    for part in _SENTENCE.split(text):
        clauses = re.split(r"(?<=,)\s+", part)
        left: list[str] = []
        # facts lead a sentence; the first other clause starts the question
        for j, clause in enumerate(clauses):
            said = clause[4:] if j and clause.lower().startswith("and ") else clause
            rest = _facts_in(said, facts)
            if rest == said or rest:
                left = clauses[j:] if rest == said else [rest, *clauses[j + 1:]]
                break
        kept.append(" ".join(left))
    rest = " ".join(k for k in kept if k).strip()
    rest = _carry_pronoun(rest, facts)
    rest = _name_the_it(rest, facts)
    new_game = _with_variant(facts)
    said = tuple(facts.said)
    if _variant_key(new_game) != _variant_key(game):
        said = (f"the game is {_title(_variant_key(new_game))}", *said)
    return Situation(new_game, said, tuple(facts.overridden), rest or question, facts.variant)


def _carry_pronoun(rest: str, facts: _Facts) -> str:
    """ "Dan's turn: can he attack Ann?": a pronoun the question left has no one to point to but the player
    the facts named; it is that player."""
    if not facts.last or not facts.said:
        return rest
    names = {p.lower() for p in facts.players()}
    named: set[str] = set()
    for word in re.findall(r"\w+", rest):
        if word.lower() in names:
            named.add(word.lower())
        subject = word.lower() in ("he", "she") and not named
        # "Ben's creature hits him": an object pronoun for the player the facts named, not named since
        obj = word.lower() in ("him", "her") and facts.last.lower() not in named and len(named) <= 1
        if subject or obj:
            return re.sub(rf"\b{word}\b(?!'s| turn| own)", facts.last, rest, count=1)
    return rest


_IT = re.compile(r"\b(who|whom) (gets|takes|has|keeps|inherits|receives|ends up with) it\b", re.IGNORECASE)


def _name_the_it(rest: str, facts: _Facts) -> str:
    """ "If Ann has the initiative and Ann leaves, who gets it?": with the holder said as a fact, "it" is the
    one designation the facts named (the crown or the initiative)."""
    named = {s.split(" ", 1)[1] for s in facts.said if s.endswith(("is the monarch", "has the initiative"))}
    if len(named) != 1:
        return rest
    thing = "the crown" if named == {"is the monarch"} else "the initiative"
    return _IT.sub(lambda m: f"{m[1]} {m[2]} {thing}", rest)


def _variant_key(game: Mapping[str, Any]) -> str:
    return variant_key(str(game.get("variant") or "free-for-all"))


def _title(key: str) -> str:
    return VARIANTS[key].title


def _with_variant(facts: _Facts) -> dict[str, Any]:
    """The table with the variant and teams the question said: seats by the teams when they sit together,
    the variant's own default teams and identities where the question names none (every default legal)."""
    game = facts.game
    teams = game.pop("_teams", None)
    if not teams and facts.variant in ("", _variant_key(game)):
        return game  # the variant named as context: the table as it is
    key = facts.variant or _variant_key(game)
    rules = variant_of(key)
    if teams and not rules.needs_teams:  # teams said of a table without them: the first team variant
        rules = next(v for v in VARIANTS.values() if v.needs_teams and v.teams_sit_together)
    seats = [p for t in teams for p in t] if teams else seat_order(game)
    if teams:
        facts.said.append(" against ".join(", ".join(t) for t in teams))
    game["variant"] = rules.name
    if rules.needs_teams:
        game["teams"] = teams or rules.default_teams(seats)
        if rules.teams_sit_together:
            game.pop("players", None)
        else:
            game["players"] = seats
    else:
        game.pop("teams", None)
        game["players"] = seats
    if rules.has_identities and not game.get("identities"):
        game["identities"] = rules.default_identities(seats)
    if not rules.has_identities:
        game.pop("identities", None)
    return game


def check(situation: Situation, source: str) -> None:
    """The table the question made must be one the format accepts (InputError naming what is wrong)."""
    if not situation.changed:
        return
    try:
        setup_from_data(situation.game, source)
    except InputError as error:
        raise InputError(source, f"the table the question states can't be played: {error.message}") from error


# ------------------------------------------------------------------------------------------- presuppositions

_KEEPS = re.compile(r"\b(?:keep|keeps|stay|stays|still|remain|remains|lose|loses|lost)\b", re.IGNORECASE)
_DESIGNATIONS = ("monarch", "initiative")


def presupposed(text: str, headline: Headline | None, events: Sequence[Any], questions: Sequence[str],
                holders: Mapping[str, str | None]) -> tuple[str, str] | None:
    """What a question takes for granted about a designation nobody holds: (designation, player), or None.

    "does Ben keep the initiative if Dan concedes?" presupposes Ben has it; "who becomes monarch if the active
    player leaves?" that the player leaving is the monarch (the only way the question has an answer).

    >>> from rulesjudge.app.whatif.answers import Is, Value
    >>> presupposed("does Ben keep the initiative if Dan concedes", Is("initiative", "Ben"),
    ...             [{"concedes": "Dan"}], ["initiative"], {"initiative": None})
    ('initiative', 'Ben')
    >>> presupposed("who becomes the monarch if Ann leaves", Value("monarch"), [{"leaves": "Ann"}],
    ...             ["monarch"], {"monarch": None})
    ('monarch', 'Ann')
    """
    asked = [d for d in _DESIGNATIONS if d in questions and holders.get(d) is None]
    if not asked or not isinstance(headline, (Is, Value)) or headline.question not in asked:
        return None  # "what happens if Cat concedes" asks everything: it takes no holder for granted
    designation = headline.question
    if isinstance(headline, Is) and _KEEPS.search(text):
        return designation, headline.player
    leavers = [e for e in events if isinstance(e, dict) and set(e) & {"leaves", "concedes", "loses"}]
    if len(leavers) == 1:
        who = next(iter(leavers[0].values()))
        if isinstance(who, str):
            return designation, who
    return None
