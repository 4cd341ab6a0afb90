"""The USE verb table (pbem.kit.orders): for every order verb, its words, phase, check and effect.

``check`` functions refuse an order without changing the state; ``apply`` functions run after
them. A ground path (move, strategic-move) is checked by walking it on a scratch copy, since
each step depends on the ones before. Only a naval move is checked as it sails (an
interception's dice decide whether it goes on); module.run_file's rollback undoes that one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.kit.orders import Verb, VerbTable
from pbem.rulesapi import Action

from . import actions, airops, diplomacy, economy, eventplay, legal, markers, navalevents, orders, sequence, supply, war
from .activation import end_activation
from .geo import Board
from .orders import UseLine
from .refusals import RULEBOOK, illegal
from .state import State, clone

Order = dict[str, Any]
Events = list[dict[str, Any]]


@dataclass
class Turn:
    """What an order is checked and applied against: one seat's file being run."""

    s: State
    b: Board
    seat: str
    ctx: Any
    events: Events
    resolving: bool = False  # a 'resolve' order ran: only further 'resolve' orders may follow (5.3.3)


Step = Callable[[Turn, Order], None]


def _settled(apply: Step) -> Step:
    """Most orders end with the automatic steps they may trigger (sequence.settle)."""

    def run(t: Turn, o: Order) -> None:
        apply(t, o)
        sequence.settle(t.s, t.b, t.seat, t.events, t.ctx)

    return run


def _end_phase(t: Turn, o: Order) -> None:
    if t.s["phase"] == "actions":
        end_activation(t.s, t.events)
    sequence.advance(t.s, t.b, t.events, t.ctx)


def _unit_at(s: State, o: Order) -> Order:
    """Attack orders may name the attacker by its hex ('attack 1305 from 1204')."""
    ref = o.get("unit")
    if ref is None or not orders.HEX_RE.match(ref):
        return o
    for u in s["units"].values():
        if u["hex"] == ref and u["box"] is None and u["kind"] in ("infantry", "paratroop", "garrison",
                                                                   "motorized", "tank"):
            return dict(o, unit=u["id"])
    illegal(o, f"no ground unit at {ref}", "5.1")


def _resolve(t: Turn, o: Order) -> None:
    actions.declare_resolve(t.s, t.b, _unit_at(t.s, o), t.seat, t.ctx, t.events)
    t.resolving = True


def _check_end(t: Turn, o: Order) -> None:
    act = t.s["activation"]
    if o.get("unit") and (act is None or act["unit"] != o["unit"]):
        illegal(o, f"{o['unit']} is not the active unit", "6.0")


def _airdrop(t: Turn, o: Order) -> None:
    end_activation(t.s, t.events)
    markers.airdrop(t.s, t.b, o, t.seat, t.ctx, t.events)


def _partisans(t: Turn, o: Order) -> None:
    end_activation(t.s, t.events)
    markers.partisans(t.s, t.b, o, t.seat, t.events)


def set_standing(t: Turn, o: Order) -> None:
    """Standing orders: public choices that need no secrecy, so the engine needs no email."""
    st = t.s["standing"].setdefault(t.seat, {"will_commit": None, "retreat_toward": None, "skip": []})
    if o["what"] == "will-commit":
        st["will_commit"] = None if o["value"] == "ask" else o["value"]
    elif o["what"] == "retreat-toward":
        st["retreat_toward"] = o["value"]
    elif o["what"] == "home-defense":
        st["home_defense"] = list(o["value"])
    elif o["what"] == "intercept":
        st["intercept"] = list(o["value"])
    elif o["what"] == "pro-marker":
        st["pro_marker"] = list(o["value"])
    else:
        st["skip"] = sorted(set(o["value"]))
    t.events.append({"kind": "standing", "seat": t.seat, "what": o["what"], "value": o["value"]})


def _check_strategic_move(t: Turn, o: Order) -> None:
    """4.1-4.1.3 depend on each step of the path (supply traced with the moving unit): the walk
    runs on a scratch copy (it rolls no die), and the real move only once it went through."""
    from .movement import strategic_move

    scratch = clone(t.s)
    strategic_move(scratch, t.b, o, actions.own_unit(scratch, o, o["unit"], t.seat), o["path"], [])


def _strategic_move(t: Turn, o: Order) -> None:
    from .movement import strategic_move

    strategic_move(t.s, t.b, o, actions.own_unit(t.s, o, o["unit"], t.seat), o["path"], t.events)


ACTIONS = ("actions",)
V = Verb[Turn, UseLine]
TABLE: VerbTable[Turn, UseLine] = VerbTable(RULEBOOK, [
    V("pass", orders.parse_nothing, _end_phase),
    V("end-phase", orders.parse_nothing, _end_phase, help="end-phase", offer=legal.end_phase,
      help_in={"actions": "end-phase                         # then the Supply Check (7.2) runs"}),
    V("declare-war", orders.parse_declare_war,
      _settled(lambda t, o: war.declare_war(t.s, t.b, o, t.seat, t.ctx, t.events)),
      lambda t, o: war.check_declare_war(t.s, t.b, o, t.seat),
      ("declare-war",), "declare-war COUNTRY          # USE 10.1", offer=legal.declare_war),
    V("strategic-move", orders.parse_strategic_move, _settled(_strategic_move),
      _check_strategic_move, ("strategic-move",),
      "strategic-move UNIT HEX HEX ...   # USE 4.1: one unit, along a Transport Line", offer=legal.strategic_move),
    V("move", orders.parse_move,
      _settled(lambda t, o: actions.do_move(t.s, t.b, o, t.seat, t.events, t.ctx)),
      lambda t, o: actions.check_move(t.s, t.b, o, t.seat), ACTIONS,
      "move UNIT HEX HEX ...             # USE 4.2.3 (activates the unit: 1 PP Leg, 2 PP Mobile)", offer=legal.move),
    V("attack", orders.parse_attack,
      _settled(lambda t, o: actions.declare_mobile(t.s, t.b, _unit_at(t.s, o), t.seat, t.ctx, t.events)),
      lambda t, o: actions.check_mobile(t.s, t.b, _unit_at(t.s, o), t.seat, t.ctx), ACTIONS,
      "attack HEX from UNIT [will-commit|no-commit] [air UNIT] [no-advance]   # USE 5.3.2", offer=legal.attack),
    V("assault", orders.parse_assault,
      _settled(lambda t, o: actions.declare_assault(t.s, t.b, _unit_at(t.s, o), t.seat, t.events)),
      lambda t, o: actions.check_assault(t.s, t.b, _unit_at(t.s, o), t.seat), ACTIONS,
      "assault HEX from UNIT             # USE 5.3.3: ends the unit's movement", offer=legal.assault),
    V("resolve", orders.parse_resolve, _resolve,
      lambda t, o: actions.check_resolve(t.s, t.b, _unit_at(t.s, o), t.seat, t.ctx), ACTIONS,
      "resolve HEX [primary UNIT] [will-commit|no-commit] [air UNIT]     # USE 5.3.3", offer=legal.resolve),
    V("will-commit", orders.parse_will_commit, lambda t, o: actions.answer(t.s, t.b, o, t.seat, t.events, t.ctx),
      lambda t, o: actions.check_answer(t.s, t.b, o, t.seat)),
    V("rebase", orders.parse_rebase,
      _settled(lambda t, o: actions.do_rebase(t.s, t.b, o, t.seat, t.events)),
      lambda t, o: actions.check_rebase(t.s, t.b, o, t.seat), ACTIONS,
      "rebase AIRUNIT HEX                # USE 6.2.1", offer=legal.rebase),
    V("air-strike", orders.parse_air_strike,
      _settled(lambda t, o: actions.declare_air_strike(t.s, t.b, o, t.seat, t.ctx, t.events)),
      lambda t, o: actions.check_air_strike(t.s, t.b, o, t.seat, t.ctx), ACTIONS,
      "air-strike AIRUNIT HEX [will-commit]  # USE 6.2.2", offer=legal.air_strike),
    V("fort", orders.parse_unit, _settled(lambda t, o: actions.do_fort(t.s, t.b, o, t.seat, t.events)),
      lambda t, o: actions.check_fort(t.s, o, t.seat), ACTIONS,
      "fort UNIT                         # USE 15.12: occupy a friendly fort, ends activation", offer=legal.fort),
    V("end", orders.parse_end, _settled(lambda t, o: end_activation(t.s, t.events)), _check_end, ACTIONS,
      "end                               # end the current activation", offer=legal.end),
    V("replace", orders.parse_unit, _settled(lambda t, o: economy.replace(t.s, t.b, o, t.seat, t.events)),
      lambda t, o: economy.check_replace(t.s, o, t.seat), ("replacements",),
      "replace UNIT                 # USE 8.1", offer=legal.replace),
    V("upgrade", orders.parse_upgrade, _settled(lambda t, o: economy.upgrade(t.s, t.b, o, t.seat, t.events)),
      lambda t, o: economy.check_upgrade(t.s, o, t.seat), ("upgrade",),
      "upgrade UNIT NEWUNIT              # USE 8.2", offer=legal.upgrade),
    V("mobilize", orders.parse_mobilize,
      _settled(lambda t, o: economy.mobilize(t.s, t.b, o, t.seat, t.events)),
      lambda t, o: economy.check_mobilize(t.s, t.b, o, t.seat), ("mobilization",),
      "mobilize UNIT CITYHEX|BOX    # USE 8.3", offer=legal.mobilize),
    V("transfer", orders.parse_transfer, _settled(lambda t, o: economy.transfer(t.s, o, t.seat, t.events)),
      lambda t, o: economy.check_transfer(t.s, o, t.seat)),
    V("standing", orders.parse_standing, set_standing, offer=legal.standing),
    V("airdrop", orders.parse_target, _settled(_airdrop),
      lambda t, o: markers.check_airdrop(t.s, t.b, o, t.seat), ACTIONS),
    V("partisans", orders.parse_target, _settled(_partisans),
      lambda t, o: markers.check_partisans(t.s, t.b, o, t.seat), ACTIONS),
    V("play", eventplay.parse_play, lambda t, o: eventplay.play(t.s, o, t.seat, t.events),
      lambda t, o: eventplay.check_play(t.s, o, t.seat), ACTIONS, offer=eventplay.offer),
    V("disband", orders.parse_unit, _settled(lambda t, o: supply.disband(t.s, t.b, o, t.seat, t.events)),
      lambda t, o: supply.check_disband(t.s, t.b, o, t.seat), ACTIONS),
    V("diplomacy", diplomacy.parse,
      _settled(lambda t, o: diplomacy.run(t.s, t.b, o, t.seat, t.ctx, t.events)),
      lambda t, o: diplomacy.check(t.s, o, t.seat), ("diplomacy",),
      "diplomacy draw COUNTRY | diplomacy return MARKER COUNTRY   # USE 10.2: COUNTRY pays 5 PP",
      offer=diplomacy.offer_diplomacy),
    V("political", diplomacy.parse_political,
      _settled(lambda t, o: diplomacy.political(t.s, t.b, o, t.seat, t.ctx, t.events)),
      lambda t, o: diplomacy.check_political(t.s, t.b, o, t.seat), offer=diplomacy.offer_political),
    V("bomb", orders.parse_unit_target,
      _settled(lambda t, o: airops.bombing_run(t.s, t.b, o, t.seat, t.ctx, t.events)),
      lambda t, o: airops.check_bombing_run(t.s, t.b, o, t.seat), ACTIONS),
    *navalevents.verbs(V, _settled, ACTIONS),  # USE 6.3.2, 6.4.5, 14.8, 14.17
])
VERBS = TABLE.names


def parse(text: str, public: dict[str, Any]) -> list[Order]:
    """Every line parsed; all syntax errors are reported together."""
    return TABLE.parse(text, lambda no, body: UseLine(no, body, public))


def legal_actions(s: State, seat: str) -> list[Action]:
    """What ``seat`` may do now: answer a Will Commit, or the current phase's verbs (legal.py)."""
    p = sequence.pending(s)
    if p is None or p[0] != seat:
        return []  # a file from any other seat is refused (run_file)
    if p[1] == "will-commit":
        return legal.will_commit(s, seat)
    if p[1] == "political":  # USE 10.2: a drawn marker's choice comes first
        return diplomacy.offer_political(s, seat)
    # "resolve" (strict dice): the waiting orders finish first in the file, then the phase goes on;
    # an opening that leads to an air declaration (5.1 as written) has it as the file's first order.
    first = legal.will_commit(s, seat) if p[1] == "resolve" else []
    return first + TABLE.offers(s, seat, "declare-war" if s["phase"] == "weather" else s["phase"])
