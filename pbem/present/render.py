"""Rendering: the turn summary (HTML and plain text) and the map picture.

Games describe what to draw; this module draws it, so every game gets the same
summary layout and no game touches templates or mail. A game's
``RulesModule.summary_view`` returns:

* ``map``: a *map picture* (below) or None;
* ``tables``: ``[{"title", "columns": [...], "rows": [[...], ...]}]``;
* ``facts``: ``[[label, value], ...]`` (turn, weather, ...).

A map picture (hex maps; flat-topped hexes, XXYY ids; ``low_columns``, optional,
"even" (default, as on most wargame maps) or "odd": the columns drawn half a hex
lower, the column convention of pbem.kit.hexgrid)::

    {"type": "hex", "cols": int, "rows": int, "low_columns": "even",
     "hexes": [{"id": "0405", "fill": "#rrggbb", "label": "Paris",
                "marker": "capital|city|port|factory|none", "owner": side or None}],
     "hexsides": [{"a": "0405", "b": "0406", "kind": "river|border|coast"}],
     "lines": [{"hexes": ["0405", "0505", ...], "kind": "rail"}],
     "units": [{"hex": "0405", "text": "7A", "sub": "6-4", "side": "axis", "flags": ["low-supply"],
                "face_down": false}],
     "highlights": [{"hex": "0405", "kind": "combat|move"}],
     "sides": {"axis": {"name": "Axis", "fill": "#...", "ink": "#..."}}}

A ``face_down`` counter (optional, default false) is a hidden unit: drawn as a
blank counter in its side's colour, with no text, sub-text, flags or tooltip,
whatever the picture holds in them (a game should leave them out anyway).

The mailed summary is rendered from the public view only; ``pbem show``
renders the player's own private view locally.
"""

from __future__ import annotations

import base64
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from pbem.errors import InvalidInput
from pbem.kit.hexgrid import EVEN_COLUMNS_LOW, GRIDS, SQ3, Grid
from pbem.kit.share import find_shared

HEX = 14.0  # centre-to-corner in SVG units


def templates_dir() -> Path:
    """PBEM_TEMPLATES, else the checkout's templates/, else the installed copy (share/pbem/templates)."""

    env = os.environ.get("PBEM_TEMPLATES")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2] / "templates"
    if repo.is_dir():
        return repo
    return find_shared("templates")


def _autoescape(name: str | None) -> bool:
    return name is None or not name.endswith(".txt.j2")


def environment() -> jinja2.Environment:
    # Plain-text templates (*.txt.j2) must not be HTML-escaped; everything else is.
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=_autoescape,  # noqa: S701 - escapes everything but plain-text templates
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def hex_center(col: int, row: int, grid: Grid = EVEN_COLUMNS_LOW) -> tuple[float, float]:
    return grid.center(col, row, HEX)


def hex_corners(col: int, row: int, grid: Grid = EVEN_COLUMNS_LOW) -> list[tuple[float, float]]:
    return grid.corners(col, row, HEX)


def picture_grid(picture: dict[str, Any]) -> Grid:
    """The column convention a map picture is drawn with (``low_columns``, default "even")."""
    name = picture.get("low_columns", "even")
    if name not in GRIDS:
        raise InvalidInput(f"map picture: low_columns must be 'even' or 'odd', got {name!r}",
                           hint="the game's summary_view drew a picture this renderer cannot read")
    return GRIDS[name]


def _svg_points(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _cr(hex_id: str) -> tuple[int, int]:
    return int(hex_id[:2]), int(hex_id[2:])


def _edge(a: str, b: str, grid: Grid) -> tuple[float, float, float, float] | None:
    """The shared edge of two adjacent hexes, as a segment."""
    ax, ay = hex_center(*_cr(a), grid)
    bx, by = hex_center(*_cr(b), grid)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    if n == 0 or n > 2 * HEX:
        return None
    # the edge is perpendicular to the centre line, HEX/2 each side of the midpoint
    px, py = -dy / n * HEX / 2, dx / n * HEX / 2
    return mx - px, my - py, mx + px, my + py


@dataclass
class MapSvg:
    width: float
    height: float
    hexes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    units: list[dict[str, Any]] = field(default_factory=list)
    labels: list[dict[str, Any]] = field(default_factory=list)
    highlights: list[dict[str, Any]] = field(default_factory=list)
    sides: dict[str, Any] = field(default_factory=dict)


def layout(picture: dict[str, Any]) -> MapSvg:
    cols, rows = int(picture["cols"]), int(picture["rows"])
    w = HEX * (1.5 * cols + 0.5) + 2
    h = SQ3 * HEX * (rows + 0.5) + 2
    m = MapSvg(w, h, sides=picture.get("sides", {}))
    grid = picture_grid(picture)
    for hx in picture.get("hexes", []):
        c, r = _cr(hx["id"])
        cx, cy = hex_center(c, r, grid)
        xy = hex_corners(c, r, grid)
        m.hexes.append({**hx, "points": _svg_points(xy), "xy": xy, "cx": cx, "cy": cy})
        if hx.get("label"):
            m.labels.append({"x": cx, "y": cy + HEX * 0.78, "text": hx["label"]})
    for e in picture.get("hexsides", []):
        seg = _edge(e["a"], e["b"], grid)
        if seg:
            m.edges.append({"kind": e["kind"], "x1": seg[0], "y1": seg[1], "x2": seg[2], "y2": seg[3]})
    for ln in picture.get("lines", []):
        xy = [hex_center(*_cr(h), grid) for h in ln["hexes"]]
        m.lines.append({"kind": ln["kind"], "points": _svg_points(xy), "xy": xy})
    stacks: dict[str, int] = {}
    for u in picture.get("units", []):
        i = stacks.get(u["hex"], 0)
        stacks[u["hex"]] = i + 1
        cx, cy = hex_center(*_cr(u["hex"]), grid)
        side = m.sides.get(u.get("side", ""), {})
        if u.get("face_down"):
            # Only where it is and whose: nothing a hidden unit's picture held reaches the drawing.
            u = {"hex": u["hex"], "side": u.get("side", ""), "face_down": True, "text": "", "sub": "", "flags": []}
        m.units.append({**u, "x": cx - 8 + 2.5 * i, "y": cy - 8 - 2.5 * i, "face_down": bool(u.get("face_down")),
                        "fill": side.get("fill", "#888"), "ink": side.get("ink", "#000")})
    for hl in picture.get("highlights", []):
        xy = hex_corners(*_cr(hl["hex"]), grid)
        m.highlights.append({**hl, "points": _svg_points(xy), "xy": xy})
    return m


def map_svg(picture: dict[str, Any] | None) -> str:
    if not picture:
        return ""
    return environment().get_template("map.svg.j2").render(m=layout(picture))


# Pixels per SVG unit in the mailed PNG: the SVG's own size (1.4 per unit) times 1.25,
# where small counters and names stay readable in a mail client's column.
PNG_PX = 1.75


def map_png(picture: dict[str, Any], *, px: float = PNG_PX, colors: int = 96, supersample: int = 2) -> bytes:
    """The map picture as a PNG, for mail clients that block SVG (drawn with Pillow: README, Dependencies).

    Drawn from the same layout as map_svg, so the two agree. ``supersample``:
    drawn that many times larger, then shrunk, to smooth Pillow's jagged edges.
    """
    from pbem.present import raster

    m = layout(picture)
    img = raster.draw(m, px, supersample)
    exact = [raster.SEA, *{h["fill"] for h in m.hexes}, *{u["fill"] for u in m.units}]
    return raster.palette_png(img, colors, exact)


def data_uri_png(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def render_html(ctx: dict[str, Any], *, map_src: str | None = None) -> str:
    """The summary page. ``map_src`` set: an <img> (cid: in mail); else the SVG inline."""
    return environment().get_template("summary.html.j2").render(**ctx, map_src=map_src)


def render_text(ctx: dict[str, Any]) -> str:
    return environment().get_template("summary.txt.j2").render(**ctx)
