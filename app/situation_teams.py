"""The variant and the teams a question states (issue 23, :mod:`app.situation`): "in Emperor with Ben, Ann,
Cat against Eve, Dan, Fay, ...", "2hg, Ann/Ben vs Cat/Dan: ...", "Ann and Ben on one team and Cat and Dan on
the other", "playing Commander here". The variant's names come from the model's registry (``Variant.title``
and ``aliases``), never from a list here; the table they make keeps every default legal.

>>> from rulesjudge.app.situation import read_situation
>>> four = {"players": ["Ann", "Ben", "Cat", "Dan"]}
>>> read_situation("team vs team, Ann & Ben vs Cat & Dan: who wins?", four).said
('the game is Team vs. Team', 'Ann, Ben against Cat, Dan')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulesjudge.app.presenters import seat_order, variant_of
from rulesjudge.scenarios.format import variant_key
from rulesjudge.scenarios.model import VARIANTS

if TYPE_CHECKING:  # the type only: app.situation imports this module
    from rulesjudge.app.situation import _Facts

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


_NAME = (r"(?!(?:who|whom|whose|what|can|could|does|do|did|if|when|is|are|how|will|would|and|against|vs|"
         r"versus|v|on|one|the|other|team|teams|with|as|so)\b)[A-Za-z][\w'-]*")
#: Names in a team as people type them: "Ann, Ben and Cat", "Ann Ben Cat", "Ann/Ben/Cat", "Ann & Ben".
_SEP = r"(?:,? and |, | ?& ?| ?/ ?| ?\+ ?| )"
#: A clause that follows a list: "…, Bo and Ed are the emperors" is not more names of the team before it.
_CLAUSE_AFTER = (rf"{_NAME}(?: and {_NAME})? (?:are|is|was|were|has|have|had)\b"
                 r"(?! (?:a team|on a team|teammates|one team|on one team|together|on the same team)\b)")
_LIST = rf"{_NAME}(?:(?:(?:,? and |, )(?!{_CLAUSE_AFTER})| ?& ?| ?/ ?| ?\+ ?| ){_NAME})*"
_VS = r"(?:against|vs\.?|versus|v\.?)"
#: Two teams: "A against B", "A on one team and B on the other".
_TWO_TEAMS = (rf"(?:(?:with |teams:? |teams are )?(?P<a>{_LIST}) "
              r"(?:are a team |are on a team |are teammates )?"
              rf"{_VS} (?P<b>{_LIST})|(?P<a2>{_LIST}) on one (?:team|side),? and (?P<b2>{_LIST}) on the other"
              r"(?: (?:team|side|one))?)")


def _names_of(text: str) -> list[str]:
    return [n for n in re.split(_SEP, text.strip()) if n]


def _teams_said(match: re.Match[str], facts: _Facts) -> list[list[str]] | None:
    """The two teams a match of :data:`_TWO_TEAMS` names: players at the table, or new players named as a list
    ("Ben, Ann, Cat against Eve, Dan, Fay" seats them); names only spaces part must all be seated (else
    "Ann Ben Cat" could be any words)."""
    a, b = match["a"] or match["a2"], match["b"] or match["b2"]
    if not a or not b:
        return None
    teams = [_names_of(a), _names_of(b)]
    seated = {p.lower(): p for p in facts.players()}
    if all(n.lower() in seated for t in teams for n in t):
        return [[seated[n.lower()] for n in t] for t in teams]
    listed = all(re.fullmatch(rf"{_NAME}(?:(?:,? and |, ){_NAME})*", side.strip()) for side in (a, b))
    return teams if listed and all(n[:1].isupper() for t in teams for n in t) else None


def _take_variant(text: str, facts: _Facts) -> str:
    """The variant said as context ("in Emperor, ...", "... in 2HG?", "Treachery: ...", "We're playing
    Commander.") taken off the text, with the teams said beside it ("with Ben, Ann, Cat against Eve, Dan,
    Fay")."""
    variant = _variant_pattern()
    names = _variant_names()
    start = (rf"^(?:(?:in|for|playing|we(?:'re| are) playing|this is)(?: an?| this| the| our)? )?{variant}"
             rf"(?: (?:game|question|variant|format|match|pod))?(?: here| today| tonight)?")
    # "In a commander game Noah's at 40 …": the variant's noun, then a name starting the sentence
    end = (r"(?:\s*[,:;.!?-]+\s*|\s+(?=(?:if|when|can|who|whom|whose|what|does|do|is|are|how|after)\b)|"
           r"(?:(?<=game)|(?<=match)|(?<=pod))\s+(?=(?-i:[A-Z]))|$)")
    lead = re.match(rf"{start}(?:(?:,|:| -)? {_TWO_TEAMS})?{end}", text, re.IGNORECASE)
    teams = _teams_said(lead, facts) if lead else None
    if lead and teams is None and (lead["a"] or lead["a2"]):  # names that aren't players: the variant alone
        lead = re.match(start + end, text, re.IGNORECASE)
    if lead:
        facts.variant = names[" ".join(lead["variant"].lower().replace("-", " ").split())]
        if teams:
            facts.game["_teams"] = teams
        return text[lead.end():]
    trail = re.search(rf",? (?:in|for|playing)(?: an?| this| the| our)? {variant}(?: (?:game|variant))?"
                      r"(?=[?.!,;]*$|[?;])", text, re.IGNORECASE)
    if trail:
        facts.variant = names[" ".join(trail["variant"].lower().replace("-", " ").split())]
        return text[:trail.start()] + text[trail.end():]
    inside = re.search(rf",? (?:in|for) (?:our|this|the|a|an) {variant} (?:game|match|pod)\b", text,
                       re.IGNORECASE) or re.search(rf" (?:in|for) {variant}(?=[,;.])", text, re.IGNORECASE)
    if inside:  # "Ann is the monarch in our commander game; ...", "Ann scoops in 2HG, ...": context
        facts.variant = names[" ".join(inside["variant"].lower().replace("-", " ").split())]
        return text[:inside.start()] + text[inside.end():]
    # "in this team game": context only
    return re.sub(r"^(?:in )?this (?:team )?game,? ", "", text, flags=re.IGNORECASE)


def _take_teams(text: str, facts: _Facts) -> str:
    """Teams said before the question: "Ann and Ben are a team against Cat and Dan.", "Ann and Cat are on a
    team against Ben and Dan"."""
    said = re.match(rf"^{_TWO_TEAMS}(?:\s*[,:;.!?-]+\s*)", text, re.IGNORECASE)
    teams = _teams_said(said, facts) if said else None
    if said is None or teams is None:
        return text
    if min(len(t) for t in teams) < 2:  # "Ann vs Ben, who wins?": two players, not two teams
        return text
    facts.game["_teams"] = teams
    return text[said.end():]


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
    seats = seat_order(game)
    if teams and (rules.teams_sit_together or sorted(p for t in teams for p in t) != sorted(seats)):
        # teams that sit together are seated by the teams; otherwise (811.3) the table keeps its seats
        seats = [p for t in teams for p in t]
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
