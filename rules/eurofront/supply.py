"""Supply (10.x) as the SCW uses it (SCW 4, 8), and Supply Attrition (10.6) in the Supply Phase (4.36).

Supply Origins (SCW 4): the capitals (Lisbon for the Nationalists, which no unit can enter, and
Madrid for the Republicans, while not enemy-controlled; 10.2: an engaged Origin still works)
and External Supply: the RailHead markers (``railheads`` in the public state; the historical
set-up puts them in each side's loyal ports, and the Republicans' in Bayonne and Perpignan).
Rail Supply (10.31) runs from them along the rail lines through friendly or uncontrolled hexes
(SCW 1, 8; an enemy-loyal city blocks unless friendly-controlled), into but not through
battle hexes (8.4), and through the side's supply-only country (SCW The Map: Portugal for the
Nationalists, France for the Republicans). A unit is supplied if a Supply Line of at most two
hexes (10.4) through friendly, disputed or uncontrolled land hexes, never across open sea,
reaches a hex in Rail Supply. Neither side needs National Supply (SCW 4).

At the end of each Player-Turn the active player's Supply Phase (4.36, 10.5) marks every enemy
unit supplied or not (public: ``unsupplied``; unsupplied units have no ZOC, 8.2) and each
unsupplied one loses a step (10.6) unless it defends a city or town loyal to its side (SCW 4
Loyalty). The step is public (``lost``) but the CV is not: a face-up unit below its last step
is removed at once; a hidden one is removed by its owner's next file (``attrition BLOCK``,
which its tool must give, 10.6), and a block that should have gone is refused when it is
opened (verbs.recheck), or at the end-of-game audit.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from . import garrisons, overstack, paradrop
from . import state as st
from .data import Board, load
from .rail import check_rail, rail_edges
from .verbs import Env, illegal

CAPITAL = {"nationalists": "Lisbon", "republicans": "Madrid"}  # SCW 4, The Nationalists/Republicans
SUPPLY_COUNTRY = {"nationalists": "POR", "republicans": "FRA"}  # SCW The Map: "only as supply sources"
LINE = 2  # 10.4


def _land(board: Board, h: str, seat: str) -> bool:
    return board.terrain.get(h, "sea") != "sea" and (
        board.country.get(h) in board.playable or board.country.get(h) == SUPPLY_COUNTRY[seat])


def _ours(pub: dict[str, Any], board: Board, h: str, seat: str, occ: st.Occupancy | None = None) -> bool:
    return st.control(pub, board, h, occ) in (seat, None)


def origins(pub: dict[str, Any], board: Board, seat: str) -> list[str]:
    cap = board.places[CAPITAL[seat]].hex
    found = [cap] if _ours(pub, board, cap, seat) else []
    found += [h for h in pub["railheads"].get(seat, []) if _ours(pub, board, h, seat)]
    return sorted(set(found))


def rail_supplied(pub: dict[str, Any], board: Board, seat: str, only: list[str] | None = None) -> set[str]:
    """10.31, SCW 8: hexes connected by rail to an Origin (or to those of ``only``) through
    friendly/uncontrolled hexes."""
    edges = _rail_neighbours(pub["scenario"])
    start = [h for h in origins(pub, board, seat) if only is None or h in only]
    occ = st.occupancy(pub)  # the state is fixed during the search
    seen, todo = set(start), deque(start)
    while todo:
        h = todo.popleft()
        if st.is_battle(pub, h) and h not in start:
            continue  # 8.4: into, not through, a battle hex
        for n in edges.get(h, ()):
            if n not in seen and _land(board, n, seat) and _ours(pub, board, n, seat, occ):
                seen.add(n)
                todo.append(n)
    return seen


@cache
def _rail_neighbours(scenario: str) -> dict[str, tuple[str, ...]]:
    board = load(scenario).board
    edges = rail_edges(scenario)
    return {h: tuple(n for n in board.neighbours(h) if GRID.hexside(parse_hex(h), parse_hex(n)) in edges)
            for h in board.terrain}


def supplied_hexes(pub: dict[str, Any], board: Board, seat: str, only: list[str] | None = None) -> set[str]:
    """Every hex from which a Supply Line of at most two hexes reaches Rail Supply (10.4)."""
    rail = rail_supplied(pub, board, seat, only)
    occ = st.occupancy(pub)
    out = set(rail)
    frontier = set(rail)
    for _ in range(LINE):
        nxt = set()
        for h in frontier:
            if h not in rail and (st.control(pub, board, h, occ) not in (seat, "disputed", None)
                                  or not _land(board, h, seat)):
                continue  # a line runs through friendly or disputed hexes only (10.4, 8.4)
            for n in board.neighbours(h):
                if n not in out and board.terrain.get(n) != "sea" and "water" not in board.side_kinds(h, n):
                    nxt.add(n)
        out |= nxt
        frontier = nxt
    return out


def double_supply(pub: dict[str, Any], board: Board, seat: str, h: str) -> bool:
    """SCW 7C: a Field HQ is in Double Supply when it traces supply both to its Capital and to
    External Supply: the RailHead markers (SCW 4), and for the Nationalists Lisbon itself, where
    the Axis Aid arrives unblockaded (SCW 3, 5): "the Nationalist HQ can always build a step for
    5 PPs when it can trace supply to Lisbon, but the Republican HQ can only do so when it can
    trace supply both to Madrid and to an External Supply marker"."""
    cap = board.places[CAPITAL[seat]].hex
    external = [*pub["railheads"].get(seat, []), *([cap] if seat == "nationalists" else [])]
    return h in supplied_hexes(pub, board, seat, [cap]) and h in supplied_hexes(pub, board, seat, external)


def check_rail_move(env: Env, o: dict[str, Any]) -> None:
    """9.21 and SCW 8 (rail.check_rail), then 9.12: a Rail Move runs on friendly rail lines, those
    connected to the side's Supply Origin (capital or RailHead) through friendly territory."""
    check_rail(env, o)
    linked = rail_supplied(env.public, env.board, env.seat)
    for step in o["path"]:
        if step not in linked:
            raise illegal(o, f"the rail line at {step} does not connect to your Supply Origin (capital or "
                          "RailHead) through friendly territory", "9.12")


def loyal_immune(board: Board, h: str, seat: str) -> bool:
    """SCW 4 Loyalty: units defending loyal cities and towns are immune to supply attrition."""
    place = board.at.get(h)
    return place is not None and place.loyal == seat


def supply_phase(env: Env, seat: str) -> None:
    """4.36, 10.5, 10.6: ``seat`` checks the enemy's units; the unsupplied lose a step."""
    pub, foe = env.public, st.enemy(seat)
    paradrop.recover(env, seat)  # 14.5: in the friendly Supply Phase
    ok = supplied_hexes(pub, env.board, foe)
    garrisons.supply_check(env, foe, ok)
    for tok in sorted((t for t, b in pub["blocks"].items() if b["side"] == foe), key=st.token_key):
        b = pub["blocks"][tok]
        b["unsupplied"] = b["hex"] not in ok
        if not b["unsupplied"] or loyal_immune(env.board, b["hex"], foe):
            continue
        b["lost"] += 1
        env.ctx.event("attrition", block=tok, hex=b["hex"])
        if b["up"] and below_floor(b["opened"], b["lost"]):
            st.bury(pub, tok, pub["blocks"].pop(tok))
            env.ctx.event("eliminated", block=tok, unit=b["opened"]["unit"], hex=b["hex"], why="attrition")
    overstack.supply_check(env, foe)  # 6.22
    if pub.get("isolation"):  # 8.36, only without SCW 1 (README Interpretations)
        for h in st.isolate(pub, env.board, seat):  # at the end of the friendly Supply Phase
            env.ctx.event("isolated", hex=h, side=seat)


def below_floor(ident: dict[str, Any], lost: int) -> bool:
    floor = 0 if ident["type"] in ("HQ", "THQ", "Static") else 1  # 2.4, 2.27
    return int(ident["cv"]) - lost < floor


def parse_attrition(ln: Any, o: dict[str, Any]) -> None:
    o["block"] = ln.block()


def check_attrition(env: Env, o: dict[str, Any]) -> None:
    b = env.public["blocks"][o["block"]]
    if b["side"] != env.seat:
        raise illegal(o, f"{o['block']} is not one of your blocks", "10.6")
    ident = env.ident(o["block"])
    if ident is not None and not below_floor(ident, int(b["lost"])):
        raise illegal(o, f"{o['block']} still has a step: attrition does not eliminate it", "10.6")
    if ident is None and not b.get("unsupplied"):
        raise illegal(o, f"{o['block']} is not unsupplied", "10.6")


def apply_attrition(env: Env, o: dict[str, Any]) -> None:
    b = env.public["blocks"].pop(o["block"])
    st.bury(env.public, o["block"], b)
    if not b["up"]:
        env.public["removed"][o["block"]] = b  # its trail and claim are audited at the end (audit.py)
    env.ctx.event("eliminated", block=o["block"], hex=b["hex"], why="attrition")


def owed(env: Env) -> list[str]:
    """The author's blocks below their last step that it has not removed (10.6)."""
    if env.private is None:
        return []
    return [t for t, b in sorted(env.public["blocks"].items()) if b["side"] == env.seat
            and t in env.private["blocks"] and below_floor(env.private["blocks"][t], int(b["lost"]))]
