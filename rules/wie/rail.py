"""Rail movement and repair ([WiE-base 8], 69.2).

A rail hex belongs to one player at a time (69.2): here the player holding it, once he has
repaired it. A rail hex taken from another player goes on ``state["cut"]`` until its taker's
Rail Repair Phase converts it ([WiE-base 8.3]: the Axis any number, the Allied player 4 a
player-turn (76.26), the Soviet 2 for each RR unit on the map; lowest-numbered first, an
interpretation). An associate's rail is never usable (69.2): it is held by him.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from pbem.kit.hexgrid import parse_hex

from .data import Board, load
from .diplomacy import refuse
from .europe import check_swedish_step, rail_hexes, swedish_rail
from .state import adjacent, board, hostile, neighbours, scenario_data, stats, zoc_hexes


@functools.cache
def rail_edges(name: str) -> frozenset[tuple[str, str]]:
    """Pairs of hexes joined by a rail line (either order)."""
    b: Board = load(name).board
    out: set[tuple[str, str]] = set()
    for _name, hexes in b.rail_lines:
        for a, c in itertools.pairwise(hexes):
            out |= {(str(a), str(c)), (str(c), str(a))}
    return frozenset(out)


def friendly_rail(state: Any, h: str, side: str) -> bool:
    from .state import holder

    if swedish_rail(state, h, side):
        return True  # 73.4
    return ((parse_hex(h) in board(state).rail or h in rail_hexes(state)) and holder(state, h) == side
            and h not in state["cut"])


def extra_edge(state: Any, a: str, b: str) -> bool:
    """A rail line of the state's board (a case's ``rail HEX HEX...``: no map here prints Sweden's)."""
    return any(abs(line.index(a) - line.index(b)) == 1 for line in state.get("rail_extra", [])
               if a in line and b in line)


def interdicted(state: Any, h: str, side: str) -> bool:
    near = {h, *neighbours(h)}
    return any(hostile(state, side, other) and near & set(hexes) for other, hexes in state["interdiction"].items())


def check_rail(state: Any, o: dict[str, Any]) -> None:
    from .ground import own_unit, stack_count

    u = own_unit(state, o["unit"], o)
    me = u["side"]
    cap = int(scenario_data(state).tables["rail"]["capacity"][me])
    if o["unit"] in state["moved"]:
        refuse(o, f"{o['unit']} has already moved this phase", "[WiE-base 8.1]")
    if int(state["rail_used"]) >= cap:
        refuse(o, f"{me} may move {cap} units by rail a player-turn", "[WiE-base 8.1]")
    zoc = zoc_hexes(state, me)
    edges = rail_edges(str(state["scenario"]))
    here = u["hex"]
    if not friendly_rail(state, here, me) or here in zoc:
        refuse(o, f"{o['unit']} must begin on a friendly rail hex not in an enemy zone of control", "[WiE-base 8.1]")
    for i, step in enumerate(o["path"]):
        check_swedish_step(state, me, step, i == len(o["path"]) - 1, o)  # 73.4
        if not adjacent(here, step) or ((here, step) not in edges and not extra_edge(state, here, step)):
            refuse(o, f"no rail line joins {here} and {step}", "[WiE-base 8.1]")
        if not friendly_rail(state, step, me):
            refuse(o, f"{step} is not {me} rail (held by another player, or not yet repaired)", "69.2")
        if step in zoc:
            refuse(o, f"rail movement may not enter an enemy zone of control ({step})", "[WiE-base 8.1]")
        if interdicted(state, step, me):
            refuse(o, f"{step} is under an enemy Air Interdiction marker's effect", "[WiE-base 13.3]")
        here = step
    if stats(u["type"])["kind"] not in ("sup", "rr") and stack_count(state, here, me) >= 4:
        refuse(o, f"{here} would hold more than four {me} units", "[WiE-base 7.1]")


def apply_rail(state: Any, o: dict[str, Any], ctx: Any) -> None:
    u = state["units"][o["unit"]]
    frm, u["hex"] = u["hex"], o["path"][-1]
    state["moved"].append(o["unit"])
    state["rail_used"] = int(state["rail_used"]) + 1
    ctx.event("rail", unit=o["unit"], frm=frm, to=u["hex"])


SAME_GAUGE = 5  # 74.56: the "same gauge" rate, hexes a player-turn
GAUGE_COUNTRIES = ("POL", "LIT", "LAT", "EST")  # 74.56: Poland and the Baltic States


def _same_gauge(state: Any, h: str) -> bool:
    """74.56: Polish and Baltic rail at the same-gauge rate on the Soviet's initial occupation,
    read as while he has never been at war with the Axis (74.51-74.52's peaceful entry; a later
    return is no initial occupation)."""
    from .state import country, status

    p = state["politics"]
    return (country(state, h) in GAUGE_COUNTRIES and status(state, "axis", "soviet") == "peace"
            and not p.get("war_turn"))


def repair(state: Any, side: str) -> list[str]:
    """The Rail Repair Phase ([WiE-base 8.3]): the rail hexes ``side`` converts now."""
    from .state import holder

    mine = sorted(h for h in state["cut"] if holder(state, h) == side)
    if side == "allied":
        mine = mine[:int(scenario_data(state).tables["availability"]["allied"].get("rail_repair", 4))]
    elif side == "soviet":
        rr = sum(1 for x in state["units"].values() if x["side"] == "soviet" and x["hex"] and x["type"] == "RR")
        gauge = [h for h in mine if _same_gauge(state, h)]
        rest = [h for h in mine if h not in gauge[:SAME_GAUGE]]
        mine = gauge[:SAME_GAUGE] + rest[:rr * int(scenario_data(state).tables["rail"]["repair_per_rr_unit"])]
    state["cut"] = [h for h in state["cut"] if h not in mine]
    return mine
