"""Authoring tool for the USE France 1940 map (run by a developer, never at play time).

    .venv/bin/python tools/author_map_use.py generate OUTDIR [--shapefile ZIP]
    .venv/bin/python tools/author_map_use.py render [SCENARIO]

``generate`` projects a hex grid (Lambert azimuthal equal-area centred on the
map, USE 1.1.5: a hex is 35 miles = 56.3 km across the flats) over the Natural
Earth 1:10m countries shapefile, marks each hex land or water, its country,
coast and sea zone, derives water hexsides, then applies the authored layers
kept in ``use_map_sources.py`` (terrain regions, rivers, areas, cities,
transport lines) and writes ``map.txt`` and ``features.txt`` into OUTDIR.
The committed scenario files were made this way and then completed by hand;
regenerate into a scratch directory and diff, never over the committed files.

``render`` loads a scenario with the real loader and writes an ASCII picture to
stdout and an SVG to docs/images/<scenario>-map.svg.

pyshp is needed for ``generate`` only; it is not a runtime dependency of pbem.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mapproj import Lambert, inside  # noqa: E402
from use_map_sources import (  # noqa: E402
    AREAS,
    BOXES,
    CITIES,
    COUNTRY_OF,
    LAND_FORCED,
    LINES,
    OVERRIDES,
    RIVERS,
    SEA_ZONES,
    TERRAIN_REGIONS,
    sea_zone_of,
    weather_zone_of,
)

from rules.use.hexgrid import DIRECTIONS, Hex, hex_line, neighbours  # noqa: E402
from rules.use.scenario import Scenario  # noqa: E402

# --- projection and grid ------------------------------------------------------
LAT0, LON0 = math.radians(48.0), math.radians(3.0)  # centre of the map
ACROSS_KM = 56.3  # 35 miles: centre to centre of adjacent hexes (USE 1.1.5)
SIZE_KM = ACROSS_KM / math.sqrt(3)  # centre to corner of a flat-topped hex
COLS, ROWS = 26, 24
X0, Y0 = -585.0, 706.0  # projected km of the centre of hex 0101
RASTER_KM = 4.0  # land/water sampling step; ~170 samples per hex
LAND_MIN = 0.25  # land fraction below which a hex is water (slivers are not hexes)
SOURCE = "Natural Earth 1:10m admin 0 countries (public domain), version 5.1.1"


_PROJ = Lambert(LAT0, LON0)  # the shared projection (tools/mapproj.py)
project, unproject = _PROJ.project, _PROJ.unproject


def centre(h: Hex) -> tuple[float, float]:
    q = h.col - 1
    return X0 + 1.5 * SIZE_KM * q, Y0 - math.sqrt(3) * SIZE_KM * ((h.row - 1) + 0.5 * (q & 1))


def corners(h: Hex) -> list[tuple[float, float]]:
    cx, cy = centre(h)
    return [(cx + SIZE_KM * math.cos(math.radians(a)), cy + SIZE_KM * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def hex_at(x: float, y: float) -> Hex:
    """The hex whose area contains projected point (x, y) (cube rounding)."""
    px, py = x - X0, Y0 - y
    q = (2 / 3 * px) / SIZE_KM
    r = (-1 / 3 * px + math.sqrt(3) / 3 * py) / SIZE_KM
    cx, cz = q, r
    cy = -cx - cz
    rx, ry, rz = round(cx), round(cy), round(cz)
    dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    row = rz + (rx - (rx & 1)) // 2
    return Hex(rx + 1, row + 1)


def hex_of(lon: float, lat: float) -> Hex:
    return hex_at(*project(lon, lat))


def on_grid(h: Hex) -> bool:
    return 1 <= h.col <= COLS and 1 <= h.row <= ROWS


def all_hexes() -> list[Hex]:
    return [Hex(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]


def segments_cross(a: tuple[float, float], b: tuple[float, float],
                   c: tuple[float, float], d: tuple[float, float]) -> bool:
    def orient(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (orient(a, b, c) * orient(a, b, d) < 0) and (orient(c, d, a) * orient(c, d, b) < 0)


# --- rasterising the shapefile -----------------------------------------------
Raster = dict[tuple[int, int], str]


def rasterise(shapefile_zip: Path) -> Raster:
    """Country code at each RASTER_KM lattice point that is on land (scanline, even-odd)."""
    import shapefile  # type: ignore[import-untyped]  # pyshp, authoring only

    xmin = X0 - 2 * SIZE_KM
    ymax, ymin = Y0 + 2 * SIZE_KM, centre(Hex(2, ROWS))[1] - 2 * SIZE_KM
    nrows = int((ymax - ymin) / RASTER_KM) + 1
    crossings: dict[tuple[int, str], list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(shapefile_zip) as z:
            z.extractall(tmp)
        stem = next(Path(tmp).glob("*.shp")).with_suffix("")
        reader = shapefile.Reader(str(stem))
        for rec, shape in zip(reader.records(), reader.shapes(), strict=True):
            code = COUNTRY_OF.get(rec["ADM0_A3"])
            if code is None:
                continue
            parts = [*shape.parts, len(shape.points)]
            for a, b in pairwise(parts):
                ring = [project(lon, lat) for lon, lat in shape.points[a:b]
                        if -15 < lon < 25 and 35 < lat < 62]
                if len(ring) < 3 or len(ring) != b - a:
                    continue  # ring outside the window (overseas parts)
                for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
                    lo, hi = min(y1, y2), max(y1, y2)
                    for i in range(max(0, math.ceil((lo - ymin) / RASTER_KM)),
                                   min(nrows - 1, math.floor((hi - ymin) / RASTER_KM)) + 1):
                        y = ymin + i * RASTER_KM
                        if (y1 > y) != (y2 > y):
                            crossings[(i, code)].append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    raster: Raster = {}
    for (i, code), xs in crossings.items():
        xs.sort()
        for x_in, x_out in zip(xs[::2], xs[1::2], strict=True):
            for j in range(math.ceil((x_in - xmin) / RASTER_KM), math.floor((x_out - xmin) / RASTER_KM) + 1):
                raster[(j, i)] = code
    raster[(-1, -1)] = f"{xmin},{ymin}"  # the lattice origin rides along
    return raster


def raster_at(raster: Raster, x: float, y: float) -> str | None:
    ox, oy = (float(v) for v in raster[(-1, -1)].split(","))
    return raster.get((round((x - ox) / RASTER_KM), round((y - oy) / RASTER_KM)))


# --- classification ------------------------------------------------------------
class HexData:
    def __init__(self, h: Hex) -> None:
        self.hex = h
        self.land = 0.0
        self.country: str | None = None
        self.terrain = "water"
        self.weather = "mild"
        self.area: str | None = None
        self.seas: set[str] = set()
        self.coastal = False
        self.sides: dict[str, set[str]] = defaultdict(set)


def classify(raster: Raster) -> dict[Hex, HexData]:
    ox, oy = (float(v) for v in raster[(-1, -1)].split(","))
    samples: dict[Hex, Counter[str | None]] = defaultdict(Counter)
    xmax, ymax = centre(Hex(COLS, 1))[0] + 2 * SIZE_KM, Y0 + 2 * SIZE_KM
    for j in range(int((xmax - ox) / RASTER_KM) + 1):
        for i in range(int((ymax - oy) / RASTER_KM) + 1):
            x, y = ox + j * RASTER_KM, oy + i * RASTER_KM
            samples[hex_at(x, y)][raster.get((j, i))] += 1
    forced = {hex_of(lon, lat) for lon, lat in LAND_FORCED}
    out: dict[Hex, HexData] = {}
    for h in all_hexes():
        d = out[h] = HexData(h)
        total = sum(samples[h].values()) or 1
        land = Counter({k: v for k, v in samples[h].items() if k is not None})
        d.land = sum(land.values()) / total
        lon, lat = unproject(*centre(h))
        d.weather = weather_zone_of(lon, lat)
        if land and (d.land >= LAND_MIN or h in forced):
            d.country = land.most_common(1)[0][0]
            d.terrain = terrain_of(h)
        else:
            d.seas.add(sea_zone_of(lon, lat))
    for h, d in out.items():
        if d.country is None:
            continue
        water_nbrs = [n for n in neighbours(h) if on_grid(n) and out[n].country is None]
        if water_nbrs:  # 1.3.3: at this scale a land hex next to a water hex has coast in it
            d.coastal = True
            d.seas.update(z for n in water_nbrs for z in out[n].seas)
        lon, lat = unproject(*centre(h))
        for name, country, poly in AREAS:
            if d.country == country and inside((lon, lat), poly):
                d.area = name
                break
        else:
            if d.country == "FRA":
                d.area = "occupied-france"
    mark_hexsides(out, raster)
    apply_overrides(out)
    return out


def apply_overrides(out: dict[Hex, HexData]) -> None:
    """The hand completion listed in use_map_sources.OVERRIDES (each with its reason)."""
    names = [d.name for d in DIRECTIONS]
    for edit, _why in OVERRIDES:
        hid, op = edit.split(" ", 1)
        d = out[Hex(int(hid[:2]), int(hid[2:]))]
        if op.startswith("terrain:"):
            d.terrain = op.split(":")[1]
        elif op.startswith("country:"):
            d.country = None if op.endswith(":-") else op.split(":")[1]
            if d.country is None:
                d.area, d.sides = None, defaultdict(set)
        elif op in ("+coastal", "-coastal"):
            d.coastal = op == "+coastal"
        elif op.startswith("sea="):
            d.seas = set(op[4:].split(",")) if op[4:] else set()
        elif op.startswith("area="):
            d.area = op[5:] or None
        elif op.lstrip("-").startswith("river:"):
            direction = op.split(":")[1]
            n = neighbours(d.hex)[names.index(direction)]
            opposite = names[(names.index(direction) + 3) % 6]
            for hexdata, side in ((d, direction), (out[n], opposite)):
                (hexdata.sides["river"].discard if op.startswith("-") else hexdata.sides["river"].add)(side)
        else:
            raise SystemExit(f"bad override {edit!r}")


def terrain_of(h: Hex) -> str:
    cx, cy = centre(h)
    votes: Counter[str] = Counter()
    pts = [(cx, cy)] + [(cx + 0.5 * SIZE_KM * math.cos(math.radians(a)),
                         cy + 0.5 * SIZE_KM * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    for x, y in pts:
        lonlat = unproject(x, y)
        for terrain, _name, poly in TERRAIN_REGIONS:
            if inside(lonlat, poly):
                votes[terrain] += 1
                break
        else:
            votes["clear"] += 1
    return votes.most_common(1)[0][0]


def river_hexsides(points: list[tuple[float, float]]) -> set[tuple[Hex, Hex]]:
    """The chain of hexsides that best follows a projected polyline.

    Rivers run along hexsides on a wargame map.  The polyline is sampled densely,
    each sample snaps to the nearest hex corner, and consecutive corners are joined
    by the shortest path along hex edges; each edge walked is a river hexside.
    """
    def key(pt: tuple[float, float]) -> tuple[int, int]:
        return round(pt[0] * 100), round(pt[1] * 100)

    def nearest_corner(pt: tuple[float, float]) -> tuple[int, int]:
        return key(min(corners(hex_at(*pt)), key=lambda c: math.dist(c, pt)))

    def hexes_of(v: tuple[int, int]) -> set[Hex]:
        pt = (v[0] / 100, v[1] / 100)
        h = hex_at(*pt)
        return {n for n in (h, *neighbours(h)) if any(key(c) == v for c in corners(n))}

    def next_corners(v: tuple[int, int]) -> set[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        for h in hexes_of(v):
            cs = [key(c) for c in corners(h)]
            i = cs.index(v)
            out.update((cs[i - 1], cs[(i + 1) % 6]))
        return out

    samples: list[tuple[float, float]] = []
    for a, b in pairwise(points):
        n = max(1, int(math.dist(a, b) / (SIZE_KM / 4)))
        samples.extend((a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n))
    samples.append(points[-1])
    path: list[tuple[int, int]] = []
    for pt in samples:
        v = nearest_corner(pt)
        if path and v == path[-1]:
            continue
        if path:  # breadth-first along hex edges from the previous corner
            prev: dict[tuple[int, int], tuple[int, int]] = {path[-1]: path[-1]}
            todo = [path[-1]]
            while v not in prev:
                todo = [n for u in todo for n in next_corners(u) if n not in prev and not prev.setdefault(n, u) != u]
            step, back = v, []
            while step != path[-1]:
                back.append(step)
                step = prev[step]
            path.extend(reversed(back))
        else:
            path.append(v)
    sides: set[tuple[Hex, Hex]] = set()
    for u, v in pairwise(path):
        pair = sorted(hexes_of(u) & hexes_of(v))
        if len(pair) == 2:
            sides.add((pair[0], pair[1]))
    return sides


def mark_hexsides(out: dict[Hex, HexData], raster: Raster) -> None:
    rivers: set[tuple[Hex, Hex]] = set()
    for _name, pts in RIVERS:
        rivers |= river_hexsides([project(lon, lat) for lon, lat in pts])
    for h, d in out.items():
        if d.country is None:
            continue
        for direction, n in zip(DIRECTIONS, neighbours(h), strict=True):
            if not on_grid(n) or out[n].country is None:
                continue
            shared = [c for c in corners(h) if any(math.dist(c, o) < 1e-6 for o in corners(n))]
            a, b = shared
            edge = [(a[0] + (b[0] - a[0]) * t / 8, a[1] + (b[1] - a[1]) * t / 8) for t in range(9)]
            if all(raster_at(raster, x, y) is None for x, y in edge):
                d.sides["water"].add(direction.name)
            if (min(h, n), max(h, n)) in rivers:
                d.sides["river"].add(direction.name)


# --- output ---------------------------------------------------------------------
MAP_HEADER = f"""\
# The France 1940 map: one line per hex.  AUTHORED (the seed rulebook has no map).
# Generated by tools/author_map_use.py from {SOURCE}
# (land/water, country, coast, water hexsides), Lambert azimuthal equal-area projection centred
# on 48N 3E, a hex is 35 miles = 56.3 km across (USE 1.1.5); the terrain, rivers, areas, sea
# zones and weather zones come from the authored layers in tools/use_map_sources.py, and the
# hand completion (OVERRIDES there) is applied.  Regenerate into a scratch directory and diff.
#
# Hex numbering XXYY: column XX (west to east), row YY (north to south), flat-topped hexes,
# even columns half a hex lower (rules/use/SCENARIO_API.md).
#
#   hex XXYY TERRAIN COUNTRY WEATHER [coastal] [dot] [sea=Z,..] [area=A] [river=DIRS] [water=DIRS]
#       [strait=DIRS] [noground=DIRS]
#   TERRAIN  clear | rough | mountain | marsh | water         (rules/use/data/terrain.toml)
#   COUNTRY  a code of countries.txt, '-' for a water hex       (1940 borders)
#   WEATHER  cold | mild | warm | desert                        (1.3.9; here: warm south of 44.5N)
#   coastal  a land hex with a coast on a sea zone (1.3.3)      dot: a faded-dot hex (1.3.2; none here)
#   sea=     sea zones of a water hex, a coastal hex or a full-land port (1.3.6)
#   area=    alsace-lorraine (Disputed Area, 17.0), corsica (Overseas), vichy / occupied-france
#            (the 1940 demarcation line, used if Vichy is created, 16.0)
#   river= / water= / strait= / noground=  hexside features on the listed sides (N NE SE S SW NW);
#            each must be listed on BOTH hexes that share the hexside.  water= is a water
#            hexside between two land hexes (a strait or estuary no ground unit crosses).""".split("\n")

FEATURES_HEADER = """\
# Sea zones, map boxes, cities and transport lines of the France 1940 map.  AUTHORED.
# Generated by tools/author_map_use.py (city hexes from their real coordinates, lines drawn
# hex by hex between the waypoints of tools/use_map_sources.py), completed by hand there.
#
#   seazone ID "Name" [adjacent=ID,..]      adjacency is symmetric; zones must touch or share a hex
#   box ID "Name" sea|land friendly=FACTION [seazones=..] [boxes=..] [edge=XXYY,..]
#       a map box (1.3.5).  NAO is the seed's North Atlantic Ocean box.  REICH is authored: it
#       stands for Germany east of the map (Berlin, 2 factories); ground and air units move
#       between it and its edge hexes, like the Central Russia box (1.3.5).
#   city "Name" XXYY|BOX COUNTRY [capital] [port] [factories=N] [lat= lon=]     (1.3.1)
#   line "Name" XXYY XXYY ... [BOX]          a rail or road Transport Line (1.3.7); repeating a
#       name continues the same line.  A land box id at an end: the line runs off the map into it.""".split("\n")


def write_map(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format use-map 1", *MAP_HEADER, f"grid cols={COLS} rows={ROWS}", ""]
    for c in range(1, COLS + 1):
        lines.append(f"# column {c:02d}")
        for r in range(1, ROWS + 1):
            d = out[Hex(c, r)]
            attrs = []
            if d.coastal:
                attrs.append("coastal")
            if d.seas:
                attrs.append("sea=" + ",".join(sorted(d.seas)))
            if d.area:
                attrs.append(f"area={d.area}")
            for kind in ("river", "water"):
                if d.sides[kind]:
                    dirs = sorted(d.sides[kind], key=lambda s: DIRECTIONS[[x.name for x in DIRECTIONS].index(s)])
                    attrs.append(f"{kind}=" + ",".join(dirs))
            lines.append(f"hex {d.hex} {d.terrain:8s} {d.country or '-':3s} {d.weather:5s} " + " ".join(attrs))
    path.write_text("\n".join(x.rstrip() for x in lines) + "\n")


def city_hex(out: dict[Hex, HexData], country: str, lon: float, lat: float) -> Hex:
    """The hex of a city; a city on a sliver of coast moves to the nearest land hex of its country.

    Without this, Dover (14% land) would make a land bridge across the Strait of Dover.
    """
    h = hex_of(lon, lat)
    if out[h].country == country and out[h].land >= LAND_MIN:
        return h
    x, y = project(lon, lat)
    options = [n for n in (h, *neighbours(h)) if on_grid(n) and out[n].country == country]
    best = min(options, key=lambda n: math.dist(centre(n), (x, y)) - (1000 if out[n].land >= LAND_MIN else 0))
    print(f"note: city at {lon},{lat} moved from {h} to {best}", file=sys.stderr)
    return best


def write_features(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format use-features 1", *FEATURES_HEADER, ""]
    for zid, name, adjacent in SEA_ZONES:
        lines.append(f'seazone {zid} "{name}"' + (f" adjacent={adjacent}" if adjacent else ""))
    lines.append("")
    lines.extend(BOXES)
    lines.append("")
    where: dict[str, str] = {}
    taken: dict[Hex, str] = {}
    for name, country, flags, lat, lon in CITIES:
        if lat is None or lon is None:
            where[name] = flags.split()[0]
            lines.append(f'city "{name}" {flags.split()[0]} {country} ' + " ".join(flags.split()[1:]))
            continue
        if not on_grid(hex_of(lon, lat)):
            print(f"note: {name} at {hex_of(lon, lat)} is off the map; left out", file=sys.stderr)
            continue
        h = city_hex(out, country, lon, lat)
        if h in taken:  # one city per hex: the first listed (the more important) keeps it
            print(f"note: {name} falls in {h} with {taken[h]}; merged into it", file=sys.stderr)
            where[name] = where[taken[h]]
            continue
        taken[h] = name
        where[name] = str(h)
        lines.append(f'city "{name}" {h} {country} {flags} lat={lat} lon={lon}'.replace("  ", " "))
    lines.append("")
    for name, waypoints in LINES:
        stops = [str(hex_of(*w)) if isinstance(w, tuple) else where.get(w, w) for w in waypoints]
        chain: list[str] = []
        for a, b in pairwise(stops):
            if not a.isdigit() or not b.isdigit():  # a box at one end: no geometry to draw
                chain.extend(x for x in (a, b) if not chain or chain[-1] != x)
                continue
            seg = [str(x) for x in hex_line(Hex(int(a[:2]), int(a[2:])), Hex(int(b[:2]), int(b[2:])))]
            chain.extend(seg[1:] if chain and chain[-1] == seg[0] else seg)
        lines.append(f'line "{name}" ' + " ".join(chain))
    path.write_text("\n".join(lines) + "\n")


def generate(outdir: Path, shapefile_zip: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    out = classify(rasterise(shapefile_zip))
    write_map(out, outdir / "map.txt")
    write_features(out, outdir / "features.txt")
    land = sum(1 for d in out.values() if d.country)
    print(f"{len(out)} hexes: {land} land, {len(out) - land} water -> {outdir}")


# --- rendering (from the loaded scenario, so it shows the hand-completed data) -------------
LETTER = {"FRA": "F", "GER": "G", "BEL": "B", "NET": "N", "UK": "E", "SWI": "S", "ITA": "I",
          "SPA": "P", "IRE": "R", "DEN": "D"}
TERRAIN_MARK = {"clear": ".", "rough": "^", "mountain": "M", "marsh": "%"}
COLOUR = {"FRA": "#c9d7f2", "GER": "#d0d0d0", "BEL": "#f2e3a6", "NET": "#f5c99b", "UK": "#f2c4c4",
          "SWI": "#ffffff", "ITA": "#cfe8c4", "SPA": "#e8d9c4"}
SHADE = {"clear": 1.0, "rough": 0.85, "mountain": 0.7, "marsh": 0.92}


def ascii_map(sc: Scenario) -> str:
    """Two text lines per hex row: odd columns, then the (lower) even columns."""
    m = sc.map
    forts = {f.hex for f in sc.forts if not f.activation}
    out = ["    " + "".join(f"{c:02d}    " for c in range(1, m.cols + 1, 2))]
    for r in range(1, m.rows + 1):
        for parity in (1, 0):
            cells = [" "] * (3 * m.cols + 1)
            for c in range(1, m.cols + 1):
                if c % 2 != parity:
                    continue
                info = m.hexes[Hex(c, r)]
                city = m.city_at(info.hex)
                if info.is_water:
                    cell = (info.sea_zones and sorted(info.sea_zones)[0].lower()) or "~~"
                else:
                    mark = TERRAIN_MARK[info.terrain]
                    if info.hex in forts:
                        mark = "#"
                    if city is not None:
                        mark = "@" if city.capital else "*"
                    cell = LETTER.get(info.country or "", "?") + mark
                cells[3 * (c - 1):3 * (c - 1) + 2] = list(cell)
            out.append((f"{r:02d}  " if parity else "    ") + "".join(cells).rstrip())
    return "\n".join(out) + "\n"


def svg_map(sc: Scenario) -> str:
    m, s, pad = sc.map, 16.0, 20.0

    def xy(h: Hex) -> tuple[float, float]:
        q = h.col - 1
        return pad + s + 1.5 * s * q, pad + s + math.sqrt(3) * s * ((h.row - 1) + 0.5 * (q & 1))

    def shade(colour: str, k: float) -> str:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        return f"#{int(r * k):02x}{int(g * k):02x}{int(b * k):02x}"

    w, hgt = pad * 2 + s * (1.5 * m.cols + 0.5), pad * 2 + math.sqrt(3) * s * (m.rows + 0.5)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{hgt:.0f}" '
             'font-family="sans-serif">', f'<rect width="{w:.0f}" height="{hgt:.0f}" fill="#9cc3e6"/>']
    for h, info in m.hexes.items():
        cx, cy = xy(h)
        pts = " ".join(f"{cx + s * math.cos(math.radians(a)):.1f},{cy + s * math.sin(math.radians(a)):.1f}"
                       for a in range(0, 360, 60))
        fill = "#9cc3e6" if info.is_water else shade(COLOUR.get(info.country or "", "#eeeeee"),
                                                       SHADE[info.terrain])
        parts.append(f'<polygon points="{pts}" fill="{fill}" stroke="#7f7f7f" stroke-width="0.4"/>')
        parts.append(f'<text x="{cx:.1f}" y="{cy - s * 0.55:.1f}" font-size="4" text-anchor="middle" '
                     f'fill="#555">{h}</text>')
        if info.terrain in ("rough", "mountain", "marsh"):
            parts.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="9" text-anchor="middle" fill="#666">'
                         f'{ {"rough": "^", "mountain": "M", "marsh": "~"}[info.terrain]}</text>')
    for (a, b), kinds in m.hexsides.items():
        if "river" in kinds or "water" in kinds:
            ca, cb = xy(a), xy(b)
            mx, my = (ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2
            dx, dy = (cb[1] - ca[1]) / math.sqrt(3) / 2, -(cb[0] - ca[0]) / math.sqrt(3) / 2
            colour = "#1f5fbf" if "river" in kinds else "#9cc3e6"
            parts.append(f'<line x1="{mx - dx:.1f}" y1="{my - dy:.1f}" x2="{mx + dx:.1f}" y2="{my + dy:.1f}" '
                         f'stroke="{colour}" stroke-width="2.5"/>')
    for line in m.transport_lines:
        pts = " ".join(f"{xy(h)[0]:.1f},{xy(h)[1]:.1f}" for h in line.hexes)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#333" stroke-width="1" '
                     'stroke-dasharray="3,2"/>')
    for f in sc.forts:
        cx, cy = xy(f.hex)
        dash = ' stroke-dasharray="2,1"' if f.activation else ""
        parts.append(f'<rect x="{cx - 5:.1f}" y="{cy - 5:.1f}" width="10" height="10" fill="none" '
                     f'stroke="#000" stroke-width="1.5"{dash}/>')
    for city in m.cities.values():
        if city.hex is None:
            continue
        cx, cy = xy(city.hex)
        r = 3.5 if city.capital else 2.2
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{"#b00" if city.factories else "#000"}"/>')
        parts.append(f'<text x="{cx:.1f}" y="{cy + 9:.1f}" font-size="6" text-anchor="middle">{city.name}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def render(name: str, svg_path: Path | None) -> int:
    from rules.use.scenario import load_scenario  # the real loader

    sc = load_scenario(name)
    sys.stdout.write(ascii_map(sc))
    path = svg_path or REPO / "docs" / "images" / f"{sc.name}-map.svg"
    path.write_text(svg_map(sc))
    print(f"wrote {path}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("outdir", type=Path)
    g.add_argument("--shapefile", type=Path,
                   default=Path("/work/shared/geo/ne_10m_admin_0_countries_deu.zip"))
    r = sub.add_parser("render")
    r.add_argument("scenario", nargs="?", default="france-1940")
    r.add_argument("--svg", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.cmd == "generate":
        generate(args.outdir, args.shapefile)
        return 0
    return render(args.scenario, args.svg)


if __name__ == "__main__":
    raise SystemExit(main())
