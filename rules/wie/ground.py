"""Movement ([WiE-base 5-7], 69.1) and combat ([WiE-base 10], 69.3) of the authored base rules.

Check functions refuse and change nothing; apply functions run only after their check passed.
Retreats are made by the rules, not chosen by the owner (an interpretation that spares an
email round per combat; README): each unit steps to the lowest-numbered hex that takes it
farther from the combat, is free of enemy units, of unescorted enemy ZOC and of overstacking.
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from . import campaign, europe, finland, minors, politics, seizure, special
from .diplomacy import attacked_by_associate, engage, refuse
from .state import (
    STEPS,
    adjacent,
    air_left,
    associated,
    bad_weather,
    board,
    front_of,
    holder,
    hostile,
    is_land,
    neighbours,
    occupant,
    river_between,
    scenario_data,
    stats,
    units_at,
    use_air,
    water_between,
    zoc_hexes,
)

NO_STACK = ("sup", "rr")
MAX_SUPPORT = 20  # tables.toml [ground_support]: two air points a strength point, 20 a combat


def acting_side(state: Any) -> str:
    phase = str(state["phase"])
    return STEPS.get(phase) or phase.split("-")[0]  # 76.3's steps name no side


def own_unit(state: Any, uid: str, o: dict[str, Any]) -> dict[str, Any]:
    u = state["units"].get(uid)
    me = acting_side(state)
    if u is not None:
        europe.check_partisan_owner(state, u, me, o)  # 73.5, 73.6
    if u is None or u["side"] != me:
        refuse(o, f"{uid} is not a unit of the phasing player ({me})", "[WiE-base 4.0]")
    if not u["hex"]:
        refuse(o, f"{uid} has been eliminated", "[WiE-base 4.0]")
    rec = state["politics"]["neutrals"].get(u["nation"])
    if rec is not None and rec["status"] in ("armed", "pro-axis"):
        # 72-73: a neutral's forces are deployed, not moved or fought, until it is attacked
        # (73.1) or becomes an Axis nation (72.0, 73.25, 73.35)
        refuse(o, f"{uid} belongs to {u['nation']}, still a {rec['status']} neutral", "73.1")
    return dict(u)


def hex_cost(state: Any, frm: str, to: str, side: str) -> int:
    """[WiE-base 5.1] terrain, +1 across a river; [2.3] +1 in snow or mud; [13.3] +1 into or
    next to a hostile player's Air Interdiction marker."""
    terrain = scenario_data(state).tables["terrain"]
    kind = "clear" if special.lake(state, to) else board(state).terrain[parse_hex(to)]  # 77.2: frozen, clear
    cost = int(terrain[kind]["mp"])
    near = {to, *neighbours(to)}
    interdicted = any(hostile(state, side, other) and near & set(hexes)
                      for other, hexes in state["interdiction"].items())
    return (cost + (1 if river_between(state, frm, to) else 0) + (1 if bad_weather(state, to) else 0)
            + (1 if interdicted else 0))


def stack_count(state: Any, h: str, side: str) -> int:
    return sum(1 for k in units_at(state, h) if state["units"][k]["side"] == side
               and stats(state["units"][k]["type"])["kind"] not in NO_STACK)


def _allowance(state: Any, uid: str, u: dict[str, Any], o: dict[str, Any]) -> int:
    st = stats(u["type"])
    if uid in state["moved"]:
        refuse(o, f"{uid} has already moved this phase", "[WiE-base 5.1]")
    if str(state["phase"]).endswith("mechanized"):
        if st["ma"] < 6:
            refuse(o, f"{uid} (movement allowance {st['ma']}) is not mechanized: only units of 6 or more "
                   "move in the Mechanized Movement Phase", "[WiE-base 4.0]")
        if bad_weather(state, u["hex"]):
            refuse(o, "no mechanized movement in snow or mud", "[WiE-base 2.3]")
        return int(st["ma"]) // (4 if uid in state["oos"] else 2)
    if st["ma"] <= 0:
        refuse(o, f"{uid} has a movement allowance of 0", "[WiE-base 1.2]")
    return int(st["ma"]) // (2 if uid in state["oos"] else 1)  # [WiE-base 11.4]: half when out of supply


def check_move(state: Any, o: dict[str, Any]) -> None:
    uid, path = o["unit"], o["path"]
    u = own_unit(state, uid, o)
    me = u["side"]
    ma = _allowance(state, uid, u, o)
    finland.check_garrison(state, uid, o)  # 72.3
    zoc = zoc_hexes(state, me)
    here, spent = u["hex"], 0
    for i, step in enumerate(path):
        if not adjacent(here, step):
            refuse(o, f"{step} is not next to {here}", "[WiE-base 5.1]")
        if not is_land(state, step):
            refuse(o, f"{step} is not a land hex in play", "[WiE-base 5.1]")
        if water_between(state, here, step):
            refuse(o, f"a water hexside lies between {here} and {step}", "[WiE-base 5.1]")
        if i > 0 and here in zoc:
            refuse(o, f"{uid} entered an enemy zone of control at {here} and must stop", "[WiE-base 6.2]")
        if i == 0 and here in zoc and step in zoc:
            refuse(o, f"{uid} may not leave an enemy zone of control directly into another ({step})",
                   "[WiE-base 6.2]")
        other = occupant(state, step)
        if other is not None and other != me:
            if associated(state, me, other):
                refuse(o, f"{step} contains an associated ({other}) unit", "69.1")
            if hostile(state, me, other):
                refuse(o, f"{step} contains an enemy ({other}) unit", "[WiE-base 5.3]")
            engage(state, me, other, o, None, "enter", dry=True)
            refuse(o, f"{step} contains a {other} unit: units of two players never stack", "[WiE-base 7.1]")
        if holder(state, step) != me:
            politics.enter(state, me, step, o, None, dry=True)  # 71.x, 73.1
        minors.check_step(state, u, step, o)  # 73.23, 73.33
        special.check_lake_entry(state, u, step, o)  # 77.2
        special.check_lake_side(state, u, here, step, o)  # 77.2
        campaign.check_timetable(state, u, step, o)  # 74.51-74.53
        spent += hex_cost(state, here, step, me)
        if spent > ma and not (i == 0 and len(path) == 1 and o["verb"] == "move"
                               and not str(state["phase"]).endswith("mechanized")):
            refuse(o, f"{uid} needs {spent} movement points to reach {step}, has {ma}", "[WiE-base 5.1]")
        here = step
    if stack_count(state, here, me) + (0 if stats(u["type"])["kind"] in NO_STACK else 1) > 4:
        refuse(o, f"{here} would hold more than four {me} units", "[WiE-base 7.1]")


def apply_move(state: Any, o: dict[str, Any], ctx: Any) -> None:
    uid = o["unit"]
    u = state["units"][uid]
    me, frm = u["side"], u["hex"]
    for step in o["path"]:
        if holder(state, step) != me:
            politics.enter(state, me, step, o, ctx, dry=False)  # may precipitate war (71.0, 71.1), 73.1
        held = holder(state, step)
        if held != me and not associated(state, me, held):
            _take(state, step, me, ctx)
    u["hex"] = o["path"][-1]
    state["moved"].append(uid)
    if ctx is not None:
        ctx.event("moved", unit=uid, frm=frm, to=u["hex"])


def _take(state: Any, h: str, side: str, ctx: Any = None) -> None:
    """[WiE-base 5.4]: held by the side that last had a unit in it; the map's holder is implied.
    71.4: taking a Soviet center wins or loses political points."""
    politics.taken(state, h, side, ctx)
    if board(state).held.get(parse_hex(h)) == side:
        state["held"].pop(h, None)
    else:
        state["held"][h] = side
    seizure.taken(state, h, side, ctx)  # 71.1 (Total War at three Personnel Centers), 71.2 (Rome)
    special.check_collapse(state, ctx)  # 77.1 "at any time"
    campaign.check_soviet_surrender(state, ctx)  # 74.9
    campaign.check_england_surrender(state, ctx)  # 75.94
    europe.taken(state, h, side)  # 73.4
    campaign.fort_taken(state, h, side)  # [WiE-base 14.2]
    if parse_hex(h) in board(state).rail and h not in state["cut"]:
        state["cut"].append(h)  # 69.2, [WiE-base 8.2]: rail taken must be repaired before use


# --- combat -----------------------------------------------------------------------------------

def check_attack(state: Any, o: dict[str, Any]) -> None:
    me, target = acting_side(state), o["hex"]
    defenders = units_at(state, target)
    if not defenders:
        refuse(o, f"no units in {target} to attack", "[WiE-base 10.1]")
    other = str(state["units"][defenders[0]]["side"])
    if other == me:
        refuse(o, f"{target} holds your own units", "[WiE-base 10.1]")
    engage(state, me, other, o, None, "attack", dry=True)
    if target in state["attacked_hexes"]:
        refuse(o, f"{target} has already been attacked this phase", "[WiE-base 10.1]")
    first = attacked_by_associate(state, me, defenders)
    if first is not None:
        refuse(o, f"{first} was attacked this game-turn by a player associated with {me}: no enemy unit "
               "may be attacked twice in a game-turn by associated players", "69.3")
    support = int(o.get("support", 0))
    left = air_left(state, me, front_of(state, target), "support")
    if support > min(left, MAX_SUPPORT):
        refuse(o, f"{me} has {left} ground support points left on the {front_of(state, target)} front; at "
               f"most {MAX_SUPPORT} support one combat", "[WiE-base 13.4]")
    if len(set(o["units"])) != len(o["units"]):
        refuse(o, "a unit is listed twice", "[WiE-base 10.1]")
    special.check_lake_attack(state, o["units"], o)  # 77.2
    finland.check_finnish_attack(state, o["units"], target, o)  # 72.1
    special.check_lake_side_attack(state, o["units"], o["hex"], o)  # 77.2
    if not any(stats(state["units"][k]["type"])["att"] > 0 for k in o["units"] if k in state["units"]):
        refuse(o, "an attack needs at least one unit with an attack strength (artillery only adds to one)",
               "[WiE-base 1.2]")
    for uid in o["units"]:
        u = own_unit(state, uid, o)
        st = stats(u["type"])
        if uid in state["attackers"]:
            refuse(o, f"{uid} has already attacked this phase", "[WiE-base 10.1]")
        if st["att"] <= 0 and st["kind"] != "artillery":
            refuse(o, f"{uid} ({u['type']}) never attacks", "[WiE-base 1.2]")
        if not adjacent(u["hex"], target) or water_between(state, u["hex"], target):
            refuse(o, f"{uid} at {u['hex']} is not next to {target} across land", "[WiE-base 10.1]")


def odds(state: Any, me: str, attackers: list[str], target: str, support: tuple[int, int] = (0, 0)
         ) -> dict[str, Any]:
    """Strengths, doubling and column shifts ([WiE-base 10.2], tables.toml [terrain], [crt_shift]);
    ``support``: the attacker's and the defender's ground support points ([WiE-base 13.4])."""
    t = scenario_data(state).tables
    units = state["units"]
    att = sum((stats(units[k]["type"])["att"] + stats(units[k]["type"])["bombard"])
              // (2 if k in state["oos"] else 1) for k in attackers)  # [WiE-base 11.4]: half out of supply
    att += support[0] // 2
    dfn = sum(stats(units[k]["type"])["def"] for k in units_at(state, target))
    b, h = board(state), parse_hex(target)
    terrain = b.terrain[h]
    fighters = [k for k in attackers if stats(units[k]["type"])["att"] > 0]
    across = all(river_between(state, units[k]["hex"], target) for k in fighters)
    fort = h in b.forts or campaign.fort_at(state, target) or (h in b.westwall and holder(state, target) == "axis")
    doubled = bool(t["terrain"][terrain].get("double")) or fort or across
    shift = int(t["terrain"][terrain].get("shift", 0)) + (int(t["terrain"]["city"]["shift"]) if h in b.cities else 0)
    if terrain in ("rough", "forest", "marsh") and h in b.cities:
        shift += 1  # one column for terrain or a city, not both ([WiE-base 10.2] "one column left")
    if bad_weather(state, target):
        shift += int(t["crt_shift"]["snow"])
    shift += int(t["crt_shift"].get(f"{me}_1945", 0))
    dfn = dfn * (2 if doubled else 1) + support[1] // 2
    return {"att": att, "def": dfn, "doubled": doubled, "shift": shift, "column": column(t, att, dfn, shift)}


def column(t: dict[str, Any], att: int, dfn: int, shift: int) -> str:
    cols = list(t["crt"]["columns"])
    if dfn <= 0:
        idx = len(cols) - 1
    elif att * 2 < dfn:
        idx = -1
    elif att < dfn:
        idx = 0
    else:
        idx = min(att // dfn, len(cols) - 1)
    idx += shift if idx >= 0 else 0
    return "below" if idx < 0 else cols[idx]


def apply_attack(state: Any, o: dict[str, Any], ctx: Any) -> None:
    me, target = acting_side(state), o["hex"]
    defenders = units_at(state, target)
    other = str(state["units"][defenders[0]]["side"])
    engage(state, me, other, o, ctx, "attack")
    front = front_of(state, target)
    # The defender's ground support on the front joins each combat as it comes, up to 20
    # (an interpretation: he has no file in the attacker's phase to choose it in).
    sup = (int(o.get("support", 0)), min(MAX_SUPPORT, air_left(state, other, front, "support")))
    use_air(state, me, front, "support", sup[0])
    use_air(state, other, front, "support", sup[1])
    state["attacked_hexes"].append(target)
    state["attackers"].extend(o["units"])
    for k in defenders:
        state["attacked"].setdefault(k, [])
        if me not in state["attacked"][k]:
            state["attacked"][k].append(me)
    combat = {"side": me, "hex": target, "units": list(o["units"]), "defenders": defenders, "support": list(sup)}
    if ctx.strict_dice:
        # Strict dice: no roll is computable before the attack is signed; the attacker rolls
        # it at the start of his next file (README).
        state["combats"].append(combat)
        ctx.reserve_rolls(1)
        ctx.event("attack-declared", side=me, hex=target, attackers=list(o["units"]))
    else:
        resolve(state, combat, ctx)


def resolve_pending(state: Any, ctx: Any) -> None:
    """The combats declared in the last file (strict dice), in their order."""
    combats, state["combats"] = state["combats"], []
    for c in combats:
        resolve(state, c, ctx)


def resolve(state: Any, c: dict[str, Any], ctx: Any) -> None:
    me, target, sup = str(c["side"]), str(c["hex"]), (int(c["support"][0]), int(c["support"][1]))
    defenders = [k for k in c["defenders"] if state["units"][k]["hex"] == target]
    attackers = [k for k in c["units"] if state["units"][k]["hex"]]
    od = odds(state, me, attackers, target, sup)
    t = scenario_data(state).tables["crt"]
    (die,) = ctx.roll(6, f"{me} attacks {target}")
    result = str(t["below"]) if od["column"] == "below" else str(t[str(die)][list(t["columns"]).index(od["column"])])
    lost = _result(state, result, me, attackers, defenders, target)
    if result in ("DR", "DE", "EX") and not units_at(state, target):
        state["vacated"][target] = [k for k in attackers if state["units"][k]["hex"]
                                    and stats(state["units"][k]["type"])["att"] > 0]
    ctx.event("combat", side=me, hex=target, attackers=attackers, defenders=defenders,
              att=od["att"], dfn=od["def"], column=od["column"], die=die, result=result, eliminated=lost,
              support=list(sup))


def _result(state: Any, result: str, me: str, attackers: list[str], defenders: list[str], target: str) -> list[str]:
    """[WiE-base 10.5]; the eliminated units, in order."""
    units = state["units"]
    if result == "AE":
        return _eliminate(state, attackers)
    if result == "DE":
        return _eliminate(state, defenders)
    if result == "EX":
        printed = sum(stats(units[k]["type"])["def"] for k in defenders)
        lost = _eliminate(state, defenders)
        taken, pay = 0, []
        for k in sorted(attackers, key=lambda k: (stats(units[k]["type"])["att"], k)):
            if taken >= printed:
                break
            pay.append(k)
            taken += stats(units[k]["type"])["att"] + stats(units[k]["type"])["bombard"]
        return lost + _eliminate(state, pay)
    if result == "AR":
        return _retreat(state, [k for k in attackers if units[k]["hex"]], target, 1)
    return _retreat(state, defenders, target, 2)


def _eliminate(state: Any, uids: list[str]) -> list[str]:
    for k in uids:
        state["units"][k]["hex"] = ""
    return list(uids)


def _retreat(state: Any, uids: list[str], away: str, n: int) -> list[str]:
    lost = []
    for k in uids:
        u = state["units"][k]
        if stats(u["type"])["kind"] == "fortress":
            lost += _eliminate(state, [k])  # a fortress unit never retreats ([WiE-base 10.5])
            continue
        path = _retreat_path(state, k, away, n)
        if path is None:
            lost += _eliminate(state, [k])
        else:
            u["hex"] = path[-1]
    return lost


def _retreat_path(state: Any, uid: str, away: str, n: int) -> list[str] | None:
    u = state["units"][uid]
    side, here = u["side"], u["hex"]
    zoc = zoc_hexes(state, side)
    path: list[str] = []
    for _ in range(n):
        d0 = GRID.distance(parse_hex(here), parse_hex(away))
        options = []
        for h in sorted(str(x) for x in GRID.neighbours(parse_hex(here))):
            if not is_land(state, h) or water_between(state, here, h) or h in path:
                continue
            occ = occupant(state, h)
            if (occ not in (None, side) or GRID.distance(parse_hex(h), parse_hex(away)) <= d0
                    or (h in zoc and occ != side) or holder(state, h) == "neutral"):
                continue
            options.append(h)
        if not options:
            return None
        here = options[0]
        path.append(here)
    if stack_count(state, here, side) >= 4:
        return None
    return path


# --- advance after combat ([WiE-base 10.5]) and Air Interdiction markers (68.1, [WiE-base 13.3]) --

def check_advance(state: Any, o: dict[str, Any]) -> None:
    u = own_unit(state, o["unit"], o)
    if o["unit"] not in state["vacated"].get(o["hex"], []):
        refuse(o, f"{o['unit']} did not attack {o['hex']} in a combat that emptied it this phase (DR, DE, EX)",
               "[WiE-base 10.5]")
    if units_at(state, o["hex"]):
        refuse(o, f"{o['hex']} is no longer empty", "[WiE-base 10.5]")
    seizure.check_entry(state, u["side"], o["hex"], o)  # 71.2
    special.check_lake_entry(state, u, o["hex"], o)  # 77.2
    minors.check_step(state, u, o["hex"], o)  # 73.23, 73.33
    if stats(u["type"])["kind"] not in NO_STACK and stack_count(state, o["hex"], u["side"]) >= 4:
        refuse(o, f"{o['hex']} would hold more than four units", "[WiE-base 7.1]")


def apply_advance(state: Any, o: dict[str, Any], ctx: Any) -> None:
    u = state["units"][o["unit"]]
    frm, u["hex"] = u["hex"], o["hex"]
    if holder(state, o["hex"]) != u["side"]:
        _take(state, o["hex"], u["side"], ctx)
    state["vacated"][o["hex"]] = [k for k in state["vacated"][o["hex"]] if k != o["unit"]]
    ctx.event("advanced", unit=o["unit"], frm=frm, to=o["hex"])


def check_interdict(state: Any, o: dict[str, Any]) -> None:
    me, front = acting_side(state), front_of(state, o["hex"])
    if air_left(state, me, front, "interdiction") < INTERDICTION_POINTS:
        refuse(o, f"{me} has fewer than {INTERDICTION_POINTS} interdiction points left on the {front} front",
               "[WiE-base 13.3]")
    if o["hex"] in state["interdiction"].get(me, []):
        refuse(o, f"{o['hex']} already holds your Air Interdiction marker", "[WiE-base 13.3]")


def apply_interdict(state: Any, o: dict[str, Any], ctx: Any) -> None:
    me = acting_side(state)
    use_air(state, me, front_of(state, o["hex"]), "interdiction", INTERDICTION_POINTS)
    state["interdiction"].setdefault(me, []).append(o["hex"])
    ctx.event("interdiction", side=me, hex=o["hex"])


INTERDICTION_POINTS = 5
