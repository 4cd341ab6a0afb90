"""The map picture drawn straight to pixels with Pillow, for mail clients that block SVG.

It draws what templates/map.svg.j2 draws, from the same layout (render.layout),
in the same order and colours, so the mailed PNG and the SVG of ``pbem show``
and the history agree. Pillow has wheels for Windows, macOS and Linux with
FreeType inside, so no system library (cairo) is needed to mail a turn.

Lengths below are in SVG units, as in the template; ``px`` turns them into
pixels. The picture is drawn ``supersample`` times larger and shrunk by
block means: Pillow's shapes are not antialiased, its text is.
"""

from __future__ import annotations

import io
import itertools
import math
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from pbem.errors import Unsupported

Point = tuple[float, float]
RGB = tuple[int, int, int]

# The template's colours and stroke widths (tests/test_render.py checks every colour is in it).
SEA = "#9cc3df"
HEX_STROKE, HEX_STROKE_W = "#6f7d6a", 0.3
OWNER_W, OWNER_OPACITY = 1.2, 0.55
LINE_INK, LINE_W, RAIL_DASH = "#5a4634", 0.9, (2.0, 1.2)
EDGE_INK = {"river": "#4a8ccc", "border": "#b02a2a", "coast": "#333"}
RIVER_OPACITY = 0.85
BORDER_DASH = (2.0, 1.5)
MARKER_FILL = {"city": "#222", "port": "#36c", "factory": "#963"}
CAPITAL_FILL = "#c00"
HIGHLIGHT_INK = {"combat": "#ff2200", "move": "#ffb000"}
SUPPLY_DOT = {"low-supply": "#f90", "no-supply": "#d00"}
LABEL_INK, HALO = "#111", "#fff"
NUMBER_INK = "#4d4d4d"
UNIT_TEXT_SIZE, UNIT_SUB_SIZE, LABEL_SIZE = 4.6, 4.2, 4.4


class Layout(Protocol):
    """What render.layout gives (render.MapSvg); a protocol so this module needs no import of render."""

    width: float
    height: float
    hexes: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    lines: list[dict[str, Any]]
    units: list[dict[str, Any]]
    labels: list[dict[str, Any]]
    highlights: list[dict[str, Any]]
    sides: dict[str, Any]
    numbers: list[dict[str, Any]]
    static_key: str
    number_size: float


def rgb(colour: str) -> RGB:
    r, g, b = ImageColor.getrgb(colour)[:3]
    return r, g, b


@lru_cache(maxsize=16)
def _font(size_px: int) -> ImageFont.FreeTypeFont:
    # Pillow's own scalable font (Aileron): the same letters on every platform, no font to install.
    font = ImageFont.load_default(size=size_px)
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise Unsupported("this Pillow was built without FreeType, so it cannot draw the map's text",
                          hint="install Pillow from its official wheels: pip install --force-reinstall pillow")
    _remember_masks(font)
    return font


def _remember_masks(font: ImageFont.FreeTypeFont) -> None:
    """Each label's glyph mask rendered once per font: a map writes the same words (unit types,
    strengths) many times, and FreeType's rendering was a tenth of a `play`. ImageDraw asks
    for the mask with every argument that shapes it (text, stroke, anchor, sub-pixel start;
    Painter.text draws at whole pixels, so the start is always the same); the ink, which only
    colours a colour font's mask, is left out of the key for masks of mode "L"."""
    render = font.getmask2
    masks: dict[tuple[Any, ...], Any] = {}

    def getmask2(text: str, mode: str = "", *args: Any, **kwargs: Any) -> Any:
        shape = list(args)
        if mode == "L" and len(shape) >= 6:
            shape[5] = None  # the ink (direction, features, language, stroke, anchor, ink, start)
        try:
            key = (text, mode, tuple(shape), tuple(sorted(kwargs.items())))
            hit = masks.get(key)
        except TypeError:  # an argument that cannot be a key (features as a list): no reuse
            return render(text, mode, *args, **kwargs)
        if hit is None:
            hit = masks[key] = render(text, mode, *args, **kwargs)
        return hit

    font.getmask2 = getmask2  # type: ignore[method-assign,assignment]


@lru_cache(maxsize=1)
def _missing_glyph() -> tuple[tuple[int, int], bytes]:
    m = _font(20).getmask("\ue000")  # a private-use code point: the font's "no such letter" box
    return m.size, bytes(m)


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    m = _font(20).getmask(ch)
    return (m.size, bytes(m)) != _missing_glyph()


def printable(text: str) -> str:
    """``text`` with the letters the built-in font lacks folded to ones it has: 'Liège' -> 'Liege'.

    The font covers ASCII and a few signs; a scenario's place names may not be
    ASCII, and a box in their place would be worse than a missing accent.
    """
    out = []
    for ch in text:
        if _has_glyph(ch):
            out.append(ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(base if base and all(_has_glyph(c) for c in base) else "?")
    return "".join(out)


def dashes(points: Sequence[Point], on: float, off: float) -> Iterator[list[Point]]:
    """The dashes of a polyline, the pattern running on across its corners as SVG's stroke-dasharray does."""
    if on <= 0 or off <= 0:  # no gaps (or no dashes) to cut: the whole line
        yield list(points)
        return
    pattern, i, left = (on, off), 0, on
    current: list[Point] = [points[0]] if points else []
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        seg = math.hypot(x2 - x1, y2 - y1)
        done = 0.0
        while seg - done > left:
            done += left
            p = (x1 + (x2 - x1) * done / seg, y1 + (y2 - y1) * done / seg)
            if i == 0:
                current.append(p)
                yield current
            current = [p]
            i, left = 1 - i, pattern[1 - i]
        left -= seg - done
        if i == 0:
            current.append((x2, y2))
    if i == 0 and len(current) > 1:
        yield current


class Painter:
    """Draws in SVG units onto an RGB image, ``px`` pixels per unit."""

    def __init__(self, size: tuple[int, int], px: float) -> None:
        self.px = px
        self.image = Image.new("RGB", size, SEA)
        self.draw = ImageDraw.Draw(self.image)

    @contextmanager
    def translucent(self, opacity: float) -> Iterator[None]:
        """Draw opaque on a layer laid over the image at ``opacity``.

        Blending shape by shape would darken every place where two strokes
        overlap (joints, caps, the shared edge of two hexes); SVG's
        stroke-opacity does not, and neither does one layer.
        """
        base, layer = self.draw, Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(layer)
        try:
            yield
        finally:
            self.draw = base
        alpha = layer.getchannel("A").point(lambda a: a * opacity)
        self.image.paste(layer.convert("RGB"), (0, 0), alpha)

    def width(self, w: float) -> int:
        return max(1, round(w * self.px))

    def xy(self, pts: Sequence[Point]) -> list[Point]:
        return [(x * self.px, y * self.px) for x, y in pts]

    def dot(self, x: float, y: float, r: float, fill: RGB, outline: RGB | None = None, w: float = 0) -> None:
        p = self.px
        self.draw.ellipse((p * (x - r), p * (y - r), p * (x + r), p * (y + r)), fill=fill,
                          outline=outline, width=self.width(w) if outline else 0)

    def stroke(self, pts: Sequence[Point], ink: RGB, w: float, *, round_caps: bool = False) -> None:
        self.draw.line(self.xy(pts), fill=ink, width=self.width(w), joint="curve")
        if round_caps and w * self.px >= 3:
            for x, y in (pts[0], pts[-1]):
                self.dot(x, y, w / 2, ink)

    def ring(self, pts: Sequence[Point], ink: RGB, w: float) -> None:
        """A closed outline centred on the polygon's edges, as an SVG stroke is."""
        self.stroke([*pts, pts[0], pts[1]], ink, w)

    def text(self, x: float, y: float, text: str, size: float, ink: RGB, halo: tuple[float, RGB] | None = None
             ) -> None:
        # anchor "ms": x is the middle, y the baseline, as text-anchor="middle" in SVG
        stroke = (self.width(halo[0]), halo[1]) if halo else (0, None)
        # At whole pixels, so that a word's mask is the same wherever it stands (_remember_masks):
        # half a pixel off at most, as a printed counter's label may be.
        self.draw.text((round(x * self.px), round(y * self.px)), printable(text), font=_font(round(size * self.px)),
                       fill=ink, anchor="ms", stroke_width=stroke[0], stroke_fill=stroke[1])


def _terrain(p: Painter, m: Layout) -> None:
    for h in m.hexes:
        p.draw.polygon(p.xy(h["xy"]), fill=rgb(h["fill"]))
        p.ring(h["xy"], rgb(HEX_STROKE), HEX_STROKE_W)


def _owners(p: Painter, m: Layout) -> None:
    with p.translucent(OWNER_OPACITY):
        for h in m.hexes:
            side = m.sides.get(h.get("owner") or "")
            if side:
                p.ring(h["xy"], rgb(side["fill"]), OWNER_W)


def _overlay(p: Painter, m: Layout) -> None:
    """What lies above the owners' edges and never changes: lines, hexsides, places, hex numbers."""
    for ln in m.lines:
        ink = rgb(LINE_INK)
        parts = dashes(ln["xy"], *RAIL_DASH) if ln["kind"] == "rail" else iter([ln["xy"]])
        for part in parts:
            p.stroke(part, ink, LINE_W)
    with p.translucent(RIVER_OPACITY):
        _edges(p, [e for e in m.edges if e["kind"] == "river"])
    _edges(p, [e for e in m.edges if e["kind"] != "river"])


def _edges(p: Painter, edges: list[dict[str, Any]]) -> None:
    for e in edges:
        seg = [(e["x1"], e["y1"]), (e["x2"], e["y2"])]
        parts = dashes(seg, *BORDER_DASH) if e["kind"] == "border" else iter([seg])
        for part in parts:
            p.stroke(part, rgb(EDGE_INK.get(e["kind"], "#333")), 1.1 if e["kind"] == "river" else 1.0,
                     round_caps=True)


def _markers(p: Painter, m: Layout) -> None:
    for n in m.numbers:
        p.text(n["x"], n["y"], n["text"], m.number_size, rgb(NUMBER_INK))
    for h in m.hexes:
        kind, cx, cy = h.get("marker") or "none", h["cx"], h["cy"]
        if kind == "capital":
            box = (cx - 2.6, cy + 3, cx + 2.6, cy + 8.2)
            p.draw.rectangle([v * p.px for v in box], fill=rgb(CAPITAL_FILL), outline=rgb("#000"),
                             width=p.width(0.4))
        elif kind != "none":
            p.dot(cx, cy + 5.5, 2.2, rgb(MARKER_FILL.get(kind, "#963")))


def _highlights(p: Painter, m: Layout) -> None:
    for hl in m.highlights:
        p.ring(hl["xy"], rgb(HIGHLIGHT_INK.get(hl["kind"], HIGHLIGHT_INK["move"])), 2)


def _units(p: Painter, m: Layout) -> None:
    for u in m.units:
        x, y, ink = u["x"], u["y"], rgb(u["ink"])
        box = [v * p.px for v in (x, y, x + 16, y + 12)]
        hl = None if u.get("face_down") else u.get("hl")
        p.draw.rounded_rectangle(box, radius=p.px, fill=rgb(u["fill"]),
                                 outline=rgb(HIGHLIGHT_INK[hl] if hl else "#000"), width=p.width(1.2 if hl else 0.5))
        if u.get("face_down"):
            continue  # a hidden unit: the blank counter alone (pbem.present.render)
        p.text(x + 8, y + 5.4, u["text"], UNIT_TEXT_SIZE, ink)
        if u.get("sub"):
            p.text(x + 8, y + 10.4, u["sub"], UNIT_SUB_SIZE, ink)
        for dx, dy, full in u.get("pips") or []:
            p.dot(x + dx, y + dy, 0.9, ink if full else rgb(u["fill"]), ink, 0.3)
        flags = u.get("flags") or []
        dot = "low-supply" if "low-supply" in flags else ("no-supply" if "no-supply" in flags else None)
        if dot:
            p.dot(x + 15, y + 1, 1.8, rgb(SUPPLY_DOT[dot]))


# The layers that never change in a game: terrain; terrain and overlay; the overlay's mask; the
# place labels' coverage, halo and letters (drawn over the units, so kept apart).
Layers = tuple[Image.Image, ...]

# Static layers per (picture's static part, size).
_STATIC: dict[tuple[str, float, int], Layers] = {}
_STATIC_MAX = 2  # a process renders one game's map, at most two sizes; ~3 bytes a pixel x3, and three masks


def _static(m: Layout, px: float, supersample: int) -> Layers:
    """The layers that never change in a game: drawn once per process (render.static_key), and
    kept in the home's cache folder (``_disk_load``) for the next command."""
    key = (m.static_key, px, supersample)
    hit = _STATIC.get(key) if m.static_key else None
    if hit is not None:
        return hit
    w, h = round(m.width * px), round(m.height * px)
    layers = _disk_load(key, (w * supersample, h * supersample)) if m.static_key else None
    if layers is None:
        layers = _draw_static(m, px, supersample, (w * supersample, h * supersample))
        if m.static_key:
            _disk_save(key, layers)
    if m.static_key:
        while len(_STATIC) >= _STATIC_MAX:
            del _STATIC[next(iter(_STATIC))]
        _STATIC[key] = layers
    return layers


def _draw_static(m: Layout, px: float, supersample: int,
                 size: tuple[int, int]) -> Layers:
    p = Painter(size, px * supersample)
    _terrain(p, m)
    base = p.image.copy()
    _overlay(p, m)
    _markers(p, m)
    # Where the overlay changed a pixel: pasted back over the owners' edges, so they lie under it.
    mask = ImageChops.difference(base, p.image).convert("L").point(lambda v: 255 if v else 0)
    return (base, p.image, mask, *_label_coverage(m, px * supersample, size))


def _label_coverage(m: Layout, px: float, size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """The place labels as two coverage masks, halo and letters: painted over the units in their
    colours at each drawing (``draw``), as Painter.text would paint them, rendered only once.
    A label's halo may now cover a neighbour's letters only where their halos overlap."""
    halo, letters = Image.new("L", size, 0), Image.new("L", size, 0)
    dh, dl = ImageDraw.Draw(halo), ImageDraw.Draw(letters)
    font = _font(round(LABEL_SIZE * px))
    width = max(1, round(0.55 * px))
    for lb in m.labels:
        at, text = (round(lb["x"] * px), round(lb["y"] * px)), printable(lb["text"])
        dh.text(at, text, font=font, fill=255, anchor="ms", stroke_width=width, stroke_fill=255)
        dl.text(at, text, font=font, fill=255, anchor="ms")
    return halo, letters


# --- the static layers on disk ------------------------------------------------------------------
# One file per picture digest and size in the home's cache folder (pbem.store.paths.cache_dir):
# a magic line, a JSON line (the full key, the size, the SHA-256 of the rest), then the five
# layers' raw pixels, zlib-compressed. The key covers this module's source and Pillow's
# version, so a file drawn by other code is never used; a file that does not check out is
# drawn again and replaced. A command draws the static layer in ~50 ms and loads it in ~15.
_DISK_MAGIC = b"pbem-map-static/2\n"
_DISK_KEEP = 8  # files kept (a few scenarios and sizes; ~250 KB each)
_MODES = ("RGB", "RGB", "L", "L", "L")


def _disk_key(key: tuple[str, float, int]) -> str:
    import hashlib

    import PIL

    with open(__file__, "rb") as fh:
        code = hashlib.sha256(fh.read()).hexdigest()
    return hashlib.sha256(repr((key, code, PIL.__version__)).encode()).hexdigest()


def _disk_path(key: tuple[str, float, int]) -> tuple[Path, str] | None:
    from pbem.store import paths

    folder = paths.cache_dir()
    if folder is None:
        return None
    full = _disk_key(key)
    return folder / f"map-static-{full[:32]}.bin", full


# Layers read from the cache folder ahead of any command, by their full key: the warm worker
# (pbem.cli.warmserver) reads them once and each command it runs finds them here.
_PRELOADED: dict[str, Layers] = {}


def preload_disk(folder: Path, keep: int = 4) -> None:
    """Read the newest ``keep`` static layers of ``folder`` into memory (a file that does not
    check out is skipped: the command draws it again, as without a preload)."""
    try:
        files = sorted(folder.glob("map-static-*.bin"), key=lambda p: p.stat().st_mtime, reverse=True)[:keep]
    except OSError:
        return
    for path in files:
        read = _read_layers(path)
        if read is not None:
            _PRELOADED[read[0]] = read[1]


def _disk_load(key: tuple[str, float, int], size: tuple[int, int]) -> Layers | None:
    where = _disk_path(key)
    if where is None:
        return None
    path, full = where
    hit = _PRELOADED.get(full)
    if hit is None:
        read = _read_layers(path)
        hit = read[1] if read is not None and read[0] == full else None
    return hit if hit is not None and hit[0].size == size else None


def _read_layers(path: Path) -> tuple[str, Layers] | None:
    """(full key, layers) of one cache file, or None when it does not check out (magic, size,
    SHA-256, pixel count)."""
    import hashlib
    import json
    import zlib

    try:
        data = path.read_bytes()
        if not data.startswith(_DISK_MAGIC):
            return None
        head, _, body = data[len(_DISK_MAGIC):].partition(b"\n")
        meta = json.loads(head)
        w, h = meta["size"]
        full = meta["key"]
        if meta.get("sha256") != hashlib.sha256(body).hexdigest() or not isinstance(full, str):
            return None
        raw = zlib.decompress(body)
        lens = [w * h * len(mode) for mode in _MODES]
        if len(raw) != sum(lens):
            return None
        out, at = [], 0
        for mode, n in zip(_MODES, lens, strict=True):
            out.append(Image.frombytes(mode, (w, h), raw[at:at + n]))
            at += n
    except (OSError, ValueError, KeyError, TypeError, zlib.error):
        return None
    return full, tuple(out)


def _disk_save(key: tuple[str, float, int], layers: Layers) -> None:
    """Keep the layers for the next command; a cache that cannot be written is no error."""
    import hashlib
    import json
    import zlib

    from pbem.store.fsutil import atomic_write, make_dirs

    where = _disk_path(key)
    if where is None:
        return
    path, full = where
    body = zlib.compress(b"".join(im.tobytes() for im in layers), 1)
    meta = json.dumps({"key": full, "size": list(layers[0].size), "sha256": hashlib.sha256(body).hexdigest()})
    try:
        make_dirs(path.parent)
        atomic_write(path, _DISK_MAGIC + meta.encode() + b"\n" + body, durable=False)
        kept = sorted(path.parent.glob("map-static-*.bin"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[_DISK_KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def draw(m: Layout, px: float, supersample: int = 2) -> Image.Image:
    """The map as an RGB image ``px`` pixels per SVG unit."""
    base, full, mask, halo, letters = _static(m, px, supersample)
    p = Painter(base.size, px * supersample)
    p.image = base.copy()
    p.draw = ImageDraw.Draw(p.image)
    _owners(p, m)
    p.image.paste(full, (0, 0), mask)
    _highlights(p, m)
    _units(p, m)
    p.image.paste(rgb(HALO), (0, 0, *base.size), halo)
    p.image.paste(rgb(LABEL_INK), (0, 0, *base.size), letters)
    # The mean of each block, as cairo's coverage antialiasing gives: Lanczos
    # rings at every edge, and its 30,000 shades made the palette PNG 60% larger.
    return p.image.reduce(supersample) if supersample > 1 else p.image


def palette_png(img: Image.Image, colours: int, exact: Sequence[str] = (),
                method: Image.Quantize = Image.Quantize.FASTOCTREE) -> bytes:
    """A palette PNG: the map has few colours, and mail size matters on slow or capped connections.

    Median cut averages each box of colours, so a terrain fill would come out a
    shade off; the palette entry nearest each colour in ``exact`` is set back
    to it, and flat areas keep the colours the game chose.
    """
    q = img.quantize(colors=colours, method=method)
    pal = q.getpalette() or []
    n = len(pal) // 3
    for c in exact:
        r, g, b = ImageColor.getrgb(c)[:3]
        best = min(range(n), key=lambda i: (pal[3 * i] - r) ** 2 + (pal[3 * i + 1] - g) ** 2
                   + (pal[3 * i + 2] - b) ** 2)
        if (pal[3 * best] - r) ** 2 + (pal[3 * best + 1] - g) ** 2 + (pal[3 * best + 2] - b) ** 2 <= 3 * 12 ** 2:
            pal[3 * best:3 * best + 3] = [r, g, b]
    q.putpalette(pal)
    out = io.BytesIO()
    # zlib level 8, not 9 (optimize=True): 0.8 % larger, a third of the time (0.05 s against
    # 0.13 s for the France 1940 map; docs/performance.md).
    q.save(out, format="PNG", compress_level=8)
    return out.getvalue()
