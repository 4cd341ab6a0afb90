"""Skirmish: a small hex wargame written on the kit only, to show a new game needs no more.

It is what the kit promises a game author (docs/kit.md): a map file read by
``pbem.kit.records`` and ``pbem.kit.hexmap`` on the other column convention than
USE's, one verb table (``pbem.kit.orders``) that parses, checks before it changes
anything, lists the template and answers the legal-actions query, a turn driven
by ``pbem.kit.sequence``, and a rules hash from ``pbem.kit.digest``. What is left
here is the game's own: its map and order of battle (data/), its rules (below,
numbered "SK n.n"). It is a test game, registered only by the tests.

Rules. SK 1: two sides, red and blue, each turn red moves, red fights, blue
moves, blue fights; after turn ``last`` (or when a side has no units) the side
with more strength wins. SK 2: orders belong to their phase. SK 3: a unit moves
once a phase up to two hexes: not into water (3.1), not across a river (3.2), not
into or through an enemy (3.3), not ending on a friend (3.4). SK 4: a unit
attacks once a phase, an enemy next to it, not across a river; a die plus the
attacker's strength, less the defender's and one for woods: 4 or more and the
defender loses a step, 1 or less and the attacker does; a unit at 0 is gone.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from pbem.kit.digest import rules_digest
from pbem.kit.hexgrid import ODD_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import Hex, Hexside, parse_hex
from pbem.kit.hexmap import HexSchema, check_hexsides, read_hex_map
from pbem.kit.orders import Line, Verb, VerbTable, resolve_name
from pbem.kit.records import Issues, ScenarioErrors, parse_int, read_records
from pbem.kit.sequence import Sequence
from pbem.rulesapi import Action, Arg, Context, Outcome, Pending, RulesModule, Scenario

HERE = Path(__file__).resolve().parent
SIDES = ("red", "blue")
SCHEMA = HexSchema(terrains=("clear", "woods", "water"), words=(), sides={"river": "river"})


class Unit(TypedDict):
    side: str
    hex: str
    strength: int


class State(TypedDict):
    turn: int
    last: int
    phase: str
    active: str
    over: str | None
    units: dict[str, Unit]
    done: list[str]  # units that moved or fought in the current phase


@dataclass(frozen=True)
class Board:
    terrain: dict[Hex, str]
    rivers: frozenset[Hexside]


@functools.cache
def board() -> Board:
    issues = Issues()
    recs = read_hex_map(read_records(HERE / "data" / "map.txt", "skirmish-map", issues), issues, SCHEMA)
    sides = check_hexsides(recs.hexes, issues, GRID)
    if issues:
        raise ScenarioErrors(issues)
    return Board({h: r.terrain for h, r in recs.hexes.items()},
                 frozenset(s for s, kinds in sides.items() if "river" in kinds))


def load_units() -> State:
    issues = Issues()
    state: State = {"turn": 1, "last": 1, "phase": "move", "active": "red", "over": None, "units": {}, "done": []}
    for rec in read_records(HERE / "data" / "units.txt", "skirmish-units", issues):
        if rec.keyword == "turns":
            state["last"] = parse_int(rec, "last", issues, 1, 1, 99)
        elif rec.keyword == "unit" and len(rec.words) == 3 and rec.words[1] in SIDES:
            state["units"][rec.words[0]] = {"side": rec.words[1], "hex": rec.words[2],
                                            "strength": parse_int(rec, "strength", issues, 1, 1, 9)}
        else:
            issues.add(rec.file, rec.line, f"expected 'unit ID red|blue HEX strength=N', got {rec.keyword!r}")
    if issues:
        raise ScenarioErrors(issues)
    return state


# --- the turn --------------------------------------------------------------------------------

def _steps(state: Any) -> list[tuple[str, str | None]]:
    return [("move", "red"), ("fight", "red"), ("move", "blue"), ("fight", "blue"), ("end-of-turn", None)]


SEQUENCE = Sequence(_steps)


def _strength(state: State, side: str) -> int:
    return sum(u["strength"] for u in state["units"].values() if u["side"] == side)


def _visit(state: Any, phase: str, seat: str | None) -> bool:
    state["done"] = []
    if phase != "end-of-turn":
        return True
    red, blue = _strength(state, "red"), _strength(state, "blue")
    if state["turn"] >= state["last"] or not red or not blue:
        state["over"] = ("red wins" if red > blue else "blue wins" if blue > red else "a draw") + \
            f" ({red} to {blue} strength, SK 1)"
    else:
        state["turn"] += 1
    return False


# --- orders ----------------------------------------------------------------------------------

@dataclass
class Env:
    state: State
    seat: str
    ctx: Context | None


class SkLine(Line):
    def __init__(self, no: int, text: str, state: State) -> None:
        super().__init__(no, text)
        self.state = state

    def unit(self) -> str:
        col, tok = self.take("a unit")
        return resolve_name(sorted(self.state["units"]), tok.upper(), self.no, col)

    def hex(self) -> str:
        col, tok = self.take("a hex XXYY")
        try:
            h = parse_hex(tok)
        except ValueError as e:
            raise self.err(str(e), col) from None
        if h not in board().terrain:
            raise self.err(f"hex {h} is not on the map", col)
        return str(h)


def _parse_move(ln: SkLine, o: dict[str, Any]) -> None:
    o["unit"] = ln.unit()
    o["path"] = [ln.hex()]
    while ln.more():
        o["path"].append(ln.hex())


def _parse_attack(ln: SkLine, o: dict[str, Any]) -> None:
    o["unit"] = ln.unit()
    o["target"] = ln.hex()


def _parse_nothing(ln: SkLine, o: dict[str, Any]) -> None:
    return None


def _own(env: Env, o: dict[str, Any]) -> Unit:
    u = env.state["units"][o["unit"]]
    if u["side"] != env.seat:
        TABLE.illegal(o, f"{o['unit']} is not yours", "1")
    if o["unit"] in env.state["done"]:
        TABLE.illegal(o, f"{o['unit']} has already acted this phase", "3" if o["verb"] == "move" else "4")
    return u


def _at(state: State, h: str) -> Unit | None:
    return next((u for u in state["units"].values() if u["hex"] == h), None)


def _crosses_river(a: str, b: str) -> bool:
    return GRID.hexside(parse_hex(a), parse_hex(b)) in board().rivers


def _check_move(env: Env, o: dict[str, Any]) -> None:
    u = _own(env, o)
    if len(o["path"]) > 2:
        TABLE.illegal(o, "a unit moves at most two hexes", "3")
    here = u["hex"]
    for step in o["path"]:
        if not GRID.adjacent(parse_hex(here), parse_hex(step)):
            TABLE.illegal(o, f"{step} is not next to {here}", "3")
        if board().terrain[parse_hex(step)] == "water":
            TABLE.illegal(o, f"{step} is water", "3.1")
        if _crosses_river(here, step):
            TABLE.illegal(o, f"a river runs between {here} and {step}", "3.2")
        other = _at(env.state, step)
        if other is not None and other["side"] != env.seat:
            TABLE.illegal(o, f"an enemy unit holds {step}", "3.3")
        here = step
    if _at(env.state, here) is not None:
        TABLE.illegal(o, f"a friendly unit already holds {here}", "3.4")


def _apply_move(env: Env, o: dict[str, Any]) -> None:
    u = env.state["units"][o["unit"]]
    frm, u["hex"] = u["hex"], o["path"][-1]
    env.state["done"].append(o["unit"])
    if env.ctx is not None:
        env.ctx.event("moved", unit=o["unit"], frm=frm, to=u["hex"])


def _check_attack(env: Env, o: dict[str, Any]) -> None:
    u = _own(env, o)
    target = _at(env.state, o["target"])
    if target is None or target["side"] == env.seat:
        TABLE.illegal(o, f"no enemy unit in {o['target']}", "4")
    if not GRID.adjacent(parse_hex(u["hex"]), parse_hex(o["target"])):
        TABLE.illegal(o, f"{o['target']} is not next to {o['unit']}", "4")
    if _crosses_river(u["hex"], o["target"]):
        TABLE.illegal(o, "no attack across a river", "4")


def _apply_attack(env: Env, o: dict[str, Any]) -> None:
    assert env.ctx is not None
    s = env.state
    att = s["units"][o["unit"]]
    name, dfn = next((k, v) for k, v in s["units"].items() if v["hex"] == o["target"])
    (die,) = env.ctx.roll(6, f"{o['unit']} attacks {o['target']}")
    woods = 1 if board().terrain[parse_hex(o["target"])] == "woods" else 0
    total = die + att["strength"] - dfn["strength"] - woods
    loser = name if total >= 4 else o["unit"] if total <= 1 else None
    s["done"].append(o["unit"])
    if loser is not None:
        s["units"][loser]["strength"] -= 1
        if s["units"][loser]["strength"] == 0:
            del s["units"][loser]
    env.ctx.event("attack", unit=o["unit"], target=name, die=die, total=total, loser=loser)


def _offer_end(state: Any, seat: str) -> list[Action]:
    return [Action("end-phase", (), "SK 2", "end this phase")]


def _offer_move(state: Any, seat: str) -> list[Action]:
    mine = sorted(k for k, u in state["units"].items() if u["side"] == seat and k not in state["done"])
    hexes = tuple(sorted(str(h) for h, t in board().terrain.items() if t != "water"))
    return [Action("move", (Arg("unit", "unit", tuple(mine)), Arg("path", "hex", hexes, repeat=True)),
                   "SK 3", "move a unit up to two hexes")] if mine else []


def _offer_attack(state: Any, seat: str) -> list[Action]:
    out = []
    for k, u in sorted(state["units"].items()):
        if u["side"] != seat or k in state["done"]:
            continue
        targets = tuple(sorted(e["hex"] for e in state["units"].values() if e["side"] != seat
                               and GRID.adjacent(parse_hex(u["hex"]), parse_hex(e["hex"]))
                               and not _crosses_river(u["hex"], e["hex"])))
        if targets:
            out.append(Action("attack", (Arg("unit", "unit", (k,)), Arg("target", "hex", targets)),
                              "SK 4", f"attack with {k}"))
    return out


TABLE: VerbTable[Env, SkLine] = VerbTable("SK", [
    Verb("move", _parse_move, _apply_move, _check_move, phases=("move",),
         help="move UNIT HEX [HEX]    # SK 3", offer=_offer_move),
    Verb("attack", _parse_attack, _apply_attack, _check_attack, phases=("fight",),
         help="attack UNIT HEX    # SK 4", offer=_offer_attack),
    Verb("end-phase", _parse_nothing, lambda env, o: None, help="end-phase    # SK 2", offer=_offer_end),
])


# --- the rules module --------------------------------------------------------------------------

class Skirmish(RulesModule):
    name = "skirmish"
    version = "1"
    title = "Skirmish (test game on the kit)"
    dice_modes = ("window",)

    def rules_hash(self) -> bytes:
        return rules_digest(self.name, self.version, HERE)

    def scenarios(self) -> list[str]:
        return ["meeting"]

    def load_scenario(self, name: str) -> Scenario:
        if name != "meeting":
            raise ScenarioErrors([])
        board()
        state = load_units()
        from pbem.formats.hashing import lhash

        digest = lhash("skirmish/scenario", (HERE / "data" / "map.txt").read_bytes(),
                       (HERE / "data" / "units.txt").read_bytes())
        return Scenario(self.name, name, "A meeting engagement", digest, SIDES, state)

    def initial_state(self, scenario: Scenario, seats: dict[str, str], options: dict[str, Any]
                      ) -> tuple[Any, dict[str, Any]]:
        return copy.deepcopy(scenario.data), {s: None for s in SIDES}

    def pending(self, public: Any) -> Pending | None:
        if public["over"]:
            return None
        return Pending(public["active"], f"turn {public['turn']} {SEQUENCE.label(public)}",
                       "your orders for this phase", turn=public["turn"])

    def result(self, public: Any) -> str | None:
        return public["over"]  # type: ignore[no-any-return]

    def parse_orders(self, text: str, seat: str, public: Any, private: Any) -> Any:
        return TABLE.parse(text, lambda no, body: SkLine(no, body, public))

    def public_orders(self, orders: Any) -> Any:
        return orders

    def orders_from_wire(self, public: Any, private: Any | None) -> Any:
        return public

    def apply(self, public: Any, private: dict[str, Any], seat: str, orders: Any, ctx: Context) -> Outcome:
        state: State = copy.deepcopy(public)
        env = Env(state, seat, ctx)
        for o in orders:
            if not TABLE.allowed(o["verb"], state["phase"]):
                TABLE.illegal(o, f"{o['verb']} belongs to the {TABLE.phase(o['verb'])} phase, "
                              f"not the {state['phase']} phase", "2")
            TABLE.run(env, o)
        SEQUENCE.advance(state, lambda phase, s: _visit(state, phase, s))
        return Outcome(state, {})

    def legal_actions(self, public: Any, private: Any, seat: str) -> list[Action]:
        if public["over"] or public["active"] != seat:
            return []
        return TABLE.offers(public, seat, public["phase"])

    def order_template(self, public: Any, private: Any, seat: str) -> str:
        return "".join(f"# {line}\n" for line in TABLE.listing(public["phase"]))

    def describe_event(self, event: dict[str, Any]) -> str:
        if event.get("kind") == "moved":
            return f"{event['unit']} moved from {event['frm']} to {event['to']}"
        if event.get("kind") == "attack":
            outcome = f"{event['loser']} loses a step" if event["loser"] else "no effect"
            return f"{event['unit']} attacked {event['target']}: die {event['die']}, total {event['total']}: {outcome}"
        return super().describe_event(event)


SKIRMISH = Skirmish()
