"""The verbs of campaign.py and europe.py, with their offers (joined to verbs.TABLE):

    fort HEX                                  [WiE-base 14.1], 74.57, 74.61 (movement phase)
    rebuild UNIT HEX                          [WiE-base 12.3] (movement phase)
    reform UNIT DIVISION                      [WiE-base 12.3, 12.5] (movement phase)
    grant N                                   74.41 (any file of the Soviet)
    produce air N naval N other N [ss N]      77.6 (any file of the Axis, once a cycle; campaign boards)
    seize-partisans                           73.6 (any file of the Soviet, once a game)
    repair HEX [HEX...]                       76.2 (76.3 step 5: a segment of Soviet rail)
    bomb HEX sb N [escort N] from BASE        [WiE-base 24], 70.2 (Allied Air Interdiction Phase)
    repair-center HEX                         [WiE-base 24.68], 70.21 (the holder's Movement Phase)
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.errors import IllegalOrder
from pbem.kit.orders import Verb, resolve_name
from pbem.rulesapi import Action, Arg

from . import bombing, campaign, europe, ground, special, startup
from .data import SIDES
from .diplomacy import refuse
from .reinforce import open_places
from .state import sides_of
from .supply import supplied_hexes

OFFERED = 6  # hexes listed an offer (the verb takes any legal one)


def _phases(*names: str) -> tuple[str, ...]:
    return tuple(f"{s}-{n}" for s in SIDES for n in names)


def _mine(env: Any, side: str, rule: str, o: dict[str, Any]) -> str:
    if side not in sides_of(env.state, env.seat):
        refuse(o, f"only the {side} player gives this order", rule)
    return side


def _ok(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except IllegalOrder:
        return False
    return True


# --- parsers ------------------------------------------------------------------------------------

def _p_hex(ln: Any, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()


def _p_rebuild(ln: Any, o: dict[str, Any]) -> None:
    col, tok = ln.take("an eliminated unit")
    dead = [k for k, u in ln.state["units"].items() if not u["hex"]]
    o["unit"] = resolve_name(dead, tok.upper(), ln.no, col, hint="an eliminated unit, named as in units.txt")
    o["hex"] = ln.hex()


def _p_reform(ln: Any, o: dict[str, Any]) -> None:
    o["unit"] = ln.unit()
    col, tok = ln.take("an eliminated division")
    dead = [k for k, u in ln.state["units"].items() if not u["hex"]]
    o["division"] = resolve_name(dead, tok.upper(), ln.no, col, hint="an eliminated unit, named as in units.txt")


def _number(ln: Any, what: str) -> int:
    col, tok = ln.take(what)
    if not tok.isdigit() or int(tok) > 999:
        raise ln.err(f"{what}: a number from 0 to 999", col)
    return int(tok)


def _p_grant(ln: Any, o: dict[str, Any]) -> None:
    o["points"] = _number(ln, "resource points a cycle")


def _p_produce(ln: Any, o: dict[str, Any]) -> None:
    while ln.more():
        k = ln.word(("air", "naval", "other", "ss"), "air, naval, other or ss")
        o[k] = _number(ln, f"{k} production points")


def _p_path(ln: Any, o: dict[str, Any]) -> None:
    o["path"] = [ln.hex()]
    while ln.more():
        o["path"].append(ln.hex())


def _p_nothing(ln: Any, o: dict[str, Any]) -> None:
    return None


def _p_bomb(ln: Any, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()
    ln.word(("sb",), "sb")
    o["sb"] = _number(ln, "strategic bomber points")
    if ln.peek() == "escort":
        ln.take("escort")
        o["escort"] = _number(ln, "escort points")
    ln.word(("from",), "from BASE")
    o["base"] = ln.word(tuple(bombing.BASE_FRONTS), "an Allied base")


# --- checks and effects ------------------------------------------------------------------------------

def _c_fort(env: Any, o: dict[str, Any]) -> None:
    me = ground.acting_side(env.state)
    campaign.check_fort(env.state, me, o, supplied_hexes(env.state, me))


def _a_fort(env: Any, o: dict[str, Any]) -> None:
    campaign.apply_fort(env.state, ground.acting_side(env.state), o, env.ctx)


def _c_rebuild(env: Any, o: dict[str, Any]) -> None:
    me = ground.acting_side(env.state)
    campaign.check_rebuild(env.state, me, o, open_places(env.state, me))


def _a_rebuild(env: Any, o: dict[str, Any]) -> None:
    campaign.apply_rebuild(env.state, ground.acting_side(env.state), o, env.ctx)


def _c_reform(env: Any, o: dict[str, Any]) -> None:
    me = ground.acting_side(env.state)
    campaign.check_reform(env.state, me, o, supplied_hexes(env.state, me))


def _a_reform(env: Any, o: dict[str, Any]) -> None:
    campaign.apply_reform(env.state, ground.acting_side(env.state), o, env.ctx)


def _c_grant(env: Any, o: dict[str, Any]) -> None:
    campaign.check_grant(env.state, _mine(env, "soviet", "74.41", o), o)


def _a_grant(env: Any, o: dict[str, Any]) -> None:
    campaign.apply_grant(env.state, o, env.ctx)


def _c_produce(env: Any, o: dict[str, Any]) -> None:
    campaign.check_produce(env.state, _mine(env, "axis", "77.6", o), o)


def _a_produce(env: Any, o: dict[str, Any]) -> None:
    campaign.apply_produce(env.state, o, env.ctx)


def _c_seize(env: Any, o: dict[str, Any]) -> None:
    europe.check_seize(env.state, _mine(env, "soviet", "73.6", o), o)


def _a_seize(env: Any, o: dict[str, Any]) -> None:
    europe.apply_seize(env.state, o, env.ctx)


def _c_repair(env: Any, o: dict[str, Any]) -> None:
    _mine(env, "soviet", "76.2", o)
    startup.check_repair(env.state, o)


def _a_repair(env: Any, o: dict[str, Any]) -> None:
    startup.apply_repair(env.state, o, env.ctx)


def _c_bomb(env: Any, o: dict[str, Any]) -> None:
    bombing.check_bomb(env.state, _mine(env, "allied", "[WiE-base 24.2]", o), o)


def _a_bomb(env: Any, o: dict[str, Any]) -> None:
    bombing.apply_bomb(env.state, o, env.ctx)
    special.check_collapse(env.state, env.ctx)  # 77.1 "through some combination of bombing and ground action"


def _c_mend(env: Any, o: dict[str, Any]) -> None:
    bombing.check_repair(env.state, ground.acting_side(env.state), o)


def _a_mend(env: Any, o: dict[str, Any]) -> None:
    bombing.apply_repair(env.state, o, env.ctx)


# --- offers -----------------------------------------------------------------------------------------

def offer_fort(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    if me not in sides_of(state, seat):
        return []
    if me != "soviet" and int(state["pool"].get(me, {}).get("fort", 0)) < 1:
        return []
    from .state import zoc_hexes

    supplied = supplied_hexes(state, me)
    near = supplied - zoc_hexes(state, me)  # the check's dearest tests, once
    hexes: list[str] = []
    for h in sorted({u["hex"] for u in state["units"].values() if u["side"] == me and u["hex"]} & near):
        if _ok(lambda st, m, o: campaign.check_fort(st, m, o, supplied), state, me, {"verb": "fort", "hex": h}):
            hexes.append(h)
            if len(hexes) >= OFFERED:
                break
    if not hexes:
        return []
    return [Action("fort", (Arg("hex", "hex", tuple(hexes)),), "WiE-base 14.1",
                   "a Fortification Marker where your unit stands")]


def offer_rebuild(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    if me not in sides_of(state, seat):
        return []
    pool = state["pool"].get(me, {})
    dead = sorted(k for k, u in state["units"].items() if u["side"] == me and not u["hex"]
                  and int(pool.get(campaign.rebuild_key(u["type"]) or "-", 0)) >= campaign.rebuild_cost(u["type"]))
    places = open_places(state, me)[:OFFERED]
    if not dead or not places:
        return []
    return [Action("rebuild", (Arg("unit", "unit", tuple(dead[:OFFERED])), Arg("hex", "hex", tuple(places))),
                   "WiE-base 12.3", "an eliminated unit returns for a replacement point")]


def offer_reform(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    pool = state["pool"].get(me, {})
    if me not in sides_of(state, seat) or not (int(pool.get("ir", 0)) or int(pool.get("mr", 0))):
        return []
    units = state["units"]
    kgs = [k for k, u in sorted(units.items()) if u["side"] == me and u["hex"] and u["type"].endswith(("KG", "BG"))]
    divs = [k for k, u in sorted(units.items()) if u["side"] == me and not u["hex"]
            and not u["type"].endswith(("KG", "BG"))]
    if not kgs or not divs:
        return []
    supplied = supplied_hexes(state, me)
    out = []
    for kg in kgs:
        for div in divs:
            o = {"verb": "reform", "unit": kg, "division": div}
            if _ok(campaign.check_reform, state, me, o, supplied):
                out.append(Action("reform", (Arg("unit", "unit", (kg,)), Arg("division", "unit", (div,))),
                                  "WiE-base 12.5", "a battle group back into its division for a replacement point"))
                break
        if len(out) >= OFFERED:
            break
    return out


def offer_grant(state: Any, seat: str) -> list[Action]:
    if "soviet" not in sides_of(state, seat) or "production" not in state:
        return []
    if not _ok(campaign.check_grant, state, "soviet", {"verb": "grant", "points": 1}):
        return []
    return [Action("grant", (Arg("points", "number", tuple(str(n) for n in range(1, 6))),), "WiE 74.41",
                   "resource points a cycle to the Axis under the Pact")]


def offer_produce(state: Any, seat: str) -> list[Action]:
    rec = state.get("german")
    if "axis" not in sides_of(state, seat) or rec is None or rec["spent"] or int(rec["pool"]) < 2:
        return []
    total = int(rec["pool"])
    air = -(-total * 3 // 10)
    o = {"verb": "produce", "air": air, "naval": 0, "other": total - air}
    if not _ok(campaign.check_produce, copy.deepcopy(state), "axis", o):
        return []
    return [Action("produce", (Arg("air", "number", (str(air),), keyword="air"),
                               Arg("other", "number", (str(total - air),), keyword="other")),
                   "WiE 77.6", "allocate the cycle's German production (30-50% to air)")]


def offer_seize(state: Any, seat: str) -> list[Action]:
    if "soviet" not in sides_of(state, seat):
        return []
    if not _ok(europe.check_seize, state, "soviet", {"verb": "seize-partisans"}):
        return []
    return [Action("seize-partisans", (), "WiE 73.6", "roll to take control of the Western partisans (1-3)")]


def offer_repair(state: Any, seat: str) -> list[Action]:
    """76.2: the lowest-numbered unrepaired Soviet rail hexes, one a segment (the verb takes any path)."""
    if "soviet" not in sides_of(state, seat) or state["phase"] != "setup-5":
        return []
    hexes = [h for h in state["cut"] if _ok(startup.check_repair, state, {"verb": "repair", "path": [h]})]
    if not hexes:
        return []
    return [Action("repair", (Arg("path", "hex", tuple(hexes[:OFFERED]), repeat=True),), "WiE 76.2",
                   "repair a segment of rail west of the Start Line (100 hexes, segments of 20)")]


def offer_bomb(state: Any, seat: str) -> list[Action]:
    if "allied" not in sides_of(state, seat) or state["phase"] != "allied-interdiction":
        return []
    pairs = bombing.offer_targets(state, OFFERED)
    if not pairs:
        return []
    sb, esc = bombing.left(state)
    return [Action("bomb", (Arg("hex", "hex", (h,)), Arg("sb", "number", (str(sb),), keyword="sb"),
                            Arg("escort", "number", (str(esc),), keyword="escort", optional=True),
                            Arg("base", "word", (base,), keyword="from")),
                   "WiE-base 24.2", "a strategic bombing raid on an enemy center") for h, base in pairs]


def offer_mend(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    if me not in sides_of(state, seat) or not str(state["phase"]).endswith("-movement"):
        return []
    hexes = [h for h in sorted(state.get("bombing", {}).get("hits", {}))
             if _ok(bombing.check_repair, state, me, {"verb": "repair-center", "hex": h})]
    if not hexes:
        return []
    return [Action("repair-center", (Arg("hex", "hex", tuple(hexes[:OFFERED])),), "WiE-base 24.68",
                   "roll to repair a bombed center (1-3 removes a hit)")]


VERBS: list[Verb[Any, Any]] = [
    Verb("fort", _p_hex, _a_fort, _c_fort, phases=_phases("movement"),
         help="fort HEX    # [WiE-base 14.1], 74.57, 74.61: a Fortification Marker (a Fort point)", offer=offer_fort),
    Verb("rebuild", _p_rebuild, _a_rebuild, _c_rebuild, phases=_phases("movement"),
         help="rebuild UNIT HEX    # [WiE-base 12.3]: an eliminated unit for an IR or MR point", offer=offer_rebuild),
    Verb("reform", _p_reform, _a_reform, _c_reform, phases=_phases("movement"),
         help="reform UNIT DIVISION    # [WiE-base 12.5]: a battle group back into an eliminated division (1 point)",
         offer=offer_reform),
    Verb("grant", _p_grant, _a_grant, _c_grant,
         help="grant N    # 74.41: the Soviet's resource points a cycle to the Axis (0-5, at peace)",
         offer=offer_grant),
    Verb("produce", _p_produce, _a_produce, _c_produce,
         help="produce air N naval N other N [ss N]    # 77.6: German production a cycle (campaign boards)",
         offer=offer_produce),
    Verb("seize-partisans", _p_nothing, _a_seize, _c_seize,
         help="seize-partisans    # 73.6: the Soviet's one roll for the Western partisans", offer=offer_seize),
    Verb("repair", _p_path, _a_repair, _c_repair, phases=("setup-5",),
         help="repair HEX [HEX...]    # 76.2: a Soviet rail segment at step 5 (100 hexes, 20 a segment)",
         offer=offer_repair),
    Verb("bomb", _p_bomb, _a_bomb, _c_bomb, phases=("allied-interdiction",),
         help="bomb HEX sb N [escort N] from BASE    # [WiE-base 24], 70.2: a strategic bombing raid",
         offer=offer_bomb),
    Verb("repair-center", _p_hex, _a_mend, _c_mend, phases=_phases("movement"),
         help="repair-center HEX    # [WiE-base 24.68], 70.21: a die to repair a bombed center (1-3)",
         offer=offer_mend),
]
