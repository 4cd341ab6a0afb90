"""Event markers played in combat (USE 3.1, 14.0, 14.4-14.7, 14.10, 14.13, 14.14, 14.18, 14.19).

A faction readies an available event marker with ``play MARKER`` in its Actions Sub-Phase; a
ready marker is used in that faction's next combat it fits (ground, air/naval or strategic),
attacking or defending, and then comes off (``placed``): at the end of the faction's next
Actions Sub-Phase it goes on the Turn Track (markers.end_of_actions) a die roll of turns later
(3.1), or the next turn for Jets and Tanks ("placed on next turn").

DECISIONS (the seed gives each marker's effect in one line, not how it is played by email):
* Playing is public, as laying a marker on the table is: ``play`` readies it, the opponent sees
  it before choosing its Will Commit. A faction cannot play in the other's file, so a marker
  it means to use when defending is readied in its own Actions Sub-Phase and waits, ready,
  until a combat it fits (it is not returned unused).
* Every ready marker that fits a combat is used in it (one of each kind per faction).
* "Played with a Western/German unit": the side's units in the combat belong to that faction
  (Free Forces, ULTRA) or the side's primary unit is German (Rockets, Jets: a German air unit).
* Ground Support: the side's primary unit is of a minor country (not a major power) that has
  no air or Tank unit in the game (not removed).
* Heavy Arty: only the attacker in an Assault (5.3.3), not one from the sea (6.3.2); "Assault of
  same nationality": the marker is of the faction's lead power (GER; UK or USA; USSR, as for
  Airdrop: markers.AIRDROP_NATIONS), so the primary attacker must be of it.
* 5.1 step 2 "If committed, alternate declaring Event markers": in a ground combat only a side
  that Will-Committed uses its ready markers (the others stay ready). Air/naval and strategic
  combats have no such step for markers: they use them whatever the commit.
* Tanks: the side's primary unit is neither a Tank nor a Shock unit and the side has no Tank
  DRM yet; it then gets the Tank DRM (11.0's weather value, the terrain's tank_drm for an
  attacker) as a Tank would.
* Strategic combat (9.2): Rockets (Axis) halve the Allied total, ULTRA (Western) and the
  defending faction's Partisans marker readied with ``play partisans`` halve the Axis total
  (round up, as 5.1 halves). A Partisans marker placed on the map (6.1.4) is the ground use.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesapi import Action, Arg

from .geo import Board, terrain_chart
from .refusals import illegal
from .seamarks import from_sea
from .seamarks import strategic as sea_strategic
from .state import State, Unit, enemies, is_air

Events = list[dict[str, Any]]
Order = dict[str, Any]

# marker -> (the only faction that may play it, or None for any; its rule number)
PLAYABLE: dict[str, tuple[str | None, str]] = {
    "free-forces": ("western", "14.4"), "ground-support": (None, "14.5"), "heavy-arty": (None, "14.6"),
    "jets": ("axis", "14.7"), "partisans": (None, "14.10"), "rockets": ("axis", "14.13"),
    "snafu": (None, "14.14"), "tanks": (None, "14.18"), "ultra": ("western", "14.19"),
    "submarines": (None, "14.15"),  # its effects: seamarks.py (naval helper)
}
NEXT_TURN = frozenset({"jets", "tanks"})  # 14.7, 14.18: "placed on next turn" (no die, 3.1)
GROUND = ("mobile", "assault")
# USE 14.6 "same nationality": a faction's markers are of its lead power (as markers.AIRDROP_NATIONS
# reads 6.1.1; not imported from there: markers imports this module).
LEAD_POWERS: dict[str, tuple[str, ...]] = {"axis": ("GER",), "western": ("UK", "USA"), "soviet": ("USSR",)}
MAJOR_POWERS = frozenset({"GER", "ITA", "FRA", "UK", "USA", "USSR"})  # USE 2.1 / 16.0


def parse_play(ln: Any, o: Order) -> None:
    """play MARKER: one of PLAYABLE."""
    o["marker"] = ln.word(tuple(sorted(PLAYABLE)), "an event marker")


def check_play(state: State, order: Order, faction: str) -> None:
    name = order["marker"]
    who, rule = PLAYABLE[name]
    if who is not None and who != faction:
        illegal(order, f"only the {who.title()} faction plays {name}", rule)
    have = state["event_markers"].get(faction, {}).get(name)
    if have == "ready":
        illegal(order, f"your {name} marker is already ready", "14.0")
    if have != "available":
        illegal(order, f"your {name} marker is not available now ({have or 'not in the game'})", "14.0")


def offer(state: State, seat: str) -> list[Action]:
    """The ``play`` actions open to ``seat`` (verbs.py's offer): its available markers it may play."""
    pool = state["event_markers"].get(seat, {})
    names = tuple(sorted(n for n, (who, _) in PLAYABLE.items() if pool.get(n) == "available" and who in (None, seat)))
    if not names:
        return []
    return [Action("play", (Arg("marker", "word", names),), "USE 14.0", "ready an event marker for your next combat")]


def play(state: State, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_play``."""
    state["event_markers"][faction][order["marker"]] = "ready"
    events.append({"kind": "marker-ready", "faction": faction, "marker": order["marker"]})


def _ready(state: State, faction: str | None, name: str) -> bool:
    return faction is not None and state["event_markers"].get(faction, {}).get(name) == "ready"


def _use(state: State, faction: str, name: str, where: str, events: Events) -> None:
    state["event_markers"][faction][name] = "placed"
    events.append({"kind": "marker-played", "faction": faction, "marker": name, "where": where})


def _minor_without_air_or_tanks(state: State, u: Unit) -> bool:
    c = state["countries"].get(u["country"])
    if c is None or c.get("major") or u["country"] in MAJOR_POWERS:
        return False
    return not any(o["country"] == u["country"] and o["box"] != "removed"
                   and (is_air(o) or o["kind"] == "tank") for o in state["units"].values())


def ground(state: State, b: Board, c: Any, attackers: list[Unit], dfn: Unit, boost: dict[str, int],
           a_parts: dict[str, int], d_parts: dict[str, int], events: Events,
           committed: tuple[bool, bool] = (True, True)) -> None:
    """USE 14.4-14.6, 14.13, 14.14, 14.18, 14.19 in a ground combat: the DRM parts of the
    markers each side has ready (combat._drm_parts calls this last). ``boost``: each side's
    11.0 Tank DRM by its own weather ("att"/"def", sideweather.py). ``committed``: the
    attacker's and the defender's Will Commit; 5.1 step 2 "If committed, alternate declaring
    Event markers": an uncommitted side's ready markers stay ready."""
    if c["kind"] not in GROUND or not attackers:
        return
    target = c["target"]
    sides = (("att", c["attacker"], attackers[0], a_parts, d_parts),
             ("def", c["defender"], dfn, d_parts, a_parts))
    for (side, f, prim, own, other), commit in zip(sides, committed, strict=True):
        if not commit:
            continue

        def use(name: str, f: str = f) -> bool:
            if not _ready(state, f, name):
                return False
            _use(state, f, name, target, events)
            return True
        if f == "western" and use("free-forces"):
            own["free-forces"] = 1
        if _minor_without_air_or_tanks(state, prim) and use("ground-support"):
            own["ground-support"] = 1
        if (side == "att" and c["kind"] == "assault" and not from_sea(state, c)
                and prim["country"] in LEAD_POWERS.get(f, ()) and use("heavy-arty")):
            own["heavy-arty"] = 2
        if prim["country"] == "GER" and use("rockets"):
            other["rockets"] = -2
        if use("snafu"):
            other["snafu"] = -1
        if f == "western" and use("ultra"):
            own["ultra"] = 1
        tank_ok = side == "def" or terrain_chart().terrain[b.terrain[target]].tank_drm
        if (prim["kind"] != "tank" and not prim.get("shock") and "tank" not in own and boost[side] and tank_ok
                and use("tanks")):
            own["tanks"] = boost[side]


def air(state: State, att: Unit, dfn: Unit, att_side: str | None, def_side: str | None,
        events: Events) -> tuple[int, int]:
    """USE 14.7, 14.10, 14.14, 14.19 in an air/naval combat: (attacker DRM, defender DRM)."""
    drm = [0, 0]
    for i, (f, u) in enumerate(((att_side, att), (def_side, dfn))):
        if f is None:
            continue
        where = u["hex"] or u["box"] or "?"
        if f == "axis" and u["country"] == "GER" and is_air(u) and _ready(state, f, "jets"):
            _use(state, f, "jets", where, events)
            drm[i] += 2
        if f == "western" and _ready(state, f, "ultra"):
            _use(state, f, "ultra", where, events)
            drm[i] += 1
        if _ready(state, f, "snafu"):
            _use(state, f, "snafu", where, events)
            drm[1 - i] -= 1
        marker = state["markers"]["partisans"].get(u["hex"] or "")
        if marker is not None and enemies(marker, f):
            drm[i] -= 2  # 14.10: -2 in the Partisans marker's hex, air and naval combat too
        drop = state["markers"]["airdrop"].get(u["hex"] or "")
        if i == 1 and is_air(u) and drop is not None and enemies(drop, f):
            drm[i] -= 2  # 6.1.1: "Defending enemy air/ground unit suffers -2 DRM"
    return drm[0], drm[1]


def strategic_snafu(state: State, defender: str, events: Events) -> tuple[int, int]:
    """USE 14.14 "Played in any combat" (5.0: strategic combat is one): each side's ready SNAFU
    gives the other side -1: (the Axis DRM, the defender's DRM)."""
    drm = [0, 0]
    for i, f in enumerate(("axis", defender)):
        if _ready(state, f, "snafu"):
            _use(state, f, "snafu", "strategic", events)
            drm[1 - i] -= 1
    return drm[0], drm[1]


def strategic(state: State, defender: str, events: Events) -> tuple[bool, bool]:
    """USE 14.10, 14.13, 14.19 in strategic combat (9.2): (halve the Axis total, halve the
    defender's total)."""
    halve_axis = halve_def = False
    if _ready(state, "axis", "rockets"):
        _use(state, "axis", "rockets", "strategic", events)
        halve_def = True
    if _ready(state, defender, "partisans"):
        _use(state, defender, "partisans", "strategic", events)
        halve_axis = True
    if defender == "western" and _ready(state, "western", "ultra"):
        _use(state, "western", "ultra", "strategic", events)
        halve_axis = True
    sub_axis, sub_def = sea_strategic(state, defender, events)  # USE 14.15 (seamarks.py)
    return halve_axis or sub_axis, halve_def or sub_def
