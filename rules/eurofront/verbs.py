"""The EuroFront order verbs: seal, activate, move, mobilize, end-phase (the table: table.py).

Every check runs in two tools. The author's tool holds its private state (``env.private``):
it checks everything, the hidden facts included (a block's type and speed). Every other tool
replays the public orders without it: it checks what is public (positions, revealed HQs,
terrain, hexsides, stacking counts) and records each hidden move in the block's ``trail``, which
is checked against the block's type when its commitment is opened (``recheck``). A refusal
names only the author's own blocks, never an enemy block's identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.errors import IllegalOrder
from pbem.kit.hexgrid import parse_hex
from pbem.kit.orders import Line, resolve_name
from pbem.rulesapi import Context

from . import assign, blitz, paradrop
from . import state as st
from .data import Board
from .setup import seal

RULEBOOK = "EF"


@dataclass
class Env:
    public: dict[str, Any]
    private: dict[str, Any] | None  # the author's own private state; None when replaying
    seat: str
    ctx: Context
    board: Board

    def ident(self, token: str) -> dict[str, Any] | None:
        """The block's identity where this tool knows it: its owner's private state, or a face-up
        block's public opening (so every tool checks a revealed block's moves in full)."""
        if self.private is not None and token in self.private["blocks"]:
            found: dict[str, Any] = self.private["blocks"][token]
            return found
        b = self.public["blocks"].get(token)
        return b["opened"] if b is not None and b["up"] else None


class EfLine(Line):
    def __init__(self, no: int, text: str, public: dict[str, Any], board: Board) -> None:
        super().__init__(no, text)
        self.public = public
        self.board = board

    def block(self) -> str:
        col, tok = self.take("a block (e.g. n3)")
        return resolve_name(sorted(self.public["blocks"]), tok.lower(), self.no, col, what="block")

    def hex(self) -> str:
        col, tok = self.take("a hex XXYY")
        try:
            h = str(parse_hex(tok))
        except ValueError as e:
            raise self.err(str(e), col) from None
        if h not in self.board.terrain:
            raise self.err(f"hex {h} is not on the map", col)
        return h


def illegal(o: dict[str, Any] | None, message: str, rule: str) -> IllegalOrder:
    line = o.get("line") if o else None
    col = o.get("col") if o else None
    return IllegalOrder(message, rule=f"{RULEBOOK} {rule}", line=line, column=col)


# --- parsing ---------------------------------------------------------------------------------

def parse_nothing(ln: EfLine, o: dict[str, Any]) -> None:
    return None


def parse_activate(ln: EfLine, o: dict[str, Any]) -> None:
    o["block"] = ln.block()
    o["deploy"] = None
    while ln.more():
        if ln.peek() == "blitz":
            ln.take("blitz")
            o["blitz"] = True  # 5.6: the BLITZ marker (the key only when given: older files stay the same)
        elif ln.peek() == "paradrop":
            ln.take("paradrop")
            o["paradrop"] = True  # 14.21: a Paradrop HQ
        else:
            ln.take("deploy")
            o["deploy"] = ln.hex()


def parse_move(ln: EfLine, o: dict[str, Any]) -> None:
    o["block"] = ln.block()
    o["path"] = []
    o["supreme"] = False
    while ln.more():
        if ln.peek() == "supreme":
            ln.take("supreme")
            o["supreme"] = True
            continue
        o["path"].append(ln.hex())
    if not o["path"] and o["verb"] == "move":
        raise ln.err("missing the hexes to move through")


# --- checks shared by the tools ----------------------------------------------------------------

def _own(env: Env, o: dict[str, Any], rule: str = "6.1") -> dict[str, Any]:
    b: dict[str, Any] = env.public["blocks"][o["block"]]
    if b["side"] != env.seat:
        raise illegal(o, f"{o['block']} is not one of your blocks", rule)
    return b


def check_activate(env: Env, o: dict[str, Any]) -> None:
    b = _own(env, o, "5.2")
    tok = o["block"]
    if tok in env.public["hqs"]:
        raise illegal(o, f"{tok} is already active this Player-Turn", "5.2")
    mine = env.ident(tok)
    if mine is not None and mine["type"] not in ("HQ", "THQ"):
        raise illegal(o, f"{tok} is your {mine['unit']} ({mine['type']}), not an HQ: only HQs activate", "5.2")
    if mine is not None and o.get("blitz") and mine["type"] == "THQ":
        raise illegal(o, f"{tok} is your {mine['unit']} (THQ): THQs cannot Blitz", "5.8")
    if o.get("paradrop"):
        paradrop.check_designate(env, o, mine)
    if o["deploy"] is not None:
        _check_deploy(env, o, b["hex"], o["deploy"])


def _check_deploy(env: Env, o: dict[str, Any], frm: str, to: str) -> None:
    if env.public["weather"] == "mud":
        raise illegal(o, "HQs cannot deploy in Mud weather", "5.21")
    if not env.board.enterable(to):
        raise illegal(o, f"{to} is not a land hex of Spain or Spanish Morocco", "SCW The Map")
    if not st.adjacent(frm, to) or "water" in env.board.side_kinds(frm, to):
        raise illegal(o, f"an HQ deploys one hex: {to} is not next to {frm} over land", "5.21")
    owner = st.control(env.public, env.board, to)
    if st.sides_in(env.public, to) - {env.seat} or owner not in (env.seat, None):
        raise illegal(o, f"HQs deploy into friendly hexes only, not into {to} ({owner or 'a battle'})", "5.21")


def apply_activate(env: Env, o: dict[str, Any]) -> None:
    tok = o["block"]
    b = env.public["blocks"][tok]
    value = env.ctx.open(b["ref"])
    mine = env.ident(tok)
    if value == {} and mine is not None:
        # A dry check (check_orders without the engine's context) cannot open earlier commitments.
        value = {"token": tok, **mine}
    ident = _check_opening(env, o, tok, value)
    if ident["type"] not in ("HQ", "THQ"):
        raise illegal(o, f"{tok} opens as {ident['type']}, not an HQ", "5.2")
    recheck(env, tok, ident)
    if o["deploy"] is not None:
        frm = b["hex"]
        if st.enemy(env.seat) in st.sides_in(env.public, frm) and st.blocks_at(env.public, frm, env.seat) == [tok]:
            # 5.21: the last unit deploying out of a battle retreats: it is its own Rearguard and takes
            # Pursuit Fire in the pursuit step (retreat.py); deploying is no move (no hexside count)
            env.public["retreats"][tok] = {"hex": frm, "path": [o["deploy"]], "deploy": True,
                                           "order": len(env.public["retreats"])}
            env.ctx.event("rearguard", block=tok, hex=frm, path=[o["deploy"]])
        b["hex"] = o["deploy"]
    cv = int(ident["cv"]) - int(b["lost"])
    capital = {"republicans": "Madrid"}.get(env.seat)
    in_capital = capital is not None and env.board.at.get(b["hex"]) is not None \
        and env.board.at[b["hex"]].name == capital
    disrupted = 1 if env.public["weather"] == "mud" and not (ident["type"] == "THQ" and in_capital) else 0
    eff = cv - disrupted  # 5.32, 12.31
    thq = ident["type"] == "THQ"
    env.public["hqs"][tok] = {"cv": cv, "range": eff, "thq": thq, "moves": max(eff, 0) if thq else 0}
    if o.get("blitz"):
        blitz.designate(env, o, tok, ident, cv)
    if o.get("paradrop"):
        if ident["type"] != "HQ":
            raise illegal(o, f"{tok} opens as {ident['type']}: only field HQs command a Paradrop", "14.21")
        paradrop.designate(env, tok, eff)
    b["up"], b["opened"] = True, ident
    env.ctx.event("activated", block=tok, unit=ident["unit"], type=ident["type"], cv=cv, range=eff,
                  hex=b["hex"], deployed=o["deploy"] is not None)


def open_block(env: Env, tok: str, rule: str) -> dict[str, Any]:
    """Open a block's commitment, check it and its hidden trail, and turn it face up."""
    b = env.public["blocks"][tok]
    value = env.ctx.open(b["ref"])
    mine = env.ident(tok)
    if value == {} and mine is not None:
        value = {"token": tok, **mine}  # a dry check cannot open earlier commitments
    if not isinstance(value, dict) or value.get("token") != tok:
        raise illegal(None, f"the opening of {tok}'s commitment is not an identity of {tok}", rule)
    ident = {k: value[k] for k in ("unit", "type", "nation", "cv", "max")}
    recheck(env, tok, ident)
    b["up"], b["opened"] = True, ident
    env.ctx.event("revealed", block=tok, unit=ident["unit"], type=ident["type"],
                  cv=int(ident["cv"]) - int(b["lost"]), hex=b["hex"])
    return ident


def _check_opening(env: Env, o: dict[str, Any], tok: str, value: Any) -> dict[str, Any]:
    keys = ("token", "unit", "type", "nation", "cv", "max")
    if not isinstance(value, dict) or set(value) != set(keys) or value["token"] != tok:
        raise illegal(o, f"the opening of {tok}'s commitment is not an identity of {tok}", "5.2")
    return {k: value[k] for k in keys if k != "token"}


def recheck(env: Env, tok: str, ident: dict[str, Any]) -> None:
    """A block is revealed: its hidden moves since the last reveal are checked against its type
    (issue 13 item 2); an illegal one names the file, the seat and the rule."""
    b = env.public["blocks"][tok]
    wrong = assign.check_identity(env.public, b["side"], ident)
    if wrong is not None:
        raise illegal(None, f"found illegal at reveal: {tok}'s sealed identity: {wrong}", "22.2")
    floor = 0 if ident["type"] in ("HQ", "THQ", "Static") else 1
    if int(ident["cv"]) - int(b["lost"]) < floor:
        raise illegal(None, f"found illegal at reveal: {tok} ({ident['unit']}) lost more steps than it had and "
                      f"should have been removed by {b['side']} (attrition {tok})", "10.6")
    if int(ident["cv"]) - int(b["lost"]) > int(ident["max"]):
        raise illegal(None, f"found illegal at reveal: {tok} ({ident['unit']}) was built beyond its full CV "
                      f"{ident['max']}", "2.6")
    for t in b["trail"]:
        if "build" in t:
            want = st.step_cost(env.public["scenario"], b["side"], str(ident["type"]), bool(t.get("double")))
            if t["build"] != want:
                raise illegal(None, f"found illegal at reveal: {tok} ({ident['unit']}, {ident['type']}) was built in "
                              f"file {t['seq']} for {t['build']} PPs; a step costs {want}", "SCW 7")
            continue
        where = f"{tok} ({ident['unit']}, {ident['type']}) in file {t['seq']} by {b['side']}"
        if _recheck_special(b, ident, t, where):
            continue
        speed = 1 if t["weather"] == "mud" else st.SPEED[ident["type"]]
        if len(t["path"]) > speed and not t.get("rail"):
            raise illegal(None, f"hidden move found illegal at reveal: {where} moved {len(t['path'])} "
                          f"hexes, its speed is {speed}", "2.2" if t["weather"] != "mud" else "12.32")
        if t["engage"] and ident["type"] in ("HQ", "THQ"):
            raise illegal(None, f"hidden move found illegal at reveal: {where} engaged; HQs never "
                          "voluntarily engage", "5.1")
        if ident["type"] == "Static" and not t["supreme"]:
            raise illegal(None, f"hidden move found illegal at reveal: {where} moved without a "
                          "Supreme Move; Static units move by Supreme Command only", "2.27")
    b["trail"] = []


def _recheck_special(b: dict[str, Any], ident: dict[str, Any], t: dict[str, Any], where: str) -> bool:
    """Airdrops (14.1, 14.22) and Fort moves (2.28) in a hidden trail; True when the entry is done."""
    if t.get("drop"):
        if ident["type"] != paradrop.PARA:
            raise illegal(None, f"hidden move found illegal at reveal: {where} airdropped; only Paratroops "
                          "airdrop", "14.1")
        return True
    if ident["type"] != "Fort":
        return False
    if not t.get("rail"):
        raise illegal(None, f"hidden move found illegal at reveal: {where} moved by land; Fort units move "
                      "by rail or sea only", "2.28")
    if t.get("engaged"):
        raise illegal(None, f"hidden move found illegal at reveal: {where} moved out of a battle; Fort units "
                      "never move when engaged", "2.28")
    b["lost"] = max(int(b["lost"]), int(ident["cv"]) - 1)  # 2.28: reduced to cadre strength if moved
    return True


def check_move(env: Env, o: dict[str, Any]) -> None:
    b = _own(env, o)
    tok = o["block"]
    if b.get("dispersed"):
        raise illegal(o, f"{tok} airdropped this Player-Turn: Dispersed Paras cannot move", "14.3")
    if tok in env.public["moved"]:
        raise illegal(o, f"{tok} has already moved this Movement Phase", "6.1")
    if tok in env.public["hqs"] and o["verb"] == "move":
        raise illegal(o, f"{tok} is an active HQ: it moves only by mobilizing", "5.51")
    if o["verb"] == "move":
        _check_command(env, o, b)
    blitz.check_move(env, o)
    _check_hidden(env, o)
    _check_path(env, o, b["hex"])


def _check_command(env: Env, o: dict[str, Any], b: dict[str, Any]) -> None:
    if o["supreme"]:
        if not any(h["thq"] and h["moves"] > 0 for t, h in env.public["hqs"].items()
                   if env.public["blocks"][t]["side"] == env.seat):
            raise illegal(o, "no active THQ has a Supreme Move left", "5.8")
    elif b["hex"] not in env.public["command"]:
        raise illegal(o, f"{o['block']} in {b['hex']} is not within the Command Range of an active HQ", "6.1")


def _check_hidden(env: Env, o: dict[str, Any]) -> None:
    """The author's checks of its own hidden facts (the other tools re-check at reveal)."""
    ident = env.ident(o["block"])
    if ident is None:
        return
    if ident["type"] == "Fort" and o["verb"] != "rail":
        raise illegal(o, f"{o['block']} ({ident['unit']}) is a Fort: it moves by rail or sea only", "2.28")
    here = env.public["blocks"][o["block"]]["hex"]
    if ident["type"] == "Fort" and st.enemy(env.seat) in st.sides_in(env.public, here):
        raise illegal(o, f"{o['block']} ({ident['unit']}) is a Fort: it never moves when engaged", "2.28")
    speed = 1 if env.public["weather"] == "mud" else st.SPEED[ident["type"]]
    if len(o["path"]) > speed:
        raise illegal(o, f"{o['block']} ({ident['unit']}, {ident['type']}) moves at most {speed} hexes",
                      "12.32" if env.public["weather"] == "mud" else "2.2")
    if ident["type"] == "Static" and not o["supreme"] and o["verb"] in ("move", "retreat"):
        raise illegal(o, f"{o['block']} ({ident['unit']}) is Static: it moves by Supreme Command only", "2.27")
    target = o["path"][-1] if o["path"] else None
    if ident["type"] in ("HQ", "THQ") and target is not None and st.enemy(env.seat) in st.sides_in(env.public, target):
        raise illegal(o, f"{o['block']} ({ident['unit']}) is an HQ: HQs never voluntarily engage", "5.1")


def _check_path(env: Env, o: dict[str, Any], start: str, retreat: bool = False) -> None:
    pub, board = env.public, env.board
    limit = 1 if pub["weather"] == "mud" else st.MAX_SPEED
    if len(o["path"]) > limit:
        raise illegal(o, f"no unit moves more than {limit} hexes", "12.32" if limit == 1 else "2.2")
    here, foe = start, st.enemy(env.seat)
    disengaging = foe in st.sides_in(pub, start)
    if disengaging and o["path"]:
        _check_disengage(env, o, start, o["path"][0], retreat)
    for i, step in enumerate(o["path"]):
        if not st.adjacent(here, step):
            raise illegal(o, f"{step} is not next to {here}", "6.1")
        if not board.enterable(step):
            raise illegal(o, f"{step} is not a land hex of Spain or Spanish Morocco", "SCW The Map")
        kinds = board.side_kinds(here, step)
        if "water" in kinds:
            raise illegal(o, f"no land move from {here} to {step}: open sea between them", "1.37")
        last = i == len(o["path"]) - 1
        if "strait" in kinds and (i != 0 or not last):
            raise illegal(o, f"crossing the straits from {here} to {step} must start and end the move", "1.371")
        if not last and board.terrain[step] in STOP:
            raise illegal(o, f"{step} is {board.terrain[step]}: movement stops there", STOP[board.terrain[step]])
        if foe in st.sides_in(pub, step):
            if not last:
                raise illegal(o, f"{step} holds enemy units: a unit engaging stops there", "6.31")
            if disengaging:
                raise illegal(o, "units that disengage cannot re-engage in the same move", "6.32")
            _check_hexside(env, o, here, step, "engage")
        here = step


STOP = {"marsh": "1.33", "mountain": "1.34"}


def _check_disengage(env: Env, o: dict[str, Any], start: str, first: str, retreat: bool = False) -> None:
    pub, board = env.public, env.board
    if st.control(pub, board, first) != env.seat or st.is_battle(pub, first):
        raise illegal(o, f"a unit disengaging from {start} must leave into a friendly hex; {first} is "
                      f"{st.control(pub, board, first) or 'uncontrolled'}", "6.32")
    if len(st.blocks_at(pub, start, env.seat)) == 1 and not retreat and o["verb"] != "mobilize":
        # 5.51: an HQ mobilizing out last retreats by that move (apply_move records its Pursuit Fire)
        raise illegal(o, f"{o['block']} is the last of your units in the battle at {start}: that is a Retreat; "
                      f"name it the Rearguard: retreat {o['block']} HEX..", "6.51")
    _check_hexside(env, o, start, first, "disengage")


def _check_hexside(env: Env, o: dict[str, Any], a: str, b: str, what: str) -> None:
    """6.33: two units a Clear hexside, one across any other (river, strait, non-Clear battle hex) or in Mud."""
    battle = b if what == "engage" else a
    clear = env.board.terrain[battle] == "clear" and not env.board.side_kinds(a, b) & {"river", "strait"}
    limit = 2 if clear and env.public["weather"] != "mud" else 1
    if env.public["crossed"].get(st.hexside_key(a, b), 0) >= limit:
        raise illegal(o, f"the hexside {a}-{b} has had its {limit} unit(s) engage or disengage this phase", "6.33")


def apply_move(env: Env, o: dict[str, Any]) -> None:
    tok = o["block"]
    b = env.public["blocks"][tok]
    pub, foe = env.public, st.enemy(env.seat)
    if o["verb"] == "mobilize":
        deactivate(env, tok)
        if tok not in pub["blocks"]:
            return
    start = b["hex"]
    if not o["path"]:
        return
    if o["verb"] == "mobilize" and foe in st.sides_in(pub, start) and st.blocks_at(pub, start, env.seat) == [tok]:
        # 5.51: "HQs that Retreat (are the last unit to leave a battle) by mobilizing must take immediate
        # Pursuit Fire": its own Rearguard, already moved; fired on in the pursuit step (retreat.py)
        pub["retreats"][tok] = {"hex": start, "path": list(o["path"]), "deploy": True,
                                "order": len(pub["retreats"])}
        env.ctx.event("rearguard", block=tok, hex=start, path=list(o["path"]))
    for h in st.garrisons_entered(pub, env.seat, o["path"]):
        env.ctx.event("garrison-eliminated", side=foe, hex=h)
    if foe in st.sides_in(pub, start):
        key = st.hexside_key(start, o["path"][0])
        pub["crossed"][key] = pub["crossed"].get(key, 0) + 1
        if st.v2(pub) and b["up"] and tok not in pub["hqs"]:
            b["up"] = False  # 7.12: face up only while in the battle it attacked
    end = o["path"][-1]
    engage = foe in st.sides_in(pub, end)
    if engage:
        prev = o["path"][-2] if len(o["path"]) > 1 else start
        key = st.hexside_key(prev, end)
        pub["crossed"][key] = pub["crossed"].get(key, 0) + 1
        river = bool(env.board.side_kinds(prev, end) & {"river", "strait"})  # 7.6, 1.371
        if end not in pub["battles"]:
            # 6.4, 7.12; 7.6: a River Assault while every attacker crosses a river or strait
            pub["battles"][end] = {"attacker": env.seat, "new": True, "assault": river, "from": {tok: prev}}
            env.ctx.event("battle", hex=end, attacker=env.seat)
        elif (battle := pub["battles"][end])["new"] and "from" in battle and battle["attacker"] == env.seat:
            battle["from"][tok] = prev
            battle["assault"] = battle["assault"] and river
            if battle["assault"] and "kinds" in battle:  # 7.65: a river attacker joins an Air Assault
                battle["kinds"] = sorted({*battle["kinds"], "river"})
    if o["supreme"]:
        thq = next(t for t, h in sorted(pub["hqs"].items()) if h["thq"] and h["moves"] > 0
                   and pub["blocks"][t]["side"] == env.seat)
        pub["hqs"][thq]["moves"] -= 1
    b["hex"] = end
    pub["moved"].append(tok)
    if o["verb"] == "rail":
        blitz.note_rail(pub, tok)
    if not b["up"]:
        b["trail"].append({"seq": env.ctx.seq, "path": list(o["path"]), "supreme": bool(o["supreme"]),
                           "engage": engage, "weather": pub["weather"], "rail": o["verb"] == "rail"})
        if foe in st.sides_in(pub, start) and o["verb"] == "rail":
            b["trail"][-1]["engaged"] = True  # 2.28: checked against a Fort at its reveal
    elif o["verb"] == "rail" and (b["opened"] or {}).get("type") == "Fort":
        b["lost"] = max(int(b["lost"]), int(b["opened"]["cv"]) - 1)  # 2.28: reduced to cadre strength
    env.ctx.event("moved", block=tok, path=[start, *o["path"]], engage=engage)
    battle = pub["battles"].get(end)
    if engage and not b["up"] and battle is not None and battle["attacker"] == env.seat and not battle["new"]:
        open_block(env, tok, "7.15")  # 7.15 note, 7.12: the Original Attacker's units stand face up


def deactivate(env: Env, tok: str) -> None:
    """5.5: an HQ deactivates by losing a step and turning upright; an HQ at 0 CV is then gone."""
    pub = env.public
    pub["hqs"].pop(tok)
    blitz.note_deactivated(pub, tok)
    b = pub["blocks"][tok]
    b["up"] = False
    # The HQ's CV now, not at activation: hits taken while active count (2.4, 2.6: below 0 CV it is gone).
    cv = int(b["opened"]["cv"]) - int(b["lost"])
    if cv <= 0:
        st.bury(pub, tok, pub["blocks"].pop(tok))
        env.ctx.event("hq-eliminated", block=tok, unit=b["opened"]["unit"])
        return
    b["lost"] += 1
    env.ctx.event("deactivated", block=tok, unit=b["opened"]["unit"], cv=cv - 1)


def check_disengage(env: Env, o: dict[str, Any], start: str, first: str) -> None:
    _check_disengage(env, o, start, first)


def check_mobilize(env: Env, o: dict[str, Any]) -> None:
    tok = o["block"]
    _own(env, o, "5.51")
    hq = env.public["hqs"].get(tok)
    if hq is None:
        raise illegal(o, f"{tok} is not an active HQ: only an active HQ mobilizes", "5.51")
    if tok in env.public["retreats"]:
        raise illegal(o, f"{tok} retreated by deploying: it takes Pursuit Fire before it moves again", "5.21")
    blitz.check_mobilize(env, o, hq)
    check_move(env, o)


def apply_end(env: Env, o: dict[str, Any]) -> None:
    return None  # the module ends the step (sequence.finish) and moves the sequence on


def parse_seal(ln: EfLine, o: dict[str, Any]) -> None:
    return None


def check_seal(env: Env, o: dict[str, Any]) -> None:
    if env.seat in env.public["sealed"]:
        raise illegal(o, "your blocks are already sealed", "3.2")


def apply_seal(env: Env, o: dict[str, Any]) -> None:
    seal(env)
