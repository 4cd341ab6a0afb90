"""The Joint Tactical Air War turn (68.1 A): sealed commitments by all three, opened together,
then air combat ([WiE-base 13.2]) and three-player superiority (70.0, 70.1).

A seat's ``air-commit`` file carries its missions (``air [SIDE] FRONT MISSION POINTS [vs SIDE]``)
only in its sealed part: the engine commits to them (``ctx.commit``) and the public orders
show nothing of them, not even how many lines there were. Each seat's ``air-open`` file opens
its own commitment (``ctx.open``); every tool then checks the opened missions against the
pools, and the last opening resolves the air combat with public dice. One round of
commitments and one of openings: 2 x seats files (docs: rules/wie/README.md).
"""

from __future__ import annotations

from typing import Any

from .data import FRONTS, SIDES
from .diplomacy import refuse
from .special import check_target
from .state import hostile, scenario_data

MISSIONS = ("superiority", "support", "interdiction", "port", "air-sea")
OTHER = ("support", "interdiction", "port", "air-sea")  # the order superiority excess hits them
# The most dice one air war can roll: per front, 2 piles x 2 dice, 2 unattacked groups x 2
# targets, 3 superiority attacks.
MAX_ROLLS = 3 * (4 + 4 + 3)


def initial_pools(tables: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Air points by side and front from 76.26 (tables.toml [availability]); Axis Intercept
    points are strategic only ([WiE-base 13.1]) and dead points are not in play."""
    out: dict[str, dict[str, int]] = {}
    for side in SIDES:
        have = tables.get("availability", {}).get(side, {}).get("air_points", {})
        out[side] = {}
        for front in FRONTS:
            v = have.get(front, 0)
            out[side][front] = sum(v.values()) if isinstance(v, dict) else int(v)
    return out


def check_commitment(state: Any, seat: str, alloc: list[list[Any]], rule: str = "68.1") -> None:
    """Every entry a side of ``seat``, a front, a mission, points within the pool (68.1 A: "All
    Players commit their available Air Points"); superiority ``vs`` only a hostile side (70.1)."""
    used: dict[tuple[str, str], int] = {}
    for side, front, mission, points, vs in alloc:
        if side not in state["seats"][seat] or front not in FRONTS or mission not in MISSIONS:
            refuse(None, f"air commitment: {side} {front} {mission} is not yours to commit", rule)
        if vs and mission == "port":
            check_target(state, side, front, vs, None)  # 68.1 A: the mission's port
        elif vs and (mission != "superiority" or not hostile(state, side, vs)):
            refuse(None, f"air commitment: {side}'s {mission} points cannot be set against {vs} "
                   "(only superiority points, only against a hostile player)", "70.1")
        used[(side, front)] = used.get((side, front), 0) + int(points)
    for (side, front), n in sorted(used.items()):
        pool = int(state["air_points"][side][front])
        if n > pool:
            refuse(None, f"air commitment: {side} commits {n} points on the {front} front, has {pool}", rule)


def _missions(opened: dict[str, Any], front: str) -> dict[str, dict[str, int]]:
    """side -> mission -> points on ``front``, from every opened commitment."""
    out: dict[str, dict[str, int]] = {}
    for alloc in opened.values():
        for side, f, mission, points, _vs in alloc:
            if f == front:
                m = out.setdefault(side, {})
                m[mission] = m.get(mission, 0) + int(points)
    return out


def _piles(opened: dict[str, Any], front: str, side: str, opps: list[str], total: int) -> dict[str, int]:
    """The strongest player's split (70.0): its ``vs`` piles; the rest split evenly, the
    remainder to the first opponent in the formal order (an interpretation: no file of his
    can split after seeing the others' points without a third email round)."""
    piles = {o: 0 for o in opps}
    for alloc in opened.values():
        for s, f, mission, points, vs in alloc:
            if s == side and f == front and mission == "superiority" and vs in piles:
                piles[vs] += int(points)
    rest = total - sum(piles.values())
    if rest > 0 and opps:
        for i, o in enumerate(opps):
            piles[o] += rest // len(opps) + (1 if i < rest % len(opps) else 0)
    return piles


def resolve(state: Any, ctx: Any) -> None:
    """Air combat on every front once all commitments are open (68.1 A, 70.0)."""
    div = {int(k): int(v) for k, v in scenario_data(state).tables["air_combat"]["divisor"].items()}
    results: dict[str, Any] = {}
    for front in FRONTS:
        missions = _missions(state["air"]["opened"], front)
        if missions:
            results[front] = _front(state, ctx, front, missions, div)
    state["air"]["results"] = results


def _roll(ctx: Any, div: dict[int, int], points: int, why: str) -> tuple[int, int]:
    (d,) = ctx.roll(6, why)
    return d, points // div[d]


def _front(state: Any, ctx: Any, front: str, missions: dict[str, dict[str, int]],
           div: dict[int, int]) -> dict[str, Any]:
    sup = {s: missions[s].get("superiority", 0) for s in SIDES if s in missions}
    loss = {s: 0 for s in sup}
    fighters = [s for s in SIDES if sup.get(s, 0) > 0]
    engaged = {s: 0 for s in sup}
    if fighters:
        strong = max(fighters, key=lambda s: (sup[s], -SIDES.index(s)))
        opps = [o for o in fighters if o != strong and hostile(state, strong, o)]
        if opps:
            engaged[strong] = sup[strong]
            for o, pile in _piles(state["air"]["opened"], front, strong, opps, sup[strong]).items():
                if pile <= 0:
                    continue
                d1, l1 = _roll(ctx, div, pile, f"air {front}: {strong} attacks {o}")
                engaged[o] = min(sup[o], pile)
                d2, l2 = _roll(ctx, div, engaged[o], f"air {front}: {o} counter-attacks {strong}")
                loss[o] += l1
                loss[strong] += l2
                ctx.event("air-combat", front=front, attacker=strong, defender=o, points=pile, die=d1, loss=l1,
                          counter=engaged[o], counter_die=d2, counter_loss=l2)
        # 70.0: unattacked points attack afterwards, the stronger survivor first; no counter-attack.
        for s in sorted(fighters, key=lambda s: (-(sup[s] - loss[s]), SIDES.index(s))):
            free = sup[s] - engaged[s]
            targets = [o for o in fighters if o != s and hostile(state, s, o)]
            if free <= 0 or not targets:
                continue
            engaged[s] = sup[s]
            for i, o in enumerate(targets):
                pile = free // len(targets) + (1 if i < free % len(targets) else 0)
                if pile:
                    d, lo = _roll(ctx, div, pile, f"air {front}: {s} attacks {o}")
                    loss[o] += lo
                    ctx.event("air-combat", front=front, attacker=s, defender=o, points=pile, die=d, loss=lo)
    left = {s: {m: p for m, p in missions[s].items()} for s in missions}
    for s, lo in loss.items():
        left[s]["superiority"] = max(0, sup[s] - lo)
    _superiority(state, ctx, front, left, div)
    for s in left:
        lost = sum(missions[s].values()) - sum(left[s].values())
        state["air_points"][s][front] = max(0, int(state["air_points"][s][front]) - lost)
    return {s: dict(sorted(m.items())) for s, m in sorted(left.items())}


def _superiority(state: Any, ctx: Any, front: str, left: dict[str, dict[str, int]], div: dict[int, int]) -> None:
    """More than twice an opponent's surviving superiority points: the excess over 200% attacks his
    other missions ([WiE-base 13.2], 70.0), strongest first, then the second over the weakest."""
    ranked = sorted(left, key=lambda s: (-left[s].get("superiority", 0), SIDES.index(s)))
    for i, s in enumerate(ranked):
        for w in ranked[i + 1:]:
            mine, theirs = left[s].get("superiority", 0), left[w].get("superiority", 0)
            other = sum(left[w].get(m, 0) for m in OTHER)
            if not hostile(state, s, w) or mine <= 2 * theirs or not other:
                continue
            d, lo = _roll(ctx, div, mine - 2 * theirs, f"air {front}: {s} superiority over {w}")
            ctx.event("air-superiority", front=front, side=s, over=w, excess=mine - 2 * theirs, die=d, loss=lo)
            for m in OTHER:
                take = min(lo, left[w].get(m, 0))
                if take:
                    left[w][m] -= take
                    lo -= take
