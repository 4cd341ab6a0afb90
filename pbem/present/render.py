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
                "face_down": false, "id": "GER-7A", "steps": [1, 2], "highlight": "move|combat"}],
     "highlights": [{"hex": "0405", "kind": "combat|move"}],
     "sides": {"axis": {"name": "Axis", "fill": "#...", "ink": "#..."}}}

Every hex is numbered XXYY at its top, as printed wargame maps are, so the
orders a player writes can be read off the map. Optional unit fields: ``id``,
the unit's name in the game's events (never drawn: it lets
:func:`highlight_events` find the units an event names); ``steps``, ``[left,
full]``, drawn as pips (filled for steps left, hollow for steps lost);
``highlight``, "move" or "combat": the counter is outlined in that colour
(units that moved or fought in the files the reader has not seen).

A ``face_down`` counter (optional, default false) is a hidden unit: drawn as a
blank counter in its side's colour, with no text, sub-text, flags, steps,
highlight or tooltip, whatever the picture holds in them (a game should leave
them out anyway).

The part of a picture that never changes in a game (terrain, hexsides, lines,
places, hex numbers) is drawn once per process and reused (:func:`static_key`).

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


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept in the home's cache folder, as Python keeps .pyc files.

    Compiling the summary's and the mail's templates was 0.15 s of every `play`
    (issue 11). Jinja keys each entry by template name and checks the source's
    checksum, so an edited template is compiled again; writes are atomic.
    """
    from pbem.store import paths
    from pbem.store.fsutil import make_dirs

    folder = paths.cache_dir()
    if folder is None:
        return None
    try:
        make_dirs(folder / "templates")  # 0700, as every folder of a home
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder / "templates"))


# One environment per templates folder and cache folder: it keeps the templates it loaded,
# and a `play` renders the map, the summary (twice) and the notice.
_ENVS: dict[tuple[Path, Path | None], jinja2.Environment] = {}


def environment() -> jinja2.Environment:
    from pbem.store import paths

    key = (templates_dir(), paths.cache_dir())
    env = _ENVS.get(key)
    if env is None:
        env = _ENVS[key] = _environment(key[0])
    return env


def _environment(folder: Path) -> jinja2.Environment:
    # Plain-text templates (*.txt.j2) must not be HTML-escaped; everything else is.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        bytecode_cache=_bytecode_cache(),
        autoescape=_autoescape,  # noqa: S701 - escapes everything but plain-text templates
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["map_legend"] = legend
    return env


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


# Hex numbers: font size and baseline below the hex's top edge (SVG units), clear of the counters.
NUMBER_SIZE = 4.0
NUMBER_DROP = 3.7
# Counters: 16 x 12 units; a stack's next counter is drawn this much right and down, so the hex
# number above stays visible.
COUNTER_TOP, STACK_DX, STACK_DY = -7.0, 2.5, 2.0


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
    numbers: list[dict[str, Any]] = field(default_factory=list)
    static_key: str = ""
    number_size: float = NUMBER_SIZE

    def fills(self) -> dict[str, str]:
        """Each hex's outline as SVG path data, grouped by fill: one path per terrain, no repeated markup."""
        out: dict[str, list[dict[str, Any]]] = {}
        for h in self.hexes:
            out.setdefault(h["fill"], []).append(h)
        return {fill: _hexes_path(hs) for fill, hs in out.items()}

    def number_columns(self) -> list[tuple[float, list[tuple[float, str]]]]:
        """The hex numbers by column (x), each with its baselines: the SVG writes each x once."""
        cols: dict[float, list[tuple[float, str]]] = {}
        for n in self.numbers:
            cols.setdefault(round(n["x"], 1), []).append((n["y"], n["text"]))
        return sorted(cols.items())

    def owners(self) -> dict[str, str]:
        """The outlines of the hexes each side controls, one path per side colour."""
        out: dict[str, list[dict[str, Any]]] = {}
        for h in self.hexes:
            side = self.sides.get(h.get("owner") or "")
            if side:
                out.setdefault(side["fill"], []).append(h)
        return {fill: _hexes_path(hs) for fill, hs in out.items()}

    def edge_paths(self) -> dict[str, str]:
        """Hexsides as one path per kind (dashes restart at each subpath, as in the PNG)."""
        out: dict[str, list[str]] = {}
        for e in self.edges:
            out.setdefault(e["kind"], []).append(f"M{e['x1']:.1f} {e['y1']:.1f} {e['x2']:.1f} {e['y2']:.1f}")
        return {kind: "".join(ds) for kind, ds in sorted(out.items())}


# One flat-topped hex from its right corner, clockwise (SVG's y points down), in relative steps.
_HALF, _RISE = HEX / 2, SQ3 * HEX / 2
_HEX_STEPS = f"l{-_HALF:g} {_RISE:.1f}h{-HEX:g}l{-_HALF:g} {-_RISE:.1f} {_HALF:g} {-_RISE:.1f}h{HEX:g}z"


def _tenths(v: float) -> int:
    return round(v * 10)


def _num(tenths: int) -> str:
    sign = "-" if tenths < 0 else ""
    whole, frac = divmod(abs(tenths), 10)
    return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"


def _hexes_path(hexes: list[dict[str, Any]]) -> str:
    """Hex outlines as one path: each a relative move from the last one's start, then the same steps."""
    out, px, py = [], 0, 0
    for i, h in enumerate(hexes):
        x, y = _tenths(h["cx"] + HEX), _tenths(h["cy"])
        out.append(f"{'M' if i == 0 else 'm'}{_num(x - px)} {_num(y - py)}{_HEX_STEPS}")
        px, py = x, y
    return "".join(out)


def static_key(picture: dict[str, Any]) -> str:
    """A digest of what never changes in a game's pictures (all but owners, units and highlights)."""
    import hashlib
    import json

    hexes = [{k: v for k, v in h.items() if k != "owner"} for h in picture.get("hexes", [])]
    fixed = {k: v for k, v in picture.items() if k not in ("hexes", "units", "highlights")}
    blob = json.dumps([fixed, hexes], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


# The last picture laid out, and its layout: a summary draws its map as SVG, then the mail
# draws the same picture as PNG (a picture is not changed once drawn).
_LAST_LAYOUT: list[tuple[dict[str, Any], MapSvg]] = []


def layout(picture: dict[str, Any]) -> MapSvg:
    if _LAST_LAYOUT and _LAST_LAYOUT[0][0] is picture:
        return _LAST_LAYOUT[0][1]
    m = _layout(picture)
    _LAST_LAYOUT[:] = [(picture, m)]
    return m


def _layout(picture: dict[str, Any]) -> MapSvg:
    cols, rows = int(picture["cols"]), int(picture["rows"])
    w = HEX * (1.5 * cols + 0.5) + 2
    h = SQ3 * HEX * (rows + 0.5) + 2
    m = MapSvg(w, h, sides=picture.get("sides", {}), static_key=static_key(picture))
    grid = picture_grid(picture)
    for hx in picture.get("hexes", []):
        c, r = _cr(hx["id"])
        cx, cy = hex_center(c, r, grid)
        xy = hex_corners(c, r, grid)
        m.hexes.append({**hx, "points": _svg_points(xy), "xy": xy, "cx": cx, "cy": cy})
        m.numbers.append({"x": cx, "y": cy - SQ3 * HEX / 2 + NUMBER_DROP, "text": hx["id"]})
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
        m.units.append({"text": "", "sub": "", "flags": [], **u,
                        "x": cx - 8 + STACK_DX * i, "y": cy + COUNTER_TOP + STACK_DY * i,
                        "face_down": bool(u.get("face_down")), "pips": _pips(u.get("steps")),
                        "hl": u.get("highlight") if u.get("highlight") in ("move", "combat") else None,
                        "fill": side.get("fill", "#888"), "ink": side.get("ink", "#000")})
    for hl in picture.get("highlights", []):
        xy = hex_corners(*_cr(hl["hex"]), grid)
        m.highlights.append({**hl, "points": _svg_points(xy), "xy": xy})
    return m


def _pips(steps: Any) -> list[tuple[float, float, bool]]:
    """Step pips on a counter's right edge, bottom up, as (dx, dy, filled): a filled one per step left."""
    if not (isinstance(steps, (list, tuple)) and len(steps) == 2 and all(isinstance(v, int) for v in steps)):
        return []
    left, full = max(0, steps[0]), min(max(0, steps[1]), 4)
    return [(14.4, round(10.2 - 2.6 * k, 1), k < left) for k in range(full)]


def _event_units(e: dict[str, Any]) -> list[str]:
    names = [e.get("unit"), e.get("attacker"), e.get("defender"), *(e.get("attackers") or [])]
    return [n for n in names if isinstance(n, str)]


def highlight_events(picture: dict[str, Any] | None, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``picture`` with the units the ``events`` name highlighted (a copy; None stays None).

    Generic over games: an event names units in ``unit``, ``attacker``,
    ``defender`` or ``attackers``, matched against the units' ``id``; a kind
    containing "combat", "attack" or "strike" makes it a fight (its ``target``
    hex is ringed too), any other naming a unit with a ``to`` or ``path`` a move.
    A highlight the game already set is kept.
    """
    if not picture or not events:
        return picture
    marks: dict[str, str] = {}
    targets: list[str] = []
    for e in events:
        kind = str(e.get("kind", ""))
        fight = any(w in kind for w in ("combat", "attack", "strike"))
        if not fight and "to" not in e and "path" not in e:
            continue
        for n in _event_units(e):
            marks[n] = "combat" if fight or marks.get(n) == "combat" else "move"
        where = e.get("target")
        if fight and isinstance(where, str) and where not in targets:
            targets.append(where)
    units = [{**u, "highlight": marks[u["id"]]} if u.get("id") in marks and not u.get("highlight")
             and not u.get("face_down") else u for u in picture.get("units", [])]
    ids = {h.get("id") for h in picture.get("hexes", [])}
    have = {(h.get("hex"), h.get("kind")) for h in picture.get("highlights", [])}
    extra = [{"hex": t, "kind": "combat"} for t in targets if t in ids and (t, "combat") not in have]
    return {**picture, "units": units, "highlights": [*picture.get("highlights", []), *extra]}


def legend(picture: dict[str, Any] | None) -> list[dict[str, str]]:
    """What the map's signs mean, for the page beside it: only the signs this picture uses."""
    if not picture:
        return []
    from pbem.present import raster

    hexes, units = picture.get("hexes", []), picture.get("units", [])
    out = [{"sign": "number", "text": "XXYY at the top of a hex: its number, as orders name it"}]
    for name, side in picture.get("sides", {}).items():
        if any(u.get("side") == name for u in units) or any(h.get("owner") == name for h in hexes):
            out.append({"sign": "side", "colour": side.get("fill", "#888"),
                        "text": f"{side.get('name', name)}: counters; a hex edged in this colour is theirs"})
    markers = {h.get("marker") for h in hexes}
    for kind, text in (("capital", "capital"), ("city", "city"), ("port", "port"), ("factory", "factory city")):
        if kind in markers:
            colour = raster.CAPITAL_FILL if kind == "capital" else raster.MARKER_FILL[kind]
            out.append({"sign": "square" if kind == "capital" else "dot", "colour": colour, "text": text})
    kinds = {e.get("kind") for e in picture.get("hexsides", [])} | {ln.get("kind") for ln in picture.get("lines", [])}
    for kind, colour, text in (("river", raster.EDGE_INK["river"], "river hexside"),
                               ("border", raster.EDGE_INK["border"], "border"),
                               ("rail", raster.LINE_INK, "transport line")):
        if kind in kinds:
            out.append({"sign": "line", "colour": colour, "text": text})
    if any(u.get("steps") for u in units):
        out.append({"sign": "text", "text": "pips on a counter: steps left (hollow: lost)"})
    flags = {f for u in units for f in u.get("flags", [])}
    for flag, text in (("low-supply", "low supply"), ("no-supply", "out of supply")):
        if flag in flags:
            out.append({"sign": "dot", "colour": raster.SUPPLY_DOT[flag], "text": text})
    marked = {u.get("highlight") for u in units} | {h.get("kind") for h in picture.get("highlights", [])}
    for kind, text in (("move", "moved since your last turn"), ("combat", "fought since your last turn")):
        if kind in marked:
            out.append({"sign": "ring", "colour": raster.HIGHLIGHT_INK[kind], "text": text})
    if any(u.get("face_down") for u in units):
        out.append({"sign": "text", "text": "a blank counter: a hidden unit"})
    return out


def map_svg(picture: dict[str, Any] | None) -> str:
    if not picture:
        return ""
    return environment().get_template("map.svg.j2").render(m=layout(picture))


# Pixels per SVG unit in the mailed PNG (the SVG's own size is 1.4 per unit): drawn without
# supersampling in 24 colours (zlib level 8), the France 1940 map is ~54 KB with its hex numbers
# still legible (32 colours at level 9: 57 KB, and 0.08 s more; no difference to the eye);
# at 1.75, 2x supersampled and 96 colours it was 115 KB (docs/performance.md, "Map and mail size").
PNG_PX = 1.5


def map_png(picture: dict[str, Any], *, px: float = PNG_PX, colors: int = 24, supersample: int = 1) -> bytes:
    """The map picture as a PNG, for mail clients that block SVG (drawn with Pillow: README, Dependencies).

    Drawn from the same layout as map_svg, so the two agree. ``supersample``:
    drawn that many times larger, then shrunk, to smooth Pillow's jagged edges
    (off by default: crisp one-pixel lines compress far better, as printed maps look).
    """
    from pbem.present import raster

    m = layout(picture)
    img = raster.draw(m, px, supersample)
    exact = [raster.SEA, *sorted({h["fill"] for h in m.hexes} | {u["fill"] for u in m.units}),
             *raster.HIGHLIGHT_INK.values()]
    return raster.palette_png(img, colors, exact)


def data_uri_png(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def render_html(ctx: dict[str, Any], *, map_src: str | None = None) -> str:
    """The summary page. ``map_src`` set: an <img> (cid: in mail); else the SVG inline."""
    return environment().get_template("summary.html.j2").render(**ctx, map_src=map_src)


def render_text(ctx: dict[str, Any]) -> str:
    return environment().get_template("summary.txt.j2").render(**ctx)
