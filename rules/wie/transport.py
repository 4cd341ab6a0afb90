"""Naval transport, amphibious assault and air transport ([WiE-base 9.2-9.5, 13.5, 13.6, 13.8]),
with 76.51 (the Norwegian garrison), 77.4, 77.41, 77.5 and 77.12.

``state["transport"]``: ``points`` side -> {naval, amph, air} (76.26; a "D" loses one for good),
``used`` side -> the same, this player-turn (reset on entering the side's Movement Phase),
``box`` side -> [[nation, type]] the Assault Box (76.26), ``invaded`` the game-turn of the first
Allied assault anywhere on the map (76.51; 0 none), ``rolls`` the interdiction dice reserved in
strict dice, thrown at the start of the mover's next file (as ``attack``).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from . import europe, politics, special
from .diplomacy import refuse
from .ground import _take
from .state import air_left, board, front_of, holder, hostile, is_land, scenario_data, stats, units_at
from .supply import supplied_hexes

KINDS = ("naval", "amph", "air")
AIR_RANGE = 10  # [WiE-base 13.5]
NORWAY = ("first", "second", "third")  # 76.51: the game-turns following the invasion


def initial(tables: dict[str, Any]) -> dict[str, Any]:
    av = tables.get("availability", {})
    points, box = {}, {}
    for side in ("axis", "allied", "soviet"):
        a = av.get(side, {})
        air = a.get("air_transport", 0)
        points[side] = {"naval": int(a.get("naval_transport", 0)), "amph": int(a.get("amphibious_assault_points", 0)),
                        "air": sum(air.values()) if isinstance(air, dict) else int(air)}
        box[side] = [e.split() if " " in e else [{"soviet": "SOV"}.get(side, "GER"), e]
                     for e in a.get("airborne_in_assault_box", [])]
    return {"points": points, "used": {}, "box": box, "invaded": 0, "rolls": []}


def new_player_turn(state: Any, side: str) -> None:
    state["transport"]["used"][side] = {k: 0 for k in KINDS}


def left(state: Any, side: str, kind: str) -> int:
    t = state["transport"]
    return int(t["points"][side][kind]) - int(t["used"].get(side, {}).get(kind, 0))


def seas(state: Any, h: str) -> set[str]:
    extra = state.get("ports_extra", {}).get(h)  # a case's board (77.3)
    return europe.east_med(h, set(filter(None, (extra[1] if extra else board(state).seas.get(parse_hex(h), ""))
                                          .split(","))))


def _port_of(state: Any, me: str, h: str, o: dict[str, Any], what: str) -> set[str]:
    """A friendly, open port's seas ([WiE-base 9.1]; 69.2: never an associate's; 77.41)."""
    if (parse_hex(h) not in board(state).ports and h not in state.get("ports_extra", {})) or holder(state, h) != me:
        refuse(o, f"{h} is not a port of yours ({what})", "[WiE-base 9.1]")
    if special.suppressed(state, h):
        refuse(o, f"{h} is suppressed by enemy air: inoperable this game-turn", "[WiE-base 13.3]")
    if not special.port_class(state, h):
        refuse(o, f"{h} is a frozen Baltic minor port: closed", "77.41")
    s = seas(state, h)
    if not s:
        refuse(o, f"{h} is a river port on no sea of this map", "[WiE-base 9.2]")
    return s


def _common(state: Any, me: str, o: dict[str, Any], kind: str) -> tuple[dict[str, Any], set[str]]:
    u = state["units"].get(o["unit"])
    if u is None or u["side"] != me or not u["hex"]:
        refuse(o, f"{o['unit']} is not a unit of yours on the map", "[WiE-base 4.0]")
    if o["unit"] in state["moved"]:
        refuse(o, f"{o['unit']} has already moved this phase", "[WiE-base 9.2]")
    if me == "axis" and special.collapsed(state):
        refuse(o, "after the collapse of the German economy all naval activity stops", "77.12")
    if left(state, me, kind) <= 0:
        refuse(o, f"{me} has no {'naval transport' if kind == 'naval' else 'amphibious assault'} points left this "
               "player-turn", "[WiE-base 9.4]")
    here = _port_of(state, me, u["hex"], o, "to sail from")
    if special.port_class(state, u["hex"]) == "minor" and u["hex"] in state["transport"]["used"].get(me, {}).get(
            "ports", []):
        refuse(o, f"{u['hex']} is a minor port: it loads one unit a player-turn", "[WiE-base 9.1]")
    return u, here


def check_sail(state: Any, me: str, o: dict[str, Any]) -> None:
    u, here = _common(state, me, o, "naval")
    there = _port_of(state, me, o["hex"], o, "to sail to")
    here = europe.reach(state, me, here)
    if not here & there and (europe.BLACK in here | there) and (here | there) & {*europe.PROJECTED, europe.EAST_MED}:
        if me != "allied" and europe.BLACK in here and europe.EAST_MED in here:
            refuse(o, f"{o['hex']} is beyond the Aegean and the Eastern Mediterranean, where the Axis or Soviet "
                   "player projects his Black Sea Naval Transport", "77.3")
        refuse(o, f"{u['hex']} and {o['hex']} are joined only through the Straits, which you do not control"
               + ("" if me == "allied" else " with Sevastopol"), "77.3")
    europe.check_black_sea(state, me, here & there, o)
    if not here & there:
        refuse(o, f"{u['hex']} and {o['hex']} are not on the same sea", "[WiE-base 9.2]")
    _baltic(state, me, here & there, o)
    _room(state, me, o)


def check_land(state: Any, me: str, o: dict[str, Any]) -> None:
    u, here = _common(state, me, o, "amph")
    if me != "allied" and not seas(state, o["hex"]) & here and seas(state, o["hex"]) & europe.reach(state, me, here):
        refuse(o, f"{o['hex']} is reached from {u['hex']} only through the Straits: the Axis or Soviet player "
               "projects his Black Sea Naval Transport there, not Amphibious Assault", "77.3")
    here = europe.reach(state, me, here) if me == "allied" else here
    europe.check_black_sea(state, me, seas(state, o["hex"]) & here, o)
    if not is_land(state, o["hex"]) or not seas(state, o["hex"]) & here:
        refuse(o, f"{o['hex']} is no coastal hex on the sea of {u['hex']}", "[WiE-base 9.3]")
    _baltic(state, me, seas(state, o["hex"]) & here, o)
    if any(state["units"][k]["side"] != me for k in units_at(state, o["hex"])):
        refuse(o, f"{o['hex']} holds another player's units: an assault lands only where no enemy stands",
               "[WiE-base 9.3]")
    if holder(state, o["hex"]) != me:
        politics.enter(state, me, o["hex"], o, None, dry=True)
    _room(state, me, o)


def _baltic(state: Any, me: str, common: set[str], o: dict[str, Any]) -> None:
    if me == "allied" and common == {"baltic"}:
        refuse(o, "the Allied player may not sail in the Baltic (he holds neither Kristiansand nor Oslo: "
               "both are off this map)", "77.4")


def _room(state: Any, me: str, o: dict[str, Any]) -> None:
    here = [k for k in units_at(state, o["hex"]) if stats(state["units"][k]["type"])["kind"] not in ("sup", "rr")]
    if len(here) >= 4:
        refuse(o, f"{o['hex']} would hold more than four units", "[WiE-base 7.1]")


def apply_move(state: Any, me: str, o: dict[str, Any], ctx: Any, kind: str) -> None:
    """``sail`` (kind naval) or ``land`` (kind amph): the unit ends its movement there; the
    hostile players' Air-Sea Interdiction and, for an assault in the North Sea, 77.5 roll."""
    u = state["units"][o["unit"]]
    frm = u["hex"]
    common = seas(state, frm) & seas(state, o["hex"])
    used = state["transport"]["used"].setdefault(me, {k: 0 for k in KINDS})
    used[kind] += 1
    used.setdefault("ports", []).append(frm)
    if holder(state, o["hex"]) != me:
        politics.enter(state, me, o["hex"], o, ctx, dry=False)
        _take(state, o["hex"], me, ctx)
    u["hex"] = o["hex"]
    state["moved"].append(o["unit"])
    ctx.event("sailed" if kind == "naval" else "landed", unit=o["unit"], frm=frm, to=o["hex"])
    if kind == "amph" and me == "allied" and not state["transport"]["invaded"]:
        state["transport"]["invaded"] = int(state["turn"])  # 76.51: an Allied assault "anywhere on the map"
    threats = [("air-sea", s) for s in ("axis", "allied", "soviet")
               if hostile(state, me, s) and air_left(state, s, front_of(state, o["hex"]), "air-sea") > 0]
    if kind == "amph" and "north-sea" in common and me == "allied" and hostile(state, me, "axis") \
            and _north_sea_port(state):  # 77.5: "Whenever the Allied Player traces an Amphibious Assault"
        threats.append(("north-sea", "axis"))
    if not threats:
        return
    roll = {"unit": o["unit"], "side": me, "kind": kind, "threats": [list(t) for t in threats], "roller": str(ctx.seat)}
    if ctx.strict_dice:
        state["transport"]["rolls"].append(roll)
        ctx.reserve_rolls(len(threats))
        ctx.event("interdiction-reserved", unit=o["unit"], rolls=len(threats))
    else:
        _throw(state, roll, ctx)


def _north_sea_port(state: Any) -> bool:
    """77.51: the Axis keeps the capability while it holds a supplied port on the North Sea; after
    the collapse no Axis hex is supplied (77.1) and all naval activity stops (77.12)."""
    if special.collapsed(state):
        return False
    ok = supplied_hexes(state, "axis")
    return any(h in ok for h in (str(x) for x in board(state).ports) if holder(state, h) == "axis"
               and "north-sea" in seas(state, h))


def _throw(state: Any, roll: dict[str, Any], ctx: Any) -> None:
    table = scenario_data(state).tables.get("north_sea_interdiction", {}).get("1945", {})
    for what, by in roll["threats"]:
        (die,) = ctx.roll(6, f"{what} interdiction by {by} of {roll['unit']}")
        hit = die <= 2 if what == "air-sea" else table.get(str(die)) == "D"
        ctx.event("sea-interdiction", unit=roll["unit"], by=by, what=what, die=die, result="D" if hit else "-")
        if hit and state["units"][roll["unit"]]["hex"]:
            state["units"][roll["unit"]]["hex"] = ""  # [WiE-base 13.6]: the unit and its point are lost
            state["transport"]["points"][roll["side"]][roll["kind"]] -= 1


def throw_pending(state: Any, seat: str, ctx: Any) -> None:
    rolls = state["transport"]["rolls"]
    state["transport"]["rolls"] = [r for r in rolls if r["roller"] != seat]
    for r in rolls:
        if r["roller"] == seat:
            _throw(state, r, ctx)


# --- air transport ([WiE-base 13.5, 13.8]) ---------------------------------------------------------

def check_drop(state: Any, me: str, o: dict[str, Any], ok: set[str] | None = None) -> None:
    """``ok``: the side's supplied hexes when the caller has them (the offers check many hexes)."""
    if me == "axis" and special.collapsed(state):
        refuse(o, "after the collapse of the German economy no Air Transport is allowed", "77.12")
    if not any(t == o["type"] for _n, t in state["transport"]["box"].get(me, [])):
        refuse(o, f"no {o['type']} waits in the {me} Assault Box", "[WiE-base 13.5]")
    if left(state, me, "air") <= 0:
        refuse(o, f"{me} has no Air Transport points left this player-turn", "[WiE-base 13.8]")
    if any(state["units"][k]["side"] != me for k in units_at(state, o["hex"])):
        refuse(o, f"{o['hex']} holds another player's units", "[WiE-base 13.5]")
    if not _near_supplied(state, me, o["hex"], ok):
        refuse(o, f"{o['hex']} is more than {AIR_RANGE} hexes from any supplied hex of yours", "[WiE-base 13.5]")
    if holder(state, o["hex"]) != me:
        politics.enter(state, me, o["hex"], o, None, dry=True)
    _room(state, me, o)


def _near_supplied(state: Any, me: str, h: str, ok: set[str] | None) -> bool:
    ok = supplied_hexes(state, me) if ok is None else ok
    return any(str(x) in ok and holder(state, str(x)) == me for x in GRID.hexes_within(parse_hex(h), AIR_RANGE))


def apply_drop(state: Any, me: str, o: dict[str, Any], ctx: Any) -> None:
    box = state["transport"]["box"][me]
    entry = next(e for e in box if e[1] == o["type"])
    box.remove(entry)
    state["transport"]["used"].setdefault(me, {k: 0 for k in KINDS})["air"] += 1
    if holder(state, o["hex"]) != me:
        politics.enter(state, me, o["hex"], o, ctx, dry=False)
        _take(state, o["hex"], me, ctx)
    n = 1 + sum(1 for k in state["units"] if k.startswith(f"{me.upper()}-AB"))
    uid = f"{me.upper()}-AB{n:02d}"
    state["units"][uid] = {"side": me, "nation": entry[0], "type": o["type"], "hex": o["hex"]}
    state["moved"].append(uid)  # [WiE-base 13.5]: a dropped unit may not move that turn
    ctx.event("dropped", unit=uid, type=o["type"], hex=o["hex"])


def norway_garrison(state: Any) -> list[str]:
    """76.51: the units the Axis receives this game-turn, the first to third after the invasion."""
    invaded = int(state["transport"]["invaded"])
    k = int(state["turn"]) - invaded
    if not invaded or not 1 <= k <= 3:
        return []
    return list(scenario_data(state).tables.get("norway_garrison", {}).get(NORWAY[k - 1], []))
