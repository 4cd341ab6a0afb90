"""Finland's start lines (72.1, 72.3) on an authored board (no map here draws them).

``state["politics"]["lines"]``: YEAR ("1941", "1942") -> {"line": hexes of the start line,
"area": the hexes between the Russo-Finnish border and the line}. A board without a line has no
such limit (the 1945 map sections leave Finland off).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from .diplomacy import refuse
from .state import board, date, neutral, stats

GARRISON_BY = (1940, 2, 4)  # 72.3: "until 4/2/40" (year, cycle, game-turn)


def lines(state: Any, year: str) -> dict[str, list[str]]:
    return dict(state["politics"].get("lines", {}).get(year, {}))


def occupy(state: Any, ctx: Any) -> None:
    """72.3: the Winter War makes the area up to the 1941 start line Soviet territory at once."""
    ln = lines(state, "1941")
    hexes = sorted({*ln.get("area", []), *ln.get("line", [])})
    for h in hexes:
        state["held"][h] = "soviet"
    if hexes and ctx is not None:
        ctx.event("winter-war-territory", hexes=hexes)


def _now(state: Any) -> tuple[int, int, int]:
    gt, cy, yr = date(state)
    return (yr + 1900 if yr < 100 else yr), cy, gt


def check_garrison(state: Any, uid: str, o: dict[str, Any] | None) -> None:
    """72.3, 74.24: from 4/2/40 the Soviet keeps the 1941 start line garrisoned "with units or zones
    of control" (74.24, the higher number, controls 72.3's "with units"): no move leaves a line hex
    that was covered uncovered."""
    u = state["units"][uid]
    line = lines(state, "1941").get("line", [])
    if (state["politics"].get("winter_war") != "yes" or u["side"] != "soviet" or not line
            or _now(state) < GARRISON_BY or o is None or not o.get("path")):
        return
    before = _covered(state, {})
    after = _covered(state, {uid: o["path"][-1]})
    gap = sorted(h for h in line if h in before and h not in after)
    if gap:
        refuse(o, f"{uid} would leave {', '.join(gap)} of the 1941 start line without a Soviet unit or zone of "
               "control (the Winter War's garrison, due by 4/2/40)", "74.24")


def _covered(state: Any, moved: dict[str, str]) -> set[str]:
    """The hexes Soviet units stand in or exert a zone of control into ([WiE-base 6.1]), with the
    units of ``moved`` at their new hexes."""
    b = board(state)
    out: set[str] = set()
    for k, v in state["units"].items():
        h = moved.get(k, v["hex"])
        if v["side"] != "soviet" or not h:
            continue
        out.add(h)
        st = stats(v["type"])
        if st["att"] <= 0 or st["kind"] in ("fortress", "artillery", "sup", "rr"):
            continue
        x = parse_hex(h)
        out |= {str(n) for n in GRID.neighbours(x) if b.land(n) and GRID.hexside(x, n) not in b.water}
    return out


def check_finnish_attack(state: Any, attackers: list[str], target: str, o: dict[str, Any] | None) -> None:
    """72.1: a Finland that joined the Axis because of the Winter War attacks only Soviet units
    within the area of the 1942 start line."""
    p = state["politics"]
    ln = lines(state, "1942")
    if p.get("winter_war") != "yes" or neutral(state, "FIN")["status"] != "axis" or not ln:
        return
    if not any(state["units"].get(k, {}).get("nation") == "FIN" for k in attackers):
        return
    inside = {*ln.get("area", []), *ln.get("line", [])}
    foes = {v["side"] for v in state["units"].values() if v["hex"] == target}
    if target not in inside or foes != {"soviet"}:
        refuse(o, f"Finnish units (Axis by the Winter War) attack only Soviet units within the 1942 start line; "
               f"{target} is {'outside it' if target not in inside else 'not held by Soviet units only'}", "72.1")
