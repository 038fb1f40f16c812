"""Winning, losing and drawing (104), with the effects that stop it and the state-based actions (704).

* A player who loses (104.3) leaves the game (104.5); "can't lose the game" stops every loss but a
  concession (104.3a); ``only: life`` effects (Transcendence) stop only 704.5a / 704.6a.
* An effect saying a player wins (104.2b) meets "can't win"; 104.2a (all opponents have left) overrides
  such effects; a player who would win and lose at once loses (104.3f). With limited range of influence a
  win effect makes the opponents in range lose instead (801.14, 104.3h) and a draw effect is a draw only
  for its controller and the players in range (801.15, 104.4e).
* State-based actions, all at once (704.3): 0 or less life (704.5a, 704.6a), a draw from an empty library
  (704.5b), poison (704.5c, 704.6b), 21 commander damage (704.6c), a planeswalker with no loyalty (704.5i), a
  battle with no defense (704.5v), a commander put into a graveyard or exile (704.6d).

>>> from rulesjudge.scenarios.model.table import TableState, Effect, frozen
>>> from rulesjudge.scenarios.model.variant import FreeForAll
>>> state = TableState(seats=("Ann", "Ben"), variant=FreeForAll(), turn_players=("Ann",),
...                    life=frozen({"Ann": 20, "Ben": 0}), effects=(Effect("cant-lose", ("Ben",)),))
>>> can_lose(state, "Ben", "life")[0]
False
>>> state_based_actions(state)[0].in_game
('Ann', 'Ben')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulesjudge.scenarios.model import influence
from rulesjudge.scenarios.model.citations import Cite, cr
from rulesjudge.scenarios.model.leaving import attacked_left_combat, leave, to_zone
from rulesjudge.scenarios.model.steps import Answer, Step, step
from rulesjudge.scenarios.model.table import Effect, Permanent, TableState, frozen
from rulesjudge.scenarios.model.teams import end_game
from rulesjudge.scenarios.model.variant import COMMANDER_DAMAGE_LIMIT

Result = tuple[TableState, list[Step]]

#: Why a player would lose, and the rules that say so.
CAUSES: dict[str, tuple[str, tuple[Cite, ...]]] = {
    "life": ("has 0 or less life", (cr("704.5a"), cr("104.3b"))),
    "draw": ("attempted to draw from a library with no cards in it", (cr("704.5b"), cr("104.3c"))),
    "poison": ("has too many poison counters", (cr("704.5c"), cr("104.3d"))),
    "commander": (
        f"has been dealt {COMMANDER_DAMAGE_LIMIT} or more combat damage by the same commander",
        (cr("704.6c"), cr("903.10a")),
    ),
    "effect": ("is told by an effect to lose the game", (cr("104.3e"),)),
}


# --- continuous effects ----------------------------------------------------------------------------
def in_force(state: TableState, effect: Effect) -> bool:
    """An effect of a static ability applies while its source is on the battlefield (611.3b)."""
    if effect.source is None:
        return True
    source = state.permanents.get(effect.source)
    return source is not None and source.on_battlefield


def effect_players(state: TableState, effect: Effect) -> tuple[str, ...]:
    """The players an effect applies to now: those it names, or - for "you" / "your opponents" on its
    source - the source's current controller or that player's opponents (109.5: for a static ability,
    "you" is the current controller of the object it's on)."""
    if effect.relative is None:
        return effect.players
    source = state.permanents.get(effect.source or "")
    if source is None or not source.on_battlefield:
        return ()
    you = source.current_controller
    if effect.relative == "controller-of":
        return (you,)
    foes, _ = state.variant.opponents(state, you)
    return tuple(foes)


def effects_on(state: TableState, kind: str, player: str) -> list[Effect]:
    """Effects of ``kind`` in force that apply to ``player`` (or to a player whose fate they share,
    810.8a)."""
    group = set(state.variant.fate_group(state, player))
    return [
        e
        for e in state.effects
        if e.kind == kind and in_force(state, e) and set(effect_players(state, e)) & group
    ]


def _effect_words(state: TableState, effect: Effect, verb: str) -> tuple[str, tuple[Cite, ...]]:
    """"Platinum Angel's static ability says Cat can't lose the game (Cat controls it, and "you" is its
    controller)" and the rules that decide it: 101.2 (a "can't" effect beats what would make it happen)."""
    players = ", ".join(effect_players(state, effect))
    if effect.relative is None:
        by = f"{effect.source}'s static ability" if effect.source else "an effect"
        return f"{by} says {players} {verb}", (cr("101.2"),)
    you = state.permanents[effect.source or ""].current_controller
    whose = "its controller" if effect.relative == "controller-of" else "its controller's opponents"
    text = (
        f"{effect.source}'s static ability applies to {whose}; {you} controls it now, so {players} {verb}"
    )
    return text, (cr("109.5"), cr("101.2"))


def _stopped(state: TableState, effect: Effect, player: str, text: str, cites: tuple[Cite, ...]) -> Step:
    """The step saying the effect stops ``player``: one on a teammate stops the whole team (810.8a)."""
    if player not in effect_players(state, effect):
        return step(f"{text}, so {player}'s team can't.", *cites, cr("810.8a"))
    return step(text + ".", *cites)


def can_lose(state: TableState, player: str, cause: str | None = None) -> Answer:
    """Can ``player`` lose the game now (for ``cause``: a key of :data:`CAUSES`)?"""
    stopping = [e for e in effects_on(state, "cant-lose", player) if e.only is None or e.only == cause]
    if not stopping:
        return True, [step(f"No effect in force stops {player} from losing the game.", cr("104.3"))]
    effect = stopping[0]
    text, cites = _effect_words(state, effect, "can't lose the game")
    if effect.only == "life":
        text += " for having 0 or less life"
    return False, [_stopped(state, effect, player, text, (*cites, cr("104.3")))]


def can_win(state: TableState, player: str) -> Answer:
    stopping = effects_on(state, "cant-win", player)
    if not stopping:
        return True, [step(f"No effect in force stops {player} from winning the game.", cr("104.2"))]
    effect = stopping[0]
    text, cites = _effect_words(state, effect, "can't win the game")
    return False, [_stopped(state, effect, player, text, (*cites, cr("104.2")))]


def cant_attack(state: TableState, player: str) -> Effect | None:
    """An effect in force saying creatures ``player`` controls can't attack (508.1c)."""
    found = [
        e
        for e in state.effects
        if e.kind == "cant-attack" and in_force(state, e) and player in effect_players(state, e)
    ]
    return found[0] if found else None


def end_effects(state: TableState, ended: Sequence[Effect], why: str, *cites: Cite) -> Result:
    if not ended:
        return state, []
    left = tuple(e for e in state.effects if e not in ended)
    return state.with_(effects=left), [step(why, *cites)]


# --- losing and winning ------------------------------------------------------------------------------
def lose(state: TableState, players: Sequence[str], cause: str, why: list[Step] | None = None) -> Result:
    """``players`` lose the game at the same time for ``cause``, except those who can't lose (104.3)."""
    steps = list(why or [])
    losing = []
    for player in dict.fromkeys(players):
        if not state.is_in(player):
            continue
        ok, more = can_lose(state, player, cause)
        if ok:
            losing.append(player)
        else:
            steps += more
    if not losing:
        return state, steps
    state, more = leave(state, losing, "lost")
    return state, steps + more


def win(state: TableState, players: Sequence[str], losing: Sequence[str] = ()) -> Result:
    """An effect states that ``players`` win the game (104.2b); ``losing`` would lose at the same time."""
    steps: list[Step] = []
    both = [p for p in players if p in losing]
    for player in both:
        steps.append(
            step(
                f"{player} would both win and lose the game at the same time, so {player} loses.",
                cr("104.3f"),
            )
        )
    winners = [p for p in dict.fromkeys(players) if p not in both and state.is_in(p)]
    losers = list(dict.fromkeys([*losing, *both]))
    steps += [step(f"{p} has left the game.", cr("800.4a")) for p in players if not state.is_in(p)]
    allowed = []
    limited = state.variant.limited_range(state)
    for player in winners:
        if limited:
            # 801.14: with limited range the effect makes no one win - opponents in range lose instead - so
            # a "can't win" effect on the player has nothing to stop
            allowed.append(player)
            continue
        ok, more = can_win(state, player)
        if ok:
            allowed.append(player)
        else:
            steps += more
    if losers:
        state, more = lose(state, losers, "effect")
        steps += more
    for player in allowed:
        if state.game_over or not state.is_in(player):
            break
        state, more = _one_wins(state, player)
        steps += more
    return state, steps


def _one_wins(state: TableState, player: str) -> Result:
    variant = state.variant
    if variant.limited_range(state):
        reach = variant.range_of(state, player)
        foes, _ = variant.opponents(state, player)
        inside = state.influence.get(player) or influence.within_range(state, player, reach)
        losing = [p for p in foes if p in inside]
        steps = [
            step(
                f"With limited range of influence, an effect saying {player} wins instead makes each of "
                f"their opponents within range lose: {', '.join(losing) or 'nobody'}"
                + (" (their own range is unlimited: every opponent)." if reach is None else "."),
                cr("801.14"),
                cr("104.3h"),
            )
        ]
        if not losing:
            return state, steps
        return lose(state, losing, "effect", steps)
    winners, steps = variant.winners_of(state, player)
    return end_game(
        state,
        winners,
        [
            step(f"An effect states that {player} wins the game; the game ends.", cr("104.2b"), cr("104.1")),
            *steps,
        ],
    )


def game_draw(state: TableState, player: str) -> Result:
    """An effect ``player`` controls states that the game is a draw (104.4c; 801.15 with limited range)."""
    if not state.is_in(player):
        return state, [step(f"{player} has left the game.", cr("800.4a"))]
    reach = state.variant.range_of(state, player)
    if reach is None:
        steps = [
            step(
                f"An effect {player} controls states that the game is a draw: it is a draw for every "
                "player still in the game.",
                cr("104.4c"),
            )
        ]
        state, more = leave(state, list(state.in_game), "drew", (cr("104.4c"),))
        return state, steps + more
    inside = state.influence.get(player) or influence.within_range(state, player, reach)
    drawing = [p for p in state.in_game if p in inside]
    steps = [
        step(
            f"With limited range of influence, the game is a draw only for {player} and the players "
            f"within their range: {', '.join(drawing)}; they leave and the others play on.",
            cr("801.15"),
            cr("104.4e"),
        )
    ]
    state, more = leave(state, drawing, "drew", (cr("801.15"), cr("104.4e")))
    return state, steps + more


# --- state-based actions --------------------------------------------------------------------------------
def life_of(state: TableState, player: str) -> int:
    return state.life.get(state.variant.life_pool(state, player), 0)


def poison_of(state: TableState, player: str) -> int:
    return state.poison.get(state.variant.poison_pool(state, player), 0)


def _losses(state: TableState) -> tuple[dict[str, list[str]], list[Step]]:
    """Each player state-based actions would make lose, with every cause found: an effect that stops
    one of them (``only: life``, Transcendence) leaves the others to apply (704.3: all at once)."""
    variant = state.variant
    found: dict[str, list[str]] = {}
    steps: list[Step] = []
    for player in state.in_game:
        causes = []
        if state.life.get(variant.life_pool(state, player), 1) <= 0:
            causes.append("life")
        if player in state.drew_from_empty:
            causes.append("draw")
        limit, _ = variant.poison_limit(state, player)
        if poison_of(state, player) >= limit:
            causes.append("poison")
        dealt = state.commander_damage.get(player, {}).values()
        if state.commander and any(n >= COMMANDER_DAMAGE_LIMIT for n in dealt):
            causes.append("commander")
        if causes:
            found[player] = causes
    for player, causes in found.items():
        for cause in causes:
            words, cites = _loss_words(state, player, cause)
            steps.append(step(f"{player} {words}: a state-based action makes them lose the game.", *cites))
    return found, steps


def _loss_words(state: TableState, player: str, cause: str) -> tuple[str, tuple[Cite, ...]]:
    """What a state-based action sees for ``player`` and ``cause``, and the rules that say so."""
    variant = state.variant
    words, cites = CAUSES[cause]
    if cause == "life" and variant.life_pool(state, player) != player:
        return f"is on a team with {life_of(state, player)} life", (cr("704.6a"), cr("810.8c"))
    if cause == "poison":
        limit, cites = variant.poison_limit(state, player)
        return f"has {poison_of(state, player)} poison counters ({limit} or more)", cites
    if cause == "life":
        return f"has {life_of(state, player)} life", cites
    return words, cites


def _objects(state: TableState) -> Result:
    """704.5i: a planeswalker with loyalty 0 goes to the graveyard; a battle with defense 0 is exiled by its
    Siege trigger (310.11b) rather than put into the graveyard (704.5v);
    704.6d: a commander put into a graveyard or exile since the last check may go to the command zone."""
    steps: list[Step] = []
    before = state.permanents
    for name, perm in state.permanents.items():
        dead = _creature_dies(perm)
        if dead is not None:
            text, rule, zone = dead
            state = state.with_permanent(to_zone(perm, zone, rule))
            steps.append(step(f"{name} {text}.", rule))
        elif (
            perm.on_battlefield
            and perm.kind == "planeswalker"
            and perm.loyalty is not None
            and perm.loyalty <= 0
        ):
            state = state.with_permanent(to_zone(perm, "graveyard", cr("704.5i")))
            steps.append(step(f"{name} has loyalty 0: it is put into its owner's graveyard.", cr("704.5i")))
        elif perm.on_battlefield and perm.kind == "battle" and perm.defense is not None and perm.defense <= 0:
            state, defeated = _siege_defeated(state, perm)
            steps.append(defeated)
    state, chosen = _battle_protectors(state)
    steps += chosen
    if steps:  # 506.4: what left the battlefield left combat; its attackers attack nothing (506.4c)
        after = dict(state.permanents)
        steps += attacked_left_combat(before, after)
        state = state.with_(permanents=frozen(after))
    for name, perm in state.permanents.items():
        if not (perm.moved and perm.zone in ("graveyard", "exile")):
            continue
        if perm.commander and state.commander and perm.to_command_zone and state.is_in(perm.owner):
            state = state.with_permanent(
                replace(perm, zone="command", moved=False, moved_by=(cr("704.6d"), cr("903.9a")))
            )
            steps.append(
                step(
                    f"{name}, a commander, was put into "
                    f"{'a graveyard' if perm.zone == 'graveyard' else 'exile'}"
                    f" since the last check: its owner, {perm.owner}, puts it into the command zone.",
                    cr("704.6d"),
                    cr("903.9a"),
                )
            )
        else:
            if perm.commander and state.commander:
                steps.append(
                    step(
                        f"{perm.owner} may put {name} into the command zone but leaves it in "
                        f"{'the graveyard' if perm.zone == 'graveyard' else 'exile'}.",
                        cr("903.9a"),
                    )
                )
            state = state.with_permanent(replace(perm, moved=False))
    return state, steps


def _creature_dies(perm: Permanent) -> tuple[str, Cite, str] | None:
    """704.5f-h: a creature with toughness 0 or less, lethal damage marked on it, or dealt damage by a
    deathtouch source since the last check - what happens, the rule, and the zone it goes to."""
    if not (perm.on_battlefield and perm.kind == "creature" and perm.toughness is not None):
        return None
    if perm.toughness <= 0:
        return "has toughness 0 or less: it is put into its owner's graveyard", cr("704.5f"), "graveyard"
    if perm.damage >= perm.toughness:
        return (f"has {perm.damage} damage marked on it, at least its toughness ({perm.toughness}): it is "
                "destroyed", cr("704.5g"), "graveyard")
    if perm.deathtouched:
        return "was dealt damage by a source with deathtouch: it is destroyed", cr("704.5h"), "graveyard"
    return None


def _battle_protectors(state: TableState) -> Result:
    """704.5w: a battle not being attacked whose protector has left the game gets a new one, chosen by its
    controller among the players its battle type allows - for a Siege, the controller's opponents (310.11a);
    704.5x: so does a Siege whose controller has become its protector, and (310.10) one whose protector is no
    longer an opponent of its controller (a teammate now, say). With nobody to choose it goes to
    its owner's graveyard; with one candidate that player is the protector; with several the choice is
    left to the controller (``protector`` and ``can-attack`` answer it)."""
    steps: list[Step] = []
    for name, perm in state.permanents.items():
        if not (perm.on_battlefield and perm.kind == "battle"):
            continue
        controller = perm.current_controller
        gone = perm.protector is None or not state.is_in(perm.protector)
        own = perm.protector == controller
        foes = tuple(state.variant.opponents(state, controller)[0]) if state.is_in(controller) else ()
        if not (gone or own or perm.protector not in foes):
            continue
        if not own and any(p.on_battlefield and p.attacking == name for p in state.permanents.values()):
            continue  # 704.5w and 310.10 wait while creatures are attacking it
        rule = cr("704.5x") if own else cr("704.5w") if gone else cr("310.10")
        if not foes:
            state = state.with_permanent(to_zone(perm, "graveyard", rule))
            steps.append(step(f"{name} has no protector and no opponent of {controller} can become it: it is "
                              "put into its owner's graveyard.", rule, cr("310.10")))
        elif len(foes) == 1:
            state = state.with_permanent(replace(perm, protector=foes[0], protector_choice=()))
            steps.append(step(f"{name} needs a new protector: {controller} must choose an opponent, and "
                              f"{foes[0]} is the only one.", rule, cr("310.10"), cr("310.11a")))
        elif perm.protector_choice != foes or perm.protector is not None:
            state = state.with_permanent(replace(perm, protector=None, protector_choice=foes))
            steps.append(step(f"{name} needs a new protector: {controller} chooses one of {', '.join(foes)} "
                              "(a Siege's protector is an opponent of its controller).",
                              rule, cr("310.10"), cr("310.11a")))
    return state, steps


def _siege_defeated(state: TableState, perm: Permanent) -> tuple[TableState, Step]:
    """310.11b: every battle is a Siege (310.11), and removing its last defense counter triggers "exile it,
    then you may cast it transformed"; 704.5v (310.7) skips a battle that is the source of a trigger not yet
    off the stack, so it never reaches the graveyard. The trigger is resolved here, where the model keeps
    no stack for it; the controller's cast is left as their choice (``zone`` answers it)."""
    who = perm.current_controller
    exiled = replace(to_zone(perm, "exile", cr("310.11b")), cast_transformed_by=who)
    text = (
        f"{perm.name}'s last defense counter is removed: as a Siege (310.11) its own trigger exiles it - "
        f"704.5v doesn't put a battle that is the source of a waiting trigger into the graveyard - and "
        f"{who}, its controller, may then cast it transformed without paying its mana cost."
    )
    return state.with_permanent(exiled), step(text, cr("310.11"), cr("310.11b"), cr("310.7"), cr("704.5v"))


def state_based_actions(state: TableState) -> Result:
    """704.3: every applicable state-based action at once; players losing together leave together. A
    player loses when any one of their causes is not stopped by a "can't lose" effect."""
    found, steps = _losses(state)
    if state.drew_from_empty:
        state = state.with_(drew_from_empty=())
    if any(p.deathtouched for p in state.permanents.values()):
        cleared = {n: replace(p, deathtouched=False) if p.deathtouched and not _creature_dies(p) else p
                   for n, p in state.permanents.items()}
        state = state.with_(permanents=frozen(cleared))
    state, more = _objects(state)
    steps += more
    losing = []
    for player, causes in found.items():
        stopped: list[Step] = []
        for cause in causes:
            ok, why = can_lose(state, player, cause)
            if ok:
                losing.append(player)
                break
            stopped += why
        else:
            steps += stopped[:1]
    steps = [_would_lose(s, set(found) - set(losing)) for s in steps]
    if not losing:
        return state, steps
    state, more = leave(state, losing, "lost")
    return state, steps + more


def _would_lose(said: Step, stopped: set[str]) -> Step:
    """A loss an effect stops reads "would make them lose", so the answer doesn't say the player lost and
    then didn't."""
    ends = said.text.endswith("a state-based action makes them lose the game.")
    if ends and any(said.text.startswith(f"{p} ") for p in stopped):
        text = said.text.replace("makes them lose the game.", "would make them lose the game, but an effect "
                                                                "stops it:")
        return Step(text, said.cites, said.alternatives)
    return said


def poison_counters(state: TableState, player: str, count: int) -> Result:
    """``player`` gets ``count`` poison counters (a team's shared count in Two-Headed Giant, 810.10)."""
    pool = state.variant.poison_pool(state, player)
    poison = dict(state.poison)
    poison[pool] = poison.get(pool, 0) + count
    state = state.with_(poison=frozen(poison))
    text = f"{player} gets {count} poison counter{'s' if count != 1 else ''}"
    if pool != player:
        return state, [step(f"{text}; the team shares them: {poison[pool]}.", cr("810.10"), cr("122.1f"))]
    return state, [step(f"{text} ({poison[pool]} in all).", cr("122.1f"))]
