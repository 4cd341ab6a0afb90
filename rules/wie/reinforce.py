"""Reinforcements and air points of the 76.25 schedule ([WiE-base 12]).

On entering a side's Movement Phase (phase 2, Reinforcement, runs just before it) the turn's
arrivals of scenario.txt's ``reinforce`` records join ``state["pool"][side]``: air points,
units, replacement and fort points. In that Movement Phase the player assigns air points to a
front (``ap FRONT N``, [WiE-base 12.2]) and places units (``place TYPE HEX``, [WiE-base 12.1]:
Axis at a Placement Center it holds (77.7), Allied at an Allied major port, Soviet on a Soviet
hex of the east map edge -- no rail reaches it on this map, so any such hex). What is not
placed stays in the pool. Replacement and fort points are kept, not yet spent (README).
"""

from __future__ import annotations

import functools
from typing import Any

from pbem.kit.hexgrid import parse_hex
from pbem.kit.records import Issues, read_records

from .data import FRONTS, load, scenario_dir
from .diplomacy import refuse
from .special import port_class, suppressed
from .state import holder, scenario_data, stats, units_at, zoc_hexes

KEYS = ("ap", "ir", "mr", "fort")


@functools.cache
def schedule(name: str) -> tuple[tuple[str, frozenset[int], dict[str, int], tuple[str, ...]], ...]:
    """(side, turns, {ap, ir, mr, fort}, unit types) per ``reinforce`` record."""
    issues = Issues()
    data = load(name)
    out = []
    for r in read_records(scenario_dir(name) / "scenario.txt", "wie-scenario", issues):
        if r.keyword != "reinforce" or not r.words:
            continue
        out.append((r.words[0], _turns(r.attrs.get("turns", ""), data.turns),
                    {k: int(r.attrs.get(k, "0")) for k in KEYS}, _units(r.attrs.get("units", ""))))
    return tuple(out)


def _turns(spec: str, last: int) -> frozenset[int]:
    if spec == "odd":
        return frozenset(range(1, last + 1, 2))
    if spec == "even":
        return frozenset(range(2, last + 1, 2))
    out: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            out |= set(range(int(lo), int(hi or lo) + 1))
    return frozenset(out)


def _units(spec: str) -> tuple[str, ...]:
    out: list[str] = []
    for part in filter(None, spec.split(",")):
        n, _, utype = part.partition("*")
        out += [utype] * int(n)
    return tuple(out)


def arrive(state: Any, side: str) -> None:
    """Phase 2: this game-turn's arrivals join the side's pool."""
    pool = state["pool"].setdefault(side, {"units": [], **{k: 0 for k in KEYS}})
    for s, turns, points, units in schedule(str(state["scenario"])):
        if s == side and int(state["turn"]) in turns:
            for k in KEYS:
                pool[k] += points[k]
            pool["units"] += list(units)
    from .campaign import soviet_rebuilt

    soviet_rebuilt(state, side)  # 76.25's "rebuilt" units, [WiE-base 12.3]
    if side == "axis":
        from .transport import norway_garrison

        pool["units"] += norway_garrison(state)  # 76.51


def places(state: Any, side: str) -> set[str]:
    b = scenario_data(state).board
    if side == "axis":
        cands = {str(h) for h in b.wehrkreise}
    elif side == "allied":
        cands = {str(h) for h, p in b.ports.items() if port_class(state, str(h)) == "major"}  # 77.41
    else:
        cands = {str(h) for h in b.terrain if b.land(h) and ((h.col == 84 and h.row <= 33)
                                                             or (h.col == 60 and h.row >= 34))}
    return {h for h in cands if holder(state, h) == side}


def open_places(state: Any, side: str) -> list[str]:
    """The arrival hexes check_place accepts now for any unit of the pool (one ZOC sweep)."""
    zoc = zoc_hexes(state, side)
    def room(h: str) -> bool:
        here = units_at(state, h)
        return (all(state["units"][k]["side"] == side for k in here)
                and sum(1 for k in here if stats(state["units"][k]["type"])["kind"] not in ("sup", "rr")) < 4)

    return sorted(h for h in places(state, side) if h not in zoc and room(h) and not suppressed(state, h))


def check_place(state: Any, side: str, o: dict[str, Any]) -> None:
    pool = state["pool"].get(side, {"units": []})
    if o["type"] not in pool["units"]:
        refuse(o, f"no {o['type']} waits in the {side} reinforcement pool", "[WiE-base 12.1]")
    if suppressed(state, o["hex"]):
        refuse(o, f"{o['hex']} is suppressed by enemy air: inoperable this game-turn", "[WiE-base 13.3]")
    if side == "allied" and scenario_data(state).board.ports.get(parse_hex(o["hex"])) == "major" \
            and port_class(state, o["hex"]) != "major":
        refuse(o, f"{o['hex']} is a Baltic port frozen in this cycle: it works as a minor port", "77.41")
    if o["hex"] not in places(state, side):
        refuse(o, f"{o['hex']} is not a {side} arrival hex", "[WiE-base 12.1]")
    if o["hex"] in zoc_hexes(state, side) or any(state["units"][k]["side"] != side for k in units_at(state, o["hex"])):
        refuse(o, f"{o['hex']} is in an enemy zone of control or holds another player's units", "[WiE-base 12.1]")
    if sum(1 for k in units_at(state, o["hex"]) if stats(state["units"][k]["type"])["kind"] not in ("sup", "rr")) >= 4:
        refuse(o, f"{o['hex']} would hold more than four units", "[WiE-base 7.1]")


def apply_place(state: Any, side: str, o: dict[str, Any], ctx: Any) -> None:
    pool = state["pool"][side]
    pool["units"].remove(o["type"])
    n = 1 + sum(1 for k in state["units"] if k.startswith(f"{side.upper()}-R"))
    uid = f"{side.upper()}-R{n:02d}"
    nation = {"axis": "GER", "allied": "US", "soviet": "SOV"}[side]
    state["units"][uid] = {"side": side, "nation": nation, "type": o["type"], "hex": o["hex"]}
    state["moved"].append(uid)  # it arrives; it does not move too
    ctx.event("reinforcement", side=side, unit=uid, type=o["type"], hex=o["hex"])


def check_ap(state: Any, side: str, o: dict[str, Any]) -> None:
    have = int(state["pool"].get(side, {}).get("ap", 0))
    if o["front"] not in FRONTS or o["points"] > have:
        refuse(o, f"{side} has {have} arriving air points to assign", "[WiE-base 12.2]")


def apply_ap(state: Any, side: str, o: dict[str, Any], ctx: Any) -> None:
    state["pool"][side]["ap"] -= o["points"]
    state["air_points"][side][o["front"]] += o["points"]
    ctx.event("air-points", side=side, front=o["front"], points=o["points"])
