"""The EuroFront II rules module (1936 Spanish Civil War), on the shared kit.

Registered as the entry point ``eurofront`` (setup.cfg); tests also use
``pbem_rules.eurofront.module.RULES`` directly.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path
from typing import Any

from pbem.errors import InvalidInput, OrderError, OrderErrors
from pbem.kit.digest import rules_digest
from pbem.rulesapi import Action, Context, Outcome, Pending, RulesModule, Scenario

from . import aid_end, assign, audit, cases, legal, overstack, railheads, setup, victory, view
from .data import SCENARIOS, SEATS, load
from .production import SEALED
from .sequence import SEQUENCE, advance, finish
from .supply import owed
from .table import TABLE
from .verbs import EfLine, Env, illegal

HERE = Path(__file__).resolve().parent
# 0.1: the first registered release (pbem 0.2.0); 0.2 (pbem 0.3.0): every event a sentence,
# the scenario loader fuzzed (load_dir); 0.1's games replay unchanged.
VERSION = "0.2"
ORDER_FIELDS: dict[str, type | tuple[type, ...]] = {
    "verb": str, "line": int, "col": int, "block": str, "deploy": (str, type(None)), "path": list, "supreme": bool,
    "hex": str, "blocks": list, "unit": str, "cost": int, "blitz": bool, "paradrop": bool, "double": bool,
    "advance": str, "cv": int, "sealed": bool}


class EuroFront(RulesModule):
    name = "eurofront"
    version = VERSION
    title = "EuroFront II: the 1936 Spanish Civil War"

    def rules_hash(self) -> bytes:
        return rules_digest(self.name, self.version, HERE)

    def scenarios(self) -> list[str]:
        return list(SCENARIOS)

    def load_scenario(self, name: str) -> Scenario:
        data = load(name)
        h = hashlib.sha256(b"pbem/eurofront/scenario")
        for part in data.digest_parts:
            h.update(len(part).to_bytes(8, "big") + part)
        return Scenario(self.name, name, data.title, h.digest(), SEATS, data)

    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        option = options.get("setup-option")
        return setup.initial_state(scenario.data, str(options.get("setup", scenario.data.default_setup)),
                                   None if option is None else str(option))

    def started_by(self, public: Any, version: str) -> Any:
        """Games of release 0.2 and later follow the rulebook text where the audit of 0.2 found 0.1
        departing from it (the public ``v2`` mark, state.v2: combat support fixed at the start of the
        Combat Phase, hex control fixed at the start of each phase, the aid and blockade of the
        Production being entered, ...); those of 0.1 (pbem 0.2.0) replay as they were played."""
        if version == "0.1":
            return {k: v for k, v in public.items() if k != "v2"}
        return public

    def initial_reservations(self, public: Any) -> dict[str, int]:
        """Strict dice: each seat's first file (the seal) shuffles its blocks with secret rolls."""
        if public["phase"] == "place":
            return {}  # the Free Setup: the file ending the placement reserves them (sealed_place.end)
        out = {s: setup.shuffle_rolls(public, s) for s in SEATS if s not in public["sealed"]}
        return {s: n for s, n in out.items() if n}

    def audit_final(self, public: Any, opened: dict[str, Any]) -> list[str]:
        """Hidden blocks' trails never re-checked in play, against the identities opened at the end."""
        return audit.audit_final(public, opened) + assign.audit_totals(public, opened)

    def pending(self, public: Any) -> Pending | None:
        if public["over"]:
            return None
        wanted = {"place": "place UNIT HEX (SCW Free Setup: one unit a file, Republicans first)"
                  if not public.get("sealed_free") else "place UNIT HEX for every infantry and HQ unit, sealed",
                  "seal": "seal your blocks (and roll your militia's places)",
                  "weather": "roll your weather die (end-phase, 12.1)",
                  "defence": "reveal your blocks in the Active Battles and fire (end-phase, 7.14, 7.22)",
                  "fire": "fire in the Active Battles (end-phase, 7.22)",
                  "pursuit": "fire on the retreating Rearguards (end-phase, 6.52)",
                  "production": "your sealed production: build BLOCK / arrive UNIT HEX (11.0)",
                  "production-open": "open your sealed production (end-phase, 11.0)"}.get(
            public["phase"].removeprefix("blitz-"), "your orders for this phase")
        return Pending(public["active"], f"{public['month']} fortnight {public['fortnight']} "
                       f"{SEQUENCE.label(public)}", wanted, turn=int(public["turn"]))

    def result(self, public: Any) -> str | None:
        r: str | None = public["over"]
        return r

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        board = load(public["scenario"]).board
        return {"orders": TABLE.parse(text, lambda no, body: EfLine(no, body, public, board))}

    def public_orders(self, orders: Any) -> Any:
        # Production lines are sealed (production.py); every other word names public things.
        # A placement's unit is its owner's secret; its hex is public (placement.py). The CVs
        # assigned at the seal are sealed with the identities (assign.py).
        return {"orders": [{k: v for k, v in o.items() if not (o["verb"] == "place" and k == "unit")}
                           for o in orders["orders"] if o["verb"] not in (*SEALED, "cv") and not o.get("sealed")]}

    def private_orders(self, orders: Any) -> Any:
        # The author's full orders (sealed builds, the unit placed): the full audit replays them.
        return {"orders": [dict(o) for o in orders["orders"]]}

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        src = private if private is not None else public
        if not isinstance(src, dict) or not isinstance(src.get("orders"), list):
            raise InvalidInput("EuroFront orders: expected {'orders': [...]}")
        for o in src["orders"]:
            if not isinstance(o, dict) or o.get("verb") not in TABLE.names:
                raise InvalidInput(f"EuroFront orders: not an order: {o!r}")
            for k, v in o.items():
                kind = ORDER_FIELDS.get(k)
                if kind is None or not isinstance(v, kind) or (isinstance(v, bool) and kind is not bool):
                    raise InvalidInput(f"EuroFront orders: bad field {k}={v!r}")
            if o.get("sealed") and o["verb"] != "place":
                raise InvalidInput("EuroFront orders: only a placement is sealed")
            if not all(isinstance(h, str) for h in [*o.get("path", []), *o.get("blocks", [])]):
                raise InvalidInput("EuroFront orders: a path lists hexes")
        return {"orders": [dict(o) for o in src["orders"]]}

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any, ctx: Context) -> Outcome:
        pub = copy.deepcopy(public)
        # The author's tool, and the end-of-game audit (which replays each file with its author's
        # private state), check the hidden facts too; the other tools have none.
        mine = copy.deepcopy(private.get(seat)) if private.get(seat) is not None else None
        env = Env(pub, mine, seat, ctx, load(pub["scenario"]).board)
        if pub["over"] or pub["active"] != seat:
            raise illegal(None, f"it is not {seat}'s turn: {SEQUENCE.label(pub)}", "4.3")
        aid_end.roll_due(env)  # reserved dice first, in the order they were reserved
        railheads.soviet_blockade(env)
        victory.roll_due(env)
        before = victory.sides_on_map(pub)
        overstack.due(env)  # 6.22: its hidden blocks in an involuntarily overstacked hex
        ended = False
        for o in orders["orders"]:
            if pub["active"] != seat or pub["over"]:
                raise illegal(o, f"your phases are over: it is now the {SEQUENCE.label(pub)}", "4.3")
            _sane(env, o)
            if not TABLE.allowed(o["verb"], pub["phase"]):
                raise illegal(o, f"{o['verb']} belongs to the {TABLE.phase(o['verb'])} phase, "
                              f"not the {pub['phase']} phase", "4.3")
            if o["verb"] == "end-phase":
                finish(env, o)
                advance(env)
                env.seat, ended = seat, True
                continue
            TABLE.run(env, o)
            ended = False
        if not ended:
            finish(env, None)
            advance(env)
        env.seat = seat
        victory.verdict(env)
        victory.defeat(before, pub)
        for tok in aid_end.owed(env):
            raise illegal(None, f"foreign aid has ended: withdraw {tok} (withdraw {tok})", "SCW 6")
        for tok in owed(env):
            raise illegal(None, f"{tok} lost its last step to supply attrition: remove it (attrition {tok})", "10.6")
        return Outcome(pub, {seat: mine} if mine is not None else {})

    def check_orders(self, text: str, seat: str, public: Any, private: Any,
                     ctx: Context | None = None) -> list[OrderError]:
        from pbem.kit.cases import ScriptedContext

        try:
            parsed = self.parse_orders(text, seat, public, private)
            self.apply(public, {seat: private}, seat, parsed, ctx or ScriptedContext(seat, seq=0))
        except OrderErrors as e:
            return list(e.errors)
        except OrderError as e:
            return [e]
        return []

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        return legal.legal_actions(public, private, seat, load(public["scenario"]).board)

    def order_template(self, public: Any, private: Any, seat: str) -> str:
        return "".join(f"# {line}\n" for line in TABLE.listing(public["phase"]))

    def summary_view(self, public: Any, private: Any | None, seat: str | None) -> dict[str, Any]:
        return view.summary_view(public, private, seat)

    def describe_event(self, event: dict[str, Any]) -> str:
        return view.describe(event)

    def demo_script(self, scenario: str) -> str | None:
        """The first month of the SCW for ``make demo`` (in the demo script format USE's demo uses)."""
        path = HERE / f"demo-{scenario}.txt"  # package data (setup.cfg: */*.txt)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def case_prestate(self, lines: list[tuple[int, str]]) -> tuple[Any, dict[str, Any]]:
        return cases.prestate(lines)

    def case_check(self, public: Any, private: dict[str, Any], lines: list[tuple[int, str]]) -> list[str]:
        return cases.check(public, private, lines)


def _sane(env: Env, o: dict[str, Any]) -> None:
    """What another seat's file names must exist: a block on the map, hexes of the map (the parser
    checks the author's own text; a hostile file skips the parser)."""
    if "block" in o and o["block"] not in env.public["blocks"] and o["verb"] != "cadre":  # cadre: an eliminated one
        raise illegal(o, f"no block {o['block']!r} is on the map", "6.1")
    for h in [*o.get("path", []), *([o["deploy"]] if o.get("deploy") else []), *([o["hex"]] if "hex" in o else [])]:
        if h not in env.board.terrain:
            raise illegal(o, f"{h!r} is not a hex of the map", "1.2")


RULES = EuroFront()
