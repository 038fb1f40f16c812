"""The app's Table (issue 26 part 3): a scenario set up and played once, asked many questions, extended by a
what-if's events without replaying the table's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rulesjudge.app import services
from rulesjudge.app.table import Table
from rulesjudge.common.errors import InputError

CHECKER = Path(__file__).resolve().parents[2] / "app" / "web" / "pages" / "1_Scenario_checker.py"
FOUR = {"players": ["Ann", "Ben", "Cat", "Dan"], "monarch": "Dan"}


@pytest.fixture
def setups(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the tables set up from a setup: every replay of a scenario starts with ``build_state``."""
    import rulesjudge.app.table as table_module
    import rulesjudge.scenarios.runner as runner

    count: list[int] = []
    for module in (table_module, runner):
        original = module.build_state

        def counted(*args, _original=original, **kwargs):
            count.append(1)
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, "build_state", counted)
    return count


def test_725_4_a_what_if_extends_the_table_and_leaves_it_as_it_was():
    table = Table.of(FOUR, ["next-turn"])  # Ben's turn
    after = table.then([{"concedes": "Dan"}])
    # 725.4: the monarch leaves during Ben's turn, so the active player, Ben, becomes the monarch.
    assert after.values(["monarch"]) == {"monarch": "Ben"}
    # why: a Table is frozen; the what-if is a new table, the form's table still has Dan as monarch (725.1)
    assert table.values(["monarch"]) == {"monarch": "Dan"}
    assert after.events == ("next-turn", {"concedes": "Dan"}) and len(after.reports) == 2


def test_500_1_a_table_after_its_first_events_is_the_table_of_those_events():
    events = ["next-turn", "next-turn", {"leaves": "Ann"}]
    table = Table.of(FOUR, events)
    questions = ["active", "in-game", "turn-order"]
    for n in range(len(events) + 1):
        assert table.upto(n).values(questions) == Table.of(FOUR, events[:n]).values(questions)
    # why: two turns on from Ann's (500.1, 101.4) it is Cat's turn
    assert table.upto(2).values(["active"]) == {"active": "Cat"}


def test_a_what_if_event_is_named_by_its_place_after_the_tables_own():
    table = Table.of(FOUR, ["next-turn"])
    with pytest.raises(InputError, match=r"events\[1\]\.leaves: unknown player 'Zed'"):
        table.then([{"leaves": "Zed"}])  # why: the what-if's first event is the table's second


def test_a_what_if_plays_the_table_once(setups: list[int]):
    table = services.open_table(FOUR, ["next-turn"])
    corpus = services.corpus_of(None)
    asked = services.ask_what_if(table, "who is the monarch if the monarch concedes", corpus)
    assert asked.outcome is not None and asked.outcome.line == "Ben"  # 725.4: Ben is the active player
    assert asked.outcome.after is not None
    assert services.identity_cards(asked.outcome.after) == {}
    assert len(setups) == 1  # why: facts, the what-if and its picture all ask the one table


def test_a_fact_the_question_states_sets_up_its_own_table(setups: list[int]):
    table = services.open_table(FOUR, ["next-turn"])
    asked = services.ask_what_if(table, "Ann is the monarch. Who is the monarch if Ann leaves?",
                                 services.corpus_of(None))
    assert asked.outcome is not None and asked.outcome.line == "Ben"  # 725.4 on Ben's turn
    assert asked.game["monarch"] == "Ann" and table.game["monarch"] == "Dan"
    assert len(setups) == 2  # why: the form's table, then the question's own (a different setup)


def test_one_rerun_of_the_checker_plays_the_scenario_once(app_env, setups: list[int]):
    at = AppTest.from_file(str(CHECKER), default_timeout=120)
    at.run()
    at.selectbox(key="t_monarch").select("Cat").run()
    at.selectbox(key="ev_kind").select("next-turn").run()
    at.button(key="add_event").click().run()
    at.chat_input(key="whatif_q").set_value("Who becomes the monarch if the monarch concedes?").run()
    assert not at.exception, at.exception
    setups.clear()
    at.run()
    # 725.4: Cat leaves on Ben's turn; Ben, the active player, becomes the monarch.
    assert any("Ben becomes the monarch" in str(m.value) for m in at.markdown)
    # why: the facts, the events' steps, the picture, the answers and the what-if ask one played table
    assert len(setups) == 1
