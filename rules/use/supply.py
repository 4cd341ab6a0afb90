"""Supply (USE 7.x): sources, land supply lines, the Supply Check Sub-Phase, the No Supply Phase."""

from __future__ import annotations

from typing import Any

from .geo import Board
from .politics import COOP_EXEMPT, MAJORS, entry_ban
from .state import State, Unit, enemies, faction_of, is_air, is_ground, is_naval, on_map
from .zoc import friendly_anchor, in_ezoc

LSS_CAPACITY = 2  # USE 7.3: a Limited Supply Source supplies up to two units


def sources(state: State, b: Board, unit: Unit) -> tuple[set[str], set[str]]:
    """(Unlimited, Limited) Supply Source hexes for ``unit`` (USE 7.3)."""
    faction = faction_of(state, unit)
    country = unit["country"]
    uss: set[str] = set()
    lss: set[str] = set()
    for h, city in b.cities.items():
        if state["control"].get(h) != faction:
            continue
        owner = state["countries"].get(city.country, {})
        if city.country == country and b.mainland(h):
            uss.add(h)  # friendly Mainland Area city of its own country
        elif country == "USA" and city.country == "UK" and b.mainland(h):
            uss.add(h)  # USA: friendly UK Mainland city
        elif city.country == country and city.factories > 0:
            lss.add(h)  # friendly Overseas Area factory of its own country
        elif city.capital and owner.get("status") == "conquered":
            lss.add(h)  # friendly capital in a conquered country
        elif city.capital and country in MAJORS and owner.get("faction") == faction:
            lss.add(h)  # friendly allied capital, for German/UK/USA/USSR units
    # DECISION: a Transport Line running off the map into a friendly land Map Box that holds a
    # Mainland city of the unit's country (Berlin in the Reich box) is an Unlimited Supply
    # Source at its map-edge hex, unless an enemy holds that hex.
    for h, (owner_f, countries) in b.box_source.items():
        if owner_f == faction and country in countries and not enemies(state["control"].get(h), faction):
            uss.add(h)
    return uss, lss


def _passable(state: State, b: Board, unit: Unit, faction: str, h: str, start: str) -> bool:
    """USE 7.4: a supply line cannot enter an enemy city, fort or unit, nor an EZOC unless the hex
    holds a friendly city, fort or ground unit; nor a ground-prohibited or banned neutral hex."""
    if h == start:
        return True  # DECISION: the unit's own hex never blocks its own trace
    if b.ground_prohibited(h) or entry_ban(state, b, unit, h, "supply"):
        return False
    if b.city(h) is not None and enemies(state["control"].get(h), faction):
        return False
    if enemies(state["forts"].get(h), faction):
        return False
    for u in state["units"].values():
        if u["hex"] == h and u["box"] is None and enemies(faction_of(state, u), faction):
            return False
    if in_ezoc(state, b, h, faction) and not friendly_anchor(state, b, h, faction, ground_only=True):
        return False
    return True


def land_reach(state: State, b: Board, unit: Unit, start: str | None = None) -> tuple[set[str], set[str]]:
    """(hexes a land supply line from ``start`` reaches, the cross-country part of them).

    USE 7.4: up to 2 hexes to a Transport Line or a Supply Source, then along a connected
    Transport Line. Stacking limits are ignored (USE 3.3).
    """
    faction = faction_of(state, unit)
    start = start or unit["hex"]
    if faction is None:
        return set(), set()
    reach = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            if reach[h] == 2:
                continue
            for n in b.neighbours(h):
                if n in reach or b.side_prohibited(h, n) or not _passable(state, b, unit, faction, n, start):
                    continue
                reach[n] = reach[h] + 1
                nxt.append(n)
        frontier = nxt
    seen = {h for h in reach if b.has_transport(h)}
    frontier = sorted(seen)
    while frontier:
        nxt = []
        for h in frontier:
            for n in b.neighbours(h):
                if n in seen or not b.transport_between(h, n):
                    continue
                if not _passable(state, b, unit, faction, n, start):
                    continue
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return set(reach) | seen, set(reach)


def trace(state: State, b: Board, unit: Unit, start: str | None = None) -> str | None:
    """The Supply Source a land supply line from ``start`` reaches: "uss", "lss" or None (7.4)."""
    if faction_of(state, unit) is None:
        return None
    hexes, _ = land_reach(state, b, unit, start)
    uss, lss = sources(state, b, unit)
    if hexes & uss:
        return "uss"
    if hexes & lss:
        return "lss"
    return None


def traceable(state: State, b: Board, unit: Unit, start: str | None = None) -> bool:
    """Whether a land or sea supply line can be traced from ``start`` (4.1.2, 4.2.2); a sea line
    is only traced here, never intercepted (interception belongs to the Supply Check)."""
    if trace(state, b, unit, start) is not None:
        return True
    from .seasupply import sea_routes

    return bool(sea_routes(state, b, unit, start))


def auto_full(state: State, b: Board, unit: Unit) -> bool:
    """USE 7.2: convoys and units in Map Boxes are automatically in Full Supply
    (also a garrison in an island port and the UK garrison in Gibraltar: no islands on our maps)."""
    return unit["kind"] == "convoy" or unit["box"] not in (None, "mobilization", "eliminated")


def supply_check(state: State, b: Board, faction: str, events: list[dict[str, Any]], ctx: Any = None) -> None:
    """USE 7.2 Supply Check Sub-Phase for ``faction`` (mutates ``state``). A unit whose land line
    reaches no Unlimited Source tries a sea line (seasupply.py); ``ctx`` rolls interceptions."""
    from .seasupply import dice_bound, intercept, sea_routes
    from .strictdice import need

    lss_used: dict[str, int] = {}
    traced: dict[str, bool] = {}  # carrier id -> interdicted (each convoy traced once, 7.4)
    used: set[str] = set()  # interceptors already used this Supply Check
    reduced = state["done_turn"]["supply_reduced"]
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
                    events.append({"kind": "sea-supply", "unit": uid, "carrier": r["carrier"],
                                   "port": r["port"], "path": r["path"], "source": got})
                    break
        if got == "uss":
            u["supply"] = "full"
            continue
        if got == "lss":
            # DECISION: a Limited Source puts the unit at Low Supply whatever its state was (7.3).
            # DECISION: LSS capacity is spent in unit-id order, one source pool per faction
            # (the text does not say how the two units are chosen; rules-gaps 15).
            if lss_used.get(faction, 0) < LSS_CAPACITY * max(1, len(sources(state, b, u)[1])):
                lss_used[faction] = lss_used.get(faction, 0) + 1
                u["supply"] = "low"
                continue
        if uid in reduced:
            continue  # USE 7.2: reduced once per turn at most
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
    if unit["box"] in ("mobilization", "eliminated", "inactive", "removed", "upgrade", "turn", "conditional"):
        return "7.5.2", f"{unit['id']} is not in play"
    if is_ground(unit) and unit["supply"] == "full":
        return "7.5.2", f"{unit['id']} is a ground unit in Full Supply: only No Supply ground units may be eliminated"
    if is_home_defender(state, b, unit):
        return "7.5.2", f"{unit['id']} is needed for Home Defense (10.3.1)"
    return None


def disband(state: State, b: Board, order: dict[str, Any], faction: str, events: list[dict[str, Any]]) -> None:
    """USE 7.5.2 Voluntary Elimination, ordered in the faction's Actions Sub-Phase.
    DECISION: the No Supply Phase has no step of its own in which a player writes orders (it
    runs automatically), so the faction names the units in its Actions file ('disband UNIT');
    they are eliminated in the No Supply Phase after attrition, if still eligible then (a ground
    unit must have No Supply by then; Home Defense units never go)."""
    from .errs import illegal

    unit = state["units"].get(order["unit"])
    if unit is None:
        illegal(order, f"no unit {order['unit']!r}", "3.2")
    ban = disband_ban(state, b, unit, faction)
    if ban:
        illegal(order, ban[1], ban[0])
    queue = state.setdefault("disband", [])
    if unit["id"] not in queue:
        queue.append(unit["id"])
    events.append({"kind": "disband-ordered", "unit": unit["id"]})


def no_supply_phase(state: State, events: list[dict[str, Any]], b: Board | None = None) -> None:
    """USE 7.5.1 Unsupplied Attrition: reduced ground eliminated, full reduced, air/naval eliminated;
    then 7.5.2 Voluntary Elimination of the units the factions named. No National Will is lost."""
    _attrition(state, events)
    for uid in state.pop("disband", []):
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
    state["disband"] = []


def _attrition(state: State, events: list[dict[str, Any]]) -> None:
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
