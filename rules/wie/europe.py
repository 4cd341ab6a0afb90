"""Neutrals, partisans and the Straits on any board that has them: Swedish neutrality (73.4), the
Yugoslav partisans (73.5), the Soviet bid for the Western partisans (73.6) and the Black Sea (77.3).

Boards: ``state["rail_extra"]`` (a case's ``rail HEX HEX...``: rail lines no map here prints, such
as Sweden's); ``state["ports_extra"]`` hex -> [class, seas] (a case's ``port HEX CLASS SEAS``);
``state["straits"]`` (the Dardanelles, Sea of Marmara and Bosphorus hexes, map H: a case's
``straits HEX,HEX``); ``politics["paris"]``, the Paris hex where the board has it elsewhere;
``politics["western_partisans"]``: "" (not yet tried), "allied" or "soviet" (73.6);
``politics["partisan_rolls"]``: the 73.6 die reserved by a strict-dice file.
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import parse_hex

from .diplomacy import refuse
from .state import board, country, holder, neutral, year

WESTERN = ("FRP", "ITP")  # 73.6: French and Italian partisans (nation codes of a case's board)
BLACK, PROJECTED = "black", ("aegean", "mediterranean")
# 77.3 "the Aegean and Eastern Mediterranean Seas": the Axis or Soviet projection stops there. The
# map has one Mediterranean; its eastern part is read as the hexes from column 39 east (the Greek
# coast and beyond; Italy's Ionian coast is the Central Mediterranean of the designers' notes).
EAST_MED, EAST_MED_COLUMN = "eastern-mediterranean", 39


# --- 73.4 Swedish neutrality ---------------------------------------------------------------------

def paris(state: Any) -> str:
    got = state["politics"].get("paris")
    if got:
        return str(got)
    return next((str(h) for h, n in board(state).places.items() if n == "Paris"), "")


def swedish_consideration(state: Any) -> bool:
    """73.4: held while Sweden is neutral, lost for good if the Allied player holds Paris after 1/1/43."""
    p = paris(state)
    lost = state["politics"].get("sweden_lost") or (p and year(state) >= 1943 and holder(state, p) == "allied")
    rec = neutral(state, "SWE")
    return not lost and rec["status"] in ("armed", "pro-axis") and not rec["control"]


def taken(state: Any, h: str, side: str) -> None:
    """73.4 "loses any Swedish consideration": for good, once the Allied player holds Paris after 1/1/43."""
    if side == "allied" and h == paris(state) and year(state) >= 1943:
        state["politics"]["sweden_lost"] = True


def rail_hexes(state: Any) -> set[str]:
    return {h for line in state.get("rail_extra", []) for h in line}


def swedish_rail(state: Any, h: str, side: str) -> bool:
    """A neutral Swedish rail hex the Axis may use (73.4)."""
    return side == "axis" and country(state, h) == "SWE" and holder(state, h) == "neutral" and (
        parse_hex(h) in board(state).rail or h in rail_hexes(state)) and swedish_consideration(state)


def check_swedish_step(state: Any, side: str, h: str, last: bool, o: dict[str, Any]) -> None:
    if side != "axis" or country(state, h) != "SWE" or holder(state, h) != "neutral":
        return
    if not swedish_consideration(state):
        refuse(o, "the Axis has lost the Swedish consideration (the Allied player holds Paris after 1/1/43, or "
               "Sweden is no longer neutral): no Swedish rail", "73.4")
    if last:
        refuse(o, f"{h} is in neutral Sweden: the Axis uses its rail in transit, to a German port or "
               "the Malmo connection, and may not stop there", "73.4")


# --- 73.5, 73.6 partisans -------------------------------------------------------------------------

def check_partisan_owner(state: Any, u: dict[str, Any], me: str, o: dict[str, Any]) -> None:
    """73.5: the Yugoslav partisans are the Soviet player's; 73.6: the Western partisans are the
    Allied player's until the Soviet's seizure succeeds."""
    if u["nation"] == "YUG" and u["side"] == "soviet" and me != "soviet":
        refuse(o, "the Yugoslav partisans are deployed and employed by the Soviet player", "73.5")
    if u["nation"] in WESTERN and u["side"] != me:
        refuse(o, f"the Western partisans are controlled by the {u['side']} player", "73.6")


def check_seize(state: Any, me: str, o: dict[str, Any]) -> None:
    p = state["politics"]
    if me != "soviet":
        refuse(o, "only the Soviet player tries to seize the Western partisans", "73.6")
    if p.get("western_partisans") or p.get("partisan_rolls"):
        refuse(o, "the Soviet player tries the seizure once a game", "73.6")
    if not any(u["nation"] in WESTERN and u["hex"] for u in state["units"].values()):
        refuse(o, "there are no Western partisan cadres or units to seize", "73.6")


def apply_seize(state: Any, o: dict[str, Any], ctx: Any) -> None:
    if ctx.strict_dice:
        state["politics"]["partisan_rolls"] = [str(ctx.seat)]  # thrown at the start of the seat's next file
        ctx.reserve_rolls(1)
        ctx.event("partisan-die-reserved")
    else:
        throw(state, ctx)


def throw(state: Any, ctx: Any) -> None:
    (die,) = ctx.roll(6, "73.6: the Soviet seizes the Western partisans on 1-3")
    to = "soviet" if die <= 3 else "allied"
    state["politics"]["western_partisans"] = to
    state["politics"]["partisan_rolls"] = []
    for u in state["units"].values():
        if u["nation"] in WESTERN:
            u["side"] = to
    ctx.event("western-partisans", die=die, side=to)


def throw_pending(state: Any, seat: str, ctx: Any) -> None:
    if seat in state["politics"].get("partisan_rolls", []):
        throw(state, ctx)


# --- 77.3 the Black Sea ------------------------------------------------------------------------------

def straits_held(state: Any, me: str) -> bool:
    s = state.get("straits", [])
    return bool(s) and all(holder(state, h) == me for h in s)


def sevastopol(state: Any, me: str) -> bool:
    h = state["politics"].get("sevastopol") or next(
        (str(x) for x, n in board(state).places.items() if n == "Sevastopol"), "")
    return bool(h) and holder(state, h) == me


def reach(state: Any, me: str, seas: set[str]) -> set[str]:
    """The seas a port of ``seas`` reaches: 77.3 joins the Black Sea and the Aegean/Eastern
    Mediterranean for the player who controls the Straits (the Axis or Soviet also Sevastopol)."""
    if not straits_held(state, me) or (me != "allied" and not sevastopol(state, me)):
        return seas
    if me == "allied" and (BLACK in seas or seas & {*PROJECTED, EAST_MED}):
        return seas | {BLACK, *PROJECTED, EAST_MED}
    if me != "allied" and (BLACK in seas or seas & {"aegean", EAST_MED}):
        return seas | {BLACK, "aegean", EAST_MED}
    return seas


def east_med(h: str, seas: set[str]) -> set[str]:
    """A Mediterranean hex of the eastern part (77.3) is also on ``EAST_MED``."""
    return seas | {EAST_MED} if "mediterranean" in seas and parse_hex(h).col >= EAST_MED_COLUMN else seas


def check_black_sea(state: Any, me: str, common: set[str], o: dict[str, Any]) -> None:
    if me == "allied" and BLACK in common and not straits_held(state, me):
        refuse(o, "the Allied player projects naval transport and assault into the Black Sea only while he "
               "controls the Dardanelles, the Sea of Marmara and the Bosphorus", "77.3")
