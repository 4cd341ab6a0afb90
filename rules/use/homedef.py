"""Home Defense (USE 10.3.1) and Repatriation (10.4).

10.3.1: while the Home Defense policy is in effect, a country keeps designated ground forces in
its home area (the scenario's ``home-defense`` lines: UK 1 ground unit in Great Britain;
Belgium and the Netherlands 1 ground unit within 3 hexes of their capital, inside their
Mainland). 7.1: a unit with No Supply cannot satisfy Home Defense.

DECISION (10.3.1.1, the Home Defense procedure; the seed gives only its outline). As an
experienced player plays it:

1. The check is made for each active country of a faction at the start of that faction's
   Strategic Movement step (4.1.1 step 1) and at the start of its Actions Sub-Phase (the
   Operations Phase), whether or not the faction has anything to do in that step.
2. Units count when they are the country's own ground units on the map, not at No Supply,
   in a Mainland hex of the country, and (when the requirement names a city) within the given
   range of that city (range counted as in 1.4).
3. Moving the last Home Defense unit away is legal; the check repairs it. For each missing
   unit, one ground unit of the country on the map that does not count is repatriated (10.4).
   The owner chooses by a standing order (``standing home-defense UNIT...``: those first, in
   that order); otherwise the engine takes supplied units before unsupplied ones, then the
   unit nearest to the home city, then the lowest id. No email is spent on the choice.
4. Repatriation (10.4): the unit is placed in the home city (the named city, else the capital,
   else the nearest friendly Mainland city of the country) or, if that hex cannot take it
   (stacking 3.3, an enemy there), in an adjacent hex of the country's Mainland that can (lowest
   hex id first). It leaves any fort, keeps its strength and supply state, and cannot be
   activated this turn. Air/naval units take 1 Sortie (no requirement names them).
5. A country with no ground unit left on the map to bring home simply stays short.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .state import (
    HomeDefense,
    State,
    Unit,
    add_sorties,
    enemies,
    faction_of,
    ground_at,
    hex_of,
    is_ground,
    on_map,
    units_at,
)

Events = list[dict[str, Any]]


def requirements(state: State, code: str) -> list[HomeDefense]:
    return state["home_defense"].get(code, [])


def in_area(b: Board, code: str, h: str, req: HomeDefense) -> bool:
    """A Mainland hex of ``code`` within the requirement's range of its city, if it names one."""
    if b.country.get(h) != code or not b.mainland(h):
        return False
    of, within = req["of"], req["within"]
    if of and within is not None:
        return b.distance(h, of) <= int(within)
    return True


def counts(state: State, b: Board, unit: Unit, req: HomeDefense) -> bool:
    """Whether ``unit`` satisfies ``req`` where it stands (10.3.1, 7.1)."""
    if not (is_ground(unit) and on_map(unit)) or unit["supply"] == "no":
        return False
    return in_area(b, unit["country"], hex_of(unit), req)


def satisfying(state: State, b: Board, code: str, req: HomeDefense) -> list[Unit]:
    return [u for u in sorted(state["units"].values(), key=lambda x: x["id"])
            if u["country"] == code and counts(state, b, u, req)]


def active(state: State, code: str) -> bool:
    c = state["countries"].get(code)
    return bool("home-defense" in state["policies"] and c and c["status"] == "active")


def is_home_defender(state: State, b: Board, unit: Unit) -> bool:
    """A unit whose removal would leave its country short of a requirement (7.5.2 exception)."""
    if not active(state, unit["country"]):
        return False
    for req in requirements(state, unit["country"]):
        have = [u["id"] for u in satisfying(state, b, unit["country"], req)]
        if unit["id"] in have and len(have) <= int(req["units"]):
            return True
    return False


def home_cities(state: State, b: Board, code: str, req: HomeDefense, near: str) -> list[str]:
    faction = state["countries"][code]["faction"]
    of = req["of"]
    if of:
        return [of] if state["control"].get(of) == faction else []
    friendly = [h for h, c in b.cities.items() if c.country == code and b.mainland(h)
                and b.country.get(h) == code and state["control"].get(h) == faction]
    cap = b.capital_hex(code)
    return sorted(friendly, key=lambda h: (h != cap, b.distance(near, h), h))


def _can_place(state: State, b: Board, unit: Unit, h: str, code: str) -> bool:
    from .occupied import occupied  # USE 10.3.6: not behind an active Occupied USSR border

    faction = faction_of(state, unit)
    if b.ground_prohibited(h) or b.country.get(h) != code or not b.mainland(h) or occupied(state, b, h):
        return False
    if b.city(h) is not None and enemies(state["control"].get(h), faction):
        return False
    if enemies(state["forts"].get(h), faction):
        return False
    if any(enemies(faction_of(state, u), faction) for u in units_at(state, h)):
        return False
    g = ground_at(state, h)
    return g is None or g["id"] == unit["id"]


def repatriate(state: State, b: Board, unit: Unit, req: HomeDefense, events: Events) -> bool:
    """USE 10.4: remove the unit and place it in or adjacent to a friendly home city."""
    code = unit["country"]
    src = hex_of(unit)
    for city in home_cities(state, b, code, req, src):
        spots = [city, *sorted(b.neighbours(city))]
        for h in spots:
            if h == src or not _can_place(state, b, unit, h, code):
                continue
            if not in_area(b, code, h, req):
                continue
            unit["hex"] = h
            unit["fort"] = False
            unit["repatriated"] = True
            if not is_ground(unit):
                add_sorties(unit, 1)
            events.append({"kind": "repatriated", "unit": unit["id"], "from": src, "to": h,
                           "country": code})
            return True
    return False


def check(state: State, b: Board, faction: str, events: Events) -> None:
    """The Home Defense check of ``faction``'s countries (procedure in the module docstring)."""
    st = state["standing"].get(faction)
    prefer = (st.get("home_defense", []) if st is not None else []) or []
    for code in sorted(state["home_defense"]):
        c = state["countries"].get(code)
        if c is None or c["faction"] != faction or not active(state, code):
            continue
        for req in requirements(state, code):
            have = satisfying(state, b, code, req)
            short = int(req["units"]) - len(have)
            if short <= 0:
                continue
            target = req["of"] or b.capital_hex(code) or ""
            ids = {u["id"] for u in have}
            pool = [u for u in state["units"].values() if u["country"] == code and is_ground(u)
                    and on_map(u) and u["id"] not in ids]

            def rank(u: Unit, target: str = target) -> tuple[int, int, int, str]:
                pref = prefer.index(u["id"]) if u["id"] in prefer else len(prefer)
                dist = b.distance(hex_of(u), target) if target else 0
                return (pref, u["supply"] == "no", dist, u["id"])

            for u in sorted(pool, key=rank):
                if short <= 0:
                    break
                if repatriate(state, b, u, req, events):
                    short -= 1
            if short > 0:
                events.append({"kind": "home-defense-short", "country": code, "missing": short})
