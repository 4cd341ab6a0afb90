"""Declare War (USE 10.1), Country Activation (13.1), policies ending, Victory Check (12.1)."""

from __future__ import annotations

from typing import Any

from .errs import illegal
from .geo import Board
from .state import FACTIONS, State

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
        fixed = state.get("fixed_policies", [])
        if "appeasement" in state["policies"] and "appeasement" not in fixed:
            out.append("western")
        if "nazi-soviet-pact" in state["policies"] and "nazi-soviet-pact" not in fixed:
            out.append("soviet")
    return out


def may_declare_any(state: State, faction: str) -> bool:
    return bool(targets(state, faction))


def declare_war(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    target = order["target"]
    ban = dow_ban(state, faction)
    if ban:
        illegal(order, ban[1], ban[0])
    if target in FACTIONS:
        if faction != "axis":
            illegal(order, "only the Axis may declare war on a faction", "10.1")
        policy = {"western": "appeasement", "soviet": "nazi-soviet-pact"}[target]
        if policy not in state["policies"]:
            illegal(order, f"{policy} is not in effect: there is nothing to end", "10.1")
        if policy in state.get("fixed_policies", []):
            illegal(order, f"{policy} cannot end in this scenario", "10.1")
        state["policies"].remove(policy)
        events.append({"kind": "declare-war", "by": faction, "on": target, "ends": policy})
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
    joins = join_faction(state, c, faction, ctx)
    events.append({"kind": "declare-war", "by": faction, "on": target, "joins": joins})
    activate_country(state, b, target, joins, events)


def join_faction(state: State, c: dict[str, Any], declarer: str, ctx: Any) -> str:
    """USE 13.1 Faction Determination."""
    pol = state["policies"]
    if declarer != "axis":
        return "axis"
    if c.get("pro") in ("western", "soviet"):
        pro: str = c["pro"]
        return pro
    pact = "nazi-soviet-pact" in pol or "moscow-treaty" in pol
    if "appeasement" in pol and not pact:
        return "soviet"
    if pact and "appeasement" not in pol:
        return "western"
    die = ctx.roll(6, "country activation faction")[0]
    return "western" if die <= 3 else "soviet"


def activate_country(state: State, b: Board, code: str, faction: str, events: Events) -> None:
    """USE 13.1 Setup: the country joins ``faction``; its units set up on the map (full strength
    ground units, air and naval with 0 Sorties) or in the Mobilization box; its cities are its own."""
    c = state["countries"][code]
    c["status"] = "active"
    c["faction"] = faction
    for h, city in b.cities.items():
        if city.country == code and state["control"].get(h) in (None, "neutral"):
            state["control"][h] = faction
    for h, owner in sorted(state.get("activation_forts", {}).items()):
        if owner == code:
            # 13.1 / units.txt "fort HEX COUNTRY activation": the fort marker appears now.
            state["forts"][h] = faction
            del state["activation_forts"][h]
            events.append({"kind": "fort-placed", "hex": h, "country": code})
    for u in state["units"].values():
        if u["country"] != code or u["box"] != "inactive":
            continue
        setup = u.get("setup")
        if setup and not any(o["hex"] == setup and o["box"] is None for o in state["units"].values()):
            u.update(hex=setup, box=None, reduced=u["kind"] == "garrison", sorties=0, supply="full")
        else:
            u.update(hex=None, box="mobilization")
    events.append({"kind": "activation", "country": code, "faction": faction})


def victory_check(state: State, b: Board, events: Events) -> None:
    """USE 12.1: the scenario's conditions, in order; "end" ones only on the last turn."""
    last = state["turn"] >= state["last_turn"]
    for v in state.get("victory", []):
        if v["timing"] == "end" and not last:
            continue
        if _holds(state, b, v):
            state["over"] = f"{v['faction'].title()} victory: {v['text']}"
            events.append({"kind": "game-over", "result": state["over"]})
            return


def _holds(state: State, b: Board, v: dict[str, Any]) -> bool:
    test, arg = v["test"], v.get("arg")
    if test == "otherwise":
        return True
    if test in ("collapsed", "conquered"):
        st = state["countries"].get(arg or "", {}).get("status")
        return bool(st == "conquered" or (test == "collapsed" and st == "collapsed"))
    if test == "controls":
        for h, city in b.cities.items():
            if city.name == arg or h == arg:
                return bool(state["control"].get(h) == v["faction"])
        return False
    return False
