"""The USE scenario loader, the hex grid and the France 1940 data (rules/use/SCENARIO_API.md)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import InvalidInput, NotFound
from rules.use import hexgrid
from rules.use.hexgrid import Direction, Hex, distance, hexes_within, neighbour, parse_hex, within_range
from rules.use.mapdata import load_terrain_chart, load_weather_table
from rules.use.scenario import Scenario, ScenarioErrors, load_scenario, scenario_dir, scenario_hash

SCENARIO = "france-1940"


@pytest.fixture(scope="module")
def france() -> Scenario:
    return load_scenario(SCENARIO)


# --- hex grid ---------------------------------------------------------------------------------
def H(text: str) -> Hex:
    return parse_hex(text)


@pytest.mark.parametrize(("a", "b", "d"), [
    ("0101", "0101", 0), ("0101", "0102", 1), ("0101", "0201", 1), ("0101", "0202", 2),
    ("0202", "0101", 2), ("0201", "0101", 1), ("0101", "0301", 2), ("0101", "0105", 4),
    ("0505", "0905", 4), ("0505", "0508", 3), ("1211", "1811", 6), ("0212", "2612", 24),
])
def test_distance_examples(a: str, b: str, d: int) -> None:
    assert distance(H(a), H(b)) == d
    assert distance(H(b), H(a)) == d


def test_neighbour_convention_even_columns_shifted_down() -> None:
    # Odd column: NE and SE lie in the rows r-1 and r of the next column.
    assert [str(n) for n in hexgrid.neighbours(H("0303"))] == ["0302", "0402", "0403", "0304", "0203", "0202"]
    # Even column (half a hex lower): NE and SE lie in the rows r and r+1.
    assert [str(n) for n in hexgrid.neighbours(H("0404"))] == ["0403", "0504", "0505", "0405", "0305", "0304"]
    assert hexgrid.direction_to(H("0101"), H("0201")) is Direction.SE
    assert hexgrid.direction_to(H("0101"), H("0303")) is None


def test_range_counting_use_1_4() -> None:
    # The counter's own hex is part of the range but is not counted: range 1 = 7 hexes.
    assert hexes_within(H("1010"), 0) == (H("1010"),)
    assert len(hexes_within(H("1010"), 1)) == 7
    assert len(hexes_within(H("1010"), 2)) == 19
    assert len(hexes_within(H("1010"), 3)) == 37
    assert within_range(H("1010"), H("1010"), 0)
    assert within_range(H("1010"), H("1013"), 3)
    assert not within_range(H("1010"), H("1014"), 3)


def test_parse_hex_rejects_bad_ids() -> None:
    for bad in ("101", "0a01", "0001", "0100", "12345", ""):
        with pytest.raises(ValueError, match="hex"):
            parse_hex(bad)
    assert str(parse_hex("0712")) == "0712"


hexes = st.builds(Hex, st.integers(1, 60), st.integers(1, 60))


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, st.sampled_from(list(Direction)))
def test_neighbours_are_adjacent_both_ways(h: Hex, d: Direction) -> None:
    n = neighbour(h, d)
    assert distance(h, n) == 1
    assert neighbour(n, d.opposite) == h


@given(hexes, hexes)
def test_hex_line_is_continuous(a: Hex, b: Hex) -> None:
    line = hexgrid.hex_line(a, b)
    assert line[0] == a and line[-1] == b and len(line) == distance(a, b) + 1
    assert all(distance(x, y) == 1 for x, y in pairwise(line))


# --- the France 1940 scenario -----------------------------------------------------------------
def test_france_1940_loads(france: Scenario) -> None:
    m = france.map
    assert france.name == SCENARIO
    assert france.turns == ((1940, 5), (1940, 6), (1940, 7))
    assert (m.cols, m.rows) == (26, 24) and len(m.hexes) == 26 * 24
    capital = m.capital_of("FRA")
    assert capital is not None and capital.name == "Paris"
    assert m.cities["Berlin"].box == "REICH" and m.cities["Berlin"].capital
    assert france.countries["FRA"].will == 20 and france.countries["FRA"].printed_will == 35
    assert france.countries["BEL"].status == "neutral" and france.countries["BEL"].declare_war
    assert not france.countries["ITA"].declare_war
    assert france.countries["SWI"].status == "prohibited"
    assert france.policies["nazi-soviet-pact"].in_effect and not france.policies["nazi-soviet-pact"].can_end
    assert not france.factions["Soviet"].played
    assert france.units_by_id["GER-XIX"].elite and france.units_by_id["GER-XIX"].movement_points == 10
    assert france.units_by_id["FRA-3A"].in_fort and france.units_by_id["FRA-3A"].movement_points == 8
    assert france.units_by_id["BEL-2"].placement.kind == "activation"
    assert len(france.hash) == 32
    # the Strait of Dover is water: no land bridge between England and France
    assert "water" in m.hexside_features(H("1007"), H("1108"))
    for h, info in m.hexes.items():
        if info.country == "UK":
            assert all(m.hexes[n].country in ("UK", None) or "water" in m.hexside_features(h, n)
                       for n in m.neighbours(h))


def test_adjacency_and_hexsides_are_symmetric(france: Scenario) -> None:
    m = france.map
    for h in m.hexes:
        for n in m.neighbours(h):
            assert h in m.neighbours(n)
            assert m.hexside_features(h, n) == m.hexside_features(n, h)
            assert m.transport_between(h, n) == m.transport_between(n, h)
            assert m.border(h, n) == m.border(n, h)
    for z in m.sea_zones.values():
        for other in z.adjacent_zones:
            assert z.id in m.sea_zones[other].adjacent_zones


def test_map_facts(france: Scenario) -> None:
    m = france.map

    def at(name: str) -> Hex:
        h = m.cities[name].hex
        assert h is not None
        return h

    assert m.border(at("Metz"), at("Saarbrucken")) == "international"
    assert m.hexes[at("Strasbourg")].area == "alsace-lorraine"
    assert m.hexes[at("Vichy")].area == "vichy"
    assert {c.name for c in m.ports("NS")} >= {"London", "Antwerp", "Rotterdam", "Dunkirk", "Hamburg"}
    assert m.sea_zone_distance("CH", "NS") == 1 and m.sea_zone_distance("BB", "NAO") == 1
    assert m.sea_zone_distance("GL", "NS") == -1
    dover = m.strait("NS", "CH")  # 1.3.3, 4.2.4: the Strait of Dover, pointing to Dover and Calais
    assert dover is not None and dover.hexes == (at("Dover"), at("Calais")) and dover.zones == ("CH", "NS")
    assert m.is_strait("CH", "NS") and not m.is_strait("CH", "WA") and not m.is_strait("NS", "NAO")
    # 6.4.3: a range that cannot cross Straits goes round by the North Atlantic box
    assert m.sea_zone_distance("CH", "NS", cross_straits=False) == 3
    assert m.transport_box_links("REICH") == {H("2602"), H("2605"), H("2606"), H("2612")}
    assert m.ground_prohibited(at("Turin")) is False  # neutral, not prohibited (1.3.8)
    assert any(m.ground_prohibited(h) for h, i in m.hexes.items() if i.country == "SWI")
    paris, amiens = at("Paris"), at("Amiens")
    assert m.transport_between(paris, hexgrid.hex_line(paris, amiens)[1])
    factories = {c: sum(x.factories for x in m.cities.values() if x.country == c) for c in ("FRA", "GER")}
    assert factories == {"FRA": 8, "GER": 13}


def test_terrain_chart_and_weather_table() -> None:
    chart = load_terrain_chart()
    assert chart.entry_cost("clear", frozenset(), False) == 1
    assert chart.entry_cost("rough", frozenset({"river"}), False) == 3  # "+" costs are cumulative
    assert chart.entry_cost("mountain", frozenset({"river"}), True) == 1  # along a transport line
    assert chart.entry_cost("clear", frozenset({"water"}), False) is None
    assert chart.entry_cost("clear", frozenset({"water", "strait"}), False) == 3
    assert chart.entry_cost("water", frozenset(), False) is None
    assert dict(chart.attack_mp) == {"fair": 1, "poor": 2, "severe": 2}  # 11.0
    weather = load_weather_table()
    assert weather.result("mild", 5, 1) == "fair" and weather.result("cold", 1, 6) == "severe"
    assert weather.result("desert", 1, 6) == "fair"  # 11.0


# --- locating and hashing ---------------------------------------------------------------------
def copy_scenario(tmp_path: Path) -> Path:
    dest = tmp_path / SCENARIO
    shutil.copytree(scenario_dir(SCENARIO), dest)
    return dest


def test_names_resolve_with_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = copy_scenario(tmp_path / "use")
    monkeypatch.setenv("PBEM_SCENARIOS", str(tmp_path))
    assert scenario_dir(SCENARIO) == copy
    assert load_scenario(copy).hash == load_scenario(SCENARIO).hash
    with pytest.raises(NotFound):
        scenario_dir("no-such-scenario")


def test_hash_changes_with_any_file_and_ignores_crlf(tmp_path: Path) -> None:
    copy = copy_scenario(tmp_path)
    before = scenario_hash(copy)
    assert before == scenario_hash(scenario_dir(SCENARIO))
    units = copy / "units.txt"
    units.write_bytes(units.read_bytes().replace(b"\n", b"\r\n"))
    assert scenario_hash(copy) == before
    mp = copy / "map.txt"
    mp.write_text(mp.read_text() + "# a comment is a change too\n")
    assert scenario_hash(copy) != before


# --- broken copies: every error, with its file and line ---------------------------------------
def edit(path: Path, startswith: str, new: str | None, *, add: bool = False) -> int:
    """Replace (or with add=True, follow) the first line starting with ``startswith``; its line number."""
    lines = path.read_text().split("\n")
    for i, line in enumerate(lines):
        if line.startswith(startswith):
            if add:
                lines.insert(i + 1, new or "")
                path.write_text("\n".join(lines))
                return i + 2
            if new is None:
                lines[i] = ""
            else:
                lines[i] = new
            path.write_text("\n".join(lines))
            return i + 1
    raise AssertionError(f"no line starts with {startswith!r} in {path.name}")


def remove(path: Path) -> int:
    path.unlink()
    return 0  # a whole-file problem is reported at line 0


def replace_in_line(path: Path, startswith: str, old: str, new: str) -> int:
    line = next(x for x in path.read_text().split("\n") if x.startswith(startswith))
    assert old in line
    return edit(path, startswith, line.replace(old, new, 1))


Breakage = Callable[[Path], tuple[str, int, str]]
BREAKAGES: dict[str, Breakage] = {
    "unknown hex": lambda d: (
        "units.txt", replace_in_line(d / "units.txt", "unit GER-9A ", "1907", "9977"), "unknown hex 9977"),
    "asymmetric hexside": lambda d: (
        "map.txt", replace_in_line(d / "map.txt", "hex 1514 ", "occupied-france", "occupied-france river=NE"),
        "must be symmetric"),
    "unit on a sea hex": lambda d: (
        "units.txt", replace_in_line(d / "units.txt", "unit GER-2A ", "2009", "1304"), "land hex"),
    "two capitals": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", 'city "Lille" ', "FRA", "FRA capital"),
        "one capital per country"),
    "duplicate unit id": lambda d: (
        "units.txt", edit(d / "units.txt", "unit GER-9A ", 'unit GER-1A GER infantry 2307 full', add=True),
        "duplicate unit id"),
    "bad terrain name": lambda d: (
        "map.txt", replace_in_line(d / "map.txt", "hex 1211 ", "clear", "swamp"), "unknown terrain 'swamp'"),
    "overstacked hex": lambda d: (
        "units.txt", replace_in_line(d / "units.txt", "unit GER-2A ", "2009", "1910"), "stacking limit 3.3"),
    "broken transport line": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", 'line "Nord" ', " 1209 ", " 1409 "), "continuous"),
    "city on water": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", 'city "Troyes" ', "1513", "1304"), "water hex"),
    "unknown sea zone": lambda d: (
        "map.txt", replace_in_line(d / "map.txt", "hex 1304 ", "sea=NS", "sea=XX"), "unknown sea zone 'XX'"),
    "naval unit inland": lambda d: (
        "units.txt", replace_in_line(d / "units.txt", "unit FRA-ATL ", "0212", "1211"), "port"),
    "neutral entered": lambda d: (
        "units.txt", replace_in_line(d / "units.txt", "unit GER-6A ", "1807", "1508"), "neutral (10.3.3)"),
    "missing file": lambda d: ("units.txt", remove(d / "units.txt"), "missing file"),
    "asymmetric sea-zone adjacency": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", "seazone BB ", "adjacent=WA", "adjacent=WA,GL"),
        "adjacency must be symmetric"),
    "strait between unadjacent zones": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", "strait ", "CH NS", "GL NS"), "not declared adjacent"),
    "strait hexes not adjacent": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", "strait ", "1108", "1207"), "not adjacent"),
    "strait hex outside a zone": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", "strait ", "1007 1108", "1007 1008"),
        "does not list sea zone"),
    "strait declared twice": lambda d: (
        "features.txt", edit(d / "features.txt", "strait ", 'strait "Pas de Calais" NS CH 1108 1007', add=True),
        "declared twice"),
    "strait without its hexes": lambda d: (
        "features.txt", replace_in_line(d / "features.txt", "strait ", " 1007 1108", ""), "strait needs"),
    "bad format line": lambda d: (
        "countries.txt", edit(d / "countries.txt", "format ", "format use-countries 2"), "format use-countries 1"),
}


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_each_breakage_is_reported_with_file_and_line(tmp_path: Path, name: str) -> None:
    d = copy_scenario(tmp_path)
    file, line, text = BREAKAGES[name](d)
    with pytest.raises(ScenarioErrors) as info:
        load_scenario(d)
    found = [(e.file, e.line) for e in info.value.errors if text in e.message]
    assert (file, line) in found, info.value.errors
    assert isinstance(info.value, InvalidInput)


def test_all_breakages_are_reported_at_once(tmp_path: Path) -> None:
    d = copy_scenario(tmp_path)
    expected = [BREAKAGES[name](d) for name in ("unknown hex", "asymmetric hexside", "unit on a sea hex",
                                                 "two capitals", "duplicate unit id", "bad terrain name",
                                                 "broken transport line", "unknown sea zone")]
    with pytest.raises(ScenarioErrors) as info:
        load_scenario(d)
    errors = info.value.errors
    for file, line, text in expected:
        assert any(e.file == file and e.line == line and text in e.message for e in errors), (file, line, text)
    assert errors == sorted(errors, key=lambda e: (e.file, e.line))
    assert "map.txt:" in str(info.value) and "units.txt:" in str(info.value)


def test_a_long_lived_process_keeps_only_a_few_scenario_versions(tmp_path: Path) -> None:
    """Found by the scenario fuzzer (docs/reliability.md): every edited version of a scenario was
    kept for the life of the process, 10 GB after 30,000 variants. At most 4 are kept now."""
    from rules.use import scenario as scen

    src = scenario_dir("france-1940")
    for i in range(6):
        copy = tmp_path / f"v{i}"
        shutil.copytree(src, copy)
        with open(copy / "scenario.txt", "a", encoding="utf-8") as fh:
            fh.write(f"# version {i}\n")  # a comment: the same scenario, other bytes, another hash
        load_scenario(copy)
        assert len(scen._LOADED) <= scen._LOADED_KEPT == 4
