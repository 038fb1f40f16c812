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
    legend: tuple[str, ...] = field(default=())


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


def _crown(x: float, y: float) -> str:
    # A three-pointed crown whose base sits at (x, y).
    w, h = 26.0, 16.0
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
        f'<g class="crown"><title>the monarch</title>'
        f'<polygon points="{path}" fill="#F2C200" stroke="#8A6D00" stroke-width="1.5"/></g>'
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


def render_svg(picture: TablePicture, *, size: int = 520) -> str:
    """The table as a standalone SVG document (a string starting with ``<svg``)."""
    seats = picture.seats
    n = len(seats)
    centre = size / 2
    seat_radius = 34.0 if n <= 6 else 28.0
    ring = size / 2 - seat_radius - 46
    positions = seat_positions(n, centre, ring)
    where = {seat.name: positions[i] for i, seat in enumerate(seats)}
    colours = team_colours(seats)
    height = size + 22 * (1 + len(picture.legend)) + 10
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {height}" width="{size}" '
        f'height="{height}" font-family="sans-serif" role="img" aria-label="the table">',
        "<defs>"
        '<marker id="head-attack" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#C0392B"/></marker>'
        '<marker id="head-range" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#2E86C1"/></marker>'
        "</defs>",
        f'<rect x="0" y="0" width="{size}" height="{height}" fill="#FFFFFF"/>',
        f'<ellipse cx="{centre}" cy="{centre}" rx="{ring - seat_radius - 42:.1f}" '
        f'ry="{ring - seat_radius - 42:.1f}" fill="#F3EBDD" stroke="#C8B89A" stroke-width="2"/>',
        f'<text x="{centre}" y="{centre + 5}" text-anchor="middle" font-size="13" fill="#7A6A4F">'
        "turn order: clockwise</text>",
    ]
    for arrow in picture.arrows:
        if arrow.source not in where or arrow.target not in where or arrow.source == arrow.target:
            continue
        bend = 14.0 if arrow.kind == "attack" else -14.0
        d = _arrow_path(where[arrow.source], where[arrow.target], seat_radius, bend)
        if arrow.kind == "attack":
            style = 'stroke="#C0392B" stroke-width="2.2" marker-end="url(#head-attack)"'
        else:
            style = 'stroke="#2E86C1" stroke-width="1.8" stroke-dasharray="6 4" marker-end="url(#head-range)"'
        label = "can attack" if arrow.kind == "attack" else "has within range of influence"
        out.append(
            f'<path class="arrow-{arrow.kind}" d="{d}" fill="none" {style}>'
            f"<title>{escape(arrow.source)} {label} {escape(arrow.target)}</title></path>"
        )
    for index, seat in enumerate(seats):
        out.append(_seat(seat, positions[index], seat_radius, colours, index + 1))
    y = size + 16
    if picture.caption:
        out.append(
            f'<text x="12" y="{y}" font-size="13" fill="#333333">{escape(picture.caption)}</text>'
        )
        y += 22
    for line in picture.legend:
        out.append(f'<text x="12" y="{y}" font-size="12" fill="#555555">{escape(line)}</text>')
        y += 22
    out.append("</svg>")
    return "".join(out)


def _seat(
    seat: Seat, position: tuple[float, float], radius: float, colours: dict[str, str], number: int
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
    strike = ' text-decoration="line-through"' if not seat.in_game and not won else ""
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
        f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="15" font-weight="bold" '
        f'fill="#111111">{number}</text>',
        f'<text class="name" x="{x:.1f}" y="{y + radius + 17:.1f}" text-anchor="middle" font-size="14" '
        f'fill="#111111"{strike}>'
        f"{escape(short(seat.name))}</text>",
    ]
    details: list[str] = []
    if seat.face_down:
        details.append("? face down")
    elif seat.identity:
        details.append(seat.identity)
    elif seat.team:
        details.append(seat.team)
    if seat.emperor:
        details.append("emperor")
    if seat.life is not None and seat.in_game:
        details.append(f"♥ {seat.life}")
    if won:
        details.append("won ★")
    elif seat.result == "lost":
        details.append("lost")
    elif not seat.in_game:
        details.append("left")
    if details:
        parts.append(
            f'<text x="{x:.1f}" y="{y + radius + 33:.1f}" text-anchor="middle" font-size="12" '
            f'fill="#333333">{escape(short(" · ".join(details), 26))}</text>'
        )
    if seat.active:
        parts.append(
            f'<text class="active-mark" x="{x:.1f}" y="{y - radius - (22 if seat.monarch else 6):.1f}" '
            f'text-anchor="middle" font-size="12" font-weight="bold" fill="#111111">▶ active</text>'
        )
    if seat.monarch:
        parts.append(_crown(x, y - radius - 2))
    if seat.initiative:
        parts.append(
            f'<g class="initiative"><title>has the initiative</title>'
            f'<rect x="{x + radius - 10:.1f}" y="{y - radius:.1f}" width="18" height="18" rx="4" '
            f'fill="#6C3483"/><text x="{x + radius - 1:.1f}" y="{y - radius + 13:.1f}" '
            f'text-anchor="middle" font-size="12" font-weight="bold" fill="#FFFFFF">I</text></g>'
        )
    parts.append("</g>")
    return "".join(parts)
