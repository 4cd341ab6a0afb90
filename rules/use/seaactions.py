"""Convoy Action (USE 14.3), Surface Action (14.16), the Surprise Attack buy-back (8.3, 14.17) and
readying the Naval Evacuation for a retreat (14.8).

Orders::

    convoy-action PORT          14.3: a temporary convoy in a friendly port, for one Naval Action
    surface-action PORT         14.16: a temporary surface warship, likewise
    buy-back surprise           8.3 / 14.17 (Mobilization): the marker back 4 turns later
    evacuate-on-retreat         14.8: the UK's marker waits, ready, for a forced retreat (landing.py)

State: ``state["sea"]["temporary"]`` = {unit id: marker} while a temporary unit is out.

DECISIONS (one line each in the seed):
* A Convoy or Surface Action is an Action of its own that puts a temporary unit of the
  faction's lead power (Axis GER, Western UK, Soviet USSR) with 0 Sorties in a friendly port
  (or Mulberry) holding no enemy unit and no unit of its kind (3.3). The faction then orders its
  Naval Action with it (move, invade, escort) like any naval unit; "for a Naval Action": once it
  has Sorties it has acted and cannot be activated again (seamarks.check_temporary). It is
  taken off at the end of the Actions Sub-Phase, wherever it is; the marker goes on the Turn
  Track Sorties + 1 turns later (3.1), 7 if it was eliminated (6 Sorties, the most, 1.5).
* Buy-back (8.3): a marker in the Holding Box is bought in the Mobilization Phase with PP of
  the faction's lead power (any country of the faction may pay: ``buy-back surprise COUNTRY``)
  and placed 4 turns later on the Turn Track (1.6). AUTHORED: the cost is printed on the
  marker (3.1) and faction card, which the seed lacks: authored.toml [markers].
"""

from __future__ import annotations

from typing import Any

from .activation import end_activation
from .economy import unlimited
from .geo import Board
from .orders import UseLine
from .refusals import illegal
from .seamarks import friendly_port
from .state import FACTIONS, OUT_OF_PLAY, State, enemies, faction_of, new_unit, units_at
from .tables import authored

Order = dict[str, Any]
Events = list[dict[str, Any]]
LEAD = {"axis": "GER", "western": "UK", "soviet": "USSR"}
TEMPORARY = {"convoy-action": ("convoy", "14.3", "CONVOY-ACTION"),
             "surface-action": ("surface", "14.16", "SURFACE-ACTION")}
SURPRISE_BUYBACK_PP = int(authored()["markers"]["surprise_buy_back_pp"])  # AUTHORED (3.1)
BUYBACK_DELAY = 4  # USE 8.3: placed 4 turns later on the Turn Track
ELIMINATED_DELAY = 7  # DECISION: 6 Sorties + 1


def _sea(state: State) -> dict[str, Any]:
    got: dict[str, Any] = state.setdefault("sea", {})
    return got


def temporary_id(faction: str, marker: str) -> str:
    return f"{LEAD[faction]}-{TEMPORARY[marker][2]}"


# --- Convoy Action, Surface Action (14.3, 14.16) ----------------------------------------------


def check_temporary_action(state: State, b: Board, order: Order, faction: str) -> None:
    name = order["verb"]
    kind, rule, _ = TEMPORARY[name]
    if state["event_markers"].get(faction, {}).get(name) != "available":
        illegal(order, f"your {name} marker is not available now", rule)
    if LEAD[faction] not in state["countries"]:
        illegal(order, f"{LEAD[faction]} is not in this game", rule)
    port = order["target"]
    if not friendly_port(state, b, port, faction):
        illegal(order, f"{port} is not a friendly port", rule)
    for u in units_at(state, port):
        if enemies(faction_of(state, u), faction):
            illegal(order, f"{port} holds enemy unit {u['id']}", rule)
        if u["kind"] == kind or (kind == "surface" and u["kind"] == "carrier"):
            illegal(order, f"{port} already holds {u['id']}", "3.3")


def temporary_action(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_temporary_action``."""
    name = order["verb"]
    kind = TEMPORARY[name][0]
    uid = temporary_id(faction, name)
    end_activation(state, events)
    state["event_markers"][faction][name] = "placed"
    state["units"][uid] = new_unit(uid, LEAD[faction], kind, order["target"])
    _sea(state).setdefault("temporary", {})[uid] = name
    events.append({"kind": "temporary-unit", "faction": faction, "marker": name, "unit": uid,
                   "hex": order["target"]})


def end_of_actions(state: State, faction: str, events: Events) -> None:
    """USE 14.3 / 14.16: the faction's temporary units come off; their markers go Sorties + 1
    turns later on the Turn Track."""
    temp = state.get("sea", {}).get("temporary")
    if not temp:
        return
    for uid in sorted(temp):
        u = state["units"].get(uid)
        if u is None or LEAD[faction] != u["country"]:
            continue
        name = temp.pop(uid)
        gone = u["box"] in OUT_OF_PLAY
        back = state["turn"] + (ELIMINATED_DELAY if gone else min(u["sorties"], 6) + 1)
        del state["units"][uid]
        state["event_markers"][faction][name] = back
        events.append({"kind": "temporary-removed", "unit": uid, "marker": name, "faction": faction, "back": back})
    if not temp:
        del state["sea"]["temporary"]


# --- Surprise Attack buy-back (8.3) -----------------------------------------------------------


def _payer(state: State, order: Order, faction: str) -> str:
    code: str = order.get("country") or LEAD[faction]
    c = state["countries"].get(code)
    if c is None or c["faction"] != faction:
        illegal(order, f"{code} is not a country of yours", "8.3")
    return code


def check_buy_back(state: State, order: Order, faction: str) -> None:
    if state["event_markers"].get(faction, {}).get("surprise") != "holding":
        illegal(order, "your Surprise Attack marker is not in the Holding Box", "8.3")
    code = _payer(state, order, faction)
    have = state["countries"][code]["pp"]
    if not unlimited(code) and have < SURPRISE_BUYBACK_PP:
        illegal(order, f"buying back the Surprise Attack marker costs {SURPRISE_BUYBACK_PP} PP; {code} has {have}",
                "8.3")


def buy_back(state: State, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_buy_back``."""
    code = _payer(state, order, faction)
    if not unlimited(code):
        state["countries"][code]["pp"] -= SURPRISE_BUYBACK_PP
    back = state["turn"] + BUYBACK_DELAY
    state["event_markers"][faction]["surprise"] = back
    events.append({"kind": "surprise-bought", "faction": faction, "country": code, "pp": SURPRISE_BUYBACK_PP,
                   "back": back})


# --- Naval Evacuation readied (14.8) ----------------------------------------------------------


def check_ready_evacuation(state: State, order: Order, faction: str) -> None:
    have = state["event_markers"].get(faction, {}).get("naval-evacuation")
    if have == "ready":
        illegal(order, "your Naval Evacuation marker is already ready", "14.8")
    if have != "available":
        illegal(order, "your Naval Evacuation marker is not available now", "14.8")


def ready_evacuation(state: State, order: Order, faction: str, events: Events) -> None:
    state["event_markers"][faction]["naval-evacuation"] = "ready"
    events.append({"kind": "marker-ready", "faction": faction, "marker": "naval-evacuation"})


# --- orders -----------------------------------------------------------------------------------


def parse_port(ln: UseLine, o: Order) -> None:
    o["target"] = ln.hex()


def parse_buy_back(ln: UseLine, o: Order) -> None:
    o["marker"] = ln.word(("surprise",), "the marker bought back (surprise)")
    if ln.more():
        o["country"] = ln.take("a country code")[1].upper()


def parse_nothing(ln: UseLine, o: Order) -> None:
    if ln.more():
        col, w = ln.take("")
        raise ln.err(f"unexpected {w!r}", col, "write: evacuate-on-retreat")


assert set(LEAD) == set(FACTIONS)
