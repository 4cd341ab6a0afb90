"""The EuroFront state split for the fog of war, and what the public state alone decides.

PUBLIC (every tool, ``digest`` compared after each file)::

    {"scenario", "month" "YYYY-MM", "fortnight" 1|2, "turn" N (fortnights played + 1),
     "phase", "active", "over", "weather" "dry"|"mud", "shuffle" bool, "sealed" [seats],
     "blocks": {token: {"side", "hex", "ref" (commitment, None before the seal), "lost" N,
                        "up" bool (face up now), "opened" identity|None (once revealed),
                        "trail" [hidden moves since the last reveal]}},
     "hqs": {token: {"cv", "range", "thq", "moves", ["drop" Air Range of a Paradrop HQ, 14.21]}}   # (5.2)
     "command": [hexes under field-HQ command, fixed at the start of Movement (5.31)],
     "moved": [tokens moved this phase], "crossed": {"AAAA-BBBB": n} (6.33),
     "battles": {hex: {"attacker": seat, "new": bool, "assault": bool, "from": {token: hex},
                       ["kinds": ["air", "river"], "dropped": [tokens]]}} (7.11, 7.12, 7.6, 7.65: paradrop.py),
     "airstrikes": {hex: {hq, cv, fp}} (7.13), "partial": {hex: {side: {tok, parts}}} (7.34),
     "losses": {seat: [tokens]} (7.33), "retreats": {token: {hex, path}} (6.51),
     "railheads": {seat: [hexes]} (SCW 4), per block "unsupplied" (10.5), "removed" (audit.py),
     "dead": {token: {side, ref, opened, month}} (eliminated: cadres 11.72; month = disbanded 11.84),
     "blitz": {side, strategic, spent} (Blitz HQs this Player-Turn, blitz.py),
     "produced", "pp", "saved", "production_refs", "aid", "arrived", "tokens" (production.py),
     "sealed_board" (the map the second side's production is checked against, production.py),
     "ob" (identities are O/B units, assign.py), "sealed_free", "place_refs" (sealed_place.py),
     "isolation" (8.36 in force: a scenario without SCW 1), "isolated" {hex: seat} (8.36),
     "fortresses" {hex: "major"|"minor"} (7.5, 7.51: fortress.py; none in the SCW),
     per block "dispersed" (14.3: airdropped this Player-Turn)}

PRIVATE per seat: ``{"blocks": {token: {"unit", "type", "nation", "cv", "max"}}}``: the owner's
blocks' identities, bound at the seal by one commitment each (value = identity + token).

A block's current CV is its committed CV less ``lost`` (public: hits, HQ deactivation 5.5, supply
attrition 10.6, less the steps built in Production, so it may go negative).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from .data import SEATS, Board, load

STACK = {"clear": 4, "forest": 4, "hill": 4, "marsh": 3, "mountain": 2}  # 6.21
# 2.2, 2.4, 2.28 (Forts: rail or sea only); Static: README
SPEED = {"HQ": 2, "THQ": 2, "Armor": 3, "Mech": 3, "Infantry": 2, "Static": 1, "Fort": 0, "Para": 2}  # 14.4
MAX_SPEED = 3  # the fastest SCW type (2.21, 2.22): what the opponent's tool can check of a hidden move
STOP_TERRAIN = ("marsh", "mountain")  # 1.33, 1.34, 6.1
BLOCKING = frozenset({"river", "strait", "water"})  # 8.2: no ZOC across these
WEATHER = {1: "mud", 2: "mud-dry", 3: "dry", 4: "dry", 5: "dry", 6: "dry", 7: "dry", 8: "dry", 9: "dry",
           10: "dry", 11: "mud-dry", 12: "mud"}  # 12.1 WF table; 12.11


def step_cost(scenario: str, side: str, kind: str, double: bool) -> int:
    """SCW 7 Unit Costs (tables.toml): a THQ's one free step (7D); an HQ in Double Supply at 5 (7C:
    ``double`` from supply.double_supply at the HQ's hex)."""
    table = load(scenario).tables["unit_costs"]
    if kind == "THQ":
        return 0
    if kind == "HQ" and double:
        return int(table["HQ_double_supply"][0])
    return int(table[kind][0]) if kind in table else -1


def enemy(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def adjacent(a: str, b: str) -> bool:
    return GRID.adjacent(parse_hex(a), parse_hex(b))


def token_key(token: str) -> tuple[str, int]:
    return token[0], int(token[1:]) if token[1:].isdigit() else 0


def blocks_at(public: dict[str, Any], h: str, side: str | None = None) -> list[str]:
    return sorted((t for t, b in public["blocks"].items() if b["hex"] == h and (side is None or b["side"] == side)),
                  key=token_key)


def sides_in(public: dict[str, Any], h: str) -> set[str]:
    return {b["side"] for b in public["blocks"].values() if b["hex"] == h}


def is_battle(public: dict[str, Any], h: str) -> bool:
    return len(sides_in(public, h)) == 2


Occupancy = dict[str, tuple[set[str], bool]]


def occupancy(public: dict[str, Any]) -> Occupancy:
    """Per occupied hex: the sides there and whether every unit there is unsupplied. Supply asks
    control of most hexes for one state: computed once for it instead of per hex (supply.py)."""
    out: Occupancy = {}
    for b in public["blocks"].values():
        if b.get("dispersed"):
            continue  # 14.3: Dispersed Paras have no effect on hex control
        sides, unsupplied = out.get(b["hex"], (set(), True))
        out[b["hex"]] = (sides | {b["side"]}, unsupplied and bool(b.get("unsupplied")))
    for h, g in public.get("garrisons", {}).items():  # SCW 2: a garrison controls its hex, has a ZOC
        sides, unsupplied = out.get(h, (set(), True))
        out[h] = (sides | {g["side"]}, unsupplied and bool(g.get("unsupplied")))
    return out


def garrisons_entered(public: dict[str, Any], seat: str, path: list[str]) -> list[str]:
    """SCW 2: a unit entering an enemy garrison's hex (need not stop) eliminates it, unless a unit
    of the garrison's side is there too. Returns the hexes whose garrison went."""
    gone = []
    for h in path:
        g = public["garrisons"].get(h)
        if g is not None and g["side"] != seat and g["side"] not in sides_in(public, h):
            del public["garrisons"][h]
            gone.append(h)
    return gone


def zoc_sides(public: dict[str, Any], board: Board, h: str, occ: Occupancy | None = None) -> set[str]:
    """Sides exerting a ZOC into unoccupied ``h`` (8.2): unengaged units next to it, not across a river,
    strait or water hexside, from supplied units (supply.py)."""
    occ = occupancy(public) if occ is None else occ
    out: set[str] = set()
    for n in board.neighbours(h):
        here, unsupplied = occ.get(n, (set(), True))
        if len(here) != 1 or board.side_kinds(h, n) & BLOCKING:
            continue
        if unsupplied:
            continue  # 8.2: unsupplied units have no ZOC
        out |= here
    return out


def freeze(public: dict[str, Any]) -> None:
    """8.1: hex control is defined by the units and ZOCs at the beginning of each phase and lasts
    unchanged throughout it: keep what it is computed from (the occupancy and the battles' Original
    Attackers) for the phase; ``control`` reads it. Release 0.1's games judge control live."""
    if not v2(public):
        return
    public["frozen"] = {"occ": {h: [sorted(sides), unsupplied] for h, (sides, unsupplied) in
                                sorted(occupancy(public).items())},
                        "battles": {h: b["attacker"] for h, b in sorted(public["battles"].items())}}


def _frozen(public: dict[str, Any]) -> tuple[Occupancy, dict[str, str]] | None:
    f = public.get("frozen")
    if f is None:
        return None
    return {h: (set(v[0]), bool(v[1])) for h, v in f["occ"].items()}, dict(f["battles"])


def control(public: dict[str, Any], board: Board, h: str, occ: Occupancy | None = None) -> str | None:
    """SCW rule 1: a seat, "disputed", or None (uncontrolled: treated as friendly, but no disengaging).
    Without ``occ``: as at the beginning of the phase (8.1, ``freeze``)."""
    frozen = _frozen(public) if occ is None else None
    attackers = {b: v["attacker"] for b, v in public["battles"].items()}
    if frozen is not None:
        occ, attackers = frozen
    occ = occupancy(public) if occ is None else occ
    here = occ.get(h, (set(), True))[0]
    if len(here) == 2:
        attacker = attackers.get(h)
        return enemy(attacker) if attacker else None  # the Original Defender (7.12)
    if here:
        return next(iter(here))
    zoc = zoc_sides(public, board, h, occ)
    if len(zoc) == 2:
        return "disputed"
    if zoc:
        return next(iter(zoc))
    isolated = public.get("isolated", {}).get(h)  # 8.36
    if isolated is not None:
        return str(isolated)
    place = board.at.get(h)
    return place.loyal if place is not None else None


def isolate(public: dict[str, Any], board: Board, seat: str) -> list[str]:
    """8.36, at the end of ``seat``'s Supply Phase: unoccupied enemy-controlled hexes completely
    surrounded by ``seat``-controlled hexes (of Spain and Spanish Morocco) pass to ``seat``.
    Only in a scenario without SCW 1 (public ``isolation``; SCW 1 replaces 8.35-8.36). With the
    control rules here only a city or town can be such a hex (any other takes its control from a
    ZOC, whose unit's hex is next to it); the passing is kept in public ``isolated`` until a unit
    enters the hex."""
    occ = occupancy(public)
    for h in [h for h in public.get("isolated", {}) if h in occ]:
        del public["isolated"][h]
    if not public.get("isolated"):
        public.pop("isolated", None)
    found = []
    for h in sorted(board.at):
        if h in occ or not board.enterable(h) or control(public, board, h, occ) != enemy(seat):
            continue
        land = [n for n in board.neighbours(h) if board.enterable(n)]  # sea and out-of-play hexes: no bar
        if land and all(control(public, board, n, occ) == seat for n in land):
            public.setdefault("isolated", {})[h] = seat
            found.append(h)
    return found


def hexside_key(a: str, b: str) -> str:
    return "-".join(sorted((a, b)))


def v2(public: dict[str, Any]) -> bool:
    """Whether the game follows release 0.2's readings of the rulebook text (module.started_by:
    the games of release 0.1 keep the meaning they were played with)."""
    return bool(public.get("v2"))


def command_hexes(public: dict[str, Any], board: Board, seat: str) -> list[str]:
    """Hexes within the Command Range of the seat's active field HQs (5.31): traced over playable
    land, never across water, and not through enemy-controlled hexes (a hex holding a friendly
    upright unit can always be traced through: the 8.4 sidebar)."""
    seen: set[str] = set()
    for tok, hq in public["hqs"].items():
        if hq["thq"] or hq["range"] < 0 or public["blocks"][tok]["side"] != seat:
            continue
        start = public["blocks"][tok]["hex"]
        dist = {start: 0}
        todo = deque([start])
        while todo:
            h = todo.popleft()
            seen.add(h)
            if dist[h] >= hq["range"] or (h != start and not _traceable(public, board, h, seat)):
                continue
            for n in board.neighbours(h):
                if n in dist or not board.enterable(n) or "water" in board.side_kinds(h, n):
                    continue
                dist[n] = dist[h] + 1
                todo.append(n)
    return sorted(seen)


def _traceable(public: dict[str, Any], board: Board, h: str, seat: str) -> bool:
    # 8.4 sidebar: "any hex containing an *upright* Friendly unit"; 5.31: "friendly battles" (8.31:
    # the Original Defender's), so not a battle the side attacked, whose units stand face up (7.12).
    # Release 0.1 counted any friendly unit.
    upright = v2(public)
    if any(b["side"] == seat and b["hex"] == h and not (upright and b["up"]) for b in public["blocks"].values()):
        return True
    return control(public, board, h) != enemy(seat)


def variable_weather(month: str) -> bool:
    """12.1, 12.11: November and February roll for WF weather each Fortnight."""
    return WEATHER[int(month[5:7])] == "mud-dry"


def weather_for(month: str) -> str:
    """12.11 (WF): Dry March-October, Mud December-January; a variable month before its roll: Dry."""
    w = WEATHER[int(month[5:7])]
    return "dry" if w == "mud-dry" else w


def next_month(month: str) -> str:
    y, m = int(month[:4]), int(month[5:7])
    return f"{y + m // 12}-{m % 12 + 1:02d}"


def bury(public: dict[str, Any], tok: str, b: dict[str, Any]) -> None:
    """Record an eliminated block (public: its side, commitment and opening if it was opened) so
    that it can be rebuilt as a cadre (11.72, SCW 7A) and never twice; 11.84 marks disbanding."""
    public.setdefault("dead", {})[tok] = {"side": b["side"], "ref": b["ref"], "opened": b["opened"],
                                          "month": public["month"] if public["phase"].startswith("production") else ""}


def current_cv(public: dict[str, Any], private: dict[str, Any] | None, token: str) -> int | None:
    """The block's CV where this tool may know it: its owner's private state, or its public opening."""
    b = public["blocks"][token]
    ident = (private or {}).get("blocks", {}).get(token) or b.get("opened")
    return None if ident is None else int(ident["cv"]) - int(b["lost"])
