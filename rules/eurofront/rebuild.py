"""Cadres (11.72, SCW 7A), disbanding (11.84) and advanced arrival (11.82): sealed Production lines.

- ``cadre BLOCK HEX``: an eliminated block of the side (public ``dead``, state.bury) comes back
  at its lowest step (0 CV for HQs, THQs and Static, which keep a 0 step, 2.4, 2.27; else 1 CV)
  in a controlled loyal city (major or minor) of the side, in Rail Supply, not embattled (SCW 7A),
  counting against the Arrival Location limits (11.81), for the SCW cadre cost (SCW 7). It cannot
  be built further that Production (11.72), nor rebuilt in the Production that disbanded it
  (11.84). Opening the production opens the block's commitment if it was never opened (its
  unit is public from then on, like an arriving reinforcement's), re-checks its hidden trail and
  its claimed cost.
- ``disband BLOCK``: the side's block is eliminated when the production is opened (11.84). A
  hidden one stays hidden: it goes to ``removed`` (flag ``disbanded``) and its trail is audited
  at the end (audit.py), as for attrition.
- ``arrive UNIT HEX advance`` / ``arrive UNIT HEX reduced``: one reinforcement a Production, due
  next month, arrives now for its cadre cost, or (CV above 1) one CV weaker (11.82).
"""

from __future__ import annotations

from typing import Any

from . import state as st
from . import supply
from .aid_end import FOREIGN
from .data import load
from .verbs import Env, illegal, recheck

RULE = "11.72"


def lowest_step(kind: str) -> int:
    return 0 if kind in ("HQ", "THQ", "Static") else 1  # 2.4, 2.27


def cadre_cost(scenario: str, side: str, ident: dict[str, Any], double: bool) -> int:
    """SCW 7 Unit Costs, cadre column (International Brigade 4; a Nationalist HQ in Double Supply 10)."""
    table = load(scenario).tables["unit_costs"]
    if ident.get("nation") == "international":
        return int(table["International_Brigade"][1])
    if ident["type"] == "HQ" and double:  # SCW 7C: in Double Supply at its arrival hex
        return int(table["HQ_double_supply"][1])
    return int(table[ident["type"]][1])


def parse_cadre(ln: Any, o: dict[str, Any]) -> None:
    _col, tok = ln.take("an eliminated block (e.g. n3)")
    o["block"] = tok.lower()
    o["hex"] = ln.hex()


def parse_disband(ln: Any, o: dict[str, Any]) -> None:
    o["block"] = ln.block()


def _known(env: Env, tok: str) -> dict[str, Any] | None:
    dead = env.public["dead"][tok]
    if dead["opened"] is not None:
        return dict(dead["opened"])
    if env.private is not None and tok in env.private["blocks"]:
        return dict(env.private["blocks"][tok])
    return None


def check_cadre(env: Env, o: dict[str, Any], seat: str, seen: dict[str, set[str]], arriving: dict[str, int]) -> int:
    """SCW 7A, 11.72, 11.84, 11.81; returns the (claimed) cost."""
    pub, tok, h = env.public, o["block"], o["hex"]
    dead = pub.get("dead", {}).get(tok)
    if tok in seen["disband"] or (dead is not None and dead["month"] == pub["month"]):
        raise illegal(o, f"{tok} was disbanded this Production: it cannot be rebuilt in it", "11.84")
    if dead is None or dead["side"] != seat:
        raise illegal(o, f"{tok} is not an eliminated unit of yours: only those are rebuilt as cadres", RULE)
    if tok in seen["cadre"]:
        raise illegal(o, f"{tok} is rebuilt once", RULE)
    seen["cadre"].add(tok)
    place = env.board.at.get(h)
    if place is None or place.loyal != seat or place.kind not in ("major", "minor") \
            or st.control(pub, env.board, h) != seat or st.is_battle(pub, h) \
            or h not in supply.rail_supplied(pub, env.board, seat):
        raise illegal(o, f"a cadre is placed in a controlled city loyal to you, in Rail Supply, not embattled; "
                      f"{h} is not one", "SCW 7A")
    arriving[h] = arriving.get(h, 0) + 1
    if arriving[h] > (2 if place.kind == "major" else 1):
        raise illegal(o, f"too many units arrive in {h}", "11.81")
    o["double"] = supply.double_supply(pub, env.board, seat, h)  # SCW 7C (public: re-checked when applied)
    ident = _known(env, tok)
    if ident is not None:
        if pub.get("aid_ended") and ident["unit"] in FOREIGN:
            raise illegal(o, f"{tok} ({ident['unit']}) is a foreign unit and foreign aid has ended", "SCW 6")
        o["cost"] = cadre_cost(pub["scenario"], seat, ident, o["double"])
    if not isinstance(o.get("cost"), int) or o["cost"] < 0:
        raise illegal(o, f"the cadre of {tok} states no cost", RULE)
    return int(o["cost"])


def check_disband(env: Env, o: dict[str, Any], seat: str, seen: dict[str, set[str]]) -> None:
    b = env.public["blocks"].get(o["block"])
    if b is None or b["side"] != seat:
        raise illegal(o, f"{o['block']} is not one of your blocks", "11.84")
    if o["block"] in seen["disband"] or o["block"] in seen["build"]:
        raise illegal(o, f"{o['block']} is built or disbanded once a Production", "11.84")
    seen["disband"].add(o["block"])


def check_advance(env: Env, o: dict[str, Any], seen: dict[str, set[str]], spec: Any) -> int:
    """11.82: one reinforcement a Production, due next month; its cadre cost, or one CV less."""
    if seen["advance"]:
        raise illegal(o, "the arrival of one reinforcement unit a Production can be advanced", "11.82")
    seen["advance"].add(o["unit"])
    if o["advance"] == "reduced":
        if int(spec.cv) <= 1:
            raise illegal(o, f"{o['unit']} arrives at {spec.cv} CV: only a unit above 1 CV is advanced by "
                          "arriving 1 CV weaker", "11.82")
        return 0
    ident = {"type": spec.type, "nation": spec.nation}
    return cadre_cost(env.public["scenario"], env.seat, ident,
                      supply.double_supply(env.public, env.board, env.seat, o["hex"]))


def apply_cadre(env: Env, o: dict[str, Any]) -> None:
    pub, tok = env.public, o["block"]
    dead = pub["dead"].pop(tok)
    ident = dead["opened"]
    if ident is None:
        value = env.ctx.open(dead["ref"])
        if value == {} and env.private is not None and tok in env.private["blocks"]:
            value = {"token": tok, **env.private["blocks"][tok]}  # a dry check cannot open commitments
        if not isinstance(value, dict) or value.get("token") != tok:
            raise illegal(o, f"the opening of {tok}'s commitment is not an identity of {tok}", RULE)
        ident = {k: value[k] for k in ("unit", "type", "nation", "cv", "max")}
    want = cadre_cost(pub["scenario"], env.seat, ident, bool(o.get("double")))
    if o["cost"] != want:
        raise illegal(o, f"the cadre of {tok} ({ident['unit']}, {ident['type']}) was claimed at {o['cost']} PPs; "
                      f"it costs {want}", "SCW 7")
    lost = int(ident["cv"]) - lowest_step(str(ident["type"]))
    removed = pub["removed"].pop(tok, None)
    b = {"side": env.seat, "hex": o["hex"], "ref": dead["ref"], "lost": lost, "up": False, "opened": ident,
         "trail": list(removed["trail"]) if removed else []}
    pub["blocks"][tok] = b
    recheck(env, tok, ident)  # its hidden moves before it was removed (issue 13 item 2)
    if env.private is not None:
        env.private["blocks"][tok] = {k: ident[k] for k in ("unit", "type", "nation", "cv", "max")}
    env.ctx.event("cadre", block=tok, unit=ident["unit"], hex=o["hex"], cost=want)


def apply_disband(env: Env, o: dict[str, Any]) -> None:
    pub, tok = env.public, o["block"]
    b = pub["blocks"].pop(tok)
    st.bury(pub, tok, b)
    if not b["up"]:
        pub["removed"][tok] = {**b, "disbanded": True}  # its trail is audited at the end (audit.py)
    env.ctx.event("disbanded", block=tok, hex=b["hex"])
