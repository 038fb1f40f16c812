"""Each step's citations decide it: a cited rule's text mentions at least one of the step's subjects (issue
25: a step about the stack citing the Monarch). A cheap check over every step the library's scenarios
produce: subjects are a few distinctive topics (the stack, the monarch, blocks, libraries, ...) read in the
step's text and in the cited record's own text; a rule that names none of them is a general rule the check
leaves alone."""

from __future__ import annotations

import re
from functools import lru_cache

from rulesjudge.scenarios.format import load_scenario
from rulesjudge.scenarios.model.citations import Cite, cr, resolve
from rulesjudge.scenarios.model.steps import Step, step
from rulesjudge.scenarios.runner import LIBRARY, run_scenario

#: A subject of a step and the words that name it, in a step's text and in a rule's.
SUBJECTS: dict[str, tuple[str, ...]] = {  # distinctive topics only: "control" or "turn" appear everywhere
    "stack": ("stack",),
    "monarch": ("monarch", "crown"),
    "initiative": ("initiative", "undercity", "venture"),
    "block": ("block",),
    "draw": ("draw a card", "draws a card", "library", "draw from", "draws from"),
    "poison": ("poison",),
    "commander": ("commander", "command zone"),
    "attack": ("attack",),
    "priority": ("priority",),
    "range": ("range of influence", "range"),
    "battle": ("battle", "siege"),
    "planeswalker": ("planeswalker", "loyalty"),
    "team": ("team", "teammate", "deploy"),
    "unveil": ("unveil",),
}

#: General rules that name some of those topics in passing: the rules for leaving the game (800.4a/b/j:
#: objects on the stack, priority), for undoing an illegal action (733.1), for "becomes" triggers (603.2e:
#: "becomes blocked"). The check can't tell what they decide from their words.
GENERAL = frozenset({"800.4a", "800.4b", "800.4j", "733.1", "603.2e"})


def subjects(text: str) -> set[str]:
    """The subjects a text mentions.

    >>> sorted(subjects("Objects on the stack, top first"))
    ['stack']
    """
    low = text.lower()
    return {
        name
        for name, words in SUBJECTS.items()
        if any(re.search(rf"\b{w}(s|es|ed|ing|er|ers)?\b", low) for w in words)
    }


def _rule_text(cite: Cite, corpus) -> str:
    """The cited record's own text (a parent's heading would make 510.2 about attacking and blocking)."""
    found = resolve(cite, corpus)
    record = corpus.get(found.record_id) if found.loaded else None
    text = record.text if record is not None else ""
    return BOILERPLATE.sub("", text)


#: Phrases that name a subject without being about it ("This turn-based action doesn't use the stack.").
BOILERPLATE = re.compile(r"(doesn.t|does not) use the stack|see rule [\d.a-z]+(, [^.]*)?", re.IGNORECASE)


def misfits(steps: list[Step], corpus) -> list[str]:
    """Each (step, citation) where the cited rule mentions none of the step's subjects."""
    found = []
    for said in steps:
        about = subjects(said.text)
        if not about:
            continue
        for cite in (c for c in said.cites if c.local not in GENERAL):
            # a rule that names none of the distinctive subjects is a general one (110.2, 510.2, 800.4a):
            # this cheap check can't judge it; one about other subjects only is the kind of misfit it finds
            topics = subjects(_rule_text(cite, corpus))
            if topics and not topics & about:
                found.append(f"{cite}: {said.text}")
    return found


@lru_cache(maxsize=1)
def library_steps() -> tuple[Step, ...]:
    steps: dict[tuple[str, tuple[Cite, ...]], Step] = {}
    for path in sorted(LIBRARY.rglob("*.yaml")):
        report = run_scenario(load_scenario(path))
        for item in (*report.events, *report.answers):
            steps.update({(s.text, s.cites): s for s in item.steps})
    return tuple(steps.values())


def test_the_check_catches_a_step_about_the_stack_citing_the_monarch(builtin_corpus) -> None:
    # why: 725.2 is the Monarch's rule; a stack holding an ordinary spell is 405.1's (issue 25)
    wrong = step("Objects on the stack, top first: Shock (controlled by Ann).", cr("725.2"))
    assert misfits([wrong], builtin_corpus) == [f"CR 725.2: {wrong.text}"]
    right = step("Objects on the stack, top first: Shock (controlled by Ann).", cr("405.1"), cr("112.2"))
    assert misfits([right], builtin_corpus) == []


def test_every_library_step_cites_rules_about_its_subjects(builtin_corpus) -> None:
    problems = misfits(list(library_steps()), builtin_corpus)
    assert not problems, f"{len(problems)} steps cite a rule about none of their subjects:\n" + "\n".join(
        sorted(set(problems))[:40]
    )
