"""Airdrop and Partisans actions (USE 6.1, 14.1, 14.10): markers placed in a hex for one
Actions Sub-Phase that give a defending enemy unit there -2 (applied in combat.py).

Event markers are tracked per faction in ``state['event_markers'][faction][name]`` as
"available", "ready" (played, waiting for a combat: eventplay.py), "placed" (in use this
Actions Sub-Phase), a turn number (back on the Turn Track that turn, 1.6) or "removed".
USE 3.1's return symbols: a die roll of turns (every marker here but Airdrop, which is removed
on a 6 (14.1), and Jets and Tanks, back the next turn).
"""

from __future__ import annotations

from typing import Any

from .eventplay import NEXT_TURN, PLAYABLE
from .geo import Board
from .refusals import illegal
from .state import State, enemies, faction_of, hex_of, is_air, is_ground, on_map, units_at
from .strictdice import need, strict
from .will import capture_city

Events = list[dict[str, Any]]
Order = dict[str, Any]
AIRDROP_RANGE = 3  # USE 6.1.1
# USE 6.1.1: an Airdrop needs an air unit of the marker's nationality (UK or USA for Western).
AIRDROP_NATIONS = {"axis": ("GER",), "western": ("UK", "USA"), "soviet": ("USSR",)}


def _check_marker(state: State, order: Order, faction: str, name: str, rule: str) -> None:
    if state["event_markers"].get(faction, {}).get(name) != "available":
        illegal(order, f"your {name.title()} marker is not available now", rule)


def _take_marker(state: State, faction: str, name: str) -> None:
    state["event_markers"].setdefault(faction, {})[name] = "placed"


def check_airdrop(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 6.1.1: an Airdrop marker within 3 hexes of an air unit of the marker's nationality."""
    h = order["target"]
    if b.ground_prohibited(h) and not b.on_map(h):
        illegal(order, f"{h} is not on the map", "6.1.1")
    if b.country.get(h) in b.prohibited_countries or h in b.faded or b.is_water(h):
        illegal(order, f"an Airdrop cannot be placed in Prohibited hex {h}", "6.1.1")
    if h in state["markers"]["airdrop"]:
        illegal(order, f"{h} already has an Airdrop marker", "6.1")
    nations = AIRDROP_NATIONS[faction]
    if not any(is_air(u) and on_map(u) and u["country"] in nations and b.distance(hex_of(u), h) <= AIRDROP_RANGE
               for u in state["units"].values()):
        illegal(order, f"no {'/'.join(nations)} air unit within {AIRDROP_RANGE} hexes of {h}", "6.1.1")
    _check_marker(state, order, faction, "airdrop", "6.1.1")


def airdrop(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_airdrop``."""
    h = order["target"]
    _take_marker(state, faction, "airdrop")
    state["markers"]["airdrop"][h] = faction
    events.append({"kind": "airdrop", "faction": faction, "hex": h})
    city = b.city(h)
    owner = state["control"].get(h)
    if city is not None and enemies(owner, faction) and not any(
            enemies(faction_of(state, u), faction) for u in units_at(state, h)):
        need(ctx, 1)
        die = ctx.roll(6, f"airdrop {h}")[0]
        events.append({"kind": "airdrop-city", "hex": h, "die": die, "faction": faction})
        if die <= 3:  # USE 6.1.1: 1-3 the city comes under friendly control
            capture_city(state, b, h, faction, events)


def check_partisans(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 6.1.4: a Partisans marker on an enemy unit in an active or conquered friendly country."""
    h = order["target"]
    if h in state["markers"]["partisans"]:
        illegal(order, f"{h} already has a Partisans marker", "6.1")
    code = b.country.get(h)
    c = state["countries"].get(code or "")
    friendly_country = c is not None and c["faction"] == faction and c["status"] in ("active", "conquered")
    if not friendly_country:
        illegal(order, f"{h} is not in an active or conquered friendly country", "6.1.4")
    if not any((is_air(u) or is_ground(u)) and enemies(faction_of(state, u), faction) for u in units_at(state, h)):
        illegal(order, f"{h} holds no enemy air or ground unit", "6.1.4")
    _check_marker(state, order, faction, "partisans", "6.1.4")


def partisans(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_partisans``."""
    h = order["target"]
    _take_marker(state, faction, "partisans")
    state["markers"]["partisans"][h] = faction
    events.append({"kind": "partisans", "faction": faction, "hex": h})


def end_of_actions(state: State, faction: str, ctx: Any, events: Events) -> None:
    """USE 1.2.1 / 6.1: markers come off at the end of the Actions Sub-Phase; Airdrop: a die,
    1-5 back that many turns later, 6 removed from the scenario; Partisans: back a die later."""
    pool = state["event_markers"].setdefault(faction, {})
    for name in ("airdrop", "partisans"):
        placed = [h for h, f in state["markers"][name].items() if f == faction]
        for h in placed:
            del state["markers"][name][h]
    # Every marker of theirs used since (eventplay: played in a combat) comes off with them, in name
    # order; other helpers' markers (naval, Surprise Attack) keep their own return rules.
    for name in sorted(n for n, v in pool.items() if v == "placed" and (n in PLAYABLE or n == "airdrop")):
        if name in NEXT_TURN:
            # 14.7 / 14.18 (3.1's fixed delay): "placed on next turn", no die.
            pool[name] = state["turn"] + 1
            events.append({"kind": "marker-return", "marker": name, "faction": faction, "die": None,
                           "back": pool[name]})
            continue
        if strict(ctx):
            # Strict dice: the Axis rolls it first thing next turn (sequence.roll_turn_start).
            state.setdefault("turn_dice", []).append(
                {"kind": "marker-return", "faction": faction, "marker": name, "turn": state["turn"]})
            continue
        return_marker(state, faction, name, state["turn"], ctx, events)


def return_marker(state: State, faction: str, name: str, turn: int, ctx: Any, events: Events) -> None:
    """USE 6.1: the return die of a marker taken off in ``turn``: 1-5 back that many turns
    later (now, if that turn has begun), 6 and an Airdrop is removed from the scenario."""
    pool = state["event_markers"].setdefault(faction, {})
    die = ctx.roll(6, f"{name} return")[0] if ctx is not None else 6
    pool[name] = "removed" if name == "airdrop" and die == 6 else turn + die
    events.append({"kind": "marker-return", "marker": name, "faction": faction, "die": die,
                   "back": pool[name]})
    back = pool[name]
    if isinstance(back, int) and back <= state["turn"]:
        pool[name] = "available"  # its Turn Track box has already come (12.2)
        events.append({"kind": "marker-back", "marker": name, "faction": faction})


def turn_track(state: State, events: Events) -> None:
    """USE 12.2: counters on the new turn's box come back."""
    for faction, pool in state["event_markers"].items():
        for name, v in pool.items():
            if isinstance(v, int) and v <= state["turn"]:
                pool[name] = "available"
                events.append({"kind": "marker-back", "marker": name, "faction": faction})
