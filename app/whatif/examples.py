"""What the page offers around the reader: example questions for a table, the closest scenarios by meaning."""

from __future__ import annotations

from collections.abc import Sequence

from rulesjudge.app.whatif.plan import TableFacts, _facts


def closest_scenarios(
    question_vector: Sequence[float], scenario_vectors: Sequence[Sequence[float]], k: int = 3
) -> list[tuple[int, float]]:
    """Indexes and cosine scores of the ``k`` scenarios closest in meaning (vectors already normalised).

    >>> closest_scenarios([1.0, 0.0], [[0.0, 1.0], [1.0, 0.0], [0.6, 0.8]], k=2)
    [(1, 1.0), (2, 0.6)]
    """
    scored = [
        (index, float(sum(a * b for a, b in zip(question_vector, vector, strict=False))))
        for index, vector in enumerate(scenario_vectors)
    ]
    scored.sort(key=lambda item: (-item[1], item[0]))
    return [(i, round(s, 6)) for i, s in scored[:k]]


EXAMPLES: tuple[str, ...] = (
    "Who becomes the monarch if {a} concedes?",
    "If {b}'s creature hits {a}, who is the monarch?",
    "Can {a} attack {c}?",
    "Is {c} within {a}'s range?",
    "Who wins if {b} loses?",
    "What if everyone except {c} concedes?",
    "Whose turn is it after {a} leaves?",
    "Who are {a}'s teammates?",
)


def examples(players: Sequence[str] | TableFacts) -> list[str]:
    """Example questions using the names at the table (and its designations when it has them).

    >>> examples(["Ann", "Ben", "Cat"])[2]
    'Can Ann attack Cat?'
    """
    facts = _facts(players)
    seats = facts.players
    if not seats:
        return []
    a = seats[0]
    b = seats[1] if len(seats) > 1 else a
    c = seats[2] if len(seats) > 2 else b
    shown = [example.format(a=a, b=b, c=c) for example in EXAMPLES]
    if facts.monarch:
        shown[0] = "Who becomes the monarch if the monarch leaves?"
    if facts.roles:
        shown[4] = "Who wins if the Leader loses?"
    if facts.emperors:
        shown[2] = "Whom can the emperor attack?"
    return shown
