"""Finland's start lines (72.1, 72.3) on an authored board (no map here draws them).

``state["politics"]["lines"]``: YEAR ("1941", "1942") -> {"line": hexes of the start line,
"area": the hexes between the Russo-Finnish border and the line}. A board without a line has no
such limit (the 1945 map sections leave Finland off).
"""

from __future__ import annotations

from typing import Any

from .diplomacy import refuse
from .state import date, neutral

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
    """72.3: from 4/2/40 the Soviet keeps the 1941 start line garrisoned: no move empties a line hex."""
    u = state["units"][uid]
    here = u["hex"]
    if (state["politics"].get("winter_war") != "yes" or u["side"] != "soviet"
            or here not in lines(state, "1941").get("line", []) or _now(state) < GARRISON_BY):
        return
    if not any(k != uid and v["hex"] == here and v["side"] == "soviet" for k, v in state["units"].items()):
        refuse(o, f"{uid} would leave {here} of the 1941 start line ungarrisoned (the Winter War's garrison, "
               "due by 4/2/40)", "72.3")


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
