"""USE's hex grid: the kit's grid (pbem/kit/hexgrid.py) with even columns half a hex lower.

Convention (rules/use/SCENARIO_API.md): 0102 is south of 0101 and 0201 (half
a hex lower) is south-east of 0101.  The names below are what USE code imports.
"""

from __future__ import annotations

from pbem.kit.hexgrid import DIRECTIONS, EVEN_COLUMNS_LOW, Direction, Hex, Hexside, parse_hex

__all__ = ["DIRECTIONS", "GRID", "Direction", "Hex", "Hexside", "adjacent", "direction_to", "distance",
           "hex_line", "hexes_within", "hexside", "neighbour", "neighbours", "parse_hex", "within_range"]

GRID = EVEN_COLUMNS_LOW

neighbour = GRID.neighbour
neighbours = GRID.neighbours
direction_to = GRID.direction_to
adjacent = GRID.adjacent
hexside = GRID.hexside
distance = GRID.distance
within_range = GRID.within_range  # USE 1.4: the counter's own hex is in range but not counted
hexes_within = GRID.hexes_within  # USE 1.4; unbounded: callers filter with GameMap.on_map
hex_line = GRID.hex_line  # the bomber's line (airops) and the map tool's transport lines
