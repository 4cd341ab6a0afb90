"""Involuntary overstacking (6.22), e.g. after a Repulse (7.61) sends attackers back.

"Excess units are unsupplied and lose 1 cv in the enemy Supply phase, largest units first
(owner's choice between equals)." Voluntary overstacking is refused at the end of Movement
(6.21, sequence.finish), so a hex over its limit in a Supply Phase is involuntary.

In the enemy's Supply Phase (supply.supply_phase) each of the side's hexes over the limit is
resolved at once when every block of the side there is known publicly (face up, or opened
before: its CV is its opening less its public losses). Otherwise "largest first" depends on
hidden CVs: the hex is marked in public ``overstacked`` and the owner's next file opens its
hidden blocks there (every tool checks each opening and its trail), then the excess is resolved
in public. Ties follow the owner's standing ``losses`` order, then the lowest token (hits.choose).
"""

from __future__ import annotations

from . import hits as hx
from . import state as st
from .verbs import Env, open_block

RULE = "6.22"


def supply_check(env: Env, side: str) -> None:
    """The enemy's Supply Phase: ``side``'s overstacked hexes."""
    pub = env.public
    for h in sorted({b["hex"] for b in pub["blocks"].values() if b["side"] == side}):
        toks = st.blocks_at(pub, h, side)
        excess = len(toks) - st.STACK.get(env.board.terrain[h], 4)
        if excess <= 0:
            continue
        if all(pub["blocks"][t]["opened"] is not None for t in toks):
            resolve(env, h, side, excess)
        else:
            pub.setdefault("overstacked", {})[h] = {"side": side, "excess": excess}
            env.ctx.event("overstacked", hex=h, side=side, excess=excess)


def due(env: Env) -> None:
    """At the start of the owner's next file: open its hidden blocks in marked hexes, resolve."""
    pub = env.public
    marked = pub.get("overstacked", {})
    for h, m in sorted(marked.items()):
        if m["side"] != env.seat:
            continue
        for tok in st.blocks_at(pub, h, env.seat):
            if pub["blocks"][tok]["opened"] is None:
                open_block(env, tok, RULE)
                pub["blocks"][tok]["up"] = False  # known now, but it stands upright as before
        resolve(env, h, env.seat, int(m["excess"]))
        del marked[h]
    if "overstacked" in pub and not marked:
        del pub["overstacked"]


def resolve(env: Env, h: str, side: str, excess: int) -> None:
    pub = env.public
    picked: list[str] = []
    for _ in range(excess):
        pool = [t for t in st.blocks_at(pub, h, side) if t not in picked]
        if not pool:
            break
        picked.append(hx.choose(pub, side, pool))
    for tok in picked:
        b = pub["blocks"][tok]
        if b.get("unsupplied"):
            continue  # already out of supply this Supply Phase: its one step is lost (or spared) there, 10.6
        b["unsupplied"] = True
        env.ctx.event("overstack-loss", block=tok, hex=h)
        hx.lose_step(env, h, tok)
