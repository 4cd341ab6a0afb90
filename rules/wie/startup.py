"""The Starting Sequence of the 1945 scenario (76.3), an option of the game (``starting_sequence``).

Without it the game starts from units.txt's placement (the printed hexes and an authored default
for the units 76.3 leaves to their players). With it, three steps come before game-turn 1:

* ``setup-1`` (step 1, Allied): the five Mobile Supply units of 76.26 (``place SUP HEX``) on
  Allied-held land not in an enemy ZOC; the rail of step 1 is repaired already (scenario.txt);
* ``setup-4`` (step 4, Axis): ``deploy UNIT HEX`` for any unit of the army groups, the Central
  Reserve and the Independent unit, inside its area (features.txt ``area``); the Central Reserve
  one unit a Placement Center; at the end of the file every front hex (an Axis-held hex next to
  a Soviet-held one, not an isolated pocket) must be occupied by or in the ZOC of an Axis
  infantry unit of these formations;
* ``setup-5`` (step 5, Soviet): ``deploy UNIT HEX`` for the Soviet, Bulgarian, Rumanian and
  Yugoslav units inside their areas (east of the 1945 Start Line; partisans and cadres in
  Yugoslavia east and west of it).

Steps 2 and 3 place units on printed hexes only: nothing to choose, no file. Step 6 is the first
game-turn (its Joint Tactical Air War comes first, 68.1).
"""

from __future__ import annotations

import functools
from typing import Any

from pbem.kit.hexgrid import parse_hex

from .data import load
from .diplomacy import refuse
from .state import (
    STEPS,
    board,
    country,
    holder,
    is_land,
    neighbours,
    stats,
    units_at,
    water_between,
    zoc_hexes,
)

AXIS_AREAS = ("ag-a", "ag-north", "ag-center", "ag-south", "ag-f", "central-reserve", "independent")
SUPPLY_UNITS = 5  # 76.26 "Mobile Supply: 5 as desired"


def start(state: Any) -> None:
    """Enter step 1: the Allied supply units wait in his pool."""
    state["setup"] = True
    state["phase"] = "setup-1"
    pool = state["pool"].setdefault("allied", {"units": [], "ap": 0, "ir": 0, "mr": 0, "fort": 0})
    pool["units"] += ["SUP"] * SUPPLY_UNITS
    cut_soviet_rail(state)


# --- 76.2: the Soviet rail repair at step 5 -----------------------------------------------------------
# scenario.txt ``soviet-rail``: 100 rail hexes on the Soviet side of the 1945 Start Line outside the
# USSR of 1941 (the 1944 line is not drawn), in segments of at most 20 hexes, chosen at step 5.

SOVIET_REPAIR, SEGMENT = 100, 20  # 76.2 (scenario.txt soviet-rail)


def cut_soviet_rail(state: Any) -> None:
    """With the Starting Sequence the Soviet-held rail outside the USSR of 1941 waits for step 5."""
    b = board(state)
    out = sorted(str(h) for h in b.rail if holder(state, str(h)) == "soviet" and country(state, str(h)) != "SOV")
    state["cut"] = sorted({*state["cut"], *out})
    state["setup_repaired"] = []


def check_repair(state: Any, o: dict[str, Any]) -> None:
    from .rail import extra_edge, rail_edges

    most, seg = SOVIET_REPAIR, SEGMENT
    path, done = o["path"], state.get("setup_repaired", [])
    edges = rail_edges(str(state["scenario"]))
    if state["phase"] != "setup-5":
        refuse(o, "the Soviet repairs his rail west of the Start Line at step 5", "76.2")
    for i, h in enumerate(path):
        if h not in state["cut"] or holder(state, h) != "soviet":
            refuse(o, f"{h} is no unrepaired Soviet rail hex", "76.2")
        if i and (path[i - 1], h) not in edges and not extra_edge(state, path[i - 1], h):
            refuse(o, f"no rail line joins {path[i - 1]} and {h}: a segment follows the rail", "76.2")
    if len(set(done) | set(path)) > most:
        refuse(o, f"the Soviet repairs {most} rail hexes in all ({len(done)} so far)", "76.2")
    grown = _segment(state, set(done) | set(path), path[0], edges)
    if len(grown) > seg:
        refuse(o, f"no repaired segment may extend more than {seg} hexes (this one: {len(grown)})", "76.2")


def _segment(state: Any, hexes: set[str], start: str, edges: Any) -> set[str]:
    from .rail import extra_edge

    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in neighbours(h):
            if n in hexes and n not in seen and ((h, n) in edges or extra_edge(state, h, n)):
                seen.add(n)
                todo.append(n)
    return seen


def apply_repair(state: Any, o: dict[str, Any], ctx: Any) -> None:
    state["setup_repaired"] = sorted({*state.get("setup_repaired", []), *o["path"]})
    state["cut"] = [h for h in state["cut"] if h not in o["path"]]
    ctx.event("rail-repaired", side="soviet", hexes=list(o["path"]))


def area_of(state: Any, uid: str) -> str:
    return _areas(str(state["scenario"])).get(uid, "")


@functools.cache
def _areas(name: str) -> dict[str, str]:
    return {u.uid: u.area for u in load(name).units}


def check_supply_unit(state: Any, o: dict[str, Any]) -> None:
    if o["type"] != "SUP" or "SUP" not in state["pool"].get("allied", {}).get("units", []):
        refuse(o, "step 1 places the Allied supply units (SUP) of 76.26, five in all", "76.3")
    if holder(state, o["hex"]) != "allied" or o["hex"] in zoc_hexes(state, "allied"):
        refuse(o, f"{o['hex']} is not Allied-held land out of enemy zones of control", "76.3")


def check_deploy(state: Any, o: dict[str, Any]) -> None:
    me = STEPS.get(str(state["phase"]))
    u = state["units"].get(o["unit"])
    if me is None or u is None or u["side"] != me:
        refuse(o, f"{o['unit']} is not a unit {me or 'anyone'} places in this step", "76.3")
    area = area_of(state, o["unit"])
    if (me == "axis" and area not in AXIS_AREAS) or (me == "soviet" and not area):
        refuse(o, f"{o['unit']} is placed on its printed hex (76.21, 76.2), not in step "
               f"{str(state['phase'])[-1]}", "76.3")
    if parse_hex(o["hex"]) not in board(state).areas.get(area, frozenset()):
        refuse(o, f"{o['hex']} lies outside {area}, the area of {o['unit']}", "76.3")
    if any(state["units"][k]["side"] != me for k in units_at(state, o["hex"])):
        refuse(o, f"{o['hex']} holds another player's units", "[WiE-base 7.1]")
    here = [k for k in units_at(state, o["hex"]) if k != o["unit"]]
    if area == "central-reserve" and any(area_of(state, k) == area for k in here):
        refuse(o, "the Central Reserve places no more than one unit a Placement Center", "76.3")
    big = [k for k in here if stats(state["units"][k]["type"])["kind"] not in ("sup", "rr")]
    if stats(u["type"])["kind"] not in ("sup", "rr") and len(big) >= 4:
        refuse(o, f"{o['hex']} would hold more than four units", "[WiE-base 7.1]")


def apply_deploy(state: Any, o: dict[str, Any], ctx: Any) -> None:
    state["units"][o["unit"]]["hex"] = o["hex"]
    ctx.event("deployed", unit=o["unit"], hex=o["hex"])


def front_hexes(state: Any) -> set[str]:
    """The Axis side of the Eastern 1945 Start Line: Axis-held land next to Soviet-held land
    (not across water), leaving out a lone Axis hex with no Axis neighbour (a pocket is no line)."""
    b = board(state)
    out = set()
    for h, held in b.held.items():
        hs = str(h)
        if held != "axis" or not b.land(h) or holder(state, hs) != "axis":
            continue
        near = [n for n in neighbours(hs) if is_land(state, n) and not water_between(state, hs, n)]
        if any(holder(state, n) == "soviet" for n in near) and any(holder(state, n) == "axis" for n in near):
            out.add(hs)
    return out


def uncovered(state: Any) -> list[str]:
    covered: set[str] = set()
    for k, u in state["units"].items():
        st = stats(u["type"])
        if u["side"] != "axis" or not u["hex"] or st["kind"] != "infantry" or st["att"] <= 0:
            continue
        if area_of(state, k) not in AXIS_AREAS:
            continue
        covered.add(u["hex"])
        covered |= {n for n in neighbours(u["hex"]) if is_land(state, n) and not water_between(state, u["hex"], n)}
    return sorted(front_hexes(state) - covered)


def finish_step(state: Any, o: dict[str, Any] | None) -> None:
    """The end of a step's file: step 4's coverage rule."""
    if state["phase"] == "setup-4":
        gap = uncovered(state)
        if gap:
            refuse(o, f"front hexes neither occupied by nor in the ZOC of Axis infantry of the army groups: "
                   f"{', '.join(gap[:8])}{' ...' if len(gap) > 8 else ''}", "76.3")
