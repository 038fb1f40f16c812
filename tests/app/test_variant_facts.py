"""Issue 26.1: a variant is the one home of its facts. The app asks ``VARIANTS[name]`` for its teams,
identities, fewest players and default questions; a variant registered in the model alone works in the form,
the picture and the what-if with no edit in app/."""

from __future__ import annotations

import pytest

from rulesjudge.app import presenters, services, whatif
from rulesjudge.app.presenters import TableForm, form_to_game, switch_variant
from rulesjudge.scenarios.model import VARIANTS
from rulesjudge.scenarios.model.citations import cr
from rulesjudge.scenarios.model.variant import Variant


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variants_default_table_is_legal(name):
    """Issue 23.5: choosing a variant gives a table its rules accept (Emperor: two teams of three, 809.1;
    Two-Headed Giant: two teams of two, 810.1; Treachery: a 907.3c deck; Grand Melee: ten players, 807.1)."""
    form = switch_variant(TableForm(players="Ann, Ben, Cat, Dan"), name)
    game = form_to_game(form)
    assert len(presenters.seat_order(game)) >= VARIANTS[name].min_players
    legal = services.evaluate(game, [], ["legal-setup"])[0]
    assert legal.value is True, [s.text for s in legal.steps]


def test_the_teams_field_seats_a_seated_together_table_and_switching_back_keeps_the_seats():
    """809.2: each Emperor team sits together, so the teams in order are the seats (one seating field)."""
    form = switch_variant(TableForm(players="Ann, Ben, Cat, Dan"), "emperor")
    form.teams = "Zed, Ann, Ben\nCat, Dan, Eve"
    assert presenters.seat_order(form_to_game(form)) == ["Zed", "Ann", "Ben", "Cat", "Dan", "Eve"]
    assert switch_variant(form, "free-for-all").players == "Zed, Ann, Ben, Cat, Dan, Eve"


def test_alternating_teams_seat_by_players_and_group_by_teams():
    """811.3: no one sits next to a teammate, so the teams can't be the seats: the players field is."""
    form = switch_variant(TableForm(players="Ann, Ben, Cat, Dan"), "alternating-teams")
    assert form.teams == "Ann, Cat\nBen, Dan"
    assert form_to_game(form)["players"] == ["Ann", "Ben", "Cat", "Dan"]


def test_team_vs_team_pairs_are_not_kept_for_emperor():
    """809.1: three players a team; the pairs of a 2-2 Team vs. Team table are replaced, not kept invalid."""
    form = switch_variant(switch_variant(TableForm(players="Ann, Ben, Cat, Dan"), "team-vs-team"), "emperor")
    assert [len(t) for t in presenters.parse_teams(form.teams)] == [3, 3]


class _Trio(Variant):
    """A made-up variant: teams of three, questions of its own choosing; nothing about it in app/."""

    name = "trio-test"
    title = "Trio (test)"
    cites = (cr("808.1"),)
    needs_teams = True
    min_players = 6
    min_players_rule = "808.1"
    default_questions = ("active", "turn-order")

    def default_teams(self, players):
        return [list(players[:3]), list(players[3:6])]


@pytest.fixture
def trio(monkeypatch):
    monkeypatch.setitem(VARIANTS, _Trio.name, _Trio())
    return VARIANTS[_Trio.name]


def test_a_variant_registered_in_the_model_alone_drives_form_picture_and_what_if(trio):
    form = switch_variant(TableForm(players="Ann, Ben, Cat"), trio.name)
    assert form.teams == "Ann, Ben, Cat\nDan, Eve, Fay"  # its own default teams, padded to its six players
    game = form_to_game(form)
    assert game == {"variant": "trio-test", "teams": [["Ann", "Ben", "Cat"], ["Dan", "Eve", "Fay"]]}
    table = services.open_table(game)
    picture = presenters.build_picture(table)
    assert [seat.name for seat in picture.seats] == ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    facts = services.table_facts(table)
    assert facts.variant == "trio-test"
    plan = whatif.interpret("who are Ann's teammates?", facts)  # 102.3: the rest of her team
    assert plan is not None
    values = {str(a.question): a.value for a in services.evaluate(game, plan.events, plan.questions)}
    assert sorted(values["teammates(Ann)"]) == ["Ben", "Cat"]
    assert presenters.variant_of("Trio-Test").default_questions == ("active", "turn-order")
