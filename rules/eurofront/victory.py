"""SCW 9 Victory: A) Defeat, B) Foreign Recognition (C, Stalemate after May 1939: sequence.py).

Foreign Recognition: "Beginning W'36, either side can win via Foreign Recognition as the
legitimate Spanish government. Once per Summer/Winter season, each side can try for Foreign
Recognition at the beginning of any Production phase. Each side rolls a pair of dice -- if each
pair totals less than the current Pacification Level the leader wins." The try is a public line
(`recognition`) in the side's sealed `production` file; it fixes the Pacification Level and
reserves each side's pair (strict dice), which each side rolls at the start of its next file.
"""

from __future__ import annotations

from typing import Any

from . import state as st
from . import supply
from .data import SEATS, Board
from .verbs import Env, illegal

FIRST = "1936-12"  # W'36


def season(month: str) -> str:
    """3.x seasons: Summer June-November, Winter December-May (W'36: December 1936 to May 1937)."""
    y, m = int(month[:4]), int(month[5:7])
    return f"S{y % 100}" if 6 <= m <= 11 else f"W{(y - (m < 6)) % 100}"


def cities(pub: dict[str, Any], board: Board, seat: str) -> int:
    """Controlled Spanish cities (not Morocco, not towns) in Rail Supply; major cities double."""
    rail = supply.rail_supplied(pub, board, seat)
    seen = {p.hex: p for p in board.places.values() if p.country == "SPA" and p.kind in ("major", "minor")}
    return sum(2 if p.kind == "major" else 1 for h, p in seen.items()
               if h in rail and st.control(pub, board, h) == seat)


def pacification(pub: dict[str, Any], board: Board) -> tuple[str, int]:
    """The leader and the Pacification Level (the difference of the counts)."""
    n, r = (cities(pub, board, s) for s in SEATS)
    return (SEATS[0], n - r) if n >= r else (SEATS[1], r - n)


def check_recognition(env: Env, o: dict[str, Any]) -> None:
    pub, seat = env.public, env.seat
    rec = pub["recognition"]
    if pub["month"] < FIRST:
        raise illegal(o, "Foreign Recognition begins in W'36 (December 1936)", "SCW 9B")
    if rec["tried"].get(seat) == season(pub["month"]):
        raise illegal(o, f"you tried for Foreign Recognition in {season(pub['month'])} already: once a season",
                      "SCW 9B")
    if rec["try"] is not None:
        raise illegal(o, "a try for Foreign Recognition is already under way", "SCW 9B")
    leader, level = pacification(pub, env.board)
    if leader != seat or level < 3:
        raise illegal(o, f"the Pacification Level is {level} for the {leader}: your dice could never total "
                      "less (two dice make at least 2)", "SCW 9B")


def apply_recognition(env: Env, o: dict[str, Any]) -> None:
    pub, seat = env.public, env.seat
    rec = pub["recognition"]
    leader, level = pacification(pub, env.board)
    rec["tried"][seat] = season(pub["month"])
    rec["try"] = {"leader": leader, "level": level, "due": list(SEATS), "dice": {}}
    for s in SEATS:
        env.ctx.reserve_rolls(2, s)
    env.ctx.event("recognition-try", side=seat, level=level)


def roll_due(env: Env) -> None:
    """At the start of a seat's file (its reserved dice first): its pair for a pending try."""
    rec = env.public.get("recognition") or {}
    t = rec.get("try")
    if not t or env.seat not in t["due"]:
        return
    pair = env.ctx.roll(6, f"foreign recognition {env.seat}", 2)
    t["dice"][env.seat] = sum(pair)
    t["due"].remove(env.seat)
    env.ctx.event("recognition-dice", side=env.seat, dice=pair)


def verdict(env: Env) -> None:
    """At the end of a file: once both pairs are rolled, the leader wins if both are under the level."""
    rec = env.public.get("recognition") or {}
    t = rec.get("try")
    if not t or t["due"]:
        return
    rec["try"] = None
    won = all(v < t["level"] for v in t["dice"].values())
    env.ctx.event("recognition", leader=t["leader"], level=t["level"], won=won)
    if won:
        env.public["over"] = (f"The {t['leader'].title()} win by Foreign Recognition: both pairs under the "
                              f"Pacification Level {t['level']} (SCW rule 9B)")


def sides_on_map(pub: dict[str, Any]) -> set[str]:
    return {b["side"] for b in pub["blocks"].values()}


def defeat(before: set[str], pub: dict[str, Any]) -> None:
    """9A: a side whose last unit this file eliminated loses (``before``: the sides on the map
    when the file began; a side with no unit yet, in the set-up or a rules case, is not defeated)."""
    if pub["over"]:
        return
    for side in SEATS:
        if side in before and side not in sides_on_map(pub):
            pub["over"] = (f"The {st.enemy(side).title()} win: every {side.title()} unit is eliminated "
                           "(SCW rule 9A)")
