"""Economy (USE 9.x) and Unit Logistics: Replacements (8.1), Upgrade (8.2), Mobilization (8.3)."""

from __future__ import annotations

from typing import Any

from .geo import Board
from .refusals import illegal
from .state import (
    State,
    Unit,
    faction_of,
    ground_at,
    in_play,
    is_air,
    is_ground,
    is_leg,
    is_naval,
    on_map,
    stack_class,
    units_at,
)
from .tables import authored

Events = list[dict[str, Any]]
Order = dict[str, Any]
PP_CAP = 59  # USE 9.0: maximum production points per country
TRANSFER_MAX = 1  # USE 9.1.3: at most 1 PP per receiving country per turn
TRANSFERRERS = frozenset({"GER", "UK", "USA", "USSR"})


EXTRA_MAX = 9  # USE 15.13: Lend Lease advances the Extra Factories Track up to 9


def factory_count(state: State, b: Board, code: str) -> int:
    """USE 9.1: friendly factories of the country on the map, plus those off this map; for
    Germany, the UK and the USSR: On-Map Factory Count minus Fac Lost (minimum 0) plus Extra
    Factories (Commonwealth Trade 15.6, Lend Lease 15.13)."""
    c = state["countries"][code]
    onmap = sum(city.factories for h, city in b.cities.items()
                if city.country == code and state["control"].get(h) == c["faction"])
    # DECISION: a city inside a Map Box (Berlin in the Reich box) cannot be captured on this
    # map, so its factories always count for their country.
    count = onmap + b.box_factories.get(code, 0) + c["offmap"]
    count = max(0, count - int(state.get("fac_lost", {}).get(code, 0)))
    return int(count + c.get("extra", 0))


def lend_lease(state: State, events: Events) -> None:
    """USE 15.13: Lend Lease advances the receiver's Extra Factories marker, up to 9.
    DECISION (authored.toml [west_invaded] lend_lease_per_turn): by that many each Economy
    Phase after the marker is placed; the seed gives no rate."""
    step = int(authored()["west_invaded"]["lend_lease_per_turn"])
    for code in state.get("lend_lease", []):
        c = state["countries"].get(code)
        if c is None or c["status"] != "active":
            continue
        new = min(EXTRA_MAX, c.get("extra", 0) + step)
        if new != c.get("extra", 0):
            events.append({"kind": "extra-factories", "country": code, "from": c.get("extra", 0), "to": new,
                           "why": "Lend Lease (15.13)"})
            c["extra"] = new


UNLIMITED = "USA"  # USE 9.0: the USA does not track production (unlimited)


def unlimited(code: str) -> bool:
    return code == UNLIMITED


def production(state: State, b: Board, events: Events) -> None:
    """USE 9.1: PP = Factory Count x Production Multiplier, capped at 59 (9.0). The USSR does not
    multiply while the Moscow Treaty is in effect. The USA's production is not tracked (9.0):
    it pays for nothing (``_check_pay``), so it gets no Prod marker here."""
    lend_lease(state, events)
    from .policies import economic_reforms

    economic_reforms(state, int(authored()["west_invaded"]["lend_lease_per_turn"]), EXTRA_MAX, events)
    for code in sorted(state["countries"]):
        c = state["countries"][code]
        if c["status"] != "active" or c["faction"] is None or unlimited(code):
            continue
        mult = 1 if (code == "USSR" and "moscow-treaty" in state["policies"]) else c["mult"]
        c["pp"] = min(PP_CAP, factory_count(state, b, code) * mult)
        events.append({"kind": "production", "country": code, "pp": c["pp"]})


def _check_pay(state: State, order: Order, code: str, cost: int, rule: str) -> None:
    if unlimited(code):
        return
    c = state["countries"][code]
    if cost > c["pp"]:
        illegal(order, f"that costs {cost} PP; {code} has {c['pp']}", rule)


def _pay(state: State, code: str, cost: int) -> None:
    if not unlimited(code):
        state["countries"][code]["pp"] -= cost


def _unit(state: State, order: Order, uid: str, faction: str, rule: str) -> Unit:
    """A unit of ``faction`` named in a Replacements (8.1), Upgrade (8.2) or Mobilization (8.3)
    order; refused under that order's rule."""
    u: Unit | None = state["units"].get(uid)
    if u is None or faction_of(state, u) != faction:
        illegal(order, f"{uid} is not a unit of yours", rule)
    return u


def has_choice(state: State, b: Board, phase: str, faction: str) -> bool:
    mine = [u for u in state["units"].values() if faction_of(state, u) == faction]
    rich = any(c["pp"] > 0 or (unlimited(code) and c["status"] == "active")
               for code, c in state["countries"].items() if c["faction"] == faction)
    if phase == "replacements":
        return rich and any(in_play(u) and u["supply"] == "full" and not u["sm"]
                            and ((is_ground(u) and u["reduced"] and u["kind"] != "garrison") or u["sorties"] > 0)
                            for u in mine)
    if phase == "upgrade":
        return any(u["box"] == "upgrade" for u in mine)
    return rich and any(u["box"] == "mobilization" for u in mine)


def _replace_cost(u: Unit) -> tuple[int, int]:
    """USE 8.1: the PP cost of improving ``u`` and, for an air or naval unit, the Sorties removed."""
    tab = authored()["replacements"]
    if is_ground(u):
        return int(tab["leg"] if is_leg(u) else tab["mobile"]), 0
    n = min(2, u["sorties"])  # USE 8.1: up to 2 Sorties
    return int(tab["sortie"] * n), n


def check_replace(state: State, order: Order, faction: str) -> None:
    """USE 8.1: improve a unit in a hex or a Map Box, in Full Supply, not marked with Strategic
    Move, once per turn."""
    u = _unit(state, order, order["unit"], faction, "8.1")
    if not in_play(u):
        illegal(order, f"{u['id']} is neither on the map nor in a Map Box", "8.1")
    if u["supply"] != "full":
        illegal(order, f"{u['id']} is not in Full Supply", "8.1")
    if u["sm"]:
        illegal(order, f"{u['id']} is marked with Strategic Move", "4.1.4")
    if u["id"] in state["done_turn"]["improved"]:
        illegal(order, f"{u['id']} was already improved this turn", "8.1")
    if is_ground(u) and (not u["reduced"] or u["kind"] == "garrison"):
        illegal(order, f"{u['id']} is not a reduced field unit", "8.1")
    cost, n = _replace_cost(u)
    if not is_ground(u) and n == 0:
        illegal(order, f"{u['id']} has no Sorties to remove", "8.1")
    _check_pay(state, order, u["country"], cost, "8.1")


def replace(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_replace``."""
    u = state["units"][order["unit"]]
    cost, n = _replace_cost(u)
    _pay(state, u["country"], cost)
    if is_ground(u):
        u["reduced"] = False
    else:
        u["sorties"] -= n
    state["done_turn"]["improved"].append(u["id"])
    events.append({"kind": "replacement", "unit": u["id"]})


def check_upgrade(state: State, order: Order, faction: str) -> None:
    """USE 8.2: swap an on-map unit for a unit of the Upgrade box, at 0 PP."""
    old = _unit(state, order, order["unit"], faction, "8.2")
    new = _unit(state, order, order["new"], faction, "8.2")
    if new["box"] != "upgrade":
        illegal(order, f"{new['id']} is not in the Upgrade box", "8.2")
    from .guards import guards_delay

    if (due := guards_delay(state, new)) is not None:
        illegal(order, f"{new['id']} (Guards) is delayed by the USSR's collapse until turn {due}", "13.2")
    if not on_map(old) or old["supply"] != "full" or old["sm"]:
        illegal(order, f"{old['id']} must be on the map, in Full Supply and not marked with Strategic Move",
                "8.2")
    if new["country"] != old["country"] or is_ground(new) != is_ground(old):
        illegal(order, f"{new['id']} cannot replace {old['id']}", "8.2")


def upgrade(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_upgrade``."""
    old = state["units"][order["unit"]]
    new = state["units"][order["new"]]
    # DECISION: the upgrade unit takes the replaced unit's place, strength and supply.
    new.update({"hex": old["hex"], "box": None, "reduced": old["reduced"], "supply": old["supply"],
                "fort": old["fort"]})
    old.update({"hex": None, "box": "removed", "fort": False})
    events.append({"kind": "upgrade", "unit": old["id"], "by": new["id"]})


def _mobilize_cost(u: Unit) -> int:
    tab = authored()["mobilization"]
    return int(tab["leg"] if is_leg(u) else tab["mobile"] if is_ground(u) else tab["air"] if is_air(u)
               else tab["naval"])


# USE 8.3 Placement Locations beyond friendly Mainland cities: country -> (Map Boxes, units a phase)
BOX_PLACEMENTS: dict[str, tuple[frozenset[str], int]] = {
    "UK": (frozenset({"ENA", "WIO"}), 1),
    "USA": (frozenset({"ENA"}), 99),  # no limit printed for the USA
    "USSR": (frozenset({"CR"}), 5),
}


def _boxed(state: State) -> list[str]:
    """Units mobilized into a Map Box this turn (an optional key: absent until the first one)."""
    done: Any = state["done_turn"]
    return done.setdefault("boxed", [])  # type: ignore[no-any-return]


def _check_box(state: State, b: Board, order: Order, u: Unit, box: str) -> None:
    """USE 8.3: UK 1 unit in Eastern North America or the Western Indian Ocean; USA Eastern North
    America; USSR up to 5 units in the Central Russia box. DECISION: the limits count per
    Mobilization Phase (the phase happens once a turn); naval units only into sea boxes."""
    boxes, limit = BOX_PLACEMENTS.get(u["country"], (frozenset(), 0))
    if box not in boxes:
        where = " or ".join(sorted(boxes)) if boxes else "no Map Box"
        illegal(order, f"{u['country']} units are mobilized in a friendly Mainland city or {where}, not {box}", "8.3")
    if box not in b.sea_boxes and box not in b.land_boxes:
        illegal(order, f"Map Box {box} is not on this map", "8.3")
    if is_naval(u) and box not in b.sea_boxes:
        illegal(order, f"{box} is a land box: a naval unit needs a port", "8.3")
    done: Any = state["done_turn"]
    placed = [x for x in done.get("boxed", []) if state["units"][x]["country"] == u["country"]]
    if len(placed) >= limit:
        illegal(order, f"{u['country']} has already mobilized {len(placed)} unit(s) in Map Boxes this turn "
                       f"(at most {limit})", "8.3")


def check_mobilize(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 8.3: place a unit of the Mobilization box in a friendly Mainland city of its country
    (a port for naval units), or in the Map Boxes 8.3 names; ground units arrive reduced (USSR
    non-Shock infantry at full strength), air/naval units with 4 Sorties."""
    u = _unit(state, order, order["unit"], faction, "8.3")
    h = order["to"]
    if u["box"] != "mobilization":
        illegal(order, f"{u['id']} is not in the Mobilization box", "8.3")
    if not h.isdigit():
        _check_box(state, b, order, u, h)
        _check_pay(state, order, u["country"], _mobilize_cost(u), "8.3")
        return
    city = b.city(h)
    if (city is None or city.country != u["country"] or not b.mainland(h)
            or state["control"].get(h) != faction):
        illegal(order, f"{h} is not a friendly Mainland city of {u['country']}", "8.3")
    if is_naval(u) and not city.port:
        illegal(order, f"{h} is not a port", "8.3")
    if any(stack_class(o["kind"]) == stack_class(u["kind"]) for o in units_at(state, h)):
        illegal(order, f"{h} already holds a unit of that kind", "3.3")
    if any(faction_of(state, o) != faction for o in units_at(state, h)):
        illegal(order, f"{h} holds an enemy unit", "3.3")
    _check_pay(state, order, u["country"], _mobilize_cost(u), "8.3")


def mobilize(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_mobilize``."""
    u = state["units"][order["unit"]]
    h = order["to"]
    _pay(state, u["country"], _mobilize_cost(u))
    if h.isdigit():
        u.update({"hex": h, "box": None, "supply": "full", "fort": False, "sm": False})
    else:  # a Map Box (8.3 Placement Locations): no stacking limits there (3.3)
        u.update({"hex": None, "box": h, "supply": "full", "fort": False, "sm": False})
        _boxed(state).append(u["id"])
    if is_ground(u):
        # USE 8.3: reduced, except USSR non-Shock infantry, which mobilizes at full strength
        u["reduced"] = not (u["country"] == "USSR" and u["kind"] == "infantry" and not u.get("shock"))
    else:
        u["sorties"] = 4
    events.append({"kind": "mobilize", "unit": u["id"], "hex": h})
    assert not h.isdigit() or ground_at(state, h) is None or ground_at(state, h) is u or not is_ground(u)


def check_transfer(state: State, order: Order, faction: str) -> None:
    """USE 9.1.3: Germany, UK, USA, USSR may give 1 PP a turn to each active friendly country;
    the UK and the USA cannot transfer to each other."""
    src, dst, n = order["from"], order["to"], order["pp"]
    cs = state["countries"]
    giver = cs.get(src)
    if src not in TRANSFERRERS or giver is None or giver["faction"] != faction:
        illegal(order, f"{src} cannot transfer production points", "9.1.3")
    if dst not in cs or cs[dst]["faction"] != faction or cs[dst]["status"] != "active" or dst == src:
        illegal(order, f"{dst} is not an active friendly country", "9.1.3")
    if {src, dst} == {"UK", "USA"}:
        illegal(order, "the UK and the USA cannot transfer to each other", "9.1.3")
    got = sum(t["pp"] for t in state["done_turn"]["transfers"] if t["to"] == dst)
    if got + n > TRANSFER_MAX:
        illegal(order, f"{dst} may receive at most {TRANSFER_MAX} PP a turn", "9.1.3")
    _check_pay(state, order, src, n, "9.1.3")


def transfer(state: State, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_transfer``."""
    src, dst, n = order["from"], order["to"], order["pp"]
    cs = state["countries"]
    _pay(state, src, n)
    cs[dst]["pp"] = min(PP_CAP, cs[dst]["pp"] + n)
    state["done_turn"]["transfers"].append({"from": src, "to": dst, "pp": n})
    events.append({"kind": "transfer", "from": src, "to": dst, "pp": n})
