"""Bombing Run (USE 6.2.6) and the Air Interception it may meet (6.2.5, 5.2).

6.2.6: a bomber attacks an enemy factory in Germany within 20 hexes; if not interdicted, a
Bombed marker goes there (at most 1 per hex, at most 8 on the map per turn). 15.4 / 9.2 step 3:
Bombed markers come off at the end of the Strategic Warfare Phase. 9.1: they do not reduce the
Factory Count (they are DRMs in Strategic Warfare: strategic.py).

DECISIONS:
* The bomber does not move: it flies the straight hex line (hexgrid.hex_line) to the target
  and back; 1 Sortie for the run if it fought no air combat, else the combat Sorties (as Air
  Support, 6.2.3). It ends its activation.
* Interception (6.2.5): a non-phasing fighter within 5 hexes of any hex of that line, with
  fewer than 6 Sorties, intercepts if its side's standing order names it (``standing intercept
  UNIT...|all``); the first such fighter by id intercepts, once per run. It is an air/naval
  combat (5.2) with no Will Commit (see seasupply.py); an interceptor that wins interdicts the
  run. The text gives bombers no escort (6.2.4 escorts naval units only).
"""

from __future__ import annotations

from typing import Any

from . import hexgrid
from .actions import own_unit
from .activation import activate, check_activate, end_activation
from .airduel import Roller, air_duel
from .geo import Board
from .politics import may_attack
from .refusals import illegal
from .seasupply import willing
from .state import State, add_sorties, enemies, faction_of, hex_of, on_map
from .strictdice import need

Order = dict[str, Any]
Events = list[dict[str, Any]]
BOMBING_RANGE = 20  # USE 6.2.6
INTERCEPT_RANGE = 5  # USE 6.2.5: within 5 hexes of the path
MAX_BOMBED = 8  # USE 6.2.6 / 15.4: at most 8 Bombed markers on the map


def check_bombing_run(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 6.2.6: a bomber within 20 hexes of an enemy factory city in Germany not yet Bombed."""
    unit = own_unit(state, order, order["unit"], faction)
    if unit["kind"] != "bomber":
        illegal(order, f"{unit['id']} is not a bomber", "6.2.6")
    target = order["target"]
    city = b.city(target)
    owner = state["control"].get(target)
    if city is None or city.factories < 1 or b.country.get(target) != "GER" or not enemies(owner, faction):
        illegal(order, f"{target} is not an enemy factory in Germany", "6.2.6")
    ban = may_attack(state, faction, owner or "")
    if ban:
        illegal(order, ban[1], ban[0])
    if b.distance(hex_of(unit), target) > BOMBING_RANGE:
        illegal(order, f"{target} is more than {BOMBING_RANGE} hexes from {unit['id']}", "6.2.6")
    bombed = state["markers"]["bombed"]
    if target in bombed:
        illegal(order, f"{target} already has a Bombed marker", "6.2.6")
    if len(bombed) >= MAX_BOMBED:
        illegal(order, f"{MAX_BOMBED} Bombed markers are already on the map", "6.2.6")
    check_activate(state, order, unit)


def bombing_run(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_bombing_run``."""
    unit = state["units"][order["unit"]]
    target = order["target"]
    city = b.city(target)
    assert city is not None
    bombed = state["markers"]["bombed"]
    activate(state, b, order, unit, events)
    end_activation(state, events)
    line = [str(h) for h in hexgrid.hex_line(hexgrid.parse_hex(hex_of(unit)), hexgrid.parse_hex(target))]
    events.append({"kind": "bombing-run", "unit": unit["id"], "target": target})
    interceptor = None
    for u in sorted(state["units"].values(), key=lambda x: x["id"]):
        f = faction_of(state, u)
        if (u["kind"] == "fighter" and on_map(u) and enemies(f, faction) and u["sorties"] < 6
                and not u["sm"] and willing(state, u) and not may_attack(state, f or "", faction)
                and any(b.distance(hex_of(u), h) <= INTERCEPT_RANGE for h in line)):
            interceptor = u
            break
    if interceptor is not None:
        need(ctx, 2)  # strict dice: the run waits for the dice in the bomber's next file
        events.append({"kind": "interception", "unit": interceptor["id"], "target": unit["id"],
                       "what": "bombing run"})
        won = air_duel(state, b, interceptor, unit, target, Roller(ctx), events)
        if won == "att":
            events.append({"kind": "interdicted", "unit": unit["id"], "by": interceptor["id"]})
            return
    else:
        add_sorties(unit, 1)
    bombed[target] = faction
    events.append({"kind": "bombed", "hex": target, "city": city.name})


def clear_bombed(state: State, events: Events) -> None:
    """USE 9.2 step 3 / 15.4: every Bombed marker comes off at the end of Strategic Warfare."""
    if state["markers"]["bombed"]:
        state["markers"]["bombed"] = {}
        events.append({"kind": "bombed-removed"})
