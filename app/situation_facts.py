"""The facts a question states its table with, each read at the start of a clause and set on the table
being built: a designation ("Ann is the monarch", "it's Ben's turn"), a life total or poison count, commander
damage so far, a Treachery or Emperor role, a team's one total, the seats, an option (range of influence,
attack left), a permanent tapped. :class:`_Facts` is that table as it is read; :func:`_facts_in` takes the
facts off a clause. :mod:`app.situation` reads the question around them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rulesjudge.app.presenters import emperors
from rulesjudge.app.presupposition import NOBODY_HOLDS
from rulesjudge.app.situation_teams import _LIST, _names_of, _team_fact
from rulesjudge.app.situation_words import _AMOUNT, _NUMBER_WORDS, _an

_N = rf"(?P<n>{_AMOUNT})"
_KING = r"(?:the )?(?:monarch|king|queen)"
_IF = r"(?:(?:so |ok |okay )?(?:if|suppose|say|assume|assuming|imagine|let's say|let us say)(?: that)? )"


@dataclass
class _Facts:
    """The facts read so far, in order, and the players they name."""

    game: dict[str, Any]
    said: list[str] = field(default_factory=list)
    overridden: list[str] = field(default_factory=list)
    last: str | None = None  # the player named last (for "he", "her turn")
    named: list[str] = field(default_factory=list)  # every player the facts named, in order (for "their")
    actor: str | None = None  # a fact's subject that is no player ("Krenko has dealt 15 to Cat and hits her")
    variant: str = ""
    lead: str = ""  # the last fact's words before its amount ("Ben took "), for "and 12 from Edgar"
    told: bool = False  # a sentence before this one told something else (events): a tagged fact checks them

    def players(self) -> list[str]:
        if self.game.get("_teams"):  # the teams the question said, pending: their players are the table's
            return [str(m) for t in self.game["_teams"] for m in t]
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
            self.named.extend([found] if found not in self.named else [])
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


# ------------------------------------------------------------------------------------------- facts


def _fact_patterns() -> Iterator[tuple[re.Pattern[str], str]]:
    s = r"(?P<s>[A-Za-z][\w-]*|the active player)"
    patterns = (
        (rf"{s}(?:'s| is| was| has become| becomes| being)(?: actually| really| currently| still| now)?"
         r"(?: the)? (?:monarch|king|queen)", "monarch"),
        # "has the crown", "has monarch", "held the monarch" (a hypothetical's past tense)
        (rf"{s} (?:has|had|holds|held|has got|wears|wore|'s got|is wearing|was wearing) (?:the )?"
         r"(?:crown|monarchy|monarch)", "monarch"),
        (rf"{_KING} is {s}", "monarch"),
        # "crown is on Otto", "the monarchy is with Ann": where the crown sits is who holds it (725.1)
        (rf"(?:the )?(?:crown|monarchy) (?:is|sits|'s) (?:on|with) {s}", "monarch"),
        # "cat monarch, ann's turn, ...", "sol monarch. tam swings": notes, typed fast (a clause of its own)
        (rf"{s} (?:monarch|king|queen)(?=\s*(?:[,.;:!?]|-\s|$))", "monarch"),
        (rf"with {s} as {_KING}", "monarch"),
        (rf"{s} (?:has|had|holds|held|has got|'s got|(?:'s|is|was) the one (?:with|holding|who has))"
         r"(?: actually| really)? (?:the )?initiative", "initiative"),
        (rf"(?:the )?initiative is (?:with |on )?{s}", "initiative"),
        # "Theo took the initiative last turn": taken before now, so held now (726.3, 725.3 alike)
        (rf"{s} (?:took|grabbed|got|stole|has taken) (?:the )?initiative (?:last turn|earlier|already|"
         r"a while ago|a turn ago|before)", "initiative"),
        (rf"{s} (?:became|took|grabbed|got|stole|has become|has taken) (?:the )?(?:monarch|crown) "
         r"(?:last turn|earlier|already|a while ago|a turn ago|before)", "monarch"),
        # "we have no monarch yet", "nobody has the initiative": the designation held by no one (725.5, 726.5)
        (r"(?:there(?:'s| is) no|there isn't an?|we(?: have|'ve got| got) no|we don't have an?|"
         r"nobody(?:'s| is| has)(?: the)?|no ?one(?:'s| is| has)(?: the)?|no) "
         r"(?P<d>monarch|crown|king|queen|initiative)"
         r"(?: holder)?(?: yet| so far| right now| at the moment)?", "nobody"),
        (rf"it(?:'s| is|s| was) {s}(?:'s|'|s)? (?:own )?turn", "active"),
        (r"it(?:'s| is| was) (?P<s>his|her|their) (?:own )?turn", "active"),
        (rf"{s}(?:'s|') turn", "active"),
        # "sams turn, sam scoops": a name typed with a bare "s" (the name read without it), not "this turn"
        (r"(?P<s>(?!(?:this|his|its|hers|theirs)\b)[A-Za-z][\w-]*s) turn(?=[,.;:!?]|$)", "active"),
        (rf"{s}(?: is|'s| was)? (?:the )?active(?: player)?", "active"),
        # "we go first" (said of the table before any turn passed): the team or player taking the first turn
        (rf"{s} and (?P<more>[A-Za-z][\w-]*) (?:go|goes|are going|take the first turn) first", "team-active"),
        (rf"{s}(?:'s|') team (?:goes|go|is going) first", "team-active"),
        (rf"{s} (?:goes|is going) first", "active"),
        # "Bea is taking her turn", "Bea's in her turn": the turn said of its player (102.1)
        (rf"{s}(?: is|'s| was) (?:taking|playing|in|on|in the middle of) (?:his|her|their) (?:own )?turn",
         "active"),
        # before life's "is on 9": "Dan is on 9 poison" is a poison count, never 9 life
        (rf"{s}(?: has| had| has got|(?: is|'s| was| sits|(?: is|'s| was)? sitting)? (?:at|on)) {_N} poison"
         r"(?: counters?)?", "poison"),
        (rf"{s}(?: is|'s| was| had been) (?:at|on) {_N}(?: life)?", "life"),
        # "Ann and Ben are at 4": each of them (one total when they share one, 810.9)
        (rf"{s} and (?P<more>[A-Za-z][\w'-]*) are (?:both )?(?:at|on) {_N}(?: life)?(?: each| apiece)?",
         "lives"),
        (rf"{s} (?:at|on) {_N}(?: life)?", "life"),  # "Ben at 5, gains 3 life"
        # "if she starts at 40 and loses 13": the total the story starts from
        (rf"{s} (?:starts|started|begins|began)(?: the game| off)? (?:at|on|with) {_N}(?: life)?", "life"),
        (rf"{s}(?: has|'s got| has got) {_N} life(?: points)?(?: left)?", "life"),
        (rf"{s}(?:'s|') life(?: total)? is {_N}", "life"),
        # "Tam has taken 17 from Sol's commander": the commander its owner has (903.3)
        # "Rae is 18 in from Edgar": the commander damage taken so far, as players keep the count
        (rf"{s}(?: is|'s) {_N} (?:in|deep) (?:from|to|off) (?P<c>[A-Za-z][\w-]*'s commander|[A-Za-z][\w'-]*)",
         "commander-damage"),
        # "Edgar hit Uma 3 times this game, 4 each time": the hits so far, each of the same amount
        (rf"(?P<c>[A-Za-z][\w'-]*) (?:has |had )?(?:already )?(?:hit|connected with) {s} "
         rf"(?:(?P<times>{_AMOUNT}) times|(?P<twice>twice))"
         r"(?: (?:this|in the|over the) game| so far| already| before| earlier)?,? (?:for )?"
         rf"(?P<n>{_AMOUNT})(?: damage)? each(?: time)?", "commander-damage"),
        (rf"{s}(?: has taken|'s taken| took| has| had taken| had| has been dealt| was dealt) {_N}"
         r"(?: commander damage| combat damage| damage)? from "
         r"(?P<c>[A-Za-z][\w-]*'s commander|[A-Za-z][\w'-]*)(?: in combat)?"
         r"(?: already| before| earlier| previously| so far| in total)?",
         "commander-damage"),
        # "Edgar has already hit Pat for 17", "Pat's been hit by Edgar for 10": combat damage so far
        (rf"(?P<c>[A-Za-z][\w'-]*) (?:has|had) (?:already )?hit {s} for {_N}(?: commander damage| damage)?"
         r"(?: in combat)?(?: (?:over|during|in) the game| so far| in total| already| before| earlier)?",
         "commander-damage"),
        (rf"{s}(?:'s| has| had) been hit by (?P<c>[A-Za-z][\w'-]*) for {_N}(?: commander damage| damage)?"
         r"(?: in combat)?(?: so far| in total| already| before| earlier)?", "commander-damage"),
        (rf"(?P<c>[A-Za-z][\w'-]*) (?:has|had) (?:already )?dealt {_N}(?: commander damage| damage)? to {s}"
         r"(?: (?:over|during|in) the game| so far| in total| already| before)?", "commander-damage"),
        (rf"(?P<c>[A-Za-z][\w'-]*) has (?:already )?dealt {s} {_N}(?: commander damage| combat damage|"
         r" damage)?"
         r"(?: (?:over|during|in) the game| so far| in total| already)?", "commander-damage"),
        # "Bo is our emperor", "Eli is the emperor on the other side": the side said is the speaker's view;
        # the role itself is checked against the table (809.2)
        (rf"{s}(?:'s| is)(?: the| an?| our| their| my| your)? "
         r"(?P<role>leader|guardian|assassin|traitor|emperor|general)"
         r"(?: (?:on|of) (?:the other|our|their|my|your|the enemy) (?:side|team))?", "role"),
        (rf"{s},? and (?P<more>{_LIST}) are (?:the |both |all )?"
         r"(?P<role>emperors|generals|assassins|traitors)", "roles"),
        # "everyone is at 1", "we're all at 1", "all of us are on 2"
        (rf"(?:everyone(?:'s| is)|everybody(?:'s| is)|we(?:'re| are) all|all of us are|we(?:'re| are) each) "
         rf"(?:at|on) {_N}(?: life)?", "everyone's life"),
        # a team's one total (Two-Headed Giant, 810.9, 810.10): "Cat and Dan's team is at 3", "Cat's team has
        # 14 poison", "Liam and Mia's turn" (805.4a: one turn for the team)
        (rf"{s}(?: and (?P<more>[A-Za-z][\w-]*))?(?:'s|') team(?:'s|'s got| is| has| has got)?(?: at| on)? "
         rf"{_N} poison(?: counters?)?", "team-poison"),
        (rf"{s}(?: and (?P<more>[A-Za-z][\w-]*))?(?:'s|') team(?:'s| is)?(?: life(?: total)?(?: is)?)? "
         rf"(?:at|on)? ?{_N}(?: life)?", "team-life"),
        # "Xan and Yul have 14 poison between them", "Xan is at 3 life (team total)": one team's total said
        # of its players together (810.9, 810.10)
        (rf"{s} and (?P<more>[A-Za-z][\w-]*) (?:have|have got|'ve got|are at|are on|share) {_N} poison"
         r"(?: counters?)? (?:between them|together|combined|in total|as a team)", "team-poison"),
        (rf"{s} and (?P<more>[A-Za-z][\w-]*) (?:have|are at|are on|share) {_N}(?: life)? "
         r"(?:between them|together|combined|as a team)", "team-life"),
        (rf"{s}(?:'s| is) (?:at|on) {_N}(?: life)?,? \(?(?:team total|team life|the team's total|"
         r"their team's total)\)?", "team-life"),
        # "On Cy and Di's turn, ...": said first, the team's turn is the table's now (805.4a)
        (rf"(?:it(?:'s| is) |(?:on|during|in) )?{s} and (?P<more>[A-Za-z][\w-]*)(?:'s|') (?:team's )?turn",
         "team-active"),
        (rf"(?:the )?(?:seats are|seated|seating is|seats clockwise:?|clockwise:?) (?P<list>{_LIST})",
         "seats"),
        # "range 2 game", "with range of influence one", "we play range 1": an option said as the table's
        (r"(?:we(?:'re| are)? (?:play|playing|use|using) )?(?:with |in )?(?:a )?(?:limited )?"
         r"range(?: of influence)?"
         rf"(?: of)? {_N}(?: (?:game|option|rule|limit|pod|table))?", "range"),
        (r"(?:(?:we(?:'re| are)? (?:play|playing|use|using)|with|using|playing) )?(?:the )?"
         r"attack (?P<side>left|right)(?: option| rule| variant)?", "attack"),
        # "Mia's Ogre is tapped": a permanent on the table, tapped (110.5; 508.1a: it can't attack)
        (r"(?:the |(?:his|her|their) |[A-Za-z][\w-]*(?:'s|') )?(?P<c>[A-Za-z][\w-]*) (?:is|was) (?:already )?"
         r"tapped", "tapped"),
    )
    # what may follow a fact in the same breath: "Dan is actually the monarch, not Cat", "... right now"
    tail = (r"(?:,? (?:actually|really|currently|right now|rn|atm|now|already|at the moment|right|too|"
            r"as well|also))?"
            r"(?:,? (?:not|rather than|instead of) [A-Za-z][\w'-]*)?")
    for regex, kind in patterns:
        yield re.compile(regex + tail, re.IGNORECASE), kind


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
    if kind == "everyone's life":  # "everyone is at 20": each player's total
        for player in facts.players():
            facts.set_in("life", player, _number(groups["n"]), f"{player} is at {_number(groups['n'])} life")
        return True
    if kind == "tapped":
        permanents = facts.game.get("permanents") or {}
        name = next((c for c in permanents if str(c).lower() == groups["c"].lower()), None)
        if name is None:
            return False
        permanents[name] = {**permanents[name], "tapped": True}
        facts.said.append(f"{name} is tapped")
        holder = permanents[name].get("controller") or permanents[name].get("owner")
        facts.name(str(holder or ""))  # "Mia's Ogre is tapped and she ...": "she" is its controller
        return True
    if kind == "seats":
        seats = _names_of(groups["list"])
        if len(seats) < 2:
            return False
        facts.game["players"] = seats
        facts.game.pop("teams", None)
        facts.said.append("the seats, clockwise: " + ", ".join(seats))
        return True
    if kind == "nobody":
        key = "initiative" if groups["d"].lower() == "initiative" else "monarch"
        facts.set(key, None, NOBODY_HOLDS[key])
        return True
    who = _who(groups["s"], facts)
    if who is None:
        return False
    if kind.startswith("team-"):
        more = _who(groups["more"], facts) if groups.get("more") else None
        return _team_fact(kind, who, more, _number(groups["n"]) if groups.get("n") else 0, facts)
    if kind == "role":
        return _role(who, groups["role"].lower(), facts)
    if kind == "roles":  # "Bo and Ed are the emperors": each of them, each a fact that must hold
        said = len(facts.said)
        if all(_role(_who(name, facts) or "", groups["role"].lower().rstrip("s"), facts)
               for name in [who, *_names_of(groups["more"])]):
            return True
        del facts.said[said:]  # not a fact: nothing of it said
        return False
    if kind in ("monarch", "initiative", "active"):
        facts.set(kind, who, _designation(kind, who))
    elif kind == "life":
        facts.set_in("life", who, _number(groups["n"]), f"{who} is at {_number(groups['n'])} life")
    elif kind == "lives":
        other = _who(groups["more"], facts)
        if other is None or other == who:
            return False
        for player in (who, other):
            facts.set_in("life", player, _number(groups["n"]), f"{player} is at {_number(groups['n'])} life")
    elif kind == "poison":
        facts.set_in("poison", who, _number(groups["n"]), f"{who} has {_number(groups['n'])} poison counters")
    elif kind == "commander-damage":
        commander = _commander_said(groups["c"], facts)
        if commander is None:
            return False
        times = _number(groups["times"]) if groups.get("times") else 2 if groups.get("twice") else 1
        amount = _number(groups["n"]) * times
        facts.actor = commander if match.start("c") == 0 else None
        facts.set_in("commander-damage", who, amount,
                     f"{who} has taken {amount} combat damage from {commander}", sub=commander)
    return True


def _commander_said(said: str, facts: _Facts) -> str | None:
    """The commander on the table that words name: by its name ("Edgar") or as its owner's ("Sol's
    commander", when Sol owns exactly one, 903.3); None otherwise."""
    permanents = facts.game.get("permanents") or {}
    owner, _, rest = said.partition("'s ")
    if rest.lower() == "commander":
        theirs = [name for name, p in permanents.items() if isinstance(p, dict) and p.get("commander")
                  and str(p.get("owner", "")).lower() == owner.lower()]
        return theirs[0] if len(theirs) == 1 else None
    return next((c for c in permanents if c.lower() == said.lower()), None)


def _role(who: str, role: str, facts: _Facts) -> bool:
    """ "Ann is the leader", "Fay is the traitor" (Treachery: the question's identity wins over the table's
    where the deck stays legal), "Eve is the emperor" (Emperor: the middle seat, 809.2; a fact only when the
    seats agree)."""

    if role in ("emperor", "general"):
        # the teams the table holds, or the ones this question said before it ("Ann Ben Cat vs ..., Ben is
        # the emperor"), seated as they will be: the emperor is each team's middle seat (809.2)
        pending = facts.game.get("_teams")
        game = ({**facts.game, "teams": pending, "variant": facts.variant or "emperor", "players": None}
                if pending else facts.game)
        if "teams" not in game or (who in emperors(game)) != (role == "emperor"):
            return False
        facts.said.append(f"{who} is {'an emperor' if role == 'emperor' else 'a general'}")
        return True
    identities = facts.game.get("identities")
    if not isinstance(identities, dict):
        return False  # not a Treachery table: a role isn't a fact here
    held = identities.get(who)
    held_role = str((held.get("role") if isinstance(held, dict) else held) or "").lower()
    if held_role != role:
        # the question's role wins only where the deck stays legal (907.3b: one Leader, Assassins half the
        # players): a Guardian said to be a Traitor or back; "Eve is the Leader" at Ann's table isn't read
        if {held_role, role} != {"guardian", "traitor"}:
            return False
        identities[who] = role
        facts.overridden.append(f"the table said {who} is {_an(held_role)}")
    facts.said.append(f"{who} is {_an(role)}")
    return True


_PATTERNS = tuple(_fact_patterns())
#: A fact is a whole clause, or one joined by "and", or one the next clause follows without a comma ("it's her
#: own turn when she concedes", "Ann is the monarch - who ...").
_ENDS = re.compile(r"$|[,;:.!?]| and | -+ | (?=(?:when|whenever|while|if|so|then|but|because|as soon as)\b)|"
                   # "with range of influence one is Vic in Rosa's range?": the question said straight after
                   r" (?=(?:is|are|can|could|may|does|do|who|whose|which)\b)",
                   re.IGNORECASE)


#: the end of a checked fact's question said as a sentence of its own (read_situation joins the next one)
ASKED_ALONE = "\x01"
#: a tag that turns the fact before it into a question: "Yan is at 9 poison, right?", "... yeah?"
_TAG = re.compile(r"(?:,? (?:right|yeah|yea|yes|yep|ya|correct|no|innit|ok|isn'?t (?:it|he|she)|"
                  r"aren'?t (?:they|we)|(?:doesn'?t|hasn'?t) (?:he|she)|"
                  r"(?:don'?t|haven'?t) (?:they|we)))?\s*\?",
                  re.IGNORECASE)


def _one_fact(clause: str, facts: _Facts) -> tuple[bool, str]:
    """A fact at the start of ``clause``: (found, the rest of the clause after it). A fact checked with a
    tag ("Yan and Ula are at 9 poison combined, right?") is also asked: the question for it comes first."""
    for pattern, kind in _PATTERNS:
        match = pattern.match(clause)
        if not match:
            continue
        tag = _TAG.match(clause, match.end()) if re.search(r"(?i)\bright$", match[0]) or \
            re.match(r"(?i),? (?!now\b)\w", clause[match.end():]) else None
        if not tag and not _ENDS.match(clause, match.end()):
            continue
        if tag and not re.search(r"\w", tag[0]) and not re.search(r"(?i)\bright$", match[0]):
            tag = None  # a bare "?": the fact is said, not checked
        if tag and facts.told:
            return False, clause  # "The Wall blocks the Wurm. Cat is at 18, right?": the outcome checked
        if _apply(kind, match, facts):
            # what came before the amount, for a second amount said with the same words ("and 12 from Edgar")
            facts.lead = clause[:match.start("n")] if match.groupdict().get("n") else ""
            rest = clause[tag.end() if tag else match.end():].lstrip(" ,;:.-?!")
            asked = _asked_of(kind, match, facts) if tag else None
            # its question joins the one after it ("... right? and their life": both answered); the value
            # asked is the one now, so never where events follow (then the fact alone stands)
            return True, f"{asked}{ASKED_ALONE} {rest}".strip() if asked else rest
    return False, clause


def _asked_of(kind: str, match: re.Match[str], facts: _Facts) -> str | None:
    r"""The question a fact checked with a tag asks: its own value, of the players it named.

    >>> facts = _Facts({"players": ["Yan", "Ula"]})
    >>> m = re.match(r"(?P<s>\w+) and (?P<more>\w+)", "yan and ula")
    >>> _asked_of("team-poison", m, facts), _asked_of("monarch", m, facts)
    ('how many poison counters do Yan and Ula have', 'who is the monarch')
    """
    groups = match.groupdict()
    names = [n for n in (facts.name(groups.get("s") or ""), facts.name(groups.get("more") or "")) if n]
    who = " and ".join(dict.fromkeys(names))
    plural = len(set(names)) > 1
    asked = {"monarch": "who is the monarch", "initiative": "who has the initiative",
             "active": "whose turn is it"}
    if kind in asked:
        return asked[kind]
    if not who:
        return None
    if kind in ("poison", "team-poison"):
        return f"how many poison counters {'do' if plural else 'does'} {who} have"
    if kind in ("life", "lives", "team-life"):
        return f"how much life {'do' if plural else 'does'} {who} have"
    if kind == "commander-damage" and facts.game.get("commander-damage"):
        commander = _commander_said(groups["c"], facts)
        return f"how much commander damage has {who} taken from {commander}" if commander else None
    return None


def _facts_in(clause: str, facts: _Facts) -> str:
    """Facts said at the start of a clause, joined by "and" ("Ann is monarch and it's Ben's turn"); what is
    left is the question's. A subject said once serves the next part ("Ben is at 2 life and the monarch",
    "Dan has 9 poison counters and gets 1 more")."""
    lead = re.match(_IF, clause, re.IGNORECASE)
    head = lead[0] if lead else ""
    body = clause[len(head):]
    facts.actor = None
    found, rest = _one_fact(body, facts)
    if not found:
        return clause
    subject = facts.actor or facts.last
    while True:
        # "... and has 9 poison", "at 36 life but she's taken 18 from Edgar": another fact of the table
        more = re.match(r"^(?:and|but) (?:it's |it is )?", rest, re.IGNORECASE)
        if not more:
            break
        tail = rest[rest.index(" ") + 1:]
        found, after = _one_fact(tail, facts)
        # the same subject said once: "... and has 9 poison counters", "... and the monarch"
        for verb in ("", "is ", "has ") if subject and not found else ():
            found, after = _one_fact(f"{subject} {verb}{tail}", facts)
            if found:
                break
        shared = facts.lead and re.match(rf"(?:{_AMOUNT})\b", tail, re.IGNORECASE)
        if not found and shared:
            found, after = _one_fact(facts.lead + tail, facts)  # "Ben took 12 from Krenko and 12 from Edgar"
        if not found:
            # "Kai has the initiative and his team loses": the possessive is the subject's
            owned = re.match(r"(?i)(?:his|her|their) (?=team|life|creature|commander)", tail)
            rest = facts.lead + tail if shared else \
                f"{subject}'s {tail[owned.end():]}" if subject and owned else \
                f"{subject} {tail}" if subject and not _starts_with_name(tail, facts) else \
                _object_is_subject(tail, subject, facts)
            return head + rest if rest else ""
        rest = after
    return (head + rest) if rest else ""


def _object_is_subject(tail: str, subject: str | None, facts: _Facts) -> str:
    """ "Uma is at 1 and Rae pings her for 1": the object pronoun of the clause joined to a fact, whose own
    subject is another player, is the fact's subject (the one just said); "her" before a noun is a
    possessive, left.

    >>> facts = _Facts({"players": ["Rae", "Uma"]})
    >>> _object_is_subject("rae pings her for 1", "Uma", facts)
    'rae pings Uma for 1'
    >>> _object_is_subject("uma hits her creature", "Uma", facts)
    'uma hits her creature'
    """
    first = re.match(r"[\w]+", tail)
    if subject is None or first is None or first[0].casefold() == subject.casefold() or \
            first[0].casefold() not in {p.casefold() for p in facts.players()}:
        return tail
    return re.sub(r"(?i)\b(?:him|her|them)\b(?=(?: (?:for|with|on|in|at|during|and|then|but|again)\b)|"
                  r"\s*[.,;!?]|$)", subject, tail, count=1)


def _starts_with_name(text: str, facts: _Facts) -> bool:
    first = re.match(r"[\w]+", text)
    things = {str(name).lower() for name in facts.game.get("permanents") or {}}  # "... and Krenko hits him"
    return first is not None and first[0].lower() in {p.lower() for p in facts.players()} | things | {
        "it", "the", "who", "what", "he", "she", "they", "everyone", "everybody", "both", "all"}
