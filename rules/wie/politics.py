"""Political points (71.4), Finland and the Winter War (72), the control of neutrals (73.1, 73.11).

``state["politics"]``:

* ``pp``: the Axis Political Point total (76.26 prints 9 for 1945); ``entered``: the Soviet
  centers the Axis holds by entry (71.4: re-entry by the Soviet or Allied player takes the
  points back); ``centers``: hex -> moscow | personnel | resource (77.7; features.txt);
* ``neutrals``: COUNTRY -> {status, control, by}: status ``armed`` (an armed neutral), ``pro-axis``
  (73.2, 73.3, Finland after the Winter War), ``axis`` (an active Axis nation), ``attacked``
  (control given by 73.1), ``collapsed`` (72.1); ``control`` the side that moves it; ``by`` its attacker;
* ``countries``: hex -> COUNTRY where a board (a case) says otherwise than map.txt;
* ``winter_war`` "" | yes | no (72.0); ``poland_fallen`` (72.2); ``war_turn``: the game-turn the
  Axis and Soviet players went to war (72.0: Finland enters two game-turns later);
* ``flips``: Turkey's coin flips (73.11) reserved in strict dice, thrown by the roller's next file.

A neutral's hexes keep the holder ``neutral`` until entered; once a country is controlled
(``control``) its hexes count as the controller's (``state.holder``), except for its attacker,
who moves and fights in it without changing his belligerency with the controller (73.12).
"""

from __future__ import annotations

from typing import Any

from pbem.kit.hexgrid import parse_hex

from . import finland
from .diplomacy import engage, one_seat, refuse
from .seizure import check_entry
from .state import HOSTILE, associated, board, country, neutral, status, year

# 73.1: attacker -> the side control falls to (Turkey: 73.11, ``_turkey``).
CONTROL = {
    "NOR": {"allied": "soviet", "axis": "allied", "soviet": "axis"},
    "GRE": {"allied": "axis", "axis": "allied", "soviet": "axis"},
    "YUG": {"allied": "soviet", "axis": "soviet", "soviet": "allied"},
    "ESP": {"allied": "axis", "axis": "allied", "soviet": "allied"},
    "SWE": {"allied": "axis", "soviet": "axis", "axis": "allied"},
    "POR": {"allied": "axis", "axis": "allied", "soviet": "allied"},
    "SUI": {"allied": "axis", "axis": "allied", "soviet": "allied"},
    "FIN": {"allied": "axis", "soviet": "axis"},
}
AWARD = {"moscow": 5, "personnel": 1, "resource": 1}  # 71.4
ACTIVATION = {"HUN": 55, "RUM": 60}  # 73.35, 73.25: a pro-Axis neutral becomes an Axis nation
FINLAND_PP = 90  # 72.0: an armed neutral Finland joins the Axis at 90


def initial(state: Any, tables: dict[str, Any]) -> dict[str, Any]:
    b = board(state)
    centers = {str(h): "personnel" for h in b.personnel}
    centers.update({str(h): "moscow" for h, name in b.places.items() if name == "Moscow"})
    pp = int(tables.get("availability", {}).get("axis", {}).get("political_points", 0))
    return {"pp": pp, "entered": [], "centers": centers, "neutrals": {}, "countries": {}, "winter_war": "",
            "poland_fallen": False, "war_turn": 0, "flips": []}


# --- 71.4 political points and the thresholds that use them -------------------------------------

def taken(state: Any, h: str, side: str, ctx: Any) -> None:
    """A hex changes hands: 71.4's awards for Soviet centers (as city entry: each time)."""
    p = state["politics"]
    kind = p["centers"].get(h)
    if kind is None:
        return
    if side == "axis" and h not in p["entered"]:
        p["entered"].append(h)
        change(state, AWARD[kind], f"the Axis enters a Soviet {kind} center ({h})", ctx)
    elif side in ("soviet", "allied") and h in p["entered"]:
        p["entered"].remove(h)
        change(state, -AWARD[kind], f"the {side} player re-enters a Soviet {kind} center ({h})", ctx)


def change(state: Any, n: int, why: str, ctx: Any) -> None:
    p = state["politics"]
    p["pp"] = int(p["pp"]) + n
    if ctx is not None:
        ctx.event("political-points", change=n, total=p["pp"], why=why)
    thresholds(state, ctx)


def thresholds(state: Any, ctx: Any) -> None:
    """73.25, 73.35: Rumania and Hungary activate at 60 and 55; 72.0: armed neutral Finland at 90.
    Activation is for good: a later fall of the total does not deactivate (the booklet has no way back)."""
    p = state["politics"]
    for c, rec in sorted(p["neutrals"].items()):
        need = ACTIVATION.get(c) if rec["status"] == "pro-axis" else (
            FINLAND_PP if c == "FIN" and rec["status"] == "armed" else None)
        if need is not None and int(p["pp"]) >= need:
            activate(state, c, f"the Axis political point total reaches {p['pp']} (at least {need})", ctx)


def activate(state: Any, c: str, why: str, ctx: Any) -> None:
    state["politics"]["neutrals"][c] = {"status": "axis", "control": "axis", "by": ""}
    if ctx is not None:
        ctx.event("neutral", country=c, status="axis", control="axis", why=why)


# --- 72 the Winter War and Finland ---------------------------------------------------------------

def winter_war(state: Any, me: str, choice: str, o: dict[str, Any] | None, ctx: Any) -> None:
    p = state["politics"]
    if me != "soviet":
        refuse(o, "only the Soviet player decides the Winter War", "72.0")
    if p["winter_war"]:
        refuse(o, f"the Winter War is decided already ({p['winter_war']})", "72.2")
    now = year(state)
    if now != 1939 or not p["poland_fallen"]:
        refuse(o, "the Winter War is decided after the fall of Poland and before the end of 1939 (now "
               f"{now}{', Poland stands' if not p['poland_fallen'] else ''})", "72.2")
    p["winter_war"] = choice
    fin = neutral(state, "FIN")
    if choice == "yes" and fin["status"] == "armed":
        # 72.0: Finland becomes a Pro-Axis Neutral; the Winter War is no limited or total war event.
        p["neutrals"]["FIN"] = {"status": "pro-axis", "control": "", "by": ""}
    if choice == "yes":
        finland.occupy(state, ctx)  # 72.3
    if ctx is not None:
        ctx.event("winter-war", choice=choice)


def housekeeping(state: Any, ctx: Any) -> None:
    """72.0: a pro-Axis Finland enters the war as an Axis nation two game-turns after the Axis and
    Soviet players are at war (counted from the game-turn the war is first seen, here)."""
    p = state["politics"]
    at_war = status(state, "axis", "soviet") in HOSTILE
    if at_war and not p["war_turn"]:
        p["war_turn"] = int(state["turn"])
    if not at_war:
        p["war_turn"] = 0
    if p["war_turn"] and neutral(state, "FIN")["status"] == "pro-axis" \
            and int(state["turn"]) >= int(p["war_turn"]) + 2:
        activate(state, "FIN", "two game-turns after the Axis and Soviet players went to war", ctx)


# --- 73.1 control of neutrals ----------------------------------------------------------------------

def enter(state: Any, me: str, h: str, o: dict[str, Any] | None, ctx: Any, dry: bool) -> None:
    """``me`` enters ``h`` (its holder is not ``me``): war and peace (71.x) or a neutral's violation (73.1)."""
    check_entry(state, me, h, o)  # 71.2: no third Soviet Personnel Center for the Allied before Rome
    raw = state["held"].get(h) or board(state).held.get(parse_hex(h), "-")
    if raw != "neutral":
        held = str(raw)
        if held not in (me, "-") and not associated(state, me, held):
            engage(state, me, held, o, ctx, "enter", dry=dry)
        return
    c = country(state, h)
    rec = neutral(state, c)
    if rec["by"] == me or rec["control"] == me:
        return  # 73.12: its attacker fights its forces; belligerency with the controller unchanged
    if rec["control"]:
        if not associated(state, me, rec["control"]):
            engage(state, me, rec["control"], o, ctx, "enter", dry=dry)
        return
    violate(state, me, c, rec, o, ctx, dry)


def violate(state: Any, me: str, c: str, rec: dict[str, Any], o: dict[str, Any] | None, ctx: Any,
            dry: bool) -> None:
    if c == "FIN" and me == "axis":
        _axis_attacks_finland(state, rec, o, ctx, dry)
        return
    if c == "TUR":
        _turkey(state, me, o, ctx, dry)
        return
    to = CONTROL.get(c, {}).get(me)
    if to is None:
        refuse(o, f"{me} entering {c}: the Neutral Control Table gives no control for it (not a listed neutral, "
               "or Finland by its own ally)", "73.1")
    _soviet_act(state, me, to, o, ctx, dry)
    if not dry:
        _control(state, c, to, me, "attacked", ctx)


def _soviet_act(state: Any, me: str, to: str, o: dict[str, Any] | None, ctx: Any, dry: bool) -> None:
    """71.1: attacking a neutral country is a Soviet act that precipitates Limited War ("any such
    acts"), read as war with the player the neutral falls to (73.12: merely controlling one changes
    nothing). With an associate it cannot be war (69.0: associates are not hostile): the Soviet
    breaks the association first (69.0 "at any time"), then the attack is his Limited War."""
    if me != "soviet" or not to:
        return
    if associated(state, me, to):
        if one_seat(state, me, to):
            return  # 71.32: one player holds both; he is at war with no one by it
        refuse(o, f"the neutral falls to {to}, your associate (73.1): attacking it is an act of Limited War "
               f"against him (71.1), and associates are not hostile (69.0); break the association first", "71.1")
    engage(state, me, to, o, ctx, "attack", dry=dry)


def _axis_attacks_finland(state: Any, rec: dict[str, Any], o: dict[str, Any] | None, ctx: Any, dry: bool) -> None:
    """72.1: an armed neutral Finland attacked by the Axis becomes Soviet-controlled and the attack
    is one on the Soviet Union; a pro-Axis Finland attacked by the Axis collapses."""
    if rec["status"] == "pro-axis":
        if not dry:
            _control(state, "FIN", "", "axis", "collapsed", ctx)
            gone = [k for k, u in state["units"].items() if u["nation"] == "FIN" and u["hex"]]
            for k in gone:
                state["units"][k]["hex"] = ""
        return
    engage(state, "axis", "soviet", o, ctx, "attack", dry=dry)
    if not dry:
        _control(state, "FIN", "soviet", "axis", "attacked", ctx)


def _turkey(state: Any, me: str, o: dict[str, Any] | None, ctx: Any, dry: bool) -> None:
    """73.11: Axis attack: Allied and Soviet flip; Allied (Soviet) attack: the Axis controls unless
    the Axis and Soviet players are at Total War, then Axis and Soviet (Axis and Allied) flip."""
    total = status(state, "axis", "soviet") == "total-war"
    pair = {"axis": ("allied", "soviet"), "allied": ("axis", "soviet"), "soviet": ("axis", "allied")}[me]
    if me != "axis" and not total:
        _soviet_act(state, me, "axis", o, ctx, dry)
        if not dry:
            _control(state, "TUR", "axis", me, "attacked", ctx)
        return
    if dry:
        return
    _control(state, "TUR", "", me, "attacked", ctx)  # control undecided until the coin falls
    flip = {"pair": list(pair), "roller": str(ctx.seat)}
    if ctx.strict_dice:
        # Strict dice: the coin is reserved by this file and thrown by the roller's next one.
        state["politics"]["flips"].append(flip)
        ctx.reserve_rolls(1)
        ctx.event("coin-reserved", country="TUR", between=list(pair))
    else:
        throw(state, flip, ctx)


def throw(state: Any, flip: dict[str, Any], ctx: Any) -> None:
    (die,) = ctx.roll(2, f"73.11: who controls Turkey, {flip['pair'][0]} (1) or {flip['pair'][1]} (2)")
    to = str(flip["pair"][die - 1])
    rec = neutral(state, "TUR")
    _soviet_act(state, str(rec["by"]), to, None, ctx, False)
    _control(state, "TUR", to, str(rec["by"]), "attacked", ctx)


def throw_pending(state: Any, seat: str, ctx: Any) -> None:
    flips = state["politics"]["flips"]
    mine = [f for f in flips if f["roller"] == seat]
    state["politics"]["flips"] = [f for f in flips if f["roller"] != seat]
    for f in mine:
        throw(state, f, ctx)


def _control(state: Any, c: str, to: str, by: str, what: str, ctx: Any) -> None:
    state["politics"]["neutrals"][c] = {"status": what, "control": to, "by": by}
    for u in state["units"].values():
        if u["nation"] == c and to and u["hex"]:
            u["side"] = to  # its forces are moved and fought by the controller (73.12)
    if ctx is not None:
        ctx.event("neutral", country=c, status=what, control=to or "undecided", by=by)
