"""Reading and validating a scenario's ``map.txt`` and ``features.txt`` into a :class:`GameMap`.

Loading never stops at the first problem: every problem is recorded in an
:class:`Issues` list with its file and line, so a map author fixes them all in
one pass.  The file grammar is described at the top of each scenario file and in
rules/use/SCENARIO_API.md.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType

from .hexgrid import (
    DIRECTIONS,
    Direction,
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
    TransportLine,
)

_SIDE_ATTRS = {"river": "river", "water": "water", "strait": "strait", "noground": "prohibited"}


# --- records and issues -----------------------------------------------------------
@dataclass(frozen=True)
class Record:
    file: str
    line: int
    keyword: str
    words: tuple[str, ...]  # positional tokens after the keyword
    attrs: Mapping[str, str]  # key=value tokens


def read_records(path: Path, kind: str, issues: Issues) -> list[Record]:
    """Parse a line-oriented scenario file; the first record must be ``format <kind> 1``."""
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        issues.add(name, 0, f"missing file (expected 'format {kind} 1')")
        return []
    except (OSError, UnicodeDecodeError) as exc:
        issues.add(name, 0, f"cannot read: {exc}")
        return []
    records: list[Record] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            lexer = shlex.shlex(raw, posix=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            tokens = list(lexer)
        except ValueError as exc:
            issues.add(name, number, f"cannot split line: {exc}")
            continue
        if not tokens:
            continue
        words: list[str] = []
        attrs: dict[str, str] = {}
        for tok in tokens[1:]:
            key, eq, value = tok.partition("=")
            if not eq:
                words.append(tok)
            elif key in attrs:
                issues.add(name, number, f"attribute {key!r} given twice")
            else:
                attrs[key] = value
        records.append(Record(name, number, tokens[0], tuple(words), MappingProxyType(attrs)))
    if not records or records[0].keyword != "format" or records[0].words != (kind, "1"):
        issues.add(name, records[0].line if records else 1, f"first record must be 'format {kind} 1'")
        # Read on anyway: the rest of the file then reports its own problems, not a cascade of
        # "unknown country" everywhere else.
    return [r for r in records if r.keyword != "format" or r is not records[0]]


def split_list(value: str) -> list[str]:
    return [v for v in value.split(",") if v]


def parse_int(rec: Record, key: str, issues: Issues, default: int, lo: int = 0, hi: int = 99) -> int:
    if key not in rec.attrs:
        return default
    text = rec.attrs[key]
    if not text.lstrip("-").isdigit() or not lo <= int(text) <= hi:
        issues.add(rec.file, rec.line, f"{key}={text!r} must be an integer from {lo} to {hi}")
        return default
    return int(text)


# --- map.txt ---------------------------------------------------------------------------
@dataclass
class _HexDraft:
    info: HexInfo
    sides: dict[str, set[Direction]]


def _parse_hex_record(rec: Record, issues: Issues, terrains: tuple[str, ...],
                      countries: set[str]) -> _HexDraft | None:
    if len(rec.words) < 4:
        issues.add(rec.file, rec.line, "hex needs: hex XXYY TERRAIN COUNTRY WEATHER [attributes]")
        return None
    hid, terrain, country, weather, *flags = rec.words
    try:
        h = parse_hex(hid)
    except ValueError as exc:
        issues.add(rec.file, rec.line, str(exc))
        return None
    bad = len(issues)
    if terrain not in terrains:
        issues.add(rec.file, rec.line, f"hex {h}: unknown terrain {terrain!r} (known: {', '.join(terrains)})")
    if weather not in WEATHER_ZONES:
        issues.add(rec.file, rec.line, f"hex {h}: unknown weather zone {weather!r}")
    for flag in flags:
        if flag not in ("coastal", "dot"):
            issues.add(rec.file, rec.line, f"hex {h}: unknown flag {flag!r} (known: coastal, dot)")
    for key in rec.attrs:
        if key not in ("sea", "area", *_SIDE_ATTRS):
            issues.add(rec.file, rec.line, f"hex {h}: unknown attribute {key!r}")
    if terrain == "water":
        if country != "-":
            issues.add(rec.file, rec.line, f"hex {h}: a water hex has no country (write '-')")
        if not rec.attrs.get("sea"):
            issues.add(rec.file, rec.line, f"hex {h}: a water hex must belong to a sea zone (sea=...)")
        if "coastal" in flags:
            issues.add(rec.file, rec.line, f"hex {h}: only a land hex can be coastal")
    elif country not in countries:
        issues.add(rec.file, rec.line, f"hex {h}: unknown country {country!r}")
    sides: dict[str, set[Direction]] = {}
    for key, kind in _SIDE_ATTRS.items():
        for d in split_list(rec.attrs.get(key, "")):
            try:
                sides.setdefault(kind, set()).add(Direction.parse(d))
            except ValueError as exc:
                issues.add(rec.file, rec.line, f"hex {h}: {key}: {exc}")
    if len(issues) > bad:  # keep the hex: later checks then report their own problems, not "unknown hex"
        terrain = terrain if terrain in terrains else "clear"
        weather = weather if weather in WEATHER_ZONES else "mild"
    info = HexInfo(h, terrain, None if country == "-" else country, rec.attrs.get("area") or None,
                   weather, frozenset(split_list(rec.attrs.get("sea", ""))), "coastal" in flags,
                   "dot" in flags, rec.line)
    return _HexDraft(info, sides)


def _load_hexes(records: list[Record], issues: Issues, terrains: tuple[str, ...],
                countries: set[str]) -> tuple[int, int, dict[Hex, _HexDraft]]:
    cols = rows = 0
    drafts: dict[Hex, _HexDraft] = {}
    for rec in records:
        if rec.keyword == "grid":
            if cols:
                issues.add(rec.file, rec.line, "grid given twice")
            cols = parse_int(rec, "cols", issues, 0, 1, 99)
            rows = parse_int(rec, "rows", issues, 0, 1, 99)
        elif rec.keyword == "hex":
            if not cols:
                issues.add(rec.file, rec.line, "hex before the grid record")
                continue
            draft = _parse_hex_record(rec, issues, terrains, countries)
            if draft is None:
                continue
            h = draft.info.hex
            if not (1 <= h.col <= cols and 1 <= h.row <= rows):
                issues.add(rec.file, rec.line, f"hex {h} is outside the {cols}x{rows} grid")
            elif h in drafts:
                issues.add(rec.file, rec.line, f"hex {h} defined twice (first at line {drafts[h].info.line})")
            else:
                drafts[h] = draft
        else:
            issues.add(rec.file, rec.line, f"unknown record {rec.keyword!r} (expected grid or hex)")
    if cols and rows:
        missing = [str(Hex(c, r)) for c in range(1, cols + 1) for r in range(1, rows + 1)
                   if Hex(c, r) not in drafts]
        if missing and len(missing) < cols * rows:
            issues.add("map.txt", 0, f"{len(missing)} hexes of the grid are not defined: "
                       + " ".join(missing[:20]) + (" ..." if len(missing) > 20 else ""))
    return cols, rows, drafts


def _check_hexsides(drafts: dict[Hex, _HexDraft], issues: Issues) -> dict[Hexside, frozenset[str]]:
    """Every hexside feature must be listed on both sides, between two land hexes (symmetry)."""
    found: dict[Hexside, set[str]] = {}
    for h, draft in drafts.items():
        for kind, dirs in draft.sides.items():
            for d in sorted(dirs):
                n = neighbour(h, d)
                other = drafts.get(n)
                where = f"hex {h}: {kind} on its {d.name} side"
                if other is None:
                    issues.add("map.txt", draft.info.line, f"{where} faces {n}, which is not on the map")
                elif draft.info.is_water or other.info.is_water:
                    issues.add("map.txt", draft.info.line,
                               f"{where}: {kind} hexsides are listed only between two land hexes")
                elif d.opposite not in other.sides.get(kind, set()):
                    issues.add("map.txt", draft.info.line,
                               f"{where} is not listed on the {d.opposite.name} side of {n} "
                               f"(line {other.info.line}): hexsides must be symmetric")
                else:
                    found.setdefault(hexside(h, n), set()).add(kind)
    return {side: frozenset(kinds) for side, kinds in found.items()}


# --- features.txt ----------------------------------------------------------------------
def _hex_or_none(rec: Record, text: str, issues: Issues, hexes: Mapping[Hex, _HexDraft]) -> Hex | None:
    try:
        h = parse_hex(text)
    except ValueError as exc:
        issues.add(rec.file, rec.line, str(exc))
        return None
    if h not in hexes:
        issues.add(rec.file, rec.line, f"unknown hex {h} (not on the map)")
        return None
    return h


def _parse_city(rec: Record, issues: Issues, hexes: Mapping[Hex, _HexDraft], boxes: Mapping[str, MapBox],
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
        h = _hex_or_none(rec, where, issues, hexes)
        if h is not None:
            info = hexes[h].info
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
    if "port" in flags and h is not None and not hexes[h].info.sea_zones:
        issues.add(rec.file, rec.line, f"city {name}: a port must be in a coastal hex or list its sea zone")
    if len(issues) > bad:
        return None
    return City(name, country, h, box, "capital" in flags, "port" in flags, factories,
                coords[0], coords[1], rec.line)


def _parse_box(rec: Record, issues: Issues, hexes: Mapping[Hex, _HexDraft], cols: int, rows: int) -> MapBox | None:
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
        h = _hex_or_none(rec, text, issues, hexes)
        if h is None:
            continue
        if hexes[h].info.is_water:
            issues.add(rec.file, rec.line, f"box {bid}: edge hex {h} is water")
        if h.col not in (1, cols) and h.row not in (1, rows):
            issues.add(rec.file, rec.line, f"box {bid}: edge hex {h} is not on the map edge")
        edge.add(h)
    if kind == "sea" and edge:
        issues.add(rec.file, rec.line, f"box {bid}: only a land box has edge hexes")
    return MapBox(bid, name, kind, friendly, frozenset(split_list(rec.attrs.get("seazones", ""))),
                  frozenset(split_list(rec.attrs.get("boxes", ""))), frozenset(edge), rec.line)


def _parse_lines(recs: list[Record], issues: Issues, drafts: Mapping[Hex, _HexDraft],
                 boxes: Mapping[str, MapBox], sides: Mapping[Hexside, frozenset[str]]) -> list[TransportLine]:
    """Transport lines; records with the same name continue the same chain."""
    chains: dict[str, tuple[list[tuple[str, int]], int]] = {}
    for rec in recs:
        if not rec.words:
            issues.add(rec.file, rec.line, 'line needs: line "Name" HEX HEX ... (a land box id may end it)')
            continue
        chain, _ = chains.setdefault(rec.words[0], ([], rec.line))
        chain.extend((tok, rec.line) for tok in rec.words[1:])
    out: list[TransportLine] = []
    for name, (items, first) in chains.items():
        hexes: list[Hex] = []
        ends: list[str | None] = [None, None]
        for i, (tok, line) in enumerate(items):
            if tok in boxes:
                if 0 < i < len(items) - 1 or boxes[tok].kind != "land":
                    issues.add("features.txt", line, f"line {name}: box {tok} must be a land box at an end")
                    continue
                ends[0 if i == 0 else 1] = tok
                continue
            try:
                h = parse_hex(tok)
            except ValueError as exc:
                issues.add("features.txt", line, f"line {name}: {exc}")
                continue
            draft = drafts.get(h)
            if draft is None:
                issues.add("features.txt", line, f"line {name}: unknown hex {h} (not on the map)")
                continue
            if draft.info.is_water or draft.info.faded_dot:
                issues.add("features.txt", line, f"line {name}: {h} is not a land hex a line can run through")
            if hexes and hexes[-1] == h:
                continue
            if hexes and not adjacent(hexes[-1], h):
                issues.add("features.txt", line, f"line {name}: {hexes[-1]} and {h} are not adjacent "
                           "(transport lines must be continuous)")
            elif hexes and "water" in sides.get(hexside(hexes[-1], h), frozenset()) \
                    and "strait" not in sides.get(hexside(hexes[-1], h), frozenset()):
                issues.add("features.txt", line, f"line {name}: {hexes[-1]}-{h} crosses a water hexside")
            hexes.append(h)
        for end, h_end in ((ends[0], hexes[0] if hexes else None), (ends[1], hexes[-1] if hexes else None)):
            if end is not None and h_end is not None and h_end not in boxes[end].edge_hexes:
                issues.add("features.txt", first, f"line {name}: {h_end} is not an edge hex of box {end}")
        if len(hexes) >= 2 or (hexes and any(ends)):
            out.append(TransportLine(name, tuple(hexes), ends[0], ends[1], first))
        else:
            issues.add("features.txt", first, f"line {name}: needs at least two hexes")
    return out


def _sea_zones(recs: list[Record], issues: Issues, drafts: Mapping[Hex, _HexDraft],
               boxes: Mapping[str, MapBox]) -> dict[str, SeaZone]:
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
    for h, d in drafts.items():
        for z in sorted(d.info.sea_zones):
            if z not in declared:
                issues.add("map.txt", d.info.line, f"hex {h}: unknown sea zone {z!r}")
                continue
            (water if d.info.is_water else coast)[z].add(h)
            # 1.3.3: a coastal hex touches a water hex of its zone; a full-land port (1.3.6,
            # e.g. London up the Thames) is authored to lie within 2 hexes of one.
            reach = 1 if d.info.coastal else 2
            if d.info.is_land and not any(
                    n in drafts and drafts[n].info.is_water and z in drafts[n].info.sea_zones
                    for n in hexes_within(h, reach)):
                issues.add("map.txt", d.info.line, f"hex {h}: lists sea zone {z} but no water hex of it is "
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


def _straits(recs: list[Record], issues: Issues, drafts: Mapping[Hex, _HexDraft],
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
            d = drafts.get(h)
            if d is None:
                issues.add(rec.file, rec.line, f"strait {name}: hex {text} is not on the map")
                ok = False
                continue
            if not d.info.is_land:
                issues.add(rec.file, rec.line, f"strait {name}: hex {text} is water; a strait points "
                           "to two land hexes (4.2.4)")
                ok = False
            for z in (za, zb):
                if z in zones and z not in d.info.sea_zones:
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
    start = min(water)
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in (neighbour(h, d) for d in DIRECTIONS):
            if n in water and n not in seen:
                seen.add(n)
                todo.append(n)
    if seen != water:
        rest = sorted(water - seen)
        issues.add(rec.file, rec.line, f"sea zone {z}: its water hexes are not connected "
                   f"({start} does not reach {' '.join(map(str, rest[:6]))})")


def load_map(directory: Path, issues: Issues, terrains: Iterable[str], countries: set[str],
             prohibited: frozenset[str] = frozenset()) -> GameMap:
    terrains = tuple(terrains)
    cols, rows, drafts = _load_hexes(read_records(directory / "map.txt", "use-map", issues),
                                     issues, terrains, countries)
    sides = _check_hexsides(drafts, issues)
    recs = read_records(directory / "features.txt", "use-features", issues)
    by_kind: dict[str, list[Record]] = {"seazone": [], "strait": [], "box": [], "city": [], "line": []}
    for rec in recs:
        if rec.keyword not in by_kind:
            issues.add(rec.file, rec.line, f"unknown record {rec.keyword!r} (expected "
                       "seazone, strait, box, city or line)")
        else:
            by_kind[rec.keyword].append(rec)
    boxes: dict[str, MapBox] = {}
    for rec in by_kind["box"]:
        box = _parse_box(rec, issues, drafts, cols, rows)
        if box is not None and box.id in boxes:
            issues.add(rec.file, rec.line, f"box {box.id} declared twice")
        elif box is not None:
            boxes[box.id] = box
    zones = _sea_zones(by_kind["seazone"], issues, drafts, boxes)
    straits = _straits(by_kind["strait"], issues, drafts, zones)
    cities: dict[str, City] = {}
    city_at: dict[Hex, City] = {}
    for rec in by_kind["city"]:
        city = _parse_city(rec, issues, drafts, boxes, countries)
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
    for h, d in drafts.items():
        if d.info.is_land and d.info.sea_zones and not d.info.coastal and h not in city_at:
            issues.add("map.txt", d.info.line, f"hex {h}: only a coastal hex or a port lists sea zones")
    lines = _parse_lines(by_kind["line"], issues, drafts, boxes, sides)
    links = frozenset(hexside(a, b) for ln in lines for a, b in pairwise(ln.hexes) if adjacent(a, b))
    box_links: dict[str, set[Hex]] = {}
    for ln in lines:
        for box_id, h in ((ln.start_box, ln.hexes[0]), (ln.end_box, ln.hexes[-1])):
            if box_id is not None:
                box_links.setdefault(box_id, set()).add(h)
    return GameMap(cols, rows, MappingProxyType({h: d.info for h, d in sorted(drafts.items())}),
                   MappingProxyType(sides), MappingProxyType(cities), tuple(lines),
                   MappingProxyType(zones), MappingProxyType(boxes), prohibited,
                   MappingProxyType(city_at), links,
                   MappingProxyType({b: frozenset(hs) for b, hs in box_links.items()}),
                   straits=straits)
