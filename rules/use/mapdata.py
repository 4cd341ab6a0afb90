"""The USE map model (hexes, hexsides, cities, transport lines, sea zones, map boxes)
and the rules tables that go with it: the Terrain Effects Chart and the Weather table.

The data model is described in rules/use/SCENARIO_API.md; the files are read by
``mapfiles.py``.  Everything is immutable once loaded.  The issue list, the
transport line and ``graph_distance`` are the kit's (pbem/kit/records.py,
pbem/kit/hexmap.py); what is here is USE's: its hex facts, cities, boxes, sea
zones and straits, and its tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pbem.kit import records
from pbem.kit.hexmap import TransportLine, graph_distance
from pbem.kit.records import Issues, ScenarioIssue, line_of, read_toml

from .hexgrid import DIRECTIONS, Hex, Hexside, hexside, neighbour

__all__ = ["FACTIONS", "HEXSIDE_KINDS", "TERRAINS", "WEATHER_ZONES", "City", "GameMap", "HexInfo", "Issues",
           "MapBox", "ScenarioErrors", "ScenarioIssue", "SeaZone", "Strait", "TerrainChart", "TransportLine",
           "WeatherTable", "graph_distance", "load_terrain_chart", "load_weather_table"]

TERRAINS = ("clear", "rough", "mountain", "marsh", "water")
HEXSIDE_KINDS = ("river", "water", "strait", "prohibited")
WEATHER_ZONES = ("cold", "mild", "warm", "desert")
FACTIONS = ("Axis", "Western", "Soviet")  # USE 2.3, in faction order (1.2)


class ScenarioErrors(records.ScenarioErrors):
    """Every problem found in a USE scenario (or rules table), each with its file and line."""

    default_hint = "fix every listed line; docs/use-map.md describes the files"


# --- the map model ---------------------------------------------------------------------
@dataclass(frozen=True)
class HexInfo:
    hex: Hex
    terrain: str
    country: str | None
    area: str | None
    weather_zone: str
    sea_zones: frozenset[str]
    coastal: bool
    faded_dot: bool
    line: int

    @property
    def is_water(self) -> bool:
        return self.terrain == "water"

    @property
    def is_land(self) -> bool:
        return self.terrain != "water"


@dataclass(frozen=True)
class City:
    name: str
    country: str
    hex: Hex | None
    box: str | None
    capital: bool
    port: bool
    factories: int
    lat: float | None
    lon: float | None
    line: int


@dataclass(frozen=True)
class SeaZone:
    id: str
    name: str
    water_hexes: frozenset[Hex]
    coastal_hexes: frozenset[Hex]
    adjacent_zones: frozenset[str]
    boxes: frozenset[str]
    line: int


@dataclass(frozen=True)
class Strait:
    """A Strait symbol between two adjacent Sea Zones (1.3.3, 1.3.6), pointing to two land hexes
    (4.2.4: naval movement across it pays ``strait_mp`` and is prohibited if either hex holds an
    enemy city, fort or unit; 6.4.3: naval interception cannot cross it)."""

    name: str
    zones: tuple[str, str]  # sorted
    hexes: tuple[Hex, Hex]  # the two hexes the symbol points to
    line: int


@dataclass(frozen=True)
class MapBox:
    id: str
    name: str
    kind: str  # "sea" | "land"
    friendly: str
    sea_zones: frozenset[str]
    boxes: frozenset[str]
    edge_hexes: frozenset[Hex]
    line: int


@dataclass(frozen=True)
class GameMap:
    cols: int
    rows: int
    hexes: Mapping[Hex, HexInfo]
    hexsides: Mapping[Hexside, frozenset[str]]
    cities: Mapping[str, City]
    transport_lines: tuple[TransportLine, ...]
    sea_zones: Mapping[str, SeaZone]
    boxes: Mapping[str, MapBox]
    prohibited_countries: frozenset[str] = frozenset()
    _city_at: Mapping[Hex, City] = field(default_factory=dict, repr=False, compare=False)
    _links: frozenset[Hexside] = field(default=frozenset(), repr=False, compare=False)
    _box_links: Mapping[str, frozenset[Hex]] = field(default_factory=dict, repr=False, compare=False)
    straits: tuple[Strait, ...] = ()

    def on_map(self, h: Hex) -> bool:
        return 1 <= h.col <= self.cols and 1 <= h.row <= self.rows

    def info(self, h: Hex) -> HexInfo:
        return self.hexes[h]

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        return tuple(n for n in (neighbour(h, d) for d in DIRECTIONS) if self.on_map(n))

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        side = hexside(a, b)
        listed = self.hexsides.get(side, frozenset())
        if self.hexes[a].is_water or self.hexes[b].is_water:
            return listed | {"water"}  # implicit: at least one side is a water hex
        return listed

    def is_river(self, a: Hex, b: Hex) -> bool:
        return "river" in self.hexsides.get(hexside(a, b), frozenset())

    def border(self, a: Hex, b: Hex) -> str | None:
        ia, ib = self.hexes[a], self.hexes[b]
        if ia.is_water or ib.is_water:
            return None
        if ia.country != ib.country:
            return "international"
        return "disputed" if ia.area != ib.area else None

    def city_at(self, h: Hex) -> City | None:
        return self._city_at.get(h)

    def capital_of(self, country: str) -> City | None:
        for city in self.cities.values():
            if city.capital and city.country == country and city.hex is not None:
                return city
        return None

    def ports(self, zone: str | None = None) -> tuple[City, ...]:
        return tuple(c for c in self.cities.values() if c.port and c.hex is not None
                     and (zone is None or zone in self.hexes[c.hex].sea_zones))

    def has_transport(self, h: Hex) -> bool:
        return any(h in line.hexes for line in self.transport_lines)

    def transport_between(self, a: Hex, b: Hex) -> bool:
        return ((a, b) if a < b else (b, a)) in self._links

    def transport_box_links(self, box: str) -> frozenset[Hex]:
        return self._box_links.get(box, frozenset())

    def ground_prohibited(self, h: Hex) -> bool:
        info = self.hexes[h]
        return info.is_water or info.faded_dot or info.country in self.prohibited_countries

    def strait(self, zone_a: str, zone_b: str) -> Strait | None:
        """The Strait between two Sea Zones, if their border is one (1.3.3)."""
        key = tuple(sorted((zone_a, zone_b)))
        return next((s for s in self.straits if s.zones == key), None)

    def is_strait(self, zone_a: str, zone_b: str) -> bool:
        """True if moving between the two Sea Zones crosses a Strait (4.2.4, 6.4.3)."""
        return self.strait(zone_a, zone_b) is not None

    def sea_zone_distance(self, a: str, b: str, cross_straits: bool = True) -> int:
        """Steps between two sea zones / map boxes (0 when equal); -1 if unconnected.  Ranges
        trace across Straits (1.4) unless ``cross_straits`` is False (naval interception, 6.4.3)."""
        return graph_distance(a, b, lambda loc: [n for n in self._location_neighbours(loc)
                                                 if cross_straits or not self.is_strait(loc, n)])

    def _location_neighbours(self, loc: str) -> Iterable[str]:
        if loc in self.sea_zones:
            return self.sea_zones[loc].adjacent_zones | self.sea_zones[loc].boxes
        if loc in self.boxes:
            return self.boxes[loc].sea_zones | self.boxes[loc].boxes
        return ()

# --- rules tables: Terrain Effects Chart and Weather table -------------------------------
DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class TerrainEffect:
    name: str
    mp: int | None  # None: ground movement prohibited
    defender_drm: int
    tank_drm: bool  # False: no Tank DRM against a defender in this terrain
    why: str


@dataclass(frozen=True)
class HexsideEffect:
    kind: str
    mp_plus: int | None  # "+" cost, cumulative (4.2); None: ground movement prohibited
    defender_drm: int  # when every attacker attacks across such a hexside
    why: str


@dataclass(frozen=True)
class TerrainChart:
    terrain: Mapping[str, TerrainEffect]
    hexsides: Mapping[str, HexsideEffect]
    transport_mp: int
    land_box_mp: int
    air_hex_mp: int
    attack_mp: Mapping[str, int]  # by weather: fair / poor / severe
    sea_zone_mp: int
    map_box_mp: int
    strait_mp: int
    canal_mp: int
    city_defender_drm: int
    capital_defender_drm: int  # replaces the city DRM in a capital

    def entry_cost(self, terrain: str, features: frozenset[str], along_transport: bool) -> int | None:
        """Ground MP to enter a hex of ``terrain`` across a hexside with ``features``; None = prohibited.

        Along a transport line terrain and hexside count as Clear (4.2.3).  A strait
        makes a water hexside crossable (1.3.3).
        """
        effect = self.terrain.get(terrain)
        if effect is None or effect.mp is None:
            return None
        if along_transport:
            return self.transport_mp
        cost = effect.mp
        for kind in sorted(features - {"water"} if "strait" in features else features):
            side = self.hexsides.get(kind)
            if side is None or side.mp_plus is None:
                return None
            cost += side.mp_plus
        return cost


def _toml(path: Path, kind: str) -> tuple[dict[str, Any], str]:
    issues = Issues()
    got = read_toml(path, kind, issues)
    if got is None:
        raise ScenarioErrors(issues)
    return got


def _int(table: Mapping[str, Any], key: str, issues: Issues, file: str, line: int,
         optional: bool = False) -> int | None:
    value = table.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        issues.add(file, line, f"{key} must be an integer")
        return 0
    return value


def load_terrain_chart(path: Path | None = None) -> TerrainChart:
    path = path or DATA / "terrain.toml"
    data, text = _toml(path, "use-terrain")
    issues, f = Issues(), path.name
    terrain: dict[str, TerrainEffect] = {}
    for name in TERRAINS:
        t = data.get("terrain", {}).get(name)
        line = line_of(text, f"[terrain.{name}]")
        if not isinstance(t, dict):
            issues.add(f, 0, f"missing table [terrain.{name}]")
            continue
        if not t.get("why") or not t.get("source"):
            issues.add(f, line, f"[terrain.{name}] needs source and why")
        terrain[name] = TerrainEffect(name, _int(t, "mp", issues, f, line, optional=True),
                                      _int(t, "defender_drm", issues, f, line) or 0,
                                      bool(t.get("tank_drm", False)), str(t.get("why", "")))
    sides: dict[str, HexsideEffect] = {}
    for kind in HEXSIDE_KINDS:
        t = data.get("hexside", {}).get(kind)
        line = line_of(text, f"[hexside.{kind}]")
        if not isinstance(t, dict):
            issues.add(f, 0, f"missing table [hexside.{kind}]")
            continue
        sides[kind] = HexsideEffect(kind, _int(t, "mp_plus", issues, f, line, optional=True),
                                    _int(t, "defender_drm", issues, f, line) or 0, str(t.get("why", "")))
    mv, nv, ct = data.get("movement", {}), data.get("naval", {}), data.get("cities", {})
    lm, ln, lc = line_of(text, "[movement]"), line_of(text, "[naval]"), line_of(text, "[cities]")
    attack = {w: _int(mv.get("attack_mp", {}), w, issues, f, lm) or 0 for w in ("fair", "poor", "severe")}
    chart = TerrainChart(
        MappingProxyType(terrain), MappingProxyType(sides), _int(mv, "transport_mp", issues, f, lm) or 0,
        _int(mv, "land_box_mp", issues, f, lm) or 0, _int(mv, "air_hex_mp", issues, f, lm) or 0,
        MappingProxyType(attack), _int(nv, "sea_zone_mp", issues, f, ln) or 0,
        _int(nv, "map_box_mp", issues, f, ln) or 0, _int(nv, "strait_mp", issues, f, ln) or 0,
        _int(nv, "canal_mp", issues, f, ln) or 0, _int(ct, "city_defender_drm", issues, f, lc) or 0,
        _int(ct, "capital_defender_drm", issues, f, lc) or 0)
    if issues:
        raise ScenarioErrors(issues)
    return chart


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_RESULTS = {"F": "fair", "P": "poor", "S": "severe"}


@dataclass(frozen=True)
class WeatherTable:
    rows: Mapping[tuple[str, int], tuple[str, ...]]  # (zone, month 1-12) -> results for d6 1..6
    effects: Mapping[str, tuple[str, ...]]  # fair / poor / severe / special -> rule sentences

    def result(self, zone: str, month: int, die: int) -> str:
        """The weather for ``zone`` in ``month`` on a die roll of ``die`` (11.0: desert is Fair)."""
        if zone == "desert":
            return "fair"
        return self.rows[(zone, month)][die - 1]


def load_weather_table(path: Path | None = None) -> WeatherTable:
    path = path or DATA / "weather.toml"
    data, text = _toml(path, "use-weather")
    issues = Issues()
    rows: dict[tuple[str, int], tuple[str, ...]] = {}
    for zone in ("cold", "mild", "warm"):
        table = data.get("zones", {}).get(zone, {})
        for month, key in enumerate(_MONTHS, start=1):
            row = table.get(key)
            if not isinstance(row, str) or len(row) != 6 or set(row) - set(_RESULTS):
                issues.add(path.name, line_of(text, f"[zones.{zone}]"),
                           f"zones.{zone}.{key} must be 6 letters of F, P, S (die rolls 1 to 6)")
                continue
            rows[(zone, month)] = tuple(_RESULTS[c] for c in row)
    effects = {name: tuple(str(s) for s in (*t.get("seed", ()), *t.get("authored", ())))
               for name, t in (*data.get("effects", {}).items(), ("special", data.get("special", {})))}
    if issues:
        raise ScenarioErrors(issues)
    return WeatherTable(MappingProxyType(rows), MappingProxyType(effects))
