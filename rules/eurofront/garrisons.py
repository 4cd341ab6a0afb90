"""SCW 2 Garrisons (and SCW 7B): "Use blank black and red blocks, placed flat, as garrisons.
During Production, garrisons can be built for 1 PP in any controlled, supplied, unengaged hex.
Garrisons are not units: they cannot move, fight, or restrict movement. They simply control
their own hex and exert a ZOC. They are immediately eliminated if an enemy unit enters their hex
(need not stop) unless a friendly unit is also present. Unsupplied Garrisons continue to exist
and control their hex, but lose their ZOC."

A garrison is public (a blank block: nothing to hide): ``public["garrisons"][hex] = {"side",
"unsupplied"}``. Control and ZOC read it through ``state.occupancy``; it never counts as a unit
(no battle, stacking, engagement or supply line of its own); a move entering an enemy
garrison's hex eliminates it (``state.garrisons_entered``, called by every move). Built by a sealed `garrison HEX`
line of the side's `production` file (1 PP), placed when the production is opened.
"""

from __future__ import annotations

from typing import Any

from . import state as st
from .verbs import Env, illegal

COST = 1
RULE = "SCW 2"


def supply_check(env: Env, foe: str, ok: set[str]) -> None:
    """4.36: the enemy's garrisons out of supply keep their hex but lose their ZOC."""
    for h, g in sorted(env.public["garrisons"].items()):
        if g["side"] == foe:
            g["unsupplied"] = h not in ok


def parse_garrison(ln: Any, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()


def check_garrison(env: Env, o: dict[str, Any], seat: str, supplied: set[str]) -> int:
    """SCW 2, 7B: a controlled, supplied, unengaged hex without one; returns its cost."""
    pub, h = env.public, o["hex"]
    if h in pub["garrisons"]:
        raise illegal(o, f"{h} already holds a garrison", RULE)
    if not env.board.enterable(h) or st.control(pub, env.board, h) != seat or st.is_battle(pub, h):
        raise illegal(o, f"{h} is not a hex you control, unengaged", RULE)
    if h not in supplied:
        raise illegal(o, f"{h} is not supplied", RULE)
    return COST


def place(env: Env, o: dict[str, Any]) -> None:
    env.public["garrisons"][o["hex"]] = {"side": env.seat, "unsupplied": False}
    env.ctx.event("garrison-built", side=env.seat, hex=o["hex"])
