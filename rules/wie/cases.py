"""The rules cases' language for War in Europe (tests/cases/wie/*.case, pbem.kit.cases).

PRESTATE lines (the 1945 scenario is loaded first):

    seating 2                         the two-player game (71.32), before anything else
    units none                        remove every unit (a case builds its own board)
    unit ID SIDE TYPE HEX [NATION]    add a unit ("6-5", "[5]-1", "10-1-10", "SUP")
    phase PHASE                       e.g. allied-movement, air-commit (the seat follows)
    turn N | status A B STATE | associated A B | unassociated A B | held HEX SIDE
    air-points SIDE FRONT N | attacked UNIT SIDE | moved UNIT | proposal FROM TO WHAT | order A,B,C
    air-result FRONT SIDE MISSION N   points that survived this game-turn's air combat
    interdiction SIDE HEX             an Air Interdiction marker of SIDE
    rail-used N | cut HEX             rail moves made this player-turn; rail taken, not repaired
    oos UNIT N                        out of supply in N Initial Supply Phases in a row
    standing SIDE OTHER PHASE         a standing order breaking SIDE's association on entering PHASE
    pool SIDE ap|ir|mr|fort N | pool SIDE units TYPE,TYPE   reinforcements waiting (76.25)

POSTSTATE lines:

    unit ID at HEX | unit ID eliminated | status A B STATE | associated A B yes|no
    phase PHASE | active SEAT | turn N | order A,B,C | held HEX SIDE | air-points SIDE FRONT N
    air SEAT sealed|opened | over yes|no | proposals N | air-left FRONT SIDE MISSION N
    interdiction SIDE HEX,HEX|- | cut HEX yes|no | supply UNIT in|out N | standing N
    pool SIDE KEY VALUE
"""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidInput

from .setup import BASE, new_state
from .state import associated, holder, key, seat_of

NATION = {"axis": "GER", "allied": "US", "soviet": "SOV"}


def prestate(rules: Any, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
    name = BASE
    if lines and lines[0][1].split() == ["seating", "2"]:
        name, lines = f"{BASE}-2p", lines[1:]
    sc = rules.load_scenario(name)
    state = new_state(sc)
    for no, text in lines:
        w = text.split()
        try:
            _pre(state, w)
        except (KeyError, IndexError, ValueError) as exc:
            raise InvalidInput(f"PRESTATE line {no}: {text!r}: {exc}") from exc
    return state, {s: None for s in sc.seats}


def _pre(state: Any, w: list[str]) -> None:
    head = w[0]
    if head == "units" and w[1] == "none":
        state["units"] = {}
    elif head == "unit":
        side = w[2]
        state["units"][w[1]] = {"side": side, "nation": w[5] if len(w) > 5 else NATION[side], "type": w[3],
                                "hex": w[4]}
    elif head == "phase":
        state["phase"] = w[1]
        side = w[1].split("-")[0]
        if side in NATION:
            state["active"] = seat_of(state, side)
    elif head == "seat":
        state["active"] = w[1]
    elif head == "turn":
        state["turn"] = int(w[1])
    elif head == "status":
        state["status"][key(w[1], w[2])] = w[3]
    elif head == "associated":
        state["associated"] = sorted({*state["associated"], key(w[1], w[2])})
    elif head == "unassociated":
        state["associated"] = [p for p in state["associated"] if p != key(w[1], w[2])]
    elif head == "held":
        state["held"][w[1]] = w[2]
    elif head == "air-points":
        state["air_points"][w[1]][w[2]] = int(w[3])
    elif head == "attacked":
        state["attacked"].setdefault(w[1], []).append(w[2])
    elif head == "moved":
        state["moved"].append(w[1])
    elif head == "proposal":
        state["proposals"].append([w[1], w[2], w[3]])
    elif head == "order":
        state["order"] = w[1].split(",")
    elif head == "air-result":  # air-result FRONT SIDE MISSION N: survived this game-turn's air combat
        state["air"]["results"].setdefault(w[1], {}).setdefault(w[2], {})[w[3]] = int(w[4])
    elif head == "interdiction":
        state["interdiction"].setdefault(w[1], []).append(w[2])
    elif head == "rail-used":
        state["rail_used"] = int(w[1])
    elif head == "cut":
        state["cut"].append(w[1])
    elif head == "pool":  # pool SIDE KEY VALUE: ap/ir/mr/fort points, or units TYPE,TYPE
        pool = state["pool"].setdefault(w[1], {"units": [], "ap": 0, "ir": 0, "mr": 0, "fort": 0})
        pool[w[2]] = w[3].split(",") if w[2] == "units" else int(w[3])
    elif head == "standing":  # standing SIDE OTHER PHASE: a standing order to break an association
        state["standing"].append([w[1], w[2], w[3]])
    elif head == "oos":  # oos UNIT N: out of supply in N Initial Supply Phases in a row
        state["oos"][w[1]] = int(w[2])
    else:
        raise ValueError("unknown PRESTATE line")


def check(state: Any, lines: list[tuple[int, str]]) -> list[str]:
    out = []
    for no, text in lines:
        w = text.split()
        got, want = _post(state, w)
        if got != want:
            out.append(f"line {no}: {text!r}: found {got!r}")
    return out


def _post(state: Any, w: list[str]) -> tuple[Any, Any]:
    head = w[0]
    if head == "unit":
        u = state["units"].get(w[1])
        if u is None:
            return "no such unit", w[2:]
        return (["eliminated"] if not u["hex"] else ["at", u["hex"]]), w[2:]
    if head == "status":
        return state["status"][key(w[1], w[2])], w[3]
    if head == "associated":
        return ("yes" if associated(state, w[1], w[2]) else "no"), w[3]
    if head in ("phase", "active"):
        return str(state[head]), w[1]
    if head == "turn":
        return str(state["turn"]), w[1]
    if head == "order":
        return ",".join(state["order"]), w[1]
    if head == "held":
        return holder(state, w[1]), w[2]
    if head == "air-points":
        return str(state["air_points"][w[1]][w[2]]), w[3]
    if head == "air":
        air = state["air"]
        return ("opened" if w[1] in air["opened"] else "sealed" if w[1] in air["refs"] else "none"), w[2]
    if head == "over":
        return ("yes" if state["over"] else "no"), w[1]
    if head == "proposals":
        return str(len(state["proposals"])), w[1]
    if head == "air-left":  # air-left FRONT SIDE MISSION N
        from .state import air_left

        return str(air_left(state, w[2], w[1], w[3])), w[4]
    if head == "pool":  # pool SIDE KEY VALUE
        pool = state["pool"].get(w[1], {})
        got = pool.get(w[2], "-")
        return (",".join(got) or "-") if isinstance(got, list) else str(got), w[3]
    if head == "standing":  # standing N: standing orders waiting
        return str(len(state["standing"])), w[1]
    if head == "supply":  # supply UNIT in|out N
        return (f"out {state['oos'][w[1]]}" if w[1] in state["oos"] else "in"), " ".join(w[2:])
    if head == "cut":  # cut HEX yes|no: rail taken and not yet repaired
        return ("yes" if w[1] in state["cut"] else "no"), w[2]
    if head == "interdiction":  # interdiction SIDE HEXES (comma-separated, or -)
        return ",".join(state["interdiction"].get(w[1], [])) or "-", w[2]
    return "unknown POSTSTATE line", ""
