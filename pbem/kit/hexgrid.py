"""Hex geometry for wargame maps numbered ``XXYY`` (column XX, row YY, both from 01).

Hexes are flat-topped, in north-south columns; every other column sits half a
hex lower.  Which ones is the map's *column convention*, a :class:`Grid`:

* :data:`EVEN_COLUMNS_LOW` -- even columns lower (most SPI-style maps; USE):
  0102 is south of 0101 and 0201 is south-east of 0101;
* :data:`ODD_COLUMNS_LOW` -- odd columns lower: 0201 is north-east of 0101.

A game picks one instance and uses its methods (or binds them to module names,
as rules/use/hexgrid.py does).  :class:`Hex`, :func:`parse_hex` and
:class:`Direction` are the same for every convention.  The renderer draws
with the same instance (``Grid.center``), so geometry is written down once.

Distances use cube coordinates (q = column - 1, r = row - 1).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import NamedTuple

SQ3 = math.sqrt(3)


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

# (dcol, drow) per direction, for a column at the normal height and for one half a hex lower.
_HIGH_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_LOW_STEPS = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
# The same steps looked up the other way: adjacency tests are the inner loop of map checks.
_HIGH_DIRS = {step: d for step, d in zip(_HIGH_STEPS, DIRECTIONS, strict=True)}
_LOW_DIRS = {step: d for step, d in zip(_LOW_STEPS, DIRECTIONS, strict=True)}


def _round_cube(x: float, y: float, z: float) -> tuple[int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


@dataclass(frozen=True)
class Grid:
    """A column convention: ``low_columns`` is "even" or "odd" (the columns half a hex lower)."""

    low_columns: str
    _low_parity: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.low_columns not in ("even", "odd"):
            raise ValueError(f"low_columns must be 'even' or 'odd', got {self.low_columns!r}")
        object.__setattr__(self, "_low_parity", 0 if self.low_columns == "even" else 1)

    def is_low(self, col: int) -> bool:
        """True if column ``col`` sits half a hex lower than its neighbours."""
        return col % 2 == self._low_parity

    def neighbour(self, h: Hex, d: Direction) -> Hex:
        """The hex next to ``h`` in direction ``d``; may lie off any given map."""
        dc, dr = (_LOW_STEPS if self.is_low(h.col) else _HIGH_STEPS)[d]
        return Hex(h.col + dc, h.row + dr)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The six neighbours in ``DIRECTIONS`` order (unbounded grid)."""
        steps = _LOW_STEPS if self.is_low(h.col) else _HIGH_STEPS
        return tuple(Hex(h.col + dc, h.row + dr) for dc, dr in steps)

    def direction_to(self, a: Hex, b: Hex) -> Direction | None:
        """The direction from ``a`` to an adjacent ``b``; None if they are not adjacent."""
        return (_LOW_DIRS if self.is_low(a.col) else _HIGH_DIRS).get((b.col - a.col, b.row - a.row))

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return self.direction_to(a, b) is not None

    def hexside(self, a: Hex, b: Hex) -> Hexside:
        """The normalised hexside between two adjacent hexes."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {a} and {b} are not adjacent")
        return (a, b) if a < b else (b, a)

    # --- cube coordinates -------------------------------------------------
    # With 1-based columns, q = col - 1: even columns low means odd q low ("odd-q"), odd
    # columns low means even q low ("even-q").
    def _cube(self, h: Hex) -> tuple[int, int, int]:
        q, r = h.col - 1, h.row - 1
        x = q
        z = r - (q - (q & 1)) // 2 if self.low_columns == "even" else r - (q + (q & 1)) // 2
        return x, -x - z, z

    def _from_cube(self, x: int, z: int) -> Hex:
        q = x
        r = z + (q - (q & 1)) // 2 if self.low_columns == "even" else z + (q + (q & 1)) // 2
        return Hex(q + 1, r + 1)

    def distance(self, a: Hex, b: Hex) -> int:
        """Number of hex steps from ``a`` to ``b`` (0 when equal)."""
        ax, ay, az = self._cube(a)
        bx, by, bz = self._cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def within_range(self, a: Hex, b: Hex, n: int) -> bool:
        """``b`` is within range ``n`` of a counter in ``a``: range 0 is the hex itself."""
        return self.distance(a, b) <= n

    def hexes_within(self, h: Hex, n: int) -> tuple[Hex, ...]:
        """Every hex at distance <= ``n`` from ``h`` including ``h``, sorted.

        The grid is unbounded here: callers filter with their map's bounds.
        """
        if n < 0:
            return ()
        x0, _, z0 = self._cube(h)
        found: list[Hex] = []
        for dx in range(-n, n + 1):
            for dz in range(max(-n, -dx - n), min(n, -dx + n) + 1):
                found.append(self._from_cube(x0 + dx, z0 + dz))
        return tuple(sorted(found))

    def hex_line(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        """The straight chain of adjacent hexes from ``a`` to ``b`` inclusive.

        A tiny nudge breaks ties the same way every time, so output is stable.
        """
        n = self.distance(a, b)
        if n == 0:
            return (a,)
        ax, ay, az = self._cube(a)
        bx, by, bz = self._cube(b)
        out: list[Hex] = []
        for i in range(n + 1):
            t = i / n
            x = ax + (bx - ax) * t + 1e-6
            y = ay + (by - ay) * t + 2e-6
            z = az + (bz - az) * t - 3e-6
            rx, rz = _round_cube(x, y, z)
            out.append(self._from_cube(rx, rz))
        return tuple(out)

    # --- drawing ----------------------------------------------------------
    def center(self, col: int, row: int, size: float) -> tuple[float, float]:
        """The centre of a hex in a drawing where ``size`` is centre-to-corner, 0101 touching (0, 0)."""
        x = size + 1.5 * size * (col - 1)
        y = SQ3 / 2 * size + SQ3 * size * (row - 1 + (0.5 if self.is_low(col) else 0.0))
        return x, y

    def corners(self, col: int, row: int, size: float) -> list[tuple[float, float]]:
        """The six corners of a flat-topped hex, clockwise from east (y grows downwards)."""
        cx, cy = self.center(col, row, size)
        return [(cx + size * math.cos(math.pi / 3 * i), cy + size * math.sin(math.pi / 3 * i)) for i in range(6)]


EVEN_COLUMNS_LOW = Grid("even")
ODD_COLUMNS_LOW = Grid("odd")
GRIDS: dict[str, Grid] = {"even": EVEN_COLUMNS_LOW, "odd": ODD_COLUMNS_LOW}
