"""Legal actions for EuroFront (RulesModule.legal_actions): each verb's offers from the table.

An offer may use the asking seat's private state (its own blocks' types and speeds): the
answer goes to that seat's tool only. Moves list one legal path per reachable destination,
found by trying the very checks ``apply`` runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from pbem.errors import IllegalOrder
from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex
from pbem.rulesapi import Action, Arg, Context

from . import assign, garrisons, production, railheads, rebuild, supply
from . import state as st
from .aid_end import FOREIGN
from .data import Board, load
from .paradrop import PARA
from .rail import rail_paths
from .supply import below_floor
from .table import TABLE
from .verbs import Env


@dataclass
class Ask:
    public: dict[str, Any]
    private: dict[str, Any] | None
    board: Board

    def env(self, seat: str) -> Env:
        # The checks never touch the context: they only read the state.
        return Env(self.public, self.private, seat, cast(Context, None), self.board)


def _mine(ask: Ask, seat: str) -> list[str]:
    return sorted((t for t, b in ask.public["blocks"].items() if b["side"] == seat), key=st.token_key)


def _type(ask: Ask, tok: str) -> str | None:
    ident = (ask.private or {}).get("blocks", {}).get(tok)
    return None if ident is None else str(ident["type"])


def offer_seal(state: Any, seat: str) -> list[Action]:
    return [Action("seal", (), "EF 3.2", "commit to your blocks' identities (they stay hidden)")]


def offer_activate(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    out = []
    for tok in _mine(ask, seat):
        if tok in ask.public["hqs"] or _type(ask, tok) not in ("HQ", "THQ"):
            continue
        env = ask.env(seat)
        deploy = []
        for n in ask.board.neighbours(ask.public["blocks"][tok]["hex"]):
            try:
                TABLE.check(env, {"verb": "activate", "block": tok, "deploy": n})
            except IllegalOrder:
                continue
            deploy.append(n)
        args = [Arg("block", "unit", (tok,))]
        if deploy:
            args.append(Arg("deploy", "hex", tuple(deploy), keyword="deploy", optional=True))
        if _type(ask, tok) == "HQ" and (st.current_cv(ask.public, ask.private, tok) or 0) >= 1:
            args.append(Arg("blitz", "word", ("blitz",), optional=True))  # 5.6
        if _type(ask, tok) == "HQ" and _paras(ask, seat, ask.public["blocks"][tok]["hex"]):
            args.append(Arg("paradrop", "word", ("paradrop",), optional=True))  # 14.21
        out.append(Action("activate", tuple(args), "EF 5.2", f"activate {tok} (reveals it)"))
    return out


def _paths(ask: Ask, seat: str, verb: str, tok: str, supreme: bool) -> tuple[tuple[str, ...], ...]:
    env = ask.env(seat)
    start = ask.public["blocks"][tok]["hex"]
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(st.MAX_SPEED):
        nxt = []
        for p in frontier:
            for n in ask.board.neighbours(p[-1] if p else start):
                path = (*p, n)
                try:
                    TABLE.check(env, {"verb": verb, "block": tok, "path": list(path), "supreme": supreme})
                except IllegalOrder:
                    continue
                nxt.append(path)
                found.setdefault(n, path)
        frontier = nxt
    found.pop(start, None)
    return tuple(found[h] for h in sorted(found))


def offer_move(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    out = []
    for tok in _mine(ask, seat):
        if tok in ask.public["moved"] or tok in ask.public["hqs"]:
            continue
        supreme = _type(ask, tok) == "Static" or ask.public["blocks"][tok]["hex"] not in ask.public["command"]
        paths = _paths(ask, seat, "move", tok, supreme)
        if not paths:
            continue
        args = [Arg("block", "unit", (tok,)), Arg("path", "hex", tuple(p[-1] for p in paths), repeat=True)]
        if supreme:
            args.append(Arg("supreme", "word", ("supreme",)))
        out.append(Action("move", tuple(args), "EF 6.1", f"move {tok}", paths=paths))
    return out


def offer_mobilize(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    out = []
    for tok in _mine(ask, seat):
        hq = ask.public["hqs"].get(tok)
        first = ask.public["phase"] == "movement"
        if hq is not None and tok not in ask.public["moved"] and not (hq.get("blitz") and first):  # 5.6
            paths = _paths(ask, seat, "mobilize", tok, False)
            out.append(Action("mobilize", (Arg("block", "unit", (tok,)),
                                           Arg("path", "hex", tuple(p[-1] for p in paths), optional=True,
                                               repeat=True)),
                              "EF 5.51", f"deactivate {tok} and move it", paths=paths))
    return out


def offer_rail(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    if not any(h["thq"] and h["moves"] > 0 for t, h in ask.public["hqs"].items()
               if ask.public["blocks"][t]["side"] == seat):
        return []
    out = []
    linked = supply.rail_supplied(ask.public, ask.board, seat)  # 9.12
    for tok in _mine(ask, seat):
        if tok in ask.public["moved"] or tok in ask.public["hqs"]:
            continue
        paths = tuple(p for p in rail_paths(ask.env(seat), tok) if set(p) <= linked)
        if paths:
            out.append(Action("rail", (Arg("block", "unit", (tok,)),
                                       Arg("path", "hex", tuple(p[-1] for p in paths), repeat=True)),
                              "EF 9.21", f"move {tok} by rail (a Supreme Move)", paths=paths))
    return out


def offer_battle(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    hexes = tuple(h for h in sorted(ask.public["battles"]) if h not in ask.public["active_battles"]
                  and st.is_battle(ask.public, h))
    return [Action("battle", (Arg("hex", "hex", hexes),), "EF 7.14", "fight this battle (reveals your blocks)")
            ] if hexes else []


def offer_retreat(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    out = []
    for tok in _mine(ask, seat):
        h = ask.public["blocks"][tok]["hex"]
        if tok in ask.public["moved"] or tok in ask.public["hqs"] or not st.is_battle(ask.public, h):
            continue
        supreme = _type(ask, tok) == "Static" or h not in ask.public["command"]
        paths = _paths(ask, seat, "retreat", tok, supreme)
        if paths:
            args = [Arg("block", "unit", (tok,)), Arg("path", "hex", tuple(p[-1] for p in paths), repeat=True)]
            if supreme:
                args.append(Arg("supreme", "word", ("supreme",)))
            out.append(Action("retreat", tuple(args), "EF 6.51", f"{tok} as Rearguard (revealed; Pursuit Fire)",
                              paths=paths))
    return out


def offer_airstrike(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    env = ask.env(seat)
    out = []
    for tok in sorted(ask.public["hqs"], key=st.token_key):
        hexes = []
        for h in sorted(ask.public["battles"]):
            try:
                TABLE.check(env, {"verb": "airstrike", "block": tok, "hex": h})
            except IllegalOrder:
                continue
            hexes.append(h)
        if hexes:
            out.append(Action("airstrike", (Arg("block", "unit", (tok,)), Arg("hex", "hex", tuple(hexes))),
                              "EF 7.13", f"an Airstrike by {tok}"))
    return out


def offer_losses(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    toks = tuple(t for t in _mine(ask, seat) if ask.public["blocks"][t]["up"]
                 or ask.public["blocks"][t]["hex"] in ask.public["active_battles"])
    return [Action("losses", (Arg("blocks", "unit", toks, repeat=True),), "EF 7.33",
                   "your choice among equal units taking hits")] if toks else []


def offer_attrition(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    owed = [t for t in _mine(ask, seat) if (ask.private or {}).get("blocks", {}).get(t) is not None
            and below_floor(ask.private["blocks"][t] if ask.private else {}, int(ask.public["blocks"][t]["lost"]))]
    # One action listing every owed block: a file must remove them all (10.6), so a bot's fallback
    # tries them together (two separate actions were a soak dead end).
    if not owed:
        return []
    return [Action("attrition", (Arg("block", "unit", tuple(owed)),), "EF 10.6",
                   f"remove {', '.join(owed)}: attrition took the last step (all of them in this file)")]


def offer_build(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    out = []
    for tok in _mine(ask, seat):
        try:
            TABLE.check(ask.env(seat), {"verb": "build", "block": tok})
        except IllegalOrder:
            continue
        out.append(Action("build", (Arg("block", "unit", (tok,)),), "EF 11.71", f"build a step of {tok} (sealed)"))
    return out


def offer_arrive(state: Any, seat: str) -> list[Action]:
    """11.8 reinforcements due (or delayed, 11.83), and 11.82 advanced arrivals due next month."""
    ask = cast(Ask, state)
    out = []
    for unit in sorted(production.reinforcement_months(ask.public["scenario"])):
        for how in (None, "advance", "reduced"):
            hexes = []
            for h in sorted(ask.board.at):
                o = {"verb": "arrive", "unit": unit, "hex": h, **({"advance": how} if how else {})}
                try:
                    TABLE.check(ask.env(seat), o)
                except IllegalOrder:
                    continue
                hexes.append(h)
            if hexes and how is None:
                out.append(Action("arrive", (Arg("unit", "word", (unit,)), Arg("hex", "hex", tuple(hexes))),
                                  "EF 11.8", f"{unit} arrives (sealed)"))
            elif hexes:
                out.append(Action("arrive", (Arg("unit", "word", (unit,)), Arg("hex", "hex", tuple(hexes)),
                                             Arg("advance", "word", (str(how),))), "EF 11.82",
                                  f"{unit} arrives a month early ({how}; sealed)"))
    return out


def offer_disband(state: Any, seat: str) -> list[Action]:
    """11.84: each block of the side that can be disbanded now (sealed)."""
    ask = cast(Ask, state)
    out = []
    for tok in _mine(ask, seat):
        try:
            TABLE.check(ask.env(seat), {"verb": "disband", "block": tok})
        except IllegalOrder:
            continue
        out.append(Action("disband", (Arg("block", "unit", (tok,)),), "EF 11.84", f"disband {tok} (sealed)"))
    return out


def offer_place(state: Any, seat: str) -> list[Action]:
    """Free Setup: each unit still to place with the loyal places that take it now."""
    ask = cast(Ask, state)
    out = []
    for unit in sorted((ask.private or {}).get("pool", {})):
        hexes = []
        for h in sorted(ask.board.at):
            try:
                TABLE.check(ask.env(seat), {"verb": "place", "unit": unit, "hex": h})
            except IllegalOrder:
                continue
            hexes.append(h)
        if hexes:
            out.append(Action("place", (Arg("unit", "word", (unit,)), Arg("hex", "hex", tuple(hexes))),
                              "EF SCW Setup", f"place {unit} (the hex is public, the unit is not)"))
    return out


def offer_recognition(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    try:
        TABLE.check(ask.env(seat), {"verb": "recognition"})
    except IllegalOrder:
        return []
    return [Action("recognition", (), "EF SCW 9B", "try for Foreign Recognition (both pairs under the level)")]


def offer_withdraw(state: Any, seat: str) -> list[Action]:
    ask = cast(Ask, state)
    if not ask.public.get("aid_ended"):
        return []
    return [Action("withdraw", (Arg("block", "unit", (t,)),), "EF SCW 6", f"withdraw {t}: foreign aid has ended")
            for t in _mine(ask, seat) if (ask.private or {}).get("blocks", {}).get(t, {}).get("unit") in FOREIGN]


def offer_garrison(state: Any, seat: str) -> list[Action]:
    """SCW 2: the cities and towns and the hexes of one's blocks that take a garrison now (supply
    computed once here, not per hex)."""
    ask = cast(Ask, state)
    if int(ask.public["pp"].get(seat, 0)) < garrisons.COST:
        return []
    supplied = supply.supplied_hexes(ask.public, ask.board, seat)
    spots = {*ask.board.at, *(ask.public["blocks"][t]["hex"] for t in _mine(ask, seat))}
    hexes = []
    for h in sorted(spots):
        try:
            garrisons.check_garrison(ask.env(seat), {"hex": h}, seat, supplied)
        except IllegalOrder:
            continue
        hexes.append(h)
    if not hexes:
        return []
    return [Action("garrison", (Arg("hex", "hex", tuple(hexes)),), "EF SCW 2", "a garrison for 1 PP (sealed)")]


def offer_cadre(state: Any, seat: str) -> list[Action]:
    """11.72, SCW 7A: the side's eliminated blocks, in the loyal cities that take them now."""
    ask = cast(Ask, state)
    out = []
    cities = sorted({p.hex for p in ask.board.places.values() if p.loyal == seat and p.kind in ("major", "minor")})
    for tok, dead in sorted(ask.public.get("dead", {}).items()):
        if dead["side"] != seat:
            continue
        hexes = []
        for h in cities:
            o = {"verb": "cadre", "block": tok, "hex": h}
            try:
                cost = rebuild.check_cadre(ask.env(seat), o, seat, {"disband": set(), "cadre": set()}, {})
            except IllegalOrder:
                continue
            if cost <= int(ask.public["pp"].get(seat, 0)):
                hexes.append(h)
        if hexes:
            out.append(Action("cadre", (Arg("block", "word", (tok,)), Arg("hex", "hex", tuple(hexes))),
                              "EF 11.72", f"rebuild {tok} as a cadre (sealed)"))
    return out


def offer_railhead(state: Any, seat: str) -> list[Action]:
    """SCW 3, 5: the ports (and French border hexes) that take this month's RailHead."""
    ask = cast(Ask, state)
    hexes = []
    for h in sorted({p.hex for p in ask.board.places.values() if p.port or p.border_rail}):
        try:
            railheads.check_railhead(ask.env(seat), {"verb": "railhead", "hex": h})
        except IllegalOrder:
            continue
        hexes.append(h)
    return [Action("railhead", (Arg("hex", "hex", tuple(hexes)),), "EF SCW 3", "a RailHead for Foreign Aid")
            ] if hexes else []


def _paras(ask: Ask, seat: str, h: str) -> list[str]:
    return [t for t in _mine(ask, seat) if ask.public["blocks"][t]["hex"] == h and _type(ask, t) == PARA]


def offer_drop(state: Any, seat: str) -> list[Action]:
    """14.22: each Para stacked with an active Paradrop HQ, to every hex the checks accept."""
    ask = cast(Ask, state)
    pub, env, out = ask.public, ask.env(seat), []
    for tok, hq in sorted(pub["hqs"].items()):
        if hq.get("drop") is None or pub["blocks"][tok]["side"] != seat:
            continue
        start = parse_hex(pub["blocks"][tok]["hex"])
        near = [h for h in sorted(ask.board.terrain) if GRID.distance(start, parse_hex(h)) <= int(hq["drop"])]
        for para in _paras(ask, seat, pub["blocks"][tok]["hex"]):
            hexes = []
            for h in near:
                try:
                    TABLE.check(env, {"verb": "drop", "block": para, "path": [h], "supreme": False})
                except IllegalOrder:
                    continue
                hexes.append(h)
            if hexes:
                out.append(Action("drop", (Arg("block", "unit", (para,)), Arg("hex", "hex", tuple(hexes))),
                                  "EF 14.22", f"airdrop {para} (an enemy hex: an Air Assault, 14.41)"))
    return out


def offer_cv(state: Any, seat: str) -> list[Action]:
    """22.2: ``cv UNIT N`` for each starting unit of a type whose total leaves a choice (not the
    Static row: each militia's full CV is its CV); the seal checks each type's total."""
    ask = cast(Ask, state)
    pub = ask.public
    if pub.get("setup") not in ("semi-historical", "free") or seat in pub["sealed"] or not pub.get("ob"):
        return []
    mine = {str(i["unit"]): i for i in (ask.private or {}).get("pool", {}).values()}
    mine.update({str(i["unit"]): i for i in (ask.private or {}).get("blocks", {}).values()})
    want = assign.totals(load(pub["scenario"]), seat)
    room: dict[str, int] = {}
    for ident in mine.values():
        room[assign.group(str(ident["type"]))] = room.get(assign.group(str(ident["type"])), 0) + int(ident["max"])
    out = []
    for unit, ident in sorted(mine.items()):
        row = assign.group(str(ident["type"]))
        if room.get(row, 0) <= want.get(row, 0):
            continue  # every unit of the row at its full CV: no choice
        values = tuple(str(n) for n in range(1, int(ident["max"]) + 1))
        out.append(Action("cv", (Arg("unit", "word", (unit,)), Arg("cv", "number", values)), "EF 22.2",
                          f"{unit}'s starting CV (1 to {ident['max']}; sealed)",
                          note=f"the {row} units must total {want.get(row, 0)} CV at the seal"))
    return out


def offer_end(state: Any, seat: str) -> list[Action]:
    if state.public["phase"] in ("place", "seal"):
        return []  # a placement file must place (placement.end_placement), a seal file seal (sequence.finish)
    return [Action("end-phase", (), "EF 4.3", "end this phase")]


OFFERS = {"seal": offer_seal, "activate": offer_activate, "move": offer_move, "mobilize": offer_mobilize,
          "rail": offer_rail, "battle": offer_battle, "end-phase": offer_end,
          "retreat": offer_retreat, "airstrike": offer_airstrike, "losses": offer_losses,
          "attrition": offer_attrition, "build": offer_build, "arrive": offer_arrive,
          "place": offer_place, "recognition": offer_recognition,
          "withdraw": offer_withdraw, "garrison": offer_garrison, "cadre": offer_cadre,
          "railhead": offer_railhead, "disband": offer_disband, "cv": offer_cv, "drop": offer_drop}


def legal_actions(public: dict[str, Any], private: Any, seat: str, board: Board) -> list[Action]:
    if public["over"] or public["active"] != seat:
        return []
    ask = Ask(public, private, board)
    verbs = [v for v in TABLE.names if TABLE.allowed(v, public["phase"])]
    return [a for v in verbs for a in OFFERS[v](ask, seat)]
