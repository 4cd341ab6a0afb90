"""Rumania and Hungary (73.2, 73.3): where their units may go (73.23, 73.33), their mobilization
(73.24, 73.34) and their conditional reinforcements (73.27, 73.36).

The restrictions hold for their Axis units wherever they are (the 1945 scenario's Hungarians
included; its Rumanians fight for the Soviet Union, to whom 73.23 does not speak). Mobilization
and the reinforcements replace War in the East's track, which a scenario's own schedule (76.25)
already replaces: like Soviet production they run only where ``state["politics"]["minors"]``
exists (a campaign, or a rules case's ``minors on``): NATION -> {"mobilized": the absolute cycle
of mobilization (0: not yet), "pool": the unit types waiting}.

Read as an experienced player would (README, Interpretations): "the cycle after Limited or Total
War with USSR" is the cycle that follows the first Strategic Cycle at which the Axis player is at
war with the Soviet Union; the units join the nation's pool then and the Axis player places them
with ``place TYPE HEX`` on or next to the capital in his Movement Phases; 73.27's "every 6th and
12th cycle" are the year's cycles 6 and 12, as "every even numbered cycle" before it.
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import parse_hex

from .diplomacy import refuse
from .state import HOSTILE, board, country, date, holder, neighbours, stats, status, units_at

NATIONS: dict[str, dict[str, Any]] = {
    "RUM": {"capital": "Bucharest", "allowed": ("HUN", "GER", "POL", "SOV"), "rules": ("73.23", "73.24"),
            "mobilize": ["2-4"] * 8 + ["1-3"] * 3 + ["1-6"] * 3},
    "HUN": {"capital": "Budapest", "allowed": ("GER", "RUM", "POL", "YUG", "SOV"), "rules": ("73.33", "73.34"),
            "mobilize": ["1-10", "1-3", "1-6", "1-6"]},
}


def new() -> dict[str, Any]:
    return {c: {"mobilized": 0, "pool": []} for c in NATIONS}


def check_step(state: Any, u: dict[str, Any], step: str, o: dict[str, Any] | None) -> None:
    """73.23, 73.33: an Axis Rumanian or Hungarian unit enters no nation but the listed ones."""
    spec = NATIONS.get(u.get("nation", ""))
    if spec is None or u["side"] != "axis":
        return
    c = country(state, step)
    if c not in ("-", u["nation"], *spec["allowed"]):
        refuse(o, f"{u['nation']} units may not enter {c} ({step}): only {', '.join(spec['allowed'])}",
               spec["rules"][0])


def _abs(d: tuple[int, int, int]) -> int:
    return d[2] * 13 + d[1]


def cycle(state: Any) -> None:
    """The Strategic Cycle (housekeeping of game-turn 4): mobilization, then this cycle's arrivals
    (73.27: RUM 2-4 and 1-3 on even cycles, 1-6 on cycles 6 and 12; 73.36: HUN 2 x 2-4 and 1-6
    every third cycle after mobilization)."""
    rec = state["politics"].get("minors")
    if rec is None:
        return
    nxt = date(state, int(state["turn"]) + 1)  # the cycle about to begin
    at_war = status(state, "axis", "soviet") in HOSTILE
    for c, r in sorted(rec.items()):
        if not r["mobilized"]:
            if at_war:
                r["mobilized"] = _abs(nxt)
                r["pool"] += NATIONS[c]["mobilize"]
            continue
        since = _abs(nxt) - int(r["mobilized"])
        if since <= 0:
            continue
        if c == "RUM":
            r["pool"] += (["2-4", "1-3"] if nxt[1] % 2 == 0 else []) + (["1-6"] if nxt[1] in (6, 12) else [])
        elif since % 3 == 0:
            r["pool"] += ["2-4", "2-4", "1-6"]


def capital(state: Any, c: str) -> str:
    return next((str(h) for h, name in board(state).places.items() if name == NATIONS[c]["capital"]), "")


def claims(state: Any, side: str, o: dict[str, Any]) -> str:
    """The nation whose pool this Axis ``place`` draws on ("": the Axis pool, [WiE-base 12.1])."""
    rec = state["politics"].get("minors")
    if side != "axis" or rec is None:
        return ""
    for c, r in sorted(rec.items()):
        cap = capital(state, c)
        if o["type"] in r["pool"] and cap and (o["hex"] == cap or o["hex"] in neighbours(cap)):
            return str(c)
    if o["type"] not in state["pool"].get("axis", {}).get("units", []):
        c = next((c for c, r in sorted(rec.items()) if o["type"] in r["pool"]), "")
        if c:
            refuse(o, f"the {c} mobilization and reinforcements are placed on or next to "
                   f"{NATIONS[c]['capital']} ({capital(state, c) or 'off this map'})", NATIONS[c]["rules"][1])
    return ""


def check_place(state: Any, c: str, o: dict[str, Any]) -> None:
    h = o["hex"]
    here = units_at(state, h)
    if holder(state, h) not in ("axis", "neutral") or any(state["units"][k]["side"] != "axis" for k in here):
        refuse(o, f"{h} is held by another player or holds his units", NATIONS[c]["rules"][1])
    if sum(1 for k in here if stats(state["units"][k]["type"])["kind"] not in ("sup", "rr")) >= 4:
        refuse(o, f"{h} would hold more than four units", "[WiE-base 7.1]")
    if parse_hex(h) not in board(state).terrain:
        refuse(o, f"{h} is not on the map", NATIONS[c]["rules"][1])


def apply_place(state: Any, c: str, o: dict[str, Any], ctx: Any) -> None:
    state["politics"]["minors"][c]["pool"].remove(o["type"])
    n = 1 + sum(1 for k in state["units"] if k.startswith(f"{c}-M"))
    uid = f"{c}-M{n:02d}"
    state["units"][uid] = {"side": "axis", "nation": c, "type": o["type"], "hex": o["hex"]}
    state["moved"].append(uid)
    ctx.event("reinforcement", side="axis", unit=uid, type=o["type"], hex=o["hex"])
