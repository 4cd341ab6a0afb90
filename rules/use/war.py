"""Declare War (USE 10.1), Country Activation (13.1), policies ending, West Invaded (13.8),
Victory Check (12.1)."""

from __future__ import annotations

from typing import Any

from .geo import Board
from .refusals import illegal
from .state import FACTIONS, Country, State, Unit, Victory, is_air, stack_class, units_at
from .tables import authored

Events = list[dict[str, Any]]
Order = dict[str, Any]


def dow_ban(state: State, faction: str) -> tuple[str, str] | None:
    """Why ``faction`` may not declare war at all now (USE 10.1), or None."""
    pol = state["policies"]
    if faction in ("western", "soviet") and ("appeasement" in pol or "nazi-soviet-pact" in pol):
        return "10.1", "while Appeasement or the Nazi-Soviet Pact is in effect the Allies cannot declare war"
    if faction == "soviet" and "moscow-treaty" in pol:
        return "10.1", "while the Moscow Treaty is in effect the Soviet faction cannot declare war"
    return None


def targets(state: State, faction: str) -> list[str]:
    """Everything ``faction`` may declare war on now."""
    if dow_ban(state, faction):
        return []
    out = sorted(code for code, c in state["countries"].items()
                 if c["status"] == "neutral" and c.get("can_dow", True))
    if faction == "axis":
        fixed = state["fixed_policies"]
        if "appeasement" in state["policies"] and "appeasement" not in fixed:
            out.append("western")
        if "nazi-soviet-pact" in state["policies"] and "nazi-soviet-pact" not in fixed:
            out.append("soviet")
    return out


def may_declare_any(state: State, faction: str) -> bool:
    return bool(targets(state, faction))


POLICY_OF = {"western": "appeasement", "soviet": "nazi-soviet-pact"}  # what declaring war on a faction ends


def check_declare_war(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 10.1: on a neutral country, or (the Axis) on a faction, ending a policy (10.3)."""
    target = order["target"]
    ban = dow_ban(state, faction)
    if ban:
        illegal(order, ban[1], ban[0])
    if target in FACTIONS:
        if faction != "axis":
            illegal(order, "only the Axis may declare war on a faction", "10.1")
        policy = POLICY_OF[target]
        if policy not in state["policies"]:
            illegal(order, f"{policy} is not in effect: there is nothing to end", "10.1")
        if policy in state["fixed_policies"]:
            illegal(order, f"{policy} cannot end in this scenario", "10.1")
        return
    c = state["countries"].get(target)
    if c is None:
        illegal(order, f"no country {target!r}", "10.1")
    if target in b.prohibited_countries or c["status"] == "prohibited":
        illegal(order, f"{target} is a Prohibited Country", "1.3.8")
    if c["status"] != "neutral":
        illegal(order, f"{target} is not neutral", "10.1")
    if not c.get("can_dow", True):
        illegal(order, f"war cannot be declared on {target} in this scenario", "10.1")


def declare_war(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_declare_war``."""
    target = order["target"]
    if target in FACTIONS:
        policy = POLICY_OF[target]
        state["policies"].remove(policy)
        events.append({"kind": "declare-war", "by": faction, "on": target, "ends": policy})
        return
    c = state["countries"][target]
    from .strictdice import need

    need(ctx, activation_dice(state, c, target, faction))  # strict dice: all of them, at once
    joins, die = join_faction(state, c, faction, ctx)
    ev: dict[str, Any] = {"kind": "declare-war", "by": faction, "on": target, "joins": joins}
    if die is not None:
        ev["die"] = die  # 13.1: 1-3 Western, 4-6 Soviet
    events.append(ev)
    activate_country(state, b, target, joins, events)
    special_activation(state, b, target, ctx, events)


VICHY_GROUP = ("FNA", "SYR", "VIC")  # USE 13.1 Special Cases: French North Africa, Syria, Vichy
ITALY_OVERSEAS_MAX = 3  # USE 13.1: Italy has at most 3 field ground units in Overseas Areas


def activation_dice(state: State, c: Country, code: str, declarer: str) -> int:
    """The dice a declaration of war on ``code`` may roll (13.1): the faction die, the Vichy die."""
    pol = state["policies"]
    n = 1 if code in VICHY_GROUP else 0
    if declarer != "axis" or c.get("pro") in ("western", "soviet"):
        return n
    pact = "nazi-soviet-pact" in pol or "moscow-treaty" in pol
    return n + (0 if pact != ("appeasement" in pol) else 1)


def special_activation(state: State, b: Board, code: str, ctx: Any, events: Events) -> None:
    """USE 13.1 Special Cases: French North Africa, Syria and Vichy roll a die on activation,
    +1 per conquered Vichy country (DECISION: one of the three already conquered): 1-3 it sets up
    normally, 4-6 it is conquered at once and its counters removed (13.2.2: no Pro-Faction
    marker, Will or ceding follows: it was never fought over)."""
    if code not in VICHY_GROUP:
        return
    from .strictdice import need

    need(ctx, 1)
    die: int = ctx.roll(6, f"{code} activation")[0]
    cs = state["countries"]
    drm = sum(1 for k in VICHY_GROUP if k != code and k in cs and cs[k]["status"] == "conquered")
    c = state["countries"][code]
    ev: dict[str, Any] = {"kind": "vichy-activation", "country": code, "die": die, "drm": drm,
                          "joined": c["faction"]}
    if die + drm <= 3:
        ev["result"] = "sets up"
        events.append(ev)
        return
    ev["result"] = "conquered"
    events.append(ev)
    c["status"] = "conquered"
    c["conquered_by"] = None
    for h, city in b.cities.items():
        if city.country == code and state["control"].get(h) == c["faction"]:
            state["control"][h] = "neutral"  # DECISION: nobody took it; its cities are nobody's
    for u in state["units"].values():
        if u["country"] == code and u["box"] != "removed":
            u.update({"hex": None, "box": "removed", "fort": False})


def is_field_ground(u: Unit) -> bool:
    return u["kind"] in ("infantry", "paratroop", "motorized", "tank")


def italy_overseas_full(state: State, b: Board, unit: Unit) -> bool:
    """USE 13.1: whether Italy already has 3 field ground units in Overseas Areas besides ``unit``."""
    if unit["country"] != "ITA" or not is_field_ground(unit):
        return False
    n = sum(1 for u in state["units"].values()
            if u["id"] != unit["id"] and u["country"] == "ITA" and is_field_ground(u) and u["box"] is None
            and u["hex"] is not None and b.country.get(u["hex"]) is not None and not b.mainland(u["hex"]))
    return n >= ITALY_OVERSEAS_MAX


def join_faction(state: State, c: Country, declarer: str, ctx: Any) -> tuple[str, int | None]:
    """USE 13.1 Faction Determination: (faction joined, the die rolled or None)."""
    pol = state["policies"]
    if declarer != "axis":
        return "axis", None
    pro = c.get("pro")
    if pro is not None and pro in ("western", "soviet"):
        return pro, None
    pact = "nazi-soviet-pact" in pol or "moscow-treaty" in pol
    if "appeasement" in pol and not pact:
        return "soviet", None
    if pact and "appeasement" not in pol:
        return "western", None
    from .strictdice import need

    need(ctx, 1)  # strict dice: the declaration waits for the die in the Axis's next file
    die: int = ctx.roll(6, "country activation faction")[0]
    return ("western" if die <= 3 else "soviet"), die


def activate_country(state: State, b: Board, code: str, faction: str, events: Events) -> None:
    """USE 13.1 Setup: the country joins ``faction``; its units set up on the map (full strength
    ground units, air and naval with 0 Sorties) or in the Mobilization box; its cities are its own."""
    c = state["countries"][code]
    c["status"] = "active"
    c["faction"] = faction
    for h, city in b.cities.items():
        if city.country == code and state["control"].get(h) in (None, "neutral"):
            state["control"][h] = faction
    for h, owner in sorted(state["activation_forts"].items()):
        if owner == code:
            # 13.1 / units.txt "fort HEX COUNTRY activation": the fort marker appears now.
            state["forts"][h] = faction
            del state["activation_forts"][h]
            events.append({"kind": "fort-placed", "hex": h, "country": code})
    for u in state["units"].values():
        if u["country"] != code or u["box"] != "inactive":
            continue
        setup = u.get("setup")
        if setup and code == "ITA" and not b.mainland(setup) and italy_overseas_full(state, b, u):
            setup = None  # 13.1: the fourth Italian field ground unit overseas waits off map
        if setup and not units_at(state, setup):
            u.update({"hex": setup, "box": None, "reduced": u["kind"] == "garrison", "sorties": 0,
                      "supply": "full"})
        else:
            u.update({"hex": None, "box": "mobilization"})
    events.append({"kind": "activation", "country": code, "faction": faction})


COMMONWEALTH_TRADE = 3  # USE 15.6: Commonwealth Trade adds 3 factories to the UK Extra Factories Track


def west_invaded(state: State, b: Board, events: Events) -> None:
    """USE 13.8 West Invaded, the effects that apply on the France 1940 map:

    * France mobilizes 1 air unit: the lowest-id French air unit in the Mobilization box is
      placed as 8.3 places it (4 Sorties, a friendly French Mainland city), at no PP cost.
    * Commonwealth Trade (15.6): +3 on the UK Extra Factories Track (counted by 9.1).
    * Lend Lease to the UK (15.13): the UK Extra Factories marker advances each Economy Phase.
    * UK Fac Lost (15.10): placed on the track (``fac_lost``), which makes the UK a target of
      Strategic Warfare step 2 (9.2, strategic.py) from the next Strategic Warfare Phase.
    * Policy Evaluation (15.21): a marker for Appeasement in the next turn's box
      (policies.place_evaluation); in France 1940 Appeasement is off, so none is placed.
    """
    from .policies import place_evaluation

    place_evaluation(state, "appeasement", events)
    tab = authored()["west_invaded"]
    fra = state["countries"].get("FRA")
    if fra is not None and fra["status"] == "active":
        _french_air(state, b, fra["faction"], events)
    uk = state["countries"].get("UK")
    if uk is None or uk["status"] != "active":
        return
    uk["extra"] = min(9, uk.get("extra", 0) + COMMONWEALTH_TRADE)
    events.append({"kind": "extra-factories", "country": "UK", "to": uk["extra"],
                   "why": "Commonwealth Trade (15.6)"})
    if "UK" not in state.setdefault("lend_lease", []):
        state["lend_lease"].append("UK")
        events.append({"kind": "marker-placed", "marker": "lend-lease", "country": "UK"})
    state.setdefault("fac_lost", {})["UK"] = int(tab["uk_fac_lost"])
    events.append({"kind": "marker-placed", "marker": "fac-lost", "country": "UK"})


def _french_air(state: State, b: Board, faction: str | None, events: Events) -> None:
    """DECISION (13.8 "France mobilizes 1 air unit"): as 8.3 without paying: the lowest-id French
    air unit in the Mobilization box, with 4 Sorties, in Paris if it is French-controlled and has
    room for it (3.3), else the nearest such French Mainland city (lowest hex id on ties); it
    stays in the box when no city qualifies."""
    pool = sorted(uid for uid, u in state["units"].items()
                  if u["country"] == "FRA" and u["box"] == "mobilization" and is_air(u))
    if not pool or faction is None:
        return
    u = state["units"][pool[0]]
    capital = b.capital_hex("FRA")

    def room(h: str) -> bool:
        return all(stack_class(o["kind"]) != stack_class(u["kind"]) and o["country"] in _friends(state, faction)
                   for o in units_at(state, h))

    cities = [h for h, c in b.cities.items() if c.country == "FRA" and b.mainland(h)
              and state["control"].get(h) == faction and room(h)]
    if not cities:
        return
    dest = min(cities, key=lambda h: (0 if h == capital else 1, b.distance(h, capital) if capital else 0, h))
    u.update({"hex": dest, "box": None, "sorties": 4, "supply": "full", "fort": False, "sm": False})
    events.append({"kind": "mobilize", "unit": u["id"], "hex": dest, "why": "West Invaded (13.8)"})


def _friends(state: State, faction: str) -> set[str]:
    return {code for code, c in state["countries"].items() if c["faction"] == faction}


def victory_check(state: State, b: Board, events: Events) -> None:
    """USE 12.1: the scenario's conditions, in order; "end" ones only on the last turn."""
    last = state["turn"] >= state["last_turn"]
    for v in state["victory"]:
        if v["timing"] == "end" and not last:
            continue
        if _holds(state, b, v):
            state["over"] = f"{v['faction'].title()} victory: {v['text']}"
            events.append({"kind": "game-over", "result": state["over"]})
            return


def _holds(state: State, b: Board, v: Victory) -> bool:
    test, arg = v["test"], v["arg"]
    if test == "otherwise":
        return True
    if test in ("collapsed", "conquered"):
        c = state["countries"].get(arg or "")
        if c is None:
            return False
        return bool(c["status"] == "conquered" or (test == "collapsed" and c["collapses"] > 0))
    if test == "controls":
        for h, city in b.cities.items():
            if city.name == arg or h == arg:
                return bool(state["control"].get(h) == v["faction"])
        return False
    return False
