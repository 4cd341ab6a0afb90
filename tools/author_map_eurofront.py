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

import math
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mapproj  # noqa: E402
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
from mapproj import SOURCE, HexCell, Lambert, Lattice, NorthUpFrame, add_side, inside  # noqa: E402

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW, Hex  # noqa: E402

GRID = EVEN_COLUMNS_LOW
SCENARIO = REPO / "scenarios" / "eurofront" / "scw-1936"

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
CLAMP = (-20.0, 25.0, 15.0, 52.0)  # lon/lat box the shapefile's rings are clamped to (mapproj.rasterise)


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
FRAME = NorthUpFrame(_PROJ, GRID, COLS, ROWS, X0, Y0, ACROSS_KM)
centre, hex_at, hex_of, on_grid = FRAME.centre, FRAME.hex_at, FRAME.hex_of, FRAME.on_grid
LATTICE = Lattice.cover(X0 - 2 * SIZE_KM, Y0 - ACROSS_KM * (ROWS + 1), X0 + 1.5 * SIZE_KM * COLS + SIZE_KM,
                        Y0 + 2 * SIZE_KM, RASTER_KM)


def _country(code: str, lon: float, lat: float) -> str:
    """The Protectorate is not a modern country: Morocco and the Spanish enclaves inside its
    authored outline become Spanish Morocco."""
    in_spm = code in ("FMO", "SPA") and lat < 36.2 and inside((lon, lat), SPANISH_MOROCCO)
    return "SPM" if in_spm else code


def rasterise(shapefile_zip: Path) -> mapproj.Raster:
    return mapproj.rasterise(shapefile_zip, _PROJ, LATTICE, CLAMP, COUNTRY_OF, _country)


# --- classification ------------------------------------------------------------
class HexData(HexCell):
    def __init__(self, h: Hex) -> None:
        super().__init__(h)
        self.land = 0.0


def classify(raster: mapproj.Raster) -> dict[Hex, HexData]:
    samples = mapproj.sample_hexes(FRAME, raster, LATTICE)
    forced = {hex_of(*p) for p in LAND_FORCED}
    out: dict[Hex, HexData] = {}
    for h in FRAME.hexes():
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
    mapproj.mark_coasts(FRAME, out)  # 1.44: a port needs a coast; a land hex next to a sea hex has one
    mark_hexsides(out, raster)
    return out


def terrain_of(h: Hex) -> str:
    """The predominant terrain (1.3) by a vote of the centre and six inner points."""
    return mapproj.terrain_votes(FRAME, h, TERRAIN_REGIONS).most_common(1)[0][0]


def mark_hexsides(out: dict[Hex, HexData], raster: mapproj.Raster) -> None:
    """Sea hexsides (a land-land edge that is all water), rivers (1.36), then the authored straits."""
    mapproj.mark_land_hexsides(FRAME, out, raster, LATTICE, mapproj.rivers_of(FRAME, RIVERS), "sea")
    for name, p, q in STRAITS:
        a, b = hex_of(*p), hex_of(*q)
        if not GRID.adjacent(a, b) or out[a].country is None or out[b].country is None:
            raise SystemExit(f"strait {name}: {a} and {b} are not two adjacent land hexes")
        direction = GRID.direction_to(a, b)
        assert direction is not None
        out[a].sides["sea"].discard(direction.name)
        out[b].sides["sea"].discard(direction.opposite.name)
        add_side(GRID, out[a], out[b], "strait")
    for op, p, q, why in OVERRIDES:
        a, b = hex_of(*p), hex_of(*q)
        direction = GRID.direction_to(a, b)
        if direction is None:
            raise SystemExit(f"override {op} ({why}): {a} and {b} are not adjacent")
        if op == "+water":
            add_side(GRID, out[a], out[b], "sea")
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
    lines = ["format eurofront-map 1", *MAP_HEADER, f"grid cols={COLS} rows={ROWS} low_columns=even", ""]
    for c in range(1, COLS + 1):
        lines.append(f"# column {c:02d}")
        for r in range(1, ROWS + 1):
            d = out[Hex(c, r)]
            attrs = ["coastal"] if d.coastal else []
            if d.sea:
                attrs.append("sea=" + ",".join(sorted(d.sea)))
            attrs += mapproj.side_attrs(d.sides, {"river": "river", "strait": "strait", "water": "sea"})
            lines.append(f"hex {d.hex} {d.terrain:8s} {d.country or '-':3s} " + " ".join(attrs))
    path.write_text("\n".join(x.rstrip() for x in lines) + "\n")


def city_hex(out: dict[Hex, HexData], country: str, lon: float, lat: float, enclave: bool = False) -> Hex:
    """A place's hex; one on a sliver of coast moves to the nearest land hex of its country."""
    h = hex_of(lon, lat)
    if out[h].country == country or (enclave and out[h].country is not None):
        return h
    return mapproj.land_hex_near(FRAME, out, lon, lat, country)


def place_cities(out: dict[Hex, HexData]) -> tuple[list[str], dict[str, Hex]]:
    """City records; of two places in one hex the first listed (the more important) keeps it."""
    return mapproj.place_records(
        (name, city_hex(out, country, lon, lat, "enclave" in attrs.split()),
         f"{country} {kind} loyal={loyal}{f' {attrs}' if attrs else ''} lat={lat} lon={lon}")
        for name, country, kind, loyal, lat, lon, attrs in CITIES)


def write_features(out: dict[Hex, HexData], path: Path) -> None:
    lines = ["format eurofront-features 1", *FEATURES_HEADER, ""]
    city_lines, where = place_cities(out)
    lines += [*city_lines, ""]
    for name, p, q in STRAITS:
        lines.append(f'strait "{name}" {hex_of(*p)} {hex_of(*q)}')
    lines.append("")
    for name, waypoints in LINES:
        stops = [hex_of(*w) if isinstance(w, tuple) else where[w] for w in waypoints]
        lines.append(f'line "{name}" ' + " ".join(str(h) for h in mapproj.rail_chain(GRID, stops, out, name)))
    path.write_text("\n".join(lines) + "\n")


def generate(outdir: Path, shapefile_zip: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    out = classify(rasterise(shapefile_zip))
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
    recs, feats, unit_recs = mapproj.read_layers(scenario, "eurofront", ("map", "features", "units"))
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
            sides += mapproj.picture_sides(GRID, hid, r.attrs.get(kind, ""), "river")
    sides += mapproj.border_sides(GRID, country)
    where = {r.words[0]: r.words[1] for r in feats if r.keyword in ("city", "alias")}
    units: list[dict[str, object]] = [
        {"hex": where[u.attrs["at"]], "id": u.words[0], "text": u.words[0].split("-", 1)[1],
         "sub": ABBR[u.words[2]], "side": u.words[1], "flags": [], "steps": [int(u.attrs["cv"]), int(u.attrs["max"])]}
        for u in unit_recs if u.keyword == "unit" and "at" in u.attrs]
    return mapproj.hex_picture(recs, feats, hexes, sides, units, SIDES)


def render(png: Path) -> int:
    return mapproj.write_png(picture(SCENARIO), png, px=2.0)


def main(argv: list[str] | None = None) -> int:
    return mapproj.tool_main(argv, __doc__, REPO / "docs" / "images" / "eurofront-scw-map.png", generate, render)


if __name__ == "__main__":
    raise SystemExit(main())
