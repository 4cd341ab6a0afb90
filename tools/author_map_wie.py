"""Authoring tool for the War in Europe 1945 map and set-up (a developer tool, never run at play time).

    .venv/bin/python tools/author_map_wie.py generate OUTDIR [--shapefile ZIP]
    .venv/bin/python tools/author_map_wie.py render [--png PATH]

``generate`` lays one hex grid over map sections C, D and G of the booklet
(../shared/seeds/003_a5d2870354bebb58.txt), registered so that the booklet's own hex
numbers name the right places: the grid is the similarity transform (scale, rotation,
offset) that best fits the German Placement Centers of 77.7 at their printed hexes, on a
Lambert azimuthal equal-area projection centred on 50N 13E.  It marks each hex land or
sea from the Natural Earth 1:10m countries shapefile, its country as of December 1944,
who holds it at the start, its section, coast and sea area, then applies the authored
layers of ``wie_map_sources.py`` (terrain, rivers, places, rail, the 1945 Start Line)
and the booklet's set-up, and writes ``map.txt``, ``features.txt`` and ``units.txt``
into OUTDIR.  The committed files in scenarios/wie/battle-for-germany-1945 were made
this way: regenerate into a scratch directory and diff, never over the committed files.

``render`` reads the committed files with pbem.kit and draws docs/images/wie-1945-map.png.
pyshp is needed for ``generate`` only; it is not a runtime dependency of pbem.
"""

from __future__ import annotations

import cmath
import math
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mapproj  # noqa: E402
import wie_map_sources as src  # noqa: E402
from mapproj import SOURCE, FittedFrame, HexCell, Lambert, Lattice, inside  # noqa: E402

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW, Hex, parse_hex  # noqa: E402

GRID = EVEN_COLUMNS_LOW
SCENARIO = REPO / "scenarios" / "wie" / "battle-for-germany-1945"

# --- sections and registration ------------------------------------------------------------
# One grid for the three sections in play (76.12): map C keeps its printed numbers; map G
# lies east of C (G col = col - 60) and map D south of it (D row = row - 33).  The offsets
# are authored: in a trial fit 60 gave the least error when Danzig (G0314) and Konigsberg
# (G0714) joined it (16.8 km RMS against 20-42 km for 56-64; even columns low fitted better
# than odd, 16.8 against 20.0), and 33 is the last row the booklet prints on C.
# The fourth quarter (east of D, south of G) is map H, out of play in this scenario.
G_COLS, D_ROWS = 60, 33
COLS, ROWS = 84, 64  # C 01-60 and G 01-24 (to Riga and Vilna); C 01-33 and D 01-31 (to Salonika)
LAT0, LON0 = math.radians(50.0), math.radians(13.0)
RASTER_KM = 5.0
LAND_MIN = 0.25
CLAMP = (-12.0, 33.0, 40.0, 66.0)  # lon/lat box the shapefile's rings are clamped to (mapproj.rasterise)

_PROJ = Lambert(LAT0, LON0)
project, unproject = _PROJ.project, _PROJ.unproject


def section_of(h: Hex) -> str:
    return ("C" if h.row <= D_ROWS else "D") if h.col <= G_COLS else ("G" if h.row <= D_ROWS else "H")


def from_printed(text: str) -> Hex:
    """A booklet hex ("C3114", "G0314", "D2601"; lower case too) on this map's one grid."""
    sec, h = text[0].upper(), parse_hex(text[1:])
    col = h.col + (G_COLS if sec in "GH" else 0)
    row = h.row + (D_ROWS if sec in "DH" else 0)
    return Hex(col, row)


def printed(h: Hex) -> str:
    sec = section_of(h)
    return f"{sec}{h.col - (G_COLS if sec in 'GH' else 0):02d}{h.row - (D_ROWS if sec in 'DH' else 0):02d}"


def _fit() -> tuple[complex, complex]:
    """The grid's similarity transform, fitted to the German Placement Centers (77.7 anchors)."""
    pairs = []
    for _name, _c, _k, lat, lon, attrs in src.CITIES:
        wk = dict(a.split("=") for a in attrs.split() if "=" in a).get("wehrkreis")
        if wk:
            pairs.append((mapproj.unit_point(GRID, from_printed(wk)), complex(*project(lon, lat))))
    return mapproj.fit_similarity(pairs)


A, B = _fit()
FRAME = FittedFrame(_PROJ, GRID, COLS, ROWS, A, B)
ACROSS_KM, SIZE_KM = abs(A), FRAME.size_km
centre, corners, hex_at, hex_of, on_grid = FRAME.centre, FRAME.corners, FRAME.hex_at, FRAME.hex_of, FRAME.on_grid
_grid_point = FRAME.grid_point


# --- rasterising the shapefile (mapproj, on this turned grid) -------------------------------------
def _extent() -> tuple[float, float, float, float]:
    pts = [c for col in (1, COLS) for row in (1, ROWS) for c in corners(Hex(col, row))]
    return (min(p[0] for p in pts) - SIZE_KM, min(p[1] for p in pts) - SIZE_KM,
            max(p[0] for p in pts) + SIZE_KM, max(p[1] for p in pts) + SIZE_KM)


LATTICE = Lattice.cover(*_extent(), RASTER_KM)


def _country(code: str, lon: float, lat: float) -> str:
    """The country of December 1944 at a point (the Reich's 1937 east, Danzig, Memel)."""
    if code in ("POL", "SOV") and (inside((lon, lat), src.REICH_EAST) or inside((lon, lat), src.EAST_PRUSSIA)):
        return "GER"
    return code


def rasterise(shapefile_zip: Path) -> mapproj.Raster:
    return mapproj.rasterise(shapefile_zip, _PROJ, LATTICE, CLAMP, src.COUNTRY_OF, _country)


# --- classification ---------------------------------------------------------------------------
class HexData(HexCell):
    def __init__(self, h: Hex) -> None:
        super().__init__(h)
        self.held = "-"
        self.westwall = False
        self.air = "-"


def setup_lines() -> list[str]:
    """The lines of SETUP_BY_HEX with their continuations joined."""
    rows: list[str] = []
    for line in src.SETUP_BY_HEX.splitlines():
        if line.startswith(" "):
            rows[-1] += line
        else:
            rows.append(line)
    return rows


def setup_hexes() -> dict[Hex, str]:
    """Every hex the booklet's set-up names (76.21, 76.2, 76.3), with the side placed there."""
    out: dict[Hex, str] = {}
    for line in setup_lines():
        side, _n, kind, _k, *hexes = line.split()
        out.update({from_printed(src.SETUP_MOVED.get((side, kind, p), (p, ""))[0]): side for p in hexes})
    out[from_printed(src.INDEPENDENT_HEX)] = "axis"
    return out


def classify(raster: mapproj.Raster) -> dict[Hex, HexData]:
    samples = mapproj.sample_hexes(FRAME, raster, LATTICE)
    named = setup_hexes()
    out: dict[Hex, HexData] = {}
    for h in FRAME.hexes():
        d = out[h] = HexData(h)
        total = sum(samples[h].values()) or 1
        land = Counter({k: v for k, v in samples[h].items() if k is not None})
        if not land and h in named:  # a set-up hex on a coast the grid puts at sea: the coast's country
            land = Counter(k for n in GRID.neighbours(h) for k in samples[n].elements() if k is not None)
            print(f"set-up hex {printed(h)} is sea on this grid: forced to land ({land.most_common(1)})",
                  file=sys.stderr)
        if land and (sum(land.values()) / total >= LAND_MIN or h in named):
            d.country = land.most_common(1)[0][0]
            if h in named and d.country in NEUTRAL_1944:  # the set-up is seed: a belligerent's hex
                near = Counter(k for n in (h, *GRID.neighbours(h)) for k in samples[n].elements()
                               if k is not None and k not in NEUTRAL_1944)
                print(f"set-up hex {printed(h)} is mostly {d.country} on this grid: "
                      f"{near.most_common(1)[0][0]} instead", file=sys.stderr)
                d.country = near.most_common(1)[0][0]
            d.country = src.COUNTRY_FIXES.get(printed(h), (d.country, ""))[0]
            d.terrain = terrain_of(h)
            d.held = held_of(d)
        else:
            d.sea.add(src.sea_area_of(*unproject(*centre(h))))
    for h, side in named.items():  # the set-up is seed: its hexes are held by their side
        if out[h].country is None:
            raise SystemExit(f"set-up hex {printed(h)} has no land near it")
        out[h].held = side
    mapproj.mark_coasts(FRAME, out)
    mark_westwall(out)
    mark_air_fronts(out)
    mapproj.mark_land_hexsides(FRAME, out, raster, LATTICE, mapproj.rivers_of(FRAME, src.RIVERS), "water")
    return out


SOUTH = ("ITA", "YUG", "ALB", "GRE", "BUL")


def mark_air_fronts(out: dict[Hex, HexData]) -> None:
    """The Air Front of each land hex (68.1 A, 76.26: West, South, East): Italy and the Balkans
    are South; elsewhere the front nearer by land, the Soviet (East) or the Allied (West)."""
    to_soviet = _distances(out, {h for h, d in out.items() if d.held == "soviet"})
    to_allied = _distances(out, {h for h, d in out.items() if d.held == "allied" and d.country not in SOUTH})
    for h, d in out.items():
        if d.country is None:
            continue
        if d.country in SOUTH or section_of(h) == "D":
            d.air = "south"
        else:
            d.air = "east" if to_soviet.get(h, 999) < to_allied.get(h, 999) else "west"


# Out of the war in December 1944: the neutrals, and Albania, freed by its own partisans in
# November 1944 and neither side's in the booklet's set-up.
NEUTRAL_1944 = ("SUI", "SWE", "TUR", "FIN", "ALB")


def held_of(d: HexData) -> str:
    """Who holds a land hex in December 1944 (authored fronts of wie_map_sources.py)."""
    lon, lat = unproject(*centre(d.hex))
    pt = (lon, lat)
    if d.country in NEUTRAL_1944:
        return "neutral"
    if d.country in ("BUL", "RUM"):  # changed sides in August-September 1944
        return "soviet"
    if any(math.dist(project(*p), centre(d.hex)) <= r for _n, p, r in src.AXIS_POCKETS):
        return "axis"
    if d.country in ("GBR", "GRE") or inside(pt, src.ALLIED_WEST) or inside(pt, src.ALLIED_ITALY):
        return "allied"
    if inside(pt, src.SOVIET_SIDE) and not inside(pt, src.COURLAND):
        return "soviet"
    return "axis"


def mark_westwall(out: dict[Hex, HexData]) -> None:
    """The West Wall (76.21 forts): German hexes on the border with the Netherlands south of
    Kleve, Belgium, Luxembourg and France (the Upper Rhine included)."""
    for h, d in out.items():
        lon, lat = unproject(*centre(h))
        if d.country != "GER" or lat > 51.8 or lon > 9.0:
            continue
        if any(on_grid(n) and out[n].country in ("NET", "BEL", "LUX", "FRA") for n in GRID.neighbours(h)):
            d.westwall = True


def terrain_of(h: Hex) -> str:
    """The predominant terrain by a vote of the centre and six inner points."""
    votes = mapproj.terrain_votes(FRAME, h, src.TERRAIN_REGIONS)
    return max(sorted(votes), key=lambda t: votes[t])


# --- places, rail, areas -------------------------------------------------------------------------
def _attrs(text: str) -> dict[str, str]:
    return dict(a.partition("=")[::2] for a in text.split())  # "k=v" -> k: v, "k" -> k: ""


def city_hex(out: dict[Hex, HexData], country: str, lon: float, lat: float) -> Hex:
    """A place's hex; one on a sliver of coast moves to the nearest land hex of its country."""
    h = hex_of(lon, lat)
    if not on_grid(h) or out[h].country == country:
        return h  # off the map (skipped by the caller) or in place
    return mapproj.land_hex_near(FRAME, out, lon, lat, country, any_land=True)


def place_cities(out: dict[Hex, HexData]) -> tuple[list[str], dict[str, Hex]]:
    """City records of the places on the sections in play; of two in one hex the first listed keeps it."""
    places = []
    for name, country, kind, lat, lon, attrs in src.CITIES:
        wk = _attrs(attrs).get("wehrkreis")
        h = from_printed(wk) if wk else city_hex(out, country, lon, lat)
        if on_grid(h):
            places.append((name, h, f"{country} {kind}{f' {attrs}' if attrs else ''} lat={lat} lon={lon}"))
    return mapproj.place_records(places)


def _between(h: Hex, line1: tuple[str, str], line2: tuple[str, str]) -> bool:
    """Between two boundary lines (inclusive: a hex the line crosses counts), east of their west ends."""
    p1, q1 = (_grid_point(from_printed(x)) for x in line1)
    p2, q2 = (_grid_point(from_printed(x)) for x in line2)
    ref = ((p1 + p2) / 2 + (q1 + q2) / 2) / 2

    def sign(p: complex, q: complex, pt: complex) -> float:
        d, w = q - p, pt - p
        return (d.real * w.imag - d.imag * w.real) / abs(d)

    here = _grid_point(h)
    ok1 = sign(p1, q1, here) * sign(p1, q1, ref) >= 0 or abs(sign(p1, q1, here)) <= 0.5
    ok2 = sign(p2, q2, here) * sign(p2, q2, ref) >= 0 or abs(sign(p2, q2, here)) <= 0.5
    ok3 = sign(q1, q2, here) * sign(q1, q2, ref) >= 0 or abs(sign(q1, q2, here)) <= 0.5
    return ok1 and ok2 and ok3


def _south_of(h: Hex, line: tuple[str, str]) -> bool:
    p, q = (_grid_point(from_printed(x)) for x in line)
    here = _grid_point(h)
    d, w = q - p, here - p
    side = d.real * w.imag - d.imag * w.real  # positive: left of p->q (p east, q west: south)
    beyond_west = ((here - q) * (p - q).conjugate()).real < 0
    return side / abs(d) >= -0.5 and not beyond_west


def areas(out: dict[Hex, HexData], where: dict[str, Hex]) -> dict[str, list[Hex]]:
    """The deployment areas of 76.3 steps 4 and 5, as hex lists (authored reading of the text)."""
    land = [h for h, d in sorted(out.items()) if d.country is not None and section_of(h) != "H"]
    axis = [h for h in land if out[h].held == "axis"]
    res: dict[str, list[Hex]] = {}
    for name, spec in src.AREA_LINES.items():
        if name == "ag-f":
            line = spec
            assert isinstance(line[0], str) and isinstance(line[1], str)
            res[name] = [h for h in axis if _south_of(h, (line[0], line[1]))]
        else:
            l1, l2 = spec
            assert isinstance(l1, tuple) and isinstance(l2, tuple)
            res[name] = [h for h in axis if _between(h, l1, l2)]
    centre_hex = from_printed(src.AG_NORTH_CENTRE)
    res["ag-north"] = [h for h in axis if GRID.distance(h, centre_hex) <= src.AG_NORTH_RANGE]
    res["central-reserve"] = sorted(h for n, h in where.items() if _is_wehrkreis(n) and out[h].held == "axis")
    res["independent"] = [from_printed(src.INDEPENDENT_HEX)]
    res["soviet-east"] = [h for h in land if out[h].held == "soviet" and out[h].country != "YUG"]
    res["yugoslavia-east"] = [h for h in land if out[h].held == "soviet" and out[h].country == "YUG"]
    res["yugoslavia-west"] = [h for h in land if out[h].held == "axis" and out[h].country == "YUG"]
    return res


def _is_wehrkreis(name: str) -> bool:
    return any(n == name and "wehrkreis=" in a for n, _c, _k, _la, _lo, a in src.CITIES)


# --- the order of battle ---------------------------------------------------------------------------
STACK = 3  # default placements put at most 3 units in a hex ([WiE-base 3.1] allows 4 divisions)
ID_PREFIX = {"GER": "GER", "RSI": "RSI", "HUN": "HUN", "US": "US", "CW": "CW", "ITA": "ITA", "SOV": "SOV",
             "BUL": "BUL", "RUM": "RUM", "YUG": "YUG"}


def _moves(kind: str) -> int:
    """The movement allowance of a printed type ("6-5KG" -> 5, "10-1-10" -> 10; SUP and RR: 0)."""
    digits = kind.rstrip("KGBkgb").split("-")
    return int(digits[-1]) if digits[-1].isdigit() else 0


def _distances(out: dict[Hex, HexData], sources: set[Hex]) -> dict[Hex, int]:
    dist = dict.fromkeys(sources, 0)
    todo = sorted(sources)
    while todo:
        nxt = []
        for h in todo:
            for n in GRID.neighbours(h):
                if on_grid(n) and n not in dist and out[n].country is not None:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        todo = nxt
    return dist


def _spread(units: list[tuple[str, str, str]], hexes: list[Hex], count: Counter[Hex], limit: int) -> list[Hex]:
    """Layer by layer along the ordered hexes: one unit a hex, then a second, up to ``limit``."""
    placed: list[Hex] = []
    order = [h for level in range(limit) for h in hexes if count[h] <= level]
    for _u, h in zip(units, order, strict=False):
        count[h] += 1
        placed.append(h)
    if len(placed) < len(units):
        raise SystemExit(f"no room for {len(units) - len(placed)} units")
    return placed


def order_of_battle(out: dict[Hex, HexData], area: dict[str, list[Hex]]) -> list[str]:
    """units.txt records: the by-hex set-up as printed, then the area formations with a default hex."""
    serial: Counter[str] = Counter()

    def uid(nation: str) -> str:
        serial[nation] += 1
        return f"{ID_PREFIX[nation]}-{serial[nation]:03d}"

    lines: list[str] = ["# --- 76.21 and 76.2: placed on the printed hexes (seed) ---"]
    count: Counter[Hex] = Counter()
    for row in setup_lines():
        side, nation, kind, per, *printed_hexes = row.split()
        for p in printed_hexes:
            moved, why = src.SETUP_MOVED.get((side, kind, p), (p, ""))
            h = from_printed(moved)
            note = f' moved=authored why="{why}"' if why else ""
            for _ in range(int(per)):
                count[h] += 1
                lines.append(f"unit {uid(nation)} {side} {nation} {kind} at={h} printed={p} setup=placed "
                             f"source=seed{note}")
    soviet = {h for h, d in out.items() if d.held == "soviet"}
    axis = {h for h, d in out.items() if d.held == "axis"}
    to_soviet, to_axis = _distances(out, soviet), _distances(out, axis)
    front = {h for h in axis if to_soviet.get(h) == 1 and section_of(h) != "H"}
    covered: set[Hex] = set()
    for name in ("ag-north", "independent", "ag-center", "ag-a", "ag-south", "ag-f", "central-reserve",
                 "soviet-east", "yugoslavia-east", "yugoslavia-west"):
        units = [(s, n, k) for s, n, k, c, a in src.SETUP_BY_AREA if a == name for _ in range(c)]
        hexes = area[name]
        if name == "central-reserve":
            where = _spread(units, hexes, Counter(), 1)
        elif name.startswith("yugoslavia"):
            step = max(1, len(hexes) // max(1, len(units)))
            where = hexes[::step][: len(units)]
        else:
            enemy = to_axis if units[0][0] == "soviet" else to_soviet
            ordered = sorted(hexes, key=lambda h: (enemy.get(h, 99), h))
            where = _cover(units, ordered, front, covered, count) if units[0][0] == "axis" else \
                _spread(units, ordered, count, STACK)
        lines.append(f"# --- {name}: {len(units)} units (seed), default hexes authored ---")
        for (side, nation, kind), h in zip(units, where, strict=True):
            lines.append(f"unit {uid(nation)} {side} {nation} {kind} at={h} area={name} setup=area source=seed "
                         f"placed=authored")
    gaps = sorted(front - covered)
    if gaps:
        print(f"front hexes left uncovered by the default placement: {[printed(h) for h in gaps]}", file=sys.stderr)
    return lines


def _cover(units: list[tuple[str, str, str]], ordered: list[Hex], front: set[Hex], covered: set[Hex],
           count: Counter[Hex]) -> list[Hex]:
    """Axis default placement: first an infantry unit on each uncovered front hex of the area
    (76.3 step 4: every front hex occupied by or in the zone of control of Axis infantry),
    then the rest spread from the front back."""
    where: list[Hex | None] = [None] * len(units)
    infantry = [i for i, (_s, _n, k) in enumerate(units) if _moves(k) <= 5]
    for h in ordered:
        if h in front and h not in covered and infantry:
            i = infantry.pop(0)
            where[i] = h
            count[h] += 1
            covered.update({h, *GRID.neighbours(h)})
    rest = [u for u, w in zip(units, where, strict=True) if w is None]
    spread = iter(_spread(rest, ordered, count, STACK))
    out = [w if w is not None else next(spread) for w in where]
    for (_s, _n, kind), h in zip(units, out, strict=True):
        if _moves(kind) <= 5:
            covered.update({h, *GRID.neighbours(h)} & front)
    return out


# --- output ---------------------------------------------------------------------------------------
def _header(kind: str) -> list[str]:
    return [
        f"# The War in Europe 1945 map (Battle for Germany, 76.0): {kind}.",
        "# source = \"authored\": the booklet has no map (rules-gaps.md, WiE item 1).  GENERATED by",
        f"# tools/author_map_wie.py from {SOURCE}",
        "# and the authored layers of tools/wie_map_sources.py.",
        f"# One grid for map sections C, D and G (76.12), registered on the booklet's own numbers: a hex is "
        f"{ACROSS_KM:.2f} km",
        f"# across, the grid turned {math.degrees(cmath.phase(A)):.1f} degrees (map north is north-west), "
        "fitted to the German Placement",
        "# Centers of 77.7.  Map C hexes keep their printed numbers; G hexes are col+60 (G0314 = 6314),",
        "# D hexes row+33 (D2601 = 2634); cols 61-84 x rows 34-64 are map H, out of play.  Regenerate",
        "# into a scratch directory and diff: docs/wie-map.md.",
        "#",
        "# Column convention (pbem.kit.hexgrid EVEN_COLUMNS_LOW): EVEN columns half a hex lower.",
    ]


MAP_KEY = """\
#
#   hex XXYY TERRAIN COUNTRY SECTION HELD AIR [coastal] [westwall] [sea=AREA,..] [river=DIRS] [water=DIRS]
#   TERRAIN  clear | rough | forest | mountain | marsh | sea     ([WiE-base 5.1])
#   COUNTRY  December 1944: GER the Reich (1937 borders, Austria, Danzig, Memel), BOH Bohemia-
#            Moravia with the Sudetenland, POL, SLK Slovakia, HUN, RUM, BUL, YUG, ALB, GRE, ITA,
#            SUI, FRA, BEL, NET, LUX, DEN, SWE, NOR, GBR, SOV (the USSR of 1941), TUR, FIN; '-' sea
#   SECTION  C D G (in play, 76.12) | H (out of play)
#   HELD     who holds the hex at the start (3/13/44): axis | allied | soviet | neutral; '-' sea.
#            soviet = on or east of the 1945 Start Line (76.3 step 5), authored from the front of
#            December 1944; every hex the booklet's set-up names is held by the side placed there
#   AIR      the Air Front (68.1 A, 76.26; [WiE-base 13.1]): west | south (Italy, the Balkans,
#            map D) | east (nearer the Soviet front than the Allied one); '-' sea
#   westwall a German West Wall hex (76.21: a Fortification Marker unless an Allied unit is in it)
#   river= / water=  hexside features by direction (N NE SE S SW NW), on BOTH hexes: river
#            ([WiE-base 5.2]), water (an all-sea edge between two land hexes: no land crossing)"""


def write_map(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format wie-map 1", *_header("one line per hex"), *MAP_KEY.split("\n"),
             f"grid cols={COLS} rows={ROWS} low_columns=even", ""]
    for c in range(1, COLS + 1):
        lines.append(f"# column {c:02d}")
        for r in range(1, ROWS + 1):
            d = out[Hex(c, r)]
            attrs = (["coastal"] if d.coastal else []) + (["westwall"] if d.westwall else [])
            if d.sea:
                attrs.append("sea=" + ",".join(sorted(d.sea)))
            attrs += mapproj.side_attrs(d.sides, {"river": "river", "water": "water"})
            lines.append(f"hex {d.hex} {d.terrain:8s} {d.country or '-':3s} {section_of(d.hex)} {d.held:7s} "
                         f"{d.air:5s} " + " ".join(attrs))
    path.write_text("\n".join(x.rstrip() for x in lines) + "\n")


FEATURES_KEY = """\
#
#   section S cols=A-B rows=A-B col0=N row0=N play=yes|no   a map section: printed SNNMM is
#            hex (NN+col0)(MM+row0) here (76.12: C, D and G in play)
#   city "Name" XXYY COUNTRY KIND [wehrkreis=SNNNN [printed=SNNNN]] [mfg] [resource]
#        [personnel printed=SNNNN] [port=major|minor] [capital=COUNTRY] lat= lon=
#     KIND capital | city | town.  wehrkreis: a German Placement Center (77.7, seed; printed=
#     the booklet's text where it is an erratum).  mfg / resource: German Manufacturing and
#     Resource Centers (76.4 victory points; 76.25 bombed centers): see wie_map_sources.py.
#     personnel: a Soviet Personnel Center (77.7; printed= its booklet hex, within a hex of it)
#   alias "Name" XXYY "Place" ...   a place merged into the place of its hex
#   fort XXYY printed=SNNNN   a Fortification Marker of 76.21 besides the West Wall (map.txt)
#   area NAME XXYY ...   a deployment area of 76.3 (army groups, central reserve, Soviet side)
#   line "Name" XXYY XXYY ...   a rail line ([WiE-base 8.1]), hex by hex"""


def write_features(out: dict[Hex, HexData], path: Path) -> dict[str, list[Hex]]:
    lines = ["format wie-features 1", *_header("places, forts, areas and rail"), *FEATURES_KEY.split("\n"), ""]
    lines += [f"section C cols=01-{G_COLS} rows=01-{D_ROWS} col0=0 row0=0 play=yes",
              f"section D cols=01-{G_COLS} rows=01-{ROWS - D_ROWS} col0=0 row0={D_ROWS} play=yes",
              f"section G cols=01-{COLS - G_COLS} rows=01-{D_ROWS} col0={G_COLS} row0=0 play=yes",
              f"section H cols=01-{COLS - G_COLS} rows=01-{ROWS - D_ROWS} col0={G_COLS} row0={D_ROWS} play=no", ""]
    city_lines, where = place_cities(out)
    lines += [*city_lines, ""]
    lines += [f"fort {from_printed(p)} printed={p}" for p in src.FORTS] + [""]
    area = areas(out, where)
    for name, hexes in area.items():
        lines.append(f"area {name} " + " ".join(str(h) for h in hexes))
    lines.append("")
    for name, waypoints in src.LINES:
        stops = [hex_of(*w) if isinstance(w, tuple) else where.get(w) or from_printed(w) for w in waypoints]
        lines.append(f'line "{name}" ' + " ".join(str(h) for h in mapproj.rail_chain(GRID, stops, out, name)))
    path.write_text("\n".join(lines) + "\n")
    return area


UNITS_KEY = """\
# The order of battle of 76.2 (seed): one record per unit.  GENERATED by tools/author_map_wie.py
# from the booklet's tabulation transcribed in tools/wie_map_sources.py (SETUP_BY_HEX,
# SETUP_BY_AREA).  Units the booklet puts on a hex carry that hex (printed= as the booklet
# prints it).  Units it gives by formation and area only (the army groups of 76.3 step 4,
# the Soviet, Bulgarian, Rumanian and Yugoslav forces of step 5) are placed by their player
# in the starting sequence; at= is then an AUTHORED default (placed=authored): the tool puts
# an infantry unit on each uncovered front hex of the area (76.3 step 4's coverage rule),
# then spreads the rest from the front back, at most 3 a hex, so that a game, the demo and
# the picture can start without the placement step.
#
#   unit ID SIDE NATION TYPE at=XXYY [printed=SNNNN] [area=NAME] setup=placed|area
#        source=seed [placed=authored] [moved=authored why=".."]
#   moved  the one printed hex given to both sides (C3306): the unit is on the adjacent hex
#   SIDE   axis | allied | soviet (76.3 step 5: the Soviet player deploys the Bulgarian,
#          Rumanian and Yugoslav units)
#   NATION GER, RSI (Fascist Italian, printed "Fascist Italian"), HUN, US, CW (Commonwealth),
#          ITA (Allied Italian), SOV, BUL, RUM, YUG
#   TYPE   as printed: attack-movement ("6-5"), KG/BG battle groups, "[5]-1" fortress units,
#          "0-1-10"/"10-1-10" artillery, SUP supply units, RR railroad units ([WiE-base 1.2])"""


def write_units(out: dict[Hex, HexData], area: dict[str, list[Hex]], path: Path) -> None:
    lines = ["format wie-units 1", UNITS_KEY, "", *order_of_battle(out, area)]
    path.write_text("\n".join(lines) + "\n")


def generate(outdir: Path, shapefile_zip: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    out = classify(rasterise(shapefile_zip))
    write_map(out, outdir / "map.txt")
    area = write_features(out, outdir / "features.txt")
    write_units(out, area, outdir / "units.txt")
    land = Counter(d.country for d in out.values() if d.country)
    print(f"{COLS}x{ROWS} = {len(out)} hexes, {ACROSS_KM:.2f} km: {sum(land.values())} land -> {outdir}",
          file=sys.stderr)


# --- rendering (from the committed files, read with pbem.kit) -----------------------------------------
FILL = {"clear": "#e9e6c9", "rough": "#cfc59a", "forest": "#a9c08e", "mountain": "#a99b7a", "marsh": "#b6cfae"}
OUT_OF_PLAY = "#d0d0d0"
NEUTRAL = "#e4e4e4"
SIDES = {"axis": {"name": "Axis", "fill": "#4d4d4d", "ink": "#ffffff"},
         "allied": {"name": "Allied", "fill": "#3b6fb6", "ink": "#ffffff"},
         "soviet": {"name": "Soviet", "fill": "#b3261e", "ink": "#f7e08a"}}


def picture(scenario: Path) -> dict[str, object]:
    """A pbem.present.render map picture of the committed map with the default set-up face up
    (a document, not a player's view)."""
    recs, feats, units = mapproj.read_layers(scenario, "wie", ("map", "features", "units"))
    places = {r.words[1]: r for r in feats if r.keyword == "city"}
    hexes, sides = [], []
    region: dict[str, tuple[str, str]] = {}  # a border between countries or between holders
    for r in recs:
        if r.keyword != "hex" or r.words[1] == "sea":
            continue
        hid, terrain, code, sec, side = r.words[:5]
        region[hid] = (code, side)
        place = places.get(hid)
        marker, label = "none", ""
        if place is not None:
            label = place.words[0] if place.words[3] != "town" or "resource" in place.words else ""
            marker = ("capital" if "wehrkreis" in place.attrs or "capital" in place.attrs
                      else "factory" if "mfg" in place.words or "resource" in place.words
                      else "port" if "port" in place.attrs else "city")
        fill = OUT_OF_PLAY if sec == "H" else NEUTRAL if side == "neutral" else FILL[terrain]
        owner = side if side in SIDES and place is not None else None
        hexes.append({"id": hid, "fill": fill, "label": label, "marker": marker, "owner": owner})
        sides += mapproj.picture_sides(GRID, hid, r.attrs.get("river", ""), "river")
    sides += mapproj.border_sides(GRID, region)
    pieces: list[dict[str, object]] = [
        {"hex": u.attrs["at"], "id": u.words[0], "text": u.words[3], "sub": u.words[2], "side": u.words[1],
         "flags": [], "steps": [1, 1]} for u in units if u.keyword == "unit"]
    return mapproj.hex_picture(recs, feats, hexes, sides, pieces, SIDES)


def render(scenario: Path, png: Path) -> int:
    return mapproj.write_png(picture(scenario), png, px=1.2)


def main(argv: list[str] | None = None) -> int:
    return mapproj.tool_main(argv, __doc__, REPO / "docs" / "images" / "wie-1945-map.png", generate,
                             lambda png: render(SCENARIO, png))


if __name__ == "__main__":
    raise SystemExit(main())
