"""What ground combat hands back to the sea rules: the end of an Assault from the sea (USE 6.3.2,
15.16) and a Naval Evacuation instead of a retreat (14.8). Called by combat.py; it reaches
neither combat nor actions, so that combat may import it.

DECISIONS:
* An Assault from the sea that does not clear the hex leaves the invader in its port (it
  never landed); one that clears it lands the unit by the Advance after Combat (5.3.7: the
  advance is the landing), and a UK/USA Mulberry ordered with the invasion is placed then.
* Naval Evacuation when forced to retreat (14.8): the UK readies its marker in its own Actions
  Sub-Phase (``evacuate-on-retreat``), as event markers are readied (eventplay.py), since it
  cannot write in the enemy's file. A ready marker is used by the first UK ground unit in a
  coastal hex that a combat result forces to retreat and that a friendly port (or the UK's
  Mulberry) of one of its hex's Sea Zones can take (no enemy unit, no ground unit there): the
  nearest such port, then the lowest hex id. The unit goes there instead of retreating and is
  reduced (a reduced unit is eliminated, as the Action use); a unit keeping its fort (15.12)
  does not retreat and does not evacuate. No port: it retreats as usual and the marker waits.
"""

from __future__ import annotations

from typing import Any

from .coast import coastal
from .geo import Board
from .seamarks import friendly_port
from .state import State, Unit, enemies, faction_of, ground_at, hex_of, is_ground, on_map, units_at
from .will import step_loss

Events = list[dict[str, Any]]
EVACUATION_NATIONS = ("UK",)  # USE 14.8


def after_assault(state: State, b: Board, c: Any, rec: dict[str, Any], events: Events) -> None:
    """USE 6.3.2 / 15.16: the Assault from the sea at ``c['target']`` is over."""
    h = c["target"]
    sea = state["sea"]
    sea["assault"].pop(h, None)
    if not sea["assault"]:
        del sea["assault"]
    g = state["units"][rec["unit"]]
    if not (on_map(g) and g["hex"] == h):
        events.append({"kind": "invasion-repulsed", "unit": g["id"], "hex": h})
        return
    events.append({"kind": "invasion-landed", "unit": g["id"], "hex": h})
    if rec.get("mulberry") and not sea.get("mulberry"):
        sea.setdefault("mulberry", {})[h] = rec["faction"]
        events.append({"kind": "mulberry", "faction": rec["faction"], "hex": h})


def evacuation_ports(state: State, b: Board, u: Unit, faction: str) -> list[str]:
    """Friendly ports (or the Mulberry) of the Sea Zones of ``u``'s hex that can take it."""
    here = hex_of(u)
    out: set[str] = set()
    if not coastal(b, here):
        return []  # 14.8 "UK ground unit in coastal hex"; a full-land port is not one (1.3.6)
    for z in b.zones_of(here):
        for p in b.zone_hexes(z):
            if (p != here and not b.is_water(p) and friendly_port(state, b, p, faction)
                    and ground_at(state, p) is None
                    and not any(enemies(faction_of(state, o), faction) for o in units_at(state, p))):
                out.add(p)
    return sorted(out, key=lambda p: (b.distance(here, p), p))


def evacuate_on_retreat(state: State, b: Board, dfn: Unit, events: Events) -> bool:
    """USE 14.8: a UK ground unit forced to retreat leaves by sea if its faction's Naval
    Evacuation marker is ready; True when it did."""
    faction = faction_of(state, dfn)
    pool = state["event_markers"].get(faction or "", {})
    if faction is None or pool.get("naval-evacuation") != "ready":
        return False
    if not is_ground(dfn) or dfn["country"] not in EVACUATION_NATIONS or not on_map(dfn):
        return False
    ports = evacuation_ports(state, b, dfn, faction)
    if not ports:
        return False
    pool["naval-evacuation"] = "placed"
    events.append({"kind": "naval-evacuation", "unit": dfn["id"], "from": dfn["hex"], "to": ports[0],
                   "retreat": True})
    dfn.update({"hex": ports[0], "fort": False})
    step_loss(state, dfn, events, cause="naval evacuation", b=b)
    return True
