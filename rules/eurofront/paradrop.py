"""Paratroops (14.0): Paradrop HQs, airdrops, dispersal and linkup, Air and Combined Assaults (7.6-7.65).

No SCW unit is a Paratroop (type ``Para``): the rules are general code for a scenario or case
that has one. A Paratroop moves and fights as unmotorized infantry, firing DF on defence (14.4).

- ``activate HQ paradrop`` (14.21): the HQ spends all its command, airpower included, on a
  Paradrop: it commands nothing else (``range`` -1, its Air Range kept as ``drop``) and cannot
  deploy. ``drop BLOCK HEX`` (14.22): a Para unit that began the Movement stacked with it airdrops
  to any hex within the HQ's Air Range but mountains. The drop is public (the block and its hex);
  that the block is a Para is the owner's claim, checked by its tool and, for every tool, when the
  block is opened (its trail entry ``drop``: verbs.recheck).
- 14.3: an airdropped Para is Dispersed (public ``dispersed``) for the Player-Turn: no effect on
  hex control (state.occupancy), no further move. 14.5: in its side's Supply Phase it recovers if
  linked up (in a friendly hex, next to an unengaged hex of friendly undispersed units, or stacked
  with one), else it is eliminated (a hidden one goes to ``removed``, audited at the end).
- 14.41, 7.64: a drop starting a new battle is an Air Assault (battle ``kinds`` ["air"]; a drop
  joining a ground attack is none, 14.41); joining a River Assault makes a Combined Assault (7.65,
  14.42: ``kinds`` ["air", "river"]). Repulse numbers: River 1-2 (1-3 Mud, 7.62, 12.61), Air 1
  (14.41), Air against a Fortress 1-3 (7.5, 14.41); a Combined Assault uses the lowest for all
  (7.65). A repulsed airdropped Para takes an automatic 1 CV loss and returns to its hex (7.64).
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalOrder
from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from . import fortress
from . import state as st

PARA = "Para"
Env = Any  # verbs.Env: verbs imports this module (activate, move checks)


def illegal(o: dict[str, Any] | None, message: str, rule: str) -> IllegalOrder:
    return IllegalOrder(message, rule=f"EF {rule}", line=(o or {}).get("line"), column=(o or {}).get("col"))


def check_designate(env: Env, o: dict[str, Any], mine: dict[str, Any] | None) -> None:
    """14.21: a field HQ, not deploying, not a Blitz HQ (Blitz Paradrops are not implemented)."""
    if o["deploy"] is not None:
        raise illegal(o, "a Paradrop HQ cannot deploy: it begins the turn with the Para units it drops", "14.21")
    if o.get("blitz"):
        raise illegal(o, "a Blitz Paradrop HQ (two Paradrops) is not implemented", "14.21")
    if mine is not None and mine["type"] != "HQ":
        raise illegal(o, f"{o['block']} is your {mine['unit']} ({mine['type']}): only field HQs command a "
                      "Paradrop", "14.21")


def designate(env: Env, tok: str, air: int) -> None:
    hq = env.public["hqs"][tok]
    hq["range"], hq["drop"] = -1, air  # 14.21: all its command ability goes to the Paradrop
    env.ctx.event("paradrop-hq", block=tok, air_range=air)


def parse_drop(ln: Any, o: dict[str, Any]) -> None:
    o["block"] = ln.block()
    o["path"] = [ln.hex()]
    o["supreme"] = False


def check_drop(env: Env, o: dict[str, Any]) -> None:
    pub, tok, to = env.public, o["block"], o["path"][0]
    b = pub["blocks"][tok]
    if b["side"] != env.seat:
        raise illegal(o, f"{tok} is not one of your blocks", "14.22")
    if tok in pub["moved"] or tok in pub["hqs"]:
        raise illegal(o, f"{tok} has already moved this Movement Phase or is an active HQ", "14.22")
    hqs = [t for t, h in pub["hqs"].items() if h.get("drop") is not None
           and pub["blocks"][t]["side"] == env.seat and pub["blocks"][t]["hex"] == b["hex"]]
    if not hqs:
        raise illegal(o, f"{tok} is not stacked with an active Paradrop HQ of yours", "14.21")
    hqs = [t for t in hqs if not pub["hqs"][t].get("sent")]
    if not hqs:  # 5.9 is explicit where 14.21's "Para unit(s)" is not (README: Interpretations)
        raise illegal(o, f"the Paradrop HQ at {b['hex']} has already sent its unit: each sends a single unit",
                      "5.9")
    ident = env.ident(tok)
    if ident is not None and ident["type"] != PARA:
        raise illegal(o, f"{tok} is your {ident['unit']} ({ident['type']}): only Paratroops airdrop", "14.1")
    if st.enemy(env.seat) in st.sides_in(pub, b["hex"]):
        raise illegal(o, f"{tok} is engaged at {b['hex']}: a disengagement is a move into an adjacent "
                      "friendly hex, not an airdrop", "6.32")
    if not env.board.enterable(to):
        raise illegal(o, f"{to} is not a land hex of the playable map", "SCW The Map")
    if env.board.terrain[to] == "mountain":
        raise illegal(o, f"{to} is mountain: Paradrops go into any hex except mountains", "14.22")
    air = max(int(pub["hqs"][t]["drop"]) for t in hqs)
    dist = GRID.distance(parse_hex(b["hex"]), parse_hex(to))
    if dist > air:
        raise illegal(o, f"{to} is {dist} hexes away, beyond the Paradrop HQ's Air Range of {air}", "14.22")


def apply_drop(env: Env, o: dict[str, Any]) -> None:
    pub, tok, to = env.public, o["block"], o["path"][0]
    b = pub["blocks"][tok]
    start, foe = b["hex"], st.enemy(env.seat)
    for h in st.garrisons_entered(pub, env.seat, [to]):
        env.ctx.event("garrison-eliminated", side=foe, hex=h)
    engage = foe in st.sides_in(pub, to)
    if engage:
        battle = pub["battles"].get(to)
        if battle is None:  # 14.41: an Air Assault
            pub["battles"][to] = {"attacker": env.seat, "new": True, "assault": True, "kinds": ["air"],
                                  "from": {tok: start}, "dropped": [tok]}
            env.ctx.event("battle", hex=to, attacker=env.seat, assault="air")
        elif battle["new"] and "from" in battle and battle["attacker"] == env.seat:
            battle["from"][tok] = start
            if battle["assault"]:  # 7.65, 14.42: a Combined Assault; with a ground attack, none (14.41)
                battle["kinds"] = sorted({*battle.get("kinds", ["river"]), "air"})
                battle.setdefault("dropped", []).append(tok)
    sender = max((t for t, h in pub["hqs"].items() if h.get("drop") is not None and not h.get("sent")
                  and pub["blocks"][t]["side"] == env.seat and pub["blocks"][t]["hex"] == start),
                 key=lambda t: (int(pub["hqs"][t]["drop"]), t))
    pub["hqs"][sender]["sent"] = tok  # 5.9: a Paradrop HQ sends a single unit
    b["hex"], b["dispersed"] = to, True  # 14.3
    pub["moved"].append(tok)
    if not b["up"]:
        b["trail"].append({"seq": env.ctx.seq, "path": [to], "supreme": False, "engage": engage,
                           "weather": pub["weather"], "rail": False, "drop": True})
    env.ctx.event("airdropped", block=tok, path=[start, to], engage=engage)


def repulse_number(env: Env, h: str, battle: dict[str, Any]) -> int:
    """7.62, 12.61, 14.41, 7.5; 7.65: the lowest Repulse number of the assault's kinds applies to all."""
    numbers = {"river": 3 if env.public["weather"] == "mud" else 2,
               "air": 3 if fortress.kind(env.public, h) == "major" else 1}
    return min(numbers[k] for k in battle.get("kinds", ["river"]))


def repulsed(env: Env, h: str, tok: str, lose_step: Any) -> None:
    """7.64, 14.41: a repulsed airdropped Para takes an automatic 1 CV loss (and then returns)."""
    if tok in env.public["battles"][h].get("dropped", []) and tok in env.public["blocks"]:
        env.ctx.event("para-repulse-loss", block=tok, hex=h)
        lose_step(env, h, tok)


def recover(env: Env, seat: str) -> None:
    """14.5, in ``seat``'s Supply Phase: its dispersed Paras link up and turn upright, or are eliminated."""
    pub = env.public
    mine = sorted((t for t, b in pub["blocks"].items() if b["side"] == seat and b.get("dispersed")),
                  key=st.token_key)
    linked = {tok: _linked(env, seat, mine, pub["blocks"][tok]["hex"]) for tok in mine}  # still dispersed
    for tok in mine:
        pub["blocks"][tok].pop("dispersed")
        if linked[tok]:
            env.ctx.event("para-linkup", block=tok, hex=pub["blocks"][tok]["hex"])
            continue
        b = pub["blocks"].pop(tok)
        st.bury(pub, tok, b)
        if not b["up"]:
            b["unlinked"] = True
            pub["removed"][tok] = b  # its trail and claim are audited at the end (audit.py)
        env.ctx.event("eliminated", block=tok, hex=b["hex"], why="no Para linkup (14.5)")


def _linked(env: Env, seat: str, dropped: list[str], h: str) -> bool:
    pub = env.public

    def undispersed(x: str) -> bool:
        return any(b["side"] == seat and b["hex"] == x and t not in dropped for t, b in pub["blocks"].items())
    if undispersed(h) or st.control(pub, env.board, h) == seat:
        return True
    return any(undispersed(n) and not st.is_battle(pub, n) for n in env.board.neighbours(h))
