"""The War in Europe rules module (three players: Axis, Allied, Soviet), on the shared kit.

Not registered as an entry point: tests use ``rules.wie.module.RULES`` directly.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from pbem.errors import InvalidInput
from pbem.kit.digest import rules_digest
from pbem.rulesapi import Action, Context, Outcome, Pending, RulesModule, Scenario

from . import air, bombing, campaign, cases, europe, ground, politics, special, startup, supply, transport, view
from .data import load
from .diplomacy import refuse
from .sequence import advance, label
from .setup import SCENARIOS, new_state
from .state import date_text, seat_of, seat_order, sides_of
from .verbs import TABLE, Env, WieLine

HERE = Path(__file__).resolve().parent
HEX = re.compile(r"^\d{4}$")
FIELDS: dict[str, dict[str, type]] = {
    "move": {"unit": str, "path": list}, "rail": {"unit": str, "path": list}, "attack": {"hex": str, "units": list},
    "advance": {"unit": str, "hex": str}, "interdict": {"hex": str},
    "air": {"side": str, "front": str, "mission": str, "points": int, "vs": str},
    "associate": {"side": str}, "break-association": {"side": str}, "declare-war": {"side": str},
    "propose-peace": {"side": str}, "end-phase": {}, "place": {"type": str, "hex": str},
    "ap": {"front": str, "points": int}, "deploy": {"unit": str, "hex": str}, "winter-war": {"choice": str},
    "siberia": {"type": str, "hex": str}, "sail": {"unit": str, "hex": str}, "land": {"unit": str, "hex": str},
    "drop": {"type": str, "hex": str}, "suppress": {"hex": str},
    "lend-lease": {"points": int}, "fort": {"hex": str}, "rebuild": {"unit": str, "hex": str},
    "reform": {"unit": str, "division": str},
    "grant": {"points": int}, "produce": {}, "seize-partisans": {},
    "repair": {"path": list}, "bomb": {"hex": str, "sb": int, "base": str}, "repair-center": {"hex": str}}
OPTIONAL = {"as", "support", "at", "air", "naval", "other", "ss", "escort"}
OPTIONAL_TYPES: dict[str, type] = {"as": str, "support": int, "at": str, "air": int, "naval": int, "other": int,
                                   "ss": int, "escort": int}
# 0.1: the first registered release (pbem 0.2.0); 0.2 (pbem 0.3.0): every event a sentence,
# a feature naming no hex a typed scenario issue; 0.1's games replay unchanged.
VERSION = "0.2"
WANTED = {"air-commit": "commit your air points, sealed: air [SIDE] FRONT MISSION POINTS [vs SIDE] (68.1 A)",
          "air-open": "open your air commitment (send a file; diplomacy orders may go with it)",
          "movement": "move your units, then end-phase", "combat": "attack HEX with UNIT..., then end-phase",
          "mechanized": "move your mechanized units (half allowance), then end-phase",
          "setup-1": "76.3 step 1: place SUP HEX (five Allied supply units), then end-phase",
          "setup-4": "76.3 step 4: deploy UNIT HEX for the army groups in their areas, then end-phase",
          "setup-5": "76.3 step 5: deploy UNIT HEX for your units in their areas, then end-phase",
          "interdiction": "place your Air Interdiction markers: interdict HEX (68.1 phase 8), suppress PORT "
                          "([WiE-base 13.3]), or end-phase"}


class WarInEurope(RulesModule):
    name = "wie"
    version = VERSION
    title = "War in Europe (three players)"
    # Strict dice: attacks are declared in one file and rolled at the start of the attacker's
    # next one; the air war's dice are reserved by the last seat's commitment (README).
    dice_modes = ("strict", "window")

    def rules_hash(self) -> bytes:
        return rules_digest(self.name, self.version, HERE)

    def scenarios(self) -> list[str]:
        return list(SCENARIOS)

    def load_scenario(self, name: str) -> Scenario:
        if name not in SCENARIOS:
            from .data import WieScenarioErrors

            raise WieScenarioErrors([])
        folder, n = SCENARIOS[name]
        data = load(folder)
        seating = data.seatings[n]
        sides = {s: v for s, v in seating.items() if v != (s,)}
        return Scenario(self.name, name, data.title + (" (two players, 71.3)" if n == 2 else ""), data.digest,
                        tuple(seating), data, sides=sides)

    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        state = new_state(scenario)
        if options.get("ss_any_time"):
            state["ss_any_time"] = True  # 77.6 (c): "may be disregarded if the Players desire"
        if options.get("starting_sequence"):
            startup.start(state)  # 76.3, steps 1, 4 and 5 before game-turn 1
            state["active"] = seat_of(state, "allied")
        return state, {s: None for s in scenario.seats}

    def pending(self, public: Any) -> Pending | None:
        if public["over"]:
            return None
        phase = str(public["phase"])
        wanted = WANTED.get(phase, WANTED.get(phase.partition("-")[2], "your orders"))
        return Pending(str(public["active"]), f"{date_text(public)} turn {public['turn']} {label(public)}", wanted,
                       turn=int(public["turn"]))

    def result(self, public: Any) -> str | None:
        r = public["over"]
        return None if r is None else str(r)

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        return TABLE.parse(text, lambda no, body: WieLine(no, body, public, seat))

    def public_orders(self, orders: Any) -> Any:
        # The air missions are the secret of the commitment: not even their number is public.
        return [o for o in orders if o["verb"] != "air"]

    def private_orders(self, orders: Any) -> Any:
        return orders

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        """The orders as a file carries them, checked field by field: a hostile file is refused
        here, never met as a KeyError in the rules."""
        orders = private if private is not None else public
        if not isinstance(orders, list):
            raise InvalidInput("War in Europe orders: a list of orders")
        for o in orders:
            if not isinstance(o, dict) or o.get("verb") not in TABLE.names:
                raise InvalidInput(f"War in Europe orders: not an order: {o!r}")
            want = {"verb": str, "line": int, "col": int, **FIELDS[o["verb"]]}
            if set(o) - set(want) - OPTIONAL or set(want) - set(o):
                raise InvalidInput(f"War in Europe orders: {o['verb']} with fields {sorted(o)}")
            for k, v in o.items():
                kind = want.get(k, OPTIONAL_TYPES.get(k))
                if kind is None or not isinstance(v, kind) or (isinstance(v, bool)):
                    raise InvalidInput(f"War in Europe orders: bad field {k}={v!r}")
                items = v if isinstance(v, list) else [v]
                if k in ("hex", "path") and not all(isinstance(h, str) and HEX.match(h) for h in items):
                    raise InvalidInput(f"War in Europe orders: {k}={v!r} is not a hex")
                if k in ("units", "path") and not (items and all(isinstance(x, str) for x in items)):
                    raise InvalidInput(f"War in Europe orders: {k}={v!r}")
        return orders

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any, ctx: Context) -> Outcome:
        state = copy.deepcopy(public)
        if state["over"]:
            refuse(None, "the game is over", "76.4")
        if seat != state["active"]:
            refuse(None, f"{seat} does not act now: {state['active']} does ({label(state)})", "68.0")
        env = Env(state, seat, ctx)
        ended = False
        if state["combats"]:
            ground.resolve_pending(state, ctx)
        if state["transport"]["rolls"]:
            transport.throw_pending(state, seat, ctx)  # [WiE-base 13.6], 77.5: dice reserved by the last file
        if state["politics"]["flips"]:
            politics.throw_pending(state, seat, ctx)  # 73.11: coins reserved by this seat's last file
        europe.throw_pending(state, seat, ctx)  # 73.6: the die reserved by this seat's last file
        if bombing.throw_pending(state, seat, ctx):  # [WiE-base 24.4, 24.68]: raids and repairs reserved
            special.check_collapse(state, ctx)  # 77.1: a raid's hits may bring the collapse
        for o in orders:
            if state["active"] != seat:
                refuse(o, f"after end-phase it is {state['active']}'s turn to act ({label(state)})", "68.0")
            if state["combats"] and not str(state["phase"]).endswith("-combat"):
                refuse(o, "the attacks declared in this file are rolled at the start of your next file (strict "
                       "dice): send the rest of your player-turn then", "[WiE-base 4.0]")
            campaign.refuse_surrendered(state, sides_of(state, seat), o)  # 74.9
            if not TABLE.allowed(o["verb"], state["phase"]):
                refuse(o, f"{o['verb']} is not an order of the {label(state)}", "[WiE-base 4.0]")
            if o["verb"] == "end-phase":
                _finish(env)
                advance(state)
                ended = True
                continue
            before = (dict(state["status"]), list(state["associated"]))
            TABLE.run(env, o)
            if before != (state["status"], state["associated"]):
                supply.refresh(state, ["axis", "allied", "soviet"])  # 69.0 Example 2: at once
            ended = False
        if not ended:
            _finish(env)
            advance(state)
        return Outcome(state, {})

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        if public["over"] or public["active"] != seat:
            return []
        return TABLE.offers(public, seat, public["phase"])

    def order_template(self, public: Any, private: Any, seat: str) -> str:
        head = f"# {label(public)} ({date_text(public)}), {seat} playing {', '.join(sides_of(public, seat))}\n"
        return head + "".join(f"# {line}\n" for line in TABLE.listing(public["phase"]))

    def summary_view(self, public: Any, private: Any | None, seat: str | None) -> dict[str, Any]:
        return view.summary_view(public)

    def describe_event(self, event: dict[str, Any]) -> str:
        return view.describe(event)

    def demo_script(self, scenario: str) -> str | None:
        """One game-turn of the 1945 scenario for ``make demo`` (the demo script format)."""
        path = HERE / f"demo-{scenario}.txt"  # package data (setup.cfg: */*.txt)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def case_prestate(self, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
        return cases.prestate(self, lines)

    def case_check(self, public: Any, private: dict[str, Any], lines: list[tuple[int, str]]) -> list[str]:
        return cases.check(public, lines)


def _finish(env: Env) -> None:
    """The end of the current step: seal an air commitment, or open one (the last opening
    resolves the air war, 68.1 A)."""
    state, seat, ctx = env.state, env.seat, env.ctx
    startup.finish_step(state, None)  # 76.3 step 4's coverage, at the end of the step's file
    campaign.finish_soviet(state)  # 74.24, 74.54, 74.6: the Soviet army's stance as a cycle begins
    if state["phase"] == "air-commit":
        value = env.air if ctx.author_mode else None
        state["air"]["refs"][seat] = ctx.commit("air", value, "68.1 A: air commitment")
        env.air = []
        if ctx.strict_dice and seat == seat_order(state)[-1]:
            # The last seat opens last and rolls the air combat then: its dice are fixed now,
            # before any commitment is open (more than can be needed; unused ones are burnt).
            ctx.reserve_rolls(air.MAX_ROLLS)
    elif state["phase"] == "air-open":
        opened = ctx.open(state["air"]["refs"][seat])
        if not isinstance(opened, list):
            refuse(None, "the air commitment does not open to a list of missions", "68.1")
        air.check_commitment(state, seat, opened)
        state["air"]["opened"][seat] = opened
        if len(state["air"]["opened"]) == len(state["seats"]):
            air.resolve(state, ctx)
            special.execute_suppression(state, ctx)  # 68.1 A: Port Suppression Missions after air combat


RULES = WarInEurope()
