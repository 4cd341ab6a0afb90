"""Zones of Control (USE 1.7) and the Enemy ZOC questions the other rules ask (USE 1.7.1)."""

from __future__ import annotations

from .geo import Board
from .state import State, Unit, enemies, faction_of, hex_of, is_ground, on_map, units_at

# The units on the map by hex, each list in the state's unit order: what ``units_at`` returns
# for every hex at once. A supply trace asks about hundreds of hexes of one unmoving state.
UnitsByHex = dict[str, list[Unit]]


def exerts_zoc(unit: Unit) -> bool:
    """USE 1.7: a ground unit on the map exerts a ZOC, unless it occupies a fort."""
    return is_ground(unit) and on_map(unit) and not unit["fort"]


def zoc_hexes(b: Board, unit: Unit) -> list[str]:
    """USE 1.7: the six adjacent hexes, less ground-prohibited hexes and hexes across a
    prohibited hexside (a ZOC is not exerted into or across them)."""
    if not exerts_zoc(unit):
        return []
    h = hex_of(unit)
    return [n for n in b.neighbours(h) if not b.ground_prohibited(n) and not b.side_prohibited(h, n)]


def units_by_hex(state: State) -> UnitsByHex:
    """Index the units on the map by hex (valid while no unit moves or leaves the map)."""
    out: UnitsByHex = {}
    for u in state["units"].values():
        if u["hex"] is not None and u["box"] is None:
            out.setdefault(u["hex"], []).append(u)
    return out


def ezoc_sources(state: State, b: Board, hex_: str, faction: str,
                 no_ezoc: list[str] | None = None, *, by_hex: UnitsByHex | None = None) -> set[str]:
    """Ids of the enemy units (enemies of ``faction``) exerting a ZOC into ``hex_``.

    ``no_ezoc`` lists hexes under a No EZOC marker (USE 15.17), where no enemy ZOC exists.
    A fort hex still receives enemy ZOC (USE 1.7 exception 1). ``by_hex``: ``units_by_hex(state)``
    when the caller asks about many hexes of the same state.
    """
    if no_ezoc and hex_ in no_ezoc:
        return set()
    if by_hex is None:
        by_hex = units_by_hex(state)
    out = set()
    for n in b.neighbours(hex_):
        for u in by_hex.get(n, ()):
            if not exerts_zoc(u):
                continue
            if not enemies(faction_of(state, u), faction):
                continue
            if hex_ in zoc_hexes(b, u):
                out.add(u["id"])
    return out


def in_ezoc(state: State, b: Board, hex_: str, faction: str, no_ezoc: list[str] | None = None,
            *, by_hex: UnitsByHex | None = None) -> bool:
    return bool(ezoc_sources(state, b, hex_, faction, no_ezoc, by_hex=by_hex))


def friendly_anchor(state: State, b: Board, hex_: str, faction: str, *, ground_only: bool = False,
                    by_hex: UnitsByHex | None = None) -> bool:
    """A friendly city, fort or unit in the hex: what lifts the EZOC bans of 4.2.2.1 and 7.4.1.

    ``ground_only``: only a friendly *ground* unit counts (USE 7.4.1 says "ground unit").
    ``by_hex``: as for ``ezoc_sources``.
    """
    if b.city(hex_) is not None and state["control"].get(hex_) == faction:
        return True
    if state["forts"].get(hex_) == faction:
        return True
    for u in (units_at(state, hex_) if by_hex is None else by_hex.get(hex_, ())):
        if faction_of(state, u) == faction:
            if not ground_only or is_ground(u):
                return True
    return False
