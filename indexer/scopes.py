"""Variants and the documents about one: a question that names a variant prefers its rules, one that
doesn't prefers the general rules.

The Comprehensive Rules give most subjects twice: in the general rules and again for a variant ("a
player with ten or more poison counters loses" in 104.3d, "fifteen or more" for a Two-Headed Giant team
in 810.10). A question about the general case should not be answered by a variant's rule because it
shares more words with it, and a question naming the variant ("2HG", "in commander", "the Leader
died") should not lose to the general rule. Each record belongs to at most one **scope**:

* a variant or option section of chapters 8 and 9 of the Comprehensive Rules (801–811, 901–905), by
  name: "Two-Headed Giant", "Commander", "Emperor", "Grand Melee" …; the glossary entries citing a rule
  there belong to it too;
* a source document about one variant: the Treachery rules (``treachery``) and the Emperor page (the
  scope of section 809).

A scope is *named* by a question when every word of one of its **markers** is in the question (after
the lexicon: "2hg" reads "two-headed giant"), and with it each **option the variant uses**: a rule of
the variant that speaks of an option and cites its section ("The Two-Headed Giant variant uses the
shared team turns option. (See rule 805.)") — in 2026 the Two-Headed Giant's combat rules are the shared
team turns option's (805.10), so a question about 2HG combat must not push them down. Markers come from
the corpus: the scope's name, the
glossary terms pointing into it ("Planar Die", "Scheme"), and for a document its rule titles, the titles
of its glossary entries, and its identity cards' names and roles (Leader, Guardian, The Oracle …).

>>> from rulesjudge.corpus.records import Record
>>> section = Record("cr@x/810", "cr", "x", "section", "", number="810", title="Two-Headed Giant Variant")
>>> rule = Record("cr@x/810.2", "cr", "x", "rule", "Each team has a shared life total.", number="810.2",
...               parent="cr@x/810")
>>> general = Record("cr@x/119.1", "cr", "x", "rule", "Each player begins with 20 life.", number="119.1")
>>> scopes = Scopes.of({r.id: r for r in (section, rule, general)})
>>> scopes.scope_of("cr@x/810.2"), scopes.scope_of("cr@x/119.1")
('two-headed giant', None)
>>> sorted(scopes.named("life total in two-headed giant?")), sorted(scopes.named("life total?"))
(['two-headed giant'], [])
>>> from rulesjudge.corpus.records import CrossRef
>>> option = Record("cr@x/805", "cr", "x", "section", "", number="805", title="Shared Team Turns Option")
>>> uses = Record("cr@x/810.7", "cr", "x", "rule", "Two-Headed Giant uses the shared team turns option's "
...               "combat rules.", number="810.7", parent="cr@x/810",
...               cross_refs=(CrossRef("805", "805", "cr@x/805"),))
>>> scopes = Scopes.of({r.id: r for r in (section, rule, option, uses)})
>>> sorted(scopes.named("who blocks in two-headed giant?"))
['shared team turns', 'two-headed giant']
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field

from rulesjudge.corpus.records import Record

#: Sections of the Comprehensive Rules that are a variant or an option (the chapters' x00 is general).
_VARIANT_SECTION = re.compile(r"^[89](?!00)\d\d$")
_OPTION = re.compile(r"\boptions?\s*$", re.IGNORECASE)
_SUFFIX = re.compile(r"\s+(?:variant|options?)$", re.IGNORECASE)
#: Source documents that are about one variant, and the scope they belong to.
DOCUMENT_SCOPES = {"treachery": "treachery", "emperor-page": "emperor"}


def scope_name(title: str) -> str:
    """A section title as a scope name.

    >>> scope_name("Two-Headed Giant Variant"), scope_name("Attack Left and Attack Right Options")
    ('two-headed giant', 'attack left and attack right')
    """
    return _SUFFIX.sub("", title.strip()).lower()


@dataclass(frozen=True)
class Scopes:
    """Record id → scope, and each scope's markers (stemmed word sets)."""

    of_record: Mapping[str, str]
    markers: Mapping[str, tuple[frozenset[str], ...]]
    #: variant → the options it uses (named with it)
    uses: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: variants whose name the rules never write in lower case: it names the variant and nothing else
    #: ("Two-Headed Giant"), unlike "emperor" or "archenemy", which are also a player ("the emperor")
    proper_names: frozenset[str] = frozenset()
    #: scope → longer terms of the rules that hold one of its markers in another sense, blanked before its
    #: markers are read: "color identity" (Commander) holds Treachery's "identity", so "what is my color
    #: identity" names Commander only (:func:`_shadows`)
    shadows: Mapping[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict)

    def scope_of(self, record_id: str) -> str | None:
        return self.of_record.get(record_id)

    def named(self, text: str) -> frozenset[str]:
        """The scopes a question names: every word of one of its markers is in the question, outside the
        longer terms that hold the marker in another sense (:attr:`shadows`).

        >>> scopes = Scopes({}, {"treachery": (frozenset({"identity"}),)},
        ...                 shadows={"treachery": (_name_pattern("color identity"),)})
        >>> sorted(scopes.named("what is my color identity")), sorted(scopes.named("my identity"))
        ([], ['treachery'])
        """
        words = set(marker_words(text))
        named = set()
        for scope, markers in self.markers.items():
            own = words
            if scope in self.shadows and any(shadow.search(text) for shadow in self.shadows[scope]):
                blanked = text
                for shadow in self.shadows[scope]:
                    blanked = shadow.sub(" ", blanked)
                own = set(marker_words(blanked))
            if any(marker <= own for marker in markers):
                named.add(scope)
        return frozenset(named.union(*(self.uses.get(scope, ()) for scope in named)))

    def without_option_users(self, text: str, named: frozenset[str]) -> str:
        """The question without the names of the variants it names that use an option, for BM25.

        A variant whose rules live partly under an option ("Two-Headed Giant uses the shared team turns
        option", its combat rules in 805.10) names the variant in every rule of its own section and never
        in the option's: the name's words would count for 810's rules only, a second time after the
        scope lift that both sections get. The lift stands for the name; the other words pick the rule.
        Only a proper name goes (:attr:`proper_names`): "emperor" in "can the emperor attack" is a player.

        >>> scopes = Scopes({}, {}, {"two-headed giant": frozenset({"shared team turns"})},
        ...                 frozenset({"two-headed giant"}))
        >>> scopes.without_option_users("in two-headed giant which team is defending",
        ...                             frozenset({"two-headed giant", "shared team turns"}))
        'in   which team is defending'
        """
        stripped = text
        for scope in sorted(named):
            if self.uses.get(scope) and scope in self.proper_names:
                stripped = _name_pattern(scope).sub(" ", stripped)
        return stripped if re.search(r"\w", stripped) else text

    def mend(self, text: str, known: Container[str]) -> str:
        """The question with misspelt variant names mended, before the scopes are read: a word the
        corpus doesn't know (``known``) within two edits of a word of a scope's name (one for six
        letters; a swap of two letters is one edit), "emporer" → "emperor", "archenamy" → "archenemy".

        >>> scopes = Scopes({}, {"emperor": (frozenset({"emperor"}),)})
        >>> scopes.mend("emporer format, who goes first", {"format", "first"})
        'emperor format, who goes first'
        """
        from rapidfuzz.distance import OSA

        names = {word for scope in self.markers for word in marker_words(scope) if len(word) >= 6}

        def mended(match: re.Match[str]) -> str:
            word = match.group().lower()
            if len(word) < 6 or word in known or word in names:
                return match.group()
            limit = 1 if len(word) < 7 else 2
            best = min(sorted(names), key=lambda name: OSA.distance(word, name), default=None)
            return best if best is not None and OSA.distance(word, best) <= limit else match.group()

        return re.sub(r"[A-Za-z]+", mended, text)

    @classmethod
    def of(cls, records: Mapping[str, Record]) -> Scopes:
        of_record: dict[str, str] = {}
        phrases: dict[str, set[str]] = {}
        for record in records.values():
            scope = _own_scope(record, records)
            if scope is None:
                continue
            of_record[record.id] = scope
            phrases.setdefault(scope, {scope})
            if record.document in DOCUMENT_SCOPES:
                phrases[scope].update(_document_markers(record))
        for record in records.values():  # glossary entries citing a variant's rule belong to it
            if record.kind != "glossary" or record.id in of_record:
                continue
            cited = {of_record.get(ref.target, "") for ref in record.cross_refs if ref.target}
            if len(cited) == 1 and "" not in cited:  # "APNAP order" cites 101.4 too: not a variant's
                (found,) = cited
                of_record[record.id] = found
                phrases[found].update((record.title, *record.aliases))
        markers = {scope: tuple(sorted({frozenset(words) for phrase in found
                                        if (words := marker_words(phrase))}, key=sorted))
                   for scope, found in sorted(phrases.items())}
        uses = _options_used(records, of_record)
        shadows = _shadows(records, of_record, markers)
        return cls(of_record, markers, uses, _proper_names(uses, records), shadows)


def _shadows(records: Mapping[str, Record], of_record: Mapping[str, str],
             markers: Mapping[str, tuple[frozenset[str], ...]]) -> dict[str, tuple[re.Pattern[str], ...]]:
    """Scope → the glossary terms of the rules outside it (and their aliases) that hold one of its markers
    and more: "color identity" is Commander's term, not Treachery's identity; "Monarch" is no marker
    of anything, and a term of the scope itself ("Identity card") is its own.

    >>> from rulesjudge.corpus.records import Record
    >>> term = Record("cr@x/glossary/color-identity", "cr", "x", "glossary", "", title="Color Identity")
    >>> found = _shadows({term.id: term}, {}, {"treachery": (frozenset({"identity"}),)})
    >>> [bool(p.search("my Color Identity")) for p in found["treachery"]]
    [True]
    """
    found: dict[str, list[re.Pattern[str]]] = {}
    for record in records.values():
        if record.kind != "glossary":
            continue
        for term in (record.title or "", *record.aliases):
            words = frozenset(marker_words(term))
            if len(words) < 2:
                continue
            for scope, scope_markers in markers.items():
                if scope != of_record.get(record.id) and any(m < words for m in scope_markers):
                    found.setdefault(scope, []).append(_name_pattern(term))
    return {scope: tuple(sorted(set(patterns), key=lambda p: p.pattern)) for scope, patterns in found.items()}


def _name_pattern(name: str, ignore_case: bool = True) -> re.Pattern[str]:
    """A scope's name as written in a question: any separators between its words, a plural ending."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    return re.compile(r"\b" + r"[\W_]+".join(map(re.escape, words)) + r"s?\b",
                      re.IGNORECASE if ignore_case else 0)


_STOP = frozenset(("the", "a", "an", "of", "and", "or", "for", "to", "in", "on", "over"))


def marker_words(text: str) -> list[str]:
    """Lower-case words, possessives and plurals folded, without stemming ("commander" is not "command",
    "summoner" not "summoning") and without a few function words.

    >>> marker_words("The Leaders' Two-Headed Giant teams vs. the Ætherist's identities")
    ['leader', 'two', 'headed', 'giant', 'team', 'vs', 'aetherist', 'identity']
    """
    words = []
    for word in re.findall(r"[a-z0-9]+(?:['’][a-z]+)?", text.lower().replace("æ", "ae")):
        word = re.sub(r"['’]s?$", "", word)
        if len(word) > 4 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if word not in _STOP:
            words.append(word)
    return words


def _options_used(records: Mapping[str, Record], of_record: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Variant → the options whose section its rules cite while speaking of an option."""
    options = {scope_name(record.title) for record in records.values()
               if record.kind == "section" and record.id in of_record and _OPTION.search(record.title)}
    uses: dict[str, set[str]] = {}
    for record_id, scope in of_record.items():
        record = records[record_id]
        if scope in options or "option" not in record.text.lower():
            continue
        for ref in record.cross_refs:
            used = of_record.get(ref.target or "")
            if used in options:
                uses.setdefault(scope, set()).add(used)
    return {scope: frozenset(found) for scope, found in sorted(uses.items())}


def _proper_names(scopes: Iterable[str], records: Mapping[str, Record]) -> frozenset[str]:
    """The scopes whose name no record writes in lower case ("the emperor" is a player too)."""
    found = set()
    for scope in scopes:
        lower = _name_pattern(scope, ignore_case=False)
        if not any(lower.search(record.text) for record in records.values()):
            found.add(scope)
    return frozenset(found)


def _own_scope(record: Record, records: Mapping[str, Record]) -> str | None:
    if record.document in DOCUMENT_SCOPES:
        return DOCUMENT_SCOPES[record.document]
    if record.document != "cr" or not record.number:
        return None
    section = records.get(f"{record.document}@{record.edition}/{record.number.split('.')[0]}")
    if section is None or not _VARIANT_SECTION.match(section.number or ""):
        return None
    option = _sub_option(record, records)
    return scope_name(option or section.title) or None


def _sub_option(record: Record, records: Mapping[str, Record]) -> str | None:
    """The title of the format within a variant's section that a record belongs to: 903.12 "Brawl
    Option", 903.13 "Commander Draft", 904.12 "Supervillain Rumble Option" are rules that are only a title,
    with the neighbouring format's rules under them. They are scopes of their own: a Commander question
    must not get Brawl's deck rules because both name the commander.

    >>> brawl = Record("cr@x/903.12", "cr", "x", "rule", "Brawl Option", number="903.12",
    ...                children=("cr@x/903.12a",))
    >>> item = Record("cr@x/903.12a", "cr", "x", "subrule", "A brawl deck ...", number="903.12a")
    >>> _sub_option(item, {r.id: r for r in (brawl, item)}), _sub_option(brawl, {brawl.id: brawl})
    ('Brawl Option', 'Brawl Option')
    """
    match = re.match(r"^(\d{3}\.\d+)", record.number or "")
    if not match:
        return None
    rule = records.get(f"{record.document}@{record.edition}/{match[1]}")
    if rule is None or rule.kind != "rule" or not rule.children or len(rule.text.split()) > 4:
        return None
    return rule.text.strip().rstrip(".")


def _document_markers(record: Record) -> list[str]:
    """A variant document's own names: identity cards and their roles, rule and glossary titles."""
    found: list[str] = []
    if record.kind == "card-note":
        found.append(re.sub(r"^the\s+", "", record.title, flags=re.IGNORECASE))
        if record.role:
            found.append(record.role)
    elif record.kind == "section" and record.title:
        found.append(record.title)
    elif record.kind == "rule" and len(record.text.split()) <= 4 and record.children:
        found.append(record.text.split("\n")[0])
    return found
