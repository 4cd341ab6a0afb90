"""Naval movement (USE 4.2.4) as a Naval Rebase action (6.4.1).

Order: ``move UNIT [ZONE|BOX ...] PORT|BOX``: the Sea Zones and sea Map Boxes the unit passes,
in order, then where it ends: a friendly port hex or a friendly sea Map Box. Each Sea Zone or
Map Box is a single location (4.2.4); the unit's starting location is its port's Sea Zone(s) or
its Map Box.
"""

from __future__ import annotations

from typing import Any

from .errs import illegal
from .geo import Board, terrain_chart
from .state import State, Unit, add_sorties, enemies, faction_of, mp_allowance, stack_class, units_at

Order = dict[str, Any]
Events = list[dict[str, Any]]


def start_locations(b: Board, unit: Unit) -> frozenset[str]:
    if unit["box"] is not None:
        return frozenset({unit["box"]})
    return b.zones_of(unit["hex"])


def box_ban(faction: str, box: str) -> str | None:
    """USE 4.2.4: Axis units cannot enter Map Boxes; Axis/Western units cannot enter Central
    Russia; USSR units cannot enter Map Boxes except Central Russia."""
    if faction == "axis":
        return "Axis naval units cannot enter Map Boxes"
    if faction == "western" and box == "CR":
        return "Western units cannot enter the Central Russia box"
    if faction == "soviet" and box != "CR":
        return "Soviet units cannot enter Map Boxes other than Central Russia"
    return None


def naval_move(state: State, b: Board, order: Order, unit: Unit, events: Events) -> None:
    """USE 4.2.4 / 6.4.1 Naval Rebase: move through adjacent Sea Zones / Map Boxes and end in a
    friendly port (or a friendly sea Map Box); 1 Sortie.
    DECISIONS: the starting location costs nothing, every further location entered costs
    ``sea_zone_mp`` or ``map_box_mp`` (terrain.toml, authored) out of the 10 MP of a naval unit
    (5 in Low or No Supply); a move may also end in a friendly sea Map Box (naval units start in
    one, 1.3.5); Naval Rebase ends the unit's activation. Not modelled: Strait costs and
    restrictions (the map does not say which zone borders are Straits), Canals (none on the
    France 1940 map) and the interception of Naval Rebase (6.2.5, 6.4.3)."""
    from .actions import activate, end_activation

    faction = faction_of(state, unit)
    assert faction is not None
    path = list(order["path"])
    dest = path[-1]
    via = path[:-1]
    activate(state, b, order, unit, events)
    chart = terrain_chart()
    mp = mp_allowance(unit)
    here = start_locations(b, unit)
    spent = 0
    for loc in via:
        if loc not in b.zone_adj:
            illegal(order, f"{loc} is not a Sea Zone or Map Box", "4.2.4")
        if loc not in here and not any(loc in b.zone_adj.get(h, frozenset()) for h in here):
            illegal(order, f"{loc} is not adjacent to {'/'.join(sorted(here))}", "4.2.4",
                    "name every Sea Zone or Map Box passed, in order")
        if loc in here:
            continue
        spent += _enter(order, b, faction, loc, chart)
        here = frozenset({loc})
    if dest in b.sea_boxes:
        if dest not in here and not any(dest in b.zone_adj.get(h, frozenset()) for h in here):
            illegal(order, f"Map Box {dest} is not adjacent to {'/'.join(sorted(here))}", "4.2.4")
        if dest not in here:
            spent += _enter(order, b, faction, dest, chart)
        if b.sea_boxes[dest] != faction:
            illegal(order, f"Map Box {dest} is not friendly to you", "4.2.4")
        final_hex, final_box = None, dest
    else:
        city = b.city(dest) if b.on_map(dest) else None
        if city is None or not city.port or state["control"].get(dest) != faction:
            illegal(order, f"{dest} is not a friendly port", "4.2.4", "a naval move must end in a friendly port")
        zones = b.zones_of(dest)
        if not zones & here:
            # the port's zone is entered last (it may be adjacent to the current location)
            nxt = sorted(z for z in zones if any(z in b.zone_adj.get(h, frozenset()) for h in here))
            if not nxt:
                illegal(order, f"port {dest} is not in or next to {'/'.join(sorted(here))}", "4.2.4",
                        "name the Sea Zones passed before the port")
            spent += _enter(order, b, faction, nxt[0], chart)
        for o in units_at(state, dest):
            if enemies(faction_of(state, o), faction):
                illegal(order, f"{dest} holds enemy unit {o['id']}", "4.2.4")
            if o["id"] != unit["id"] and stack_class(o["kind"]) == stack_class(unit["kind"]):
                illegal(order, f"{dest} already holds {o['id']}", "3.3")
        final_hex, final_box = dest, None
    if spent > mp:
        illegal(order, f"{unit['id']} needs {spent} MP for that move but has {mp}", "4.2.4")
    src = unit["hex"] or unit["box"]
    unit.update(hex=final_hex, box=final_box)
    add_sorties(unit, 1)  # 4.2.4 / 6.4.1: no air/naval combat is fought on the way (no interception)
    events.append({"kind": "naval-move", "unit": unit["id"], "from": src, "to": dest, "via": via, "mp": spent})
    end_activation(state, events)


def _enter(order: Order, b: Board, faction: str, loc: str, chart: Any) -> int:
    if loc in b.sea_boxes:
        why = box_ban(faction, loc)
        if why:
            illegal(order, why, "4.2.4")
        return int(chart.map_box_mp)
    return int(chart.sea_zone_mp)
