"""A picture of the table as SVG: seats around a table in turn order, who is active, who wears the crown.

The picture is a pure function of a :class:`TablePicture` (what the rules model says about the table after
the events so far); :mod:`app.presenters` builds one from the model. Every name that reaches the SVG is
XML-escaped, so a player called ``<script>`` is drawn as text, never run.

>>> svg = render_svg(TablePicture(seats=(Seat("Ann", active=True, monarch=True), Seat("Ben"))))
>>> svg.startswith("<svg") and "Ann" in svg and 'class="crown"' in svg
True
>>> "&lt;b&gt;" in render_svg(TablePicture(seats=(Seat("<b>"),)))
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal
from xml.sax.saxutils import escape as _xml_escape

#: Team colours, in the order teams are first seen around the table (colour-blind friendly palette).
TEAM_COLOURS: tuple[str, ...] = (
    "#4477AA",  # blue
    "#EE6677",  # red
    "#228833",  # green
    "#CCBB44",  # yellow
    "#66CCEE",  # cyan
    "#AA3377",  # purple
    "#EE8866",  # orange
    "#44BB99",  # teal
)
NO_TEAM_COLOUR = "#DDDDDD"
LEFT_COLOUR = "#9E9E9E"
HIDDEN_COLOUR = "#BBBBBB"
MAX_LABEL = 14


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat and what the model says about its player."""

    name: str
    in_game: bool = True
    active: bool = False
    monarch: bool = False
    initiative: bool = False
    team: str | None = None  # the team's name; players without a team get no colour
    identity: str | None = None  # a Treachery identity shown face up ("Leader")
    face_down: bool = False  # a face-down Treachery identity: drawn hidden
    emperor: bool = False
    life: int | None = None
    result: str | None = None  # "won" or "lost" once the model says so


@dataclass(frozen=True, slots=True)
class Arrow:
    """``source`` can attack ``target`` (solid) or has ``target`` within range of influence (dashed)."""

    source: str
    target: str
    kind: Literal["attack", "range"] = "attack"


@dataclass(frozen=True, slots=True)
class TablePicture:
    seats: tuple[Seat, ...]
    arrows: tuple[Arrow, ...] = ()
    caption: str = ""
    legend: tuple[str, ...] = field(default=())  # further lines for the legend (the marks explain themselves)


def escape(text: object) -> str:
    """XML-escape text for element content and attribute values.

    >>> escape('Ann "the <Queen>" & co')
    'Ann &quot;the &lt;Queen&gt;&quot; &amp; co'
    """
    return _xml_escape(str(text), {'"': "&quot;", "'": "&#39;"})


def short(name: str, limit: int = MAX_LABEL) -> str:
    """A label that fits beside a seat; the full name stays in the tooltip.

    >>> short("Bartholomew the Unready")
    'Bartholomew t…'
    """
    return name if len(name) <= limit else name[: limit - 1] + "…"


def team_colours(seats: Sequence[Seat]) -> dict[str, str]:
    """Colours for teams in the order they are first seen around the table.

    >>> team_colours([Seat("A", team="north"), Seat("B", team="south"), Seat("C", team="north")])
    {'north': '#4477AA', 'south': '#EE6677'}
    """
    colours: dict[str, str] = {}
    for seat in seats:
        if seat.team is not None and not seat.face_down and seat.team not in colours:
            colours[seat.team] = TEAM_COLOURS[len(colours) % len(TEAM_COLOURS)]
    return colours


def seat_positions(count: int, centre: float, radius: float) -> list[tuple[float, float]]:
    """Seat centres clockwise from the top (screen y grows downward, so growing angles go clockwise).

    >>> [(round(x), round(y)) for x, y in seat_positions(4, 100, 50)]
    [(100, 50), (150, 100), (100, 150), (50, 100)]
    """
    positions = []
    for index in range(count):
        angle = -math.pi / 2 + 2 * math.pi * index / max(count, 1)
        positions.append((centre + radius * math.cos(angle), centre + radius * math.sin(angle)))
    return positions


def _crown(x: float, y: float, cls: str = "crown") -> str:
    # A three-pointed crown whose base sits at (x, y).
    w, h = 28.0, 17.0
    points = [
        (x - w / 2, y),
        (x - w / 2, y - h),
        (x - w / 4, y - h / 2),
        (x, y - h),
        (x + w / 4, y - h / 2),
        (x + w / 2, y - h),
        (x + w / 2, y),
    ]
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    return (
        f'<g class="{cls}"><title>the monarch</title>'
        f'<polygon points="{path}" fill="#F2C200" stroke="#8A6D00" stroke-width="1.5"/></g>'
    )


def _badge(cls: str, x: float, y: float, letter: str, fill: str, title: str) -> str:
    """A round badge with a letter (I: the initiative, E: an emperor) on the rim of a seat."""
    return (
        f'<g class="{cls}"><title>{escape(title)}</title>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="{fill}" stroke="#FFFFFF" stroke-width="1.5"/>'
        f'<text x="{x:.1f}" y="{y + 4.5:.1f}" text-anchor="middle" font-size="13" font-weight="bold" '
        f'fill="#FFFFFF">{letter}</text></g>'
    )


def _arrow_path(start: tuple[float, float], end: tuple[float, float], seat_radius: float, bend: float) -> str:
    # A gently curved line from seat edge to seat edge, so that A->B and B->A do not overlap.
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    sx, sy = x1 + ux * seat_radius, y1 + uy * seat_radius
    ex, ey = x2 - ux * (seat_radius + 4), y2 - uy * (seat_radius + 4)
    mx, my = (sx + ex) / 2 - uy * bend, (sy + ey) / 2 + ux * bend
    return f"M {sx:.1f} {sy:.1f} Q {mx:.1f} {my:.1f} {ex:.1f} {ey:.1f}"


def arrow_points(path: str, samples: int = 24) -> list[tuple[float, float]]:
    """Points along an arrow's quadratic curve (``M x y Q cx cy ex ey``), to check what it crosses.

    >>> arrow_points("M 0 0 Q 5 5 10 0", samples=2)
    [(0.0, 0.0), (5.0, 2.5), (10.0, 0.0)]
    """
    numbers = [float(n) for n in path.replace("M", " ").replace("Q", " ").split()]
    (x0, y0, cx, cy, x1, y1) = numbers
    points = []
    for i in range(samples + 1):
        t = i / samples
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t**2
        points.append((a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1))
    return points


@dataclass(frozen=True, slots=True)
class Label:
    """Where a seat's words go: outside the ring, away from the table, so arrows (which run inside the
    ring) never cross a name. ``box`` is the area the words take (x0, y0, x1, y1), estimated."""

    x: float
    y: float
    anchor: str  # start | middle | end
    lines: tuple[tuple[str, int, bool], ...]  # (text, font size, bold)
    box: tuple[float, float, float, float]
    narrow_y: float = 0.0  # the baseline of the short name drawn instead when the picture is small (a phone)
    narrow_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


LINE_GAP = 4
CHAR_WIDTH = 0.58  # of the font size: a generous average for sans-serif text


def text_width(text: str, size: int) -> float:
    return len(text) * size * CHAR_WIDTH


def place_label(
    centre: tuple[float, float], position: tuple[float, float], seat_radius: float,
    lines: Sequence[tuple[str, int, bool]],
) -> Label:
    """The words of a seat, outside the ring on the side facing away from the table's centre."""
    cx, cy = centre
    x, y = position
    dx, dy = x - cx, y - cy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    gap = seat_radius + 10
    ax, ay = x + ux * gap, y + uy * gap
    height = sum(size + LINE_GAP for _, size, _ in lines)
    width = max((text_width(text, size) for text, size, _ in lines), default=0.0)
    if abs(ux) < 0.4:  # above or below the seat: centred
        anchor = "middle"
        top = ay - height if uy < 0 else ay
        x0, x1 = ax - width / 2, ax + width / 2
    else:  # beside the seat: the words run away from the table
        anchor = "start" if ux > 0 else "end"
        top = ay - height / 2 + (height / 4 if uy > 0.4 else -height / 4 if uy < -0.4 else 0)
        x0, x1 = (ax, ax + width) if ux > 0 else (ax - width, ax)
    name = short(lines[0][0], NARROW_CHARS) if lines else ""
    if anchor == "middle":
        baseline = ay - 6 if uy < 0 else ay + NARROW_NAME_SIZE - 4
    else:
        baseline = ay + NARROW_NAME_SIZE * 0.35
    width = text_width(name, NARROW_NAME_SIZE)
    nx0 = ax - width / 2 if anchor == "middle" else ax if anchor == "start" else ax - width
    narrow_box = (nx0, baseline - NARROW_NAME_SIZE, nx0 + width, baseline + 4)
    return Label(ax, top, anchor, tuple(lines), (x0, top, x1, top + height), baseline, narrow_box)


def _label_svg(label: Label, strike: bool) -> str:
    out = ['<g class="wide">']
    y = label.y
    for index, (text, size, bold) in enumerate(label.lines):
        y += size
        weight = ' font-weight="bold"' if bold else ""
        cls = ' class="name"' if index == 0 else ' class="detail"'
        deco = ' text-decoration="line-through"' if strike and index == 0 else ""
        out.append(f'<text{cls} x="{label.x:.1f}" y="{y:.1f}" text-anchor="{label.anchor}" font-size="{size}"'
                   f'{weight} fill="#111111"{deco}>{escape(text)}</text>')
        y += LINE_GAP
    out.append("</g>")
    if label.lines:
        deco = ' text-decoration="line-through"' if strike else ""
        out.append(f'<text class="narrow short-name" x="{label.x:.1f}" y="{label.narrow_y:.1f}" '
                   f'text-anchor="{label.anchor}" font-size="{NARROW_NAME_SIZE}" font-weight="bold" '
                   f'fill="#111111"{deco}>{escape(short(label.lines[0][0], NARROW_CHARS))}</text>')
    return "".join(out)


#: Shown when the picture is drawn small (a phone): a short name instead of the words, larger type. The
#: SVG's own CSS switches by the width it is drawn at (media queries in an SVG image see the image's size).
NARROW_NAME_SIZE = 32
NARROW_CHARS = 8
NARROW_CSS = (
    "<style>.narrow{display:none}"
    "@media (max-width: 520px){.wide{display:none}.narrow{display:inline}"
    ".legend text,.caption{font-size:28px}.seat-number{font-size:30px}"
    ".mark{transform:scale(1.35);transform-box:fill-box;transform-origin:center}}</style>"
)
LEGEND_ROW = 34

NAME_SIZE = 18
DETAIL_SIZE = 15
DETAIL_CHARS = 19
LABEL_ROOM = 170  # horizontal room for a seat's words beside it (14 characters of a name, 19 of details)


def _seat_lines(seat: Seat) -> list[tuple[str, int, bool]]:
    lines: list[tuple[str, int, bool]] = [(short(seat.name), NAME_SIZE, True)]
    if seat.active:
        lines.append(("▶ active player", DETAIL_SIZE, True))
    what: list[str] = []
    card = None
    if seat.emperor:
        what.append("emperor")
    if seat.face_down:
        what.append("? face down")
    elif seat.identity:
        role, _, card = seat.identity.partition(" (")  # "Guardian (The Bodyguard)": the card on its own line
        what.append(role)
    elif seat.team:
        what.append(f"team {seat.team}")
    if what:
        lines.append((short(" · ".join(what), DETAIL_CHARS), DETAIL_SIZE, False))
    if card:
        lines.append((short(card.rstrip(")"), DETAIL_CHARS), DETAIL_SIZE, False))
    status: list[str] = []
    if seat.life is not None and seat.in_game:
        status.append(f"♥ {seat.life}")
    if seat.result == "won":
        status.append("won ★")
    elif seat.result == "lost":
        status.append("lost")
    elif not seat.in_game:
        status.append("left the game")
    if status:
        lines.append((" · ".join(status), DETAIL_SIZE, False))
    return lines


def layout(count: int, size: int) -> tuple[float, float, float, float]:
    """Centre x, centre y, ring radius and seat radius for ``count`` seats on a ``size``-wide picture."""
    seat_radius = 34.0 if count <= 6 else 28.0 if count <= 8 else 22.0
    ring = max(90.0, size / 2 - seat_radius - 10 - LABEL_ROOM)
    top_room = 10 + NAME_SIZE + 4 * (DETAIL_SIZE + LINE_GAP)  # the top seat's words
    return size / 2, top_room + seat_radius + ring, ring, seat_radius


@dataclass(frozen=True)
class Drawing:
    """Where everything goes: seat centres, the words of each seat, the arrows' curves."""

    centre: tuple[float, float]
    ring: float
    seat_radius: float
    positions: dict[str, tuple[float, float]]
    labels: dict[str, Label]
    arrows: tuple[tuple[Arrow, str], ...]  # each drawn arrow and its path
    bottom: float


def plan(picture: TablePicture, size: int = 720) -> Drawing:
    """The geometry of :func:`render_svg` (tests check it: no arrow crosses a seat's words)."""
    seats = picture.seats
    cx, cy, ring, seat_radius = layout(len(seats), size)
    around = seat_positions(len(seats), 0, ring)
    positions = {seat.name: (cx + x, cy + y) for seat, (x, y) in zip(seats, around, strict=True)}
    labels = {seat.name: place_label((cx, cy), positions[seat.name], seat_radius, _seat_lines(seat))
              for seat in seats}
    arrows = []
    for arrow in picture.arrows:
        if arrow.source not in positions or arrow.target not in positions or arrow.source == arrow.target:
            continue
        bend = 14.0 if arrow.kind == "attack" else -14.0
        path = _arrow_path(positions[arrow.source], positions[arrow.target], seat_radius, bend)
        arrows.append((arrow, path))
    bottom = max([cy + ring + seat_radius, *(label.box[3] for label in labels.values())]) + 16
    return Drawing((cx, cy), ring, seat_radius, positions, labels, tuple(arrows), bottom)


def render_svg(picture: TablePicture, *, size: int = 720) -> str:
    """The table as a standalone SVG document (a string starting with ``<svg``).

    Seats sit on a ring in turn order (clockwise from the top); each seat's words stand outside the ring,
    facing away from the table, and arrows run inside it, so no arrow crosses a name. A legend below says
    what the colours and marks mean.
    """
    seats = picture.seats
    drawing = plan(picture, size)
    (cx, cy), ring, seat_radius = drawing.centre, drawing.ring, drawing.seat_radius
    colours = team_colours(seats)
    bottom = drawing.bottom
    legend = legend_lines(picture, colours)
    height = bottom + LEGEND_ROW * len(legend) + (LEGEND_ROW if picture.caption else 0) + 8
    table_radius = max(30.0, ring - seat_radius - 28)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {height:.0f}" width="{size}" '
        f'height="{height:.0f}" font-family="sans-serif" role="img" aria-label="the table">',
        NARROW_CSS,
        "<defs>"
        '<marker id="head-attack" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#C0392B"/></marker>'
        '<marker id="head-range" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#2E86C1"/></marker>'
        "</defs>",
        f'<rect x="0" y="0" width="{size}" height="{height:.0f}" fill="#FFFFFF"/>',
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{table_radius:.1f}" fill="#F3EBDD" stroke="#C8B89A" '
        'stroke-width="2"/>',
        f'<text class="wide" x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle" font-size="14" '
        'fill="#7A6A4F">'
        "turn order: clockwise ↻</text>",
        f'<text class="narrow" x="{cx:.1f}" y="{cy + 14:.1f}" text-anchor="middle" font-size="40" '
        'fill="#7A6A4F">↻</text>',
    ]
    for arrow, d in drawing.arrows:
        if arrow.kind == "attack":
            style = 'stroke="#C0392B" stroke-width="2.4" marker-end="url(#head-attack)"'
        else:
            style = 'stroke="#2E86C1" stroke-width="2" stroke-dasharray="6 4" marker-end="url(#head-range)"'
        label = "can attack" if arrow.kind == "attack" else "has within range of influence"
        out.append(
            f'<path class="arrow-{arrow.kind}" d="{d}" fill="none" {style}>'
            f"<title>{escape(arrow.source)} {label} {escape(arrow.target)}</title></path>"
        )
    for index, seat in enumerate(seats):
        out.append(_seat(seat, drawing.positions[seat.name], seat_radius, colours, index + 1,
                         drawing.labels[seat.name]))
    y = bottom
    for kind, text, colour in legend:
        out.append(_legend_row(kind, text, colour, y))
        y += LEGEND_ROW
    if picture.caption:
        out.append(f'<text class="caption" x="12" y="{y + 4:.1f}" font-size="15" fill="#333333">'
                   f'{escape(picture.caption)}</text>')
    out.append("</svg>")
    return "".join(out)


def legend_lines(picture: TablePicture, colours: dict[str, str]) -> list[tuple[str, str, str]]:
    """What the colours and marks in the picture mean: (kind, words, colour), only for what is drawn.

    >>> legend_lines(TablePicture(seats=(Seat("Ann", team="A", monarch=True), Seat("Ben", team="B"))),
    ...              {"A": "#4477AA", "B": "#EE6677"})[:3]
    [('team', 'team A', '#4477AA'), ('team', 'team B', '#EE6677'), ('crown', 'the monarch', '#F2C200')]
    """
    rows: list[tuple[str, str, str]] = [("team", f"team {team}", colour) for team, colour in colours.items()]
    seats = picture.seats
    if any(s.monarch for s in seats):
        rows.append(("crown", "the monarch", "#F2C200"))
    if any(s.initiative for s in seats):
        rows.append(("badge-I", "has the initiative", "#6C3483"))
    if any(s.emperor for s in seats):
        rows.append(("badge-E", "an emperor", "#B9770E"))
    if any(s.active for s in seats):
        rows.append(("active", "the active player (thick ring)", "#111111"))
    if any(s.face_down for s in seats):
        rows.append(("hidden", "identity face down", HIDDEN_COLOUR))
    if any(not s.in_game and s.result != "won" for s in seats):
        rows.append(("left", "left the game", LEFT_COLOUR))
    kinds = {a.kind for a in picture.arrows}
    if "attack" in kinds:
        rows.append(("arrow-attack", "can attack", "#C0392B"))
    if "range" in kinds:
        rows.append(("arrow-range", "within range of influence", "#2E86C1"))
    rows += [("note", line, "#555555") for line in picture.legend]
    return rows


def _legend_row(kind: str, text: str, colour: str, y: float) -> str:
    x = 14.0
    if kind in ("team", "hidden", "left"):
        mark = f'<circle cx="{x + 8}" cy="{y - 5}" r="8" fill="{colour}" stroke="#555555" stroke-width="1"/>'
    elif kind == "crown":
        mark = _crown(x + 8, y + 3, "legend-crown")
    elif kind.startswith("badge-"):
        mark = _badge("legend-badge", x + 8, y - 5, kind[-1], colour, text)
    elif kind == "active":
        mark = f'<circle cx="{x + 8}" cy="{y - 5}" r="8" fill="#FFFFFF" stroke="#111111" stroke-width="4"/>'
    elif kind == "arrow-attack":
        mark = (f'<line x1="{x}" y1="{y - 5}" x2="{x + 22}" y2="{y - 5}" stroke="{colour}" '
                'stroke-width="2.4"/>')
    elif kind == "arrow-range":
        mark = (f'<line x1="{x}" y1="{y - 5}" x2="{x + 22}" y2="{y - 5}" stroke="{colour}" stroke-width="2" '
                'stroke-dasharray="6 4"/>')
    else:
        mark = ""
    return (f'<g class="legend" data-kind="{escape(kind)}"><g class="mark">{mark}</g>'
            f'<text x="{x + 38}" y="{y:.1f}" font-size="15" '
            f'fill="#333333">{escape(text)}</text></g>')


def _seat(
    seat: Seat, position: tuple[float, float], radius: float, colours: dict[str, str], number: int,
    label: Label,
) -> str:
    x, y = position
    won = seat.result == "won"
    if not seat.in_game and not won:
        fill, opacity = LEFT_COLOUR, "0.45"
    elif seat.face_down:
        fill, opacity = HIDDEN_COLOUR, "1"
    else:
        fill, opacity = colours.get(seat.team or "", NO_TEAM_COLOUR), "1"
    stroke, stroke_width = ("#111111", "5") if seat.active else ("#555555", "1.5")
    if won:
        stroke, stroke_width = "#D4A017", "5"
    name = escape(seat.name)
    tooltip = [seat.name]
    if seat.team and not seat.face_down:
        tooltip.append(f"team: {seat.team}")
    if seat.identity and not seat.face_down:
        tooltip.append(f"identity: {seat.identity}")
    if seat.face_down:
        tooltip.append("identity face down")
    if won:
        tooltip.append("won the game")
    elif not seat.in_game:
        tooltip.append("has left the game")
    parts = [
        f'<g class="seat{" left" if not seat.in_game else ""}{" active" if seat.active else ""}'
        f'{" won" if won else ""}" '
        f'data-player="{name}" opacity="{opacity}">',
        f"<title>{escape(' · '.join(tooltip))}</title>",
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{stroke_width}"/>',
        f'<text class="seat-number" x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" font-size="17" '
        f'font-weight="bold" '
        f'fill="#111111">{number}</text>',
        _label_svg(label, strike=not seat.in_game and not won),
    ]
    if seat.monarch:
        parts.append(_crown(x, y - radius + 6))
    if seat.initiative:
        parts.append(_badge("initiative", x + radius * 0.75, y - radius * 0.75, "I", "#6C3483",
                            "has the initiative"))
    if seat.emperor:
        parts.append(_badge("emperor", x - radius * 0.75, y + radius * 0.75, "E", "#B9770E", "an emperor"))
    parts.append("</g>")
    return "".join(parts)
