"""Occupied USSR (USE 2.2, 10.3.6, 13.2): the USSR's land west of its Disputed border.

The map marks the hexes (``area=occupied-ussr`` in map.txt; East and Mediterranean 1941 draws
them from the authored 1918 Brest-Litovsk line of tools/east_map_sources.py). 2.2: "Occupied
USSR [is] not a Disputed Area; the Disputed border denotes new borders", and the border is
active while the Moscow Treaty is in effect (10.3.6: "USSR west of Disputed border is Occupied
USSR (conquered)"); the USSR's special collapse (13.2) makes it active by placing the treaty.

DECISIONS:
* The border is active while the Moscow Treaty is in effect and, once the USSR has collapsed,
  for good: the land stays conquered when the treaty ends (its die, 15.14), or the Axis units
  standing there would conquer the collapsed USSR the moment the war resumed (13.2).
* While it is active Occupied USSR is conquered land, not part of active USSR: under the treaty
  USSR counters may not enter it ("cannot leave active USSR") and the Axis may (its ban covers
  active USSR only); no Soviet unit is placed there (mobilization, repatriation, the border
  events) and it counts for neither Conquest condition (will.py). Supply lines still cross it
  (as the treaty's other bans, politics.py). When the treaty ends, Soviet units may enter it
  again and take its cities back (2.3.1).
* Its cities come under Axis control when the border becomes active (13.2 "Axis controls
  Occupied USSR"), whoever held them.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .state import State

Events = list[dict[str, Any]]

AREA = "occupied-ussr"
TREATY = "moscow-treaty"


def in_effect(state: State) -> bool:
    """Whether the Occupied USSR border is active: the Moscow Treaty is in effect or the USSR has
    collapsed (DECISIONS)."""
    ussr = state["countries"].get("USSR")
    return TREATY in state["policies"] or (ussr is not None and bool(ussr.get("collapses")))


def occupied(state: State, b: Board, h: str | None) -> bool:
    """``h`` is Occupied USSR behind an active border: conquered land, not active USSR."""
    return h is not None and b.area.get(h) == AREA and in_effect(state)


def active_ussr(state: State, b: Board, h: str | None) -> bool:
    """``h`` is a hex of active USSR: a USSR hex that is not behind an active Occupied border."""
    return h is not None and b.country.get(h) == "USSR" and not occupied(state, b, h)


def occupy(state: State, b: Board, events: Events) -> None:
    """USE 13.2: "Axis controls Occupied USSR": every city of the area becomes Axis-controlled."""
    for h in sorted(b.cities):
        if b.area.get(h) == AREA and state["control"].get(h) != "axis":
            events.append({"kind": "control", "hex": h, "from": state["control"].get(h), "to": "axis",
                           "why": "Occupied USSR (13.2)"})
            state["control"][h] = "axis"
