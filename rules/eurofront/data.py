"""The SCW scenario files (scenarios/eurofront/scw-1936) read with the kit into the board and roster.

The files are authored data (docs/eurofront-map.md); they are read the way
tests/test_eurofront_data.py reads them (pbem.kit.records, pbem.kit.hexmap) and every problem
is collected before one ``ScenarioErrors`` is raised. What the rules read at run time is the
``Board`` (terrain, countries, hexside features, places, rail) and the ``Roster`` (units.txt).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import NotFound
from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import Hex, Hexside, parse_hex
from pbem.kit.hexmap import HexSchema, LineRules, check_hexsides, read_hex_map, read_transport_lines
from pbem.kit.records import Issues, Record, ScenarioErrors, read_records, read_toml
from pbem.kit.share import find_shared

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIOS = ("scw-1936",)
SEATS = ("nationalists", "republicans")
LOYAL = {"nat": "nationalists", "rep": "republicans"}
COUNTRIES = ("SPA", "SPM", "POR", "FRA", "GIB", "TAN", "FMO", "ALG", "AND", "-")
TYPES = ("HQ", "THQ", "Armor", "Mech", "Infantry", "Static", "Fort", "Para")  # 2.28, 14.1 (no SCW unit)
SCHEMA = HexSchema(
    terrains=("clear", "forest", "hill", "marsh", "mountain", "sea"),  # 1.31-1.34
    words=("COUNTRY",),
    choices={"COUNTRY": ("country", COUNTRIES)},
    flags=("coastal",),
    attrs=("sea",),
    sides={"river": "river", "strait": "strait", "water": "water"},
    water=frozenset({"sea"}),
)


class EuroFrontScenarioErrors(ScenarioErrors):
    default_hint = "see docs/eurofront-map.md for the SCW files and their format"


@dataclass(frozen=True)
class Place:
    name: str
    hex: str
    country: str
    kind: str  # major | minor | town (1.41-1.43)
    loyal: str | None  # a seat, or None outside Spain
    port: bool
    border_rail: bool


@dataclass(frozen=True)
class UnitSpec:
    uid: str
    side: str
    type: str
    nation: str
    cv: int
    max: int
    at: str | None  # a place name (historical location)
    setup: str  # placed | militia | reinforcement


@dataclass
class Board:
    """The static map the rules read, keyed by hex strings ("1107")."""

    cols: int
    rows: int
    terrain: dict[str, str]
    country: dict[str, str]
    sides: dict[Hexside, frozenset[str]]
    places: dict[str, Place]  # by name, aliases included
    at: dict[str, Place] = field(default_factory=dict)  # hex -> the place that names it
    rail: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    playable: frozenset[str] = frozenset({"SPA", "SPM"})
    # Supply, ZOC and control ask these thousands of times a file: computed once per hex (pair).
    _near: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _kinds: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def neighbours(self, h: str) -> list[str]:
        near = self._near.get(h)
        if near is None:
            near = self._near[h] = [str(n) for n in GRID.neighbours(parse_hex(h)) if str(n) in self.terrain]
        return list(near)

    def side_kinds(self, a: str, b: str) -> frozenset[str]:
        kinds = self._kinds.get((a, b))
        if kinds is None:
            kinds = self._kinds[a, b] = self.sides.get(GRID.hexside(parse_hex(a), parse_hex(b)), frozenset())
        return kinds

    def enterable(self, h: str) -> bool:
        """A land hex of Spain or Spanish Morocco (SCW "The Map": units enter these only)."""
        return self.terrain.get(h, "sea") != "sea" and self.country.get(h) in self.playable


@dataclass
class ScwData:
    name: str
    title: str
    board: Board
    units: list[UnitSpec]
    tables: dict[str, Any]
    setups: dict[str, Record]
    default_setup: str
    digest_parts: list[bytes]
    rules: frozenset[str] = frozenset()  # the scenario's special rules (scenario.txt ``rule N``)


def scenario_root() -> Path:
    env = os.environ.get("PBEM_SCENARIOS")
    if env and (Path(env) / "eurofront").is_dir():
        return Path(env) / "eurofront"
    repo = REPO_ROOT / "scenarios" / "eurofront"
    return repo if repo.is_dir() else find_shared("scenarios", "eurofront")


def _read_board(d: Path, issues: Issues) -> Board:
    recs = read_records(d / "map.txt", "eurofront-map", issues)
    m = read_hex_map(recs, issues, SCHEMA)
    sides = check_hexsides(m.hexes, issues, GRID, SCHEMA.water)
    board = Board(m.cols, m.rows, {str(h): r.terrain for h, r in m.hexes.items()},
                  {str(h): (r.words[0] if r.words else "-") for h, r in m.hexes.items()}, sides, {})
    feats = read_records(d / "features.txt", "eurofront-features", issues)
    for r in feats:
        if r.keyword not in ("city", "alias") or len(r.words) < 4:
            continue
        name, hx = r.words[0], r.words[1]
        country, kind = (r.words[2], r.words[3]) if r.keyword == "city" else (r.words[3], r.words[4])
        if hx not in board.terrain:
            issues.add(r.file, r.line, f"{name}: hex {hx} is not on the map")
            continue
        loyal = r.attrs.get("loyal", "-")
        place = Place(name, hx, country, kind, LOYAL.get(loyal), "port" in r.attrs, "border-rail" in r.words)
        board.places[name] = place
        if r.keyword == "city":
            board.at[hx] = place

    def barrier(a: Hex, b: Hex) -> str | None:
        kinds = sides.get(GRID.hexside(a, b), frozenset()) & {"water", "strait"}
        return min(kinds) if kinds else None

    lines = read_transport_lines([r for r in feats if r.keyword == "line"], issues, m.hexes,
                                 LineRules(GRID, {}, lambda h: m.hexes[h].terrain == "sea", barrier))
    board.rail = [(ln.name, tuple(str(h) for h in ln.hexes)) for ln in lines]
    return board


def _read_units(d: Path, board: Board, issues: Issues) -> list[UnitSpec]:
    out = []
    for r in read_records(d / "units.txt", "eurofront-units", issues):
        if r.keyword != "unit":
            continue
        if len(r.words) != 4 or r.words[1] not in SEATS or r.words[2] not in TYPES:
            issues.add(r.file, r.line, "expected 'unit ID SIDE TYPE NATION cv=N max=N ...'")
            continue
        at = r.attrs.get("at")
        if at is not None and at not in board.places:
            issues.add(r.file, r.line, f"{r.words[0]}: no place named {at!r}")
        try:
            cv, top = int(r.attrs.get("cv", "")), int(r.attrs.get("max", ""))
        except ValueError:
            issues.add(r.file, r.line, f"{r.words[0]}: cv and max must be numbers")
            continue
        out.append(UnitSpec(r.words[0], r.words[1], r.words[2], r.words[3], cv, top, at,
                            r.attrs.get("setup", "placed")))
    return out


@functools.cache
def load(name: str) -> ScwData:
    if name not in SCENARIOS:
        raise NotFound(f"no EuroFront scenario named {name!r}", hint=f"known: {', '.join(SCENARIOS)}")
    return load_dir(scenario_root() / name, name)


def load_dir(d: Path, name: str) -> ScwData:
    """A scenario directory's files, validated (every problem typed: EuroFrontScenarioErrors)."""
    issues = Issues()
    board = _read_board(d, issues)
    units = _read_units(d, board, issues)
    scen = read_records(d / "scenario.txt", "eurofront-scenario", issues)
    read = read_toml(d / "tables.toml", "eurofront-tables", issues)
    if issues:
        raise EuroFrontScenarioErrors(issues)
    setups = {r.words[0]: r for r in scen if r.keyword == "setup"}
    title = next((r.words[1] for r in scen if r.keyword == "scenario" and len(r.words) > 1), name)
    default = next((k for k, r in setups.items() if "default" in r.words), "historical")
    parts = [(d / f).read_bytes() for f in ("map.txt", "features.txt", "scenario.txt", "units.txt", "tables.toml")]
    rules = frozenset(r.words[0] for r in scen if r.keyword == "rule" and r.words)
    return ScwData(name, title, board, units, read[0] if read else {}, setups, default, parts, rules)
