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


def trace(state: State, b: Board, unit: Unit, start: str | None = None) -> str | None:
    """The Supply Source a land supply line from ``start`` reaches: "uss", "lss" or None.

    USE 7.4: up to 2 hexes to a Transport Line or a Supply Source, then along a connected
    Transport Line to a Supply Source. Stacking limits are ignored (USE 3.3).
    """
    faction = faction_of(state, unit)
    if faction is None:
        return None
    start = start or unit["hex"]
    uss, lss = sources(state, b, unit)
    found: str | None = None

    def note(h: str) -> None:
        nonlocal found
        if h in uss:
            found = "uss"
        elif h in lss and found is None:
            found = "lss"

    # Leg 1: up to two hexes cross-country.
    reach = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            note(h)
            if reach[h] == 2:
                continue
            for n in b.neighbours(h):
                if n in reach or b.side_prohibited(h, n) or not _passable(state, b, unit, faction, n, start):
                    continue
                reach[n] = reach[h] + 1
                nxt.append(n)
        frontier = nxt
    if found == "uss":
        return found
    # Leg 2: along connected Transport Line hexes.
    seen = {h for h in reach if b.has_transport(h)}
    frontier = sorted(seen)
    while frontier and found != "uss":
        nxt = []
        for h in frontier:
            note(h)
            for n in b.neighbours(h):
                if n in seen or not b.transport_between(h, n):
                    continue
                if not _passable(state, b, unit, faction, n, start):
                    continue
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return found


def auto_full(state: State, b: Board, unit: Unit) -> bool:
    """USE 7.2: convoys and units in Map Boxes are automatically in Full Supply
    (also a garrison in an island port and the UK garrison in Gibraltar: no islands on our maps)."""
    return unit["kind"] == "convoy" or unit["box"] not in (None, "mobilization", "eliminated")


def supply_check(state: State, b: Board, faction: str, events: list[dict[str, Any]]) -> None:
    """USE 7.2 Supply Check Sub-Phase for ``faction`` (mutates ``state``)."""
    lss_used: dict[str, int] = {}
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


def no_supply_phase(state: State, events: list[dict[str, Any]]) -> None:
    """USE 7.5.1 Unsupplied Attrition: reduced ground eliminated, full reduced, air/naval eliminated.
    No National Will is lost (USE 7.5.2)."""
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
