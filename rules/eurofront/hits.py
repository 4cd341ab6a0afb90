"""Applying hits (7.33-7.35, 2.28), the owner's choice among equals (7.33) and step losses.

Partial hits are counted in twelfths of a step, so that half-hits (Double Defence, 7.34),
third-hits (Triple Defence, 7.35, 2.28) and quarter-hits (Triple Defence made unsupported, 7.4)
share one counter. The unit that took a partial hit takes the next ones until it loses the step
(7.34); what is left at the end of a Combat Round is lost (``end_round``). The counter is
public (``partial``: hex -> side -> {tok, parts}) because the round spans two files (the
airstrike and Defensive Fire in the passive player's file, Offensive Fire in the active's).

The owner's choice between equal units (7.33, 6.22, 7.61 for repulses) is a standing public
order, ``losses BLOCK..`` (verbs: ``losses``): among equal units the first listed is chosen, then
the lowest token. It travels in the owner's own file just before the other side's file that
applies the hits: the active player's ``combat`` file (after its ``battle`` reveals) for
Defensive Fire and repulses, the passive player's ``defence`` file for airstrikes and Offensive
Fire. Only face-up blocks, or blocks in an Active Battle about to be revealed, may be listed, so
the order never ranks hidden blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import fortress
from . import state as st
from .data import SEATS
from .verbs import Env, illegal

PARTS = 12
DOUBLE_TERRAIN = ("forest", "hill", "marsh", "mountain")  # 1.32-1.34
NO_FLOOR = ("HQ", "THQ", "Static")  # 2.4, 2.27: a 0 CV step


def cv(pub: dict[str, Any], tok: str) -> int:
    b = pub["blocks"][tok]
    return int(b["opened"]["cv"]) - int(b["lost"])


def kind(pub: dict[str, Any], tok: str) -> str:
    return str(pub["blocks"][tok]["opened"]["type"])


def terrain_level(env: Env, h: str) -> int:
    """7.34: Double Defence in adverse terrain (1.32-1.34), a major city (1.41) or Mud (12.33)."""
    place = env.board.at.get(h)
    if env.board.terrain[h] in DOUBLE_TERRAIN or env.public["weather"] == "mud":
        return 2
    return 2 if place is not None and place.kind == "major" else 1


def supported(env: Env, h: str, active: str) -> bool:
    """7.4: within the Command Range of one of the active player's active field HQs, as fixed at
    the beginning of the Combat Phase (5.31: an HQ lost in the Combat still supports it)."""
    if not st.v2(env.public):
        return h in st.command_hexes(env.public, env.board, active)  # release 0.1: judged live
    return h in env.public["command"]


def choose(pub: dict[str, Any], side: str, pool: list[str], weakest: bool = False) -> str:
    """The strongest (or, for repulses, the weakest) unit, the owner's choice among equals (7.33,
    7.61); a Fort shares its triple defence only when it is the largest alone (2.28)."""
    best = (min if weakest else max)(cv(pub, t) for t in pool)
    equal = [t for t in pool if cv(pub, t) == best]
    if not weakest and len({kind(pub, t) == "Fort" for t in equal}) == 2:
        equal = [t for t in equal if kind(pub, t) != "Fort"]
    pref = list(pub["losses"].get(side, []))
    return min(equal, key=lambda t: (pref.index(t) if t in pref else len(pref), st.token_key(t)))


def take_hits(env: Env, h: str, side: str, hits: int, level: Callable[[str], int],
              pool: Callable[[], list[str]] | None = None) -> None:
    """Apply ``hits`` to ``side`` in ``h``: each is 12/level twelfths to the unit chosen (7.33), or to
    the unit already holding a partial hit (7.34); ``level(tok)`` is 1 for full losses."""
    pub = env.public
    store = pub["partial"].setdefault(h, {})
    for _ in range(hits):
        alive = pool() if pool is not None else st.blocks_at(pub, h, side)
        if not alive:
            break
        pend = store.get(side)
        if pend is None or pend["tok"] not in alive:
            pend = {"tok": choose(pub, side, alive), "parts": 0}
        pend["parts"] += PARTS // level(pend["tok"])
        store[side] = pend
        if pend["parts"] >= PARTS:
            del store[side]
            lose_step(env, h, pend["tok"])
    if not store:
        del pub["partial"][h]


def passive_level(env: Env, h: str, active: str) -> Callable[[str], int]:
    """The passive units' defence (7.34, 7.35, 2.28), raised one level if unsupported (7.4, 13.24)."""
    base = fortress.level(env.public, h, st.enemy(active), terrain_level(env, h))  # 7.5, 7.51
    raise_by = 0 if supported(env, h, active) else 1

    def level(tok: str) -> int:
        lvl = base
        if kind(env.public, tok) == "Fort":
            lvl = 3  # 2.28: a Fort largest in the battle absorbs 3 hits a step
        return min(lvl + raise_by, 4)
    return level


def lose_step(env: Env, h: str, tok: str) -> None:
    """One step (2.6); a unit below its last step is gone (HQs and Static keep a 0 CV step, 2.4, 2.27)."""
    pub = env.public
    b = pub["blocks"][tok]
    floor = 0 if b["opened"]["type"] in NO_FLOOR else 1
    if cv(pub, tok) - 1 < floor:
        st.bury(pub, tok, pub["blocks"].pop(tok))
        env.ctx.event("eliminated", block=tok, unit=b["opened"]["unit"], hex=h)
    else:
        b["lost"] += 1
        env.ctx.event("hit", block=tok, cv=cv(pub, tok), hex=h)


def end_round(env: Env, h: str) -> None:
    """7.34: partial hits left at the end of a Combat Round are lost; 2.27, 7.22: a 0 CV Static
    unit engaged alone is eliminated."""
    pub = env.public
    pub["partial"].pop(h, None)
    if not st.is_battle(pub, h):
        return
    for side in SEATS:
        mine = st.blocks_at(pub, h, side)
        if len(mine) == 1 and kind(pub, mine[0]) == "Static" and cv(pub, mine[0]) <= 0:
            b = pub["blocks"].pop(mine[0])
            st.bury(pub, mine[0], b)
            env.ctx.event("eliminated", block=mine[0], unit=b["opened"]["unit"], hex=h, why="0 CV Static alone")


def parse_losses(ln: Any, o: dict[str, Any]) -> None:
    o["blocks"] = [ln.block()]
    while ln.more():
        o["blocks"].append(ln.block())


def check_losses(env: Env, o: dict[str, Any]) -> None:
    """7.33: the owner's standing choice among equal units; it may rank only blocks that are face
    up or about to be revealed in an Active Battle, so it tells nothing about hidden blocks."""
    pub = env.public
    for tok in o["blocks"]:
        b = pub["blocks"].get(tok)
        if b is None or b["side"] != env.seat:
            raise illegal(o, f"{tok} is not one of your blocks", "7.33")
        if not b["up"] and b["hex"] not in pub["active_battles"]:
            raise illegal(o, f"{tok} is hidden: the choice of losses ranks face-up blocks only", "7.33")
    if len(set(o["blocks"])) != len(o["blocks"]):
        raise illegal(o, "a block is listed twice", "7.33")


def apply_losses(env: Env, o: dict[str, Any]) -> None:
    env.public["losses"][env.seat] = list(o["blocks"])
