"""What a conquest does besides removing counters (USE 13.2.2), ceding Disputed Areas (2.2,
15.5, 17.0) and the creation of Vichy (16.0).

13.2.2: the conquering faction adds a Pro-Faction marker to the Diplomacy Cup and may flip or
place a Pro-Faction marker in an adjacent neutral country; the Axis gains Will, moves its
Conditional unit to Eliminated and cedes Disputed Areas (Polish Corridor, Alsace-Lorraine;
Eastern Poland to the USSR if the Pact is active). 2.2: ceded hexes become part of the Mainland
Area of the country they are ceded to; unoccupied cities come under control of the new country,
cities holding an enemy unit under enemy control. 16.0: Vichy (and French North Africa, Syria:
not on the France 1940 map) is created if France is conquered while the Pact is in effect.

Area changes live in ``state['areas']`` ({area: {"country", "capital"}}); ``geo.board`` applies
them, so every rule sees the ceded or created country.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .geo import Board, board
from .state import State, enemies, faction_of, is_ground, units_at
from .tables import authored

Events = list[dict[str, Any]]
# will.change_will, handed in by will.conquer: Will, collapse and conquest recurse (Will 0 ->
# collapse -> conquest -> Axis Will), and taking the function keeps the modules acyclic.
ChangeWill = Callable[[State, Board | None, str, int, str, Events], None]
# USE 17.0: Disputed Areas and the country each may be ceded to (area ids as map.txt spells
# them; only Alsace-Lorraine is on the France 1940 map; the Baltic States are whole countries,
# BALTIC below). 14.2 Area Seized cedes the USSR's; a conquest cedes only those 13.2.2 names.
DISPUTED = {"alsace-lorraine": ("FRA", "GER"), "polish-corridor": ("POL", "GER"),
            "eastern-poland": ("POL", "USSR"), "bessarabia": ("ROM", "USSR"), "karelia": ("FIN", "USSR")}
CEDED_ON_CONQUEST = frozenset({"alsace-lorraine", "polish-corridor", "eastern-poland"})  # 13.2.2
# USE 16.0: countries created when France is conquered with the Pact in effect: code -> areas.
CREATED_ON_FRANCE = {"VIC": ("vichy", "corsica"), "FNA": ("french-north-africa",), "SYR": ("syria",)}
MAX_PRO = 8  # USE 15.19: at most 8 Pro-[Faction] markers per faction


def effects(state: State, b: Board, country: str, by: str, events: Events, change_will: ChangeWill) -> None:
    """USE 13.2.2 after the counters are gone."""
    cup = state.setdefault("diplomacy_cup", [])
    cup.append(f"pro-{by}")
    events.append({"kind": "diplomacy-cup", "marker": f"pro-{by}", "why": f"{country} conquered (13.2.2)"})
    _pro_marker(state, b, country, by, events)
    if by == "axis":
        _axis_gains(state, b, country, events, change_will)
    if country == "FRA" and "nazi-soviet-pact" in state["policies"]:
        _create_vichy(state, events)


def _pro_marker(state: State, b: Board, country: str, by: str, events: Events) -> None:
    """13.2.2 "may flip/place Pro-Faction marker in adjacent neutral country".
    DECISION: the choice is the conquering faction's standing order ``standing pro-marker
    CODE...|none`` (default none, so no email is needed): the first named country that is
    neutral (not Prohibited) and has a land hex next to one of the conquered country's gets the
    faction's Pro marker (placed, or flipped from another faction's), while the faction has
    fewer than 8 (15.19)."""
    st = state["standing"].get(by)
    wanted = (st.get("pro_marker") if st is not None else None) or []
    placed = sum(1 for c in state["countries"].values() if c.get("pro") == by)
    if placed >= MAX_PRO:
        return
    for code in wanted:
        c = state["countries"].get(code)
        if c is None or c["status"] != "neutral" or c.get("pro") == by or not _adjacent(b, country, code):
            continue
        old = c.get("pro")
        c["pro"] = by
        events.append({"kind": "pro-marker", "country": code, "faction": by, "was": old})
        return


def _adjacent(b: Board, a: str, other: str) -> bool:
    for h, code in b.country.items():
        if code == a and b.terrain.get(h) != "water":
            if any(b.country.get(n) == other and not b.is_water(n) for n in b.neighbours(h)):
                return True
    return False


def _axis_gains(state: State, b: Board, country: str, events: Events, change_will: ChangeWill) -> None:
    gain = int(authored()["conquest"]["axis_will"])
    ger = state["countries"].get("GER")
    if ger is not None and ger["status"] == "active":
        change_will(state, b, "GER", gain, f"{country} conquered (13.2.2)", events)
        for uid in sorted(state["units"]):
            u = state["units"][uid]
            if u["country"] == "GER" and u["box"] == "conditional" and is_ground(u):
                # 13.2.2: the Conditional unit goes to the Eliminated box (and so, at the end of
                # the turn, to the Mobilization box, 12.2).
                u["box"] = "eliminated"
                events.append({"kind": "conditional-unit", "unit": uid, "to": "eliminated"})
                break
    for area, (owner, to) in sorted(DISPUTED.items()):
        if (owner != country or area not in CEDED_ON_CONQUEST
                or (to == "USSR" and "nazi-soviet-pact" not in state["policies"])):
            continue
        if to not in state["countries"] or area not in set(b.area.values()):
            continue
        cede(state, area, to, events)


def cede(state: State, area: str, to: str, events: Events) -> None:
    """USE 2.2 / 15.5: the area becomes part of ``to``'s Mainland; unoccupied cities come under
    control of the new country, cities holding an enemy unit under that enemy's control.
    DECISION: a city holding a unit friendly to the new country is the new country's too."""
    state.setdefault("areas", {})[area] = {"country": to, "capital": None}
    state.setdefault("ceded", []).append(area)
    events.append({"kind": "ceded", "area": area, "to": to})
    _recontrol(state, area, state["countries"][to]["faction"], events)


def _recontrol(state: State, area: str, faction: str | None, events: Events) -> None:
    nb = board(state)
    for h in sorted(nb.cities):
        if nb.area.get(h) != area:
            continue
        holders = [faction_of(state, u) for u in units_at(state, h)]
        hostile = [f for f in holders if f and enemies(f, faction)]
        new = hostile[0] if hostile else (faction or "neutral")
        if state["control"].get(h) != new:
            events.append({"kind": "control", "hex": h, "from": state["control"].get(h), "to": new,
                           "why": f"{area} changes country"})
            state["control"][h] = new


def _create_vichy(state: State, events: Events) -> None:
    """USE 16.0: Vichy, French North Africa and Syria are created (those on the map).
    DECISIONS: a created country is neutral (2.1.1: it has joined no faction; 13.1 decides its
    side when war is declared on it) with the 16.0 Will; its areas (map.txt ``area=``; Vichy's
    Overseas Area is Corsica) become its hexes; its cities come under its (neutral) control
    unless a unit of a faction holds them, which keeps them."""
    for code, areas in sorted(CREATED_ON_FRANCE.items()):
        c = state["countries"].get(code)
        if c is None or c["status"] != "dormant":
            continue
        c["status"] = "neutral"
        c["faction"] = None
        for area in areas:
            state.setdefault("areas", {})[area] = {"country": code, "capital": c.get("capital")}
        events.append({"kind": "country-created", "country": code, "will": c["will"]})
        nb = board(state)
        for h in sorted(nb.cities):
            if nb.area.get(h) in areas:
                holders = [f for f in (faction_of(state, u) for u in units_at(state, h)) if f]
                new = holders[0] if holders else "neutral"
                if state["control"].get(h) != new:
                    events.append({"kind": "control", "hex": h, "from": state["control"].get(h), "to": new,
                                   "why": f"{code} created (16.0)"})
                    state["control"][h] = new


BALTIC = ("EST", "LAT", "LIT")  # USE 2.2: the Baltic States, Disputed Areas of the USSR


def area_seized(state: State, events: Events) -> None:
    """USE 14.2 Area Seized, drawn from the Diplomacy Cup (diplomacy.resolve_drawn).
    DECISIONS (the seed gives one line): an eligible Disputed Area of the USSR (17.0: Eastern
    Poland, Bessarabia, Karelia) is one on the map, not yet ceded, whose country is not an active country (neutral,
    or conquered): it is ceded to the USSR (2.2). The Baltic States still neutral are removed:
    conquered by the Soviet faction (their counters removed, their cities Soviet). "Shifts
    neutral alignment to Pro-Axis": every neutral country next to a seized area or a removed
    Baltic State gets a Pro-Axis marker (placed or flipped), while the Axis has fewer than 8."""
    ussr = state["countries"].get("USSR")
    if ussr is None or ussr["status"] != "active":
        return
    b = board(state)
    seized: list[str] = []
    for area, (owner, to) in sorted(DISPUTED.items()):
        c = state["countries"].get(owner)
        if (to != "USSR" or area in state.get("ceded", []) or area not in set(b.area.values())
                or (c is not None and c["status"] == "active")):
            continue
        cede(state, area, "USSR", events)
        seized.append(area)
    removed = [code for code in BALTIC if code in state["countries"]
               and state["countries"][code]["status"] == "neutral"]
    for code in removed:
        _remove_baltic(state, code, events)
    nb = board(state)
    near = {n for h in nb.terrain if nb.area.get(h) in seized or nb.country.get(h) in removed
            for n in nb.neighbours(h)}
    for code in sorted({nb.country.get(n) or "" for n in near} - {"", *removed}):
        c = state["countries"].get(code)
        placed = sum(1 for x in state["countries"].values() if x.get("pro") == "axis")
        if c is None or c["status"] != "neutral" or c.get("pro") == "axis" or placed >= MAX_PRO:
            continue
        old = c.get("pro")
        c["pro"] = "axis"
        events.append({"kind": "pro-marker", "country": code, "faction": "axis", "was": old})


def _remove_baltic(state: State, code: str, events: Events) -> None:
    c = state["countries"][code]
    c["status"] = "conquered"
    c["conquered_by"] = "soviet"
    for u in state["units"].values():
        if u["country"] == code:
            u["hex"], u["box"] = None, "removed"
    events.append({"kind": "conquered", "country": code, "by": "soviet"})
    b = board(state)
    for h in sorted(b.cities):
        if b.cities[h].country == code and state["control"].get(h) != "soviet":
            events.append({"kind": "control", "hex": h, "from": state["control"].get(h), "to": "soviet",
                           "why": "Area Seized (14.2)"})
            state["control"][h] = "soviet"
