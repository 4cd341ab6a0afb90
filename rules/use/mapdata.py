"""The USE map model (hexes, hexsides, cities, transport lines, sea zones, map boxes)
and the rules tables that go with it: the Terrain Effects Chart and the Weather table.

The data model is described in rules/use/SCENARIO_API.md; the files are read by
``mapfiles.py``.  Everything is immutable once loaded.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pbem.errors import InvalidInput

from .hexgrid import DIRECTIONS, Hex, Hexside, hexside, neighbour

TERRAINS = ("clear", "rough", "mountain", "marsh", "water")
HEXSIDE_KINDS = ("river", "water", "strait", "prohibited")
WEATHER_ZONES = ("cold", "mild", "warm", "desert")
FACTIONS = ("Axis", "Western", "Soviet")  # USE 2.3, in faction order (1.2)


@dataclass(frozen=True)
class ScenarioIssue:
    file: str  # relative to the scenario directory (or the rules data file name)
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class ScenarioErrors(InvalidInput):
    """Every problem found in a scenario (or rules table), each with its file and line."""

    def __init__(self, errors: list[ScenarioIssue]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.file, e.line))
        shown = "\n".join(str(e) for e in self.errors[:50])
        more = f"\n... and {len(self.errors) - 50} more" if len(self.errors) > 50 else ""
        super().__init__(f"{len(self.errors)} problem(s) in the scenario data:\n{shown}{more}",
                         hint="fix every listed line; docs/use-map.md describes the files")


class Issues(list[ScenarioIssue]):
    def add(self, file: str, line: int, message: str) -> None:
        self.append(ScenarioIssue(file, line, message))


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
class TransportLine:
    name: str
    hexes: tuple[Hex, ...]
    start_box: str | None
    end_box: str | None
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


def graph_distance(a: str, b: str, neighbours: Callable[[str], Iterable[str]]) -> int:
    """Breadth-first steps from ``a`` to ``b`` (0 when equal), or -1 if unconnected (sea zones, boxes)."""
    seen, frontier, steps = {a}, [a], 0
    while frontier:
        if b in frontier:
            return steps
        nxt: list[str] = []
        for loc in frontier:
            for n in sorted(neighbours(loc)):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier, steps = nxt, steps + 1
    return -1


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
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioErrors([ScenarioIssue(path.name, 0, f"cannot read: {exc}")]) from exc
    if data.get("format") != f"{kind} 1":
        raise ScenarioErrors([ScenarioIssue(path.name, 1, f"format must be '{kind} 1'")])
    return data, text


def _line_of(text: str, needle: str) -> int:
    """The line where a TOML table or key is written (for messages); 0 if not found."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(needle):
            return number
    return 0


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
        line = _line_of(text, f"[terrain.{name}]")
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
        line = _line_of(text, f"[hexside.{kind}]")
        if not isinstance(t, dict):
            issues.add(f, 0, f"missing table [hexside.{kind}]")
            continue
        sides[kind] = HexsideEffect(kind, _int(t, "mp_plus", issues, f, line, optional=True),
                                    _int(t, "defender_drm", issues, f, line) or 0, str(t.get("why", "")))
    mv, nv, ct = data.get("movement", {}), data.get("naval", {}), data.get("cities", {})
    lm, ln, lc = _line_of(text, "[movement]"), _line_of(text, "[naval]"), _line_of(text, "[cities]")
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
                issues.add(path.name, _line_of(text, f"[zones.{zone}]"),
                           f"zones.{zone}.{key} must be 6 letters of F, P, S (die rolls 1 to 6)")
                continue
            rows[(zone, month)] = tuple(_RESULTS[c] for c in row)
    effects = {name: tuple(str(s) for s in (*t.get("seed", ()), *t.get("authored", ())))
               for name, t in (*data.get("effects", {}).items(), ("special", data.get("special", {})))}
    if issues:
        raise ScenarioErrors(issues)
    return WeatherTable(MappingProxyType(rows), MappingProxyType(effects))
