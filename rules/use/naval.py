"""Naval movement (USE 4.2.4) as a Naval Rebase (6.4.1) or Naval Transport (6.4.4) action.

Order: ``move UNIT [ZONE|BOX ...] PORT|BOX [carry UNIT] [escort WARSHIP...]``: the Sea Zones
and sea Map Boxes the unit passes, in order, then where it ends: a friendly port hex or a
friendly sea Map Box (also with a carried unit, 6.4.4). Each Sea Zone or Map Box is a single
location (4.2.4); the unit's starting location is its port's Sea Zone(s) or its Map Box. A
convoy may carry one friendly ground or air unit stacked with it (6.4.4) and take warships
stacked with it along (6.4.2).
The move may be intercepted (6.2.5, 6.4.3: ``navalint.py``).
"""

from __future__ import annotations

from typing import Any

from .activation import activate, end_activation
from .geo import Board, terrain_chart
from .politics import check_end, entry_ban
from .refusals import illegal
from .state import (
    State,
    Unit,
    add_sorties,
    enemies,
    faction_of,
    hex_of,
    is_naval,
    mp_allowance,
    stack_class,
    units_at,
)

Order = dict[str, Any]
Events = list[dict[str, Any]]


def start_locations(b: Board, unit: Unit) -> frozenset[str]:
    if unit["box"] is not None:
        return frozenset({unit["box"]})
    return b.zones_of(hex_of(unit))


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


def naval_move(state: State, b: Board, order: Order, unit: Unit, events: Events, ctx: Any = None) -> None:
    """USE 4.2.4 / 6.4.1 Naval Rebase / 6.4.4 Naval Transport: move through adjacent Sea Zones /
    Map Boxes and end in a friendly port (or a friendly sea Map Box); 1 Sortie unless the unit
    fought air/naval combat on the way (4.2.4).
    DECISIONS: the starting location costs nothing, every further location entered costs
    ``sea_zone_mp`` or ``map_box_mp`` (terrain.toml, authored) out of the 10 MP of a naval unit
    (5 in Low or No Supply); a move may also end in a friendly sea Map Box (naval units start in
    one, 1.3.5); the move ends the unit's activation; under the Pact / Appeasement the units
    moved end at home or in a Map Box (10.3.4-5, politics.end_ban). Straits (4.2.4): entering a
    location across a Strait costs ``strait_mp`` more and is prohibited while either hex the
    Strait points to holds an enemy city (controlled by an enemy faction), fort or unit; a unit
    whose port lies in both zones (1.3.6) does not cross it, and when a location can be entered
    both across and not across a Strait, the move does not cross it. Not modelled: Canals (none
    on the France 1940 map)."""
    from .navalint import intercept_move

    faction = faction_of(state, unit)
    assert faction is not None
    path = list(order["path"])
    dest = path[-1]
    via = path[:-1]
    cargo = _cargo(state, b, order, unit, faction)
    escorts = _escorts(state, order, unit, faction)
    activate(state, b, order, unit, events)
    chart = terrain_chart()
    mp = mp_allowance(unit)
    start = start_locations(b, unit)
    here, route, spent = _sail(state, b, order, faction, start, via, chart)
    final_hex: str | None
    final_box: str | None
    if dest in b.sea_boxes:
        spent += _enter_box(state, b, order, faction, here, dest, route, chart)
        final_hex, final_box = None, dest
    else:
        spent += _enter_port(state, b, order, unit, faction, escorts, cargo, here, dest, route, chart)
        final_hex, final_box = dest, None
    if spent > mp:
        illegal(order, f"{unit['id']} needs {spent} MP for that move but has {mp}", "4.2.4")
    for e in escorts:
        # USE 6.4.2 the escort "moves with convoy": it moves, so its own MP (4.2: 5 in Low or No
        # Supply) bound the move; a convoy is always in Full Supply (7.2).
        if spent > mp_allowance(e):
            illegal(order, f"escort {e['id']} needs {spent} MP for that move but has {mp_allowance(e)}", "4.2",
                    "leave the escort behind or shorten the move")
    if route and route[0] not in start:
        # the starting Sea Zone the unit leaves by (the first one next to where it goes)
        first = sorted((z for z in start if route[0] in b.zone_adj.get(z, frozenset())),
                       key=lambda z: (b.strait(z, route[0]) is not None, z))
        route.insert(0, (first or sorted(start))[0])
    src = unit["hex"] or unit["box"]
    what = "naval transport" if cargo is not None else "naval rebase"
    fought, blocked = intercept_move(state, b, unit, escorts, route, what, ctx, events)
    if blocked is not None:
        # DECISION (6.2.5 "to interdict"): an interdicted move is turned back: the convoy, what
        # it carries and its escorts stay where they started; the action is spent.
        events.append({"kind": "naval-move-interdicted", "unit": unit["id"], "zone": blocked, "at": src})
        end_activation(state, events)
        return
    for mover in (unit, *escorts):
        mover.update({"hex": final_hex, "box": final_box})
        if mover["id"] not in fought:
            add_sorties(mover, 1)  # 4.2.4: +1 Sortie unless it fought air/naval combat on the way
    events.append({"kind": "naval-move", "unit": unit["id"], "from": src, "to": dest, "via": via, "mp": spent,
                   "escorts": [e["id"] for e in escorts]})
    if cargo is not None:
        cargo.update({"hex": final_hex, "box": final_box, "fort": False})
        events.append({"kind": "naval-transport", "unit": cargo["id"], "by": unit["id"], "from": src, "to": dest})
    end_activation(state, events)


def _sail(state: State, b: Board, order: Order, faction: str, start: frozenset[str], via: list[str],
          chart: Any) -> tuple[frozenset[str], list[str], int]:
    """The Sea Zones and Map Boxes named on the way, in order: (where the unit is after them,
    the route so far, the MP spent)."""
    here = start
    route: list[str] = []
    spent = 0
    for loc in via:
        if loc not in b.zone_adj:
            illegal(order, f"{loc} is not a Sea Zone or Map Box", "4.2.4")
        if loc not in here and not any(loc in b.zone_adj.get(h, frozenset()) for h in here):
            illegal(order, f"{loc} is not adjacent to {'/'.join(sorted(here))}", "4.2.4",
                    "name every Sea Zone or Map Box passed, in order")
        if loc in here:
            route.append(loc)
            here = frozenset({loc})
            continue
        spent += _enter(order, b, faction, loc, chart) + _strait(order, state, b, faction, here, loc, chart)
        here = frozenset({loc})
        route.append(loc)
    return here, route, spent


def _enter_box(state: State, b: Board, order: Order, faction: str, here: frozenset[str], dest: str,
               route: list[str], chart: Any) -> int:
    """The move ends in sea Map Box ``dest`` (4.2.4, 1.3.5): the MP it costs; ``route`` extended."""
    spent = 0
    # A convoy may carry its unit into a friendly sea Map Box (6.4.4 "to friendly port in Sea
    # Zone/Map Box"; 3.3 stacks for transport in Map Boxes; UK units live there, 8.3): DECISION,
    # Interpretations 6.4.4. The carried unit was checked by _cargo; the box is friendly below.
    if dest not in here and not any(dest in b.zone_adj.get(h, frozenset()) for h in here):
        illegal(order, f"Map Box {dest} is not adjacent to {'/'.join(sorted(here))}", "4.2.4")
    if dest not in here:
        spent += _enter(order, b, faction, dest, chart) + _strait(order, state, b, faction, here, dest, chart)
        route.append(dest)
    if b.sea_boxes[dest] != faction:
        illegal(order, f"Map Box {dest} is not friendly to you", "4.2.4")
    return spent


def _enter_port(state: State, b: Board, order: Order, unit: Unit, faction: str, escorts: list[Unit],
                cargo: Unit | None, here: frozenset[str], dest: str, route: list[str], chart: Any) -> int:
    """The move ends in port ``dest``: the MP of entering its Sea Zone; ``route`` extended; the
    port must be friendly and take every unit moving in (3.3, 10.3.4-5)."""
    spent = 0
    from .seamarks import friendly_port

    if not friendly_port(state, b, dest, faction):  # a port city it controls, or its Mulberry (15.16)
        illegal(order, f"{dest} is not a friendly port", "4.2.4", "a naval move must end in a friendly port")
    zones = b.zones_of(dest)
    if not zones & here:
        # the port's zone is entered last (it may be adjacent to the current location)
        nxt = sorted((z for z in zones if any(z in b.zone_adj.get(h, frozenset()) for h in here)),
                     key=lambda z: (_crossed(b, here, z) is not None, z))  # not across a Strait first
        if not nxt:
            illegal(order, f"port {dest} is not in or next to {'/'.join(sorted(here))}", "4.2.4",
                    "name the Sea Zones passed before the port")
        spent += _enter(order, b, faction, nxt[0], chart) + _strait(order, state, b, faction, here, nxt[0], chart)
        route.append(nxt[0])
    elif not route:
        route.append(sorted(zones & here)[0])
    for mover in (unit, *escorts, *([cargo] if cargo else [])):
        for o in units_at(state, dest):
            if enemies(faction_of(state, o), faction):
                illegal(order, f"{dest} holds enemy unit {o['id']}", "4.2.4")
            if o["id"] != mover["id"] and stack_class(o["kind"]) == stack_class(mover["kind"]):
                illegal(order, f"{dest} already holds {o['id']}", "3.3")
    if cargo is not None:
        ban = entry_ban(state, b, cargo, dest, "move")
        if ban:
            illegal(order, ban[1], ban[0])
    for mover in (unit, *escorts, *([cargo] if cargo else [])):
        check_end(state, b, mover, dest, order)  # 10.3.4 / 10.3.5: end at home or in a box
    return spent


def _cargo(state: State, b: Board, order: Order, unit: Unit, faction: str) -> Unit | None:
    """USE 6.4.4: a convoy transports one friendly ground or air unit stacked with it (in its
    port, or in the same sea Map Box, 3.3). DECISIONS: the carried unit is not activated (it pays
    no PP) but, like an activated unit, may not have 6 Sorties, a Strategic Move marker (4.1.4)
    or have been repatriated (10.4); it may be activated later in the phase; it leaves any fort
    it occupied."""
    uid = order.get("carry")
    if uid is None:
        return None
    if unit["kind"] != "convoy":
        illegal(order, f"{unit['id']} is not a convoy: only convoys transport units", "6.4.4")
    u: Unit | None = state["units"].get(uid)
    if u is None or faction_of(state, u) != faction:
        illegal(order, f"{uid} is not a unit of yours", "6.4.4")
    if is_naval(u):
        illegal(order, f"{uid} is a naval unit: a convoy carries a ground or air unit", "6.4.4")
    # USE 3.3 "units may form stacks within limits for transport" in Map Boxes: a convoy in a sea
    # Map Box carries a unit in the same box out (UK units mobilized there, 8.3)
    in_box = unit["box"] in b.sea_boxes and u["box"] == unit["box"]
    if not in_box and (unit["box"] is not None or u["box"] is not None or u["hex"] != unit["hex"]):
        illegal(order, f"{uid} is not stacked with {unit['id']}", "6.4.4",
                "the carried unit must be in the convoy's port or sea Map Box")
    if u["sm"]:
        illegal(order, f"{uid} is marked with Strategic Move", "4.1.4")
    if u["sorties"] >= 6:
        illegal(order, f"{uid} has 6 Sorties", "1.5")
    if u["repatriated"]:
        illegal(order, f"{uid} was repatriated this turn", "10.4")
    if any(uid in a["units"] for a in state["assaults"].values()):
        illegal(order, f"{uid} designated an Assault, which ended its movement", "5.3.3")
    return u


def _escorts(state: State, order: Order, unit: Unit, faction: str) -> list[Unit]:
    """USE 6.4.2: warships stacked with a convoy move with it to protect it."""
    out: list[Unit] = []
    for uid in order.get("escort") or []:
        if unit["kind"] != "convoy":
            illegal(order, f"{unit['id']} is not a convoy: warships escort convoys", "6.4.2")
        u = state["units"].get(uid)
        if u is None or faction_of(state, u) != faction or u["kind"] not in ("carrier", "surface"):
            illegal(order, f"{uid} is not a warship of yours", "6.4.2")
        if u["hex"] != unit["hex"] or u["box"] != unit["box"]:
            illegal(order, f"{uid} is not stacked with {unit['id']}", "6.4.2")
        if u["sorties"] >= 6 or u["sm"]:
            illegal(order, f"{uid} has 6 Sorties or a Strategic Move marker and cannot escort", "6.4.2")
        if u not in out:
            out.append(u)
    return out


def _enter(order: Order, b: Board, faction: str, loc: str, chart: Any) -> int:
    if loc in b.sea_boxes:
        why = box_ban(faction, loc)
        if why:
            illegal(order, why, "4.2.4")
        return int(chart.map_box_mp)
    return int(chart.sea_zone_mp)


def _crossed(b: Board, here: frozenset[str], loc: str) -> tuple[str, str] | None:
    """The Strait crossed entering ``loc`` from ``here`` (None if some location of ``here`` is
    next to ``loc`` without a Strait between them)."""
    found: tuple[str, str] | None = None
    for h in sorted(here):
        if loc not in b.zone_adj.get(h, frozenset()):
            continue
        st = b.strait(h, loc)
        if st is None:
            return None
        found = found or st
    return found


def strait_ban(state: State, b: Board, faction: str, hexes: tuple[str, str]) -> str | None:
    """USE 4.2.4: crossing a Strait is prohibited if either hex pointed to contains an enemy
    city, fort, or unit. DECISION: an enemy city is one controlled by a faction at war with
    the mover (a neutral's city does not close it)."""
    for h in hexes:
        city = b.city(h)
        if city is not None and enemies(state["control"].get(h), faction):
            return f"the Strait at {hexes[0]}/{hexes[1]} is closed: {h} is an enemy city ({city.name})"
        if enemies(state["forts"].get(h), faction):
            return f"the Strait at {hexes[0]}/{hexes[1]} is closed: {h} holds an enemy fort"
        for o in units_at(state, h):
            if enemies(faction_of(state, o), faction):
                return f"the Strait at {hexes[0]}/{hexes[1]} is closed: {h} holds enemy unit {o['id']}"
    return None


def _strait(order: Order, state: State, b: Board, faction: str, here: frozenset[str], loc: str, chart: Any) -> int:
    """USE 4.2.4 Straits: the extra cost of entering ``loc`` from ``here`` (0 if no Strait is
    crossed); illegal if the Strait is closed to the mover."""
    st = _crossed(b, here, loc)
    if st is None:
        return 0
    why = strait_ban(state, b, faction, st)
    if why:
        illegal(order, why, "4.2.4", "go round, or clear the hexes the Strait points to first")
    return int(chart.strait_mp)
