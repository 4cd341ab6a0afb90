"""Surprise Attack markers in Sea Zones (USE 14.17), Amphibious Invasion (6.3.2, 6.3.2.4) and
Mulberry (15.16).

Orders: ``surprise ZONE`` places the faction's Surprise Attack marker in a Sea Zone (an Action,
like an Airdrop); ``invade CONVOY HEX carry UNIT [escort WARSHIP...] [then HEX] [mulberry]``.
State: ``state["sea"]`` (created only when used, so a game without these markers encodes as
before) = {"surprise": {zone: faction}, "invasions": {zone: n}, "mulberry": {hex: faction}}.

DECISIONS (the seed gives one line per rule):
* The Surprise Attack marker is placed as an Action of its own in a Sea Zone (not a Map Box),
  one marker per Sea Zone; it comes off at the end of the Actions Sub-Phase (1.2.1) and goes to
  the Holding Box (event marker "holding", 14.17). Each marker allows 1 invasion into a coastal
  hex of its Sea Zone, 2 for the Western faction (14.17); an aborted invasion uses it up.
* The invading unit is the activated unit (a Ground Action: it pays its PP); the convoy (fewer
  than 6 Sorties, no Strategic Move marker) is in a friendly port with it, or, Western only, in
  a sea Map Box. Range (6.3.2): Axis/Soviet: the target's Sea Zone is the port's own; Western:
  the port's zone or one adjacent to it ("within 2 Sea Zones", counted as 1.4), or a zone
  adjacent to the Map Box. A Strait crossed on the way must be open (4.2.4).
* The target is a land hex of a Sea Zone with the friendly marker; not in Severe weather
  (11.0). An enemy ground unit there is Assaulted from the sea (6.3.2 "resolves Assault if
  enemy unit present"): an Assault by the invader alone, from its port, with Will Commit as
  any combat; it lands only by the Advance after Combat into the hex it cleared, else it
  stays in its port (landing.py; DRMs in seamarks.py). Landing in an empty hex, enemy air/naval
  units there are displaced (4.2.3.7), an enemy fort is removed, an enemy city captured (4.2.3).
* Interception (6.2.5, 6.4.3) as for a Naval Transport (navalint.py, by standing order) in the
  zone the convoy leaves by and the target's zone, then one enemy fighter within 5 hexes of the
  invasion hex (6.2.5 "invasion hex"); escorts are fought first; beating the convoy aborts the
  invasion: nobody moves and the activation ends.
* Landed, the unit's movement has ended (6.3.2.4): if the landing hex is not in an EZOC it may
  first move 1 adjacent hex (``then HEX``, any terrain the unit may enter, no MP count); the
  activation stays open so that it may designate an Assault against an adjacent enemy ground
  unit (6.3.2.4) or end; landed in an EZOC, that Assault is resolved at once (1.7.1,
  landgate.py). The convoy and its escorts stay in their port (they carried the unit and came
  back) and take +1 Sortie unless they fought.
* Mulberry (15.16): ``mulberry`` on a UK or USA invasion into a hex without a port: the marker
  stays for the rest of the scenario and makes the hex a port, friendly to its faction while no
  enemy ground unit holds it (naval movement ends there, sea supply traces from it). One marker.
"""

from __future__ import annotations

from typing import Any

from .activation import activate, check_activate, end_activation
from .airduel import Roller, air_duel
from .coast import coastal, near_port
from .geo import Board
from .movement import enter_hex, stack_conflict, step_cost
from .politics import check_end, entry_ban, may_attack
from .refusals import illegal
from .seamarks import check_temporary, friendly_port
from .sideweather import weather_for
from .state import (
    State,
    Unit,
    add_sorties,
    enemies,
    faction_of,
    ground_at,
    hex_of,
    is_ground,
    on_map,
    units_at,
)
from .zoc import in_ezoc

Order = dict[str, Any]
Events = list[dict[str, Any]]
INVASIONS_PER_MARKER = {"western": 2}  # USE 14.17: 1 Amphibious Invasion, 2 for Western
HEX_INTERCEPT_RANGE = 5  # USE 6.2.5: fighters within 5 hexes of the invasion hex
MULBERRY_NATIONS = ("UK", "USA")  # USE 15.16


def sea(state: State) -> dict[str, Any]:
    return state.setdefault("sea", {})


def surprise_at(state: State, zone: str) -> str | None:
    got: str | None = state.get("sea", {}).get("surprise", {}).get(zone)
    return got


# --- Surprise Attack (14.17) ----------------------------------------------------------------


def check_surprise(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 14.17: the marker goes in a Sea Zone or, DECISION, in a land hex a ground unit may
    enter (not water, not Prohibited: as an Airdrop, 6.1.1); one per Sea Zone or hex (6.1)."""
    where = order["target"]
    if b.on_map(where):
        if b.is_water(where) or b.ground_prohibited(where):
            illegal(order, f"{where} is not a land hex a Surprise Attack marker may go in", "14.17")
        if where in state.get("sea", {}).get("surprise_hex", {}):
            illegal(order, f"{where} already holds a Surprise Attack marker", "6.1")
    elif where in b.sea_boxes or where not in b.zone_adj:
        illegal(order, f"{where} is not a Sea Zone or a land hex", "14.17",
                "a Surprise Attack marker goes in a Sea Zone or a land hex, not a Map Box")
    elif surprise_at(state, where) is not None:
        illegal(order, f"{where} already holds a Surprise Attack marker", "6.1")
    if state["event_markers"].get(faction, {}).get("surprise") != "available":
        illegal(order, "your Surprise Attack marker is not available now", "14.17")


def place_surprise(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_surprise``."""
    where = order["target"]
    end_activation(state, events)
    state["event_markers"].setdefault(faction, {})["surprise"] = "placed"
    if b.on_map(where):
        sea(state).setdefault("surprise_hex", {})[where] = faction
        events.append({"kind": "surprise-attack", "faction": faction, "hex": where})
        return
    sea(state).setdefault("surprise", {})[where] = faction
    sea(state).setdefault("invasions", {})[where] = 0
    events.append({"kind": "surprise-attack", "faction": faction, "zone": where})


# --- Amphibious Invasion (6.3.2) ------------------------------------------------------------


def _convoy(state: State, order: Order, faction: str) -> Unit:
    c = state["units"].get(order["unit"])
    if c is None or faction_of(state, c) != faction:
        illegal(order, f"{order['unit']} is not a unit of yours", "6.3.2")
    if c["kind"] != "convoy":
        illegal(order, f"{c['id']} is not a convoy: a ground unit invades stacked with a convoy", "6.3.2")
    if c["sorties"] >= 6 or c["sm"]:
        illegal(order, f"{c['id']} has 6 Sorties or a Strategic Move marker", "6.3.2")
    check_temporary(state, order, c)  # 14.3: a temporary convoy carries one invasion
    return c


def _invader(state: State, b: Board, order: Order, faction: str, convoy: Unit) -> Unit:
    uid = order.get("carry")
    g = state["units"].get(uid or "")
    if g is None or faction_of(state, g) != faction or not is_ground(g):
        illegal(order, f"{uid} is not a ground unit of yours", "6.3.2", "write: invade CONVOY HEX carry UNIT")
    if g["hex"] != convoy["hex"] or g["box"] != convoy["box"]:
        illegal(order, f"{g['id']} is not stacked with {convoy['id']}", "6.3.2")
    check_activate(state, order, g)
    return g


def _marked_zone(state: State, b: Board, order: Order, faction: str, h: str) -> str:
    """The Sea Zone of ``h`` whose friendly Surprise Attack marker allows this invasion (14.17)."""
    marked = [z for z in sorted(b.zones_of(h)) if surprise_at(state, z) == faction]
    if not marked:
        illegal(order, f"no Sea Zone of {h} holds a friendly Surprise Attack marker", "6.3.2")
    used = state.get("sea", {}).get("invasions", {})
    limit = INVASIONS_PER_MARKER.get(faction, 1)
    free = [z for z in marked if used.get(z, 0) < limit]
    if not free:
        illegal(order, f"the Surprise Attack marker in {marked[0]} has allowed its {limit} invasion(s)", "14.17")
    return free[0]


def _route(state: State, b: Board, order: Order, faction: str, convoy: Unit, zone: str) -> list[str]:
    """The Sea Zones the convoy is in on its way to ``zone`` (6.3.2 range); refuses one too far."""
    from .naval import strait_ban

    if convoy["box"] is not None:
        if faction != "western" or convoy["box"] not in b.sea_boxes:
            illegal(order, f"{convoy['id']} is not in a friendly port", "6.3.2")
        if zone not in b.zone_adj.get(convoy["box"], frozenset()):
            illegal(order, f"{zone} is not adjacent to Map Box {convoy['box']}", "6.3.2")
        return [zone]
    start = b.zones_of(hex_of(convoy))
    if not start or not friendly_port(state, b, hex_of(convoy), faction):
        illegal(order, f"{convoy['id']} is not in a friendly port", "6.3.2")
    if zone in start:
        return [zone]
    if faction != "western":
        illegal(order, f"{zone} is not the Sea Zone of {convoy['id']}'s port: Axis and Soviet invasions "
                "stay in their Sea Zone", "6.3.2")
    near = sorted(z for z in start if zone in b.zone_adj.get(z, frozenset()))
    if not near:
        illegal(order, f"{zone} is not within 2 Sea Zones of {convoy['id']}'s port", "6.3.2")
    open_ = [z for z in near if b.strait(z, zone) is None
             or strait_ban(state, b, faction, b.strait(z, zone) or ("", "")) is None]
    if not open_:
        st = b.strait(near[0], zone) or ("", "")
        illegal(order, strait_ban(state, b, faction, st) or "the Strait is closed", "4.2.4")
    return [open_[0], zone]


def _target(state: State, b: Board, order: Order, faction: str, g: Unit) -> tuple[str, Unit | None]:
    """The invasion hex and the enemy ground unit there that the Assault from the sea attacks."""
    h: str = order["target"]
    if not coastal(b, h):  # 1.3.6: a port in a full land hex is not a coastal hex
        illegal(order, f"{h} is not a coastal land hex", "6.3.2", "a port in a full land hex is not coastal (1.3.6)")
    if not near_port(state, b, h):
        illegal(order, f"{h} neither holds a port nor is adjacent to one", "6.3.2",
                "an invasion targets a coastal hex with or adjacent to a port")
    if weather_for(state, b, h, faction) == "severe":  # USE 15.23: the invader's own weather
        illegal(order, f"Severe weather at {h}: no Amphibious Invasions", "11.0")
    d = ground_at(state, h)
    if d is not None and enemies(faction_of(state, d), faction):
        ban = may_attack(state, faction, faction_of(state, d) or "")
        if ban:
            illegal(order, ban[1], ban[0])
    else:
        d = None
        other = stack_conflict(state, g, h)
        if other is not None:
            illegal(order, f"{h} already holds {other['id']}", "3.3")
    ban = entry_ban(state, b, g, h, "move")
    if ban:
        illegal(order, ban[1], ban[0])
    return h, d


def _then(state: State, b: Board, order: Order, faction: str, g: Unit, h: str, d: Unit | None) -> str | None:
    """USE 6.3.2: the landed unit may move 1 hex if the landing hex is not in an EZOC."""
    nxt: str | None = order.get("then")
    if nxt is None:
        return None
    if d is not None:
        illegal(order, f"{h} holds enemy unit {d['id']}: the invader Assaults it and does not move on", "6.3.2")
    if in_ezoc(state, b, h, faction):
        illegal(order, f"{h} is in an enemy ZOC: the invading unit ends its activation or Assaults",
                "6.3.2.4")
    if not b.adjacent(h, nxt) or step_cost(state, b, h, nxt, faction) is None:
        illegal(order, f"{g['id']} cannot move from {h} to {nxt}", "6.3.2", "the unit may move 1 adjacent hex")
    # The 1-hex move is ground movement (4.2.3): an empty enemy city is captured, an enemy fort
    # removed and a lone enemy air/naval unit displaced (enter_hex); only an enemy ground unit
    # bars the hex (3.3: it is Assaulted, not entered).
    for u in units_at(state, nxt):
        if is_ground(u) and enemies(faction_of(state, u), faction):
            illegal(order, f"{nxt} holds enemy unit {u['id']}: the landed unit cannot move into it", "3.3")
    other = stack_conflict(state, g, nxt)
    if other is not None:
        illegal(order, f"{nxt} already holds {other['id']}", "3.3")
    ban = entry_ban(state, b, g, nxt, "move")
    if ban:
        illegal(order, ban[1], ban[0])
    return nxt


def _mulberry(state: State, b: Board, order: Order, faction: str, g: Unit, h: str) -> None:
    if not order.get("mulberry"):
        return
    if g["country"] not in MULBERRY_NATIONS:
        illegal(order, f"{g['id']} is not a UK or USA unit: only they place a Mulberry", "15.16")
    city = b.city(h)
    if city is not None and city.port:
        illegal(order, f"{h} is a port: a Mulberry goes in a coastal hex without one", "15.16")
    if state.get("sea", {}).get("mulberry"):
        illegal(order, "the Mulberry marker is already on the map", "15.16")


def plan(state: State, b: Board, order: Order, faction: str) -> dict[str, Any]:
    """Everything an invasion needs, checked; changes nothing."""
    from .naval import _escorts

    convoy = _convoy(state, order, faction)
    g = _invader(state, b, order, faction, convoy)
    escorts = _escorts(state, order, convoy, faction)
    h, d = _target(state, b, order, faction, g)
    zone = _marked_zone(state, b, order, faction, h)
    route = _route(state, b, order, faction, convoy, zone)
    nxt = _then(state, b, order, faction, g, h, d)
    check_end(state, b, g, nxt or h, order)  # USE 13.1, 10.3.4-5: an invasion is a voluntary move
    _mulberry(state, b, order, faction, g, h)
    return {"convoy": convoy, "unit": g, "escorts": escorts, "hex": h, "zone": zone, "route": route, "then": nxt,
            "defender": d}


def check_invade(state: State, b: Board, order: Order, faction: str) -> None:
    plan(state, b, order, faction)


def invade(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_invade``."""
    p = plan(state, b, order, faction)
    convoy, g, escorts, h = p["convoy"], p["unit"], p["escorts"], p["hex"]
    activate(state, b, order, g, events)
    used = sea(state).setdefault("invasions", {})
    used[p["zone"]] = used.get(p["zone"], 0) + 1
    events.append({"kind": "invasion", "unit": g["id"], "by": convoy["id"], "hex": h, "zone": p["zone"],
                   "escorts": [e["id"] for e in escorts]})
    fought, blocked = _intercepted(state, b, convoy, escorts, p["route"], h, ctx, events)
    if blocked is not None:
        events.append({"kind": "invasion-aborted", "unit": g["id"], "at": blocked})
        end_activation(state, events)
        return
    for mover in (convoy, *escorts):
        if mover["id"] not in fought:
            add_sorties(mover, 1)
    if p["defender"] is not None:
        _assault_from_sea(state, b, order, faction, g, p["defender"], ctx, events)
        return
    g["fort"] = False
    g["box"] = None
    enter_hex(state, b, g, h, events)
    events.append({"kind": "invasion-landed", "unit": g["id"], "hex": h})
    if order.get("mulberry"):
        sea(state).setdefault("mulberry", {})[h] = faction
        events.append({"kind": "mulberry", "faction": faction, "hex": h})
    if p["then"] is not None:
        enter_hex(state, b, g, p["then"], events)
        events.append({"kind": "invasion-move", "unit": g["id"], "from": h, "to": p["then"]})
    act = state["activation"]
    assert act is not None
    act.update({"stopped": True, "fresh": False})  # 6.3.2.4: end, or Assault an adjacent enemy
    if in_ezoc(state, b, hex_of(g), faction):
        from .landgate import arm

        arm(state, g["id"], faction)  # 1.7.1: "immediately resolve an Assault" (landgate.py)


def _assault_from_sea(state: State, b: Board, order: Order, faction: str, g: Unit, d: Unit, ctx: Any,
                      events: Events) -> None:
    """USE 6.3.2: the invader Assaults the enemy unit in the invasion hex from its port; it lands
    only by advancing into the hex it cleared (landing.after_assault, seamarks for the DRMs)."""
    from .actions import _open_combat

    h = order["target"]
    end_activation(state, events)
    sea(state).setdefault("assault", {})[h] = {"unit": g["id"], "faction": faction,
                                               "mulberry": bool(order.get("mulberry"))}
    events.append({"kind": "invasion-assault", "unit": g["id"], "hex": h, "defender": d["id"]})
    g["attack_mode"] = "assault"
    _open_combat(state, b, dict(order, advance=True, advancer=None), faction, ctx, events, kind="assault",
                 target=h, defender=d, attackers=[g["id"]])


def _intercepted(state: State, b: Board, convoy: Unit, escorts: list[Unit], route: list[str], h: str,
                 ctx: Any, events: Events) -> tuple[set[str], str | None]:
    """6.2.5 / 6.4.3 along the route, then 6.2.5 at the invasion hex: (who fought, where aborted)."""
    from .navalint import fighter_escorts
    from .seasupply import WARSHIPS, dice_bound, intercept, threats, willing
    from .strictdice import need

    if ctx is None:
        return set(), None
    faction = faction_of(state, convoy) or ""
    hunters = hex_threats(state, b, faction, h)
    if any(willing(state, u) for z in route for u in threats(state, b, faction, z)) or hunters:
        need(ctx, dice_bound(state, faction))
    fighters = fighter_escorts(state, convoy)

    def escorts_in(zone: str | None) -> list[Unit]:
        here = [f for f in fighters if f["sorties"] < 6 and (zone is None or zone in b.zones_of(hex_of(f)))]
        return here + [w for w in escorts if w["kind"] in WARSHIPS and w["sorties"] < 6]

    start = len(events)
    done: set[str] = set()
    blocked = intercept(state, b, convoy, route, done, ctx, events, what="amphibious invasion",
                        escorts_in=escorts_in)
    if blocked is None:
        blocked = _hex_interception(state, b, convoy, h, [u for u in hunters if u["id"] not in done],
                                    escorts_in(route[-1]), ctx, events)
    fought: set[str] = set()
    for e in events[start:]:
        if e["kind"] == "air-combat":
            fought.update((e["attacker"], e["defender"]))
    return fought, blocked


def hex_threats(state: State, b: Board, faction: str, h: str) -> list[Unit]:
    """USE 6.2.5: willing enemy fighters within 5 hexes of the invasion hex."""
    from .seasupply import willing

    out = []
    for u in state["units"].values():
        f = faction_of(state, u)
        if (u["kind"] != "fighter" or not on_map(u) or not enemies(f, faction) or u["sorties"] >= 6 or u["sm"]
                or may_attack(state, f or "", faction) or not willing(state, u)):
            continue
        if b.distance(hex_of(u), h) <= HEX_INTERCEPT_RANGE:
            out.append(u)
    return sorted(out, key=lambda u: u["id"])


def _hex_interception(state: State, b: Board, convoy: Unit, h: str, hunters: list[Unit], escorts: list[Unit],
                      ctx: Any, events: Events) -> str | None:
    """At most one air interception at the invasion hex (6.3.2): escorts first, then the convoy."""
    if not hunters:
        return None
    att = hunters[0]
    roll = Roller(ctx)
    events.append({"kind": "interception", "unit": att["id"], "target": convoy["id"], "zone": h,
                   "what": "amphibious invasion"})
    for esc in escorts:
        if air_duel(state, b, att, esc, h, roll, events) != "att" or att["sorties"] >= 6:
            return None
    if air_duel(state, b, att, convoy, h, roll, events) == "att":
        events.append({"kind": "interdicted", "unit": convoy["id"], "zone": h, "by": att["id"]})
        return h
    return None


def end_of_actions(state: State, faction: str, events: Events) -> None:
    """USE 1.2.1 / 14.17: the faction's Surprise Attack markers come off and go to the Holding Box."""
    s = state.get("sea")
    if not s or not (s.get("surprise") or s.get("surprise_hex")):
        return
    for zone in sorted(z for z, f in s.get("surprise", {}).items() if f == faction):
        del s["surprise"][zone]
        s.get("invasions", {}).pop(zone, None)
        events.append({"kind": "surprise-removed", "faction": faction, "zone": zone})
    for h in sorted(h for h, f in s.get("surprise_hex", {}).items() if f == faction):
        del s["surprise_hex"][h]
        events.append({"kind": "surprise-removed", "faction": faction, "hex": h})
    pool = state["event_markers"].get(faction, {})
    if pool.get("surprise") == "placed":
        pool["surprise"] = "holding"
