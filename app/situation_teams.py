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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesjudge.app.presenters import seat_order, variant_of
from rulesjudge.scenarios.format import variant_key
from rulesjudge.scenarios.model import VARIANTS

if TYPE_CHECKING:  # the type only: app.situation_facts imports this module
    from rulesjudge.app.situation_facts import _Facts

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
#: Words that end a team's list of names: a capitalised question word or article is never a new player.
_NOT_A_NAME = frozenset((
    "who", "whom", "whose", "what", "which", "can", "could", "does", "do", "did", "if", "when", "is", "are",
    "how", "will", "would", "and", "against", "vs", "versus", "v", "on", "one", "the", "other", "team",
    "teams", "with", "as", "so", "then", "both", "all", "each", "in", "it", "its", "they", "we", "our", "us",
    "seated", "seats", "playing", "game", "a", "an", "say", "suppose", "now", "after", "before", "but",
    "while", "emperor", "emperors", "side", "sides", "for", "at", "to", "of", "there", "this", "that", "ok",
    "okay"))
_TOKEN = re.compile(r"[A-Za-z][\w-]*(?![\w'])")
_SEP_AT = re.compile(r",? and |, | ?& ?| ?/ ?| ?\+ ?| ", re.IGNORECASE)
_VS_AT = re.compile(rf"(?: are a team| are on a team| are teammates)? {_VS} ", re.IGNORECASE)
#: Where a list of teams ends: a clause break, a question word, "and" going on with the question, a bracket.
_TEAMS_END = re.compile(r"\s*\)?\s*(?:[,:;.!?-]+\s*|$)|\s*\)\s+|"
                        r"\s*\)?\s+(?=(?:if|when|can|who|whom|whose|what|does|do|is|are|how|after|and)\b)",
                        re.IGNORECASE)
_EMPEROR_SAID = r"(?: with (?P<e{n}>[A-Za-z][\w-]*) (?:as (?:the )?|the |is the |being the )?emperor)?"
#: "Ava, Bo and Cy are one team with Bo the emperor, Di, Ed and Flo the other": one team, then the other.
_ONE_TEAM = re.compile(r" (?:are |is )?(?:on )?one (?:team|side)" + _EMPEROR_SAID.format(n=1) +
                       r",? (?:and )?", re.IGNORECASE)
_THE_OTHER = re.compile(r" (?:are |is )?(?:on )?the other(?: team| side| one)?" + _EMPEROR_SAID.format(n=2),
                        re.IGNORECASE)


@dataclass(frozen=True)
class _TeamsSaid:
    """Teams a question lists: the players of each, where the words end, and the emperors said with them."""

    teams: list[list[str]]
    end: int
    emperors: tuple[str, ...] = ()


def _names_of(text: str) -> list[str]:
    return [n for n in re.split(_SEP, text.strip()) if n]


def _name_at(text: str, pos: int, seated: dict[str, str], new: bool | str) -> tuple[str, int] | None:
    """A player's name at ``pos``: one seated at the table (any case), or (``new``) a new one written as a
    name (a capital, not a question word or an article); ``new="lower"``: a question typed all in lower case,
    where a new name has no capital (the caller then wants sides of one size)."""
    token = _TOKEN.match(text, pos)
    if token is None:
        return None
    word = token[0]
    if word.casefold() in seated:
        return seated[word.casefold()], token.end()
    if new and (word[0].isupper() or new == "lower") and word.lower() not in _NOT_A_NAME:
        return word.capitalize() if new == "lower" else word, token.end()
    return None


def _side_cuts(text: str, pos: int, seated: dict[str, str], new: bool | str) -> list[tuple[list[str], int]]:
    """Every way a team's list can end from ``pos``, longest first: "Cat and Dan, Cat concedes" may be the
    team "Cat, Dan" or more names; the caller keeps the longest that ends where a clause does."""
    first = _name_at(text, pos, seated, new)
    if first is None:
        return []
    names, end = [first[0]], first[1]
    cuts = [(list(names), end)]
    while True:
        sep = _SEP_AT.match(text, end)
        nxt = _name_at(text, sep.end(), seated, new) if sep else None
        if sep is None or nxt is None:
            break
        names.append(nxt[0])
        end = nxt[1]
        cuts.append((list(names), end))
    return cuts[::-1]


def _fits(teams: list[list[str]], lower: bool = False) -> bool:
    """Two sides or more, no one twice; new names said in lower case only in sides of one size ("alex bea
    chris vs dana eve fay"), so a verb after a list ("alex vs bea attacks") is never a player."""
    names = [n.casefold() for t in teams for n in t]
    balanced = not lower or len({len(t) for t in teams}) == 1
    return len(teams) >= 2 and len(names) == len(set(names)) and balanced


def _teams_at(text: str, pos: int, facts: _Facts, *, new: bool = False) -> _TeamsSaid | None:
    """Teams listed from ``pos``: "Ann & Ben vs Cat & Dan", "Ann Ben Cat versus Dan Eve Fay", three teams
    ("Ava and Bo vs Cy and Di vs Ed and Flo"), "Ava, Bo and Cy are one team with Bo the emperor, Di, Ed and
    Flo the other with Ed as emperor" - each ending where a clause ends. New players are named with a
    capital."""
    seated = {p.casefold(): p for p in facts.players()}
    lower = new and not re.search(r"[A-Z]", text)  # typed in lower case: a new name has no capital
    naming: bool | str = "lower" if lower else new
    lead = re.compile(r"(?:with |teams:? |teams are )?", re.IGNORECASE).match(text, pos)
    pos = lead.end() if lead else pos
    # "teams Ann/Ben/Cat and Dan/Eve/Fay": after "teams", sides said with slashes are joined by "and" too
    vs_at = re.compile(rf"{_VS_AT.pattern}|,? and (?=[A-Za-z][\w-]*/)", re.IGNORECASE) \
        if lead and lead[0].lower().startswith("teams") else _VS_AT

    def rest_of(teams: list[list[str]], at: int, emperors: tuple[str, ...]) -> _TeamsSaid | None:
        """More sides after "vs", or the end of the list."""
        for names, end in _side_cuts(text, at, seated, naming):
            sides = [*teams, names]
            vs = vs_at.match(text, end)
            if vs:
                found = rest_of(sides, vs.end(), emperors)
                if found:
                    return found
            stop = _TEAMS_END.match(text, end)
            if stop and _fits(sides, lower):
                return _TeamsSaid(sides, stop.end(), emperors)
        return None

    for names, end in _side_cuts(text, pos, seated, naming):
        vs = vs_at.match(text, end)
        if vs:
            found = rest_of([names], vs.end(), ())
            if found:
                return found
        one = _ONE_TEAM.match(text, end)
        if one:
            for other, other_end in _side_cuts(text, one.end(), seated, naming):
                said = _THE_OTHER.match(text, other_end)
                stop = _TEAMS_END.match(text, said.end()) if said else None
                if said and stop and _fits([names, other], lower):
                    emperors = tuple(e for e in (one["e1"], said["e2"]) if e)
                    return _TeamsSaid([names, other], stop.end(), emperors)
    return None


#: Is this player an emperor at the table said so far (app.situation's role fact, which says it)?
IsEmperor = Callable[[str], bool]


def _set_teams(said: _TeamsSaid, facts: _Facts, is_emperor: IsEmperor) -> bool:
    """The teams said, pending until the variant is known (app.situation reads the table they make); the
    emperors said with them must sit in their team's middle seat (809.2), or none of it is a fact."""
    facts.game["_teams"] = said.teams
    for name in said.emperors:
        who = next((p for t in said.teams for p in t if p.casefold() == name.casefold()), None)
        if who is None or not is_emperor(who):
            facts.game.pop("_teams")
            return False
    return True


#: What goes on after a variant said mid-sentence as context: the question's next word ("if Ann concedes in
#: 2HG is Ben still in", "the range of influence in Alternating Teams for Eve"), never more of its noun.
_GOES_ON = r" (?=(?:is|are|does|do|can|could|who|whom|whose|what|how|will|would|for|of|if|when|after|and|" \
    r"but|so|then)\b)"


#: "in our 8 player grand melee": the table's size said with the variant (checked against the seats)
_SIZE = r"(?:(?P<size>\d+|four|five|six|seven|eight|nine|ten)[- ](?:player|person|seat|man)s? |" \
    r"(?P<sides>\d ?v ?\d(?: ?v ?\d)*) )?"  # "2v2 alternating teams": the players of each side
_SIZES = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _size_holds(said: re.Match[str], facts: _Facts) -> bool:
    """Does the number of players said with the variant ("8 player grand melee") match the table's seats?"""
    size = said["size"]
    if said["sides"]:
        return sum(int(n) for n in re.findall(r"\d", said["sides"])) == len(facts.players())
    if not size:
        return True
    return (int(size) if size.isdigit() else _SIZES[size.lower()]) == len(facts.players())


_ALTERNATE_SEATS = re.compile(r"(?i),? (?:with |in |and |on |using )?(?:alternating|alternate|alternated) "
                              r"(?:seats|seating|seat order)\b|,? (?:seated|sitting|sat|we sit) "
                              r"(?:alternately|alternating|in alternating seats)\b")


def _take_variant(text: str, facts: _Facts, is_emperor: IsEmperor) -> str:
    """The variant said as context ("in Emperor, ...", "... in 2HG?", "Treachery: ...", "We're playing
    Commander.") taken off the text, with the teams said beside it ("with Ben, Ann, Cat against Eve, Dan,
    Fay", "(Liam/Mia vs Noah/Olive)")."""
    variant = _variant_pattern()
    names = _variant_names()
    # "Mia and Zoe are a team against Rex and Tom, alternating seats": the seating that names the variant
    # (811.3: each player sits between two opponents)
    alternate = _ALTERNATE_SEATS.search(text)
    if alternate and "alternating-teams" in VARIANTS:
        facts.variant = "alternating-teams"
        text = (text[:alternate.start()] + text[alternate.end():]).strip(" ,")
    if facts.game.get("commander"):  # "2hg commander, ...": the table is a Commander game of Two-Headed Giant
        text = re.sub(r"(?i)^(2hg|thg|two[- ]headed giant) commander\b", r"\1", text)
    start = (r"^(?:(?:in|for|playing|we(?:'re| are) (?:playing|doing|running)|this is|it(?:'s| is))"
             rf"(?: an?| this| the| our)? )?{_SIZE}{variant}"
             r"(?: (?:game|question|variant|format|match|pod))?(?: here| today| tonight)?")
    # "In a commander game Noah's at 40 …": the variant's noun, then a name starting the sentence
    end = (r"(?:\s*[,:;.!?-]+\s*|\s+(?=(?:if|when|can|who|whom|whose|what|does|do|is|are|how|after)\b|"
           r"(?:what|who|how)s\b)|"
           r"(?:(?<=game)|(?<=match)|(?<=pod))\s+(?=(?-i:[A-Z]))|$)")
    # "in our 2hg game rae has 9 poison": a player of the table's, typed in lower case, starting the sentence
    seated = [p for p in facts.game.get("players") or
              [p for team in facts.game.get("teams") or () for p in team] if isinstance(p, str)]
    if seated:
        end = end[:-len("|$)")] + (r"|(?:(?<=game)|(?<=match)|(?<=pod))\s+(?=(?:"
                                   + "|".join(re.escape(p) for p in seated) + r")\b)|$)")
    head = re.match(start, text, re.IGNORECASE)
    if head and not _size_holds(head, facts):
        return text  # "in our 6 player grand melee" at an eight-seat table: not context, the question unread
    if head:
        joint = re.compile(r"(?:,|:| -)? \(?|\s*\(", re.IGNORECASE).match(text, head.end())
        said = _teams_at(text, joint.end(), facts, new=True) if joint else None
        if said and _set_teams(said, facts, is_emperor):
            facts.variant = names[" ".join(head["variant"].lower().replace("-", " ").split())]
            return re.sub(r"(?i)^and ", "", text[said.end:])
        if said and said.emperors:
            return text  # an emperor said off their team's middle seat (809.2): no table, the question unread
    lead = re.match(start + end, text, re.IGNORECASE)
    if not lead and seated:
        # "in our 10 player grand melee cy has 1 life": the variant's own name, then a seated player's (the
        # lead word "in" said, so "Emperor Ann ..." is never read as the variant)
        lead = re.match(rf"^(?:in|for|playing)(?: an?| this| the| our)? {_SIZE}{variant}\s+(?=(?:"
                        + "|".join(re.escape(p) for p in seated) + r")\b)", text, re.IGNORECASE)
    if lead and _size_holds(lead, facts):
        facts.variant = names[" ".join(lead["variant"].lower().replace("-", " ").split())]
        return text[lead.end():]
    # "It's Cy's turn (2HG). ...": the variant said aside, in brackets, anywhere
    aside = re.search(rf"\s*\((?:in |playing |this is |it's )?(?:an? |this )?{variant}"
                      r"(?: (?:game|rules|variant))?\)", text, re.IGNORECASE)
    if aside:
        facts.variant = names[" ".join(aside["variant"].lower().replace("-", " ").split())]
        return text[:aside.start()] + text[aside.end():]
    # "... in 2HG?", "is he dead? it's 2hg", "whose turn is it, 2hg" (never a bare "emperor": the role)
    trail = re.search(rf",? (?:in|for|playing)(?: an?| this| the| our)? {variant}(?: (?:game|variant))?"
                      r"(?: here| today| tonight)?"
                      r"(?=[?.!,;]*$|[?;])", text, re.IGNORECASE) or \
        re.search(rf"(?:(?<=[?.!])|,) (?:(?:it's|its|it is|this is|we're playing|playing)(?: an?| the)? |"
                  rf"(?!emperor\b)){variant}(?: (?:game|variant|rules))?(?: here| today| tonight)?[?.!]*$",
                  text, re.IGNORECASE)
    if trail:
        facts.variant = names[" ".join(trail["variant"].lower().replace("-", " ").split())]
        return text[:trail.start()] + text[trail.end():]
    # never "in the emperor's range": "the" before a variant's name may be the role
    inside = re.search(rf",? (?:in|for) (?:our|this|the|a|an) {_SIZE}{variant} (?:game|match|pod)\b", text,
                       re.IGNORECASE) or re.search(rf" (?:in|for)(?: our| this| an?)? {_SIZE}{variant}"
                                                   rf"(?=[,;.]|{_GOES_ON})", text, re.IGNORECASE)
    if inside and not _size_holds(inside, facts):
        return text  # "in our 6 player grand melee" at an eight-seat table: not context, the question unread
    if inside:  # "Ann is the monarch in our commander game; ...", "Ann scoops in 2HG, ...": context
        facts.variant = names[" ".join(inside["variant"].lower().replace("-", " ").split())]
        return text[:inside.start()] + text[inside.end():]
    # "in this team game", "team game: rae and sol against ...": context only (the teams said next say who)
    return re.sub(r"^(?:in )?(?:this (?:team )?game|(?:(?:a|our|its a|it's a) )?team game)[,:.]? ", "", text,
                  flags=re.IGNORECASE)


def _take_teams(text: str, facts: _Facts, is_emperor: IsEmperor) -> str:
    """Teams said before the question: "Ann and Ben are a team against Cat and Dan.", "Ann and Cat are on a
    team against Ben and Dan"."""
    said = _teams_at(text, 0, facts)
    if said is None or min(len(t) for t in said.teams) < 2:  # "Ann vs Ben, who wins?": two players
        return text
    if not re.search(r"[,:;.!?)-]\s*$", text[:said.end]) and said.end < len(text):
        return text  # teams said in the same clause as the question ("Ann and Ben vs Cat and Dan who wins")
    return text[said.end:] if _set_teams(said, facts, is_emperor) else text


def _team_fact(kind: str, who: str, more: str | None, amount: int, facts: _Facts) -> bool:
    """A fact said of a team: its one life total or poison count (Two-Headed Giant, 810.9, 810.10; said of a
    team whose players each have their own, it is no fact), or its turn (a shared team turn, 805.4a)."""
    rules = variant_of(facts.variant or _variant_key(facts.game))
    teams = facts.game.get("_teams") or [t.get("members", []) if isinstance(t, dict) else t
                                         for t in facts.game.get("teams") or []]
    team = next((list(t) for t in teams if who in t), [])
    if more is not None and (more not in team or more == who):
        return False  # "Ann and Cat's team": not one team
    if not rules.shares_team_totals:
        return False
    names = f"{who} and {more}'s team" if more else f"{who}'s team"
    if kind == "team-active":
        facts.set("active", who, f"it is {' and '.join(team)}'s turn")
    elif kind == "team-life":
        facts.set_in("life", who, amount, f"{names} (one life total, 810.9) is at {amount} life")
    else:
        facts.set_in("poison", who, amount, f"{names} (one count, 810.10) has {amount} poison counters")
    return True


#: "the other team - Cat and Dan - at 30", "Our team (Liam and Mia) is at 7", "both players on the other team
#: (Noah and Olive) concede": a team named with its players between dashes, brackets or commas.
_TEAM_BY_PLAYERS = re.compile(
    r"\b(?P<all>(?:both|all|the) (?:players|two|three) (?:on|of) )?(?P<which>the other|our|my|their|the|one) "
    rf"(?:team|side)(?: - | -- | \(|, )(?P<list>{_LIST})(?: - | -- |\)|(?=,))", re.IGNORECASE)


def _teams_by_players(text: str, facts: _Facts) -> str:
    """A team named with its players said as the team by its players ("Cat and Dan's team", or "Noah and
    Olive" for both players on it), where they are one whole team at the table; "we" and "us" after "our team
    (Liam and Mia)" are those players.

    >>> from rulesjudge.app.situation_facts import _Facts
    >>> facts = _Facts({"variant": "two-headed-giant", "teams": [["Liam", "Mia"], ["Noah", "Olive"]]})
    >>> _teams_by_players("Our team (Liam and Mia) is at 7 and takes 7. Did we lose?", facts)
    "Liam and Mia's team is at 7 and takes 7. Did Liam and Mia lose?"
    """
    teams = facts.game.get("_teams") or [t.get("members", []) if isinstance(t, dict) else t
                                         for t in facts.game.get("teams") or []]
    ours: list[str] = []

    def named(match: re.Match[str]) -> str:
        seated = {p.casefold(): p for p in facts.players()}
        found = [seated.get(n.casefold()) for n in _names_of(match["list"])]
        players = [p for p in found if p is not None]
        if len(players) != len(found) or not any(sorted(t) == sorted(players) for t in teams):
            return match[0]
        said = " and ".join(players)
        if match["which"].lower() in ("our", "my"):
            ours.append(said)
        return f"{said} " if match["all"] else f"{said}'s team "

    text = _TEAM_BY_PLAYERS.sub(named, text).replace("  ", " ")
    if len(ours) == 1:
        text = re.sub(r"\b(?:we|us)\b", ours[0], text, flags=re.IGNORECASE)
    return text


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
