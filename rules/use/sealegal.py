"""What a seat may do now with the sea verbs (USE 6.3.2, 6.4.5, 8.3, 14.3, 14.8, 14.16, 14.17): each
verb's ``offer`` for the verb table (navalevents.verbs), as legal.py does for the others.

Offered only when the marker or the units they need are there, so a game without them (France
1940) lists nothing new. Choices are given where a scan of the units or the sea zones gives
them; whether the order is legal is still the verb's own check.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.rulesapi import Action, Arg

from . import geo
from .geo import Board
from .seamarks import friendly_port
from .state import State, faction_of, hex_of, is_ground, on_map, unit_enemy

COMMIT = Arg("commit", "word", ("will-commit", "no-commit"), optional=True)
Offer = Callable[[State, str], list[Action]]


def _pool(s: State, seat: str, name: str) -> object:
    return s["event_markers"].get(seat, {}).get(name)


def _marked(s: State, seat: str) -> list[str]:
    return sorted(z for z, f in s.get("sea", {}).get("surprise", {}).items() if f == seat)


def _mine(s: State, seat: str, kinds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(uid for uid, u in s["units"].items()
                        if faction_of(s, u) == seat and on_map(u) and u["kind"] in kinds and u["sorties"] < 6))


def _ports(s: State, b: Board, seat: str) -> tuple[str, ...]:
    cands = set(b.cities) | set(s.get("sea", {}).get("mulberry", {}))
    return tuple(sorted(h for h in cands if b.on_map(h) and friendly_port(s, b, h, seat)))


def surprise(s: State, seat: str) -> list[Action]:
    if _pool(s, seat, "surprise") != "available":
        return []
    b = geo.board(s)
    marked = s.get("sea", {}).get("surprise", {})
    zones = tuple(sorted(z for z in b.zone_adj if z not in b.sea_boxes and z not in marked))
    out = [Action("surprise", (Arg("target", "hex", None),), "USE 14.17",
                  "Surprise Attack marker in a land hex: +1 to your attacks within 2 hexes")]
    if zones:
        out.insert(0, Action("surprise", (Arg("target", "loc", zones),), "USE 14.17",
                             "Surprise Attack marker in a Sea Zone: invasions, Carrier Strikes, +1 air/naval"))
    return out


def invade(s: State, seat: str) -> list[Action]:
    marked = _marked(s, seat)
    convoys = _mine(s, seat, ("convoy",))
    if not marked or not convoys:
        return []
    b = geo.board(s)
    at = {hex_of(s["units"][c]) for c in convoys if s["units"][c]["hex"]}
    carry = tuple(sorted(uid for uid, u in s["units"].items()
                         if faction_of(s, u) == seat and on_map(u) and is_ground(u) and u["hex"] in at))
    if not carry:
        return []
    targets = tuple(sorted({h for z in marked for h in b.zone_hexes(z) if not b.is_water(h)}))
    escorts = _mine(s, seat, ("carrier", "surface"))
    args = [Arg("unit", "unit", convoys), Arg("target", "hex", targets or None),
            Arg("carry", "unit", carry, keyword="carry")]
    if escorts:
        args.append(Arg("escort", "unit", escorts, keyword="escort", optional=True))
    args += [Arg("then", "hex", None, keyword="then", optional=True),
             Arg("mulberry", "word", ("mulberry",), optional=True), COMMIT]
    return [Action("invade", tuple(args), "USE 6.3.2",
                   "Amphibious Invasion of a coastal hex of a marked Sea Zone (Assault if an enemy holds it)")]


def carrier_strike(s: State, seat: str) -> list[Action]:
    marked = _marked(s, seat)
    carriers = _mine(s, seat, ("carrier",))
    if not marked or not carriers:
        return []
    b = geo.board(s)
    hexes = {h for z in marked for h in b.zone_hexes(z) if not b.is_water(h)}
    targets = tuple(sorted({hex_of(u) for u in s["units"].values() if on_map(u) and not is_ground(u)
                            and unit_enemy(s, u, seat) and hex_of(u) in hexes}))
    if not targets:
        return []
    return [Action("carrier-strike", (Arg("unit", "unit", carriers), Arg("target", "hex", targets), COMMIT),
                   "USE 6.4.5", "a carrier strikes an enemy air or naval unit in a marked Sea Zone")]


def evacuate(s: State, seat: str) -> list[Action]:
    if _pool(s, seat, "naval-evacuation") not in ("available", "ready"):
        return []
    b = geo.board(s)
    units = tuple(sorted(uid for uid, u in s["units"].items()
                         if faction_of(s, u) == seat and on_map(u) and is_ground(u) and u["country"] == "UK"
                         and not u["sm"] and b.zones_of(hex_of(u))))
    ports = _ports(s, b, seat)
    if not units or not ports:
        return []
    return [Action("evacuate", (Arg("unit", "unit", units), Arg("target", "hex", ports)), "USE 14.8",
                   "Naval Evacuation: a UK unit in a coastal hex to a port of its Sea Zone (reduced)")]


def temporary(name: str) -> Offer:
    rule = "USE 14.3" if name == "convoy-action" else "USE 14.16"
    what = "convoy" if name == "convoy-action" else "surface warship"

    def offer(s: State, seat: str) -> list[Action]:
        if _pool(s, seat, name) != "available":
            return []
        ports = _ports(s, geo.board(s), seat)
        if not ports:
            return []
        return [Action(name, (Arg("target", "hex", ports),), rule,
                       f"a temporary {what} in a friendly port for one Naval Action")]

    return offer


def ready_evacuation(s: State, seat: str) -> list[Action]:
    if _pool(s, seat, "naval-evacuation") != "available":
        return []
    return [Action("evacuate-on-retreat", (), "USE 14.8",
                   "ready the Naval Evacuation marker for a UK unit forced to retreat")]


def buy_back(s: State, seat: str) -> list[Action]:
    if _pool(s, seat, "surprise") != "holding":
        return []
    payers = tuple(sorted(c for c, v in s["countries"].items() if v["faction"] == seat))
    return [Action("buy-back", (Arg("marker", "word", ("surprise",)),
                                Arg("country", "country", payers, optional=True)), "USE 8.3",
                   "buy back the Surprise Attack marker (placed 4 turns later)")]
