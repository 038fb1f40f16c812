"""A question as typed, made one line with straight quotes and the usual homophones mended."""

from __future__ import annotations

import re
from collections.abc import Sequence

_QUOTES = {"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"', "—": " - ", "–": " - "}


_TYPOS = (
    # "blocks baloth w/ the wall", "w the rat": "with" as people type it
    (re.compile(r"(?<![\w/])w/(?=\s)|(?<![\w'/])w(?= (?:the|a|an|his|her|their|my|its|one|two|both)\b)",
                re.IGNORECASE), "with"),
    (re.compile(r"\bwho'?s turn\b", re.IGNORECASE), "whose turn"),  # "who's turn is it": the homophone
    (re.compile(r"\b(who|what|where|it|she|he)s\b", re.IGNORECASE), r"\1's"),  # "whos the monarch"
    # "who'd be the monarch": "would" before a verb's base form (not "who'd conceded": "had")
    (re.compile(r"\b(who|what|where|which|it|he|she|they)'d (?=(?:be|get|win|lose|have|take|become|go|end up|"
                r"keep|draw)\b)", re.IGNORECASE), r"\1 would "),
    # "whose the monarch": the homophone, where a designation follows
    (re.compile(r"\bwhose (?=(?:the|a|an|new|next|current|monarch|king|queen|active|leader|initiative|up)\b)",
                re.IGNORECASE), "who's "),
)
#: "Cat's out", "Cat's conceded": "is", "has" contracted after a name (not "Cat's left neighbour").
_IS_WORDS = ("out", "gone", "dead", "eliminated", "knocked", "decked", "done", "the monarch")
_CONTRACTED = re.compile(  # not "who's left", "what's left": a question; nor "on Ann's left": a seat
    r"(?<![\w'])(?<!\bon )(?<!\bto )(?!(?:who|what|where|that|there|here|it)'s)(\w+)'s "
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
    r"emperor|partners?|ally|allies|side|board|totals?|lives)\b)",
    re.IGNORECASE,
)


#: "swings at Ben, no blocks", "…; it isn't blocked", "… and she doesn't block": the attack before is
#: unblocked (509.1a: only the defending player blocks, so "she" or "nobody" not blocking leaves it so).
_NOT_BLOCKED = re.compile(
    r"(?:,|;|\.)? (?:and |but |with |there (?:are|were) )?(?:no blocks?|no blockers?|not blocked|"
    r"(?:it|they)(?: is|'s| was| are|'re| were) (?:not|never) blocked|"
    r"(?:it|they) (?:isn't|wasn't|aren't|weren't) blocked|"
    r"(?:it|they)(?:'s| is| was| are|'re| were| goes| go) unblocked|"
    # "with a 5/5 and a 3/3, both unblocked": every attacker said (509.1a)
    r"(?:both|all|both of them|all of them|all three)(?: (?:are|were|go|went|get|got))? unblocked|"
    r"(?:he|she|they|nobody|no one|noone|(?-i:[A-Z][a-z]+)) "
    r"(?:doesn'?t|does not|didn'?t|did not|don'?t|do not|can'?t|cannot) block(?: it| them)?|"
    r"(?:nobody|no one|noone) blocks?(?: it| them)?)(?=$|[,;.!?]| and\b)",
    re.IGNORECASE,
)


#: "attacks her with a 2/2 on his turn, unblocked", "swings at Uma on Sol's turn and connects": the attack's
#: own words said after its turn, put before it so the turn is the clause's time as it is when said last
#: ("attacks her, unblocked, on his turn"; "swings at Uma and connects on Sol's turn").
_UNBLOCKED_AFTER_TURN = re.compile(
    r"(?P<turn> (?:on|during|in) (?:his|her|their|[A-Za-z][\w-]*(?:'s|'))(?: own)? turn)"
    r"(?P<step>,? unblocked|,? and (?:connects|gets through|goes unblocked))(?=$|[,;.!?])",
    re.IGNORECASE)
#: "after taking 6", "after getting 3 poison counters": a gerund after "after", and the verb it stands for
_GERUNDS = {"taking": "take", "getting": "get", "losing": "lose", "gaining": "gain", "paying": "pay"}
_AFTER_DOING = re.compile(rf"(?i)\b(?P<after>after|upon|once) (?P<verb>{'|'.join(_GERUNDS)})\b")
#: A word taken back at once: "pays... er loses", "pays, er, loses", "pays - I mean loses" (the word said
#: after stands).
_TAKEN_BACK = re.compile(r"(?i)\b[\w']+(?:\.{2,}|…|,| -)? (?:er|uh|erm|um|i mean|sorry)"
                         r"(?:,|\.{2,}|…)? (?=\w)")


def normalise(text: str) -> str:
    """One line, straight apostrophes, no trailing punctuation, common typos mended.

    >>> normalise("  Who’s the monarch   now?? ")
    "Who's the monarch now"
    >>> normalise("whose the monarch if Ann attacks with her creatures")
    "who's the monarch if Ann attacks with her's creatures"
    >>> normalise("what if Cat concedes? who gets it (on Ann's turn) -> Ann?")
    "what if Cat concedes, who gets it, on Ann's turn, Ann"
    >>> normalise("Ann swings at Ben, no blocks. Ben's life?")
    "Ann swings at Ben unblocked. Ben's life"
    >>> normalise("Jules hits her with a 2/2 on his turn, unblocked.")
    "Jules hits her with a 2/2, unblocked on his's turn"
    >>> normalise("Dana pays... er loses 4 life")
    'Dana loses 4 life'
    >>> normalise("can Ada attack her own teammate Bo?")
    "can Ada attack her's teammate Bo"
    >>> normalise("Ann takes 7 from a pyroclasm-type thing")
    'Ann takes 7 from an effect'
    """
    for curly, straight in _QUOTES.items():
        text = text.replace(curly, straight)
    text = " ".join(text.split())
    # a question mark inside, brackets and arrows part clauses as a comma does
    text = re.sub(r"\s*(?:[?!]+(?= )|[()\[\]]|-+>|=+>)\s*", ", ", text)
    text = re.sub(r"(?:,\s*){2,}", ", ", text).strip(" ,")
    # "pays... er loses 4 life", "pays, I mean loses": the word the speaker took back is dropped
    text = _TAKEN_BACK.sub("", text)
    text = _NOT_BLOCKED.sub(" unblocked", text)
    # "Edgar kills Uma on Sol's turn with commander damage": how, said before when (the turn last)
    text = re.sub(r"(?i)\b(?P<verb>kills|killed|takes out|took out|finishes off|finished off) "
                  r"(?P<who>[\w'-]+)(?P<turn> (?:on|during|in) [\w'-]+ (?:own )?turn),? "
                  r"(?P<how>(?:with|by|to) commander damage)",
                  r"\g<verb> \g<who> \g<how>\g<turn>", text)
    # "does she really lose": the doubt carries no fact
    text = re.sub(r"(?i)\b((?:does|do|did|is|are|would|will|can) [\w']+) (?:really|actually|truly) ", r"\1 ",
                  text)
    # "... does she lose with 32 life left", "is she out even tho shes at 19": the asker's own count beside
    # the question, which the answer's total says again
    text = re.sub(r"(?i),? (?:even (?:tho|though|if|with)|with|although|though|tho) (?:(?:she|he|they|it)"
                  r"(?:'s|s| is| are| has| have|'re) )?(?:at |on |still at |still on |only )?\d+(?: life)?"
                  r"(?: left| remaining| still)?(?=$|[,;.!?])", "", text)
    # "pings her for 1 with an ability, not combat": the damage said to be outside combat (no commander
    # damage, 903.10a; no designation moves, 725.2)
    text = re.sub(r"(?i),? (?:not|no|non-?) ?(?:in )?combat(?: damage)?(?=$|[,;.!?])", " outside of combat",
                  text)
    text = _UNBLOCKED_AFTER_TURN.sub(
        lambda m: (", unblocked" if m["step"].endswith("unblocked") and "and" not in m["step"] else
                   " " + m["step"].lstrip(", ")) + m["turn"], text)
    text = re.sub(r"(?i)(?<=\w)'s face\b", "", text)  # "hits Ben's face": Ben, the player hit
    # "how much life does Tam have after taking 6": the one asked about does it ("after they take 6"); never
    # "before taking" (what was so before it is not what the events make so)
    text = _AFTER_DOING.sub(lambda m: f"{m['after']} they {_GERUNDS[m['verb'].lower()]}", text)
    # "Edgar attacks Quinn again and connects": the damage before is a fact said apart; "again" adds nothing
    text = re.sub(r"(?i) again\b(?=$|[,;.!?]| and\b| unblocked\b| for \d|"
                  r" (?:on|during|in) [\w'-]+ (?:own )?turn\b)", "", text)
    # "Ike died earlier in the game", "a few turns ago": said before the rest, which is the order said anyway
    text = re.sub(r"(?i)\bearlier (?:in|during|this) (?:the |this )?game\b|\bearlier on\b|"
                  r"\b(?:a few|a couple of|two|three|some) turns ago\b", "earlier", text)
    # "If Jo, Kai and Lev then all lose": the order word beside "all"/"both" adds nothing to a clause said
    # in its order ("Jo, Kai and Lev all lose")
    text = re.sub(r"(?i)(?<=\w) then (?=(?:all|both|each) )", " ", text)
    # "Ike died earlier. If Jo, Kai and Lev lose, does Ike win?": a story, then the question's own event
    # after it: one condition, in the order said
    text = re.sub(r"(?i)^(?P<story>[^.;!?]+)[.;!] +if (?P<rest>[^.;!?]+,[^.;!?]+[.!?]*)$",
                  r"if \g<story>, then \g<rest>", text)
    # "Kira concedes before Nate's combat": in Nate's turn (who is active is what a leaving player's
    # designations go by, 725.4, 726.4; a turn's steps don't change it)
    text = re.sub(r"(?i)\b(?:before|during|in|at|after) (?P<w>[A-Za-z][\w-]*(?:'s|s')|his|her|their) "
                  r"(?:(?:first )?combat(?: step| phase)?|(?:first |second |precombat |postcombat )?main"
                  r"(?: phase)?(?: (?:1|2|one|two))?)\b",
                  r"during \g<w> turn", text)
    # "liam is then knocked out": the order word before the verb, as "Liam then concedes" says it
    text = re.sub(r"(?i)\b(is|was|gets|got|are|were) then\b", r"then \1", text)
    text = _CONTRACTED.sub(lambda m: f"{m[1]} {'is' if m[2].lower() in _IS_WORDS else 'has'} {m[2]}", text)
    for typo, fix in _TYPOS:
        text = typo.sub(fix, text)
    # "her own teammate Bo": "own" stresses whose team it is, which the possessive already says
    text = re.sub(r"(?i)\b(his|her|their|my|your|our) own (?=(?:team ?mates?|teammates?|team|partners?|ally|"
                  r"allies|side|emperor)\b)", r"\1 ", text)
    text = _PRONOUN_POSSESSIVE.sub(r"\1's", text)
    # "from a pyroclasm-type thing": an effect like a card, not the card (its Oracle text is not read)
    text = re.sub(r"(?i)\b(from|by|with|to) an? [\w']+[- ](?:type|like|style|ish|esque) "
                  r"(?:thing|effect|spell|card)\b", r"\1 an effect", text)
    return text.strip().rstrip("?.! ").strip()


#: Short words people mistype at a table, mended as typed (too short to mend by spelling distance).

_LEADING = re.compile(
    r"^(?:(?:hey|hi|ok|okay|so|and|but|wait|um+|hmm+|sorry|quick question|rules question|question|judge|"
    r"judge call|real quick|one more|another one|also|now|well|alright|right|how about|what about|"
    # filler as people type it in a chat: context, never part of the question
    r"lol|lmao|haha|hah|heh|yo|pls|plz|please|help|quick q|real question|idk|like|dumb question|"
    r"stupid question|sorry for the dumb question|"
    # a hypothetical's or a newcomer's lead-in: "Hypothetically, if ...", "newbie question - ..."
    r"hypothetically|theoretically|in theory|actually|basically|essentially|newbie question|noob question|"
    r"beginner question|"
    r"new player here|here's one|got a question|i have a question|"
    # "someone explain - ...": a request for the answer, no part of it
    r"(?:can |could )?(?:someone|somebody|anyone|anybody) (?:explain|help|pls|please)(?: (?:this|me))?|"
    # "Since Cat is the monarch and conceded, who gets it": the facts the question then asks about
    r"since|given that|seeing as|seeing that|"
    r"so here's the (?:board|situation|deal|thing|spot|scenario)|here's the (?:board|situation|scenario)|"
    r"q)(?:,? -+ |[,:!.]? |$))+",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"(?:,? (?:right now|right away|now|then|please|exactly|here|at this point|in this case|in that case|"
    r"at that point|after that|"
    # "who has monarch after combat": the state once the fight said is over, which the question asks anyway
    r"after (?:the |this |that )?(?:combat|(?:combat )?damage|attack|fight)|"
    r"afterwards|again|judge|anyway|in this game|at this table|rn|atm|at the moment|currently|lol|lmao|haha|"
    # "does Gil win with his team": a team's players win together (104.2c); who is asked is the same
    r"(?:along )?with (?:his|her|their|the)(?:'s)? (?:team|teammates|team ?mates|side|squad)|"
    r"thx|thanks|thank you|ty|pls|plz|please|asking for a friend|:\)|:-\)|:d|xd|:)|, right|"
    r"(?:thanks|thx|ty) in advance|cheers|"
    # "Theo's the monarch if that matters": a fact offered in case it counts (the situation reads the fact)
    r"(?:if|in case|not sure if|idk if) (?:that|it|this) (?:matters|helps|is relevant|changes anything)|"
    r"fwiw|for what it's worth|"
    # "what's the turn order from here": from the table as it stands
    r"from here|from here on|from now on)+$",
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
