"""What the map authoring tools share: the equal-area projection and the point-in-polygon test.

Both maps (tools/author_map_use.py, tools/author_map_eurofront.py) lay a hex grid over the
Natural Earth polygons projected with a Lambert azimuthal equal-area projection centred on
the map, so that every hex covers the same ground.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

EARTH_KM = 6371.0


@dataclass(frozen=True)
class Lambert:
    """Lambert azimuthal equal-area projection centred on (``lat0``, ``lon0``), in radians; km."""

    lat0: float
    lon0: float

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        lat0, lon0 = self.lat0, self.lon0
        p, dl = math.radians(lat), math.radians(lon) - lon0
        k = math.sqrt(2 / (1 + math.sin(lat0) * math.sin(p) + math.cos(lat0) * math.cos(p) * math.cos(dl)))
        x = EARTH_KM * k * math.cos(p) * math.sin(dl)
        y = EARTH_KM * k * (math.cos(lat0) * math.sin(p) - math.sin(lat0) * math.cos(p) * math.cos(dl))
        return x, y

    def unproject(self, x: float, y: float) -> tuple[float, float]:
        lat0, lon0 = self.lat0, self.lon0
        rho = math.hypot(x, y)
        if rho < 1e-9:
            return math.degrees(lon0), math.degrees(lat0)
        c = 2 * math.asin(rho / (2 * EARTH_KM))
        lat = math.asin(math.cos(c) * math.sin(lat0) + y * math.sin(c) * math.cos(lat0) / rho)
        lon = lon0 + math.atan2(x * math.sin(c), rho * math.cos(lat0) * math.cos(c) - y * math.sin(lat0) * math.sin(c))
        return math.degrees(lon), math.degrees(lat)


def inside(pt: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    """Even-odd point in polygon (lon/lat polygons of the authored layers)."""
    x, y = pt
    result, j = False, len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            result = not result
        j = i
    return result
