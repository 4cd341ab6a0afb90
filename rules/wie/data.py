"""The War in Europe 1945 scenario files, read with pbem.kit as tests/test_wie_data.py reads them.

The map, features, units, scenario and tables of scenarios/wie/<name>/ (docs/wie-map.md) become
one frozen ``Data``: the static board the rules read (terrain, holders at the start, Air Fronts,
rivers, water hexsides, places, ports, rail) and the scenario's sides, seatings, belligerency,
association and turns. Every problem in every file is collected and raised once
(``WieScenarioErrors``).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import Hex, Hexside, parse_hex
from pbem.kit.hexmap import HexSchema, LineRules, check_hexsides, read_hex_map, read_transport_lines
from pbem.kit.records import Issues, Record, ScenarioErrors, read_records, read_toml

SIDES = ("axis", "allied", "soviet")
COUNTRIES = ("GER", "BOH", "POL", "SLK", "HUN", "RUM", "BUL", "YUG", "ALB", "GRE", "ITA", "SUI", "FRA", "BEL",
             "NET", "LUX", "DEN", "SWE", "NOR", "GBR", "SOV", "TUR", "FIN", "-")
SCHEMA = HexSchema(
    terrains=("clear", "rough", "forest", "mountain", "marsh", "sea"),  # [WiE-base 5.1]
    words=("COUNTRY", "SECTION", "HELD", "AIR"),
    choices={"COUNTRY": ("country", COUNTRIES), "SECTION": ("map section", ("C", "D", "G", "H")),
             "HELD": ("holder", ("axis", "allied", "soviet", "neutral", "-")),
             "AIR": ("air front", ("west", "south", "east", "-"))},
    flags=("coastal", "westwall"),
    attrs=("sea",),
    sides={"river": "river", "water": "water"},
    water=frozenset({"sea"}),
)
FRONTS = ("west", "south", "east")


def _root() -> Path:
    """scenarios/ of a source tree (rules/wie -> repo root), else the installed share/pbem."""
    here = Path(__file__).resolve().parent.parent.parent / "scenarios" / "wie"
    if here.is_dir():
        return here
    from pbem.kit.share import find_shared

    return find_shared("scenarios", "wie")


class WieScenarioErrors(ScenarioErrors):
    default_hint = "fix every listed line (docs/wie-map.md, docs/wie-base-rules.md)"


@dataclass(frozen=True)
class Board:
    """The static map: what never changes in play. Hexes are kit ``Hex``es."""

    cols: int
    rows: int
    terrain: dict[Hex, str]
    country: dict[Hex, str]
    section: dict[Hex, str]
    held: dict[Hex, str]  # the holder at the start ([WiE-base 5.4])
    air: dict[Hex, str]  # the Air Front ([WiE-base 13.1])
    westwall: frozenset[Hex]
    forts: frozenset[Hex]
    rivers: frozenset[Hexside]
    water: frozenset[Hexside]
    places: dict[Hex, str]  # the first place named in a hex
    cities: frozenset[Hex]  # capitals, Wehrkreise and manufacturing centers ([WiE-base 10.2])
    wehrkreise: frozenset[Hex]  # the German Placement Centers of 77.7
    mfg: frozenset[Hex]  # German manufacturing centers (Axis supply sources, [WiE-base 11.1])
    centers: dict[Hex, int]  # 76.4 victory points: one each for a mfg center, resource center, Wehrkreis
    ports: dict[Hex, str]
    rail: frozenset[Hex]
    rail_lines: tuple[tuple[str, tuple[Hex, ...]], ...]
    personnel: frozenset[Hex] = frozenset()  # Soviet Personnel Centers (77.7; 71.4 political points)
    resource: frozenset[Hex] = frozenset()  # German Resource Centers (76.4, 77.1)
    areas: dict[str, frozenset[Hex]] = field(default_factory=dict)  # the deployment areas of 76.3
    seas: dict[Hex, str] = field(default_factory=dict)  # coastal land hex -> the sea it touches (map.txt sea=)
    names: dict[str, Hex] = field(default_factory=dict)  # every city and alias name -> its hex (76.25's bombed centers)

    def land(self, h: Hex) -> bool:
        return self.terrain.get(h, "sea") != "sea" and self.section.get(h) in ("C", "D", "G")


@dataclass(frozen=True)
class Unit:
    uid: str
    side: str
    nation: str
    type: str
    hex: str
    area: str = ""  # the 76.3 deployment area its player places it in (units.txt area=)


@dataclass(frozen=True)
class Data:
    name: str
    title: str
    board: Board
    units: tuple[Unit, ...]
    status: dict[tuple[str, str], str]  # sorted pair -> peace | war | limited-war | total-war (71.0)
    associated: tuple[tuple[str, str], ...]  # sorted pairs associated at the start (69.0)
    first_turn: str
    turns: int
    tables: dict[str, Any]
    seatings: dict[int, dict[str, tuple[str, ...]]]  # seats -> seat -> sides (67.2, 71.32)
    digest: bytes = field(default=b"")


def pair(a: str, b: str) -> tuple[str, str]:
    x, y = sorted((a, b))
    return (x, y)


def _records(d: Path, name: str, issues: Issues) -> list[Record]:
    return read_records(d / f"{name}.txt", f"wie-{name}", issues)


def _board(d: Path, issues: Issues) -> Board:
    m = read_hex_map(_records(d, "map", issues), issues, SCHEMA)
    sides = check_hexsides(m.hexes, issues, GRID, SCHEMA.water)
    feats = _records(d, "features", issues)
    places: dict[Hex, str] = {}
    names: dict[str, Hex] = {}
    cities: set[Hex] = set()
    ports: dict[Hex, str] = {}
    forts: set[Hex] = set()
    wk: set[Hex] = set()
    mfg: set[Hex] = set()
    centers: dict[Hex, int] = {}
    personnel: set[Hex] = set()
    resource: set[Hex] = set()
    areas: dict[str, frozenset[Hex]] = {}
    for r in feats:
        try:
            if r.keyword in ("city", "alias") and len(r.words) >= 2:
                h = parse_hex(r.words[1])
                places.setdefault(h, r.words[0])
                names.setdefault(r.words[0], h)
                if "mfg" in r.words or "wehrkreis" in r.attrs or "capital" in r.attrs:
                    cities.add(h)
                if "port" in r.attrs:
                    ports[h] = r.attrs["port"]
                if "wehrkreis" in r.attrs:
                    wk.add(h)
                if "mfg" in r.words:
                    mfg.add(h)
                if "personnel" in r.words:
                    personnel.add(h)
                if "resource" in r.words:
                    resource.add(h)
                points = ("mfg" in r.words) + ("resource" in r.words) + ("wehrkreis" in r.attrs)
                if points:
                    centers[h] = centers.get(h, 0) + points
            elif r.keyword == "area" and len(r.words) >= 2:
                areas[r.words[0]] = frozenset(parse_hex(w) for w in r.words[1:])
            elif r.keyword == "fort" and r.words:
                forts.add(parse_hex(r.words[0]))
        except ValueError as exc:  # a word that is no hex: typed, with its line
            issues.add(r.file, r.line, str(exc))

    def barrier(a: Hex, b: Hex) -> str | None:
        return "water" if "water" in sides.get(GRID.hexside(a, b), frozenset()) else None

    lines = read_transport_lines([r for r in feats if r.keyword == "line"], issues, m.hexes,
                                 LineRules(GRID, {}, lambda h: m.hexes[h].terrain == "sea", barrier))
    hx = m.hexes
    return Board(
        m.cols, m.rows, {h: r.terrain for h, r in hx.items()}, {h: r.words[0] for h, r in hx.items()},
        {h: r.words[1] for h, r in hx.items()}, {h: r.words[2] for h, r in hx.items()},
        {h: r.words[3] for h, r in hx.items()}, frozenset(h for h, r in hx.items() if "westwall" in r.flags),
        frozenset(forts), frozenset(s for s, k in sides.items() if "river" in k),
        frozenset(s for s, k in sides.items() if "water" in k), places, frozenset(cities), frozenset(wk),
        frozenset(mfg), centers, ports, frozenset(h for ln in lines for h in ln.hexes),
        tuple((ln.name, ln.hexes) for ln in lines), frozenset(personnel),
        frozenset(resource), areas, {h: r.attrs["sea"] for h, r in hx.items() if r.attrs.get("sea")}, names)


def _units(d: Path, board: Board, issues: Issues) -> tuple[Unit, ...]:
    out: list[Unit] = []
    for r in _records(d, "units", issues):
        if r.keyword != "unit" or len(r.words) != 4 or r.words[1] not in SIDES or "at" not in r.attrs:
            issues.add(r.file, r.line, "expected: unit ID SIDE NATION TYPE at=XXYY")
            continue
        try:
            h = parse_hex(r.attrs["at"])
        except ValueError as exc:
            issues.add(r.file, r.line, str(exc))
            continue
        if not board.land(h):
            issues.add(r.file, r.line, f"{r.words[0]}: {h} is not a land hex in play (76.12)")
        out.append(Unit(r.words[0], r.words[1], r.words[2], r.words[3], str(h), r.attrs.get("area", "")))
    return tuple(out)


def _scenario(d: Path, issues: Issues) -> dict[str, Any]:
    out: dict[str, Any] = {"status": {}, "associated": [], "seatings": {}, "title": d.name,
                           "first": "1/1/45", "turns": 1}
    for r in _records(d, "scenario", issues):
        w = r.words
        if r.keyword == "scenario" and len(w) >= 2:
            out["title"] = w[1]
        elif r.keyword == "status" and len(w) == 3 and w[0] in SIDES and w[1] in SIDES:
            out["status"][pair(w[0], w[1])] = w[2]
        elif r.keyword == "association" and len(w) == 2:
            if r.attrs.get("start") == "associated":
                out["associated"].append(pair(w[0], w[1]))
        elif r.keyword == "seats" and w and w[0].isdigit():
            n = int(w[0])
            seats: dict[str, tuple[str, ...]] = {s: (s,) for s in SIDES}
            if "hold" in r.attrs:
                held = tuple(r.attrs["hold"].split("+"))
                seats = {s: v for s, v in seats.items() if s not in held[1:]}
                seats[held[0]] = held
            if len(seats) != n:
                issues.add(r.file, r.line, f"seats {n}: the seating gives {len(seats)} seats")
            out["seatings"][n] = seats
        elif r.keyword == "turns":
            out["first"] = r.attrs.get("first", "1/1/45")
            out["turns"] = int(r.attrs.get("count", "1"))
    for a, b in ((x, y) for i, x in enumerate(SIDES) for y in SIDES[i + 1:]):
        if pair(a, b) not in out["status"]:
            issues.add("scenario.txt", 0, f"no status between {a} and {b} (71.0)")
    return out


def scenario_dir(name: str) -> Path:
    return _root() / name


@functools.cache
def load(name: str) -> Data:
    return load_dir(scenario_dir(name), name)


def load_dir(d: Path, name: str) -> Data:
    """A scenario directory's files, validated (every problem typed: WieScenarioErrors)."""
    if not d.is_dir():
        raise WieScenarioErrors([])
    issues = Issues()
    board = _board(d, issues)
    units = _units(d, board, issues)
    sc = _scenario(d, issues)
    read = read_toml(d / "tables.toml", "wie-tables", issues)
    if issues:
        raise WieScenarioErrors(issues)
    h = hashlib.sha256(b"pbem/wie/scenario")
    for f in ("map.txt", "features.txt", "units.txt", "scenario.txt", "tables.toml"):
        part = (d / f).read_bytes()
        h.update(len(part).to_bytes(8, "big") + part)
    return Data(name, sc["title"], board, units, sc["status"], tuple(sc["associated"]), sc["first"],
                sc["turns"], read[0] if read else {}, sc["seatings"], h.digest())
