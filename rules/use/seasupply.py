"""Sea Supply Lines (USE 7.4, sea part) and their interception (6.2.5, 6.4.3, 6.2.4, 6.4.2, 5.2).

7.4: a sea supply line is traced up to 2 hexes to a Transport Line or port, (then along the
line) to a port with a friendly convoy of fewer than 6 Sorties; the convoy traces a naval path
to a friendly port or Map Box connected to a Supply Source. Warships trace their own sea
supply without a convoy. Only the naval part can be intercepted.

DECISIONS (the text is silent on these):
* The convoy must be IN the port the land part reaches ("port with friendly convoy").
* The naval path follows naval movement (4.2.4): sea zones and sea Map Boxes joined by
  adjacency or arrows, any length (a trace, like the land part along a Transport Line, has no
  MP limit); Axis and Soviet traces cannot enter sea Map Boxes (4.2.4).
* "Connected to a Supply Source": a friendly port that is a Supply Source for the unit or can
  trace a LAND supply line to one (the source it reaches is the source the unit gets), or a
  sea Map Box that is a source for the unit (7.3: ENA/WIO for UK, ENA for USA).
* The path is chosen by the engine for the tracing player: fewest sea zones where an enemy
  could intercept, then fewest steps; every convoy is traced once per Supply Check, and the
  units using it share the outcome.
* Interception is the non-phasing side's decision and is made by standing order
  (``standing intercept UNIT...|all|none``; default none, so no email is ever needed): an
  eligible fighter in a hex of a sea zone on the path (6.2.5) or warship within 2 sea zones
  (6.4.3, range counted per 1.4) intercepts; at most one air and one naval interception per
  sea zone (as 6.3.2 limits invasions), and each unit intercepts once per Supply Check. No
  interception in a Map Box (1.3.5), nor between factions that may not attack each other
  (10.3.4, 10.3.5).
* An interception is an air/naval combat (5.2) with no Will Commit step (the defender of a
  convoy cannot be asked mid-Supply-Check without stopping the turn for two emails): escorts
  stacked with the convoy (fighter 6.2.4, warship 6.4.2) are fought first; if the interceptor
  beats every escort and still has fewer than 6 Sorties it fights the convoy, and beating it
  interdicts the line (7.2: the units relying on it lose one supply level, as a failed trace).
  Combat Sorties follow the authored air_combat table; nobody is eliminated by interception.
"""

from __future__ import annotations

import heapq
from typing import Any, TypedDict

from .airduel import Roller, air_duel
from .geo import Board
from .landsupply import land_reach, lss_reached, sources, trace
from .politics import may_attack
from .state import State, Unit, enemies, faction_of, hex_of, on_map, units_at

Events = list[dict[str, Any]]


class SeaRoute(TypedDict):
    """A sea supply line (sea_routes): its carrier, port, naval path, the source it reaches, how
    many of its zones an enemy could intercept in, and its length."""

    carrier: str
    port: str
    path: list[str]
    source: str
    risk: int
    steps: int
    lss: list[str]  # the Limited Supply Sources it reaches (for their two-unit limit, 7.3)

WARSHIPS = ("carrier", "surface")
NAVAL_INTERCEPT_RANGE = 2  # USE 6.4.3: within 2 Sea Zones
# USE 7.3: sea Map Boxes that are Unlimited Supply Sources, by country (seed box names:
# Eastern North America, Western Indian Ocean; ids as the scenario files spell them).
SOURCE_BOXES = {"UK": frozenset({"ENA", "WIO"}), "USA": frozenset({"ENA"})}


def _friendly_port(state: State, b: Board, h: str, faction: str) -> bool:
    """A port city ``faction`` controls, or its Mulberry (15.16)."""
    from .seamarks import friendly_port

    return friendly_port(state, b, h, faction)


def carriers_at(state: State, b: Board, unit: Unit, port: str) -> list[Unit]:
    """Naval units that can carry ``unit``'s sea line from ``port``: a friendly convoy with
    fewer than 6 Sorties, or the warship itself tracing its own supply (7.4)."""
    faction = faction_of(state, unit)
    out = []
    if unit["kind"] in WARSHIPS and unit["hex"] == port and on_map(unit):
        out.append(unit)
    for u in units_at(state, port):
        if u["kind"] == "convoy" and faction_of(state, u) == faction and u["sorties"] < 6:
            out.append(u)
    return out


def threats(state: State, b: Board, faction: str, zone: str) -> list[Unit]:
    """Enemy units that could intercept a naval trace of ``faction`` in sea zone ``zone``.
    A warship's 2-zone range does not cross Straits (6.4.3)."""
    if zone in b.sea_boxes:
        return []  # 1.3.5: no interception in a Map Box
    out = []
    for u in state["units"].values():
        f = faction_of(state, u)
        if not on_map(u) or not enemies(f, faction) or u["sorties"] >= 6 or u["sm"]:
            continue
        if may_attack(state, f or "", faction):
            continue
        if u["kind"] == "fighter" and zone in b.zones_of(hex_of(u)):
            out.append(u)
        elif u["kind"] in WARSHIPS and any(
                0 <= b.location_distance(z, zone, cross_straits=False) <= NAVAL_INTERCEPT_RANGE - 1
                for z in b.zones_of(hex_of(u))):
            out.append(u)
    return sorted(out, key=lambda u: u["id"])


def dice_bound(state: State, faction: str) -> int:
    """At most how many dice the interceptions of one Supply Check or naval move of
    ``faction`` can use (strict dice reserves them): every enemy fighter or warship a standing
    order makes willing intercepts once at most, fighting each of ``faction``'s fighters and
    warships (escorts) and then the unit."""
    from .strictdice import interception_bound

    hunters = [u for u in state["units"].values()
               if u["kind"] in ("fighter", *WARSHIPS) and on_map(u) and u["sorties"] < 6 and not u["sm"]
               and enemies(faction_of(state, u), faction) and willing(state, u)]
    if not hunters:
        return 0
    guards = [u for u in state["units"].values()
              if u["kind"] in ("fighter", *WARSHIPS) and on_map(u) and faction_of(state, u) == faction]
    return interception_bound(len(hunters), len(guards))


def willing(state: State, unit: Unit) -> bool:
    f = faction_of(state, unit) or ""
    st = state["standing"].get(f)
    wanted = (st.get("intercept", []) if st is not None else []) or []
    return "all" in wanted or unit["id"] in wanted


def _naval_paths(state: State, b: Board, faction: str, starts: frozenset[str]) -> dict[str, tuple[int, int, list[str]]]:
    """Cheapest path to every location: (threatened zones, steps, path)."""
    best: dict[str, tuple[int, int, list[str]]] = {}
    heap: list[tuple[int, int, list[str]]] = []
    for z in sorted(starts):
        t = int(any(willing(state, u) for u in threats(state, b, faction, z)))
        heapq.heappush(heap, (t, 0, [z]))
    while heap:
        t, n, path = heapq.heappop(heap)
        loc = path[-1]
        if loc in best:
            continue
        best[loc] = (t, n, path)
        for nxt in sorted(b.zone_adj.get(loc, frozenset())):
            if nxt in best or (nxt in b.sea_boxes and faction != "western"):
                continue
            dt = int(any(willing(state, u) for u in threats(state, b, faction, nxt)))
            heapq.heappush(heap, (t + dt, n + 1, [*path, nxt]))
    return best


def sea_routes(state: State, b: Board, unit: Unit, start: str | None = None) -> list[SeaRoute]:
    """Every sea supply line ``unit`` can trace from ``start``, best first:
    {"carrier", "port", "path", "source": "uss"|"lss", "risk"}."""

    faction = faction_of(state, unit)
    if faction is None:
        return []
    hexes, _ = land_reach(state, b, unit, start)
    uss, lss = sources(state, b, unit)
    out: list[SeaRoute] = []
    for port in sorted(h for h in hexes if _friendly_port(state, b, h, faction)):
        for carrier in carriers_at(state, b, unit, port):
            paths = _naval_paths(state, b, faction, b.zones_of(port))
            for loc, (risk, steps, path) in sorted(paths.items()):
                got: str | None = None
                limited: set[str] = set()
                if loc in b.sea_boxes:
                    if loc in SOURCE_BOXES.get(unit["country"], frozenset()) and b.sea_boxes[loc] == faction:
                        got = "uss"
                else:
                    for q in b.zone_hexes(loc):
                        if q == port or not _friendly_port(state, b, q, faction):
                            continue
                        src = "uss" if q in uss else "lss" if q in lss else trace(state, b, unit, q)
                        if src == "lss":
                            limited.update([q] if q in lss else lss_reached(state, b, unit, q))
                        if src == "uss" or (src == "lss" and got is None):
                            got = src
                if got:
                    out.append({"carrier": carrier["id"], "port": port, "path": path, "source": got,
                                "risk": risk, "steps": steps, "lss": sorted(limited) if got == "lss" else []})
    out.sort(key=lambda r: (r["source"] != "uss", r["risk"], r["steps"], r["carrier"], r["port"]))
    return out


def sea_weather(state: State, b: Board, zone: str) -> str:
    """USE 5.2: in a Sea Zone the weather of the majority of its water hexes applies.
    DECISION: a tie takes the worse weather."""
    counts: dict[str, int] = {}
    for h in b.zone_hexes(zone):
        if b.is_water(h):
            w = state["weather"][b.zone[h]]
            counts[w] = counts.get(w, 0) + 1
    if not counts:
        return "fair"
    order = ("severe", "poor", "fair")
    return max(counts, key=lambda w: (counts[w], -order.index(w)))


def stack_escorts(state: State, carrier: Unit) -> list[Unit]:
    """Escorts of a sea supply line: friendly fighters (6.2.4) and warships (6.4.2) under 6
    Sorties stacked with the carrier, fighters first."""
    faction = faction_of(state, carrier)
    out = [u for u in units_at(state, hex_of(carrier))
           if u["id"] != carrier["id"] and faction_of(state, u) == faction and u["sorties"] < 6
           and (u["kind"] == "fighter" or u["kind"] in WARSHIPS)]
    return sorted(out, key=lambda u: (u["kind"] != "fighter", u["id"]))


def intercept(state: State, b: Board, carrier: Unit, path: list[str], used: set[str], ctx: Any,
              events: Events, what: str = "sea supply line",
              escorts_in: Any = None) -> str | None:
    """Run the interceptions of a naval trace or move along ``path``; the Sea Zone where it
    is interdicted, or None. ``escorts_in(zone)``: the escorts fought first in that zone
    (default: every fighter and warship stacked with the carrier, as for sea supply lines)."""
    faction = faction_of(state, carrier) or ""
    roll = Roller(ctx)
    for zone in path:
        picked: list[Unit] = []
        for kind in (("fighter",), WARSHIPS):
            for u in threats(state, b, faction, zone):
                if u["kind"] in kind and u["id"] not in used and willing(state, u):
                    picked.append(u)
                    break
        for att in picked:
            used.add(att["id"])
            weather = sea_weather(state, b, zone)
            events.append({"kind": "interception", "unit": att["id"], "target": carrier["id"], "zone": zone,
                           "what": what})
            escorts = stack_escorts(state, carrier) if escorts_in is None else escorts_in(zone)
            beaten_all = True
            for esc in escorts:
                if air_duel(state, b, att, esc, carrier["hex"], roll, events, weather=weather, zone=zone) != "att":
                    beaten_all = False
                    break
                if att["sorties"] >= 6:
                    beaten_all = False
                    break
            if not beaten_all:
                continue
            if air_duel(state, b, att, carrier, carrier["hex"], roll, events, weather=weather, zone=zone) == "att":
                events.append({"kind": "interdicted", "unit": carrier["id"], "zone": zone, "by": att["id"]})
                return zone
    return None
