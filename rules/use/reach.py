"""What one unit may do, looked ahead for the legal-actions query (legal.py): where a ground unit
can move this activation, and the DRMs an attack would meet.

Both read the state and change nothing. The search follows move_ground's step rules (MP paid
before entering, EZOC to EZOC, enemy and stacked-in-EZOC hexes, 4.2.3.1-2) with its own
helpers; what only the walk itself can tell (a city taken on the way changing a later step's
Transport Line benefit) is left to the real check, so a listed path may still be refused.
"""

from __future__ import annotations

import heapq
from typing import cast

from . import politics
from .activation import activation_after
from .combat import _drm_parts
from .geo import Board
from .movement import stack_conflict, step_cost
from .sideweather import weather_for
from .state import Combat, State, Unit, enemies, faction_of, hex_of, is_ground, units_at
from .zoc import ezoc_sources, units_by_hex


def _end_ok(s: State, b: Board, unit: Unit, h: str) -> bool:
    return stack_conflict(s, unit, h) is None and politics.end_ban(s, b, unit, h) is None


def ground_paths(s: State, b: Board, unit: Unit) -> list[tuple[str, ...]]:
    """One path (hex by hex, from the unit's next hex) to every hex ``unit`` may end a move in.

    A bounded search over (hex, whether the unit has moved yet) keeping the most MP left; the
    path found first for a hex is listed, the destinations sorted.
    """
    act = s["activation"]
    mine = act is not None and act["unit"] == unit["id"]
    mp, stopped = activation_after(s, unit)
    if stopped or unit["box"] is not None:
        return []
    faction = faction_of(s, unit)
    assert faction is not None
    no_ezoc = act["no_ezoc"] if mine and act is not None else []
    by_hex = units_by_hex(s)
    zoc: dict[str, set[str]] = {}

    def src(h: str) -> set[str]:
        if h not in zoc:
            zoc[h] = ezoc_sources(s, b, h, faction, no_ezoc, by_hex=by_hex)
        return zoc[h]

    start = hex_of(unit)
    fresh0 = bool(act["fresh"]) if mine and act is not None else True
    best: dict[tuple[str, bool], int] = {(start, fresh0): mp}
    parent: dict[str, str] = {}
    queue: list[tuple[int, str, bool]] = [(-mp, start, fresh0)]
    while queue:
        neg, a, fresh = heapq.heappop(queue)
        left = -neg
        if best.get((a, fresh), -1) > left or (src(a) and not fresh):
            continue
        for h in b.neighbours(a):
            if not b.on_map(h) or h in b.land_boxes or h == start or src(a) & src(h):
                continue
            there = [u for u in by_hex.get(h, ()) if is_ground(u)]
            if any(enemies(faction_of(s, u), faction) for u in there) or (there and src(h)):
                continue
            cost = step_cost(s, b, a, h, faction)
            if cost is None or cost > left or best.get((h, False), -1) >= left - cost:
                continue
            if politics.entry_ban(s, b, unit, h, "move", True):
                continue
            best[(h, False)] = left - cost
            parent[h] = a  # the best way in so far: Dijkstra keeps the last improvement
            heapq.heappush(queue, (cost - left, h, False))
    out = []
    for h in sorted(parent):
        if not _end_ok(s, b, unit, h):
            continue
        path = [h]
        while parent[path[-1]] != start:
            path.append(parent[path[-1]])
        out.append(tuple(reversed(path)))
    return out


def _signed(parts: dict[str, int]) -> str:
    return ", ".join(f"{v:+d} {k}" for k, v in parts.items()) or "none"


def drm_note(s: State, b: Board, attackers: list[Unit], target: str, kind: str) -> str:
    """The DRMs a ground attack on ``target`` meets before Will Commit and air support (5.1 step 4)."""
    dfn = next((u for u in units_at(s, target) if is_ground(u)), None)
    if dfn is None or not attackers:
        return ""
    att_f, def_f = faction_of(s, attackers[0]), faction_of(s, dfn)
    w = {"att": weather_for(s, b, target, att_f), "def": weather_for(s, b, target, def_f)}  # USE 15.23
    probe = cast(Combat, {"target": target, "kind": kind})  # _drm_parts reads the target only
    a_parts, d_parts, _iso = _drm_parts(s, b, probe, attackers, dfn, w, {"att": 0, "def": 0}, False, False)
    prim = attackers[0]
    halved = [side for side, yes in (("attacker", dfn["fort"] or prim["supply"] == "no" or w["att"] == "severe"),
                                      ("defender", dfn["supply"] == "no" or w["def"] == "severe")) if yes]
    note = f"vs {dfn['id']}: DRM attacker {_signed(a_parts)}; defender {_signed(d_parts)}"
    if halved:
        note += f"; {' and '.join(halved)} halved"
    return note + " (before Will Commit and air support)"
