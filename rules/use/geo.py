"""The map as the rules see it: a thin, string-keyed wrapper over the scenario loader.

Rules code keeps hexes as ``"XXYY"`` strings (they are what the public state
and the orders hold), so this module converts once and caches. A board is
built either from a scenario's ``GameMap`` (``scenario.load_scenario``) or,
for rules cases, from a *blank* spec: a rectangle of clear land of one
country with a few overrides (``cases.py``). Both give the same ``Board``.

The terrain chart and weather table belong to the scenario loader
(``mapdata.load_terrain_chart`` / ``load_weather_table``); we only read them.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.hexmap import graph_distance

from . import hexgrid

# Overseas Areas named in USE 16.0; every other area of a country is Mainland.
OVERSEAS = frozenset({
    "corsica", "french-north-africa", "syria", "crete", "albania", "libya", "rhodes",
    "sardinia", "majorca", "spanish-morocco", "cyprus", "egypt", "gibraltar", "kuwait",
    "malta", "palestine", "trans-jordan",
})


@dataclass
class CityData:
    name: str
    country: str
    capital: bool
    port: bool
    factories: int


@dataclass
class Board:
    cols: int
    rows: int
    terrain: dict[str, str] = field(default_factory=dict)  # hex -> terrain
    country: dict[str, str | None] = field(default_factory=dict)
    area: dict[str, str | None] = field(default_factory=dict)
    zone: dict[str, str] = field(default_factory=dict)  # weather zone (1.3.9)
    faded: set[str] = field(default_factory=set)  # 1.3.2
    coastal: set[str] = field(default_factory=set)
    sea_zones: dict[str, frozenset[str]] = field(default_factory=dict)
    sides: dict[frozenset[str], frozenset[str]] = field(default_factory=dict)
    cities: dict[str, CityData] = field(default_factory=dict)
    transport: set[frozenset[str]] = field(default_factory=set)  # adjacent pairs on a line
    transport_hexes: set[str] = field(default_factory=set)
    prohibited_countries: set[str] = field(default_factory=set)  # 1.3.8
    # Edge hexes whose Transport Line runs into a land Map Box: hex -> (friendly faction,
    # countries with a city in the box), e.g. the Reich box holding Berlin.
    box_source: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)
    box_factories: dict[str, int] = field(default_factory=dict)  # country -> factories in Map Boxes
    box_cities: dict[str, tuple[str, str]] = field(default_factory=dict)  # city -> (country, land box)
    # Naval geography (1.3.5, 1.3.6): sea zone / sea Map Box adjacency ("locations"), and the
    # faction a sea Map Box is friendly to.
    zone_adj: dict[str, frozenset[str]] = field(default_factory=dict)
    sea_boxes: dict[str, str] = field(default_factory=dict)  # sea box id -> friendly faction
    # Straits (1.3.3, 4.2.4, 6.4.3): the pair of Sea Zones -> the two hexes the symbol points to.
    straits: dict[frozenset[str], tuple[str, str]] = field(default_factory=dict)
    # Land Map Boxes (1.3.5; REICH on the France 1940 map): id -> (friendly faction, edge hexes
    # between which and the box ground and air units move).
    land_boxes: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)

    # --- geometry ---------------------------------------------------------
    def on_map(self, h: str) -> bool:
        return h in self.terrain

    _nb: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def neighbours(self, h: str) -> tuple[str, ...]:
        got = self._nb.get(h)
        if got is not None:
            return got
        out = []
        for n in hexgrid.neighbours(hexgrid.parse_hex(h)):
            s = str(n) if n.col > 0 and n.row > 0 and n.col < 100 and n.row < 100 else ""
            if s and s in self.terrain:
                out.append(s)
        self._nb[h] = tuple(out)
        return self._nb[h]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def distance(self, a: str, b: str) -> int:
        return hexgrid.distance(hexgrid.parse_hex(a), hexgrid.parse_hex(b))

    def within(self, h: str, n: int) -> list[str]:
        """USE 1.4: every on-map hex within ``n`` hexes, the counter's own hex included."""
        out = [str(x) for x in hexgrid.hexes_within(hexgrid.parse_hex(h), n)
               if 0 < x.col < 100 and 0 < x.row < 100]
        return [s for s in out if s in self.terrain]

    # --- features ---------------------------------------------------------
    def is_water(self, h: str) -> bool:
        return self.terrain.get(h) == "water"

    def side(self, a: str, b: str) -> frozenset[str]:
        feats = self.sides.get(frozenset((a, b)), frozenset())
        if self.is_water(a) or self.is_water(b):
            feats = feats | {"water"}
        return feats

    def ground_prohibited(self, h: str) -> bool:
        """USE 1.3.2 / 1.3.8: water, Faded Dot and prohibited-country hexes bar ground units."""
        if h not in self.terrain or self.is_water(h) or h in self.faded:
            return True
        return self.country.get(h) in self.prohibited_countries

    def side_prohibited(self, a: str, b: str) -> bool:
        feats = self.side(a, b)
        if "prohibited" in feats:
            return True
        # A water hexside between two land hexes stops ground units unless a strait crosses it.
        return "water" in feats and "strait" not in feats and not (self.is_water(a) or self.is_water(b))

    def has_transport(self, h: str) -> bool:
        return h in self.transport_hexes

    def transport_between(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.transport

    def city(self, h: str) -> CityData | None:
        return self.cities.get(h)

    def mainland(self, h: str) -> bool:
        return self.area.get(h) not in OVERSEAS

    def zones_of(self, h: str) -> frozenset[str]:
        """Sea zones of a water hex, a coastal hex or a full-land port (1.3.6)."""
        return self.sea_zones.get(h, frozenset())

    _zone_hexes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def zone_hexes(self, zone: str) -> tuple[str, ...]:
        """Every hex (water, coastal, port) of a sea zone, sorted."""
        if not self._zone_hexes and self.sea_zones:
            acc: dict[str, list[str]] = {}
            for h, zs in self.sea_zones.items():
                for z in zs:
                    acc.setdefault(z, []).append(h)
            self._zone_hexes.update({z: tuple(sorted(hs)) for z, hs in acc.items()})
        return self._zone_hexes.get(zone, ())

    def strait(self, a: str, b: str) -> tuple[str, str] | None:
        """The two hexes of the Strait between locations ``a`` and ``b``, or None (4.2.4)."""
        return self.straits.get(frozenset((a, b)))

    def location_distance(self, a: str, b: str, cross_straits: bool = True) -> int:
        """Steps between two sea zones / sea Map Boxes (0 when equal); -1 if unconnected.
        Ranges trace across Straits (1.4) unless ``cross_straits`` is False (6.4.3)."""
        return graph_distance(a, b, lambda loc: [n for n in self.zone_adj.get(loc, frozenset())
                                                 if cross_straits or frozenset((loc, n)) not in self.straits])

    def city_named(self, name: str) -> str | None:
        for h, c in self.cities.items():
            if c.name == name:
                return h
        return None

    def capital_hex(self, country: str) -> str | None:
        for h, c in self.cities.items():
            if c.capital and c.country == country:
                return h
        return None


# --- construction ---------------------------------------------------------


def blank_board(spec: dict[str, Any]) -> Board:
    """A rectangle of clear land of ``spec['country']`` with overrides (rules cases)."""
    cols, rows = int(spec["cols"]), int(spec["rows"])
    b = Board(cols, rows)
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            h = f"{c:02d}{r:02d}"
            b.terrain[h] = "clear"
            b.country[h] = spec.get("country", "FRA")
            b.area[h] = None
            b.zone[h] = "mild"
    for h, attrs in sorted(spec.get("hexes", {}).items()):
        if "terrain" in attrs:
            b.terrain[h] = attrs["terrain"]
            if attrs["terrain"] == "water":
                b.country[h] = None
        if "country" in attrs:
            b.country[h] = attrs["country"]
        if "area" in attrs:
            b.area[h] = attrs["area"]
        if "zone" in attrs:
            b.zone[h] = attrs["zone"]
        if attrs.get("faded"):
            b.faded.add(h)
        if attrs.get("coastal"):
            b.coastal.add(h)
    for a, c, feat in spec.get("sides", []):
        key = frozenset((a, c))
        b.sides[key] = b.sides.get(key, frozenset()) | {feat}
    for line in spec.get("transport", []):
        for x, y in itertools.pairwise(line):
            b.transport.add(frozenset((x, y)))
        b.transport_hexes.update(line)
    for h, c in spec.get("cities", {}).items():
        b.cities[h] = CityData(c["name"], c["country"], bool(c.get("capital")), bool(c.get("port")),
                               int(c.get("factories", 0)))
    b.prohibited_countries.update(spec.get("prohibited", []))
    for h, zones in spec.get("seazones", {}).items():
        b.sea_zones[h] = frozenset(zones)
    for x, y in spec.get("zone_adj", []):
        b.zone_adj[x] = b.zone_adj.get(x, frozenset()) | {y}
        b.zone_adj[y] = b.zone_adj.get(y, frozenset()) | {x}
    for x, y, ha, hb in spec.get("straits", []):
        b.straits[frozenset((x, y))] = (ha, hb)
    for box, friendly in spec.get("sea_boxes", {}).items():
        b.sea_boxes[box] = friendly
    for box, (friendly, edges) in spec.get("land_boxes", {}).items():
        b.land_boxes[box] = (friendly, frozenset(edges))
    return b


def board_from_map(game_map: Any, prohibited: set[str]) -> Board:
    """Convert the scenario loader's ``GameMap`` (see SCENARIO_API.md section 2)."""
    b = Board(game_map.cols, game_map.rows)
    for hx, info in game_map.hexes.items():
        h = str(hx)
        b.terrain[h] = info.terrain
        b.country[h] = info.country
        b.area[h] = info.area
        b.zone[h] = info.weather_zone
        if info.faded_dot:
            b.faded.add(h)
        if info.coastal:
            b.coastal.add(h)
        b.sea_zones[h] = frozenset(info.sea_zones)
    for (x, y), feats in game_map.hexsides.items():
        b.sides[frozenset((str(x), str(y)))] = frozenset(feats)
    for line in game_map.transport_lines:
        hs = [str(x) for x in line.hexes]
        for x, y in itertools.pairwise(hs):
            b.transport.add(frozenset((x, y)))
        b.transport_hexes.update(hs)
    for city in game_map.cities.values():
        if city.hex is not None:
            b.cities[str(city.hex)] = CityData(city.name, city.country, city.capital, city.port,
                                               city.factories)
        else:
            b.box_factories[city.country] = b.box_factories.get(city.country, 0) + city.factories
            if city.box is not None:
                b.box_cities[city.name] = (city.country, city.box)
    b.prohibited_countries.update(prohibited)
    for zid, zone in game_map.sea_zones.items():
        b.zone_adj[zid] = frozenset(zone.adjacent_zones) | frozenset(zone.boxes)
    for st in game_map.straits:
        b.straits[frozenset(st.zones)] = (str(st.hexes[0]), str(st.hexes[1]))
    for box in game_map.boxes.values():
        if box.kind == "sea":
            b.sea_boxes[box.id] = box.friendly.lower()
            b.zone_adj[box.id] = frozenset(box.sea_zones) | frozenset(box.boxes)
        if box.kind != "land":
            continue
        b.land_boxes[box.id] = (box.friendly.lower(), frozenset(str(x) for x in box.edge_hexes))
        owners = frozenset(c.country for c in game_map.cities.values() if c.box == box.id)
        for hx in game_map.transport_box_links(box.id):
            b.box_source[str(hx)] = (box.friendly.lower(), owners)
    return b


@functools.cache
def _board_cached(key: str) -> Board:
    spec = json.loads(key)
    if "blank" in spec:
        return blank_board(spec["blank"])
    from . import scenario as scen  # the loader; imported late so cases on blank maps need no data

    sc = scen.load_scenario(spec["scenario"])
    prohibited = {c.code for c in sc.countries.values() if c.status == "prohibited"}
    return board_from_map(sc.map, prohibited)


def board(state: Mapping[str, Any]) -> Board:
    """The board of a game state (``state['map']`` names a scenario or holds a blank spec),
    with the areas that changed country (``state['areas']``: ceded Disputed Areas 2.2, created
    countries such as Vichy 16.0) given to their new country."""
    key = json.dumps(state["map"], sort_keys=True)
    areas = state.get("areas")
    if not areas:
        return _board_cached(key)
    return _board_areas(key, json.dumps(areas, sort_keys=True))


@functools.cache
def _board_areas(key: str, areas_key: str) -> Board:
    base = _board_cached(key)
    areas: dict[str, dict[str, Any]] = json.loads(areas_key)
    b = dataclasses.replace(base, country=dict(base.country), cities=dict(base.cities))
    for h, a in base.area.items():
        if a in areas:
            code = areas[a]["country"]
            b.country[h] = code
            c = base.cities.get(h)
            if c is not None:
                cap = areas[a].get("capital")
                b.cities[h] = CityData(c.name, code, c.name == cap if cap else False, c.port, c.factories)
    return b


@functools.cache
def terrain_chart() -> Any:
    """The scenario loader's terrain chart (``rules/use/data/terrain.toml``)."""
    from . import mapdata

    return mapdata.load_terrain_chart()


@functools.cache
def weather_table() -> Any:
    from . import mapdata

    return mapdata.load_weather_table()
