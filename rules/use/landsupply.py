"""Tracing supply over land (USE 7.1-7.3): supply sources, the land reach, one trace.

Kept apart from supply.py so that sea supply (seasupply.py), which extends a
land trace across the sea, and supply.py, which runs the Supply Check with
both, do not import each other.
"""


from __future__ import annotations

from .geo import Board
from .politics import MAJORS, entry_ban
from .state import State, Unit, enemies, faction_of, hex_of
from .zoc import UnitsByHex, friendly_anchor, in_ezoc, units_by_hex

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
        owner = state["countries"].get(city.country)
        if city.country == country and b.mainland(h):
            uss.add(h)  # friendly Mainland Area city of its own country
        elif country == "USA" and city.country == "UK" and b.mainland(h):
            uss.add(h)  # USA: friendly UK Mainland city
        elif city.country == country and city.factories > 0:
            lss.add(h)  # friendly Overseas Area factory of its own country
        elif city.capital and owner is not None and owner["status"] == "conquered":
            lss.add(h)  # friendly capital in a conquered country
        elif city.capital and country in MAJORS and owner is not None and owner["faction"] == faction:
            lss.add(h)  # friendly allied capital, for German/UK/USA/USSR units
    # DECISION: a Transport Line running off the map into a friendly land Map Box that holds a
    # Mainland city of the unit's country (Berlin in the Reich box) is an Unlimited Supply
    # Source at its map-edge hex, unless an enemy holds that hex.
    for h, (owner_f, countries) in b.box_source.items():
        if owner_f == faction and country in countries and not enemies(state["control"].get(h), faction):
            uss.add(h)
    return uss, lss


def _passable(state: State, b: Board, unit: Unit, faction: str, h: str, start: str,
              by_hex: UnitsByHex) -> bool:
    """USE 7.4: a supply line cannot enter an enemy city, fort or unit, nor an EZOC unless the hex
    holds a friendly city, fort or ground unit; nor a ground-prohibited or banned neutral hex.
    ``by_hex``: the state's units by hex (``zoc.units_by_hex``)."""
    if h == start:
        return True  # DECISION: the unit's own hex never blocks its own trace
    if b.ground_prohibited(h) or entry_ban(state, b, unit, h, "supply"):
        return False
    if b.city(h) is not None and enemies(state["control"].get(h), faction):
        return False
    if enemies(state["forts"].get(h), faction):
        return False
    if any(enemies(faction_of(state, u), faction) for u in by_hex.get(h, ())):
        return False
    if in_ezoc(state, b, h, faction, by_hex=by_hex) and not friendly_anchor(
            state, b, h, faction, ground_only=True, by_hex=by_hex):
        return False
    return True


def land_reach(state: State, b: Board, unit: Unit, start: str | None = None) -> tuple[set[str], set[str]]:
    """(hexes a land supply line from ``start`` reaches, the cross-country part of them).

    USE 7.4: up to 2 hexes to a Transport Line or a Supply Source, then along a connected
    Transport Line. Stacking limits are ignored (USE 3.3).
    """
    faction = faction_of(state, unit)
    if faction is None:
        return set(), set()
    start = start or hex_of(unit)
    by_hex = units_by_hex(state)  # no unit moves during a trace
    reach = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            if reach[h] == 2:
                continue
            for n in b.neighbours(h):
                if n in reach or b.side_prohibited(h, n) or not _passable(state, b, unit, faction, n, start, by_hex):
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
                if not _passable(state, b, unit, faction, n, start, by_hex):
                    continue
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return set(reach) | seen, set(reach)


def lss_reached(state: State, b: Board, unit: Unit, start: str | None = None) -> list[str]:
    """The Limited Supply Sources a land supply line from ``start`` reaches (7.3, 7.4), sorted."""
    hexes, _ = land_reach(state, b, unit, start)
    return sorted(hexes & sources(state, b, unit)[1])


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
