"""Derivation steps: a short sentence plus the rules it applied, and the readings a judge can choose.

>>> from rulesjudge.scenarios.model.citations import cr
>>> step("Ann is the active player.", cr("102.1")).cites
(Cite(document='cr', local='102.1'),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesjudge.scenarios.model.citations import Cite, cr


@dataclass(frozen=True)
class Reading:
    """One defensible reading, or one choice a player may make, with the answer it leads to."""

    text: str
    value: Any
    cites: tuple[Cite, ...] = ()


@dataclass(frozen=True)
class Step:
    """One step of a derivation. ``alternatives`` is non-empty where the rules leave a choice to a player
    or two readings are defensible: the answer names them instead of silently picking one."""

    text: str
    cites: tuple[Cite, ...] = ()
    alternatives: tuple[Reading, ...] = ()
    #: the step says an illegal action was undone (733.1): the steps before it say why, and an answer about
    #: the game after it is about the game without that action
    undone: bool = False


def step(text: str, *cites: Cite, alternatives: tuple[Reading, ...] = (), undone: bool = False) -> Step:
    """A derivation step citing rules."""
    return Step(text, tuple(cites), alternatives, undone)


def illegal(action: str, *cites: Cite, then: str = "") -> Step:
    """The step undoing an illegal action (733.1): the game returns to the moment before it.

    >>> illegal("The declaration", then=", and no creature attacks").text
    'The declaration is illegal: the game returns to the moment before it, and no creature attacks.'
    """
    return step(f"{action} is illegal: the game returns to the moment before it{then}.", *cites, cr("733.1"),
                undone=True)


Answer = tuple[Any, list[Step]]
