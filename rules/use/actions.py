"""The Actions Sub-Phase (USE 6.0): activations, Army Operations (6.3.1) with Mobile attacks and
Assaults (5.3.2-5.3.3), air actions (6.2), and the Will Commit exchange of combat (5.1 step 2).

Will Commit, by email: the attacker's choice (and its air unit, sealed with it) is committed
with ``ctx.commit`` in the file that declares the attack; the defender answers in its own file
(plainly: the attacker's choice is already sealed); the attacker's next file opens the
commitment and the combat resolves. A defender with a standing Will Commit order has waived
secrecy, so in window mode the attacker's commitment is opened in the same file and no email
is spent; in strict mode the dice wait for a release-only file of the defender (strictdice.py).
"""

from __future__ import annotations

from typing import Any

from . import politics, strictdice
from .activation import activate, end_activation
from .airduel import Roller
from .combat import resolve_air_strike, resolve_ground
from .geo import Board
from .movement import air_move, attack_cost, move_ground
from .refusals import illegal
from .state import (
    State,
    Unit,
    enemies,
    faction_of,
    ground_at,
    is_air,
    is_ground,
    is_naval,
    units_at,
)

Order = dict[str, Any]
Events = list[dict[str, Any]]
MAX_ASSAULTERS = 3  # USE 5.3.3: up to 3 attacking units against one hex
AIR_STRIKE_RANGE = 7  # USE 6.2.2
AIR_SUPPORT_RANGE = 5  # USE 6.2.3


def own_unit(state: State, order: Order, uid: str, faction: str, b: Board | None = None) -> Unit:
    """The named unit of ``faction`` on the map; with ``b``, a unit in a land Map Box also
    qualifies (it may move out, 1.3.5)."""
    u: Unit | None = state["units"].get(uid)
    if u is None:
        illegal(order, f"no unit {uid!r}", "3.2", "unit ids are listed by 'pbem orders template'")
    if faction_of(state, u) != faction:
        illegal(order, f"{uid} is not a {faction} unit", "6.0")
    if b is not None and (u["box"] in b.land_boxes or (u["box"] in b.sea_boxes and is_naval(u))):
        return u
    if u["box"] is not None and u["box"] in geo_land_boxes(state):
        illegal(order, f"{uid} is in Map Box {u['box']}: no combat or action there but movement", "1.3.5",
                "move it out to an edge hex first")
    if u["box"] is not None or u["hex"] is None:
        illegal(order, f"{uid} is not on the map", "6.0")
    return u


def geo_land_boxes(state: State) -> dict[str, Any]:
    from .geo import board

    return board(state).land_boxes


def do_move(state: State, b: Board, order: Order, faction: str, events: Events, ctx: Any = None) -> None:
    unit = own_unit(state, order, order["unit"], faction, b)
    if is_air(unit):
        illegal(order, "air units move with 'rebase' (USE 6.2.1)", "6.2.1")
    if is_naval(unit):
        from .naval import naval_move

        naval_move(state, b, order, unit, events, ctx)
        return
    if order.get("carry") or order.get("escort"):
        illegal(order, "only a naval unit carries or is escorted ('carry', 'escort')", "6.4.4")
    activate(state, b, order, unit, events)
    was_fort = unit["fort"]
    move_ground(state, b, order, unit, order["path"], events)
    if was_fort and order["path"]:
        unit["fort"] = False


def do_rebase(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """USE 6.2.1 Air Rebase: an air action that moves the unit and adds 1 Sortie."""
    unit = own_unit(state, order, order["unit"], faction, b)
    if not is_air(unit):
        illegal(order, f"{unit['id']} is not an air unit", "6.2.1")
    act = activate(state, b, order, unit, events)
    air_move(state, b, order, unit, order["to"], act["mp"], events)
    end_activation(state, events)


def do_fort(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """USE 1.7.1 / 15.12: a unit ending its activation may occupy a friendly fort in its hex."""
    unit = own_unit(state, order, order["unit"], faction)
    if state["forts"].get(unit["hex"]) != faction or not is_ground(unit):
        illegal(order, f"no friendly fort for {unit['id']} at {unit['hex']}", "15.12")
    act = state["activation"]
    if act is None or act["unit"] != unit["id"]:
        illegal(order, f"{unit['id']} may occupy a fort only when ending its activation", "1.7.1")
    unit["fort"] = True
    events.append({"kind": "fort", "unit": unit["id"], "hex": unit["hex"]})
    end_activation(state, events)


def _defender_at(state: State, order: Order, target: str, faction: str, rule: str) -> Unit:
    d = ground_at(state, target)
    if d is None or not enemies(faction_of(state, d), faction):
        illegal(order, f"no enemy ground unit at {target}", rule)
    ban = politics.may_attack(state, faction, faction_of(state, d) or "")
    if ban:
        illegal(order, ban[1], ban[0])
    return d


def _pay_attack(state: State, b: Board, order: Order, unit: Unit, target: str, faction: str) -> None:
    act = state["activation"]
    assert act is not None
    if not b.adjacent(unit["hex"], target):
        illegal(order, f"{unit['id']} at {unit['hex']} is not adjacent to {target}", "5.3.2")
    if unit["fort"]:
        illegal(order, f"{unit['id']} occupies a fort and cannot attack", "15.12")
    cost = attack_cost(state, b, unit["hex"], target, faction)
    if cost is None:
        illegal(order, f"{unit['id']} cannot attack across that hexside into {target}", "4.2.3")
    if cost > act["mp"]:
        illegal(order, f"attacking {target} costs {cost} MP (terrain + attacking a unit); "
                f"{unit['id']} has {act['mp']}", "5.3.2")
    act["mp"] -= cost
    act["fresh"] = False


def _activate_attacker(state: State, b: Board, order: Order, faction: str, events: Events,
                       role: str, verb: str, what: str, rule: str) -> Unit:
    """The named (or active) ground unit that makes this attack, activated (USE 6.0)."""
    uid = order.get("unit") or (state["activation"] or {}).get("unit")
    if not uid:
        illegal(order, f"name the {role} unit ('{verb} HEX from UNIT')", rule)
    unit = own_unit(state, order, uid, faction)
    if not is_ground(unit):
        illegal(order, f"only ground units make {what}", rule)
    activate(state, b, order, unit, events)
    return unit


def declare_mobile(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """USE 5.3.2 Mobile attack by the active unit against an adjacent enemy not in a fort."""
    unit = _activate_attacker(state, b, order, faction, events, "attacking", "attack", "Mobile attacks", "5.3.2")
    uid = unit["id"]
    if state["activation"]["stopped"]:
        illegal(order, f"{uid} has designated an Assault and ended its movement", "5.3.3")
    if unit["attack_mode"] == "assault":
        illegal(order, f"{uid} designated an Assault this phase and cannot also make a Mobile attack", "5.3.3")
    target = order["target"]
    d = _defender_at(state, order, target, faction, "5.3.2")
    if d["fort"]:
        illegal(order, f"{d['id']} occupies a fort: only an Assault can attack it", "5.3.2")
    _pay_attack(state, b, order, unit, target, faction)
    _open_combat(state, b, order, faction, ctx, events, kind="mobile", target=target, defender=d,
                 attackers=[uid])


def declare_assault(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """USE 5.3.3: place an Assault marker against an adjacent enemy; this ends the unit's movement."""
    unit = _activate_attacker(state, b, order, faction, events, "assaulting", "assault", "Assaults", "5.3.3")
    uid = unit["id"]
    if unit["attack_mode"] == "mobile":
        illegal(order, f"{uid} made a Mobile attack this phase and cannot also Assault", "5.3.3")
    target = order["target"]
    _defender_at(state, order, target, faction, "5.3.3")
    entry = state["assaults"].setdefault(target, {"faction": faction, "units": []})
    if uid in entry["units"]:
        illegal(order, f"{uid} already assaults {target}", "5.3.3")
    if len(entry["units"]) >= MAX_ASSAULTERS:
        illegal(order, f"{target} already has {MAX_ASSAULTERS} assaulting units", "5.3.3")
    _pay_attack(state, b, order, unit, target, faction)
    entry["units"].append(uid)
    unit["attack_mode"] = "assault"
    events.append({"kind": "assault-designated", "unit": uid, "target": target})
    end_activation(state, events)


def declare_resolve(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """USE 5.3.3: resolve a designated Assault (never during an active unit's movement)."""
    end_activation(state, events)
    target = order["target"]
    entry = state["assaults"].get(target)
    if entry is None or entry["faction"] != faction:
        illegal(order, f"no Assault marker of yours points at {target}", "5.3.3",
                "designate it first: 'assault HEX from UNIT'")
    units = [u for u in entry["units"] if state["units"][u]["box"] is None]
    prim = order.get("unit") or units[0]
    if prim not in units:
        illegal(order, f"{prim} is not one of the units assaulting {target}", "5.1")
    d = _defender_at(state, order, target, faction, "5.3.3")
    del state["assaults"][target]
    attackers = [prim] + [u for u in units if u != prim]
    _open_combat(state, b, order, faction, ctx, events, kind="assault", target=target, defender=d,
                 attackers=attackers)


def declare_air_strike(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """USE 6.2.2: an air unit attacks an enemy air or naval unit within 7 hexes."""
    unit = own_unit(state, order, order["unit"], faction)
    if not is_air(unit):
        illegal(order, f"{unit['id']} is not an air unit", "6.2.2")
    activate(state, b, order, unit, events)
    target = order["target"]
    if b.distance(unit["hex"], target) > AIR_STRIKE_RANGE:
        illegal(order, f"{target} is more than {AIR_STRIKE_RANGE} hexes from {unit['id']}", "6.2.2")
    victims = [u for u in units_at(state, target) if not is_ground(u) and enemies(faction_of(state, u), faction)]
    if not victims:
        illegal(order, f"no enemy air or naval unit at {target}", "6.2.2")
    d = sorted(victims, key=lambda u: (u["kind"] != "fighter", u["id"]))[0]
    escorts: list[str] = []
    if order.get("at"):
        # USE 6.2.4 / 6.4.2 / 5.2: a naval unit attacked is escorted by the friendly fighters
        # (and, for a convoy, warships) stacked with it; the strike fights them first.
        aim = state["units"].get(order["at"])
        if aim is None or aim not in victims or not is_naval(aim):
            illegal(order, f"{order['at']} is not an enemy naval unit at {target}", "6.2.2")
        escorts = [u["id"] for u in sorted(victims, key=lambda u: (u["kind"] != "fighter", u["id"]))
                   if u["id"] != aim["id"] and u["sorties"] < 6
                   and (u["kind"] == "fighter" or (aim["kind"] == "convoy" and u["kind"] in ("carrier", "surface")))]
        d = aim
    ban = politics.may_attack(state, faction, faction_of(state, d) or "")
    if ban:
        illegal(order, ban[1], ban[0])
    end_activation(state, events)
    _open_combat(state, b, order, faction, ctx, events, kind="air-strike", target=target, defender=d,
                 attackers=[unit["id"]], extra={"escorts": escorts} if escorts else None)


def _open_combat(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events, *,
                 kind: str, target: str, defender: Unit, attackers: list[str],
                 extra: dict[str, Any] | None = None) -> None:
    d_f = faction_of(state, defender)
    assert d_f is not None
    # DECISION (5.1 step 2): the declaration of the one air unit is sealed together with the
    # Will Commit choice instead of alternating after the reveal; only a committed side's air
    # unit counts when it is opened. Alternating would cost two more emails per combat.
    value = {"commit": bool(order.get("commit")), "air": order.get("air")}
    if ctx.author_mode and value["air"]:
        if not value["commit"]:
            illegal(order, "only a side that Will Commits may add an air unit", "5.1")
        au = state["units"].get(value["air"])
        if (au is None or not is_air(au) or faction_of(state, au) != faction or au["box"] is not None
                or b.distance(au["hex"], target) > AIR_SUPPORT_RANGE or au["sorties"] >= 6):
            illegal(order, f"{value['air']} cannot give Air Support at {target}", "6.2.3",
                    "an air unit of yours within 5 hexes of the defender, under 6 Sorties")
        if au["sm"]:
            illegal(order, f"{value['air']} is marked with Strategic Move and cannot be activated for Air "
                    "Support", "4.1.4")
    state["next_combat"] = state.get("next_combat", 0) + 1
    cid = state["next_combat"]
    ref = ctx.commit("will-commit", value, f"combat {cid} {target}")
    c = {"id": cid, "kind": kind, "attacker": faction, "defender": d_f, "target": target,
         "defender_unit": defender["id"], "attackers": attackers, "ref": ref,
         "status": "await-defender", "def_commit": None, "def_air": None, "retreat": None,
         "advance": order.get("advance", True), "advancer": order.get("advancer"), **(extra or {})}
    state["combats"].append(c)
    events.append({"kind": "attack", "combat": cid, "mode": kind, "target": target,
                   "attackers": attackers, "defender": defender["id"]})
    # Strict dice: the attacker rolls every die of the combat (an air duel and the combat, or
    # one duel per unit an Air Strike fights) in its next file, after the defender's file has
    # released the seeds; unused reserved dice are burnt.
    strictdice.reserve(ctx, 2 * (1 + len(c.get("escorts", []))) if kind == "air-strike" else 4)
    standing = state["standing"].get(d_f, {}).get("will_commit")
    if standing is not None:
        # The defender waived secrecy with a standing order: it writes no answer. In window mode
        # the combat resolves in this file; in strict mode the defender's tool still sends a
        # release-only file (one email, no decision) before the attacker's next file resolves it.
        c["def_commit"] = standing == "yes"
        c["status"] = "await-resolve"
        events.append({"kind": "will-commit", "combat": cid, "side": d_f, "commit": c["def_commit"],
                       "standing": True})
        if not strictdice.strict(ctx):
            resolve_ready(state, b, faction, ctx, events)


def answer(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """The defender's Will Commit (5.1 step 2), plain: the attacker's choice is already sealed.
    DECISION: Will Commit applies to every combat of 5.0 (air strikes too), as 5.1 says; a
    combat the defender's file leaves unanswered stays pending (silence is not a choice)."""
    mine = [c for c in state["combats"] if c["defender"] == faction and c["status"] == "await-defender"]
    target = order.get("target")
    if target is None:
        if len(mine) != 1:
            illegal(order, f"{len(mine)} combats await your Will Commit: name the hex", "5.1")
        c = mine[0]
    else:
        found = [c for c in mine if c["target"] == target]
        if not found:
            illegal(order, f"no combat at {target} awaits your Will Commit", "5.1")
        c = found[0]
    c["def_commit"] = bool(order["commit"])
    if order.get("air"):
        if c["kind"] == "air-strike":
            # 5.1 step 2: "one air unit (ground combat only)"; an Air Strike is an air/naval
            # combat (6.2.2) with no supporting air unit.
            illegal(order, "an Air Strike takes no supporting air unit: air units are declared in ground "
                    "combat only", "5.1", "answer 'will-commit HEX yes|no' without 'air'")
        if not order["commit"]:
            illegal(order, "only a side that Will Commits may add an air unit", "5.1")
        au = state["units"].get(order["air"])
        if (au is None or not is_air(au) or faction_of(state, au) != faction or au["box"] is not None
                or b.distance(au["hex"], c["target"]) > AIR_SUPPORT_RANGE or au["sorties"] >= 6):
            illegal(order, f"{order['air']} cannot give Air Support at {c['target']}", "6.2.3")
        if au["sm"]:
            illegal(order, f"{order['air']} is marked with Strategic Move and cannot be activated for Air "
                    "Support", "4.1.4")
        c["def_air"] = order["air"]
    c["retreat"] = order.get("retreat")
    c["status"] = "await-resolve"
    events.append({"kind": "will-commit", "combat": c["id"], "side": faction, "commit": c["def_commit"]})


def resolve_ready(state: State, b: Board, faction: str, ctx: Any, events: Events) -> None:
    """Open the attacker's commitments and resolve every combat whose answers are in (5.1 3-6)."""
    roll = Roller(ctx)
    while True:
        ready = [c for c in state["combats"] if c["attacker"] == faction and c["status"] == "await-resolve"]
        if not ready:
            return
        c = ready[0]
        state["combats"].remove(c)
        value = ctx.open(c["ref"])
        events.append({"kind": "will-commit", "combat": c["id"], "side": faction,
                       "commit": bool(value.get("commit"))})
        if c["kind"] == "air-strike":
            resolve_air_strike(state, b, c, bool(value.get("commit")), roll, events)
        else:
            resolve_ground(state, b, c, value, roll, events)
