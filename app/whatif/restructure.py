"""How a sentence is built, made the one shape the readers know, before they see it: a passive made active
("Tom gets hit by a 1/1" -> "a 1/1 hits Tom"), a count said in passing made its own fact ("Tom at 9 poison
gets hit" -> "Tom is at 9 poison. Tom gets hit"), counts said as words made digits, and a question run on
after the story with no stop before it made its own sentence ("... Dan dies who's the monarch")."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.normalise import _WORD_NUMBERS

#: The words a count is said with ("at nine poison", "for seven", "takes six", "twelve life").
_COUNTED_BEFORE = (r"at|for|takes?|took|taken|loses?|lost|gains?|gained|deals?|dealt|has|have|had|with|on|to|"
                   r"and|by|of|another|sitting on|down to|up to")
_COUNTED_AFTER = r"life|poison|damage|dmg|commander damage|cmdr damage|counters?|poison counters?|more"
_BIG_WORDS = sorted((w for w in _WORD_NUMBERS if w not in ("a", "an", "one")), key=len, reverse=True)
_WORD = "|".join(map(re.escape, _BIG_WORDS))
_NUMBER_BEFORE = re.compile(
    rf"(?i)\b(?P<head>{_COUNTED_BEFORE}) (?P<n>{_WORD})\b(?![- ](?:headed|players?|turns?|times?|teams?|of\b|"
    r"cards?|seats?|creatures?|attackers?|blockers?|opponents?|people|way))")
_NUMBER_AFTER = re.compile(rf"(?i)\b(?P<n>{_WORD}|one) (?P<tail>{_COUNTED_AFTER})\b")


def counts_as_digits(text: str) -> str:
    """Counts said as words, as digits where a count is said ("at nine poison", "hits him for seven").

    >>> counts_as_digits("sam's at nineteen, theo pings him for four. two headed giant")
    "sam's at 19, theo pings him for 4. two headed giant"
    >>> counts_as_digits("ben has one poison counter and takes twenty-one")
    'ben has 1 poison counter and takes 21'
    >>> counts_as_digits("the other two players and one of them")
    'the other two players and one of them'
    """
    text = _NUMBER_BEFORE.sub(lambda m: f"{m['head']} {_WORD_NUMBERS[m['n'].lower()]}", text)
    return _NUMBER_AFTER.sub(lambda m: f"{_WORD_NUMBERS[m['n'].lower()]} {m['tail']}", text)


#: "Tom at 9 poison gets hit", "sol, at 3 life, concedes": a count said beside its subject, then its verb
_AT_COUNT = re.compile(
    r"(?i)(?:^|(?<=[.;!?] )|(?<=, )|(?<=\band ))(?P<who>(?!(?:who|what|it|is|was)\b)[a-z][\w'-]*),? "
    r"(?P<at>(?:at|on) \d+(?: life| poison(?: counters)?)?),? "
    r"(?P<verb>(?:gets|got|is|was|takes|took|attacks|swings|hits|concedes|scoops|loses|gains|dies|draws|"
    r"blocks|casts|pays)\b)")


def count_in_passing(text: str) -> str:
    """A count said beside its subject before the verb, made its own sentence.

    >>> count_in_passing("tom at 9 poison gets hit by a 1/1 infect creature. does he lose")
    'tom is at 9 poison. tom gets hit by a 1/1 infect creature. does he lose'
    >>> count_in_passing("who is at 9 poison")
    'who is at 9 poison'
    """
    return _AT_COUNT.sub(lambda m: f"{m['who']} is {m['at']}. {m['who']} {m['verb']}", text)


#: "B gets hit by A", "B was attacked by A's 3/3 with ...": the one acted on first. The agent runs to the
#: first word that is not part of a creature's or player's name said (a time, a count, "and", a stop).
_PASSIVE = re.compile(
    r"(?i)(?<![\w'])(?P<b>(?:(?:the|a|an) )?(?!(?:who|what|which|that|it|nobody|no one|everyone|and|then|but|"
    r"so|also|just|still|never|or|creature|i|you|we)\b)[a-z][\w'-]*) "
    r"(?P<aux>gets|get|got|is|are|was|were|is getting|gets swung at and hit|is being|was being) "
    r"(?P<verb>hit|attacked|swung at|smacked|punched|poked|smashed|bashed) by "
    r"(?P<a>(?:(?:a|an|the|his|her|their|its|[a-z][\w-]*'s?) )?(?:[\w/+-]+ ){0,3}?[\w/+-]+?)"
    r"(?=$|[,;.!?]| (?:for|on|during|in|with|and|but|then|unblocked|who|which|that|after|before|while|when|"
    r"this|last|next|so|to)\b)(?! (?:and|or) (?:an?|another|the) | from )"
    r"(?P<tail>(?:,? (?:for \d+(?: damage)?|unblocked|(?:on|during|in) [\w']+(?: own| next)? turn|"
    r"with (?:an?|his|her|their|its|[a-z]+'s) \d+/\d+(?: (?!(?:and|then|but|so)\b)[a-z]+)?))*)"
    r"(?P<on>,? (?:and then|then|and|but|so|,) (?!(?:an?|the|another|his|her|their|its|it|he|she|they|then|"
    r"with|for|on|in|no|nobody|unblocked|\d+)\b)(?=(?:concede|scoop|die|lose|lost|leave|left|is|was|has|had|take|took|"
    r"go|goes|went|block|gets?|got|draw|drew|quit|become|became|attack|swing|swung|hit|gain|survive|stay|chump|"
    r"does|doesn't|did|didn't|can|can't|pay|cast|still|then|now)\w*\b))?")
_OBJECT = {"he": "him", "she": "her", "they": "them"}
_ACTIVE = {"hit": "hits", "attacked": "attacks", "swung at": "swings at", "smacked": "hits",
           "punched": "hits", "poked": "hits", "smashed": "hits", "bashed": "hits"}
_PAST = {"hit": "hit", "attacked": "attacked", "swung at": "swung at", "smacked": "hit", "punched": "hit",
         "poked": "hit", "smashed": "hit", "bashed": "hit"}


def active_voice(text: str) -> str:
    """A passive hit or attack made active: the attacker first, then the one attacked.

    >>> active_voice("tom gets hit by a 1/1 infect creature. does he lose")
    'a 1/1 infect creature hits tom. does he lose'
    >>> active_voice("Mia is attacked by Noah with a creature and deals combat damage to her")
    'Noah attacks Mia with a creature and deals combat damage to her'
    >>> active_voice("rae got hit by sol's wolf for 2 on sol's turn")
    "sol's wolf hit rae for 2 on sol's turn"
    >>> active_voice("cat gets hit by ben then concedes")
    'ben hits cat then cat concedes'
    >>> active_voice("the monarch gets hit by ann, who's monarch")
    "ann hits the monarch, who's monarch"
    >>> active_voice("she gets hit by ann's dragon for 4 and concedes")
    "ann's dragon hits her for 4 and she concedes"
    >>> active_voice("dan is attacked by cat with a 4/4 and doesn't block")
    "cat attacks dan with a 4/4 and dan doesn't block"
    >>> active_voice("who got hit by the 3/3")
    'who got hit by the 3/3'
    """
    def turned(m: re.Match[str]) -> str:
        past = m["aux"].lower() in ("got", "was", "were", "was being")
        verb = (_PAST if past else _ACTIVE)[m["verb"].lower()]
        # "gets hit by Ben then concedes": the one hit concedes, said again
        said = m["b"]
        hit = _OBJECT.get(said.lower(), said)  # "she gets hit by Ann": Ann hits her, and she goes on
        return f"{m['a']} {verb} {hit}{m['tail']}" + (f"{m['on']}{said} " if m["on"] else "")

    return _PASSIVE.sub(turned, text)


#: A question that starts after the story with no stop before it ("... dan dies who's the monarch"): the
#: words that open a question, after a word that does not take a relative clause (not "the player who has")
_RUN_ON = re.compile(
    r"(?i)(?<=[a-z0-9])(?<!\bplayer)(?<!\bplayers)(?<!\bone)(?<!\bperson)(?<!\bsee)(?<!\bknow)(?<!\bsure)"
    r"(?<!\bwonder)(?<!\bwondering)(?<!\bask)(?<!\basking)(?<!\btell)(?<!\bme)(?<!\band)(?<!\bor)(?<!\bbut)"
    r"(?<!\bat)(?<!\bby)(?<!\bfor)(?<!\bto)(?<!\bof)(?<!\bwith)(?<!\bfrom)(?<!\bin)"
    r"(?<!\bif)(?<!\bwhen)(?<!\bso)(?<!\bthen)(?<!\bnow)(?<!\bthat)(?<!\babout)(?<!\bon)(?<!\bdecide)(?<!\bchoose)(?<!\bsay)(?<!\bsays)"
    r" (?=(?:who's|whos|who is|who has|who gets|who becomes|who controls|who wins|who would|who will|"
    r"what's|whats|what is|what happens|how many|how much|whose turn|"
    r"is (?!(?:the|a|an|at|on|still|not|now|out|dead|alive|in|then|also|just)\b)[a-z]+ "
    r"(?:still|dead|out|alive|eliminated)|"
    r"does (?!(?:the|a|not|it|that|this)\b)[a-z]+ (?:lose|win|die|get|become|stay|take|have|keep|still)|"
    r"can (?!(?:the|a|not|it|still)\b)[a-z]+ (?:still )?(?:attack|block|win))\b)")


#: words that make the clause they are in a question already ("how much life does Dan have", "who can Zoe
#: attack"): a question word inside it is part of it, not a new one
_ASKING = re.compile(r"(?i)(?:^|\b)(?:who|whom|whos|who's|what|whats|what's|how|whose|which|where|when|why|"
                     r"whether|if|^(?:is|are|does|do|did|can|could|will|would|should|has|have))\b")


#: a time said before the question ("on Fay's turn can Fay attack", "after combat who's the monarch")
_TIME_ONLY = re.compile(r"(?i)^(?:on|during|in|at|after|before|by|until|once)(?: [\w'/-]+){1,3}$")


def question_apart(text: str) -> str:
    """A question run on after the story, made its own sentence.

    >>> question_apart("on ben's turn dan dies who's the monarch")
    "on ben's turn dan dies. who's the monarch"
    >>> question_apart("cat gives him one poison counter is ben still in")
    'cat gives him one poison counter. is ben still in'
    >>> question_apart("how much life does dan have")
    'how much life does dan have'
    >>> question_apart("the player who has the monarch concedes")
    'the player who has the monarch concedes'
    """
    def apart(m: re.Match[str]) -> str:
        said = re.split(r"[.;!?,:] | -+ ", text[:m.start()])[-1]
        return " " if _ASKING.search(said) or _TIME_ONLY.match(said) else ". "

    return _RUN_ON.sub(apart, text)


#: chat words that carry no fact where they close a clause ("… if that matters lol", "he's dead lmao. who …")
_NO_FACT = re.compile(r"(?i)(?:,?\s+(?:lol+|lmao|rofl|haha+|hehe+|xd|ngl|tbh|fr|:\)|:d|:p))+"
                      r"(?=\s*(?:[,.;!?]|$))")


def without_chat_words(text: str) -> str:
    """Without the chat words that close a clause and say nothing of the game.

    >>> without_chat_words("who plays after her? Theo's the monarch if that matters lol")
    "who plays after her? Theo's the monarch if that matters"
    >>> without_chat_words("sol monarch lol. tam swings at sol, haha. who's monarch")
    "sol monarch. tam swings at sol. who's monarch"
    """
    return _NO_FACT.sub("", text)


def restructure(text: str) -> str:
    """Every reshaping above, in the order each needs: the chat words out, the counts as digits, a question
    run on made apart, then the count said in passing, then the passive (whose subject the count's sentence
    may have made).

    >>> restructure("tom at nine poison gets hit by a 1/1 infect creature does he lose")
    'tom is at 9 poison. a 1/1 infect creature hits tom. does he lose'
    """
    text = without_chat_words(text.replace("\u2019", "'"))
    return active_voice(count_in_passing(question_apart(counts_as_digits(text))))
