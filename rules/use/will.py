"""National Will (USE 2.1.2), unit elimination, city capture (2.3.1), Collapse and Conquest (13.2)."""

from __future__ import annotations

from typing import Any

from .conquest import effects
from .diplomacy import grant_success
from .geo import Board, board
from .state import State, Unit, enemies, faction_of, in_play, is_ground
from .tables import authored

Events = list[dict[str, Any]]


def change_will(state: State, b: Board | None, country: str, delta: int, why: str, events: Events) -> None:
    """USE 2.1.2: National Will runs 0..99; reaching 0 collapses the country (13.2)."""
    c = state["countries"].get(country)
    if c is None or c["status"] != "active" or delta == 0 or c.get("will_removed"):
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
        before = owner["collapses"]
        change_will(state, b, city.country, int(authored()["will_loss"][key]),
                    f"{city.name} captured", events)
        if owner["collapses"] == before:  # one collapse per capture (Will 0 or cities)
            check_collapse(state, b, city.country, events)
        check_conquest(state, b, city.country, events)


def mainland_cities(state: State, b: Board, country: str) -> list[str]:
    """The country's on-map Mainland city hexes (its Map Box cities: ``box_city_held``)."""
    return [h for h, c in b.cities.items() if c.country == country and b.mainland(h)]


def box_city_held(b: Board, country: str, faction: str | None) -> bool:
    """DECISION (13.2, 1.3.5): a city in a land Map Box (Rome in ITALY, Berlin in REICH, Moscow in
    Central Russia) is a Mainland city of its country controlled by the box's friendly faction:
    no enemy unit may enter a Map Box (4.x "Axis units cannot enter Map Boxes ..."), so it never
    falls, and while it is friendly the country's Mainland cities are never all enemy-controlled."""
    return any(code == country and box in b.land_boxes and not enemies(b.land_boxes[box][0], faction)
               for code, box in b.box_cities.values())


def check_collapse(state: State, b: Board, country: str, events: Events) -> None:
    """USE 13.2: a country collapses when all its Mainland cities are under enemy control."""
    c = state["countries"].get(country)
    if c is None or c["status"] != "active" or box_city_held(b, country, c["faction"]):
        return
    cities = mainland_cities(state, b, country)
    if cities and all(enemies(state["control"].get(h), c["faction"]) for h in cities):
        collapse(state, b, country, events)


def collapse(state: State, b: Board, country: str, events: Events) -> None:
    """USE 13.2 Collapse Procedure: reduced ground units and all air/naval units eliminated,
    full-strength ground units reduced, National Will reset to half its printed value; then
    Conquest (13.2.2) is checked.

    A collapse is an event, not a status: the country stays active and fights on (production,
    Will, activation) and is conquered whenever the 13.2 conditions hold afterwards (see
    ``check_conquest``). ``collapses`` counts how often it collapsed.
    DECISION: a country may collapse again (its Will reaching 0 again, or its last Mainland city
    falling again): 13.2 limits only the UK and the USA to one collapse."""
    c = state["countries"][country]
    if c["status"] != "active":
        return
    major_once = country in ONE_COLLAPSE
    if major_once and c["collapses"]:
        return  # USE 13.2 Major Power Special Collapse: the UK/USA collapse only once
    c["collapses"] += 1
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        # Wherever they are: on the map and in Map Boxes alike (13.2 makes no exception)
        if u["country"] != country or not in_play(u):
            continue
        if is_ground(u) and not u["reduced"]:
            u["reduced"] = True
            events.append({"kind": "reduced", "unit": u["id"], "cause": "collapse"})
        else:
            eliminate(state, u, events, cause="collapse")
    events.append({"kind": "collapse", "country": country, "times": c["collapses"]})
    if major_once:
        _major_collapse(state, b, country, events)
    else:
        # DECISION: "half printed value" rounds up, as every halving in 5.1 does (rules-gaps 16).
        old = c["will"]
        c["will"] = (c["printed_will"] + 1) // 2
        events.append({"kind": "will", "country": country, "from": old, "to": c["will"],
                       "why": "collapse (13.2): half the printed value"})
    if country == "USSR":
        from .conditional import ussr_collapse  # USE 13.2 Major Power Special Collapse

        ussr_collapse(state, b, events, change_will)
    check_conquest(state, b, country, events)


# USE 13.2 Major Power Special Collapse of the UK/USA; the USSR's is conditional.ussr_collapse.
ONE_COLLAPSE = frozenset({"UK", "USA"})


def _major_collapse(state: State, b: Board, country: str, events: Events) -> None:
    """USE 13.2: the UK/USA collapse once: Will removed; Germany gets 1 Conditional ground unit,
    +10 Will and 1 Political Success.
    DECISION: "Will removed" = the country's Will is no longer kept (``will_removed``: it stays
    0 and no later change or collapse applies); the Conditional unit is the lowest-id German
    ground unit in the Conditional box, moved to the Mobilization box (it is mobilized as usual,
    8.3); the Political Success is the Axis's to resolve at once where the game has a Diplomacy
    Cup (diplomacy.grant_success; France 1940 has none, so nothing there)."""
    c = state["countries"][country]
    old = c["will"]
    c["will"] = 0
    c["will_removed"] = True
    events.append({"kind": "will", "country": country, "from": old, "to": 0, "why": "Will removed (13.2)"})
    ger = state["countries"].get("GER")
    if ger is None or ger["status"] != "active":
        return
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if u["country"] == "GER" and u["box"] == "conditional" and is_ground(u):
            u["box"] = "mobilization"
            events.append({"kind": "conditional-unit", "unit": uid, "to": "mobilization"})
            break
    change_will(state, b, "GER", 10, f"{country} collapsed (13.2)", events)
    grant_success(state, "axis", f"{country} collapsed (13.2)", events)


def conquest_due(state: State, b: Board, country: str) -> bool:
    """USE 13.2: a collapsed country with an enemy ground unit in its Mainland Area and at least
    one of its Mainland cities enemy-controlled is conquered."""
    c = state["countries"].get(country)
    if c is None or c["status"] != "active" or not c["collapses"]:
        return False
    lost = any(enemies(state["control"].get(h), c["faction"]) for h in mainland_cities(state, b, country)
               if not _occupied(state, b, country, h))
    return lost and _invader(state, b, country) is not None


def _occupied(state: State, b: Board, country: str, h: str) -> bool:
    """DECISION (13.2, 10.3.6): Occupied USSR is conquered land while its border is active (the
    Moscow Treaty, which the USSR's collapse places): it counts for neither condition of the
    USSR's Conquest (conditional.ussr_collapse, occupied.py)."""
    from .occupied import occupied

    return country == "USSR" and occupied(state, b, h)


def _invader(state: State, b: Board, country: str) -> Unit | None:
    c = state["countries"][country]
    for uid in sorted(state["units"]):
        u: Unit = state["units"][uid]
        if (u["box"] is None and u["hex"] is not None and is_ground(u)
                and b.country.get(u["hex"]) == country and b.mainland(u["hex"])
                and not _occupied(state, b, country, u["hex"]) and enemies(faction_of(state, u), c["faction"])):
            return u
    return None


def check_conquest(state: State, b: Board, country: str, events: Events) -> None:
    if conquest_due(state, b, country):
        inv = _invader(state, b, country)
        assert inv is not None
        conquer(state, country, faction_of(state, inv) or "", events, b)


def check_conquests(state: State, b: Board, events: Events) -> None:
    """USE 13.2: Conquest is checked whenever the state may have changed, not only at collapse."""
    for code in sorted(state["countries"]):
        check_conquest(state, b, code, events)


def conquer(state: State, country: str, by: str, events: Events, b: Board | None = None) -> None:
    """USE 13.2.2: all the conquered country's counters are removed; then the other effects
    (conquest.py: Pro-Faction markers, Axis Will and Conditional unit, ceding, Vichy)."""
    c = state["countries"][country]
    c["status"] = "conquered"
    c["conquered_by"] = by
    for u in state["units"].values():
        if u["country"] == country:
            u["hex"] = None
            u["box"] = "removed"
    events.append({"kind": "conquered", "country": country, "by": by})
    _remove_forts(state, b or board(state), country, str(c["faction"]), events)
    if b is not None:
        effects(state, b, country, by, events, change_will)


def _remove_forts(state: State, b: Board, country: str, faction: str, events: Events) -> None:
    """USE 13.2.2 "All counters removed": fort markers are counters (15.12).
    DECISION: the conquered country's forts are the fort markers of its faction in its own hexes
    (Mainland and Overseas, so French forts inside a Vichy created afterwards go too: Vichy is a
    new country with no fort markers) and those still waiting for its activation (13.1)."""
    for h in sorted(state["forts"]):
        if b.country.get(h) == country and state["forts"][h] == faction:
            del state["forts"][h]
            events.append({"kind": "fort-removed", "hex": h, "why": f"{country} conquered (13.2.2)"})
    for h in sorted(state["activation_forts"]):
        if state["activation_forts"][h] == country:
            del state["activation_forts"][h]
