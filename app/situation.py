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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesjudge.app.designations_said import designations_in_passing
from rulesjudge.app.presupposition import presupposed
from rulesjudge.app.situation_facts import (
    _KING,
    _N,
    ASKED_ALONE,
    _designation,
    _Facts,
    _facts_in,
    _number,
    _role,
    _starts_with_name,
    _who,
)
from rulesjudge.app.situation_roles import dealt_said, role_appositive, unveiled_as
from rulesjudge.app.situation_teams import (
    _take_teams,
    _take_variant,
    _teams_by_players,
    _title,
    _variant_key,
    _with_variant,
)
from rulesjudge.app.situation_words import (
    _AMOUNT,
    _IT,
    _TIME_FIRST,
    _example_said,
    _neighbours_said,
    _own_turn_holder,
    _plain_table_said,
    _poison_said,
    _roll_call,
    _same_combat,
    _seating_said,
    _table_said_first,
    _team_topic,
    _the_designation_it,
    _time_last,
    _unit_of_the_fact,
)
from rulesjudge.app.whatif.normalise import _LEADING, _names
from rulesjudge.common.errors import InputError
from rulesjudge.scenarios.format import setup_from_data
from rulesjudge.scenarios.model.alternating_teams import equally_spaced


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




#: A designation said beside a name: a noun ("the monarch") or a relative clause ("who has the initiative").
_ROLE = (r"(?:the (?:monarch|king|queen|active player|initiative holder|player with the initiative)|"
         r"who(?:'s| is| was) (?:the )?(?:monarch|king|queen|active player)|"
         r"who (?:has|holds|had) (?:the )?(?:initiative|crown|monarchy)|whose turn it is)")


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

    def with_poison(match: re.Match[str]) -> str:  # "With Ben on 9 poison, Dan gives him one more"
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set_in("poison", who, _number(match["n"]), f"{who} has {_number(match['n'])} poison counters")
        return ""

    text = re.sub(rf"^with (?P<s>[A-Za-z][\w'-]*) (?:at|on|having) {_N} poison(?: counters?)?, ", with_poison,
                  text, flags=re.IGNORECASE)

    def life(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set_in("life", who, _number(match["n"]), f"{who} is at {_number(match['n'])} life")
        # "Cat, at 3 life, takes 3": the subject goes on; "jordan at 3 life, morgan deals 3": it doesn't
        return "" if _starts_with_name(match.string[match.end():], facts) else match["s"] + " "

    text = re.sub(rf"\b(?P<s>[A-Za-z][\w'-]*),? (?:at|on|with) {_N} life,? ", life, text, flags=re.IGNORECASE)

    # "Edgar hits Dan for 4 and Dan was at 4 life": a past state said after an event is the table before it
    text = re.sub(rf"(?:,| and) (?P<s>[A-Za-z][\w'-]*) (?:was|had been) (?:at|on) {_N}(?: life)?"
                  r"(?=$|[,;:.!?])", lambda m: "" if with_life(m) == "" else m[0], text, flags=re.IGNORECASE)

    def appositive(match: re.Match[str]) -> str:
        who = _who(match["s"], facts)
        if who is None:
            return match[0]
        for role in re.split(r" and ", match["roles"]):
            kind = ("active" if re.search(r"active|turn", role, re.IGNORECASE) else
                    "initiative" if "initiative" in role.lower() else "monarch")
            facts.set(kind, who, _designation(kind, who))
        return match["s"] + " "

    # "Ann, the monarch, concedes", "Ben, who has the initiative, leaves", "Cat - who is the monarch - dies"
    text = re.sub(rf"\b(?P<s>[A-Za-z][\w'-]*|the active player)(?:, | -+ )(?P<roles>{_ROLE}(?: and {_ROLE})?)"
                  r"(?:, | -+ )", appositive, text, flags=re.IGNORECASE)

    def reverse(match: re.Match[str]) -> str:  # "The monarch, Ben, dies on Dan's turn"
        return appositive(match) if facts.name(match["s"]) else match[0]

    # ... or after the connector of a clause ("when the monarch, Uma, dies on Sol's turn")
    text = re.sub(rf"(?:^|(?<=[.;!?] )|(?<=\bwhen )|(?<=\bif )|(?<=\bonce )|(?<=\bafter ))"
                  rf"(?P<roles>{_ROLE}), (?P<s>[A-Za-z][\w'-]*), ", reverse, text,
                  flags=re.IGNORECASE)

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

    def premise(match: re.Match[str]) -> str:  # "who gets the crown when ..., if Jordan was the monarch?"
        who = facts.name(match["s"] or match["s2"])
        if who is None:
            return match[0]
        kind = "monarch" if match["s"] else "initiative"
        facts.set(kind, who, _designation(kind, who))
        return ""

    text = re.sub(rf",? (?:if|given|assuming|given that) (?:(?P<s>[A-Za-z][\w'-]*) (?:was|is|were|had been) "
                  rf"{_KING}|(?P<s2>[A-Za-z][\w'-]*) (?:had|has) the initiative)(?=[?.!]*$)", premise, text,
                  flags=re.IGNORECASE)

    def while_holding(match: re.Match[str]) -> str:
        who = facts.name(match["s"])
        if who is None:
            return match[0]
        facts.set("monarch", who, _designation("monarch", who))
        return ""

    # "while Theo is the monarch", "while Theo controls the monarch" (725.1: a designation is held, the verb
    # "control" is how players say it)
    return re.sub(rf",? while (?P<s>[A-Za-z][\w'-]*) (?:is|was|(?:has|had|holds|held|controls|controlled)"
                  rf"(?= (?:the )?(?:monarch|crown)\b)) (?:{_KING}|(?:the )?crown)\b", while_holding, text,
                  flags=re.IGNORECASE)


def _possessive_holding(text: str, facts: _Facts) -> str:
    """ "where does Tam's initiative go if he scoops", "who inherits Vic's monarch": the possessive says who
    holds it (725.1, 726.1), a fact taken as stated and said; the subject pronoun said next, before any other
    name, is that holder.

    >>> facts = _Facts({"players": ["Rae", "Sol", "Tam", "Uma"]})
    >>> _possessive_holding("where does tam's initiative go if he scoops on uma's turn", facts), facts.said
    ("where does the initiative go if Tam scoops on uma's turn", ['Tam has the initiative'])
    """
    # only after a verb or preposition that takes it: "Mia's monarch." at a clause's start is "Mia is monarch"
    said = list(re.finditer(r"\b(?:does|do|did|will|would|gets?|got|inherits?|takes?|took|steals?|stole|"
                            r"keeps?|kept|loses?|lost|picks? up|to|of|with|about) "
                            r"(?P<s>[A-Za-z][\w-]*)(?:'s|') (?P<d>initiative|monarchy|monarch|crown)\b",
                            text, re.IGNORECASE))
    if len(said) != 1 or facts.name(said[0]["s"]) is None:
        return text  # none, or two holders said: left as said
    match, who = said[0], str(facts.name(said[0]["s"]))
    kind = "initiative" if match["d"].lower() == "initiative" else "monarch"
    facts.set(kind, who, _designation(kind, who))
    rest = text[match.end():]
    names = "|".join(re.escape(p) for p in facts.players())
    first = re.search(rf"(?i)\b(?:(?P<pronoun>he|she|they)|{names})\b", rest)
    if first and first["pronoun"]:
        rest = rest[:first.start()] + who + rest[first.end():]
    return f"{text[:match.start('s')]}the {match['d'].lower()}{rest}"


def _facts_after_if(text: str, facts: _Facts) -> str:
    """ "who's monarch if Ben has the monarch and Ben dies on Dan's turn": facts said after the question's
    "if", before its event, taken out as at the start of a clause ("who's monarch if Ben dies ...")."""
    for said_if in re.finditer(r"(?<=\S) (?:if|assuming|suppose|say) ", text, re.IGNORECASE):
        after = text[said_if.end():]
        asked = {p for p in facts.players() if re.search(rf"(?i)\b{re.escape(p)}\b", text[:said_if.start()])}
        if facts.last is None and len(asked) == 1:  # "what's Mika's life if she starts at 40": she is Mika
            facts.last = asked.pop()
        rest = _facts_in(after, facts)
        if rest != after and rest:
            return text[:said_if.end()] + rest
    return text


_WHILE = re.compile(
    r"(?:^|(?<=[.;!?,] )|(?<=\bif )|(?<=\bwhen )|(?<=\band ))"
    r"(?P<s>the active player|(?!(?:if|when|and|so|then|who|what)\b)[A-Za-z][\w'-]*)"
    r"(?P<verb>(?: (?!(?:if|when|and|while)\b)[\w']+)*?),? while (?:holding|having|being|still holding|"
    r"controlling|he is|she is|they are|(?:he|she|they) (?:has|have|holds?|controls?)|"
    # "Theo concedes while Theo controls the monarch" (the first person said as the name, app.speaker)
    r"(?P<again>[A-Za-z][\w'-]*) (?:has|holds|controls|is)) "
    r"(?P<what>(?:the )?(?:initiative|monarch|king|queen|crown))\b", re.IGNORECASE)


def _while_holding(rest: str, facts: _Facts) -> str:
    """ "Ben concedes while holding the initiative", "the active player concedes while being the monarch": the
    designation is the clause's subject's (read once the pronouns point to their players)."""

    def holder(match: re.Match[str]) -> str:
        who = _who(match["s"], facts)
        if who is None or (match["again"] and facts.name(match["again"]) != who):
            return match[0]
        kind = "initiative" if "initiative" in match["what"].lower() else "monarch"
        facts.set(kind, who, _designation(kind, who))
        return match["s"] + match["verb"]

    return _WHILE.sub(holder, rest)


#: A clause that starts with an event's verb continues the subject of the fact before it.
_GOES_ON = re.compile(r"(?:then )?(?:gains|gets|takes|loses|concedes|scoops|dies|leaves|draws|pays|attacks|"
                      r"swings|"
                      r"hits|is hit|gets hit|is dealt)\b", re.IGNORECASE)

#: A clause that asks: a fact said after it, in the same sentence, is still a fact.
_ASKS = re.compile(r"(?:who|whom|whose|what|whats|which|how|is|are|can|does|do|did|will|would)\b|"
                   r"(?:who|what|how)'s\b", re.IGNORECASE)

_SENTENCE = re.compile(r"(?<=[.;!?])\s+|(?<=[a-z']:)\s+|(?<=,)\s+(?=(?:it'?s|it is) )", re.IGNORECASE)


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
    # "when the monarch (that's Uma) dies": the holder said in brackets after the role, as "the monarch, Uma,"
    text = re.sub(r"\b(?P<d>the (?:monarch|king|queen|initiative holder|player with the initiative)) \("
                  r"(?:that's|that is|thats|i\.e\.|aka|=)? ?(?P<n>[A-Za-z][\w-]*)\)", r"\g<d>, \g<n>,", text,
                  flags=re.IGNORECASE)
    text = re.sub(r"\s*\((the (?:monarch|king|queen|active player|initiative holder))\)\s*", r", \1, ", text,
                  flags=re.IGNORECASE)
    text = _LEADING.sub("", text)  # "lol ok so in emperor, ..."
    # "Yan's at 9 poison, right?": the tag stays with its fact (a clause of its own, it would be no fact's)
    text = re.sub(r",\s+(right|yeah|yea|correct|yes|yep|innit|ok)\s*\?", r" \1?", text, flags=re.IGNORECASE)
    seated = _Facts(dict(game)).players()
    names = "|".join(re.escape(p) for p in seated) or "(?!)"
    # "rae + sol against tam + uma": two players joined by a plus (not "a board wipe + drain")
    text = re.sub(rf"(?i)\b({names}) \+ (?=(?:{names})\b)", r"\1 and ", text)
    if _variant_key(game) == "two-headed-giant":
        # "Xan is at 3 life (team total)": a Two-Headed Giant team's life is one total anyway (810.9)
        text = re.sub(r"\s*\((?:the )?(?:team(?:'s)?|shared) (?:total|life(?: total)?)\)", "", text,
                      flags=re.IGNORECASE)
    text = re.sub(r"\bthe (?:player|one|person) whose turn it is\b", "the active player", text,
                  flags=re.IGNORECASE)
    text = re.sub(r",? (?:during|in|on) (?:that|the) same turn\b,?", "", text, flags=re.IGNORECASE)
    count = re.search(rf"(?:^|(?<=[,.;] ))(?:there are |we(?:'re| are) )?(?:a )?(?P<n>{_AMOUNT})(?: of us|"
                      r" players|[- ]players? (?:pod|game|table|match))"
                      r"(?: here| at the table)?[,.;:]\s*", text, re.IGNORECASE)
    if count and _number(count["n"].lower()) == len(_Facts(dict(game)).players()):
        text = text[:count.start()] + text[count.end():]  # "free for all, six of us. ...": context
    with_us = re.search(rf" with (?:us |all |the )?(?P<n>{_AMOUNT})(?: of us| players)?(?=[,.;:?!])", text,
                        re.IGNORECASE)
    if with_us and _number(with_us["n"].lower()) == len(_Facts(dict(game)).players()):
        text = text[:with_us.start()] + text[with_us.end():]  # "grand melee with us six, ...": context
    # "She's a general, not the emperor": the role said, then the one it isn't (the role said is checked)
    text = re.sub(r"\b(?P<d>monarch|king|queen|initiative|crown|turn|leader|guardian|assassin|traitor|"
                  r"emperor|general)(?: actually| really)?,? "
                  r"(?:not|rather than|instead of) (?:the |an? )?[A-Za-z][\w'-]*(?=[.;!?,]|$)", r"\g<d>",
                  text, flags=re.IGNORECASE)
    # "me (Ann) and Ben vs ...": the name said
    text = re.sub(r"\b(?:me|i|myself) \((?P<n>[A-Za-z][\w'-]*)\)", r"\g<n>", text, flags=re.IGNORECASE)
    # "Dan is the monarch at 2 life", "Ann is the monarch on her turn": two facts in one clause
    text = re.sub(rf"\b(?P<d>(?:is|'s) (?:the |an? )?(?:monarch|king|queen|leader|guardian|assassin|traitor)|"
                  rf"has the initiative),? "
                  rf"(?P<at>(?:at|on) {_N}"
                  r"(?: life)?)(?=[,;.!?]| and |$)", r"\g<d> and \g<at>", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?P<d>(?:is|'s) (?:the )?(?:monarch|king|queen)|has the initiative),? (?:on|during|in) "
                  # only where the turn ends its clause ("..., on Bea's turn Bea's Elf hits Chris": a time)
                  r"(?P<w>his|her|their|[A-Za-z][\w-]*'s?) (?P<own>own )?turn\b(?=[,;.!?]| and | then |$)",
                  r"\g<d> and it's \g<w> \g<own>turn",
                  text, flags=re.IGNORECASE)
    seated = _Facts(dict(game)).players()
    text = _plain_table_said(text, len(seated), _variant_key(game) == "free-for-all")
    text = _table_said_first(text, seated, _variant_key(game) == "free-for-all",
                             commander=game.get("commander") is True)
    text = _roll_call(text, seated)
    text = _poison_said(_example_said(_same_combat(_team_topic(text)), seated))
    text = _the_designation_it(text)
    text = _own_turn_holder(text, game)
    facts = _Facts(copy.deepcopy(dict(game)))
    text = _teams_by_players(text, facts)
    text, seating = _neighbours_said(text, facts.players())
    facts.said.extend([seating] if seating else [])
    text, seating = _seating_said(text, facts.players())
    facts.said.extend([seating] if seating else [])
    def is_emperor(who: str) -> bool:  # "with Bo the emperor": a fact that must hold (809.2)
        return _role(who, "emperor", facts)

    text, dealt, deal_said = dealt_said(text, facts.game)  # "treachery with Ann as leader, Ben traitor, ..."
    if dealt:
        facts.game.update(variant="treachery", players=list(dealt), identities=dealt)
        facts.game.pop("teams", None)
        facts.said.extend(deal_said)
    text = _take_variant(text, facts, is_emperor)
    text = _take_teams(text, facts, is_emperor)
    text, unveiled = unveiled_as(text, facts.game)  # "Quinn unveiled as the Guardian a while ago. ..."
    text, roles = role_appositive(text, facts.game)  # "Then Ann, the leader, dies"
    facts.said.extend((*unveiled, *roles))
    text = designations_in_passing(text, facts)  # "uma the monarch gets hit", "(tam has it)"
    text = _inline(text, facts)
    text = _possessive_holding(text, facts)
    text = _facts_after_if(text, facts)
    kept: list[str] = []
    text = _TIME_FIRST.sub(_time_last, text)
    before = ""
    # the player the facts named last before the question's own words: what its pronouns point back to ("it's
    # Mika's turn, who plays after her? Theo's the monarch": "her" is Mika, never the fact said after)
    antecedent: str | None = None
    for part in _SENTENCE.split(text):
        part = _LEADING.sub("", part)  # "ok so Ann's the monarch", "Quick q: ..."
        # events told before and no question yet: a fact checked with a tag now is their outcome ("The Wall
        # blocks the Wurm. Cat is at 18, right?"); after the question it is the table it asks about
        facts.told = any(kept) and not any(_ASKED_IN.search(k) for k in kept)
        if facts.last is None and re.match(r"(?i)(?:she|he)(?:'s|s| is| has)\b", part):
            # "Edgar hits Nia. Is Nia out? she's on 5": a fact said last, of the one player the sentence
            # before named (never guessed between two)
            said_before = {p for p in facts.players() if re.search(rf"(?i)\b{re.escape(p)}\b", before)}
            facts.last = said_before.pop() if len(said_before) == 1 else None
        before = part
        clauses = re.split(r"(?<=,)\s+", part)
        left: list[str] = []
        # facts lead a sentence; the first other clause starts the question
        for j, clause in enumerate(clauses):
            said = clause[4:] if j and clause.lower().startswith("and ") else clause
            rest = _facts_in(said, facts)
            if rest == said or rest:
                left = clauses[j:] if rest == said else [rest, *clauses[j + 1:]]
                if j and rest == said and facts.last and _GOES_ON.match(said):
                    left[0] = f"{facts.last} {said}"  # "Ben at 5, gains 3 life": the fact's subject goes on
                break
        if len(left) > 1 and _ASKS.match(left[0]) and _facts_in(left[-1].rstrip("?.!"), facts) == "":
            left = [*left[:-1]]  # "what's the poison number to lose, Olive has 12": a fact said after it
            left[-1] = left[-1].rstrip(", ")
        kept.append(" ".join(left))
        if left and antecedent is None:
            antecedent = facts.last or ""
    if antecedent:
        facts.last = antecedent
    rest = re.sub(r"^(?:and )?then,? ", "", _join_checked(" ".join(k for k in kept if k).strip()),
                  flags=re.IGNORECASE)
    # "Chris has initiative, on Bea's turn Bea's creatures hit Chris": a time that leads once the facts before
    # it are taken off, moved as one said first is
    rest = _TIME_FIRST.sub(_time_last, rest)
    rest = _carry_pronoun(rest, facts)
    rest = _while_holding(rest, facts)
    rest = _unit_of_the_fact(rest, facts.said)
    rest = _name_the_it(rest, facts)
    rest = _the_tapped_it(rest, facts)
    new_game = _with_variant(facts)
    said = tuple(facts.said)
    if _variant_key(new_game) != _variant_key(game):
        said = (f"the game is {_title(_variant_key(new_game))}", *said)
    return Situation(new_game, said, tuple(facts.overridden), rest or question, facts.variant)


def _join_checked(text: str) -> str:
    """A checked fact's question said as a sentence of its own, joined to the question after it ("how many
    poison counters does Yan have" + "what's Ula's life": both answered); left out where events follow (the
    value asked is the one now, not after them: the fact itself stands).

    >>> _join_checked("who is the monarch\x01 what's Ula's life"), _join_checked("who is the monarch\x01")
    ("who is the monarch and what's Ula's life", 'who is the monarch?')
    >>> _join_checked("who is the monarch\x01 if Ula concedes, who wins")
    'if Ula concedes, who wins'
    >>> _join_checked("Ann hits Cat. who's monarch. who is the monarch\x01")
    "Ann hits Cat. who's monarch."
    """
    def join(match: re.Match[str]) -> str:
        after = text[match.end():]
        if _EVENTS_FOLLOW.search(after) or (after and not _ASKED_NEXT.match(after)):
            return ""
        if not after and text[:match.start()].strip():
            return ""  # "who's monarch? Cat is the monarch, yeah?": said after the question, the table's fact
        return f"{match['q']} and " if after else f"{match['q']}?"

    return re.sub(rf"(?P<q>[^{ASKED_ALONE}?.!]*){ASKED_ALONE}\s*", join, text)


#: words that start a story of events after a checked fact (its question would then be asked after them)
_EVENTS_FOLLOW = re.compile(r"(?i)\b(?:if|when|whenever|after|once|then|suppose|gets?|takes?|hits?|attacks?|"
                            r"concedes?|leaves?|loses?|gains?|dies|scoops?|blocks?|blocked|swings?|deals?|"
                            r"dealt|pays?|casts?|draws?)\b")
_ASKED_IN = re.compile(r"(?i)\?|\b(?:who|whom|whose|what|what's|whats|which|how)\b")
#: what a question after a checked fact's starts with (anything else is a story: the fact alone stands)
_ASKED_NEXT = re.compile(r"(?i)\s*(?:and |so |also |what about |how about )?"
                         r"(?:who|whose|what|whats|which|how|is|are|does|do|can|could|will|would|did|was|were|has|have|their|his|her|[a-z]+'s)\b")


def _carry_pronoun(rest: str, facts: _Facts) -> str:
    """ "Dan's turn: can he attack Ann?": a pronoun the question left has no one to point to but the player
    the facts named; it is that player. So is "else" in "Fay is the Traitor. Everyone else concedes"."""
    if not facts.last or not facts.said:
        return rest
    rest = re.sub(r"\b(everyone|everybody|all the others|the rest) else\b", f"everyone except {facts.last}",
                  rest, count=1, flags=re.IGNORECASE)
    names = {p.lower() for p in facts.players()}
    if not names & {w.lower() for w in re.findall(r"\w+", rest)}:  # "Dan has 9 poison - is his team dead?"
        rest = re.sub(r"\b(?:his|her|their) (team|life|life total|poison counters|commander)\b",
                      rf"{facts.last}'s \1", rest, count=1, flags=re.IGNORECASE)
    if len(facts.named) == 2 and not names & {w.lower() for w in re.findall(r"\w+", rest)}:
        # "Ben is active and Cat is the monarch; they both concede": the two the facts named
        # "Tam has 6 poison and Uma has 8. are they still alive?": asked of them alike
        rest = re.sub(r"^(?P<aux>(?:are|were|do|did|will|would|can) )?they(?P<are>'re| are)? "
                      r"(?=(?:both |all )?\w+)",
                      lambda m: f"{m['aux'] or ''}{_names(facts.named)}{' are' if m['are'] else ''} ", rest,
                      count=1, flags=re.IGNORECASE)
    said_again = {n.lower() for n in facts.named} & {w.lower() for w in re.findall(r"\w+", rest)}
    if len(facts.named) == 2 and not said_again:
        # "Lia has the initiative and Otto the monarch. Quinn hits both of them": the two the facts named
        rest = re.sub(r"\bboth of them\b", _names(facts.named), rest, count=1, flags=re.IGNORECASE)
    if len(facts.named) > 1:  # "Ben is at 7 and Cat at 10; ... what are their life totals?": both of them
        rest = re.sub(r"\btheir(?:'s)? (?=(?:life )?(?:totals|lives)\b)", f"{_names(facts.named)}'s ",
                      rest, count=1, flags=re.IGNORECASE)
    group = re.match(r"(?i)^(?:both )?(?P<a>[\w'-]+) and (?P<b>[\w'-]+) ", rest)
    if group and {group["a"].lower(), group["b"].lower()} <= names:
        # "Rosa is the monarch. During her turn Rosa and Sam both concede": "her" is no group of two; it
        # is the one player the facts named
        return re.sub(r"(?i)\b(?:his|her)(?= (?:own )?turn\b)", f"{facts.last}'s", rest, count=1)
    named: set[str] = set()
    for word in re.findall(r"\w+", rest):
        if word.lower() in names:
            named.add(word.lower())
        subject = word.lower() in ("he", "she") and not named
        # "Ben's creature hits him": an object pronoun for the player the facts named, not named since
        obj = word.lower() in ("him", "her") and facts.last.lower() not in named and len(named) <= 1
        if subject or obj:
            rest = re.sub(rf"\b{word}\b(?!'s| turn| own)", facts.last, rest, count=1)
            return _other_gender(rest, word.lower(), facts.last, names) if obj else rest
    return rest


def _other_gender(rest: str, pronoun: str, meant: str, names: set[str]) -> str:
    """ "Pia is at 1. Noah deals 1 damage to her on his turn": "her" was Pia, so "his turn" is not hers; it is
    the one other player the sentence names (a pronoun of the other gender never points to the same one).

    >>> _other_gender("Noah deals 1 damage to Pia on his turn", "her", "Pia", {"noah", "pia", "mia"})
    "Noah deals 1 damage to Pia on Noah's turn"
    """
    other = "her" if pronoun == "him" else "his"
    said = [w for w in dict.fromkeys(re.findall(r"[\w]+", rest)) if w.lower() in names and w != meant]
    if len(said) != 1:
        return rest
    return re.sub(rf"(?i)\b{other}(?= (?:own )?turn\b)", f"{said[0]}'s", rest, count=1)


def _name_the_it(rest: str, facts: _Facts) -> str:
    """ "If Ann has the initiative and Ann leaves, who gets it?": with the holder said as a fact, "it" is the
    one designation the facts named (the crown or the initiative)."""
    named = {s.split(" ", 1)[1] for s in facts.said if s.endswith(("is the monarch", "has the initiative"))}
    if len(named) != 1:
        return rest
    thing = "the crown" if named == {"is the monarch"} else "the initiative"

    def name(match: re.Match[str]) -> str:
        # "sol attacks uma with a 2/2, uma takes it": after an attack, "takes it" is the damage
        if match[2].lower() in ("takes", "took") and _ATTACK_SAID.search(rest[: match.start()]):
            return match[0]
        return f"{match[1]} {match[2]} {thing}"

    return _IT.sub(name, rest)


#: an attack or a creature's blow said: what "X takes it" after it takes
_ATTACK_SAID = re.compile(r"\b(?:attack(?:s|ed)?|swings?|swung|hits?|creature|\d+/\d+)\b", re.IGNORECASE)


def _the_tapped_it(rest: str, facts: _Facts) -> str:
    """ "Mia's Ogre is tapped and she declares it as an attacker": with the permanent said as a fact and
    no permanent named in what is left, "it" is that permanent.

    >>> facts = _Facts({"permanents": {"Ogre": {}}}, said=["Ogre is tapped"])
    >>> _the_tapped_it("Mia declares it as an attacker against Noah", facts)
    'Mia declares the Ogre as an attacker against Noah'
    """
    tapped = [s.removesuffix(" is tapped") for s in facts.said if s.endswith(" is tapped")]
    things = [str(c).lower() for c in facts.game.get("permanents") or {}]
    if len(tapped) != 1 or any(re.search(rf"(?i)\b{re.escape(t)}\b", rest) for t in things):
        return rest
    return re.sub(r"\bit\b", f"the {tapped[0]}", rest, count=1)


def check(situation: Situation, source: str) -> None:
    """The table the question made must be one the format accepts (InputError naming what is wrong)."""

    if not situation.changed:
        return
    try:
        setup_from_data(situation.game, source)
    except InputError as error:
        raise InputError(source, f"the table the question states can't be played: {error.message}") from error
    game = situation.game
    if game.get("variant") == "alternating-teams" and game.get("players"):
        # "Mia and Rex against Zoe and Tom, alternating seats" at a table seated Mia, Rex, Zoe, Tom: which
        # seats they take is not said, and who sits next to whom decides every attack (811.4)
        for team in game.get("teams") or ():
            members = team.get("members", []) if isinstance(team, dict) else team
            if not equally_spaced(game["players"], members):
                raise InputError(source, "the table the question states can't be played: "
                                         f"{', '.join(members)} don't sit apart, equally spaced (811.3): say "
                                         "the seats in order")


__all__ = ["Situation", "check", "presupposed", "read_situation"]
