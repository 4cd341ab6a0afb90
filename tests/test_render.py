"""Summaries: valid HTML5, no external resources, no private strings in what is mailed."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import html5lib
import pytest
from helpers import start_duel
from PIL import Image, ImageChops, ImageColor

from pbem.play import game
from pbem.present import raster, render, summary
from pbem.store import gamestore as store

PICTURE = {
    "type": "hex", "cols": 3, "rows": 2,
    "hexes": [{"id": f"{c:02d}{r:02d}", "fill": "#d8dcb0", "label": "Paris" if (c, r) == (2, 1) else "",
               "marker": "capital" if (c, r) == (2, 1) else "none", "owner": "axis" if c == 1 else None}
              for c in range(1, 4) for r in range(1, 3)],
    "hexsides": [{"a": "0101", "b": "0102", "kind": "river"}, {"a": "0101", "b": "0201", "kind": "border"}],
    "lines": [{"hexes": ["0101", "0201", "0301"], "kind": "rail"}],
    "units": [{"hex": "0201", "text": "7A", "sub": "6-4", "side": "axis", "flags": ["low-supply"]},
              {"hex": "0201", "text": "<b>", "sub": "", "side": "western", "flags": []}],
    "highlights": [{"hex": "0302", "kind": "combat"}],
    "sides": {"axis": {"name": "Axis", "fill": "#666", "ink": "#fff"},
              "western": {"name": "Western", "fill": "#5a8", "ink": "#000"}},
}


def test_map_svg_is_well_formed_and_escaped() -> None:
    import xml.etree.ElementTree as ET

    svg = render.map_svg(PICTURE)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "&lt;b&gt;" in svg and "<b>" not in svg
    # one path per terrain fill holding every hex of it, and each hex numbered at its top
    paths = root.findall(".//{http://www.w3.org/2000/svg}path")
    assert sum(p.get("d", "").count("z") for p in paths if p.get("fill") == "#d8dcb0") == 6
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"0101", "0102", "0201", "0202", "0301", "0302"} <= set(texts)


def test_summary_svg_is_light() -> None:
    """France 1940's map with its 475 hexes, numbers and counters stays well under 100 KB of SVG."""
    from pbem_rules.use import view
    from pbem_rules.use.initial import state_from_scenario
    from pbem_rules.use.scenario import load_scenario

    pic = view.map_picture(state_from_scenario(load_scenario("france-1940")))
    assert pic is not None
    assert len(render.map_svg(pic).encode()) < 90_000
    png = render.map_png(pic)
    assert len(png) < 62_000 and png == render.map_png(pic)  # deterministic, static layer cached or not


def test_events_highlight_the_units_they_name() -> None:
    pic = {**TERRAIN, "units": [{"hex": "0201", "id": "A-1", "text": "1", "side": "axis"},
                                {"hex": "0302", "id": "W-2", "text": "2", "side": "western"},
                                {"hex": "0101", "id": "W-3", "text": "3", "side": "western", "face_down": True}]}
    out = render.highlight_events(pic, [{"kind": "move", "unit": "A-1", "from": "0101", "to": "0201"},
                                        {"kind": "combat", "attackers": ["A-1"], "defender": "W-2",
                                         "target": "0302"},
                                        {"kind": "move", "unit": "W-3", "to": "0101"}])
    assert out is not None
    assert [u.get("highlight") for u in out["units"]] == ["combat", "combat", None]
    assert {"hex": "0302", "kind": "combat"} in out["highlights"]
    assert "highlight" not in pic["units"][0]  # a copy
    svg = render.map_svg(out)
    assert "(fought)" in svg and "#ff2200" in svg
    assert [k["sign"] for k in render.legend(out)].count("ring") == 1


def test_legend_names_only_the_signs_used() -> None:
    texts = " | ".join(k["text"] for k in render.legend(PICTURE))
    assert "Axis" in texts and "capital" in texts and "river" in texts and "low supply" in texts
    assert "port" not in texts.split(" | ") and "hidden" not in texts
    assert render.legend(None) == []


# Each hex its own terrain, so a misplaced hex shows as a wrong colour.
FILLS = {"0101": "#e9e6c9", "0102": "#b6cfae", "0201": "#d8dcb0", "0202": "#c7c08e", "0301": "#e9e6c9",
         "0302": "#a99b7a"}
TERRAIN = {**PICTURE, "hexes": [{**h, "fill": FILLS[h["id"]]} for h in PICTURE["hexes"]]}


def _image(picture: dict[str, Any]) -> Image.Image:
    png = render.map_png(picture)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    img = Image.open(io.BytesIO(png))
    img.load()  # a truncated or corrupt PNG fails here
    return img


def _px(img: Image.Image, hex_id: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int]:
    x, y = render.hex_center(int(hex_id[:2]), int(hex_id[2:]))
    rgb = img.convert("RGB").getpixel((round((x + dx) * render.PNG_PX), round((y + dy) * render.PNG_PX)))
    assert isinstance(rgb, tuple)
    return rgb[0], rgb[1], rgb[2]


def test_map_png_is_a_palette_png_of_the_svgs_size() -> None:
    img = _image(TERRAIN)
    m = render.layout(TERRAIN)
    assert img.format == "PNG" and img.mode == "P"  # a palette keeps the mail small
    assert img.size == (round(m.width * render.PNG_PX), round(m.height * render.PNG_PX))


def test_map_png_has_the_terrain_colours_at_the_hex_centres() -> None:
    img = _image(TERRAIN)
    # 0101 and 0201 carry the rail and the counters; 0302 has a highlight ring at its edge only
    # (just below the centre: the hex number is above it)
    for hex_id in ("0102", "0202", "0302"):
        assert _px(img, hex_id, 0, 2) == ImageColor.getrgb(FILLS[hex_id]), hex_id
    assert img.convert("RGB").getpixel((1, 1)) == ImageColor.getrgb(raster.SEA)  # no hex in the corner
    # the combat highlight is drawn on 0302's edge
    corner = render.hex_corners(3, 2)[0]
    assert _px(img, "0302", corner[0] - render.hex_center(3, 2)[0] - 0.5) == ImageColor.getrgb("#ff2200")


def test_map_png_shows_the_units() -> None:
    with_units = _image(TERRAIN).convert("RGB")
    without = _image({**TERRAIN, "units": []}).convert("RGB")
    # the top counter of the stack in 0201 (western, drawn last) has its side's fill; bare terrain without it
    unit_px = (-8 + render.STACK_DX + 1.5, render.COUNTER_TOP + render.STACK_DY + 4)  # second counter, clear of text
    assert _px(with_units, "0201", *unit_px) == ImageColor.getrgb("#5a8")
    assert _px(without, "0201", *unit_px) == ImageColor.getrgb(FILLS["0201"])
    x, y = render.hex_center(2, 1)
    box = tuple(round(v * render.PNG_PX) for v in (x - 10, y - 12, x + 12, y + 6))
    assert ImageChops.difference(with_units.crop(box), without.crop(box)).getbbox() is not None
    # and nothing else moved: the picture away from the stack is the same
    far = tuple(round(v * render.PNG_PX) for v in (*render.hex_center(3, 2), *render.hex_center(3, 2)))
    far = (far[0] - 10, far[1] - 10, far[2] + 10, far[3] + 10)
    assert ImageChops.difference(with_units.crop(far), without.crop(far)).getbbox() is None


def test_map_png_of_france_1940() -> None:
    from pbem_rules.use import view

    pic = view.map_picture({"map": {"scenario": "france-1940"}, "units": {}})
    assert pic is not None
    img = _image(pic).convert("RGB")
    terrain = {h["id"]: h["fill"] for h in pic["hexes"]}
    on_lines = {x for ln in pic["lines"] for x in ln["hexes"]}
    marked = {h["id"] for h in pic["hexes"] if h["marker"] != "none" or h["label"]}
    plain = sorted(set(terrain) - on_lines - marked)
    assert len(plain) > 100
    for hex_id in plain[::25]:
        assert _px(img, hex_id, 0, 2) == ImageColor.getrgb(terrain[hex_id]), hex_id


def test_text_the_built_in_font_lacks_is_folded() -> None:
    assert raster.printable("Inf·r 7A") == "Inf·r 7A"
    assert raster.printable("Liège, Köln") == "Liege, Koln"
    assert raster.printable("Łódź→") == "?odz?"  # no glyph and no plain letter under it: a mark, not a box


def test_dashes_run_on_across_corners() -> None:
    assert list(raster.dashes([(0, 0), (5, 0)], 2, 1)) == [[(0, 0), (2, 0)], [(3, 0), (5, 0)]]
    assert list(raster.dashes([(0, 0), (1.5, 0), (1.5, 3)], 2, 1)) == [
        [(0, 0), (1.5, 0), (1.5, 0.5)], [(1.5, 1.5), (1.5, 3)]]
    assert list(raster.dashes([(0, 0), (4, 0)], 0, 0)) == [[(0, 0), (4, 0)]]


def test_raster_colours_are_the_svg_templates() -> None:
    """The PNG and the SVG must agree: every colour the rasterizer uses is one the template uses."""
    template = (render.templates_dir() / "map.svg.j2").read_text(encoding="utf-8").lower()
    used = [raster.SEA, raster.HEX_STROKE, raster.LINE_INK, raster.CAPITAL_FILL, raster.LABEL_INK, raster.HALO,
            *raster.EDGE_INK.values(), *raster.MARKER_FILL.values(), *raster.HIGHLIGHT_INK.values(),
            *raster.SUPPLY_DOT.values(), raster.NUMBER_INK]
    for colour in used:
        assert f"'{colour}'" in template or f'"{colour}"' in template, colour


def _check_html(html: str) -> None:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    parser.parse(html)
    # offline: nothing is fetched from anywhere
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "<script" not in html


def test_duel_summary(tmp_path: Path) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, _ = game.play(red.session, store.game_dir(red.home, gid), "seal 3\nsecret\nroll\n")
    game.receive(blue.session, f.raw)
    d = game.load(blue.session, store.game_dir(blue.home, gid))
    ctx = summary.build(d, "blue")
    html = render.render_html(ctx)
    _check_html(html)
    assert "Your move" in html and f"pbem play {gid.hex()[:12]}" in html
    text = render.render_text(ctx)
    assert "YOUR MOVE" in text
    assert "[pbem]" in summary.subject(d) and "blue to act" in summary.subject(d)


@pytest.mark.parametrize("private", [False, True])
def test_mailed_summary_never_holds_private_values(tmp_path: Path, private: bool) -> None:
    red, blue, gid = start_duel(tmp_path)
    f, d = game.play(red.session, store.game_dir(red.home, gid), "secret\n")
    ctx = summary.build(d, "red", private=private)
    assert ctx["private"] is private
    # the duel keeps its secret roll in the private state: only the private view may hold it
    assert d.private["secret"] is not None


def test_face_down_counter_is_blank_in_its_sides_colour() -> None:
    import xml.etree.ElementTree as ET

    hidden = {"hex": "0201", "text": "SECRET", "sub": "9-9", "side": "western", "flags": ["no-supply"],
              "face_down": True}
    pic = {**TERRAIN, "units": [hidden]}
    svg = render.map_svg(pic)
    ET.fromstring(svg)
    assert "SECRET" not in svg and "9-9" not in svg and "face-down western unit 0201" in svg
    counter = [r for r in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect") if r.get("fill") == "#5a8"]
    assert len(counter) == 1
    # the PNG: a counter in the side's colour, the same as a face-up one with no text and no flags
    img = _image(pic).convert("RGB")
    blank = _image({**TERRAIN, "units": [{"hex": "0201", "text": "", "sub": "", "side": "western"}]}).convert("RGB")
    face_up = _image({**TERRAIN, "units": [{**hidden, "face_down": False}]}).convert("RGB")
    assert _px(img, "0201", -8 + 1.5, render.COUNTER_TOP + 1.5) == ImageColor.getrgb("#5a8")
    assert ImageChops.difference(img, blank).getbbox() is None
    assert ImageChops.difference(img, face_up).getbbox() is not None
