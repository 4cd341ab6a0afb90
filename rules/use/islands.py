"""Islands (USE 1.3.3) and what they change: 7.2's automatic Full Supply for a garrison in an
island port, and 5.3's "Island fort defender is not Isolated".

1.3.3: "Island: A land hex that is either alone or part of a group of hexes which are
surrounded by Water hexsides. In addition, none of its land hexes contain a Transport Line".
DECISION: the group is the land hexes joined by hexsides that are not Water hexsides; a group
touching the map edge is not an island (the land may go on off the map).
"""

from __future__ import annotations

from .geo import Board
from .state import State, Unit, faction_of

FULL_RING = 6  # a hex whose six neighbours are all on the map


def is_island(b: Board, h: str) -> bool:
    """Whether land hex ``h`` is on an island (1.3.3). Stops at the first Transport Line or map
    edge it meets, so a mainland hex costs little."""
    if not b.on_map(h) or b.is_water(h):
        return False
    seen = {h}
    todo = [h]
    while todo:
        x = todo.pop()
        if b.has_transport(x) or len(b.neighbours(x)) < FULL_RING:
            return False
        for n in b.neighbours(x):
            if n in seen or b.is_water(n) or "water" in b.side(x, n):
                continue
            seen.add(n)
            todo.append(n)
    return True


def island_port_garrison(b: Board, unit: Unit) -> bool:
    """USE 7.2: a garrison in an island port is automatically in Full Supply."""
    h = unit["hex"]
    if unit["kind"] != "garrison" or h is None:
        return False
    city = b.city(h)
    return city is not None and city.port and is_island(b, h)


def island_fort(state: State, b: Board, unit: Unit) -> bool:
    """USE 5.3 "[Exception: Island fort defender is not Isolated]": the unit is in its own
    faction's fort (or under its fort marker) on an island."""
    h = unit["hex"]
    if h is None:
        return False
    own_fort = bool(unit["fort"]) or state["forts"].get(h) == faction_of(state, unit)
    return own_fort and is_island(b, h)
