"""The mailed map PNG: time per map and PNG size, Pillow (what pbem uses) beside cairosvg (what it used).

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
    res["map_draw_pillow_ms"] = t * 1000
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


if __name__ == "__main__":
    for k, v in map_png().items():
        print(f"{k:30} {v:12.2f}")
