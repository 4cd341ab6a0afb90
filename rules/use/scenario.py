"""USE scenarios: the data model, ``load_scenario`` and ``scenario_hash``.

A scenario is a directory of line-oriented text files (``scenario.txt``,
``countries.txt``, ``map.txt``, ``features.txt``, ``units.txt``).  Loading
validates everything and reports every problem at once, each with its file and
line (:class:`ScenarioErrors`).  The API is documented in rules/use/SCENARIO_API.md.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from pbem.errors import NotFound
from pbem.kit.records import Record, parse_int, read_records
from pbem.kit.share import find_shared

from .hexgrid import Hex, parse_hex
from .mapdata import (
    FACTIONS,
    GameMap,
    Issues,
    ScenarioErrors,
    ScenarioIssue,
    TerrainChart,
    WeatherTable,
    load_terrain_chart,
    load_weather_table,
)
from .mapfiles import load_map

__all__ = [
    "FACTIONS", "LEG_KINDS", "UNIT_KINDS", "ConditionalEvent", "Country", "Faction", "Fort",
    "HomeDefense", "Placement", "Policy", "Scenario", "ScenarioErrors", "ScenarioIssue",
    "UnitSpec", "VictoryCondition", "list_scenarios", "load_scenario", "scenario_dir", "scenario_hash",
]

UNIT_KINDS: Mapping[str, str] = MappingProxyType({  # USE 3.2
    "infantry": "ground", "paratroop": "ground", "garrison": "ground",  # Leg
    "motorized": "ground", "tank": "ground",  # Mobile
    "fighter": "air", "bomber": "air",
    "carrier": "naval", "surface": "naval", "convoy": "naval",  # carrier and surface are warships
})
LEG_KINDS = frozenset({"infantry", "paratroop", "garrison"})
POLICIES = ("home-defense", "cooperation-limits", "neutral-non-violation", "appeasement",
            "nazi-soviet-pact", "moscow-treaty")  # 10.3.x
CONDITIONAL_EVENTS = ("west-invaded", "east-invaded", "mediterranean-crisis", "usa-entry",
                      "ussr-northern-border", "ussr-southern-border")  # 13.3-13.8
STATUSES = ("active", "neutral", "prohibited", "dormant", "conquered")  # conquered: before the start (13.2.2)
SCENARIO_FILES = ("scenario.txt", "countries.txt", "map.txt", "features.txt", "units.txt")
_HASH_LABEL = b"pbem/v1/use-scenario\n"


@dataclass(frozen=True)
class Placement:
    kind: str  # hex | box | mobilization | conditional | activation | turn
    hex: Hex | None = None
    box: str | None = None
    turn: int | None = None


@dataclass(frozen=True)
class UnitSpec:
    id: str
    country: str
    kind: str
    name: str
    strength: str | None  # full | reduced (ground); None for air and naval
    elite: bool
    shock: bool
    sorties: int
    in_fort: bool
    placement: Placement
    line: int

    @property
    def category(self) -> str:
        return UNIT_KINDS[self.kind]

    @property
    def stack_class(self) -> str:
        """USE 3.3: at most one ground, fighter, bomber, warship and convoy per hex."""
        if self.category == "ground":
            return "ground"
        return {"carrier": "warship", "surface": "warship"}.get(self.kind, self.kind)

    @property
    def is_leg(self) -> bool:
        return self.kind in LEG_KINDS

    @property
    def is_mobile(self) -> bool:
        return self.category == "ground" and not self.is_leg

    @property
    def movement_points(self) -> int:
        """Full-supply MP (3.2, 4.2): 8 for Leg ground units, 10 for all others."""
        return 8 if self.is_leg else 10


@dataclass(frozen=True)
class Fort:
    hex: Hex
    country: str
    activation: bool  # placed when its (neutral) country activates, not at start
    line: int


@dataclass(frozen=True)
class HomeDefense:
    country: str
    units: int
    within: int | None
    of: str | None
    area: str
    line: int


@dataclass(frozen=True)
class Country:
    code: str
    name: str
    faction: str | None
    status: str
    will: int
    printed_will: int
    factories: int
    offmap_factories: int
    multiplier: int
    capital: str | None
    major: bool
    declare_war: bool
    pro: str | None
    area: str | None  # dormant country: the area it is created from (Vichy)
    home_defense: tuple[HomeDefense, ...]
    line: int
    conquered_by: str | None = None  # a country conquered before the start: its conqueror (by=)


@dataclass(frozen=True)
class Faction:
    name: str
    played: bool
    order: int
    line: int


@dataclass(frozen=True)
class Policy:
    name: str
    in_effect: bool
    can_end: bool
    line: int


@dataclass(frozen=True)
class ConditionalEvent:
    name: str
    armed: bool
    line: int


@dataclass(frozen=True)
class VictoryCondition:
    faction: str
    timing: str  # sudden | end
    test: str  # collapsed | conquered | controls | otherwise
    arg: str | None
    text: str
    line: int


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    directory: Path
    hash: bytes
    turns: tuple[tuple[int, int], ...]
    factions: Mapping[str, Faction]
    countries: Mapping[str, Country]
    policies: Mapping[str, Policy]
    conditional_events: Mapping[str, ConditionalEvent]
    diplomacy_cup: tuple[str, ...]
    map: GameMap
    units: tuple[UnitSpec, ...]
    units_by_id: Mapping[str, UnitSpec]
    forts: tuple[Fort, ...]
    victory: tuple[VictoryCondition, ...]
    terrain: TerrainChart
    weather: WeatherTable


# --- locating and hashing -----------------------------------------------------------------
REPO_ROOT = Path(__file__).resolve().parent.parent.parent  # the parent of rules/
def _default_root() -> Path:
    repo = REPO_ROOT / "scenarios" / "use"
    # A non-editable install carries the scenarios under share/pbem (setup.cfg data_files).
    return repo if repo.is_dir() else find_shared("scenarios", "use")


def scenario_dir(name_or_path: str | Path) -> Path:
    """A scenario name (``france-1940``) or a directory path -> the scenario directory.

    Names are looked up in ``$PBEM_SCENARIOS/use/<name>``, ``$PBEM_SCENARIOS/<name>``,
    then ``<repo>/scenarios/use/<name>``.
    """
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or os.sep in text or "/" in text:
        path = Path(name_or_path)
        if path.is_dir():
            return path
        raise NotFound(f"no USE scenario directory {path}", hint="check the path")
    roots = []
    if os.environ.get("PBEM_SCENARIOS"):
        env = Path(os.environ["PBEM_SCENARIOS"])
        roots += [env / "use", env]
    roots.append(_default_root())
    for root in roots:
        if (root / text / "scenario.txt").is_file():
            return root / text
    raise NotFound(f"no USE scenario named {text!r}",
                   hint=f"known scenarios: {', '.join(list_scenarios()) or 'none'}")


def list_scenarios() -> tuple[str, ...]:
    root = _default_root()
    env = os.environ.get("PBEM_SCENARIOS")
    roots = [Path(env) / "use", Path(env), root] if env else [root]
    return tuple(sorted({p.parent.name for r in roots if r.is_dir() for p in r.glob("*/scenario.txt")}))


def scenario_hash(directory: Path) -> bytes:
    """SHA-256 over every regular file of the directory, sorted by name, CRLF made LF.

    Each file is framed by its name, a NUL and its length, so moving bytes between
    files or renaming one changes the hash too.
    """
    h = hashlib.sha256(_HASH_LABEL)
    for path in sorted(p for p in Path(directory).iterdir() if p.is_file() and not p.name.startswith(".")):
        content = path.read_bytes().replace(b"\r\n", b"\n")
        h.update(path.name.encode() + b"\0" + len(content).to_bytes(8, "big") + content)
    return h.digest()


# --- loading ------------------------------------------------------------------------------
_LOADED: dict[tuple[Path, bytes], Scenario] = {}
_LOADED_KEPT = 4


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load and validate a scenario; raises ScenarioErrors listing every problem.

    Loaded once per process for the same files (the board, the map picture and the engine each
    ask for it; parsing costs about a tenth of a second): keyed by the folder and the hash of
    its contents, so an edited scenario is read again."""
    directory = scenario_dir(name_or_path)
    key = (directory.resolve(), scenario_hash(directory))
    if key not in _LOADED:
        # A few kept, the oldest dropped: a long-lived process (the warm worker, an author
        # editing a scenario, the fuzzer's 100,000 variants) must not keep every version.
        while len(_LOADED) >= _LOADED_KEPT:
            del _LOADED[next(iter(_LOADED))]
        _LOADED[key] = _load(directory)
    return _LOADED[key]


def _load(directory: Path) -> Scenario:
    issues = Issues()
    terrain, weather = load_terrain_chart(), load_weather_table()
    meta = _load_meta(read_records(directory / "scenario.txt", "use-scenario", issues), issues)
    countries = _load_countries(read_records(directory / "countries.txt", "use-countries", issues), issues)
    prohibited = frozenset(c.code for c in countries.values() if c.status == "prohibited")
    game_map = load_map(directory, issues, terrain.terrain.keys(), set(countries), prohibited)
    _check_countries(countries, game_map, issues)
    units, forts = _load_units(read_records(directory / "units.txt", "use-units", issues), issues,
                               countries, game_map, len(meta.turns))
    _check_victory(meta.victory, countries, game_map, issues)
    if issues:
        raise ScenarioErrors(issues)
    return Scenario(meta.name, meta.title, directory, scenario_hash(directory), meta.turns,
                    MappingProxyType(meta.factions), MappingProxyType(countries),
                    MappingProxyType(meta.policies), MappingProxyType(meta.events), meta.cup,
                    game_map, tuple(units), MappingProxyType({u.id: u for u in units}), tuple(forts),
                    tuple(meta.victory), terrain, weather)


@dataclass
class _Meta:
    name: str = ""
    title: str = ""
    turns: tuple[tuple[int, int], ...] = ()
    factions: dict[str, Faction] = field(default_factory=dict)
    policies: dict[str, Policy] = field(default_factory=dict)
    events: dict[str, ConditionalEvent] = field(default_factory=dict)
    cup: tuple[str, ...] = ()
    victory: list[VictoryCondition] = field(default_factory=list)


def _year_month(rec: Record, key: str, issues: Issues) -> tuple[int, int] | None:
    text = rec.attrs.get(key, "")
    year, _, month = text.partition("-")
    if not (year.isdigit() and month.isdigit() and 1 <= int(month) <= 12 and len(year) == 4):
        issues.add(rec.file, rec.line, f"{key}={text!r} must be YYYY-MM")
        return None
    return int(year), int(month)


def _load_meta(records: list[Record], issues: Issues) -> _Meta:
    m = _Meta()
    for rec in records:
        w, f, ln = rec.words, rec.file, rec.line
        if rec.keyword in ("name", "title") and len(w) == 1:
            setattr(m, rec.keyword, w[0])
        elif rec.keyword == "turns":
            start, end = _year_month(rec, "start", issues), _year_month(rec, "end", issues)
            if start and end:
                n = (end[0] - start[0]) * 12 + end[1] - start[1] + 1
                if n < 1:
                    issues.add(f, ln, "the last turn is before the first")
                m.turns = tuple(((start[1] - 1 + i) // 12 + start[0], (start[1] - 1 + i) % 12 + 1)
                                for i in range(max(n, 0)))
        elif rec.keyword == "faction" and len(w) == 2 and w[0] in FACTIONS and w[1] in ("played", "not-played"):
            m.factions[w[0]] = Faction(w[0], w[1] == "played", FACTIONS.index(w[0]) + 1, ln)
        elif rec.keyword == "policy" and len(w) >= 2 and w[0] in POLICIES and w[1] in ("in-effect", "off"):
            m.policies[w[0]] = Policy(w[0], w[1] == "in-effect", "fixed" not in w[2:], ln)
        elif rec.keyword == "conditional" and len(w) == 2 and w[0] in CONDITIONAL_EVENTS and w[1] in ("armed", "off"):
            m.events[w[0]] = ConditionalEvent(w[0], w[1] == "armed", ln)
        elif rec.keyword == "diplomacy-cup":
            m.cup = tuple(x for x in w if x != "empty")
        elif rec.keyword == "victory" and len(w) in (4, 5) and w[0] in FACTIONS and w[1] in ("sudden", "end") \
                and w[2] in ("collapsed", "conquered", "controls", "otherwise"):
            arg, text = (None, w[3]) if w[2] == "otherwise" else (w[3], w[4] if len(w) == 5 else "")
            m.victory.append(VictoryCondition(w[0], w[1], w[2], arg, text, ln))
        else:
            issues.add(f, ln, f"bad {rec.keyword!r} record: see the grammar at the top of scenario.txt")
    for what, value in (("name", m.name), ("title", m.title), ("turns", m.turns)):
        if not value:
            issues.add("scenario.txt", 0, f"missing {what} record")
    for fac in FACTIONS:
        if fac not in m.factions:
            issues.add("scenario.txt", 0, f"missing faction {fac} (played or not-played)")
    return m


def _load_countries(records: list[Record], issues: Issues) -> dict[str, Country]:
    countries: dict[str, Country] = {}
    defense: dict[str, list[HomeDefense]] = {}
    for rec in records:
        f, ln, w, a = rec.file, rec.line, rec.words, rec.attrs
        if rec.keyword == "home-defense" and len(w) == 1:
            defense.setdefault(w[0], []).append(HomeDefense(
                w[0], parse_int(rec, "units", issues, 1, 1, 20),
                parse_int(rec, "within", issues, -1, 0, 99) if "within" in a else None,
                a.get("of"), a.get("area", "mainland"), ln))
            continue
        if rec.keyword != "country" or len(w) < 3:
            issues.add(f, ln, 'expected: country CODE "Name" STATUS [attributes] or home-defense CODE ...')
            continue
        code, name, status, *flags = w
        if code in countries:
            issues.add(f, ln, f"country {code} defined twice (first at line {countries[code].line})")
            continue
        faction = a.get("faction")
        if status not in STATUSES:
            issues.add(f, ln, f"country {code}: status {status!r} must be one of {', '.join(STATUSES)}")
        if (status in ("active", "conquered")) != (faction is not None):
            issues.add(f, ln, f"country {code}: an active or conquered country has a faction=, others none")
        if (status == "conquered") != ("by" in a) or a.get("by", "Axis") not in FACTIONS:
            issues.add(f, ln, f"country {code}: a conquered country (and only one) has by=FACTION, its conqueror")
        if faction is not None and faction not in FACTIONS:
            issues.add(f, ln, f"country {code}: unknown faction {faction!r}")
        for flag in flags:
            if flag not in ("major", "no-declare-war"):
                issues.add(f, ln, f"country {code}: unknown flag {flag!r} (known: major, no-declare-war)")
        printed = parse_int(rec, "printed", issues, parse_int(rec, "will", issues, 0))
        countries[code] = Country(
            code, name, faction, status, parse_int(rec, "will", issues, 0), printed,
            parse_int(rec, "factories", issues, 0), parse_int(rec, "offmap", issues, 0),
            parse_int(rec, "multiplier", issues, 1, 1, 9), a.get("capital"), "major" in flags,
            status == "neutral" and "no-declare-war" not in flags, a.get("pro"), a.get("area"), (), ln,
            a.get("by"))
    for code, items in defense.items():
        if code not in countries:
            issues.add("countries.txt", items[0].line, f"home-defense: unknown country {code!r}")
            continue
        c = countries[code]
        countries[code] = Country(**{**c.__dict__, "home_defense": tuple(items)})
    return countries


def _check_countries(countries: Mapping[str, Country], game_map: GameMap, issues: Issues) -> None:
    """Capitals (one per country), factory totals, home-defense cities."""
    capitals: dict[str, list[str]] = {}
    for town in game_map.cities.values():
        if town.capital:
            capitals.setdefault(town.country, []).append(town.name)
            if len(capitals[town.country]) > 1:
                issues.add("features.txt", town.line, f"city {town.name}: {town.country} already has the "
                           f"capital {capitals[town.country][0]} (one capital per country)")
    for c in countries.values():
        f, ln = "countries.txt", c.line
        city = game_map.cities.get(c.capital or "")
        if c.capital is None and capitals.get(c.code) and c.status != "prohibited":
            issues.add(f, ln, f"country {c.code}: capital= not given but {capitals[c.code][0]} is marked capital")
        elif c.capital is not None and city is None:
            issues.add(f, ln, f"country {c.code}: capital {c.capital!r} is not a city of features.txt")
        elif city is not None and c.status == "dormant":
            if city.hex is None or game_map.hexes[city.hex].area != c.area:
                issues.add(f, ln, f"country {c.code}: capital {city.name} is not in its area {c.area!r}")
        elif city is not None and (not city.capital or city.country != c.code):
            issues.add(f, ln, f"country {c.code}: {city.name} is not marked as a capital of {c.code}")
        if c.status in ("active", "neutral"):
            printed = sum(x.factories for x in game_map.cities.values() if x.country == c.code)
            if printed + c.offmap_factories != c.factories:
                issues.add(f, ln, f"country {c.code}: factories={c.factories} but the map prints {printed} "
                           f"and offmap={c.offmap_factories}")
        for hd in c.home_defense:
            if hd.of is not None and hd.of not in game_map.cities:
                issues.add(f, hd.line, f"home-defense {c.code}: unknown city {hd.of!r}")


def _check_victory(conditions: list[VictoryCondition], countries: Mapping[str, Country],
                   game_map: GameMap, issues: Issues) -> None:
    for v in conditions:
        if v.test in ("collapsed", "conquered") and v.arg not in countries:
            issues.add("scenario.txt", v.line, f"victory: unknown country {v.arg!r}")
        if v.test == "controls" and v.arg not in game_map.cities:
            issues.add("scenario.txt", v.line, f"victory: unknown city {v.arg!r}")



# --- units.txt ----------------------------------------------------------------------------
def _placement(rec: Record, text: str, issues: Issues, game_map: GameMap, turns: int) -> Placement | None:
    """``XXYY`` | box id | mobilization | conditional | activation:XXYY | turn:N:XXYY."""
    kind, _, rest = text.partition(":")
    try:
        if text in game_map.boxes:
            return Placement("box", box=text)
        if kind in ("mobilization", "conditional") and not rest:
            return Placement(kind)
        if kind == "activation":
            return Placement("activation", hex=_on_map(parse_hex(rest), game_map))
        if kind == "turn":
            n, _, where = rest.partition(":")
            if not n.isdigit() or not 1 <= int(n) <= turns:
                issues.add(rec.file, rec.line, f"turn:{n}: the scenario has turns 1 to {turns}")
                return None
            return Placement("turn", hex=_on_map(parse_hex(where), game_map), turn=int(n))
        return Placement("hex", hex=_on_map(parse_hex(text), game_map))
    except ValueError as exc:
        issues.add(rec.file, rec.line, f"placement {text!r}: {exc} (expected XXYY, a box id, mobilization, "
                   "conditional, activation:XXYY or turn:N:XXYY)")
        return None


def _on_map(h: Hex, game_map: GameMap) -> Hex:
    if h not in game_map.hexes:
        raise ValueError(f"unknown hex {h} (not on the map)")
    return h


def _load_units(records: list[Record], issues: Issues, countries: Mapping[str, Country],
                game_map: GameMap, turns: int) -> tuple[list[UnitSpec], list[Fort]]:
    units: list[UnitSpec] = []
    forts: list[Fort] = []
    seen: dict[str, int] = {}
    for rec in records:
        f, ln, w = rec.file, rec.line, rec.words
        if rec.keyword == "fort" and len(w) >= 2:
            try:
                h = _on_map(parse_hex(w[0]), game_map)
            except ValueError as exc:
                issues.add(f, ln, f"fort: {exc}")
                continue
            if game_map.hexes[h].is_water or w[1] not in countries:
                issues.add(f, ln, f"fort at {h}: must be on land and name a known country")
            forts.append(Fort(h, w[1], "activation" in w[2:], ln))
            continue
        if rec.keyword != "unit" or len(w) < 4:
            issues.add(f, ln, 'expected: unit ID COUNTRY KIND WHERE [full|reduced] [elite] ... or fort XXYY COUNTRY')
            continue
        uid, code, kind, where, *flags = w
        bad = len(issues)
        if uid in seen:
            issues.add(f, ln, f"unit {uid}: duplicate unit id (first at line {seen[uid]})")
        seen.setdefault(uid, ln)
        if code not in countries:
            issues.add(f, ln, f"unit {uid}: unknown country {code!r}")
        if kind not in UNIT_KINDS:
            issues.add(f, ln, f"unit {uid}: unknown kind {kind!r} (known: {', '.join(UNIT_KINDS)})")
        for flag in flags:
            if flag not in ("full", "reduced", "elite", "shock", "fort"):
                issues.add(f, ln, f"unit {uid}: unknown flag {flag!r}")
        strength = next((x for x in flags if x in ("full", "reduced")), None)
        ground = UNIT_KINDS.get(kind) == "ground"
        if ground and strength is None:
            issues.add(f, ln, f"unit {uid}: a ground unit is full or reduced")
        if not ground and (strength is not None or "fort" in flags):
            issues.add(f, ln, f"unit {uid}: air and naval units have no strength sides and no fort (3.2)")
        if kind == "garrison" and strength == "full":
            issues.add(f, ln, f"unit {uid}: a garrison has only a reduced side (3.2)")
        sorties = parse_int(rec, "sorties", issues, 0, 0, 6)
        if ground and sorties:
            issues.add(f, ln, f"unit {uid}: only air and naval units carry Sorties (1.5)")
        placement = _placement(rec, where, issues, game_map, turns)
        if len(issues) > bad or placement is None:
            continue
        units.append(UnitSpec(uid, code, kind, rec.attrs.get("name", uid), strength, "elite" in flags,
                              "shock" in flags, sorties, "fort" in flags, placement, ln))
    _check_positions(units, forts, countries, game_map, issues)
    return units, forts


def _check_positions(units: list[UnitSpec], forts: list[Fort], countries: Mapping[str, Country],
                     game_map: GameMap, issues: Issues) -> None:
    """Every counter starts where it may be (3.3, 4.2.2, 4.2.4, 10.3.3, 13.1)."""
    fort_at = {(x.hex, x.activation): x for x in forts}
    stacks: dict[tuple[Hex, str, bool], UnitSpec] = {}
    faction_at: dict[Hex, tuple[str | None, UnitSpec]] = {}
    for u in units:
        c, p = countries[u.country], u.placement
        where = f"unit {u.id} at {p.hex or p.box or p.kind}"
        if p.kind == "activation" and c.status != "neutral":
            issues.add("units.txt", u.line, f"{where}: only a neutral country's units wait for activation")
        if p.kind in ("hex", "box", "turn") and c.status != "active":
            issues.add("units.txt", u.line, f"{where}: {c.code} is {c.status}; its units start off the map "
                       "(activation:XXYY or mobilization, 13.1)")
        if p.box is not None:
            box = game_map.boxes[p.box]
            if (box.kind == "sea") != (u.category == "naval") or box.friendly != c.faction:
                issues.add("units.txt", u.line, f"{where}: a {u.category} unit of {c.faction} cannot be in "
                           f"the {box.kind} box {box.id} (friendly to {box.friendly})")
        if p.hex is None:
            continue
        info = game_map.hexes[p.hex]
        city = game_map.city_at(p.hex)
        if u.category in ("ground", "air") and game_map.ground_prohibited(p.hex):
            issues.add("units.txt", u.line, f"{where}: a {u.category} unit must start on a land hex it may "
                       f"enter ({info.terrain}, {info.country or 'no country'})")
        elif p.kind == "activation" and info.country != u.country:
            issues.add("units.txt", u.line, f"{where}: sets up in its own country on activation (13.1)")
        elif countries.get(info.country or "") is not None and p.kind != "activation" \
                and countries[info.country or ""].status == "neutral":
            issues.add("units.txt", u.line, f"{where}: {info.country} is neutral (10.3.3)")
        if u.category == "air" and city is None and not game_map.has_transport(p.hex):
            issues.add("units.txt", u.line, f"{where}: an air unit is based in a city or on a transport line (4.2.2)")
        if u.category == "naval" and (city is None or not city.port or info.faded_dot):
            issues.add("units.txt", u.line, f"{where}: a naval unit starts in a port or a sea map box (4.2.4)")
        if u.in_fort and (p.hex, p.kind == "activation") not in fort_at:
            issues.add("units.txt", u.line, f"{where}: no fort marker in its hex")
        key = (p.hex, u.stack_class, p.kind == "activation")
        if p.kind != "turn":
            if key in stacks:
                issues.add("units.txt", u.line, f"{where}: a second {u.stack_class} in the hex with "
                           f"{stacks[key].id} (line {stacks[key].line}); stacking limit 3.3")
            stacks.setdefault(key, u)
        if p.kind == "hex":
            other = faction_at.setdefault(p.hex, (c.faction, u))
            if other[0] != c.faction:
                issues.add("units.txt", u.line, f"{where}: shares its hex with the enemy unit {other[1].id} (3.3)")
