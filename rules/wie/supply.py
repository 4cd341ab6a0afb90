"""Supply ([WiE-base 11]) with association's effects (69.2, 69.0 Example 2).

A unit is in supply if a line of at most 5 hexes reaches a source, a friendly SUP unit, or a
friendly rail hex joined along friendly rail to a source. The line may not enter a hex held by
an enemy, an enemy zone of control unless a friendly unit is there (an associate's unit does
not negate it, 69.2), or cross a water hexside; it may pass an associate's units and hexes but
his rail and ports serve only him (69.2: they are held by him). Sources ([WiE-base 11.1]): the
Axis's manufacturing centers and its ports on the sections of tables.toml ``[supply]
axis_port_sections`` (map G: the Baltic), the Allied major ports, the Soviet map edge (column 84
of map G, the east edge of map D), each held by its player, and SUP units. The nations of
``always_supplied_nations`` (the Yugoslav partisans, [WiE-base 11.5]) never lack supply; the
``fortress_hexes`` (Atlantic fortresses a hex off their ports) count as ports for 11.4.

``state["oos"]``: unit -> Initial Supply Phases in a row out of supply (0: out of supply since
an association broke or a war began, 69.0 Example 2, counted from the next phase).
"""

from __future__ import annotations

import functools
from typing import Any

from pbem.kit.hexgrid import Hex, parse_hex

from .bombing import hit
from .campaign import fort_at
from .data import SIDES, load
from .rail import extra_edge, friendly_rail, rail_edges
from .state import board, holder, hostile, is_land, neighbours, occupant, stats, water_between, zoc_hexes

TRACE = 5
ELIMINATED_AFTER = 3


def _table(name: str) -> dict[str, Any]:
    t: dict[str, Any] = load(name).tables.get("supply", {})
    return t


@functools.cache
def _sources(name: str) -> dict[str, tuple[str, ...]]:
    b = load(name).board
    edge = [h for h in b.terrain if b.land(h) and ((h.col == 84 and h.row <= 33) or (h.col == 60 and h.row >= 34))]
    sea = set(_table(name).get("axis_port_sections", []))
    axis_ports = {h for h in b.ports if b.section.get(h) in sea}
    return {"axis": tuple(sorted(str(h) for h in b.mfg | axis_ports)),
            "allied": tuple(sorted(str(h) for h, p in b.ports.items() if p == "major")),
            "soviet": tuple(sorted(str(h) for h in edge))}


def sources(state: Any, side: str) -> set[str]:
    from .special import port_class, suppressed

    out = {h for h in _sources(str(state["scenario"]))[side] if holder(state, h) == side
           and (side != "allied" or port_class(state, h) == "major")  # 77.41: a frozen major port is minor
           and not suppressed(state, h)  # [WiE-base 13.3]: an inoperable port supplies nobody
           and not (side == "axis" and hit(state, h) and parse_hex(h) in board(state).mfg)}  # [WiE-base 24.6]
    return out | {u["hex"] for u in state["units"].values() if u["side"] == side and u["hex"] and u["type"] == "SUP"}


def _supplied_rail(state: Any, side: str, srcs: set[str]) -> set[str]:
    edges = rail_edges(str(state["scenario"]))
    seen = {h for h in srcs if friendly_rail(state, h, side)}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in neighbours(h):
            if n not in seen and ((h, n) in edges or extra_edge(state, h, n)) and friendly_rail(state, n, side):
                seen.add(n)
                todo.append(n)
    return seen


def supplied_hexes(state: Any, side: str) -> set[str]:
    """Every hex from which a unit of ``side`` traces supply now."""
    srcs = sources(state, side)
    goals = srcs | _supplied_rail(state, side, srcs)
    zoc = zoc_hexes(state, side)
    # Walk back from the goals: a unit in ``n`` is supplied if its line may enter ``h``, a hex
    # at most 4 hexes from a goal along hexes the line may enter.
    out = set(goals)
    frontier = {h for h in goals if _passable(state, side, h, zoc)}
    for _ in range(TRACE):
        nxt: set[str] = set()
        for h in frontier:
            for n in neighbours(h):
                if n not in out and is_land(state, n) and not water_between(state, h, n):
                    nxt.add(n)
        out |= nxt
        frontier = {n for n in nxt if _passable(state, side, n, zoc)}
    return out


def _passable(state: Any, side: str, h: str, zoc: set[str]) -> bool:
    """May a supply line of ``side`` enter ``h``?"""
    held = holder(state, h)
    if held not in SIDES or (held != side and hostile(state, side, held)):
        return False  # a neutral's or an enemy's hex
    return not (h in zoc and occupant(state, h) != side)


def _hex(h: str) -> Hex:
    return parse_hex(h)


def unsupplied(state: Any, side: str) -> list[str]:
    # 77.1: after the collapse every Axis unit is permanently unsupplied
    ok = set() if side == "axis" and state.get("collapse") else supplied_hexes(state, side)
    free = set(_table(str(state["scenario"])).get("always_supplied_nations", []))
    return sorted(k for k, u in state["units"].items()
                  if u["side"] == side and u["hex"] and u["hex"] not in ok and u.get("nation") not in free)


def initial_supply_phase(state: Any, side: str) -> list[str]:
    """[WiE-base 11.4]: count the phasing player's units out of supply; after three Initial Supply
    Phases in a row a unit is eliminated, except fortress units and units in a port or a fort."""
    b = board(state)
    fortress_hexes = set(_table(str(state["scenario"])).get("fortress_hexes", []))
    out = set(unsupplied(state, side))
    lost = []
    for k, u in state["units"].items():
        if u["side"] != side or not u["hex"]:
            continue
        if k not in out:
            state["oos"].pop(k, None)
            continue
        state["oos"][k] = int(state["oos"].get(k, 0)) + 1
        h = _hex(u["hex"])
        safe = (stats(u["type"])["kind"] == "fortress" or h in b.ports or h in b.forts or h in b.westwall
                or fort_at(state, u["hex"])
                or u["hex"] in fortress_hexes)
        if state["oos"][k] >= ELIMINATED_AFTER and not safe:
            u["hex"] = ""
            state["oos"].pop(k)
            lost.append(k)
    return sorted(lost)


def refresh(state: Any, sides: list[str]) -> None:
    """69.0 Example 2: a broken association or a new war changes supply at once."""
    for side in sides:
        out = set(unsupplied(state, side))
        for k, u in state["units"].items():
            if u["side"] != side:
                continue
            if k in out:
                state["oos"].setdefault(k, 0)
            elif state["oos"].get(k) == 0:
                state["oos"].pop(k)


def is_unsupplied(state: Any, uid: str) -> bool:
    return uid in state["oos"]
