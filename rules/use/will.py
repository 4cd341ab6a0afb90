"""National Will (USE 2.1.2), unit elimination, city capture (2.3.1), Collapse and Conquest (13.2)."""

from __future__ import annotations

from typing import Any

from .geo import Board
from .state import State, Unit, enemies, faction_of, is_ground
from .tables import authored

Events = list[dict[str, Any]]


def change_will(state: State, b: Board | None, country: str, delta: int, why: str, events: Events) -> None:
    """USE 2.1.2: National Will runs 0..99; reaching 0 collapses the country (13.2)."""
    c = state["countries"].get(country)
    if c is None or c["status"] != "active" or delta == 0:
        return
    old = c["will"]
    c["will"] = max(0, min(99, old + delta))
    events.append({"kind": "will", "country": country, "from": old, "to": c["will"], "why": why})
    if c["will"] == 0 and b is not None:
        collapse(state, b, country, events)


def eliminate(state: State, unit: Unit, events: Events, *, cause: str, b: Board | None = None) -> None:
    """Remove a unit to the Eliminated box; combat and displacement losses cost Will (authored),
    attrition and voluntary elimination do not (USE 7.5.2)."""
    unit["hex"] = None
    unit["box"] = "eliminated"
    unit["fort"] = False
    unit["sm"] = False
    events.append({"kind": "eliminated", "unit": unit["id"], "cause": cause})
    if cause in ("combat", "displacement", "retreat"):
        key = "ground_eliminated" if is_ground(unit) else "air_naval_eliminated"
        change_will(state, b, unit["country"], int(authored()["will_loss"][key]),
                    f"{unit['id']} eliminated", events)


def step_loss(state: State, unit: Unit, events: Events, *, cause: str, b: Board | None = None) -> None:
    """One step: a full field unit flips to reduced; a reduced one is eliminated."""
    if unit["reduced"]:
        eliminate(state, unit, events, cause=cause, b=b)
    else:
        unit["reduced"] = True
        events.append({"kind": "reduced", "unit": unit["id"], "cause": cause})


def capture_city(state: State, b: Board, h: str, faction: str, events: Events) -> None:
    """USE 2.3.1: control changes at once when an enemy ground unit enters the city."""
    old = state["control"].get(h)
    state["control"][h] = faction
    city = b.city(h)
    assert city is not None
    events.append({"kind": "control", "hex": h, "city": city.name, "from": old, "to": faction})
    owner = state["countries"].get(city.country)
    if owner is not None and enemies(owner["faction"], faction):
        key = "capital_lost" if city.capital else "city_lost"
        change_will(state, b, city.country, int(authored()["will_loss"][key]),
                    f"{city.name} captured", events)
        check_collapse(state, b, city.country, events)


def mainland_cities(state: State, b: Board, country: str) -> list[str]:
    return [h for h, c in b.cities.items() if c.country == country and b.mainland(h)]


def check_collapse(state: State, b: Board, country: str, events: Events) -> None:
    """USE 13.2: a country collapses when all its Mainland cities are under enemy control."""
    c = state["countries"].get(country)
    if c is None or c["status"] != "active":
        return
    cities = mainland_cities(state, b, country)
    if cities and all(enemies(state["control"].get(h), c["faction"]) for h in cities):
        collapse(state, b, country, events)


def collapse(state: State, b: Board, country: str, events: Events) -> None:
    """USE 13.2 Collapse Procedure, then Conquest (13.2.2) when an enemy ground unit stands in
    the Mainland Area and at least one Mainland city is enemy-controlled."""
    c = state["countries"][country]
    if c["status"] != "active":
        return
    c["status"] = "collapsed"
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if u["country"] != country or u["box"] is not None:
            continue
        if is_ground(u) and not u["reduced"]:
            u["reduced"] = True
        else:
            eliminate(state, u, events, cause="collapse")
    # DECISION: "half printed value" rounds up, as every halving in 5.1 does (rules-gaps 16).
    c["will"] = (c["printed_will"] + 1) // 2
    events.append({"kind": "collapse", "country": country})
    invaders = [u for u in state["units"].values()
                if u["box"] is None and u["hex"] is not None and is_ground(u)
                and b.country.get(u["hex"]) == country and b.mainland(u["hex"])
                and enemies(faction_of(state, u), c["faction"])]
    lost = [h for h in mainland_cities(state, b, country)
            if enemies(state["control"].get(h), c["faction"])]
    if invaders and lost:
        conquer(state, country, faction_of(state, invaders[0]) or "", events)


def conquer(state: State, country: str, by: str, events: Events) -> None:
    """USE 13.2.2: all the conquered country's counters are removed."""
    c = state["countries"][country]
    c["status"] = "conquered"
    c["conquered_by"] = by
    for u in state["units"].values():
        if u["country"] == country:
            u["hex"] = None
            u["box"] = "removed"
    events.append({"kind": "conquered", "country": country, "by": by})
