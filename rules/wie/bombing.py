"""The strategic air war ([WiE-base 24], authored) and the Allied bombing of Soviet production
(70.2-70.23); its hits count in the collapse of the German economy (77.1, [WiE-base 15.2]).

``state["bombing"]`` (setup.py, from tables.toml ``[strategic_air_war]``, 76.25):

* ``bases``: the Allied bases in operation (slugs: great-britain, france, italy; a board adds
  middle-east or egypt, 70.24); ``sb``, ``escort``: the Allied SB and escort points (24.2);
  ``intercept``: the Axis Intercept points (76.26: 20; strategic only, [WiE-base 13.1], 24.3);
  ``accuracy``: the Bombing Accuracy (24.4; 76.25: 18);
* ``flown``: ``[cycle, sb, escort]`` the points flown this Strategic Cycle (each flies once a cycle);
* ``hits``: center hex -> its hits (M, R, T; 76.25's five bombed centers at the start);
* ``repaired``: center hex -> the cycle its repair die was rolled (24.68: once a cycle);
* ``arms``, ``ploesti``: the Soviet Arms Centers and Ploesti's centers a board places (70.2, 70.23;
  no map here prints them); the Soviet oil centers are ``politics.centers`` of kind resource;
* ``rolls``: raids and repairs whose dice a strict-dice file reserved, thrown at the start of the
  roller's next file (as ``attack``).

Imports only state and diplomacy: callers run 77.1's check after a hit (special.py reads ``hit``).
"""

from __future__ import annotations

from typing import Any

from .diplomacy import refuse
from .state import board, date, front_of, holder, hostile, units_at

# [WiE-base 24.1] (authored): the Air Fronts a base's bombers reach. 70.24: only the Middle East
# and Egypt reach the Soviet production (the East front).
BASE_FRONTS = {"great-britain": ("west",), "france": ("west", "south"), "italy": ("south",),
               "middle-east": ("south", "east"), "egypt": ("south", "east")}
SB_A_DIE = 6  # [WiE-base 24.4]: each full 6 SB reaching the target roll one die
FLAK = 2  # [WiE-base 24.3]: each 2 Intercept (beyond the escorts) or Antiaircraft points down one SB
AA_TYPE = "10-1-10"  # 70.21: each Soviet 10-1-10 on the target is one Antiaircraft point
MAX_HITS = 2  # [WiE-base 24.6]: its own kind, then T (76.25's Leuna: T and R)
OIL_CUT = 10  # 70.24: each oil center hit cuts arms point production 10%


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def initial(tables: dict[str, Any], names: dict[str, Any]) -> dict[str, Any]:
    t = tables.get("strategic_air_war", {})
    hits = {str(names[n]): sorted(k) for n, k in t.get("bombed", {}).items() if n in names}
    axis = tables.get("availability", {}).get("axis", {}).get("air_points", {})
    return {"bases": [slug(b) for b in t.get("bases", [])], "sb": int(t.get("strategic_bombers", 0)),
            "intercept": int(axis.get("intercept", 0)),
            "escort": int(t.get("escorts", 0)), "accuracy": int(t.get("bombing_accuracy", 0)),
            "flown": ["", 0, 0], "hits": hits, "repaired": {}, "arms": [], "ploesti": [], "rolls": []}


def cycle_id(state: Any) -> str:
    _gt, cy, yr = date(state)
    return f"{cy}/{yr % 100:02d}"


def hit(state: Any, h: str) -> bool:
    return bool(state.get("bombing", {}).get("hits", {}).get(h))


def target(state: Any, h: str) -> str:
    """The kind of hit a center takes: M (German Manufacturing, Soviet Arms) or R (German Resource,
    Soviet oil, Ploesti); "P" a Soviet Personnel Center (70.2: no effect); "" none."""
    b, rec = board(state), state.get("bombing", {})
    kind = state["politics"]["centers"].get(h, "")
    if kind in ("personnel", "moscow"):
        return "P"
    if h in rec.get("arms", []):
        return "M"
    if kind == "resource" or h in rec.get("ploesti", []):
        return "R"
    hx = _hex(h)
    return "M" if hx in b.mfg else "R" if hx in b.resource else ""


def _hex(h: str) -> Any:
    from pbem.kit.hexgrid import parse_hex

    return parse_hex(h)


# --- raids ([WiE-base 24.1-24.6], 70.2, 70.21) -----------------------------------------------------

def left(state: Any) -> tuple[int, int]:
    rec = state["bombing"]
    cy, sb, esc = rec["flown"]
    if cy != cycle_id(state):
        sb = esc = 0
    return int(rec["sb"]) - int(sb), int(rec["escort"]) - int(esc)


def check_bomb(state: Any, me: str, o: dict[str, Any]) -> None:
    rec = state.get("bombing")
    if me != "allied" or rec is None:
        refuse(o, "only the Allied player flies strategic bombers", "[WiE-base 24.2]")
    h, kind = o["hex"], target(state, o["hex"])
    if kind == "P":
        refuse(o, f"{h} is a Personnel Center: bombing has no effect on Personnel or Training Centers", "70.2")
    if not kind:
        refuse(o, f"{h} is no Manufacturing, Resource or Arms Center", "[WiE-base 24.6]")
    owner = holder(state, h)
    if not hostile(state, me, owner):
        refuse(o, f"{h} is held by {owner}, not an enemy of the Allied player", "70.2" if owner == "soviet"
               else "[WiE-base 24.2]")
    if o["base"] not in rec["bases"]:
        refuse(o, f"no Allied base in operation at {o['base']} (bases: {', '.join(rec['bases']) or 'none'})",
               "[WiE-base 24.1]")
    front = front_of(state, h)
    if front not in BASE_FRONTS.get(o["base"], ()):
        rule = "70.24" if owner == "soviet" else "[WiE-base 24.1]"
        refuse(o, f"bombers from {o['base']} do not reach the {front} Air Front", rule)
    sb, esc = left(state)
    if not 1 <= int(o["sb"]) <= sb or int(o.get("escort", 0)) > esc:
        refuse(o, f"{sb} SB and {esc} escort points are left this Strategic Cycle (each flies once a cycle)",
               "[WiE-base 24.2]")


def apply_bomb(state: Any, o: dict[str, Any], ctx: Any) -> None:
    """Interception and flak (24.3, 70.21), then the survivors' dice (24.4)."""
    rec, h = state["bombing"], o["hex"]
    sb, esc = int(o["sb"]), int(o.get("escort", 0))
    now = cycle_id(state)
    was_sb, was_esc = (int(rec["flown"][1]), int(rec["flown"][2])) if rec["flown"][0] == now else (0, 0)
    rec["flown"] = [now, was_sb + sb, was_esc + esc]
    owner = holder(state, h)
    # 70.21: no Soviet interceptors; 77.12: after the collapse the Luftwaffe's Intercept points are grounded
    inter = int(rec["intercept"]) if owner == "axis" and not state.get("collapse") else 0
    aa = sum(1 for k in units_at(state, h) if state["units"][k]["type"] == AA_TYPE) if owner == "soviet" else 0
    lost = min(sb, (max(0, inter - esc) + aa) // FLAK)
    rec["sb"] = int(rec["sb"]) - lost
    dice = (sb - lost) // SB_A_DIE
    ctx.event("raid", hex=h, sb=sb, escort=esc, interceptors=inter, aa=aa, lost=lost, dice=dice)
    if not dice:
        return
    roll = {"what": "bomb", "hex": h, "dice": dice, "roller": str(ctx.seat)}
    if ctx.strict_dice:
        rec["rolls"].append(roll)
        ctx.reserve_rolls(dice)
        ctx.event("bomb-dice-reserved", hex=h, rolls=dice)
    else:
        _throw(state, roll, ctx)


def _throw(state: Any, roll: dict[str, Any], ctx: Any) -> None:
    rec, h = state["bombing"], roll["hex"]
    if roll["what"] == "repair":
        (die,) = ctx.roll(6, f"[WiE-base 24.68]: repair of {h} on 1-3")
        hits = rec["hits"].get(h, [])
        if die <= 3 and hits:
            hits.pop()
            if not hits:
                rec["hits"].pop(h, None)
        ctx.event("center-repair", hex=h, die=die, hits=len(rec["hits"].get(h, [])))
        return
    best = min(5, int(rec["accuracy"]) // 6)
    dice = ctx.roll(6, f"[WiE-base 24.4]: bombing {h}, a hit on 1-{best}", int(roll["dice"]))
    for die in dice:
        hits = rec["hits"].setdefault(h, [])
        if die <= best and len(hits) < MAX_HITS:
            hits.append("T" if hits else target(state, h))
    if not rec["hits"][h]:
        rec["hits"].pop(h)
    ctx.event("bombed", hex=h, dice=list(dice), hits=",".join(rec["hits"].get(h, [])) or "-")


def throw_pending(state: Any, seat: str, ctx: Any) -> bool:
    """The dice a strict-dice file reserved; True when a raid was rolled (77.1 is checked then)."""
    rec = state.get("bombing")
    if not rec or not rec["rolls"]:
        return False
    mine = [r for r in rec["rolls"] if r["roller"] == seat]
    rec["rolls"] = [r for r in rec["rolls"] if r["roller"] != seat]
    for r in mine:
        _throw(state, r, ctx)
    return any(r["what"] == "bomb" for r in mine)


# --- repair ([WiE-base 24.68], 70.21, 70.23) --------------------------------------------------------

def check_repair(state: Any, me: str, o: dict[str, Any]) -> None:
    rec, h = state.get("bombing") or {}, o["hex"]
    if not rec.get("hits", {}).get(h):
        refuse(o, f"{h} has no bomb hit to repair", "[WiE-base 24.68]")
    soviet = h in rec["arms"] or h in rec["ploesti"] or state["politics"]["centers"].get(h) == "resource"
    if me != ("soviet" if soviet else "axis") or holder(state, h) != me:
        refuse(o, f"{h} is not a center of yours: the Axis repairs German centers, the Soviet his own (70.21)",
               "70.21" if soviet else "[WiE-base 24.68]")
    if rec["repaired"].get(h) == cycle_id(state) or any(r["hex"] == h and r["what"] == "repair" for r in rec["rolls"]):
        refuse(o, f"{h} was tried this Strategic Cycle: one repair die a center a cycle", "[WiE-base 24.68]")


def apply_repair(state: Any, o: dict[str, Any], ctx: Any) -> None:
    rec = state["bombing"]
    rec["repaired"][o["hex"]] = cycle_id(state)
    roll = {"what": "repair", "hex": o["hex"], "dice": 1, "roller": str(ctx.seat)}
    if ctx.strict_dice:
        rec["rolls"].append(roll)
        ctx.reserve_rolls(1)
        ctx.event("repair-die-reserved", hex=o["hex"])
    else:
        _throw(state, roll, ctx)


# --- 70.22, 70.23: Soviet production ---------------------------------------------------------------

def soviet_arms_lost(state: Any) -> int:
    """70.22: a bombed, unrepaired Arms Center does not contribute (Total War production counts them)."""
    rec = state.get("bombing") or {}
    return sum(1 for h in rec.get("arms", []) if rec["hits"].get(h))


def oil_cut(state: Any) -> int:
    """70.22-70.24: 10% of the arms points for each bombed, unrepaired Soviet oil center, less one
    for each working Ploesti center the Soviet holds (70.23: a backup, never more than the loss)."""
    rec = state.get("bombing") or {}
    oil = [h for h, k in state["politics"]["centers"].items() if k == "resource" and h not in rec.get("ploesti", [])]
    lost = sum(1 for h in oil if rec.get("hits", {}).get(h))
    backup = sum(1 for h in rec.get("ploesti", []) if holder(state, h) == "soviet" and not rec["hits"].get(h))
    return min(100, OIL_CUT * max(0, lost - backup))


def offer_targets(state: Any, limit: int) -> list[tuple[str, str]]:
    """(hex, base) pairs a raid may fly now, for legal_actions."""
    rec = state.get("bombing")
    if not rec or left(state)[0] < 1:
        return []
    hexes = sorted({str(h) for h in board(state).mfg | board(state).resource} | set(rec["arms"]) | set(rec["ploesti"])
                   | {h for h, k in state["politics"]["centers"].items() if k == "resource"})
    out: list[tuple[str, str]] = []
    for h in hexes:
        if not hostile(state, "allied", holder(state, h)):
            continue
        base = next((b for b in rec["bases"] if front_of(state, h) in BASE_FRONTS.get(b, ())), "")
        if base:
            out.append((h, base))
            if len(out) >= limit:
                break
    return out
