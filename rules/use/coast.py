"""Coastal hexes (USE 1.3.3, 1.3.6) and the ports an Amphibious Invasion needs (6.3.2).

1.3.6: "A port (such as London) that is in a full land hex is part of a Sea Zone; however,
rules applying only to coastal hexes do not apply to full land hexes." So ``Board.zones_of``
(every hex of a Sea Zone, full-land ports included) is not the coastal test.
"""

from __future__ import annotations

from .geo import Board
from .state import State


def coastal(b: Board, h: str) -> bool:
    """A land hex of a Sea Zone that is not a full-land port (1.3.6).

    A map marks its coastal hexes, and a land hex in a Sea Zone that is not marked is a port in
    a full land hex (the map loader allows no other). A rules-case board that marks no coastal
    hex at all treats every land hex of a Sea Zone as coastal (its author did not model 1.3.6)."""
    if not b.on_map(h) or b.is_water(h) or not b.zones_of(h):
        return False
    if h in b.coastal or not b.coastal:
        return True
    city = b.city(h)
    return city is None or not city.port


def is_port(state: State, b: Board, h: str) -> bool:
    """A port hex: a port city, or the Mulberry marker's hex (15.16 makes it a port)."""
    city = b.city(h)
    return (city is not None and city.port) or h in state.get("sea", {}).get("mulberry", {})


def near_port(state: State, b: Board, h: str) -> bool:
    """USE 6.3.2 "invades coastal hex with/adjacent to port": ``h`` holds a port or is next to one.
    DECISION: the clause qualifies the target hex (the nearest noun); any port counts, friendly,
    enemy or neutral, full-land ones included (a port is what the landing is aimed at, whoever
    holds it)."""
    return is_port(state, b, h) or any(is_port(state, b, n) for n in b.neighbours(h))
