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
    political N | center HEX moscow|personnel|resource | entered HEX   71.4
    war-turn N                        the Axis-Soviet war began on game-turn N (72.0)
    country HEX CODE [HOLDER]         the hex lies in CODE (TUR, FIN...), held by HOLDER (neutral)
    neutral CODE STATUS [CONTROL [BY]]  armed | pro-axis | axis | attacked | collapsed (72, 73)
    winter-war yes|no | poland-fallen | date T/C/YY (game-turn 1 falls on it) | rome yes|no (71.2)
    suppressed SIDE PORT              a port SIDE's Port Suppression closes ([WiE-base 13.3])
    minors on | minors NATION mobilized N | minors NATION pool TYPE,TYPE   73.24-73.36 (RUM, HUN)
    lake HEX                          an all-lake hex (77.2)
    line YEAR HEX,HEX [area HEX,HEX]  the 1941/1942 start line and the hexes between it and the border (72.1, 72.3)
    production P A [ARMS_CENTERS [LEVEL]] | siberia TYPE,TYPE | lend-lease N   Soviet production (74.3-74.7, 77.8)
    siberian-arms N                   Siberia's Arms Centers (74.9: they produce after the surrender)
    collapse N                        the German economy collapsed on game-turn N (77.1)
    transport SIDE naval|amph|air N | invaded N   transport points; the 76.51 invasion's game-turn
    setup on                          in the Starting Sequence (76.3; with phase setup-1/4/5)
    fort HEX SIDE | rail HEX HEX... | port HEX CLASS SEAS | straits HEX,HEX | paris HEX | sevastopol HEX
    poland-fell N | paris-fallen | german N | grant N | dead UNIT | soviet-surrendered N | campaign on
    england-surrendered N             England surrendered on game-turn N (75.94)
    place HEX NAME                    a city the board has elsewhere (75.9)
    lake-side HEX HEX                 an all-lake hexside (77.2)
    district HEX | frontier HEX,HEX   Soviet district cities and frontier hexes (74.11, 74.24, 74.54, 74.6)
                                      campaign.py, europe.py (14, 73.4, 74.41-74.53, 74.9, 77.3, 77.6)
    option ss-any-time                the game option ss_any_time (77.6 (c) disregarded)
    hits HEX KIND[,KIND]|- | base NAME | bombers SB ESCORT [ACCURACY] | intercept N | arms-center HEX
    ploesti HEX
                                      bombing.py ([WiE-base 24], 70.2, 70.23: a Ploesti center starts wrecked)

POSTSTATE lines:

    unit ID at HEX | unit ID eliminated | status A B STATE | associated A B yes|no
    phase PHASE | active SEAT | turn N | order A,B,C | held HEX SIDE | air-points SIDE FRONT N
    air SEAT sealed|opened | over yes|no | proposals N | air-left FRONT SIDE MISSION N
    interdiction SIDE HEX,HEX|- | suppressed SIDE HEX,HEX|- | cut HEX yes|no | supply UNIT in|out N | standing N
    pool SIDE KEY VALUE | minors NATION mobilized N | minors NATION pool TYPE,TYPE|-
    political N | neutral CODE STATUS CONTROL|- | winter-war yes|no|- | flips N | collapse N
    transport SIDE KIND N | invaded N
    production personnel|arms|level|total_cycles|stockpiles|siberia VALUE
    forts HEX,HEX|- | grant per_cycle|received N | german pool N | soviet-surrender N | england-surrender N
    western-partisans SIDE|- | sweden-lost yes|no | victory SIDE decisive|substantial|marginal|none|lost
    hits HEX KIND,KIND|- | bombers sb|escort|intercept N      [WiE-base 24]
"""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidInput

from . import production
from .setup import BASE, new_state
from .state import STEPS, associated, holder, key, neutral, seat_of

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
        side = STEPS.get(w[1], w[1].split("-")[0])
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
    elif not _pre_politics(state, w):
        raise ValueError("unknown PRESTATE line")


def _pre_politics(state: Any, w: list[str]) -> bool:
    """The lines of 71.4-74 (politics.py, production.py): boards at any date, with any neutral."""
    head, p = w[0], state["politics"]
    if head == "political":
        p["pp"] = int(w[1])
    elif head == "center":  # center HEX moscow|personnel|resource
        p["centers"][w[1]] = w[2]
    elif head == "country":  # country HEX CODE [HOLDER]: a hex of CODE, held by HOLDER (default neutral)
        p["countries"][w[1]] = w[2]
        state["held"][w[1]] = w[3] if len(w) > 3 else "neutral"
    elif head == "neutral":  # neutral CODE STATUS [CONTROL [BY]]
        p["neutrals"][w[1]] = {"status": w[2], "control": _dash(w, 3), "by": _dash(w, 4)}
    elif head == "entered":  # entered HEX: a Soviet center the Axis holds by entry (71.4)
        p["entered"].append(w[1])
    elif head == "war-turn":  # war-turn N: the Axis and Soviet players went to war on game-turn N (72.0)
        p["war_turn"] = int(w[1])
    elif head == "winter-war":
        p["winter_war"] = w[1]
    elif head == "poland-fallen":
        p["poland_fallen"] = True
    elif head == "suppressed":  # suppressed SIDE HEX: SIDE's Port Suppression closes HEX ([WiE-base 13.3])
        state.setdefault("suppressed", {}).setdefault(w[1], []).append(w[2])
    elif head == "minors":  # minors on | minors NATION mobilized N | minors NATION pool TYPE,TYPE (73.2, 73.3)
        from .minors import new

        rec = p.setdefault("minors", new())
        if w[1] != "on":
            rec[w[1]][w[2]] = int(w[3]) if w[2] == "mobilized" else w[3].split(",")
    elif head == "line":  # line YEAR HEX,HEX [area HEX,HEX]: a Finnish start line and its area (72.1, 72.3)
        p.setdefault("lines", {})[w[1]] = {"line": w[2].split(","), "area": w[4].split(",") if len(w) > 4 else []}
    elif head == "lake":  # lake HEX: an all-lake hex (77.2; no map here prints one)
        state.setdefault("lakes", []).append(w[1])
    elif head == "rome":  # rome yes|no: the Allied player has seized Rome (71.2)
        p["rome"] = w[1] == "yes"
    elif head == "date":  # date T/C/YY: game-turn 1 falls on this date
        state["first_turn"], state["turn"] = w[1], 1
    elif head == "production":  # production PERSONNEL ARMS [ARMS_CENTERS [LEVEL]]
        state["production"] = production.new(int(w[1]), int(w[2]), int(w[3]) if len(w) > 3 else 0)
        if len(w) > 4:
            state["production"]["level"] = w[4]
    elif head == "siberia":
        state["production"]["siberia"] = w[1].split(",")
    elif head == "siberian-arms":  # siberian-arms N: Siberia's Arms Centers (74.9's post-surrender production)
        state["production"]["siberian_arms"] = int(w[1])
    elif head == "lend-lease":  # lend-lease N: the Allied Lend-Lease pledge (77.83)
        state["production"]["lend_lease"] = int(w[1])
    elif head == "transport":  # transport SIDE naval|amph|air N: points (76.26)
        state["transport"]["points"][w[1]][w[2]] = int(w[3])
    elif head == "invaded":  # invaded N: the first Allied assault on the West front was on game-turn N (76.51)
        state["transport"]["invaded"] = int(w[1])
    elif head == "setup":  # setup on: in the Starting Sequence of 76.3 (the starting_sequence option)
        state["setup"] = True
        from .startup import cut_soviet_rail

        cut_soviet_rail(state)  # 76.2: the rail the Soviet repairs at step 5
    elif head == "collapse":  # collapse N: the German economy collapsed on game-turn N (77.1)
        state["collapse"] = int(w[1])
    elif not _pre_campaign(state, w):
        return False
    return True


def _pre_campaign(state: Any, w: list[str]) -> bool:
    """The lines of campaign.py and europe.py: forts, rail and ports no map here prints."""
    head, p = w[0], state["politics"]
    if head == "fort":  # fort HEX SIDE: a built Fortification Marker ([WiE-base 14])
        state.setdefault("forts", {})[w[1]] = w[2]
    elif head == "rail":  # rail HEX HEX...: a rail line (73.4's Swedish rail)
        state.setdefault("rail_extra", []).append(w[1:])
    elif head == "port":  # port HEX major|minor SEA[,SEA]: a port (77.3)
        state.setdefault("ports_extra", {})[w[1]] = [w[2], w[3]]
    elif head == "straits":  # straits HEX,HEX: the Dardanelles, Marmara and Bosphorus hexes (77.3)
        state["straits"] = w[1].split(",")
    elif head in ("paris", "sevastopol"):  # paris HEX | sevastopol HEX: where the board has it
        p[head] = w[1]
    elif head == "poland-fell":  # poland-fell N: Poland fell on game-turn N (74.52)
        p["poland_fallen"], p["poland_fallen_turn"] = True, int(w[1])
    elif head == "paris-fallen":  # the fall of Paris (France's, 74.53)
        p["paris_fallen"] = True
    elif head == "german":  # german N: German production points to allocate (77.6)
        state["german"] = {"pool": int(w[1]), "spent": False}
    elif head == "dead":  # dead UNIT: the unit has been eliminated ([WiE-base 12.3])
        state["units"][w[1]]["hex"] = ""
    elif head == "england-surrendered":  # england-surrendered N: England surrendered on game-turn N (75.94)
        state["england_surrender"] = int(w[1])
    elif head == "soviet-surrendered":  # soviet-surrendered N: the Soviet Union surrendered on game-turn N (74.9)
        state["soviet_surrender"] = int(w[1])
    elif head == "lake-side":  # lake-side HEX HEX: an all-lake hexside (77.2)
        state.setdefault("lake_sides", []).append(sorted(w[1:3]))
    elif head == "district":  # district HEX: a Soviet Military District's city (74.11)
        state.setdefault("districts", []).append(w[1])
    elif head == "frontier":  # frontier HEX,HEX: the Soviet European land frontier hexes (74.24, 74.6)
        state["frontier"] = w[1].split(",")
    elif head == "campaign":  # campaign on: the three-player campaign's victory (75.9) instead of 76.4
        state["campaign"] = True
    elif head == "place":  # place HEX NAME: a named city the board has elsewhere (75.9)
        p.setdefault("places", {})[w[1]] = w[2]
    elif head == "option" and w[1] == "ss-any-time":  # option ss-any-time: 77.6 (c) disregarded
        state["ss_any_time"] = True
    elif head == "grant":  # grant N: 74.41's points a cycle
        state["grant"] = {"per_cycle": int(w[1]), "received": 0}
    else:
        return _pre_bombing(state, w)
    return True


def _pre_bombing(state: Any, w: list[str]) -> bool:
    """The lines of bombing.py ([WiE-base 24], 70.2-70.23)."""
    head, rec = w[0], state["bombing"]
    if head == "hits":  # hits HEX KIND,KIND|-: a center's bomb hits
        rec["hits"].pop(w[1], None)
        if w[2] != "-":
            rec["hits"][w[1]] = w[2].split(",")
    elif head == "base":  # base NAME: an Allied base in operation (middle-east, egypt: 70.24)
        rec["bases"].append(w[1])
    elif head == "bombers":  # bombers SB ESCORT [ACCURACY]
        rec["sb"], rec["escort"] = int(w[1]), int(w[2])
        rec["accuracy"] = int(w[3]) if len(w) > 3 else rec["accuracy"]
    elif head == "intercept":  # intercept N: the Axis Intercept points (76.26: 20)
        rec["intercept"] = int(w[1])
    elif head == "arms-center":  # arms-center HEX: a Soviet Arms Center on the board (70.2)
        rec["arms"].append(w[1])
    elif head == "ploesti":  # ploesti HEX: one of Ploesti's centers, wrecked until repaired (70.23)
        rec["ploesti"].append(w[1])
        rec["hits"][w[1]] = ["R"]
    else:
        return False
    return True


def _dash(w: list[str], i: int) -> str:
    return "" if len(w) <= i or w[i] == "-" else w[i]


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
    if head == "minors":  # minors NATION mobilized N | minors NATION pool TYPE,TYPE|-
        r = state["politics"].get("minors", {}).get(w[1], {})
        return (str(r.get("mobilized")) if w[2] == "mobilized" else ",".join(r.get("pool", [])) or "-"), w[3]
    if head == "suppressed":  # suppressed SIDE HEX,HEX|-
        return ",".join(state.get("suppressed", {}).get(w[1], [])) or "-", w[2]
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
    return _post_politics(state, w)


def _post_politics(state: Any, w: list[str]) -> tuple[Any, Any]:
    head, p = w[0], state["politics"]
    if head == "political":
        return str(p["pp"]), w[1]
    if head == "neutral":  # neutral CODE STATUS CONTROL (- for none)
        rec = neutral(state, w[1])
        return f"{rec['status']} {rec['control'] or '-'}", " ".join(w[2:])
    if head == "winter-war":
        return p["winter_war"] or "-", w[1]
    if head == "collapse":
        return str(state["collapse"]), w[1]
    if head == "transport":  # transport SIDE KIND N: points left
        return str(state["transport"]["points"][w[1]][w[2]]), w[3]
    if head == "invaded":
        return str(state["transport"]["invaded"]), w[1]
    if head == "flips":
        return str(len(p["flips"])), w[1]
    if head == "hits":  # hits HEX KIND,KIND|-
        return ",".join(state["bombing"]["hits"].get(w[1], [])) or "-", w[2]
    if head == "bombers":  # bombers sb|escort N: the Allied points left (losses are for good)
        return str(state["bombing"][w[1]]), w[2]
    if head in ("forts", "grant", "german", "soviet-surrender", "england-surrender", "western-partisans",
                "sweden-lost", "victory"):
        return _post_campaign(state, w)
    if head == "production":  # production KEY VALUE
        got = state.get("production", {}).get(w[1], "-")
        return (",".join(map(str, got)) or "-") if isinstance(got, list) else str(got), w[2]
    return "unknown POSTSTATE line", ""


def _post_campaign(state: Any, w: list[str]) -> tuple[Any, Any]:
    head, p = w[0], state["politics"]
    if head == "forts":  # forts HEX,HEX|-
        return ",".join(sorted(state.get("forts", {}))) or "-", w[1]
    if head == "grant":  # grant per_cycle|received N
        return str(state.get("grant", {}).get(w[1], "-")), w[2]
    if head == "german":  # german pool N
        return str(state.get("german", {}).get(w[1], "-")), w[2]
    if head == "soviet-surrender":
        return str(state.get("soviet_surrender", 0)), w[1]
    if head == "england-surrender":
        return str(state.get("england_surrender", 0)), w[1]
    if head == "victory":  # victory SIDE LEVEL (75.9)
        return state.get("victory", {}).get(w[1], "-"), w[2]
    if head == "western-partisans":
        return p.get("western_partisans") or "-", w[1]
    return ("yes" if p.get("sweden_lost") else "no"), w[1]
