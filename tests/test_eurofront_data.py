"""The EuroFront 1936 Spanish Civil War data, checked with pbem.kit alone (no rules module yet).

The map, features, scenario, units and tables of scenarios/eurofront/scw-1936 are
authored data (docs/eurofront-map.md).  These checks read the committed files the
way the future rules module will (pbem.kit.records, pbem.kit.hexmap) and hold
them to what the seed rulebook says: a complete grid, symmetric hexsides, places
on land, continuous rail lines, units on the map, the places the rulebook names.
Only the regeneration check needs ../shared (the Natural Earth shapefile) and pyshp.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import Hex, Hexside, parse_hex
from pbem.kit.hexmap import (
    HexMapRecords,
    HexSchema,
    LineRules,
    TransportLine,
    check_hexsides,
    disconnected,
    read_hex_map,
    read_transport_lines,
)
from pbem.kit.records import Issues, Record, read_records, read_toml

ROOT = Path(__file__).resolve().parent.parent
SCW = ROOT / "scenarios" / "eurofront" / "scw-1936"
SHAPEFILE = ROOT.parent / "shared" / "geo" / "ne_10m_admin_0_countries_deu.zip"

COUNTRIES = ("SPA", "SPM", "POR", "FRA", "GIB", "TAN", "FMO", "ALG", "AND", "-")
SCHEMA = HexSchema(
    terrains=("clear", "forest", "hill", "marsh", "mountain", "sea"),  # 1.31-1.34; sea hexes
    words=("COUNTRY",),
    choices={"COUNTRY": ("country", COUNTRIES)},
    flags=("coastal",),
    attrs=("sea",),
    sides={"river": "river", "strait": "strait", "water": "water"},
    water=frozenset({"sea"}),
)
# Places the seed names in Iberia and Morocco (SCW scenario; 15.1 ports; SCW rules 3, 9).
NAMED = ("Madrid", "Barcelona", "Lisbon", "Albacete", "Bayonne", "Perpignan", "Vigo", "Porto", "Cadiz",
         "Gibraltar", "Tangiers", "Bilbao", "Malaga", "Almeria", "Cartagena", "Valencia", "Mallorca",
         "Melilla")
SIDES = {"nat": "nationalists", "rep": "republicans"}
LIMIT = {"major": 4, "minor": 2, "town": 1}  # SCW Free Setup stacking of starting units


def _fail_on(issues: Issues) -> None:
    assert not issues, "\n".join(str(i) for i in issues)


def _map() -> tuple[HexMapRecords, dict[Hexside, frozenset[str]], list[Record]]:
    issues = Issues()
    recs = read_records(SCW / "map.txt", "eurofront-map", issues)
    m = read_hex_map(recs, issues, SCHEMA)
    sides = check_hexsides(m.hexes, issues, GRID, SCHEMA.water)
    _fail_on(issues)
    return m, sides, recs


def _features() -> list[Record]:
    issues = Issues()
    recs = read_records(SCW / "features.txt", "eurofront-features", issues)
    _fail_on(issues)
    return recs


def _places() -> dict[str, tuple[Hex, Record]]:
    """Every named place (cities and the aliases of merged places) -> its hex and record."""
    out: dict[str, tuple[Hex, Record]] = {}
    for r in _features():
        if r.keyword in ("city", "alias"):
            assert r.words[0] not in out, f"{r.file}:{r.line}: {r.words[0]} named twice"
            out[r.words[0]] = (parse_hex(r.words[1]), r)
    return out


def _country(m: HexMapRecords, h: Hex) -> str:
    return m.hexes[h].words[0]


def _lines(m: HexMapRecords, sides: dict[Hexside, frozenset[str]]) -> list[TransportLine]:
    def barrier(a: Hex, b: Hex) -> str | None:
        # 9.11: rail crosses only rail-ferry straits (none in Iberia); never an all-sea edge
        kinds = sides.get(GRID.hexside(a, b), frozenset()) & {"water", "strait"}
        return min(kinds) if kinds else None

    issues = Issues()
    lines = read_transport_lines([r for r in _features() if r.keyword == "line"], issues, m.hexes,
                                 LineRules(GRID, {}, lambda h: m.hexes[h].terrain == "sea", barrier))
    _fail_on(issues)
    return lines


def test_grid_complete_and_hexsides_symmetric() -> None:
    m, sides, recs = _map()
    assert len(m.hexes) == m.cols * m.rows
    grid = next(r for r in recs if r.keyword == "grid")
    assert grid.attrs.get("low_columns") == "even"  # the convention the header states
    assert any("river" in k for k in sides.values()) and any("strait" in k for k in sides.values())
    for h, hx in m.hexes.items():
        assert (hx.terrain == "sea") == (hx.words[0] == "-"), f"{h}: a sea hex has no country"
        if hx.terrain == "sea":
            assert not hx.flags and not hx.sides
    spain = {h for h, hx in m.hexes.items() if hx.words[0] == "SPA" and not _island(h)}
    assert disconnected(spain, GRID) is None, "mainland Spain must be one region"


def _island(h: Hex) -> bool:
    return h.col >= 21 and h.row >= 7  # Mallorca and Menorca


def test_places_on_land_with_loyalty() -> None:
    m, _sides, _recs = _map()
    places = _places()
    for name in NAMED:
        assert name in places, f"{name} (named by the rulebook) is missing"
    for name, (h, r) in places.items():
        assert h in m.hexes and m.hexes[h].terrain != "sea", f"{name} is not on a land hex"
        if r.keyword == "alias":
            assert r.words[2] in places and places[r.words[2]][0] == h
            continue
        kind, country, loyal = r.words[3], r.words[2], r.attrs["loyal"]
        assert kind in LIMIT
        assert loyal in (("nat", "rep") if country in ("SPA", "SPM") else ("-",)), name
        assert _country(m, h) == country or "enclave" in r.words, name
        if "port" in r.attrs:
            assert r.attrs["port"] in ("major", "minor") and "coastal" in m.hexes[h].flags, name
    city = {n: r for n, (_h, r) in places.items() if r.keyword == "city"}
    assert city["Madrid"].attrs["capital"] == "republicans" and city["Madrid"].attrs["pp"] == "2"
    assert city["Lisbon"].attrs["capital"] == "nationalists" and city["Barcelona"].attrs["pp"] == "1"
    assert {n for n, r in city.items() if r.words[3] == "major" and r.words[2] == "SPA"} == {"Madrid", "Barcelona"}


def test_rail_lines_contiguous_and_french_border_rail() -> None:
    m, sides, _recs = _map()
    lines = _lines(m, sides)
    rail = {h for ln in lines for h in ln.hexes}
    places = _places()
    border = [n for n, (_h, r) in places.items() if "border-rail" in r.words]
    assert sorted(border) == ["Bayonne", "Perpignan"]
    for name in border:
        h = places[name][0]
        assert h in rail and _country(m, h) == "FRA"
        assert any(n in m.hexes and _country(m, n) == "SPA" for n in GRID.neighbours(h)), name
    for name, (h, r) in places.items():
        if r.keyword == "city" and r.words[3] in ("major", "minor") and r.words[2] in ("SPA", "POR"):
            assert h in rail or name in ("Mallorca",), f"{name} is off the rail net"


def test_straits_match_the_map() -> None:
    m, sides, _recs = _map()
    straits = [r for r in _features() if r.keyword == "strait"]
    assert {r.words[0] for r in straits} == {"Gibraltar Straits", "Tarifa-Ceuta"}
    for r in straits:
        a, b = parse_hex(r.words[1]), parse_hex(r.words[2])
        assert "strait" in sides[GRID.hexside(a, b)]
    assert sum(1 for k in sides.values() if "strait" in k) == len(straits)
    # the Army of Africa's way into Spain: Spanish Morocco touches Spain across a strait
    crossing = [s for s, k in sides.items() if "strait" in k
                and {_country(m, s[0]), _country(m, s[1])} == {"SPA", "SPM"}]
    assert crossing


def _units() -> list[Record]:
    issues = Issues()
    recs = read_records(SCW / "units.txt", "eurofront-units", issues)
    _fail_on(issues)
    return [r for r in recs if r.keyword == "unit"]


def test_units_on_the_map_and_starting_forces() -> None:
    m, _sides, _recs = _map()
    places = _places()
    units = _units()
    assert len({u.words[0] for u in units}) == len(units)
    for u in units:
        assert u.words[1] in SIDES.values() and u.words[2] in ("HQ", "THQ", "Armor", "Mech", "Infantry", "Static")
        assert u.attrs["source"] in ("seed", "authored") and (u.attrs["source"] == "seed" or u.attrs.get("why"))
        assert 1 <= int(u.attrs["cv"]) <= int(u.attrs["max"]) <= 4
        if u.attrs["setup"] == "reinforcement":
            assert "at" not in u.attrs
            continue
        h, place = places[u.attrs["at"]]
        assert _country(m, h) in ("SPA", "SPM"), f"{u.words[0]}: units only enter Spain and Spanish Morocco"
        side = {v: k for k, v in SIDES.items()}[u.words[1]]
        assert place.attrs["loyal"] == side, f"{u.words[0]} starts in a city of the other loyalty"
    # Starting Forces (as printed, page 85), read as in units.txt's header
    start = [u for u in units if u.attrs["setup"] != "reinforcement"]
    for side, want in (("nationalists", {"HQ": (2, 4), "Infantry": (6, 10), "Static": (4, 8)}),
                       ("republicans", {"HQ": (2, 2), "Infantry": (4, 6), "Static": (6, 18)})):
        for kind, (count, cv) in want.items():
            got = [u for u in start if u.words[1] == side and u.words[2].endswith(kind) and
                   (kind != "HQ" or u.words[2] in ("HQ", "THQ"))]
            assert (len(got), sum(int(u.attrs["cv"]) for u in got)) == (count, cv), (side, kind)
    per_place = Counter(u.attrs["at"] for u in start)
    for name, n in per_place.items():
        assert n <= LIMIT[places[name][1].words[3]], f"{n} units start in {name}"
    morocco = [u for u in start if _country(m, places[u.attrs["at"]][0]) == "SPM"]
    assert len(morocco) == 3 and len({u.attrs["at"] for u in morocco}) == 3  # Free Setup: 3, separate


def test_scenario_and_tables() -> None:
    issues = Issues()
    recs = read_records(SCW / "scenario.txt", "eurofront-scenario", issues)
    read = read_toml(SCW / "tables.toml", "eurofront-tables", issues)
    _fail_on(issues)
    assert read is not None
    tables = read[0]
    setups = {r.words[0]: r for r in recs if r.keyword == "setup"}
    assert set(setups) == {"historical", "semi-historical", "free"}
    assert [k for k, r in setups.items() if "default" in r.words] == ["semi-historical"]
    assert setups["free"].attrs["starts"] == "republicans"
    assert all("default" not in r.words for r in recs if r.keyword == "setup-option")
    sides = {r.words[0]: r for r in recs if r.keyword == "side"}
    assert sides["nationalists"].attrs["turn"] == "first" and sides["republicans"].attrs["capital"] == "Madrid"
    units = {u.words[0] for u in _units()}
    places = _places()
    for r in recs:
        assert r.attrs.get("source") in ("seed", "authored"), f"scenario.txt:{r.line}: no source"
        if r.keyword == "reinforcement":
            assert r.words[0] in units and r.attrs["arrive"] in (*places, "friendly-port")
    for name, t in tables.items():
        if isinstance(t, dict) and name != "foreign_aid":
            assert t["source"] in ("seed", "authored") and t["why"], name
    for t in tables["foreign_aid"].values():
        assert t["source"] in ("seed", "authored") and t["why"]
    for side, short in (("nationalists", "nat"), ("republicans", "rep")):
        rows = tables["militia"][side]
        assert sorted(rows) == ["1", "2", "3", "4", "5", "6"]
        for row in rows.values():
            assert len(row["places"]) == 6
            for place in row["places"]:
                h, rec = places[place]
                assert rec.attrs["loyal"] == short and rec.words[2] == "SPA", place
    air = tables["air_firepower"]
    assert len(air["nationalists"]) == len(air["republicans"]) == len(air["seasons"])
    assert set(air["nationalists"] + air["republicans"]) <= {"SF", "DF", "TF"}
    assert tables["city_pp"] == {"source": "seed", "why": tables["city_pp"]["why"], "Madrid": 2, "Barcelona": 1}


def test_regenerated_map_matches_the_committed_files(tmp_path: Path) -> None:
    if not SHAPEFILE.exists():
        pytest.skip(f"generation only: the Natural Earth shapefile {SHAPEFILE} is not here (../shared)")
    if importlib.util.find_spec("shapefile") is None:
        pytest.skip("generation only: pyshp is not installed (an authoring tool dependency)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import author_map_eurofront
    finally:
        sys.path.remove(str(ROOT / "tools"))
    author_map_eurofront.generate(tmp_path, SHAPEFILE)
    for name in ("map.txt", "features.txt"):
        assert (tmp_path / name).read_text() == (SCW / name).read_text(), name
