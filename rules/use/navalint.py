"""Interception of naval moves (USE 6.2.5, 6.4.3) and their escorts (6.2.4, 6.4.2, 5.2).

6.2.5: a non-phasing fighter intercepts a Naval Rebase or Naval Transport in the same Sea Zone;
6.4.3: a non-phasing warship intercepts a phasing naval unit within 2 Sea Zones; 1.3.5: never
in a Map Box. 6.2.4: a fighter stacked with the naval unit escorts it, operating within its hex
or Sea Zone; 6.4.2: a warship stacked with a convoy moves with it to protect it. 5.2: the
escorts are attacked first; if an escort beats the interceptor, or the interceptor reaches 6
Sorties, the moving unit is not attacked.

DECISIONS (the text is silent on these), the same as for sea supply lines (seasupply.py):
* Interception is decided by the non-phasing side's standing order (``standing intercept
  UNIT...|all|none``), so a naval move never waits for an email; at most one air and one naval
  interception per Sea Zone of the route; each interceptor once per move.
* The route is every Sea Zone the unit is in during the move: the zone of its port it leaves
  by, each zone named, and the zone of the destination port.
* A fighter escort does not move (air units end in cities or on lines, 4.2.2): it escorts in
  the Sea Zones of its own hex only. Escort warships move with the convoy.
* Interception is an air/naval combat with no Will Commit step and no elimination (combat
  Sorties only, authored table); beating the moving unit interdicts the move (naval.py turns
  it back).
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .seasupply import WARSHIPS, dice_bound, intercept, threats, willing
from .state import State, Unit, faction_of, hex_of, units_at
from .strictdice import need

Events = list[dict[str, Any]]


def fighter_escorts(state: State, unit: Unit) -> list[Unit]:
    """USE 6.2.4: friendly fighters stacked with the naval unit, under 6 Sorties, unmarked."""
    if unit["hex"] is None:
        return []
    faction = faction_of(state, unit)
    return sorted((u for u in units_at(state, unit["hex"])
                   if u["kind"] == "fighter" and faction_of(state, u) == faction and u["sorties"] < 6
                   and not u["sm"]), key=lambda u: u["id"])


def intercept_move(state: State, b: Board, unit: Unit, escorts: list[Unit], route: list[str], what: str,
                   ctx: Any, events: Events) -> tuple[set[str], str | None]:
    """Run the interceptions of a naval move along ``route``: (ids of the moving units that
    fought, the Sea Zone where the move was interdicted or None)."""
    if ctx is None:
        return set(), None
    if any(willing(state, u) for z in route for u in threats(state, b, faction_of(state, unit) or "", z)):
        need(ctx, dice_bound(state, faction_of(state, unit) or ""))
    fighters = fighter_escorts(state, unit)

    def escorts_in(zone: str) -> list[Unit]:
        here = [f for f in fighters if zone in b.zones_of(hex_of(f)) and f["sorties"] < 6]
        return here + [w for w in escorts if w["kind"] in WARSHIPS and w["sorties"] < 6]

    start = len(events)
    blocked = intercept(state, b, unit, route, set(), ctx, events, what=what, escorts_in=escorts_in)
    fought: set[str] = set()
    for e in events[start:]:
        if e["kind"] == "air-combat":
            fought.update((e["attacker"], e["defender"]))
    return fought, blocked
