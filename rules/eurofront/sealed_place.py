"""The sealed simultaneous free placement (scenario.txt ``setup-option sealed-free``, for ``free``).

An option of the game's proposal (``setup=free``, ``setup-option=sealed-free``), which the other
player accepts by joining; never the default. Instead of the seed's alternating placement (one
unit a file: the Nationalists' 3 Spanish Morocco units, then each side in turn, about 14 files
and as many emails before the seals), each side writes one file with all its ``place UNIT HEX``
lines (Nationalists, then Republicans). The lines never reach the other side (the module's
``public_orders`` drops them): the file commits the sorted list of hexes (``ctx.commit``, ref
public in ``place_refs``), the units stay in the author's private part. Each side's ``seal``
file (the next one anyway) opens its own list first; both lists were sealed before either is
opened, so neither side placed knowing the other's placement. Cost: 2 files and emails in all
(the two sealing files) against about 14; what is lost is the seed's reacting to the other's
placements, which is the option's point (the seed's 22.2: "players should set up simultaneously").

Every tool checks the opened list (its length, loyal cities and towns of the side, the 4/2/1
limits, the Nationalists' 3 separate Spanish Morocco cities); the author's tool checks the units
(each infantry or HQ unit once, the Morocco three in separate Morocco cities); the audit replays
the author's place lines.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import placement
from .data import SEATS, load
from .placement import LIMIT, MOROCCO, illegal, morocco_units

RULE = "SCW Setup"


def on(public: dict[str, Any]) -> bool:
    return bool(public.get("sealed_free"))


def placer(public: dict[str, Any]) -> str | None:
    return next((s for s in SEATS if s not in public["place_refs"]), None)


def check_place(env: Any, o: dict[str, Any]) -> None:
    """The author's tool only: the other tools never see the line."""
    if placer(env.public) != env.seat:
        raise illegal(o, "it is not your placement")
    if env.private is None or "unit" not in o:
        return
    board, seat = env.board, env.seat
    place = board.at.get(o["hex"])
    if place is None or place.loyal != seat or place.country not in board.playable:
        raise illegal(o, f"{o['hex']} is not a city or town loyal to you")
    if o["unit"] not in env.private.get("pool", {}):
        raise illegal(o, f"{o['unit']} is not one of your infantry or HQ units still to place")
    mine = env.private.get("placement", [])
    if sum(1 for _u, h in mine if h == o["hex"]) >= LIMIT.get(place.kind, 1):
        raise illegal(o, f"{place.name} ({place.kind}) holds {LIMIT.get(place.kind, 1)} unit(s) at most")
    moroccan = morocco_units(load(env.public["scenario"]), seat)
    if o["unit"] in moroccan:
        if place.country != MOROCCO:
            raise illegal(o, f"{o['unit']} is one of the 3 Spanish Morocco units: it starts in a city there")
        if any(u in moroccan and h == o["hex"] for u, h in mine):
            raise illegal(o, "the 3 Spanish Morocco units go in separate cities")


def apply_place(env: Any, o: dict[str, Any]) -> None:
    if env.private is not None and "unit" in o:
        env.private.setdefault("placement", []).append([o["unit"], o["hex"]])
        env.private["pool"][o["unit"]]["placed"] = True


def end_file(env: Any, o: dict[str, Any] | None) -> bool:
    """The end of a sealing file: every unit placed, the list of hexes committed. True while the
    other side's sealed placement is still to come."""
    pub, seat = env.public, env.seat
    value = None
    if env.private is not None:
        left = sorted(u for u, i in env.private.get("pool", {}).items() if not i.get("placed"))
        if left:
            raise illegal(o, f"the sealed placement places every infantry and HQ unit in one file: "
                          f"{', '.join(left)} not placed")
        value = sorted(h for _u, h in env.private.get("placement", []))
    pub["place_refs"][seat] = env.ctx.commit("placement", value, f"placement {seat}")
    env.ctx.event("placement-sealed", side=seat)
    nxt = placer(pub)
    if nxt is not None:
        pub["active"] = nxt
    return nxt is not None


def open_placement(env: Any) -> None:
    """At the start of the side's seal: open its list, check it publicly, put its blocks down."""
    pub, seat, board = env.public, env.seat, env.board
    value = env.ctx.open(pub["place_refs"][seat])
    if value == {} and env.private is not None:  # a dry check cannot open earlier commitments
        value = sorted(h for _u, h in env.private.get("placement", []))
    if not isinstance(value, list) or len(value) != int(pub["placing"].get(seat, 0)) \
            or not all(isinstance(h, str) and h in board.at for h in value) or value != sorted(value):
        raise illegal(None, f"the opened placement is not {pub['placing'].get(seat, 0)} city or town hexes")
    for h, n in sorted(Counter(value).items()):
        place = board.at[h]
        if place.loyal != seat or place.country not in board.playable:
            raise illegal(None, f"{h} is not a city or town loyal to {seat}")
        if n > LIMIT.get(place.kind, 1):
            raise illegal(None, f"{place.name} ({place.kind}) holds {LIMIT.get(place.kind, 1)} unit(s) at most")
    if seat == SEATS[0] and len({h for h in value if board.at[h].country == MOROCCO}) < int(pub["morocco"]):
        raise illegal(None, f"the {pub['morocco']} Spanish Morocco units start in separate cities there")
    mine = sorted(env.private.get("placement", []), key=lambda uh: (uh[1], uh[0])) if env.private else []
    for i, h in enumerate(value, start=1):
        tok = f"{seat[0]}{i}"
        pub["blocks"][tok] = {"side": seat, "hex": h, "ref": None, "lost": 0, "up": False,
                              "opened": None, "trail": []}
        if env.private is not None and mine:
            ident = dict(env.private["pool"].pop(mine[i - 1][0]))
            ident.pop("placed", None)
            env.private["blocks"][tok] = ident
        env.ctx.event("placed", side=seat, block=tok, hex=h)
    if env.private is not None:
        env.private.pop("placement", None)
    pub["placing"][seat] = 0
    if seat == SEATS[0]:
        pub["morocco"] = 0


def check(env: Any, o: dict[str, Any]) -> None:
    (check_place if on(env.public) else placement.check_place)(env, o)


def apply(env: Any, o: dict[str, Any]) -> None:
    (apply_place if on(env.public) else placement.apply_place)(env, o)


def end(env: Any, o: dict[str, Any] | None) -> bool:
    """The end of a placement file. The file that ends the placement reserves each side's militia
    dice for its seal (strict dice: reserved a file ahead; genesis reserves them only when the
    game starts at the seals)."""
    more = (end_file if on(env.public) else placement.end_placement)(env, o)
    if not more:
        for s in SEATS:
            if placement.militia_rolls(env.public, s):
                env.ctx.reserve_rolls(placement.militia_rolls(env.public, s), s)
    return more
