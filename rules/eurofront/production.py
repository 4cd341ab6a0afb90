"""Production (11.x, SCW 3, 5, 7), simultaneous and sealed, and Reinforcements (11.8, scenario.txt).

Each month but the first (11.1 note) opens with four files: the Nationalists' and then the
Republicans' ``production`` files, each holding that side's choices (``build BLOCK``,
``arrive UNIT HEX``) sealed by one commitment (``ctx.commit``; the lines never reach the public
orders), then the ``production-open`` files in the same order, each opening its own side's
commitment once both are sealed. Every tool then checks the opened choices against the public
state and applies them; what only the owner knows (a block's type, hence its step cost, and its
full CV) is checked by the owner's tool when sealing and again by every tool when the block is
next opened (verbs.recheck reads the ``build`` entries of its trail).

PPs (11.2-11.4): saved PPs, plus the SCW city PPs (tables.toml ``city_pp``: Madrid 2, Barcelona 1)
of cities the side controls in Rail Supply (11.32, supply.py), plus Foreign Aid (SCW 3): the
Nationalists' 4 Axis PPs; the Republicans' French Aid (0-2) and Soviet 1 PP. PPs are all spent
or all saved: spending any forfeits the rest (11.4). Steps (11.71): one per unit a Production,
unengaged and supplied, at the SCW Unit Costs (SCW 7); an HQ in Double Supply builds at 5
(SCW 7C: read as the Nationalists' supplied HQs, the Republicans' never, see README); a THQ
one free step (SCW 7D). Reinforcements (11.8, 11.81): due this month or earlier, at their place
(Albacete) or a friendly port in Rail Supply, not embattled, at most 2 a major city and 1
elsewhere. The French Aid die and, from S'37, the Soviet Aid blockade die (SCW 3, 5) are
rolled in the Republicans' ``production-open`` file and set the next month's aid (README).
Cadres, disbanding and advanced arrival (11.72, 11.84, 11.82) are sealed lines too (rebuild.py);
the month's RailHeads are public ``railhead`` orders of the ``production-open`` file (railheads.py).
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from pbem.kit.records import Issues, read_records

from . import garrisons, railheads, rebuild, supply
from . import state as st
from .aid_end import FOREIGN
from .data import SEATS, load, scenario_root
from .verbs import Env, illegal

SEALED = ("build", "arrive", "garrison", "cadre", "disband")
PREFIX = {"nationalists": "n", "republicans": "r"}


def income(env: Env, seat: str) -> int:
    """11.3, SCW 3: city PPs in Rail Supply and Foreign Aid."""
    pub, data = env.public, load(env.public["scenario"])
    rail = supply.rail_supplied(pub, env.board, seat)
    pp = 0
    for name, value in data.tables["city_pp"].items():
        if name in env.board.places:
            h = env.board.places[name].hex
            if h in rail and st.control(pub, env.board, h) == seat and isinstance(value, int):
                pp += value
    if seat == "nationalists":  # SCW 5: less 1 PP if last month's blockade was not run (railheads.py)
        pp -= int(pub["aid"].get("axis_lost", 0))
        return pp + sum(int(v) for k, v in data.tables["foreign_aid"]["axis"].items() if k not in ("source", "why"))
    if pub.get("aid_ended"):
        return pp  # SCW 6: French and Soviet Aid cancelled
    return pp + int(pub["aid"]["french"]) + int(pub["aid"]["soviet"])


def begin(env: Env) -> None:
    """Available PPs for both sides (11.2), fixed before either side chooses."""
    pub = env.public
    if st.v2(pub):
        railheads.soviet_at_begin(env)  # SCW 3, 5: this Production's Soviet PP
    pub["pp"] = {s: int(pub["saved"].get(s, 0)) + income(env, s) for s in SEATS}
    pub["aid"].pop("axis_lost", None)
    pub["production_refs"] = {}
    env.ctx.event("production", month=pub["month"], pp=dict(pub["pp"]))


# --- the sealed lines ----------------------------------------------------------------------

def parse_build(ln: Any, o: dict[str, Any]) -> None:
    o["block"] = ln.block()


def parse_arrive(ln: Any, o: dict[str, Any]) -> None:
    o["unit"] = ln.take("a reinforcement (e.g. R-IB)")[1].upper()
    o["hex"] = ln.hex()
    if ln.more():  # 11.82: advanced a month, for its cadre cost or one CV weaker
        o["advance"] = ln.take("advance or reduced")[1].lower()
        if o["advance"] not in ("advance", "reduced"):
            raise ln.err("expected advance or reduced (11.82)")


def check_sealed(env: Env, o: dict[str, Any]) -> None:
    if env.private is None:
        return  # the sealed lines never reach another tool: they are checked when opened
    chosen = [*env.private.get("production", []), o]
    check_choices(env, chosen, env.seat)


def apply_sealed(env: Env, o: dict[str, Any]) -> None:
    if env.private is not None:
        env.private.setdefault("production", []).append({k: v for k, v in o.items() if k not in ("line", "col")})


def check_choices(env: Env, chosen: list[dict[str, Any]], seat: str) -> int:
    """Every rule the public state decides, and the owner's hidden facts where this tool has them;
    returns the PPs spent (claimed costs for builds, which every tool re-checks at the next reveal)."""
    pub, spent = env.public, 0
    seen: dict[str, set[str]] = {"build": set(), "cadre": set(), "disband": set(), "advance": set()}
    built = seen["build"]
    arriving: dict[str, int] = {}
    supplied: set[str] | None = None
    for o in chosen:
        if o["verb"] == "garrison":
            if supplied is None:
                supplied = supply.supplied_hexes(pub, env.board, seat)
            if sum(1 for x in chosen if x.get("hex") == o["hex"] and x["verb"] == "garrison") > 1:
                raise illegal(o, f"one garrison in {o['hex']}", "SCW 2")
            spent += garrisons.check_garrison(env, o, seat, supplied)
        elif o["verb"] == "cadre":
            spent += rebuild.check_cadre(env, o, seat, seen, arriving)
        elif o["verb"] == "disband":
            rebuild.check_disband(env, o, seat, seen)
        elif o["verb"] == "build":
            tok = o["block"]
            b = pub["blocks"].get(tok)
            if tok in seen["cadre"]:
                raise illegal(o, f"{tok} is a cadre rebuilt this Production: it is not built up further", "11.72")
            if tok in seen["disband"]:
                raise illegal(o, f"{tok} is disbanded this Production", "11.84")
            if b is None or b["side"] != seat:
                raise illegal(o, f"{tok} is not one of your blocks", "11.71")
            if tok in built:
                raise illegal(o, f"{tok} is built once a Production", "11.71")
            if supplied is None:
                supplied = supply.supplied_hexes(pub, env.board, seat)
            # 11.71: Secure Supply, checked now ("make a supply check as needed"), not the last Supply
            # Phase's mark; the SCW has no Sea, Fortress or Siege Supply (no Seapower, no fortress hex)
            if st.is_battle(pub, b["hex"]) or b.get("unsupplied") or b["hex"] not in supplied:
                raise illegal(o, f"{tok} must be unengaged and in Secure Supply to build", "11.71")
            ident = env.ident(tok)
            # SCW 7C: public, so every tool re-checks an HQ's claimed cost at its next reveal
            o["double"] = supply.double_supply(pub, env.board, seat, b["hex"])
            cost = -1 if ident is None else st.step_cost(pub["scenario"], seat, str(ident["type"]), o["double"])
            if ident is not None:
                if int(ident["cv"]) - int(b["lost"]) >= int(ident["max"]):
                    raise illegal(o, f"{tok} ({ident['unit']}) is at full strength", "2.6")
                o["cost"] = cost
            if not isinstance(o.get("cost"), int) or o["cost"] < 0:
                raise illegal(o, f"the build of {tok} states no cost", "11.71")
            built.add(tok)
            spent += int(o["cost"])
        else:
            spent += _check_arrival(env, o, seat, arriving, seen)
    if spent > int(pub["pp"].get(seat, 0)):
        raise illegal(chosen[-1] if chosen else None, f"the builds cost {spent} PPs, {pub['pp'].get(seat, 0)} are "
                      "available", "11.4")
    return spent


def _check_arrival(env: Env, o: dict[str, Any], seat: str, arriving: dict[str, int],
                   seen: dict[str, set[str]]) -> int:
    pub, data = env.public, load(env.public["scenario"])
    due = {u.uid: u for u in data.units if u.setup == "reinforcement" and u.side == seat}
    months = reinforcement_months(pub["scenario"])
    if pub.get("aid_ended") and o["unit"] in FOREIGN:
        raise illegal(o, f"{o['unit']} is a foreign unit and foreign aid has ended", "SCW 6")
    month = st.next_month(pub["month"]) if o.get("advance") else pub["month"]
    if o["unit"] not in due or months.get(o["unit"], "9999") > month or o["unit"] in pub["arrived"]:
        raise illegal(o, f"{o['unit']} is no reinforcement of yours due now", "11.82" if o.get("advance") else "11.8")
    cost = 0
    if o.get("advance"):
        if months.get(o["unit"], "9999") < pub["month"]:
            raise illegal(o, f"{o['unit']} was due in {months[o['unit']]}: a delayed arrival comes at its full "
                          "arrival strength, with no advancing", "11.83")
        if months.get(o["unit"], "9999") == pub["month"]:
            raise illegal(o, f"{o['unit']} is due now: its arrival needs no advancing", "11.82")
        cost = rebuild.check_advance(env, o, seen, due[o["unit"]])
    h, place = o["hex"], env.board.at.get(o["hex"])
    where = reinforcement_places(pub["scenario"]).get(o["unit"], "friendly-port")
    if where == "friendly-port" and (place is None or not place.port):
        raise illegal(o, f"{o['unit']} arrives in a friendly port; {h} is none", "11.81")
    if where != "friendly-port" and (place is None or place.name != where):
        raise illegal(o, f"{o['unit']} arrives in {where}", "11.81")
    if st.control(pub, env.board, h) != seat or st.is_battle(pub, h) or \
            h not in supply.rail_supplied(pub, env.board, seat):
        raise illegal(o, f"{h} is not a friendly, unembattled Arrival Location in Rail Supply", "11.81")
    arriving[h] = arriving.get(h, 0) + 1
    if arriving[h] > (2 if place is not None and place.kind == "major" else 1):
        raise illegal(o, f"too many units arrive in {h}", "11.81")
    return cost


def reinforcement_months(scenario: str) -> dict[str, str]:
    return {u: m for u, (m, _w) in _reinforcements(scenario).items()}


def reinforcement_places(scenario: str) -> dict[str, str]:
    return {u: w for u, (_m, w) in _reinforcements(scenario).items()}


@functools.cache
def _reinforcements(scenario: str) -> dict[str, tuple[str, str]]:
    recs = read_records(scenario_root() / scenario / "scenario.txt", "eurofront-scenario", Issues())
    return {r.words[0]: (r.attrs["month"], r.attrs["arrive"]) for r in recs if r.keyword == "reinforcement"}


# --- the steps -----------------------------------------------------------------------------

def seal(env: Env) -> None:
    """End of a ``production`` file: commit to the side's choices (none from another tool)."""
    pub = env.public
    value = list(env.private.get("production", [])) if env.private is not None else None
    pub["production_refs"][env.seat] = env.ctx.commit("production", value, f"{pub['month']} {env.seat}")
    env.ctx.event("production-sealed", side=env.seat)


def open_choices(env: Env) -> None:
    """A ``production-open`` file: open the side's commitment, check and apply it (11.4, 11.71, 11.8)."""
    pub, seat = env.public, env.seat
    value = env.ctx.open(pub["production_refs"][seat])
    if value == {} and env.private is not None:
        value = env.private.get("production", [])  # a dry check cannot open earlier commitments
    if not isinstance(value, list) or not all(isinstance(o, dict) and o.get("verb") in SEALED for o in value):
        raise illegal(None, "the opened production is not a list of build/arrive orders", "11.2")
    spent = check_choices(_as_sealed(env), value, seat)
    for o in value:
        if o["verb"] == "garrison":
            garrisons.place(env, o)
        elif o["verb"] == "cadre":
            rebuild.apply_cadre(env, o)
        elif o["verb"] == "disband":
            rebuild.apply_disband(env, o)
        elif o["verb"] == "build":
            b = pub["blocks"][o["block"]]
            b["lost"] -= 1
            b["trail"].append({"seq": env.ctx.seq, "build": int(o["cost"])})
            if o.get("double"):
                b["trail"][-1]["double"] = True
            env.ctx.event("built", block=o["block"], cost=int(o["cost"]))
        else:
            _arrive(env, o)
    pub["saved"][seat] = 0 if spent or any(o["verb"] in ("build", "cadre") for o in value) else pub["pp"][seat]
    if env.private is not None:
        env.private.pop("production", None)
    if seat == SEATS[-1]:
        pub.pop("sealed_board", None)
        _foreign_aid(env)


def _as_sealed(env: Env) -> Env:
    """Both sides sealed their production against the same map: the first side's opened choices
    (disbands, garrisons, cadres, arrivals) must not make the second's illegal, so the second is
    checked against the map as it was sealed (public ``sealed_board``, kept between the files)."""
    pub = env.public
    if env.seat != SEATS[-1] or "sealed_board" not in pub:
        if env.seat != SEATS[-1]:
            pub["sealed_board"] = copy.deepcopy({k: pub.get(k, {}) for k in KEPT})
        return env
    return Env({**pub, **copy.deepcopy(pub["sealed_board"])}, env.private, env.seat, env.ctx, env.board)


KEPT = ("blocks", "garrisons", "dead", "removed")


def _arrive(env: Env, o: dict[str, Any]) -> None:
    pub, seat = env.public, env.seat
    spec = next(u for u in load(pub["scenario"]).units if u.uid == o["unit"])
    # A new token: never one of an eliminated block (its cadre keeps it, 11.72) nor a removed one.
    used = [t for where in ("blocks", "dead", "removed") for t, b in pub.get(where, {}).items() if b["side"] == seat]
    n = max([int(t[1:]) for t in used] + [int(pub["tokens"].get(seat, 0))])
    tok = f"{PREFIX[seat]}{n + 1}"
    pub["tokens"][seat] = n + 1
    cv = int(spec.cv) - (1 if o.get("advance") == "reduced" else 0)  # 11.82
    ident = {"unit": spec.uid, "type": spec.type, "nation": spec.nation, "cv": cv, "max": spec.max}
    pub["blocks"][tok] = {"side": seat, "hex": o["hex"], "lost": 0, "up": False, "opened": dict(ident),
                          "trail": [], "ref": env.ctx.commit("block", {"token": tok, **ident}, tok)}
    if env.private is not None:
        env.private["blocks"][tok] = dict(ident)
    pub["arrived"].append(spec.uid)
    env.ctx.event("reinforcement", block=tok, unit=spec.uid, hex=o["hex"])


def _foreign_aid(env: Env) -> None:
    """SCW 3 French Aid die (tables.toml) and SCW 5 Soviet Aid blockade from S'37, for next month."""
    pub = env.public
    table = load(pub["scenario"]).tables["foreign_aid"]["french"]
    (die,) = env.ctx.roll(6, f"french aid {pub['month']}")
    result = str(table["die"][str(die)])
    level = int(pub["aid"]["french"])
    level = level - 1 if result == "-1" else level if result == "same" else int(result)
    pub["aid"]["french"] = max(int(table["min"]), min(int(table["max"]), level))
    if pub["month"] >= "1937-06" and not st.v2(pub):  # release 0.1: next month's Soviet Aid
        ports = [p for p in {p.hex: p for p in env.board.places.values()}.values()
                 if p.port and p.country == "SPA" and st.control(pub, env.board, p.hex) == "republicans"]
        count = sum(2 if p.name == "Barcelona" else 1 for p in ports)
        (roll,) = env.ctx.roll(6, f"soviet aid blockade {pub['month']}")
        pub["aid"]["soviet"] = 1 if roll <= count else 0
        env.ctx.event("blockade", side="republicans", die=roll, ports=count, arrived=roll <= count)
    env.ctx.event("french-aid", die=die, pp=pub["aid"]["french"])


def aid_rolls(pub: dict[str, Any]) -> int:
    return 2 if pub["month"] >= "1937-06" and not st.v2(pub) else 1
