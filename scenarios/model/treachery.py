"""The Treachery variant (the fan-made rules v4.0: 907, 372, 702.187, 116.2tr, 109.2tr) and its card notes.

Players are dealt identity cards (Leader, Guardian, Assassin, Traitor) that define hidden teams: the Leader
and
the Guardians are the leader team, the Assassins the assassins team, each Traitor fights alone (907.5). A
face-down identity makes its player everyone's opponent with no teammates (907.5d). The leader team loses when
every Leader player has lost; the assassins team then wins if one of its players is still in the game (907.8);
otherwise the normal rules for teams apply (104.2c, 104.3g).

The identity cards live once, in the table state: ``state.identities`` by the player who controls each card,
``state.departed`` the last card of each player who left (907.12). Cards move between players (The Metamorph,
The Puppet Master) and the players change team with them; every change is a pure function returning new cards.

Where things live: the catalogue of cards, their notes and dealing in ``treachery_cards.py``; teams read from
the cards and every identity change (unveiling, exchange, theft, leaving, the final reveal) in
``treachery_identities.py``; the events told about identity cards in ``treachery_events.py``; the
questions only Treachery answers (role, face, known role, may unveil) in ``treachery_questions.py``; here the
setup's legality, and applying the events and winning and losing (907.8) in the :class:`Treachery` variant.

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
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rulesjudge.scenarios.model import events as ev
from rulesjudge.scenarios.model import turns
from rulesjudge.scenarios.model.citations import cr, treachery
from rulesjudge.scenarios.model.ending import life_of, win
from rulesjudge.scenarios.model.leaving import leave
from rulesjudge.scenarios.model.questions import QUESTIONS, Question
from rulesjudge.scenarios.model.setup import Setup
from rulesjudge.scenarios.model.steps import Answer, Reading, Step, step
from rulesjudge.scenarios.model.table import Options, TableState, Team, frozen
from rulesjudge.scenarios.model.teams import end_game, settle_game_end
from rulesjudge.scenarios.model.treachery_cards import (
    CARDS,
    LIFE_TO_UNVEIL,
    ROLES,
    TEAM_NAMES,
    TEAM_RULES,
    article,
    deal,
    find_card,
    note_id,
    notes,
    team_name,
)
from rulesjudge.scenarios.model.treachery_events import (
    TREACHERY_EVENTS,
    ExchangeIdentities,
    StealIdentity,
    TurnFaceDown,
    UndercoverMet,
    Unveil,
)
from rulesjudge.scenarios.model.treachery_identities import (
    Cards,
    can_unveil,
    exchange,
    leave_identities,
    meet_undercover,
    puppet_master,
    reveal_all,
    steal_leader,
    team_answer,
    team_key,
    teammates,
    turn_face_down,
    unveil,
)
from rulesjudge.scenarios.model.treachery_questions import TREACHERY_QUESTIONS
from rulesjudge.scenarios.model.variant import COMMANDER_STARTING_LIFE, STARTING_LIFE, SetupProblem, Variant

#: Names other modules and tests read from the variant's module (the identity functions live beside it).
__all__ = [
    "CARDS", "LIFE_TO_UNVEIL", "RECOMMENDED", "ROLES", "TEAM_NAMES", "TEAM_RULES", "Cards", "Treachery",
    "article", "can_unveil", "deal", "exchange", "find_card", "leave_identities", "legal_identity_deck",
    "meet_undercover", "note_id", "notes", "puppet_master", "reveal_all", "steal_leader", "team_answer",
    "team_key", "team_name", "teammates", "turn_face_down", "unveil",
]

Result = tuple[TableState, list[Step]]


#: 907.3c's recommended identity decks: players -> (leaders, traitors, assassins, guardians).
RECOMMENDED = {4: (1, 1, 2, 0), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1), 7: (1, 1, 3, 2), 8: (1, 2, 3, 2)}

# --- setup ------------------------------------------------------------------------------------------


def legal_identity_deck(roles: Sequence[str]) -> Answer:
    """Is this identity deck legal for its number of players (907.2, 907.3a, 907.3b, 907.3d)?

    >>> legal_identity_deck(["leader", "traitor", "traitor", "traitor"])[0]   # Backstab Rumble
    True
    >>> legal_identity_deck(["leader", "leader", "assassin", "assassin", "traitor"])[0]
    False
    """
    n = len(roles)
    count = Counter(roles)
    got = (count["leader"], count["traitor"], count["assassin"], count["guardian"])
    if n < Treachery.min_players:
        return False, [
            step(f"A Treachery game is played with four or more players, not {n}.", treachery("907.2"))
        ]
    if count["leader"] != 1:
        return False, [
            step(f"The deck must hold exactly one Leader, not {count['leader']}.", treachery("907.3b"))
        ]
    if count["traitor"] == n - 1:
        return True, [step("One Leader and only Traitors: the Backstab Rumble option.", treachery("907.3d"))]
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
            f"Assassins where "
            f"907.3b asks for {n // 2}; the recommendation is taken as legal."
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
            f"One Leader, {count['traitor']} Traitor(s), {count['assassin']} Assassins (half of {n}, "
            f"rounded down) "
            "and the rest Guardians or Traitors: a legal identity deck.",
            treachery("907.3a"),
            treachery("907.3b"),
        )
    ]
    if RECOMMENDED.get(n) == got:
        steps.append(step(f"It is also the recommended setup for {n} players.", treachery("907.3c")))
    return True, steps


# --- the variant ------------------------------------------------------------------------------------
HIDDEN_ASSASSINS = (
    "Every Assassin still in the game is face down. 907.8a asks for "
    '"a player controlling an Assassin identity" and the card is one, face up or down: the game ends '
    "and the face-down cards are revealed (907.13; the Treachery quick rules: "
    '"the Assassins win if the Leader is eliminated"). The other reading: a face-down card has no '
    "characteristics (372.4b), so nobody controls an Assassin identity yet and the game goes on."
)


class Treachery(Variant):
    """907: hidden teams dealt by identity cards; the Leader starts; 907.8 for winning and losing."""

    name = "treachery"
    title = "Treachery"
    cites = (treachery("907.1"),)
    events = TREACHERY_EVENTS
    questions = TREACHERY_QUESTIONS
    allows_teams = False
    has_identities = True
    documents = ("treachery", "cr")
    min_players = 4
    min_players_rule = "907.2"
    default_questions = (
        "active", "first-player", "legal-setup", "turn-order", "in-game", "game-over", "winners")

    def recommended_deck(self, count: int) -> tuple[str, ...]:
        """The roles of 907.3c's recommended identity deck for ``count`` players (907.3b's proportions beyond
        eight; none below four, 907.2), in the order a default table deals them: the Leader first, then
        Assassins and Guardians alternating so neither side sits in one block, the Traitors last.

        >>> Treachery().recommended_deck(5)
        ('leader', 'assassin', 'guardian', 'assassin', 'traitor')
        >>> Treachery().recommended_deck(3)
        ()
        """
        if count < self.min_players:
            return ()
        beyond = (1, 1, count // 2, count - 2 - count // 2)  # 907.3b beyond eight
        leaders, traitors, assassins, guardians = RECOMMENDED.get(count, beyond)
        a, g = ["assassin"] * assassins, ["guardian"] * guardians
        spread: list[str] = []
        while a or g:
            if a:
                spread.append(a.pop())
            if g:
                spread.append(g.pop())
        return ("leader",) * leaders + tuple(spread) + ("traitor",) * traitors

    def default_identities(self, players: Sequence[str]) -> dict[str, str]:
        """The recommended deck dealt in seat order ({} below four players, 907.2)."""
        return dict(zip(players, self.recommended_deck(len(players)), strict=False))

    def default_options(self, setup: Setup) -> Options:
        return Options(attack="multiple", deploy=False)  # 907.2, 907.2b

    def build_teams(self, setup: Setup) -> tuple[Team, ...]:
        return ()  # teams come from the identity cards (907.2a), not from seating

    def starting_life(self, setup: Setup) -> int:
        """20, or 40 when Treachery is paired with Commander (907.6 and its note; 903.7)."""
        return COMMANDER_STARTING_LIFE if setup.commander else STARTING_LIFE

    def first_players(self, setup: Setup, seats: tuple[str, ...]) -> tuple[str, ...]:
        """907.7: the Leader player is the starting player (among several Leaders, one at random)."""
        leaders = tuple(p for p in seats if p in setup.identities and setup.identities[p].role == "leader")
        return leaders or (seats[0],)

    def first_player_steps(self, state: TableState) -> list[Step]:
        leaders = state.starting
        text = (
            f"The Leader player, {', '.join(leaders)}, is the starting player, fixed before the first turn"
            + ("; one of them is chosen at random." if len(leaders) > 1 else ".")
        )
        choices = (
            tuple(Reading(f"{p} starts.", p, (treachery("907.7"),)) for p in leaders)
            if len(leaders) > 1
            else ()
        )
        return [step(text, treachery("907.7"), treachery("372.3a"), cr("103.1"), alternatives=choices)]

    def validate_setup(self, setup: Setup) -> list[SetupProblem]:
        problems = [
            SetupProblem(
                ("identities",), f"player '{p}' has no identity card (907.3a: one identity card per player)"
            )
            for p in setup.seats
            if p not in setup.identities
        ]
        for player, spec in setup.identities.items():
            if not spec.card:
                continue
            card = find_card(spec.card)
            if card is None:
                problems.append(
                    SetupProblem(("identities", player, "card"), f"unknown identity card '{spec.card}'")
                )
            elif CARDS[card] != spec.role:
                problems.append(
                    SetupProblem(
                        ("identities", player, "card"),
                        f"{card} is {article(CARDS[card])} identity, not {article(spec.role)}",
                    )
                )
        return problems

    def prepare(self, state: TableState, setup: Setup) -> TableState:
        return state.with_(
            identities=frozen(deal(setup.identities)),
            identity_deck=tuple(setup.identities[p].role for p in setup.seats if p in setup.identities),
        )

    def legal_setup(self, state: TableState) -> Answer:
        return legal_identity_deck(state.identity_deck)

    # --- who is who --------------------------------------------------------------------------------
    def team_of(self, state: TableState, player: str) -> Team | None:
        card = state.identities.get(player)
        if card is None or card.face == "down" or team_name(card.role) == "traitor":
            return Team(player, (player,))
        mates = tuple(
            p
            for p, c in state.identities.items()
            if c.face == "up" and team_name(c.role) == team_name(card.role)
        )
        return Team(team_name(card.role), mates)

    def team_name(self, state: TableState, player: str) -> Answer:
        return team_answer(state.identities, state.departed, player)

    def teammates(self, state: TableState, player: str) -> Answer:
        return teammates(state.identities, player, state.in_game)

    def opponents(self, state: TableState, player: str) -> Answer:
        mates, steps = self.teammates(state, player)
        foes = [p for p in state.in_game if p != player and p not in mates]
        steps.append(
            step(
                f"{player}'s opponents are all other players not on their team: {', '.join(foes) or 'none'}.",
                cr("102.3"),
                treachery("907.5d"),
            )
        )
        return foes, steps

    def sides(self, state: TableState) -> list[tuple[str, ...]]:
        """Who wins or loses together for 104.2a/104.2c: the face-up leader team, the face-up assassins, each
        Traitor, each face-down player (907.5d: no teammates), and players who left with their last team."""
        groups: dict[str, list[str]] = {}
        for player in state.seats:
            card = state.identities.get(player)
            if card is not None and state.is_in(player):
                key = team_key(player, card.role) if card.face == "up" else f"hidden {player}"
            else:
                last = state.departed.get(player)
                key = team_key(player, last.role) if last else f"alone {player}"
            groups.setdefault(key, []).append(player)
        return [tuple(members) for members in groups.values()]

    # --- leaving and the end of the game ---------------------------------------------------------------
    def on_leave(self, state: TableState, leavers: Sequence[str]) -> Result:
        cards, departed, steps = leave_identities(state.identities, state.departed, leavers, state.in_game)
        state = state.with_(identities=frozen(cards), departed=frozen(departed))
        if "leader" not in state.identity_deck or state.game_over:
            return state, steps
        if any(c.role == "leader" for p, c in cards.items() if state.is_in(p)):
            return state, steps
        guards = [p for p in state.in_game if p in cards and cards[p].role == "guardian"]
        if not guards:
            return state, steps
        steps.append(
            step(
                f"Every Leader player has lost, so the leader team loses: {', '.join(guards)} "
                f"lose{'s' if len(guards) == 1 else ''} too.",
                treachery("907.8b"),
                cr("104.3g"),
            )
        )
        state, more = leave(state, guards, "lost", (treachery("907.8b"),))
        return state, steps + more

    def _leaders_gone(self, state: TableState) -> bool:
        return "leader" in state.identity_deck and not any(
            c.role == "leader" for p, c in state.identities.items() if state.is_in(p)
        )

    def game_result(self, state: TableState) -> Result:
        if state.game_over:
            return state, []
        if self._leaders_gone(state):
            assassins = [p for p, c in state.identities.items() if state.is_in(p) and c.role == "assassin"]
            if assassins:
                team = [
                    p
                    for p in state.seats
                    if (p in state.identities and state.identities[p].role == "assassin")
                    or (p in state.departed and state.departed[p].role == "assassin")
                ]
                hidden = all(state.identities[p].face != "up" for p in assassins)
                text = (
                    f"Every Leader player has lost and {', '.join(assassins)}, controlling an Assassin "
                    f"identity{' (face down)' if hidden else ''}, "
                    f"{'is' if len(assassins) == 1 else 'are'} still in the game: the assassins team wins "
                    f"({', '.join(team)})."
                )
                state, steps = end_game(state, team, [step(text, treachery("907.8a"), cr("104.2c"))])
                return self._close(state, steps)
        state, steps = self._last_side(state)
        if state.game_over:
            return self._close(state, steps)
        return state, steps

    def _last_side(self, state: TableState) -> Result:
        """104.2a/104.2c: when one side is left it wins, with the players who left on its last team."""
        live = [side for side in self.sides(state) if any(state.is_in(p) for p in side)]
        if len(live) > 1:
            return state, []
        if not live:  # nobody left: the general rule ends the game in a draw and empties the stack
            return settle_game_end(state, [])
        side = live[0]
        earlier = [p for p in side if not state.is_in(p)]
        if not earlier and len(side) == 1:
            return end_game(
                state,
                list(side),
                [
                    step(
                        f"All of {side[0]}'s opponents have left the game, so {side[0]} wins the game.",
                        cr("104.2a"),
                    )
                ],
            )
        text = f"Every other team has left the game, so this team wins: {', '.join(side)}" + (
            f", {', '.join(earlier)} too, though they had left (their last team, 907.12)." if earlier else "."
        )
        return end_game(state, list(side), [step(text, cr("104.2c"), treachery("907.12"))])

    def _close(self, state: TableState, steps: list[Step]) -> Result:
        """At the end of the game all face-down identity cards are revealed (907.13), and everyone still in it
        who didn't win has lost."""
        cards, more = reveal_all(state.identities)
        results = dict(state.results)
        for player in state.seats:
            if results.get(player) not in ("won", "lost", "drew"):
                results[player] = "lost"
        return state.with_(identities=frozen(cards), results=frozen(results)), steps + more

    def hidden_assassins(self, state: TableState, asked: str, value: Any) -> list[Step]:
        """The other reading of 907.8a when the assassins team won with every Assassin still in the game face
        down (a face-down card has no characteristics, 372.4b: the game would go on): the answer ``asked``
        would have had under it, beside the model's ``value``."""
        if not state.game_over:
            return []
        ended = [p for p in state.seats if state.left.get(p) in ("won", "ended")]
        by_8a = [
            p
            for p in ended
            if state.results.get(p) == "won" and treachery("907.8a") in state.result_rules.get(p, ())
        ]
        if not by_8a or any(
            state.identities[p].face == "up" for p in by_8a if p in state.identities
        ):
            return []
        lost = [p for p in state.seats if state.left.get(p) in ("lost", "conceded")]
        other = {"game-over": False, "winners": [], "in-game": ended, "losers": lost}[asked]
        readings = (
            Reading(
                f"907.8a read by the cards players control: {', '.join(by_8a)} control Assassin identity "
                "cards, so the assassins team wins now",
                value,
                (treachery("907.8a"), treachery("907.13")),
            ),
            Reading(
                "A face-down card has no characteristics: no player controls an Assassin identity yet, and "
                "the game goes on",
                other,
                (treachery("372.4b"), treachery("372.7")),
            ),
        )
        return [
            step(
                HIDDEN_ASSASSINS,
                treachery("907.8a"),
                treachery("907.13"),
                treachery("372.4b"),
                alternatives=readings,
            )
        ]

    def answer(self, state: TableState, asked: Question) -> Answer | None:
        if asked.name in ("game-over", "winners", "in-game", "losers"):
            value, steps = QUESTIONS[asked.name].fn(state)
            return value, [*steps, *self.hidden_assassins(state, asked.name, value)]
        return None

    # --- identity events ---------------------------------------------------------------------------------
    def apply_event(self, state: TableState, event: ev.Event) -> Result | None:
        if isinstance(event, UndercoverMet | TurnFaceDown | Unveil) and event.player not in state.identities:
            return state, [step(f"{event.player} controls no identity card.", treachery("372.2"))]
        if isinstance(event, UndercoverMet):
            cards, steps = meet_undercover(state.identities, event.player)
            return state.with_(identities=frozen(cards)), steps
        if isinstance(event, TurnFaceDown):
            cards, steps = turn_face_down(state.identities, event.player)
            return state.with_(identities=frozen(cards)), steps
        if isinstance(event, Unveil):
            return self._unveil(state, event.player)
        if isinstance(event, ExchangeIdentities):
            return self._exchange(state, *event.players)
        if isinstance(event, StealIdentity):
            return self._steal(state, event.player, event.by)
        if isinstance(event, ev.Wins):
            state, steps = win(state, [event.player])
            return self._close(state, steps) if state.game_over else (state, steps)
        return None

    def _unveil(self, state: TableState, player: str) -> Result:
        """702.187c: a special action "any time you have priority" (116.2tr); the player then receives
        priority again (117.3c). Nothing happens, and a step says why, when the card can't be turned face up
        or the player can't have priority before the round of passes completes."""
        life = life_of(state, player)
        allowed, refusal = can_unveil(state.identities, player, state.in_game, life)
        if not allowed:
            return state, refusal
        holding, steps = turns.priority_for_special_action(state, player)
        if holding is None:
            said = f"{player} can't unveil now (a special action taken only while they have priority)."
            return state, [*steps, step(said, treachery("116.2tr"))]
        cards, unveiled = unveil(holding.identities, player, holding.in_game, life)
        state, priority = turns.after_special_action(holding.with_(identities=frozen(cards)), player)
        state, more = self.game_result(state)
        return state, [*steps, *unveiled, *priority, *more]

    def _exchange(self, state: TableState, a: str, b: str) -> Result:
        cite = note_id("The Puppet Master")
        if not all(p in state.identities and state.is_in(p) for p in (a, b)):
            return state, [
                step("Two players still in the game, each controlling an identity card, exchange them.", cite)
            ]
        master = puppet_master(state.identities, state.in_game)
        if master is None:
            return state, [
                step(
                    "No player controls a face-up The Puppet Master, whose ability exchanges identity "
                    "cards: nothing happens.",
                    treachery("372.4"),
                    cite,
                )
            ]
        if any(state.identities[p].card == "The Puppet Master" for p in (a, b)):
            return state, [step("The Puppet Master exchanges the other identity cards, never itself.", cite)]
        cards, steps = exchange(state.identities, a, b)
        state, more = self.game_result(state.with_(identities=frozen(cards)))
        return state, [
            step(f"{master}'s face-up The Puppet Master exchanges identity cards.", cite),
            *steps,
            *more,
        ]

    def _steal(self, state: TableState, thief: str, leader: str) -> Result:
        if not (state.is_in(thief) and state.is_in(leader)):
            return state, [step("Both players must still be in the game.", note_id("The Metamorph"))]
        cards, steps = steal_leader(state.identities, thief, leader)
        if cards is None:
            return state, steps
        victim = state.identities[leader]
        departed = dict(state.departed)
        departed[leader] = replace(victim, seen=True)
        steps.append(
            step(
                f"{leader} remains a member of the last team they were on, the leader team.",
                treachery("907.12"),
                note_id("The Metamorph"),
            )
        )
        state = state.with_(identities=frozen(cards), departed=frozen(departed))
        state, more = leave(state, [leader], "lost")
        return state, steps + more
