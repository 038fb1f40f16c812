"""The Treachery variant (the fan-made rules v4.0: 907, 372, 702.187, 116.2tr, 109.2tr).

Players are dealt identity cards (Leader, Guardian, Assassin, Traitor) that define hidden teams: the Leader
and the Guardians are the leader team, the Assassins the assassins team, each Traitor fights alone (907.5).
A face-down identity makes its player everyone's opponent with no teammates (907.5d). The leader team loses
when every Leader player has lost; the assassins team then wins if one of its players is still in the game
(907.8); otherwise the normal rules for teams apply (104.2c, 104.3g).

Identities are held in :class:`Identity` records keyed by the player who controls them, so cards can move
between players (The Metamorph, The Puppet Master) and the players change team with them.

>>> table = deal({"Ann": "assassin", "Ben": "guardian", "Cat": "leader", "Dan": "assassin", "Eve": "traitor"})
>>> table["Cat"].face, table["Ben"].face
('up', 'down')
>>> legal_identity_deck(["leader", "guardian", "assassin", "assassin", "traitor"])[0]
True
>>> team_name(table["Eve"].role)
'traitor'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from rulesjudge.corpus.records import slugify
from rulesjudge.scenarios.model.citations import Cite, cr, treachery
from rulesjudge.scenarios.model.steps import Reading, Step
from rulesjudge.scenarios.model.team_vs_team import Outcome, step, team_result

ROLES = ("leader", "guardian", "assassin", "traitor")

#: Identity cards with card notes in the rules document, by role (the document's table of contents).
CARDS: dict[str, str] = {
    **dict.fromkeys(
        [
            "Her Seedborn Highness",
            "His Beloved Majesty",
            "The Blood Empress",
            "The Chaos Bringer",
            "The Corrupted Regent",
            "The Gathering",
            "The King over the Scrapyard",
            "The Old Ruler",
            "The Queen of Light",
            "The Twin Princesses",
            "The Void Tyrant",
        ],
        "leader",
    ),
    **dict.fromkeys(
        [
            "The Ætherist",
            "The Augur",
            "The Bodyguard",
            "The Cathar",
            "The Cryomancer",
            "The Flickering Mage",
            "The Golem",
            "The Great Martyr",
            "The Hieromancer",
            "The Immortal",
            "The Marshal",
            "The Oracle",
            "The Spellsnatcher",
            "The Summoner",
            "The Supplier",
            "The Warlock",
        ],
        "guardian",
    ),
    **dict.fromkeys(
        [
            "The Ambitious Queen",
            "The Beastmaster",
            "The Bio-Engineer",
            "The Corpse Snatcher",
            "The Demon",
            "The Depths Caller",
            "The Madwoman",
            "The Necromancer",
            "The Pyromancer",
            "The Rebel General",
            "The Seer",
            "The Shapeshifting Slayer",
            "The Sigil Mage",
            "The Sorceress",
            "The War Shaman",
            "The Witch",
        ],
        "assassin",
    ),
    **dict.fromkeys(
        [
            "The Banisher",
            "The Cleaner",
            "The Ferryman",
            "The Gatekeeper",
            "The Grenadier",
            "The Metamorph",
            "The Oneiromancer",
            "The Puppet Master",
            "The Reflector",
            "The Time Bender",
            "The Wearer of Masks",
        ],
        "traitor",
    ),
}

#: 907.3c's recommended identity decks: players -> (leaders, traitors, assassins, guardians).
RECOMMENDED = {4: (1, 1, 2, 0), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1), 7: (1, 1, 3, 2), 8: (1, 2, 3, 2)}

TEAM_NAMES = {"leader": "leader", "guardian": "leader", "assassin": "assassins", "traitor": "traitor"}


def find_card(name: str) -> str | None:
    """The catalogue's spelling of a card name, matched by slug ("The Aetherist" finds "The Ætherist")."""
    slug = slugify(name)
    return next((card for card in CARDS if slugify(card) == slug), None)


def note_id(card: str) -> Cite:
    """The citation of an identity card's card note, record ``treachery@4.0/note/the-metamorph``."""
    return treachery(f"note/{slugify(card)}")


@dataclass(frozen=True)
class Identity:
    """An identity card in the command zone: its role, card, face, owner, and unveil state."""

    role: str
    owner: str
    card: str | None = None
    face: str = "down"  # "up" or "down"
    unveil: bool = True  # has an unveil ability (702.187); Leaders don't, by default
    undercover: bool = False  # an undercover restriction that hasn't been met yet (702.187f)
    seen: bool = False  # has been face up at some moment: players remember its role (The Gatekeeper)

    def notes(self) -> tuple[Cite, ...]:
        return (note_id(self.card),) if self.card else ()


def team_name(role: str) -> str:
    """The 907.5 designation of a role's team: leader, assassins, or traitor (alone)."""
    return TEAM_NAMES[role]


def default_face(role: str, has_unveil: bool) -> tuple[str, list[Step]]:
    """Leaders start face up (907.4a); identities with unveil start face down (907.4b, 702.187b)."""
    if role == "leader":
        return "up", [
            step("A Leader identity card is put into the command zone face up.", treachery("907.4a"))
        ]
    if has_unveil:
        return "down", [
            step(
                "An identity card with unveil is put into the command zone face down.",
                treachery("907.4b"),
                treachery("702.187a"),
            )
        ]
    return "up", [
        step("Identity cards can't normally start face down; only unveil allows it.", treachery("702.187b"))
    ]


def deal(identities: Mapping[str, str | Mapping[str, object]]) -> dict[str, Identity]:
    """The identity each player starts with, from ``{player: role}`` or ``{player: {role, card, face, ...}}``.

    Each player owns and controls the card they start with (907.9, 372.5).
    """
    table: dict[str, Identity] = {}
    for player, spec in identities.items():
        data: Mapping[str, object] = {"role": spec} if isinstance(spec, str) else spec
        role = str(data["role"])
        card = data.get("card")
        card_name = find_card(str(card)) or str(card) if card else None
        has_unveil = bool(data.get("unveil", role != "leader"))
        face = str(data.get("face") or default_face(role, has_unveil)[0])
        undercover = bool(data.get("undercover", False))
        table[player] = Identity(role, player, card_name, face, has_unveil, undercover, face == "up")
    return table


# --- setup ------------------------------------------------------------------------------------------


def legal_identity_deck(roles: Sequence[str]) -> tuple[bool, list[Step]]:
    """Is this identity deck legal for its number of players (907.2, 907.3a, 907.3b, 907.3d)?

    >>> legal_identity_deck(["leader", "traitor", "traitor", "traitor"])[0]   # Backstab Rumble
    True
    >>> legal_identity_deck(["leader", "leader", "assassin", "assassin", "traitor"])[0]
    False
    """
    n = len(roles)
    count = Counter(roles)
    if n < 4:
        return False, [
            step(f"A Treachery game is played with four or more players, not {n}.", treachery("907.2"))
        ]
    if count["leader"] != 1:
        return False, [
            step(f"The deck must hold exactly one Leader, not {count['leader']}.", treachery("907.3b"))
        ]
    if count["traitor"] == n - 1:
        return True, [step("One Leader and only Traitors: the Backstab Rumble option.", treachery("907.3d"))]
    got = (count["leader"], count["traitor"], count["assassin"], count["guardian"])
    if RECOMMENDED.get(n) == got and count["assassin"] != n // 2:
        # 907.3c recommends 3 Assassins for 8 players while 907.3b asks for half the players (4).
        strict = Reading(
            f"907.3b read strictly: {n} players need {n // 2} Assassins, so not legal.",
            False,
            (treachery("907.3b"),),
        )
        lenient = Reading(
            f"907.3c names this very deck as the recommended setup for {n} players.",
            True,
            (treachery("907.3c"),),
        )
        text = (
            f"This is 907.3c's recommended setup for {n} players, though it has {count['assassin']} "
            f"Assassins where 907.3b asks for {n // 2}; the recommendation is taken as legal."
        )
        return True, [step(text, treachery("907.3c"), treachery("907.3b"), alternatives=(lenient, strict))]
    if count["traitor"] < 1:
        return False, [step("The deck must hold at least one Traitor.", treachery("907.3b"))]
    if count["assassin"] != n // 2:
        return False, [
            step(
                f"With {n} players the deck must hold {n // 2} Assassins (half the players, rounded down), "
                f"not {count['assassin']}.",
                treachery("907.3b"),
            )
        ]
    steps = [
        step(
            f"One Leader, {count['traitor']} Traitor(s), {count['assassin']} Assassins (half of {n}, rounded "
            f"down) and the rest Guardians or Traitors: a legal identity deck.",
            treachery("907.3a"),
            treachery("907.3b"),
        )
    ]
    want = RECOMMENDED.get(n)
    got = (count["leader"], count["traitor"], count["assassin"], count["guardian"])
    if want == got:
        steps.append(step(f"It is also the recommended setup for {n} players.", treachery("907.3c")))
    return True, steps


def is_recommended(roles: Sequence[str]) -> tuple[bool, list[Step]]:
    """Is the deck one of 907.3c's recommended setups (and 907.3b's default for five players)?"""
    count = Counter(roles)
    got = (count["leader"], count["traitor"], count["assassin"], count["guardian"])
    want = RECOMMENDED.get(len(roles))
    ok = want == got
    text = f"The recommended setup for {len(roles)} players is " + (
        f"{want[0]} Leader, {want[1]} Traitor(s), {want[2]} Assassins, {want[3]} Guardian(s)."
        if want
        else "not given."
    )
    return ok, [step(text, treachery("907.3c"))]


def starting_life(commander: bool) -> tuple[int, list[Step]]:
    """20, or 40 when Treachery is paired with Commander (907.6 and its note; 903.7)."""
    if commander:
        return 40, [
            step(
                "Played with the Commander variant, each player starts at 40 life.",
                treachery("907.6"),
                cr("903.7"),
            )
        ]
    return 20, [step("Each player's starting life total is 20.", treachery("907.6"))]


def starting_players(table: Mapping[str, Identity], seats: Sequence[str]) -> tuple[list[str], list[Step]]:
    """The Leader player is the starting player; among several Leaders, one at random (907.7, 372.3a)."""
    leaders = [p for p in seats if p in table and table[p].role == "leader"]
    text = f"The Leader player, {', '.join(leaders) or 'nobody'}, is the starting player" + (
        "; one of them is chosen at random." if len(leaders) > 1 else "."
    )
    choices = tuple(Reading(f"{p} starts.", p, (treachery("907.7"),)) for p in leaders)
    if len(leaders) < 2:
        choices = ()
    return leaders, [step(text, treachery("907.7"), treachery("372.3a"), alternatives=choices)]


# --- teams ------------------------------------------------------------------------------------------


def team_key(player: str, role: str) -> str:
    """A key that tells teams apart: each Traitor is a team of their own (907.5c)."""
    name = team_name(role)
    return f"traitor {player}" if name == "traitor" else name


def teams_of(
    table: Mapping[str, Identity], last_team: Mapping[str, str], seats: Sequence[str]
) -> dict[str, list[str]]:
    """Every player's team by the identity they control, or the last one they had before leaving (907.12)."""
    teams: dict[str, list[str]] = {}
    for player in seats:
        key = team_key(player, table[player].role) if player in table else last_team.get(player)
        if key:
            teams.setdefault(key, []).append(player)
    return teams


def team_answer(
    table: Mapping[str, Identity], last_team: Mapping[str, str], player: str
) -> tuple[str | None, list[Step]]:
    """The 907.5 name of a player's team: leader, assassins or traitor (the last one known if they left)."""
    if player not in table:
        key = last_team.get(player)
        name = key.split()[0] if key else None
        return name, [
            step(f"{player} left the game; the game remembers their last team: {name}.", treachery("907.12"))
        ]
    ident = table[player]
    name = team_name(ident.role)
    rule = {"leader": "907.5a", "assassins": "907.5b", "traitor": "907.5c"}[name]
    text = f"{player} controls a {ident.role.title()} identity, so is on the {name} team"
    if name == "traitor":
        text = f"{player} controls a Traitor identity and fights alone"
    if ident.face == "down":
        text += " (hidden: the card is face down, so for now they have no teammates)"
        return name, [
            step(text + ".", treachery(rule), treachery("907.5d"), treachery("907.2a"), *ident.notes())
        ]
    return name, [step(text + ".", treachery(rule), *ident.notes())]


def teammates(
    table: Mapping[str, Identity], player: str, in_game: Collection[str]
) -> tuple[list[str], list[Step]]:
    """Face-up players on the same team (907.5); a face-down player has no teammates (907.5d)."""
    ident = table.get(player)
    if ident is None or player not in in_game:
        return [], [step(f"{player} is not in the game.", cr("102.3"))]
    if ident.face == "down":
        return [], [
            step(
                f"{player}'s identity is face down: they have no teammates.",
                treachery("907.5d"),
                *ident.notes(),
            )
        ]
    if team_name(ident.role) == "traitor":
        return [], [
            step(f"{player} is a Traitor: Traitors have no teammates.", treachery("907.5c"), *ident.notes())
        ]
    mates = [
        p
        for p, other in table.items()
        if p != player
        and p in in_game
        and other.face == "up"
        and team_name(other.role) == team_name(ident.role)
    ]
    hidden = [
        p
        for p, other in table.items()
        if p != player
        and p in in_game
        and other.face == "down"
        and team_name(other.role) == team_name(ident.role)
    ]
    rule = "907.5a" if team_name(ident.role) == "leader" else "907.5b"
    listed = ", ".join(mates) or "none"
    text = f"{player}'s teammates are the face-up players of the {team_name(ident.role)} team: {listed}."
    steps = [step(text, treachery(rule), cr("102.3"))]
    if hidden:
        steps.append(
            step(
                "Players with face-down identities are opponents with no teammates until turned face up.",
                treachery("907.5d"),
            )
        )
    return mates, steps


def opponents(
    table: Mapping[str, Identity], player: str, in_game: Collection[str], seats: Sequence[str]
) -> tuple[list[str], list[Step]]:
    """Every other player in the game who isn't a teammate (102.3, 907.5d)."""
    mates, steps = teammates(table, player, in_game)
    opps = [p for p in seats if p in in_game and p != player and p not in mates]
    steps.append(
        step(
            f"{player}'s opponents are all other players not on their team: {', '.join(opps) or 'none'}.",
            cr("102.3"),
            treachery("907.5d"),
        )
    )
    return opps, steps


# --- unveiling and identity changes -------------------------------------------------------------------


#: Card notes that say when an unveil cost can't be paid: "You can't pay the unveil cost if your life total
#: is less than N" (The Ambitious Queen, The Cathar, The Metamorph; the hand conditions are not modelled).
LIFE_TO_UNVEIL = {"The Ambitious Queen": 2, "The Cathar": 6, "The Metamorph": 8}


def can_unveil(
    table: Mapping[str, Identity], player: str, in_game: Collection[str], life: int | None = None
) -> tuple[bool, list[Step]]:
    """May the player turn their identity face up now (116.2tr, 702.187c, 702.187f)?

    ``life`` is the player's life total, for the cards whose notes say the cost needs some life.
    """
    ident = table.get(player)
    if ident is None or player not in in_game:
        return False, [
            step(f"{player} is not in the game, so can't take a special action.", treachery("116.2tr"))
        ]
    notes = ident.notes()
    if ident.face == "up":
        return False, [step(f"{player}'s identity is already face up.", treachery("702.187c"), *notes)]
    if not ident.unveil:
        return False, [
            step(
                f"{player}'s identity has no unveil cost, so it can't be turned face up this way.",
                treachery("702.187c"),
                *notes,
            )
        ]
    if ident.undercover:
        return False, [
            step(
                f"{player}'s undercover restriction hasn't been met, so they can't unveil yet.",
                treachery("702.187f"),
                *notes,
            )
        ]
    need = LIFE_TO_UNVEIL.get(ident.card or "")
    if need is not None and life is not None and life < need:
        text = (
            f"{player} has {life} life: the unveil cost of {ident.card} can't be paid with less than {need}."
        )
        return False, [step(text, treachery("702.187c"), cr("119.4"), *notes)]
    text = f"{player} may unveil whenever they have priority: a special action that doesn't use the stack."
    return True, [step(text, treachery("702.187c"), treachery("116.2tr"), treachery("907.4b"), *notes)]


def unveil(
    table: dict[str, Identity], player: str, in_game: Collection[str], life: int | None = None
) -> list[Step]:
    """Turn the player's identity face up if they may (702.187c); otherwise nothing happens."""
    ok, steps = can_unveil(table, player, in_game, life)
    if ok:
        table[player] = replace(table[player], face="up", seen=True)
        steps.append(
            step(
                f"{player} unveils: the identity is face up and {player} joins their team openly.",
                treachery("702.187c"),
                treachery("907.5"),
                *table[player].notes(),
            )
        )
    return steps


def meet_undercover(table: dict[str, Identity], player: str) -> list[Step]:
    """The undercover restriction is met: the unveil procedure is open again (702.187f)."""
    if player in table:
        table[player] = replace(table[player], undercover=False)
    return [
        step(
            f"{player}'s undercover restriction is met.",
            treachery("702.187f"),
            *(table[player].notes() if player in table else ()),
        )
    ]


def turn_face_down(table: dict[str, Identity], player: str) -> list[Step]:
    """An effect turns the player's identity face down (The Gatekeeper, The Puppet Master).

    The player has no teammates again (907.5d); opponents who saw the face-up role still remember it.
    """
    ident = table.get(player)
    if ident is None:
        return []
    notes = ident.notes()
    seen = ident.seen or ident.face == "up"
    table[player] = replace(ident, face="down", seen=seen)
    steps = [
        step(
            f"{player}'s identity is turned face down: they have no teammates until it is face up again.",
            treachery("907.5d"),
            *notes,
        )
    ]
    if ident.card == "The Gatekeeper":
        steps.append(
            step("Turning The Gatekeeper face down, your opponents still remember your role.", *notes)
        )
    elif seen:
        steps.append(
            step("Players who saw the face-up identity still know its role.", treachery("907.5d"), *notes)
        )
    return steps


def exchange(table: dict[str, Identity], a: str, b: str) -> list[Step]:
    """Two players exchange control of their identity cards and change team with them (The Puppet Master)."""
    table[a], table[b] = table[b], table[a]
    notes = (note_id("The Puppet Master"),)
    return [
        step(
            f"{a} and {b} exchange identity cards: {a} is now {table[a].role.title()}, "
            f"{b} {table[b].role.title()}; "
            "each changes team according to the new role.",
            treachery("907.5"),
            *notes,
        )
    ]


def steal_leader(
    table: dict[str, Identity], thief: str, leader: str, last_team: dict[str, str]
) -> tuple[bool, list[Step]]:
    """The Metamorph: as the Leader player loses, its controller may take that Leader identity (card note).

    The Leader player still loses and keeps the last team they were on (907.12); the thief changes team
    according to the new role, so a Leader is still in the game and the game goes on.
    """
    notes = (note_id("The Metamorph"),)
    thief_id, victim = table.get(thief), table.get(leader)
    if thief_id is None or victim is None or victim.role != "leader":
        return False, [step(f"{leader} controls no Leader identity for {thief} to steal.", *notes)]
    unnamed_traitor = thief_id.card is None and thief_id.role == "traitor"  # a Traitor card left unnamed
    if not (thief_id.card == "The Metamorph" or unnamed_traitor) or thief_id.face != "up":
        return False, [step(f"{thief} doesn't control a face-up The Metamorph.", treachery("372.4"), *notes)]
    last_team[leader] = team_key(leader, victim.role)
    table[thief] = replace(victim, owner=victim.owner)
    del table[leader]
    return True, [
        step(
            f"As {leader} loses the game, {thief} steals the Leader identity: {thief} is now the Leader "
            "player and the game goes on.",
            *notes,
        ),
        step(
            f"{leader} remains a member of the last team they were on, the leader team.",
            treachery("907.12"),
            *notes,
        ),
    ]


def leave(
    table: dict[str, Identity], players: Collection[str], in_game: Collection[str], last_team: dict[str, str]
) -> list[Step]:
    """Players leave: their identities are revealed and remembered as their last team (907.11–907.13)."""
    steps: list[Step] = []
    for player in players:
        ident = table.pop(player, None)
        if ident is None:
            continue
        last_team[player] = team_key(player, ident.role)
        if ident.face == "down":
            steps.append(
                step(
                    f"{player} leaves: their face-down identity is revealed, a {ident.role.title()}.",
                    treachery("907.13"),
                    treachery("702.187g"),
                    *ident.notes(),
                )
            )
        steps.append(
            step(
                f"The game remembers {player}'s last team: {team_name(ident.role)}.",
                treachery("907.12"),
                *ident.notes(),
            )
        )
        for other, card in list(table.items()):
            if card.owner == player and other in in_game and other not in players:
                table[other] = replace(card, owner=other)
                steps.append(
                    step(
                        f"{player} owned the identity {other} controls; it stays, and {other} becomes "
                        "its owner.",
                        treachery("907.11b"),
                        *card.notes(),
                    )
                )
    return steps


# --- winning and losing --------------------------------------------------------------------------------


def leader_team_losses(
    table: Mapping[str, Identity], in_game: Collection[str]
) -> tuple[set[str], list[Step]]:
    """When no player in the game controls a Leader identity, the leader team loses (907.8b)."""
    if any(i.role == "leader" for p, i in table.items() if p in in_game):
        return set(), []
    guards = {p for p, i in table.items() if p in in_game and i.role == "guardian"}
    if not guards:
        return set(), []
    text = f"Every Leader player has lost, so the leader team loses: {', '.join(sorted(guards))} lose too."
    return guards, [step(text, treachery("907.8b"), treachery("104.3g"))]


def result(
    table: Mapping[str, Identity],
    last_team: Mapping[str, str],
    seats: Sequence[str],
    in_game: Collection[str],
    lost: Collection[str],
    left_now: Collection[str] = (),
) -> Outcome:
    """Winners and losers after the leader team's loss has been applied (907.8, 104.2c, 104.3g)."""
    teams = teams_of(table, last_team, seats)
    leaders_in = [p for p in in_game if p in table and table[p].role == "leader"]
    leader_ever = any(key == "leader" for key in teams)
    if leader_ever and not leaders_in:
        assassins_in = [p for p in in_game if p in table and table[p].role == "assassin"]
        if assassins_in:
            winners = frozenset(teams.get("assassins", ()))
            steps = (
                step(
                    "Every Leader player has lost and an Assassin player is still in the game: the assassins "
                    f"team wins ({', '.join(p for p in seats if p in winners)}).",
                    treachery("907.8a"),
                    treachery("104.2c"),
                ),
            )
            losers = frozenset(p for p in seats if p not in winners)
            return Outcome(winners, losers, frozenset(), True, steps)
        # No Assassin is left to win: the game goes on between the remaining Traitors (104.2a, 104.2c).
    return team_result(teams, in_game, lost, left_now)


# --- the variant object (the core's hooks) ----------------------------------------------------------------
from typing import Any  # noqa: E402

from rulesjudge.scenarios.model import events as ev  # noqa: E402
from rulesjudge.scenarios.model.table import Identity as CoreIdentity  # noqa: E402
from rulesjudge.scenarios.model.table import Options, TableState, Team, frozen_map  # noqa: E402
from rulesjudge.scenarios.model.variants import Answer, SetupProblem, Variant, register_variant  # noqa: E402

KEY = "treachery"


@dataclass(frozen=True)
class TreacheryState:
    """What the Treachery rules track beyond the core table: cards by controller, last teams, the deal."""

    cards: Mapping[str, Identity]
    last_team: Mapping[str, str]
    last_role: Mapping[str, str]
    dealt: tuple[str, ...]  # the roles of the identity deck as dealt (907.3)


def data_of(state: TableState) -> TreacheryState:
    data = state.extra.get(KEY)
    if isinstance(data, TreacheryState):
        return data
    cards = {
        p: Identity(
            i.role,
            p,
            find_card(i.card) or i.card if i.card else None,
            i.face,
            i.role != "leader",
            bool(getattr(i, "undercover", False)),
            i.face == "up",
        )
        for p, i in state.identities.items()
    }
    return TreacheryState(
        frozen_map(cards), frozen_map({}), frozen_map({}), tuple(i.role for i in state.identities.values())
    )


def store(
    state: TableState,
    cards: Mapping[str, Identity],
    last_team: Mapping[str, str] | None = None,
    last_role: Mapping[str, str] | None = None,
) -> TableState:
    """The state with new Treachery data (and the core's view of the identities kept in step)."""
    old = data_of(state)
    data = TreacheryState(
        frozen_map(cards),
        frozen_map(last_team if last_team is not None else old.last_team),
        frozen_map(last_role if last_role is not None else old.last_role),
        old.dealt,
    )
    extra = dict(state.extra)
    extra[KEY] = data
    core = {p: CoreIdentity(i.role, i.card, i.face, i.undercover) for p, i in cards.items()}
    return state.with_(extra=frozen_map(extra), identities=frozen_map(core))


def sides_of(data: TreacheryState, state: TableState) -> list[tuple[str, ...]]:
    """Who wins or loses together for 104.2a/104.2c: the face-up leader team, the face-up assassins, each
    Traitor, each face-down player (907.5d: no teammates), and players who left with their last team."""
    groups: dict[str, list[str]] = {}
    for player in state.seats:
        card = data.cards.get(player)
        if card is not None and state.is_in(player):
            key = team_key(player, card.role) if card.face == "up" else f"hidden {player}"
        else:
            key = data.last_team.get(player) or f"alone {player}"
        groups.setdefault(key, []).append(player)
    return [tuple(members) for members in groups.values()]


@dataclass(frozen=True, kw_only=True)
class UndercoverMet(ev.Event):
    """Treachery: the undercover restriction of the player's identity card is met (702.187f)."""

    NAME = "undercover-met"
    SCALAR = "player"
    KINDS = {"player": "player"}  # noqa: RUF012 - the core's Event declares it a ClassVar
    REQUIRED = ("player",)
    player: str


@dataclass(frozen=True, kw_only=True)
class StealIdentity(ev.Event):
    """The Metamorph: as ``from`` (a Leader player) loses, ``player`` steals their identity card."""

    NAME = "steal-identity"
    KINDS = {"player": "player", "from": "player"}  # noqa: RUF012
    REQUIRED = ("player", "from")
    player: str
    source: str


@dataclass(frozen=True, kw_only=True)
class ExchangeIdentities(ev.Event):
    """The Puppet Master: two players exchange control of their identity cards."""

    NAME = "exchange-identities"
    SCALAR = "players"
    KINDS = {"players": "players"}  # noqa: RUF012
    REQUIRED = ("players",)
    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class TurnFaceDown(ev.Event):
    """An effect turns the player's identity card face down (The Gatekeeper, The Puppet Master)."""

    NAME = "turn-face-down"
    SCALAR = "player"
    KINDS = {"player": "player"}  # noqa: RUF012
    REQUIRED = ("player",)
    player: str


for _event in (UndercoverMet, StealIdentity, ExchangeIdentities, TurnFaceDown):
    ev.register_event(_event)


class TreacheryVariant(Variant):
    """907: hidden teams dealt by identity cards; the Leader starts; 907.8 for winning and losing."""

    name = "treachery"
    title = "Treachery"
    cites = (treachery("907.1"),)

    def default_options(self, setup: Any) -> Options:
        return Options(attack="multiple", deploy=False)  # 907.2, 907.2b

    def build_teams(self, setup: Any) -> tuple[Team, ...]:
        return ()  # teams come from the identity cards (907.2a), not from seating

    def first_player(self, setup: Any, seats: tuple[str, ...]) -> str:
        """907.7: the Leader player is the starting player."""
        leaders = [p for p in seats if (i := setup.identity(p)) is not None and i.role == "leader"]
        return leaders[0] if leaders else seats[0]

    def validate_setup(self, setup: Any) -> list[SetupProblem]:
        problems = []
        for player in setup.seat_list():
            if setup.identity(player) is None:
                problems.append(
                    SetupProblem(
                        ("identities",),
                        f"player '{player}' has no identity card (907.3a: one identity card per player)",
                    )
                )
        for player in setup.identities:
            spec = setup.identity(player)
            if spec is not None and spec.card:
                card = find_card(spec.card)
                if card is None:
                    problems.append(
                        SetupProblem(("identities", player, "card"), f"unknown identity card '{spec.card}'")
                    )
                elif CARDS[card] != spec.role:
                    problems.append(
                        SetupProblem(
                            ("identities", player, "card"),
                            f"{card} is a {CARDS[card].title()} identity, not a {spec.role.title()}",
                        )
                    )
        return problems

    def prepare(self, state: TableState) -> TableState:
        data = data_of(state)
        return store(state, data.cards)

    def legal_setup(self, state: TableState) -> Answer:
        return legal_identity_deck(data_of(state).dealt)

    # --- who is who ------------------------------------------------------------------------------------
    def team_of(self, state: TableState, player: str) -> Team | None:
        data = data_of(state)
        card = data.cards.get(player)
        if card is None or card.face == "down" or team_name(card.role) == "traitor":
            return Team(player, (player,))
        mates = tuple(
            p for p, c in data.cards.items() if c.face == "up" and team_name(c.role) == team_name(card.role)
        )
        return Team(team_name(card.role), mates)

    def team_name(self, state: TableState, player: str) -> Answer:
        data = data_of(state)
        return team_answer(data.cards, data.last_team, player)

    def teammates(self, state: TableState, player: str) -> Answer:
        return teammates(data_of(state).cards, player, state.in_game)

    def opponents(self, state: TableState, player: str) -> Answer:
        return opponents(data_of(state).cards, player, state.in_game, state.seats)

    def sides(self, state: TableState) -> list[tuple[str, ...]]:
        return sides_of(data_of(state), state)

    # --- leaving and the end of the game -----------------------------------------------------------------
    def on_leave(self, state: TableState, leavers: Any) -> tuple[TableState, list[Step]]:
        data = data_of(state)
        cards, last_team, last_role = dict(data.cards), dict(data.last_team), dict(data.last_role)
        for player in leavers:
            if player in cards:
                last_role[player] = cards[player].role
        steps = leave(cards, leavers, state.in_game, last_team)
        state = store(state, cards, last_team, last_role)
        losing, more = self._leader_team_losses(state)
        if losing:
            from rulesjudge.scenarios.model.leaving import leave as leave_game

            state, after = leave_game(state, losing, "lost")
            return state, steps + more + after
        return state, steps

    def _leader_team_losses(self, state: TableState) -> tuple[list[str], list[Step]]:
        """907.8b: once every Leader player has lost, the leader team loses, Guardians still playing too."""
        data = data_of(state)
        if "leader" not in data.dealt or state.game_over:
            return [], []
        more, steps = leader_team_losses(
            {p: c for p, c in data.cards.items() if state.is_in(p)}, state.in_game
        )
        return [p for p in state.in_game if p in more], steps

    def game_result(self, state: TableState) -> tuple[TableState, list[Step]]:
        if state.game_over:
            return state, []
        data = data_of(state)
        leader_in = any(c.role == "leader" for p, c in data.cards.items() if state.is_in(p))
        if "leader" in data.dealt and not leader_in:
            assassins_in = [
                p for p, c in data.cards.items() if state.is_in(p) and c.role == "assassin" and c.face == "up"
            ]
            if assassins_in:
                from rulesjudge.scenarios.model.teams import end_game

                team = [
                    p
                    for p in state.seats
                    if (p in data.cards and data.cards[p].role == "assassin")
                    or data.last_team.get(p) == "assassins"
                ]
                text = (
                    f"Every Leader player has lost and {', '.join(assassins_in)}, controlling an Assassin "
                    f"identity, is still in the game: the assassins team wins ({', '.join(team)})."
                )
                state, steps = end_game(state, team, [step(text, treachery("907.8a"), treachery("104.2c"))])
                return self._close(state), steps
        state, steps = self._last_side(state, data)
        return (self._close(state), steps) if state.game_over else (state, steps)

    def _last_side(self, state: TableState, data: TreacheryState) -> tuple[TableState, list[Step]]:
        """104.2a/104.2c: when one side is left it wins, with the players who left on its last team."""
        from rulesjudge.scenarios.model.teams import end_game, settle_game_end

        live = [side for side in sides_of(data, state) if any(state.is_in(p) for p in side)]
        if len(live) > 1:
            return state, []
        if not live:  # nobody left: the general rule ends the game in a draw and empties the stack
            return settle_game_end(state, [])
        side = live[0]
        earlier = [p for p in side if not state.is_in(p)]
        if not earlier and len(side) == 1:
            text = f"All of {side[0]}'s opponents have left the game, so {side[0]} wins the game."
            return end_game(state, list(side), [step(text, cr("104.2a"))])
        text = f"Every other team has left the game, so this team wins: {', '.join(side)}" + (
            f", {', '.join(earlier)} too, though they had left (their last team, 907.12)." if earlier else "."
        )
        return end_game(state, list(side), [step(text, treachery("104.2c"), treachery("907.12"))])

    def _close(self, state: TableState) -> TableState:
        """At the end of the game all face-down identity cards are revealed (907.13), and everyone still
        in it who didn't win has lost."""
        results = dict(state.results)
        for player in state.seats:
            if results.get(player) not in ("won", "lost", "drew"):
                results[player] = "lost"
        return state.with_(results=frozen_map(results))

    def answer(self, state: TableState, question: Any) -> Answer | None:
        if getattr(question, "name", None) == "first-player":
            cards = {p: c for p, c in data_of(state).cards.items()}
            return starting_players(cards, state.seats)
        return None

    # --- identity events -----------------------------------------------------------------------------------
    def apply_event(self, state: TableState, event: Any) -> tuple[TableState, list[Step]] | None:
        data = data_of(state)
        cards = dict(data.cards)
        if isinstance(event, ev.Unveil):
            steps = unveil(cards, event.player, state.in_game, _life(state, event.player))
            state = store(state, cards)
            state, more = self.game_result(state)
            return state, steps + more
        if isinstance(event, UndercoverMet):
            steps = meet_undercover(cards, event.player)
            return store(state, cards), steps
        if isinstance(event, TurnFaceDown):
            if event.player not in cards or not state.is_in(event.player):
                return state, [step(f"{event.player} controls no identity card.", treachery("372.2"))]
            card = cards[event.player]
            if card.card == "The Gatekeeper" and card.face == "down":
                text = (
                    "The Gatekeeper's last ability can be activated only while the identity card is face up."
                )
                return state, [step(text, *card.notes())]
            steps = turn_face_down(cards, event.player)
            return store(state, cards), steps
        if isinstance(event, ExchangeIdentities):
            return self._exchange(state, cards, event.players)
        if isinstance(event, StealIdentity):
            return self._steal(state, cards, event.player, event.source)
        if isinstance(event, ev.Wins):
            from rulesjudge.scenarios.model.game import HANDLERS

            state, steps = HANDLERS[ev.Wins](state, event)
            return (self._close(state) if state.game_over else state), steps
        return None

    def _exchange(
        self, state: TableState, cards: dict[str, Identity], players: tuple[str, ...]
    ) -> tuple[TableState, list[Step]]:
        if len(players) != 2 or not all(p in cards and state.is_in(p) for p in players):
            return state, [
                step("Two players still in the game exchange identity cards.", note_id("The Puppet Master"))
            ]
        if any(cards[p].card == "The Puppet Master" for p in players):
            text = "The Puppet Master exchanges the other identity cards, never itself."
            return state, [step(text, note_id("The Puppet Master"))]
        steps = exchange(cards, players[0], players[1])
        state = store(state, cards)
        state, more = self.game_result(state)
        return state, steps + more

    def _steal(
        self, state: TableState, cards: dict[str, Identity], thief: str, leader: str
    ) -> tuple[TableState, list[Step]]:
        from rulesjudge.scenarios.model.leaving import leave as leave_game

        data = data_of(state)
        last_team, last_role = dict(data.last_team), dict(data.last_role)
        if not (state.is_in(thief) and state.is_in(leader)):
            return state, [step("Both players must still be in the game.", note_id("The Metamorph"))]
        role = cards[leader].role if leader in cards else None
        ok, steps = steal_leader(cards, thief, leader, last_team)
        if not ok:
            return state, steps
        last_role[leader] = role or "leader"
        cards[thief] = replace(cards[thief], owner=thief)
        steps.append(
            step(
                f"The stolen identity card stays in the game and {thief} becomes its owner.",
                treachery("907.11b"),
                note_id("The Metamorph"),
            )
        )
        state = store(state, cards, last_team, last_role)
        state, more = leave_game(state, [leader], "lost")
        return state, steps + more


register_variant(TreacheryVariant())


# --- questions about identities ---------------------------------------------------------------------------
from rulesjudge.scenarios.model.questions import register_question  # noqa: E402


def _not_treachery(state: TableState) -> Answer | None:
    if state.variant != "treachery":
        return None, [step("Only Treachery games have identity cards.", treachery("372.1"))]
    return None


@register_question("role", ("player",), "str?", "the role of the identity card the player controls")
def _role(state: TableState, player: str) -> Answer:
    other = _not_treachery(state)
    if other:
        return other
    data = data_of(state)
    card = data.cards.get(player)
    if card is None:
        role = data.last_role.get(player)
        return role, [
            step(
                f"{player} left the game; their last identity card was a {role}.",
                treachery("907.12"),
                treachery("907.13"),
            )
        ]
    text = f"{player} controls a {card.role.title()} identity card" + (
        " (face down)." if card.face == "down" else "."
    )
    return card.role, [step(text, treachery("205.3tr"), treachery("372.3"), *card.notes())]


@register_question("face", ("player",), "str?", "up or down: the identity card the player controls")
def _face(state: TableState, player: str) -> Answer:
    other = _not_treachery(state)
    if other:
        return other
    card = data_of(state).cards.get(player)
    if card is None or not state.is_in(player):
        return None, [step(f"{player} controls no identity card in the game.", treachery("907.13"))]
    rule = treachery("907.4a") if card.role == "leader" else treachery("907.4b")
    return card.face, [step(f"{player}'s identity card is face {card.face}.", rule, *card.notes())]


@register_question(
    "known-role", ("player",), "str?", "the role everybody knows the player's identity to have"
)
def _known_role(state: TableState, player: str) -> Answer:
    other = _not_treachery(state)
    if other:
        return other
    data = data_of(state)
    card = data.cards.get(player)
    if card is None:
        role = data.last_role.get(player)
        return role, [
            step(
                f"{player} left the game: their identity card was revealed ({role}).",
                treachery("702.187g"),
                treachery("907.13"),
            )
        ]
    if card.face == "up":
        return card.role, [
            step(
                f"{player}'s identity card is face up: a {card.role.title()}.",
                treachery("907.4c"),
                *card.notes(),
            )
        ]
    if card.seen:
        return card.role, [
            step(
                f"{player}'s identity card is face down now, but it was face up: players "
                f"remember its role, {card.role.title()}.",
                treachery("907.5d"),
                *card.notes(),
                note_id("The Gatekeeper"),
            )
        ]
    return None, [
        step(
            f"{player}'s identity card has never been face up: its role is secret.",
            treachery("907.4c"),
            *card.notes(),
        )
    ]


@register_question("can-unveil", ("player",), "bool", "may the player unveil their identity now")
def _can_unveil(state: TableState, player: str) -> Answer:
    other = _not_treachery(state)
    if other:
        return False, other[1]
    return can_unveil(data_of(state).cards, player, state.in_game, _life(state, player))


def _life(state: TableState, player: str) -> int | None:
    from rulesjudge.scenarios.model.game import life_of

    return life_of(state, player) if state.is_in(player) else None
