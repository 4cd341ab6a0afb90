"""Legal actions of the verbs verbs.py's first offers left out: rail, place, ap, sail, land,
drop, siberia, deploy (76.3), winter-war, interdict and the diplomacy verbs.

Each offer lists only what the verb's own check accepts now (the check runs on each candidate),
so ``pbem board``, the order template and the bots never serve an order the rules refuse by
itself. Where a choice would list hundreds of hexes (an air drop, an interdiction marker) the
offer keeps the hexes next to enemy units, which is where a player uses them; the verb accepts
any legal hex all the same.
"""

from __future__ import annotations

import copy
import functools
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from pbem.errors import IllegalOrder
from pbem.kit.hexgrid import parse_hex
from pbem.rulesapi import Action, Arg

from . import diplomacy, ground, politics, production, rail, reinforce, special, startup, transport
from .data import FRONTS, SIDES
from .state import STEPS, board, front_of, hostile, is_land, neighbours, scenario_data, sides_of, stats, year, zoc_hexes
from .supply import supplied_hexes

PATHS = 8  # rail destinations listed an offer (the verb takes any legal one)


def legal(check: Callable[..., object], *args: Any) -> bool:
    """Whether ``check(*args)`` accepts (a check raises IllegalOrder and changes nothing)."""
    try:
        check(*args)
    except IllegalOrder:
        return False
    return True


def _mine(state: Any) -> list[tuple[str, dict[str, Any]]]:
    me = ground.acting_side(state)
    return sorted((k, u) for k, u in state["units"].items() if u["side"] == me and u["hex"])


def _front_hexes(state: Any, me: str) -> list[str]:
    """Land hexes next to a hostile unit and free of other players' units (drop, interdict)."""
    out: set[str] = set()
    for u in state["units"].values():
        if u["hex"] and hostile(state, me, u["side"]):
            out.add(u["hex"])
            out |= {n for n in neighbours(u["hex"]) if is_land(state, n)}
    return sorted(out)


# --- movement phase --------------------------------------------------------------------------

def offer_rail(state: Any, seat: str) -> list[Action]:
    """[WiE-base 8.1]: each unit on friendly rail with its farthest few destinations (``paths``)."""
    me = ground.acting_side(state)
    cap = int(scenario_data(state).tables["rail"]["capacity"].get(me, 0))
    if int(state["rail_used"]) >= cap:
        return []
    zoc = zoc_hexes(state, me)
    # the hexes rail.check_rail lets a unit enter (own repaired rail out of enemy ZOC and
    # interdiction), found once for every unit
    open_ = {h for h in _rail_net(str(state["scenario"]))
             if rail.friendly_rail(state, h, me) and h not in zoc and not rail.interdicted(state, h, me)}
    out = []
    for k, u in _mine(state):
        if k in state["moved"] or u["hex"] not in open_:
            continue
        paths = _rail_paths(state, k, u["hex"], open_)
        if paths:
            out.append(Action("rail", (Arg("unit", "unit", (k,)), Arg("path", "hex", None, repeat=True)),
                              "WiE-base 8.1", f"move {k} by rail", paths=paths))
    return out


@functools.cache
def _rail_net(name: str) -> dict[str, tuple[str, ...]]:
    net: dict[str, list[str]] = {}
    for a, b in rail.rail_edges(name):
        net.setdefault(a, []).append(b)
    return {h: tuple(sorted(ns)) for h, ns in net.items()}


def _rail_paths(state: Any, uid: str, start: str, open_: set[str]) -> tuple[tuple[str, ...], ...]:
    """Breadth first through ``open_``; the farthest ends the stacking limit allows."""
    me = state["units"][uid]["side"]
    big = stats(state["units"][uid]["type"])["kind"] not in ("sup", "rr")
    net = _rail_net(str(state["scenario"]))
    seen: dict[str, tuple[str, ...]] = {start: (start,)}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in net.get(h, ()):
            if n not in seen and n in open_:
                seen[n] = (*seen[h], n)
                todo.append(n)
    far = sorted((p for p in seen.values() if len(p) > 1), key=lambda p: (-len(p), p))
    good: list[tuple[str, ...]] = []
    for p in far:
        if not big or ground.stack_count(state, p[-1], me) < 4:
            good.append(p[1:])
        if len(good) >= PATHS:
            break
    return tuple(good)


def offer_place(state: Any, seat: str) -> list[Action]:
    """[WiE-base 12.1] a reinforcement at an arrival hex; 76.3 step 1 the Allied supply units."""
    if state["phase"] == "setup-1":
        return _offer_supply_units(state)
    me = ground.acting_side(state)
    out = []
    hexes = tuple(reinforce.open_places(state, me))
    for t in sorted(set(state["pool"].get(me, {}).get("units", []))):
        if hexes:
            out.append(Action("place", (Arg("type", "word", (t,)), Arg("hex", "hex", hexes)), "WiE-base 12.1",
                              f"place a {t} from the pool"))
    return out


def _offer_supply_units(state: Any) -> list[Action]:
    from .state import holder, zoc_hexes

    if "SUP" not in state["pool"].get("allied", {}).get("units", []):
        return []
    zoc = zoc_hexes(state, "allied")
    hexes = tuple(sorted({u["hex"] for u in state["units"].values() if u["side"] == "allied" and u["hex"]
                          and holder(state, u["hex"]) == "allied" and u["hex"] not in zoc}))
    return [Action("place", (Arg("type", "word", ("SUP",)), Arg("hex", "hex", hexes)), "WiE 76.3",
                   "step 1: an Allied supply unit on Allied land out of enemy ZOC")] if hexes else []


def offer_ap(state: Any, seat: str) -> list[Action]:
    have = int(state["pool"].get(ground.acting_side(state), {}).get("ap", 0))
    if have <= 0:
        return []
    return [Action("ap", (Arg("front", "word", FRONTS), Arg("points", "number", (str(have),))), "WiE-base 12.2",
                   f"assign arriving air points ({have}) to a front")]


def _by_port(state: Any) -> list[tuple[str, tuple[str, ...]]]:
    """[WiE-base 9.1]: the units in own ports that may still move, by port."""
    b = board(state)
    by_port: dict[str, list[str]] = {}
    for k, u in _mine(state):
        if parse_hex(u["hex"]) in b.ports and k not in state["moved"] and legal(ground.own_unit, state, k, {}):
            by_port.setdefault(u["hex"], []).append(k)
    return [(p, tuple(units)) for p, units in sorted(by_port.items())]


def offer_sail(state: Any, seat: str) -> list[Action]:
    """[WiE-base 9.2]: destinations checked with the port's first unit."""
    me = ground.acting_side(state)
    ports = sorted(str(h) for h in board(state).ports)
    out = []
    for port, movers in _by_port(state):
        to = tuple(p for p in ports if p != port
                   and legal(transport.check_sail, state, me, {"unit": movers[0], "hex": p}))
        if to:
            out.append(Action("sail", (Arg("unit", "unit", movers), Arg("hex", "hex", to)), "WiE-base 9.2",
                              f"naval transport from {port}"))
    return out


def offer_land(state: Any, seat: str) -> list[Action]:
    """[WiE-base 9.3]: hostile coastal hexes on the port's seas, checked with its first unit."""
    me = ground.acting_side(state)
    out = []
    for port, movers in _by_port(state):
        land = tuple(h for h in _coast(state, port)
                     if legal(transport.check_land, state, me, {"unit": movers[0], "hex": h}))
        if land:
            out.append(Action("land", (Arg("unit", "unit", movers), Arg("hex", "hex", land)), "WiE-base 9.3",
                              f"amphibious assault from {port}"))
    return out


def _coast(state: Any, port: str) -> list[str]:
    """The coastal land hexes on ``port``'s seas held by a hostile player or a neutral (73.1)."""
    from .state import holder

    me = ground.acting_side(state)
    here = transport.seas(state, port)
    return sorted(str(h) for h, s in board(state).seas.items()
                  if set(s.split(",")) & here and is_land(state, str(h)) and holder(state, str(h)) != me
                  and (holder(state, str(h)) not in SIDES or hostile(state, me, holder(state, str(h)))))


def offer_drop(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    types = sorted({t for _n, t in state["transport"]["box"].get(me, [])})
    if not types or transport.left(state, me, "air") <= 0:
        return []
    ok = supplied_hexes(state, me)
    hexes = tuple(h for h in _front_hexes(state, me)
                  if legal(transport.check_drop, state, me, {"type": types[0], "hex": h}, ok))
    return [Action("drop", (Arg("type", "word", tuple(types)), Arg("hex", "hex", hexes)), "WiE-base 13.5",
                   "an Assault Box unit by air transport")] if hexes else []


def offer_siberia(state: Any, seat: str) -> list[Action]:
    rec = state.get("production")
    if rec is None or ground.acting_side(state) != "soviet" or not rec["siberia"]:
        return []
    out = []
    for t in sorted(set(rec["siberia"])):
        hexes = tuple(h for h in sorted(reinforce.places(state, "soviet"))
                      if legal(production.check_siberia, state, {"type": t, "hex": h}))
        if hexes:
            out.append(Action("siberia", (Arg("type", "word", (t,)), Arg("hex", "hex", hexes)), "WiE 74.7",
                              f"a Siberian {t} at the east edge"))
    return out


# --- 76.3, interdiction, politics ---------------------------------------------------------------

def offer_deploy(state: Any, seat: str) -> list[Action]:
    """76.3 steps 4, 5: one offer an area, its units and the area's hexes the first accepts."""
    me = STEPS.get(str(state["phase"]))
    areas: dict[str, list[str]] = {}
    for k, u in sorted(state["units"].items()):
        a = startup.area_of(state, k)
        if u["side"] == me and a and (me != "axis" or a in startup.AXIS_AREAS):
            areas.setdefault(a, []).append(k)
    b = board(state)
    out = []
    for area, units in sorted(areas.items()):
        hexes = tuple(sorted(str(h) for h in b.areas.get(area, frozenset())
                             if legal(startup.check_deploy, state, {"unit": units[0], "hex": str(h)})))
        if hexes:
            out.append(Action("deploy", (Arg("unit", "unit", tuple(units)), Arg("hex", "hex", hexes)), "WiE 76.3",
                              f"place a unit of {area} in its area"))
    return out


def offer_interdict(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    hexes = tuple(h for h in _front_hexes(state, me) if legal(ground.check_interdict, state, {"hex": h}))
    return [Action("interdict", (Arg("hex", "hex", hexes),), "WiE 68.1",
                   "phase 8: an Air Interdiction marker (5 points)")] if hexes else []


def suppressible(state: Any, side: str, front: str) -> tuple[str, ...]:
    """The enemy ports on ``front`` a Port Suppression mission may name (68.1 A, [WiE-base 13.3])."""
    return tuple(h for h in sorted(str(x) for x in board(state).ports)
                 if front_of(state, h) == front and legal(special.check_target, state, side, front, h, {"hex": h}))


def offer_lend_lease(state: Any, seat: str) -> list[Action]:
    if "allied" not in sides_of(state, seat):
        return []
    most = production.lend_lease_row(year(state))
    if not legal(production.lend_lease, _scratch(state), "allied", 0, None):
        return []
    return [Action("lend-lease", (Arg("points", "number", tuple(dict.fromkeys(str(n) for n in (most, 0)))),),
                   "WiE 77.83", f"Lend-Lease arms points a cycle to the Soviet (at most {most})")]


def offer_winter_war(state: Any, seat: str) -> list[Action]:
    if "soviet" not in sides_of(state, seat):
        return []
    if not legal(politics.winter_war, _scratch(state), "soviet", "no", None, None):
        return []
    return [Action("winter-war", (Arg("choice", "word", ("yes", "no")),), "WiE 72.2",
                   "decide the Winter War (once, after the fall of Poland, in 1939)")]


def _diplomacy_offer(verb: str, fn: Callable[..., None], rule: str, what: str) -> Callable[[Any, str], list[Action]]:
    def offer(state: Any, seat: str) -> list[Action]:
        out = []
        mine = sides_of(state, seat)
        for me in mine:
            ok = tuple(s for s in _others(state, me)
                       if legal(fn, _scratch(state), me, s, None, None))
            if ok:
                args = (Arg("side", "word", ok), *((Arg("as", "word", (me,), keyword="as"),) if len(mine) > 1 else ()))
                out.append(Action(verb, args, rule, f"{me}: {what}"))
        return out

    return offer


def _scratch(state: Any) -> dict[str, Any]:
    """A copy for a dry diplomacy check: diplomacy.py never touches the units (shared, not copied)."""
    return {k: v if k == "units" else copy.deepcopy(v) for k, v in state.items()}


def _others(state: Any, me: str) -> Iterable[str]:
    return [s for s in SIDES if s != me and not diplomacy.one_seat(state, me, s)]


offer_associate = _diplomacy_offer("associate", diplomacy.associate, "WiE 69.0", "offer or accept an association")
offer_declare_war = _diplomacy_offer("declare-war", diplomacy.declare_war, "WiE 71.0", "declare war")
offer_propose_peace = _diplomacy_offer("propose-peace", diplomacy.propose_peace, "WiE 71.0",
                                       "propose or accept peace")
