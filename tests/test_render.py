"""Summaries: valid HTML5, no external resources, no private strings in what is mailed."""

from __future__ import annotations

import re
from pathlib import Path

import html5lib
import pytest
from helpers import start_duel

from pbem.play import game
from pbem.present import render, summary
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
    assert len(root.findall(".//{http://www.w3.org/2000/svg}polygon")) >= 6


def test_png_rasterizes() -> None:
    png = render.svg_to_png(render.map_svg(PICTURE))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


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
