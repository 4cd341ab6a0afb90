"""Carrier Strike (USE 6.4.5), Naval Evacuation (14.8) and the sea verbs (6.3.2, 14.17).

Orders::

    surprise ZONE                                   14.17: Surprise Attack marker in a Sea Zone
    invade CONVOY HEX carry UNIT [escort WARSHIP...] [then HEX] [mulberry]   6.3.2 (amphib.py)
    carrier-strike CARRIER HEX [at UNIT] [will-commit|no-commit]              6.4.5
    evacuate UNIT PORT                              14.8: a UK ground unit leaves by sea
    convoy-action PORT | surface-action PORT | buy-back surprise | evacuate-on-retreat  (seaactions.py)

DECISIONS:
* Carrier Strike: the target hex is a port or coastal hex (a land hex of a Sea Zone) of a Sea
  Zone holding a friendly Surprise Attack marker; the carrier's port lies in that Sea Zone or
  one adjacent to it, not across a Strait (within 2 Sea Zones, as 6.4.3's range); it is then
  an Air Strike (6.2.2) by the carrier: Will Commit, escorts first, the authored air/naval
  table; the carrier is activated (0 PP) and takes the combat Sorties.
* Naval Evacuation (14.8), the "before activation" use: an Action of its own; a UK ground unit
  (not the active unit, no Strategic Move marker) in a coastal land hex goes to a friendly port
  (or the UK's Mulberry) of one of that hex's Sea Zones, with room for it, and loses a step
  (a reduced unit is eliminated); the marker comes back a die roll of turns later, like
  Partisans (6.1). The "forced to retreat" use: ``evacuate-on-retreat`` readies the marker
  (seaactions.py), the combat uses it (landing.py). A ready marker also serves the Action use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import amphib, seaactions, sealegal
from .activation import activate, check_activate, end_activation
from .coast import coastal
from .geo import Board
from .movement import stack_conflict
from .orders import UseLine, parse_air_strike
from .politics import may_attack
from .refusals import illegal
from .seamarks import friendly_port
from .state import State, Unit, enemies, faction_of, hex_of, is_ground, is_naval, on_map, units_at
from .strictdice import strict

Order = dict[str, Any]
Events = list[dict[str, Any]]
CARRIER_RANGE = 2  # DECISION: within 2 Sea Zones of the marked zone, as 6.4.3
EVACUATION_NATIONS = ("UK",)  # USE 14.8


# --- Carrier Strike (6.4.5) -------------------------------------------------------------------


def _carrier(state: State, order: Order, faction: str) -> Unit:
    u = state["units"].get(order["unit"])
    if u is None or faction_of(state, u) != faction:
        illegal(order, f"{order['unit']} is not a unit of yours", "6.4.5")
    if u["kind"] != "carrier":
        illegal(order, f"{u['id']} is not a carrier", "6.4.5")
    if not on_map(u):
        illegal(order, f"{u['id']} is not in a port", "6.4.5")
    check_activate(state, order, u)
    return u


def strike_target(state: State, b: Board, order: Order, faction: str) -> tuple[Unit, Unit, list[str]]:
    """(carrier, the unit attacked, its escorts fought first); refuses an illegal strike."""
    carrier = _carrier(state, order, faction)
    h = order["target"]
    zones = b.zones_of(h) if b.on_map(h) else frozenset()
    if not zones or b.is_water(h):
        illegal(order, f"{h} is not a port or coastal hex", "6.4.5")
    marked = [z for z in sorted(zones) if amphib.surprise_at(state, z) == faction]
    if not marked:
        illegal(order, f"no Sea Zone of {h} holds a friendly Surprise Attack marker", "6.4.5")
    home = b.zones_of(hex_of(carrier))
    if not any(0 <= b.location_distance(a, z, cross_straits=False) <= CARRIER_RANGE - 1
               for a in home for z in marked):
        illegal(order, f"{carrier['id']} is not within {CARRIER_RANGE} Sea Zones of {'/'.join(marked)}", "6.4.5")
    victims = sorted((u for u in units_at(state, h) if not is_ground(u) and enemies(faction_of(state, u), faction)),
                     key=lambda u: (u["kind"] != "fighter", u["id"]))
    if not victims:
        illegal(order, f"no enemy air or naval unit at {h}", "6.4.5")
    d = victims[0]
    if order.get("at"):
        aim = state["units"].get(order["at"])
        if aim is None or aim not in victims or not is_naval(aim):
            illegal(order, f"{order['at']} is not an enemy naval unit at {h}", "6.4.5")
        d = aim
    from .actions import strike_escorts

    escorts = strike_escorts(victims, d)  # USE 6.2.4 / 6.4.2 / 5.2, with or without ``at``
    ban = may_attack(state, faction, faction_of(state, d) or "")
    if ban:
        illegal(order, ban[1], ban[0])
    return carrier, d, escorts


def carrier_strike(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``strike_target``: an Air Strike combat opened by the carrier."""
    from .actions import _open_combat

    carrier, d, escorts = strike_target(state, b, order, faction)
    activate(state, b, order, carrier, events)
    end_activation(state, events)
    events.append({"kind": "carrier-strike", "unit": carrier["id"], "target": order["target"]})
    _open_combat(state, b, order, faction, ctx, events, kind="air-strike", target=order["target"], defender=d,
                 attackers=[carrier["id"]], escorts=escorts)


# --- Naval Evacuation (14.8) ------------------------------------------------------------------


def check_evacuate(state: State, b: Board, order: Order, faction: str) -> Unit:
    u = state["units"].get(order["unit"])
    if u is None or faction_of(state, u) != faction:
        illegal(order, f"{order['unit']} is not a unit of yours", "14.8")
    if not is_ground(u) or u["country"] not in EVACUATION_NATIONS:
        illegal(order, f"{u['id']} is not a UK ground unit", "14.8")
    if state["event_markers"].get(faction, {}).get("naval-evacuation") not in ("available", "ready"):
        illegal(order, "your Naval Evacuation marker is not available now", "14.8")
    act = state["activation"]
    if act is not None and act["unit"] == u["id"] and not act["fresh"]:
        illegal(order, f"{u['id']} has begun its activation: it evacuates before it", "14.8")
    if u["sm"]:
        illegal(order, f"{u['id']} is marked with Strategic Move", "4.1.4")
    if not on_map(u) or not coastal(b, hex_of(u)):  # 1.3.6: not from a port in a full land hex
        illegal(order, f"{u['id']} is not in a coastal hex", "14.8")
    port = order["target"]
    if port == u["hex"] or not friendly_port(state, b, port, faction):
        illegal(order, f"{port} is not another friendly port", "14.8")
    if not b.zones_of(port) & b.zones_of(hex_of(u)):
        illegal(order, f"{port} is not in a Sea Zone of {u['hex']}", "14.8")
    if any(enemies(faction_of(state, o), faction) for o in units_at(state, port)):
        illegal(order, f"{port} holds an enemy unit", "14.8")
    other = stack_conflict(state, u, port)
    if other is not None:
        illegal(order, f"{port} already holds {other['id']}", "3.3")
    return u


def evacuate(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_evacuate``."""
    from .will import step_loss

    u = check_evacuate(state, b, order, faction)
    end_activation(state, events)
    state["event_markers"][faction]["naval-evacuation"] = "placed"
    events.append({"kind": "naval-evacuation", "unit": u["id"], "from": u["hex"], "to": order["target"]})
    u.update({"hex": order["target"], "fort": False})
    step_loss(state, u, events, cause="naval evacuation", b=b)


def end_of_actions(state: State, faction: str, ctx: Any, events: Events) -> None:
    """1.2.1: Surprise Attack markers off (amphib.py); a used Naval Evacuation marker returns a
    die roll of turns later (14.8), rolled as Partisans' (markers.py)."""
    from .markers import return_marker

    amphib.end_of_actions(state, faction, events)
    seaactions.end_of_actions(state, faction, events)
    pool = state["event_markers"].get(faction, {})
    if pool.get("naval-evacuation") != "placed":
        return
    if strict(ctx):
        state.setdefault("turn_dice", []).append(
            {"kind": "marker-return", "faction": faction, "marker": "naval-evacuation", "turn": state["turn"]})
        return
    return_marker(state, faction, "naval-evacuation", state["turn"], ctx, events)


# --- orders -----------------------------------------------------------------------------------


def parse_zone(ln: UseLine, o: Order) -> None:
    """surprise: a Sea Zone id."""
    o["target"] = ln.loc()


def naval_unit(ln: UseLine) -> str:
    """A unit id, or the id a Convoy/Surface Action (14.3, 14.16) gives its temporary unit, which
    an order may name in the file that places it."""
    t = (ln.peek() or "").upper()
    if t in {seaactions.temporary_id(f, m) for f in seaactions.LEAD for m in seaactions.TEMPORARY}:
        ln.take("")
        return t
    return ln.unit()


def parse_invade(ln: UseLine, o: Order) -> None:
    o["unit"] = naval_unit(ln)
    o["target"] = ln.hex()
    while ln.more():
        col, w = ln.take("carry, escort, then or mulberry")
        w = w.lower()
        if w == "carry" and "carry" not in o:
            o["carry"] = ln.unit()
        elif w == "escort" and "escort" not in o:
            o["escort"] = [naval_unit(ln)]
            while ln.more() and (ln.peek() or "").lower() not in ("carry", "then", "mulberry", "will-commit",
                                                                   "no-commit"):
                o["escort"].append(naval_unit(ln))
        elif w == "then" and "then" not in o:
            o["then"] = ln.hex()
        elif w == "mulberry":
            o["mulberry"] = True
        elif w in ("will-commit", "no-commit"):
            o["commit"] = w == "will-commit"  # 5.1: for the Assault from the sea (6.3.2)
        else:
            raise ln.err(f"unexpected {w!r}", col, "write: invade CONVOY HEX carry UNIT [escort WARSHIP...] "
                         "[then HEX] [mulberry] [will-commit|no-commit]")
    if "carry" not in o:
        raise ln.err("an invasion needs 'carry UNIT'", None)


def parse_unit_port(ln: UseLine, o: Order) -> None:
    o["unit"] = ln.unit()
    o["target"] = ln.hex()


def verbs(make: Callable[..., Any], settled: Callable[[Any], Any], phases: tuple[str, ...]) -> list[Any]:
    """The rows of the verb table (verbs.py) for these orders; ``t`` is verbs.Turn."""
    mob = ("mobilization",)
    return [
        make("surprise", parse_zone,
             settled(lambda t, o: amphib.place_surprise(t.s, t.b, o, t.seat, t.events)),
             lambda t, o: amphib.check_surprise(t.s, t.b, o, t.seat), phases, offer=sealegal.surprise),
        make("invade", parse_invade, settled(lambda t, o: amphib.invade(t.s, t.b, o, t.seat, t.ctx, t.events)),
             lambda t, o: amphib.check_invade(t.s, t.b, o, t.seat), phases, offer=sealegal.invade),
        make("carrier-strike", parse_air_strike,
             settled(lambda t, o: carrier_strike(t.s, t.b, o, t.seat, t.ctx, t.events)),
             lambda t, o: strike_target(t.s, t.b, o, t.seat), phases, offer=sealegal.carrier_strike),
        make("evacuate", parse_unit_port, settled(lambda t, o: evacuate(t.s, t.b, o, t.seat, t.events)),
             lambda t, o: check_evacuate(t.s, t.b, o, t.seat), phases, offer=sealegal.evacuate),
        *(make(name, seaactions.parse_port,
               settled(lambda t, o: seaactions.temporary_action(t.s, t.b, o, t.seat, t.events)),
               lambda t, o: seaactions.check_temporary_action(t.s, t.b, o, t.seat), phases,
               offer=sealegal.temporary(name)) for name in sorted(seaactions.TEMPORARY)),
        make("evacuate-on-retreat", seaactions.parse_nothing,
             lambda t, o: seaactions.ready_evacuation(t.s, o, t.seat, t.events),
             lambda t, o: seaactions.check_ready_evacuation(t.s, o, t.seat), phases, offer=sealegal.ready_evacuation),
        make("buy-back", seaactions.parse_buy_back,
             settled(lambda t, o: seaactions.buy_back(t.s, o, t.seat, t.events)),
             lambda t, o: seaactions.check_buy_back(t.s, o, t.seat), mob, offer=sealegal.buy_back),
    ]
