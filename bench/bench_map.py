"""The mailed map PNG: time per map and PNG size, Pillow (what pbem uses) beside cairosvg (what it used);
and the sizes of the mails and summary pages of a played USE game (``mail_sizes``).

The France 1940 map with its starting forces (475 hexes, 52 counters). cairosvg
is optional (pip install -e '.[bench-cairo]'; it needs the system's cairo):
without it, only Pillow's numbers are printed. Both run in the same process, so
the ratio compares like with like on this machine.
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable
from typing import Any

from pbem.present import raster, render


def _picture() -> dict[str, Any]:
    from pbem_rules.use import view
    from pbem_rules.use.initial import state_from_scenario
    from pbem_rules.use.scenario import load_scenario

    pic = view.map_picture(state_from_scenario(load_scenario("france-1940")))
    assert pic is not None
    return pic


def _median(fn: Callable[[], bytes], runs: int) -> tuple[float, bytes]:
    out = fn()  # warm: fonts, templates, imports
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples), out


def _cairosvg() -> Any | None:
    try:
        import cairosvg  # type: ignore[import-not-found,unused-ignore]
    except (ImportError, OSError):  # not installed, or no cairo library to load
        return None
    return cairosvg


def _cairo_png(cairosvg: Any, picture: dict[str, Any]) -> bytes:
    """The former path: SVG, cairosvg at 1.25x, then the same median-cut palette PNG it made."""
    from PIL import Image

    png = cairosvg.svg2png(bytestring=render.map_svg(picture).encode("utf-8"), scale=1.25)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    img.quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(out, format="PNG", optimize=True)
    return out.getvalue()


def map_png(runs: int = 7) -> dict[str, float]:
    pic = _picture()
    m = render.layout(pic)
    res: dict[str, float] = {}
    t, png = _median(lambda: render.map_png(pic), runs)
    res["map_png_pillow_ms"], res["map_png_pillow_bytes"] = t * 1000, float(len(png))
    t, _ = _median(lambda: raster.draw(m, render.PNG_PX).tobytes(), runs)
    res["map_draw_pillow_ms"] = t * 1000  # the static layer cached: the counters and owners only

    def cold() -> bytes:
        raster._STATIC.clear()
        return render.map_png(pic)

    t, _ = _median(cold, runs)
    res["map_png_cold_ms"] = t * 1000  # a process's first map: the static layer drawn too
    t, svg = _median(lambda: render.map_svg(pic).encode("utf-8"), runs)
    res["map_svg_ms"], res["map_svg_bytes"] = t * 1000, float(len(svg))
    cairosvg = _cairosvg()
    if cairosvg is None:
        print("map: cairosvg not installed (pip install -e '.[bench-cairo]'): no comparison")
        return res
    t, png = _median(lambda: _cairo_png(cairosvg, pic), runs)
    res["map_png_cairosvg_ms"], res["map_png_cairosvg_bytes"] = t * 1000, float(len(png))
    svg = render.map_svg(pic).encode("utf-8")
    t, _ = _median(lambda: bytes(cairosvg.svg2png(bytestring=svg, scale=1.25)), runs)
    res["map_draw_cairosvg_ms"] = t * 1000
    res["map_png_cairosvg_over_pillow"] = res["map_png_cairosvg_ms"] / res["map_png_pillow_ms"]
    return res


def mail_sizes() -> dict[str, float]:
    """Median and largest mail (.eml bytes), map PNG and summary HTML over tests/browser.py's USE game.

    Every file of its 21 is played, its mails built as `pbem play` builds them
    (pbem.mail.dispatch.mails_for), and the other player's summary page rendered
    as `pbem show` writes it (the SVG inline). Also the time to build one file's mails.
    """
    import sys
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from browser import USE_FILES, start_use  # type: ignore[import-not-found,unused-ignore]

    from pbem.mail import dispatch
    from pbem.play import game
    from pbem.present import summary
    from pbem.store import gamestore as store

    mails: list[int] = []
    pngs: list[int] = []
    pages: list[int] = []
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pbem-bench-map-") as tmp:
        axis, western, gid = start_use(Path(tmp))
        players = {"axis": axis, "western": western}
        for seat, orders in USE_FILES:
            me = players[seat]
            f, d = game.play(me.session, store.game_dir(me.home, gid), orders)
            other = players["western" if seat == "axis" else "axis"]
            game.receive(other.session, f.raw)
            t = time.perf_counter()
            built = dispatch.mails_for(me.session, d, f, "summary")
            times.append(time.perf_counter() - t)
            for m in built:
                mails.append(len(m.message.as_bytes()))
                pngs.extend(len(p.get_payload(decode=True)) for p in m.message.walk()
                            if p.get_content_type() == "image/png")
            od = game.load(other.session, store.game_dir(other.home, gid))
            who = "western" if seat == "axis" else "axis"
            pages.append(len(render.render_html(summary.build(od, who)).encode("utf-8")))
    return {"mail_bytes_median": statistics.median(mails), "mail_bytes_max": float(max(mails)),
            "mail_png_bytes_median": statistics.median(pngs),
            "summary_html_bytes_median": statistics.median(pages), "summary_html_bytes_max": float(max(pages)),
            "mails_for_one_file_ms": statistics.median(times) * 1000}


if __name__ == "__main__":
    for k, v in {**map_png(), **mail_sizes()}.items():
        print(f"{k:30} {v:12.2f}")
