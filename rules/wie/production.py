"""Soviet production short of and at Total War (74.3, 74.4, 74.34), the Siberians (74.7, 74.71),
the return to peace (74.8) and Lend-Lease (77.8).

The 1945 scenario has no Soviet production (scenario.txt: "Soviet production exists only in the
campaign variant (76.7)"), so none of this runs unless ``state["production"]`` exists (a
campaign, or a rules case's ``production`` line):

* ``personnel``, ``arms``: the Soviet pools; ``level``: the production status of the last cycle
  (peace | limited-war | total-war); ``total_cycles``: cycles of Total War so far (74.4);
* ``stockpiles``: the one-time awards of 74.34 already made (limited-war, total-war);
* ``arms_centers``: operational Soviet Arms Centers (War in the East's 63.6, not in the seed:
  the campaign states them); ``siberia``: unit types waiting off-map in Siberia (74.12, 74.7);
* ``peace_turn``: the game-turn a Limited War returned to peace (74.8's four game-turns);
* ``lend_lease``: the arms points a cycle the Allied player sends (77.83; absent: the schedule's).

77.8 at Total War (the multiples of 74.4 hold the historical Lend-Lease): the cycle's arms are the
multiples' less the schedule's row for the calendar year, plus what actually arrives: in the
three-player game what the Allied player sends (``lend-lease N``, at most the year's row, 77.83),
in the two-player game the row of the n-th year after the Axis invasion (77.82: the first year
after it counts as 1941). The U-boat war (the Reinforcement Marker) is not modelled: the "actual"
year of 77.8 [3] is the calendar year. A cycle never adds fewer than 0 arms points.

Production is added in the Strategic Cycle (68.2), run at the housekeeping of game-turn 4 of a cycle.
"""

from __future__ import annotations

from typing import Any

from . import bombing
from .diplomacy import refuse
from .state import date, holder, status, year

PEACE = (4, 8)  # 74.31: personnel and arms points a cycle
LIMITED = {1939: (5, 9), 1940: (7, 10), 1941: (7, 11), 1942: (8, 13), 1943: (9, 15), 1944: (10, 20),
           1945: (10, 25)}  # 74.32
STOCKPILE = 60  # 74.34, at each shift up: peace -> limited, limited -> total
LEND_LEASE_ROWS = {1941: 1, 1942: 4, 1943: 14, 1944: 24, 1945: 24}  # 77.81, arms points a cycle


def lend_lease_row(y: int) -> int:
    return LEND_LEASE_ROWS.get(min(y, 1945), 0)


SIBERIAN_CENTERS = 7  # 77.7: "Siberia (7 centers off map)"
LEVELS = ("peace", "limited-war", "total-war")


def level(state: Any) -> str:
    """74.32 Note: each cycle the Soviet Union is at one level, the highest it is at with anyone."""
    st = [status(state, "soviet", s) for s in ("axis", "allied")]
    if "total-war" in st:
        return "total-war"
    return "limited-war" if any(s in ("limited-war", "war") for s in st) else "peace"


def multiples(n: int) -> tuple[int, int]:
    """74.4: the personnel and arms multiples of the n-th cycle of Total War. The table's last row
    (odd cycles 33-43) prints no arms multiple: read as 3, as the rows around it; after cycle 43
    the last rows repeat (the war has ended by then)."""
    if n <= 1:
        return 3, 1
    if n == 2:
        return 2, 1
    if n <= 18:
        return 1, 1
    if n <= 24:
        return 1, 2
    if n <= 27:
        return 2, 2
    if n == 28:
        return 2, 3
    if n <= 31:
        return 1, 3
    return (0, 3) if n % 2 == 0 else (1, 3)


def personnel_centers(state: Any) -> int:
    """Operational Personnel Centers: the Soviet-held ones on the map (77.7) and Siberia's seven."""
    on_map = [h for h, kind in state["politics"]["centers"].items() if kind in ("personnel", "moscow")]
    return sum(1 for h in on_map if holder(state, h) == "soviet") + SIBERIAN_CENTERS


def cycle(state: Any) -> None:
    """The Strategic Cycle's Soviet production: stockpiles (74.34), then the cycle's adds."""
    rec = state.get("production")
    if rec is None:
        return
    if state.get("soviet_surrender"):
        _siberian_cycle(rec)
        return
    now, prev = level(state), str(rec["level"])
    for shift in LEVELS[LEVELS.index(prev) + 1:LEVELS.index(now) + 1]:
        if shift not in rec["stockpiles"]:
            rec["stockpiles"].append(shift)
            rec["arms"] += STOCKPILE  # 74.34: one-time; peace straight to Total War gets both (120)
    if prev == "limited-war" and now == "peace":
        rec["peace_turn"] = int(state["turn"])  # 74.8: four game-turns to return to the peace stance
    cut = 100 - bombing.oil_cut(state)  # 70.22, 70.24: 10% of the arms production an oil center hit
    if now == "peace":
        add = (PEACE[0], PEACE[1] * cut // 100)
    elif now == "limited-war":
        row = LIMITED[min(max(year(state), 1939), 1945)]
        add = (row[0], row[1] * cut // 100)
    else:
        rec["total_cycles"] += 1
        pm, am = multiples(int(rec["total_cycles"]))
        arms = max(0, int(rec["arms_centers"]) - bombing.soviet_arms_lost(state)) * am * cut // 100  # 70.22
        add = (personnel_centers(state) * pm, max(0, arms - lend_lease_row(year(state)) + lend_lease_sent(state)))
    rec["personnel"] += add[0]
    rec["arms"] += add[1]
    rec["level"] = now
    rec["last_added"] = list(add)


def _siberian_cycle(rec: dict[str, Any]) -> None:
    """74.9: after the surrender only the off-map (Siberian) centers produce, from the next
    Strategic Cycle on, at Total War's multiples (74.4): Siberia's 7 Personnel Centers and the
    Siberian Arms Centers a campaign states (``siberian_arms``; War in the East's count is not in
    the seed). No Lend-Lease (77.8 feeds the Soviet Union, which has surrendered). The pools are the
    Allied player's, as every post-surrender Soviet force (74.9)."""
    rec["total_cycles"] += 1
    pm, am = multiples(int(rec["total_cycles"]))
    add = (SIBERIAN_CENTERS * pm, int(rec.get("siberian_arms", 0)) * am)
    rec["personnel"] += add[0]
    rec["arms"] += add[1]
    rec["level"], rec["last_added"] = "total-war", list(add)


def new(personnel: int, arms: int, arms_centers: int = 0) -> dict[str, Any]:
    """74.13's pools at the start of the campaign: 60 personnel, 30 arms points."""
    return {"personnel": personnel, "arms": arms, "level": "peace", "total_cycles": 0, "stockpiles": [],
            "arms_centers": arms_centers, "siberia": [], "peace_turn": 0, "last_added": [0, 0]}


def check_siberia(state: Any, o: dict[str, Any]) -> None:
    """74.7/74.71: the Siberians stay off-map in peace and Limited War; from the 0/11/41 cycle on,
    at Total War, they come on at the east edge ([WiE-base 12.1]'s Soviet arrival hexes). 74.71's
    "not involved in Total War on 1/11/41 ... may not employ" is read with its next sentence: he
    may as soon as he is at Total War later."""
    from .reinforce import places

    rec = state.get("production")
    if rec is None or o["type"] not in rec["siberia"]:
        refuse(o, f"no {o['type']} waits in Siberia", "74.7")
    _gt, cy, _yy = date(state)
    if (year(state), cy) < (1941, 11):
        refuse(o, f"the Siberians are available from the 0/11/41 cycle on (now cycle {cy} of {year(state)})",
               "74.7")
    if level(state) != "total-war":
        refuse(o, "the Siberians stay in Siberia while the Soviet Union is at peace or Limited War", "74.71")
    if o["hex"] not in places(state, "soviet"):
        refuse(o, f"{o['hex']} is not a Soviet hex of the east map edge", "[WiE-base 12.1]")


def apply_siberia(state: Any, o: dict[str, Any], ctx: Any) -> None:
    state["production"]["siberia"].remove(o["type"])
    n = 1 + sum(1 for k in state["units"] if k.startswith("SOV-S"))
    uid = f"SOV-S{n:02d}"
    state["units"][uid] = {"side": "soviet", "nation": "SOV", "type": o["type"], "hex": o["hex"]}
    state["moved"].append(uid)
    ctx.event("siberians", unit=uid, type=o["type"], hex=o["hex"])


def lend_lease_sent(state: Any) -> int:
    """77.82, 77.83: the Lend-Lease arms points that arrive this cycle."""
    from .diplomacy import one_seat

    if one_seat(state, "allied", "soviet"):
        war = int(state["politics"]["war_turn"] or state["turn"])
        return lend_lease_row(1941 + (int(state["turn"]) - war) // 52)
    sent = state["production"].get("lend_lease")
    return lend_lease_row(year(state)) if sent is None else min(int(sent), lend_lease_row(year(state)))


def lend_lease(state: Any, me: str, points: int, o: dict[str, Any] | None) -> None:
    """77.83: the Allied player's Lend-Lease from the next Strategic Cycle on (until changed)."""
    from .diplomacy import one_seat

    rec = state.get("production")
    if me != "allied":
        refuse(o, "only the Allied player sends Lend-Lease", "77.83")
    if rec is None:
        refuse(o, "no Soviet production in this game: Lend-Lease feeds it (76.7: the campaign only)", "77.8")
    if one_seat(state, "allied", "soviet"):
        refuse(o, "in the two-player game Lend-Lease follows the schedule from the Axis invasion", "77.82")
    most = lend_lease_row(year(state))
    if points > most:
        refuse(o, f"Lend-Lease in {year(state)} is at most {most} arms points a cycle", "77.83")
    rec["lend_lease"] = points
