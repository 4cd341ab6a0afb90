"""Combat resolution (USE 5.1-5.3): DRMs, dice, the CRT, results, retreat, advance, air combat.

A combat is declared in actions.py and waits in ``state['combats']`` for both Will Commit
choices (5.1 step 2); once both are known, ``resolve`` runs steps 3-6 here.
"""

from __future__ import annotations

from typing import Any

from . import eventplay, landing, politics, seamarks
from .airduel import DRM_CAP, Roller, air_duel, boost, cap, final_value, harsh
from .geo import Board, terrain_chart
from .islands import island_fort
from .movement import displace, enter_hex
from .sideweather import weather_for
from .state import (
    Combat,
    State,
    Unit,
    add_sorties,
    enemies,
    faction_of,
    ground_at,
    hex_of,
    is_ground,
    on_map,
    units_at,
)
from .tables import authored, crt
from .will import change_will, eliminate, step_loss
from .zoc import in_ezoc

Events = list[dict[str, Any]]


def crt_result(att_final: int, def_final: int) -> str:
    """USE 5.1 step 6: cross-reference the attacker's final result with the defender's."""
    diff = att_final - def_final
    for band in crt()["band"]:
        if band["min"] <= diff <= band["max"]:
            r: str = band["result"]
            return r
    raise AssertionError(f"CRT has no band for {diff}")


# --- retreat --------------------------------------------------------------


def retreat_hexes(state: State, b: Board, unit: Unit, attacker_hexes: list[str]) -> list[str]:
    """USE 5.3.5 / 5.3.5.1: legal retreat hexes, sorted."""
    faction = faction_of(state, unit)
    assert faction is not None
    h0 = hex_of(unit)
    out = []
    for n in b.neighbours(h0):
        if b.ground_prohibited(n) or b.side_prohibited(h0, n):
            continue
        # The one-hex gap: the retreat hex may not be (or be adjacent to) an attacker's hex,
        # "gap not required ... across Prohibited hexsides".
        if any(n == a or (b.adjacent(n, a) and not b.side_prohibited(n, a)) for a in attacker_hexes):
            continue
        if politics.entry_ban(state, b, unit, n, "retreat"):
            continue
        if b.city(n) is not None and enemies(state["control"].get(n), faction):
            continue
        if enemies(state["forts"].get(n), faction):
            continue
        if ground_at(state, n) is not None:
            continue  # stacking (3.3); an enemy ground unit bars the hex here too
        # A lone enemy air or naval unit does not bar it: 5.3.5 lists only enemy city, fort and
        # EZOC, and 3.3 has the retreating unit displace it (4.2.3.7, ``_retreat``).
        friendly_place = ((b.city(n) is not None and state["control"].get(n) == faction)
                          or state["forts"].get(n) == faction)
        if in_ezoc(state, b, n, faction) and not friendly_place:
            continue
        out.append(n)
    return sorted(out)


def isolated(state: State, b: Board, unit: Unit, attacker_hexes: list[str]) -> bool:
    """USE 5.3.x Isolated Defender: no eligible retreat hex and not adjacent (across
    non-prohibited hexsides) to a friendly city, fort or ground unit."""
    if retreat_hexes(state, b, unit, attacker_hexes) or island_fort(state, b, unit):
        return False  # 5.3: "[Exception: Island fort defender is not Isolated]"
    faction = faction_of(state, unit)
    h0 = hex_of(unit)
    for n in b.neighbours(h0):
        if b.side_prohibited(h0, n):
            continue
        if b.city(n) is not None and state["control"].get(n) == faction:
            return False
        if state["forts"].get(n) == faction:
            return False
        g = ground_at(state, n)
        if g is not None and faction_of(state, g) == faction:
            return False
    return True


def choose_retreat(state: State, b: Board, unit: Unit, options: list[str], wanted: str | None) -> str:
    """DECISION: the defender's named hex if legal; else the hex nearest its standing
    'retreat-toward' hex; else nearest its capital; ties by lowest hex id (rules-gaps 15)."""
    if wanted in options:
        return wanted
    faction = faction_of(state, unit) or ""
    st = state["standing"].get(faction)
    goal = (st["retreat_toward"] if st is not None else None) or b.capital_hex(unit["country"])
    if goal:
        return min(options, key=lambda h: (b.distance(h, goal), h))
    return options[0]


# --- air combat -------------------------------------------------------------


def resolve_air_strike(state: State, b: Board, c: Combat, att_commit: bool, roll: Roller,
                       events: Events) -> None:
    """USE 6.2.2 Air Strike against an enemy air/naval unit: an air/naval combat."""
    att = state["units"][c["attackers"][0]]
    dfn = state["units"][c["defender_unit"]]
    if not on_map(dfn) or not on_map(att):
        events.append({"kind": "combat-void", "target": c["target"]})
        return
    margin = authored()["air_combat"]["eliminate_margin"]
    # USE 5.2 / 6.2.4: escorts are attacked first; if one is not beaten, or the attacker
    # reaches 6 Sorties, the strike stops there. DECISION: every unit the strike fights is
    # attacked by it (the elimination margin applies to each); the last combat decides Will Commit.
    winner = "att"
    for eid in [*c.get("escorts", []), dfn["id"]]:
        foe = state["units"][eid]
        if not on_map(foe) or foe["hex"] != c["target"]:
            continue
        if eid == dfn["id"] or foe["sorties"] < 6:
            # authored: a committed side's +1 (authored.toml [will_commit]) in the games that have it
            bonus = (att_commit, bool(c["def_commit"])) if state.get("air_commit_drm") else (False, False)
            winner = air_duel(state, b, att, foe, c["target"], roll, events, commit=bonus)
            last = events[-1]
            if winner == "att" and last["att_final"] - last["def_final"] >= margin:
                eliminate(state, foe, events, cause="combat", b=b)
            if eid != dfn["id"] and (winner != "att" or att["sorties"] >= 6):
                events.append({"kind": "escort-held", "escort": eid, "target": dfn["id"]})
                break
    _will_commit_effect(state, b, c, att_commit, {"att": "attacker", "def": "defender"}.get(winner, "none"),
                        att["country"], dfn["country"], events)


# --- ground combat ---------------------------------------------------------


def _will_commit_effect(state: State, b: Board, c: Combat, att_commit: bool, winner: str,
                        att_country: str, def_country: str, events: Events) -> None:
    """Authored (rules-gaps item 2): a committed side that loses the combat loses National Will."""
    tab = authored()["will_commit"]
    for side, committed, country in (("attacker", att_commit, att_country),
                                     ("defender", bool(c["def_commit"]), def_country)):
        if not committed:
            continue
        delta = tab["draw"] if winner == "none" else tab["win"] if winner == side else tab["lose"]
        change_will(state, b, country, int(delta), "Will Commit", events)


AIR_SUPPORT_RANGE = 5  # USE 6.2.3


def air_support_ban(state: State, b: Board, uid: str, faction: str, target: str) -> tuple[str, str] | None:
    """Why ``uid`` may not give ``faction`` Air Support against ``target``, as (rule, reason), or
    None: USE 6.2.3, an air unit of the side on the map within 5 hexes of the defending unit,
    under 6 Sorties; 4.1.4, not marked with Strategic Move. Checked when the air unit is
    declared (actions.py) and again when the combat resolves."""
    u = state["units"].get(uid)
    if (u is None or u["kind"] not in ("fighter", "bomber") or faction_of(state, u) != faction
            or not on_map(u) or b.distance(hex_of(u), target) > AIR_SUPPORT_RANGE or u["sorties"] >= 6):
        return "6.2.3", f"{uid} cannot give Air Support at {target}"
    if u["sm"]:
        return "4.1.4", f"{uid} is marked with Strategic Move and cannot be activated for Air Support"
    return None


def _valid_air(state: State, b: Board, uid: str | None, faction: str, target: str) -> Unit | None:
    """The air unit supporting a side, if it still may when the combat resolves."""
    if not uid or air_support_ban(state, b, uid, faction, target):
        return None
    u: Unit = state["units"][uid]
    return u


def resolve_ground(state: State, b: Board, c: Combat, att_value: dict[str, Any], roll: Roller,
                   events: Events) -> None:
    """USE 5.1 steps 3-6 and 5.3 for a Mobile attack or an Assault."""
    target = c["target"]
    dfn = state["units"].get(c["defender_unit"])
    by_sea = seamarks.from_sea(state, c)  # USE 6.3.2: an Assault from the sea (amphib.py)
    attackers = [state["units"][u] for u in c["attackers"]
                 if on_map(state["units"][u]) and (by_sea or b.adjacent(hex_of(state["units"][u]), target))]
    if dfn is None or not on_map(dfn) or dfn["hex"] != target or not attackers:
        events.append({"kind": "combat-void", "target": target})
        if by_sea:
            landing.after_assault(state, b, c, by_sea, events)
        return
    prim = attackers[0]
    att_commit = bool(att_value.get("commit"))
    def_commit = bool(c["def_commit"])
    # USE 11.0 / 15.23: each side reads its own weather (sideweather.py)
    w = {"att": weather_for(state, b, target, c["attacker"]), "def": weather_for(state, b, target, c["defender"])}
    att_hexes = [hex_of(u) for u in attackers]
    air_drm = _air_support(state, b, c, att_value.get("air") if att_commit else None,
                           c["def_air"] if def_commit else None, w, roll, events)
    a_parts, d_parts, iso = _drm_parts(state, b, c, attackers, dfn, w, air_drm, att_commit, def_commit)
    eventplay.ground(state, b, c, attackers, dfn, {k: boost(v) for k, v in w.items()}, a_parts, d_parts,
                     events, (att_commit, def_commit))  # USE 14.x, 5.1 step 2
    seamarks.ground(state, b, c, a_parts)  # USE 14.17: Surprise Attack in a land hex
    a_drm = cap(sum(a_parts.values()))
    d_drm = cap(sum(d_parts.values()))

    # Step 5: dice. DECISION: halvings do not stack; a value is halved once at most.
    a_die = roll.d6(f"combat {target} attacker")
    d_die = roll.d6(f"combat {target} defender")
    a_halve = dfn["fort"] or prim["supply"] == "no" or w["att"] == "severe"
    d_halve = dfn["supply"] == "no" or w["def"] == "severe"
    a_fin = final_value(a_die, a_drm, a_halve)
    d_fin = final_value(d_die, d_drm, d_halve)
    result = crt_result(a_fin, d_fin)
    events.append({"kind": "combat", "target": target, "mode": c["kind"], "attackers": [u["id"] for u in attackers],
                   "defender": dfn["id"], "att_side": c["attacker"], "def_side": c["defender"],
                   "att_commit": att_commit, "def_commit": def_commit,
                   "att_drm": a_drm, "def_drm": d_drm, "att_parts": a_parts, "def_parts": d_parts,
                   "att_die": a_die, "def_die": d_die, "att_final": a_fin, "def_final": d_fin,
                   "result": result, "isolated": iso})
    _apply_result(state, b, c, crt()["results"][result], attackers, dfn, att_hexes, att_commit, events)
    _advance(state, b, c, prim, dfn, events)
    if by_sea:
        landing.after_assault(state, b, c, by_sea, events)


def _air_support(state: State, b: Board, c: Combat, a_uid: str | None, d_uid: str | None, w: dict[str, str],
                 roll: Roller, events: Events) -> dict[str, int]:
    """5.1 steps 2-3: only a committed side may add an air unit (``a_uid``/``d_uid`` are None
    otherwise); two air units fight first. The air support DRM of each side."""
    target = c["target"]
    a_air = _valid_air(state, b, a_uid, c["attacker"], target) if a_uid is not None else None
    d_air = _valid_air(state, b, d_uid, c["defender"], target) if d_uid is not None else None
    air_drm = {"att": 0, "def": 0}
    if a_air and d_air:
        win = air_duel(state, b, a_air, d_air, target, roll, events)
        if win in ("att", "def"):
            air_drm[win] = boost(w[win])
    else:
        for side, u in (("att", a_air), ("def", d_air)):
            if u:
                air_drm[side] = boost(w[side])
                add_sorties(u, 1)  # USE 6.2.3: 1 Sortie if no air combat was fought
    return air_drm


def tank_like(u: Unit) -> bool:
    """A unit that brings the Tank DRM (3.2, 11.0): a Tank, or a Shock unit (14.18, DECISION)."""
    return u["kind"] == "tank" or bool(u.get("shock"))


def _drm_parts(state: State, b: Board, c: Combat, attackers: list[Unit], dfn: Unit, w: dict[str, str],
               air_drm: dict[str, int], att_commit: bool, def_commit: bool
               ) -> tuple[dict[str, int], dict[str, int], bool]:
    """Step 4: each side's DRMs by cause, and whether the defender is Isolated."""
    target = c["target"]
    prim = attackers[0]
    tab = authored()
    chart = terrain_chart()
    a_parts: dict[str, int] = {}
    d_parts: dict[str, int] = {}
    if prim["elite"]:
        a_parts["elite"] = 1
    if dfn["elite"]:
        d_parts["elite"] = 1
    # DECISION: a side gets the Tank DRM when any of its units in the combat is a Tank or a
    # Shock unit (14.18 bars the Tanks marker from Shock units: they already count as Tanks);
    # an attacker never gets it against terrain the chart marks tank_drm = false.
    tank_ok = chart.terrain[b.terrain[target]].tank_drm
    if tank_ok and any(tank_like(u) for u in attackers) and boost(w["att"]):
        a_parts["tank"] = boost(w["att"])
    if tank_like(dfn) and boost(w["def"]):
        d_parts["tank"] = boost(w["def"])
    if len(attackers) > 1:
        a_parts["additional attackers"] = tab["combat_drm"]["additional_attacker"] * (len(attackers) - 1)
    if prim["supply"] != "full":
        a_parts["supply"] = -2  # USE 7.1
    if dfn["supply"] != "full":
        d_parts["supply"] = -2
    if harsh(w["att"]):
        a_parts[f"{w['att']} weather"] = -2  # USE 11.0 (Severe includes it: see harsh)
    if att_commit:
        a_parts["will commit"] = tab["will_commit"]["drm"]
    if def_commit:
        d_parts["will commit"] = tab["will_commit"]["drm"]
    if air_drm["att"]:
        a_parts["air support"] = air_drm["att"]
    if air_drm["def"]:
        d_parts["air support"] = air_drm["def"]
    terr = chart.terrain[b.terrain[target]].defender_drm
    # Terrain chart: a hexside DRM counts only when EVERY attacker attacks across such a hexside.
    shared = frozenset.intersection(*(b.side(hex_of(u), target) for u in attackers))
    side_drm = max((chart.hexsides[f].defender_drm for f in shared if f in chart.hexsides), default=0)
    if terr or side_drm:
        d_parts["terrain"] = terr + side_drm
    city = b.city(target)
    if city is not None:
        d_parts["city"] = chart.capital_defender_drm if city.capital else chart.city_defender_drm
    if target in state["markers"]["airdrop"] or target in state["markers"]["partisans"]:
        d_parts["airdrop/partisans"] = -2  # USE 6.1.1 / 6.1.4
    iso = isolated(state, b, dfn, [hex_of(u) for u in attackers])
    if iso:
        d_parts["isolated"] = tab["combat_drm"]["isolated_defender"]
    return a_parts, d_parts, iso


def _apply_result(state: State, b: Board, c: Combat, spec: dict[str, Any], attackers: list[Unit], dfn: Unit,
                  att_hexes: list[str], att_commit: bool, events: Events) -> None:
    """Step 6: losses, retreat, the Will Commit effect; the attackers' attack mode is spent."""
    prim = attackers[0]
    if spec.get("attacker_step"):
        step_loss(state, prim, events, cause="combat", b=b)
    if spec.get("eliminate"):
        eliminate(state, dfn, events, cause="combat", b=b)
    elif spec.get("defender_step"):
        step_loss(state, dfn, events, cause="combat", b=b)
    if spec.get("retreat") and on_map(dfn):
        _retreat(state, b, dfn, att_hexes, c, events)
    _will_commit_effect(state, b, c, att_commit, spec["winner"], prim["country"], dfn["country"], events)
    for u in attackers:
        u["attack_mode"] = c["kind"]


def _advance(state: State, b: Board, c: Combat, prim: Unit, dfn: Unit, events: Events) -> None:
    """5.3.7 Advance after Combat and 15.17 No EZOC."""
    target = c["target"]
    vacated = not on_map(dfn) or dfn["hex"] != target
    act = state["activation"]
    if c["kind"] == "mobile" and not on_map(dfn) and act is not None:
        act["no_ezoc"].append(target)
    # USE 5.3.7 "attacker may advance": the attacker named to advance does so even when the
    # primary attacker was lost (an EX eliminating a reduced primary).
    mover = prim
    if c["advancer"] and c["advancer"] in c["attackers"]:
        mover = state["units"][c["advancer"]]
    if vacated and c["advance"] and ground_at(state, target) is None:
        if (on_map(mover) and not politics.entry_ban(state, b, mover, target, "move")
                and not politics.overseas_ban(state, b, mover, target)):  # USE 13.1
            src = mover["hex"]
            enter_hex(state, b, mover, target, events)
            events.append({"kind": "advance", "unit": mover["id"], "from": src, "to": target})


def _retreat(state: State, b: Board, dfn: Unit, att_hexes: list[str], c: Combat,
             events: Events) -> None:
    """USE 5.3.5 and 15.12: retreat one hex, or lose a step where the rules allow or demand."""
    wanted = c["retreat"]
    # DECISION: unless the defender said otherwise, a full-strength unit keeps its fort (takes
    # the step) and a reduced one retreats (the step would eliminate it).
    if dfn["fort"] and (wanted == "stay" or (wanted is None and not dfn["reduced"])):
        # USE 15.12: a defender under a fort may take a strength loss instead of retreating.
        step_loss(state, dfn, events, cause="combat", b=b)
        return
    if landing.evacuate_on_retreat(state, b, dfn, events):  # USE 14.8: the UK leaves by sea instead
        return
    options = retreat_hexes(state, b, dfn, att_hexes)
    if not options:
        # USE 5.3.5: a reduced unit unable to retreat is eliminated, a full one flips.
        step_loss(state, dfn, events, cause="retreat", b=b)
        return
    dest = choose_retreat(state, b, dfn, options, wanted)
    src = dfn["hex"]
    for other in list(units_at(state, dest)):
        if enemies(faction_of(state, other), faction_of(state, dfn)):
            displace(state, b, other, events)  # USE 3.3 / 4.2.3.7: the enemy air/naval unit moves away
    dfn["hex"] = dest
    dfn["fort"] = False
    events.append({"kind": "retreat", "unit": dfn["id"], "from": src, "to": dest})
    if b.city(dest) is not None and state["control"].get(dest) != faction_of(state, dfn):
        from .will import capture_city

        capture_city(state, b, dest, faction_of(state, dfn) or "", events)
    from .entry import entered

    entered(state, b, dfn, dest, events, None, src)  # 13.3, 13.4, 13.6-13.8: a retreat enters a hex too


__all__ = ["DRM_CAP", "Roller", "cap", "crt_result", "final_value", "is_ground", "resolve_air_strike",
           "resolve_ground"]
