"""Authoring tool for the EuroFront 1936 Spanish Civil War map (a developer tool, never run at play time).

    .venv/bin/python tools/author_map_eurofront.py generate OUTDIR [--shapefile ZIP]
    .venv/bin/python tools/author_map_eurofront.py render [--png PATH]

``generate`` projects a hex grid over Iberia and northern Morocco (Lambert azimuthal
equal-area centred on 39.5N 3W; a hex is 40 miles = 64.4 km across the flats, see SCALE)
on the Natural Earth 1:10m countries shapefile, marks each hex land or sea, its
country and coast, the sea hexsides between land hexes, then applies the authored
layers of ``eurofront_map_sources.py`` (terrain, rivers, straits, cities and towns,
ports, rail lines) and writes ``map.txt`` and ``features.txt`` into OUTDIR.  The
committed files in scenarios/eurofront/scw-1936 were made this way: regenerate
into a scratch directory and diff, never over the committed files.

``render`` reads the committed files with pbem.kit (records, hexmap) and draws
docs/images/eurofront-scw-map.png with pbem.present.render / raster.

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

from eurofront_map_sources import (  # noqa: E402
    CITIES,
    COUNTRY_FORCED,
    COUNTRY_OF,
    LAND_FORCED,
    LINES,
    OVERRIDES,
    RIVERS,
    SPANISH_MOROCCO,
    STRAITS,
    TERRAIN_REGIONS,
    sea_area_of,
)
from mapproj import Lambert, inside  # noqa: E402

from pbem.kit.hexgrid import DIRECTIONS, EVEN_COLUMNS_LOW, Direction, Hex, parse_hex  # noqa: E402

GRID = EVEN_COLUMNS_LOW
SCENARIO = REPO / "scenarios" / "eurofront" / "scw-1936"
SHAPEFILE = Path("/work/shared/geo/ne_10m_admin_0_countries_deu.zip")
SOURCE = "Natural Earth 1:10m admin 0 countries (public domain), version 5.1.1"

# --- projection and grid ------------------------------------------------------
# SCALE (authored: the seed gives none).  15.1 and its Middle Seaway list the Cadiz Straits
# (Cadiz/Tangiers) and the Gibraltar Straits (Gibraltar/Tangiers): on the printed map Tangiers
# touches both Cadiz and Gibraltar, 95 and 55 km away, so a EuroFront hex is some 60-70 km.
# 40 miles = 64.4 km keeps Tangiers next to Gibraltar (Cadiz is two hexes off: no grid
# registration keeps all of Tarifa, Gibraltar, Ceuta, Tangiers and Cadiz apart and adjacent at
# this size) and gives Spain ~150 hexes for ~20 blocks a side.
LAT0, LON0 = math.radians(39.5), math.radians(-3.0)
ACROSS_KM = 64.4
SIZE_KM = ACROSS_KM / math.sqrt(3)  # centre to corner
WEST, EAST, SOUTH, NORTH = -9.9, 4.5, 34.75, 43.85  # the window the grid covers
RASTER_KM = 4.0
LAND_MIN = 0.25  # land fraction below which a hex is sea (slivers are not hexes; 1.3 "predominant")


_PROJ = Lambert(LAT0, LON0)  # the shared projection (tools/mapproj.py)
project, unproject = _PROJ.project, _PROJ.unproject


def _window() -> tuple[float, float, int, int]:
    """X0, Y0 (projected centre of 0101) and the grid size that covers the lon/lat window."""
    pts = [project(lon, lat) for lon in (WEST, (WEST + EAST) / 2, EAST) for lat in (SOUTH, NORTH)]
    xmin, xmax = min(p[0] for p in pts), max(p[0] for p in pts)
    ymin, ymax = min(p[1] for p in pts), max(p[1] for p in pts)
    cols = math.ceil((xmax - xmin) / (1.5 * SIZE_KM)) + 1
    rows = math.ceil((ymax - ymin) / ACROSS_KM) + 1
    return xmin, ymax, cols, rows


X0, Y0, COLS, ROWS = _window()


def centre(h: Hex) -> tuple[float, float]:
    q = h.col - 1
    return X0 + 1.5 * SIZE_KM * q, Y0 - ACROSS_KM * ((h.row - 1) + (0.5 if GRID.is_low(h.col) else 0.0))


def corners(h: Hex) -> list[tuple[float, float]]:
    cx, cy = centre(h)
    return [(cx + SIZE_KM * math.cos(math.radians(a)), cy + SIZE_KM * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def hex_at(x: float, y: float) -> Hex:
    """The hex containing projected point (x, y): the nearest centre among the candidates."""
    col = round((x - X0) / (1.5 * SIZE_KM)) + 1
    best: tuple[float, Hex] | None = None
    for c in (col - 1, col, col + 1):
        off = 0.5 if GRID.is_low(c) else 0.0
        r = round((Y0 - y) / ACROSS_KM - off) + 1
        for rr in (r - 1, r, r + 1):
            h = Hex(c, rr)
            d = math.dist(centre(h), (x, y))
            if best is None or d < best[0]:
                best = (d, h)
    assert best is not None
    return best[1]


def hex_of(lon: float, lat: float) -> Hex:
    return hex_at(*project(lon, lat))


def on_grid(h: Hex) -> bool:
    return 1 <= h.col <= COLS and 1 <= h.row <= ROWS


# --- rasterising the shapefile -----------------------------------------------
Raster = dict[tuple[int, int], str]


def rasterise(shapefile_zip: Path) -> tuple[Raster, float, float]:
    """Country at each RASTER_KM lattice point on land (scanline, even-odd), and the lattice origin."""
    import shapefile  # type: ignore[import-untyped]  # pyshp, authoring only

    xmin, ymin = X0 - 2 * SIZE_KM, Y0 - ACROSS_KM * (ROWS + 1)
    nrows = int((Y0 + 2 * SIZE_KM - ymin) / RASTER_KM) + 1
    crossings: dict[tuple[int, str], list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(shapefile_zip) as z:
            z.extractall(tmp)
        reader = shapefile.Reader(str(next(Path(tmp).glob("*.shp")).with_suffix("")))
        for rec, shape in zip(reader.records(), reader.shapes(), strict=True):
            code = COUNTRY_OF.get(rec["ADM0_A3"])
            if code is None:
                continue
            parts = [*shape.parts, len(shape.points)]
            for a, b in pairwise(parts):
                # Clamped to a box well outside the window: the fill inside the window is
                # unchanged, and far rings (overseas France) collapse onto the box's edge.
                ring = [project(min(15.0, max(-20.0, lon)), min(52.0, max(25.0, lat)))
                        for lon, lat in shape.points[a:b]]
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
                x, y = xmin + j * RASTER_KM, ymin + i * RASTER_KM
                lon, lat = unproject(x, y)
                # The Protectorate is not a modern country: Morocco and the Spanish enclaves
                # inside its authored outline become Spanish Morocco.
                in_spm = code in ("FMO", "SPA") and lat < 36.2 and inside((lon, lat), SPANISH_MOROCCO)
                raster[(j, i)] = "SPM" if in_spm else code
    return raster, xmin, ymin


# --- classification ------------------------------------------------------------
class HexData:
    def __init__(self, h: Hex) -> None:
        self.hex = h
        self.land = 0.0
        self.country: str | None = None
        self.terrain = "sea"
        self.sea: set[str] = set()
        self.coastal = False
        self.sides: dict[str, set[str]] = defaultdict(set)


def classify(raster: Raster, ox: float, oy: float) -> dict[Hex, HexData]:
    samples: dict[Hex, Counter[str | None]] = defaultdict(Counter)
    xmax = X0 + 1.5 * SIZE_KM * COLS + SIZE_KM
    for j in range(int((xmax - ox) / RASTER_KM) + 1):
        for i in range(int((Y0 + 2 * SIZE_KM - oy) / RASTER_KM) + 1):
            x, y = ox + j * RASTER_KM, oy + i * RASTER_KM
            samples[hex_at(x, y)][raster.get((j, i))] += 1
    forced = {hex_of(*p) for p in LAND_FORCED}
    out: dict[Hex, HexData] = {}
    for h in (Hex(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)):
        d = out[h] = HexData(h)
        total = sum(samples[h].values()) or 1
        land = Counter({k: v for k, v in samples[h].items() if k is not None})
        d.land = sum(land.values()) / total
        if land and (d.land >= LAND_MIN or h in forced):
            d.country = land.most_common(1)[0][0]
            d.terrain = terrain_of(h)
        else:
            d.sea.add(sea_area_of(*unproject(*centre(h))))
    for country, pt in COUNTRY_FORCED:
        out[hex_of(*pt)].country = country
    for h, d in out.items():
        if d.country is None:
            continue
        wet = [n for n in GRID.neighbours(h) if on_grid(n) and out[n].country is None]
        if wet:  # 1.44: a port needs a coast; a land hex next to a sea hex has one
            d.coastal = True
            d.sea.update(z for n in wet for z in out[n].sea)
    mark_hexsides(out, raster, ox, oy)
    return out


def terrain_of(h: Hex) -> str:
    """The predominant terrain (1.3) by a vote of the centre and six inner points."""
    cx, cy = centre(h)
    votes: Counter[str] = Counter()
    for x, y in [(cx, cy)] + [(cx + 0.5 * SIZE_KM * math.cos(math.radians(a)),
                                cy + 0.5 * SIZE_KM * math.sin(math.radians(a))) for a in range(30, 390, 60)]:
        lonlat = unproject(x, y)
        votes[next((t for t, _n, poly in TERRAIN_REGIONS if inside(lonlat, poly)), "clear")] += 1
    return votes.most_common(1)[0][0]


Corner = tuple[int, int]


def _key(pt: tuple[float, float]) -> Corner:
    return round(pt[0] * 10), round(pt[1] * 10)


def _hexes_at_corner(v: Corner) -> list[Hex]:
    h = hex_at(v[0] / 10, v[1] / 10)
    return [n for n in (h, *GRID.neighbours(h)) if v in {_key(c) for c in corners(n)}]


def _corner_steps(v: Corner) -> set[Corner]:
    out: set[Corner] = set()
    for h in _hexes_at_corner(v):
        cs = [_key(c) for c in corners(h)]
        i = cs.index(v)
        out.update((cs[i - 1], cs[(i + 1) % 6]))
    return out


def river_hexsides(points: list[tuple[float, float]]) -> set[tuple[Hex, Hex]]:
    """The chain of hexsides that follows a projected polyline (rivers follow hexsides, 1.36).

    Each dense sample snaps to its nearest hex corner; consecutive corners are joined
    by the shortest walk along hex edges, and every edge walked is a river hexside.
    """
    samples: list[tuple[float, float]] = []
    for a, b in pairwise(points):
        n = max(1, int(math.dist(a, b) / (SIZE_KM / 4)))
        samples.extend((a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n))
    samples.append(points[-1])
    path: list[Corner] = []
    for pt in samples:
        v = _key(min(corners(hex_at(*pt)), key=lambda c: math.dist(c, pt)))
        if path and v == path[-1]:
            continue
        if path:  # breadth-first along hex edges from the previous corner
            prev: dict[Corner, Corner] = {path[-1]: path[-1]}
            todo = [path[-1]]
            while v not in prev:
                nxt: list[Corner] = []
                for u in todo:
                    for w in sorted(_corner_steps(u)):
                        if w not in prev:
                            prev[w] = u
                            nxt.append(w)
                todo = nxt
            back, step = [], v
            while step != path[-1]:
                back.append(step)
                step = prev[step]
            path.extend(reversed(back))
        else:
            path.append(v)
    sides: set[tuple[Hex, Hex]] = set()
    for u, v in pairwise(path):
        pair = sorted(set(_hexes_at_corner(u)) & set(_hexes_at_corner(v)))
        if len(pair) == 2:
            sides.add((pair[0], pair[1]))
    return sides


def _side(d: HexData, other: HexData, kind: str) -> None:
    direction = GRID.direction_to(d.hex, other.hex)
    assert direction is not None
    d.sides[kind].add(direction.name)
    other.sides[kind].add(direction.opposite.name)


def mark_hexsides(out: dict[Hex, HexData], raster: Raster, ox: float, oy: float) -> None:
    """Sea hexsides (a land-land edge that is all water), rivers, then the authored straits."""
    rivers: set[tuple[Hex, Hex]] = set()
    for _name, pts in RIVERS:
        rivers |= river_hexsides([project(lon, lat) for lon, lat in pts])
    for h, d in out.items():
        if d.country is None:
            continue
        for n in GRID.neighbours(h):
            if not on_grid(n) or out[n].country is None or n < h:
                continue
            a, b = [c for c in corners(h) if any(math.dist(c, o) < 1e-6 for o in corners(n))]
            edge = [(a[0] + (b[0] - a[0]) * t / 8, a[1] + (b[1] - a[1]) * t / 8) for t in range(9)]
            if all(raster.get((round((x - ox) / RASTER_KM), round((y - oy) / RASTER_KM))) is None for x, y in edge):
                _side(d, out[n], "sea")
            elif (h, n) in rivers:
                _side(d, out[n], "river")
    for name, p, q in STRAITS:
        a, b = hex_of(*p), hex_of(*q)
        if not GRID.adjacent(a, b) or out[a].country is None or out[b].country is None:
            raise SystemExit(f"strait {name}: {a} and {b} are not two adjacent land hexes")
        direction = GRID.direction_to(a, b)
        assert direction is not None
        out[a].sides["sea"].discard(direction.name)
        out[b].sides["sea"].discard(direction.opposite.name)
        _side(out[a], out[b], "strait")
    for op, p, q, why in OVERRIDES:
        a, b = hex_of(*p), hex_of(*q)
        direction = GRID.direction_to(a, b)
        if direction is None:
            raise SystemExit(f"override {op} ({why}): {a} and {b} are not adjacent")
        if op == "+water":
            _side(out[a], out[b], "sea")
        else:
            out[a].sides["sea"].discard(direction.name)
            out[b].sides["sea"].discard(direction.opposite.name)


# --- output ---------------------------------------------------------------------
MAP_HEADER = f"""\
# The EuroFront 1936 Spanish Civil War map: one line per hex.
# source = "authored": the seed rulebook has no map (rules-gaps.md, EuroFront item 1).
# GENERATED by tools/author_map_eurofront.py from {SOURCE}:
#   land/sea (a hex is land when at least 25% of it is land), country, coastal, sea hexsides.
# AUTHORED in tools/eurofront_map_sources.py: terrain, rivers, straits, sea areas, the
#   Spanish Morocco outline and the scale.  Lambert azimuthal equal-area centred on 39.5N 3W;
#   a hex is 40 miles = 64.4 km across (the seed gives no scale; 15.1's straits make Tangiers
#   adjacent to Cadiz and Gibraltar, 95 and 55 km away: here Gibraltar is adjacent, Cadiz two
#   hexes off).  Regenerate into a scratch directory and diff: docs/eurofront-map.md.
#
# Column convention (pbem.kit.hexgrid EVEN_COLUMNS_LOW): hex XXYY = column XX west to east,
# row YY north to south, flat-topped hexes, EVEN columns half a hex lower (0201 is SE of 0101).
# Hexes are also named as the rulebook does (1.2): "Madrid NE1" is one hex NE of Madrid.
#
#   hex XXYY TERRAIN COUNTRY [coastal] [sea=AREA,..] [river=DIRS] [strait=DIRS] [water=DIRS]
#   TERRAIN  clear | forest | hill | marsh | mountain | sea   (1.31-1.34; forest and hill are
#            the one Forest/Hill terrain of 1.32; no desert: 1.35 is Med Front only)
#   COUNTRY  SPA Spain, SPM Spanish Morocco (units may enter these two only, SCW "The Map"),
#            POR Portugal, FRA France (supply sources only), TAN the Tangier International
#            Zone, FMO French Morocco, ALG Algeria, AND Andorra, GIB Gibraltar (out of play;
#            no GIB or AND hex at this scale: Gibraltar is an enclave place, features.txt);
#            '-' for a sea hex
#   coastal  a land hex with a sea coast (a port needs one, 1.44); sea= its sea areas (1.37)
#   river= / strait= / water=  hexside features by direction (N NE SE S SW NW), listed on BOTH
#            hexes: river (1.36), strait (1.371, treated as a river), water (an all-sea edge
#            between two land hexes: no land crossing)""".split("\n")

FEATURES_HEADER = """\
# Cities, towns, ports, straits and rail lines of the EuroFront 1936 SCW map.
# source = "authored": the seed has no map.  GENERATED by tools/author_map_eurofront.py from
# the real coordinates (lat= lon=) and rail waypoints of tools/eurofront_map_sources.py; two
# places falling in one hex merge into the first listed (noted below).
#
#   city "Name" XXYY COUNTRY KIND loyal=nat|rep|- [pp=N] [port=major|minor]
#        [capital=SIDE] [border-rail] [fortress] [enclave] lat= lon=
#     KIND major | minor | town (1.41, 1.42, 1.43; SCW Free Setup: 4 units per major city,
#     2 per minor city, 1 per town).  loyal: red (rep) or black (nat) in the SCW (scenario
#     "The Map"), '-' outside Spain.  pp: SCW production (rule 3: Madrid 2, Barcelona 1; no
#     other Spanish city produces, 1.42).  port: 15.1 names the ports; major/minor is
#     authored (the bold marks are lost).  capital: Madrid (Republicans), Lisbon
#     (Nationalists).  border-rail: a French border rail hex (SCW set-up and rule 3).
#     fortress: 1.45.  enclave: a place of another country inside a hex of this map's
#     country (Gibraltar, 7 km2, shares its hex with Tarifa at 64 km a hex; out of play).
#   alias "Name" XXYY "Place" COUNTRY KIND loyal=.. [attributes as city]   a named place
#     merged into the place of its hex (the map names hexes by places, 1.2)
#   strait "Name" XXYY XXYY   a Straits hexside (1.371), also listed in map.txt
#   line "Name" XXYY XXYY ...   a rail line (1.6), hex by hex""".split("\n")


def write_map(out: dict[Hex, HexData], path: Path) -> None:
    order = [d.name for d in DIRECTIONS]
    lines = ["format eurofront-map 1", *MAP_HEADER, f"grid cols={COLS} rows={ROWS} low_columns=even", ""]
    for c in range(1, COLS + 1):
        lines.append(f"# column {c:02d}")
        for r in range(1, ROWS + 1):
            d = out[Hex(c, r)]
            attrs = ["coastal"] if d.coastal else []
            if d.sea:
                attrs.append("sea=" + ",".join(sorted(d.sea)))
            for kind in ("river", "strait", "water"):
                key = "sea" if kind == "water" else kind
                if d.sides[key]:
                    attrs.append(f"{kind}=" + ",".join(sorted(d.sides[key], key=order.index)))
            lines.append(f"hex {d.hex} {d.terrain:8s} {d.country or '-':3s} " + " ".join(attrs))
    path.write_text("\n".join(x.rstrip() for x in lines) + "\n")


def city_hex(out: dict[Hex, HexData], country: str, lon: float, lat: float, enclave: bool = False) -> Hex:
    """A place's hex; one on a sliver of coast moves to the nearest land hex of its country."""
    h = hex_of(lon, lat)
    if out[h].country == country or (enclave and out[h].country is not None):
        return h
    xy = project(lon, lat)
    options = [n for n in (h, *GRID.neighbours(h)) if on_grid(n) and out[n].country == country]
    if not options:
        raise SystemExit(f"no {country} hex near {lon},{lat}")
    return min(options, key=lambda n: math.dist(centre(n), xy))


def place_cities(out: dict[Hex, HexData]) -> tuple[list[str], dict[str, Hex]]:
    lines: list[str] = []
    where: dict[str, Hex] = {}
    taken: dict[Hex, str] = {}
    for name, country, kind, loyal, lat, lon, attrs in CITIES:
        h = city_hex(out, country, lon, lat, "enclave" in attrs.split())
        if h in taken:  # one place per hex: the first listed (the more important) keeps it
            extra = f" {attrs}" if attrs else ""
            lines.append(f'alias "{name}" {h} "{taken[h]}" {country} {kind} loyal={loyal}{extra} lat={lat} lon={lon}')
            where[name] = h
            continue
        taken[h] = name
        where[name] = h
        extra = f" {attrs}" if attrs else ""
        lines.append(f'city "{name}" {h} {country} {kind} loyal={loyal}{extra} lat={lat} lon={lon}')
    return lines, where


def rail_chain(stops: list[Hex], out: dict[Hex, HexData], name: str) -> list[Hex]:
    chain: list[Hex] = []
    for a, b in pairwise(stops):
        seg = list(GRID.hex_line(a, b))
        chain.extend(seg[1:] if chain and chain[-1] == seg[0] else seg)
    wet = [str(h) for h in chain if out[h].country is None]
    if wet:
        raise SystemExit(f"rail line {name} runs through sea hexes {wet}: add a waypoint")
    return chain


def write_features(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format eurofront-features 1", *FEATURES_HEADER, ""]
    city_lines, where = place_cities(out)
    lines += [*city_lines, ""]
    for name, p, q in STRAITS:
        lines.append(f'strait "{name}" {hex_of(*p)} {hex_of(*q)}')
    lines.append("")
    for name, waypoints in LINES:
        stops = [hex_of(*w) if isinstance(w, tuple) else where[w] for w in waypoints]
        lines.append(f'line "{name}" ' + " ".join(str(h) for h in rail_chain(stops, out, name)))
    path.write_text("\n".join(lines) + "\n")


def generate(outdir: Path, shapefile_zip: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    out = classify(*rasterise(shapefile_zip))
    write_map(out, outdir / "map.txt")
    write_features(out, outdir / "features.txt")
    land = Counter(d.country for d in out.values() if d.country)
    print(f"{COLS}x{ROWS} = {len(out)} hexes: {sum(land.values())} land {dict(land)} -> {outdir}")


# --- rendering (from the committed files, read with pbem.kit) -------------------------------
FILL = {"clear": "#e9e6c9", "forest": "#a9c08e", "hill": "#c7c08e", "mountain": "#a99b7a", "marsh": "#b6cfae"}
OUT_OF_PLAY = "#d0d0d0"  # Portugal, France and the rest: supply sources or out of play
ABBR = {"HQ": "HQ", "THQ": "THQ", "Armor": "Arm", "Mech": "Mech", "Infantry": "Inf", "Static": "Mil"}
SIDES = {"nationalists": {"name": "Nationalists (black)", "fill": "#222222", "ink": "#f2d27a"},
         "republicans": {"name": "Republicans (red)", "fill": "#b3261e", "ink": "#f7c66b"}}


def picture(scenario: Path) -> dict[str, object]:
    """A pbem.present.render map picture of the committed map: loyal places owned by their
    side, the historical set-up's blocks face up (a document, not a player's view)."""
    from pbem.kit.records import Issues, ScenarioErrors, read_records

    issues = Issues()
    recs = read_records(scenario / "map.txt", "eurofront-map", issues)
    feats = read_records(scenario / "features.txt", "eurofront-features", issues)
    if issues:
        raise ScenarioErrors(issues)
    grid = next(r for r in recs if r.keyword == "grid")
    places = {r.words[1]: r for r in feats if r.keyword == "city"}
    hexes, sides = [], []
    country: dict[str, str] = {}
    for r in recs:
        if r.keyword != "hex" or r.words[1] == "sea":
            continue
        hid, terrain, code = r.words[0], r.words[1], r.words[2]
        country[hid] = code
        place = places.get(hid)
        marker, label, owner = "none", "", None
        if place is not None:
            label = place.words[0]
            marker = ("capital" if "capital" in place.attrs else "factory" if "pp" in place.attrs
                      else "port" if "port" in place.attrs else "city")
            owner = {"nat": "nationalists", "rep": "republicans"}.get(place.attrs.get("loyal", "-"))
        fill = FILL[terrain] if code in ("SPA", "SPM") else OUT_OF_PLAY
        hexes.append({"id": hid, "fill": fill, "label": label, "marker": marker, "owner": owner})
        for kind in ("river", "strait"):
            for d in r.attrs.get(kind, "").split(","):
                if d:
                    n = GRID.neighbour(parse_hex(hid), Direction.parse(d))
                    if str(n) > hid:
                        sides.append({"a": hid, "b": str(n), "kind": "river"})
    for hid, code in country.items():
        for n in GRID.neighbours(parse_hex(hid)):
            if str(n) > hid and country.get(str(n), code) != code:
                sides.append({"a": hid, "b": str(n), "kind": "border"})
    lines = [{"hexes": r.words[1:], "kind": "rail"} for r in feats if r.keyword == "line"]
    where = {r.words[0]: r.words[1] for r in feats if r.keyword in ("city", "alias")}
    units = [{"hex": where[u.attrs["at"]], "id": u.words[0], "text": u.words[0].split("-", 1)[1],
              "sub": ABBR[u.words[2]], "side": u.words[1], "flags": [],
              "steps": [int(u.attrs["cv"]), int(u.attrs["max"])]}
             for u in read_records(scenario / "units.txt", "eurofront-units", issues)
             if u.keyword == "unit" and "at" in u.attrs]
    return {"type": "hex", "cols": int(grid.attrs["cols"]), "rows": int(grid.attrs["rows"]),
            "low_columns": "even", "hexes": hexes, "hexsides": sides, "lines": lines, "units": units,
            "sides": SIDES}


def render(png: Path) -> int:
    from pbem.present.render import map_png

    png.write_bytes(map_png(picture(SCENARIO), px=2.0, colors=64))
    print(f"wrote {png}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("outdir", type=Path)
    g.add_argument("--shapefile", type=Path, default=SHAPEFILE)
    r = sub.add_parser("render")
    r.add_argument("--png", type=Path, default=REPO / "docs" / "images" / "eurofront-scw-map.png")
    args = ap.parse_args(argv)
    if args.cmd == "generate":
        generate(args.outdir, args.shapefile)
        return 0
    return render(args.png)


if __name__ == "__main__":
    raise SystemExit(main())
