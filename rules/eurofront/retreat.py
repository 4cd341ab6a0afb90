"""Retreats (6.5): the Rearguard (6.51) and Pursuit Fire (6.52).

``retreat BLOCK HEX..`` (Movement) names the Rearguard of a battle the player leaves with all
its units, and the move it will make. The Rearguard is opened at once (6.52: "the retreating
player must state the speed of his rearguard"; opening its commitment lets every tool check
that speed and the losses it takes) and stays in the battle hex while the player's other units
move. At the end of the Movement Phase it must be the player's last unit there.

Pursuit Fire is then a step of its own, in the pursuing player's next file (``pursuit``): its
units in the battle hex are opened (the number of dice is their CV), each rolls one die per CV
at DF if faster than the Rearguard, SF if as fast, not at all if slower (speeds under the
weather, 12.32), and each hit costs the Rearguard a step, with the hex's terrain and weather
defence (6.52, 7.34). A surviving Rearguard then makes its move; the battle is over and the
pursuers stand upright again. The dice are reserved by the retreating player's file.

An HQ deploying out of a battle as its side's last unit there retreats too (5.21): it stands in
its new hex at once (its Command Range counts from there), is recorded as its own Rearguard
(``deploy``) and takes the Pursuit Fire in the same pursuit step; it cannot mobilize before.
So does an active HQ mobilizing out of a battle as its side's last unit there (5.51: "HQs that
Retreat ... by mobilizing must take immediate Pursuit Fire"): it moves at once, deactivated, and
takes the Pursuit Fire in the pursuit step (recorded as ``deploy`` too: it is not moved again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import hits as hx
from . import state as st
from .verbs import Env, _check_command, _check_hidden, _check_path, _own, illegal, open_block


def check_retreat(env: Env, o: dict[str, Any]) -> None:
    pub = env.public
    b = _own(env, o, "6.51")
    tok, start = o["block"], b["hex"]
    if tok in pub["moved"]:
        raise illegal(o, f"{tok} has already moved this Movement Phase", "6.1")
    if st.enemy(env.seat) not in st.sides_in(pub, start):
        raise illegal(o, f"{tok} is not in a battle: only a retreating battle has a Rearguard", "6.51")
    if any(r["hex"] == start for r in pub["retreats"].values()):
        raise illegal(o, f"the battle at {start} already has its Rearguard", "6.51")
    if tok in pub["hqs"]:
        raise illegal(o, f"{tok} is an active HQ: it moves only by mobilizing (mobilizing out last is its "
                      f"Retreat, with Pursuit Fire: mobilize {tok} HEX..)", "5.51")
    _check_command(env, o, b)
    _check_hidden(env, o)
    _check_path(env, o, start, retreat=True)


def apply_retreat(env: Env, o: dict[str, Any]) -> None:
    pub, tok = env.public, o["block"]
    start = pub["blocks"][tok]["hex"]
    if not pub["blocks"][tok]["up"]:
        open_block(env, tok, "6.52")
    key = st.hexside_key(start, o["path"][0])
    pub["crossed"][key] = pub["crossed"].get(key, 0) + 1  # 6.33: disengaging counts
    if o["supreme"]:
        thq = next(t for t, h in sorted(pub["hqs"].items()) if h["thq"] and h["moves"] > 0
                   and pub["blocks"][t]["side"] == env.seat)
        pub["hqs"][thq]["moves"] -= 1
    pub["moved"].append(tok)
    pub["retreats"][tok] = {"hex": start, "path": list(o["path"]), "order": len(pub["retreats"])}
    env.ctx.event("rearguard", block=tok, hex=start, path=list(o["path"]))


def end_movement(env: Env, o: dict[str, Any] | None) -> None:
    """6.51: a Rearguard is its side's last unit in the battle; the pursuers' dice are then due."""
    pub = env.public
    for tok, r in sorted(pub["retreats"].items()):
        others = [t for t in st.blocks_at(pub, r["hex"], env.seat) if t != tok]
        stay = [t for t in others if t not in pub["moved"]]
        if stay:
            raise illegal(o, f"{tok} is a Rearguard but {', '.join(stay)} stay in the battle at {r['hex']}: "
                          "a Rearguard covers the last units leaving (move it normally instead)", "6.51")
        if others:
            r["attack"] = True  # 6.4: all the old units leave while new ones engage: a Retreat and an Attack
    covered = {r["hex"] for r in pub["retreats"].values()}
    for h, battle in sorted(pub["battles"].items()):
        mine = st.blocks_at(pub, h, env.seat)
        if not battle["new"] and mine and h not in covered and st.is_battle(pub, h) \
                and all(t in pub["moved"] for t in mine):
            raise illegal(o, f"all your units that were in the battle at {h} left it: that is a Retreat (and an "
                          f"Attack by {', '.join(mine)}); name a Rearguard (retreat BLOCK HEX..)", "6.51")
    count = sum(len(st.blocks_at(pub, r["hex"], st.enemy(env.seat))) for r in pub["retreats"].values())
    if count:
        env.ctx.reserve_rolls(count, st.enemy(env.seat))


def speed(kind: str, weather: str) -> int:
    return (1 if kind != "Fort" else 0) if weather == "mud" else st.SPEED[kind]  # 2.2, 12.32


def pursue(env: Env) -> None:
    """6.52: the pursuing player's file (``env.seat``) fires on each Rearguard in the order the
    active (retreating) player named them: "The active player chooses the order of Retreat
    resolution" (an HQ retreating by deploying, named in the Command Phase, comes first)."""
    pub = env.public
    for tok, r in sorted(pub["retreats"].items(), key=lambda kv: (kv[1].get("order", 0), kv[1]["hex"])):
        h = r["hex"]
        for p in st.blocks_at(pub, h, env.seat):
            if not pub["blocks"][p]["up"]:
                open_block(env, p, "6.52")
        hits = 0
        for p in st.blocks_at(pub, h, env.seat):
            hits += _pursuit_fire(env, h, p, tok)
        # 6.52: the hex's terrain and weather defence apply; the Rearguard alone takes the hits
        hx.take_hits(env, h, st.enemy(env.seat), hits, _const(hx.terrain_level(env, h)), _only(tok))
        pub["partial"].pop(h, None)
        for p in st.blocks_at(pub, h, env.seat):
            pub["blocks"][p]["up"] = False
        pub["battles"].pop(h, None)
        if r.get("attack") and st.is_battle(pub, h):
            # 6.4, 7.12: the new units attack: a new battle, their side its Original Attacker, combat mandatory
            pub["battles"][h] = {"attacker": st.enemy(env.seat), "new": True, "assault": False}
            env.ctx.event("battle", hex=h, attacker=st.enemy(env.seat))
        if tok in pub["blocks"] and not r.get("deploy"):  # a deploying HQ stands there already (5.21)
            pub["blocks"][tok]["hex"] = r["path"][-1]
            pub["blocks"][tok]["up"] = False
            if st.v2(pub):  # SCW 2: the Rearguard "completes its move normally" (6.51): garrisons it enters go
                for g in st.garrisons_entered(pub, st.enemy(env.seat), r["path"]):
                    env.ctx.event("garrison-eliminated", side=env.seat, hex=g)
            env.ctx.event("moved", block=tok, path=[h, *r["path"]], engage=False)
        env.ctx.event("battle-over", hex=h)
    pub["retreats"] = {}


def _const(level: int) -> Callable[[str], int]:
    return lambda _tok: level


def _only(tok: str) -> Callable[[], list[str]]:
    return lambda: [tok]


def _pursuit_fire(env: Env, h: str, pursuer: str, rearguard: str) -> int:
    pub = env.public
    if rearguard not in pub["blocks"]:
        return 0
    kind, cv = hx.kind(pub, pursuer), hx.cv(pub, pursuer)
    if kind in ("HQ", "THQ") or cv <= 0:
        return 0  # 2.4: HQs have no firepower
    mine, theirs = speed(kind, pub["weather"]), speed(hx.kind(pub, rearguard), pub["weather"])
    if mine < theirs:
        env.ctx.event("pursuit", block=pursuer, hex=h, firepower="none", dice=[], hits=0)
        return 0
    fp = "DF" if mine > theirs else "SF"
    dice = env.ctx.roll(6, f"pursuit fire {pursuer} at {h}", cv)
    scored = sum(1 for d in dice if d >= (5 if fp == "DF" else 6))
    env.ctx.event("pursuit", block=pursuer, hex=h, firepower=fp, dice=dice, hits=scored)
    return scored
