"""A question told as a story, retold plainly before its facts and events are read (``services.ask_what_if``
calls :func:`retell` first): what people say around a rules question at a table, and what a reader of
facts and events need not see.

- **openers and asides**: "So we had a weird one last night.", "So here's the board.", "quick q lol,",
  "sorry newbie question -", "because he had to leave for work";
- **a correction**: "If Quinn goes to 0 life from a Blasphemous Act... wait no, he takes 40 damage" keeps
  what follows "wait no" (its pronoun is the corrected sentence's player);
- **the doubt is the question**: "We weren't sure who got the monarch. Who should have?" asks "who got the
  monarch?";
- **facts said the way people keep score**: "Ann has Ben at 4" (Ben is at 4), "Krenko has hit Ben for 9 and
  9" (18 so far, 903.10a counts each commander's total), "Pat's been hit by Edgar for 10 and by Ghave for 12"
  (one fact per commander: two commanders never add, 903.10a);
- **a tag question**: "Dan's out, right?", "Flo gets monarch, yes?" ask whether he is out, whether she
  gets it;
- **a count said once**: "he gets 3 counters and then 4 more" (the verb again: "then gets 4 more"), and
  "counters" in a sentence about poison are poison counters (a player's only counters the rules count here,
  122.1f).

Each rewrite is a class of phrasing, never one phrase; what it can't place is left as said.

>>> retell("So we had a weird one last night. Noah was the monarch. On Olive's turn, Noah just scooped "
...        "because he had to leave for work. We weren't sure who got the monarch. Who should have?")
"Noah was the monarch. On Olive's turn, Noah just scooped. who got the monarch?"
>>> retell("If Quinn goes to 0 life from a Blasphemous Act... wait no, he takes 40 damage from Rosa's spell. "
...        "Still in?")
"Quinn takes 40 damage from Rosa's spell. Still in?"
>>> retell("Ann gets mind controlled by... no, Ann's Bear gets stolen by Ben. Who controls it?")
"Ann's Bear gets stolen by Ben. Who controls it?"
>>> retell("Ann is at 9, Ben attacks her and Cat attacks... no wait only Ben. Is Ann out?")
'Ann is at 9, Ben attacks her. Is Ann out?'
>>> retell("Ann is actually no longer the monarch, Ben is. Who is?")
'Ann is actually no longer the monarch, Ben is. Who is?'
>>> retell("Ann has Ben at 4; Ann deals 4 damage to Ben", ["Ann", "Ben"])
'Ben is at 4; Ann deals 4 damage to Ben'
>>> retell("ok so Krenko has hit Ben for 9 and 9, now Krenko hits him for 3")
'ok so Krenko has hit Ben for 18, now Krenko hits him for 3'
>>> retell("Pat's been hit by Edgar for 10 and by Ghave for 12. Is Pat out?")
"Pat's been hit by Edgar for 10 and Pat has been hit by Ghave for 12. Is Pat out?"
>>> retell("Ann hits Dan for 1. Dan's out, right?")
'Ann hits Dan for 1. is Dan out?'
>>> retell("Ann's 3/3 hits Dan and Dan had the initiative; who has it?")
"Dan had the initiative. Ann's 3/3 hits Dan; who has it?"
>>> retell("Ann hits Dan for 1. also Ann is at 20 still right")
'Ann hits Dan for 1. is Ann at 20 still?'
>>> retell("how much poison does Dan have if he gets 3 counters and then 4 more")
'how much poison does Dan have if he gets 3 poison counters and then gets 4 more'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rulesjudge.app.stories_combat import (
    _attacker_pronoun_turn,
    _before_damage_first,
    _block_before_attack,
    _commander_damage_gapped,
    _either_question,
    _has_attacking,
    _has_then_attacks,
    _not_him,
    _nothing_changed,
    _one_at_each,
    _split_attack,
    _took_by,
    _turn_inside,
    _two_alike,
    _unblocked_apart,
    _verb_said_once,
)
from rulesjudge.app.stories_said import (
    _JUST_A,
    _TAG,
    _attacked_is_blocker,
    _dealt_by,
    _each_time,
    _has_got,
    _hedged_number,
    _hit_taken,
    _labelled_team,
    _last_clause,
    _shorthand_and,
    _the_team_then,
    _total_beside,
    _total_tag,
    _total_then_another,
)
from rulesjudge.app.stories_told import (
    _after_combat_asked,
    _after_sba,
    _before_turn_ends,
    _designations_asked,
    _ended_up,
    _gets_through,
    _held_after_attack,
    _is_attacking,
    _later_that_turn,
    _not_in_brackets,
    _shorthand,
    _turn_gapped,
    _unblocked_takes,
    _wants_to_block,
    _while_active,
)

_FILLER_OPENERS = re.compile(
    r"^(?:(?:so+|ok|okay|right|um+|hey|hi|alright),? )*"
    r"(?:we had (?:a|an|this) [^.!?]*|here'?s (?:the|a|what) [^.!?]*|"
    r"(?:this|something) (?:weird |odd |funny )?happened[^.!?]*|"
    r"(?:a )?(?:quick|dumb|stupid|newbie|noob|rules|judge) (?:q|question|one)(?: for you)?(?: lol)?|"
    # "monarch question:", "commander dmg q:": the topic said as a label, with its colon
    r"(?:monarch|crown|initiative|combat|commander|cmdr|commander (?:dmg|damage)|cmdr (?:dmg|damage)|poison|"
    r"trample|infect|blocking|concession|turn order) (?:q|question)(?=:)|"
    r"(?:sorry,? )?(?:newbie|noob|dumb|stupid) question|sorry(?: if this is (?:dumb|obvious))?|"
    r"(?:need|needs) (?:a )?(?:ruling|help)(?: here)?|judge call(?: at (?:our|the|my) table)?|"
    r"(?:a )?question(?: for you)?|"
    # "A player asks:", "my buddy wants to know -", "As a judge:": who asks, said before what is asked
    r"(?:a|one|my|our|another|some) (?:player|judge|friend|buddy|mate|opponent|guy|new player)"
    r"(?: (?:at|in|from) (?:the|my|our) (?:table|pod|playgroup|group|lgs|store))? (?:asks|asked|is asking|"
    r"was asking|wants to know|wanted to know|wonders|wondered|says|said|writes|wrote)|"
    r"as an? (?:judge|player|new player|l1|l2|level (?:1|2|one|two) judge)|asking for an? (?:friend|judge))"
    r"\s*(?:[.:!,]+|-+|—)\s*", re.IGNORECASE)
#: "because he had to leave for work", "since it was late": why a player did something changes no rule
#: (not a state said as the reason, "since they're next to each other": the table's seating, read as a fact)
_BECAUSE = re.compile(r",? (?:(?:because|cause|'cause) (?:he|she|they|it|we|i)\b|"
                      r"(?:since|as) (?:he|she|they|it|we|i)\b(?!'re|'s| are| is| sit| sits| were| was))"
                      r"[^.;!?]*(?=[.;!?]|$)", re.IGNORECASE)
#: "... wait no, he takes 40", "Ann concedes, I mean Ben": the words of a correction ("no" said apart, so
#: "Ann is actually no longer the monarch" is no correction)
#: A bare "no" corrects only after a break ("mind controlled by... no, Otto's Elemental", "Ann and Ben draw?
#: no - if ..."), never inside a sentence ("no monarch", "no, Ben blocks" said as an answer); "no wait only
#: Mika" withdraws what was added last (:func:`_correction`).
_CORRECTION = re.compile(r"(?P<said>[^.;!?]*?)(?:(?:\.{2,}|,|;|-+|—)? *(?:(?:wait,? no|no wait|actually,? no|"
                         r"sorry,? no|no,? i mean|nah|nope|scratch that)(?:[,.!:]+|(?= (?:only|just) ))|"
                         r"wait,? no|no wait|no,? i mean,?|"
                         r"scratch that|"
                         r"(?:sorry,? )?i mean,?|(?:nah|nope|no|wait)(?= (?:only|just) ))|"
                         r"(?:\.{2,}|\?|(?<= )-+|—) *no *(?:[,:!]|-+|—)) (?P<meant>[^.;!?]+)", re.IGNORECASE)
#: "... and Jules attacks... no wait only Mika": the player kept, the clause added after "and" withdrawn
_ONLY = re.compile(r"(?i)^(?:only|just) (?P<who>[A-Z][\w'-]*)(?: (?:does|did|attacks|attacked))?$")
_SUBJECT = re.compile(r"^(?:(?i:if|when|say|suppose) )?(?P<who>[A-Z][\w'-]*)\b")
_PRONOUN = re.compile(r"^(?:he|she|they)\b", re.IGNORECASE)
_DOUBT = re.compile(
    r"(?:we|i|they|the table|everyone|nobody) (?:(?:weren'?t|wasn'?t|were not|was not|aren'?t|am not|are not|"
    r"'m not|'re not) sure|(?:couldn'?t|could not|can'?t|cannot|didn'?t|did not|don'?t) (?:agree|decide|know|"
    r"tell|figure out)(?: on)?|(?:argued|disagreed|fought|were arguing)(?: about| over| on)?) "
    r"(?P<q>(?:who|whose|what|which|if|whether|how)\b[^.;!?]*)[.;!?]?"
    r"(?:\s*(?:(?:who|what|which) (?:should|would|does|did) (?:have|get|be)(?: it)?|"
    r"(?:who|which of us)(?: was|'s| is) right|who(?:'s| is) correct)\??)?",
    re.IGNORECASE)
_HAS_AT = re.compile(r"\b(?P<a>[A-Z][\w'-]*) (?:has|had|has got|'s got) (?P<b>[A-Z][\w'-]*) (?:at|on) "
                     r"(?P<n>\d+)\b(?! (?:power|toughness|loyalty|counters?|cards?|mana)\b)"
                     r"(?P<and> and(?= \w))?")
_SUM = re.compile(r"\b(?P<head>(?:has|had|'s|have) (?:already )?(?:hit|been hit by [A-Z][\w'-]*|dealt) "
                  r"(?:[A-Z][\w'-]* )?for) (?P<n>\d+)(?P<more>(?:,? and \d+|, \d+)+)\b")
_BY_AND_BY = re.compile(r"\b(?P<who>[A-Z][\w'-]*)(?P<has>'s| has) been hit by (?P<a>[A-Z][\w'-]*) for "
                        r"(?P<n>\d+) and by (?P<b>[A-Z][\w'-]*) for (?P<m>\d+)")
_MORE = re.compile(r"\b(?P<verb>gets|got|takes|took|loses|lost|gains|gained|receives) (?P<first>\d+|\w+) "
                   r"(?P<what>[^.;,!?]*?)(?P<rest>(?:(?:,? and|,) (?:then )?(?:\d+|\w+) more\b)+)",
                   re.IGNORECASE)


def retell(question: str, players: Sequence[str] = ()) -> str:
    """The question with its story's openers, asides, corrections and score-keeping said plainly;
    ``players``: the names the table's sentences may use (its players and permanents)."""
    text = " ".join(question.split())
    for rewrite in _REWRITES:
        text = rewrite(text, players)
    return text.strip()


#: A happening after a story, with a question mark: "... Ravi blocks with the Wall. Knight dies?" asks whether
#: it happens ("does Knight die?"); read as told, it would be answered as done
_TOLD_AS_ASKED = re.compile(
    r"(?P<lead>[.;!?,] )(?P<who>(?:(?!\b(?:who|what|which|how|whose|does|do|did|is|are|can|will|if|when|once|"
    r"after|unless)\b)[^.;!?,])+?) (?P<verb>dies|survives|loses|wins|lives)\?", re.IGNORECASE)


def _asked_as_told(text: str, players: Sequence[str]) -> str:
    """ "... Ben blocks with the Wall. Bear dies? Ben's life?": whether the Bear dies, asked.

    >>> _asked_as_told("Ann attacks Ben and Ben blocks with the Wall. Bear dies? Ben's life?", ())
    "Ann attacks Ben and Ben blocks with the Wall. does Bear die? Ben's life?"
    >>> _asked_as_told("Ben is at 2. Ann's Bear hits Ben. Ben survives?", ())
    "Ben is at 2. Ann's Bear hits Ben. does Ben survive?"
    >>> _asked_as_told("Bear dies? what then", ())  # no story before it: "what if the Bear dies"
    'Bear dies? what then'
    >>> _asked_as_told("Eli is the emperor. If Eli goes to 0 life who wins?", ())  # asked already
    'Eli is the emperor. If Eli goes to 0 life who wins?'
    """
    return _TOLD_AS_ASKED.sub(lambda m: f"{m['lead']}does {m['who']} {m['verb'][:-1]}?", text)


def _openers(text: str, players: Sequence[str]) -> str:
    """ "So we had a weird one last night. ...", "quick q lol, ...": the opener, dropped (each in turn)."""
    while True:
        shorter = _FILLER_OPENERS.sub("", text, count=1)
        if shorter == text or not shorter:
            return text
        text = shorter


#: what a sentence about the table names: a rules word of the variants and events the reader knows
_TABLE_WORDS = re.compile(
    r"(?i)\b(?:monarch|crown|king|queen|initiative|turn|life|poison|commander|team|emperor|general|treachery|"
    r"leader|guardian|assassin|traitor|giant|2hg|thg|melee|alternating|ffa|free[- ]for[- ]all|variant|attack|"
    r"damage|block|concede|scoop|lose|win|draw|library|creature|spell|edh|die|dies|dead|kill|destroy|exile|"
    r"hit|steal|control|tap|out|leave|left|range|influence|players?|seats?|seated|of us)")


def _idle(text: str, players: Sequence[str]) -> str:
    """ "Weird one from game night. ...": a leading sentence naming no player and no rules word says nothing
    of the table (only where the table's players are known; the last sentence always stays)."""
    if not players:
        return text
    names = re.compile(r"(?i)\b(?:" + "|".join(re.escape(p) for p in players) + r")\b")
    while True:
        first = re.match(r"[^.!?]+[.!]+\s+(?=\S)", text)
        said = first[0] if first else ""
        if first is None or names.search(said) or _TABLE_WORDS.search(said) or re.search(r"\d", said):
            return text
        text = text[first.end():]


#: "Dan's out, right?": a state checked with a tag (``stories_said._TAG``)
_STATE_TAG = re.compile(rf"(?P<lead>^|[.;!?] |, )(?:(?i:also|and|so),? )?(?:(?P<x>[A-Z][\w'-]*)(?:'s| is)|"
                        rf"(?P<p>(?i:she|he))(?:'s|s| is)|(?P<they>(?i:they))(?:'re|re| are)) "
                        rf"(?P<state>out|dead|eliminated|gone|still in|still alive|alive|"
                        # "Ada is at 20 still, right?": her life total asked
                        rf"(?:still )?at \d{{1,3}}(?: life)?(?: still)?){_TAG}")
_GETS_TAG = re.compile(rf"(?P<lead>^|[.;!?] |, )(?P<x>[A-Z][\w'-]*) (?:gets|takes|keeps|becomes) (?:the )?"
                       rf"(?P<d>monarch|crown|initiative){_TAG}")


_HOLDS_TAG = re.compile(rf"(?P<lead>^|[.;!?] |, )(?P<x>[\w-]+)(?: still)? (?:has|holds|keeps|is|'s)"
                        rf"(?: still)? (?:the )?(?P<d>monarch|crown|initiative){_TAG}", re.IGNORECASE)


def _tag(text: str, players: Sequence[str]) -> str:
    """ "Dan's out, right?", "shes gone right?", "Flo gets monarch, yes?": a statement checked with a tag is
    the question (never
    an event: "Dan's out" said after a hit of 1 is what is asked, not what happens).

    >>> _tag("sol concedes on sol's turn, vic still has initiative right?", ["Sol", "Vic"])
    "sol concedes on sol's turn, does vic keep the initiative?"
    """
    text = _STATE_TAG.sub(lambda m: f"{m['lead']}are they {m['state']}?" if m["they"] else
                          f"{m['lead']}is {m['x'] or m['p'].lower()} {m['state']}?", text)
    text = _GETS_TAG.sub(lambda m: f"{m['lead']}does {m['x']} get the {m['d']}?", text)
    names = {p.casefold() for p in players}
    # "vic still has initiative right?", "uma's still monarch, yeah?": a holding checked, by a name of the
    # table in any case; said first, before any story, it is the table checked, a fact (never asked)
    return _HOLDS_TAG.sub(lambda m: f"{m['lead']}does {m['x']} keep the {m['d']}?"
                          if m["x"].casefold() in names and m["lead"] else m[0], text)


_PUMPED = re.compile(r"(?i) (?:gets|got|is|was) (?:pumped|buffed|boosted|pumped up)(?: by [+\w/-]+)? and "
                     r"(?=(?:hits|attacks|swings at|connects with)\b[^.;!?]*\bfor \d)")


def _pumped(text: str, players: Sequence[str]) -> str:
    """ "Krenko gets pumped and hits Cat for 21": the pump said, then the damage it deals: the amount said
    is the damage, so the pump adds nothing to read."""
    return _PUMPED.sub(" ", text)


#: (not "like Cy's": one player's answer given as an example of the question, app.remarks_said)
_LIKE = re.compile(r"^(?P<q>.+?\?)\s*(?:like|say|e\.g\.|for example|for instance|so like),? "
                   r"(?![A-Za-z][\w-]*(?:'s|')[.!]?$)(?P<facts>[^?]+?)[.!]?$", re.IGNORECASE)
_LAST_SAID = re.compile(r"^(?P<q>.*\?)\s+(?P<facts>[^?]+?)[.!]?$")
_ASKS = re.compile(r"(?i)^(?:who|whom|whose|what|which|where|when|can|could|does|do|did|is|are|will|would|"
                   r"how|has|have|should)\b")
_ALL_ON = re.compile(r"^(?P<events>[^.;!?]+?),? (?:all|both) (?P<when>(?:on|during|in) [A-Z][\w'-]*'s? turn)"
                     r"(?P<end>[.;!?]|$)")


def _said_after(text: str, players: Sequence[str]) -> str:
    """ "... who gets it? like Cat has it and it's Dan's turn", "does anybody win? Noah and Olive are still
    fine": what is said after the question is the table it asks about; said first. Only a statement that
    opens with a player's name ("he's at 19" would come before the one it stands for; "thanks" is none).

    >>> _said_after("does the crown disappear? Olive is monarch and leaves", ["Olive"])
    'Olive is monarch and leaves. does the crown disappear?'
    >>> _said_after("is ben still playing? he's at 19 life", ["Ben"])
    "is ben still playing? he's at 19 life"
    """
    like = _LIKE.match(text)
    if like:
        return f"{like['facts'].strip()}. {like['q']}"
    last = _LAST_SAID.match(text)
    opens = re.match(r"[\w'-]+", last["facts"].strip()) if last else None
    if last and opens and opens[0].casefold() in {p.casefold() for p in players} and \
            not _ASKS.match(last["facts"].strip()):
        return f"{last['facts'].strip()}. {last['q']}"
    return text


def _all_on(text: str, players: Sequence[str]) -> str:
    """ "Cat concedes, then Dan concedes, all on Ben's turn": the turn said once, for every event: first."""
    for sentence in re.finditer(r"(?:^|(?<=[.;!?] ))[^.;!?]+[.;!?]?", text):
        said = _ALL_ON.match(sentence[0])
        if said:
            moved = f"{said['when'][0].upper()}{said['when'][1:]}, {said['events']}{said['end']}"
            return text[: sentence.start()] + moved + text[sentence.end():]
    return text


def _in_combat(text: str, players: Sequence[str]) -> str:
    """ "his goblin hits Ann in combat": a hit is combat damage already (the words add nothing to read)."""
    return re.sub(r"(?i)\b(hits|hit|connects with|smacks|swings at) ([\w']+) in combat\b", r"\1 \2", text)


def _initiative(text: str, players: Sequence[str]) -> str:
    """ "olive (who has initiative)", "does liam get initiative": the initiative, as the rules say it."""
    return re.sub(r"(?i)\b(has|had|holds|held|with|takes|take|took|get|gets|got|keep|keeps|kept|lose|loses|"
                  r"lost) initiative\b", r"\1 the initiative", text)


def _aside(text: str, players: Sequence[str]) -> str:
    """ "olive (who has initiative) got knocked out": a relative clause in brackets is said between commas,
    as the facts of a question are read (``app.situation``); a hedge in brackets ("(obviously)") and "what's
    the ruling on" before the question are dropped; "say it's Olive's turn and ...": the
    hypothetical's lead-in before a fact said with "it's"."""
    text = re.sub(r"(?i)\b([\w'-]+) \(((?:who|whose|which) [^()]*)\),?", r"\1, \2,", text)
    # "Owen is the monarch (obviously), ...": a hedge in brackets says nothing of the table
    text = re.sub(r"(?i)\s*\((?:obviously|of course|apparently|i think|i believe|i guess|probably|lol|"
                  r"for some reason|somehow|don't ask|long story)\)", "", text)
    # "It's Cy's turn (2HG).": the variant said in brackets, read as "in 2HG" (the situation's variant)
    text = re.sub(r"(?i)\s*\((2hg|thg|two[- ]headed giant|emperor|ffa|free[- ]for[- ]all|grand melee|"
                  r"team vs\.? team|treachery|commander|edh|alternating teams)\)", r" in \1", text)
    # "..., whats the ruling on who becomes monarch": the question the ruling is on
    text = re.sub(r"(?i)\bwhat(?:'?s| is| would be) the (?:ruling|call|rule|answer|correct ruling) (?:on|for|"
                  r"about|here on|as to) (?=(?:who|whom|whose|what|which|how|whether|if)\b)", "", text)
    return re.sub(r"(?i)^(?:(?:so|ok|okay),? )?(?:say|suppose|imagine|let's say)(?: that)? (?=it'?s\b)", "",
                  text)


#: "Can Owen block the Ogre with his Wall if Mia is attacking Noah?": a block asked before it happens
_CAN_BLOCK = re.compile(
    r"(?i)\b(?:can|could|may|is) (?P<p>[A-Z][\w'-]*) (?:be able to |allowed to )?block (?:(?P<a>(?:the |"
    r"[\w'-]+'s )?[\w'-]+) )?with (?P<d>(?:the |his |her |their )?[\w'-]+),? (?:if|when|while) (?P<by>"
    r"(?:the |[\w'-]+'s )?[\w'-]+) (?:is attacking|attacks|attacked|swings at) (?P<t>[A-Z][\w'-]*)"
    r"(?P<end>[?.!]|$)")


def _can_block(text: str, players: Sequence[str]) -> str:
    """ "Can Owen block the Ogre with his Wall if Mia is attacking Noah?": told as it would happen - the
    attack, then the block - and asked whether the attacker is blocked (the model judges the block: 509.1a,
    802.4a, 805.10d).

    >>> _can_block("Can Owen block the Ogre with his Wall if Mia is attacking Noah?", [])
    'Mia attacks Noah with the Ogre and Owen blocks it with his Wall. Is the Ogre blocked?'
    >>> _can_block("Can Bo block with his Wall if Cy's Rhino is attacking Ada?", [])
    "Cy's Rhino attacks Ada and Bo blocks it with his Wall. Is Cy's Rhino blocked?"
    """
    def told(m: re.Match[str]) -> str:
        attacker = m["a"] or m["by"]
        attack = f"{m['by']} attacks {m['t']} with {m['a']}" if m["a"] else f"{m['by']} attacks {m['t']}"
        return f"{attack} and {m['p']} blocks it with {m['d']}. Is {attacker} blocked{m['end'] or '?'}"
    return _CAN_BLOCK.sub(told, text)


def _because(text: str, players: Sequence[str]) -> str:
    return _BECAUSE.sub("", text)


def _correction(text: str, players: Sequence[str]) -> str:
    """ "A... wait no, B": B instead of A; B's leading pronoun is A's subject."""
    def meant(match: re.Match[str]) -> str:
        said, rest = match["said"].strip(), match["meant"].strip()
        lead = match["said"][:len(match["said"]) - len(match["said"].lstrip())]  # the space after a stop
        only = _ONLY.match(rest)
        if only:  # "Mika attacks her and Jules attacks... no wait only Mika": Mika's clause, kept alone
            kept, _and, _added = said.rpartition(" and ")
            named = re.search(rf"(?i)\b{re.escape(only['who'])}\b", kept)
            return kept if kept and named else match[0]
        thing = _JUST_A.match(rest)
        if thing:  # "gives him 2 poison with a proliferate... nah just an infect 2/2": the thing said again
            article = list(re.finditer(r"(?i)\b(?:an?|the|some)\b", said))
            return lead + said[:article[-1].start()] + thing["thing"] if article else match[0]
        kept, clause = _last_clause(said)
        subject = _SUBJECT.match(clause)
        if subject and _PRONOUN.match(rest):
            rest = _PRONOUN.sub(subject["who"], rest, count=1)
        return lead + kept + rest

    return _CORRECTION.sub(meant, text, count=1)


#: "Zoe is at... the team is at 4 life": a sentence begun of one player and said again of "the team" (a
#: shared total, 810.9): the team is that player's
_RESTART = re.compile(r"\b(?P<who>[A-Z][\w-]*) (?:is at|is on|has|had|was at)\s*(?:\.{2,}|…|-+)\s*"
                      r"(?:well,? |i mean,? |or rather,? |actually,? )?(?:the|their|his|her) team\b",
                      re.IGNORECASE)


def _restart(text: str, players: Sequence[str]) -> str:
    """ "Zoe is at... the team is at 4 life": "Zoe's team is at 4 life" (only a player at the table)."""
    def team(match: re.Match[str]) -> str:
        names = {p.casefold() for p in players}
        return f"{match['who']}'s team" if not names or match["who"].casefold() in names else match[0]

    return _RESTART.sub(team, text)


#: "Ada's 3/3 hits Cy and Cy had the initiative": a holding said in the past after an event is the table
#: before it (725.1, 726.1), said first
_HAD = re.compile(r"(?P<lead>^|[.;!?] )(?P<event>[^.;!?]+?),? and (?P<who>[A-Z][\w'-]*) had "
                  r"(?P<what>the initiative|the monarch|the crown|been (?:the )?monarch)(?: before| already)?"
                  r"(?P<end>[.;!?]|$)")


def _had(text: str, players: Sequence[str]) -> str:
    """ "Ada's 3/3 hits Cy and Cy had the initiative; who has it": the holding first ("Cy had the
    initiative. Ada's 3/3 hits Cy; ...")."""
    return _HAD.sub(lambda m: f"{m['lead']}{m['who']} had {m['what']}. {m['event']}{m['end']}", text)


def _doubt(text: str, players: Sequence[str]) -> str:
    """ "We weren't sure who got the monarch. Who should have?": the doubt is the question."""
    return _DOUBT.sub(lambda m: m["q"].strip() + "?", text)


def _has_at(text: str, players: Sequence[str]) -> str:
    """ "Ann has Ben at 4": Ben is at 4 (a player keeping another's score); only between two players."""
    def said(match: re.Match[str]) -> str:
        names = {p.casefold() for p in players}
        if names and not {match["a"].casefold(), match["b"].casefold()} <= names:
            return match[0]
        # "Ann has Dan at 3 and hits him": the fact, then Ann again as the next clause's subject
        return f"{match['b']} is at {match['n']}" + (f"; {match['a']}" if match["and"] else "")

    return _HAS_AT.sub(said, text)


def _sum(text: str, players: Sequence[str]) -> str:
    """ "has hit Ben for 9 and 9": the damage so far, added (903.10a counts one commander's total)."""
    def added(match: re.Match[str]) -> str:
        total = int(match["n"]) + sum(int(n) for n in re.findall(r"\d+", match["more"]))
        return f"{match['head']} {total}"

    return _SUM.sub(added, text)


def _by_and_by(text: str, players: Sequence[str]) -> str:
    """ "Pat's been hit by Edgar for 10 and by Ghave for 12": one fact per commander."""
    return _BY_AND_BY.sub(lambda m: f"{m['who']}{m['has']} been hit by {m['a']} for {m['n']} and {m['who']} "
                                    f"has been hit by {m['b']} for {m['m']}", text)


def _more(text: str, players: Sequence[str]) -> str:
    """ "gets 3 counters and then 4 more": the verb said again for the second count."""
    def again(match: re.Match[str]) -> str:
        verb = match["verb"]
        more = re.sub(r"(?i)(,? and|,) (then )?(\w+) more\b",
                      lambda m: f"{m[1]} {m[2] or ''}{verb} {m[3]} more", match["rest"])
        return f"{verb} {match['first']} {match['what']}{more}".replace("  ", " ")

    return _MORE.sub(again, text)


def _poison_counters(text: str, players: Sequence[str]) -> str:
    """ "counters" in a sentence about poison: poison counters (122.1f)."""
    if not re.search(r"(?i)\bpoison", text):
        return text
    return re.sub(r"(?i)(?<!poison )\b(counters?)\b", r"poison \1", text)


#: "Theo's the monarch if that matters": a designation offered in case it counts, asked back so the answer
#: says whether it moved (other facts offered so are only read: ``normalise._TRAILING`` drops the words)
_IF_IT_MATTERS = re.compile(
    r"(?P<lead>^|[.;!?] )(?P<fact>[^.;!?]*?\b(?P<d>monarch|initiative)\b[^.;!?]*?),? "
    r"(?:if|in case) (?:that|it|this) (?:matters|helps|is relevant|changes anything)(?P<stop>[.;!?]|$)",
    re.IGNORECASE)


def _if_it_matters(text: str, players: Sequence[str]) -> str:
    """ "who plays after her? Theo's the monarch if that matters": the fact, and who has it afterwards.

    >>> _if_it_matters("who plays after Ann? Ben's the monarch if that matters", ())
    "who plays after Ann? Ben's the monarch. who has the monarch?"
    """
    return _IF_IT_MATTERS.sub(lambda m: f"{m['lead']}{m['fact']}. who has the {m['d'].lower()}?", text)


#: "Jules and Mika both lose to a board wipe drain": what a player lost to, said after the loss
_LOST_TO = re.compile(r"\b(?P<verb>lose|loses|lost|die|dies|died) to (?P<cause>(?:a |an |the )?[\w'-]+"
                      r"(?: [\w'-]+){0,3}?)(?=[.;,!?]|$| (?:and|then|at once|at the same time|together|"
                      r"simultaneously)\b)(?!\w)", re.IGNORECASE)
#: words that say when, after a cause: "dies to a Shock before damage" keeps its time (never dropped)
_WHEN_SAID = re.compile(r"(?i)\b(?:before|after|during|while|when|once|until|in|at|on)\b")


def _lost_to(text: str, players: Sequence[str]) -> str:
    """ "Ann and Ben both lose to a board wipe drain": they lose (104.3); how changes nothing of what follows,
    unless it is combat damage or someone's doing (a player or a permanent named: that is an event of its own,
    left as said).

    >>> _lost_to("Ann and Ben both lose to a board wipe drain. who has what?", ["Ann", "Ben", "Cat"])
    'Ann and Ben both lose. who has what?'
    >>> _lost_to("Ann dies to Cat's Korvold", ["Ann", "Cat", "Korvold"])
    "Ann dies to Cat's Korvold"
    >>> _lost_to("Ann loses to poison while holding the initiative", ["Ann"])  # a fact goes on after it
    'Ann loses to poison while holding the initiative'
    >>> _lost_to("the Bear dies to a Shock before damage.", ["Ann"])  # when it happens is kept
    'the Bear dies to a Shock before damage.'

    """
    names = {p.casefold() for p in players}

    def lost(match: re.Match[str]) -> str:
        if _WHEN_SAID.search(match["cause"]):
            return match[0]
        words = {w.casefold().removesuffix("'s") for w in re.findall(r"[\w']+", match["cause"])}
        if words & names or words & {"combat", "attack", "attacks", "hit", "hits", "creature", "creatures",
                                     "commander", "his", "her", "their"}:
            return match[0]
        return match["verb"]

    return _LOST_TO.sub(lost, text)


#: "Theo concedes and it's Theo's turn", "... while it's Ann's turn": the turn the event happens in
#: (a fact said between them stays: "concedes while Theo controls the monarch and it's Theo's turn")
_AND_ITS_TURN = re.compile(r"(?P<event>\b(?:concedes|conceded|scoops|scooped|leaves|left|dies|died|loses|"
                           r"lost|drops|dropped)(?: while [\w'-]+(?: [\w'-]+){0,4})?) (?:and|while|when) "
                           r"it(?:'s| is) (?P<who>[A-Z][\w-]*)(?:'s|') (?P<own>own )?turn\b")


def _and_its_turn(text: str, players: Sequence[str]) -> str:
    """ "if Theo concedes and it's Theo's turn": he concedes on that turn (the turns pass until it, 800.4j).

    >>> _and_its_turn("if Ann concedes and it's Ann's turn does the monarch pass to Ben", ())
    "if Ann concedes on Ann's turn does the monarch pass to Ben"
    """
    return _AND_ITS_TURN.sub(lambda m: f"{m['event']} on {m['who']}'s {m['own'] or ''}turn", text)


_REWRITES: tuple[Callable[[str, Sequence[str]], str], ...] = (
    _shorthand, _while_active, _openers, _idle, _hedged_number, _dealt_by, _has_got, _total_beside,
    _hit_taken, _total_then_another, _shorthand_and,
    _each_time, _correction, _restart, _the_team_then, _labelled_team, _attacked_is_blocker, _had,
    _asked_as_told,
    _if_it_matters,
    _not_in_brackets,
    _is_attacking, _split_attack, _unblocked_apart, _block_before_attack, _unblocked_takes,
    _before_damage_first,
    _later_that_turn, _ended_up, _after_sba, _commander_damage_gapped, _attacker_pronoun_turn,
    _nothing_changed, _either_question, _lost_to, _took_by,
    _and_its_turn, _has_attacking, _has_then_attacks, _verb_said_once, _two_alike, _not_him, _one_at_each,
    _turn_inside, _aside, _total_tag, _tag, _can_block, _wants_to_block, _gets_through, _designations_asked,
    _after_combat_asked,
    _turn_gapped, _before_turn_ends,
    _held_after_attack,
    _pumped, _because, _doubt, _said_after, _all_on,
    _in_combat, _initiative, _has_at, _sum, _by_and_by, _poison_counters, _more,
)
