"""RailHead markers placed each Production (SCW 3 Foreign Aid, SCW 5 Blockade).

``railhead HEX`` (public) in a side's ``production-open`` file places that month's RailHead
markers, the External Supply of arriving Foreign Aid (SCW 4); at the end of that file (after
its sealed production is opened and checked against the markers it was sealed with) the side's
markers of the month before are taken up and the new ones laid (the set-up's markers, SCW
Historical Game, serve until the side's first Production):

- Nationalists (Axis Aid, SCW 3, 5): at most one, in a Nationalist-controlled port of Spain or
  Spanish Morocco (Lisbon itself is the capital and needs none). From S'37 the port is subject
  to Blockade: one die, at most the Nationalist-controlled ports of European Spain (Barcelona
  double), else no marker and 1 PP of Axis Aid lost (from the next month's income: this month's
  PPs were fixed before either side chose, 11.2).
- Republicans: one per PP of French Aid this month (a controlled port or a French border rail
  hex, Bayonne/Perpignan: SCW 3), plus one for Soviet Aid in a controlled port if it arrived —
  at most one marker in a French border hex per French PP. French Aid falling (5-6) thus removes
  one marker. Release 0.2 (state.v2): the Soviet PP needs a controlled port (SCW 3); from S'37
  the blockade die is rolled at the start of the Republicans' production file for this month
  (SCW 5, ``soviet_blockade``), and a failed die closes the ports to the French markers too.
  Release 0.1's games: the die rolled the month before (production.py).
"""

from __future__ import annotations

from typing import Any

from . import state as st
from .verbs import Env, illegal

RULE = "SCW 3"
BLOCKADE_FROM = "1937-06"  # S'37


def parse_railhead(ln: Any, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()


def limits(pub: dict[str, Any], seat: str) -> tuple[int, int]:
    """(markers in all, of which in French border hexes) for this Production."""
    if seat == "nationalists":
        return 1, 0
    french = int(pub["aid"]["french"])
    return french + int(pub["aid"]["soviet"]), french


def ports_count(env: Env, seat: str) -> int:
    """SCW 5: the side's controlled ports of European Spain, Barcelona counting double."""
    ports = {p.hex: p for p in env.board.places.values() if p.port and p.country == "SPA"}
    return sum(2 if p.name == "Barcelona" else 1 for h, p in ports.items()
               if st.control(env.public, env.board, h) == seat)


def check_railhead(env: Env, o: dict[str, Any]) -> None:
    pub, h, seat = env.public, o["hex"], env.seat
    placed = pub.get("placed_railheads", [])
    most, border = limits(pub, seat)
    if len(placed) >= most:
        raise illegal(o, f"{most} RailHead marker(s) arrive for you this Production", RULE)
    if h in placed:
        raise illegal(o, f"{h} already has its RailHead marker", RULE)
    place = env.board.at.get(h)
    if place is not None and place.border_rail and seat == "republicans":
        if sum(1 for x in placed if (p := env.board.at.get(x)) is not None and p.border_rail) >= border:
            raise illegal(o, f"French Aid is {border} PP(s): no more RailHeads in the French border hexes", RULE)
        return
    if place is None or not place.port or place.country not in env.board.playable \
            or st.control(pub, env.board, h) != seat:
        raise illegal(o, f"a RailHead for arriving Foreign Aid goes in a port you control"
                      f"{' or a French border rail hex' if seat == 'republicans' else ''}; {h} is not one", RULE)
    if sea_closed(pub, seat):
        raise illegal(o, f"the blockade was not run this month: no Foreign Aid or External Supply arrives by "
                      f"sea, so no RailHead in the port {h} (French Aid: Bayonne/Perpignan only)", "SCW 5")


def apply_railhead(env: Env, o: dict[str, Any]) -> None:
    pub, h = env.public, o["hex"]
    pub.setdefault("placed_railheads", []).append(h)
    if env.seat == "nationalists" and pub["month"] >= BLOCKADE_FROM:
        (die,) = env.ctx.roll(6, f"axis aid blockade {pub['month']}")
        count = ports_count(env, env.seat)
        env.ctx.event("blockade", side=env.seat, die=die, ports=count, arrived=die <= count, hex=h)
        if die > count:
            pub["aid"]["axis_lost"] = 1  # SCW 5: 1 PP of Axis Aid lost (next month's income, 11.2)
            return
    pub.setdefault("new_railheads", []).append(h)
    env.ctx.event("railhead", side=env.seat, hex=h)


def soviet_at_begin(env: Env) -> None:
    """Release 0.2 (state.v2), on entering Production, before the PPs are fixed: the Soviet PP
    of this Production needs a Republican-controlled port (SCW 3); from S'37 it waits for the
    blockade die, reserved here and rolled at the start of the Republicans' production file,
    before they choose (SCW 5: "To begin Production ... rolls 1 dice")."""
    pub = env.public
    if pub["month"] < BLOCKADE_FROM:
        pub["aid"]["soviet"] = 1 if ports_count(env, "republicans") else 0
        return
    pub["aid"]["soviet"] = 0
    pub["soviet_blockade"] = True
    env.ctx.reserve_rolls(1, "republicans")


def soviet_blockade(env: Env) -> None:
    """SCW 5: the Republicans' blockade die, at the start of their production file. It decides
    this month's Soviet PP (none if SCW 6 cancelled the aid) and sea-borne External Supply: a
    failed die leaves no RailHead in a port this month (check_railhead), French ones included."""
    pub = env.public
    if env.seat != "republicans" or not pub.pop("soviet_blockade", False):
        return
    (die,) = env.ctx.roll(6, f"soviet aid blockade {pub['month']}")
    count = ports_count(env, "republicans")
    arrived = die <= count
    pub["aid"]["soviet"] = int(arrived)
    if arrived and not pub.get("aid_ended"):
        pub["pp"]["republicans"] = int(pub["pp"].get("republicans", 0)) + 1
    env.ctx.event("blockade", side="republicans", die=die, ports=count, arrived=arrived)


def sea_closed(pub: dict[str, Any], seat: str) -> bool:
    """SCW 5: "If the dieroll fails, the Republicans receive neither the 1 PP nor External Supply
    that month by sea" (release 0.2; 0.1 left the French markers' ports open)."""
    return seat == "republicans" and st.v2(pub) and pub["month"] >= BLOCKADE_FROM and not pub["aid"]["soviet"]


def begin(env: Env, seat: str) -> None:
    """The side's production-open file starts (its blockade die is reserved)."""
    env.public["placed_railheads"] = []
    if seat == "nationalists" and env.public["month"] >= BLOCKADE_FROM:
        env.ctx.reserve_rolls(1, seat)  # SCW 5: the blockade die, if a port is declared (else burnt)


def end(env: Env) -> None:
    """After the production is opened (checked against the markers it was sealed with): last
    month's markers are taken up and the new ones laid (SCW 3)."""
    env.public.pop("placed_railheads", None)
    env.public["railheads"][env.seat] = sorted(set(env.public.pop("new_railheads", [])))
