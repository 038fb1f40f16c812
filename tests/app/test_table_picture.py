"""The SVG picture of the table: seats in turn order, marks, teams, hidden identities, escaping (issue 6)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rulesjudge.app.presenters import build_picture
from rulesjudge.app.table_picture import Arrow, Seat, TablePicture, render_svg, seat_positions, team_colours
from rulesjudge.scenarios.model.questions import parse_question

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises on anything that is not well-formed XML


def seats_of(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "seat" in (g.get("class") or "").split()]


def test_seats_are_drawn_clockwise_in_turn_order_from_the_top():
    names = ["Ann", "Ben", "Cat", "Dan"]
    root = parse(render_svg(TablePicture(seats=tuple(Seat(n) for n in names))))
    groups = seats_of(root)
    assert [g.get("data-player") for g in groups] == names
    centres = [(float(c.get("cx")), float(c.get("cy"))) for g in groups for c in g.iter(f"{SVG}circle")]
    # top, right, bottom, left: clockwise on screen
    (x0, y0), (x1, y1), (_, y2), (x3, y3) = centres
    assert y0 < y1 < y2 and x1 > x0 > x3 and y3 < y2


def test_active_player_crown_and_initiative_are_marked_on_the_right_seat():
    seats = (Seat("Ann"), Seat("Ben", active=True), Seat("Cat", monarch=True, initiative=True))
    picture = TablePicture(seats=seats)
    root = parse(render_svg(picture))
    by_name = {g.get("data-player"): g for g in seats_of(root)}
    assert "active" in by_name["Ben"].get("class")
    assert [g for g in by_name["Cat"].iter(f"{SVG}g") if g.get("class") == "crown"]
    assert [g for g in by_name["Cat"].iter(f"{SVG}g") if g.get("class") == "initiative"]
    assert not [g for g in by_name["Ann"].iter(f"{SVG}g") if g.get("class") == "crown"]
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "crown"]) == 1


def test_teams_get_distinct_colours_and_players_who_left_are_greyed():
    seats = (Seat("Ann", team="a"), Seat("Ben", team="b"), Seat("Cat", team="a", in_game=False))
    colours = team_colours(seats)
    assert colours["a"] != colours["b"]
    root = parse(render_svg(TablePicture(seats=seats)))
    by_name = {g.get("data-player"): g for g in seats_of(root)}
    fill = {name: next(g.iter(f"{SVG}circle")).get("fill") for name, g in by_name.items()}
    assert fill["Ann"] == colours["a"] and fill["Ben"] == colours["b"]
    assert fill["Cat"] not in colours.values()
    assert "left" in by_name["Cat"].get("class") and float(by_name["Cat"].get("opacity")) < 1


def test_face_down_identity_is_hidden_but_face_up_is_shown():
    seats = (Seat("Ann", identity="Leader", team="leader"), Seat("Ben", identity="Guardian", team="leader",
                                                                 face_down=True))
    svg = render_svg(TablePicture(seats=seats))
    assert "Leader" in svg
    assert "Guardian" not in svg  # not even in a tooltip
    assert "face down" in svg


def test_every_name_is_xml_escaped():
    evil = '<script>alert("x")</script>&'
    svg = render_svg(TablePicture(seats=(Seat(evil, team=evil), Seat("Ben")), arrows=(Arrow(evil, "Ben"),),
                                  caption=evil, legend=(evil,)))
    parse(svg)
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_attack_and_range_arrows_join_the_named_seats_only():
    seats = (Seat("Ann"), Seat("Ben"), Seat("Cat"))
    arrows = (Arrow("Ann", "Ben", "attack"), Arrow("Ann", "Cat", "range"), Arrow("Ann", "Zed", "attack"))
    root = parse(render_svg(TablePicture(seats=seats, arrows=arrows)))
    paths = [p for p in root.iter(f"{SVG}path") if (p.get("class") or "").startswith("arrow-")]
    assert sorted(p.get("class") for p in paths) == ["arrow-attack", "arrow-range"]


def test_seat_positions_are_on_a_circle():
    for x, y in seat_positions(7, 100, 40):
        assert abs(((x - 100) ** 2 + (y - 100) ** 2) ** 0.5 - 40) < 1e-6


class FakeTable:
    """A stand-in for a played :class:`app.table.Table` that answers from a table of values and records the
    questions asked of it."""

    def __init__(self, game: dict[str, object], answers: dict[str, object]) -> None:
        self.game, self.answers, self.asked = game, answers, []

    def values(self, questions):
        self.asked.append(list(questions))
        return {str(parse_question(q)): self.answers.get(q) for q in questions}


def fake_model(game: dict[str, object], answers: dict[str, object]):
    table = FakeTable(game, answers)
    return table, table.asked


def test_picture_is_built_from_the_models_answers():
    game = {"variant": "free-for-all", "players": ["Ann", "Ben", "Cat"]}
    table, asked = fake_model(game, {"active": "Ben", "monarch": "Cat", "in-game": ["Ben", "Cat"],
                                  "can-attack(Ben, Cat)": True, "can-attack(Ben, Ann)": False,
                                  "life(Ben)": 17})
    picture = build_picture(table, arrows_for="Ben", show_attacks=True)
    seats = {s.name: s for s in picture.seats}
    assert seats["Ben"].active and seats["Cat"].monarch and not seats["Ann"].in_game
    assert seats["Ben"].life == 17
    assert picture.arrows == (Arrow("Ben", "Cat", "attack"),)
    assert "can-attack(Ben, Cat)" in asked[0] and not any(q.startswith("in-range") for q in asked[0])


def test_treachery_identities_show_what_the_table_knows():
    game = {"variant": "treachery", "players": ["Ann", "Ben", "Cat"],
            "identities": {"Cat": "leader", "Ben": "guardian", "Ann": "assassin"}}
    table, asked = fake_model(game, {"in-game": ["Ann", "Ben", "Cat"], "active": "Cat",
                                  "known-role(Cat)": "leader", "known-role(Ann)": "assassin",
                                  "role(Ben)": "guardian", "role(Cat)": "leader", "role(Ann)": "assassin"})
    svg = render_svg(build_picture(table))
    assert "Guardian" not in svg and "Leader" in svg and "face down" in svg
    assert "known-role(Ben)" in asked[0]
    revealed = render_svg(build_picture(table, reveal=True))  # the judge's own view
    assert "Guardian" in revealed and "face down" not in revealed


def test_treachery_picture_from_the_rules_model():
    from rulesjudge.app.services import open_table

    game = {"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"],
            "identities": {"Cat": "leader", "Ben": "guardian", "Ann": "assassin", "Dan": "assassin",
                           "Eve": "traitor"}}
    seats = {s.name: s for s in build_picture(open_table(game)).seats}
    # 907.4a/b: the Leader starts face up, every other identity face down.
    assert [n for n, s in seats.items() if s.face_down] == ["Ann", "Ben", "Dan", "Eve"]
    assert seats["Cat"].identity == "Leader" and seats["Cat"].active  # 907.7: the Leader starts
    seats = {s.name: s for s in build_picture(open_table(game, [{"leaves": "Ben"}])).seats}
    # 907.13: a player who leaves reveals their identity; they are greyed out, the rest unchanged.
    assert not seats["Ben"].face_down and seats["Ben"].identity == "Guardian" and not seats["Ben"].in_game
    assert seats["Ann"].face_down


def test_winner_is_marked_not_greyed():
    picture = TablePicture(seats=(Seat("Ann", in_game=False, result="won"), Seat("Ben", in_game=False,
                                                                                  result="lost")))
    root = parse(render_svg(picture))
    by_name = {g.get("data-player"): g for g in seats_of(root)}
    assert "won" in by_name["Ann"].get("class") and by_name["Ann"].get("opacity") == "1"
    assert by_name["Ben"].get("opacity") != "1"


def _busy_picture(count: int) -> TablePicture:
    names = ["Ann", "Bartholomew the Unready", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"][:count]
    seats = tuple(Seat(n, active=i == 0, monarch=i == 1, team="A" if i % 2 else "B", life=20,
                       identity="Guardian (The Bodyguard)" if i == 2 else None) for i, n in enumerate(names))
    arrows = tuple(Arrow(a, b, kind) for a in names for b in names if a != b for kind in ("attack", "range"))
    return TablePicture(seats=seats, arrows=arrows)


def test_no_arrow_crosses_a_seats_words_at_any_table_size():
    from rulesjudge.app.table_picture import arrow_points, plan

    for count in range(2, 11):
        drawing = plan(_busy_picture(count))
        for name, label in drawing.labels.items():
            for x0, y0, x1, y1 in (label.box, label.narrow_box):  # as drawn large, and small on a phone
                for arrow, path in drawing.arrows:
                    inside = [(x, y) for x, y in arrow_points(path)
                              if x0 - 2 <= x <= x1 + 2 and y0 - 2 <= y <= y1 + 2]
                    assert not inside, f"{count} seats: {arrow} crosses the words of {name}"


def test_every_seats_words_stay_inside_the_picture():
    from rulesjudge.app.table_picture import plan

    for count in range(2, 11):
        drawing = plan(_busy_picture(count), 720)
        for name, label in drawing.labels.items():
            for x0, y0, x1, _ in (label.box, label.narrow_box):
                assert x0 >= 0 and x1 <= 720 and y0 >= 0, f"{count} seats: {name}'s words leave the picture"


def test_the_legend_names_team_colours_and_every_mark_drawn():
    seats = (Seat("Ann", team="A", active=True), Seat("Ben", team="B", emperor=True, monarch=True),
             Seat("Cat", team="A", initiative=True), Seat("Dan", team="B", in_game=False))
    root = parse(render_svg(TablePicture(seats=seats, arrows=(Arrow("Ann", "Ben"),))))
    rows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "legend"]
    legend = {g.get("data-kind"): "".join(g.itertext()) for g in rows}
    colours = team_colours(seats)
    swatches = {"".join(g.itertext()): next(g.iter(f"{SVG}circle")).get("fill") for g in rows
                if g.get("data-kind") == "team"}
    assert swatches == {"team A": colours["A"], "team B": colours["B"]}
    for kind in ("crown", "badge-I", "badge-E", "active", "left", "arrow-attack"):
        assert kind in legend, kind
    assert "arrow-range" not in legend  # only what is drawn


def test_the_emperor_has_a_badge_on_their_seat():
    root = parse(render_svg(TablePicture(seats=(Seat("Ann", team="A"), Seat("Ben", team="A", emperor=True)))))
    by_name = {g.get("data-player"): g for g in seats_of(root)}
    assert [g for g in by_name["Ben"].iter(f"{SVG}g") if g.get("class") == "emperor"]
    assert not [g for g in by_name["Ann"].iter(f"{SVG}g") if g.get("class") == "emperor"]


def test_revealed_identities_name_their_cards():
    from rulesjudge.app.services import identity_cards, open_table

    game = {"variant": "treachery", "players": ["Ann", "Ben", "Cat", "Dan"],
            "identities": {"Ann": {"role": "leader", "card": "The Old Ruler"},
                           "Ben": {"role": "traitor", "card": "The Metamorph"},
                           "Cat": {"role": "assassin", "card": "The Witch"}, "Dan": "assassin"}}
    table = open_table(game)
    cards = identity_cards(table)
    hidden = render_svg(build_picture(table, cards=cards))
    assert "The Old Ruler" in hidden  # 907.4a: the Leader is face up, its card is public
    assert "The Metamorph" not in hidden and "The Witch" not in hidden  # 907.4b: face down
    revealed = render_svg(build_picture(table, reveal=True, cards=cards))
    assert "The Metamorph" in revealed and "The Witch" in revealed and "face down" not in revealed


def test_the_picture_is_drawn_large_and_scales_down_to_a_phone():
    svg = render_svg(_busy_picture(6))
    root = parse(svg)
    assert float(root.get("width")) >= 700 and root.get("viewBox", "").startswith("0 0 720 ")
