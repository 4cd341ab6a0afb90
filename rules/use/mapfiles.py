"""Reading and validating a scenario's ``map.txt`` and ``features.txt`` into a :class:`GameMap`.

Loading never stops at the first problem: every problem is recorded in an
:class:`Issues` list with its file and line, so a map author fixes them all in
one pass.  The file grammar is described at the top of each scenario file and in
rules/use/SCENARIO_API.md.  The kit (pbem/kit/hexmap.py) reads the grid, the
hexes' generic fields, hexside symmetry and transport lines; this module adds
what is USE's: countries, weather zones, coastal and Faded Dot hexes, cities,
map boxes, sea zones and straits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType

from pbem.kit.hexmap import (
    HexCheck,
    HexRecord,
    HexSchema,
    LineRules,
    check_hexsides,
    disconnected,
    hex_or_none,
    read_hex_map,
    read_transport_lines,
)
from pbem.kit.records import Record, parse_int, read_records, split_list

from .hexgrid import (
    DIRECTIONS,
    GRID,
    Hex,
    Hexside,
    adjacent,
    hexes_within,
    hexside,
    neighbour,
    parse_hex,
)
from .mapdata import (
    FACTIONS,
    WEATHER_ZONES,
    City,
    GameMap,
    HexInfo,
    Issues,
    MapBox,
    SeaZone,
    Strait,
)

_SIDE_ATTRS = {"river": "river", "water": "water", "strait": "strait", "noground": "prohibited"}


# --- map.txt ---------------------------------------------------------------------------
def _schema(terrains: tuple[str, ...]) -> HexSchema:
    return HexSchema(terrains, ("COUNTRY", "WEATHER"), {"WEATHER": ("weather zone", WEATHER_ZONES)},
                     ("coastal", "dot"), ("sea", "area"), _SIDE_ATTRS)


def _hex_check(countries: set[str]) -> HexCheck:
    """USE's checks of a hex record: its country, what a water hex may carry."""

    def check(hx: HexRecord, rec: Record, issues: Issues) -> None:
        h, country = hx.hex, hx.words[0]
        if hx.terrain == "water":
            if country != "-":
                issues.add(rec.file, rec.line, f"hex {h}: a water hex has no country (write '-')")
            if not rec.attrs.get("sea"):
                issues.add(rec.file, rec.line, f"hex {h}: a water hex must belong to a sea zone (sea=...)")
            if "coastal" in hx.flags:
                issues.add(rec.file, rec.line, f"hex {h}: only a land hex can be coastal")
        elif country not in countries:
            issues.add(rec.file, rec.line, f"hex {h}: unknown country {country!r}")
        if rec.attrs.get("area") == "occupied-ussr" and (hx.terrain == "water" or country != "USSR"):
            # USE 10.3.6 / 13.2: Occupied USSR is USSR land west of its Disputed border (occupied.py)
            issues.add(rec.file, rec.line, f"hex {h}: area=occupied-ussr must be a USSR land hex")

    return check


def _hex_info(hx: HexRecord) -> HexInfo:
    # A wrong weather zone is reported; the hex is kept so later checks report their own problems.
    country, weather = hx.words
    return HexInfo(hx.hex, hx.terrain, None if country == "-" else country, hx.attrs.get("area") or None,
                   weather if weather in WEATHER_ZONES else "mild", frozenset(split_list(hx.attrs.get("sea", ""))),
                   "coastal" in hx.flags, "dot" in hx.flags, hx.line)


# --- features.txt ----------------------------------------------------------------------
def _parse_city(rec: Record, issues: Issues, hexes: Mapping[Hex, HexInfo], boxes: Mapping[str, MapBox],
                countries: set[str]) -> City | None:
    if len(rec.words) < 3:
        issues.add(rec.file, rec.line, 'city needs: city "Name" HEX|BOX COUNTRY [capital] [port] [factories=N]')
        return None
    name, where, country, *flags = rec.words
    bad = len(issues)
    h = box = None
    if where in boxes:
        box = where
    else:
        h = hex_or_none(rec, where, issues, hexes)
        if h is not None:
            info = hexes[h]
            if info.is_water:
                issues.add(rec.file, rec.line, f"city {name}: {h} is a water hex; cities are on land")
            elif info.country != country:
                issues.add(rec.file, rec.line, f"city {name}: {h} belongs to {info.country}, not {country}")
    if country not in countries:
        issues.add(rec.file, rec.line, f"city {name}: unknown country {country!r}")
    for flag in flags:
        if flag not in ("capital", "port"):
            issues.add(rec.file, rec.line, f"city {name}: unknown flag {flag!r} (known: capital, port)")
    coords: list[float | None] = []
    for key in ("lat", "lon"):
        try:
            coords.append(float(rec.attrs[key]) if key in rec.attrs else None)
        except ValueError:
            issues.add(rec.file, rec.line, f"city {name}: {key} must be a number")
            coords.append(None)
    factories = parse_int(rec, "factories", issues, 0, 0, 59)
    if "port" in flags and h is not None and not hexes[h].sea_zones:
        issues.add(rec.file, rec.line, f"city {name}: a port must be in a coastal hex or list its sea zone")
    if len(issues) > bad:
        return None
    return City(name, country, h, box, "capital" in flags, "port" in flags, factories,
                coords[0], coords[1], rec.line)


def _parse_box(rec: Record, issues: Issues, hexes: Mapping[Hex, HexInfo], cols: int, rows: int) -> MapBox | None:
    if len(rec.words) != 3 or rec.words[2] not in ("sea", "land"):
        issues.add(rec.file, rec.line,
                   'box needs: box ID "Name" sea|land friendly=FACTION [seazones=] [boxes=] [edge=]')
        return None
    bid, name, kind = rec.words
    friendly = rec.attrs.get("friendly", "")
    if friendly not in FACTIONS:
        issues.add(rec.file, rec.line, f"box {bid}: friendly={friendly!r} must be one of {', '.join(FACTIONS)}")
    edge: set[Hex] = set()
    for text in split_list(rec.attrs.get("edge", "")):
        h = hex_or_none(rec, text, issues, hexes)
        if h is None:
            continue
        if hexes[h].is_water:
            issues.add(rec.file, rec.line, f"box {bid}: edge hex {h} is water")
        if h.col not in (1, cols) and h.row not in (1, rows):
            issues.add(rec.file, rec.line, f"box {bid}: edge hex {h} is not on the map edge")
        edge.add(h)
    if kind == "sea" and edge:
        issues.add(rec.file, rec.line, f"box {bid}: only a land box has edge hexes")
    return MapBox(bid, name, kind, friendly, frozenset(split_list(rec.attrs.get("seazones", ""))),
                  frozenset(split_list(rec.attrs.get("boxes", ""))), frozenset(edge), rec.line)


def _strait_ends(recs: list[Record]) -> dict[Hex, set[str]]:
    """The hexes ``strait`` records point to, with the two zones of each: 1.3.6 puts a hex a
    Strait ends at in both zones, though the water of one may lie farther than a hex."""
    out: dict[Hex, set[str]] = {}
    for rec in recs:
        for text in rec.words[3:5] if len(rec.words) == 5 else ():
            try:
                out.setdefault(parse_hex(text), set()).update(rec.words[1:3])
            except ValueError:
                continue  # reported by _straits
    return out


def _sea_zones(recs: list[Record], issues: Issues, infos: Mapping[Hex, HexInfo],
               boxes: Mapping[str, MapBox], ends: Mapping[Hex, set[str]]) -> dict[str, SeaZone]:
    declared: dict[str, Record] = {}
    for rec in recs:
        if len(rec.words) != 2:
            issues.add(rec.file, rec.line, 'seazone needs: seazone ID "Name" [adjacent=ID,...]')
        elif rec.words[0] in declared:
            issues.add(rec.file, rec.line, f"sea zone {rec.words[0]} declared twice")
        else:
            declared[rec.words[0]] = rec
    water: dict[str, set[Hex]] = {z: set() for z in declared}
    coast: dict[str, set[Hex]] = {z: set() for z in declared}
    for h, d in infos.items():
        for z in sorted(d.sea_zones):
            if z not in declared:
                issues.add("map.txt", d.line, f"hex {h}: unknown sea zone {z!r}")
                continue
            (water if d.is_water else coast)[z].add(h)
            # 1.3.3: a coastal hex touches a water hex of its zone; a full-land port (1.3.6,
            # e.g. London up the Thames) is authored to lie within 2 hexes of one.
            reach = 1 if d.coastal else 2
            if d.is_land and z not in ends.get(h, ()) and not any(
                    n in infos and infos[n].is_water and z in infos[n].sea_zones
                    for n in hexes_within(h, reach)):
                issues.add("map.txt", d.line, f"hex {h}: lists sea zone {z} but no water hex of it is "
                           f"within {reach} hex{'es' if reach > 1 else ''} (1.3.3, 1.3.6)")
    zones: dict[str, SeaZone] = {}
    for z, rec in declared.items():
        _check_zone_contiguous(z, rec, water[z], issues)
        adjacent = set(split_list(rec.attrs.get("adjacent", "")))
        for other in sorted(adjacent):
            orec = declared.get(other)
            if orec is None:
                issues.add(rec.file, rec.line, f"sea zone {z}: unknown adjacent zone {other!r}")
            elif z not in split_list(orec.attrs.get("adjacent", "")):
                issues.add(rec.file, rec.line, f"sea zone {z} lists {other} as adjacent but {other} "
                           f"(line {orec.line}) does not list {z}: adjacency must be symmetric")
            elif not (coast[z] | water[z]) & (coast[other] | water[other]) and not any(
                    n in water[other] for h in water[z] for n in (neighbour(h, d) for d in DIRECTIONS)):
                issues.add(rec.file, rec.line, f"sea zones {z} and {other} neither touch nor share a hex")
        zone_boxes = frozenset(b for b, box in boxes.items() if z in box.sea_zones)
        zones[z] = SeaZone(z, rec.words[1], frozenset(water[z]), frozenset(coast[z]),
                           frozenset(adjacent & declared.keys()), zone_boxes, rec.line)
    for b, box in boxes.items():
        for z in sorted(box.sea_zones - declared.keys()):
            issues.add("features.txt", box.line, f"box {b}: unknown sea zone {z!r}")
        for other in sorted(box.boxes):
            if other not in boxes:
                issues.add("features.txt", box.line, f"box {b}: unknown box {other!r}")
            elif b not in boxes[other].boxes:
                issues.add("features.txt", box.line, f"box {b} has an arrow to {other} but {other} "
                           "has none back: map-box arrows must be symmetric")
    return zones


def _straits(recs: list[Record], issues: Issues, infos: Mapping[Hex, HexInfo],
             zones: Mapping[str, SeaZone]) -> tuple[Strait, ...]:
    """``strait "Name" ZONE ZONE XXYY XXYY``: a Strait symbol between two adjacent Sea Zones,
    pointing to two adjacent land hexes that lie in both zones (1.3.3, 1.3.6, 4.2.4)."""
    usage = 'strait needs: strait "Name" ZONE ZONE XXYY XXYY'
    out: dict[tuple[str, str], Strait] = {}
    for rec in recs:
        if len(rec.words) != 5 or rec.attrs:
            issues.add(rec.file, rec.line, usage)
            continue
        name, za, zb, ha, hb = rec.words
        ok = True
        for z in (za, zb):
            if z not in zones:
                issues.add(rec.file, rec.line, f"strait {name}: unknown sea zone {z!r}")
                ok = False
        if ok and za == zb:
            issues.add(rec.file, rec.line, f"strait {name}: a strait lies between two different sea zones")
            ok = False
        elif ok and zb not in zones[za].adjacent_zones:
            issues.add(rec.file, rec.line, f"strait {name}: sea zones {za} and {zb} are not declared "
                       "adjacent (seazone adjacent=)")
            ok = False
        hexes: list[Hex] = []
        for text in (ha, hb):
            try:
                h = parse_hex(text)
            except ValueError as exc:
                issues.add(rec.file, rec.line, f"strait {name}: {exc}")
                ok = False
                continue
            d = infos.get(h)
            if d is None:
                issues.add(rec.file, rec.line, f"strait {name}: hex {text} is not on the map")
                ok = False
                continue
            if not d.is_land:
                issues.add(rec.file, rec.line, f"strait {name}: hex {text} is water; a strait points "
                           "to two land hexes (4.2.4)")
                ok = False
            for z in (za, zb):
                if z in zones and z not in d.sea_zones:
                    issues.add(rec.file, rec.line, f"strait {name}: hex {text} does not list sea zone "
                               f"{z} (a strait ending at a hex puts it in both zones, 1.3.6)")
                    ok = False
            hexes.append(h)
        if len(hexes) == 2 and not adjacent(hexes[0], hexes[1]):
            issues.add(rec.file, rec.line, f"strait {name}: hexes {ha} and {hb} are not adjacent")
            ok = False
        key = (min(za, zb), max(za, zb))
        if ok and key in out:
            issues.add(rec.file, rec.line, f"strait between {key[0]} and {key[1]} declared twice "
                       f"(line {out[key].line})")
        elif ok:
            out[key] = Strait(name, key, (hexes[0], hexes[1]), rec.line)
    return tuple(out[k] for k in sorted(out))


def _check_zone_contiguous(z: str, rec: Record, water: set[Hex], issues: Issues) -> None:
    if not water:
        issues.add(rec.file, rec.line, f"sea zone {z} has no water hex")
        return
    split = disconnected(water, GRID)
    if split is not None:
        start, rest = split
        issues.add(rec.file, rec.line, f"sea zone {z}: its water hexes are not connected "
                   f"({start} does not reach {' '.join(map(str, rest[:6]))})")


def _line_rules(infos: Mapping[Hex, HexInfo], boxes: Mapping[str, MapBox],
                sides: Mapping[Hexside, frozenset[str]]) -> LineRules:
    def barrier(a: Hex, b: Hex) -> str | None:
        feats = sides.get(hexside(a, b), frozenset())
        return "water" if "water" in feats and "strait" not in feats else None

    return LineRules(GRID, {b: box.edge_hexes if box.kind == "land" else None for b, box in boxes.items()},
                     lambda h: infos[h].is_water or infos[h].faded_dot, barrier)


def _cities(recs: list[Record], issues: Issues, infos: Mapping[Hex, HexInfo], boxes: Mapping[str, MapBox],
            countries: set[str]) -> tuple[dict[str, City], dict[Hex, City]]:
    cities: dict[str, City] = {}
    city_at: dict[Hex, City] = {}
    for rec in recs:
        city = _parse_city(rec, issues, infos, boxes, countries)
        if city is None:
            continue
        if city.name in cities:
            issues.add(rec.file, rec.line, f"city {city.name} defined twice")
        elif city.hex is not None and city.hex in city_at:
            issues.add(rec.file, rec.line, f"city {city.name}: {city.hex} already holds "
                       f"{city_at[city.hex].name} (one city per hex)")
        else:
            cities[city.name] = city
            if city.hex is not None:
                city_at[city.hex] = city
    for h, d in infos.items():
        if d.is_land and d.sea_zones and not d.coastal and h not in city_at:
            issues.add("map.txt", d.line, f"hex {h}: only a coastal hex or a port lists sea zones")
    return cities, city_at


def _features(directory: Path, issues: Issues) -> dict[str, list[Record]]:
    by_kind: dict[str, list[Record]] = {"seazone": [], "strait": [], "box": [], "city": [], "line": []}
    for rec in read_records(directory / "features.txt", "use-features", issues):
        if rec.keyword not in by_kind:
            issues.add(rec.file, rec.line, f"unknown record {rec.keyword!r} (expected "
                       "seazone, strait, box, city or line)")
        else:
            by_kind[rec.keyword].append(rec)
    return by_kind


def load_map(directory: Path, issues: Issues, terrains: Iterable[str], countries: set[str],
             prohibited: frozenset[str] = frozenset()) -> GameMap:
    grid = read_hex_map(read_records(directory / "map.txt", "use-map", issues), issues,
                        _schema(tuple(terrains)), _hex_check(countries))
    cols, rows = grid.cols, grid.rows
    infos = {h: _hex_info(hx) for h, hx in grid.hexes.items()}
    sides = check_hexsides(grid.hexes, issues, GRID)
    by_kind = _features(directory, issues)
    boxes: dict[str, MapBox] = {}
    for rec in by_kind["box"]:
        box = _parse_box(rec, issues, infos, cols, rows)
        if box is not None and box.id in boxes:
            issues.add(rec.file, rec.line, f"box {box.id} declared twice")
        elif box is not None:
            boxes[box.id] = box
    zones = _sea_zones(by_kind["seazone"], issues, infos, boxes, _strait_ends(by_kind["strait"]))
    straits = _straits(by_kind["strait"], issues, infos, zones)
    cities, city_at = _cities(by_kind["city"], issues, infos, boxes, countries)
    lines = read_transport_lines(by_kind["line"], issues, infos, _line_rules(infos, boxes, sides))
    links = frozenset(hexside(a, b) for ln in lines for a, b in pairwise(ln.hexes) if adjacent(a, b))
    box_links: dict[str, set[Hex]] = {}
    for ln in lines:
        for box_id, h in ((ln.start_box, ln.hexes[0]), (ln.end_box, ln.hexes[-1])):
            if box_id is not None:
                box_links.setdefault(box_id, set()).add(h)
    return GameMap(cols, rows, MappingProxyType(dict(sorted(infos.items()))),
                   MappingProxyType(sides), MappingProxyType(cities), tuple(lines),
                   MappingProxyType(zones), MappingProxyType(boxes), prohibited,
                   MappingProxyType(city_at), links,
                   MappingProxyType({b: frozenset(hs) for b, hs in box_links.items()}),
                   straits=straits)
