"""Special rules 77.x that reach the 1945 map: the collapse of the German economy (77.1,
[WiE-base 15.2]) and the frozen Baltic (77.41); Port Suppression ([WiE-base 13.3]), which closes
a port as the freeze does; the lakes in winter (77.2) on a board that has them.

``state["suppressed"]`` (made by the first Port Suppression mission): side -> the ports its Port
Suppression points made inoperable, from the Joint Air War's Air Combat Phase (68.1 A) to the next
game-turn's.

``state["collapse"]``: 0, or the game-turn the German economy collapsed (77.11: for good).
[WiE-base 15.2] reads "the Axis holds no German Manufacturing Center, or no German Resource Center,
without a bomb hit" (features.txt marks them; 76.25's hits on five of the eleven Resource Centers
count from the start; bombing.py adds and repairs hits, [WiE-base 24]).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import parse_hex

from .bombing import hit
from .diplomacy import refuse
from .state import air_left, board, date, front_of, holder, hostile, scenario_data, use_air

SUPPRESSION_POINTS = 5  # [WiE-base 13.3]

# 77.41: the ports the Baltic freeze closes or reduces (on this map only Riga).
FROZEN_PORTS = ("Riga", "Talinin", "Tallinn", "Oranienbaum", "Leningrad", "Helsinki", "Turku", "Pori", "Oulu",
                "Lulea", "Stockholm")
FROZEN_CYCLES = (1, 2, 3, 4, 13)


def economy_lost(state: Any) -> bool:
    """[WiE-base 15.2]: the Axis holds no Manufacturing Center, or no Resource Center, without a
    bomb hit ([WiE-base 24.6]; 76.25's five hit Resource Centers count from the start)."""
    b = board(state)
    mfg = [str(h) for h in b.mfg]
    res = [str(h) for h in b.resource]
    return not any(working(state, h) for h in mfg) or not any(working(state, h) for h in res)


def working(state: Any, h: str) -> bool:
    return holder(state, h) == "axis" and not hit(state, h)


def check_collapse(state: Any, ctx: Any) -> None:
    """77.1 "at any time": checked whenever a hex changes hands; 77.11: it never recovers;
    77.12: the Luftwaffe is grounded (its points are thrown away)."""
    if state.get("collapse") or not economy_lost(state):
        return
    state["collapse"] = int(state["turn"])
    for front in state["air_points"].get("axis", {}):
        state["air_points"]["axis"][front] = 0
    # 77.1 "all Axis units immediately become permanently unsupplied": marked at once (as supply's
    # refresh marks them, 69.0 Example 2), counted from the Axis's next Initial Supply Phase.
    free = set(scenario_data(state).tables.get("supply", {}).get("always_supplied_nations", []))
    for k, u in state["units"].items():
        if u["side"] == "axis" and u["hex"] and u.get("nation") not in free:
            state["oos"].setdefault(k, 0)
    if ctx is not None:
        ctx.event("collapse", turn=state["collapse"])


def collapsed(state: Any) -> bool:
    return bool(state.get("collapse"))


def refuse_grounded(state: Any, side: str, o: dict[str, Any] | None) -> None:
    if side == "axis" and collapsed(state):
        refuse(o, "the German economy has collapsed: the Luftwaffe is grounded", "77.12")


def port_class(state: Any, h: str) -> str:
    """77.41: in cycles 1-4 and 13 the listed Baltic ports freeze: a minor port is closed ("")
    and a major port works as a minor one."""
    b = board(state)
    hx = parse_hex(h)
    cls = b.ports.get(hx, "") or state.get("ports_extra", {}).get(h, [""])[0]  # a case's port (77.3)
    if cls and suppressed(state, h):
        return ""  # [WiE-base 13.3]: inoperable
    if cls and b.places.get(hx) in FROZEN_PORTS and date(state)[1] in FROZEN_CYCLES:
        return "minor" if cls == "major" else ""
    return cls


# --- [WiE-base 13.3] Port Suppression -------------------------------------------------------------

def suppressed(state: Any, h: str) -> bool:
    return any(h in hexes for hexes in state.get("suppressed", {}).values())


def check_target(state: Any, side: str, front: str, h: str, o: dict[str, Any] | None) -> None:
    """A Port Suppression mission's port, named in the sealed commitment (68.1 A)."""
    if parse_hex(h) not in board(state).ports and h not in state.get("ports_extra", {}):
        refuse(o, f"{h} is not a port", "[WiE-base 13.3]")
    if front_of(state, h) != front:
        refuse(o, f"{h} is not on the {front} front", "[WiE-base 13.3]")
    if not hostile(state, side, holder(state, h)):
        refuse(o, f"{h} is not held by a player {side} is at war with", "[WiE-base 13.3]")


def execute_suppression(state: Any, ctx: Any) -> None:
    """68.1 A "Players execute Port Suppression Missions" after the air combat: each named port
    takes 5 of its side's surviving Port Suppression points on the front, in the order named; it
    is inoperable for the game-turn (until the next Joint Air War). Too few points: no effect."""
    for alloc in state["air"]["opened"].values():
        for side, front, mission, _points, at in alloc:
            if mission != "port" or not at:
                continue
            ok = air_left(state, side, front, "port") >= SUPPRESSION_POINTS and hostile(state, side, holder(state, at))
            if ok and at not in state.setdefault("suppressed", {}).setdefault(side, []):
                use_air(state, side, front, "port", SUPPRESSION_POINTS)
                state["suppressed"][side].append(at)
            ctx.event("port-suppressed" if ok else "port-suppression-failed", side=side, hex=at)


def new_game_turn(state: Any) -> None:
    """A suppression lasts the game-turn ([WiE-base 13.3]): it ends as the next air war begins."""
    state.pop("suppressed", None)


# --- 77.2 Soviet and Finnish lakes in winter -------------------------------------------------------
# No map here prints an all-lake hex (the lakes of maps F and G are east of the 1945 map's edge):
# ``state["lakes"]`` lists them where a board has them (a case's ``lake HEX``); all-lake hexsides
# are not modelled.
LAKE_CYCLES = (1, 2, 3)
LAKE_NATIONS = ("SOV", "FIN")


def lake(state: Any, h: str) -> bool:
    return h in state.get("lakes", ())


def frozen(state: Any) -> bool:
    return date(state)[1] in LAKE_CYCLES


def check_lake_entry(state: Any, u: dict[str, Any], h: str, o: dict[str, Any] | None) -> None:
    if not lake(state, h):
        return
    if not frozen(state):
        refuse(o, f"{h} is an all-lake hex, frozen only in the first three cycles of a year", "77.2")
    if u.get("nation") not in LAKE_NATIONS:
        refuse(o, f"only Soviet and Finnish units enter the frozen lake at {h}", "77.2")


def check_lake_attack(state: Any, attackers: list[str], o: dict[str, Any] | None) -> None:
    """77.2: no attack or bombardment from an all-lake hex."""
    for k in attackers:
        u = state["units"].get(k)
        if u is not None and lake(state, u["hex"]):
            refuse(o, f"{k} stands on the frozen lake at {u['hex']}: no attack or bombardment from it", "77.2")


# All-lake hexsides (``state["lake_sides"]``: [a, b] pairs, a case's ``lake-side HEX HEX``): crossed
# as the all-lake hexes are entered (frozen, Soviet and Finnish units only), never attacked across.
# Supply is traced across them (77.2) whether frozen or not: an unfrozen lake is the map's water.

def lake_side(state: Any, a: str, b: str) -> bool:
    return sorted((a, b)) in state.get("lake_sides", [])


def check_lake_side(state: Any, u: dict[str, Any], a: str, b: str, o: dict[str, Any] | None) -> None:
    if not lake_side(state, a, b):
        return
    if not frozen(state):
        refuse(o, f"{a}-{b} is an all-lake hexside, frozen only in the first three cycles of a year", "77.2")
    if u.get("nation") not in LAKE_NATIONS:
        refuse(o, f"only Soviet and Finnish units cross the frozen lake between {a} and {b}", "77.2")


def check_lake_side_attack(state: Any, attackers: list[str], target: str, o: dict[str, Any] | None) -> None:
    for k in attackers:
        u = state["units"].get(k)
        if u is not None and lake_side(state, u["hex"], target):
            refuse(o, f"{k} would attack across the all-lake hexside {u['hex']}-{target}", "77.2")
