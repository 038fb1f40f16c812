"""Treachery's identity changes (907.5, 907.12-907.13, 702.187): teams read from the cards players control,
unveiling, undercover, turning face down, The Puppet Master's exchange, The Metamorph's theft, leaving and
the end-of-game reveal. Every change is a pure function of the cards, returning new cards and its steps.

>>> from rulesjudge.scenarios.model.treachery_cards import deal
>>> cards = deal({"Ann": "assassin", "Ben": "guardian", "Cat": "leader"})
>>> can_unveil(cards, "Ann", ["Ann", "Ben", "Cat"])[0]
True
>>> unveil(cards, "Ann", ["Ann", "Ben", "Cat"])[0]["Ann"].face
'up'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from rulesjudge.scenarios.model.citations import cr, treachery
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import Identity
from rulesjudge.scenarios.model.treachery_cards import (
    LIFE_TO_UNVEIL,
    TEAM_RULES,
    article,
    note_id,
    notes,
    team_name,
)

Cards = Mapping[str, Identity]


# --- teams ------------------------------------------------------------------------------------------
def team_key(player: str, role: str) -> str:
    """A key that tells teams apart: each Traitor is a team of their own (907.5c)."""
    name = team_name(role)
    return f"traitor {player}" if name == "traitor" else name


def team_answer(cards: Cards, departed: Cards, player: str) -> Answer:
    """The 907.5 name of a player's team: leader, assassins or traitor (the last one known if they left)."""
    if player not in cards:
        last = departed.get(player)
        name = team_name(last.role) if last else None
        return name, [
            step(f"{player} left the game; the game remembers their last team: {name}.", treachery("907.12"))
        ]
    ident = cards[player]
    name = team_name(ident.role)
    text = f"{player} controls {article(ident.role)} identity, so is on the {name} team"
    if name == "traitor":
        text = f"{player} controls a Traitor identity and fights alone"
    if ident.face == "down":
        text += " (hidden: the card is face down, so for now they have no teammates)"
        return name, [
            step(
                text + ".",
                treachery(TEAM_RULES[name]),
                treachery("907.5d"),
                treachery("907.2a"),
                *notes(ident),
            )
        ]
    return name, [step(text + ".", treachery(TEAM_RULES[name]), *notes(ident))]


# --- who holds a role ------------------------------------------------------------------------------
#: The rule by which the game remembers a departed player's last identity card (the app's answers cite it).
LAST_IDENTITY = treachery("907.12")


def role_holders(cards: Cards, departed: Cards, role: str) -> Answer:
    """The players controlling an identity card of ``role`` (907.8a's "players controlling a Leader
    identity"; the judge sees face-down cards too): only players in the game control cards, so The
    Metamorph's stolen Leader card is its new controller's (907.11b). A player who left controls none; the
    game remembers their last card (907.12), which the steps name, so "who is the Leader" can say it.

    >>> from rulesjudge.scenarios.model.treachery_cards import deal
    >>> cards = deal({"Eve": "leader", "Ben": "assassin"})
    >>> value, steps = role_holders(cards, deal({"Cat": "leader"}), "leader")
    >>> value, steps[-1].text
    (['Eve'], 'Cat left the game and controls no identity card; the last one they controlled was a Leader.')
    """
    holders = [p for p, card in cards.items() if card.role == role]
    said = ", ".join(holders) or "No player in the game"
    controls = "controls" if len(holders) <= 1 else "control"
    steps = [step(f"{said} {controls} {article(role)} identity card.",
                  treachery("907.8a"), treachery("372.3"), *(c for p in holders for c in notes(cards[p])))]
    for player, last in departed.items():
        if last.role == role:
            steps.append(step(f"{player} left the game and controls no identity card; the last one they "
                              f"controlled was {article(role)}.", treachery("907.11"), LAST_IDENTITY))
    return holders, steps


def left_with_role(departed: Cards, role: str) -> Answer:
    """The players who left the game whose last identity card had ``role``: the game remembers it (907.12).

    >>> from rulesjudge.scenarios.model.treachery_cards import deal
    >>> left_with_role(deal({"Cat": "leader", "Dan": "traitor"}), "leader")[0]
    ['Cat']
    """
    gone = [p for p, last in departed.items() if last.role == role]
    if not gone:
        return gone, [step(f"No player who left the game last controlled {article(role)}.", LAST_IDENTITY)]
    return gone, [step(f"{', '.join(gone)} left the game; the game remembers the last identity card they "
                       f"controlled: {article(role)}.", LAST_IDENTITY)]


def teammates(cards: Cards, player: str, in_game: Collection[str]) -> Answer:
    """Face-up players on the same team (907.5); a face-down player has no teammates (907.5d)."""
    ident = cards.get(player)
    if ident is None or player not in in_game:
        return [], [step(f"{player} is not in the game.", cr("102.3"))]
    if ident.face == "down":
        return [], [
            step(
                f"{player}'s identity is face down: they have no teammates.",
                treachery("907.5d"),  # the rule decides; the card's note says nothing about teams
            )
        ]
    team = team_name(ident.role)
    if team == "traitor":
        return [], [
            step(f"{player} is a Traitor: Traitors have no teammates.", treachery("907.5c"), *notes(ident))
        ]
    same = [p for p, other in cards.items() if p != player and p in in_game and team_name(other.role) == team]
    mates = [p for p in same if cards[p].face == "up"]
    steps = [
        step(
            f"{player}'s teammates are the face-up players of the {team} team: {', '.join(mates) or 'none'}.",
            treachery(TEAM_RULES[team]),
            cr("102.3"),
        )
    ]
    if len(mates) < len(same):
        steps.append(
            step(
                "Players with face-down identities are opponents with no teammates until turned face up.",
                treachery("907.5d"),
            )
        )
    return mates, steps


# --- unveiling and identity changes -------------------------------------------------------------------
def can_unveil(cards: Cards, player: str, in_game: Collection[str], life: int | None = None) -> Answer:
    """May the player turn their identity face up now (116.2tr, 702.187c, 702.187f)? ``life``: the player's
    life total, for the cards whose notes say the cost needs some life."""
    ident = cards.get(player)
    if ident is None or player not in in_game:
        return False, [
            step(f"{player} is not in the game, so can't take a special action.", treachery("116.2tr"))
        ]
    cites = notes(ident)
    if ident.face == "up":
        return False, [step(f"{player}'s identity is already face up.", treachery("702.187c"), *cites)]
    if not ident.unveil:
        return False, [
            step(
                f"{player}'s identity has no unveil cost, so it can't be turned face up this way.",
                treachery("702.187c"),
                *cites,
            )
        ]
    if ident.undercover:
        return False, [
            step(
                f"{player}'s undercover restriction hasn't been met, so they can't unveil yet.",
                treachery("702.187f"),
                *cites,
            )
        ]
    need = LIFE_TO_UNVEIL.get(ident.card or "")
    if need is not None and life is not None and life < need:
        return False, [
            step(
                f"{player} has {life} life: the unveil cost of {ident.card} can't be paid with less than "
                f"{need}.",
                treachery("702.187c"),
                cr("119.4"),
                *cites,
            )
        ]
    return True, [
        step(
            f"{player} may unveil whenever they have priority: a special action that doesn't use the stack.",
            treachery("702.187c"),
            treachery("116.2tr"),
            treachery("907.4b"),
            *cites,
        )
    ]


def unveil(
    cards: Cards, player: str, in_game: Collection[str], life: int | None = None
) -> tuple[dict[str, Identity], list[Step]]:
    """Turn the player's identity face up if they may (702.187c); otherwise nothing happens."""
    ok, steps = can_unveil(cards, player, in_game, life)
    after = dict(cards)
    if ok:
        after[player] = replace(cards[player], face="up", seen=True)
        steps.append(
            step(
                f"{player} unveils: the identity is face up and {player} joins their team openly.",
                treachery("702.187c"),
                treachery("907.5"),
                *notes(after[player]),
            )
        )
    return after, steps


def meet_undercover(cards: Cards, player: str) -> tuple[dict[str, Identity], list[Step]]:
    """The undercover restriction is met: the unveil procedure is open again (702.187f)."""
    after = dict(cards)
    if player in cards:
        after[player] = replace(cards[player], undercover=False)
    cites = notes(cards[player]) if player in cards else ()
    return after, [step(f"{player}'s undercover restriction is met.", treachery("702.187f"), *cites)]


def turn_face_down(cards: Cards, player: str) -> tuple[dict[str, Identity], list[Step]]:
    """An effect turns the player's identity face down (The Gatekeeper, The Puppet Master): the player has
    no teammates again (907.5d); players who saw the face-up role remember it (the card notes)."""
    ident = cards[player]
    if ident.card == "The Gatekeeper" and ident.face == "down":
        return dict(cards), [
            step(
                "The Gatekeeper's last ability can be activated only while the identity card is face up.",
                *notes(ident),
            )
        ]
    seen = ident.seen or ident.face == "up"
    after = dict(cards)
    after[player] = replace(ident, face="down", seen=seen)
    steps = [
        step(
            f"{player}'s identity is turned face down: they have no teammates until it is face up again.",
            treachery("907.5d"),
            *notes(ident),
        )
    ]
    if seen:
        steps.append(
            step(
                "Players who saw the face-up identity still know its role.",
                treachery("907.5d"),
                *notes(ident),
                note_id("The Gatekeeper"),
            )
        )
    return after, steps


def exchange(cards: Cards, a: str, b: str) -> tuple[dict[str, Identity], list[Step]]:
    """Two players exchange control of their identity cards and change team with them (The Puppet Master)."""
    after = dict(cards)
    after[a], after[b] = cards[b], cards[a]
    return after, [
        step(
            f"{a} and {b} exchange identity cards: {a} is now {article(after[a].role)}, {b} "
            f"{article(after[b].role)}; each changes team according to the new role.",
            treachery("907.5"),
            note_id("The Puppet Master"),
        )
    ]


def puppet_master(cards: Cards, in_game: Collection[str]) -> str | None:
    """The player controlling a face-up The Puppet Master, whose abilities work only face up (372.4)."""
    return next(
        (p for p, c in cards.items() if p in in_game and c.card == "The Puppet Master" and c.face == "up"),
        None,
    )


def steal_leader(cards: Cards, thief: str, leader: str) -> tuple[dict[str, Identity] | None, list[Step]]:
    """The Metamorph: as a Leader player loses, its controller may take that Leader identity (card note); the
    thief becomes its owner (907.11b) and changes team with it, so the game goes on."""
    cite = note_id("The Metamorph")
    thief_id, victim = cards.get(thief), cards.get(leader)
    if thief_id is None or victim is None or victim.role != "leader":
        return None, [step(f"{leader} controls no Leader identity for {thief} to steal.", cite)]
    unnamed_traitor = thief_id.card is None and thief_id.role == "traitor"  # a Traitor card left unnamed
    if not (thief_id.card == "The Metamorph" or unnamed_traitor) or thief_id.face != "up":
        return None, [step(f"{thief} doesn't control a face-up The Metamorph.", treachery("372.4"), cite)]
    after = dict(cards)
    after[thief] = replace(victim, owner=thief)
    del after[leader]
    return after, [
        step(
            f"As {leader} loses the game, {thief} steals the Leader identity: {thief} is now the Leader "
            "player and the game goes on.",
            cite,
        ),
        step(
            f"The stolen identity card stays in the game and {thief} becomes its owner.",
            treachery("907.11b"),
            cite,
        ),
    ]


def leave_identities(
    cards: Cards, departed: Cards, players: Collection[str], in_game: Collection[str]
) -> tuple[dict[str, Identity], dict[str, Identity], list[Step]]:
    """Players leave: their identities are revealed and remembered as their last team (907.11–907.13)."""
    after, gone = dict(cards), dict(departed)
    steps: list[Step] = []
    for player in players:
        ident = after.pop(player, None)
        if ident is None:
            continue
        gone[player] = replace(ident, seen=True)
        if ident.face == "down":
            steps.append(
                step(
                    f"{player} leaves: their face-down identity is revealed, {article(ident.role)}.",
                    treachery("907.13"),
                    treachery("702.187g"),
                    *notes(ident),
                )
            )
        steps.append(
            step(
                f"The game remembers {player}'s last team: {team_name(ident.role)}.",
                treachery("907.12"),
                *notes(ident),
            )
        )
        for other, card in list(after.items()):
            if card.owner == player and other in in_game and other not in players:
                after[other] = replace(card, owner=other)
                steps.append(
                    step(
                        f"{player} owned the identity {other} controls; it stays, and {other} becomes its "
                        "owner.",
                        treachery("907.11b"),
                        *notes(card),
                    )
                )
    return after, gone, steps


def reveal_all(cards: Cards) -> tuple[dict[str, Identity], list[Step]]:
    """At the end of the game all face-down identity cards are revealed (907.13, 702.187g)."""
    hidden = [p for p, c in cards.items() if c.face == "down" and not c.seen]
    after = {p: replace(c, seen=True) for p, c in cards.items()}
    if not hidden:
        return after, []
    shown = ", ".join(f"{p} {article(cards[p].role)}" for p in hidden)
    return after, [
        step(
            f"The game is over: every face-down identity card is revealed ({shown}).",
            treachery("907.13"),
            treachery("702.187g"),
        )
    ]
