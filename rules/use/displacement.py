"""Where a displaced naval unit goes (USE 4.2.3.7 with the naval movement rules of 4.2.4).

4.2.3.7: "the enemy unit immediately moves away per air/naval rules ... If no eligible hex, it is
eliminated." A naval unit may only go where a Naval Rebase could take it: through connected Sea
Zones and sea Map Boxes from its port's zone(s), within its MP (10, 5 in Low or No Supply), paying
``sea_zone_mp`` / ``map_box_mp`` for each location entered and ``strait_mp`` for each Strait
crossed (terrain.toml), never across a closed Strait nor into a Map Box its faction may not
enter (Axis: none), ending in a friendly port that can take it.
"""

from __future__ import annotations

import heapq

from .geo import Board, terrain_chart
from .state import State, Unit, enemies, faction_of, mp_allowance, stack_class, units_at


def naval_refuge(state: State, b: Board, unit: Unit, start: str) -> str | None:
    """The friendly port (or, failing any, friendly sea Map Box) ``unit`` leaving ``start`` goes to.
    DECISIONS: the nearest port by hex distance, lowest hex id on ties (as for air units); a
    friendly sea Map Box only when no port can be reached (a naval move may end there, 4.2.4),
    the first in name order."""
    faction = faction_of(state, unit)
    assert faction is not None
    cost = _reach(state, b, faction, b.zones_of(start), mp_allowance(unit))
    ports = sorted((b.distance(start, h), h) for h in b.cities
                   if h != start and _port_ok(state, b, unit, faction, h)
                   and any(z in cost for z in b.zones_of(h)))
    if ports:
        return ports[0][1]
    boxes = sorted(x for x in cost if x in b.sea_boxes and b.sea_boxes[x] == faction)
    return boxes[0] if boxes else None


def _port_ok(state: State, b: Board, unit: Unit, faction: str, h: str) -> bool:
    from .seamarks import friendly_port

    if not friendly_port(state, b, h, faction):
        return False
    return not any(enemies(faction_of(state, o), faction) or stack_class(o["kind"]) == stack_class(unit["kind"])
                   for o in units_at(state, h) if o["id"] != unit["id"])


def _reach(state: State, b: Board, faction: str, start: frozenset[str], mp: int) -> dict[str, int]:
    """MP to be in each Sea Zone / sea Map Box reachable from the ``start`` zones within ``mp``."""
    from .naval import box_ban, strait_ban

    chart = terrain_chart()
    best = dict.fromkeys(start, 0)
    heap = [(0, z) for z in sorted(start)]
    while heap:
        spent, here = heapq.heappop(heap)
        if spent > best.get(here, mp + 1):
            continue
        for loc in sorted(b.zone_adj.get(here, frozenset())):
            if loc in b.land_boxes or (loc in b.sea_boxes and box_ban(faction, loc)):
                continue
            step = int(chart.map_box_mp if loc in b.sea_boxes else chart.sea_zone_mp)
            st = b.strait(here, loc)
            if st is not None:
                if strait_ban(state, b, faction, st):
                    continue
                step += int(chart.strait_mp)
            if spent + step <= mp and spent + step < best.get(loc, mp + 1):
                best[loc] = spent + step
                heapq.heappush(heap, (spent + step, loc))
    return best
