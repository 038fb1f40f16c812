"""The player who asks: "me (Ann) + Ben vs Cat + Dan ... do I lose too?", "our team is at 3 life (me Ada and
Bo) ... did we lose?". A question that says who "I" is may go on in the first person; once the speaker is
named, "I", "me", "my" are that player and "we", "our team" their team, so the reader sees names only
(``services.ask_what_if`` calls :func:`first_person` before the story is retold).

Nothing is guessed: without a name said for "me", the first person is left as said (and the reader refuses
or the search answers), and "we" is a team only where the speaker has one - said beside "me" or the
table's.

>>> first_person("2HG, me (Ann) + Ben vs Cat + Dan. Ben concedes. do I lose too?",
...              ["Ann", "Ben", "Cat", "Dan"])
'2HG, Ann + Ben vs Cat + Dan. Ben concedes. does Ann lose too?'
>>> first_person("our team is at 3 life (me Ada and Bo) and Cy deals 2 to me. Did we lose?",
...              ["Ada", "Bo", "Cy", "Di"])
"Ada's team is at 3 life and Cy deals 2 to Ada. Did Ada's team lose?"
>>> first_person("can I attack Ben?", ["Ann", "Ben"])
'can I attack Ben?'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

#: verbs said after "I" whose third person isn't "+s" (and those said after "we": the team is one subject)
_THIRD = {"have": "has", "do": "does", "am": "is", "are": "is", "go": "goes", "were": "was", "'re": " is",
          "'ve": " has", "'m": " is"}
_VERB_FIRST = r"(?P<verb>am|are|do|did|can|could|will|would|should|have|has|was|were|may|might|must)"
#: base forms said after "I" / "we" that take an -s with a name ("I lose" -> "Ann loses")
_BASE = re.compile(r"(?i)^(?:lose|win|concede|scoop|take|get|keep|gain|draw|attack|block|deal|die|need|"
                   r"control|hold|become|survive|stay|own|want|play|go|have|do)$")


def _speaker(text: str, players: Sequence[str]) -> tuple[str, str, tuple[str, ...]] | None:
    """(the text with the speaker's name said, the speaker, the teammates said beside "me")."""
    names = {p.casefold(): p for p in players}
    name = r"(?P<n>[A-Za-z][\w'-]*)"
    said = (
        # "me (Ann)", "myself (Ann)": the name said in brackets
        (rf"\b(?:me|myself) \({name}\)", r"\g<n>"),
        # "(me Ada and Bo)", "(me: Ada, with Bo)", "(I'm Ada)": the name, and maybe a teammate, said aside
        (rf"\s*\((?:me|i'm|i am|that's me)[:,]? {name}"
         r"(?:,? (?:and|\+|&|with) (?P<m>[A-Za-z][\w'-]*))?\)", ""),
        # "Ann (me)", "Ann (that's me)"
        (rf"\b{name} \((?:me|that's me|i'm|i am)\)", r"\g<n>"),
        # "I'm Ann." at the start of a sentence
        (rf"(?:^|(?<=[.!?] ))(?:i'm|i am) {name}[.,;:]\s*", ""),
        # "if I'm Theo and I concede ...": the speaker said inside the condition (kept: "if I concede")
        (rf"\b(?P<if>if) (?:i'm|i am) {name}(?:,? and |, )", r"\g<if> "),
        # "are Kai and Zoe my opponents if I'm Lena?": the name said last, after the question
        (rf",? (?:if|since|as|and|-) (?:i'm|i am) {name}(?=[?.!]*$)", ""),
        (rf", (?:i'm|i am) {name}(?=[?.!]*$)", ""),
    )
    for pattern, replacement in said:
        match = re.search(pattern, text, re.IGNORECASE)
        if match and match["n"].casefold() in names:
            mate = (match.groupdict().get("m") or "").casefold()
            if mate and mate not in names:
                continue
            speaker = names[match["n"].casefold()]
            text = text[: match.start()] + match.expand(replacement) + text[match.end():]
            return text, speaker, ((names[mate],) if mate else ())
    return None


def _third(verb: str) -> str:
    lower = verb.lower()
    if lower in _THIRD:
        return _THIRD[lower]
    return lower + ("es" if lower.endswith(("s", "sh", "ch", "o")) else "s")


def _agree(verb: str) -> str:
    """A verb said after "we", said after the team: "we lose" -> "Ann's team loses"."""
    return _third(verb) if _BASE.match(verb) or verb.lower() == "are" else verb


def _has_team(text: str, speaker: str, mates: Sequence[str], game: Mapping[str, Any]) -> bool:
    """Does the speaker have a team: a teammate said beside "me", the table's teams, or teams said in the
    question around the speaker's name ("me (Dan) and Cat vs Ann and Ben")?"""
    said = re.search(rf"(?i)\b{re.escape(speaker)}\b[^.;!?]{{0,40}}\b(?:vs\.?|versus|against)\b|"
                     rf"\b(?:vs\.?|versus|against)\b[^.;!?]{{0,40}}\b{re.escape(speaker)}\b", text)
    return bool(mates) or said is not None or any(speaker in team for team in game.get("teams") or ())


def _team_said(text: str, players: Sequence[str], game: Mapping[str, Any]) -> tuple[str, str] | None:
    """(the text without the words that say it, a teammate's name) where "we" is a team said by its players
    but the speaker isn't named: "we're Ann and Ben", "... me and Ben", "(Ben and me)". Only a whole team of
    the table's (810.1, 808.1): "we" is then that team whoever of them asks.

    >>> _team_said("whose turn is it, we're Ann and Ben and we go first", ["Ann", "Ben", "Cat", "Dan"],
    ...            {"teams": [["Ann", "Ben"], ["Cat", "Dan"]]})
    ('whose turn is it, we go first', 'Ann')
    >>> _team_said("what's our life? me and Cat", ["Ann", "Ben", "Cat", "Dan"],
    ...            {"teams": [["Ann", "Ben"], ["Cat", "Dan"]]})
    ("what's our life?", 'Cat')
    """
    names = {p.casefold(): p for p in players}
    teams = [[str(m) for m in (t.get("members", []) if isinstance(t, dict) else t)]
             for t in game.get("teams") or ()]
    name = r"[A-Za-z][\w'-]*"
    said = (
        # "we're Ann and Ben (and ...)": the team, said whole
        (rf"\b(?:we(?:'re| are)) (?P<n>{name}),? (?:and|&|\+) (?P<m>{name})\b(?:,? and (?=we\b))?", True),
        # "... me and Ben" said last, "(me and Ben)", "(Ben and me)": the speaker's one teammate
        (rf"(?<=[,.;:?!])\s*\(?(?:it's |that's )?(?:me|myself) (?:and|&|\+|with) (?P<n>{name})\)?(?=[?.!]*$)",
         False),
        (rf"\s*\((?:me|myself) (?:and|&|\+|with) (?P<n>{name})\)", False),
        (rf"\s*\((?P<n>{name}) (?:and|&|\+) me\)", False),
    )
    for pattern, whole in said:
        match = re.search(pattern, text, re.IGNORECASE)
        if not match or match["n"].casefold() not in names:
            continue
        said_team = {names[match["n"].casefold()]}
        if whole:
            if match["m"].casefold() not in names:
                continue
            said_team.add(names[match["m"].casefold()])
        team = next((t for t in teams if said_team <= set(t)), None)
        if team is None or (whole and len(team) != len(said_team)):
            continue
        rest = re.sub(r"\s*,\s*(?=[.;?!]|$)|^[\s,.;:]+", "", text[: match.start()] + text[match.end():])
        return rest.strip(), names[match["n"].casefold()]
    return None


def _we_said(text: str, team: str) -> str:
    """ "we", "our team", "us" said as ``team`` ("Ann's team"); "in our 2HG", "in our game" is the table's."""
    text = re.sub(r"(?i)\bour team\b", team, text)
    text = re.sub(r"(?i)\b(?P<in>in|at|for) our (?!(?:team|side|life|turn|poison)\b)", r"\g<in> this ", text)
    text = re.sub(r"(?i)\b(?:are|do|have|were) we\b", lambda m: f"{_third(m[0].split()[0])} {team}", text)
    text = re.sub(rf"(?i)\b{_VERB_FIRST} we\b", lambda m: f"{m['verb']} {team}", text)
    text = re.sub(r"(?i)\bwe(?P<v>'re|'ve)", lambda m: f"{team}{_THIRD[m['v']]}", text)
    text = re.sub(r"(?i)\bwe (?P<v>[a-z]+)\b", lambda m: f"{team} {_agree(m['v'])}", text)
    text = re.sub(r"(?i)\bour\b", f"{team}'s", text)
    return re.sub(r"(?i)\bwe\b", team, text)


def first_person(question: str, players: Sequence[str], game: Mapping[str, Any] | None = None) -> str:
    """``question`` with its first person said as the player it names (see the module); unchanged when it
    names no one for "me". "We" said as its players without naming "me" is that team ("what's our life? me
    and Ben": Ben's team)."""
    found = _speaker(question, players)
    if found is None:
        team_said = _team_said(question, players, game or {})
        return _we_said(team_said[0], f"{team_said[1]}'s team") if team_said else question
    text, me, mates = found
    team = f"{me}'s team"
    text = re.sub(r"(?i)\b(?P<verb>am|do|did|have|was) i\b",
                  lambda m: f"{'did' if m['verb'].lower() == 'did' else _third(m['verb'])} {me}", text)
    text = re.sub(rf"(?i)\b{_VERB_FIRST} i\b", lambda m: f"{m['verb']} {me}", text)
    text = re.sub(r"(?i)\bi(?P<v>'m|'ve)\b", lambda m: f"{me}{_THIRD[m['v']]}", text)
    text = re.sub(r"(?i)\bi am\b", f"{me} is", text)
    text = re.sub(r"\bI (?!mean\b)(?P<v>[a-z]+)\b",  # "I mean ...": a correction, retold as one
                  lambda m: f"{me} {_third(m['v']) if _BASE.match(m['v']) else m['v']}", text)
    text = re.sub(r"\bI\b(?! mean\b)", me, text)
    text = re.sub(r"(?i)\bmy\b", f"{me}'s", text)
    text = re.sub(r"(?i)\bme\b", me, text)
    if _has_team(text, me, mates, game or {}):
        text = _we_said(text, team)
    return text
