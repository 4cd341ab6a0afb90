"""The Actions Sub-Phase (USE 6.0): activations, Army Operations (6.3.1) with Mobile attacks and
Assaults (5.3.2-5.3.3), air actions (6.2), and the Will Commit exchange of combat (5.1 step 2).

Will Commit, by email: the attacker's choice is committed with ``ctx.commit`` in the file that
declares the attack; the defender answers in its own file (plainly: the attacker's choice is
already sealed); the attacker's next file opens the commitment (the simultaneous reveal). Then,
as 5.1 step 2 is written, the committed sides alternate declaring one air unit each
(``will-commit HEX air UNIT|no-air``, attacker first) and the combat resolves in the
attacker's next file. Game option ``will_commit_air=sealed`` (accepted by every player at join)
seals the air unit with the Will choice instead: two emails fewer per combat
(docs/protocol.md §13). A defender with a standing Will Commit order has waived secrecy (and
declares no air unit), so in window mode the attacker's commitment is opened in the same file and
no email is spent; in strict mode the dice wait for a release-only file of the defender
(strictdice.py).
"""

from __future__ import annotations

from typing import Any

from . import politics, strictdice
from .activation import activate, activation_after, check_activate, end_activation
from .airduel import Roller
from .combat import air_support_ban, resolve_air_strike, resolve_ground
from .geo import Board
from .movement import air_move, attack_cost, check_air_move, move_ground
from .refusals import illegal
from .state import (
    Combat,
    State,
    Unit,
    clone,
    enemies,
    faction_of,
    ground_at,
    hex_of,
    is_air,
    is_ground,
    is_naval,
    on_map,
    units_at,
)

Order = dict[str, Any]
Events = list[dict[str, Any]]
MAX_ASSAULTERS = 3  # USE 5.3.3: up to 3 attacking units against one hex
AIR_STRIKE_RANGE = 7  # USE 6.2.2
GROUND_DICE = 4  # an air duel and the combat, each a die per side (5.1 steps 3 and 5)
AIR_OPTION = "will_commit_air"  # the game option (module.initial_state) and its state key
AIR_MODES = ("as-written", "sealed")  # the first is the default


def air_sealed(state: State) -> bool:
    """Whether the game was created with ``will_commit_air=sealed`` (air unit sealed with the Will)."""
    return state.get("will_commit_air") == "sealed"


def _declares_later(state: State, defender: str) -> bool:
    """As 5.1 step 2 is written, air units are declared after the reveal; a defender with a
    standing Will Commit order has already revealed its choice (and declares none), so the
    attacker names its air unit in the attack order as with the sealed option."""
    st = state["standing"].get(defender)
    return not air_sealed(state) and (st is None or st["will_commit"] is None)


def own_unit(state: State, order: Order, uid: str, faction: str, b: Board | None = None) -> Unit:
    """The named unit of ``faction`` on the map; with ``b``, a unit in a land Map Box also
    qualifies (it may move out, 1.3.5)."""
    u: Unit | None = state["units"].get(uid)
    if u is None:
        illegal(order, f"no unit {uid!r}", "3.2", "unit ids are listed by 'pbem orders template'")
    if faction_of(state, u) != faction:
        illegal(order, f"{uid} is not a {faction} unit", "6.0")
    if b is not None and (u["box"] in b.land_boxes or (u["box"] in b.sea_boxes and (is_naval(u) or is_air(u)))):
        return u
    if u["box"] is not None and u["box"] in geo_land_boxes(state):
        illegal(order, f"{uid} is in Map Box {u['box']}: no combat or action there but movement", "1.3.5",
                "move it out to an edge hex first")
    if not on_map(u):
        illegal(order, f"{uid} is not on the map", "6.0")
    return u


def geo_land_boxes(state: State) -> dict[str, tuple[str, frozenset[str]]]:
    from .geo import board

    return board(state).land_boxes


def check_move(state: State, b: Board, order: Order, faction: str) -> None:
    """Refuse a 'move' before anything changes.

    A ground path is walked on a scratch copy: what a step may do depends on the steps before
    it (a city captured, an enemy air unit displaced, MP spent), so the walk is the check; it
    rolls no die. A naval move is checked as it sails (naval.py): an interception's dice decide
    whether it goes on, so only the file's rollback undoes a refusal there."""
    unit = own_unit(state, order, order["unit"], faction, b)
    if is_air(unit):
        illegal(order, "air units move with 'rebase' (USE 6.2.1)", "6.2.1")
    if is_naval(unit):
        return
    if order.get("carry") or order.get("escort"):
        illegal(order, "only a naval unit carries or is escorted ('carry', 'escort')", "6.4.4")
    check_activate(state, order, unit)
    scratch = clone(state)
    walker = scratch["units"][order["unit"]]
    activate(scratch, b, order, walker, [])
    move_ground(scratch, b, order, walker, order["path"], [])


def do_move(state: State, b: Board, order: Order, faction: str, events: Events, ctx: Any = None) -> None:
    """Checked by ``check_move``."""
    unit = state["units"][order["unit"]]
    if is_naval(unit):
        from .naval import naval_move

        naval_move(state, b, order, unit, events, ctx)
        return
    activate(state, b, order, unit, events)
    was_fort = unit["fort"]
    move_ground(state, b, order, unit, order["path"], events)
    if was_fort and order["path"]:
        unit["fort"] = False


def check_rebase(state: State, b: Board, order: Order, faction: str) -> None:
    unit = own_unit(state, order, order["unit"], faction, b)
    if not is_air(unit):
        illegal(order, f"{unit['id']} is not an air unit", "6.2.1")
    check_activate(state, order, unit)
    check_air_move(state, b, order, unit, order["to"], activation_after(state, unit)[0])


def do_rebase(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """USE 6.2.1 Air Rebase: an air action that moves the unit and adds 1 Sortie (``check_rebase``)."""
    unit = state["units"][order["unit"]]
    act = activate(state, b, order, unit, events)
    air_move(state, b, order, unit, order["to"], act["mp"], events)
    end_activation(state, events)


def check_fort(state: State, order: Order, faction: str) -> None:
    """USE 1.7.1 / 15.12: a unit ending its activation may occupy a friendly fort in its hex."""
    unit = own_unit(state, order, order["unit"], faction)
    if state["forts"].get(hex_of(unit)) != faction or not is_ground(unit):
        illegal(order, f"no friendly fort for {unit['id']} at {unit['hex']}", "15.12")
    act = state["activation"]
    if act is None or act["unit"] != unit["id"]:
        illegal(order, f"{unit['id']} may occupy a fort only when ending its activation", "1.7.1")


def do_fort(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_fort``."""
    unit = state["units"][order["unit"]]
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


def _check_attack_cost(state: State, b: Board, order: Order, unit: Unit, target: str, faction: str,
                       mp: int) -> None:
    """The attacker is adjacent, not in a fort, and has the MP to attack ``target`` (5.3.2)."""
    at = hex_of(unit)
    if not b.adjacent(at, target):
        illegal(order, f"{unit['id']} at {unit['hex']} is not adjacent to {target}", "5.3.2")
    if unit["fort"]:
        illegal(order, f"{unit['id']} occupies a fort and cannot attack", "15.12")
    cost = attack_cost(state, b, at, target, faction)
    if cost is None:
        illegal(order, f"{unit['id']} cannot attack across that hexside into {target}", "4.2.3")
    if cost > mp:
        illegal(order, f"attacking {target} costs {cost} MP (terrain + attacking a unit); "
                f"{unit['id']} has {mp}", "5.3.2")


def _pay_attack(state: State, b: Board, unit: Unit, target: str, faction: str) -> None:
    """Checked by ``_check_attack_cost``."""
    act = state["activation"]
    assert act is not None
    cost = attack_cost(state, b, hex_of(unit), target, faction)
    assert cost is not None
    act["mp"] -= cost
    act["fresh"] = False


def _attacker_id(state: State, order: Order) -> str | None:
    act = state["activation"]
    uid: str | None = order.get("unit") or (act["unit"] if act is not None else None)
    return uid


def _check_attacker(state: State, order: Order, faction: str, role: str, verb: str, what: str,
                    rule: str) -> Unit:
    """The named (or active) ground unit that makes this attack, which may be activated (USE 6.0)."""
    uid = _attacker_id(state, order)
    if not uid:
        illegal(order, f"name the {role} unit ('{verb} HEX from UNIT')", rule)
    unit = own_unit(state, order, uid, faction)
    if not is_ground(unit):
        illegal(order, f"only ground units make {what}", rule)
    check_activate(state, order, unit)
    return unit


def _activate_attacker(state: State, b: Board, order: Order, events: Events) -> Unit:
    uid = _attacker_id(state, order)
    assert uid is not None
    unit = state["units"][uid]
    activate(state, b, order, unit, events)
    return unit


def _check_air(state: State, b: Board, order: Order, commit: bool, uid: str, faction: str, target: str,
               hint: str | None = None) -> None:
    """Only a side that Will Commits may add an air unit (5.1 step 2), one able to give Air Support."""
    if not commit:
        illegal(order, "only a side that Will Commits may add an air unit", "5.1")
    ban = air_support_ban(state, b, uid, faction, target)
    if ban:
        illegal(order, ban[1], ban[0], hint if ban[0] == "6.2.3" else None)


def _check_attacker_air(state: State, b: Board, order: Order, faction: str, ctx: Any) -> None:
    """The attacker's air unit, sealed with its Will Commit: checked by its author only (others
    see the sealed order) and again when the combat resolves. As 5.1 is written it comes after
    the reveal instead (a sealed one is ignored then, ``resolve_ready``)."""
    if ctx.author_mode and order.get("air"):
        d = ground_at(state, order["target"])
        if d is not None and _declares_later(state, faction_of(state, d) or ""):
            illegal(order, "the air unit is declared after both Will Commit choices are revealed", "5.1",
                    f"drop 'air {order['air']}'; declare it when your turn comes: "
                    f"'will-commit {order['target']} air {order['air']}'")
        _check_air(state, b, order, bool(order.get("commit")), order["air"], faction, order["target"],
                   "an air unit of yours within 5 hexes of the defender, under 6 Sorties")


def check_mobile(state: State, b: Board, order: Order, faction: str, ctx: Any) -> None:
    """USE 5.3.2 Mobile attack by the active unit against an adjacent enemy not in a fort."""
    unit = _check_attacker(state, order, faction, "attacking", "attack", "Mobile attacks", "5.3.2")
    uid = unit["id"]
    mp, stopped = activation_after(state, unit)
    if stopped:
        illegal(order, f"{uid} has designated an Assault and ended its movement", "5.3.3")
    if unit["attack_mode"] == "assault":
        illegal(order, f"{uid} designated an Assault this phase and cannot also make a Mobile attack", "5.3.3")
    target = order["target"]
    d = _defender_at(state, order, target, faction, "5.3.2")
    if d["fort"]:
        illegal(order, f"{d['id']} occupies a fort: only an Assault can attack it", "5.3.2")
    _check_attack_cost(state, b, order, unit, target, faction, mp)
    _check_attacker_air(state, b, order, faction, ctx)


def declare_mobile(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_mobile``."""
    unit = _activate_attacker(state, b, order, events)
    target = order["target"]
    d = ground_at(state, target)
    assert d is not None
    _pay_attack(state, b, unit, target, faction)
    _open_combat(state, b, order, faction, ctx, events, kind="mobile", target=target, defender=d,
                 attackers=[unit["id"]])


def check_assault(state: State, b: Board, order: Order, faction: str) -> None:
    """USE 5.3.3: place an Assault marker against an adjacent enemy; this ends the unit's movement."""
    unit = _check_attacker(state, order, faction, "assaulting", "assault", "Assaults", "5.3.3")
    uid = unit["id"]
    if unit["attack_mode"] == "mobile":
        illegal(order, f"{uid} made a Mobile attack this phase and cannot also Assault", "5.3.3")
    target = order["target"]
    _defender_at(state, order, target, faction, "5.3.3")
    entry = state["assaults"].get(target)
    units = entry["units"] if entry is not None else []
    if uid in units:
        illegal(order, f"{uid} already assaults {target}", "5.3.3")
    if len(units) >= MAX_ASSAULTERS:
        illegal(order, f"{target} already has {MAX_ASSAULTERS} assaulting units", "5.3.3")
    _check_attack_cost(state, b, order, unit, target, faction, activation_after(state, unit)[0])


def declare_assault(state: State, b: Board, order: Order, faction: str, events: Events) -> None:
    """Checked by ``check_assault``."""
    unit = _activate_attacker(state, b, order, events)
    uid = unit["id"]
    target = order["target"]
    entry = state["assaults"].setdefault(target, {"faction": faction, "units": []})
    _pay_attack(state, b, unit, target, faction)
    entry["units"].append(uid)
    unit["attack_mode"] = "assault"
    events.append({"kind": "assault-designated", "unit": uid, "target": target})
    end_activation(state, events)


def _assaulters(state: State, order: Order) -> tuple[str, list[str]]:
    """The primary unit named (or the first) and the units of the Assault still on the map."""
    entry = state["assaults"][order["target"]]
    units = [u for u in entry["units"] if on_map(state["units"][u])]
    prim: str = order.get("unit") or units[0]
    return prim, units


def check_resolve(state: State, b: Board, order: Order, faction: str, ctx: Any) -> None:
    """USE 5.3.3: resolve a designated Assault (never during an active unit's movement)."""
    target = order["target"]
    entry = state["assaults"].get(target)
    if entry is None or entry["faction"] != faction:
        illegal(order, f"no Assault marker of yours points at {target}", "5.3.3",
                "designate it first: 'assault HEX from UNIT'")
    prim, units = _assaulters(state, order)
    if prim not in units:
        illegal(order, f"{prim} is not one of the units assaulting {target}", "5.1")
    _defender_at(state, order, target, faction, "5.3.3")
    _check_attacker_air(state, b, order, faction, ctx)


def declare_resolve(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_resolve``."""
    end_activation(state, events)
    target = order["target"]
    prim, units = _assaulters(state, order)
    d = ground_at(state, target)
    assert d is not None
    del state["assaults"][target]
    attackers = [prim] + [u for u in units if u != prim]
    _open_combat(state, b, order, faction, ctx, events, kind="assault", target=target, defender=d,
                 attackers=attackers)


def strike_escorts(victims: list[Unit], aim: Unit) -> list[str]:
    """USE 6.2.4 / 6.4.2 / 5.2: a naval unit attacked is escorted by the friendly fighters (and,
    for a convoy, warships) stacked with it; the strike fights them first, whether the strike
    named its aim (``at``) or fell on the unit by itself (Interpretations 6.2.2: a convoy's
    protection must not depend on how its counter id sorts)."""
    if not is_naval(aim):
        return []
    return [u["id"] for u in sorted(victims, key=lambda u: (u["kind"] != "fighter", u["id"]))
            if u["id"] != aim["id"] and u["sorties"] < 6
            and (u["kind"] == "fighter" or (aim["kind"] == "convoy" and u["kind"] in ("carrier", "surface")))]


def _strike_target(state: State, b: Board, order: Order, unit: Unit, faction: str) -> tuple[Unit, list[str]]:
    """The unit an Air Strike attacks and the escorts it fights first; refuses an illegal strike."""
    target = order["target"]
    if b.distance(hex_of(unit), target) > AIR_STRIKE_RANGE:
        illegal(order, f"{target} is more than {AIR_STRIKE_RANGE} hexes from {unit['id']}", "6.2.2")
    victims = [u for u in units_at(state, target) if not is_ground(u) and enemies(faction_of(state, u), faction)]
    if not victims:
        illegal(order, f"no enemy air or naval unit at {target}", "6.2.2")
    d = sorted(victims, key=lambda u: (u["kind"] != "fighter", u["id"]))[0]
    if order.get("at"):
        aim = state["units"].get(order["at"])
        if aim is None or aim not in victims or not is_naval(aim):
            illegal(order, f"{order['at']} is not an enemy naval unit at {target}", "6.2.2")
        d = aim
    escorts = strike_escorts(victims, d)
    ban = politics.may_attack(state, faction, faction_of(state, d) or "")
    if ban:
        illegal(order, ban[1], ban[0])
    return d, escorts


def check_air_strike(state: State, b: Board, order: Order, faction: str, ctx: Any) -> None:
    """USE 6.2.2: an air unit attacks an enemy air or naval unit within 7 hexes."""
    unit = own_unit(state, order, order["unit"], faction)
    if not is_air(unit):
        illegal(order, f"{unit['id']} is not an air unit", "6.2.2")
    check_activate(state, order, unit)
    _strike_target(state, b, order, unit, faction)
    _check_attacker_air(state, b, order, faction, ctx)


def declare_air_strike(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_air_strike``."""
    unit = state["units"][order["unit"]]
    activate(state, b, order, unit, events)
    d, escorts = _strike_target(state, b, order, unit, faction)
    end_activation(state, events)
    _open_combat(state, b, order, faction, ctx, events, kind="air-strike", target=order["target"], defender=d,
                 attackers=[unit["id"]], escorts=escorts)


def _open_combat(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events, *,
                 kind: str, target: str, defender: Unit, attackers: list[str],
                 escorts: list[str] | None = None) -> None:
    d_f = faction_of(state, defender)
    assert d_f is not None
    # 5.1 step 2: the Will choice is sealed; the air unit is sealed with it only under the game
    # option will_commit_air=sealed (or against a standing order), else declared after the reveal.
    value: dict[str, Any] = {"commit": bool(order.get("commit")), "air": order.get("air")}
    state["next_combat"] += 1
    cid = state["next_combat"]
    ref: str = ctx.commit("will-commit", value, f"combat {cid} {target}")
    c: Combat = {"id": cid, "kind": kind, "attacker": faction, "defender": d_f, "target": target,
         "defender_unit": defender["id"], "attackers": attackers, "ref": ref,
         "status": "await-defender", "def_commit": None, "def_air": None, "retreat": None,
         "advance": order.get("advance", True), "advancer": order.get("advancer")}
    if escorts:
        c["escorts"] = escorts
    st = state["standing"].get(d_f)
    if kind != "air-strike" and _declares_later(state, d_f):
        c["declare"] = True
    state["combats"].append(c)
    events.append({"kind": "attack", "combat": cid, "mode": kind, "target": target,
                   "attackers": attackers, "defender": defender["id"]})
    from .conditional import on_attack

    on_attack(state, b, faction, target, events)  # USE 13.3: the Axis attacks the USSR
    # Strict dice: the attacker rolls every die of the combat (an air duel and the combat, or
    # one duel per unit an Air Strike fights) in its next file, after the defender's file has
    # released the seeds; unused reserved dice are burnt.
    strictdice.reserve(ctx, 2 * (1 + len(escorts or [])) if kind == "air-strike" else GROUND_DICE)
    standing = None if st is None else st["will_commit"]
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


def _combat_for(state: State, order: Order, faction: str, status: str, what: str) -> Combat:
    """The combat a Will Commit order is for: the one named by its hex, or the only one waiting."""
    mine = [c for c in state["combats"] if c["status"] == status
            and (c.get("turn") if status == "declare" else c["defender"]) == faction]
    target = order.get("target")
    if target is None:
        if len(mine) != 1:
            illegal(order, f"{len(mine)} combats await your {what}: name the hex", "5.1")
        return mine[0]
    found = [c for c in mine if c["target"] == target]
    if not found:
        illegal(order, f"no combat at {target} awaits your {what}", "5.1")
    return found[0]


def _answered_combat(state: State, order: Order, faction: str) -> Combat:
    return _combat_for(state, order, faction, "await-defender", "Will Commit")


def check_answer(state: State, b: Board, order: Order, faction: str) -> None:
    """The defender's Will Commit (5.1 step 2), plain: the attacker's choice is already sealed.
    DECISION: Will Commit applies to every combat of 5.0 (air strikes too), as 5.1 says; a
    combat the defender's file leaves unanswered stays pending (silence is not a choice).
    Without yes|no the order is an air unit declaration after the reveal (``check_declare``)."""
    if order.get("commit") is None:
        check_declare(state, b, order, faction)
        return
    c = _answered_combat(state, order, faction)
    if order.get("air"):
        if c["kind"] == "air-strike":
            # 5.1 step 2: "one air unit (ground combat only)"; an Air Strike is an air/naval
            # combat (6.2.2) with no supporting air unit.
            illegal(order, "an Air Strike takes no supporting air unit: air units are declared in ground "
                    "combat only", "5.1", "answer 'will-commit HEX yes|no' without 'air'")
        if c.get("declare"):
            illegal(order, "the air unit is declared after both Will Commit choices are revealed", "5.1",
                    f"answer 'will-commit {c['target']} yes|no' now; when your turn to declare comes: "
                    f"'will-commit {c['target']} air {order['air']}'")
        _check_air(state, b, order, bool(order["commit"]), order["air"], faction, c["target"])


def answer(state: State, b: Board, order: Order, faction: str, events: Events, ctx: Any = None) -> None:
    """Checked by ``check_answer``."""
    if order.get("commit") is None:
        declare(state, b, order, faction, ctx, events)
        return
    c = _answered_combat(state, order, faction)
    c["def_commit"] = bool(order["commit"])
    if order.get("air"):
        c["def_air"] = order["air"]
    c["retreat"] = order.get("retreat")
    c["status"] = "await-resolve"
    events.append({"kind": "will-commit", "combat": c["id"], "side": faction, "commit": c["def_commit"]})


# --- 5.1 step 2 as written: after the reveal the committed sides alternate declaring --------------
# DECISION: the module has no Event marker played in combat (Airdrop and Partisans act where they
# were placed, 14.1/14.10), so a declaration is one air unit or none. The attacker, who initiated
# the combat (5.0), declares first; a side may declare once more only if it passed and the other
# side then declared its air unit; two passes in a row, or a side with its air unit already
# declared, end the alternation. A side with no air unit able to give Air Support (6.2.3, 4.1.4)
# has no choice: it passes without an email, as a step with nothing to do is skipped. The
# attacker's next file rolls the dice: in strict dice each of its files that leaves the combat
# waiting for the defender reserves them (unused ones are burnt, strictdice.py).


def _committed(c: Combat) -> list[str]:
    return ([c["attacker"]] if c.get("att_commit") else []) + ([c["defender"]] if c["def_commit"] else [])


def supporting_air(state: State, b: Board, faction: str, target: str) -> list[str]:
    """The air units ``faction`` could declare for Air Support at ``target`` (sorted ids)."""
    return sorted(uid for uid, u in state["units"].items()
                  if is_air(u) and on_map(u) and not air_support_ban(state, b, uid, faction, target))


def _after(c: Combat, faction: str, air: str | None, passed: bool) -> tuple[str | None, bool]:
    """Who declares after ``faction`` declared ``air`` (None: a pass), or None when it is over."""
    other = next((f for f in _committed(c) if f != faction), None)
    other_air = None if other is None else (c["def_air"] if other == c["defender"] else c.get("att_air"))
    if other is None or other_air is not None or (air is None and passed):
        return None, False
    return other, air is None


def _go_on(state: State, b: Board, c: Combat, turn: str | None, passed: bool, author: str, ctx: Any) -> bool:
    """Hand the declaration to ``turn`` (passing for a side with no choice); False once it is over."""
    while turn is not None and not supporting_air(state, b, turn, c["target"]):
        turn, passed = _after(c, turn, None, passed)
    if turn is None:
        c["status"] = "await-resolve"
        c.pop("turn", None)
        c.pop("passed", None)
        return False
    c["status"], c["turn"], c["passed"] = "declare", turn, passed
    if author == c["attacker"] and turn != author:
        strictdice.reserve(ctx, GROUND_DICE)
    return True


def check_declare(state: State, b: Board, order: Order, faction: str) -> None:
    """A committed side's air unit, or none, when its turn to declare comes (5.1 step 2)."""
    c = _combat_for(state, order, faction, "declare", "air unit declaration")
    if order.get("retreat") and faction != c["defender"]:
        illegal(order, "only the defender chooses a retreat", "5.1")
    if order.get("air"):
        _check_air(state, b, order, True, order["air"], faction, c["target"])


def declare(state: State, b: Board, order: Order, faction: str, ctx: Any, events: Events) -> None:
    """Checked by ``check_declare``."""
    c = _combat_for(state, order, faction, "declare", "air unit declaration")
    air: str | None = order.get("air")
    c["att_air" if faction == c["attacker"] else "def_air"] = air
    if order.get("retreat"):
        c["retreat"] = order["retreat"]
    events.append({"kind": "air-declared", "combat": c["id"], "side": faction, "target": c["target"], "air": air})
    turn, passed = _after(c, faction, air, c.get("passed", False))
    if _go_on(state, b, c, turn, passed, faction, ctx) or faction != c["attacker"]:
        return
    # The attacker closed the declarations: its dice come now (window) or in its next file,
    # once the defender has released them (strict: its choice is signed before it can know them).
    if strictdice.strict(ctx):
        strictdice.reserve(ctx, GROUND_DICE)
    else:
        resolve_ready(state, b, faction, ctx, events)


def resolve_ready(state: State, b: Board, faction: str, ctx: Any, events: Events) -> None:
    """Open the attacker's commitments and resolve every combat whose answers are in (5.1 3-6);
    as 5.1 is written a commitment opened here may first go to the declarations."""
    roll = Roller(ctx)
    while True:
        ready = [c for c in state["combats"] if c["attacker"] == faction and c["status"] == "await-resolve"]
        if not ready:
            return
        c = ready[0]
        if "att_commit" in c:  # revealed in an earlier file; the declarations are over
            value: dict[str, Any] = {"commit": c["att_commit"], "air": c.get("att_air")}
        else:
            value = ctx.open(c["ref"])
            events.append({"kind": "will-commit", "combat": c["id"], "side": faction,
                           "commit": bool(value.get("commit"))})
            if c.get("declare"):
                # an air unit sealed in spite of 5.1 as written (a modified tool) counts for nothing
                value = {"commit": bool(value.get("commit")), "air": None}
                c["att_commit"], c["att_air"] = value["commit"], None
                first = next(iter(_committed(c)), None)
                if _go_on(state, b, c, first, False, faction, ctx):
                    continue
        state["combats"].remove(c)
        if c["kind"] == "air-strike":
            resolve_air_strike(state, b, c, bool(value.get("commit")), roll, events)
        else:
            resolve_ground(state, b, c, value, roll, events)
