"""The SCW set-up modes other than the historical one, and Random Militia Deployment.

* Semi-Historical Game: "Deploy infantry and HQ units in the historical locations noted on the
  SCW O/B card", then Random Militia Deployment.
* Free Setup Game: "The Nationalist player deploys his 3 Spanish Morocco units in separate cities
  there. Players then alternate placing one infantry or HQ unit at a time in a loyal city
  (Republicans go first). No more than four (4) units can start in a major city, two (2) per
  minor city, and one (1) per town. When this has been done, complete Random Militia Deployment."
  The Morocco units are placed one a file too (then the Republicans begin). Each placement is
  a file (`place UNIT HEX`): the hex is public, the unit stays in the placing player's private
  part (a new token appears face down, as a block stood up on the table); the full audit
  replays the placement with the author's own orders.
* Random Militia Deployment: "Taking one static unit at a time (without revealing its cv), the
  owning player rolls 1 dice for its Region of appearance, and another dice for the City/Town
  within that region, according to the Militia Table. If that location already has a militia
  unit, roll again." Done in each seat's `seal` file with public rolls (reserved at genesis, over-
  reserved: the unused are burnt); the militia's identity and CV stay sealed.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalOrder

from .data import SEATS, ScwData, load

LIMIT = {"major": 4, "minor": 2, "town": 1}  # SCW Free Setup Game
MOROCCO = "SPM"
RULE = "SCW Setup"
MILITIA_ROLLS = 4  # per militia: two dice, and one re-roll of both on average (over-reserved, burnt)


def morocco_units(data: ScwData, side: str) -> list[str]:
    """The Nationalists' "3 Spanish Morocco units": those the O/B card sets up there."""
    return sorted(u.uid for u in data.units if u.side == side and u.setup == "placed" and u.at
                  and data.board.places[u.at].country == MOROCCO)


def militia_rolls(public: dict[str, Any], seat: str) -> int:
    return MILITIA_ROLLS * len(public.get("militia", {}).get(seat, []))


def free_pool(data: ScwData, side: str) -> dict[str, dict[str, Any]]:
    return {u.uid: {"unit": u.uid, "type": u.type, "nation": u.nation, "cv": u.cv, "max": u.max}
            for u in data.units if u.side == side and u.setup == "placed"}


def placer(public: dict[str, Any]) -> str | None:
    """Who places next in the Free Setup, or None when every infantry and HQ unit is placed:
    the Nationalists' Morocco three, then the Republicans, then each in turn."""
    if public.get("morocco"):
        return SEATS[0]
    waiting = [s for s in SEATS if public["placing"].get(s)]
    if not waiting:
        return None
    turn = [s for s in waiting if s != public.get("last_placer")]
    return turn[0] if turn else waiting[0]


def quota(public: dict[str, Any], seat: str) -> int:
    """How many units this file places: one, or all that are left once the other side is done."""
    if public.get("morocco"):
        return 1
    others = [s for s in SEATS if s != seat and public["placing"].get(s)]
    return 1 if others else int(public["placing"].get(seat, 0))


def place_militia(env: Any) -> None:
    """Random Militia Deployment for the sealing seat, one militia at a time (public rolls)."""
    pub, seat, board = env.public, env.seat, env.board
    toks = list(pub.get("militia", {}).get(seat, []))
    if not toks:
        return
    table = load(pub["scenario"]).tables["militia"][seat]
    taken: set[str] = set()
    budget = militia_rolls(pub, seat)
    for tok in toks:
        where = None
        while where is None and budget >= 2:
            region, face = env.ctx.roll(6, f"militia {seat} {tok}", 2)
            budget -= 2
            h = board.places[table[str(region)]["places"][face - 1]].hex
            env.ctx.event("militia-roll", side=seat, block=tok, region=region, place=face, hex=h,
                          again=h in taken)
            if h not in taken:
                where = h
        if where is None:  # out of reserved dice: the first free place of the table (README)
            where = next(board.places[p].hex for r in sorted(table) for p in table[r]["places"]
                         if board.places[p].hex not in taken)
        taken.add(where)
        pub["blocks"][tok] = {"side": seat, "hex": where, "ref": None, "lost": 0, "up": False,
                              "opened": None, "trail": []}
    pub["militia"][seat] = []


def illegal(o: dict[str, Any] | None, message: str, rule: str = RULE) -> IllegalOrder:
    return IllegalOrder(message, rule=f"EF {rule}", line=(o or {}).get("line"), column=(o or {}).get("col"))


def parse_place(ln: Any, o: dict[str, Any]) -> None:
    o["unit"] = ln.take("a unit of yours (e.g. R-MAD)")[1].upper()
    o["hex"] = ln.hex()
    if ln.public.get("sealed_free"):
        o["sealed"] = True  # the whole line is sealed (sealed_place.py): public_orders drops it


def check_place(env: Any, o: dict[str, Any]) -> None:
    """The public facts every tool checks, then (the author's tool) the unit named."""
    pub, seat, board = env.public, env.seat, env.board
    if placer(pub) != seat:
        raise illegal(o, "it is not your placement")
    if pub["placed_file"] >= quota(pub, seat):
        raise illegal(o, f"this file places {quota(pub, seat)} unit(s): players alternate one unit at a time")
    place = board.at.get(o["hex"])
    if place is None or place.loyal != seat or place.country not in board.playable:
        raise illegal(o, f"{o['hex']} is not a city or town loyal to you")
    here = sum(1 for b in pub["blocks"].values() if b["hex"] == o["hex"])
    if here >= LIMIT.get(place.kind, 1):
        raise illegal(o, f"{place.name} ({place.kind}) holds {LIMIT.get(place.kind, 1)} unit(s) at most")
    if pub.get("morocco") and place.country != MOROCCO:
        raise illegal(o, "first the 3 Spanish Morocco units, in separate cities there")
    if pub.get("morocco") and here:
        raise illegal(o, "the 3 Spanish Morocco units go in separate cities")
    if env.private is None or "unit" not in o:
        return  # the unit is in its owner's private part; the full audit replays it
    pool = env.private.get("pool", {})
    if o["unit"] not in pool:
        raise illegal(o, f"{o['unit']} is not one of your infantry or HQ units still to place")
    moroccan = o["unit"] in morocco_units(load(pub["scenario"]), seat)
    if bool(pub.get("morocco")) != moroccan:
        raise illegal(o, f"{o['unit']} {'is' if moroccan else 'is not'} one of the 3 Spanish Morocco units, "
                      "placed first in separate cities there")


def apply_place(env: Any, o: dict[str, Any]) -> None:
    pub, seat = env.public, env.seat
    n = 1 + max([int(t[1:]) for t, b in pub["blocks"].items() if b["side"] == seat], default=0)
    tok = f"{seat[0]}{n}"
    pub["blocks"][tok] = {"side": seat, "hex": o["hex"], "ref": None, "lost": 0, "up": False,
                          "opened": None, "trail": []}
    if env.private is not None and "unit" in o:
        env.private["blocks"][tok] = env.private["pool"].pop(o["unit"])
    pub["placing"][seat] -= 1
    pub["placed_file"] += 1
    if pub.get("morocco"):
        pub["morocco"] -= 1
    env.ctx.event("placed", side=seat, block=tok, hex=o["hex"])


def end_placement(env: Any, o: dict[str, Any] | None) -> bool:
    """At the end of a placement file: its quota placed? True while placements remain."""
    pub = env.public
    if pub["placed_file"] == 0 and placer(pub) == env.seat:
        raise illegal(o, f"place {quota(pub, env.seat)} unit(s) in this file (place UNIT HEX)")
    pub["placed_file"] = 0
    pub["last_placer"] = env.seat
    nxt = placer(pub)
    if nxt is not None:
        pub["active"] = nxt
    return nxt is not None
