"""Hex geometry for USE maps numbered ``XXYY`` (column XX, row YY).

Convention (documented in rules/use/SCENARIO_API.md): flat-topped hexes in
north-south columns, numbered from 01; **even columns sit half a hex lower**
than odd ones, as on most SPI-style wargame maps.  So 0102 is south of 0101
and 0201 (half a hex lower) is south-east of 0101.

Distances use cube coordinates.  With 1-based columns, the even (shifted)
columns are the *odd* 0-based ones, hence the ``q & 1`` below.
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Hex(NamedTuple):
    """A hex by column and row.  Hashable and cheap: used as dict key everywhere."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"{self.col:02d}{self.row:02d}"


Hexside = tuple[Hex, Hex]
"""An unordered pair of adjacent hexes, always stored as (smaller, larger)."""


def parse_hex(text: str) -> Hex:
    """Parse ``"0712"``.  Column and row 00 never exist (numbering starts at 01)."""
    if len(text) != 4 or not text.isascii() or not text.isdigit():
        raise ValueError(f"hex must be 4 digits XXYY, got {text!r}")
    col, row = int(text[:2]), int(text[2:])
    if col == 0 or row == 0:
        raise ValueError(f"hex {text}: columns and rows are numbered from 01")
    return Hex(col, row)


class Direction(enum.IntEnum):
    """The six directions of a flat-topped hex, clockwise from north."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def opposite(self) -> Direction:
        return Direction((self.value + 3) % 6)

    @classmethod
    def parse(cls, text: str) -> Direction:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"direction must be one of N NE SE S SW NW, got {text!r}") from None


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

# (dcol, drow) per direction for odd (unshifted) and even (shifted-down) columns.
_ODD_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_EVEN_STEPS = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def neighbour(h: Hex, d: Direction) -> Hex:
    """The hex next to ``h`` in direction ``d``; may lie off any given map."""
    dc, dr = (_EVEN_STEPS if h.col % 2 == 0 else _ODD_STEPS)[d]
    return Hex(h.col + dc, h.row + dr)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours in ``DIRECTIONS`` order (unbounded grid)."""
    steps = _EVEN_STEPS if h.col % 2 == 0 else _ODD_STEPS
    return tuple(Hex(h.col + dc, h.row + dr) for dc, dr in steps)


def direction_to(a: Hex, b: Hex) -> Direction | None:
    """The direction from ``a`` to an adjacent ``b``; None if they are not adjacent."""
    for d, n in zip(DIRECTIONS, neighbours(a), strict=True):
        if n == b:
            return d
    return None


def adjacent(a: Hex, b: Hex) -> bool:
    return direction_to(a, b) is not None


def hexside(a: Hex, b: Hex) -> Hexside:
    """The normalised hexside between two adjacent hexes."""
    if not adjacent(a, b):
        raise ValueError(f"hexes {a} and {b} are not adjacent")
    return (a, b) if a < b else (b, a)


def _cube(h: Hex) -> tuple[int, int, int]:
    q, r = h.col - 1, h.row - 1
    x = q
    z = r - (q - (q & 1)) // 2
    return x, -x - z, z


def _from_cube(x: int, z: int) -> Hex:
    q = x
    r = z + (q - (q & 1)) // 2
    return Hex(q + 1, r + 1)


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps from ``a`` to ``b`` (0 when equal)."""
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def within_range(a: Hex, b: Hex, n: int) -> bool:
    """USE 1.4: ``b`` is within range ``n`` of a counter in ``a``.

    The counter's own hex is not counted but is part of the range, so range 0
    is the hex itself and range 1 adds the six neighbours.
    """
    return distance(a, b) <= n


def hexes_within(h: Hex, n: int) -> tuple[Hex, ...]:
    """Every hex at distance <= ``n`` from ``h`` including ``h`` (USE 1.4), sorted.

    The grid is unbounded here: callers filter with ``GameMap.on_map``.
    """
    if n < 0:
        return ()
    x0, _, z0 = _cube(h)
    found: list[Hex] = []
    for dx in range(-n, n + 1):
        for dz in range(max(-n, -dx - n), min(n, -dx + n) + 1):
            found.append(_from_cube(x0 + dx, z0 + dz))
    return tuple(sorted(found))


def _round_cube(x: float, y: float, z: float) -> tuple[int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


def hex_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The straight chain of adjacent hexes from ``a`` to ``b`` inclusive.

    Used by the map authoring tool to turn waypoints into transport lines.
    A tiny nudge breaks ties the same way every time, so output is stable.
    """
    n = distance(a, b)
    if n == 0:
        return (a,)
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n
        x = ax + (bx - ax) * t + 1e-6
        y = ay + (by - ay) * t + 2e-6
        z = az + (bz - az) * t - 3e-6
        rx, rz = _round_cube(x, y, z)
        out.append(_from_cube(rx, rz))
    return tuple(out)
