"""Rules of the campaign the booklet states beyond the 1945 map's reach, on any board that has
them: fortification ([WiE-base 14], 74.57, 74.61), replacements ([WiE-base 12.3]), the
Non-Aggression Pact's resource grant (74.41), German production limits (77.6), the 1939-40
timetable of Soviet occupation (74.51-74.53) and the surrender of the Soviet Union (74.9).

State (each made on first use, so the 1945 scenario's state is unchanged until then):
``state["forts"]``: hex -> the side that built the Fortification Marker there ([WiE-base 14.1]);
``state["fort_turn"]``: the game-turn of the last Soviet peacetime/Limited War fort (74.57);
``state["grant"]``: {"per_cycle", "received"}: 74.41's points, counted for the Axis each cycle;
``state["german"]``: {"pool", "cycle", "spent"}: German production points (77.6; a case's board);
``state["soviet_surrender"]``: 0, or the game-turn the Soviet Union surrendered (74.9).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import Hex, parse_hex

from .diplomacy import refuse
from .state import (
    HOSTILE,
    board,
    country,
    date,
    holder,
    hostile,
    scenario_data,
    stats,
    status,
    units_at,
    weather,
    year,
    zoc_hexes,
)

GRANT_MOST = 5  # 74.41: "which the Soviets could increase to up five per cycle"
GRANT_PACT = 1  # 74.41: the Pact's grant of one point per cycle


def soviet_level(state: Any) -> str:
    """peace, limited-war or total-war: the Soviet's highest belligerency with anyone."""
    got = [status(state, s, "soviet") for s in ("axis", "allied")]
    return "total-war" if "total-war" in got else "limited-war" if any(g in HOSTILE for g in got) else "peace"


# --- [WiE-base 14] fortification, 74.57, 74.61 --------------------------------------------------

def fort_at(state: Any, h: str) -> bool:
    """A built Fortification Marker that stands: 74.61 dismantles the Soviet's forts in the pre-war
    USSR while he is at Limited War."""
    side = state.get("forts", {}).get(h)
    if side is None or holder(state, h) != side:
        return False  # [WiE-base 14.2]: for the owner of the hex
    return not (side == "soviet" and country(state, h) == "SOV" and soviet_level(state) == "limited-war")


def check_fort(state: Any, me: str, o: dict[str, Any], supplied: set[str]) -> None:
    """``supplied``: the hexes in ``me``'s supply (supply.supplied_hexes: the caller's, so that
    supply, which reads the forts here, is not imported back)."""
    h = o["hex"]
    if holder(state, h) != me or any(state["units"][k]["side"] != me for k in units_at(state, h)):
        refuse(o, f"{h} must be a hex you hold", "[WiE-base 14.1]")
    if h in zoc_hexes(state, me):
        refuse(o, f"{h} is in an enemy zone of control", "[WiE-base 14.1]")
    if h not in supplied:
        refuse(o, f"{h} is not in supply", "[WiE-base 14.1]")
    if fort_at(state, h) or _hx(h) in board(state).forts:
        refuse(o, f"{h} is fortified already", "[WiE-base 14.1]")
    level = soviet_level(state) if me == "soviet" else "total-war"
    if level == "peace":
        if weather(state, board(state).air.get(_hx(h), "-")) != "clear":
            refuse(o, "the Soviet at peace fortifies only in a clear weather game-turn", "74.57")
    elif level == "limited-war":
        if country(state, h) == "SOV":
            refuse(o, "at Limited War the Soviet builds no fortification within the pre-war USSR", "74.61")
    elif int(state["pool"].get(me, {}).get("fort", 0)) < 1:
        refuse(o, f"no Fort point waits in the {me} pool", "[WiE-base 14.1]")
    if level != "total-war" and state.get("fort_turn") == int(state["turn"]):
        refuse(o, "the Soviet fortifies one hex a game-turn short of Total War", "74.57")


def apply_fort(state: Any, me: str, o: dict[str, Any], ctx: Any) -> None:
    level = soviet_level(state) if me == "soviet" else "total-war"
    if level == "total-war":
        state["pool"][me]["fort"] = int(state["pool"][me]["fort"]) - 1
    else:
        state["fort_turn"] = int(state["turn"])
    state.setdefault("forts", {})[o["hex"]] = me
    ctx.event("fortified", side=me, hex=o["hex"])


def _hx(h: str) -> Hex:
    return parse_hex(h)


# --- [WiE-base 12.3] replacements ------------------------------------------------------------------

def rebuild_key(utype: str) -> str:
    kind = stats(utype)["kind"]
    return {"infantry": "ir", "mech": "mr"}.get(kind, "")


def rebuild_cost(utype: str) -> int:
    """[WiE-base 12.3]: one point a battle group (KG/BG), two a division."""
    return 1 if utype.endswith(("KG", "BG")) else 2


def check_reform(state: Any, me: str, o: dict[str, Any], supplied: Any) -> None:
    """[WiE-base 12.5] (authored): one replacement point of its kind turns a battle group on the
    map back into an eliminated division of its nation and kind (units.txt pairs none: the player
    names the division). ``supplied``: ``me``'s supplied hexes (the caller's)."""
    kg, div = state["units"].get(o["unit"]), state["units"].get(o["division"])
    if kg is None or kg["side"] != me or not kg["hex"] or not kg["type"].endswith(("KG", "BG")):
        refuse(o, f"{o['unit']} is no battle group (KG/BG) of yours on the map", "[WiE-base 12.5]")
    if div is None or div["side"] != me or div["hex"] or div["type"].endswith(("KG", "BG")):
        refuse(o, f"{o['division']} is no eliminated division of yours", "[WiE-base 12.5]")
    k = rebuild_key(kg["type"])
    if not k or rebuild_key(div["type"]) != k or div["nation"] != kg["nation"]:
        refuse(o, f"{o['division']} ({div['nation']} {div['type']}) is not a division of the nation and kind "
               f"of {o['unit']} ({kg['nation']} {kg['type']})", "[WiE-base 12.5]")
    if int(state["pool"].get(me, {}).get(k, 0)) < 1:
        refuse(o, f"turning a battle group back into its division takes one {k.upper()} point", "[WiE-base 12.3]")
    if kg["hex"] not in supplied or o["unit"] in state["oos"]:
        refuse(o, f"{o['unit']} is out of supply: the replacements do not reach it", "[WiE-base 12.5]")


def apply_reform(state: Any, me: str, o: dict[str, Any], ctx: Any) -> None:
    kg, div = state["units"][o["unit"]], state["units"][o["division"]]
    k = rebuild_key(kg["type"])
    state["pool"][me][k] = int(state["pool"][me][k]) - 1
    div["hex"], kg["hex"] = kg["hex"], ""
    state["moved"].append(o["division"])  # formed in the Movement Phase, it moves no more ([WiE-base 12.1])
    ctx.event("reformed", unit=o["unit"], division=o["division"], hex=div["hex"])


def fort_taken(state: Any, h: str, side: str) -> None:
    """[WiE-base 14.2]: a Fortification Marker is removed when an enemy unit enters its hex."""
    built = state.get("forts", {}).get(h)
    if built is not None and hostile(state, side, built):
        del state["forts"][h]


def soviet_rebuilt(state: Any, side: str) -> None:
    """76.25 "[Plus 'rebuilt' units]", [WiE-base 12.3]: one free IR and one MR point a game-turn
    from game-turn 7, in the Soviet Reinforcement Phase (the standard scenario)."""
    if side == "soviet" and int(state["turn"]) >= 7 and not state.get("soviet_surrender") and not state.get(
            "campaign"):
        pool = state["pool"].setdefault("soviet", {"units": [], "ap": 0, "ir": 0, "mr": 0, "fort": 0})
        pool["ir"], pool["mr"] = int(pool["ir"]) + 1, int(pool["mr"]) + 1


def check_rebuild(state: Any, me: str, o: dict[str, Any], places: Any) -> None:
    """``places``: ``me``'s free arrival hexes (reinforce.open_places, given by the caller)."""
    u = state["units"].get(o["unit"])
    if u is None or u["side"] != me or u["hex"]:
        refuse(o, f"{o['unit']} is no eliminated unit of yours", "[WiE-base 12.3]")
    k = rebuild_key(u["type"])
    if not k:
        refuse(o, f"{u['type']} is rebuilt by no replacement points (infantry and mechanized units only)",
               "[WiE-base 12.3]")
    need = rebuild_cost(u["type"])
    if int(state["pool"].get(me, {}).get(k, 0)) < need:
        refuse(o, f"{u['type']} takes {need} {k.upper()} points; the {me} pool has "
               f"{state['pool'].get(me, {}).get(k, 0)}", "[WiE-base 12.3]")
    if o["hex"] not in places:
        refuse(o, f"{o['hex']} is not a free {me} arrival hex out of enemy zones of control", "[WiE-base 12.3]")


def apply_rebuild(state: Any, me: str, o: dict[str, Any], ctx: Any) -> None:
    u = state["units"][o["unit"]]
    k = rebuild_key(u["type"])
    state["pool"][me][k] = int(state["pool"][me][k]) - rebuild_cost(u["type"])
    u["hex"] = o["hex"]
    state["moved"].append(o["unit"])  # it arrives in the Movement Phase and moves no more ([WiE-base 12.1])
    ctx.event("rebuilt", unit=o["unit"], hex=o["hex"])


# --- 74.41 the Pact's grant of resource points ------------------------------------------------------

def check_grant(state: Any, me: str, o: dict[str, Any]) -> None:
    if me != "soviet":
        refuse(o, "only the Soviet player grants the Axis his resource points", "74.41")
    if o["points"] > GRANT_MOST:
        refuse(o, f"the Soviet grants at most {GRANT_MOST} resource points a cycle (his five Resource Centers)",
               "74.41")
    if hostile(state, "soviet", "axis"):
        refuse(o, "the grant travels by Soviet and Axis railways under the Pact: not at war", "74.41")


def apply_grant(state: Any, o: dict[str, Any], ctx: Any) -> None:
    state.setdefault("grant", {"per_cycle": GRANT_PACT, "received": 0})["per_cycle"] = o["points"]
    ctx.event("grant", points=o["points"])


def cycle(state: Any) -> None:
    """The Strategic Cycle: 74.41's grant reaches the Axis while the Pact holds (campaign boards:
    where Soviet production exists); 77.6's allocation opens again."""
    if "production" in state and not hostile(state, "soviet", "axis") and not state.get("soviet_surrender"):
        g = state.setdefault("grant", {"per_cycle": GRANT_PACT, "received": 0})
        g["received"] = int(g["received"]) + int(g["per_cycle"])
        if "german" in state:
            state["german"]["pool"] = int(state["german"]["pool"]) + int(g["per_cycle"])
    if "german" in state:
        state["german"]["spent"] = False


# --- 77.6 German production limits -----------------------------------------------------------------

def _ceil30(n: int) -> int:
    return -(-n * 3 // 10)


def check_produce(state: Any, me: str, o: dict[str, Any]) -> None:
    rec = state.get("german")
    if me != "axis" or rec is None:
        refuse(o, "only the Axis player allocates German production, on a board that models it", "77.6")
    if rec["spent"]:
        refuse(o, "German production is allocated once a cycle", "77.6")
    air, naval, other, ss = (int(o.get(k, 0)) for k in ("air", "naval", "other", "ss"))
    total = air + naval + other + ss
    if total > int(rec["pool"]):
        refuse(o, f"{total} points exceed the {rec['pool']} of the German production pool", "77.6")
    if air < _ceil30(total) or 2 * air > total:
        refuse(o, f"air must take {_ceil30(total)} to {total // 2} of {total} points (30% rounded up to 50%)",
               "77.6 (a)")
    if naval > _ceil30(total):
        refuse(o, f"naval units may take at most {_ceil30(total)} of {total} points (30% rounded up)", "77.6 (b)")
    if ss and (year(state), date(state)[1]) < (1942, 1) and not state.get("ss_any_time"):  # the option: no limit
        refuse(o, "no SS units are begun before the 1/42 cycle", "77.6 (c)")


def apply_produce(state: Any, o: dict[str, Any], ctx: Any) -> None:
    rec = state["german"]
    total = sum(int(o.get(k, 0)) for k in ("air", "naval", "other", "ss"))
    rec["pool"], rec["spent"] = int(rec["pool"]) - total, True
    rec["last"] = [int(o.get(k, 0)) for k in ("air", "naval", "other", "ss")]
    ctx.event("german-production", points=total)


# --- 74.51-74.53 the timetable of Soviet occupation at peace -------------------------------------

BALTIC = ("LIT", "LAT", "EST")


def check_timetable(state: Any, u: dict[str, Any], h: str, o: dict[str, Any] | None) -> None:
    """74.5 binds the Soviet at peace with the Axis; at Limited War he is free (74.6)."""
    if u["side"] != "soviet" or hostile(state, "soviet", "axis") or status(state, "axis", "soviet") != "peace":
        return
    c, when = country(state, h), (year(state), date(state)[1])
    p = state["politics"]
    if c == "POL" and when < (1939, 10):
        refuse(o, "the Soviet may begin to move into Poland on 1/10/39", "74.51")
    if c in BALTIC and when < (1939, 11):
        fell = p.get("poland_fallen_turn")
        if not (p.get("poland_fallen") and fell is not None and int(state["turn"]) >= int(fell) + 4):
            refuse(o, "the Soviet enters the Baltic States from 1/11/39, or four game-turns after Poland falls",
                   "74.52")
    if c == "BES" and not p.get("paris_fallen"):
        refuse(o, "the Soviet occupies Bessarabia only after the fall of Paris", "74.53")


# --- 75.94 the surrender of England ---------------------------------------------------------------

def check_england_surrender(state: Any, ctx: Any) -> None:
    """75.94 names England's surrender; its rule (War in the West) is not in the seed. Authored:
    England surrenders when the Axis holds London, where a board has it (no map here shows
    England); the Allied player has lost (75.94), his forces fight on (as the Soviet's partisans
    after 74.9), and the loss stands if London is retaken."""
    if state.get("england_surrender"):
        return
    places = {**{str(h): n for h, n in board(state).places.items()}, **state["politics"].get("places", {})}
    london = [h for h, n in places.items() if n == "London"]
    if london and holder(state, london[0]) == "axis":
        state["england_surrender"] = int(state["turn"])
        if ctx is not None:
            ctx.event("england-surrender", turn=state["england_surrender"])


# --- 74.9 the surrender of the Soviet Union -----------------------------------------------------------

def check_soviet_surrender(state: Any, ctx: Any) -> None:
    """52.16 is not in the seed: the Soviet Union surrenders when the Axis holds Moscow and at
    least half the Soviet Personnel Centers the board lists (Moscow counts), README."""
    if state.get("soviet_surrender"):
        return
    centers = [h for h, k in state["politics"]["centers"].items() if k in ("moscow", "personnel")]
    moscow = [h for h, k in state["politics"]["centers"].items() if k == "moscow"]
    held = [h for h in centers if holder(state, h) == "axis"]
    if not moscow or holder(state, moscow[0]) != "axis" or 2 * len(held) < len(centers):
        return
    state["soviet_surrender"] = int(state["turn"])
    partisans = set(scenario_data(state).tables.get("supply", {}).get("always_supplied_nations", []))
    for u in state["units"].values():
        if u["side"] == "soviet":
            if u["nation"] in partisans or u["nation"] in ("FRP", "ITP"):
                u["side"] = "allied"  # 74.9: post-surrender Soviet forces are the Allied player's
            else:
                u["hex"] = ""
    if "production" in state:
        state["production"]["personnel"] = state["production"]["arms"] = 0
    state["pool"]["soviet"] = {"units": [], "ap": 0, "ir": 0, "mr": 0, "fort": 0}
    state["order"] = [s for s in state["order"] if s != "soviet"]
    if ctx is not None:
        ctx.event("soviet-surrender", turn=state["soviet_surrender"])


def eliminated_seat(state: Any, seat: str) -> bool:
    """74.9: the Soviet player is eliminated: his seat (holding no other side) has no phase left."""
    return bool(state.get("soviet_surrender")) and list(state["seats"].get(seat, [])) == ["soviet"]


def refuse_surrendered(state: Any, sides: list[str], o: dict[str, Any]) -> None:
    if state.get("soviet_surrender") and sides == ["soviet"]:
        refuse(o, "the Soviet Union has surrendered: the Soviet player is eliminated", "74.9")


# --- 74.11, 74.24, 74.54, 74.6: where the Soviet army stands when a cycle begins ---------------------
# A board lists its district cities (``state["districts"]``, a case's ``district HEX``) and the
# Soviet European land frontier hexes (``state["frontier"]``, ``frontier HEX,HEX``); no map here
# draws them. "When the music stops" (74.54) is the end of the Soviet player-turn of a cycle's
# fourth game-turn: that file is refused if the army is out of place.
DISTRICT_RANGE, FRONT_RANGE = 5, 3  # 74.11, 74.24


def _covered(state: Any) -> set[str]:
    from .state import neighbours

    out: set[str] = set()
    for u in state["units"].values():
        if u["side"] == "soviet" and u["hex"] and stats(u["type"])["att"] > 0:
            out |= {u["hex"], *neighbours(u["hex"])}
    return out


def relieved(state: Any) -> bool:
    """74.25: France neither Vichy nor fallen by the 3/5/41 requirement date relieves the Soviet of
    every deployment requirement but the Siberians' (the fall of Paris stands for both, 74.53)."""
    gt, cy, _yr = date(state)
    return (year(state), cy, gt) >= (1941, 5, 3) and not state["politics"].get("paris_fallen")


def finish_soviet(state: Any) -> None:
    if state["phase"] != "soviet-interdiction" or date(state)[0] != 4:
        return
    districts, frontier = state.get("districts", []), state.get("frontier", [])
    if not districts and not frontier:
        return
    level = soviet_level(state)
    if level == "total-war" or (level == "peace" and relieved(state)):
        return
    gap = sorted(set(frontier) - _covered(state))
    if gap:
        rule = "74.6" if level == "limited-war" else "74.24"
        refuse(None, f"the Soviet frontier must be garrisoned by units or zones of control: {', '.join(gap[:8])}",
               rule)
    if level != "peace":
        return
    from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID

    for k, u in sorted(state["units"].items()):
        if u["side"] != "soviet" or not u["hex"] or stats(u["type"])["kind"] in ("sup", "rr"):
            continue
        hx = parse_hex(u["hex"])
        if not any(GRID.distance(hx, parse_hex(d)) <= DISTRICT_RANGE for d in districts) and not any(
                GRID.distance(hx, parse_hex(f)) <= FRONT_RANGE for f in frontier):
            refuse(None, f"{k} belongs to no District (within {DISTRICT_RANGE} hexes of its city) or Front "
                   f"(within {FRONT_RANGE} of the frontier) when the cycle begins", "74.54")
