"""The public state of War in Europe and the questions the rules ask of it.

Public state (canonical plain data; nothing is hidden on the map in War in Europe: the only
secrets are the air commitments, sealed by the engine and opened together, 68.1 A):

* ``scenario``, ``turn`` (1..), ``last``, ``phase``, ``active``, ``over``, ``seats``
  (seat -> sides it plays, 67.2/71.32), ``order`` (the sides' player-turn order, 69.4);
* ``units``: id -> {side, nation, type, hex ("" once eliminated)};
* ``held``: hex -> side, only where it differs from the map's HELD ([WiE-base 5.4]);
* ``status``: "a/b" -> peace | war | limited-war | total-war (71.0); ``associated``: ["a/b"]
  (69.0); ``proposals``: [[from, to, what]] standing offers (association, peace);
* ``air``: the Joint Tactical Air War of this game-turn (refs, opened, pools, results);
* per phase: ``moved``, ``attacked_hexes``, ``attackers``; per game-turn ``attacked``
  (unit -> sides that attacked it, 69.3).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from pbem.kit.hexgrid import EVEN_COLUMNS_LOW as GRID
from pbem.kit.hexgrid import parse_hex

from .data import SIDES, Board, Data, load, pair

HOSTILE = ("war", "limited-war", "total-war")
# 76.3's starting steps and the side acting in each (startup.py plays them; ground.py names the
# acting side from them: kept here, below both, so neither imports the other)
STEPS = {"setup-1": "allied", "setup-4": "axis", "setup-5": "soviet"}
_TYPE = re.compile(r"^(\[)?(\d+)(\])?(?:-(\d+))?-(\d+)(KG|BG)?$")


@functools.cache
def stats(utype: str) -> dict[str, Any]:
    """A printed type as numbers ([WiE-base 1.2]): attack, defence, bombard, MA and its kind."""
    if utype in ("SUP", "RR"):
        return {"att": 0, "def": 0, "bombard": 0, "ma": 5, "kind": utype.lower()}
    m = _TYPE.match(utype)
    if not m:
        raise ValueError(f"unknown unit type {utype!r}")
    fortress, a, mid, ma = m.group(1) is not None, int(m.group(2)), m.group(4), int(m.group(5))
    if mid is not None:  # B-D-M: artillery
        return {"att": 0, "def": int(mid), "bombard": a, "ma": ma, "kind": "artillery"}
    if fortress:
        return {"att": 0, "def": a, "bombard": 0, "ma": ma, "kind": "fortress"}
    return {"att": a, "def": a, "bombard": 0, "ma": ma, "kind": "mech" if ma >= 6 else "infantry"}


def board(state: Any) -> Board:
    return scenario_data(state).board


def scenario_data(state: Any) -> Data:
    return load(str(state["scenario"]))


def key(a: str, b: str) -> str:
    return "/".join(pair(a, b))


def status(state: Any, a: str, b: str) -> str:
    return str(state["status"][key(a, b)])


def associated(state: Any, a: str, b: str) -> bool:
    return a != b and key(a, b) in state["associated"]


def hostile(state: Any, a: str, b: str) -> bool:
    """At war (limited or total counts the same, 71.11) and not associated."""
    return a != b and status(state, a, b) in HOSTILE and not associated(state, a, b)


def seat_of(state: Any, side: str) -> str:
    for seat, sides in state["seats"].items():
        if side in sides:
            return str(seat)
    raise KeyError(side)


def seat_order(state: Any) -> list[str]:
    """The seats in the formal order of their first sides (68.0): a canonical dict's keys are
    sorted, so the order is never read from ``state["seats"]`` itself."""
    return sorted(state["seats"], key=lambda s: min(SIDES.index(x) for x in state["seats"][s]))


def sides_of(state: Any, seat: str) -> list[str]:
    return list(state["seats"].get(seat, []))


def holder(state: Any, h: str) -> str:
    """[WiE-base 5.4]; a neutral hex is its country's controller's once 73.1 gives it one."""
    got = str(state["held"][h]) if h in state["held"] else board(state).held.get(parse_hex(h), "-")
    if got == "neutral" and "politics" in state:
        return str(neutral(state, country(state, h))["control"] or "neutral")
    return got


def country(state: Any, h: str) -> str:
    """map.txt's COUNTRY of ``h``, unless the state's ``politics.countries`` says otherwise (a case's board)."""
    return str(state["politics"]["countries"].get(h) or board(state).country.get(parse_hex(h), "-"))


def neutral(state: Any, c: str) -> dict[str, Any]:
    """The 72/73 record of a neutral country (politics.py); an armed neutral, uncontrolled, by default."""
    return dict(state["politics"]["neutrals"].get(c) or {"status": "armed", "control": "", "by": ""})


def units_at(state: Any, h: str) -> list[str]:
    return sorted(k for k, u in state["units"].items() if u["hex"] == h)


def occupant(state: Any, h: str) -> str | None:
    """The side with units in ``h`` (units of two sides never stack, [WiE-base 7.1])."""
    for k in units_at(state, h):
        return str(state["units"][k]["side"])
    return None


def zoc_hexes(state: Any, side: str) -> set[str]:
    """Hexes in the zone of control of units hostile to ``side`` ([WiE-base 6.1]; 69.1: an
    associate's ZOC is ignored, as is the ZOC of a player at peace)."""
    b = board(state)
    out: set[str] = set()
    for u in state["units"].values():
        if not u["hex"] or not hostile(state, side, u["side"]):
            continue
        st = stats(u["type"])
        if st["att"] <= 0 or st["kind"] in ("fortress", "artillery", "sup", "rr"):
            continue
        h = parse_hex(u["hex"])
        for n in GRID.neighbours(h):
            if b.land(n) and GRID.hexside(h, n) not in b.water:
                out.add(str(n))
    return out


# --- dates and weather ([WiE-base 2]) -----------------------------------------------------------

def date(state: Any, turn: int | None = None) -> tuple[int, int, int]:
    """(game-turn in cycle 1-4, cycle 1-13, year) of ``turn`` (default: the current one)."""
    # ``first_turn`` in the state: a board of a rules case set at another date (cases.py ``date``).
    gt, cy, yr = (int(x) for x in str(state.get("first_turn") or scenario_data(state).first_turn).split("/"))
    n = (gt - 1) + (cy - 1) * 4 + (turn or int(state["turn"])) - 1
    return n % 4 + 1, n // 4 % 13 + 1, yr + n // 52


def year(state: Any) -> int:
    """The calendar year of the current game-turn (the records write it with two digits)."""
    y = date(state)[2]
    return y + 1900 if y < 100 else y


def date_text(state: Any) -> str:
    gt, cy, yr = date(state)
    return f"{gt}/{cy}/{yr % 100:02d}"


def weather(state: Any, front: str) -> str:
    """Fixed weather by cycle and Air Front ([WiE-base 2.3], tables.toml [weather])."""
    table = scenario_data(state).tables.get("weather", {})
    _, cy, _ = date(state)
    for kind in ("snow", "mud", "rain"):
        w = table.get(kind, {})
        if cy in w.get("cycles", []) and front in w.get("fronts", []):
            return kind
    return "clear"


def bad_weather(state: Any, h: str) -> bool:
    """Snow, mud or rain (rain is as mud) in the hex's Air Front."""
    return weather(state, board(state).air.get(parse_hex(h), "-")) != "clear"


def neighbours(h: str) -> list[str]:
    return [str(n) for n in GRID.neighbours(parse_hex(h))]


def adjacent(a: str, b: str) -> bool:
    return GRID.adjacent(parse_hex(a), parse_hex(b))


def river_between(state: Any, a: str, b: str) -> bool:
    return GRID.hexside(parse_hex(a), parse_hex(b)) in board(state).rivers


def water_between(state: Any, a: str, b: str) -> bool:
    return GRID.hexside(parse_hex(a), parse_hex(b)) in board(state).water


def is_land(state: Any, h: str) -> bool:
    try:
        return board(state).land(parse_hex(h))
    except ValueError:
        return False


def initial_state(data: Data, seats: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    units = {u.uid: {"side": u.side, "nation": u.nation, "type": u.type, "hex": u.hex} for u in data.units}
    return {
        "scenario": data.name, "turn": 1, "last": data.turns, "phase": "air-commit", "active": "",
        "over": None, "seats": {s: list(v) for s, v in seats.items()}, "order": list(SIDES),
        "units": units, "held": {},
        "status": {key(a, b): v for (a, b), v in sorted(data.status.items())},
        "associated": sorted(key(a, b) for a, b in data.associated), "proposals": [],
        "air": new_air(), "moved": [], "attacked_hexes": [], "attackers": [], "attacked": {}, "mech_used": [],
    }


def new_air() -> dict[str, Any]:
    return {"refs": {}, "opened": {}, "results": {}, "used": {}}


def air_left(state: Any, side: str, front: str, mission: str) -> int:
    """Points of ``mission`` that survived this game-turn's air combat and are not yet used."""
    have = int(state["air"]["results"].get(front, {}).get(side, {}).get(mission, 0))
    return have - int(state["air"]["used"].get(f"{side}/{front}/{mission}", 0))


def use_air(state: Any, side: str, front: str, mission: str, n: int) -> None:
    k = f"{side}/{front}/{mission}"
    state["air"]["used"][k] = int(state["air"]["used"].get(k, 0)) + n


def front_of(state: Any, h: str) -> str:
    return board(state).air.get(parse_hex(h), "-")
