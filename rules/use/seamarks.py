"""The combat effects of the sea event markers (USE 14.15 Submarines, 14.17 Surprise Attack) and
the Assault from the sea (6.3.2), read by combat.py, airduel.py and eventplay.py.

Kept free of the movement and combat modules (it reads the state and the board only), since
airduel.py, which sea supply reaches, calls it.

DECISIONS (14.15 and 14.17 give one line each):
* Surprise Attack in a Sea Zone, "+1 air/naval DRM": the marker's faction, attacking or
  defending, adds +1 in every air/naval combat fought in that Sea Zone: an interception in the
  zone, or a combat in a water, coastal or port hex of the zone.
* Surprise Attack in a land hex, "+1 combat DRM within 2 hexes": the marker's faction adds +1
  when it attacks in a ground combat whose defending hex is within 2 hexes of the marker (the
  marker's own hex included, 1.4); a surprise helps the side that strikes, not the one struck.
* Submarines in "naval combat with ships on both sides": an air/naval combat between two naval
  units; the faction that readied the marker (``play submarines``, eventplay.py) gives its enemy
  -2, as Rockets do. In strategic combat (9.2) it halves the enemy's total, as Rockets do.
* An Assault from the sea (6.3.2) is an Assault (Heavy Arty excluded, 14.6) by the invading unit
  from its port: it crosses no hexside, so no hexside DRM counts; the other DRMs are the ground
  combat's. The pending Assault is ``state["sea"]["assault"][hex]`` until it resolves.
"""

from __future__ import annotations

from typing import Any

from .geo import Board
from .refusals import illegal
from .state import State, Unit, enemies, faction_of, ground_at, is_naval

Events = list[dict[str, Any]]
SURPRISE_AIR_DRM = 1  # USE 14.17 (Sea Zone)
SURPRISE_GROUND_DRM = 1  # USE 14.17 (land hex)
SURPRISE_LAND_RANGE = 2  # USE 14.17: "within 2 hexes"
SUBMARINES_DRM = -2  # USE 14.15: the enemy's DRM


def _sea(state: State) -> dict[str, Any]:
    got: dict[str, Any] = state.get("sea") or {}
    return got


def from_sea(state: State, c: Any) -> dict[str, Any] | None:
    """USE 6.3.2: the Assault from the sea that combat ``c`` is, or None."""
    rec: dict[str, Any] | None = _sea(state).get("assault", {}).get(c["target"])
    if rec is None or c["kind"] != "assault" or rec["unit"] not in c["attackers"]:
        return None
    return rec


def mulberry_port(state: State, h: str, faction: str) -> bool:
    """USE 15.16: ``h`` holds a Mulberry of ``faction`` and no enemy ground unit."""
    if _sea(state).get("mulberry", {}).get(h) != faction:
        return False
    g = ground_at(state, h)
    return g is None or not enemies(faction_of(state, g), faction)


def friendly_port(state: State, b: Board, h: str, faction: str) -> bool:
    """A friendly port (4.2.4, 7.4): a port city the faction controls, or its Mulberry."""
    c = b.city(h) if b.on_map(h) else None
    if c is not None and c.port and state["control"].get(h) == faction:
        return True
    return mulberry_port(state, h, faction)


def _zones(b: Board, where: str | None, zone: str | None) -> frozenset[str]:
    if zone is not None:
        return frozenset((zone,))
    if where is None or not b.on_map(where):
        return frozenset()
    return b.zones_of(where)


def _ready(state: State, faction: str | None, name: str) -> bool:
    return faction is not None and state["event_markers"].get(faction, {}).get(name) == "ready"


def air(state: State, b: Board, att: Unit, dfn: Unit, where: str | None, zone: str | None,
        events: Events) -> tuple[int, int]:
    """USE 14.15 and 14.17 in an air/naval combat at ``where`` (a hex) or in Sea Zone ``zone``:
    (attacker DRM, defender DRM)."""
    drm = [0, 0]
    sides = (faction_of(state, att), faction_of(state, dfn))
    marked = _sea(state).get("surprise", {})
    for z in sorted(_zones(b, where, zone)):
        owner = marked.get(z)
        for i, f in enumerate(sides):
            if f is not None and owner == f and not drm[i]:
                drm[i] += SURPRISE_AIR_DRM
    if is_naval(att) and is_naval(dfn):
        for i, (f, u) in enumerate(((sides[0], att), (sides[1], dfn))):
            if _ready(state, f, "submarines"):
                assert f is not None
                state["event_markers"][f]["submarines"] = "placed"
                events.append({"kind": "marker-played", "faction": f, "marker": "submarines",
                               "where": u["hex"] or u["box"] or zone or "?"})
                drm[1 - i] += SUBMARINES_DRM
    return drm[0], drm[1]


def ground(state: State, b: Board, c: Any, a_parts: dict[str, int]) -> None:
    """USE 14.17: the attacker's Surprise Attack marker in a land hex within 2 hexes: +1."""
    for h, f in sorted(_sea(state).get("surprise_hex", {}).items()):
        if f == c["attacker"] and b.distance(h, c["target"]) <= SURPRISE_LAND_RANGE:
            a_parts["surprise attack"] = SURPRISE_GROUND_DRM
            return


def strategic(state: State, defender: str, events: Events) -> tuple[bool, bool]:
    """USE 14.15 in strategic combat (9.2): (halve the Axis total, halve the defender's)."""
    halve_axis = halve_def = False
    for f in dict.fromkeys(("axis", defender)):
        if _ready(state, f, "submarines"):
            state["event_markers"][f]["submarines"] = "placed"
            events.append({"kind": "marker-played", "faction": f, "marker": "submarines", "where": "strategic"})
            if f == "axis":
                halve_def = True
            else:
                halve_axis = True
    return halve_axis, halve_def


def check_temporary(state: State, order: Any, unit: Unit) -> None:
    """USE 14.3 / 14.16: a temporary naval unit makes one Naval Action; its Sorties show it has
    (every Naval Action, escorting included, adds at least one: 6.4)."""
    name = _sea(state).get("temporary", {}).get(unit["id"])
    if name is not None and unit["sorties"]:
        rule = "14.3" if name == "convoy-action" else "14.16"
        illegal(order, f"{unit['id']} is a temporary unit that has made its Naval Action", rule)
