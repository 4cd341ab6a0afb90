"""Supply (USE 7.x): sources, land supply lines, the Supply Check Sub-Phase, the No Supply Phase."""

from __future__ import annotations

from typing import Any

from .geo import Board
from .islands import island_port_garrison
from .landsupply import LSS_CAPACITY, lss_reached, sources, trace
from .politics import COOP_EXEMPT
from .state import State, Unit, faction_of, in_play, is_air, is_ground, is_naval, on_map

Events = list[dict[str, Any]]
Order = dict[str, Any]


def traceable(state: State, b: Board, unit: Unit, start: str | None = None) -> bool:
    """Whether a land or sea supply line can be traced from ``start`` (4.1.2, 4.2.2); a sea line
    is only traced here, never intercepted (interception belongs to the Supply Check)."""
    if trace(state, b, unit, start) is not None:
        return True
    from .seasupply import sea_routes

    return bool(sea_routes(state, b, unit, start))


def auto_full(state: State, b: Board, unit: Unit) -> bool:
    """USE 7.2: convoys, units in Map Boxes and a garrison in an island port (1.3.3, islands.py)
    are automatically in Full Supply (the UK garrison in Gibraltar too: no Gibraltar on our maps).
    The Turn Track, Conditional, Upgrade and other off-play boxes are not Map Boxes (state.in_play)."""
    if unit["kind"] == "convoy" or (in_play(unit) and not on_map(unit)):
        return True
    return on_map(unit) and island_port_garrison(b, unit)


def supply_check(state: State, b: Board, faction: str, events: Events, ctx: Any = None) -> None:
    """USE 7.2 Supply Check Sub-Phase for ``faction`` (mutates ``state``). A unit whose land line
    reaches no Unlimited Source tries a sea line (seasupply.py); ``ctx`` rolls interceptions.
    Units that reach only Limited Sources share them out last (``_share_limited``)."""
    from .seasupply import dice_bound, intercept, sea_routes
    from .strictdice import need

    traced: dict[str, bool] = {}  # carrier id -> interdicted (each convoy traced once, 7.4)
    used: set[str] = set()  # interceptors already used this Supply Check
    limited: dict[str, list[str]] = {}  # unit id -> the Limited Sources its line reaches
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if faction_of(state, u) != faction:
            continue
        if auto_full(state, b, u):
            u["supply"] = "full"
            continue
        if not on_map(u) or not (is_ground(u) or is_air(u) or is_naval(u)):
            continue
        got = trace(state, b, u)
        reach = lss_reached(state, b, u) if got == "lss" else []
        if got != "uss":
            for r in sea_routes(state, b, u):
                if r["source"] != "uss" and got == "lss":
                    break
                if r["carrier"] not in traced:
                    if r["risk"]:  # strict dice: an interception waits for dice in a later file
                        need(ctx, dice_bound(state, faction))
                    carrier = state["units"][r["carrier"]]
                    traced[r["carrier"]] = ctx is not None and bool(
                        intercept(state, b, carrier, r["path"], used, ctx, events))
                if not traced[r["carrier"]]:
                    got = r["source"]
                    reach = r["lss"]
                    events.append({"kind": "sea-supply", "unit": uid, "carrier": r["carrier"],
                                   "port": r["port"], "path": r["path"], "source": got})
                    break
        if got == "uss":
            u["supply"] = "full"
        elif got == "lss":
            limited[uid] = reach
        else:
            _reduce(state, uid, events)
    fed = _share_limited(limited)
    for uid in sorted(limited):
        if uid in fed:
            # DECISION: a Limited Source puts the unit at Low Supply whatever its state was (7.3).
            state["units"][uid]["supply"] = "low"
        else:
            _reduce(state, uid, events)


def _share_limited(reach: dict[str, list[str]]) -> dict[str, str]:
    """Each Limited Supply Source supplies up to two units (7.3): unit id -> its source.

    DECISION: the text does not say which units a source feeds when more can reach it
    (rules-gaps 15); as a player would, the sources feed as many units as they can (a
    maximum matching, by augmenting paths), and among equal choices the lower unit ids and
    source hexes first, so every tool computes the same."""
    load: dict[str, list[str]] = {}
    fed: dict[str, str] = {}

    def place(uid: str, seen: set[str]) -> bool:
        for src in reach[uid]:
            if src in seen:
                continue
            seen.add(src)
            users = load.setdefault(src, [])
            if len(users) < LSS_CAPACITY:
                users.append(uid)
                fed[uid] = src
                return True
            for other in sorted(users):
                if place(other, seen):
                    users.remove(other)
                    users.append(uid)
                    fed[uid] = src
                    return True
        return False

    for uid in sorted(reach):
        place(uid, set())
    return fed


def _reduce(state: State, uid: str, events: Events) -> None:
    """A unit that traced no supply drops one level, once a turn at most (USE 7.2)."""
    u = state["units"][uid]
    reduced = state["done_turn"]["supply_reduced"]
    if uid in reduced:
        return
    new = {"full": "low", "low": "no", "no": "no"}[u["supply"]]
    if new != u["supply"]:
        reduced.append(uid)
        events.append({"kind": "supply", "unit": uid, "from": u["supply"], "to": new})
        u["supply"] = new


def disband_ban(state: State, b: Board, unit: Unit, faction: str) -> tuple[str, str] | None:
    """Why ``unit`` may not be voluntarily eliminated (7.5.2), or None."""
    from .homedef import is_home_defender

    if faction_of(state, unit) != faction:
        return "7.5.2", f"{unit['id']} is not a {faction} unit"
    if not in_play(unit):
        return "7.5.2", f"{unit['id']} is not in play"
    if is_ground(unit) and unit["supply"] == "full":
        return "7.5.2", f"{unit['id']} is a ground unit in Full Supply: only No Supply ground units may be eliminated"
    if is_home_defender(state, b, unit):
        return "7.5.2", f"{unit['id']} is needed for Home Defense (10.3.1)"
    return None


def check_disband(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 7.5.2 Voluntary Elimination, ordered in the faction's Actions Sub-Phase.
    DECISION: the No Supply Phase has no step of its own in which a player writes orders (it
    runs automatically), so the faction names the units in its Actions file ('disband UNIT');
    they are eliminated in the No Supply Phase after attrition, if still eligible then (a ground
    unit must have No Supply by then; Home Defense units never go)."""
    from .refusals import illegal

    unit = state["units"].get(order["unit"])
    if unit is None:
        illegal(order, f"no unit {order['unit']!r}", "3.2")
    ban = disband_ban(state, b, unit, faction)
    if ban:
        illegal(order, ban[1], ban[0])


def disband(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_disband``."""
    uid = order["unit"]
    queue = state["disband"]
    if uid not in queue:
        queue.append(uid)
    events.append({"kind": "disband-ordered", "unit": uid})

def no_supply_phase(state: State, events: Events, b: Board | None = None) -> None:
    """USE 7.5.1 Unsupplied Attrition: reduced ground eliminated, full reduced, air/naval eliminated;
    then 7.5.2 Voluntary Elimination of the units the factions named. No National Will is lost."""
    _attrition(state, events)
    named = state["disband"]
    state["disband"] = []
    for uid in named:
        u = state["units"][uid]
        f = faction_of(state, u) or ""
        ban = disband_ban(state, b, u, f) if b is not None else None
        if u["box"] == "eliminated" or ban or (is_ground(u) and u["supply"] != "no"):
            events.append({"kind": "disband-void", "unit": uid})
            continue
        u["hex"] = None
        u["box"] = "eliminated"
        u["fort"] = False
        u["sm"] = False
        events.append({"kind": "eliminated", "unit": uid, "cause": "voluntary"})


def _attrition(state: State, events: Events) -> None:
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if not on_map(u) or u["supply"] != "no":
            continue
        if is_ground(u) and not u["reduced"] and u["kind"] != "garrison":
            u["reduced"] = True
            events.append({"kind": "attrition", "unit": uid, "result": "reduced"})
        else:
            u["hex"] = None
            u["box"] = "eliminated"
            u["fort"] = False
            events.append({"kind": "attrition", "unit": uid, "result": "eliminated"})


__all__ = ["COOP_EXEMPT", "auto_full", "no_supply_phase", "sources", "supply_check", "trace"]
