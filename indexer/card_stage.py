"""Search stage: the cards a question names (issue 21.3).

Players ask about the card in front of them ("Thalia, Heretic Cathar is out; does my Gideon enter
tapped?"), and leave the rule implicit. This stage

* recognises the question's cards (:meth:`CardDB.names_in <rulesjudge.corpus.cards.CardDB.names_in>`);
* gives the result a **cards part**: each named card with its text and its rulings ranked by the
  question (:class:`CardPart`);
* reads the question together with what its cards do, for the **rules part** (:class:`CardReading`):
  each card name is replaced by its card type ("Thalia, Heretic Cathar" → "creature"), so that a name
  matches neither a rule nor a Treachery identity card ("The Cathar"), and the Oracle templates its text
  matches (``corpus/cards/oracle_templates.yaml``, the table ``rulesjudge card`` reads too: "enters
  tapped" → 614.1c/614.12) add their rules' words and lift their rules; its keywords lift their
  701.x/702.x rule, found in the corpus by the keyword's name. The question's story is read as the
  lexicon's senses read it ("my opponent died" is a player who left the game) before a template says
  it is asked.

>>> from rulesjudge.corpus.cards.oracle_templates import parse_templates
>>> templates = parse_templates({"templates": [{"oracle": "enters? tapped", "rules": ["614.12"],
...                                             "words": "enters tapped"}]})
>>> [t.rules for t in templates if t.pattern.search("Creatures your opponents control enter tapped.")]
[('614.12',)]
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rulesjudge.corpus.cards.oracle_templates import Template, Templates, load_templates
from rulesjudge.corpus.cards.rules_refs import card_terms
from rulesjudge.corpus.glossary import GlossaryTerms, term_key
from rulesjudge.corpus.records import Record
from rulesjudge.indexer.lexical import tokenize
from rulesjudge.indexer.query import Lexicon, load_lexicon, rewrite

if TYPE_CHECKING:  # pragma: no cover
    from rulesjudge.corpus.cards import Card, CardDB, CardMention, CardRuling

_CARD_TYPES = ("creature", "planeswalker", "battle", "artifact", "enchantment", "land", "instant", "sorcery",
               "tribal", "kindred")


@dataclass(frozen=True)
class CardPart:
    """A named card as the result shows it: its text, and its rulings best first for the question."""

    card: Card
    said: str
    rulings: tuple[tuple[CardRuling, float], ...] = ()
    #: the rules its Oracle text and keywords invoke (record ids), as read by :class:`CardStage`
    rules: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        card = self.card
        return {
            "id": card.id, "name": card.name, "said": self.said, "edition": card.edition,
            "faces": [{"name": f.name, "mana_cost": f.mana_cost, "type_line": f.type_line, "text": f.text,
                       "power": f.power, "toughness": f.toughness, "loyalty": f.loyalty, "defense": f.defense}
                      for f in card.faces],
            "keywords": list(card.keywords), "commander_legality": card.commander_legality,
            "can_be_commander": card.can_be_commander,
            "rulings": [{"id": r.id, "date": r.date, "text": r.text, "score": round(score, 4)}
                        for r, score in self.rulings],
            "rules": list(self.rules),
        }


@dataclass(frozen=True)
class CardReading:
    """What the named cards bring to a question: the cards, the question with their names replaced by
    their types and the words of the templates the question speaks of added (what BM25 and the dense
    model read), and the rules their text invokes: those of the templates and keywords the question
    speaks of (``template_rules``, lifted by ``FusionParams.card_rule_lift``) and the card's other
    keywords' (``keyword_rules``, ``FusionParams.keyword_lift``)."""

    mentions: tuple[CardMention, ...] = ()
    text: str = ""
    template_rules: tuple[str, ...] = ()
    keyword_rules: tuple[str, ...] = ()
    #: the rules of the rare glossary terms of the cards' text ("devotion" -> 700.5), whether the
    #: question says them or not (``FusionParams.card_term_lift``; :meth:`CardStage.terms_of`)
    term_rules: tuple[str, ...] = ()
    #: each named card's ruling that best matches the question (``FusionParams.ruling_weight``): a
    #: ruling restates the rule it applies ("Because the ability is targeted, it is not a mana
    #: ability" is 605.5a), so the rules nearest to it are evidence
    evidence: tuple[str, ...] = ()
    rules_of: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # card id -> rules it invokes
    #: the question with the names replaced and nothing added: what the rulings are ranked by (a
    #: card's rulings all say its name)
    plain: str = ""
    #: each card's rulings ranked by ``plain`` (:func:`ranked_rulings`), in the order of the cards
    rulings: tuple[tuple[tuple[CardRuling, float], ...], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.mentions)


class CardStage:
    """Cards in search: recognition, the cards part, and the bridge from card text to rules."""

    #: a glossary term the current rules say in more sections than this, besides its own, is too common
    #: to tell what a card does ("creature", "damage", "target"); a rarer one ("devotion", "protection",
    #: "amass") names the rule a question about the card may turn on (:meth:`term_sections`)
    term_max_sections = 3
    #: a ruling this close to the question (:func:`ranked_rulings`' score) is evidence of its rule
    evidence_score = 1.0
    evidence_rulings = 1  # the rulings of each card read as evidence, best first

    def __init__(self, records: Mapping[str, Record], cards: Callable[[], CardDB | None],
                 templates: Templates | None = None) -> None:
        self.records = records
        self._cards = cards
        self._templates = templates
        self._term_rules: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self._term_sections: dict[str, frozenset[str]] = {}
        self._rule_texts: tuple[tuple[str, str], ...] | None = None
        self._holding: dict[str, set[int]] = {}
        self._rule_ids: dict[str, tuple[str, ...]] = {}
        self._keywords: dict[str, tuple[str, ...]] | None = None
        self._identities: frozenset[str] | None = None

    @property
    def templates(self) -> Templates:
        if self._templates is None:
            self._templates = load_templates()
        return self._templates

    def read(self, question: str) -> CardReading:
        """The cards named in the question and what they bring to its rules part."""
        if not question.strip():
            return CardReading(text=question)
        db = self._cards()
        if db is None:
            return CardReading(text=question)
        mentions = tuple(m for m in db.names_in(question) if not self.is_identity(m.said, question))
        if not mentions:
            return CardReading(text=question)
        replaced = _replace_names(question, mentions)
        generic = {word for text in self.templates.generic for word in tokenize(text)}
        # the question's own words: a card type put in a name's place is no word of the asker's
        # ("Lay Claim" -> "enchantment" stems to "enchant", which would lift the Enchant keyword's rules)
        own = _replace_names(question, mentions, by=" ")
        asked = set(tokenize(own)) - generic
        template_rules: list[str] = []
        keyword_rules: list[str] = []
        term_rules: list[str] = []
        words: list[str] = []
        rules_of: dict[str, tuple[str, ...]] = {}
        cards = _distinct_cards(mentions)
        # what happened at the table, without the card text the question quotes: "the part that says
        # 'you lose the game'" is no player who lost
        texts = [card.oracle_text for card in cards]
        situation = told(_unquoted(own, texts), _unquoted(replaced, texts))
        for card in cards:
            invoked: list[str] = []
            oracle = card.oracle_text.replace("’", "'")
            for template in self.templates:
                if not template.words:  # shown by `rulesjudge card`, too broad to say what a question asks
                    continue
                # every place the text uses the template: "Starting with you, each player chooses" speaks
                # of choosing in its second alternative, not its first
                matches = [m.group() for m in template.pattern.finditer(oracle)]
                if not matches:
                    continue
                found = [rid for number in template.rules for rid in self.rule_ids(number)]
                if template.shown:  # a bridge of a situation is no rule the card's text invokes
                    invoked.extend(found)
                # what the card does matters to the question when the question speaks of it: Gideon's
                # "prevent all damage" says nothing about whether he enters tapped
                if _speaks_of(template, own, situation, asked, matches):
                    template_rules.extend(found)
                    if template.words and template.words not in words:
                        words.append(template.words)
            for keyword in card.keywords:
                found = list(self.keyword_rules(keyword))
                invoked.extend(found)
                if asked & set(tokenize(keyword)):
                    template_rules.extend(found)
                else:
                    keyword_rules.extend(found)
            for _term, found_rules in self.terms_of(card):
                invoked.extend(found_rules)
                term_rules.extend(found_rules)
            rules_of[card.id] = tuple(dict.fromkeys(invoked))
        text = " ".join([replaced, *words])
        lifted = set(template_rules) | set(keyword_rules)
        term_rules = [r for r in term_rules if r not in lifted]
        ranked = tuple(ranked_rulings(cards, replaced))
        evidence = tuple(ruling.text for rulings in ranked
                         for ruling, score in rulings[:self.evidence_rulings] if score >= self.evidence_score)
        return CardReading(mentions, text, tuple(dict.fromkeys(template_rules)),
                           tuple(dict.fromkeys(keyword_rules)), tuple(dict.fromkeys(term_rules)), evidence,
                           rules_of, replaced, ranked)

    def terms_of(self, card: Card) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The rare glossary terms of a card's Oracle text (not its keywords, which :meth:`keyword_rules`
        reads), each with the current rules its glossary entry points at ("Devotion ... See rule 700.5"
        -> 700.5's rules). Read off the rules' own glossary, so it holds for any release and any card. The
        terms are :func:`~rulesjudge.corpus.cards.rules_refs.card_terms`, as ``rulesjudge card`` reads
        them."""
        if card.id not in self._term_rules:
            found: list[tuple[str, tuple[str, ...]]] = []
            for term, entry_ids in card_terms(card, self.glossary):
                entries = [self.glossary.records[i] for i in entry_ids]
                numbers = [number for entry in entries for ref in entry.cross_refs
                           if ref.target and len(number := ref.target.rsplit("/", 1)[-1]) >= 3]
                if self.term_sections(term, [n.split(".")[0] for n in numbers]) > self.term_max_sections:
                    continue
                rules = tuple(dict.fromkeys(rule for number in numbers for rule in self.rule_ids(number)))
                if rules and (term, rules) not in found:
                    found.append((term, rules))
            self._term_rules[card.id] = tuple(found)
        return self._term_rules[card.id]

    @functools.cached_property
    def glossary(self) -> GlossaryTerms:
        """The current Comprehensive Rules' glossary, which a card's text is read against."""
        edition = self._current_cr()
        return GlossaryTerms.of(record for record in self.records.values()
                                if record.document == "cr" and record.edition == edition)

    def term_sections(self, term: str, own: Sequence[str] = ()) -> int:
        """In how many sections of the current rules (``702``, ``613`` ...) a glossary term (or its
        plural) is said, its own sections (``own``: those its glossary entry points into) left out: how
        many parts of the rules speak of what it names. "creature" or "phase" are said everywhere;
        "devotion", "protection" or "amass" almost only where they are defined.

        >>> from rulesjudge.corpus.records import Record
        >>> rules = [Record(f"cr@x/{n}", "cr", "x", "rule", text, number=n) for n, text in [
        ...     ("700.5", "Devotion counts symbols."), ("700.5a", "Devotion to two colors ..."),
        ...     ("302.1", "A creature attacks."), ("613.1", "Each creature's devotion ...")]]
        >>> stage = CardStage({r.id: r for r in rules}, lambda: None)
        >>> stage.term_sections("devotion"), stage.term_sections("devotion", ["700"])
        (2, 1)
        """
        if term not in self._term_sections:
            texts, holding = self._rule_words()
            words = term.split()
            if not words:
                return 0
            # only the rules holding every word of the term are read (a card's first question pays this)
            rows = holding.get(words[-1], set()) | holding.get(words[-1] + "s", set())
            for word in words[:-1]:
                rows = rows & holding.get(word, set())
            said = re.compile(rf"\b{re.escape(term)}s?\b")
            self._term_sections[term] = frozenset(texts[row][0] for row in rows if said.search(texts[row][1]))
        return len(self._term_sections[term] - set(own))

    def _rule_words(self) -> tuple[tuple[tuple[str, str], ...], dict[str, set[int]]]:
        """The current rules' (section, text as glossary terms are matched), and each word's rows."""
        if self._rule_texts is None:
            edition = self._current_cr()
            self._rule_texts = tuple((record.number.split(".")[0], term_key(record.text))
                                     for record in self.records.values()
                                     if record.document == "cr" and record.edition == edition
                                     and record.number)
            holding: dict[str, set[int]] = {}
            for row, (_section, text) in enumerate(self._rule_texts):
                for word in set(text.split()):
                    holding.setdefault(word, set()).add(row)
            self._holding = holding
        return self._rule_texts, self._holding

    def parts(self, question: str, reading: CardReading) -> list[CardPart]:
        """The cards part: each named card once, in the order the question names them, with its rulings
        ranked by the question's words (ties keep the file's order)."""
        cards = _distinct_cards(reading.mentions)
        said: dict[str, str] = {}
        for mention in reading.mentions:
            said.setdefault(mention.card.id, mention.said)
        ranked = (list(reading.rulings) if len(reading.rulings) == len(cards)
                  else ranked_rulings(cards, reading.plain or question))
        return [CardPart(card, said[card.id], rulings, reading.rules_of.get(card.id, ()))
                for card, rulings in zip(cards, ranked, strict=True)]

    def is_identity(self, said: str, question: str) -> bool:
        """Whether a name said in a question about Treachery (its roles, identities, unveiling) is one of
        its identity cards ("puppet master ... who gets their identity" is The Puppet Master, not the
        card Puppet Master)."""
        if not _TREACHERY_WORDS.search(question):
            return False
        if self._identities is None:
            self._identities = frozenset(
                _THE.sub("", record.title).lower() for record in self.records.values()
                if record.kind == "card-note" and record.document == "treachery" and record.title)
        return _THE.sub("", said).lower().replace("’", "'") in self._identities

    def rule_ids(self, number: str) -> tuple[str, ...]:
        """The current Comprehensive Rules' records with this number; a section or a rule that is only a
        title stands for its rules."""
        if number not in self._rule_ids:
            self._rule_ids[number] = self._find_rules(number)
        return self._rule_ids[number]

    def _find_rules(self, number: str) -> tuple[str, ...]:
        edition = self._current_cr()
        record = self.records.get(f"cr@{edition}/{number}") if edition else None
        if record is None:
            return ()
        if record.kind == "section" or (record.children and len(record.text.split()) <= 4):
            return tuple(c for c in record.children if c in self.records)
        return (record.id,)

    def _current_cr(self) -> str | None:
        return self._newest_cr

    @functools.cached_property
    def _newest_cr(self) -> str | None:
        """The newest loaded edition of the Comprehensive Rules (read once: the records don't change)."""
        editions = sorted({r.edition for r in self.records.values() if r.document == "cr" and r.number})
        return editions[-1] if editions else None

    def keyword_rules(self, keyword: str) -> tuple[str, ...]:
        """The rules of a keyword ability or action, found by its name among the titles of 701 and 702
        ("702.9. Flying" → 702.9a–c)."""
        if self._keywords is None:
            edition = self._current_cr()
            titles: dict[str, tuple[str, ...]] = {}
            for record in self.records.values():
                if (record.document == "cr" and record.edition == edition and record.kind == "rule"
                        and (record.number or "").startswith(("701.", "702.")) and record.children
                        and len(record.text.split()) <= 4):
                    titles[record.text.strip().rstrip(".").lower()] = tuple(
                        c for c in record.children if c in self.records)
            self._keywords = titles
        return self._keywords.get(keyword.strip().lower(), ())


def _speaks_of(template: Template, question: str, situation: str, asked: set[str],
               matches: Sequence[str]) -> bool:
    """Whether the question speaks of what the template does. With an ``asked`` pattern: the pattern
    found in the question's own account of the game (``situation``: without the card text it quotes;
    "the part that says 'you lose the game'" is no player who lost), or in a question that quotes the
    template's own Oracle words ("it reads 'defending player loses 1 life'"). Without one: a word
    (``asked``: the question's stemmed words) shared with the matched Oracle words or the template's
    words.

    >>> from rulesjudge.corpus.cards.oracle_templates import parse_templates
    >>> [left] = parse_templates({"templates": [{"oracle": "exile", "rules": ["800.4a"],
    ...                                          "asked": "conced"}]})
    >>> _speaks_of(left, "Ann concedes. Who gets it?", "Ann concedes. Who gets it?", set(), ["exile"])
    True
    >>> _speaks_of(left, "It says 'if a player concedes'", "It says", set(), ["exile"])
    False
    """

    if template.asked is None:
        return bool(asked & set(tokenize(" ".join([*matches, template.words]))))
    if template.asked.search(situation):
        return True
    said = question.lower().replace("’", "'")
    return bool(template.asked.search(question)) and any(
        len(match.split()) >= 2 and re.search(rf"(?<!\w){re.escape(match.lower())}(?!\w)", said)
        for match in matches)


#: pronouns the lexicon's senses count as players, left out here: "I gave Tatterkite persist and she
#: died" is the creature; a template counts a player who died only when the story names a player
_PRONOUNS = frozenset(("i", "he", "she", "they", "we", "you", "me", "him", "her", "them", "us", "who"))


@functools.lru_cache(maxsize=1)
def _senses() -> Lexicon:
    """The lexicon's senses, a player said by a noun ("my opponent died", "someone got killed")."""
    senses = load_lexicon().senses
    return Lexicon(senses=replace(senses, players=senses.players - _PRONOUNS))


def told(situation: str, read_as: str | None = None, senses: Lexicon | None = None) -> str:
    """The question's story with what the lexicon's senses read in it added: a player who "dies", "is
    killed" or "gets knocked out" lost and left the game (800.4a), so a template asked about a player who
    left hears it; a creature that dies stays a creature, and so does "she" (:data:`_PRONOUNS`). The
    senses read ``read_as`` when given: the
    story with each card name read as its type ("the creature I took with Control Magic died": the
    Aura died, not "I").

    >>> from rulesjudge.indexer.query import Senses
    >>> senses = Lexicon(senses=Senses({("died",): "lost and left the game"}, {},
    ...                                frozenset({"opponent", "i"}), frozenset({"creature", "enchantment"})))
    >>> told("My opponent died. Who gets it?", senses=senses)
    'My opponent died. Who gets it? . lost and left the game'
    >>> told("I took it with   died.", "I took it with enchantment died.", senses)
    'I took it with   died.'
    """
    read = rewrite(read_as if read_as is not None else situation,
                   senses if senses is not None else _senses())
    return " . ".join([situation, *(words for _said, words in read.changes)]) if read.changes else situation


_WORD = re.compile(r"[\w']+")
_THE = re.compile(r"^the\s+", re.IGNORECASE)
#: a question about the Treachery variant names its roles or what its identity cards do
_TREACHERY_WORDS = re.compile(
    r"\b(?:treachery|identit(?:y|ies)|unveil\w*|roles?|leader|guardian|assassin|traitor)\b", re.IGNORECASE)
QUOTE_WORDS = 4  # this many words in a row of a named card's text are a quotation of it


def _unquoted(question: str, texts: Sequence[str]) -> str:
    """The question with the runs of :data:`QUOTE_WORDS` or more words it shares with the texts blanked.

    >>> " ".join(_unquoted("It says when it leaves the battlefield, you lose the game. I lose?",
    ...                    ["When this leaves the battlefield, you lose the game."]).split())
    'It says when it . I lose?'
    """
    def words(text: str) -> list[re.Match[str]]:
        return list(_WORD.finditer(text.lower().replace("’", "'")))

    grams = {tuple(m.group() for m in found[i:i + QUOTE_WORDS])
             for text in texts for found in [words(text)] for i in range(len(found) - QUOTE_WORDS + 1)}
    asked = words(question)
    quoted = [False] * len(asked)
    for i in range(len(asked) - QUOTE_WORDS + 1):
        if tuple(m.group() for m in asked[i:i + QUOTE_WORDS]) in grams:
            quoted[i:i + QUOTE_WORDS] = [True] * QUOTE_WORDS
    out = list(question)
    runs = [(asked[i].start(), asked[i].end()) for i in range(len(asked)) if quoted[i]]
    for i in range(1, len(asked)):  # the spaces and commas inside a quoted run too
        if quoted[i] and quoted[i - 1]:
            runs.append((asked[i - 1].end(), asked[i].start()))
    for start, end in runs:
        out[start:end] = " " * (end - start)
    return "".join(out)


def _distinct_cards(mentions: Sequence[CardMention]) -> list[Card]:
    seen: dict[str, Card] = {}
    for mention in mentions:
        seen.setdefault(mention.card.id, mention.card)
    return list(seen.values())


def card_type(card: Card, said: str = "") -> str:
    """The card's main type in lower case, as the rules would call it: of the face said, when a face of
    a double-faced or split card is what the question names, else of its front face.

    >>> from rulesjudge.corpus.cards import Card, Face
    >>> card_type(Card("x", "Thalia", (Face("Thalia", type_line="Legendary Creature — Human Soldier"),)))
    'creature'
    >>> card_type(Card("x", "Fire // Ice", (Face("Fire", type_line="Instant"),)))
    'instant'
    >>> elbrus = Card("x", "Elbrus, the Binding Blade // Withengar Unbound", (
    ...     Face("Elbrus, the Binding Blade", type_line="Legendary Artifact — Equipment"),
    ...     Face("Withengar Unbound", type_line="Legendary Creature — Demon")))
    >>> card_type(elbrus), card_type(elbrus, "Withengar Unbound")
    ('artifact', 'creature')
    """
    front = card.faces[0] if card.faces else None
    face = next((f for f in card.faces if f.name.lower() == said.lower()), front)
    line = face.type_line.lower() if face is not None else ""
    return next((kind for kind in _CARD_TYPES if kind in line.split("—")[0]), "card")


def _replace_names(question: str, mentions: Sequence[CardMention], by: str | None = None) -> str:
    """The question with each card name said replaced by the card's type ("Thalia's" → "creature's"),
    or by ``by`` when given."""
    out, last = [], 0
    for mention in sorted(mentions, key=lambda m: m.start):
        if mention.start < last:
            continue
        out.append(question[last:mention.start])
        out.append(card_type(mention.card, mention.said) if by is None else by)
        last = mention.end
    out.append(question[last:])
    return "".join(out)


def ranked_rulings(cards: Sequence[Card], question: str) -> list[tuple[tuple[CardRuling, float], ...]]:
    """Each card's rulings, best first for the question (ties keep the file's order): the idf (over the
    named cards' rulings) of the words a ruling shares with the question, over the square root of the
    ruling's length."""
    asked = set(tokenize(question))
    rulings = [[(ruling, set(tokenize(ruling.text))) for ruling in card.rulings] for card in cards]
    counts: dict[str, int] = {}
    total = 0
    for tokenized in rulings:
        for _ruling, words in tokenized:
            total += 1
            for word in words:
                counts[word] = counts.get(word, 0) + 1
    ranked = []
    for tokenized in rulings:
        scored = [(ruling, _overlap(asked, words, counts, total)) for ruling, words in tokenized]
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][1], i))
        ranked.append(tuple(scored[i] for i in order))
    return ranked


def _overlap(asked: set[str], words: set[str], counts: Mapping[str, int], total: int) -> float:
    """A ruling's score for the question: the idf of the words they share (idf over the named cards'
    rulings), over the square root of the ruling's length, so a short ruling on the point wins."""
    shared = asked & words
    if not shared:
        return 0.0
    weight = sum(math.log(1 + total / counts[word]) for word in shared)
    return weight / math.sqrt(max(len(words), 1))
