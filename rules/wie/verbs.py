"""War in Europe's order language: one kit VerbTable (pbem.kit.orders).

    move UNIT HEX [HEX...]                    [WiE-base 5]   (movement, mechanized phases)
    rail UNIT HEX [HEX...]                    [WiE-base 8.1], 69.2 (movement phase)
    place TYPE HEX | ap FRONT N               [WiE-base 12.1, 12.2], 76.25 (movement phase; SUP in 76.3 step 1)
    sail UNIT PORT | land UNIT HEX            [WiE-base 9.2-9.5], 77.4, 77.5 (movement phase)
    drop TYPE HEX                             [WiE-base 13.5, 13.8] (movement phase)
    siberia TYPE HEX                          74.7 (Soviet movement phase)
    deploy UNIT HEX                           76.3 steps 4 and 5
    winter-war yes|no                         72.0, 72.2 (any file of the Soviet)
    attack HEX with UNIT [UNIT...] [support N] [WiE-base 10, 13.4] (combat phase)
    advance UNIT HEX                          [WiE-base 10.5] (combat phase)
    interdict HEX                             68.1 phase 8, [WiE-base 13.3] (interdiction phase)
    air [SIDE] FRONT MISSION POINTS [vs SIDE | at PORT] 68.1 A, [WiE-base 13.3] (air-commit; sealed)
    associate SIDE [as SIDE]                  69.0           (any file of the seat)
    break-association SIDE [as SIDE] [at PHASE] 69.0 (now, or a standing order)
    declare-war SIDE [as SIDE]                71.0, 71.1
    propose-peace SIDE [as SIDE]              71.0
    lend-lease N                              77.8, 77.83 (any file of the Allied player)
    end-phase                                 [WiE-base 4.0]
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.hexgrid import parse_hex
from pbem.kit.orders import Line, Verb, VerbTable, resolve_name
from pbem.rulesapi import Action, Arg

from . import diplomacy, extra, ground, minors, politics, production, rail, reinforce, special, startup, transport
from . import offers as of
from .air import MISSIONS
from .data import FRONTS, SIDES
from .diplomacy import refuse
from .state import associated, bad_weather, hostile, is_land, neighbours, sides_of, stats, units_at


def phases(*names: str) -> tuple[str, ...]:
    return tuple(f"{s}-{n}" for s in SIDES for n in names)


@dataclass
class Env:
    state: Any
    seat: str
    ctx: Any
    air: list[list[Any]] = field(default_factory=list)  # the sealed missions of an air-commit file


class WieLine(Line):
    def __init__(self, no: int, text: str, state: Any, seat: str) -> None:
        super().__init__(no, text)
        self.state, self.seat = state, seat

    def unit(self) -> str:
        col, tok = self.take("a unit")
        live = [k for k, u in self.state["units"].items() if u["hex"]]
        return resolve_name(live, tok.upper(), self.no, col, hint="units are named as in units.txt (GER-001)")

    def hex(self) -> str:
        col, tok = self.take("a hex XXYY")
        try:
            h = parse_hex(tok)
        except ValueError as e:
            raise self.err(str(e), col) from None
        if not is_land(self.state, str(h)):
            raise self.err(f"hex {h} is not a land hex in play", col)
        return str(h)

    def side(self, what: str = "a side") -> str:
        return self.word(SIDES, what)

    def as_side(self, o: dict[str, Any]) -> None:
        if self.peek() == "as":
            self.take("as")
            o["as"] = self.side("the side you act for")


def _p_move(ln: WieLine, o: dict[str, Any]) -> None:
    o["unit"] = ln.unit()
    o["path"] = [ln.hex()]
    while ln.more():
        o["path"].append(ln.hex())


def _p_attack(ln: WieLine, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()
    ln.word(("with",), "'with'")
    o["units"] = [ln.unit()]
    while ln.more() and ln.peek() != "support":
        o["units"].append(ln.unit())
    if ln.more():
        ln.take("support")
        col, tok = ln.take("ground support air points")
        if not tok.isdigit() or not 0 < int(tok) <= 20:
            raise ln.err("ground support: 1 to 20 air points", col)
        o["support"] = int(tok)


def _p_place(ln: WieLine, o: dict[str, Any]) -> None:
    col, tok = ln.take("a unit type (6-5, [5]-1, 10-1-10, SUP)")
    try:
        stats(tok)
    except ValueError:
        raise ln.err(f"not a unit type: {tok!r}", col) from None
    o["type"] = tok
    o["hex"] = ln.hex()


def _p_ap(ln: WieLine, o: dict[str, Any]) -> None:
    o["front"] = ln.word(FRONTS, "an Air Front")
    col, tok = ln.take("a number of air points")
    if not tok.isdigit() or not 0 < int(tok) <= 999:
        raise ln.err("air points: a number from 1 to 999", col)
    o["points"] = int(tok)


def _p_unit_hex(ln: WieLine, o: dict[str, Any]) -> None:
    o["unit"] = ln.unit()
    o["hex"] = ln.hex()


def _p_hex(ln: WieLine, o: dict[str, Any]) -> None:
    o["hex"] = ln.hex()


def _p_air(ln: WieLine, o: dict[str, Any]) -> None:
    o["side"] = ln.side() if ln.peek() in SIDES else sides_of(ln.state, ln.seat)[0] if sides_of(
        ln.state, ln.seat) else ln.seat
    o["front"] = ln.word(FRONTS, "an Air Front")
    o["mission"] = ln.word(MISSIONS, "a mission")
    col, tok = ln.take("a number of air points")
    if not tok.isdigit() or not 0 < int(tok) <= 999:
        raise ln.err("air points: a number from 1 to 999", col)
    o["points"] = int(tok)
    o["vs"] = ""
    if ln.peek() == "vs":
        ln.take("vs")
        o["vs"] = ln.side("the opponent")
    elif ln.peek() == "at" and o["mission"] == "port":  # 68.1 A: the mission's port, sealed with it
        ln.take("at")
        o["vs"] = ln.hex()


def _p_diplomacy(ln: WieLine, o: dict[str, Any]) -> None:
    o["side"] = ln.side("the other side")
    ln.as_side(o)


STEP_PHASES = ("air-commit", "air-open", *phases("movement", "combat", "mechanized", "interdiction"), "housekeeping")


def _p_break(ln: WieLine, o: dict[str, Any]) -> None:
    _p_diplomacy(ln, o)
    if ln.peek() == "at":
        ln.take("at")
        o["at"] = ln.word(STEP_PHASES, "the phase it takes effect in")


def _p_nothing(ln: WieLine, o: dict[str, Any]) -> None:
    return None


def _c_move(env: Env, o: dict[str, Any]) -> None:
    ground.check_move(env.state, o)


def _a_move(env: Env, o: dict[str, Any]) -> None:
    ground.apply_move(env.state, o, env.ctx)


def _c_attack(env: Env, o: dict[str, Any]) -> None:
    ground.check_attack(env.state, o)


def _a_attack(env: Env, o: dict[str, Any]) -> None:
    ground.apply_attack(env.state, o, env.ctx)


def _c_place(env: Env, o: dict[str, Any]) -> None:
    if env.state["phase"] == "setup-1":
        startup.check_supply_unit(env.state, o)
        return
    side = ground.acting_side(env.state)
    nation = minors.claims(env.state, side, o)  # 73.24, 73.34: a Rumanian or Hungarian pool
    if nation:
        minors.check_place(env.state, nation, o)
        return
    reinforce.check_place(env.state, side, o)


def _transport(check: Any, apply: Any) -> tuple[Any, Any]:
    def c(env: Env, o: dict[str, Any]) -> None:
        check(env.state, ground.acting_side(env.state), o)

    def a(env: Env, o: dict[str, Any]) -> None:
        apply(env.state, ground.acting_side(env.state), o, env.ctx)

    return c, a


_SAIL = _transport(transport.check_sail, lambda s, me, o, ctx: transport.apply_move(s, me, o, ctx, "naval"))
_LAND = _transport(transport.check_land, lambda s, me, o, ctx: transport.apply_move(s, me, o, ctx, "amph"))
_DROP = _transport(transport.check_drop, transport.apply_drop)


def _c_deploy(env: Env, o: dict[str, Any]) -> None:
    startup.check_deploy(env.state, o)


def _a_deploy(env: Env, o: dict[str, Any]) -> None:
    startup.apply_deploy(env.state, o, env.ctx)


def _a_place(env: Env, o: dict[str, Any]) -> None:
    side = ground.acting_side(env.state)
    nation = minors.claims(env.state, side, o)
    if nation:
        minors.apply_place(env.state, nation, o, env.ctx)
        return
    reinforce.apply_place(env.state, side, o, env.ctx)


def _c_ap(env: Env, o: dict[str, Any]) -> None:
    reinforce.check_ap(env.state, ground.acting_side(env.state), o)


def _a_ap(env: Env, o: dict[str, Any]) -> None:
    reinforce.apply_ap(env.state, ground.acting_side(env.state), o, env.ctx)


def _c_rail(env: Env, o: dict[str, Any]) -> None:
    rail.check_rail(env.state, o)


def _a_rail(env: Env, o: dict[str, Any]) -> None:
    rail.apply_rail(env.state, o, env.ctx)


def _c_advance(env: Env, o: dict[str, Any]) -> None:
    ground.check_advance(env.state, o)


def _a_advance(env: Env, o: dict[str, Any]) -> None:
    ground.apply_advance(env.state, o, env.ctx)


def _c_interdict(env: Env, o: dict[str, Any]) -> None:
    ground.check_interdict(env.state, o)


def _a_interdict(env: Env, o: dict[str, Any]) -> None:
    ground.apply_interdict(env.state, o, env.ctx)


def _c_suppress(env: Env, o: dict[str, Any]) -> None:
    refuse(o, "Port Suppression Missions are executed in the Joint Tactical Air War's Air Combat Phase (68.1 A), "
           "not in the Air Interdiction Phase: commit them sealed, `air FRONT port 5 at PORT`", "68.1")


def _a_suppress(env: Env, o: dict[str, Any]) -> None:
    pass


def _c_air(env: Env, o: dict[str, Any]) -> None:
    if o["side"] not in sides_of(env.state, env.seat):
        refuse(o, f"{env.seat} does not play {o['side']}", "68.1")
    special.refuse_grounded(env.state, o["side"], o)
    from .air import check_commitment

    check_commitment(env.state, env.seat, [*env.air, [o["side"], o["front"], o["mission"], o["points"], o["vs"]]])


def _a_air(env: Env, o: dict[str, Any]) -> None:
    env.air.append([o["side"], o["front"], o["mission"], o["points"], o["vs"]])


def acting_for(env: Env, o: dict[str, Any]) -> str:
    mine = sides_of(env.state, env.seat)
    if "as" in o:
        if o["as"] not in mine:
            refuse(o, f"{env.seat} does not play {o['as']}", "67.2")
        return str(o["as"])
    phase_side = str(env.state["phase"]).split("-")[0]
    return phase_side if phase_side in mine else mine[0]


def _diplo(fn: Any) -> Any:
    def check(env: Env, o: dict[str, Any]) -> None:
        fn(copy.deepcopy(env.state), acting_for(env, o), o["side"], o, None)

    def apply(env: Env, o: dict[str, Any]) -> None:
        fn(env.state, acting_for(env, o), o["side"], o, env.ctx)

    return check, apply


_ASSOC = _diplo(diplomacy.associate)
def _break(state: Any, me: str, other: str, o: dict[str, Any], ctx: Any) -> None:
    """69.0 "at any time": now, or as a standing order that breaks it on entering a phase of
    another player's (public: it travels in this seat's own file, costing no mail)."""
    if "at" not in o:
        diplomacy.break_association(state, me, other, o, ctx)
        return
    diplomacy.break_association(copy.deepcopy(state), me, other, o, None)  # the same refusals
    state["standing"].append([me, other, o["at"]])
    if ctx is not None:
        ctx.event("standing-order", side=me, other=other, at=o["at"])


_BREAK = _diplo(_break)


def _p_choice(ln: WieLine, o: dict[str, Any]) -> None:
    o["choice"] = ln.word(("yes", "no"), "yes or no")


def _c_winter(env: Env, o: dict[str, Any]) -> None:
    politics.winter_war(copy.deepcopy(env.state), _soviet_or_me(env), o["choice"], o, None)


def _a_winter(env: Env, o: dict[str, Any]) -> None:
    politics.winter_war(env.state, _soviet_or_me(env), o["choice"], o, env.ctx)


def _soviet_or_me(env: Env) -> str:
    mine = sides_of(env.state, env.seat)
    return "soviet" if "soviet" in mine else mine[0]


def _c_siberia(env: Env, o: dict[str, Any]) -> None:
    if ground.acting_side(env.state) != "soviet":
        refuse(o, "only the Soviet player brings the Siberians on", "74.7")
    production.check_siberia(env.state, o)


def _a_siberia(env: Env, o: dict[str, Any]) -> None:
    production.apply_siberia(env.state, o, env.ctx)
def _p_points(ln: WieLine, o: dict[str, Any]) -> None:
    col, tok = ln.take("a number of arms points")
    if not tok.isdigit() or int(tok) > 999:
        raise ln.err("arms points: a number from 0 to 999", col)
    o["points"] = int(tok)


def _lend_lease(fn: Any) -> Any:
    def run(env: Env, o: dict[str, Any]) -> None:
        me = "allied" if "allied" in sides_of(env.state, env.seat) else sides_of(env.state, env.seat)[0]
        fn(env.state, me, o)

    return run


_c_lend = _lend_lease(lambda s, me, o: production.lend_lease({**s, "production": copy.deepcopy(s.get("production"))},
                                                              me, o["points"], o))  # a check changes nothing
_a_lend = _lend_lease(lambda s, me, o: production.lend_lease(s, me, o["points"], o))
_WAR = _diplo(diplomacy.declare_war)
_PEACE = _diplo(diplomacy.propose_peace)


# --- legal actions ---------------------------------------------------------------------------

def _mine(state: Any) -> list[tuple[str, dict[str, Any]]]:
    me = ground.acting_side(state)
    return sorted((k, u) for k, u in state["units"].items() if u["side"] == me and u["hex"])


def _offer_move(state: Any, seat: str) -> list[Action]:
    mech = str(state["phase"]).endswith("mechanized")
    least = 6 if mech else 1
    movers = tuple(k for k, u in _mine(state) if k not in state["moved"] and stats(u["type"])["ma"] >= least
                   and not (mech and bad_weather(state, u["hex"])))  # [WiE-base 2.3]
    if not movers:
        return []
    return [Action("move", (Arg("unit", "unit", movers), Arg("path", "hex", None, repeat=True)),
                   "WiE-base 5.1", "move a unit along a path of adjacent hexes")]


def _offer_attack(state: Any, seat: str) -> list[Action]:
    me = ground.acting_side(state)
    out = []
    targets: dict[str, list[str]] = {}
    for k, u in _mine(state):
        if k in state["attackers"] or stats(u["type"])["att"] <= 0:
            continue
        for n in neighbours(u["hex"]):
            occ = units_at(state, n)
            if occ and hostile(state, me, state["units"][occ[0]]["side"]) and n not in state["attacked_hexes"]:
                targets.setdefault(n, []).append(k)
    for h, units in sorted(targets.items()):
        out.append(Action("attack", (Arg("hex", "hex", (h,)), Arg("units", "unit", tuple(units), keyword="with",
                                                                    repeat=True)),
                          "WiE-base 10.1", f"attack {h}"))
    return out


def _offer_advance(state: Any, seat: str) -> list[Action]:
    return [Action("advance", (Arg("unit", "unit", tuple(units)), Arg("hex", "hex", (h,))), "WiE-base 10.5",
                   f"advance into {h}")
            for h, units in sorted(state["vacated"].items()) if units and not units_at(state, h)]


def _offer_air(state: Any, seat: str) -> list[Action]:
    """One offer a side and front with points in its pool; the pool and its half as the choices."""
    sides = tuple(sides_of(state, seat))
    out = []
    for side in sides:
        if special.collapsed(state) and side == "axis":
            continue  # 77.12: the Luftwaffe is grounded
        for front in FRONTS:
            pool = int(state["air_points"][side][front])
            if pool <= 0:
                continue
            amounts = tuple(dict.fromkeys(str(n) for n in (pool, max(pool // 2, 1))))
            head = (Arg("side", "word", (side,), optional=len(sides) == 1), Arg("front", "word", (front,)))
            out.append(Action("air", (*head, Arg("mission", "word", MISSIONS), Arg("points", "number", amounts)),
                              "WiE 68.1", f"{side}: commit {front} air points to a mission (sealed until all open)"))
            foes = tuple(s for s in SIDES if hostile(state, side, s))
            if len(foes) > 1:  # 70.0: a split among two opponents
                out.append(Action("air", (*head, Arg("mission", "word", ("superiority",)),
                                          Arg("points", "number", amounts), Arg("vs", "word", foes, keyword="vs")),
                                  "WiE 70.0", f"{side}: {front} superiority points against one opponent"))
            ports = of.suppressible(state, side, front)
            if ports and pool >= special.SUPPRESSION_POINTS:  # 68.1 A, [WiE-base 13.3]
                out.append(Action("air", (*head, Arg("mission", "word", ("port",)),
                                          Arg("points", "number", (str(special.SUPPRESSION_POINTS),)),
                                          Arg("vs", "hex", ports, keyword="at")),
                                  "WiE 68.1", f"{side}: Port Suppression on the {front} front (5 points a port)"))
    return out


def _offer_diplomacy(state: Any, seat: str) -> list[Action]:
    out = []
    for me in sides_of(state, seat):
        others = [s for s in SIDES if s != me and not diplomacy.one_seat(state, me, s)]
        assoc = tuple(s for s in others if associated(state, me, s))
        if assoc:
            out.append(Action("break-association", (Arg("side", "word", assoc),), "WiE 69.0",
                              f"{me}: break an association at once"))
    return out


def _offer_end(state: Any, seat: str) -> list[Action]:
    return [Action("end-phase", (), "WiE-base 4.0", "end this phase")]


TABLE: VerbTable[Env, WieLine] = VerbTable("WIE", [
    Verb("move", _p_move, _a_move, _c_move, phases=phases("movement", "mechanized"),
         help="move UNIT HEX [HEX...]    # [WiE-base 5], 69.1", offer=_offer_move),
    Verb("attack", _p_attack, _a_attack, _c_attack, phases=phases("combat"),
         help="attack HEX with UNIT [UNIT...] [support N]    # [WiE-base 10, 13.4], 69.3", offer=_offer_attack),
    Verb("deploy", _p_unit_hex, _a_deploy, _c_deploy, phases=("setup-4", "setup-5"),
         help="deploy UNIT HEX    # 76.3 steps 4 and 5: a unit in its area", offer=of.offer_deploy),
    Verb("place", _p_place, _a_place, _c_place, phases=(*phases("movement"), "setup-1"),
         help="place TYPE HEX    # [WiE-base 12.1], 76.25: a reinforcement from your pool", offer=of.offer_place),
    Verb("ap", _p_ap, _a_ap, _c_ap, phases=phases("movement"),
         help="ap FRONT N    # [WiE-base 12.2], 76.25: arriving air points join a front", offer=of.offer_ap),
    Verb("rail", _p_move, _a_rail, _c_rail, phases=phases("movement"),
         help="rail UNIT HEX [HEX...]    # [WiE-base 8.1], 69.2: along friendly rail", offer=of.offer_rail),
    Verb("sail", _p_unit_hex, _SAIL[1], _SAIL[0], phases=phases("movement"),
         help="sail UNIT PORT    # [WiE-base 9.2]: naval transport between your ports on one sea",
         offer=of.offer_sail),
    Verb("land", _p_unit_hex, _LAND[1], _LAND[0], phases=phases("movement"),
         help="land UNIT HEX    # [WiE-base 9.3]: amphibious assault from your port to a coastal hex",
         offer=of.offer_land),
    Verb("drop", _p_place, _DROP[1], _DROP[0], phases=phases("movement"),
         help="drop TYPE HEX    # [WiE-base 13.5]: an Assault Box unit by air transport", offer=of.offer_drop),
    Verb("advance", _p_unit_hex, _a_advance, _c_advance, phases=phases("combat", "mechanized"),
         help="advance UNIT HEX    # [WiE-base 10.5] into a hex emptied by DR, DE or EX", offer=_offer_advance),
    Verb("interdict", _p_hex, _a_interdict, _c_interdict, phases=phases("interdiction"),
         help="interdict HEX    # 68.1 phase 8, [WiE-base 13.3]: 5 interdiction points a marker",
         offer=of.offer_interdict),
    Verb("suppress", _p_hex, _a_suppress, _c_suppress, phases=phases("interdiction"),
         help="suppress PORT    # refused (68.1 A): Port Suppression is `air FRONT port 5 at PORT`, sealed",
         offer=lambda state, seat: []),
    Verb("air", _p_air, _a_air, _c_air, phases=("air-commit",),
         help="air [SIDE] FRONT MISSION POINTS [vs SIDE | at PORT]    # 68.1 A, 70.0, [WiE-base 13.3] (sealed)",
         offer=_offer_air),
    Verb("associate", _p_diplomacy, _ASSOC[1], _ASSOC[0], help="associate SIDE [as SIDE]    # 69.0",
         offer=of.offer_associate),
    Verb("break-association", _p_break, _BREAK[1], _BREAK[0],
         help="break-association SIDE [as SIDE] [at PHASE]    # 69.0: now, or standing until PHASE",
         offer=_offer_diplomacy),
    Verb("declare-war", _p_diplomacy, _WAR[1], _WAR[0], help="declare-war SIDE [as SIDE]    # 71.0, 71.1",
         offer=of.offer_declare_war),
    Verb("propose-peace", _p_diplomacy, _PEACE[1], _PEACE[0], help="propose-peace SIDE [as SIDE]    # 71.0",
         offer=of.offer_propose_peace),
    Verb("winter-war", _p_choice, _a_winter, _c_winter,
         help="winter-war yes|no    # 72.0, 72.2: the Soviet decision, after Poland falls, in 1939",
         offer=of.offer_winter_war),
    Verb("siberia", _p_place, _a_siberia, _c_siberia, phases=phases("movement"),
         help="siberia TYPE HEX    # 74.7: a Siberian unit comes on at the east edge (Total War, from 0/11/41)",
         offer=of.offer_siberia),
    Verb("lend-lease", _p_points, _a_lend, _c_lend,
         help="lend-lease N    # 77.83: the Allied arms points sent to the Soviet each cycle (campaign only)",
         offer=of.offer_lend_lease),
    *extra.VERBS,  # [WiE-base 12.3, 14.1], 73.6, 74.41, 77.6
    Verb("end-phase", _p_nothing, lambda env, o: None, help="end-phase    # [WiE-base 4.0]", offer=_offer_end),
])
