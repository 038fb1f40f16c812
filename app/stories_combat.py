"""Combat told as a story (issue 23, blind round 9), retold plainly before its facts and events are read
(:func:`app.stories.retell` runs these among its rewrites): no block said apart from its attack ("...
with it. Unblocked."), the one attacked "takes it", a designation taken "by hitting" someone, an attack said
as what the attacker has ("has a 3/3 Knight attacking Rosa"), two creatures alike said one by one, one
attacker at each of two players, the attack's turn said inside it and a player not attacked said aside.
Each rewrite is a class of phrasing; what it can't place is left as said."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: "... attacks Theo with it. Unblocked.", "..., nobody blocks", "Korvold is unblocked", "and wes doesnt
#: block": no block, said apart from its attack (509.1: blocking is the defender's choice), joined to it as
#: ", unblocked"
_UNBLOCKED_APART = re.compile(
    r"(?:(?:[.;,]|,? and) | (?=(?:that|which) ))(?:"
    r"(?:it|they|the attackers?|(?-i:[A-Z])[\w'-]*)(?:'s| is| was| are| were| goes| went| gets| got)"
    r"(?: through)? unblocked|unblocked|"
    r"(?:nobody|no ?one|nothing|neither(?: of them| player)?) blocks?(?: it| them)?|no blocks?|"
    r"(?:he|she|they|[A-Za-z][\w'-]*) (?:chumps|chump blocks|blocks) with nothing|"
    r"(?:that|which|and it|and they) (?:got|gets|goes|went|get|go) (?:through|unblocked)|"
    r"(?:he|she|they|[A-Za-z][\w'-]*) (?:doesn'?t|does not|didn'?t|did not|don'?t|do not) block(?: it| them)?"
    r"(?: either| at all)?)(?=[.;!?,]|$)", re.IGNORECASE)


#: "Quinn attacks Otto with a 5/5 and Otto takes it": the one attacked takes the hit (said of an attack only)
_TAKES_IT = re.compile(r"(?:,? and|,) (?P<who>[A-Za-z][\w'-]*) (?:just |simply |only )?"
                       r"(?:takes|took|eats|ate) it(?: all)?(?=[.;!?,]|$)", re.IGNORECASE)
#: the one attacked said by a pronoun ("hits her ... and Uma takes it"): the player who takes it
_ATTACKED_PRONOUNS = frozenset(("him", "her", "them"))
_ATTACK_SAID = re.compile(r"(?i)\b(?:attacks|attacked|(?:swings|swung|swing) (?:at|into)|hits|hit|smacks|"
                          r"smacked|goes after|went after)\b (?P<t>[A-Za-z][\w'-]*)")


def _unblocked_apart(text: str, players: Sequence[str]) -> str:
    """ "Mika attacks Theo with it. Unblocked.": the attack, unblocked.

    >>> _unblocked_apart("Ann attacks Ben with the Bear. Unblocked. Ben's life?", ())
    "Ann attacks Ben with the Bear, unblocked. Ben's life?"
    >>> _unblocked_apart("if Ann attacks Ben with a 5/5 and ben doesnt block, how much does he lose", ())
    'if Ann attacks Ben with a 5/5, unblocked, how much does he lose'
    >>> _unblocked_apart("Cat attacks Ben with the Bear, nothing blocks, Ben's life?", ())
    "Cat attacks Ben with the Bear, unblocked, Ben's life?"
    >>> _unblocked_apart("Cat attacks Ben, not Ann, with a 5/5 and Ben takes it. Monarch?", ())
    'Cat attacks Ben, not Ann, with a 5/5, unblocked. Monarch?'
    >>> _unblocked_apart("Ann has monarch, Ben hits her with a 2/2 and Ann just takes it.", ["Ann", "Ben"])
    'Ann has monarch, Ben hits her with a 2/2, unblocked.'
    """
    names = {p.casefold() for p in players}

    def takes(match: re.Match[str]) -> str:
        sentence = re.split(r"[.;!?] ", text[:match.start()])[-1]
        attacked = [m["t"].casefold() for m in _ATTACK_SAID.finditer(sentence)]
        who = match["who"].casefold()
        said = attacked[-1] if attacked else ""
        hit = said == who or (said in _ATTACKED_PRONOUNS and who in names)
        return ", unblocked" if hit else match[0]

    return _UNBLOCKED_APART.sub(", unblocked", _TAKES_IT.sub(takes, text))


#: "lia took it by hitting him with a bird": the designation taken by the hit said after "by" (725.2, 726.2)
_TOOK_BY = re.compile(r"\b(?P<took>took|takes|take|stole|steals|grabbed|grabs|got|gets) (?:it|the crown|"
                      r"the monarch|monarch|the initiative|initiative) by (?P<how>hitting|attacking|smacking|"
                      r"swinging at) ", re.IGNORECASE)
_HOW = {"hitting": "hit", "attacking": "attack", "smacking": "smack", "swinging at": "swing at"}


def _took_by(text: str, players: Sequence[str]) -> str:
    """ "Lia took it by hitting him with a bird": the hit, which moves the designation itself.

    >>> _took_by("Ann took the crown by hitting Ben with a bird, then Ben conceded", ())
    'Ann hit Ben with a bird, then Ben conceded'
    """
    def hit(match: re.Match[str]) -> str:
        verb = _HOW[match["how"].lower()]
        past = match["took"].lower() in ("took", "stole", "grabbed", "got")
        if past:
            return {"attack": "attacked", "smack": "smacked", "swing at": "swung at"}.get(verb, verb) + " "
        return {"swing at": "swings at"}.get(verb, verb + "s") + " "

    return _TOOK_BY.sub(hit, text)


#: "mika has a 3/3 Knight attacking rosa": the attack, said as what the attacker has
_HAS_ATTACKING = re.compile(r"\b(?P<x>[A-Za-z][\w'-]*) has (?P<c>(?:a|an|her|his|their) [\w/' -]+?) "
                            r"attacking (?P<y>[A-Za-z][\w'-]*)\b")


def _has_attacking(text: str, players: Sequence[str]) -> str:
    """ "Mika has a 3/3 Knight attacking Rosa": Mika attacks Rosa with it (between two players only).

    >>> _has_attacking("mika has a 3/3 Knight attacking rosa, rosa blocks", ["Mika", "Rosa"])
    'mika attacks rosa with a 3/3 Knight, rosa blocks'
    """
    names = {p.casefold() for p in players}

    def attack(match: re.Match[str]) -> str:
        if not {match["x"].casefold(), match["y"].casefold()} <= names:
            return match[0]
        return f"{match['x']} attacks {match['y']} with {match['c']}"

    return _HAS_ATTACKING.sub(attack, text)


#: "with a 2/2 and a 2/2": two creatures alike, said one by one
#: (sizes only: "a 1/1 Elf and a 1/1 Goblin" are two creatures, each named)
_TWO_ALIKE = re.compile(r"\b(?:a|one) (?P<c>\d{1,2}/\d{1,2}) and (?:a|one|another) (?P=c)"
                        r"(?=[;,.!?]|$| (?:and|but|then|on|at|into|unblocked|each|that|in)\b)", re.IGNORECASE)


def _two_alike(text: str, players: Sequence[str]) -> str:
    """ "Quinn attacks Wes with a 2/2 and a 2/2": two 2/2s (one count, which "Wes blocks one" may split).

    >>> _two_alike("Quinn attacks Wes with a 2/2 and a 2/2; Wes blocks one", ())
    'Quinn attacks Wes with two 2/2s; Wes blocks one'
    >>> _two_alike("Ben double blocks with a 1/1 Elf and a 1/1 Goblin", ())
    'Ben double blocks with a 1/1 Elf and a 1/1 Goblin'
    """
    return _TWO_ALIKE.sub(lambda m: f"two {m['c']}s", text)


#: "Rosa swings at Theo and Mika with two 2/2 zombies, one at each": one attack on each (506.1: attackers may
#: attack different players), said as two
_ONE_AT_EACH = re.compile(
    r"\b(?P<x>[A-Za-z][\w'-]*) (?P<verb>swings at|swung at|attacks|attacked|hits|hit) (?P<a>[A-Za-z][\w'-]*) "
    r"and (?P<b>[A-Za-z][\w'-]*) with (?:two|2) (?P<c>\d{1,2}/\d{1,2})(?P<noun> [a-z]+?)?s?,? "
    r"(?:one (?:at|on|for|into) each(?: of them)?|one each)\b", re.IGNORECASE)


def _one_at_each(text: str, players: Sequence[str]) -> str:
    """ "Rosa swings at Theo and Mika with two 2/2 zombies, one at each": one 2/2 at each of them.

    >>> _one_at_each("Ann swings at Ben and Cat with two 2/2 zombies, one at each.", ["Ann", "Ben", "Cat"])
    'Ann swings at Ben with a 2/2 zombie and Ann swings at Cat with a 2/2 zombie.'
    """
    names = {p.casefold() for p in players}

    def each(match: re.Match[str]) -> str:
        if not {match["x"].casefold(), match["a"].casefold(), match["b"].casefold()} <= names:
            return match[0]
        one = f"with a {match['c']}{match['noun'] or ''}"
        x, verb = match["x"], match["verb"]
        return f"{x} {verb} {match['a']} {one} and {x} {verb} {match['b']} {one}"

    return _ONE_AT_EACH.sub(each, text)


#: "Mika attacked her on Mika's turn with a 3/3, unblocked": the attack's turn said inside it, put last (where
#: the reader takes a clause's own time); only up to the sentence's end, never across another clause
_TURN_INSIDE = re.compile(
    r"(?P<head>\b(?:attacks|attacked|hits|hit|swings at|swung at) [A-Za-z][\w'-]*) (?P<turn>(?:on|during) "
    r"[A-Za-z][\w'-]*'s (?:own )?turn) (?P<tail>with (?:a|an|his|her|their|two|\d)[^.;!?,]*?(?:, unblocked)?)"
    r"(?=[.;!?]|$)", re.IGNORECASE)


def _turn_inside(text: str, players: Sequence[str]) -> str:
    """ "Then Mika attacked her on Mika's turn with a 3/3, unblocked.": the turn said after the attack.

    >>> _turn_inside("Then Ben attacked her on Ben's turn with a 3/3, unblocked. Who is the monarch?", ())
    "Then Ben attacked her with a 3/3, unblocked, on Ben's turn. Who is the monarch?"
    """
    return _TURN_INSIDE.sub(lambda m: f"{m['head']} {m['tail']}, {m['turn']}", text)


#: "Quinn attacks Otto, not Nora, with a 5/5": the player not attacked, said aside
_NOT_HIM = re.compile(r", not (?:at |to )?(?P<who>[A-Za-z][\w'-]*),(?= with )")


def _not_him(text: str, players: Sequence[str]) -> str:
    """ "attacks Otto, not Nora, with a 5/5": Otto only (the aside names a player, not attacked).

    >>> _not_him("Cat attacks Ben, not Ann, with a 5/5", ["Ann", "Ben", "Cat"])
    'Cat attacks Ben with a 5/5'
    """
    names = {p.casefold() for p in players}
    return _NOT_HIM.sub(lambda m: "" if m["who"].casefold() in names else m[0], text)


#: "Before damage, Nat concedes": the time said first, put after the leaving (where the reader takes it: the
#: attack, the player leaving, then the combat damage step)
_BEFORE_DAMAGE_FIRST = re.compile(
    r"(?<=[.;!?] )before (?P<when>(?:combat )?damage|blocks|blockers),? (?P<who>[A-Za-z][\w'-]*) "
    r"(?P<verb>concedes|conceded|scoops|scooped|quits|leaves the game|leaves)(?=[.;!?,]|$)", re.IGNORECASE)


def _before_damage_first(text: str, players: Sequence[str]) -> str:
    """ "Ravi blocks with Wall. Before damage, Nat concedes.": Nat concedes before damage.

    >>> _before_damage_first("Ann attacks Ben with the Bear. Before damage, Ann concedes. Ben's life?", ())
    "Ann attacks Ben with the Bear. Ann concedes before damage. Ben's life?"
    """
    def later(match: re.Match[str]) -> str:
        who = match["who"]
        return f"{who[0].upper()}{who[1:]} {match['verb']} before {match['when']}"

    return _BEFORE_DAMAGE_FIRST.sub(later, text)


#: "alex has a 3/3 bear and attacks bea with it", "Alex controls a 4/4 with trample, attacks Chris": the
#: creature said as what the attacker has, then the attack with it
_HAS_THEN_ATTACKS = re.compile(
    r"\b(?P<x>[A-Za-z][\w'-]*) (?:has|had|controls|controlled) (?P<c>(?:a|an) [^,.;!?]+?)(?:,| and|, and) "
    r"(?P<verb>attacks|attacked|swings at|swung at) (?P<y>[A-Za-z][\w'-]*)(?: with (?:it|him|her))?"
    r"(?=[,.;!?]| and\b| then\b|$)", re.IGNORECASE)


def _has_then_attacks(text: str, players: Sequence[str]) -> str:
    """ "alex has a 3/3 bear and attacks bea with it": Alex attacks Bea with the creature (two players).

    >>> _has_then_attacks("ann has a 3/3 bear and attacks ben with it, ben blocks", ["Ann", "Ben"])
    'ann attacks ben with a 3/3 bear, ben blocks'
    >>> _has_then_attacks("Ann controls a 4/4 with trample, attacks Ben, Ben blocks", ["Ann", "Ben"])
    'Ann attacks Ben with a 4/4 with trample, Ben blocks'
    """
    names = {p.casefold() for p in players}

    def attack(match: re.Match[str]) -> str:
        if not {match["x"].casefold(), match["y"].casefold()} <= names:
            return match[0]
        return f"{match['x']} {match['verb']} {match['y']} with {match['c']}"

    return _HAS_THEN_ATTACKS.sub(attack, text)


#: "does the wolf die? does the bear?": the second question says only its subject; the verb is the first one's
_VERB_SAID_ONCE = re.compile(
    r"(?P<first>\b(?:does|did|will|would) (?:the |his |her |their )?[\w'-]+ (?P<verb>die|survive|live|"
    r"make it)\?) (?P<ask>does|did|will|would|what about|and|how about) (?P<c>(?:the |his |her |their )?"
    r"[\w'-]+)\?", re.IGNORECASE)


def _verb_said_once(text: str, players: Sequence[str]) -> str:
    """ "does the wolf die? does the bear?": both asked whole.

    >>> _verb_said_once("Ben blocks with the Wolf. does the wolf die? does the bear?", ())
    'Ben blocks with the Wolf. does the wolf die? does the bear die?'
    >>> _verb_said_once("does the wolf survive? what about the bear?", ())
    'does the wolf survive? does the bear survive?'
    """
    def whole(match: re.Match[str]) -> str:
        ask = match["ask"].lower() if match["ask"].lower() in ("does", "did", "will", "would") else "does"
        return f"{match['first']} {ask} {match['c']} {match['verb']}?"

    return _VERB_SAID_ONCE.sub(whole, text)


#: "sam at 19 life, 14 cmdr dmg from zurgo": the second total said without its subject (the first's)
_COMMANDER_DAMAGE_GAPPED = re.compile(
    r"\b(?P<x>[A-Za-z][\w'-]*)(?P<life> (?:is |'s |s )?(?:at|on) \d{1,3}(?: life)?),? (?:and |with )?"
    r"(?P<n>\d{1,2}) (?:cmdr|commander|cmd) (?:dmg|damage) from\b", re.IGNORECASE)


def _commander_damage_gapped(text: str, players: Sequence[str]) -> str:
    """ "sam at 19 life, 14 cmdr dmg from zurgo": Sam has the commander damage too.

    >>> _commander_damage_gapped("sam at 19 life, 14 cmdr dmg from zurgo. does sam lose", ["Sam"])
    'sam at 19 life, sam has 14 commander damage from zurgo. does sam lose'
    """
    names = {p.casefold() for p in players}

    def whole(match: re.Match[str]) -> str:
        if match["x"].casefold() not in names:
            return match[0]
        return f"{match['x']}{match['life']}, {match['x']} has {match['n']} commander damage from"

    return _COMMANDER_DAMAGE_GAPPED.sub(whole, text)


#: "mia swings atraxa at raj on her turn": an attack is made on its attacker's turn (508.1), so "her turn"
#: in the attacker's own clause is theirs
_ATTACKER_PRONOUN_TURN = re.compile(
    r"(?P<head>(?:^|(?<=[.;!?,] )|(?<=\bthen )|(?<=\band ))(?P<x>[A-Za-z][\w'-]*) "
    r"(?:attacks|attacked|swings|swung|sends|sent)\b[^.;!?,]*?) (?P<on>on|during|in) (?:her|his|their) "
    r"(?:own )?turn\b", re.IGNORECASE)


def _attacker_pronoun_turn(text: str, players: Sequence[str]) -> str:
    """ "mia swings atraxa at raj on her turn": on Mia's turn (only the active player attacks, 508.1).

    >>> _attacker_pronoun_turn("mia swings atraxa at raj on her turn and raj doesnt block", ["Mia", "Raj"])
    "mia swings atraxa at raj on mia's turn and raj doesnt block"
    """
    names = {p.casefold() for p in players}

    def theirs(match: re.Match[str]) -> str:
        if match["x"].casefold() not in names:
            return match[0]
        return f"{match['head']} {match['on']} {match['x']}'s turn"

    return _ATTACKER_PRONOUN_TURN.sub(theirs, text)


#: "theo gives zurgo +0/+0 lol whatever,": a change of nothing (+0/+0 adds nothing to power or toughness,
#: 613.4c), dropped
_NOTHING_CHANGED = re.compile(
    r"(?:,? and|,|^) [A-Za-z][\w'-]* (?:gives|gave) [A-Za-z][\w'-]* \+0/\+0(?: until end of turn)?"
    r"(?: (?:lol|lmao|whatever|for some reason))*(?=[,.;!?])", re.IGNORECASE)


def _nothing_changed(text: str, players: Sequence[str]) -> str:
    """ "... and theo gives zurgo +0/+0 lol whatever, zurgo hits sam": the +0/+0, dropped.

    >>> _nothing_changed("sam has 14 from zurgo and theo gives zurgo +0/+0 lol whatever, zurgo hits sam", ())
    'sam has 14 from zurgo, zurgo hits sam'
    """
    return _NOTHING_CHANGED.sub("", text)


#: "does theo win or do mia and raj still play": two questions said as alternatives, each a whole question;
#: both asked (the answers say which holds)
_EITHER_QUESTION = re.compile(
    r"(?P<first>\b(?:does|do|did|is|are|will) [^.;!?,]+?) or (?P<second>(?:does|do|did|is|are|will) "
    r"[^.;!?,]+?)(?=[.;!?]|$)", re.IGNORECASE)


def _either_question(text: str, players: Sequence[str]) -> str:
    """ "does theo win or do mia and raj still play": both asked.

    >>> _either_question("zurgo hits sam for 7. does theo win or do mia and raj still play", ())
    'zurgo hits sam for 7. does theo win, and do mia and raj still play'
    """
    return _EITHER_QUESTION.sub(lambda m: f"{m['first']}, and {m['second']}", text)


#: "Sol blocks the Ox with the Wolf when Rae attacks him": the block told before the attack it answers, one
#: combat (509.1 follows 508.1); read apart, the attack would be a second one, unblocked
_BLOCK_BEFORE_ATTACK = re.compile(
    r"\b(?P<p>[A-Za-z][\w'-]*) (?:blocks|blocked|chump ?blocks|chump ?blocked|chumps|chumped) "
    r"(?P<a>(?:the |his |her |their )?[\w'-]+) with (?P<d>(?:the |his |her |their |a |an )?[\w'/-]+) "
    r"(?:when|as|after|once) (?P<x>[A-Za-z][\w'-]*) (?:attacks|attacked|swings at|swung at|goes after) "
    r"(?P<t>him|her|them|[A-Za-z][\w'-]*)(?: with (?:it|(?:the |his |her |their )?[\w'-]+))?(?=[.;!?,]|$)",
    re.IGNORECASE)


def _block_before_attack(text: str, players: Sequence[str]) -> str:
    """ "Sol blocks the Ox with the Wolf when Rae attacks him": Rae's attack with the Ox, then the block.

    >>> _block_before_attack("Sol blocks the Ox with the Wolf when Rae attacks him. Initiative?", ())
    'Rae attacks Sol with the Ox and Sol blocks with the Wolf. Initiative?'
    >>> _block_before_attack("Sol blocks the Ox with the Wolf when Rae attacks Tam", ())  # another player
    'Sol blocks the Ox with the Wolf when Rae attacks Tam'
    """
    def told(match: re.Match[str]) -> str:
        blocker, target = match["p"], match["t"]
        if target.lower() not in _ATTACKED_PRONOUNS and target.casefold() != blocker.casefold():
            return match[0]
        return f"{match['x']} attacks {blocker} with {match['a']} and {blocker} blocks with {match['d']}"

    return _BLOCK_BEFORE_ATTACK.sub(told, text)


#: "Rae attacks Tam with a 3/3 and Uma with a 2/2, Tam blocks, Uma doesn't": one attacker at each of two
#: players (506.1), each said with its own creature, and then what each player attacked did
_SPLIT_ATTACK = re.compile(
    r"\b(?P<x>[A-Za-z][\w'-]*) (?P<verb>attacks|attacked|swings at|swung at) (?P<a>[A-Za-z][\w'-]*) "
    r"with (?P<p>(?:a|an|one|his|her|their) [\w/+' -]+?) and (?P<b>[A-Za-z][\w'-]*) "
    r"with (?P<q>(?:a|an|one|his|her|their) [\w/+' -]+?)(?=[.;,!?]|$| and )", re.IGNORECASE)
#: what one player attacked did, said after the split attack: "Tam blocks (with a 1/1)", "Uma doesn't", "Uma
#: takes it"
_BLOCKS_SAID = r"(?:blocks|blocked|chump blocks|chumps)(?: it)?" \
    r"(?: with (?:a|an|one|his|her|their) [\w/+' -]+?)?"
_NO_BLOCK_SAID = r"(?:doesn'?t|does not|didn'?t|did not|doesnt|didnt)(?: block(?: it)?)?|" \
    r"(?:just )?takes it|(?:just )?took it|(?:is|goes|went) unblocked"


def _split_attack(text: str, players: Sequence[str]) -> str:
    """ "Rae attacks Tam with a 3/3 and Uma with a 2/2, Tam blocks, Uma doesn't": each attack told with what
    its player did (a blocked creature deals no combat damage to the player, 510.1c). Only when what each
    of the two did is said; otherwise the two attacks, as said.

    >>> _split_attack("rae attacks tam with a 3/3 and uma with a 2/2, tam blocks, uma doesnt. who", ["Rae",
    ...               "Tam", "Uma"])
    'rae attacks tam with a 3/3 and tam blocks. rae attacks uma with a 2/2, unblocked. who'
    >>> _split_attack("Sol attacks Tam with a 4/4 and Uma with a 2/2. Tam blocks with a 1/1, Uma takes it.",
    ...               ["Sol", "Tam", "Uma"])
    'Sol attacks Tam with a 4/4 and Tam blocks with a 1/1. Sol attacks Uma with a 2/2, unblocked.'
    """
    names = {p.casefold() for p in players}
    match = _SPLIT_ATTACK.search(text)
    if match is None or not {match["x"].casefold(), match["a"].casefold(), match["b"].casefold()} <= names:
        return text
    said: dict[str, str] = {}
    end = match.end()
    for _ in range(2):
        step = re.match(rf"(?:[.;]|,? and|,)? (?:then )?(?P<who>[A-Za-z][\w'-]*) (?P<what>{_BLOCKS_SAID}|"
                        rf"{_NO_BLOCK_SAID})(?=[.;,!?]|$| and )", text[end:], re.IGNORECASE)
        if step is None or step["who"].casefold() not in {match["a"].casefold(), match["b"].casefold()}:
            break
        said[step["who"].casefold()] = step["what"]
        end += step.end()
    if len(said) != 2:
        return text
    x, verb = match["x"], match["verb"]

    def told(who: str, creature: str) -> str:
        what = said[who.casefold()]
        if re.match(_NO_BLOCK_SAID, what, re.IGNORECASE):
            return f"{x} {verb} {who} with {creature}, unblocked"
        return f"{x} {verb} {who} with {creature} and {who} {what}"

    return (f"{text[: match.start()]}{told(match['a'], match['p'])}. {told(match['b'], match['q'])}"
            f"{text[end:]}")
