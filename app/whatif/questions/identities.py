"""Treachery's questions: roles (907) and unveiling."""

from __future__ import annotations

import re

from rulesjudge.app.whatif.answers import AllSay, AllTrue, RoleHolders, role_holders
from rulesjudge.app.whatif.grammar import _X, _each, _Grammar, _per_player
from rulesjudge.app.whatif.plan import _Ask
from rulesjudge.app.whatif.references import _POSS, _ROLE_WORDS, _Reader

#: This topic's question patterns, in the order tried; ``questions/__init__.py`` orders the topics.
PATTERNS = _Grammar()


_q_role = PATTERNS(
    rf"what(?:'s| is) {_X}{_POSS} (?:role|identity|identity card)",
    rf"what (?:role|identity) (?:is|does|has) {_X}(?: have| got)?",
    rf"what is {_X}",
)(
    _per_player("role", "what is {who}'s identity", needs_roles=True))


@PATTERNS(r"who(?:'s| is| are) (?:the |a |an )?(?P<role>leaders?|guardians?|assassins?|traitors?)",
          # "who's left on the assassin team": the players still in with that identity (907.5b, 907.11)
          r"who(?:'s| is| are) (?:left|still (?:in|alive|around|playing)|remaining) (?:on|in|of) (?:the )?"
          r"(?P<role>leaders?|guardians?|assassins?|traitors?)(?:'s?)? (?:team|side)")
def _q_who_role(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.roles:
        return None
    role = _ROLE_WORDS[match["role"].lower()]
    return _Ask("role", f"who is {'the' if role == 'leader' else 'a'} {role.capitalize()}",
                role_holders(role), (), RoleHolders(role))


@PATTERNS(rf"(?:can|could|may) {_X} unveil(?: (?:now|their identity|his identity|her identity|yet))?")
def _q_can_unveil(match: re.Match[str], reader: _Reader) -> _Ask | None:
    if not reader.facts.roles:
        return None
    who = reader.refer(match["x"])
    return _Ask("can-unveil", f"can {who.words} unveil", _each(who, "can-unveil({p})"), who.players,
                AllTrue(_each(who, "can-unveil({p})")))


@PATTERNS(rf"(?:is|are) {_X}{_POSS} (?:identity|identity card|identities|identity cards) (?:still )?"
          r"(?:face[- ]?(?P<face>up|down)|(?P<hidden>hidden|secret)|(?P<known>known|revealed|public))")
def _q_face(match: re.Match[str], reader: _Reader) -> _Ask | None:
    """ "Is the Leader's identity face up?" (907.4a: a Leader's is; 907.4b: the others' face down until
    unveiled)."""
    if not reader.facts.roles:
        return None
    who = reader.refer(match["x"])
    face = "down" if match["face"] == "down" or match["hidden"] else "up"
    questions = _each(who, "face({p})")
    return _Ask("face", f"is {who.words}'s identity face {face}", questions, who.players,
                AllSay(questions, face))
