"""Authoring tool for the USE East and Mediterranean 1941 map (a developer tool, never run at play time).

    .venv/bin/python tools/author_map_east.py generate OUTDIR [--shapefile ZIP]
    .venv/bin/python tools/author_map_east.py render [--png PATH]

``generate`` lays USE's hex grid (Lambert azimuthal equal-area centred on the map; a hex is
35 miles = 56.3 km across the flats, USE 1.1.5, the France 1940 scale) over the Natural Earth
1:10m countries shapefile, marks each hex land or water, its 1941 country, coast and sea
zone, the water hexsides between land hexes, then applies the authored layers of
``east_map_sources.py`` (1941 borders, terrain, rivers, areas, cities, transport lines, map
boxes) and writes USE's ``map.txt`` and ``features.txt`` into OUTDIR.  The committed files
of scenarios/use/east-med-1941 were made this way: regenerate into a scratch directory and
diff, never over the committed files.  The method is France 1940's (docs/use-map.md); the
grid, raster and river walk are the shared ones of tools/mapproj.py, so that France 1940's
own tool (tools/author_map_use.py) stays untouched.

pyshp is needed for ``generate`` only; it is not a runtime dependency of pbem.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mapproj  # noqa: E402
from east_map_sources import (  # noqa: E402
    AREAS,
    BOXES,
    CITIES,
    COUNTRY_OF,
    LAND_FORCED,
    LINES,
    OVERRIDES,
    REFINE,
    RIVERS,
    SEA_ZONES,
    STRAITS,
    TERRAIN_REGIONS,
    sea_zone_of,
    weather_zone_of,
)
from mapproj import SOURCE, HexCell, Lambert, Lattice, NorthUpFrame, inside  # noqa: E402

from pbem.kit.hexgrid import DIRECTIONS, EVEN_COLUMNS_LOW, Hex  # noqa: E402

GRID = EVEN_COLUMNS_LOW  # USE's grid (rules/use/hexgrid.py)
SCENARIO = "east-med-1941"

# --- projection and grid ------------------------------------------------------
LAT0, LON0 = math.radians(42.7), math.radians(27.0)  # the middle of the window
ACROSS_KM = 56.3  # 35 miles across the flats (USE 1.1.5), as France 1940
SIZE_KM = ACROSS_KM / math.sqrt(3)
WEST, EAST, SOUTH, NORTH = 18.9, 35.0, 34.8, 50.6  # the window the grid covers
RASTER_KM = 4.0
LAND_MIN = 0.25  # as France 1940: slivers are not hexes
CLAMP = (5.0, 25.0, 50.0, 60.0)  # lon/lat box the shapefile's rings are clamped to

_PROJ = Lambert(LAT0, LON0)
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
FRAME = NorthUpFrame(_PROJ, GRID, COLS, ROWS, X0, Y0, ACROSS_KM)
centre, hex_of, on_grid = FRAME.centre, FRAME.hex_of, FRAME.on_grid
LATTICE = Lattice.cover(X0 - 2 * SIZE_KM, Y0 - ACROSS_KM * (ROWS + 1), X0 + 1.5 * SIZE_KM * COLS + SIZE_KM,
                        Y0 + 2 * SIZE_KM, RASTER_KM)


def _country(code: str, lon: float, lat: float) -> str:
    """1941 borders: the authored REFINE polygons re-assign land annexed in 1939-1940."""
    return next((c for c, poly in REFINE if inside((lon, lat), poly)), code)


def rasterise(shapefile_zip: Path) -> mapproj.Raster:
    return mapproj.rasterise(shapefile_zip, _PROJ, LATTICE, CLAMP, COUNTRY_OF, _country)


# --- classification ------------------------------------------------------------
class HexData(HexCell):
    def __init__(self, h: Hex) -> None:
        super().__init__(h)
        self.land = 0.0
        self.terrain = "water"
        self.weather = "mild"
        self.area: str | None = None


def classify(raster: mapproj.Raster) -> dict[Hex, HexData]:
    samples = mapproj.sample_hexes(FRAME, raster, LATTICE)
    forced = {hex_of(*p) for p in LAND_FORCED}
    out: dict[Hex, HexData] = {}
    for h in FRAME.hexes():
        d = out[h] = HexData(h)
        total = sum(samples[h].values()) or 1
        land = Counter({k: v for k, v in samples[h].items() if k is not None})
        d.land = sum(land.values()) / total
        lon, lat = unproject(*centre(h))
        d.weather = weather_zone_of(lon, lat)
        if land and (d.land >= LAND_MIN or h in forced):
            d.country = land.most_common(1)[0][0]
            d.terrain = mapproj.terrain_votes(FRAME, h, TERRAIN_REGIONS).most_common(1)[0][0]
            d.area = next((a for a, c, poly in AREAS if c == d.country and inside((lon, lat), poly)), None)
        else:
            d.sea.add(sea_zone_of(lon, lat))
    mapproj.mark_coasts(FRAME, out)  # 1.3.3: a land hex next to a water hex is coastal
    mapproj.mark_land_hexsides(FRAME, out, raster, LATTICE, mapproj.rivers_of(FRAME, RIVERS), "water")
    for edit, _why in OVERRIDES:
        hid, op = edit.split(" ", 1)
        d = out[Hex(int(hid[:2]), int(hid[2:]))]
        if op.startswith("sea="):
            d.sea = set(op[4:].split(","))
        elif op == "coastal":  # a shore the 25% raster misses (a strait narrower than a hex)
            d.coastal = True
        elif op.startswith("terrain:"):
            d.terrain = op.split(":")[1]
        elif op.startswith(("water:", "strait:")):  # a hexside feature with the named neighbour, both hexes
            kind, other = op.split(":")
            mapproj.add_side(GRID, d, out[Hex(int(other[:2]), int(other[2:]))], kind)
        else:
            raise SystemExit(f"bad override {edit!r}")
    return out


# --- output ---------------------------------------------------------------------
MAP_HEADER = f"""\
# The East and Mediterranean 1941 map: one line per hex.  AUTHORED (the seed rulebook has no map).
# Generated by tools/author_map_east.py from {SOURCE}
# (land/water, country, coast, water hexsides), Lambert azimuthal equal-area projection centred
# on 42.7N 27E, a hex is 35 miles = 56.3 km across (USE 1.1.5, as France 1940); the 1941
# borders, terrain, rivers, areas, sea zones and weather zones come from the authored layers in
# tools/east_map_sources.py.  Regenerate into a scratch directory and diff (docs/use-map.md).
#
# Hex numbering XXYY: column XX (west to east), row YY (north to south), flat-topped hexes,
# even columns half a hex lower (rules/use/SCENARIO_API.md).
#
#   hex XXYY TERRAIN COUNTRY WEATHER [coastal] [sea=Z,..] [area=A] [river=DIRS] [water=DIRS]
#   TERRAIN  clear | rough | mountain | marsh | water         (rules/use/data/terrain.toml)
#   COUNTRY  a code of countries.txt, '-' for a water hex       (April 1941 borders)
#   WEATHER  cold | mild | warm                                 (1.3.9; authored lines)
#   coastal  a land hex with a coast on a sea zone (1.3.3)
#   sea=     sea zones of a water hex or a coastal hex (1.3.6)
#   area=    Overseas Areas (16.0): albania, rhodes (Italy), crete (Greece), cyprus (UK);
#            occupied-ussr: Occupied USSR, west of the Disputed border (2.2, 10.3.6, 13.2)
#   river= / water= / strait=  hexside features on the listed sides (N NE SE S SW NW), on BOTH
#            hexes; water= is a water hexside between two land hexes (no ground unit crosses it);
#            strait= a Strait a ground unit crosses at the Strait cost (terrain.toml [hexside.strait]).""".split("\n")

FEATURES_HEADER = """\
# Sea zones, map boxes, cities and transport lines of the East and Mediterranean 1941 map.
# AUTHORED.  Generated by tools/author_map_east.py (city hexes from their real coordinates,
# lines drawn hex by hex between the waypoints of tools/east_map_sources.py).
#
#   seazone ID "Name" [adjacent=ID,..]      adjacency is symmetric; zones must touch or share a hex
#   strait "Name" ZONE ZONE XXYY XXYY       a Strait symbol (1.3.3) between two adjacent zones,
#       pointing to two adjacent land hexes in both zones: naval movement across it costs the
#       Strait MP and is prohibited if either hex holds an enemy city, fort or unit (4.2.4);
#       naval interception does not cross it (6.4.3).  The Dardanelles, the Bosporus and the
#       Kerch Strait are open while Turkey is neutral (a neutral's city is no enemy's).
#   box ID "Name" sea|land friendly=FACTION [seazones=..] [boxes=..] [edge=XXYY,..]
#       a map box (1.3.5).  CR is the seed's Central Russia box (Moscow, Kharkov, Stalino);
#       WIO the seed's Western Indian Ocean box, reached from the Eastern Mediterranean through
#       Suez (authored).  REICH (Berlin) and ITALY (Rome, across the Strait of Otranto) are
#       authored land boxes like France 1940's REICH: ground and air units move between a box
#       and its edge hexes, and its transport line carries supply.
#   city "Name" XXYY|BOX COUNTRY [capital] [port] [factories=N] [lat= lon=]     (1.3.1)
#   line "Name" XXYY XXYY ... [BOX]          a rail or road Transport Line (1.3.7).""".split("\n")


def write_map(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format use-map 1", *MAP_HEADER, f"grid cols={COLS} rows={ROWS}", ""]
    for c in range(1, COLS + 1):
        lines.append(f"# column {c:02d}")
        for r in range(1, ROWS + 1):
            d = out[Hex(c, r)]
            attrs = ["coastal"] if d.coastal else []
            if d.sea:
                attrs.append("sea=" + ",".join(sorted(d.sea)))
            if d.area:
                attrs.append(f"area={d.area}")
            attrs += mapproj.side_attrs(d.sides, {"river": "river", "water": "water", "strait": "strait"})
            lines.append(f"hex {d.hex} {d.terrain:8s} {d.country or '-':4s} {d.weather:5s} " + " ".join(attrs))
    path.write_text("\n".join(x.rstrip() for x in lines) + "\n")


def city_hex(out: dict[Hex, HexData], country: str, lon: float, lat: float) -> Hex:
    """A city's hex; one on a sliver of coast moves to the nearest land hex of its country."""
    h = hex_of(lon, lat)
    if on_grid(h) and out[h].country == country:
        return h
    return mapproj.land_hex_near(FRAME, out, lon, lat, country)


def _stop(w: str | tuple[float, float], where: dict[str, Hex]) -> Hex:
    return hex_of(*w) if isinstance(w, tuple) else where[w]


def strait_lines(out: dict[Hex, HexData]) -> list[str]:
    """The authored Straits (USE 4.2.4), checked as the loader will: two adjacent land hexes
    that lie in both zones (1.3.6)."""
    lines = []
    for name, za, zb, p, q in STRAITS:
        a, b = hex_of(*p), hex_of(*q)
        if not GRID.adjacent(a, b) or any(
                out[h].country is None or not {za, zb} <= out[h].sea for h in (a, b)):
            raise SystemExit(f"strait {name}: {a} and {b} are not two adjacent land hexes in {za} and {zb}")
        lines.append(f'strait "{name}" {za} {zb} {a} {b}')
    return lines


def write_features(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format use-features 1", *FEATURES_HEADER, ""]
    for zid, name, adjacent in SEA_ZONES:
        lines.append(f'seazone {zid} "{name}"' + (f" adjacent={adjacent}" if adjacent else ""))
    lines += ["", *strait_lines(out), ""]
    where: dict[str, Hex] = {}
    city_lines: list[str] = []
    for name, country, flags, lat, lon in CITIES:
        if lat is None or lon is None:
            box, rest = flags.split(" ", 1)
            city_lines.append(f'city "{name}" {box} {country} {rest}')
            continue
        h = city_hex(out, country, lon, lat)
        if h in where.values():
            raise SystemExit(f"{name} falls in {h} with another city: move it")
        where[name] = h
        city_lines.append(f'city "{name}" {h} {country} {flags} lat={lat} lon={lon}'.replace("  ", " "))
    edges: dict[str, list[str]] = {}
    line_lines: list[str] = []
    for name, waypoints in LINES:
        boxes = [w for w in (waypoints[0], waypoints[-1]) if isinstance(w, str) and w not in where]
        stops = [_stop(w, where) for w in waypoints if w not in boxes]
        chain = [str(h) for h in mapproj.rail_chain(GRID, stops, out, name)] if len(stops) > 1 \
            else [str(stops[0])]  # a box's line ending at its edge city
        if waypoints[0] in boxes:
            edges.setdefault(str(waypoints[0]), []).append(chain[0])
            chain.insert(0, str(waypoints[0]))
        if waypoints[-1] in boxes:
            edges.setdefault(str(waypoints[-1]), []).append(chain[-1])
            chain.append(str(waypoints[-1]))
        line_lines.append(f'line "{name}" ' + " ".join(chain))
    # USE 1.3.5: movement runs "between the eastern map edge within the USSR and the Central
    # Russia Box": every USSR land hex of the last column, not only where the lines leave the map.
    edges["CR"] = [str(h) for h, d in out.items() if h.col == COLS and d.country == "USSR" and d.terrain != "water"]
    for box in BOXES:
        bid = box.split()[1]
        lines.append(box.replace(f"EDGE_{bid}", ",".join(sorted(set(edges.get(bid, []))))))
    lines += ["", *city_lines, "", *line_lines]
    path.write_text("\n".join(lines) + "\n")


def generate(outdir: Path, shapefile_zip: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    out = classify(rasterise(shapefile_zip))
    write_map(out, outdir / "map.txt")
    write_features(out, outdir / "features.txt")
    land = Counter(d.country for d in out.values() if d.country)
    print(f"{COLS}x{ROWS} = {len(out)} hexes: {sum(land.values())} land {dict(sorted(land.items()))} -> {outdir}")


# --- rendering (the loaded scenario, with the real loader) ----------------------------------
LETTER = {"USSR": "R", "ROM": "O", "HUN": "H", "BUL": "B", "GER": "G", "POL": "P", "ITA": "I", "YUG": "Y",
          "GRE": "E", "TUR": "T", "UK": "K"}
TERRAIN_MARK = {"clear": ".", "rough": "^", "mountain": "M", "marsh": "%"}


def ascii_map(name: str) -> str:
    """Two text lines per hex row: odd columns, then the (lower) even columns."""
    from rules.use.scenario import load_scenario  # the real loader

    m = load_scenario(name).map
    out = ["    " + "".join(f"{c:02d}    " for c in range(1, m.cols + 1, 2))]
    for r in range(1, m.rows + 1):
        for parity in (1, 0):
            cells = [" "] * (3 * m.cols + 1)
            for c in range(2 - parity, m.cols + 1, 2):
                info = m.hexes[Hex(c, r)]
                city = m.city_at(info.hex)
                if info.is_water:
                    cell = sorted(info.sea_zones)[0].lower() if info.sea_zones else "~~"
                else:
                    mark = "@" if city is not None and city.capital else "*" if city is not None \
                        else TERRAIN_MARK[info.terrain]
                    cell = LETTER.get(info.country or "", "?") + mark
                cells[3 * (c - 1):3 * (c - 1) + 2] = list(cell)
            out.append((f"{r:02d}  " if parity else "    ") + "".join(cells).rstrip())
    return "\n".join(out) + "\n"


FILL = {"clear": "#e9e6c9", "rough": "#c7c08e", "mountain": "#a99b7a", "marsh": "#b6cfae"}
SIDES = {"axis": {"name": "Axis", "fill": "#5b5f63", "ink": "#ffffff"},
         "western": {"name": "Western Allies", "fill": "#2f6db5", "ink": "#ffffff"},
         "soviet": {"name": "Soviet", "fill": "#b3261e", "ink": "#ffffff"}}


def picture(scenario: Path) -> dict[str, object]:
    """A pbem.present.render picture of the committed map (terrain, rivers, borders, cities)."""
    recs, feats = mapproj.read_layers(scenario, "use", ("map", "features"))
    cities = {r.words[1]: r for r in feats if r.keyword == "city" and r.words[1][:1].isdigit()}
    hexes, sides = [], []
    country: dict[str, str] = {}
    for r in recs:
        if r.keyword != "hex" or r.words[1] == "water":
            continue
        hid = r.words[0]
        country[hid] = r.words[2]
        city = cities.get(hid)
        marker = "none" if city is None else "capital" if "capital" in city.words else \
            "factory" if "factories" in city.attrs else "port" if "port" in city.words else "city"
        hexes.append({"id": hid, "fill": FILL[r.words[1]], "label": city.words[0] if city else "",
                      "marker": marker, "owner": None})
        sides += mapproj.picture_sides(GRID, hid, r.attrs.get("river", ""), "river")
    sides += mapproj.border_sides(GRID, country)
    pic = mapproj.hex_picture(recs, feats, hexes, sides, [], SIDES)
    pic["lines"] = [{**ln, "hexes": [h for h in ln["hexes"] if h[:1].isdigit()]}  # no box ends
                    for ln in pic["lines"]]  # type: ignore[attr-defined]
    return pic


def render(png: Path) -> int:
    sys.stdout.write(ascii_map(SCENARIO))
    return mapproj.write_png(picture(REPO / "scenarios" / "use" / SCENARIO), png, px=2.0)


def main(argv: list[str] | None = None) -> int:
    return mapproj.tool_main(argv, __doc__, REPO / "docs" / "images" / "use-east-med-1941-map.png",
                             generate, render)


if __name__ == "__main__":
    assert [d.name for d in DIRECTIONS] == ["N", "NE", "SE", "S", "SW", "NW"]
    raise SystemExit(main())
