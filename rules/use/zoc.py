"""Zones of Control (USE 1.7) and the Enemy ZOC questions the other rules ask (USE 1.7.1)."""

from __future__ import annotations

from .geo import Board
from .state import State, Unit, enemies, faction_of, hex_of, is_ground, on_map, units_at


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


def ezoc_sources(state: State, b: Board, hex_: str, faction: str,
                 no_ezoc: list[str] | None = None) -> set[str]:
    """Ids of the enemy units (enemies of ``faction``) exerting a ZOC into ``hex_``.

    ``no_ezoc`` lists hexes under a No EZOC marker (USE 15.17), where no enemy ZOC exists.
    A fort hex still receives enemy ZOC (USE 1.7 exception 1).
    """
    if no_ezoc and hex_ in no_ezoc:
        return set()
    out = set()
    for n in b.neighbours(hex_):
        for u in state["units"].values():
            if u["hex"] != n or not exerts_zoc(u):
                continue
            if not enemies(faction_of(state, u), faction):
                continue
            if hex_ in zoc_hexes(b, u):
                out.add(u["id"])
    return out


def in_ezoc(state: State, b: Board, hex_: str, faction: str, no_ezoc: list[str] | None = None) -> bool:
    return bool(ezoc_sources(state, b, hex_, faction, no_ezoc))


def friendly_anchor(state: State, b: Board, hex_: str, faction: str, *, ground_only: bool = False) -> bool:
    """A friendly city, fort or unit in the hex: what lifts the EZOC bans of 4.2.2.1 and 7.4.1.

    ``ground_only``: only a friendly *ground* unit counts (USE 7.4.1 says "ground unit").
    """
    if b.city(hex_) is not None and state["control"].get(hex_) == faction:
        return True
    if state["forts"].get(hex_) == faction:
        return True
    for u in units_at(state, hex_):
        if faction_of(state, u) == faction:
            if not ground_only or is_ground(u):
                return True
    return False
