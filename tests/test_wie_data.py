"""The War in Europe 1945 data (Battle for Germany, 76.0), checked with pbem.kit alone.

The map, features, units, scenario and tables of scenarios/wie/battle-for-germany-1945 are
authored data (docs/wie-map.md) around the booklet's tabulated set-up.  These checks read the
committed files the way the future rules module will and hold them to the booklet: every
unit on a land hex of its side, every printed set-up hex where units.txt puts it, the places
the booklet names, continuous rail, the 76.3 deployment areas.  Only the regeneration check
needs ../shared (the Natural Earth shapefile) and pyshp.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import Hex, Hexside, parse_hex
from pbem.kit.hexmap import (
    HexMapRecords,
    HexSchema,
    LineRules,
    check_hexsides,
    read_hex_map,
    read_transport_lines,
)
from pbem.kit.records import Issues, Record, read_records, read_toml

ROOT = Path(__file__).resolve().parent.parent
WIE = ROOT / "scenarios" / "wie" / "battle-for-germany-1945"
SHAPEFILE = ROOT.parent / "shared" / "geo" / "ne_10m_admin_0_countries_deu.zip"

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
# Places the booklet names on the sections in play (75.9, 76.25, 77.4, 77.7).
NAMED = ("Berlin", "Vienna", "Prague", "Hamburg", "Munich", "Stuttgart", "Wiesbaden", "Munster", "Nuremberg",
         "Salzburg", "Kassel", "Dresden", "Stettin", "Breslau", "Posen", "Cracow", "Danzig", "Konigsberg",
         "Dulmen", "Wesseling", "Leuna", "Brux", "Politz", "Paris", "Lille", "Brussels", "Amsterdam", "Marseilles",
         "Rome", "Belgrade", "Budapest", "Copenhagen", "Riga")
SECTIONS = {"C": (0, 0), "D": (0, 33), "G": (60, 0), "H": (60, 33)}


def _fail_on(issues: Issues) -> None:
    assert not issues, "\n".join(str(i) for i in issues)


def _records(name: str) -> list[Record]:
    issues = Issues()
    recs = read_records(WIE / f"{name}.txt", f"wie-{name}", issues)
    _fail_on(issues)
    return recs


def _map() -> tuple[HexMapRecords, dict[Hexside, frozenset[str]]]:
    issues = Issues()
    m = read_hex_map(read_records(WIE / "map.txt", "wie-map", issues), issues, SCHEMA)
    sides = check_hexsides(m.hexes, issues, GRID, SCHEMA.water)
    _fail_on(issues)
    return m, sides


def _printed(text: str) -> Hex:
    """A booklet hex ("C3114", "G0314", "D2601") on the map's one grid (features.txt sections)."""
    h = parse_hex(text[1:])
    dc, dr = SECTIONS[text[0].upper()]
    return Hex(h.col + dc, h.row + dr)


def _places() -> dict[str, tuple[Hex, Record]]:
    out: dict[str, tuple[Hex, Record]] = {}
    for r in _records("features"):
        if r.keyword in ("city", "alias"):
            assert r.words[0] not in out, f"{r.file}:{r.line}: {r.words[0]} named twice"
            out[r.words[0]] = (parse_hex(r.words[1]), r)
    return out


def _areas() -> dict[str, list[Hex]]:
    return {r.words[0]: [parse_hex(w) for w in r.words[1:]] for r in _records("features") if r.keyword == "area"}


def test_grid_complete_sections_and_hexsides() -> None:
    m, sides = _map()
    assert len(m.hexes) == m.cols * m.rows == 84 * 64
    sections = {r.words[0]: r for r in _records("features") if r.keyword == "section"}
    assert {k: (int(r.attrs["col0"]), int(r.attrs["row0"])) for k, r in sections.items()} == SECTIONS
    assert [k for k, r in sections.items() if r.attrs["play"] == "yes"] == ["C", "D", "G"]  # 76.12
    for h, hx in m.hexes.items():
        country, section, held, air = hx.words
        assert (hx.terrain == "sea") == (country == "-") == (held == "-") == (air == "-"), h
        want = ("C" if h.row <= 33 else "D") if h.col <= 60 else ("G" if h.row <= 33 else "H")
        assert section == want, h
        if "westwall" in hx.flags:
            assert country == "GER", h
    kinds = Counter(k for ks in sides.values() for k in ks)
    assert kinds["river"] > 300 and kinds["water"] > 0


def test_places_the_booklet_names() -> None:
    m, _sides = _map()
    places = _places()
    for name in NAMED:
        assert name in places, f"{name} (named by the booklet) is missing"
    for name, (h, r) in places.items():
        assert m.hexes[h].terrain != "sea", f"{name} is not on a land hex"
        if r.keyword == "alias":
            assert places[r.words[2]][0] == h
        if "port" in r.attrs:  # on the coast, or up its estuary (Hamburg, Bremen, Stettin, Antwerp, Rouen)
            assert r.attrs["port"] in ("major", "minor"), name
            assert any(m.hexes[s].terrain == "sea" for s in GRID.hexes_within(h, 3) if s in m.hexes), name
        if "wehrkreis" in r.attrs:  # 77.7: on the printed hex (errata corrected, printed= kept)
            assert _printed(r.attrs["wehrkreis"]) == h and m.hexes[h].words[0] in ("GER", "BOH", "POL"), name
        elif "printed" in r.attrs:
            assert GRID.distance(_printed(r.attrs["printed"]), h) <= 2, name
    wk = [n for n, (_h, r) in places.items() if "wehrkreis" in r.attrs]
    assert len(wk) == 18  # 16 on map C, 2 on map G
    assert {n for n, (_h, r) in places.items() if r.attrs.get("printed") == "C5421"} == {"Stettin"}
    resource = {n for n, (_h, r) in places.items() if "resource" in r.words}
    assert {"Dulmen", "Wesseling", "Leuna", "Brux", "Politz"} <= resource  # 76.25 bombed centers
    assert {"Lille", "Brussels"} <= {n for n, (_h, r) in places.items() if "mfg" in r.words}  # 75.91


def test_rail_lines_contiguous_on_land() -> None:
    m, sides = _map()

    def barrier(a: Hex, b: Hex) -> str | None:
        return "water" if "water" in sides.get(GRID.hexside(a, b), frozenset()) else None

    issues = Issues()
    lines = read_transport_lines([r for r in _records("features") if r.keyword == "line"], issues, m.hexes,
                                 LineRules(GRID, {}, lambda h: m.hexes[h].terrain == "sea", barrier))
    _fail_on(issues)
    rail = {h for ln in lines for h in ln.hexes}
    places = _places()
    for name in ("Berlin", "Paris", "Marseilles", "Vienna", "Warsaw", "Rome", "Konigsberg", "Danzig", "Prague"):
        assert places[name][0] in rail, f"{name} is off the rail net"
    assert {_printed("C1426"), _printed("C2108")} <= rail  # 76.3 step 1, as scenario.txt reads it


def _units() -> list[Record]:
    return [r for r in _records("units") if r.keyword == "unit"]


def test_units_on_land_of_their_side() -> None:
    m, _sides = _map()
    units = _units()
    assert len({u.words[0] for u in units}) == len(units)
    areas = _areas()
    per_hex: Counter[Hex] = Counter()
    for u in units:
        uid, side, nation, kind = u.words
        h = parse_hex(u.attrs["at"])
        hx = m.hexes[h]
        assert hx.terrain != "sea", f"{uid} at sea"
        assert hx.words[1] in ("C", "D", "G"), f"{uid} off the sections in play (76.12)"
        assert u.attrs["source"] == "seed"
        if kind not in ("SUP", "RR"):
            per_hex[h] += 1
        if u.attrs["setup"] == "placed":  # on the hex the booklet prints (one authored move)
            assert hx.words[2] == side, uid
            if "moved" in u.attrs:
                assert u.attrs["why"] and GRID.distance(_printed(u.attrs["printed"]), h) == 1, uid
            else:
                assert _printed(u.attrs["printed"]) == h, uid
            continue
        assert u.attrs["placed"] == "authored" and h in areas[u.attrs["area"]], uid
        assert hx.words[2] == ("soviet" if u.attrs["area"] in ("soviet-east", "yugoslavia-east") else "axis"), uid
        if nation == "YUG":
            assert hx.words[0] == "YUG", f"{uid}: Yugoslav units deploy in Yugoslavia (76.3 step 5)"
    assert max(per_hex.values()) <= 4  # [WiE-base 7.1], tables.toml [stacking]
    counts = Counter(u.words[2] for u in units)
    assert counts == {"GER": 294, "SOV": 226, "US": 56, "CW": 53, "YUG": 25, "HUN": 22, "BUL": 8, "ITA": 3,
                      "RSI": 3, "RUM": 3}


def test_areas_and_start_line_cover() -> None:
    """76.3 step 4: every Axis-side hex of the 1945 Start Line occupied by or in the zone of
    control of Axis infantry of the army groups -- the default placement does it."""
    m, _sides = _map()
    areas = _areas()
    assert areas["independent"] == [_printed("G1012")]
    assert all(GRID.distance(h, _printed("G1409")) <= 3 for h in areas["ag-north"])
    held = {h: hx.words[2] for h, hx in m.hexes.items()}
    front = {h for h, s in held.items() if s == "axis" and m.hexes[h].words[1] != "H"
             and any(held.get(n) == "soviet" for n in GRID.neighbours(h))}
    infantry = {parse_hex(u.attrs["at"]) for u in _units() if u.words[1] == "axis" and u.attrs.get("area")
                and int(u.words[3].rstrip("KG").split("-")[-1]) <= 5}
    zoc = infantry | {n for h in infantry for n in GRID.neighbours(h)}
    assert front and front <= zoc


def test_scenario_and_tables() -> None:
    recs = _records("scenario")
    issues = Issues()
    read = read_toml(WIE / "tables.toml", "wie-tables", issues)
    _fail_on(issues)
    assert read is not None
    tables: dict[str, Any] = read[0]
    for r in recs:
        assert r.attrs.get("source") in ("seed", "authored"), f"scenario.txt:{r.line}: no source"
        if r.attrs["source"] == "authored":
            assert r.attrs.get("why"), f"scenario.txt:{r.line}: authored without a why"
    sides = [r for r in recs if r.keyword == "side"]
    assert [(r.words[0], r.attrs["order"]) for r in sides] == [("axis", "1"), ("allied", "2"), ("soviet", "3")]
    turns = next(r for r in recs if r.keyword == "turns")
    assert (turns.attrs["first"], turns.attrs["count"]) == ("3/13/44", "27")
    assert [r.words[0] for r in recs if r.keyword == "step"] == ["1", "2", "3", "4", "5", "6"]
    areas = _areas()
    for r in recs:
        for name in r.attrs.get("areas", "").split(","):
            assert not name or name in areas, name
    for name, t in tables.items():
        if isinstance(t, dict):
            assert t["source"] in ("seed", "authored") and t["why"], name
    crt = tables["crt"]
    assert all(len(crt[str(d)]) == len(crt["columns"]) for d in range(1, 7))
    places = _places()
    assert set(tables["strategic_air_war"]["bombed"]) <= set(places)
    # 70.0's worked example under the authored air combat table (tables.toml [air_combat])
    div = {int(k): v for k, v in tables["air_combat"]["divisor"].items()}
    assert (18 // div[3], 14 // div[5], 6 // div[3], 6 // div[3], 3 // div[1]) == (3, 1, 1, 1, 1)


def test_regenerated_files_match_the_committed_ones(tmp_path: Path) -> None:
    if not SHAPEFILE.exists():
        pytest.skip(f"generation only: the Natural Earth shapefile {SHAPEFILE} is not here (../shared)")
    if importlib.util.find_spec("shapefile") is None:
        pytest.skip("generation only: pyshp is not installed (an authoring tool dependency)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:  # a developer tool, not a package: imported by name so mypy reads no tools/ code here
        author_map_wie = importlib.import_module("author_map_wie")
    finally:
        sys.path.remove(str(ROOT / "tools"))
    author_map_wie.generate(tmp_path, SHAPEFILE)
    for name in ("map.txt", "features.txt", "units.txt"):
        assert (tmp_path / name).read_text() == (WIE / name).read_text(), name
