"""The answer to a what-if as a judge says it (issue 23): the players, the yes or no, and the deciding rule in
one sentence ("Ben becomes the monarch (725.4).", "Cat can attack Dan. Not Ann or Ben (teammates, 102.3); not
Eve or Fay (801.3)."); the derivation comes below it, and the model's notation only in ``--json``.

:func:`judge_sentence` reads the plan's headline (how to read the answers, :data:`app.whatif.WhatIf.headline`)
with the model's answers and their steps; the deciding rule is the one the derivation applied to the player
the sentence names (the event's step first: 725.4 rather than 725.3's "only one monarch").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulesjudge.app.whatif.answers import (
    AllSay,
    AllTrue,
    Attackers,
    Each,
    EachOf,
    Gone,
    Headline,
    Is,
    Member,
    RoleHolders,
    Several,
    Targets,
    Turn,
    Value,
    Winners,
    answer_line,
    can_attack,
    format_value,
    role_holders,
)

if TYPE_CHECKING:
    from rulesjudge.app.whatif import TableFacts, WhatIf
    from rulesjudge.scenarios.model.steps import Step
    from rulesjudge.scenarios.runner import AnswerReport


def names(players: Sequence[Any], joiner: str = "and") -> str:
    """Players in a sentence.

    >>> names(["Ann"]), names(["Ann", "Ben"], "or"), names(["Ann", "Ben", "Cat"])
    ('Ann', 'Ann or Ben', 'Ann, Ben and Cat')
    """
    items = [str(p) for p in players]
    if len(items) <= 1:
        return "".join(items) or "nobody"
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def rule_label(document: str, local: str) -> str:
    """A rule as a judge cites it: the Comprehensive Rules by number, other documents by name.

    >>> rule_label("cr", "725.4"), rule_label("treachery", "907.7")
    ('725.4', 'Treachery 907.7')
    """
    return local if document == "cr" else f"{document.capitalize()} {local}"


def deciding_rule(steps: Sequence[Step], mention: str | tuple[str, ...] | None = None, *,
                  first: bool = False) -> str:
    """The rule of the last step that names ``mention`` (any step when None; the first such step with
    ``first``: the event that moved a designation, not the answer restating it), rulings left out.

    >>> from rulesjudge.scenarios.model.steps import step
    >>> from rulesjudge.scenarios.model.citations import cr
    >>> steps = [step("Ben takes it.", cr("725.4")), step("Ben is the monarch; only one.", cr("725.3"))]
    >>> deciding_rule(steps, "Ben"), deciding_rule(steps, "Ben", first=True)
    ('725.3', '725.4')
    """
    words = (mention,) if isinstance(mention, str) else mention or ()
    for one in (steps if first else reversed(steps)):
        if not all(re.search(rf"\b{re.escape(word)}\b", one.text) for word in words):
            continue
        rules = [rule_label(c.document, c.local) for c in one.cites if c.document in ("cr", "treachery")]
        if rules:
            return rules[0]
    return deciding_rule(steps, words[0], first=first) if len(words) > 1 else deciding_rule(steps) if words \
        else ""


def _cited(text: str, rule: str) -> str:
    return f"{text} ({rule})." if rule else f"{text}."


def _one_value(question: str, value: Any, steps: Sequence[Step], before: TableFacts | None, happened: bool
               ) -> str:
    """One answer in words: the monarch, the initiative, a life total, poison, commander damage, a role."""
    name, _, args = question.partition("(")
    who = args.rstrip(")").split(", ") if args else []
    if name in ("monarch", "initiative"):
        had = getattr(before, name, None) if before else None
        if value is None:
            text = "Nobody is the monarch" if name == "monarch" else "Nobody has the initiative"
            return _cited(text, deciding_rule(steps, "monarch" if name == "monarch" else "initiative"))
        changed = happened and had != value
        if name == "monarch":
            text = f"{value} {'becomes' if changed else 'is'} the monarch"
        else:
            text = f"{value} {'takes' if changed else 'has'} the initiative"
        return _cited(text, deciding_rule(steps, (str(value), name), first=changed))
    if name == "life" and who:
        return _cited(f"{who[0]}'s life total is {value}", deciding_rule(steps, who[0]))
    if name == "poison" and who:
        return _cited(f"{who[0]} has {value} poison counter{'' if value == 1 else 's'}", deciding_rule(steps))
    if name == "poison-limit" and who:  # the rule's number, the same for every player (or team) here
        return _cited(f"{who[0]} (as anyone here) loses the game at {value} poison counters",
                      deciding_rule(steps))
    if name == "commander-damage" and len(who) == 2:
        return _cited(f"{who[0]} has taken {value} combat damage from {who[1]}", deciding_rule(steps))
    if name in ("controller", "owner", "exists") and who:  # a creature on the table
        if name == "owner":
            return _cited(f"{value} owns {who[0]}", deciding_rule(steps, who[0]))
        if name == "exists":
            text = f"Yes: {who[0]} is still on the battlefield" if value else \
                f"No: {who[0]} has left the battlefield"
            return _cited(text, deciding_rule(steps, who[0]))
        text = f"{value} controls {who[0]}" if value else \
            f"Nobody controls {who[0]}: it has left the battlefield"
        return _cited(text, deciding_rule(steps, who[0]))
    if name == "active":
        text = f"It is {names(value) if isinstance(value, list) else value}'s turn" if value else \
            "Nobody is the active player: the turn goes on without one"
        return _cited(text, deciding_rule(steps))
    if name == "next-turn":
        return _cited(f"{format_value(value)} takes the next turn", deciding_rule(steps))
    if name == "priority":
        holder = names(value) if isinstance(value, list) else value
        return _cited(f"{holder} has priority" if value else "Nobody has priority", deciding_rule(steps))
    if name in ("turn-order", "apnap-order"):
        label = "Turn order" if name == "turn-order" else "APNAP order"
        return _cited(f"{label}: {format_value(value)}", deciding_rule(steps))
    if name in ("in-game",):
        return _cited(f"Still in the game: {names(value or [])}", deciding_rule(steps))
    if name in ("teammates", "opponents") and who:
        kind = "teammates" if name == "teammates" else "opponents"
        return _cited(f"{who[0]}'s {kind}: {names(value or []) if value else 'none'}", deciding_rule(steps))
    if name == "role" and who:
        return _cited(f"{who[0]} is {_article(str(value))}" if value else f"{who[0]} has no identity",
                      deciding_rule(steps))
    if name == "tapped" and who:
        text = f"Yes: {who[0]} is tapped" if value else f"No: {who[0]} is untapped"
        return _cited(text, deciding_rule(steps, who[0]))
    if name in ("blocked", "attacking") and who:  # "is the Ogre blocked": the step that decided it
        state = "blocked" if name == "blocked" else "attacking"
        text = f"Yes: {who[0]} is {state}" if value else f"No: {who[0]} is not {state}"
        return _cited(text, deciding_rule(steps, who[0]))
    if name.startswith("can-") and who:  # can-unveil(Eve): "Yes: Eve can unveil."
        verb = name[4:].replace("-", " ")
        text = f"{'Yes' if value else 'No'}: {who[0]} {'can' if value else 'cannot'} {verb}"
        return _cited(text, deciding_rule(steps))
    words = name.replace("-", " ")
    subject = f"{names(who)}'s {words}" if who else words.capitalize()
    return _cited(f"{subject}: {format_value(value)}", deciding_rule(steps))


def _article(role: str) -> str:
    word = role.capitalize()
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"


def _attack_reasons(attacker: str, refused: Sequence[str], answers: Mapping[str, AnswerReport]) -> str:
    """ "Not Ann or Ben (teammates, 102.3); not Eve or Fay (801.3)": the players an attack can't go to,
    grouped by the rule that says no (this turn only where 801.2c fixes ranges as the turn began)."""
    groups: dict[str, list[str]] = {}
    for target in refused:
        report = answers.get(can_attack(attacker, target))
        steps = list(report.steps) if report else []
        rule = deciding_rule(steps[-1:]) or deciding_rule(steps)
        if any("teammate" in s.text for s in steps[-2:]):
            rule = f"teammates, {rule}" if rule else "teammates"
        elif any(c.local == "801.2c" for s in steps for c in s.cites):
            rule = f"this turn, {rule}"
        groups.setdefault(rule, []).append(target)
    parts = [f"not {names(group, 'or')}" + (f" ({rule})" if rule else "") for rule, group in groups.items()]
    return _upper_first("; ".join(parts) + ".") if parts else ""


def _upper_first(text: str) -> str:
    """The first letter a capital, names left as they are (not str.capitalize)."""
    return text[:1].upper() + text[1:]


def _can_attack(plan_pairs: Sequence[tuple[str, str]], answers: Mapping[str, AnswerReport], *,
                by: str) -> str:
    """Whom one player can attack (``by="attacker"``), or who can attack one player (``by="target"``)."""
    if not plan_pairs:
        return ""
    yes = [(a, t) for a, t in plan_pairs if _value(answers, can_attack(a, t)) is True]
    no = [(a, t) for a, t in plan_pairs if _value(answers, can_attack(a, t)) is not True]
    if by == "attacker":
        attacker = plan_pairs[0][0]
        first = f"{attacker} can attack {names([t for _, t in yes]) if yes else 'nobody'}."
        reasons = _attack_reasons(attacker, [t for _, t in no], answers)
        return f"{first} {reasons}".strip()
    target = plan_pairs[0][1]
    first = f"{names([a for a, _ in yes])} can attack {target}." if yes else f"Nobody can attack {target}."
    if not no:
        return first
    groups: dict[str, list[str]] = {}
    for attacker, _ in no:
        report = answers.get(can_attack(attacker, target))
        rule = deciding_rule(list(report.steps)[-1:]) if report else ""
        groups.setdefault(rule, []).append(attacker)
    rest = "; ".join(f"not {names(g, 'or')}" + (f" ({r})" if r else "") for r, g in groups.items())
    return f"{first} {_upper_first(rest)}."


def _value(answers: Mapping[str, AnswerReport], question: str) -> Any:
    report = answers.get(question)
    return report.value if report else None


def _steps(answers: Mapping[str, AnswerReport], *questions: str) -> list[Step]:
    return [s for q in questions if q in answers for s in answers[q].steps]


def judge_sentence(plan: WhatIf, answers: Mapping[str, AnswerReport], event_steps: Sequence[Step] = (),
                   before: TableFacts | None = None) -> str:
    """The answer as a judge says it, from the plan's headline and the model's answers (question -> report).

    >>> from rulesjudge.app import services
    >>> from rulesjudge.app.whatif import interpret
    >>> game = {"players": ["Ann", "Ben", "Cat", "Dan"], "monarch": "Ann"}
    >>> table = services.open_table(game)
    >>> facts = services.table_facts(table)
    >>> plan = interpret("who is the monarch if Ann concedes on Ben's turn", facts)
    >>> report = table.then(plan.events).report(plan.questions)
    >>> judge_sentence(plan, {str(a.question): a for a in report.answers},
    ...                [s for e in report.events for s in e.steps], facts)
    'Ben becomes the monarch (725.4).'
    """
    said = _sentence(plan.headline, plan, answers, list(event_steps), before)
    return _game_ended(plan, answers, list(event_steps)) or _undone(list(event_steps)) + said


def _undone(events: list[Step]) -> str:
    """An event of the question that the rules undo (an illegal declaration of attackers or blockers, 508.1,
    509.1, 733.1), said first with why: what follows is about the game without it, and a judge must not read
    "Ravi's life total is 20" as the attack's outcome. "" when every event stood.

    >>> from rulesjudge.scenarios.model.steps import step
    >>> from rulesjudge.scenarios.model.citations import cr
    >>> why = step("Wurm is controlled by Nat, not by an attacking player.", cr("508.1a"))
    >>> illegal = step("The declaration is illegal: nothing attacks.", cr("508.1"), cr("733.1"), undone=True)
    >>> for part in _undone([why, illegal]).strip().split(": "):
    ...     print(part)
    Wurm is controlled by Nat, not by an attacking player (508.1a)
    the declaration is illegal and undone (733.1).
    """
    for at, one in enumerate(events):
        if not one.undone:
            continue
        what = one.text.split(":")[0].lower().removesuffix(" is illegal")
        last = one.cites[-1] if one.cites else None
        rule = rule_label(last.document, last.local) if last else ""
        undone = _cited(f"{what} is illegal and undone", rule)
        why = events[at - 1] if at and not events[at - 1].undone else None
        if why is None:
            return _upper_first(undone) + " "
        return f"{_cited(why.text.rstrip('.'), deciding_rule([why]))[:-1]}: {undone} "
    return ""


def _game_ended(plan: WhatIf, answers: Mapping[str, AnswerReport], events: list[Step]) -> str:
    """A designation asked of events that end the game (the Leader lost in Treachery, 907.8a; the last
    opponent left, 104.2a): the game's end is the answer, since nobody holds anything in a game that is over
    (104.1); "" while the game goes on."""
    return _over_for(plan.kind, answers, events)


def _over_for(kind: str, answers: Mapping[str, AnswerReport], events: list[Step]) -> str:
    """The game's end said for a designation asked (``kind``: monarch, initiative); "" otherwise."""
    if kind not in ("monarch", "initiative") or _value(answers, "game-over") is not True:
        return ""
    rule = deciding_rule([*events, *_steps(answers, "game-over")])
    return _cited(f"The game is over: who holds the {kind} no longer matters", rule)


def _sentence(spec: Headline | None, plan: WhatIf, answers: Mapping[str, AnswerReport], events: list[Step],
              before: TableFacts | None) -> str:
    happened = bool(plan.events)
    if not spec and plan.kind.startswith("what-happens"):
        return _what_happens(plan, answers, events, before)
    if not spec:
        return ""
    if isinstance(spec, Turn):
        now, later = _value(answers, "active"), _value(answers, "next-turn")
        active = _one_value("active", now, [*events, *_steps(answers, "active")], before, happened)
        following = _one_value("next-turn", later, _steps(answers, "next-turn"), before, happened)
        return f"{active} {following}"
    if isinstance(spec, RoleHolders):
        line = answer_line(plan, {q: a.value for q, a in answers.items()})
        holders = list(_value(answers, role_holders(spec.role)[0]) or ())
        if "(" in line or not holders:
            return _upper_first(line) + "."
        role = spec.role.capitalize() + ("s" if len(holders) > 1 else "")
        return f"{names(holders)} {'is the' if len(holders) == 1 else 'are the'} {role}."
    if isinstance(spec, Several):  # a designation asked beside another question of a game that ended: over
        return " ".join((isinstance(part, Value) and _over_for(part.question, answers, events))
                        or _sentence(part, plan, answers, events, before) for _words, part in spec.parts)
    if isinstance(spec, Gone):  # "is the Goblin gone": yes when it no longer exists (the sentence flips)
        question = spec.question
        said = _one_value(question, _value(answers, question), [*events, *_steps(answers, question)], before,
                          happened)
        return re.sub(r"^(?:Yes|No): ", "Yes: " if _value(answers, question) is False else "No: ", said)
    if isinstance(spec, Value):
        question = spec.question
        return _one_value(question, _value(answers, question), [*events, *_steps(answers, question)], before,
                          happened)
    if isinstance(spec, Is):
        question, player, negate = spec.question, spec.player, spec.negate
        now = _value(answers, question)
        holds = now == player
        said = _one_value(question, now, [*events, *_steps(answers, question)], before, happened)
        return f"{'Yes' if holds != negate else 'No'}: {said}"
    if isinstance(spec, Member):
        question, players, negate = spec.question, spec.players, spec.negate
        found = _value(answers, question)
        members = set(found) if isinstance(found, (list, tuple, set, frozenset)) else {found}
        holds = all(p in members for p in players)
        steps = [*events, *_steps(answers, question)]
        if question == "in-game":  # "is Ben still in": about Ben, not the whole table
            many = len(players) > 1
            winners = _value(answers, "winners") or []
            if holds and _value(answers, "game-over") and all(p in winners for p in players):
                won = [*events, *_steps(answers, "game-over", "winners")]
                return _cited(f"{'Yes' if not negate else 'No'}: {names(players)} "
                              f"{'win' if many else 'wins'} the game", deciding_rule(won))
            verb = ("are" if many else "is") + " still in the game" if holds else \
                ("have" if many else "has") + " left the game"
            rule = deciding_rule(steps, players[0], first=True) if not holds else deciding_rule(steps)
            return _cited(f"{'Yes' if holds != negate else 'No'}: {names(players)} {verb}", rule)
        said = _one_value(question, found, steps, before, happened)
        return f"{'Yes' if holds != negate else 'No'}: {said}"
    if isinstance(spec, AllSay) and all(q.startswith("face(") for q in spec.questions):
        faces = {q[len("face("):-1]: _value(answers, q) for q in spec.questions}
        holds = all(face == spec.value for face in faces.values())
        said = "; ".join(f"{p}'s identity card is face {face}" for p, face in faces.items())
        return _cited(f"{'Yes' if holds else 'No'}: {said}", deciding_rule([*events, *_steps(answers,
                                                                                              *spec.questions)]))
    if isinstance(spec, Winners):
        steps = [*events, *_steps(answers, "game-over", "winners")]
        if not _value(answers, "game-over"):
            return _cited("Nobody has won yet: the game goes on", deciding_rule(steps))
        winners = _value(answers, "winners") or []
        if not winners:
            return _cited("The game is over and nobody won", deciding_rule(steps))
        verb = "wins" if len(winners) == 1 else "win"
        return _cited(f"{names(winners)} {verb} the game", deciding_rule(steps))
    if isinstance(spec, Targets):
        return _can_attack(spec.pairs, answers, by="attacker")
    if isinstance(spec, Attackers):
        return _can_attack(spec.pairs, answers, by="target")
    if isinstance(spec, AllTrue) and all(q.startswith("can-attack(") for q in spec.questions):
        pairs = [_pair(q) for q in spec.questions]
        if len({a for a, _ in pairs}) == 1:
            yes = all(_value(answers, q) is True for q in spec.questions)
            if len(pairs) == 1:
                return _allowed(pairs[0], answers) if yes else _refused(pairs[0], answers)
            sentence = _can_attack(pairs, answers, by="attacker")
            return f"{'Yes' if yes else 'No'}: {sentence}"
        if len({t for _, t in pairs}) == 1:  # "can Ava's team attack Di": each of them
            yes = all(_value(answers, q) is True for q in spec.questions)
            return f"{'Yes' if yes else 'No'}: {_can_attack(pairs, answers, by='target')}"
    line = spec.line({q: a.value for q, a in answers.items()})  # this part's line, not the whole plan's
    questions = [q for q in _asked(spec, plan) if q in answers]
    if len(questions) == 1 and isinstance(spec, (Each, EachOf, Value, AllTrue)):
        question = questions[0]
        return _one_value(question, _value(answers, question), [*events, *_steps(answers, question)], before,
                          happened)
    rule = "" if re.search(r"\d{3}\.\d", line) else deciding_rule([*events, *_steps(answers, *questions)])
    return _cited(line[:1].upper() + line[1:], rule) if line else ""


def _asked(spec: Headline, plan: WhatIf) -> list[str]:
    """The questions a headline reads (one part of several), or the plan's."""
    if isinstance(spec, Each):
        return [f"{spec.question}({p})" for p in spec.players]
    if isinstance(spec, (EachOf, AllTrue)):
        return list(spec.questions)
    if isinstance(spec, Value):
        return [spec.question]
    return list(plan.questions)


def _what_happens(plan: WhatIf, answers: Mapping[str, AnswerReport], events: list[Step],
                  before: TableFacts | None) -> str:
    """ "Cat concedes": what the events change, in sentences: who is still in, the designations that moved,
    whether the game ended."""
    said = [_one_value("in-game", _value(answers, "in-game"), [*events, *_steps(answers, "in-game")], before,
                       True)]
    for name in ("monarch", "initiative"):
        now = _value(answers, name)
        if name in answers and (now is not None or getattr(before, name, None) is not None):
            said.append(_one_value(name, now, [*events, *_steps(answers, name)], before, True))
    if "winners" in answers or "game-over" in answers:
        said.append(_sentence(Winners(), plan, answers, events, before))
    for question in plan.questions:  # what the events touched: "life(Cat)" after damage
        if question not in ("in-game", "active", "monarch", "initiative", "game-over", "winners") and \
                question in answers:
            value = _value(answers, question)
            said.append(_one_value(question, value, _steps(answers, question), before, True))
    return " ".join(said)


def _pair(question: str) -> tuple[str, str]:
    """ "can-attack(Ann, Ben)" -> ("Ann", "Ben")."""
    attacker, _, target = question[len("can-attack("):-1].partition(", ")
    return attacker, target


def _allowed(pair: tuple[str, str], answers: Mapping[str, AnswerReport]) -> str:
    """ "Yes: Ben can attack Dan (802.1)."."""
    attacker, target = pair
    report = answers.get(can_attack(attacker, target))
    return _cited(f"Yes: {attacker} can attack {target}", deciding_rule(list(report.steps)) if report else "")


def _refused(pair: tuple[str, str], answers: Mapping[str, AnswerReport]) -> str:
    """ "No: Ann can't attack Dan this turn (801.2c)."."""
    attacker, target = pair
    report = answers.get(can_attack(attacker, target))
    steps = list(report.steps) if report else []
    this_turn = any(c.local == "801.2c" for s in steps for c in s.cites)
    rule = deciding_rule(steps[-1:]) or deciding_rule(steps)
    if this_turn and rule != "801.2c":
        rule = f"801.2c, {rule}" if rule else "801.2c"
    return _cited(f"No: {attacker} can't attack {target}" + (" this turn" if this_turn else ""), rule)
