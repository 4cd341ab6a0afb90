"""The kit's board machinery (pbem.kit.hexgrid, .records, .hexmap) on a tiny authored map, not USE's."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from pbem.errors import InvalidInput
from pbem.kit import hexgrid
from pbem.kit.hexgrid import (
    DIRECTIONS,
    EVEN_COLUMNS_LOW,
    ODD_COLUMNS_LOW,
    Direction,
    Grid,
    Hex,
    parse_hex,
)
from pbem.kit.hexmap import (
    HexRecord,
    HexSchema,
    LineRules,
    check_hexsides,
    disconnected,
    graph_distance,
    hex_or_none,
    read_hex_map,
    read_transport_lines,
)
from pbem.kit.records import (
    Issues,
    Record,
    ScenarioErrors,
    line_of,
    parse_int,
    read_records,
    read_toml,
    split_list,
)
from pbem.present import render

GRIDS = [EVEN_COLUMNS_LOW, ODD_COLUMNS_LOW]
H = parse_hex


# --- hexgrid ------------------------------------------------------------------------------------
def test_the_two_column_conventions() -> None:
    # Even columns low: 0201 hangs south-east of 0101.  Odd columns low: 0201 is north-east of 0101.
    assert EVEN_COLUMNS_LOW.direction_to(H("0101"), H("0201")) is Direction.SE
    assert ODD_COLUMNS_LOW.direction_to(H("0101"), H("0201")) is Direction.NE
    assert [str(n) for n in ODD_COLUMNS_LOW.neighbours(H("0303"))] == ["0302", "0403", "0404", "0304", "0204",
                                                                       "0203"]
    assert [str(n) for n in ODD_COLUMNS_LOW.neighbours(H("0404"))] == ["0403", "0503", "0504", "0405", "0304",
                                                                       "0303"]
    assert EVEN_COLUMNS_LOW.distance(H("0101"), H("0202")) == 2
    assert ODD_COLUMNS_LOW.distance(H("0101"), H("0202")) == 1
    assert hexgrid.GRIDS["odd"] is ODD_COLUMNS_LOW
    with pytest.raises(ValueError, match="low_columns"):
        Grid("left")


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.low_columns)
def test_neighbours_distance_and_directions_agree(grid: Grid) -> None:
    for c in range(2, 8):
        for r in range(2, 8):
            h = Hex(c, r)
            for d, n in zip(DIRECTIONS, grid.neighbours(h), strict=True):
                assert grid.neighbour(h, d) == n
                assert grid.distance(h, n) == 1
                assert grid.direction_to(n, h) is d.opposite
                assert grid.hexside(h, n) == grid.hexside(n, h)


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.low_columns)
def test_distance_is_the_breadth_first_step_count(grid: Grid) -> None:
    start = Hex(6, 6)
    steps = {start: 0}
    frontier = [start]
    for k in range(1, 5):
        frontier = [n for h in frontier for n in grid.neighbours(h) if n not in steps]
        for n in frontier:
            steps.setdefault(n, k)
        frontier = sorted({n for n in frontier if steps[n] == k})
    for h, k in steps.items():
        assert grid.distance(start, h) == k, h
    assert set(grid.hexes_within(start, 4)) == set(steps)
    assert len(grid.hexes_within(start, 3)) == 1 + 3 * 3 * 4
    assert grid.within_range(start, Hex(6, 9), 3) and not grid.within_range(start, Hex(6, 10), 3)


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.low_columns)
def test_hex_line_is_a_chain_of_neighbours(grid: Grid) -> None:
    line = grid.hex_line(H("0203"), H("0907"))
    assert line[0] == H("0203") and line[-1] == H("0907")
    assert len(line) == grid.distance(H("0203"), H("0907")) + 1
    assert all(grid.adjacent(a, b) for a, b in itertools.pairwise(line))


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.low_columns)
def test_drawn_centres_match_the_grid(grid: Grid) -> None:
    # A neighbour's centre lies one hex-width away, in its direction (N is up: y grows downwards).
    size = 10.0
    for h in (H("0303"), H("0404")):
        cx, cy = grid.center(h.col, h.row, size)
        for d, n in zip(DIRECTIONS, grid.neighbours(h), strict=True):
            nx, ny = grid.center(n.col, n.row, size)
            assert math.isclose(math.hypot(nx - cx, ny - cy), math.sqrt(3) * size)
            bearing = math.degrees(math.atan2(nx - cx, cy - ny)) % 360
            assert math.isclose(bearing, 60.0 * d, abs_tol=1e-9)
        assert len(grid.corners(h.col, h.row, size)) == 6


def test_the_renderer_draws_with_the_pictures_convention() -> None:
    assert render.hex_center(2, 1) == EVEN_COLUMNS_LOW.center(2, 1, render.HEX)
    picture = {"type": "hex", "cols": 2, "rows": 1, "low_columns": "odd",
               "hexes": [{"id": "0101", "fill": "#ffffff"}, {"id": "0201", "fill": "#ffffff"}]}
    m = render.layout(picture)
    assert m.hexes[0]["cy"] > m.hexes[1]["cy"]  # column 1 sits lower
    even = render.layout({**picture, "low_columns": "even"})
    assert even.hexes[0]["cy"] < even.hexes[1]["cy"]  # column 2 sits lower
    with pytest.raises(InvalidInput, match="low_columns"):
        render.layout({**picture, "low_columns": "diagonal"})


# --- records ------------------------------------------------------------------------------------
def test_records_words_attributes_and_comments(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text('format test 1\n# a comment\n\nplace "Two Words" 0101 n=3 n=4 tags=a,,b  # why\n'
                                    'place "unclosed\n', encoding="utf-8")
    issues = Issues()
    recs = read_records(tmp_path / "t.txt", "test", issues)
    assert [(r.keyword, r.line, r.words) for r in recs] == [("place", 4, ("Two Words", "0101"))]
    assert dict(recs[0].attrs) == {"n": "3", "tags": "a,,b"}
    assert split_list(recs[0].attrs["tags"]) == ["a", "b"]
    assert [str(i) for i in issues] == ["t.txt:4: attribute 'n' given twice",
                                        "t.txt:5: cannot split line: No closing quotation"]


def test_records_format_line_and_missing_file(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("format other 1\nplace A\n", encoding="utf-8")
    issues = Issues()
    recs = read_records(tmp_path / "t.txt", "test", issues)
    assert [r.keyword for r in recs] == ["place"]  # read on past a wrong format line
    assert read_records(tmp_path / "none.txt", "test", issues) == []
    assert [str(i) for i in issues] == ["t.txt:1: first record must be 'format test 1'",
                                        "none.txt:0: missing file (expected 'format test 1')"]


def test_parse_int_reports_and_falls_back() -> None:
    rec = Record("f.txt", 7, "k", (), {"a": "12", "b": "x", "c": "-3"})
    issues = Issues()
    assert parse_int(rec, "a", issues, 0, 1, 20) == 12
    assert parse_int(rec, "b", issues, 5) == 5
    assert parse_int(rec, "c", issues, 1, 0, 9) == 1
    assert parse_int(rec, "missing", issues, 9) == 9
    assert [str(i) for i in issues] == ["f.txt:7: b='x' must be an integer from 0 to 99",
                                        "f.txt:7: c='-3' must be an integer from 0 to 9"]


def test_scenario_errors_list_every_issue_sorted_with_file_and_line() -> None:
    issues = Issues()
    issues.add("b.txt", 3, "third")
    issues.add("a.txt", 9, "second")
    issues.add("a.txt", 0, "first")
    err = ScenarioErrors(issues)
    assert isinstance(err, InvalidInput)
    assert str(err) == "3 problem(s) in the scenario data:\na.txt:0: first\na.txt:9: second\nb.txt:3: third"
    assert err.hint == "fix every listed line"

    class GameErrors(ScenarioErrors):
        default_hint = "see docs/my-game.md"

    assert GameErrors(issues).hint == "see docs/my-game.md"
    many = Issues()
    for n in range(60):
        many.add("x.txt", n, "bad")
    assert str(ScenarioErrors(many)).endswith("\n... and 10 more")


def test_toml_tables(tmp_path: Path) -> None:
    (tmp_path / "chart.toml").write_text('format = "chart 1"\n\n[terrain.clear]\nmp = 1\n', encoding="utf-8")
    (tmp_path / "old.toml").write_text('format = "chart 0"\n', encoding="utf-8")
    issues = Issues()
    got = read_toml(tmp_path / "chart.toml", "chart", issues)
    assert got is not None and got[0]["terrain"]["clear"]["mp"] == 1
    assert line_of(got[1], "[terrain.clear]") == 3 and line_of(got[1], "[nothing]") == 0
    assert read_toml(tmp_path / "old.toml", "chart", issues) is None
    assert read_toml(tmp_path / "bad.toml", "chart", issues) is None
    assert [(i.file, i.line) for i in issues] == [("old.toml", 1), ("bad.toml", 0)]


# --- hexmap: a 4x3 map of a made-up game, odd columns low ---------------------------------------
SCHEMA = HexSchema(("plain", "forest", "lake"), ("REGION",), {"REGION": ("region", ("north", "south"))},
                   ("town",), ("name",), {"river": "river", "wall": "wall"}, frozenset({"lake"}))
GOOD_MAP = """\
format toy-map 1
grid cols=4 rows=3
hex 0101 plain north river=NE
hex 0102 plain north
hex 0103 forest south
hex 0201 plain north river=SW
hex 0202 lake north
hex 0203 plain south town name="Old Ford"
hex 0301 plain north
hex 0302 plain north wall=S
hex 0303 plain south wall=N
hex 0401 forest north
hex 0402 plain north
hex 0403 plain south
"""


def _load(tmp_path: Path, text: str, grid: Grid = ODD_COLUMNS_LOW) -> tuple[dict[Hex, HexRecord], Issues,
                                                                           dict[tuple[Hex, Hex], frozenset[str]]]:
    (tmp_path / "map.txt").write_text(text, encoding="utf-8")
    issues = Issues()
    seen: list[str] = []

    def check(hx: HexRecord, rec: Record, found: Issues) -> None:
        seen.append(str(hx.hex))
        if "town" in hx.flags and hx.terrain == "forest":
            found.add(rec.file, rec.line, f"hex {hx.hex}: no town in a forest")

    read = read_hex_map(read_records(tmp_path / "map.txt", "toy-map", issues), issues, SCHEMA, check)
    assert seen, "the game's check runs on every hex record"
    sides = check_hexsides(read.hexes, issues, grid, SCHEMA.water)
    return read.hexes, issues, sides


def test_a_good_map_reads_clean(tmp_path: Path) -> None:
    hexes, issues, sides = _load(tmp_path, GOOD_MAP)
    assert list(issues) == []
    assert len(hexes) == 12
    ford = hexes[H("0203")]
    assert (ford.terrain, ford.words, ford.attrs["name"]) == ("plain", ("south",), "Old Ford")
    assert ford.flags == frozenset({"town"})
    assert sides == {(H("0101"), H("0201")): frozenset({"river"}), (H("0302"), H("0303")): frozenset({"wall"})}


def test_the_convention_decides_the_hexsides(tmp_path: Path) -> None:
    # The river between 0101 and 0201 is on 0101's NE side when odd columns sit low; read with the
    # other convention the same file names other hexsides, and the checks say so.
    _, issues, _ = _load(tmp_path, GOOD_MAP, EVEN_COLUMNS_LOW)
    assert sorted(str(i) for i in issues) == [
        "map.txt:3: hex 0101: river on its NE side faces 0200, which is not on the map",
        "map.txt:6: hex 0201: river on its SW side is not listed on the NE side of 0102 (line 4): "
        "hexsides must be symmetric",
    ]
    even = GOOD_MAP.replace("0101 plain north river=NE", "0101 plain north river=SE") \
        .replace("0201 plain north river=SW", "0201 plain north river=NW")
    _, issues, sides = _load(tmp_path, even, EVEN_COLUMNS_LOW)
    assert list(issues) == [] and sides[(H("0101"), H("0201"))] == frozenset({"river"})


def test_every_map_problem_is_reported_with_its_line(tmp_path: Path) -> None:
    text = GOOD_MAP.replace("hex 0103 forest south", "hex 0103 swamp west town colour=red river=UP") \
        .replace("hex 0303 plain south wall=N", "hex 0303 plain south") \
        .replace("hex 0402 plain north", "hex 0402 plain") \
        .replace("hex 0403 plain south", "hex 0503 plain south\nhex 0102 plain north\nroad 0101 0102")
    _, issues, _ = _load(tmp_path, text)
    got = sorted(str(i) for i in issues)
    assert got == sorted([
        "map.txt:0: 2 hexes of the grid are not defined: 0402 0403",
        "map.txt:5: hex 0103: unknown terrain 'swamp' (known: plain, forest, lake)",
        "map.txt:5: hex 0103: unknown region 'west'",
        "map.txt:5: hex 0103: unknown attribute 'colour'",
        "map.txt:5: hex 0103: river: direction must be one of N NE SE S SW NW, got 'UP'",
        "map.txt:10: hex 0302: wall on its S side is not listed on the N side of 0303 (line 11): "
        "hexsides must be symmetric",
        "map.txt:13: hex needs: hex XXYY TERRAIN REGION [attributes]",
        "map.txt:14: hex 0503 is outside the 4x3 grid",
        "map.txt:15: hex 0102 defined twice (first at line 4)",
        "map.txt:16: unknown record 'road' (expected grid or hex)",
    ])


def test_hexside_features_only_between_land_hexes_and_on_the_map(tmp_path: Path) -> None:
    text = GOOD_MAP.replace("hex 0202 lake north", "hex 0202 lake north river=S") \
        .replace("hex 0401 forest north", "hex 0401 forest north river=N")
    _, issues, _ = _load(tmp_path, text)
    assert sorted(str(i) for i in issues) == [
        "map.txt:12: hex 0401: river on its N side faces 0400, which is not on the map",
        "map.txt:7: hex 0202: river on its S side: river hexsides are listed only between two land hexes",
    ]


def test_the_games_check_sees_each_hex(tmp_path: Path) -> None:
    _, issues, _ = _load(tmp_path, GOOD_MAP.replace("hex 0103 forest south", "hex 0103 forest south town"))
    assert [str(i) for i in issues] == ["map.txt:5: hex 0103: no town in a forest"]


def test_transport_lines(tmp_path: Path) -> None:
    hexes, _, sides = _load(tmp_path, GOOD_MAP)
    (tmp_path / "features.txt").write_text(
        "format toy-features 1\n"
        'line "Main" 0101 0201 0301\n'
        'line "Main" 0401 EAST\n'          # a chain continues over records, ends in a box
        'line "Lake" 0102 0202\n'          # through the lake
        'line "Wall" 0302 0303\n'          # across the wall
        'line "Gap" 0101 0301 PORT\n'      # not adjacent; PORT takes no line
        'line "Short" 0403\n'
        'line "Edge" 0403 EAST\n', encoding="utf-8")
    issues = Issues()
    recs = read_records(tmp_path / "features.txt", "toy-features", issues)
    rules = LineRules(ODD_COLUMNS_LOW, {"EAST": frozenset({H("0401")}), "PORT": None},
                      lambda h: hexes[h].terrain == "lake",
                      lambda a, b: "wall" if "wall" in sides.get(ODD_COLUMNS_LOW.hexside(a, b), frozenset()) else None)
    lines = read_transport_lines(recs, issues, hexes, rules)
    main = next(ln for ln in lines if ln.name == "Main")
    assert [str(h) for h in main.hexes] == ["0101", "0201", "0301", "0401"] and main.end_box == "EAST"
    assert sorted(str(i) for i in issues) == sorted([
        "features.txt:4: line Lake: 0202 is not a land hex a line can run through",
        "features.txt:5: line Wall: 0302-0303 crosses a wall hexside",
        "features.txt:6: line Gap: 0101 and 0301 are not adjacent (transport lines must be continuous)",
        "features.txt:6: line Gap: box PORT must be a land box at an end",
        "features.txt:7: line Short: needs at least two hexes",
        "features.txt:8: line Edge: 0403 is not an edge hex of box EAST",
    ])


def test_hex_references_regions_and_graph_distance(tmp_path: Path) -> None:
    hexes, _, _ = _load(tmp_path, GOOD_MAP)
    rec = Record("features.txt", 3, "city", (), {})
    issues = Issues()
    assert hex_or_none(rec, "0203", issues, hexes) == H("0203")
    assert hex_or_none(rec, "0909", issues, hexes) is None
    assert hex_or_none(rec, "9", issues, hexes) is None
    assert [str(i) for i in issues] == ["features.txt:3: unknown hex 0909 (not on the map)",
                                        "features.txt:3: hex must be 4 digits XXYY, got '9'"]
    assert disconnected({H("0101"), H("0102"), H("0201")}, ODD_COLUMNS_LOW) is None
    assert disconnected({H("0101"), H("0103"), H("0303")}, ODD_COLUMNS_LOW) == (H("0101"), [H("0103"), H("0303")])
    seas = {"A": {"B"}, "B": {"A", "C"}, "C": {"B"}, "D": set()}
    assert graph_distance("A", "C", lambda z: seas[z]) == 2
    assert graph_distance("A", "A", lambda z: seas[z]) == 0
    assert graph_distance("A", "D", lambda z: seas[z]) == -1
