"""Rail Movement (9.2) under THQ command, as the SCW allows it (SCW rule 8).

A Rail Move is a Supreme Move (6.62, 9.21): one unit along the rail lines of features.txt, up to
ten hexes, beginning, passing and ending in friendly or uncontrolled hexes (SCW 8: never through
disputed or enemy hexes, so an enemy-loyal city with no friendly claim blocks the line), never
into a battle (9.21); a unit may leave a battle it defends by rail (9.22), counting against
the hexside limit, but never as the last unit (a Retreat). Not checked yet: that the line
reaches the Supply Origin (9.12).
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from typing import Any

from pbem.errors import IllegalOrder
from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import Hexside, parse_hex

from . import state as st
from .data import load
from .verbs import EfLine, Env, check_disengage, check_move, illegal

RAIL_MOVE = 10  # 9.21


@cache
def rail_edges(scenario: str) -> frozenset[Hexside]:
    edges = set()
    for _name, hexes in load(scenario).board.rail:
        for a, b in pairwise(hexes):
            edges.add(GRID.hexside(parse_hex(a), parse_hex(b)))
    return frozenset(edges)


def parse_rail(ln: EfLine, o: dict[str, Any]) -> None:
    o["block"] = ln.block()
    o["path"] = [ln.hex()]
    while ln.more():
        o["path"].append(ln.hex())
    o["supreme"] = True


def check_rail(env: Env, o: dict[str, Any]) -> None:
    pub = env.public
    start = pub["blocks"][o["block"]]["hex"] if o["block"] in pub["blocks"] else ""
    check_move(env, {**o, "verb": "rail", "path": []})  # ownership, once a phase
    if o["block"] in pub["hqs"]:
        raise illegal(o, f"{o['block']} is an active HQ: it moves only by mobilizing", "5.51")
    if not any(h["thq"] and h["moves"] > 0 for t, h in pub["hqs"].items() if pub["blocks"][t]["side"] == env.seat):
        raise illegal(o, "a Rail Move needs a Supreme Move of an active THQ", "6.62")
    if len(o["path"]) > RAIL_MOVE:
        raise illegal(o, f"a Rail Move is at most {RAIL_MOVE} hexes", "9.21")
    edges, here = rail_edges(pub["scenario"]), start
    if not o["path"]:
        raise illegal(o, "a Rail Move names the hexes it runs through", "9.21")
    for a, b in zip([start, *o["path"]], o["path"], strict=False):
        if not st.adjacent(a, b):  # found by the random bots: a typed refusal, not a ValueError
            raise illegal(o, f"no rail line runs from {a} to {b}: they are not adjacent", "9.21")
    if st.is_battle(pub, start):
        if st.control(pub, env.board, start) != env.seat:
            raise illegal(o, f"only the Original Defender leaves a battle by rail ({start})", "9.22")
        check_disengage(env, o, start, o["path"][0])
    elif st.control(pub, env.board, start) not in (env.seat, None):
        raise illegal(o, f"a Rail Move begins in a friendly hex; {start} is not", "9.21")
    for step in o["path"]:
        if GRID.hexside(parse_hex(here), parse_hex(step)) not in edges:
            raise illegal(o, f"no rail line runs from {here} to {step}", "9.21")
        if st.sides_in(pub, step) - {env.seat}:
            raise illegal(o, f"units cannot engage by rail: {step} holds enemy units", "9.21")
        owner = st.control(pub, env.board, step)
        if owner not in (env.seat, None):
            raise illegal(o, f"rail lines run through friendly or uncontrolled hexes only; {step} is {owner}",
                          "SCW 8")
        here = step


def rail_paths(env: Env, tok: str) -> tuple[tuple[str, ...], ...]:
    """One legal Rail Move per reachable destination (for the legal actions)."""
    edges = rail_edges(env.public["scenario"])
    start = env.public["blocks"][tok]["hex"]
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(RAIL_MOVE):
        nxt = []
        for p in frontier:
            here = p[-1] if p else start
            for n in env.board.neighbours(here):
                if n in found or n == start or GRID.hexside(parse_hex(here), parse_hex(n)) not in edges:
                    continue
                path = (*p, n)
                try:
                    check_rail(env, {"verb": "rail", "block": tok, "path": list(path), "supreme": True})
                except IllegalOrder:
                    continue
                found[n] = path
                nxt.append(path)
        frontier = nxt
    return tuple(found[h] for h in sorted(found))
