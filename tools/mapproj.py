"""What the map authoring tools share.

The maps (tools/author_map_use.py, tools/author_map_eurofront.py, tools/author_map_wie.py)
lay a hex grid over the Natural Earth polygons projected with a Lambert azimuthal
equal-area projection centred on the map, so that every hex covers the same ground.  The
EuroFront and WiE tools also share the grid geometry (HexFrame, given the hex size, turn
and numbering), the shapefile rasteriser, the land/sea and hexside marking and the walk
that lays a river along hexsides: they are here, once.  pyshp is imported by
``rasterise`` only (authoring, never play).  The tools put the repository on sys.path
before importing this module (it reads pbem.kit.hexgrid).
"""

from __future__ import annotations

import argparse
import cmath
import math
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.kit.hexgrid import DIRECTIONS, Direction, Grid, Hex, parse_hex

if TYPE_CHECKING:
    from pbem.kit.records import Record

EARTH_KM = 6371.0
SHAPEFILE = Path("/work/shared/geo/ne_10m_admin_0_countries_deu.zip")
SOURCE = "Natural Earth 1:10m admin 0 countries (public domain), version 5.1.1"


@dataclass(frozen=True)
class Lambert:
    """Lambert azimuthal equal-area projection centred on (``lat0``, ``lon0``), in radians; km."""

    lat0: float
    lon0: float

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        lat0, lon0 = self.lat0, self.lon0
        p, dl = math.radians(lat), math.radians(lon) - lon0
        k = math.sqrt(2 / (1 + math.sin(lat0) * math.sin(p) + math.cos(lat0) * math.cos(p) * math.cos(dl)))
        x = EARTH_KM * k * math.cos(p) * math.sin(dl)
        y = EARTH_KM * k * (math.cos(lat0) * math.sin(p) - math.sin(lat0) * math.cos(p) * math.cos(dl))
        return x, y

    def unproject(self, x: float, y: float) -> tuple[float, float]:
        lat0, lon0 = self.lat0, self.lon0
        rho = math.hypot(x, y)
        if rho < 1e-9:
            return math.degrees(lon0), math.degrees(lat0)
        c = 2 * math.asin(rho / (2 * EARTH_KM))
        lat = math.asin(math.cos(c) * math.sin(lat0) + y * math.sin(c) * math.cos(lat0) / rho)
        lon = lon0 + math.atan2(x * math.sin(c), rho * math.cos(lat0) * math.cos(c) - y * math.sin(lat0) * math.sin(c))
        return math.degrees(lon), math.degrees(lat)


def inside(pt: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    """Even-odd point in polygon (lon/lat polygons of the authored layers)."""
    x, y = pt
    result, j = False, len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            result = not result
        j = i
    return result


# --- grid geometry ------------------------------------------------------------------------------
class HexFrame:
    """A hex grid laid over the projected plane (km): numbering (``grid``, ``cols`` x ``rows``),
    hex size (``size_km``, centre to corner) and turn (``rotation``, radians) with the projection.

    Subclasses say where a hex's centre is and which hex holds a point; everything the map
    tools derive from that (corners, hexsides, river walks, sampling) is here, once.
    """

    def __init__(self, proj: Lambert, grid: Grid, cols: int, rows: int, size_km: float,
                 rotation: float = 0.0) -> None:
        self.proj, self.grid, self.cols, self.rows = proj, grid, cols, rows
        self.size_km, self.rotation = size_km, rotation

    def centre(self, h: Hex) -> tuple[float, float]:
        raise NotImplementedError

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing projected point (x, y)."""
        raise NotImplementedError

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        size, rot = self.size_km, self.rotation
        return [(cx + size * math.cos(rot + math.radians(t)), cy + size * math.sin(rot + math.radians(t)))
                for t in range(0, 360, 60)]

    def hex_of(self, lon: float, lat: float) -> Hex:
        return self.hex_at(*self.proj.project(lon, lat))

    def on_grid(self, h: Hex) -> bool:
        return 1 <= h.col <= self.cols and 1 <= h.row <= self.rows

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the grid, column by column."""
        return (Hex(c, r) for c in range(1, self.cols + 1) for r in range(1, self.rows + 1))


class NorthUpFrame(HexFrame):
    """Columns run east, rows south: the centre of 0101 at (``x0``, ``y0``), ``across_km`` across the flats."""

    def __init__(self, proj: Lambert, grid: Grid, cols: int, rows: int, x0: float, y0: float,
                 across_km: float) -> None:
        super().__init__(proj, grid, cols, rows, across_km / math.sqrt(3))
        self.x0, self.y0, self.across_km = x0, y0, across_km

    def centre(self, h: Hex) -> tuple[float, float]:
        q = h.col - 1
        return (self.x0 + 1.5 * self.size_km * q,
                self.y0 - self.across_km * ((h.row - 1) + (0.5 if self.grid.is_low(h.col) else 0.0)))

    def hex_at(self, x: float, y: float) -> Hex:
        col = round((x - self.x0) / (1.5 * self.size_km)) + 1
        best: tuple[float, Hex] | None = None
        for c in (col - 1, col, col + 1):
            off = 0.5 if self.grid.is_low(c) else 0.0
            r = round((self.y0 - y) / self.across_km - off) + 1
            for rr in (r - 1, r, r + 1):
                d = math.dist(self.centre(Hex(c, rr)), (x, y))
                if best is None or d < best[0]:
                    best = (d, Hex(c, rr))
        assert best is not None
        return best[1]


class FittedFrame(HexFrame):
    """The similarity transform z = a*w + b from grid points w (pbem.kit.hexgrid drawing, one unit
    across, y flipped to grow north) to projected km z: |a| is the size, arg(a) the turn."""

    UNIT = 1 / math.sqrt(3)  # centre to corner of a hex one unit across the flats

    def __init__(self, proj: Lambert, grid: Grid, cols: int, rows: int, a: complex, b: complex) -> None:
        super().__init__(proj, grid, cols, rows, abs(a) * self.UNIT, cmath.phase(a))
        self.a, self.b = a, b

    def grid_point(self, h: Hex) -> complex:
        return unit_point(self.grid, h)

    def centre(self, h: Hex) -> tuple[float, float]:
        z = self.a * self.grid_point(h) + self.b
        return z.real, z.imag

    def hex_at(self, x: float, y: float) -> Hex:
        w = (complex(x, y) - self.b) / self.a
        col = round(w.real / (1.5 * self.UNIT)) + 1
        best: tuple[float, Hex] | None = None
        for c in (col - 1, col, col + 1):
            off = 0.5 if self.grid.is_low(c) else 0.0
            r = round(-w.imag - 0.5 - off) + 1
            for rr in (r - 1, r, r + 1):
                d = abs(self.grid_point(Hex(c, rr)) - w)
                if best is None or d < best[0]:
                    best = (d, Hex(c, rr))
        assert best is not None
        return best[1]


def unit_point(grid: Grid, h: Hex) -> complex:
    """A hex's centre in a drawing one unit across the flats, y growing north (FittedFrame's w)."""
    x, y = grid.center(h.col, h.row, FittedFrame.UNIT)
    return complex(x, -y)


def fit_similarity(pairs: list[tuple[complex, complex]]) -> tuple[complex, complex]:
    """Least-squares similarity z = a*w + b through (w, z) pairs."""
    mw = sum(w for w, _ in pairs) / len(pairs)
    mz = sum(z for _, z in pairs) / len(pairs)
    a = sum((z - mz) * (w - mw).conjugate() for w, z in pairs) / sum(abs(w - mw) ** 2 for w, _ in pairs)
    return a, mz - a * mw


# --- rasterising the shapefile --------------------------------------------------------------------
Raster = dict[tuple[int, int], str]


@dataclass(frozen=True)
class Lattice:
    """The sample points (x0 + j*step, y0 + i*step), j < ncols, i < nrows, covering a box (km)."""

    x0: float
    y0: float
    step: float
    ncols: int
    nrows: int

    @classmethod
    def cover(cls, xmin: float, ymin: float, xmax: float, ymax: float, step: float) -> Lattice:
        return cls(xmin, ymin, step, int((xmax - xmin) / step) + 1, int((ymax - ymin) / step) + 1)

    def point(self, j: int, i: int) -> tuple[float, float]:
        return self.x0 + j * self.step, self.y0 + i * self.step

    def index(self, x: float, y: float) -> tuple[int, int]:
        return round((x - self.x0) / self.step), round((y - self.y0) / self.step)


def rasterise(shapefile_zip: Path, proj: Lambert, lattice: Lattice, clamp: tuple[float, float, float, float],
              country_of: dict[str, str], refine: Callable[[str, float, float], str]) -> Raster:
    """The country at each lattice point on land (scanline, even-odd over the Natural Earth rings).

    ``country_of`` maps ADM0_A3 to the map's codes (others are skipped); ``refine(code, lon, lat)``
    redraws history at a point.  Rings are clamped to the lon/lat box ``clamp`` (west, south,
    east, north), well outside the map: the fill inside is unchanged and far rings collapse
    onto the box's edge.
    """
    import shapefile  # type: ignore[import-untyped]  # pyshp, authoring only

    west, south, east, north = clamp
    step, ymin, nrows = lattice.step, lattice.y0, lattice.nrows
    crossings: dict[tuple[int, str], list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(shapefile_zip) as z:
            z.extractall(tmp)
        reader = shapefile.Reader(str(next(Path(tmp).glob("*.shp")).with_suffix("")))
        for rec, shape in zip(reader.records(), reader.shapes(), strict=True):
            code = country_of.get(rec["ADM0_A3"])
            if code is None:
                continue
            for a, b in pairwise([*shape.parts, len(shape.points)]):
                ring = [proj.project(min(east, max(west, lon)), min(north, max(south, lat)))
                        for lon, lat in shape.points[a:b]]
                for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
                    lo, hi = min(y1, y2), max(y1, y2)
                    for i in range(max(0, math.ceil((lo - ymin) / step)),
                                   min(nrows - 1, math.floor((hi - ymin) / step)) + 1):
                        y = ymin + i * step
                        if (y1 > y) != (y2 > y):
                            crossings[(i, code)].append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    raster: Raster = {}
    for (i, code), xs in sorted(crossings.items()):
        xs.sort()
        for x_in, x_out in zip(xs[::2], xs[1::2], strict=True):
            for j in range(math.ceil((x_in - lattice.x0) / step), math.floor((x_out - lattice.x0) / step) + 1):
                raster[(j, i)] = refine(code, *proj.unproject(*lattice.point(j, i)))
    return raster


def sample_hexes(frame: HexFrame, raster: Raster, lattice: Lattice) -> dict[Hex, Counter[str | None]]:
    """The lattice points of each hex of the grid by country (None: sea)."""
    samples: dict[Hex, Counter[str | None]] = defaultdict(Counter)
    for j in range(lattice.ncols):
        for i in range(lattice.nrows):
            h = frame.hex_at(*lattice.point(j, i))
            if frame.on_grid(h):
                samples[h][raster.get((j, i))] += 1
    return samples


def terrain_votes(frame: HexFrame, h: Hex, regions: Sequence[tuple[str, str, list[tuple[float, float]]]]
                  ) -> Counter[str]:
    """The terrain (first authored region holding the point, else clear) at the centre and six
    inner points; each tool breaks ties its own way."""
    cx, cy = frame.centre(h)
    half = 0.5 * frame.size_km
    votes: Counter[str] = Counter()
    for x, y in [(cx, cy)] + [(cx + half * math.cos(math.radians(a)), cy + half * math.sin(math.radians(a)))
                              for a in range(30, 390, 60)]:
        lonlat = frame.proj.unproject(x, y)
        votes[next((t for t, _n, poly in regions if inside(lonlat, poly)), "clear")] += 1
    return votes


# --- hexes and hexsides -----------------------------------------------------------------------------
class HexCell:
    """What both maps record of a hex; each tool's subclass adds its own."""

    def __init__(self, h: Hex) -> None:
        self.hex = h
        self.country: str | None = None
        self.terrain = "sea"
        self.sea: set[str] = set()
        self.coastal = False
        self.sides: dict[str, set[str]] = defaultdict(set)


Cells = Mapping[Hex, HexCell]


def mark_coasts(frame: HexFrame, out: Cells) -> None:
    """A land hex next to a sea hex is coastal and touches that hex's sea areas."""
    for h, d in out.items():
        if d.country is None:
            continue
        wet = [n for n in frame.grid.neighbours(h) if frame.on_grid(n) and out[n].country is None]
        if wet:
            d.coastal = True
            d.sea.update(z for n in wet for z in out[n].sea)


def add_side(grid: Grid, d: HexCell, other: HexCell, kind: str) -> None:
    """A hexside feature, on both hexes."""
    direction = grid.direction_to(d.hex, other.hex)
    assert direction is not None
    d.sides[kind].add(direction.name)
    other.sides[kind].add(direction.opposite.name)


def mark_land_hexsides(frame: HexFrame, out: Cells, raster: Raster, lattice: Lattice,
                       rivers: set[tuple[Hex, Hex]], water: str) -> None:
    """Between two land hexes: ``water`` where the edge is all sea on the raster, else river."""
    for h, d in out.items():
        if d.country is None:
            continue
        for n in frame.grid.neighbours(h):
            if not frame.on_grid(n) or out[n].country is None or n < h:
                continue
            a, b = [c for c in frame.corners(h) if any(math.dist(c, o) < 1e-6 for o in frame.corners(n))]
            edge = [(a[0] + (b[0] - a[0]) * t / 8, a[1] + (b[1] - a[1]) * t / 8) for t in range(9)]
            if all(raster.get(lattice.index(x, y)) is None for x, y in edge):
                add_side(frame.grid, d, out[n], water)
            elif (h, n) in rivers:
                add_side(frame.grid, d, out[n], "river")


def side_attrs(sides: dict[str, set[str]], kinds: dict[str, str]) -> list[str]:
    """map.txt attributes ``kind=DIRS`` (DIRECTIONS order) for each kind: key into ``sides``."""
    order = [d.name for d in DIRECTIONS]
    return [f"{kind}=" + ",".join(sorted(sides[key], key=order.index)) for kind, key in kinds.items() if sides[key]]


def rail_chain(grid: Grid, stops: list[Hex], out: Cells, name: str) -> list[Hex]:
    """A rail line hex by hex: straight chains between its stops, never through the sea."""
    chain: list[Hex] = []
    for a, b in pairwise(stops):
        seg = list(grid.hex_line(a, b))
        chain.extend(seg[1:] if chain and chain[-1] == seg[0] else seg)
    wet = [str(h) for h in chain if out[h].country is None]
    if wet:
        raise SystemExit(f"rail line {name} runs through sea hexes {wet}: add a waypoint")
    return chain


def land_hex_near(frame: HexFrame, out: Cells, lon: float, lat: float, country: str, any_land: bool = False) -> Hex:
    """The hex of ``country`` nearest to a place among its hex and their neighbours (a place on a
    sliver of coast the grid puts at sea or abroad); with ``any_land``, else any land hex."""
    h, xy = frame.hex_of(lon, lat), frame.proj.project(lon, lat)
    near = [n for n in (h, *frame.grid.neighbours(h)) if frame.on_grid(n)]
    options = [n for n in near if out[n].country == country]
    if not options and any_land:
        options = [n for n in near if out[n].country is not None]
    if not options:
        raise SystemExit(f"no {'land' if any_land else country} hex near {lon},{lat}")
    return min(options, key=lambda n: math.dist(frame.centre(n), xy))


def place_records(places: Iterable[tuple[str, Hex, str]]) -> tuple[list[str], dict[str, Hex]]:
    """features.txt ``city "Name" XXYY BODY`` records from (name, hex, body), one place a hex: a
    later place on a taken hex is an ``alias`` of the first (list the more important first)."""
    lines: list[str] = []
    where: dict[str, Hex] = {}
    taken: dict[Hex, str] = {}
    for name, h, body in places:
        where[name] = h
        if h in taken:
            lines.append(f'alias "{name}" {h} "{taken[h]}" {body}')
        else:
            taken[h] = name
            lines.append(f'city "{name}" {h} {body}')
    return lines, where


# --- rivers along hexsides --------------------------------------------------------------------------
Corner = tuple[int, int]


def _key(pt: tuple[float, float]) -> Corner:
    return round(pt[0] * 10), round(pt[1] * 10)


def _hexes_at_corner(frame: HexFrame, v: Corner) -> list[Hex]:
    h = frame.hex_at(v[0] / 10, v[1] / 10)
    return [n for n in (h, *frame.grid.neighbours(h)) if v in {_key(c) for c in frame.corners(n)}]


def _corner_steps(frame: HexFrame, v: Corner) -> set[Corner]:
    out: set[Corner] = set()
    for h in _hexes_at_corner(frame, v):
        cs = [_key(c) for c in frame.corners(h)]
        i = cs.index(v)
        out.update((cs[i - 1], cs[(i + 1) % 6]))
    return out


def _edge_walk(frame: HexFrame, start: Corner, goal: Corner) -> list[Corner]:
    """The corners after ``start`` up to ``goal`` on a shortest walk along hex edges (breadth-first)."""
    prev: dict[Corner, Corner] = {start: start}
    todo = [start]
    while goal not in prev:
        nxt: list[Corner] = []
        for u in todo:
            for w in sorted(_corner_steps(frame, u)):
                if w not in prev:
                    prev[w] = u
                    nxt.append(w)
        todo = nxt
    back, step = [], goal
    while step != start:
        back.append(step)
        step = prev[step]
    return back[::-1]


def river_hexsides(frame: HexFrame, points: list[tuple[float, float]]) -> set[tuple[Hex, Hex]]:
    """The chain of hexsides that follows a projected polyline (rivers follow hexsides).

    Each dense sample snaps to its nearest hex corner; consecutive corners are joined
    by the shortest walk along hex edges, and every edge walked is a river hexside.
    """
    samples: list[tuple[float, float]] = []
    for a, b in pairwise(points):
        n = max(1, int(math.dist(a, b) / (frame.size_km / 4)))
        samples.extend((a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n))
    samples.append(points[-1])
    path: list[Corner] = []
    for pt in samples:
        v = _key(min(frame.corners(frame.hex_at(*pt)), key=lambda c: math.dist(c, pt)))
        if not path:
            path.append(v)
        elif v != path[-1]:
            path.extend(_edge_walk(frame, path[-1], v))
    sides: set[tuple[Hex, Hex]] = set()
    for u, v in pairwise(path):
        pair = sorted(set(_hexes_at_corner(frame, u)) & set(_hexes_at_corner(frame, v)))
        if len(pair) == 2:
            sides.add((pair[0], pair[1]))
    return sides


def rivers_of(frame: HexFrame, rivers: Iterable[tuple[str, list[tuple[float, float]]]]) -> set[tuple[Hex, Hex]]:
    """The river hexsides of authored (name, lon/lat polyline) rivers."""
    out: set[tuple[Hex, Hex]] = set()
    for _name, pts in rivers:
        out |= river_hexsides(frame, [frame.proj.project(lon, lat) for lon, lat in pts])
    return out


# --- the pictures and the command line ---------------------------------------------------------------
def read_layers(scenario: Path, fmt: str, names: Sequence[str]) -> list[list[Record]]:
    """The committed files ``NAME.txt`` (format ``FMT-NAME``) read with pbem.kit, all or an error."""
    from pbem.kit.records import Issues, ScenarioErrors, read_records

    issues = Issues()
    layers = [read_records(scenario / f"{name}.txt", f"{fmt}-{name}", issues) for name in names]
    if issues:
        raise ScenarioErrors(issues)
    return layers


def border_sides(grid: Grid, region: Mapping[str, Hashable]) -> list[dict[str, str]]:
    """Border hexsides between land hexes of different regions (hex id -> region)."""
    out = []
    for hid, here in region.items():
        for n in grid.neighbours(parse_hex(hid)):
            other = str(n)
            if other > hid and other in region and region[other] != here:
                out.append({"a": hid, "b": other, "kind": "border"})
    return out


def hex_picture(recs: list[Record], feats: list[Record], hexes: Sequence[Mapping[str, object]],
                sides: Sequence[Mapping[str, object]], units: Sequence[Mapping[str, object]],
                palette: Mapping[str, object]) -> dict[str, object]:
    """A pbem.present.render map picture (even columns low) with the rail lines of features.txt."""
    grid = next(r for r in recs if r.keyword == "grid")
    lines = [{"hexes": r.words[1:], "kind": "rail"} for r in feats if r.keyword == "line"]
    return {"type": "hex", "cols": int(grid.attrs["cols"]), "rows": int(grid.attrs["rows"]),
            "low_columns": "even", "hexes": hexes, "hexsides": sides, "lines": lines, "units": units,
            "sides": palette}


def write_png(picture: dict[str, object], png: Path, px: float) -> int:
    from pbem.present.render import map_png

    png.write_bytes(map_png(picture, px=px, colors=64))
    print(f"wrote {png}", file=sys.stderr)
    return 0


def picture_sides(grid: Grid, hid: str, dirs: str, kind: str) -> list[dict[str, str]]:
    """Render hexsides for a map.txt ``DIRS`` list, each once (from the lower-numbered hex)."""
    out = []
    for d in filter(None, dirs.split(",")):
        n = str(grid.neighbour(parse_hex(hid), Direction.parse(d)))
        if n > hid:
            out.append({"a": hid, "b": n, "kind": kind})
    return out


def tool_main(argv: list[str] | None, doc: str | None, png: Path, generate: Callable[[Path, Path], None],
              render: Callable[[Path], int]) -> int:
    """``generate OUTDIR [--shapefile ZIP]`` and ``render [--png PATH]``."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("outdir", type=Path)
    g.add_argument("--shapefile", type=Path, default=SHAPEFILE)
    r = sub.add_parser("render")
    r.add_argument("--png", type=Path, default=png)
    args = ap.parse_args(argv)
    if args.cmd == "generate":
        generate(args.outdir, args.shapefile)
        return 0
    return render(args.png)
