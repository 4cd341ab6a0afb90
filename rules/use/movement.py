"""Movement: Strategic (USE 4.1), Operational ground (4.2, 4.2.3), air (4.2.2), displacement (4.2.3.7).

Every function here validates one order against the rules and changes the (already copied)
state; a refused order raises IllegalOrder carrying the rule number.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import politics, supply
from .entry import entered
from .geo import Board, terrain_chart
from .refusals import illegal
from .sideweather import weather_for
from .state import (
    Activation,
    State,
    Unit,
    add_sorties,
    enemies,
    faction_of,
    hex_of,
    is_air,
    is_ground,
    is_naval,
    mp_allowance,
    stack_class,
    units_at,
)
from .zoc import ezoc_sources, friendly_anchor, in_ezoc

Order = dict[str, Any]
Events = list[dict[str, Any]]


def enemy_presence(state: State, b: Board, h: str, faction: str) -> bool:
    """An enemy city, fort or unit in ``h`` (what cancels the Transport Line benefit, USE 4.2.3)."""
    if b.city(h) is not None and enemies(state["control"].get(h), faction):
        return True
    if enemies(state["forts"].get(h), faction):
        return True
    return any(enemies(faction_of(state, u), faction) for u in units_at(state, h))


def step_cost(state: State, b: Board, a: str, h: str, faction: str) -> int | None:
    """MP to enter ``h`` from ``a`` (USE 4.2: paid before entering; "+" hexside costs add up).

    Along a Transport Line terrain and hexside count as Clear, unless ``h`` holds an
    enemy city, fort or unit (USE 4.2.3). None: ground movement is prohibited.
    """
    if b.ground_prohibited(h) or b.side_prohibited(a, h):
        return None
    along = b.transport_between(a, h) and not enemy_presence(state, b, h, faction)
    cost: int | None = terrain_chart().entry_cost(b.terrain[h], b.side(a, h), along)
    return cost


def attack_cost(state: State, b: Board, a: str, h: str, faction: str) -> int | None:
    """USE 5.3.2: terrain cost of the defender's hex plus the "Attacking a unit" cost
    (+1, or +2 in Poor or Severe weather, USE 11.0)."""
    base = step_cost(state, b, a, h, faction)
    if base is None:
        return None
    plus: int = terrain_chart().attack_mp[weather_for(state, b, h, faction)]  # USE 15.23: the mover's
    return base + plus


def stack_conflict(state: State, unit: Unit, h: str) -> Unit | None:
    """Another unit of the same stacking class in ``h`` (USE 3.3), if any."""
    cls = stack_class(unit["kind"])
    for u in units_at(state, h):
        if u["id"] != unit["id"] and stack_class(u["kind"]) == cls:
            return u
    return None


# --- entering a hex: control, forts, displacement ----------------------------


def enter_hex(state: State, b: Board, unit: Unit, h: str, events: Events) -> None:
    """Put a ground unit into ``h`` and apply what entering does (2.3.1, 4.2.3, 4.2.3.7, 13.8)."""
    faction = faction_of(state, unit)
    assert faction is not None
    for other in list(units_at(state, h)):
        if (is_air(other) or is_naval(other)) and enemies(faction_of(state, other), faction):
            displace(state, b, other, events)
    src = unit["hex"]  # None: landing from the sea (13.4 "entering country", entry.entered)
    unit["hex"] = h
    if enemies(state["forts"].get(h), faction):
        # USE 4.2.3: entering an enemy fort removes it.
        del state["forts"][h]
        events.append({"kind": "fort-removed", "hex": h})
    if b.city(h) is not None and state["control"].get(h) != faction:
        from .will import capture_city

        capture_city(state, b, h, faction, events)
    entered(state, b, unit, h, events, src=src)  # USE 13.2, 13.3, 13.4, 13.6-13.8


def air_end_ok(state: State, b: Board, unit: Unit, h: str) -> str | None:
    """Why an air unit may not end in ``h`` (USE 4.2.2), or None."""
    faction = faction_of(state, unit)
    assert faction is not None
    if politics.entry_ban(state, b, unit, h, "move"):
        return "4.2.2"
    city_friendly = b.city(h) is not None and state["control"].get(h) == faction
    if not city_friendly and not b.has_transport(h):
        return "4.2.2"
    if enemy_presence(state, b, h, faction) or enemy_marker(state, h, faction):
        return "4.2.2"
    if stack_conflict(state, unit, h):
        return "3.3"
    if in_ezoc(state, b, h, faction) and not friendly_anchor(state, b, h, faction):
        return "4.2.2.1"
    if not supply.traceable(state, b, unit, h):
        return "4.2.2"
    return None


def enemy_marker(state: State, h: str, faction: str) -> bool:
    """An enemy Airdrop or Partisans marker in ``h``: 4.2.2 bars an "enemy counter/marker",
    so the faction's own marker does not stop its air units ending there."""
    return any(enemies(state["markers"][kind].get(h), faction) for kind in ("airdrop", "partisans"))


def displace(state: State, b: Board, unit: Unit, events: Events, avoid: frozenset[str] = frozenset()) -> None:
    """USE 4.2.3.7: an enemy air/naval unit "moves away per air/naval rules", adding 1 Sortie if
    under 6; eliminated if it has nowhere to go. DECISION: the engine moves it to the nearest
    eligible hex (lowest hex id on ties) that an air move (4.2.2: within its MP, 5 in Low or No
    Supply, not through an enemy unit's hex) or a naval move (4.2.4: displacement.py) could
    reach, so the owner need not be asked by email. ``avoid``: hexes a Strategic Move is still
    to enter (an air unit is not displaced into the mover's way, to be displaced again)."""
    start = hex_of(unit)
    unit["hex"] = None  # it must leave; it cannot count as its own stacking conflict
    best: str | None
    if is_air(unit):
        dists = _air_dists(state, b, unit, {start: 0}, int(terrain_chart().air_hex_mp), False,
                           limit=mp_allowance(unit))
        ok = sorted((d, h) for h, d in dists.items()
                    if h != start and h not in avoid and air_end_ok(state, b, unit, h) is None)
        best = ok[0][1] if ok else None
    else:
        from .displacement import naval_refuge

        best = naval_refuge(state, b, unit, start)
    if best is None:
        from .will import eliminate

        unit["hex"] = start
        eliminate(state, unit, events, cause="displacement")
        return
    if best in b.sea_boxes:
        unit.update({"hex": None, "box": best})
    else:
        unit["hex"] = best
    if unit["sorties"] < 6:
        add_sorties(unit, 1)
    events.append({"kind": "displaced", "unit": unit["id"], "from": start, "to": best})


# --- operational ground movement ------------------------------------------


def move_ground(state: State, b: Board, order: Order, unit: Unit, path: list[str],
                events: Events) -> None:
    """USE 4.2.3 with the EZOC rules of 1.7.1 / 4.2.3.1-2, for the active unit."""
    act = state["activation"]
    faction = faction_of(state, unit)
    assert faction is not None and act is not None
    no_ezoc = act["no_ezoc"]
    for h in path:
        if h in b.land_boxes or unit["box"] in b.land_boxes:
            _box_step(state, b, order, unit, h, act, events)
            continue
        a = hex_of(unit)
        if not b.on_map(h) or not b.adjacent(a, h):
            illegal(order, f"{unit['id']} cannot move from {a} to {h}: not adjacent", "4.2.3",
                    "list every hex of the path, one step at a time")
        if act["stopped"]:
            illegal(order, f"{unit['id']} has ended its movement (Assault designated or activation over)",
                    "5.3.3")
        politics.check_entry(state, b, unit, h, "move", order)
        if b.ground_prohibited(h) or b.side_prohibited(a, h):
            illegal(order, f"{h} (or the hexside from {a}) is prohibited to ground movement", "1.3.2")
        src_a = ezoc_sources(state, b, a, faction, no_ezoc)
        if src_a and not act["fresh"]:
            illegal(order, f"{unit['id']} is in an EZOC at {a}: it must end its activation or attack",
                    "1.7.1", f"write 'attack HEX from {unit['id']}' or 'assault HEX from {unit['id']}', "
                    "or end the activation ('end')")
        src_h = ezoc_sources(state, b, h, faction, no_ezoc)
        if src_a & src_h:
            illegal(order, f"{a} to {h}: both hexes are in the ZOC of {sorted(src_a & src_h)[0]}",
                    "4.2.3.1")
        for u in units_at(state, h):
            if is_ground(u) and enemies(faction_of(state, u), faction):
                illegal(order, f"{h} holds enemy unit {u['id']}: attack it instead of entering", "3.3")
            if is_ground(u) and src_h:
                illegal(order, f"{h} holds friendly {u['id']} and is in an EZOC", "4.2.3.2")
        cost = step_cost(state, b, a, h, faction)
        if cost is None:
            illegal(order, f"ground movement cannot enter {h} from {a}", "4.2.3")
        if cost > act["mp"]:
            illegal(order, f"{unit['id']} needs {cost} MP to enter {h} but has {act['mp']} left", "4.2",
                    "MP are paid before entering; end the move earlier")
        act["mp"] -= cost
        act["fresh"] = False
        enter_hex(state, b, unit, h, events)
        events.append({"kind": "move", "unit": unit["id"], "from": a, "to": h, "mp_left": act["mp"]})
    other = stack_conflict(state, unit, hex_of(unit)) if unit["box"] is None else None
    if other is not None:
        illegal(order, f"{unit['id']} would end its move stacked with {other['id']} in {unit['hex']}",
                "3.3", "a ground unit may only pass through a friendly unit's hex")
    if path:
        where = hex_of(unit) if unit["box"] is None else unit["box"]
        politics.check_end(state, b, unit, where, order)  # 10.3.4 / 10.3.5


def box_entry_ban(state: State, b: Board, unit: Unit, box: str) -> str | None:
    """Why ``unit`` may not be in land Map Box ``box`` (USE 1.3.5, 2.3), or None.
    DECISION: only units of the faction the box is friendly to may enter it: no combat can
    occur in a Map Box (1.3.5), so an enemy could never be fought there."""
    friendly, _ = b.land_boxes[box]
    if faction_of(state, unit) != friendly:
        return f"Map Box {box} is friendly to the {friendly.title()} faction only"
    return None


def _box_step(state: State, b: Board, order: Order, unit: Unit, h: str, act: Activation,
              events: Events) -> None:
    """USE 1.3.5: ground movement between a land Map Box and its edge hexes. Entering the box
    costs ``land_box_mp`` (terrain.toml, authored); leaving it costs the edge hex's terrain (or
    Transport Line) cost. DECISION: a unit may pass through the box from one edge hex to
    another; it leaves any EZOC by entering the box only as it could leave it by moving (1.7.1)."""
    faction = faction_of(state, unit)
    assert faction is not None
    if act["stopped"]:
        illegal(order, f"{unit['id']} has ended its movement (Assault designated or activation over)", "5.3.3")
    chart = terrain_chart()
    if h in b.land_boxes:
        if unit["box"] is not None:
            illegal(order, f"{unit['id']} is already in Map Box {unit['box']}", "1.3.5")
        _, edges = b.land_boxes[h]
        if unit["hex"] not in edges:
            illegal(order, f"{unit['id']} at {unit['hex']} is not on an edge hex of Map Box {h} "
                    f"({', '.join(sorted(edges))})", "1.3.5")
        why = box_entry_ban(state, b, unit, h)
        if why:
            illegal(order, why, "1.3.5")
        if ezoc_sources(state, b, unit["hex"], faction, act["no_ezoc"]) and not act["fresh"]:
            illegal(order, f"{unit['id']} is in an EZOC at {unit['hex']}: it must end its activation or attack",
                    "1.7.1")
        cost = int(chart.land_box_mp)
        if cost > act["mp"]:
            illegal(order, f"{unit['id']} needs {cost} MP to enter Map Box {h} but has {act['mp']} left", "4.2")
        src = unit["hex"]
        act["mp"] -= cost
        act["fresh"] = False
        unit.update({"hex": None, "box": h, "fort": False})
        events.append({"kind": "move", "unit": unit["id"], "from": src, "to": h, "mp_left": act["mp"]})
        return
    box = unit["box"]
    assert box is not None  # move_ground sends a unit here in a box or entering one
    _, edges = b.land_boxes[box]
    if h not in edges:
        illegal(order, f"{unit['id']} can leave Map Box {box} only to an edge hex ({', '.join(sorted(edges))})",
                "1.3.5")
    politics.check_entry(state, b, unit, h, "move", order)
    if b.ground_prohibited(h):
        illegal(order, f"{h} is prohibited to ground movement", "1.3.2")
    src_h = ezoc_sources(state, b, h, faction, act["no_ezoc"])
    for u in units_at(state, h):
        if is_ground(u) and enemies(faction_of(state, u), faction):
            illegal(order, f"{h} holds enemy unit {u['id']}: units cannot attack out of a Map Box", "1.3.5")
        if is_ground(u) and src_h:
            illegal(order, f"{h} holds friendly {u['id']} and is in an EZOC", "4.2.3.2")
    along = h in b.box_source and not enemy_presence(state, b, h, faction)
    cost = chart.entry_cost(b.terrain[h], frozenset(), along)
    if cost is None:
        illegal(order, f"ground movement cannot enter {h}", "4.2.3")
    if cost > act["mp"]:
        illegal(order, f"{unit['id']} needs {cost} MP to enter {h} but has {act['mp']} left", "4.2")
    act["mp"] -= cost
    act["fresh"] = False
    unit["box"] = None
    enter_hex(state, b, unit, h, events)
    events.append({"kind": "move", "unit": unit["id"], "from": box, "to": h, "mp_left": act["mp"]})


# --- strategic movement -----------------------------------------------------


def strategic_move(state: State, b: Board, order: Order, unit: Unit, path: list[str],
                   events: Events) -> None:
    """USE 4.1: one supplied air or ground unit per faction per turn, along a contiguous
    Transport Line, never into an enemy city, fort or EZOC, each hex able to trace supply."""
    faction = faction_of(state, unit)
    assert faction is not None
    if faction in state["done_turn"]["sm"]:
        illegal(order, f"{faction} has already made its Strategic Move this turn", "4.1.1")
    if not (is_ground(unit) or is_air(unit)):
        illegal(order, "naval units cannot use Strategic Movement", "4.1.2")
    if unit["supply"] == "no":
        illegal(order, f"{unit['id']} has No Supply and cannot Strategic Move", "7.1")
    if not b.has_transport(hex_of(unit)):
        illegal(order, f"{unit['id']} is not in a hex with a Transport Line", "4.1.1")
    if not path:
        illegal(order, "a strategic move needs at least one hex", "4.1")
    for i, h in enumerate(path):
        a = hex_of(unit)
        final = i == len(path) - 1
        if h in b.land_boxes or h in b.sea_boxes:
            illegal(order, f"no Strategic movement into Map Box {h}", "4.1.2")
        if not b.on_map(h) or not b.adjacent(a, h) or not b.transport_between(a, h):
            illegal(order, f"{a} to {h} does not follow a contiguous Transport Line", "4.1")
        if b.ground_prohibited(h) or b.side_prohibited(a, h):
            illegal(order, f"{h} is prohibited", "4.1.2")
        politics.check_entry(state, b, unit, h, "strategic", order, final=final)
        if _sm_barred(state, b, unit, h, faction):
            illegal(order, f"{h} holds an enemy city, fort or unit", "4.1.2")
        if in_ezoc(state, b, h, faction):
            illegal(order, f"{h} is in an enemy ZOC", "4.1.3")
        if not supply.traceable(state, b, unit, h):
            illegal(order, f"{h} cannot trace a supply line to a Supply Source", "4.1.2")
        if is_ground(unit):
            for other in list(units_at(state, h)):
                if enemies(faction_of(state, other), faction):
                    displace(state, b, other, events, frozenset(path[i + 1:]))  # USE 3.3 / 4.2.3.7
        unit["hex"] = h
        if is_ground(unit):
            # USE 13.3/13.6-13.8 say "enters"/"crosses": a Strategic Move sets them off as a move does
            entered(state, b, unit, h, events, src=a)
    end = hex_of(unit)
    politics.check_end(state, b, unit, end, order)  # 10.3.4 / 10.3.5
    if stack_conflict(state, unit, end):
        illegal(order, f"{unit['id']} would end stacked over the limit in {unit['hex']}", "3.3")
    unit["sm"] = True
    state["done_turn"]["sm"].append(faction)
    events.append({"kind": "strategic-move", "unit": unit["id"], "path": path})


def _sm_barred(state: State, b: Board, unit: Unit, h: str, faction: str) -> bool:
    """USE 4.1.2: an enemy city or fort bars a Strategic Move, and so does an enemy unit
    (3.3: enemy units cannot share a hex), except a lone enemy air or naval unit in the way of
    a ground unit, which is displaced as by any ground unit entering (3.3, 4.2.3.7; DECISION,
    Interpretations 4.1.2). An air unit never enters an enemy unit's hex (3.3)."""
    if b.city(h) is not None and enemies(state["control"].get(h), faction):
        return True
    if enemies(state["forts"].get(h), faction):
        return True
    return any(enemies(faction_of(state, u), faction) and (is_ground(u) or not is_ground(unit))
               for u in units_at(state, h))


# --- air movement -----------------------------------------------------------


def air_path_len(state: State, b: Board, unit: Unit, dest: str, through_enemy: bool = False) -> int | None:
    """Shortest air path in MP (terrain chart ``air_hex_mp`` a hex) avoiding
    Prohibited Countries and banned neutral hexes; Faded Dot and water hexes are fine (1.3.2).
    USE 3.3: the path may not pass through a hex holding an enemy unit ("Enemy units cannot
    share a hex", the limit holds "at any point in a turn"; only a *friendly* air unit's hex may
    be passed); ``through_enemy`` lifts that, to tell a blocked path from one out of range.
    Land Map Boxes (1.3.5): entering one from an edge hex costs ``land_box_mp``; leaving one,
    the edge hex is entered as any hex (DECISION, as for ground units). Sea Map Boxes
    (DECISION, 3.3/8.3): an air unit in one (mobilized there) flies out by entering, as its
    first hex, any hex of a Sea Zone adjacent to the box."""
    chart = terrain_chart()
    per_hex = int(chart.air_hex_mp)
    if dest == unit["box"]:
        return 0
    starts = _air_starts(state, b, unit, per_hex)
    if dest in b.land_boxes:
        best = [n + int(chart.land_box_mp) for e in sorted(b.land_boxes[dest][1])
                if (n := _air_hexes(state, b, unit, starts, e, per_hex, through_enemy)) is not None]
        return min(best) if best else None
    return _air_hexes(state, b, unit, starts, dest, per_hex, through_enemy)


def _air_starts(state: State, b: Board, unit: Unit, per_hex: int) -> dict[str, int]:
    """Where an air path starts, with the MP already spent on reaching it."""
    box = unit["box"]
    if box in b.land_boxes:
        edges: Iterable[str] = b.land_boxes[box][1]
    elif box in b.sea_boxes:
        edges = (h for z in b.zone_adj.get(box, frozenset()) if z not in b.sea_boxes
                 for h in b.zone_hexes(z))
    else:
        return {hex_of(unit): 0}
    return {e: per_hex for e in edges
            if b.on_map(e) and not politics.entry_ban(state, b, unit, e, "move")
            and not _enemy_in(state, e, unit)}


def _enemy_in(state: State, h: str, unit: Unit) -> bool:
    faction = faction_of(state, unit)
    return any(enemies(faction_of(state, u), faction) for u in units_at(state, h))


def _air_hexes(state: State, b: Board, unit: Unit, starts: dict[str, int], dest: str, per_hex: int,
               through_enemy: bool) -> int | None:
    return _air_dists(state, b, unit, starts, per_hex, through_enemy, dest=dest).get(dest)


def _air_dists(state: State, b: Board, unit: Unit, starts: dict[str, int], per_hex: int, through_enemy: bool,
               dest: str | None = None, limit: int | None = None) -> dict[str, int]:
    """MP to reach each hex by air from ``starts`` (up to ``dest``, or within ``limit``)."""
    seen = dict(starts)
    frontier = sorted(starts, key=lambda h: (starts[h], h))
    while frontier:
        nxt = []
        for h in frontier:
            if h == dest:
                return seen
            if limit is not None and seen[h] + per_hex > limit:
                continue
            for n in b.neighbours(h):
                if n in seen or politics.entry_ban(state, b, unit, n, "move"):
                    continue
                if n != dest and not through_enemy and _enemy_in(state, n, unit):
                    continue  # USE 3.3: no passing through an enemy unit's hex
                seen[n] = seen[h] + per_hex
                nxt.append(n)
        frontier = nxt
    return seen if dest is None else {}


def check_air_move(state: State, b: Board, order: Order, unit: Unit, dest: str, mp: int) -> None:
    """USE 4.2.2 / 6.2.1: refuse an air move the unit cannot make with ``mp``; changes nothing."""
    n = air_path_len(state, b, unit, dest)
    if n is None or n > mp:
        m = air_path_len(state, b, unit, dest, through_enemy=True)
        if m is not None and m <= mp:
            illegal(order, f"{unit['id']} could reach {dest} only through a hex holding an enemy unit", "3.3",
                    "an air unit may pass through a friendly air unit's hex, never an enemy's")
        illegal(order, f"{unit['id']} cannot reach {dest} with {mp} MP", "4.2.2")
    if dest in b.land_boxes:
        # USE 4.2.2: an air move may end in a Map Box (no stacking limit there, 3.3).
        why_box = box_entry_ban(state, b, unit, dest)
        if why_box:
            illegal(order, why_box, "1.3.5")
        return
    politics.check_end(state, b, unit, dest, order)  # 10.3.4 / 10.3.5
    why = air_end_ok(state, b, unit, dest)
    if why:
        illegal(order, f"{unit['id']} cannot end its air move in {dest}", why,
                "end in a friendly city or a Transport Line hex with no enemy counter, able to trace supply")


def air_move(state: State, b: Board, order: Order, unit: Unit, dest: str, mp: int,
             events: Events) -> None:
    """USE 4.2.2 / 6.2.1 Air Rebase: move, end in a legal hex, add one Sortie."""
    check_air_move(state, b, order, unit, dest, mp)
    src = unit["hex"] or unit["box"]
    if dest in b.land_boxes:
        unit.update({"hex": None, "box": dest})
    else:
        unit["hex"] = dest
        unit["box"] = None
    add_sorties(unit, 1)
    events.append({"kind": "air-move", "unit": unit["id"], "from": src, "to": dest})
