"""SCW 6 Foreign Aid "Ends": "Beginning December, 1938 (W'38), each player rolls one die at the
start of every Production. If doubles are rolled: All 3 foreign units (BS mech, Pav tank, and
International Brigade infantry) are removed from play. All Soviet and French Foreign Aid PPs to
the Republicans are canceled. [...] Axis Foreign Aid (4 PPs) and External Supply to the
Nationalists continue."

The dice are reserved by the file that enters Production and rolled at the start of each side's
sealed `production` file. On doubles the aid ends: in release 0.2 (state.v2) this Production's
French and Soviet PPs too (the verdict comes at the start of the Republicans' file, before they
choose); in 0.1 from the next Production's income; a face-up foreign unit is removed at
once; a hidden one only its owner can name: its owner's next file must `withdraw` it (opening
its commitment, so every tool sees it is foreign), the owner's tool refuses a file that keeps
one, and the end-of-game audit reports one left (audit.py).
"""

from __future__ import annotations

from typing import Any

from .data import SEATS
from .state import v2
from .verbs import Env, illegal, open_block

FROM = "1938-12"
FOREIGN = frozenset({"N-BS", "R-PAV", "R-IB"})
RULE = "SCW 6"


def reserve(env: Env) -> None:
    """On entering a month's Production: each side's die, from W'38 while the aid lasts."""
    pub = env.public
    if pub["month"] < FROM or pub.get("aid_ended"):
        return
    pub["aid_end"] = {"due": list(SEATS), "dice": {}}
    for s in SEATS:
        env.ctx.reserve_rolls(1, s)


def roll_due(env: Env) -> None:
    """At the start of a side's file (its reserved die first); the verdict once both are in."""
    pub = env.public
    t = pub.get("aid_end")
    if not t or env.seat not in t["due"]:
        return
    (die,) = env.ctx.roll(6, f"foreign aid ends {env.seat}")
    t["dice"][env.seat] = die
    t["due"].remove(env.seat)
    env.ctx.event("aid-end-die", side=env.seat, die=die)
    if t["due"]:
        return
    pub["aid_end"] = None
    if len(set(t["dice"].values())) != 1:
        return
    pub["aid_ended"] = {"month": pub["month"], "after": env.ctx.seq}
    env.ctx.event("aid-ended", dice=sorted(t["dice"].values()))
    if v2(pub) and "republicans" in pub["pp"]:
        # Release 0.2: "at the start of every Production ... canceled": this Production's French PPs
        # go before the Republicans choose (the verdict opens their production file); the Soviet PP
        # of W'38 comes after this, with the blockade die (railheads.soviet_blockade), and is not added.
        pub["pp"]["republicans"] = int(pub["pp"]["republicans"]) - int(pub["aid"]["french"])
        env.ctx.event("production", month=pub["month"], pp=dict(pub["pp"]))
    for tok, b in sorted(pub["blocks"].items()):
        if b["opened"] is not None and b["opened"]["unit"] in FOREIGN:
            del pub["blocks"][tok]
            env.ctx.event("eliminated", block=tok, hex=b["hex"], why="foreign aid ends")


def french_soviet_cancelled(pub: dict[str, Any]) -> bool:
    return bool(pub.get("aid_ended"))


def owed(env: Env) -> list[str]:
    """The author's hidden foreign blocks still on the map after the aid ended (a file later)."""
    ended = env.public.get("aid_ended")
    if env.private is None or not ended or env.ctx.seq <= int(ended["after"]):
        return []
    return [t for t, b in sorted(env.public["blocks"].items()) if b["side"] == env.seat
            and env.private["blocks"].get(t, {}).get("unit") in FOREIGN]


def check_withdraw(env: Env, o: dict[str, Any]) -> None:
    b = env.public["blocks"][o["block"]]
    if not env.public.get("aid_ended"):
        raise illegal(o, "foreign aid has not ended: no unit is withdrawn", RULE)
    if b["side"] != env.seat:
        raise illegal(o, f"{o['block']} is not one of your blocks", RULE)
    ident = env.ident(o["block"])
    if ident is not None and ident["unit"] not in FOREIGN:
        raise illegal(o, f"{o['block']} ({ident['unit']}) is not a foreign unit", RULE)


def apply_withdraw(env: Env, o: dict[str, Any]) -> None:
    tok = o["block"]
    value = open_block(env, tok, RULE)  # every tool sees the unit it was
    if value["unit"] not in FOREIGN:
        raise illegal(o, f"{tok} opens as {value['unit']}, not a foreign unit", RULE)
    b = env.public["blocks"].pop(tok)
    env.ctx.event("eliminated", block=tok, hex=b["hex"], why="foreign aid ends")
